// Per-pose dynamics allocate nothing once the model and the workspace exist.

#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "alloc_counter.hpp"
#include "dynamics_support.hpp"
#include "rmodel/kinematics/dynamics.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rd = rmodel::dynamics;

namespace {

/// Runs every per-pose dynamics function at a few poses (the floating-base one with every
/// chain that has a default contact supporting, then with changing support) and returns the
/// allocations made after the warm-up call that sizes the caller's mass matrix.
std::size_t dynamics_allocations(const rmodel::Model& model) {
  const auto km = rd::KinematicModel::from_model(model);
  const auto supports = rd::SupportModel::from_model(model, km);
  rd::DynamicsWorkspace ws(km, supports.max_points());
  const std::size_t n = km.pose_size();
  std::vector<double> tau(n);
  std::vector<rd::ChainSupport> support(supports.chains().size());
  for (std::size_t c = 0; c < support.size(); ++c)
    if (supports.chains()[c].default_contact) support[c].coefficient = 1.0;
  rmodel::SupportState state;  // built before counting: a log's support state arrives so
  for (const auto& chain : supports.chains()) {
    if (!chain.default_contact) continue;
    state.name.push_back(chain.name);
    state.support.push_back(0.5);
    state.contact.emplace_back();
  }
  std::mt19937 rng(13);
  std::vector<std::vector<double>> poses;
  for (int i = 0; i < 3 * 5; ++i) poses.push_back(rmodel::test::random_values(rng, n, 1.0));
  Eigen::MatrixXd M;
  rd::mass_matrix(km, ws, poses[0], M);
  double sink = 0.0;
  rmodel::test::AllocationCounter counter;
  for (int pose = 0; pose < 5; ++pose) {
    const auto& q = poses[3 * pose];
    const auto& qd = poses[3 * pose + 1];
    const auto& qdd = poses[3 * pose + 2];
    rd::inverse_dynamics(km, ws, q, qd, qdd, tau);
    sink += tau[0] + ws.joint_torque(km.size() - 1);
    rd::gravity_torques(km, ws, q, tau);
    rd::coriolis_torques(km, ws, q, qd, tau);
    rd::mass_matrix(km, ws, q, M);
    sink += M(0, 0);
    if (pose % 2 == 1) rd::support_from_state(supports, state, support);
    rd::floating_base_dynamics(km, supports, ws, q, qd, qdd, support, tau);
    sink += ws.unbalanced_wrench().force.x() + static_cast<double>(ws.contact_forces().size());
  }
  const std::size_t count = counter.count();
  EXPECT_TRUE(std::isfinite(sink));
  return count;
}

}  // namespace

TEST(DynamicsAlloc, SampleRobotAllocatesNothingPerPose) {
  EXPECT_EQ(dynamics_allocations(rmodel::test::pony()), 0u);
}

TEST(DynamicsAlloc, FixtureRobotsAllocateNothingPerPose) {
  RMODEL_REQUIRE_FIXTURES();
  for (const auto& f : rmodel::test::dynamics_fixtures()) {
    SCOPED_TRACE(f.name);
    EXPECT_EQ(dynamics_allocations(rmodel::test::load_fixture(f)), 0u);
  }
}
