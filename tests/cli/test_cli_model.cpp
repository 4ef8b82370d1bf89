// The inspection commands, run as a user runs them: exit code, stdout, stderr.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;
using test::run_rmodel;
using test::sample;

std::vector<std::string> sweetie_args(std::vector<std::string> args) {
  args.push_back("--urdf");
  args.push_back(fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string());
  args.push_back("--semantics");
  args.push_back(fixture("sweetie_bot_proto2/kinematic_chains.cpf").string());
  return args;
}

/// Golden files live in tests/cli/golden/<name>; RMODEL_UPDATE_GOLDEN=1 rewrites them.
void expect_model_golden(const std::string& name, std::string actual) {
  // Paths of the checkout differ between machines: golden files say $SRC.
  const std::string src = test::source_dir().string();
  for (std::size_t pos; (pos = actual.find(src)) != std::string::npos;) actual.replace(pos, src.size(), "$SRC");
  const auto path = test::source_dir() / "tests" / "cli" / "golden" / name;
  if (std::getenv("RMODEL_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  EXPECT_EQ(actual, read_file(path)) << "golden " << path << " differs (RMODEL_UPDATE_GOLDEN=1 to rewrite)";
}

struct GoldenCase {
  std::vector<std::string> args;
  std::string golden;
};

// ctest lists the cases by golden file, not by the bytes of the parameter.
void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.golden; }

class CliGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(CliGolden, SampleRobotOutput) {
  const auto& c = GetParam();
  auto args = c.args;
  args.push_back("--sample");
  const auto r = run_rmodel(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  expect_model_golden(c.golden, r.out);
}

INSTANTIATE_TEST_SUITE_P(
    Commands, CliGolden,
    ::testing::Values(GoldenCase{{"info"}, "info.txt"}, GoldenCase{{"info", "-f", "json"}, "info.json"},
                      GoldenCase{{"tree"}, "tree.txt"}, GoldenCase{{"tree", "--format", "dot"}, "tree.dot"},
                      GoldenCase{{"tree", "--format", "json"}, "tree.json"},
                      GoldenCase{{"joints"}, "joints.txt"}, GoldenCase{{"joints", "-f", "csv"}, "joints.csv"},
                      GoldenCase{{"joints", "-f", "json"}, "joints.json"},
                      GoldenCase{{"chains"}, "chains.txt"}, GoldenCase{{"chains", "--with-virtual", "-f", "json"}, "chains.json"},
                      GoldenCase{{"chains", "-f", "csv", "head", "neck"}, "chains_head_neck.csv"},
                      GoldenCase{{"groups"}, "groups.txt"}, GoldenCase{{"groups", "-f", "json"}, "groups.json"},
                      GoldenCase{{"contacts"}, "contacts.txt"}, GoldenCase{{"contacts", "-f", "json"}, "contacts.json"},
                      GoldenCase{{"check"}, "check.txt"}, GoldenCase{{"check", "-f", "json"}, "check.json"},
                      GoldenCase{{"index", "tail_swing", "neck_pitch"}, "index.txt"},
                      GoldenCase{{"index", "-f", "json", "--kind", "chain", "neck"}, "index_chain.json"}),
    [](const ::testing::TestParamInfo<GoldenCase>& info) {
      std::string name = info.param.golden;
      for (char& ch : name) if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

TEST(CliJoints, SweetieBotOrderIsNominalJsonOrder) {
  RMODEL_REQUIRE_FIXTURES();
  const auto r = run_rmodel(sweetie_args({"joints", "--format", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out)["joints"];
  const auto nominal = nlohmann::json::parse(read_file(fixture("sweetie_bot_proto2/joint_state/nominal.json")));
  ASSERT_EQ(doc.size(), 32U);
  for (std::size_t i = 0; i < doc.size(); ++i) {
    EXPECT_EQ(doc[i]["index"], i);
    EXPECT_EQ(doc[i]["name"], nominal["name"][i]);
  }
}

TEST(CliTree, FixtureRobotsPrintTheirTrees) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* urdf : {"example_robot_data/panda.urdf", "example_robot_data/solo12.urdf",
                           "example_robot_data/talos_reduced.urdf", "sweetie_bot_proto2/sweetie_bot_proto2.urdf"}) {
    const auto r = run_rmodel({"tree", "--urdf", fixture(urdf).string(), "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << urdf << r.err;
    const auto info = run_rmodel({"info", "--urdf", fixture(urdf).string(), "--format", "json"});
    EXPECT_EQ(nlohmann::json::parse(r.out)["links"].size(), nlohmann::json::parse(info.out)["links"]) << urdf;
    const auto text = run_rmodel({"tree", "--urdf", fixture(urdf).string()});
    EXPECT_EQ(text.exit_code, 0);
    EXPECT_NE(text.out.find("└── "), std::string::npos);
  }
}

TEST(CliCheck, RealRobotIsValid) {
  RMODEL_REQUIRE_FIXTURES();
  const auto r = run_rmodel(sweetie_args({"check"}));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "valid: 0 errors, 0 warnings\n");
}

TEST(CliCheck, InvalidModelExitsOneAndListsEveryProblem) {
  const auto dir = test::make_temp_dir("rmodel-check-");
  const auto sem = dir / "bad.json";
  std::ofstream(sem) << R"({"chains": [{"name": "a", "first_link": "base_link", "last_link": "nowhere"},
{"name": "b", "first_link": "base_link", "last_link": "neck", "default_contact": "missing"}]})";
  const auto r = run_rmodel({"check", "--urdf", sample("pony.urdf").string(), "--semantics", sem.string(), "-f", "json"});
  EXPECT_EQ(r.exit_code, 1);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["valid"], false);
  EXPECT_EQ(doc["errors"], 2);
  EXPECT_EQ(doc["problems"][0]["file"], sem.string());
  EXPECT_EQ(doc["problems"][0]["line"], 1);
  EXPECT_EQ(doc["problems"][1]["line"], 2);
  EXPECT_EQ(doc["problems"][1]["code"], "unknown-contact");
  std::filesystem::remove_all(dir);
}

TEST(CliCheck, UsageErrorsExitTwo) {
  EXPECT_EQ(run_rmodel({"check", "--urdf", "/nonexistent.urdf"}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"check", "--urdf", test::source_dir().string()}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"check", "--bogus"}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"joints", "--sample", "--format", "xml"}).exit_code, 2);
  EXPECT_EQ(run_rmodel({}).exit_code, 2);
  const auto r = run_rmodel({"joints"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no model given"), std::string::npos);
}

TEST(CliIndex, UnknownNameFailsWithMessageAndNoOutput) {
  const auto r = run_rmodel({"index", "--sample", "neck_pitch", "nope"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "rmodel: error: unknown joint 'nope'\n");
  const auto g = run_rmodel({"index", "--sample", "--kind", "group", "tail"});
  EXPECT_EQ(g.exit_code, 0);
  EXPECT_EQ(g.out, "2\n");
}

TEST(CliModelOptions, UrdfFromStdinAndManifestAndEnvironment) {
  const auto r = run_rmodel({"index", "--urdf", "-", "tail_swing"}, read_file(sample("pony.urdf")));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "19\n");
  const auto m = run_rmodel({"index", "--model", sample("model.json").string(), "jaw_slide"});
  EXPECT_EQ(m.out, "18\n");
  setenv("RMODEL_MODEL", sample("model.json").string().c_str(), 1);
  const auto e = run_rmodel({"index", "head_yaw"});
  unsetenv("RMODEL_MODEL");
  EXPECT_EQ(e.out, "17\n") << e.err;
}

TEST(CliModelOptions, BrokenModelNamesFileAndLine) {
  const auto dir = test::make_temp_dir("rmodel-broken-");
  const auto urdf = dir / "broken.urdf";
  std::ofstream(urdf) << "<robot name=\"x\">\n  <link name=\"a\">\n</robot>\n";
  const auto r = run_rmodel({"joints", "--urdf", urdf.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(urdf.string() + ":2: malformed XML"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

TEST(CliConvert, CpfToJsonAndBackIsLossless) {
  RMODEL_REQUIRE_FIXTURES();
  const auto cpf = fixture("sweetie_bot_proto2/kinematic_chains.cpf").string();
  const auto to_json = run_rmodel({"convert", cpf});
  ASSERT_EQ(to_json.exit_code, 0) << to_json.err;
  const auto back = run_rmodel({"convert", "-", "--to", "cpf"}, to_json.out);
  ASSERT_EQ(back.exit_code, 0) << back.err;
  const auto again = run_rmodel({"convert", "-"}, back.out);
  EXPECT_EQ(again.out, to_json.out);
  // The converted semantics give the same full pose as the original.
  const auto dir = test::make_temp_dir("rmodel-convert-");
  std::ofstream(dir / "sem.json") << to_json.out;
  const auto a = run_rmodel(sweetie_args({"joints", "-f", "csv"}));
  const auto b = run_rmodel({"joints", "-f", "csv", "--urdf", fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(),
                             "--semantics", (dir / "sem.json").string()});
  EXPECT_EQ(a.out, b.out);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rmodel

namespace rmodel {
namespace {

// Every URDF+SRDF pair of the fixtures is usable from the shell: joints, poses, chains.
TEST(CliSrdf, EveryFixturePairLoads) {
  RMODEL_REQUIRE_FIXTURES();
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"example_robot_data/panda.urdf", "example_robot_data/panda.srdf"},
      {"example_robot_data/talos_reduced.urdf", "example_robot_data/talos.srdf"},
      {"sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/sweetie_bot_proto2.srdf"},
      {"sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/kinematic_chains.cpf"},
  };
  for (const auto& [urdf, semantics] : pairs)
    for (const char* command : {"joints", "poses", "chains", "groups", "check"}) {
      std::vector<std::string> args{command, "--urdf", test::fixture(urdf).string(), "--semantics",
                                    test::fixture(semantics).string()};
      // Talos' gripper motors break the triangle inequality, an error the robot loads with.
      if (std::string_view(command) == "check") args.insert(args.end(), {"--ignore", "inertia-triangle"});
      const auto r = test::run_rmodel(args);
      EXPECT_EQ(r.exit_code, 0) << command << " " << semantics << "\n" << r.err;
    }
}

TEST(CliSrdf, LimitsFileAddsColumnsToJoints) {
  const std::string dir = ::testing::TempDir();
  const std::string limits = dir + "/rmodel_limits.yaml";
  std::ofstream(limits) << "joint_limits:\n  neck_pitch:\n    has_acceleration_limits: true\n    max_acceleration: 4\n";
  const auto r = test::run_rmodel({"joints", "--sample", "--limits", limits, "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& row : doc["joints"])
    if (row["name"] == "neck_pitch") {
      EXPECT_EQ(row["acceleration"], 4.0);
      EXPECT_TRUE(row["jerk"].is_null());
      found = true;
    }
  EXPECT_TRUE(found) << r.out;
  // A limits file naming a joint the URDF lacks: MoveIt never reads that entry, so the joints
  // are listed, with a warning naming the file and line and the joint meant.
  std::ofstream(limits) << "joint_limits:\n  neck_ptich:\n    has_jerk_limits: true\n    max_jerk: 4\n";
  const auto other = test::run_rmodel({"joints", "--sample", "--limits", limits});
  EXPECT_EQ(other.exit_code, 0) << other.err;
  EXPECT_NE(other.out.find("neck_pitch"), std::string::npos) << other.out;
  EXPECT_NE(other.err.find("rmodel: warning: "), std::string::npos) << other.err;
  EXPECT_NE(other.err.find("rmodel_limits.yaml:2: joint 'neck_ptich' is not a joint of the URDF: its limits "
                           "are not used; did you mean 'neck_pitch'?"),
            std::string::npos)
      << other.err;
}

TEST(CliSrdf, CheckListsEveryProblemOfALimitsFile) {
  const std::string limits = ::testing::TempDir() + "/rmodel_limits_problems.yaml";
  std::ofstream(limits) << "joint_limits:\n  neck_pitch:\n    has_velocity_limits: true\n    max_velocity: -1.0\n"
                           "  head_yaw:\n    has_velocity_limits: true\n    max_velocity: abc\n"
                           "  nojoint:\n    has_velocity_limits: true\n    max_velocity: 1.0\n";
  const auto r = test::run_rmodel({"check", "--sample", "--limits", limits});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const std::string all = r.out + r.err;
  for (const char* expected :
       {"rmodel_limits_problems.yaml:4: error: joint 'neck_pitch': max_velocity = -1 must be a positive finite number",
        "rmodel_limits_problems.yaml:7: error: joint 'head_yaw': max_velocity is not a number",
        "rmodel_limits_problems.yaml:8: warning: joint 'nojoint' is not a joint of the URDF"})
    EXPECT_NE(all.find(expected), std::string::npos) << expected << "\n" << all;
  EXPECT_LT(all.find("problems.yaml:4"), all.find("problems.yaml:7"));  // in line order
  EXPECT_LT(all.find("problems.yaml:7"), all.find("problems.yaml:8"));
  // Other commands stop at the first error.
  const auto joints = test::run_rmodel({"joints", "--sample", "--limits", limits});
  EXPECT_EQ(joints.exit_code, 1);
  EXPECT_NE(joints.err.find("rmodel_limits_problems.yaml:4"), std::string::npos) << joints.err;
  EXPECT_EQ(joints.err.find("rmodel_limits_problems.yaml:7"), std::string::npos) << joints.err;
}

}  // namespace
}  // namespace rmodel
