// Per-link inertial data and the centre of mass.

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <kdl/treefksolverpos_recursive.hpp>

#include "rmodel/base/error.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rk = rmodel::kinematics;

namespace {

KDL::RigidBodyInertia point_mass(double m, const KDL::Vector& c) {
  return KDL::RigidBodyInertia(m, c, KDL::RotationalInertia::Zero());
}

}  // namespace

TEST(KinematicsCom, InertialRecoveredFromKdlSegments) {
  const KDL::Vector com(0.1, -0.2, 0.3);
  const KDL::RotationalInertia ic(0.5, 0.6, 0.7, 0.01, -0.02, 0.03);
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("l", KDL::Joint("j", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(1, 0, 0)),
                                KDL::RigidBodyInertia(2.5, com, ic)));
  const auto model = rk::KinematicModel::from_kdl_chain(chain);
  const rk::LinkInertial& in = model.body(1).inertial;
  EXPECT_DOUBLE_EQ(in.mass, 2.5);
  EXPECT_TRUE(in.com.isApprox(Eigen::Vector3d(0.1, -0.2, 0.3), 1e-15));
  Eigen::Matrix3d expected;
  expected << 0.5, 0.01, -0.02, 0.01, 0.6, 0.03, -0.02, 0.03, 0.7;
  EXPECT_LT((in.inertia - expected).cwiseAbs().maxCoeff(), 1e-14) << in.inertia;
  EXPECT_DOUBLE_EQ(model.total_mass(), 2.5);
  EXPECT_EQ(model.body(0).inertial.mass, 0.0);
}

TEST(KinematicsCom, PlanarArmHandComputed) {
  // Point masses m1 at the middle of link 1 (length 1) and m2 at the end of link 2 (0.5).
  const double m1 = 2.0, m2 = 1.0;
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("l1", KDL::Joint("j1", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(1.0, 0, 0)),
                                point_mass(m1, KDL::Vector(-0.5, 0, 0))));
  chain.addSegment(KDL::Segment("l2", KDL::Joint("j2", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(0.5, 0, 0)),
                                point_mass(m2, KDL::Vector(0, 0, 0))));
  const auto model = rk::KinematicModel::from_kdl_chain(chain);
  rk::Workspace ws(model);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> a(-3, 3);
  for (int trial = 0; trial < 10; ++trial) {
    const std::vector<double> q{a(rng), a(rng)};
    rk::forward_kinematics(model, ws, q);
    const Eigen::Vector3d p1(0.5 * std::cos(q[0]), 0.5 * std::sin(q[0]), 0);
    const Eigen::Vector3d p2(std::cos(q[0]) + 0.5 * std::cos(q[0] + q[1]),
                             std::sin(q[0]) + 0.5 * std::sin(q[0] + q[1]), 0);
    const Eigen::Vector3d expected = (m1 * p1 + m2 * p2) / (m1 + m2);
    EXPECT_TRUE(rk::center_of_mass(model, ws).isApprox(expected, 1e-14));
    // ċ = Jc q̇: ∂c/∂q2 = m2/(m1+m2)·z × (p2 − elbow).
    Eigen::Matrix<double, 3, Eigen::Dynamic> Jc;
    rk::center_of_mass_jacobian(model, ws, Jc);
    const Eigen::Vector3d elbow(std::cos(q[0]), std::sin(q[0]), 0);
    EXPECT_TRUE(Jc.col(1).isApprox(m2 / (m1 + m2) * Eigen::Vector3d::UnitZ().cross(p2 - elbow), 1e-14));
    EXPECT_TRUE(Jc.col(0).isApprox(Eigen::Vector3d::UnitZ().cross(expected), 1e-14));
  }
}

TEST(KinematicsCom, MasslessModelGivesZero) {
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("l", KDL::Joint("j", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(1, 0, 0))));
  const auto model = rk::KinematicModel::from_kdl_chain(chain);
  rk::Workspace ws(model);
  const std::vector<double> q{0.4};
  rk::forward_kinematics(model, ws, q);
  EXPECT_TRUE(rk::center_of_mass(model, ws).isZero(0.0));
  Eigen::Matrix<double, 3, Eigen::Dynamic> Jc;
  rk::center_of_mass_jacobian(model, ws, Jc);
  EXPECT_EQ(Jc.cols(), 1);
  EXPECT_TRUE(Jc.isZero(0.0));
}

namespace {

/// Σ m·(X·c)/Σ m over every URDF link, with KDL's tree solver for the frames.
Eigen::Vector3d reference_com(const rmodel::Model& model, const KDL::Tree& tree,
                              const KDL::JntArray& q) {
  KDL::TreeFkSolverPos_recursive fk(tree);
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  double mass = 0;
  for (const auto& link : model.links()) {
    if (!link.inertial) continue;
    KDL::Frame f;
    EXPECT_GE(fk.JntToCart(q, f, link.name), 0) << link.name;
    const KDL::Vector c = f * link.inertial->com;
    sum += link.inertial->mass * Eigen::Vector3d(c.x(), c.y(), c.z());
    mass += link.inertial->mass;
  }
  return sum / mass;
}

}  // namespace

TEST(KinematicsCom, FixtureRobotsMatchReference) {
  RMODEL_REQUIRE_FIXTURES();
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> a(-2, 2);
  for (const char* urdf : {"example_robot_data/talos_reduced.urdf", "example_robot_data/panda.urdf",
                           "example_robot_data/solo12.urdf",
                           "sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf"}) {
    SCOPED_TRACE(urdf);
    rmodel::ModelSource src;
    src.urdf_path = rmodel::test::fixture(urdf).string();
    const auto model = rmodel::Model::load(src);
    const auto km = rk::KinematicModel::from_model(model);
    ASSERT_TRUE(model.total_mass().has_value());
    EXPECT_NEAR(km.total_mass(), *model.total_mass(), 1e-12);
    // The link inertials agree with the KDL segments' (the root link is not a segment).
    for (std::size_t b = 1; b < km.size(); ++b) {
      const auto& body = km.bodies()[b];
      const KDL::RigidBodyInertia& rbi = model.kdl_tree().getSegments().at(body.name).segment.getInertia();
      EXPECT_NEAR(body.inertial.mass, rbi.getMass(), 1e-12) << body.name;
      const KDL::Vector c = rbi.getCOG();
      EXPECT_TRUE(body.inertial.com.isApprox(Eigen::Vector3d(c.x(), c.y(), c.z()), 1e-12) ||
                  body.inertial.mass == 0.0)
          << body.name;
    }
    rk::Workspace ws(km);
    // KDL's tree solvers copy the tree and a KDL::Tree copy renumbers q_nr depth-first:
    // index the joint array by a copy's numbering.
    const KDL::Tree tree(model.kdl_tree());
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<double> q(km.pose_size());
      for (double& v : q) v = a(rng);
      KDL::JntArray qk(model.kdl_tree().getNrOfJoints());
      for (std::size_t b = 1; b < km.size(); ++b)
        if (km.bodies()[b].q_index >= 0)
          qk(GetTreeElementQNr(tree.getSegments().at(km.bodies()[b].name))) =
              q[static_cast<std::size_t>(km.bodies()[b].q_index)];
      rk::forward_kinematics(km, ws, q);
      const Eigen::Vector3d com = rk::center_of_mass(km, ws);
      EXPECT_LT((com - reference_com(model, tree, qk)).cwiseAbs().maxCoeff(), 1e-12);
      // Jacobian of the COM against central differences.
      Eigen::Matrix<double, 3, Eigen::Dynamic> Jc;
      rk::center_of_mass_jacobian(km, ws, Jc);
      rk::Workspace scratch(km);
      for (std::size_t i = 0; i < q.size(); ++i) {
        auto qp = q, qm = q;
        qp[i] += 1e-6;
        qm[i] -= 1e-6;
        rk::forward_kinematics(km, scratch, qp);
        const Eigen::Vector3d cp = rk::center_of_mass(km, scratch);
        rk::forward_kinematics(km, scratch, qm);
        const Eigen::Vector3d cm = rk::center_of_mass(km, scratch);
        EXPECT_LT(((cp - cm) / 2e-6 - Jc.col(static_cast<Eigen::Index>(i))).cwiseAbs().maxCoeff(), 1e-8) << i;
      }
    }
  }
}
