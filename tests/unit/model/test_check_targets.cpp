// The API of check --target (rmodel/check/check.hpp): the targets' names, which codes are whose, the
// verdict from a report's problems, and check_model with targets asked for. Whether each
// program's rules agree with the program is tested against its library in tests/oracle.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "rmodel/check/check.hpp"
#include "rmodel/base/check_codes.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rmodel::check_targets_unit_test {
namespace {

TEST(CheckTargets, NamesRoundTripAndNothingElseIsATarget) {
  std::set<std::string> names;
  for (const CheckTarget target : check_targets()) {
    names.insert(std::string(to_string(target)));
    EXPECT_EQ(parse_check_target(to_string(target)), target);
  }
  EXPECT_EQ(names, (std::set<std::string>{"mujoco", "kdl", "gazebo"}));
  EXPECT_EQ(display_name(CheckTarget::mujoco), "MuJoCo");
  for (const char* other : {"MuJoCo", "bullet", "", "kdl-", "mujoco,kdl"}) EXPECT_FALSE(parse_check_target(other)) << other;
}

TEST(CheckTargets, ATargetsCodesAreThoseOfItsPrefixInTheCatalogue) {
  std::set<CheckTarget> with_codes;
  for (const CheckCode& code : check_codes()) {
    const auto target = code_target(code.code);
    if (!target) continue;
    with_codes.insert(*target);
    EXPECT_TRUE(code.code.starts_with(std::string(to_string(*target)) + "-")) << code.code;
    EXPECT_EQ(code.scope, CodeScope::model) << code.code;
  }
  EXPECT_EQ(with_codes.size(), check_targets().size());
  for (const char* other : {"mesh-missing", "kinematics", "mujoco", "kdlx-root"}) EXPECT_FALSE(code_target(other)) << other;
}

TEST(CheckTargets, AVerdictCountsItsTargetsCodesOnly) {
  Diagnostics problems;
  problems.add(Severity::error, {"r.urdf", 1}, "mujoco-geometry", "a");
  problems.add(Severity::warning, {"r.urdf", 2}, "mujoco-limits", "b");
  problems.add(Severity::note, {"r.urdf", 3}, "mujoco-mimic-ignored", "c");
  problems.add(Severity::warning, {"r.urdf", 4}, "kdl-root-inertia", "d");
  problems.add(Severity::error, {"r.urdf", 5}, "inertia-triangle", "e");
  const TargetVerdict mujoco = target_verdict(problems, CheckTarget::mujoco, true);
  EXPECT_FALSE(mujoco.loads);
  EXPECT_EQ(mujoco.errors, 1U);
  EXPECT_EQ(mujoco.warnings, 1U);
  const TargetVerdict kdl = target_verdict(problems, CheckTarget::kdl, true);
  EXPECT_TRUE(kdl.loads);  // another program's error, and the URDF's own, are not KDL's
  EXPECT_EQ(kdl.errors, 0U);
  EXPECT_EQ(kdl.warnings, 1U);
  EXPECT_FALSE(target_verdict(problems, CheckTarget::gazebo, false).loads);  // rules not applied
}

TEST(CheckTargets, AVerdictWithAnUncheckedRuleIsNotLoads) {
  Diagnostics problems;
  problems.add(Severity::warning, {"r.urdf", 1}, "mujoco-mesh-unchecked", "a");
  problems.add(Severity::warning, {"r.urdf", 2}, "mujoco-limits", "b");
  const TargetVerdict mujoco = target_verdict(problems, CheckTarget::mujoco, true);
  EXPECT_FALSE(mujoco.loads);  // not known
  EXPECT_EQ(mujoco.errors, 0U);
  EXPECT_EQ(mujoco.warnings, 2U);
  EXPECT_EQ(mujoco.unchecked, 1U);
  EXPECT_EQ(target_verdict(problems, CheckTarget::kdl, true).unchecked, 0U);  // MuJoCo's, not KDL's
  // Dropped by the caller (--ignore): the robot is accepted without its meshes.
  problems.items.erase(problems.items.begin());
  const TargetVerdict accepted = target_verdict(problems, CheckTarget::mujoco, true);
  EXPECT_TRUE(accepted.loads);
  EXPECT_EQ(accepted.unchecked, 0U);
}

/// An arm of two links, each with a collision mesh (STL, which MuJoCo reads) named `first` and
/// `second`; `compiler`: a <mujoco><compiler> element's attributes.
std::string arm_with_meshes(const std::string& first, const std::string& second, const std::string& compiler = {}) {
  const std::string inertial =
      R"(<inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>)";
  return R"(<robot name="r">
  <mujoco><compiler )" + compiler + R"(/></mujoco><link name="base">)" + inertial + R"(<collision><geometry><mesh filename=")" + first + R"("/></geometry></collision></link>
  <link name="arm">)" + inertial + R"(<collision><geometry><mesh filename=")" + second + R"("/></geometry></collision></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
)";
}

TEST(CheckTargets, MeshesWithoutADirectoryAreUncheckedNotFound) {
  // MuJoCo reads a mesh from the URDF's directory: without one (standard input, a text), rmodel
  // cannot know whether MuJoCo finds it, and must not say the robot loads.
  const std::filesystem::path dir = test::make_temp_dir("rmodel-targets-meshes-");
  std::ofstream(dir / "a.stl") << "solid a\nendsolid a\n";
  std::ofstream(dir / "b.stl") << "solid b\nendsolid b\n";
  const Model model = Model::from_urdf_string(arm_with_meshes("package://arm/meshes/a.stl", "b.stl"), "r.urdf");
  // With the directory, both are where MuJoCo looks: nothing to say.
  EXPECT_TRUE(check_target(model, CheckTarget::mujoco, dir).items.empty());
  const Diagnostics without = check_target(model, CheckTarget::mujoco);
  ASSERT_EQ(without.items.size(), 1U);  // one warning for every mesh
  const Diagnostic& d = without.items.front();
  EXPECT_EQ(d.code, "mujoco-mesh-unchecked");
  EXPECT_EQ(d.severity, Severity::warning);
  EXPECT_EQ(d.where.line, 2);  // the first mesh's line
  EXPECT_NE(d.message.find("link 'base': collision mesh 'package://arm/meshes/a.stl' and 1 more mesh were not looked "
                           "for"),
            std::string::npos)
      << d.message;
  const TargetVerdict verdict = target_verdict(without, CheckTarget::mujoco, true);
  EXPECT_FALSE(verdict.loads);
  EXPECT_EQ(verdict.unchecked, 1U);
  // An absolute meshdir, or an absolute path MuJoCo keeps (strippath false), needs no
  // directory: the mesh is looked for, and found or not.
  const std::string meshdir = "meshdir=\"" + dir.string() + "\"";
  EXPECT_TRUE(check_target(Model::from_urdf_string(arm_with_meshes("a.stl", "b.stl", meshdir), "r.urdf"),
                           CheckTarget::mujoco)
                  .items.empty());
  const Diagnostics missing = check_target(
      Model::from_urdf_string(arm_with_meshes("a.stl", "gone.stl", meshdir), "r.urdf"), CheckTarget::mujoco);
  ASSERT_EQ(missing.items.size(), 1U);
  EXPECT_EQ(missing.items.front().code, "mujoco-mesh-missing");
  const std::string kept = (dir / "a.stl").string(), gone = (dir / "gone.stl").string();
  EXPECT_EQ(check_target(Model::from_urdf_string(arm_with_meshes(kept, kept, "strippath=\"false\""), "r.urdf"),
                         CheckTarget::mujoco)
                .items.size(),
            0U);
  const Diagnostics kept_missing = check_target(
      Model::from_urdf_string(arm_with_meshes(kept, gone, "strippath=\"false\""), "r.urdf"), CheckTarget::mujoco);
  ASSERT_EQ(kept_missing.items.size(), 1U);
  EXPECT_EQ(kept_missing.items.front().code, "mujoco-mesh-missing");
  std::filesystem::remove_all(dir);
}

TEST(CheckTargets, CheckModelAppliesTheTargetsAskedForOnceEachInOrder) {
  ModelSource source;
  source.urdf_path = (test::source_dir() / "share/rmodel/examples/robot.urdf").string();
  CheckOptions options;
  options.targets = {CheckTarget::gazebo, CheckTarget::kdl, CheckTarget::gazebo};
  const CheckReport report = check_model(source, options);
  ASSERT_EQ(report.targets.size(), 2U);
  EXPECT_EQ(report.targets[0].target, CheckTarget::gazebo);
  EXPECT_EQ(report.targets[1].target, CheckTarget::kdl);
  std::size_t kdl_codes = 0;
  for (const Diagnostic& d : report.problems.items) {
    EXPECT_NE(code_target(d.code), CheckTarget::mujoco) << d.code;
    kdl_codes += code_target(d.code) == CheckTarget::kdl ? 1 : 0;
  }
  EXPECT_EQ(kdl_codes, 1U);  // the root link's inertia, once
  // Without targets: the report of check_model(source), no verdict.
  const CheckReport plain = check_model(source, CheckOptions{});
  EXPECT_TRUE(plain.targets.empty());
  EXPECT_EQ(plain.problems.items.size(), check_model(source).items.size());
  for (const Diagnostic& d : plain.problems.items) EXPECT_FALSE(code_target(d.code)) << d.code;
}

}  // namespace
}  // namespace rmodel::check_targets_unit_test
