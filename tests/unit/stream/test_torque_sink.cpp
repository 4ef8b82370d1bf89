// The torques along a stream of poses (rmodel/stream/dynamics_stream.hpp). Oracles: derivatives
// known in closed form (a velocity linear in time has a constant acceleration, which the
// backward difference gives exactly at any step), KDL's TreeIdSolver_RNE for the torques at
// those rates, and the library's floating-base call at the support the stream set.

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <kdl/tree.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>

#include "alloc_counter.hpp"
#include "dynamics_support.hpp"
#include "rmodel/stream/dynamics_stream.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rd = rmodel::dynamics;
using rmodel::JointState;
using rmodel::SupportState;

namespace {

/// Keeps every joint state and support state it is given.
class KeepingSink final : public rmodel::stream::Sink {
public:
  void joint_state(const JointState& s, std::optional<std::int64_t>) override { joints.push_back(s); }
  void support_state(const SupportState& s, std::optional<std::int64_t>) override { supports.push_back(s); }
  std::vector<JointState> joints;
  std::vector<SupportState> supports;
};

/// A full pose of the model at time t of the motion q = q0 + v0 t + a t²/2 (v = v0 + a t).
JointState pose_at(const rmodel::Model& model, double t, const std::vector<double>& q0, const std::vector<double>& v0,
                   const std::vector<double>& a, bool with_velocity) {
  JointState s;
  s.stamp = *rmodel::time_from_seconds(t);
  s.name = model.joint_names();
  for (std::size_t i = 0; i < q0.size(); ++i) {
    s.position.push_back(q0[i] + v0[i] * t + 0.5 * a[i] * t * t);
    if (with_velocity) s.velocity.push_back(v0[i] + a[i] * t);
  }
  return s;
}

/// The torques of KDL's TreeIdSolver_RNE for the pose slots of `model` (root fixed).
std::vector<double> kdl_torques(const rmodel::Model& model, const KDL::Tree& tree, const std::vector<double>& q,
                                const std::vector<double>& qd, const std::vector<double>& qdd) {
  // KDL numbers the tree's joints by its own order: map them by name.
  const auto& names = model.joint_names();
  std::vector<unsigned int> kdl_index(names.size());
  for (const auto& [segment_name, element] : tree.getSegments()) {
    const auto& joint = element.segment.getJoint();
    if (joint.getType() == KDL::Joint::None) continue;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == joint.getName()) kdl_index[i] = element.q_nr;
  }
  const unsigned int n = tree.getNrOfJoints();
  KDL::JntArray kq(n), kqd(n), kqdd(n), ktau(n);
  for (std::size_t i = 0; i < names.size(); ++i) {
    kq(kdl_index[i]) = q[i];
    kqd(kdl_index[i]) = qd[i];
    kqdd(kdl_index[i]) = qdd[i];
  }
  KDL::TreeIdSolver_RNE solver(tree, KDL::Vector(0, 0, -9.81));
  KDL::WrenchMap no_external;
  EXPECT_GE(solver.CartToJnt(kq, kqd, kqdd, no_external, ktau), 0);
  std::vector<double> tau(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) tau[i] = ktau(kdl_index[i]);
  return tau;
}

}  // namespace

TEST(TorqueSink, LogVelocitiesAndTheirDifferencesGiveKdlsTorques) {
  const rmodel::Model model = rmodel::test::pony();
  const KDL::Tree tree(model.kdl_tree());
  const std::size_t n = model.pose_size();
  std::mt19937 rng(24);
  const auto q0 = rmodel::test::random_values(rng, n, 0.5);
  const auto v0 = rmodel::test::random_values(rng, n, 1.0);
  const auto a = rmodel::test::random_values(rng, n, 2.0);
  KeepingSink keep;
  rd::TorqueSink sink(keep, model);
  // Irregular stamps: the backward difference of a linear velocity is exact at any step.
  const std::vector<double> stamps{0.1, 0.11, 0.135, 0.14, 0.2};
  std::vector<JointState> given;
  for (const double t : stamps) {
    given.push_back(pose_at(model, t, q0, v0, a, true));
    sink.joint_state(given.back(), std::nullopt);
  }
  ASSERT_EQ(keep.joints.size(), stamps.size());
  EXPECT_EQ(sink.poses(), stamps.size());
  for (std::size_t k = 0; k < stamps.size(); ++k) {
    const JointState& out = keep.joints[k];
    // Everything but the effort passes unchanged.
    EXPECT_EQ(out.stamp, given[k].stamp);
    EXPECT_EQ(out.name, given[k].name);
    EXPECT_EQ(out.position, given[k].position);
    EXPECT_EQ(out.velocity, given[k].velocity);
    ASSERT_EQ(out.effort.size(), n);
    // The first pose starts the differentiator: acceleration 0 there.
    const std::vector<double> qdd = k == 0 ? std::vector<double>(n, 0.0) : a;
    const auto expected = kdl_torques(model, tree, given[k].position, given[k].velocity, qdd);
    EXPECT_LT(rmodel::test::relative_error(out.effort, expected), 1e-9) << "pose " << k;
  }
}

TEST(TorqueSink, DiffTakesVelocitiesFromPositionsAndHoldsThemWithinAnInstant) {
  const rmodel::Model model = rmodel::test::pony();
  const std::size_t n = model.pose_size();
  std::mt19937 rng(25);
  const auto q0 = rmodel::test::random_values(rng, n, 0.5);
  const auto v0 = rmodel::test::random_values(rng, n, 1.0);
  const std::vector<double> a(n, 0.0);
  KeepingSink keep;
  rd::DynamicsStreamOptions options;
  options.diff_method = "diff";
  rd::TorqueSink sink(keep, model, options);
  // A ramp: velocity v0 from the second pose on (the log's velocity, wrong on purpose, is
  // not used with --diff), acceleration 0 from the third.
  std::vector<double> wrong(n, 100.0);
  auto add = [&](double t) {
    JointState s = pose_at(model, t, q0, v0, a, false);
    s.velocity = wrong;
    sink.joint_state(s, std::nullopt);
  };
  add(0.0);
  add(0.02);
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(sink.velocities()[i], v0[i], 1e-9);
  add(0.05);
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(sink.velocities()[i], v0[i], 1e-9);
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(sink.accelerations()[i], 0.0, 1e-6);
  // A second pose at the same instant (a partial message published on its own): the
  // derivatives of the instant stay.
  const auto before = sink.velocities();
  add(0.05);
  EXPECT_EQ(sink.velocities(), before);
  // The torques are those of the library at the rates it reports.
  const auto km = rd::KinematicModel::from_model(model);
  rd::DynamicsWorkspace ws(km);
  std::vector<double> tau(n);
  rd::inverse_dynamics(km, ws, keep.joints.back().position, sink.velocities(), sink.accelerations(), tau);
  EXPECT_EQ(keep.joints.back().effort, tau);
}

TEST(TorqueSink, StatesThatAreNotUsablePosesPassWithoutEffort) {
  const rmodel::Model model = rmodel::test::pony();
  KeepingSink keep;
  rd::TorqueSink sink(keep, model);
  JointState partial;
  partial.name = {model.joint_names()[0]};
  partial.position = {0.1};
  partial.effort = {3.0};
  sink.joint_state(partial, std::nullopt);
  JointState nan_pose;
  nan_pose.name = model.joint_names();
  nan_pose.position.assign(model.pose_size(), 0.0);
  nan_pose.position[2] = std::nan("");
  nan_pose.effort.assign(model.pose_size(), 1.0);
  sink.joint_state(nan_pose, std::nullopt);
  ASSERT_EQ(keep.joints.size(), 2u);
  EXPECT_TRUE(keep.joints[0].effort.empty());
  EXPECT_TRUE(keep.joints[1].effort.empty());
  EXPECT_EQ(keep.joints[0].position, partial.position);
  EXPECT_EQ(sink.skipped(), 2u);
  EXPECT_EQ(sink.poses(), 0u);
}

TEST(TorqueSink, FloatingBaseFollowsTheSupportStatesAndKeepsTheLastGoodOne) {
  const rmodel::Model model = rmodel::test::pony();
  const std::size_t n = model.pose_size();
  KeepingSink keep;
  rd::DynamicsStreamOptions options;
  options.floating_base = true;
  rd::TorqueSink sink(keep, model, options);
  std::mt19937 rng(26);
  JointState pose;
  pose.name = model.joint_names();
  pose.position = rmodel::test::random_values(rng, n, 0.4);

  const auto km = rd::KinematicModel::from_model(model);
  const auto supports = rd::SupportModel::from_model(model, km);
  rd::DynamicsWorkspace ws(km, supports.max_points());
  const std::vector<double> zero(n, 0.0);
  auto expected = [&](const SupportState& state) {
    std::vector<rd::ChainSupport> support(supports.chains().size());
    rd::support_from_state(supports, state, support);
    std::vector<double> tau(n);
    rd::floating_base_dynamics(km, supports, ws, pose.position, zero, zero, support, tau);
    return tau;
  };
  SupportState all;
  for (const auto& chain : supports.chains())
    if (chain.default_contact) all.name.push_back(chain.name);

  // Before any support state: every chain with a default contact supports.
  sink.joint_state(pose, std::nullopt);
  EXPECT_LT(rmodel::test::relative_error(keep.joints.back().effort, expected(all)), 1e-12);

  SupportState three;
  three.name = {all.name[0], all.name[1], all.name[2]};
  three.support = {1.0, 0.5, 1.0};
  three.contact = {"", "", ""};
  sink.support_state(three, std::nullopt);
  ASSERT_EQ(keep.supports.size(), 1u);
  pose.stamp = *rmodel::time_from_seconds(0.01);
  sink.joint_state(pose, std::nullopt);
  EXPECT_LT(rmodel::test::relative_error(keep.joints.back().effort, expected(three)), 1e-12);

  SupportState bad;
  bad.name = {"no_such_chain"};
  sink.support_state(bad, std::nullopt);
  EXPECT_EQ(keep.supports.size(), 2u);  // passed on all the same
  EXPECT_EQ(sink.rejected_support_states(), 1u);
  EXPECT_NE(sink.first_support_problem().find("no_such_chain"), std::string::npos);
  pose.stamp = *rmodel::time_from_seconds(0.02);
  sink.joint_state(pose, std::nullopt);
  EXPECT_LT(rmodel::test::relative_error(keep.joints.back().effort, expected(three)), 1e-12);
}

TEST(TorqueSink, RefusesAFilterThatIsNotADifferentiator) {
  const rmodel::Model model = rmodel::test::pony();
  KeepingSink keep;
  rd::DynamicsStreamOptions options;
  options.diff_method = "exponential";
  EXPECT_THROW(rd::TorqueSink(keep, model, options), rmodel::InvalidArgument);
}

namespace {
/// Drops what it is given (the allocation test counts the torque sink only).
class DroppingSink final : public rmodel::stream::Sink {
public:
  void joint_state(const JointState& s, std::optional<std::int64_t>) override { last_effort += s.effort.front(); }
  void support_state(const SupportState&, std::optional<std::int64_t>) override {}
  double last_effort = 0.0;
};
}  // namespace

TEST(TorqueSink, AllocatesNothingPerPoseOnceWarm) {
  const rmodel::Model model = rmodel::test::pony();
  const std::size_t n = model.pose_size();
  for (const bool floating : {false, true}) {
    DroppingSink drop;
    rd::DynamicsStreamOptions options;
    options.floating_base = floating;
    rd::TorqueSink sink(drop, model, options);
    std::mt19937 rng(27);
    std::vector<JointState> poses;
    for (int k = 0; k < 6; ++k) {
      JointState s;
      s.stamp = *rmodel::time_from_seconds(0.01 * k);
      s.name = model.joint_names();
      s.position = rmodel::test::random_values(rng, n, 0.5);
      s.velocity = rmodel::test::random_values(rng, n, 0.5);
      poses.push_back(std::move(s));
    }
    SupportState support;
    support.name = {model.chain_names().front()};
    sink.joint_state(poses[0], std::nullopt);
    sink.support_state(support, std::nullopt);
    rmodel::test::AllocationCounter counter;
    for (std::size_t k = 1; k < poses.size(); ++k) {
      sink.joint_state(poses[k], std::nullopt);
      if (k == 3) sink.support_state(support, std::nullopt);
    }
    EXPECT_EQ(counter.count(), 0u) << (floating ? "floating" : "fixed");
    EXPECT_TRUE(std::isfinite(drop.last_effort));
  }
}
