// `rmodel aggregate -o poses.mcap`: the full poses written as MCAP and replayed by
// `rmodel aggregate` give exactly the bytes of the JSON Lines output (aggregating full poses
// in the default mode publishes each pose unchanged: an identity).
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.hpp"

namespace {

using rmodel::test::fixture;
using rmodel::test::run_rmodel;
namespace fs = std::filesystem;

struct TempDir {
  fs::path path = rmodel::test::make_temp_dir("cli_mcap");
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string example(const std::string& name) { return std::string(RMODEL_SOURCE_DIR) + "/share/rmodel/examples/" + name; }

// The lines of a JSON Lines text that are not support states (MCAP holds joint states only).
std::string without_support(const std::string& text) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t eol = text.find('\n', pos);
    const std::string line = text.substr(pos, eol - pos + 1);
    if (line.find("\"support\":") == std::string::npos) out += line;
    pos = eol + 1;
  }
  return out;
}

// aggregate LOG → a.jsonl and a.mcap; aggregate a.mcap → b.jsonl; then a.jsonl == b.jsonl
// (without its support states, which MCAP output skips).
void expect_round_trip(const std::vector<std::string>& model, const std::string& log, const fs::path& dir) {
  SCOPED_TRACE(log);
  const std::string a_jsonl = (dir / "a.jsonl").string(), a_mcap = (dir / "a.mcap").string(),
                    b_jsonl = (dir / "b.jsonl").string();
  auto run = [&](const std::string& in, const std::vector<std::string>& out) {
    std::vector<std::string> args{"aggregate"};
    args.insert(args.end(), model.begin(), model.end());
    args.push_back(in);
    args.insert(args.end(), out.begin(), out.end());
    return run_rmodel(args);
  };
  const auto j = run(log, {"-o", a_jsonl});
  ASSERT_NE(j.exit_code, 2) << j.err;
  const auto m = run(log, {"-o", a_mcap});
  ASSERT_EQ(m.exit_code, j.exit_code) << m.err;
  const auto back = run(a_mcap, {"-o", b_jsonl});
  ASSERT_EQ(back.exit_code, 0) << back.err;
  const std::string want = without_support(rmodel::test::read_file(a_jsonl));
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(rmodel::test::read_file(b_jsonl), want);
  // The same file through stdout with -O mcap (sequential writing, no seeking).
  const auto piped = run(log, {"-O", "mcap"});
  EXPECT_EQ(piped.exit_code, j.exit_code) << piped.err;
  EXPECT_EQ(piped.out, rmodel::test::read_file(a_mcap));
}

TEST(CliMcapOutput, ShippedExamplesRoundTripBitForBit) {
  TempDir dir;
  for (const char* log : {"walk.jsonl", "pony_log.jsonl", "fl.jsonl"})
    expect_round_trip({"--sample"}, example(log), dir.path);
  expect_round_trip({"--model", example("model.json")}, example("arm_wave.jsonl"), dir.path);
}

TEST(CliMcapOutput, FixtureLogsRoundTripBitForBit) {
  RMODEL_REQUIRE_FIXTURES();
  TempDir dir;
  const std::vector<std::string> model = {"-u", fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(), "-s",
                                          fixture("sweetie_bot_proto2/kinematic_chains.cpf").string()};
  // A JSON Lines log with epoch header stamps, and a ROS 2 MCAP written by Foxglove's library.
  expect_round_trip(model, fixture("bags/greeting.truth.jsonl").string(), dir.path);
  expect_round_trip(model, fixture("bags/hoof_wave.zstd.mcap").string(), dir.path);
}

TEST(CliMcapOutput, LogInfoOfTheWrittenFile) {
  TempDir dir;
  const std::string out = (dir.path / "poses.mcap").string();
  const auto w = run_rmodel({"aggregate", "--sample", example("walk.jsonl"), "-o", out});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const auto info = run_rmodel({"log-info", out});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("profile ros2, chunks: zstd"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("/joint_states  sensor_msgs/msg/JointState        5 msgs"), std::string::npos) << info.out;
}

}  // namespace

namespace {

TEST(CliMcapOutput, WriteErrorFailsWithExitOne) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const auto r = run_rmodel({"aggregate", "--sample", example("walk.jsonl"), "-O", "mcap", "-o", "/dev/full"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("/dev/full"), std::string::npos) << r.err;
}

}  // namespace
