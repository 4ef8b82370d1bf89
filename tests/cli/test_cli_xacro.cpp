// rmodel xacro, and xacro wherever a command takes a URDF (--xacro-arg, manifests).
#include <fstream>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "xml_compare.hpp"

namespace rmodel {
namespace {

using test::run_rmodel;

std::string examples() { return (test::source_dir() / "share/rmodel/examples/xacro").string(); }
std::string quadruped() { return examples() + "/quadruped_description/urdf/quadruped.urdf.xacro"; }

TEST(CliXacro, PrintsTheExpandedUrdf) {
  const auto r = run_rmodel({"xacro", quadruped(), "--package-path", examples()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(test::xml_difference(r.out, test::read_file(examples() + "/quadruped.urdf"), 1e-12), "");
}

TEST(CliXacro, ArgumentsAsNameValueOrOption) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"xacro", quadruped(), "with_camera:=false", "--package-path", examples()},
           {"xacro", quadruped(), "--xacro-arg", "with_camera:=false", "--package-path", examples()}}) {
    const auto r = run_rmodel(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("front_camera"), std::string::npos);
    EXPECT_NE(r.out.find("front_left_knee"), std::string::npos);
  }
  const auto bad = run_rmodel({"xacro", quadruped(), "with_camera=false"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("NAME:=VALUE"), std::string::npos) << bad.err;
}

TEST(CliXacro, WritesAFileButNeverOverAnInput) {
  const auto dir = test::make_temp_dir("rmodel-cli-xacro");
  const std::string out = (dir / "q.urdf").string();
  auto r = run_rmodel({"xacro", quadruped(), "--package-path", examples(), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(test::xml_difference(test::read_file(out), test::read_file(examples() + "/quadruped.urdf"), 1e-12), "");
  std::filesystem::copy(examples(), dir / "copy", std::filesystem::copy_options::recursive);
  const std::string leg = (dir / "copy/quadruped_description/urdf/leg.xacro").string();
  const std::string before = test::read_file(leg);
  r = run_rmodel({"xacro", (dir / "copy/quadruped_description/urdf/quadruped.urdf.xacro").string(), "--package-path",
                  (dir / "copy").string(), "-o", leg});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("would overwrite the input"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_file(leg), before);
  std::filesystem::remove_all(dir);
}

TEST(CliXacro, FindsPackagesWhereRos1And2PutThem) {
  // A ROS 2 install (AMENT_PREFIX_PATH, its resource index) and a ROS 1 source tree whose
  // folder is not named like its package (ROS_PACKAGE_PATH, package.xml's <name>).
  const auto dir = test::make_temp_dir("rmodel-cli-xacro");
  namespace fs = std::filesystem;
  const fs::path install = dir / "install";
  fs::create_directories(install / "share/ament_index/resource_index/packages");
  fs::copy(examples() + "/quadruped_description", install / "share/quadruped_description", fs::copy_options::recursive);
  std::ofstream(install / "share/ament_index/resource_index/packages/quadruped_description");
  const auto expected = test::read_file(examples() + "/quadruped.urdf");
  setenv("AMENT_PREFIX_PATH", install.c_str(), 1);
  auto r = run_rmodel({"xacro", quadruped()});
  unsetenv("AMENT_PREFIX_PATH");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::xml_difference(r.out, expected, 1e-12), "");

  const fs::path src = dir / "src";
  fs::create_directories(src / "robots");
  fs::copy(examples() + "/quadruped_description", src / "robots/quadruped", fs::copy_options::recursive);
  setenv("ROS_PACKAGE_PATH", src.c_str(), 1);
  r = run_rmodel({"xacro", quadruped()});
  unsetenv("ROS_PACKAGE_PATH");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::xml_difference(r.out, expected, 1e-12), "");
  fs::remove_all(dir);
}

TEST(CliXacro, SemanticsInXacroAreExpandedAsMoveItExpandsThem) {
  // MoveIt's configurations keep their SRDF as `.srdf.xacro`, which MoveIt's launch files
  // always expand. This one, expanded, is the example robot's robot.srdf: every command
  // reads the same semantics from both. Read as SRDF, it was a robot of ignored elements
  // and `check` passed on no semantics at all.
  const auto dir = test::make_temp_dir("rmodel-cli-xacro");
  const std::string srdf_xacro = (dir / "rover.srdf.xacro").string();
  std::ofstream(srdf_xacro) << R"~(<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="rover">
  <xacro:arg name="arm_tip" default="hand"/>
  <xacro:macro name="chain_group" params="name tip">
    <group name="${name}">
      <chain base_link="base_link" tip_link="${tip}"/>
    </group>
  </xacro:macro>
  <xacro:chain_group name="arm" tip="$(arg arm_tip)"/>
  <group name="gripper">
    <joint name="finger_slide"/>
  </group>
  <group name="arm_and_gripper">
    <group name="arm"/>
    <group name="gripper"/>
  </group>
  <xacro:chain_group name="leg" tip="foot"/>
  <group_state name="home" group="arm">
    <joint name="arm_pan" value="0"/>
    <joint name="arm_lift" value="0.4"/>
    <joint name="elbow" value="${-1.2}"/>
    <joint name="wrist" value="0.8"/>
  </group_state>
  <group_state name="open" group="gripper">
    <joint name="finger_slide" value="0.04"/>
  </group_state>
  <end_effector name="hand" parent_link="hand" group="gripper" parent_group="arm"/>
  <virtual_joint name="world_joint" type="planar" parent_frame="odom" child_link="base_link"/>
</robot>
)~";
  const std::string urdf = (test::source_dir() / "share/rmodel/examples/robot.urdf").string();
  const std::string srdf = (test::source_dir() / "share/rmodel/examples/robot.srdf").string();
  for (const char* command : {"joints", "chains", "groups", "poses"}) {
    const auto plain = run_rmodel({command, "-u", urdf, "-s", srdf, "-f", "json"});
    const auto expanded = run_rmodel({command, "-u", urdf, "-s", srdf_xacro, "-f", "json"});
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    ASSERT_EQ(expanded.exit_code, 0) << command << ": " << expanded.err;
    EXPECT_EQ(expanded.out, plain.out) << command;
  }
  // --xacro-arg reaches the semantics too, and a problem is given at its xacro line.
  const auto bad = run_rmodel({"check", "-u", urdf, "-s", srdf_xacro, "--xacro-arg", "arm_tip:=nowhere"});
  EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find(srdf_xacro + ":6: error:"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("'nowhere'"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("in macro 'chain_group' called from " + srdf_xacro + ":9"), std::string::npos) << bad.out;
  const auto loaded = run_rmodel({"groups", "-u", urdf, "-s", srdf_xacro, "--xacro-arg", "arm_tip:=nowhere"});
  // Loading skips the chain as srdfdom does, and says so at the same line.
  EXPECT_EQ(loaded.exit_code, 0) << loaded.err;
  EXPECT_NE(loaded.err.find("warning: " + srdf_xacro + ":6: chain 'arm'"), std::string::npos) << loaded.err;
  // convert takes no xacro arguments: it says what to do rather than read xacro as SRDF.
  const auto convert = run_rmodel({"convert", srdf_xacro, "-f", "json"});
  EXPECT_NE(convert.exit_code, 0);
  EXPECT_NE(convert.err.find("this SRDF is xacro"), std::string::npos) << convert.err;
  std::filesystem::remove_all(dir);
}

TEST(CliXacro, ErrorsNameTheXacroLine) {
  const auto dir = test::make_temp_dir("rmodel-cli-xacro");
  std::ofstream(dir / "r.urdf.xacro") << "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
                                         "  <xacro:property name=\"length\" value=\"1\"/>\n"
                                         "  <link name=\"a\"><box size=\"${lenght}\"/></link>\n"
                                         "</robot>\n";
  const std::string file = (dir / "r.urdf.xacro").string();
  auto r = run_rmodel({"xacro", file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(file + ":3: unknown property 'lenght' (did you mean 'length'?)"), std::string::npos) << r.err;
  // check reports it as a problem of the model, with its line
  r = run_rmodel({"check", "-u", file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find(file + ":3: error: unknown property 'lenght'"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(CliXacro, CheckPointsAtTheXacroSourceLineOfAUrdfProblem) {
  const auto dir = test::make_temp_dir("rmodel-cli-xacro");
  std::ofstream(dir / "r.urdf.xacro") << "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
                                         "  <xacro:macro name=\"arm\" params=\"side\">\n"
                                         "    <link name=\"${side}_arm\"/>\n"
                                         "    <joint name=\"${side}_shoulder\" type=\"revolute\">\n"
                                         "      <parent link=\"torso\"/><child link=\"${side}_arm\"/>\n"
                                         "    </joint>\n"
                                         "  </xacro:macro>\n"
                                         "  <link name=\"torso\"/>\n"
                                         "  <xacro:arm side=\"left\"/>\n"
                                         "</robot>\n";
  const std::string file = (dir / "r.urdf.xacro").string();
  const auto r = run_rmodel({"check", "-u", file});
  EXPECT_EQ(r.exit_code, 1);
  // The revolute joint lacks its <limit>: reported at line 4 of the xacro, in the call of line 9.
  EXPECT_NE(r.out.find(file + ":4: error:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("in macro 'arm' called from " + file + ":9"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(CliXacro, AVectorWrittenOverLinesIsReadAsXmlParsersReadIt) {
  // HSR-B writes origins over three lines. Through xacro (expat: XML 1.0's attribute-value
  // normalisation) the line ends are spaces and the model loads; the same text read as a plain
  // URDF is refused, as urdfdom refuses it (its vector parser splits at spaces only and wants
  // every piece to be a whole number, "0.1\n" is not).
  const auto dir = test::make_temp_dir("rmodel-cli-xacro");
  const std::string body = "  <link name=\"a\"/><link name=\"b\"/>\n"
                           "  <joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/>\n"
                           "    <origin xyz=\"0.1\n      0.2\n      0.3\" rpy=\"0 0 0\"/></joint>\n"
                           "</robot>\n";
  std::ofstream(dir / "r.urdf.xacro") << "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n" << body;
  std::ofstream(dir / "r.urdf") << "<robot name=\"r\">\n" << body;
  auto r = run_rmodel({"xacro", (dir / "r.urdf.xacro").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(R"~(<origin xyz="0.1       0.2       0.3" rpy="0 0 0"/>)~"), std::string::npos) << r.out;
  r = run_rmodel({"check", "-u", (dir / "r.urdf.xacro").string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = run_rmodel({"check", "-u", (dir / "r.urdf").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("r.urdf:4: error: joint 'j': <origin xyz="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[bad-number]"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(CliXacro, TheDocumentsOwnMessagesGoToStderrAndCheckCountsThem) {
  const auto dir = test::make_temp_dir("rmodel-cli-xacro");
  std::ofstream(dir / "r.urdf.xacro")
      << "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
         "  <xacro:macro name=\"part\" params=\"name\">\n"
         "    <link name=\"${name}\"/>${xacro.warning('no inertia for', name)}\n"
         "  </xacro:macro>\n"
         "  <link name=\"base\"/>\n"
         "  <xacro:part name=\"arm\"/>\n"
         "  ${xacro.error('calibration missing')}\n"
         "  <joint name=\"j\" type=\"continuous\"><parent link=\"base\"/><child link=\"arm\"/>\n"
         "    <mimic joint=\"nothing\"/></joint>\n"
         "</robot>\n";
  const std::string file = (dir / "r.urdf.xacro").string();
  const std::string warning =
      "warning: " + file + ":3: no inertia for arm, in macro 'part' called from " + file + ":6 [xacro-warning]";
  // rmodel xacro prints them as ROS's xacro does, and succeeds.
  auto r = run_rmodel({"xacro", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<link name=\"arm\"/>"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("rmodel: " + warning + "\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rmodel: error: " + file + ":7: calibration missing [xacro-error]\n"), std::string::npos) << r.err;
  // A command that loads the model says them, error() as a warning, and goes on; what loading
  // found in the expanded URDF is said at its xacro line (the joint of line 8).
  r = run_rmodel({"joints", "-u", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("rmodel: " + warning + "\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rmodel: warning: " + file + ":7: calibration missing [xacro-error]\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rmodel: warning: " + file + ":8: joint 'j' mimics 'nothing'"), std::string::npos) << r.err;
  // check counts the document's own error.
  r = run_rmodel({"check", "-u", file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find(file + ":7: error: calibration missing [xacro-error]\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(file + ":3: warning: no inertia for arm"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(CliXacro, ModelCommandsReadXacroAndManifestsCarryItsArguments) {
  auto r = run_rmodel({"joints", "-u", quadruped(), "--package-path", examples(), "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("rear_right_knee"), std::string::npos);
  const auto dir = test::make_temp_dir("rmodel-cli-xacro");
  std::ofstream(dir / "model.json") << "{\"urdf\": \"" << quadruped() << "\", \"package_paths\": [\"" << examples()
                                    << "\"], \"xacro_args\": {\"with_camera\": false}}";
  r = run_rmodel({"info", "-m", (dir / "model.json").string(), "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto info = nlohmann::json::parse(r.out);
  r = run_rmodel({"info", "-u", quadruped(), "--package-path", examples(), "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto with_camera = nlohmann::json::parse(r.out);
  EXPECT_NE(info.dump(), with_camera.dump());  // one link and its joint fewer
  r = run_rmodel({"diff", examples() + "/quadruped.urdf", quadruped(), "--package-path", examples()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rmodel
