// Our xacro processor against a second, independent implementation: npm's xacro-parser
// (JavaScript), installed into the build tree at test time by tests/oracle/npm_install.sh
// (the ctest fixture xacro_parser_npm). Skips with a message when node or the package is absent.
// Robots: the example quadruped (several files, $(find), macros with block parameters, an
// argument) and two more multi-file robots written here in the forms vendors' packages use.
// Compared as XML (numbers within 1e-12 relative: JavaScript and Python print the same double
// the same way but xacro-parser writes 8 where Python writes 8.0) and as a model (joints,
// limits, masses, forward kinematics).
// Cases where the two implementations disagree and the documentation sides with us are listed
// in docs/design.md ("xacro-parser as an oracle") and kept out of these robots.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include <gtest/gtest.h>

#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/xacro/xacro.hpp"
#include "test_support.hpp"
#include "xml_compare.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;

fs::path oracle_modules() { return fs::path(RMODEL_NPM_ORACLE_DIR) / "node_modules"; }

bool have_oracle() {
  return std::system("node --version > /dev/null 2>&1") == 0 && fs::exists(oracle_modules() / "xacro-parser");
}

#define REQUIRE_XACRO_PARSER()                                                                           \
  do {                                                                                                   \
    if (!have_oracle())                                                                                  \
      GTEST_SKIP() << "node or npm's xacro-parser not found in " << oracle_modules()                     \
                   << " (tests/oracle/npm_install.sh installs it; needs node, npm and the npm " \
                      "registry): skipping the comparison with the independent implementation";       \
  } while (0)

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Runs tests/oracle/xacro_parser/expand.mjs; its standard output.
std::string xacro_parser(const std::string& file, const std::vector<std::string>& extra) {
  std::string command = "NODE_PATH=" + shell_quote(oracle_modules().string()) + " node " +
                        shell_quote((test::source_dir() / "tests/oracle/xacro_parser/expand.mjs").string()) + " " +
                        shell_quote(file);
  for (const auto& a : extra) command += " " + shell_quote(a);
  command += " 2>&1";
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "popen failed";
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int status = pclose(pipe);
  if (status != 0) ADD_FAILURE() << "xacro-parser failed on " << file << ":\n" << out;
  return out;
}

struct Robot {
  std::string file;
  std::vector<fs::path> package_paths;
  std::map<std::string, std::string> args;
};

std::vector<std::string> oracle_arguments(const Robot& robot) {
  std::vector<std::string> extra;
  for (const auto& p : robot.package_paths) extra.insert(extra.end(), {"--package-path", p.string()});
  for (const auto& [name, value] : robot.args) extra.push_back(name + ":=" + value);
  return extra;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

/// A six-axis arm with a two-finger gripper, split as vendors split theirs: a package with a
/// top file, a macro file per part, common properties, $(find) includes, an argument choosing
/// the gripper, a block parameter for mounting origins, a parameter default, math on pi and radians.
Robot write_arm(const fs::path& root, const std::string& gripper) {
  const fs::path pkg = root / "arm_description";
  write(pkg / "package.xml", "<package format=\"3\"><name>arm_description</name></package>\n");
  write(pkg / "urdf/common.xacro", R"~(<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="link_radius" value="0.04"/>
  <xacro:property name="length_0" value="0.15"/>
  <xacro:property name="length_1" value="0.35"/>
  <xacro:property name="length_2" value="${length_1 - 0.05}"/>
  <xacro:property name="length_3" value="0.12"/>
  <xacro:property name="length_4" value="0.10"/>
  <xacro:property name="length_5" value="0.06"/>
  <xacro:property name="joint_range" value="${radians(170)}"/>
  <xacro:macro name="cylinder_inertia" params="m r h">
    <inertia ixx="${m*(3*r*r+h*h)/12}" ixy="0" ixz="0" iyy="${m*(3*r*r+h*h)/12}" iyz="0" izz="${m*r*r/2}"/>
  </xacro:macro>
</robot>
)~");
  write(pkg / "urdf/segment.xacro", R"~(<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="segment" params="index parent axis length mass:=1.0 *origin">
    <link name="link_${index + 1}">
      <inertial>
        <origin xyz="0 0 ${length / 2}" rpy="0 0 0"/>
        <mass value="${mass}"/>
        <xacro:cylinder_inertia m="${mass}" r="${link_radius}" h="${length}"/>
      </inertial>
      <visual>
        <origin xyz="0 0 ${length / 2}" rpy="0 0 0"/>
        <geometry><cylinder radius="${link_radius}" length="${length}"/></geometry>
      </visual>
    </link>
    <joint name="joint_${index + 1}" type="revolute">
      <parent link="${parent}"/>
      <child link="link_${index + 1}"/>
      <xacro:insert_block name="origin"/>
      <axis xyz="${axis}"/>
      <limit lower="${-joint_range}" upper="${joint_range}" effort="${150 - 20 * index}" velocity="${pi / 2}"/>
    </joint>
  </xacro:macro>
</robot>
)~");
  write(pkg / "urdf/gripper.xacro", R"~(<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="finger" params="side reflect">
    <link name="finger_${side}">
      <inertial><origin xyz="0 0 0.02" rpy="0 0 0"/><mass value="0.05"/>
        <xacro:cylinder_inertia m="0.05" r="0.01" h="0.04"/></inertial>
    </link>
    <joint name="finger_${side}_joint" type="prismatic">
      <parent link="hand"/>
      <child link="finger_${side}"/>
      <origin xyz="0 ${reflect * 0.01} 0.05" rpy="0 0 0"/>
      <axis xyz="0 ${reflect} 0"/>
      <limit lower="0" upper="0.04" effort="20" velocity="0.2"/>
      <xacro:unless value="${reflect > 0}">
        <mimic joint="finger_left_joint"/>
      </xacro:unless>
    </joint>
  </xacro:macro>
  <xacro:macro name="gripper" params="parent">
    <link name="hand">
      <inertial><origin xyz="0 0 0.03" rpy="0 0 0"/><mass value="0.6"/>
        <xacro:cylinder_inertia m="0.6" r="0.05" h="0.06"/></inertial>
    </link>
    <joint name="hand_joint" type="fixed">
      <parent link="${parent}"/>
      <child link="hand"/>
      <origin xyz="0 0 ${length_5}" rpy="0 0 ${-pi / 4}"/>
    </joint>
    <xacro:finger side="left" reflect="1"/>
    <xacro:finger side="right" reflect="-1"/>
  </xacro:macro>
</robot>
)~");
  write(pkg / "urdf/arm.urdf.xacro", R"~(<?xml version="1.0"?>
<robot name="arm" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="gripper" default="true"/>
  <xacro:include filename="$(find arm_description)/urdf/common.xacro"/>
  <xacro:include filename="segment.xacro"/>
  <xacro:include filename="$(find arm_description)/urdf/gripper.xacro"/>
  <link name="base_link"/>
  <xacro:segment index="0" length="${length_0}" mass="3.0" parent="base_link" axis="0 0 1">
    <origin xyz="0 0 0.05" rpy="0 0 0"/>
  </xacro:segment>
  <xacro:segment index="1" length="${length_1}" mass="2.5" parent="link_1" axis="0 1 0">
    <origin xyz="0 0 ${length_0}" rpy="0 0 0"/>
  </xacro:segment>
  <xacro:segment index="2" length="${length_2}" mass="2.0" parent="link_2" axis="0 1 0">
    <origin xyz="0 0 ${length_1}" rpy="0 0 0"/>
  </xacro:segment>
  <xacro:segment index="3" length="${length_3}" parent="link_3" axis="0 0 1">
    <origin xyz="0 0 ${length_2}" rpy="0 0 0"/>
  </xacro:segment>
  <xacro:segment index="4" length="${length_4}" mass="0.8" parent="link_4" axis="0 1 0">
    <origin xyz="0 0 ${length_3}" rpy="0 0 0"/>
  </xacro:segment>
  <xacro:segment index="5" length="${length_5}" mass="0.4" parent="link_5" axis="0 0 1">
    <origin xyz="0 0 ${length_4}" rpy="0 0 ${pi}"/>
  </xacro:segment>
  <xacro:if value="$(arg gripper)">
    <xacro:gripper parent="link_6"/>
  </xacro:if>
</robot>
)~");
  return {(pkg / "urdf/arm.urdf.xacro").string(), {root}, {{"gripper", gripper}}};
}

/// A differential-drive base with a sensor mast: wheels by a macro called with a side and a
/// sign, properties computed from others, a conditional on a string argument, an included
/// file in a sibling directory, comments and text that pass through.
Robot write_mobile_base(const fs::path& root, const std::string& lidar) {
  const fs::path pkg = root / "base_description";
  write(pkg / "package.xml", "<package format=\"3\"><name>base_description</name></package>\n");
  write(pkg / "urdf/wheels/wheel.xacro", R"~(<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="wheel" params="side sign">
    <!-- ${side} wheel -->
    <link name="${side}_wheel">
      <inertial><origin xyz="0 0 0" rpy="${pi/2} 0 0"/><mass value="${wheel_mass}"/>
        <inertia ixx="${wheel_mass*(3*wheel_radius*wheel_radius+wheel_width*wheel_width)/12}" ixy="0" ixz="0"
                 iyy="${wheel_mass*(3*wheel_radius*wheel_radius+wheel_width*wheel_width)/12}" iyz="0" izz="${wheel_mass*wheel_radius*wheel_radius/2}"/>
      </inertial>
      <collision><origin xyz="0 0 0" rpy="${pi/2} 0 0"/>
        <geometry><cylinder radius="${wheel_radius}" length="${wheel_width}"/></geometry></collision>
    </link>
    <joint name="${side}_wheel_joint" type="continuous">
      <parent link="base_link"/>
      <child link="${side}_wheel"/>
      <origin xyz="0 ${sign * (base_width / 2 + wheel_width / 2)} ${wheel_radius - base_height / 2}" rpy="0 0 0"/>
      <axis xyz="0 1 0"/>
      <limit effort="10" velocity="${max_speed / wheel_radius}"/>
    </joint>
  </xacro:macro>
</robot>
)~");
  write(pkg / "urdf/base.urdf.xacro", R"~(<?xml version="1.0"?>
<robot name="mobile_base" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="lidar" default="2d"/>
  <xacro:property name="base_width" value="0.40"/>
  <xacro:property name="base_length" value="${base_width * 1.5}"/>
  <xacro:property name="base_height" value="0.12"/>
  <xacro:property name="base_mass" value="12"/>
  <xacro:property name="wheel_radius" value="0.08"/>
  <xacro:property name="wheel_width" value="0.04"/>
  <xacro:property name="wheel_mass" value="0.9"/>
  <xacro:property name="max_speed" value="1.2"/>
  <xacro:include filename="wheels/wheel.xacro"/>
  <link name="base_link">
    <inertial><origin xyz="0 0 0" rpy="0 0 0"/><mass value="${base_mass}"/>
      <inertia ixx="${base_mass*(base_width*base_width+base_height*base_height)/12}" ixy="0" ixz="0"
               iyy="${base_mass*(base_length*base_length+base_height*base_height)/12}" iyz="0"
               izz="${base_mass*(base_length*base_length+base_width*base_width)/12}"/></inertial>
    <visual><geometry><box size="${base_length} ${base_width} ${base_height}"/></geometry></visual>
  </link>
  <xacro:wheel side="left" sign="1"/>
  <xacro:wheel side="right" sign="-1"/>
  <link name="caster"><inertial><origin xyz="0 0 0" rpy="0 0 0"/><mass value="0.2"/>
    <inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4" iyz="0" izz="1e-4"/></inertial></link>
  <joint name="caster_joint" type="fixed"><parent link="base_link"/><child link="caster"/>
    <origin xyz="${-base_length / 2 + 0.05} 0 ${-base_height / 2 - 0.02}" rpy="0 0 0"/></joint>
  <xacro:if value="${'$(arg lidar)' == '3d'}">
    <link name="lidar_3d"/>
    <joint name="lidar_joint" type="fixed"><parent link="base_link"/><child link="lidar_3d"/>
      <origin xyz="0.1 0 ${base_height / 2 + 0.1}" rpy="0 0 0"/></joint>
  </xacro:if>
  <xacro:unless value="${'$(arg lidar)' == '3d'}">
    <link name="lidar_2d"/>
    <joint name="lidar_joint" type="fixed"><parent link="base_link"/><child link="lidar_2d"/>
      <origin xyz="${base_length / 2 - 0.05} 0 ${base_height / 2 + 0.03}" rpy="0 0 ${radians(180)}"/></joint>
  </xacro:unless>
</robot>
)~");
  return {(pkg / "urdf/base.urdf.xacro").string(), {root}, {{"lidar", lidar}}};
}

Robot quadruped(const std::string& camera) {
  const fs::path examples = test::source_dir() / "share/rmodel/examples/xacro";
  return {(examples / "quadruped_description/urdf/quadruped_flat.urdf.xacro").string(), {examples},
          {{"with_camera", camera}}};
}

class XacroParserOracle : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-xacro-oracle"); }
  void TearDown() override { fs::remove_all(dir_); }

  /// Expands `robot` with both implementations; compares as XML, then as a model.
  void expect_same(const Robot& robot) {
    SCOPED_TRACE(robot.file);
    XacroOptions options;
    options.package_paths = robot.package_paths;
    options.args = robot.args;
    const std::string ours = expand_xacro_file(robot.file, options).xml();
    const std::string theirs = xacro_parser(robot.file, oracle_arguments(robot));
    EXPECT_EQ(test::xml_difference(ours, theirs, 1e-12), "") << "ours:\n" << ours << "\nxacro-parser:\n" << theirs;

    const Model a = Model::from_urdf_string(ours, "ours.urdf");
    const Model b = Model::from_urdf_string(theirs, "xacro-parser.urdf");
    ASSERT_EQ(a.joint_names(), b.joint_names());
    ASSERT_EQ(a.links().size(), b.links().size());
    ASSERT_EQ(a.total_mass().has_value(), b.total_mass().has_value());
    if (a.total_mass()) {
      EXPECT_NEAR(*a.total_mass(), *b.total_mass(), 1e-12);
    }
    for (std::size_t j = 0; j < a.pose_size(); ++j) {
      EXPECT_EQ(a.pose_joint(j).lower, b.pose_joint(j).lower);
      EXPECT_EQ(a.pose_joint(j).upper, b.pose_joint(j).upper);
    }
    const auto ka = kinematics::KinematicModel::from_model(a);
    const auto kb = kinematics::KinematicModel::from_model(b);
    kinematics::Workspace wa(ka), wb(kb);
    std::mt19937 rng(2323);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    for (int trial = 0; trial < 10; ++trial) {
      std::vector<double> q(ka.pose_size());
      for (auto& v : q) v = value(rng);
      kinematics::forward_kinematics(ka, wa, q);
      kinematics::forward_kinematics(kb, wb, q);
      for (const auto& link : a.links()) {
        const auto& fa = wa.frame(ka.body_index(link.name));
        const auto& fb = wb.frame(kb.body_index(link.name));
        EXPECT_LT((fa.matrix() - fb.matrix()).cwiseAbs().maxCoeff(), 1e-12) << link.name;
      }
    }
  }
  fs::path dir_;
};

TEST_F(XacroParserOracle, ExampleQuadruped) {
  REQUIRE_XACRO_PARSER();
  expect_same(quadruped("true"));
  expect_same(quadruped("false"));
}

TEST_F(XacroParserOracle, ArmWithGripper) {
  REQUIRE_XACRO_PARSER();
  expect_same(write_arm(dir_ / "with", "true"));
  expect_same(write_arm(dir_ / "without", "false"));
}

TEST_F(XacroParserOracle, MobileBase) {
  REQUIRE_XACRO_PARSER();
  expect_same(write_mobile_base(dir_ / "a", "2d"));
  expect_same(write_mobile_base(dir_ / "b", "3d"));
}

}  // namespace
}  // namespace rmodel
