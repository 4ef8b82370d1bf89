// ROS logs through the command: aggregate over every fixture log equals aggregate over its
// truth JSON Lines; log-info text and JSON; a recording cut short.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

using rmodel::test::fixture;
using rmodel::test::run_rmodel;

namespace {
std::vector<std::string> model_args() {
  return {"-u", fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(), "-s",
          fixture("sweetie_bot_proto2/kinematic_chains.cpf").string()};
}
}  // namespace

TEST(CliBags, AggregateOfEveryLogEqualsAggregateOfItsTruth) {
  RMODEL_REQUIRE_FIXTURES();
  const std::vector<std::pair<std::string, std::vector<std::string>>> sets = {
      {"greeting", {"greeting.zstd.mcap", "greeting.lz4.mcap", "greeting_db3", "greeting.bag", "greeting.bz2.bag"}},
      {"hoof_wave", {"hoof_wave.mcap", "hoof_wave.zstd.mcap", "hoof_wave_db3", "hoof_wave.lz4.bag"}}};
  for (const auto& [stem, files] : sets) {
    auto args = model_args();
    args.insert(args.begin(), "aggregate");
    args.push_back(fixture("bags/" + stem + ".truth.jsonl").string());
    const auto want = run_rmodel(args);
    ASSERT_EQ(want.exit_code, 0) << want.err;
    ASSERT_FALSE(want.out.empty());
    for (const auto& f : files) {
      args.back() = fixture("bags/" + f).string();
      const auto got = run_rmodel(args);
      EXPECT_EQ(got.exit_code, 0) << f << ": " << got.err;
      EXPECT_EQ(got.out, want.out) << f;
    }
  }
}

TEST(CliBags, LogInfoRefusesStandardInput) {
  const auto r = run_rmodel({"log-info", "-"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("log-info reads a log file or a rosbag2 directory, not standard input"), std::string::npos)
      << r.err;
}

TEST(CliBags, LogInfoTextAndJson) {
  RMODEL_REQUIRE_FIXTURES();
  const auto text = run_rmodel({"log-info", fixture("bags/greeting.lz4.mcap").string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Format:       mcap (profile ros2, chunks: lz4)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Messages:     1387"), std::string::npos);
  EXPECT_NE(text.out.find("sensor_msgs/msg/JointState"), std::string::npos);
  const auto js = run_rmodel({"log-info", "--format", "json", fixture("bags/hoof_wave.lz4.bag").string()});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const auto doc = nlohmann::json::parse(js.out);
  EXPECT_EQ(doc["format"], "bag");
  EXPECT_EQ(doc["messages"], 546);
  bool found = false;
  for (const auto& t : doc["topics"])
    if (t["name"] == "/joint_states") {
      found = true;
      EXPECT_EQ(t["type"], "sensor_msgs/JointState");
      EXPECT_EQ(t["messages"], 542);
    }
  EXPECT_TRUE(found);
}

// Issue 21: `--topic NAME FILE` took FILE as a second topic and read stdin ("<stdin>: empty
// input"). One NAME per --topic; the log after it is read, the same as without --topic (the
// fixture bags record one JointState topic, /joint_states).
TEST(CliBags, TopicTakesOneNameAndTheLogAfterItIsRead) {
  RMODEL_REQUIRE_FIXTURES();
  const std::string bag = fixture("bags/greeting.zstd.mcap").string();
  // The log: a positional argument, or fk's --log FILE.
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> commands = {
      {{"aggregate"}, {bag}},
      {{"filter", "exponential", "-p", "tau=0.05"}, {bag}},
      {{"fk"}, {"--log", bag}},
      {{"check-log"}, {bag}}};
  for (const auto& [command, log] : commands) {
    auto plain = command;
    const auto model = model_args();
    plain.insert(plain.end(), model.begin(), model.end());
    auto spaced = plain, joined = plain;
    plain.insert(plain.end(), log.begin(), log.end());
    spaced.insert(spaced.end(), {"--topic", "/joint_states"});
    spaced.insert(spaced.end(), log.begin(), log.end());
    joined.push_back("--topic=/joint_states");
    joined.insert(joined.end(), log.begin(), log.end());
    SCOPED_TRACE(command[0]);
    const auto want = run_rmodel(plain);
    ASSERT_NE(want.out, "");
    for (const auto& args : {spaced, joined}) {
      const auto got = run_rmodel(args);
      EXPECT_EQ(got.exit_code, want.exit_code) << got.err;
      EXPECT_EQ(got.out, want.out);
      EXPECT_EQ(got.err.find("<stdin>"), std::string::npos) << got.err;
    }
  }
}

// A recording cut in the middle of an uncompressed chunk (issue 40, point 6): every command
// reads the chunk's whole messages and says where the file ends and how many came out of the
// chunk (exactly which messages: IoCutLogs); what is read equals the truth's first lines.
TEST(CliBags, ACutRecordingIsReadToItsLastWholeMessageAndSaysWhereItEnds) {
  RMODEL_REQUIRE_FIXTURES();
  const std::filesystem::path dir = rmodel::test::make_temp_dir("rmodel-cli-cut-");
  const std::string whole = rmodel::test::read_file(fixture("bags/hoof_wave.mcap"));
  const std::size_t cut = 90000;  // in the third of its four chunks (bytes 70718 to 103606)
  const std::filesystem::path log = dir / "cut.mcap";
  std::ofstream(log, std::ios::binary).write(whole.data(), static_cast<std::streamsize>(cut));
  const std::string ends = "cut.mcap: byte 70718: the file ends at byte 90000, 19282 bytes into this chunk of 32888 "
                           "(truncated): ";

  const auto info = run_rmodel({"log-info", log.string(), "-f", "json"});
  EXPECT_EQ(info.exit_code, 1);
  const auto doc = nlohmann::json::parse(info.out);
  ASSERT_EQ(doc["problems"].size(), 1U);
  const std::string problem = doc["problems"][0];
  EXPECT_NE(problem.find(ends), std::string::npos) << problem;
  EXPECT_NE(problem.find(" complete messages read from it"), std::string::npos) << problem;
  std::size_t joint_states = 0;
  for (const auto& t : doc["topics"])
    if (t["name"] == "/joint_states") joint_states = t["messages"];
  EXPECT_GT(joint_states, 168U);  // what was read before: the first two chunks' joint states

  // aggregate: the truth's first lines, then the damage on stderr, exit 1.
  std::string truth;
  {
    std::istringstream lines(rmodel::test::read_file(fixture("bags/hoof_wave.truth.jsonl")));
    std::string line;
    for (std::size_t k = 0; k < joint_states && std::getline(lines, line); ++k) truth += line + "\n";
  }
  const std::filesystem::path truth_path = dir / "truth.jsonl";
  std::ofstream(truth_path) << truth;
  auto args = model_args();
  args.insert(args.begin(), "aggregate");
  args.push_back(truth_path.string());
  const auto want = run_rmodel(args);
  ASSERT_EQ(want.exit_code, 0) << want.err;
  args.back() = log.string();
  const auto got = run_rmodel(args);
  EXPECT_EQ(got.exit_code, 1);
  EXPECT_EQ(got.out, want.out);
  EXPECT_NE(got.err.find("rmodel: " + log.parent_path().string() + "/" + ends), std::string::npos) << got.err;

  // check-log: the problem with its byte offset.
  args.front() = "check-log";
  args.push_back("-f");
  args.push_back("json");
  const auto check = run_rmodel(args);
  EXPECT_EQ(check.exit_code, 1);
  bool found = false;
  const auto report = nlohmann::json::parse(check.out);
  for (const auto& p : report["problems"])
    if (p["byte_offset"] == 70718 && p["message"].get<std::string>().find("the file ends at byte 90000") != std::string::npos)
      found = true;
  EXPECT_TRUE(found) << check.out;
  std::filesystem::remove_all(dir);
}
