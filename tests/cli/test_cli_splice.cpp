// rmodel splice on the command line: two real Sweetie Bot movements spliced into one that
// check-log passes with the robot's limits, written as the robot's FollowJointTrajectoryGoal;
// joints in one movement only reported; --from-pose; log formats; errors naming the option
// or the file; the output never overwriting an input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;
using test::fixture;
using test::run_rmodel;

class CliSplice : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-splice"); }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

std::string sweetie_trajectory(const char* name) {
  return fixture(std::string("sweetie_bot_proto2/joint_trajectories/") + name).string();
}

constexpr const char* kSpliceLogA = R"({"t":10,"name":["a","b"],"position":[0,0]})"
                                    "\n"
                                    R"({"t":10.5,"name":["a","b"],"position":[0.5,0.1]})"
                                    "\n"
                                    R"({"t":11,"name":["a","b"],"position":[1,0.2]})"
                                    "\n";
constexpr const char* kSpliceLogB = R"({"t":0,"name":["b","c"],"position":[2,-1]})"
                                    "\n"
                                    R"({"t":0.5,"name":["b","c"],"position":[2.5,-1.5]})"
                                    "\n"
                                    R"({"t":1,"name":["b","c"],"position":[3,-2]})"
                                    "\n";

TEST_F(CliSplice, SweetieBotMovementPassesCheckLogWithTheRobotsLimits) {
  RMODEL_REQUIRE_FIXTURES();
  const std::string urdf = fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string();
  // The inputs pass on their own (else the check below would prove nothing).
  for (const char* name : {"greeting.json", "brohoof_begin.json"})
    ASSERT_EQ(run_rmodel({"check-log", "-q", "-u", urdf, sweetie_trajectory(name)}).exit_code, 0) << name;

  const std::string out = path("greeting_brohoof.json");
  const auto r = run_rmodel({"splice", sweetie_trajectory("greeting.json"), sweetie_trajectory("brohoof_begin.json"),
                             "--at", "2", "--tau", "0.6", "--step", "0.1", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Trajectories in, the robot's trajectory document out, with its support pseudo-joints.
  const auto doc = nlohmann::json::parse(test::read_file(out));
  ASSERT_TRUE(doc.contains("trajectory"));
  const auto& names = doc["trajectory"]["joint_names"];
  EXPECT_NE(std::find(names.begin(), names.end(), "support/leg1"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "joint11"), names.end());
  EXPECT_GT(doc["trajectory"]["points"].size(), 10u);
  for (const auto& p : doc["trajectory"]["points"]) EXPECT_EQ(p["positions"].size(), names.size());

  const auto check = run_rmodel({"check-log", "-u", urdf, out});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;

  // The same splice as JSON Lines: before T it is greeting's points as they are.
  const auto lines =
      run_rmodel({"splice", sweetie_trajectory("greeting.json"), sweetie_trajectory("brohoof_begin.json"), "--at", "2",
                  "--tau", "0.6", "-f", "jsonl", "-q"});
  ASSERT_EQ(lines.exit_code, 0) << lines.err;
  const auto greeting = test::read_log(sweetie_trajectory("greeting.json"));
  ASSERT_FALSE(greeting.messages.empty());
  const Time t_switch = greeting.messages.front().stamp() + Time{2'000'000'000};
  const auto out_lines = test::json_lines(lines.out);
  std::size_t k = 0;
  for (const auto& m : greeting.messages) {
    if (m.stamp() >= t_switch) break;
    ASSERT_LT(k, out_lines.size());
    const auto& line = out_lines[k++];
    if (m.kind == io::MessageKind::Joint) {
      EXPECT_EQ(line["name"].get<std::vector<std::string>>(), m.joint.name);
      EXPECT_EQ(line["position"].get<std::vector<double>>(), m.joint.position);  // bit for bit
    } else {
      EXPECT_EQ(line["support"].get<std::vector<double>>(), m.support.support);
    }
  }
  EXPECT_GT(k, 4u);
  EXPECT_TRUE(lines.err.empty()) << lines.err;
}

TEST_F(CliSplice, JointsInOneMovementOnlyAreReported) {
  RMODEL_REQUIRE_FIXTURES();
  const auto r = run_rmodel({"splice", sweetie_trajectory("hoof_wave.json"), sweetie_trajectory("head_node.json"),
                             "--at", "1", "-o", path("out.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: joints only in"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hoof_wave.json are held at their position at T from T on: joint11, joint12"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("head_node.json follow it without a transition: joint53"), std::string::npos) << r.err;
  // Held means: every point after T carries joint11 at one value.
  const auto doc = nlohmann::json::parse(test::read_file(path("out.json")));
  const auto& names = doc["trajectory"]["joint_names"];
  const auto j11 = static_cast<std::size_t>(std::find(names.begin(), names.end(), "joint11") - names.begin());
  ASSERT_LT(j11, names.size());
  const auto& points = doc["trajectory"]["points"];
  const double last = points.back()["positions"][j11].get<double>();
  int held = 0;
  for (const auto& p : points)
    if (p["positions"][j11].get<double>() == last) ++held;
  EXPECT_GE(held, 4);
}

TEST_F(CliSplice, LogsInAndOutInTheirFormats) {
  const std::string a = write("a.jsonl", kSpliceLogA), b = write("b.jsonl", kSpliceLogB);
  const auto r = run_rmodel({"splice", a, b, "--at", "0.5", "--tau", "0.5", "--step", "0.25"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = test::json_lines(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;
  // A before T as it was; then T (x = 1: A), T + 0.25 (x = 1/2), and B from T + 0.5 on.
  EXPECT_EQ(lines[0]["position"], nlohmann::json::parse("[0,0]"));
  EXPECT_EQ(lines[1]["t"], 10.5);
  EXPECT_EQ(lines[1]["name"], nlohmann::json::parse(R"(["b","c","a"])"));
  EXPECT_EQ(lines[1]["position"], nlohmann::json::parse("[0.1,-1,0.5]"));
  EXPECT_EQ(lines[2]["t"], 10.75);
  // b: x·A + (1 − x)·B with A(10.75) = 0.15 and B(0.25) = 2.25; c only in B; a held at 0.5.
  EXPECT_DOUBLE_EQ(lines[2]["position"][0].get<double>(), 0.5 * 0.15 + 0.5 * 2.25);
  EXPECT_EQ(lines[2]["position"][1], -1.25);
  EXPECT_EQ(lines[2]["position"][2], 0.5);
  EXPECT_EQ(lines[3]["t"], 11);
  EXPECT_EQ(lines[3]["position"], nlohmann::json::parse("[2.5,-1.5]"));  // B as it is
  EXPECT_EQ(lines[4]["name"], nlohmann::json::parse(R"(["a"])"));        // a held, once
  EXPECT_NE(r.err.find("joints only in"), std::string::npos);

  // CSV and MCAP: what the reader gets back is the same movement.
  for (const char* ext : {"csv", "mcap"}) {
    const std::string out = path(std::string("out.") + ext);
    ASSERT_EQ(run_rmodel({"splice", a, b, "--at", "0.5", "--tau", "0.5", "--step", "0.25", "-q", "-o", out}).exit_code,
              0);
    const auto back = test::read_log(out);
    EXPECT_TRUE(back.errors.empty()) << ext;
    double last_b = 0;
    for (const auto& m : back.messages)
      for (std::size_t i = 0; i < m.joint.name.size(); ++i)
        if (m.joint.name[i] == "b") last_b = m.joint.position[i];
    EXPECT_EQ(last_b, 3.0) << ext;
  }
}

TEST_F(CliSplice, FromAPoseFileOrANamedPose) {
  const std::string b = write("b.jsonl", kSpliceLogB);
  const std::string pose = write("pose.jsonl", R"({"name":["b","c"],"position":[0,0]})"
                                               "\n");
  const auto r = run_rmodel({"splice", "--from-pose", pose, b, "--tau", "1", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = test::json_lines(r.out);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0]["position"], nlohmann::json::parse("[0,0]"));         // the pose at B's start
  EXPECT_EQ(lines[1]["position"], nlohmann::json::parse("[1.25,-0.75]"));  // x = 1/2
  EXPECT_EQ(lines[2]["position"], nlohmann::json::parse("[3,-2]"));        // B

  // A named pose of the model's semantics (the example rover's arm "home").
  const fs::path examples = test::source_dir() / "share/rmodel/examples";
  const std::string wave = (examples / "arm_wave.jsonl").string();
  const auto named = run_rmodel({"splice", "--from-pose", "home", "-u", (examples / "robot.urdf").string(), "-s",
                                 (examples / "robot.srdf").string(), wave, "--tau", "0.4", "-q"});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  const auto first = test::json_lines(named.out).at(0);
  EXPECT_EQ(first["position"], nlohmann::json::parse("[0.4,-1.2]"));  // home's arm_lift, elbow
  // Without the model a name means nothing.
  const auto no_model = run_rmodel({"splice", "--from-pose", "home", wave});
  EXPECT_EQ(no_model.exit_code, 2);
  EXPECT_NE(no_model.err.find("--from-pose 'home'"), std::string::npos) << no_model.err;
}

// Issue 40: `--at`'s default is A's last joint state, not 0, in the help, the man page and
// the completions (all generated from the option).
TEST_F(CliSplice, AtsDefaultIsSaidAsItIs) {
  const auto help = run_rmodel({"splice", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("\n  --at SECONDS=A's last joint state\n"), std::string::npos) << help.out;
  const std::string man = test::read_file(test::source_dir() / "man" / "rmodel-splice.1");
  const auto at = man.find(".TP\n\\fB\\-\\-at\\fR");
  ASSERT_NE(at, std::string::npos);
  const std::string entry = man.substr(at, man.find(".TP", at + 3) - at);
  EXPECT_NE(entry.find("Default: \\fBA's last joint state\\fR."), std::string::npos) << entry;
}

TEST_F(CliSplice, ErrorsNameTheOptionOrTheFile) {
  const std::string a = write("a.jsonl", kSpliceLogA), b = write("b.jsonl", kSpliceLogB);
  const auto bad_law = run_rmodel({"splice", a, b, "--law", "cubic"});
  EXPECT_EQ(bad_law.exit_code, 2);
  EXPECT_NE(bad_law.err.find("--law"), std::string::npos) << bad_law.err;
  EXPECT_NE(bad_law.err.find("cubic"), std::string::npos) << bad_law.err;

  const auto late = run_rmodel({"splice", a, b, "--at", "1.5"});
  EXPECT_EQ(late.exit_code, 2);
  EXPECT_NE(late.err.find("--at 1.5"), std::string::npos) << late.err;
  EXPECT_NE(late.err.find("a.jsonl"), std::string::npos) << late.err;
  EXPECT_TRUE(late.out.empty());

  const auto missing = run_rmodel({"splice", a, path("nope.jsonl")});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("nope.jsonl"), std::string::npos) << missing.err;

  const std::string empty = write("empty.jsonl", "");
  const auto nothing = run_rmodel({"splice", empty, b});
  EXPECT_EQ(nothing.exit_code, 1);
  EXPECT_NE(nothing.err.find("empty.jsonl: no joint state"), std::string::npos) << nothing.err;

  const auto one = run_rmodel({"splice", a});
  EXPECT_EQ(one.exit_code, 2);
  const auto pose_and_at = run_rmodel({"splice", "--from-pose", a, b, "--at", "0"});
  EXPECT_EQ(pose_and_at.exit_code, 2);
  EXPECT_NE(pose_and_at.err.find("--at"), std::string::npos) << pose_and_at.err;

  // The output is never one of the inputs.
  const std::string before = test::read_file(b);
  const auto onto_input = run_rmodel({"splice", a, b, "-o", b});
  EXPECT_EQ(onto_input.exit_code, 2);
  EXPECT_EQ(test::read_file(b), before);

  // A bad line is reported with its file and line, the rest spliced, exit 1.
  const std::string bad =
      write("bad.jsonl", std::string(kSpliceLogA) + "{\"t\":12,\"name\":[\"a\"],\"position\":[x]}\n");
  const auto bad_line = run_rmodel({"splice", bad, b, "--at", "0.5"});
  EXPECT_EQ(bad_line.exit_code, 1);
  EXPECT_NE(bad_line.err.find("bad.jsonl:4"), std::string::npos) << bad_line.err;
  EXPECT_FALSE(bad_line.out.empty());
}

}  // namespace
}  // namespace rmodel
