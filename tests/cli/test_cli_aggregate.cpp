// rmodel aggregate as a user runs it: real trajectories, streaming from stdin, bad input
// that is reported and skipped while every good message still comes out.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;
using test::json_lines;
using test::run_rmodel;

std::vector<std::string> sweetie_cpf(std::vector<std::string> args) {
  args.insert(args.end(), {"--urdf", fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(), "--semantics",
                           fixture("sweetie_bot_proto2/kinematic_chains.cpf").string()});
  return args;
}

TEST(CliAggregate, GreetingGivesFullPosesInNominalOrderAndLegSupport) {
  RMODEL_REQUIRE_FIXTURES();
  const auto r = run_rmodel(sweetie_cpf({"aggregate", fixture("sweetie_bot_proto2/joint_trajectories/greeting.json").string()}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto nominal = nlohmann::json::parse(read_file(fixture("sweetie_bot_proto2/joint_state/nominal.json")));
  const auto goal = nlohmann::json::parse(read_file(fixture("sweetie_bot_proto2/joint_trajectories/greeting.json")));
  const std::size_t points = goal["trajectory"]["points"].size();
  const auto lines = json_lines(r.out);
  std::size_t poses = 0, supports = 0;
  for (const auto& m : lines) {
    if (m.contains("support")) {
      ++supports;
      EXPECT_EQ(m["name"], (nlohmann::json{"leg1", "leg3", "leg4", "leg2", "head", "nose"}));
      EXPECT_EQ(m["contact"][0], "hoof_flat");
    } else {
      ++poses;
      EXPECT_EQ(m["name"], nominal["name"]);
      EXPECT_EQ(m["position"].size(), 32U);
    }
  }
  EXPECT_EQ(poses, points);
  EXPECT_EQ(supports, points);
  EXPECT_NE(r.err.find("read " + std::to_string(2 * points) + " messages, wrote " + std::to_string(2 * points)),
            std::string::npos)
      << r.err;
}

TEST(CliAggregate, JointStateFixturesReplay) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* f : {"nominal", "body_nominal", "crouched", "head_nominal", "lying"}) {
    const auto path = fixture(std::string("sweetie_bot_proto2/joint_state/") + f + ".json");
    const auto r = run_rmodel(sweetie_cpf({"aggregate", path.string(), "--stamp", "ros1"}));
    ASSERT_EQ(r.exit_code, 0) << f << r.err;
    const auto lines = json_lines(r.out);
    ASSERT_EQ(lines.size(), 1U) << f;
    const auto input = nlohmann::json::parse(read_file(path));
    EXPECT_EQ(lines[0]["header"]["stamp"]["secs"], input["header"]["stamp"]["secs"]);
    const auto& names = input["name"];
    for (std::size_t i = 0; i < names.size(); ++i) {
      const auto it = std::find(lines[0]["name"].begin(), lines[0]["name"].end(), names[i]);
      ASSERT_NE(it, lines[0]["name"].end());
      EXPECT_EQ(lines[0]["position"][static_cast<std::size_t>(it - lines[0]["name"].begin())], input["position"][i]);
    }
  }
}

TEST(CliAggregate, BadLinesAreReportedCountedAndSkipped) {
  const std::string input =
      "{\"t\": 1, \"name\": [\"neck_pitch\"], \"position\": [0.1]}\n"
      "{\"t\": 2, \"name\": [\"neck_pitch\"], \"position\": [0.2\n"        // truncated
      "{\"t\": 3, \"name\": [\"neck_pitch\", \"head_yaw\"], \"position\": [0.3]}\n"  // sizes disagree
      "{\"t\": 4, \"name\": [\"wing\", \"head_yaw\"], \"position\": [1, 0.4]}\n"     // unknown joint
      "{\"t\": 5, \"name\": [\"neck_pitch\"], \"position\": [0.5]}\n";
  const auto r = run_rmodel({"aggregate", "--sample"}, input);
  EXPECT_EQ(r.exit_code, 1);
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 3U);  // every valid message yields its output
  EXPECT_EQ(lines[0]["t"], 1);
  EXPECT_EQ(lines[1]["t"], 4);
  EXPECT_EQ(lines[1]["position"][17], 0.4);
  EXPECT_EQ(lines[2]["position"][16], 0.5);
  EXPECT_NE(r.err.find("<stdin>:2: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("<stdin>:3: message rejected: 'position' has 1 values for 2 names"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("<stdin>:4: warning: unknown joint 'wing'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("read 4 messages, wrote 3, rejected 2, 1 warning"), std::string::npos) << r.err;
}

TEST(CliAggregate, MaxErrorsStopsEarly) {
  std::string input;
  for (int i = 0; i < 10; ++i) input += "not json\n";
  const auto r = run_rmodel({"aggregate", "--sample", "--max-errors", "3", "-q"}, input);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("rejected 3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stopped early"), std::string::npos) << r.err;
}

TEST(CliAggregate, CsvInAndOutRoundTrip) {
  // Row 1 splits into {neck_pitch, tail_swing: position} and {head_yaw: velocity}: two poses.
  const std::string csv = "t,neck_pitch,head_yaw.velocity,tail_swing\n0.5,0.1,0.2,0.3\n1.0,,,0.4\n";
  const auto r = run_rmodel({"aggregate", "--sample", "-i", "csv", "-O", "csv", "--no-support"}, csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Read the CSV back: the last pose carries every value given so far.
  const auto back = run_rmodel({"aggregate", "--sample", "-i", "csv", "--no-support"}, r.out);
  ASSERT_EQ(back.exit_code, 0) << back.err;
  std::istringstream out(back.out);
  std::vector<nlohmann::json> poses;
  for (std::string line; std::getline(out, line);) poses.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(poses.size(), 3U);
  EXPECT_EQ(poses[0]["t"], 0.5);
  EXPECT_FALSE(poses[0].contains("velocity"));
  EXPECT_EQ(poses[1]["velocity"][17], 0.2);
  EXPECT_EQ(poses[2]["t"], 1.0);
  EXPECT_EQ(poses[2]["position"][16], 0.1);
  EXPECT_EQ(poses[2]["position"][19], 0.4);
  EXPECT_EQ(poses[2]["velocity"][17], 0.2);
}

TEST(CliAggregate, SyncKindPublishesOnTicks) {
  std::string input;
  for (int k = 0; k <= 10; ++k)
    input += "{\"t\": " + std::to_string(k * 0.1) + ", \"name\": [\"head_yaw\"], \"position\": [" + std::to_string(k * 0.01) + "]}\n";
  const auto r = run_rmodel({"aggregate", "--sample", "--kind", "sync", "--period", "0.1", "--no-support"}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = json_lines(r.out);
  // Stamps every T from t0 = 0 select time ticks: one cycle per stamp, 11 cycles; the end
  // of input ends the last one (docs/streaming.md).
  ASSERT_EQ(lines.size(), 11U);
  for (const auto& m : lines) ASSERT_EQ(m["velocity"].size(), 20U);
  EXPECT_NEAR(lines.back()["velocity"][17].get<double>(), 0.1, 1e-9);  // 0.01 rad per 0.1 s
  EXPECT_EQ(lines.back()["cycle"], 10);
  EXPECT_NEAR(lines.back()["t"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(lines.back()["position"][17].get<double>(), 0.1, 1e-12);
}

TEST(CliAggregate, SyncWithTheLogsOwnTicksAndPublishBoth) {
  // T = 0.01 s: 0.3 in cycle 0, then 0.4 and 0.5 in cycle 1; the log ticks itself (auto →
  // stream ticks). --publish both: a pose per message and per tick. The velocity published
  // with 0.5 is (0.5 − 0.3)/0.01 = 20 rad/s.
  const std::string input =
      "{\"t\": 0.0, \"name\": [\"head_yaw\"], \"position\": [0.3]}\n"
      "{\"sync\": true, \"t\": 0.0}\n"
      "{\"t\": 0.005, \"name\": [\"head_yaw\"], \"position\": [0.4]}\n"
      "{\"t\": 0.01, \"name\": [\"head_yaw\"], \"position\": [0.5]}\n"
      "{\"sync\": true, \"t\": 0.01}\n";
  const auto r = run_rmodel(
      {"aggregate", "--sample", "--kind", "sync", "--publish", "both", "--no-support"}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 5U);  // 3 messages + 2 ticks
  EXPECT_NEAR(lines[3]["velocity"][17].get<double>(), 20.0, 1e-9);
  EXPECT_EQ(lines[3]["cycle"], 1);
  EXPECT_NEAR(lines[4]["velocity"][17].get<double>(), 20.0, 1e-9);
  EXPECT_EQ(lines[4]["cycle"], 1);
}

TEST(CliAggregate, DiffAndQuadKindsAreChecked) {
  const auto diff = run_rmodel({"aggregate", "--sample", "--kind", "sync", "--diff", "exponential"}, "");
  EXPECT_EQ(diff.exit_code, 2) << diff.err;
  EXPECT_NE(diff.err.find("--diff 'exponential'"), std::string::npos) << diff.err;
  const auto quad = run_rmodel({"aggregate", "--sample", "--kind", "sync", "--quad", "lag_diff"}, "");
  EXPECT_EQ(quad.exit_code, 2) << quad.err;
  // Names only: a number in place of a name is refused.
  EXPECT_EQ(run_rmodel({"aggregate", "--sample", "--kind", "1"}, "").exit_code, 2);
  EXPECT_EQ(run_rmodel({"aggregate", "--sample", "--publish", "sync"}, "").exit_code, 2);
}

TEST(CliAggregate, InitialPoseStartsTheFilters) {
  // Starting at head_yaw = 0.2, a first sample 0.3 one period later is a velocity of
  // (0.3 − 0.2)/0.01 = 10 rad/s rather than the 0 of a first sample without initial pose.
  const std::string input = "{\"name\": [\"head_yaw\"], \"position\": [0.3]}\n";
  const auto r = run_rmodel({"aggregate", "--sample", "--kind", "sync", "--initial-pose", "head_yaw=0.2",
                             "--no-support"},
                            input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_NEAR(lines[0]["velocity"][17].get<double>(), 10.0, 1e-9);
}

/// Runs a bash script with $RMODEL set to the built command; returns its stdout.
std::string bash(const std::string& script) {
  const std::string command = "RMODEL='" RMODEL_EXE "' bash -c '" + script + "'";
  std::string out;
  if (FILE* p = popen(command.c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
  }
  return out;
}

TEST(CliAggregate, EachMessageIsFlushedAsItArrives) {
  // A coprocess gets one line and must answer before its stdin is closed (as behind tail -f).
  const std::string out = bash(
      "coproc R { \"$RMODEL\" aggregate --sample --no-support 2>/dev/null; }; "
      "echo \"{\\\"name\\\": [\\\"head_yaw\\\"], \\\"position\\\": [0.25]}\" >&${R[1]}; "
      "if read -t 10 line <&${R[0]}; then echo \"got: $line\"; else echo timeout; fi; "
      "exec {R[1]}>&-; wait");
  EXPECT_EQ(out.rfind("got: {", 0), 0U) << out;
  EXPECT_NE(out.find("0.25"), std::string::npos) << out;
}

TEST(CliAggregate, ClosedStdoutEndsCleanly) {
  // 50 000 messages into `| head -n 1`: rmodel must stop without dying of SIGPIPE.
  const std::string out = bash(
      "for i in $(seq 1 50000); do echo \"{\\\"name\\\": [\\\"head_yaw\\\"], \\\"position\\\": [$i]}\"; done"
      " | \"$RMODEL\" aggregate --sample -q 2>/dev/null | head -n 1 > /dev/null; echo \"status ${PIPESTATUS[1]}\"");
  EXPECT_EQ(out, "status 0\n");
}

TEST(CliAggregate, MissingInputIsAUsageError) {
  const auto r = run_rmodel({"aggregate", "--sample", "/nonexistent.jsonl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent.jsonl: no such file"), std::string::npos);
}

}  // namespace
}  // namespace rmodel
