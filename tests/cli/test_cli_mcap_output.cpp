// `rmodel aggregate -o poses.mcap`: the full poses written as MCAP and replayed by
// `rmodel aggregate` give exactly the bytes of the JSON Lines output (aggregating full poses
// in the default mode publishes each pose unchanged: an identity).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

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
  for (const auto& file : {a_jsonl, a_mcap, b_jsonl}) fs::remove(file);
  const auto j = run(log, {"-o", a_jsonl});
  ASSERT_NE(j.exit_code, 2) << j.err;
  const auto m = run(log, {"-o", a_mcap});
  ASSERT_EQ(m.exit_code, j.exit_code) << m.err;
  // The same file through stdout with -O mcap (sequential writing, no seeking).
  const auto piped = run(log, {"-O", "mcap"});
  EXPECT_EQ(piped.exit_code, j.exit_code) << piped.err;
  if (j.exit_code == 0) {
    EXPECT_TRUE(piped.out == rmodel::test::read_file(a_mcap)) << "stdout and the file differ";
  } else {
    // Rejected messages: the output is incomplete, -o writes no file; stdout has it all the same.
    EXPECT_FALSE(fs::exists(a_jsonl));
    EXPECT_FALSE(fs::exists(a_mcap));
    std::ofstream(a_jsonl, std::ios::binary) << run(log, {"-O", "jsonl"}).out;
    std::ofstream(a_mcap, std::ios::binary) << piped.out;
  }
  const auto back = run(a_mcap, {"-o", b_jsonl});
  ASSERT_EQ(back.exit_code, 0) << back.err;
  const std::string want = without_support(rmodel::test::read_file(a_jsonl));
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(rmodel::test::read_file(b_jsonl), want);
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

TEST(CliMcapOutput, CompressionAndChunkSizeOptions) {
  // Each compression gives a file that log-info names so and that replays to the same poses;
  // a small chunk size gives one chunk per message (counted by the independent checker).
  TempDir dir;
  const std::string log = example("arm_wave.jsonl");
  const auto jsonl = run_rmodel({"aggregate", "--model", example("model.json"), log});
  ASSERT_EQ(jsonl.exit_code, 0) << jsonl.err;
  for (const std::string compression : {"zstd", "lz4", "none"}) {
    SCOPED_TRACE(compression);
    const std::string out = (dir.path / (compression + ".mcap")).string();
    const auto w = run_rmodel({"aggregate", "--model", example("model.json"), log, "-o", out, "--mcap-compression",
                               compression});
    ASSERT_EQ(w.exit_code, 0) << w.err;
    const auto info = run_rmodel({"log-info", out});
    EXPECT_NE(info.out.find("chunks: " + compression), std::string::npos) << info.out;
    const auto back = run_rmodel({"aggregate", "--model", example("model.json"), out});
    EXPECT_EQ(back.out, jsonl.out);
  }
  if (std::system("python3 --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "python3 is not installed";
  const auto chunks = [&](const std::vector<std::string>& extra) {
    const std::string out = (dir.path / "chunked.mcap").string();
    std::vector<std::string> args = {"aggregate", "--model", example("model.json"), log, "-o", out};
    args.insert(args.end(), extra.begin(), extra.end());
    EXPECT_EQ(run_rmodel(args).exit_code, 0);
    const std::string report = (dir.path / "report.txt").string();
    EXPECT_EQ(std::system(("python3 " RMODEL_SOURCE_DIR "/tests/mcap/check_mcap.py " + out + " > " + report).c_str()), 0);
    return rmodel::test::read_file(report);
  };
  EXPECT_NE(chunks({}).find(" 1 chunks (zstd)"), std::string::npos);
  EXPECT_NE(chunks({"--mcap-chunk-size", "200"}).find(" 8 chunks (zstd)"), std::string::npos);
  EXPECT_NE(chunks({"--mcap-chunk-size", "200", "--mcap-compression", "none"}).find("8 chunks (none), 8 messages read"),
            std::string::npos);
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
