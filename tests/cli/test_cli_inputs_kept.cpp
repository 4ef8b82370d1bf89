// An output never destroys an input (issue 21): `-o` naming one of the command's inputs —
// the same path, a symbolic link, a hard link, another path to it — is refused before
// anything is opened for writing, and an existing output is replaced only by a complete one.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;
using test::fixture;
using test::read_file;
using test::run_rmodel;

constexpr const char* kLog =
    R"({"t":0,"name":["head_yaw","neck_pitch"],"position":[0.1,0.2]})" "\n"
    R"({"t":0.01,"name":["head_yaw","neck_pitch"],"position":[0.15,0.25]})" "\n"
    R"({"t":0.02,"name":["head_yaw","neck_pitch"],"position":[0.2,0.3]})" "\n";

class InputsKept : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = test::make_temp_dir("rmodel-inputs-kept");
    log_ = dir_ / "t.jsonl";
    std::ofstream(log_) << kLog;
    fs::create_symlink(log_, dir_ / "link.jsonl");
    fs::create_hard_link(log_, dir_ / "hard.jsonl");
    fs::create_directory(dir_ / "sub");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Every way of naming the input again as the output.
  std::vector<std::string> same_files(const fs::path& input) const {
    return {input.string(), (dir_ / "link.jsonl").string(), (dir_ / "hard.jsonl").string(),
            (dir_ / "sub" / ".." / input.filename()).string()};
  }

  fs::path dir_, log_;
};

TEST_F(InputsKept, OutputThatIsAnInputIsRefusedAndTheInputUnchanged) {
  const std::string in = log_.string();
  const std::vector<std::vector<std::string>> commands = {
      {"aggregate", "--sample", in},
      {"filter", "exponential", "-p", "tau=0.05", in},
      {"fk", "--sample", "--log", in},
      {"check-log", "--sample", in, "-f", "json"},
      {"log-info", in, "-f", "json"},
  };
  for (const auto& command : commands) {
    for (const std::string& out : same_files(log_)) {
      SCOPED_TRACE(command[0] + " -o " + out);
      std::vector<std::string> args = command;
      args.insert(args.end(), {"-o", out});
      const auto r = run_rmodel(args);
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_NE(r.err.find("-o " + out + " is the input " + in), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("would destroy the input"), std::string::npos) << r.err;
      EXPECT_EQ(read_file(log_), kLog);
    }
  }
  // A fresh output beside it is written as usual.
  const auto ok = run_rmodel({"aggregate", "--sample", in, "-o", (dir_ / "out.jsonl").string()});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(read_file(log_), kLog);
}

TEST_F(InputsKept, RecordedMcapAndSemanticsFilesAreRefusedToo) {
  RMODEL_REQUIRE_FIXTURES();
  // Issue 21: `aggregate b.mcap -o b.mcap` turned a recorded MCAP into an empty one.
  const fs::path bag = dir_ / "b.mcap";
  fs::copy_file(fixture("bags/greeting.zstd.mcap"), bag);
  const std::string before = read_file(bag);
  const auto r = run_rmodel({"aggregate", "-u", fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(), "-s",
                             fixture("sweetie_bot_proto2/kinematic_chains.cpf").string(), bag.string(), "-o",
                             bag.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(read_file(bag), before);

  // convert: the output names the semantics file it reads.
  const fs::path cpf = dir_ / "chains.cpf";
  fs::copy_file(fixture("sweetie_bot_proto2/kinematic_chains.cpf"), cpf);
  const std::string cpf_before = read_file(cpf);
  const auto c = run_rmodel({"convert", cpf.string(), "-f", "cpf", "-o", cpf.string()});
  EXPECT_EQ(c.exit_code, 2) << c.err;
  EXPECT_NE(c.err.find("would destroy the input"), std::string::npos) << c.err;
  EXPECT_EQ(read_file(cpf), cpf_before);
}

// A model file is an input as much as a log: `-o` naming the URDF is refused.
TEST_F(InputsKept, ModelFileAsOutputIsRefused) {
  const fs::path urdf = dir_ / "m.urdf";
  fs::copy_file(test::sample("pony.urdf"), urdf);
  const std::string before = read_file(urdf);
  const auto r = run_rmodel({"joints", "-u", urdf.string(), "-o", urdf.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(read_file(urdf), before);
}

// An existing output is replaced by the complete new one (through a symbolic link: the
// link's target, the link kept; the file's mode kept), and no file is left beside it.
TEST_F(InputsKept, ExistingOutputIsReplacedWholeThroughItsLink) {
  const fs::path target = dir_ / "result.jsonl", link = dir_ / "result-link.jsonl";
  std::ofstream(target) << "old\n";
  ::chmod(target.c_str(), 0640);
  fs::create_symlink(target, link);
  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"-f", "csv"}}) {
    std::vector<std::string> args = {"filter", "exponential", "-p", "tau=0.05", log_.string(), "-o", link.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_rmodel(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(link));
    const std::string text = read_file(target);
    EXPECT_NE(text, "old\n");
    EXPECT_NE(text.find(extra.empty() ? "\"t\":0.02" : "0.02,"), std::string::npos) << text;
    EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  }
  // A document output (check-log's report) too.
  const auto r = run_rmodel({"check-log", "--sample", log_.string(), "-f", "json", "-o", link.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_file(target).find("\"schema\""), std::string::npos);
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) files += entry.path().filename().string().rfind(".", 0) == 0;
  EXPECT_EQ(files, 0u) << "a temporary file was left behind";
}

}  // namespace
}  // namespace rmodel
