// Per-pose kinematics allocate nothing once the model and workspace exist.

#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "alloc_counter.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rk = rmodel::kinematics;

namespace {

/// Runs every per-pose function on `model` at a few poses and returns the allocations made
/// after the warm-up call (which sizes the caller's output matrices).
std::size_t allocations_per_pose(const rk::KinematicModel& model, const rk::ContactPoints* contact) {
  rk::Workspace ws(model, rk::DerivativeOrder::second);
  std::vector<double> q(model.pose_size(), 0.1);
  rk::Jacobian J(6, static_cast<Eigen::Index>(model.pose_size()));
  KDL::Jacobian kj(static_cast<unsigned int>(model.pose_size()));
  Eigen::Matrix<double, 3, Eigen::Dynamic> Jc(3, static_cast<Eigen::Index>(model.pose_size()));
  KDL::JntArray qk(static_cast<unsigned int>(model.pose_size()));
  std::vector<Eigen::Vector3d> points(contact ? contact->points.size() : 0);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> a(-2, 2);
  double sink = 0;
  rmodel::test::AllocationCounter counter;
  for (int pose = 0; pose < 5; ++pose) {
    for (double& v : q) v = a(rng);
    rk::forward_kinematics(model, ws, q);
    rk::frame_derivatives(model, ws, rk::DerivativeOrder::second);
    rk::frame_derivatives(model, ws, model.tip(), rk::DerivativeOrder::first);
    for (std::size_t b = 0; b < model.size(); ++b) {
      rk::jacobian(model, ws, b, J);
      rk::jacobian(model, ws, b, Eigen::Vector3d(0.1, 0.2, 0.3), J);
      sink += J(0, 0) + ws.frame(b).translation().x();
      if (model.pose_size() > 0) sink += ws.frame_derivative(b, 0)(0, 3) + ws.frame_second_derivative(b, 0, 0)(0, 3);
    }
    rk::jacobian(model, ws, model.tip(), kj);
    sink += rk::center_of_mass(model, ws).x();
    rk::center_of_mass_jacobian(model, ws, Jc);
    rk::forward_kinematics(model, ws, qk);
    if (contact) rk::contact_positions(ws, *contact, points);
  }
  const std::size_t count = counter.count();
  EXPECT_TRUE(std::isfinite(sink));
  return count;
}

}  // namespace

TEST(KinematicsAlloc, CounterSeesAllocations) {
  // Positive control: the counter is active in this executable.
  rmodel::test::AllocationCounter counter;
  auto v = std::make_unique<std::vector<double>>(10);
  EXPECT_GT(counter.count(), 0u);
  EXPECT_EQ(v->size(), 10u);
}

TEST(KinematicsAlloc, HandBuiltModelsAllocateNothingPerPose) {
  KDL::Tree tree("root");
  tree.addSegment(KDL::Segment("a", KDL::Joint("ja", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(1, 0, 0)),
                               KDL::RigidBodyInertia(1.0, KDL::Vector(0.5, 0, 0))), "root");
  tree.addSegment(KDL::Segment("b", KDL::Joint("jb", KDL::Vector(0.1, 0, 0), KDL::Vector(0, 0.6, 0.8), KDL::Joint::RotAxis),
                               KDL::Frame(KDL::Vector(0, 1, 0)), KDL::RigidBodyInertia(2.0, KDL::Vector(0, 0.5, 0))), "a");
  tree.addSegment(KDL::Segment("c", KDL::Joint("jc", KDL::Joint::TransX), KDL::Frame(KDL::Vector(0, 0, 1))), "a");
  const auto model = rk::KinematicModel::from_kdl_tree(tree);
  const auto contact = rk::make_contact(model, model.body_index("b"), {Eigen::Vector3d(0, 0, -0.1)});
  EXPECT_EQ(allocations_per_pose(model, &contact), 0u);
  std::vector<rk::DhJoint> arm(6);
  for (std::size_t i = 0; i < arm.size(); ++i) {
    arm[i].a = 0.1 * static_cast<double>(i);
    arm[i].alpha = 0.3;
  }
  EXPECT_EQ(allocations_per_pose(rk::KinematicModel::from_kdl_chain(rk::dh_chain(arm)), nullptr), 0u);
}

TEST(KinematicsAlloc, FixtureModelsAllocateNothingPerPose) {
  RMODEL_REQUIRE_FIXTURES();
  rmodel::ModelSource src;
  src.urdf_path = rmodel::test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string();
  src.semantics_path = rmodel::test::fixture("sweetie_bot_proto2/kinematic_chains.cpf").string();
  const auto sweetie = rmodel::Model::load(src);
  const auto leg = rk::KinematicModel::from_chain(sweetie, "leg1", true);
  const auto contact = rk::chain_contact(sweetie, leg, "leg1");
  EXPECT_EQ(allocations_per_pose(leg, &contact), 0u);
  EXPECT_EQ(allocations_per_pose(rk::KinematicModel::from_model(sweetie), nullptr), 0u);
  rmodel::ModelSource talos;
  talos.urdf_path = rmodel::test::fixture("example_robot_data/talos_reduced.urdf").string();
  EXPECT_EQ(allocations_per_pose(rk::KinematicModel::from_model(rmodel::Model::load(talos)), nullptr), 0u);
}
