// URDF <mimic> joints (issue 22), on tests/data/models/gripper.urdf: forward kinematics
// against an independent computation of the link frames, Jacobians against central
// differences of FK when only the masters move, completion of a pose as
// robot_state_publisher completes a joint state, the mistakes `check` reports, and diff.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "rmodel/check/check.hpp"
#include "rmodel/model/diff.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/kinematics/forward_kinematics.hpp"
#include "rmodel/kinematics/jacobian.hpp"
#include "rmodel/kinematics/kinematic_model.hpp"
#include "rmodel/kinematics/workspace.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/model/pose.hpp"
#include "rmodel/model/semantics.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

namespace kin = rmodel::kinematics;

std::filesystem::path mimic_test_model(const std::string& file) { return test::source_dir() / "tests/data/models" / file; }

Model gripper_model() { return Model::load({mimic_test_model("gripper.urdf").string(), "", std::nullopt}); }

/// Link frames of gripper.urdf written from the file by hand (origins, axes, mimic rules),
/// for the masters arm, wrist and finger_left.
struct GripperFrames {
  Eigen::Isometry3d left, right, knuckle, tip;
};

GripperFrames expected_frames(double arm, double wrist, double finger) {
  using Eigen::AngleAxisd;
  using Eigen::Translation3d;
  using Eigen::Vector3d;
  const Eigen::Isometry3d arm_link(Translation3d(0, 0, 0.1) * AngleAxisd(arm, Vector3d::UnitZ()));
  const Eigen::Isometry3d hand = arm_link * Translation3d(0.3, 0, 0) * AngleAxisd(wrist, Vector3d::UnitY());
  GripperFrames f;
  f.left = hand * Translation3d(0.1, 0, 0) * Translation3d(0, finger, 0);
  f.right = hand * Translation3d(0.1, 0, 0) * Translation3d(0, -finger, 0);  // axis 0 -1 0, multiplier 1
  const double knuckle = 10 * finger + 0.1;
  f.knuckle = hand * Translation3d(0.12, 0, 0.02) * AngleAxisd(knuckle, Vector3d::UnitX());
  const double tip = -0.5 * knuckle + 0.2;
  f.tip = f.knuckle * Translation3d(0, 0.01, 0.05) * AngleAxisd(0.2, Vector3d::UnitX()) *
          AngleAxisd(tip, Vector3d(0, 0.6, 0.8).normalized());
  return f;
}

double mimic_frame_distance(const Eigen::Isometry3d& a, const Eigen::Isometry3d& b) {
  return (a.matrix() - b.matrix()).cwiseAbs().maxCoeff();
}

std::vector<double> mimic_pose_of(const Model& model, std::initializer_list<std::pair<const char*, double>> values) {
  std::vector<double> q(model.pose_size(), 0.0);
  for (const auto& [name, value] : values) q[model.joint_index(name)] = value;
  return q;
}

TEST(MimicJoints, ResolvedToTheRootMasterAtLoad) {
  const Model model = gripper_model();
  const JointInfo& tip = *model.find_urdf_joint("tip");
  ASSERT_TRUE(tip.mimic);
  EXPECT_EQ(tip.mimic->joint, "knuckle");
  EXPECT_EQ(tip.mimic->root, "finger_left");
  // tip = -0.5·(10·f + 0.1) + 0.2 = -5·f + 0.15
  EXPECT_DOUBLE_EQ(tip.mimic->root_multiplier, -5.0);
  EXPECT_DOUBLE_EQ(tip.mimic->root_offset, 0.15);
  // As joint_state_publisher publishes them, mimic joints are in the full pose.
  EXPECT_TRUE(model.find_joint_index("finger_right"));
  EXPECT_TRUE(model.find_joint_index("tip"));
  EXPECT_FALSE(model.find_urdf_joint("arm")->mimic);
}

TEST(MimicJoints, ForwardKinematicsEqualsAnIndependentComputation) {
  const Model model = gripper_model();
  const auto km = kin::KinematicModel::from_model(model);  // mimic joints follow their masters
  kin::Workspace ws(km);
  for (const auto& [arm, wrist, finger] :
       std::vector<std::tuple<double, double, double>>{{0, 0, 0}, {0.3, -0.7, 0.02}, {-2.1, 1.2, 0.04}}) {
    const std::vector<double> q = mimic_pose_of(model, {{"arm", arm}, {"wrist", wrist}, {"finger_left", finger}});
    kin::forward_kinematics(km, ws, q);
    const GripperFrames f = expected_frames(arm, wrist, finger);
    EXPECT_LT(mimic_frame_distance(ws.frame(km.body_index("left_finger")), f.left), 1e-12);
    EXPECT_LT(mimic_frame_distance(ws.frame(km.body_index("right_finger")), f.right), 1e-12) << finger;
    EXPECT_LT(mimic_frame_distance(ws.frame(km.body_index("knuckle_link")), f.knuckle), 1e-12) << finger;
    EXPECT_LT(mimic_frame_distance(ws.frame(km.body_index("tip_link")), f.tip), 1e-12) << finger;

    // The same from a pose completed as robot_state_publisher completes a joint state,
    // with mimic joints reading their own slots.
    JointState state;
    const std::vector<JointAssignment> given{{"arm", arm}, {"wrist", wrist}, {"finger_left", finger}};
    apply_pose_assignments(model, given, state);
    const auto own = kin::KinematicModel::from_model(model, kin::MimicJoints::from_pose);
    kin::Workspace ws_own(own);
    kin::forward_kinematics(own, ws_own, state.position);
    EXPECT_NEAR(state.position[model.joint_index("knuckle")], 10 * finger + 0.1, 1e-12);
    EXPECT_LT(mimic_frame_distance(ws_own.frame(own.body_index("tip_link")), f.tip), 1e-12);
    EXPECT_LT(mimic_frame_distance(ws_own.frame(own.body_index("right_finger")), f.right), 1e-12);
  }
}

TEST(MimicJoints, AGivenMimicValueIsKept) {
  const Model model = gripper_model();
  std::vector<double> q(model.pose_size(), 0.0);
  const auto finger = static_cast<int>(model.joint_index("finger_left"));
  const auto right = static_cast<int>(model.joint_index("finger_right"));
  const auto knuckle = static_cast<int>(model.joint_index("knuckle"));
  const auto tip = static_cast<int>(model.joint_index("tip"));
  q[static_cast<std::size_t>(finger)] = 0.03;
  q[static_cast<std::size_t>(right)] = 0.011;  // given by the input: kept
  const std::vector<int> given{finger, right};
  model.complete_mimic_joints(std::span<double>(q), given);
  EXPECT_EQ(q[static_cast<std::size_t>(right)], 0.011);
  EXPECT_NEAR(q[static_cast<std::size_t>(knuckle)], 0.4, 1e-15);
  EXPECT_NEAR(q[static_cast<std::size_t>(tip)], -0.5 * 0.4 + 0.2, 1e-15);  // through the knuckle

  // A chained mimic whose master was given follows it, not the root.
  std::vector<double> p(model.pose_size(), 0.0);
  p[static_cast<std::size_t>(knuckle)] = 1.0;
  const std::vector<int> only_knuckle{knuckle};
  model.complete_mimic_joints(std::span<double>(p), only_knuckle);
  EXPECT_NEAR(p[static_cast<std::size_t>(tip)], -0.3, 1e-15);
  EXPECT_EQ(p[static_cast<std::size_t>(right)], 0.0);  // its master was not given
}

TEST(MimicJoints, JacobianEqualsCentralDifferencesWhenOnlyMastersMove) {
  const Model model = gripper_model();
  const auto km = kin::KinematicModel::from_model(model);
  kin::Workspace ws(km);
  const std::vector<double> q0 = mimic_pose_of(model, {{"arm", 0.4}, {"wrist", -0.3}, {"finger_left", 0.015}});
  const std::vector<std::string> masters{"arm", "wrist", "finger_left"};
  const double h = 1e-6;
  for (const char* link : {"right_finger", "knuckle_link", "tip_link"}) {
    const std::size_t body = km.body_index(link);
    kin::forward_kinematics(km, ws, q0);
    kin::Jacobian J;
    kin::jacobian(km, ws, body, J);
    for (std::size_t s = 0; s < model.pose_size(); ++s) {
      const std::string& name = model.joint_names()[s];
      const bool master = std::find(masters.begin(), masters.end(), name) != masters.end();
      if (!master) {
        // A mimic joint is not an independent column.
        EXPECT_LT(J.col(static_cast<Eigen::Index>(s)).cwiseAbs().maxCoeff(), 1e-300) << link << " " << name;
        continue;
      }
      auto frame_at = [&](double dq) {
        std::vector<double> q = q0;
        q[s] += dq;
        kin::forward_kinematics(km, ws, q);
        return ws.frame(body);
      };
      const Eigen::Isometry3d plus = frame_at(h), minus = frame_at(-h);
      const Eigen::Vector3d v = (plus.translation() - minus.translation()) / (2 * h);
      // ω from Ṙ Rᵀ (skew-symmetric), by central differences.
      const Eigen::Matrix3d dR = (plus.linear() - minus.linear()) / (2 * h);
      const Eigen::Matrix3d W = dR * ((plus.linear() + minus.linear()) / 2).transpose();
      const Eigen::Vector3d w(W(2, 1), W(0, 2), W(1, 0));
      const auto col = J.col(static_cast<Eigen::Index>(s));
      EXPECT_LT((col.head<3>() - v).cwiseAbs().maxCoeff(), 1e-7) << link << " " << name;
      EXPECT_LT((col.tail<3>() - w).cwiseAbs().maxCoeff(), 1e-7) << link << " " << name;
    }
  }
  // The finger's column moves the knuckle (10 rad/m about x): not zero.
  kin::forward_kinematics(km, ws, q0);
  kin::Jacobian J;
  kin::jacobian(km, ws, km.body_index("knuckle_link"), J);
  EXPECT_GT(J.col(static_cast<Eigen::Index>(model.joint_index("finger_left"))).tail<3>().norm(), 9.0);
}

TEST(MimicJoints, AChainsJacobianColumnsAreTheSlotsItsJointsRead) {
  // The chain's joints are arm, wrist, knuckle and tip; knuckle follows finger_left (not on
  // the chain) and tip follows knuckle: their motion is in finger_left's column, given once.
  Semantics semantics = parse_semantics_json(
      R"({"chains": [{"name": "finger", "first_link": "base_link", "last_link": "tip_link"}],
          "groups": [{"name": "arm", "chains": ["finger"], "joints": ["finger_left"]}]})",
      "gripper.json");
  const Model model = Model::from_urdf_string(test::read_file(mimic_test_model("gripper.urdf")), "gripper.urdf",
                                              std::move(semantics));
  const auto km = kin::KinematicModel::from_chain(model, "finger", true, kin::PoseLayout::full);
  std::vector<std::string> columns;
  for (int slot : kin::chain_jacobian_columns(model, km, "finger"))
    columns.push_back(model.joint_names()[static_cast<std::size_t>(slot)]);
  EXPECT_EQ(columns, (std::vector<std::string>{"arm", "wrist", "finger_left"}));
  EXPECT_EQ(model.chain_joints("finger"), (std::vector<std::string>{"arm", "wrist", "knuckle", "tip"}));
  EXPECT_THROW((void)kin::chain_jacobian_columns(model, km, "fingers"), NotFound);
}

TEST(MimicJoints, MistakesLoadWithWarningsAndAreErrorsOfCheck) {
  const std::string path = mimic_test_model("mimic_mistakes.urdf").string();
  const Model model = Model::load({path, "", std::nullopt});
  // Each moves on its own, as MoveIt ignores a mimic it cannot follow.
  for (const char* name : {"follows_nothing", "follows_fixed", "ping", "pong"}) {
    EXPECT_FALSE(model.find_urdf_joint(name)->mimic) << name;
    EXPECT_TRUE(model.find_joint_index(name)) << name;
  }
  const Diagnostics report = check_model({path, "", std::nullopt});
  auto find = [&](const std::string& code) -> const Diagnostic* {
    for (const auto& d : report.items)
      if (d.code == code) return &d;
    return nullptr;
  };
  const std::vector<std::tuple<std::string, int, std::string>> expected{
      {"mimic-unknown-joint", 15, "'no_such_joint', which is not a joint of the URDF"},
      {"mimic-fixed-joint", 20, "'fixed_mount', which is fixed"},
      {"mimic-cycle", 25, "ping -> pong -> ping"}};
  for (const auto& [code, line, text] : expected) {
    const Diagnostic* d = find(code);
    ASSERT_NE(d, nullptr) << code;
    EXPECT_EQ(d->severity, Severity::error) << code;
    EXPECT_EQ(d->where.file, path);
    EXPECT_EQ(d->where.line, line) << code;
    EXPECT_NE(d->message.find(text), std::string::npos) << d->message;
  }
}

TEST(MimicJoints, DiffReportsAMultiplierChange) {
  const std::string text = test::read_file(mimic_test_model("gripper.urdf"));
  std::string changed = text;
  const std::string from = "<mimic joint=\"knuckle\" multiplier=\"-0.5\"";
  ASSERT_NE(changed.find(from), std::string::npos);
  changed.replace(changed.find(from), from.size(), "<mimic joint=\"knuckle\" multiplier=\"-0.25\"");
  const Model a = Model::from_urdf_string(text, "a.urdf");
  const Model b = Model::from_urdf_string(changed, "b.urdf");
  const ModelDiff d = diff_models(a, b);
  EXPECT_TRUE(d.has_changes());
  ASSERT_EQ(d.joints.changed.size(), 1U);
  EXPECT_EQ(d.joints.changed[0].name, "tip");
  ASSERT_EQ(d.joints.changed[0].changes.size(), 1U);
  EXPECT_EQ(d.joints.changed[0].changes[0].property, "mimic_multiplier");
  EXPECT_EQ(std::get<double>(d.joints.changed[0].changes[0].old_value), -0.5);
  EXPECT_EQ(std::get<double>(d.joints.changed[0].changes[0].new_value), -0.25);
}

}  // namespace
}  // namespace rmodel
