// The library names its options by their API fields (ReaderOptions::topics); the command
// says the flag that sets them (--topic): the same errors as tests/unit/base/test_option_errors.cpp,
// printed by rmodel (docs/design.md, "Errors name API fields").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "test_support.hpp"

namespace {

using rmodel::test::run_rmodel;

/// The command's text names no API field ("Struct::field").
void expect_no_field(const std::string& text) {
  for (const char* type : {"ModelRequest::", "ModelSource::", "XacroOptions::", "ReaderOptions::",
                           "AggregatorOptions::", "DynamicsStreamOptions::"})
    EXPECT_EQ(text.find(type), std::string::npos) << text;
}

}  // namespace

TEST(CliOptionFields, NoModelNamesTheModelFlags) {
  const auto r = run_rmodel({"joints"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no model given: give --urdf [with --semantics], --model or --sample"), std::string::npos)
      << r.err;
  expect_no_field(r.err);
}

TEST(CliOptionFields, AFilterOfTheWrongFamilyNamesTheFlag) {
  const auto r = run_rmodel({"aggregate", "--sample", "-k", "sync", "--diff", "euler", "-"}, "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--diff 'euler' is a integrator filter; --diff takes a differentiator"), std::string::npos)
      << r.err;
  expect_no_field(r.err);
}

TEST(CliOptionFields, AnUntimedMessageInAWindowNamesStartAndEnd) {
  const auto r = run_rmodel({"aggregate", "--sample", "--start", "0", "-i", "jsonl", "-"},
                            R"({"name": ["neck_pitch"], "position": [0.1]})" "\n");
  EXPECT_NE(r.err.find("a message needs one to be placed in the time window (--start, --end)"), std::string::npos)
      << r.err;
  expect_no_field(r.err);
}

TEST(CliOptionFields, ATopicOfATextLogIsRefusedNotIgnored) {
  // A file known by its extension: a usage error before anything is read.
  const std::string walk = (rmodel::test::source_dir() / "share/rmodel/examples/walk.jsonl").string();
  const auto file = run_rmodel({"aggregate", "--sample", "--topic", "/joint_states", walk});
  EXPECT_EQ(file.exit_code, 2) << file.err;
  EXPECT_TRUE(file.out.empty()) << file.out;
  EXPECT_NE(file.err.find("walk.jsonl: a jsonl log has no topics to choose from (--topic chooses among"),
            std::string::npos)
      << file.err;
  expect_no_field(file.err);
  // Told from standard input's first line: one error, no pose written.
  const auto piped = run_rmodel({"aggregate", "--sample", "--topic", "/joint_states", "-"},
                                R"({"topic": "/joint_states", "t": 0, "name": ["neck_pitch"], "position": [0.1]})" "\n");
  EXPECT_EQ(piped.exit_code, 1) << piped.err;
  EXPECT_TRUE(piped.out.empty()) << piped.out;
  EXPECT_NE(piped.err.find("<stdin>: a jsonl log has no topics to choose from (--topic"), std::string::npos)
      << piped.err;
}

TEST(CliOptionFields, XacroNamesItsFlags) {
  const auto dir = rmodel::test::make_temp_dir("option-fields");
  const std::string path = (dir / "r.urdf.xacro").string();
  std::ofstream(path) << R"~(<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">)~"
                         R"~(<link name="$(arg side)"/><link name="$(find nowhere_description)"/></robot>)~";
  const auto arg = run_rmodel({"xacro", path});
  EXPECT_EQ(arg.exit_code, 1);  // a bad input, as every xacro error
  EXPECT_NE(arg.err.find("undefined substitution argument 'side' (give it a value with --xacro-arg or declare"),
            std::string::npos)
      << arg.err;
  expect_no_field(arg.err);
  const auto package = run_rmodel({"xacro", path, "--xacro-arg", "side:=left"});
  EXPECT_NE(package.err.find("package 'nowhere_description' not found"), std::string::npos) << package.err;
  EXPECT_NE(package.err.find("--package-path"), std::string::npos) << package.err;
  expect_no_field(package.err);
  std::filesystem::remove_all(dir);
}

TEST(CliOptionFields, ReportsOnStdoutNameTheFlags) {
  // check-log's problems: the header's two topics, and no joint of the model at the end.
  const auto log = run_rmodel({"check-log", "--sample", "-i", "csv", "-"},
                              "t,/x/neck_pitch/position,/y/head_yaw/position\n0,1,2\n");
  EXPECT_EQ(log.exit_code, 1) << log.err;
  EXPECT_NE(log.out.find("choose one with a column prefix (--column-prefix)"), std::string::npos) << log.out;
  EXPECT_NE(log.out.find("need --column-prefix /joint_states/"), std::string::npos) << log.out;
  expect_no_field(log.out);
  // check --meshes: a package not found.
  const auto dir = rmodel::test::make_temp_dir("option-fields-mesh");
  const std::string urdf = (dir / "r.urdf").string();
  std::ofstream(urdf) << R"~(<robot name="r"><link name="a"><visual><geometry>)~"
                         R"~(<mesh filename="package://nowhere_description/a.stl"/>)~"
                         R"~(</geometry></visual></link></robot>)~";
  const auto meshes = run_rmodel({"check", "-u", urdf, "--meshes"});
  EXPECT_NE(meshes.out.find("give its parent directory with --package-path or ROS_PACKAGE_PATH"), std::string::npos)
      << meshes.out;
  expect_no_field(meshes.out);
  std::filesystem::remove_all(dir);
}
