// read_text_file: the whole file, every byte as it is, whatever its size says (a /proc file
// says 0, a FIFO has none), and an IoError naming the path otherwise.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>

#include <sys/stat.h>

#include "rmodel/base/error.hpp"
#include "rmodel/base/file.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

class ReadTextFile : public ::testing::Test {
protected:
  void SetUp() override { dir_ = rmodel::test::make_temp_dir("rmodel-read-file"); }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& bytes) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path.string();
  }

  fs::path dir_;
};

TEST_F(ReadTextFile, EveryByteOfFilesOfManySizes) {
  std::mt19937 random(7);
  // Around the first block and the sizes a doubling buffer passes through.
  for (const std::size_t size : {0UL, 1UL, 4095UL, 4096UL, 4097UL, 65536UL, 1000003UL}) {
    std::string bytes(size, '\0');
    for (char& c : bytes) c = static_cast<char>(random());  // NUL, CR, any byte
    EXPECT_EQ(rmodel::read_text_file(write("f" + std::to_string(size), bytes)), bytes) << size;
  }
}

TEST_F(ReadTextFile, AFileWhoseSizeSaysNothingIsReadToItsEnd) {
  // /proc files report size 0 and hold text.
  const std::string status = rmodel::read_text_file("/proc/self/status");
  EXPECT_NE(status.find("Name:"), std::string::npos);
  EXPECT_EQ(status.back(), '\n');
  // A FIFO: written by another thread in pieces larger than any first guess.
  const std::string fifo = (dir_ / "pipe").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string bytes(300000, 'x');
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << bytes; });
  const std::string read = rmodel::read_text_file(fifo);
  writer.join();
  EXPECT_EQ(read, bytes);
}

TEST_F(ReadTextFile, MissingAndDirectoryAreIoErrorsNamingThePath) {
  const std::string missing = (dir_ / "missing.urdf").string();
  try {
    (void)rmodel::read_text_file(missing);
    ADD_FAILURE() << "no error";
  } catch (const rmodel::IoError& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no such file"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)rmodel::read_text_file(dir_.string()), rmodel::IoError);
}

}  // namespace
