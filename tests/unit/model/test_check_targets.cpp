// The API of check --target (rmodel/check/check.hpp): the targets' names, which codes are whose, the
// verdict from a report's problems, and check_model with targets asked for. Whether each
// program's rules agree with the program is tested against its library in tests/oracle.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "rmodel/check/check.hpp"
#include "rmodel/base/check_codes.hpp"
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
