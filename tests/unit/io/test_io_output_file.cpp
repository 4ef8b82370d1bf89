// io::OutputFile (issue 40): a file appears, or replaces the one of its name, only at commit();
// discarded or destroyed before, it leaves the target as it was and no file of its own. The
// oracle is the documented promise (rmodel/io/output_file.hpp) and the file system itself.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>

#include "rmodel/base/error.hpp"
#include "rmodel/io/output_file.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;
using test::read_file;

class OutputFileTest : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-output-file"); }
  void TearDown() override { fs::remove_all(dir_); }

  /// The names in the directory.
  [[nodiscard]] std::set<std::string> names() const {
    std::set<std::string> out;
    for (const auto& entry : fs::directory_iterator(dir_)) out.insert(entry.path().filename().string());
    return out;
  }

  static void put(const io::OutputFile& file, std::string_view text) {
    ASSERT_EQ(::write(file.fd(), text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }

  fs::path dir_;
};

mode_t mode_of(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

mode_t current_umask() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

TEST_F(OutputFileTest, NewFileAppearsOnlyAtCommitWithTheUsualMode) {
  const fs::path target = dir_ / "new.jsonl";
  io::OutputFile file = io::OutputFile::open(target.string());
  EXPECT_TRUE(file.aside());
  EXPECT_FALSE(file.replaces());
  put(file, "complete\n");
  EXPECT_FALSE(fs::exists(target)) << "the file appeared before the output was complete";
  file.commit();
  EXPECT_EQ(file.fd(), -1);
  EXPECT_EQ(read_file(target), "complete\n");
  EXPECT_EQ(mode_of(target), 0666 & ~current_umask());
  EXPECT_EQ(names(), std::set<std::string>{"new.jsonl"});
}

TEST_F(OutputFileTest, ExistingFileIsReplacedWholeKeepingItsMode) {
  const fs::path target = dir_ / "old.csv";
  std::ofstream(target) << "the good old file\n";
  ASSERT_EQ(::chmod(target.c_str(), 0640), 0);
  io::OutputFile file = io::OutputFile::open(target.string());
  EXPECT_TRUE(file.replaces());
  put(file, "new\n");
  EXPECT_EQ(read_file(target), "the good old file\n") << "replaced before commit()";
  file.commit();
  EXPECT_EQ(read_file(target), "new\n");
  EXPECT_EQ(mode_of(target), 0640u);
  EXPECT_EQ(names(), std::set<std::string>{"old.csv"});
}

TEST_F(OutputFileTest, DiscardedOrDestroyedLeavesTheTargetAndNothingBeside) {
  const fs::path old_file = dir_ / "old.jsonl", new_file = dir_ / "new.jsonl";
  std::ofstream(old_file) << "precious\n";
  {
    io::OutputFile file = io::OutputFile::open(old_file.string());
    put(file, "half a run");
  }  // destroyed without commit()
  {
    io::OutputFile file = io::OutputFile::open(new_file.string());
    put(file, "half a run");
    file.discard();
    EXPECT_EQ(file.fd(), -1);
    file.commit();  // nothing left to put in place
  }
  {
    io::OutputFile file = io::OutputFile::open(old_file.string());
    io::OutputFile moved = std::move(file);  // the moved-from one owns nothing
    put(moved, "half a run");
  }
  EXPECT_EQ(read_file(old_file), "precious\n");
  EXPECT_EQ(names(), std::set<std::string>{"old.jsonl"});
}

TEST_F(OutputFileTest, SymbolicLinksAreFollowedAndKept) {
  const fs::path target = dir_ / "target.jsonl", link = dir_ / "link.jsonl";
  std::ofstream(target) << "old\n";
  fs::create_symlink("target.jsonl", link);  // relative, as `ln -s` makes them
  io::OutputFile file = io::OutputFile::open(link.string());
  put(file, "new\n");
  file.commit();
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(target), "new\n");

  // A dangling link: the file it names is created, the link stays.
  fs::create_directory(dir_ / "sub");
  const fs::path dangling = dir_ / "dangling.jsonl";
  fs::create_symlink(dir_ / "sub" / "made.jsonl", dangling);
  io::OutputFile made = io::OutputFile::open(dangling.string());
  put(made, "made\n");
  made.commit();
  EXPECT_TRUE(fs::is_symlink(dangling));
  EXPECT_EQ(read_file(dir_ / "sub" / "made.jsonl"), "made\n");
}

TEST_F(OutputFileTest, HardLinksKeepTheOldContents) {
  const fs::path target = dir_ / "a.jsonl", other = dir_ / "b.jsonl";
  std::ofstream(target) << "old\n";
  fs::create_hard_link(target, other);
  io::OutputFile file = io::OutputFile::open(target.string());
  put(file, "new\n");
  file.commit();
  EXPECT_EQ(read_file(target), "new\n");
  EXPECT_EQ(read_file(other), "old\n");
}

TEST_F(OutputFileTest, DevicesAndPipesAreWrittenDirectly) {
  io::OutputFile null = io::OutputFile::open("/dev/null");
  EXPECT_FALSE(null.aside());
  put(null, "gone\n");
  null.commit();
  EXPECT_TRUE(fs::is_character_file("/dev/null"));

  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  io::OutputFile pipe = io::OutputFile::open(fifo.string());
  EXPECT_FALSE(pipe.aside());
  put(pipe, "through\n");
  char buf[16] = {};
  EXPECT_EQ(::read(reader, buf, sizeof buf), 8);
  EXPECT_EQ(std::string(buf, 8), "through\n");
  pipe.discard();  // nothing to undo: what was written was read
  ::close(reader);
  EXPECT_TRUE(fs::is_fifo(fifo));

  io::OutputFile out = io::OutputFile::open("-");
  EXPECT_EQ(out.fd(), STDOUT_FILENO);
  EXPECT_FALSE(out.aside());
  out.commit();
  EXPECT_NE(::fcntl(STDOUT_FILENO, F_GETFD), -1) << "stdout was closed";
}

TEST_F(OutputFileTest, WhatCannotBeCreatedIsAWriteErrorNamingThePath) {
  fs::create_directory(dir_ / "a_directory");
  for (const fs::path& bad : {dir_ / "a_directory", dir_ / "missing" / "x.jsonl"}) {
    SCOPED_TRACE(bad.string());
    try {
      (void)io::OutputFile::open(bad.string());
      ADD_FAILURE() << "expected a WriteError";
    } catch (const WriteError& e) {
      EXPECT_EQ(e.path(), bad.string());
    }
  }
  EXPECT_EQ(names(), std::set<std::string>{"a_directory"});
}

TEST_F(OutputFileTest, AFileThatMayNotBeWrittenIsNotReplaced) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: permissions are not enforced";
  const fs::path target = dir_ / "read_only.jsonl";
  std::ofstream(target) << "keep\n";
  ASSERT_EQ(::chmod(target.c_str(), 0444), 0);
  EXPECT_THROW((void)io::OutputFile::open(target.string()), WriteError);
  EXPECT_EQ(read_file(target), "keep\n");
}

TEST_F(OutputFileTest, RemovingTemporariesTouchesNoTargetAndNoOtherFile) {
  // What a signal handler calls: only the files written aside go (an unnamed one has no name).
  const fs::path target = dir_ / "t.jsonl", bystander = dir_ / ".t.jsonl.rmodel-abcdef";
  std::ofstream(target) << "old\n";
  std::ofstream(bystander) << "not ours\n";
  io::OutputFile file = io::OutputFile::open(target.string());
  put(file, "new\n");
  io::OutputFile::remove_temporaries();
  EXPECT_EQ(read_file(target), "old\n");
  EXPECT_EQ(read_file(bystander), "not ours\n");
  EXPECT_EQ(names(), (std::set<std::string>{"t.jsonl", ".t.jsonl.rmodel-abcdef"}));
}

}  // namespace
}  // namespace rmodel
