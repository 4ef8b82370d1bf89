// Named poses and command-line pose assignments as full sorted joint states.
#include <gtest/gtest.h>

#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/model/pose.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::read_file;
using test::sample;

/// The sample pony with named poses added to its semantics.
Model pony_with_poses() {
  Semantics s = parse_semantics_json(read_file(sample("pony.json")), "pony.json");
  s.poses.push_back({"look_left", "head", {{"head_yaw", 0.5}, {"neck_pitch", -0.25}}, 7});
  s.poses.push_back({"home", "head", {{"head_yaw", 0.1}}, 8});
  s.poses.push_back({"home", "tail", {{"tail_swing", 2.0}}, 9});
  s.poses.push_back({"camera", "", {{"camera_mount", 0.0}}, 10});       // fixed joint
  s.poses.push_back({"ghost", "", {{"nope", 1.0}}, 11});                // not in the URDF
  s.poses.push_back({"wide", "head", {{"jaw_slide", 0.5}, {"tail_swing", 100.0}}, 12});  // beyond limits
  return Model::from_urdf_string(read_file(sample("pony.urdf")), "pony.urdf", std::move(s));
}

TEST(PoseAssignments, ParsesItemsSeparatedByBlanksAndCommas) {
  const auto a = parse_pose_assignments(" neck_pitch=0.3\thead_yaw=-0.1,jaw_slide=+2e-3 ,, tail_swing=0 ");
  ASSERT_EQ(a.size(), 4U);
  EXPECT_EQ(a[0], (JointAssignment{"neck_pitch", 0.3}));
  EXPECT_EQ(a[1], (JointAssignment{"head_yaw", -0.1}));
  EXPECT_EQ(a[2], (JointAssignment{"jaw_slide", 2e-3}));
  EXPECT_EQ(a[3], (JointAssignment{"tail_swing", 0.0}));
  EXPECT_TRUE(parse_pose_assignments("").empty());
  EXPECT_TRUE(parse_pose_assignments(" , ").empty());
  const std::vector<std::string> args = {"a=1", "b=2 c=3"};
  EXPECT_EQ(parse_pose_assignments(args).size(), 3U);
}

TEST(PoseAssignments, RejectsMalformedItemsNamingThem) {
  auto message = [](std::string_view text) {
    try {
      (void)parse_pose_assignments(text);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("a=1 neck"), "pose item 'neck': expected joint=value");
  EXPECT_EQ(message("=1"), "pose item '=1': no joint name before '='");
  EXPECT_EQ(message("a=x"), "pose item 'a=x': 'x' is not a number");
  EXPECT_EQ(message("a="), "pose item 'a=': '' is not a number");
  EXPECT_EQ(message("a=1rad"), "pose item 'a=1rad': '1rad' is not a number");
  EXPECT_EQ(message("a=nan"), "pose item 'a=nan': the value must be finite");
  EXPECT_EQ(message("a=-inf"), "pose item 'a=-inf': the value must be finite");
  EXPECT_EQ(message("a=1e999"), "pose item 'a=1e999': '1e999' is not a number");
  EXPECT_EQ(message("a=1 b=2 a=3"), "pose: joint 'a' is given twice");
  const std::vector<std::string> args = {"a=1", "a=2"};
  EXPECT_THROW((void)parse_pose_assignments(args), InvalidArgument);
}

TEST(NamedPose, FullSortedPoseWithZerosOrBase) {
  const Model model = pony_with_poses();
  const JointState p = named_pose(model, "look_left");
  EXPECT_EQ(p.name, model.joint_names());
  ASSERT_EQ(p.position.size(), model.pose_size());
  for (std::size_t i = 0; i < p.position.size(); ++i) {
    const std::string& j = model.joint_names()[i];
    const double expected = j == "head_yaw" ? 0.5 : j == "neck_pitch" ? -0.25 : 0.0;
    EXPECT_EQ(p.position[i], expected) << j;
  }
  EXPECT_TRUE(p.velocity.empty());

  JointState base = model.make_full_state(true);
  base.stamp = Time{12'500'000'000};
  for (std::size_t i = 0; i < base.position.size(); ++i) base.position[i] = 1.0 + static_cast<double>(i);
  base.velocity[0] = 4.0;
  const JointState q = named_pose(model, "look_left", base);
  EXPECT_EQ(q.stamp, Time{12'500'000'000});
  EXPECT_EQ(q.velocity, base.velocity);
  EXPECT_EQ(q.position[model.joint_index("head_yaw")], 0.5);
  EXPECT_EQ(q.position[model.joint_index("tail_swing")], 1.0 + static_cast<double>(model.joint_index("tail_swing")));

  JointState short_base;
  short_base.position = {1.0, 2.0};
  EXPECT_THROW((void)named_pose(model, "look_left", short_base), SizeMismatch);
}

TEST(NamedPose, LookupErrors) {
  const Model model = pony_with_poses();
  EXPECT_THROW((void)named_pose(model, "nope"), NotFound);
  try {
    (void)named_pose(model, "home");
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "pose 'home' is declared for 2 groups; name one of 'head/home', 'tail/home'");
  }
  EXPECT_EQ(named_pose(model, "tail/home").position[model.joint_index("tail_swing")], 2.0);
  try {
    (void)named_pose(model, "camera");
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_EQ(e.where().file, "pony.json");
    EXPECT_EQ(e.where().line, 10);
    EXPECT_EQ(e.message(), "pose 'camera': joint 'camera_mount' is fixed: it has no value in the full pose");
  }
  // A value for a joint the URDF lacks is dropped, as srdfdom drops it (check_named_poses
  // reports it).
  EXPECT_EQ(named_pose(model, "ghost").position, std::vector<double>(model.pose_size(), 0.0));
}

TEST(NamedPose, ResolveNamedAssignmentsOrBoth) {
  const Model model = pony_with_poses();
  const auto head_yaw = model.joint_index("head_yaw");
  const auto neck = model.joint_index("neck_pitch");
  EXPECT_EQ(resolve_pose(model, "look_left").position, named_pose(model, "look_left").position);
  const JointState a = resolve_pose(model, "look_left head_yaw=0.2");
  EXPECT_EQ(a.position[head_yaw], 0.2);
  EXPECT_EQ(a.position[neck], -0.25);
  const JointState b = resolve_pose(model, "neck_pitch=0.1,head_yaw=0.3");
  EXPECT_EQ(b.name, model.joint_names());
  EXPECT_EQ(b.position[neck], 0.1);
  EXPECT_EQ(b.position[model.joint_index("tail_swing")], 0.0);
  JointState base = model.make_full_state();
  base.position.assign(model.pose_size(), 7.0);
  const JointState c = resolve_pose(model, "head_yaw=0.3", &base);
  EXPECT_EQ(c.position[head_yaw], 0.3);
  EXPECT_EQ(c.position[neck], 7.0);
  const JointState d = resolve_pose(model, "look_left", &base);
  EXPECT_EQ(d.position[neck], -0.25);
  EXPECT_EQ(d.position[model.joint_index("jaw_slide")], 7.0);
  EXPECT_EQ(resolve_pose(model, "").position, std::vector<double>(model.pose_size(), 0.0));
  EXPECT_THROW((void)resolve_pose(model, "look_left nope=1"), NotFound);
  EXPECT_THROW((void)resolve_pose(model, "look_left head_yaw"), InvalidArgument);
  EXPECT_THROW((void)resolve_pose(model, "no_such_pose"), NotFound);
}

TEST(NamedPose, ApplyAssignments) {
  const Model model = pony_with_poses();
  JointState s;
  const std::vector<JointAssignment> a = {{"tail_swing", 1.5}};
  apply_pose_assignments(model, a, s);
  EXPECT_EQ(s.name, model.joint_names());
  EXPECT_EQ(s.position[model.joint_index("tail_swing")], 1.5);
  const std::vector<JointAssignment> unknown = {{"camera_mount", 1.0}};
  EXPECT_THROW(apply_pose_assignments(model, unknown, s), NotFound);
  JointState wrong;
  wrong.position = {1.0};
  EXPECT_THROW(apply_pose_assignments(model, a, wrong), SizeMismatch);
}

TEST(NamedPose, CheckReportsEveryProblemWithItsLine) {
  const Model model = pony_with_poses();
  const Diagnostics d = check_named_poses(model);
  ASSERT_EQ(d.items.size(), 3U);
  EXPECT_EQ(d.items[0].code, "pose-joint-outside-pose");
  EXPECT_EQ(d.items[0].where.line, 10);
  EXPECT_EQ(d.items[1].code, "pose-unknown-joint");
  EXPECT_EQ(d.items[1].severity, Severity::warning);  // a mistake: `check` counts it as an error
  EXPECT_EQ(d.items[1].where.to_string(), "pony.json:11");
  EXPECT_EQ(d.items[2].severity, Severity::warning);
  EXPECT_EQ(d.items[2].code, "pose-out-of-limits");
  EXPECT_EQ(d.items[2].message, "pose 'wide' (group 'head'): joint 'jaw_slide' = 0.5 is outside its limits [0, 0.02]");
  // tail_swing is continuous: no limits to leave.
}

}  // namespace
}  // namespace rmodel
