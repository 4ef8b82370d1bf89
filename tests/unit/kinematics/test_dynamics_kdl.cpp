// Fixed-root dynamics against KDL's own solvers on every fixture robot: TreeIdSolver_RNE on
// the whole tree, ChainIdSolver_RNE and ChainDynParam (mass matrix, Coriolis, gravity) on
// the chain from the root to every leaf, at random poses, velocities and accelerations
// (fixed seeds), to 1e-9 relative.

#include <random>
#include <tuple>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>

#include "dynamics_support.hpp"
#include "kdl_support.hpp"
#include "rmodel/kinematics/dynamics.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rd = rmodel::dynamics;
using rmodel::test::random_values;
using rmodel::test::relative_error;
using rmodel::test::to_jnt;

namespace {

constexpr double kTolerance = 1e-9;

/// Gravity of a given trial: standard on the first trials, then tilted at random (so that
/// every axis of the base frame carries some).
KDL::Vector trial_gravity(std::mt19937& rng, int trial) {
  if (trial < 4) return KDL::Vector(0, 0, -9.81);
  std::normal_distribution<double> n(0, 5);
  return KDL::Vector(n(rng), n(rng), n(rng));
}

Eigen::Vector3d to_eigen(const KDL::Vector& v) { return {v.x(), v.y(), v.z()}; }

/// The movable joints of a KDL tree, each with its index in KDL's joint arrays.
std::vector<std::pair<const KDL::Joint*, unsigned int>> movable_kdl_joints(const KDL::Tree& tree) {
  std::vector<std::pair<const KDL::Joint*, unsigned int>> joints;
  for (const auto& [name, element] : tree.getSegments()) {
    const KDL::Joint& joint = GetTreeElementSegment(element).getJoint();
    if (joint.getType() != KDL::Joint::None) joints.emplace_back(&joint, GetTreeElementQNr(element));
  }
  return joints;
}

}  // namespace

TEST(DynamicsKdl, TreeInverseDynamicsMatchesTreeIdSolverRne) {
  RMODEL_REQUIRE_FIXTURES();
  for (const auto& f : rmodel::test::dynamics_fixtures()) {
    SCOPED_TRACE(f.name);
    const rmodel::Model model = rmodel::test::load_fixture(f);
    const KDL::Tree tree(model.kdl_tree());  // a copy: the joint numbering of KDL's solvers
    const auto km = rd::KinematicModel::from_kdl_tree(tree);
    rd::DynamicsWorkspace ws(km);
    const std::size_t n = km.pose_size();
    ASSERT_EQ(n, tree.getNrOfJoints());
    std::mt19937 rng(2024);
    std::vector<double> tau(n);
    for (int trial = 0; trial < 12; ++trial) {
      const KDL::Vector g = trial_gravity(rng, trial);
      KDL::TreeIdSolver_RNE solver(tree, g);
      const auto q = random_values(rng, n, 2.0);
      const auto qd = random_values(rng, n, 3.0);
      const auto qdd = random_values(rng, n, 8.0);
      KDL::JntArray expected(static_cast<unsigned int>(n));
      ASSERT_EQ(solver.CartToJnt(to_jnt(q), to_jnt(qd), to_jnt(qdd), KDL::WrenchMap{}, expected), 0);
      rd::inverse_dynamics(km, ws, q, qd, qdd, tau, to_eigen(g));
      EXPECT_LT(relative_error(tau, expected), kTolerance) << "trial " << trial;
    }
  }
}

TEST(DynamicsKdl, FullPoseModelMatchesTreeIdSolverRneJointByJoint) {
  // The model the command uses: full sorted pose, joints outside it held at 0, whose
  // torques DynamicsWorkspace::joint_torque still gives.
  RMODEL_REQUIRE_FIXTURES();
  for (const auto& f : rmodel::test::dynamics_fixtures()) {
    SCOPED_TRACE(f.name);
    const rmodel::Model model = rmodel::test::load_fixture(f);
    const KDL::Tree tree(model.kdl_tree());
    // Every joint from its own slot, as KDL's tree has them (mimic joints included).
    const auto km = rd::KinematicModel::from_model(model, rmodel::kinematics::MimicJoints::from_pose);
    rd::DynamicsWorkspace ws(km);
    KDL::TreeIdSolver_RNE solver(tree, KDL::Vector(0, 0, -9.81));
    std::mt19937 rng(77);
    const std::size_t n = model.pose_size();
    std::vector<double> tau(n);
    for (int trial = 0; trial < 6; ++trial) {
      const auto q = random_values(rng, n, 2.0);
      const auto qd = random_values(rng, n, 3.0);
      const auto qdd = random_values(rng, n, 8.0);
      KDL::JntArray kq(tree.getNrOfJoints()), kqd(tree.getNrOfJoints()), kqdd(tree.getNrOfJoints());
      std::vector<std::pair<std::size_t, unsigned int>> slots;  // full pose index → KDL q_nr
      for (const auto& [joint, qnr] : movable_kdl_joints(tree)) {
        if (const auto index = model.find_joint_index(joint->getName())) {
          kq(qnr) = q[*index];
          kqd(qnr) = qd[*index];
          kqdd(qnr) = qdd[*index];
          slots.emplace_back(*index, qnr);
        }
      }
      KDL::JntArray expected(tree.getNrOfJoints());
      ASSERT_EQ(solver.CartToJnt(kq, kqd, kqdd, KDL::WrenchMap{}, expected), 0);
      rd::inverse_dynamics(km, ws, q, qd, qdd, tau);
      double scale = 1.0;
      for (unsigned int i = 0; i < expected.rows(); ++i) scale = std::max(scale, std::abs(expected(i)));
      for (const auto& [index, qnr] : slots) EXPECT_NEAR(tau[index], expected(qnr), kTolerance * scale);
      // Every movable joint, in the pose or not, through the per-body torques.
      for (std::size_t b = 1; b < km.size(); ++b) {
        const auto& body = km.body(b);
        if (body.motion == rmodel::kinematics::JointMotion::fixed) continue;
        const auto it = tree.getSegments().find(body.name);
        ASSERT_NE(it, tree.getSegments().end());
        EXPECT_NEAR(ws.joint_torque(b), expected(GetTreeElementQNr(it->second)), kTolerance * scale) << body.joint;
      }
    }
  }
}

TEST(DynamicsKdl, EveryRootToLeafChainMatchesChainIdSolverAndChainDynParam) {
  RMODEL_REQUIRE_FIXTURES();
  for (const auto& f : rmodel::test::dynamics_fixtures()) {
    SCOPED_TRACE(f.name);
    const rmodel::Model model = rmodel::test::load_fixture(f);
    const KDL::Tree& tree = model.kdl_tree();
    const std::string root = tree.getRootSegment()->first;
    std::mt19937 rng(31337);
    int chains = 0;
    for (const auto& [leaf, element] : tree.getSegments()) {
      if (!GetTreeElementChildren(element).empty()) continue;
      KDL::Chain chain;
      ASSERT_TRUE(tree.getChain(root, leaf, chain));
      const unsigned int n = chain.getNrOfJoints();
      if (n == 0) continue;
      ++chains;
      SCOPED_TRACE(leaf);
      const auto km = rd::KinematicModel::from_kdl_chain(chain);
      rd::DynamicsWorkspace ws(km);
      const KDL::Vector g(0.3, -1.2, -9.7);
      KDL::ChainIdSolver_RNE rne(chain, g);
      KDL::ChainDynParam param(chain, g);
      std::vector<double> tau(n);
      Eigen::MatrixXd M;
      for (int trial = 0; trial < 4; ++trial) {
        const auto q = random_values(rng, n, 2.0);
        const auto qd = random_values(rng, n, 3.0);
        const auto qdd = random_values(rng, n, 8.0);
        KDL::JntArray expected(n);
        KDL::Wrenches none(chain.getNrOfSegments(), KDL::Wrench::Zero());
        ASSERT_GE(rne.CartToJnt(to_jnt(q), to_jnt(qd), to_jnt(qdd), none, expected), 0);
        rd::inverse_dynamics(km, ws, q, qd, qdd, tau, to_eigen(g));
        EXPECT_LT(relative_error(tau, expected), kTolerance) << "inverse dynamics, trial " << trial;

        KDL::JntArray gravity(n), coriolis(n);
        ASSERT_GE(param.JntToGravity(to_jnt(q), gravity), 0);
        rd::gravity_torques(km, ws, q, tau, to_eigen(g));
        EXPECT_LT(relative_error(tau, gravity), kTolerance) << "gravity, trial " << trial;
        ASSERT_GE(param.JntToCoriolis(to_jnt(q), to_jnt(qd), coriolis), 0);
        rd::coriolis_torques(km, ws, q, qd, tau);
        EXPECT_LT(relative_error(tau, coriolis), kTolerance) << "coriolis, trial " << trial;

        KDL::JntSpaceInertiaMatrix H(n);
        ASSERT_GE(param.JntToMass(to_jnt(q), H), 0);
        rd::mass_matrix(km, ws, q, M);
        ASSERT_EQ(M.rows(), static_cast<Eigen::Index>(n));
        const double scale = 1.0 + H.data.cwiseAbs().maxCoeff();
        EXPECT_LT((M - H.data).cwiseAbs().maxCoeff() / scale, kTolerance) << "mass matrix, trial " << trial;
      }
    }
    EXPECT_GT(chains, 0);
  }
}

TEST(DynamicsKdl, SampleRobotWithPrismaticAndContinuousJointsMatchesTreeIdSolverRne) {
  const rmodel::Model model = rmodel::test::pony();
  const KDL::Tree tree(model.kdl_tree());
  const auto km = rd::KinematicModel::from_kdl_tree(tree);
  rd::DynamicsWorkspace ws(km);
  KDL::TreeIdSolver_RNE solver(tree, KDL::Vector(0, 0, -9.81));
  std::mt19937 rng(5);
  const std::size_t n = km.pose_size();
  std::vector<double> tau(n);
  for (int trial = 0; trial < 10; ++trial) {
    const auto q = random_values(rng, n, 2.0);
    const auto qd = random_values(rng, n, 3.0);
    const auto qdd = random_values(rng, n, 8.0);
    KDL::JntArray expected(static_cast<unsigned int>(n));
    ASSERT_EQ(solver.CartToJnt(to_jnt(q), to_jnt(qd), to_jnt(qdd), KDL::WrenchMap{}, expected), 0);
    rd::inverse_dynamics(km, ws, q, qd, qdd, tau);
    EXPECT_LT(relative_error(tau, expected), kTolerance) << "trial " << trial;
  }
}

TEST(DynamicsKdl, HandBuiltChainsWithScaledJointsAndAxesOffTheTip) {
  // Denavit–Hartenberg segments (the joint axis does not pass through the tip frame),
  // joints with a scale and an offset, arbitrary axes, prismatic joints, fixed segments.
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_real_distribution<double> mass(0.2, 3.0);
  for (int robot = 0; robot < 6; ++robot) {
    KDL::Chain chain;
    for (int s = 0; s < 7; ++s) {
      const KDL::Frame tip = KDL::Frame::DH(u(rng), u(rng), u(rng), u(rng));
      const KDL::RotationalInertia inertia(0.02 + 0.01 * u(rng), 0.03 + 0.01 * u(rng), 0.025 + 0.01 * u(rng),
                                           0.001 * u(rng), 0.001 * u(rng), 0.001 * u(rng));
      const KDL::RigidBodyInertia body(mass(rng), KDL::Vector(u(rng), u(rng), u(rng)) * 0.2, inertia);
      const std::string name = "s" + std::to_string(s);
      KDL::Joint joint;
      switch (s % 4) {
        case 0: joint = KDL::Joint(name, KDL::Joint::RotZ, 1.0, 0.0); break;
        case 1: joint = KDL::Joint(name, KDL::Vector(u(rng), u(rng), u(rng)) * 0.1,
                                   rmodel::test::random_unit(rng), KDL::Joint::RotAxis, 2.0, 0.3); break;
        case 2: joint = KDL::Joint(name, KDL::Vector(0, 0, 0), rmodel::test::random_unit(rng), KDL::Joint::TransAxis,
                                   -1.5, 0.1); break;
        default: joint = KDL::Joint(name, KDL::Joint::None); break;
      }
      chain.addSegment(KDL::Segment(name, joint, tip, body));
    }
    const auto km = rd::KinematicModel::from_kdl_chain(chain);
    rd::DynamicsWorkspace ws(km);
    KDL::ChainIdSolver_RNE rne(chain, KDL::Vector(0, 0, -9.81));
    KDL::ChainDynParam param(chain, KDL::Vector(0, 0, -9.81));
    const unsigned int n = chain.getNrOfJoints();
    std::vector<double> tau(n);
    Eigen::MatrixXd M;
    for (int trial = 0; trial < 5; ++trial) {
      const auto q = random_values(rng, n, 2.0);
      const auto qd = random_values(rng, n, 3.0);
      const auto qdd = random_values(rng, n, 8.0);
      KDL::JntArray expected(n);
      KDL::Wrenches none(chain.getNrOfSegments(), KDL::Wrench::Zero());
      ASSERT_GE(rne.CartToJnt(to_jnt(q), to_jnt(qd), to_jnt(qdd), none, expected), 0);
      rd::inverse_dynamics(km, ws, q, qd, qdd, tau);
      EXPECT_LT(relative_error(tau, expected), kTolerance) << "robot " << robot << " trial " << trial;
      KDL::JntSpaceInertiaMatrix H(n);
      ASSERT_GE(param.JntToMass(to_jnt(q), H), 0);
      rd::mass_matrix(km, ws, q, M);
      EXPECT_LT((M - H.data).cwiseAbs().maxCoeff() / (1.0 + H.data.cwiseAbs().maxCoeff()), kTolerance);
    }
  }
}

TEST(DynamicsKdl, MimicJointsAddTheirTorqueToTheirMasters) {
  // With mimic joints following their masters (the default reading), a master's torque is
  // the generalised force along the mimic rule: KDL's torque of the master plus, for every
  // joint following it, multiplier × that joint's KDL torque, KDL's joints set by the rule
  // (q = m·q_master + o, q̇ = m·q̇_master, q̈ = m·q̈_master). Talos's grippers are mimics.
  RMODEL_REQUIRE_FIXTURES();
  std::size_t mimics_checked = 0;
  for (const auto& f : rmodel::test::dynamics_fixtures()) {
    SCOPED_TRACE(f.name);
    const rmodel::Model model = rmodel::test::load_fixture(f);
    const KDL::Tree tree(model.kdl_tree());
    const auto km = rd::KinematicModel::from_model(model);
    rd::DynamicsWorkspace ws(km);
    KDL::TreeIdSolver_RNE solver(tree, KDL::Vector(0, 0, -9.81));
    std::mt19937 rng(78);
    const std::size_t n = model.pose_size();
    std::vector<double> tau(n);
    const auto q = random_values(rng, n, 1.0);
    const auto qd = random_values(rng, n, 2.0);
    const auto qdd = random_values(rng, n, 5.0);
    KDL::JntArray kq(tree.getNrOfJoints()), kqd(tree.getNrOfJoints()), kqdd(tree.getNrOfJoints());
    std::vector<std::pair<std::size_t, unsigned int>> own;           // pose slot → KDL q_nr
    std::vector<std::tuple<std::size_t, unsigned int, double>> mimic;  // master slot, KDL q_nr, multiplier
    bool every_master_in_pose = true;
    for (const auto& [joint, qnr] : movable_kdl_joints(tree)) {
      const rmodel::JointInfo* info = model.find_urdf_joint(joint->getName());
      ASSERT_NE(info, nullptr) << joint->getName();
      if (info->mimic) {
        const auto master = model.find_joint_index(info->mimic->root);
        if (!master) {
          every_master_in_pose = false;
          continue;
        }
        const double m = info->mimic->root_multiplier;
        kq(qnr) = m * q[*master] + info->mimic->root_offset;
        kqd(qnr) = m * qd[*master];
        kqdd(qnr) = m * qdd[*master];
        mimic.emplace_back(*master, qnr, m);
      } else if (const auto index = model.find_joint_index(joint->getName())) {
        kq(qnr) = q[*index];
        kqd(qnr) = qd[*index];
        kqdd(qnr) = qdd[*index];
        own.emplace_back(*index, qnr);
      }
    }
    if (mimic.empty() || !every_master_in_pose) continue;
    KDL::JntArray expected(tree.getNrOfJoints());
    ASSERT_EQ(solver.CartToJnt(kq, kqd, kqdd, KDL::WrenchMap{}, expected), 0);
    std::vector<double> want(n, 0.0);
    for (const auto& [index, qnr] : own) want[index] = expected(qnr);
    for (const auto& [master, qnr, m] : mimic) want[master] += m * expected(qnr);
    rd::inverse_dynamics(km, ws, q, qd, qdd, tau);
    double scale = 1.0;
    for (unsigned int i = 0; i < expected.rows(); ++i) scale = std::max(scale, std::abs(expected(i)));
    for (const auto& [index, qnr] : own) EXPECT_NEAR(tau[index], want[index], kTolerance * scale) << index;
    mimics_checked += mimic.size();
  }
  EXPECT_GT(mimics_checked, 0U) << "no fixture robot with mimic joints was compared";
}
