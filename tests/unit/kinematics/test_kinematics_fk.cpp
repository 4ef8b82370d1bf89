// Forward kinematics and Jacobians against hand computations and KDL's own solvers.

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainjnttojacsolver.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl/treejnttojacsolver.hpp>

#include "rmodel/base/error.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/model/semantics.hpp"
#include "kdl_support.hpp"
#include "test_support.hpp"

namespace rk = rmodel::kinematics;

namespace {

using rmodel::test::frame_error;
using rmodel::test::random_frame;
using rmodel::test::random_unit;

constexpr double kTol = 1e-9;


double jacobian_error(const rk::Jacobian& a, const KDL::Jacobian& b) {
  if (a.cols() != b.data.cols()) return 1e300;
  return (a - b.data).cwiseAbs().maxCoeff();
}



/// A segment with any KDL joint type, axes through arbitrary points, and scales/offsets.
KDL::Segment random_segment(std::mt19937& rng, const std::string& name, bool exotic) {
  std::uniform_int_distribution<int> pick(0, exotic ? 9 : 3);
  std::uniform_real_distribution<double> l(-0.2, 0.2);
  const KDL::Frame tip = random_frame(rng);
  const std::string jn = name + "_joint";
  switch (pick(rng)) {
    case 0:  // URDF-like: axis through the tip origin
      return KDL::Segment(name, KDL::Joint(jn, tip.p, tip.M * random_unit(rng), KDL::Joint::RotAxis), tip);
    case 1:
      return KDL::Segment(name, KDL::Joint(jn, tip.p, tip.M * KDL::Vector(0, 0, -1), KDL::Joint::RotAxis), tip);
    case 2:
      return KDL::Segment(name, KDL::Joint(jn, tip.p, tip.M * random_unit(rng), KDL::Joint::TransAxis), tip);
    case 3:
      return KDL::Segment(name, KDL::Joint(jn, KDL::Joint::Fixed), tip);
    case 4:  // axis not through the tip origin
      return KDL::Segment(name, KDL::Joint(jn, KDL::Vector(l(rng), l(rng), l(rng)), random_unit(rng), KDL::Joint::RotAxis), tip);
    case 5:
      return KDL::Segment(name, KDL::Joint(jn, KDL::Joint::RotX), tip);
    case 6:
      return KDL::Segment(name, KDL::Joint(jn, KDL::Joint::RotY, -1.0, 0.3), tip);
    case 7:
      return KDL::Segment(name, KDL::Joint(jn, KDL::Joint::RotZ, 2.5, -0.4), tip);
    case 8:
      return KDL::Segment(name, KDL::Joint(jn, KDL::Joint::TransY, 0.5, 0.1), tip);
    default:
      return KDL::Segment(name, KDL::Joint(jn, KDL::Vector(l(rng), l(rng), l(rng)), random_unit(rng), KDL::Joint::RotAxis, 1.5, 0.2), tip);
  }
}

KDL::Chain random_chain(std::mt19937& rng, int segments, bool exotic) {
  KDL::Chain chain;
  for (int i = 0; i < segments; ++i)
    chain.addSegment(random_segment(rng, "s" + std::to_string(i), exotic));
  return chain;
}

KDL::Tree random_tree(std::mt19937& rng, int segments, bool exotic) {
  KDL::Tree tree("root");
  std::vector<std::string> names{"root"};
  for (int i = 0; i < segments; ++i) {
    std::uniform_int_distribution<std::size_t> parent(0, names.size() - 1);
    const std::string name = "t" + std::to_string(i);
    tree.addSegment(random_segment(rng, name, exotic), names[parent(rng)]);
    names.push_back(name);
  }
  return tree;
}

KDL::JntArray random_q(std::mt19937& rng, unsigned int n) {
  std::uniform_real_distribution<double> a(-std::numbers::pi, std::numbers::pi);
  KDL::JntArray q(n);
  for (unsigned int i = 0; i < n; ++i) q(i) = a(rng);
  return q;
}

/// Compares every body frame and Jacobian of a chain model with KDL's chain solvers.
void expect_chain_matches_kdl(const KDL::Chain& chain, const rk::KinematicModel& model,
                              const KDL::JntArray& q) {
  ASSERT_EQ(model.size(), chain.getNrOfSegments() + 1);
  rk::Workspace ws(model);
  rk::forward_kinematics(model, ws, q);
  KDL::ChainFkSolverPos_recursive fk(chain);
  KDL::ChainJntToJacSolver jac_solver(chain);
  rk::Jacobian J;
  KDL::Jacobian kj(chain.getNrOfJoints());
  for (unsigned int s = 0; s < chain.getNrOfSegments(); ++s) {
    KDL::Frame f;
    ASSERT_GE(fk.JntToCart(q, f, static_cast<int>(s) + 1), 0);
    EXPECT_LT(frame_error(ws.frame(s + 1), f), kTol) << "segment " << s;
    ASSERT_GE(jac_solver.JntToJac(q, kj, static_cast<int>(s) + 1), 0);
    rk::jacobian(model, ws, s + 1, J);
    EXPECT_LT(jacobian_error(J, kj), kTol) << "segment " << s;
  }
  EXPECT_LT(frame_error(ws.frame(0), KDL::Frame::Identity()), 0.0 + 1e-300);
}

/// Per pose slot, the KDL tree columns that move with it and the rate of each (1 for the
/// slot's own joint, the mimic multiplier for a mimic joint following it).
using SlotColumns = std::vector<std::vector<std::pair<Eigen::Index, double>>>;

void expect_tree_matches_kdl(const KDL::Tree& tree, const rk::KinematicModel& model,
                             const KDL::JntArray& q_kdl, const std::vector<double>& q_model,
                             const SlotColumns& slot_columns = {}) {
  rk::Workspace ws(model);
  rk::forward_kinematics(model, ws, q_model);
  KDL::TreeFkSolverPos_recursive fk(tree);
  KDL::TreeJntToJacSolver jac_solver(tree);
  KDL::Jacobian kj(tree.getNrOfJoints());
  rk::Jacobian J;
  ASSERT_EQ(model.size(), tree.getNrOfSegments() + 1);
  for (std::size_t b = 0; b < model.size(); ++b) {
    const std::string& name = model.bodies()[b].name;
    KDL::Frame f;
    ASSERT_GE(fk.JntToCart(q_kdl, f, name), 0) << name;
    EXPECT_LT(frame_error(ws.frame(b), f), kTol) << name;
    if (b == 0) continue;
    ASSERT_GE(jac_solver.JntToJac(q_kdl, kj, name), 0) << name;
    rk::jacobian(model, ws, b, J);
    // KDL's tree Jacobian has one column per KDL slot; map to the model's pose slots.
    if (!slot_columns.empty()) {
      for (std::size_t s = 0; s < model.pose_size(); ++s) {
        Eigen::Matrix<double, 6, 1> expected = Eigen::Matrix<double, 6, 1>::Zero();
        for (const auto& [kcol, rate] : slot_columns[s]) expected += rate * kj.data.col(kcol);
        EXPECT_LT((J.col(static_cast<Eigen::Index>(s)) - expected).cwiseAbs().maxCoeff(), kTol)
            << name << " column " << s;
      }
      continue;
    }
    for (std::size_t s = 0; s < model.pose_size(); ++s) {
      const auto body = model.joint_body(s);
      if (!body) {
        EXPECT_TRUE(J.col(static_cast<Eigen::Index>(s)).isZero(0.0));
        continue;
      }
      const KDL::TreeElement& e = tree.getSegments().at(model.bodies()[*body].name);
      const auto kcol = static_cast<Eigen::Index>(GetTreeElementQNr(e));
      EXPECT_LT((J.col(static_cast<Eigen::Index>(s)) - kj.data.col(kcol)).cwiseAbs().maxCoeff(), kTol)
          << name << " column " << s;
    }
  }
}

}  // namespace

// ---------------------------------------------------------------- hand computations

TEST(KinematicsFk, PlanarTwoLinkArmHandComputed) {
  // Two revolute joints about z, links of 1.0 and 0.5 m along x.
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("l1", KDL::Joint("j1", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(1.0, 0, 0))));
  chain.addSegment(KDL::Segment("l2", KDL::Joint("j2", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(0.5, 0, 0))));
  const auto model = rk::KinematicModel::from_kdl_chain(chain);
  rk::Workspace ws(model);
  const double q1 = std::numbers::pi / 2, q2 = -std::numbers::pi / 2;
  const std::vector<double> q{q1, q2};
  rk::forward_kinematics(model, ws, q);
  // Elbow at (0, 1), hand at (0.5, 1) pointing along +x.
  EXPECT_NEAR(ws.frame(1).translation().x(), 0.0, 1e-15);
  EXPECT_NEAR(ws.frame(1).translation().y(), 1.0, 1e-15);
  EXPECT_NEAR(ws.frame(2).translation().x(), 0.5, 1e-15);
  EXPECT_NEAR(ws.frame(2).translation().y(), 1.0, 1e-15);
  EXPECT_TRUE(ws.frame(2).linear().isApprox(Eigen::Matrix3d::Identity(), 1e-15));
  // Jacobian of the hand: column i = z × (p_hand − p_joint_i).
  rk::Jacobian J;
  rk::jacobian(model, ws, 2, J);
  Eigen::Matrix<double, 6, 2> expected;
  expected << -1.0, -0.0, 0.5, 0.5, 0, 0, 0, 0, 0, 0, 1, 1;
  EXPECT_TRUE(J.isApprox(expected, 1e-14)) << J;
}

TEST(KinematicsFk, PlanarThreeLinkArmHandComputed) {
  const double l1 = 0.4, l2 = 0.3, l3 = 0.2;
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("a", KDL::Joint("j1", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(l1, 0, 0))));
  chain.addSegment(KDL::Segment("b", KDL::Joint("j2", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(l2, 0, 0))));
  chain.addSegment(KDL::Segment("c", KDL::Joint("j3", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(l3, 0, 0))));
  const auto model = rk::KinematicModel::from_kdl_chain(chain, "ground");
  EXPECT_EQ(model.bodies()[0].name, "ground");
  rk::Workspace ws(model);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> a(-3, 3);
  for (int trial = 0; trial < 20; ++trial) {
    const std::vector<double> q{a(rng), a(rng), a(rng)};
    rk::forward_kinematics(model, ws, q);
    const double t1 = q[0], t12 = q[0] + q[1], t123 = t12 + q[2];
    const double x = l1 * std::cos(t1) + l2 * std::cos(t12) + l3 * std::cos(t123);
    const double y = l1 * std::sin(t1) + l2 * std::sin(t12) + l3 * std::sin(t123);
    EXPECT_NEAR(ws.frame(3).translation().x(), x, 1e-14);
    EXPECT_NEAR(ws.frame(3).translation().y(), y, 1e-14);
    EXPECT_NEAR(ws.frame(3).translation().z(), 0.0, 1e-14);
    EXPECT_NEAR(std::atan2(ws.frame(3).linear()(1, 0), ws.frame(3).linear()(0, 0)),
                std::remainder(t123, 2 * std::numbers::pi), 1e-12);
    rk::Jacobian J;
    rk::jacobian(model, ws, 3, J);
    // ∂x/∂q1 = −y, ∂y/∂q1 = x; ∂x/∂q3 = −l3 sin t123 ...
    EXPECT_NEAR(J(0, 0), -y, 1e-14);
    EXPECT_NEAR(J(1, 0), x, 1e-14);
    EXPECT_NEAR(J(0, 1), -(l2 * std::sin(t12) + l3 * std::sin(t123)), 1e-14);
    EXPECT_NEAR(J(1, 1), l2 * std::cos(t12) + l3 * std::cos(t123), 1e-14);
    EXPECT_NEAR(J(0, 2), -l3 * std::sin(t123), 1e-14);
    EXPECT_NEAR(J(1, 2), l3 * std::cos(t123), 1e-14);
    EXPECT_TRUE(J.row(2).isZero(0) && J.row(3).isZero(0) && J.row(4).isZero(0));
    EXPECT_TRUE(J.row(5).isApprox(Eigen::RowVector3d::Ones()));
    // A point 0.1 m further along the last link.
    const Eigen::Vector3d point(0.1, 0, 0);
    rk::Jacobian Jp;
    rk::jacobian(model, ws, 3, point, Jp);
    EXPECT_NEAR(Jp(0, 2), -(l3 + 0.1) * std::sin(t123), 1e-14);
    EXPECT_NEAR(Jp(1, 0), x + 0.1 * std::cos(t123), 1e-14);
  }
}

TEST(KinematicsFk, PrismaticAndFixedHandComputed) {
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("slider", KDL::Joint("p", KDL::Joint::TransX), KDL::Frame(KDL::Vector(0, 0, 1))));
  chain.addSegment(KDL::Segment("bracket", KDL::Joint("f", KDL::Joint::Fixed),
                                KDL::Frame(KDL::Rotation::RotZ(std::numbers::pi / 2), KDL::Vector(0, 0.2, 0))));
  chain.addSegment(KDL::Segment("arm", KDL::Joint("r", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(0.3, 0, 0))));
  const auto model = rk::KinematicModel::from_kdl_chain(chain);
  EXPECT_EQ(model.joint_count(), 2u);
  EXPECT_EQ(model.pose_size(), 2u);
  EXPECT_EQ(model.bodies()[2].motion, rk::JointMotion::fixed);
  EXPECT_EQ(model.bodies()[2].q_index, -1);
  EXPECT_EQ(model.bodies()[3].q_index, 1);
  rk::Workspace ws(model);
  const std::vector<double> q{0.25, 0.0};
  rk::forward_kinematics(model, ws, q);
  // slider at x=0.25, z=1; bracket adds (0, .2, 0) and turns 90°; the arm points along +y.
  EXPECT_TRUE(ws.frame(3).translation().isApprox(Eigen::Vector3d(0.25, 0.5, 1.0), 1e-15))
      << ws.frame(3).translation().transpose();
  rk::Jacobian J;
  rk::jacobian(model, ws, 3, J);
  EXPECT_TRUE(J.col(0).isApprox((Eigen::Matrix<double, 6, 1>() << 1, 0, 0, 0, 0, 0).finished()));
  EXPECT_TRUE(J.col(1).isApprox((Eigen::Matrix<double, 6, 1>() << -0.3, 0, 0, 0, 0, 1).finished(), 1e-15))
      << J.col(1).transpose();
}

// ---------------------------------------------------------------- KDL, random robots

TEST(KinematicsFk, RandomKdlChainsMatchKdlSolvers) {
  std::mt19937 rng(20240601);
  for (int trial = 0; trial < 40; ++trial) {
    const KDL::Chain chain = random_chain(rng, 1 + trial % 12, true);
    const auto model = rk::KinematicModel::from_kdl_chain(chain);
    ASSERT_EQ(model.pose_size(), chain.getNrOfJoints());
    for (int pose = 0; pose < 5; ++pose) expect_chain_matches_kdl(chain, model, random_q(rng, chain.getNrOfJoints()));
  }
}

TEST(KinematicsFk, RandomKdlTreesMatchKdlSolvers) {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 15; ++trial) {
    // KDL's tree solvers copy the tree, and a KDL::Tree copy renumbers q_nr depth-first:
    // compare on a copy so that the numbering the solvers use is the tree's own.
    const KDL::Tree built = random_tree(rng, 5 + 3 * trial, true);
    const KDL::Tree tree(built);
    const auto model = rk::KinematicModel::from_kdl_tree(tree);
    for (int pose = 0; pose < 3; ++pose) {
      const KDL::JntArray q = random_q(rng, tree.getNrOfJoints());
      expect_tree_matches_kdl(tree, model, q, std::vector<double>(q.data.data(), q.data.data() + q.rows()));
    }
  }
}

TEST(KinematicsFk, LongRandomChainsAcrossSineBatchesMatchKdlSolvers) {
  // forward_kinematics takes the sines and cosines of up to 32 bodies at a time, four angles
  // per vector operation: chains ending just before, at and after the batch and lane-group
  // boundaries, with every joint kind (axis-aligned, any axis, prismatic, fixed), against
  // KDL. Some poses put angles beyond ±1e5 rad (libm's reduction) beside ordinary ones.
  std::mt19937 rng(777);
  std::uniform_int_distribution<unsigned int> which(0, 1000);
  for (const int segments : {1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 34, 63, 64, 65, 97}) {
    SCOPED_TRACE(segments);
    const KDL::Chain chain = random_chain(rng, segments, true);
    const auto model = rk::KinematicModel::from_kdl_chain(chain);
    for (int pose = 0; pose < 4; ++pose) {
      KDL::JntArray q = random_q(rng, chain.getNrOfJoints());
      if (pose == 3) {
        // A revolute joint (a prismatic one would put the tip 250 km away, beyond kTol).
        std::vector<unsigned int> revolute;
        unsigned int slot = 0;
        for (const auto& segment : chain.segments) {
          const auto type = segment.getJoint().getType();
          if (type == KDL::Joint::Fixed) continue;
          if (type == KDL::Joint::RotAxis || type == KDL::Joint::RotX || type == KDL::Joint::RotY ||
              type == KDL::Joint::RotZ)
            revolute.push_back(slot);
          ++slot;
        }
        if (!revolute.empty()) q(revolute[which(rng) % revolute.size()]) = 2.5e5 + 0.25;
      }
      expect_chain_matches_kdl(chain, model, q);
    }
  }
}

TEST(KinematicsFk, AxisAlignedJointsAfterAnyOriginRotationMatchKdlSolvers) {
  // URDF-like joints whose axis is ±x, ±y or ±z of the joint frame, after an origin that is
  // not rotated, rotated by rounding noise only (CAD exports: rpy of 1e-14 rad, as in
  // Sweetie Bot's legs) or rotated anywhere; with and without an offset. These take the
  // axis-aligned updates, on the parent's frame or on the origin's rotation.
  std::mt19937 rng(4242);
  std::uniform_int_distribution<int> pick_axis(0, 5);
  std::uniform_int_distribution<int> pick_origin(0, 5);
  std::uniform_real_distribution<double> noise(-5e-14, 5e-14);
  std::uniform_real_distribution<double> l(-0.2, 0.2);
  std::uniform_real_distribution<double> angle(-std::numbers::pi, std::numbers::pi);
  for (int trial = 0; trial < 40; ++trial) {
    KDL::Chain chain;
    const int segments = 1 + trial % 9;
    for (int i = 0; i < segments; ++i) {
      const int origin = pick_origin(rng);
      KDL::Rotation rotation = KDL::Rotation::Identity();
      if (origin == 1 || origin == 2) rotation = KDL::Rotation::RPY(noise(rng), noise(rng), noise(rng));
      if (origin >= 3) rotation = KDL::Rotation::RPY(angle(rng), angle(rng), angle(rng));
      const KDL::Vector offset = origin % 2 == 0 ? KDL::Vector(l(rng), l(rng), l(rng)) : KDL::Vector::Zero();
      const KDL::Frame tip(rotation, offset);
      const int axis = pick_axis(rng);
      KDL::Vector e = KDL::Vector::Zero();
      e(axis % 3) = axis < 3 ? 1.0 : -1.0;
      const std::string name = "a" + std::to_string(i);
      chain.addSegment(KDL::Segment(name, KDL::Joint(name + "_joint", tip.p, tip.M * e, KDL::Joint::RotAxis), tip));
    }
    const auto model = rk::KinematicModel::from_kdl_chain(chain);
    for (int pose = 0; pose < 4; ++pose) {
      KDL::JntArray q = random_q(rng, chain.getNrOfJoints());
      if (pose == 3) q(static_cast<unsigned int>(trial) % q.rows()) = -3.0e5 + 0.5;  // libm's reduction
      expect_chain_matches_kdl(chain, model, q);
    }
  }
}

TEST(KinematicsFk, NonFiniteAngleLeavesOtherBodiesAndTheLastRowAlone) {
  // A NaN or infinite angle makes its body's frame and those below it NaN, as libm's
  // sine does; the bodies above (and in the same sine batch) keep their frames, and every
  // frame keeps its last row (0 0 0 1).
  std::mt19937 rng(4242);
  const KDL::Chain chain = random_chain(rng, 9, false);
  const auto model = rk::KinematicModel::from_kdl_chain(chain);
  KDL::ChainFkSolverPos_recursive fk(chain);
  rk::Workspace ws(model);
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    for (unsigned int j = 0; j < chain.getNrOfJoints(); ++j) {
      KDL::JntArray q = random_q(rng, chain.getNrOfJoints());
      q(j) = bad;
      rk::forward_kinematics(model, ws, q);
      // The body of joint j: the segment where the j-th moving joint sits.
      unsigned int moving = 0, segment = 0;
      for (; segment < chain.getNrOfSegments(); ++segment)
        if (chain.getSegment(segment).getJoint().getType() != KDL::Joint::Fixed && moving++ == j) break;
      for (unsigned int s = 0; s < chain.getNrOfSegments(); ++s) {
        const Eigen::Matrix4d& m = ws.frame(s + 1).matrix();
        EXPECT_EQ(m.row(3), Eigen::RowVector4d(0, 0, 0, 1)) << "joint " << j << " segment " << s;
        if (s < segment) {
          KDL::Frame f;
          ASSERT_GE(fk.JntToCart(q, f, static_cast<int>(s) + 1), 0);
          EXPECT_LT(frame_error(ws.frame(s + 1), f), kTol) << "joint " << j << " segment " << s;
        } else {
          EXPECT_FALSE(m.topRows<3>().allFinite()) << "joint " << j << " segment " << s;
        }
      }
    }
  }
}

// ---------------------------------------------------------------- fixture robots

namespace {

struct FixtureRobot {
  std::string urdf;
  std::string semantics;  // empty: URDF only
};

rmodel::Model load(const FixtureRobot& r) {
  rmodel::ModelSource src;
  src.urdf_path = rmodel::test::fixture(r.urdf).string();
  if (!r.semantics.empty()) src.semantics_path = rmodel::test::fixture(r.semantics).string();
  return rmodel::Model::load(src);
}

const std::vector<FixtureRobot>& fixture_robots() {
  static const std::vector<FixtureRobot> robots{
      {"sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/kinematic_chains.cpf"},
      {"sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf", ""},
      {"example_robot_data/talos_reduced.urdf", ""},
      {"example_robot_data/panda.urdf", ""},
      {"example_robot_data/solo12.urdf", ""},
  };
  return robots;
}

/// A full pose in the slot order of a KDL tree, from the model's own description of its
/// joints: a mimic joint whose root master is in the pose takes root_multiplier · q_root +
/// root_offset (as robot_state_publisher sets it), any other joint its pose value.
/// `columns` receives, per pose slot, the KDL columns that move with it and their rates.
KDL::JntArray to_kdl_slots(const KDL::Tree& tree, const rmodel::Model& model, const std::vector<double>& full,
                           SlotColumns& columns) {
  KDL::JntArray q(tree.getNrOfJoints());
  columns.assign(model.pose_size(), {});
  for (const auto& [name, element] : tree.getSegments()) {
    const rmodel::JointInfo* joint = model.find_urdf_joint(element.segment.getJoint().getName());
    if (!joint || !joint->movable()) continue;
    const auto kcol = static_cast<Eigen::Index>(GetTreeElementQNr(element));
    const rmodel::JointInfo* root = joint->mimic ? model.find_urdf_joint(joint->mimic->root) : nullptr;
    if (root && root->index >= 0) {
      const auto slot = static_cast<std::size_t>(root->index);
      q(static_cast<unsigned int>(kcol)) = joint->mimic->root_multiplier * full[slot] + joint->mimic->root_offset;
      columns[slot].emplace_back(kcol, joint->mimic->root_multiplier);
    } else if (joint->index >= 0) {
      q(static_cast<unsigned int>(kcol)) = full[static_cast<std::size_t>(joint->index)];
      columns[static_cast<std::size_t>(joint->index)].emplace_back(kcol, 1.0);
    }
  }
  return q;}

}  // namespace

TEST(KinematicsFk, FixtureTreesMatchKdlTreeSolvers) {
  RMODEL_REQUIRE_FIXTURES();
  std::mt19937 rng(1234);
  for (const auto& robot : fixture_robots()) {
    SCOPED_TRACE(robot.urdf);
    const rmodel::Model model = load(robot);
    const auto km = rk::KinematicModel::from_model(model);
    EXPECT_EQ(km.pose_size(), model.pose_size());
    EXPECT_EQ(km.size(), model.links().size());
    EXPECT_EQ(km.bodies()[0].name, model.root_link());
    const KDL::Tree tree(model.kdl_tree());  // the numbering KDL's solvers use (see above)
    for (int pose = 0; pose < 5; ++pose) {
      std::uniform_real_distribution<double> a(-2.5, 2.5);
      std::vector<double> full(model.pose_size());
      for (double& v : full) v = a(rng);
      SlotColumns columns;
      const KDL::JntArray q_kdl = to_kdl_slots(tree, model, full, columns);
      expect_tree_matches_kdl(tree, km, q_kdl, full, columns);
    }
  }
}

TEST(KinematicsFk, FixtureChainsMatchKdlChainSolvers) {
  RMODEL_REQUIRE_FIXTURES();
  std::mt19937 rng(4321);
  const rmodel::Model model = load(fixture_robots()[0]);
  ASSERT_FALSE(model.chains().empty());
  for (const auto& chain : model.chains()) {
    for (const bool with_virtual : {true, false}) {
      SCOPED_TRACE(chain.name + (with_virtual ? " (with virtual)" : " (real)"));
      const KDL::Chain& kdl = model.kdl_chain(chain.name, with_virtual);
      const auto km = rk::KinematicModel::from_chain(model, chain.name, with_virtual);
      EXPECT_EQ(km.pose_size(), chain.size(with_virtual));
      EXPECT_EQ(km.bodies()[0].name, chain.first_link);
      for (int pose = 0; pose < 10; ++pose) expect_chain_matches_kdl(kdl, km, random_q(rng, kdl.getNrOfJoints()));
    }
  }
}

TEST(KinematicsFk, FixtureUrdfOnlyChainsMatchKdlChainSolvers) {
  RMODEL_REQUIRE_FIXTURES();
  std::mt19937 rng(77);
  const rmodel::Model talos = load(fixture_robots()[2]);
  const std::vector<std::pair<std::string, std::string>> ends{
      {"torso_2_link", "arm_left_7_link"}, {"base_link", "leg_left_6_link"},
      {"base_link", "gripper_right_fingertip_3_link"}, {"base_link", "rgbd_rgb_optical_frame"}};
  for (const auto& [root, tip] : ends) {
    SCOPED_TRACE(tip);
    KDL::Chain chain;
    ASSERT_TRUE(talos.kdl_tree().getChain(root, tip, chain));
    const auto km = rk::KinematicModel::from_kdl_chain(chain, root);
    for (int pose = 0; pose < 10; ++pose) expect_chain_matches_kdl(chain, km, random_q(rng, chain.getNrOfJoints()));
  }
}

TEST(KinematicsFk, FullPoseLayoutMatchesChainLayout) {
  RMODEL_REQUIRE_FIXTURES();
  const rmodel::Model model = load(fixture_robots()[0]);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> a(-2, 2);
  for (const auto& chain : model.chains()) {
    SCOPED_TRACE(chain.name);
    const auto by_chain = rk::KinematicModel::from_chain(model, chain.name, true, rk::PoseLayout::chain);
    const auto by_full = rk::KinematicModel::from_chain(model, chain.name, true, rk::PoseLayout::full);
    EXPECT_EQ(by_full.pose_size(), model.pose_size());
    rmodel::JointState full = model.make_full_state();
    for (double& v : full.position) v = a(rng);
    KDL::JntArray q, v, e;
    model.extract_chain(chain.name, full, q, v, e, true);
    rk::Workspace w1(by_chain), w2(by_full);
    rk::forward_kinematics(by_chain, w1, q);
    rk::forward_kinematics(by_full, w2, full.position);
    rk::Jacobian J1, J2;
    rk::jacobian(by_chain, w1, by_chain.tip(), J1);
    rk::jacobian(by_full, w2, by_full.tip(), J2);
    EXPECT_TRUE(w1.frame(by_chain.tip()).isApprox(w2.frame(by_full.tip()), 1e-14));
    const auto idx = chain.indices(true);
    for (std::size_t i = 0; i < idx.size(); ++i)
      EXPECT_TRUE(J1.col(static_cast<Eigen::Index>(i)).isApprox(J2.col(idx[i]), 1e-14));
  }
}

TEST(KinematicsFk, TreeFramesAgreeWithChainFrames) {
  // The tree model, at the full pose, places each chain's links where the chain model does
  // (chains start at base_link, the root of Sweetie Bot).
  RMODEL_REQUIRE_FIXTURES();
  const rmodel::Model model = load(fixture_robots()[0]);
  const auto tree = rk::KinematicModel::from_model(model);
  rk::Workspace wt(tree);
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> a(-2, 2);
  rmodel::JointState full = model.make_full_state();
  for (double& v : full.position) v = a(rng);
  rk::forward_kinematics(tree, wt, full.position);
  for (const auto& chain : model.chains()) {
    const auto km = rk::KinematicModel::from_chain(model, chain.name, true, rk::PoseLayout::full);
    rk::Workspace wc(km);
    rk::forward_kinematics(km, wc, full.position);
    const auto base = tree.body_index(chain.first_link);
    for (std::size_t b = 0; b < km.size(); ++b) {
      const auto t = tree.body_index(km.bodies()[b].name);
      EXPECT_TRUE((wt.frame(base).inverse() * wt.frame(t)).isApprox(wc.frame(b), 1e-12))
          << chain.name << " " << km.bodies()[b].name;
    }
  }
}

TEST(KinematicsFk, OneRevoluteJointRotatesByTheLibmAngleAtAnyAngle) {
  // The frame of a z joint at θ is Rz(θ): its entries against std::cos/std::sin, from tiny
  // angles through the quadrant boundaries to large ones (and libm's own range beyond).
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("l1", KDL::Joint("j1", KDL::Joint::RotZ)));
  const auto model = rk::KinematicModel::from_kdl_chain(chain);
  rk::Workspace ws(model);
  std::vector<double> angles{0.0, -0.0, 1e-300, 1e-8, -1e-8, 0.5, std::numbers::pi / 4, std::numbers::pi / 2,
                             std::numbers::pi, -std::numbers::pi / 2, 3 * std::numbers::pi / 4, 1e5, -1e5, 1e6, 1e12};
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> small(-7.0, 7.0), large(-1e5, 1e5);
  for (int k = 0; k < 20000; ++k) angles.push_back(k % 2 ? small(rng) : large(rng));
  for (const double theta : angles) {
    rk::forward_kinematics(model, ws, std::vector<double>{theta});
    const Eigen::Matrix3d r = ws.frame(1).linear();
    // A few ulp of 1: the reduction and polynomial round, libm is correctly rounded; the
    // joint's scale, recovered from KDL to an ulp, may move large angles by θ·ulp.
    const double tol = 4 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(theta));
    ASSERT_NEAR(r(0, 0), std::cos(theta), tol) << theta;
    ASSERT_NEAR(r(1, 0), std::sin(theta), tol) << theta;
    ASSERT_NEAR(r(1, 1), std::cos(theta), tol) << theta;
    ASSERT_NEAR(r(0, 1), -std::sin(theta), tol) << theta;
    // Near zero the sine is accurate relative to itself.
    if (std::abs(theta) < 1e-3) {
      ASSERT_NEAR(r(1, 0), std::sin(theta), 2 * std::numeric_limits<double>::epsilon() * std::abs(theta));
    }
  }
}

TEST(KinematicsFk, FkAndJacobianInOneCallEqualTheSeparateCalls) {
  RMODEL_REQUIRE_FIXTURES();
  std::mt19937 rng(314);
  const rmodel::Model talos = load(fixture_robots()[2]);
  const std::vector<std::pair<std::string, std::string>> ends{{"torso_2_link", "arm_left_7_link"},
                                                               {"base_link", "leg_left_6_link"}};
  for (const auto& [root, tip] : ends) {
    SCOPED_TRACE(tip);
    KDL::Chain chain;
    ASSERT_TRUE(talos.kdl_tree().getChain(root, tip, chain));
    const auto km = rk::KinematicModel::from_kdl_chain(chain, root);
    rk::Workspace separate(km), fused(km);
    rk::Jacobian J1, J2;
    for (int pose = 0; pose < 10; ++pose) {
      const KDL::JntArray q = random_q(rng, chain.getNrOfJoints());
      rk::forward_kinematics(km, separate, q);
      rk::jacobian(km, separate, km.tip(), J1);
      rk::forward_kinematics_jacobian(km, fused, q, km.tip(), J2);
      EXPECT_EQ(J1, J2);
      for (std::size_t b = 0; b < km.size(); ++b) EXPECT_EQ(separate.frame(b).matrix(), fused.frame(b).matrix());
    }
  }
  // On the whole tree, for every body, from a span.
  const auto tree = rk::KinematicModel::from_model(talos);
  rk::Workspace separate(tree), fused(tree);
  std::vector<double> q(tree.pose_size());
  std::uniform_real_distribution<double> a(-2.0, 2.0);
  for (double& v : q) v = a(rng);
  rk::forward_kinematics(tree, separate, q);
  rk::Jacobian J1, J2;
  for (std::size_t b = 0; b < tree.size(); ++b) {
    rk::jacobian(tree, separate, b, J1);
    rk::forward_kinematics_jacobian(tree, fused, q, b, J2);
    ASSERT_EQ(J1, J2) << tree.bodies()[b].name;
  }
  EXPECT_THROW(rk::forward_kinematics_jacobian(tree, fused, q, tree.size(), J2), rmodel::InvalidArgument);
  EXPECT_THROW(rk::forward_kinematics_jacobian(tree, fused, std::vector<double>(1), 1, J2), rmodel::SizeMismatch);
}
