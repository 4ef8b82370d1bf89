// Text logs ROS users have, through the commands: `ros2 topic echo` / `rostopic echo` YAML,
// `rostopic echo -p` CSV and PlotJuggler CSV give the same poses as the same messages written
// by hand as JSON Lines (the oracle); a file naming no joint of the model is an error.
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

using rmodel::test::run_rmodel;

namespace {

// The same two messages in every format. JSON Lines is the oracle.
const std::string kJsonl =
    "{\"t\": 1700000000.25, \"name\": [\"neck_pitch\", \"head_yaw\"], \"position\": [0.1, -0.25]}\n"
    "{\"t\": 1700000000.5, \"name\": [\"neck_pitch\"], \"position\": [0.2], \"velocity\": [1.5]}\n";

const std::string kRos2Echo =
    "header:\n  stamp:\n    sec: 1700000000\n    nanosec: 250000000\n  frame_id: ''\n"
    "name:\n- neck_pitch\n- head_yaw\nposition:\n- 0.1\n- -0.25\nvelocity: []\neffort: []\n---\n"
    "header:\n  stamp:\n    sec: 1700000000\n    nanosec: 500000000\n  frame_id: ''\n"
    "name:\n- neck_pitch\nposition:\n- 0.2\nvelocity:\n- 1.5\neffort: []\n---\n";

const std::string kRos1Echo =
    "header: \n  seq: 1\n  stamp: \n    secs: 1700000000\n    nsecs: 250000000\n  frame_id: ''\n"
    "name: [neck_pitch, head_yaw]\nposition: [0.1, -0.25]\nvelocity: []\neffort: []\n---\n"
    "header: \n  seq: 2\n  stamp: \n    secs: 1700000000\n    nsecs: 500000000\n  frame_id: ''\n"
    "name: [neck_pitch]\nposition: [0.2]\nvelocity: [1.5]\neffort: []\n---\n";

const std::string kRostopicCsv =
    "%time,field.header.seq,field.header.stamp,field.header.frame_id,field.name0,field.position0,field.velocity0\n"
    "1700000000300000000,1,1700000000250000000,,neck_pitch,0.1,\n"
    "1700000000600000000,2,1700000000500000000,,neck_pitch,0.2,1.5\n";
const std::string kRostopicJsonl =
    "{\"t\": 1700000000.25, \"name\": [\"neck_pitch\"], \"position\": [0.1]}\n"
    "{\"t\": 1700000000.5, \"name\": [\"neck_pitch\"], \"position\": [0.2], \"velocity\": [1.5]}\n";

const std::string kPlotJuggler =
    "__time,/joint_states/neck_pitch/position,/joint_states/neck_pitch/velocity,/joint_states/head_yaw/position\n"
    "1700000000.25,0.1,,-0.25\n"
    "1700000000.5,0.2,1.5,\n";

std::string write(const std::filesystem::path& dir, const std::string& name, const std::string& text) {
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST(CliTextLogs, AggregateOfEchoYamlEqualsAggregateOfTheSameJsonLines) {
  const auto dir = rmodel::test::make_temp_dir("rmodel-textlogs");
  const auto want = run_rmodel({"aggregate", "--sample", "--no-support", write(dir, "truth.jsonl", kJsonl)});
  ASSERT_EQ(want.exit_code, 0) << want.err;
  ASSERT_FALSE(want.out.empty());
  for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"ros2.yaml", kRos2Echo}, {"ros1.yml", kRos1Echo}, {"echo.txt", kRos2Echo}}) {
    const auto got = run_rmodel({"aggregate", "--sample", "--no-support", write(dir, name, text)});
    EXPECT_EQ(got.exit_code, 0) << name << ": " << got.err;
    EXPECT_EQ(got.out, want.out) << name;
  }
  // From stdin, detected by content (a live `ros2 topic echo /joint_states | rmodel aggregate -`),
  // arriving in small pieces.
  const auto piped = run_rmodel({"aggregate", "--sample", "--no-support", "-"}, kRos2Echo, 40);
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, want.out);
  const auto named = run_rmodel({"aggregate", "--sample", "--no-support", "-i", "yaml"}, kRos1Echo);
  EXPECT_EQ(named.out, want.out);
}

TEST(CliTextLogs, AggregateOfRostopicCsvAndPlotJuggler) {
  const auto dir = rmodel::test::make_temp_dir("rmodel-textlogs");
  const auto want_ros = run_rmodel({"aggregate", "--sample", "--no-support", write(dir, "r.jsonl", kRostopicJsonl)});
  ASSERT_EQ(want_ros.exit_code, 0) << want_ros.err;
  const auto ros = run_rmodel({"aggregate", "--sample", "--no-support", write(dir, "r.csv", kRostopicCsv)});
  EXPECT_EQ(ros.exit_code, 0) << ros.err;
  EXPECT_EQ(ros.out, want_ros.out);

  // PlotJuggler: __time and the /joint_states/ prefix are recognised without options; each row
  // gives the joints with the same fields together (rmodel's CSV rule): the JSON Lines oracle.
  const auto want_pj = run_rmodel({"aggregate", "--sample", "--no-support", write(dir, "pj.jsonl", kJsonl)});
  const auto pj = run_rmodel({"aggregate", "--sample", "--no-support", write(dir, "pj.csv", kPlotJuggler)});
  EXPECT_EQ(pj.exit_code, 0) << pj.err;
  EXPECT_EQ(pj.out, want_pj.out);
  // The same with the options spelled out.
  const std::string renamed = "stamp" + kPlotJuggler.substr(kPlotJuggler.find(','));
  const auto opts = run_rmodel({"aggregate", "--sample", "--no-support", "--time-column", "stamp", "--column-prefix",
                                "/joint_states/", write(dir, "pj2.csv", renamed)});
  EXPECT_EQ(opts.exit_code, 0) << opts.err;
  EXPECT_EQ(opts.out, want_pj.out);
}

TEST(CliTextLogs, AFileNamingNoJointOfTheModelFails) {
  const auto dir = rmodel::test::make_temp_dir("rmodel-textlogs");
  // Two topics: no prefix can be inferred, and no column is a joint of the model.
  const std::string csv =
      "__time,/left/neck_pitch/position,/right/head_yaw/position\n1,0.1,0.2\n2,0.3,0.4\n";
  const std::string path = write(dir, "two_topics.csv", csv);
  for (const std::string command : {"aggregate", "filter"}) {
    std::vector<std::string> args = {command};
    if (command == "filter") args.push_back("diff");
    args.insert(args.end(), {"--sample", path});
    const auto r = run_rmodel(args);
    EXPECT_EQ(r.exit_code, 1) << command << ": " << r.err;
    EXPECT_NE(r.err.find("rmodel: " + path + ": no joint of the model appears in this input: its 2 joint states name "
                         "only '/left/neck_pitch/position', '/right/head_yaw/position'"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("--column-prefix"), std::string::npos) << r.err;
  }
  // With the prefix chosen, the same file works.
  const auto ok = run_rmodel({"aggregate", "--sample", "--column-prefix", "/left/", path});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  // fk --log and a YAML of another robot.
  const auto fk = run_rmodel({"fk", "--sample", "--log", write(dir, "other.yaml", "name: [wing]\nposition: [1]\n---\n")});
  EXPECT_EQ(fk.exit_code, 1) << fk.err;
  EXPECT_NE(fk.err.find("no joint of the model appears in this input"), std::string::npos) << fk.err;
  // check-log fails on the unknown joints and says the same of the whole log, in every format.
  const std::string other = (dir / "other.yaml").string();
  const auto check = run_rmodel({"check-log", "--sample", other});
  EXPECT_EQ(check.exit_code, 1) << check.out;
  EXPECT_NE(check.out.find(other + ": error: no joint of the model appears in this input: its 1 joint state names "
                                   "only 'wing' (a log of another robot?) [no-model-joint]\n"),
            std::string::npos)
      << check.out;
  EXPECT_NE(check.out.find("\ninvalid: 2 errors, 1 warning in 1 message (1 joint state)\n"), std::string::npos)
      << check.out;  // the warning: no stamps in this YAML
  const auto json_report = nlohmann::json::parse(run_rmodel({"check-log", "--sample", "-f", "json", other}).out);
  ASSERT_FALSE(json_report["problems"].empty());
  EXPECT_EQ(json_report["problems"].back()["code"], "no-model-joint");
  EXPECT_EQ(json_report["problems"].back()["line"], 0);
  EXPECT_EQ(json_report["errors"], 2);
}

TEST(CliTextLogs, YamlErrorsNameFileAndLine) {
  const auto dir = rmodel::test::make_temp_dir("rmodel-textlogs");
  const std::string path =
      write(dir, "bad.yaml", "name: [neck_pitch]\nposition: [0.1]\n---\nname: [neck_pitch]\nposition: [oops]\n---\n");
  const auto r = run_rmodel({"aggregate", "--sample", "--no-support", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("rmodel: " + path + ":5: 'position' element 1: expected a number, got 'oops'"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("read 1 message, wrote 1, rejected 1"), std::string::npos) << r.err;
}
