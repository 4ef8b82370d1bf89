// Denavit–Hartenberg arms: the KDL chain form, the URDF form and KDL's own DH frames agree.

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainjnttojacsolver.hpp>

#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "kdl_support.hpp"

namespace rk = rmodel::kinematics;

namespace {

using rmodel::test::frame_error;


/// A PUMA-560-like arm (standard DH), with point masses, plus a prismatic joint and a
/// general-inertia link.
std::vector<rk::DhJoint> puma_like() {
  const double h = std::numbers::pi / 2;
  std::vector<rk::DhJoint> arm(7);
  arm[0] = {.a = 0, .alpha = h, .d = 0.67, .theta = 0};
  arm[1] = {.a = 0.4318, .alpha = 0, .d = 0, .theta = 0.1};
  arm[2] = {.a = 0.0203, .alpha = -h, .d = 0.15005, .theta = -0.2};
  arm[3] = {.a = 0, .alpha = h, .d = 0.4318, .theta = 0};
  arm[4] = {.a = 0, .alpha = -h, .d = 0, .theta = 0};
  arm[5] = {.a = 0, .alpha = 0, .d = 0.0, .theta = 0.3, .motion = rk::JointMotion::prismatic,
            .lower = -0.5, .upper = 0.5};
  arm[6] = {.a = 0.05, .alpha = 0.4, .d = 0.1, .theta = 0};
  for (std::size_t i = 0; i < arm.size(); ++i) {
    arm[i].mass = 1.0 + 0.5 * static_cast<double>(i);
    arm[i].com = Eigen::Vector3d(0.01 * static_cast<double>(i), -0.02, 0.03);
  }
  arm[2].inertia << 0.02, 0.001, -0.002, 0.001, 0.03, 0.0005, -0.002, 0.0005, 0.04;
  return arm;
}

std::vector<rk::DhJoint> random_arm(std::mt19937& rng, int n) {
  std::uniform_real_distribution<double> len(-0.5, 0.5), ang(-3, 3);
  std::bernoulli_distribution prismatic(0.25);
  std::vector<rk::DhJoint> arm(static_cast<std::size_t>(n));
  for (auto& j : arm) {
    j.a = len(rng);
    j.alpha = ang(rng);
    j.d = len(rng);
    j.theta = ang(rng);
    if (prismatic(rng)) j.motion = rk::JointMotion::prismatic;
  }
  return arm;
}

std::vector<double> random_angles(std::mt19937& rng, std::size_t n) {
  std::uniform_real_distribution<double> a(-2.5, 2.5);
  std::vector<double> q(n);
  for (double& v : q) v = a(rng);
  return q;
}

}  // namespace

TEST(KinematicsDh, TransformMatchesKdlDhFrames) {
  std::mt19937 rng(41);
  for (int trial = 0; trial < 50; ++trial) {
    const auto arm = random_arm(rng, 1);
    rk::DhJoint j = arm[0];
    j.motion = rk::JointMotion::revolute;
    const double q = random_angles(rng, 1)[0];
    EXPECT_LT(frame_error(rk::dh_transform(j, q, rk::DhConvention::standard),
                          KDL::Frame::DH(j.a, j.alpha, j.d, j.theta + q)), 1e-14);
    EXPECT_LT(frame_error(rk::dh_transform(j, q, rk::DhConvention::modified),
                          KDL::Frame::DH_Craig1989(j.a, j.alpha, j.d, j.theta + q)), 1e-14);
    j.motion = rk::JointMotion::prismatic;
    EXPECT_LT(frame_error(rk::dh_transform(j, q, rk::DhConvention::standard),
                          KDL::Frame::DH(j.a, j.alpha, j.d + q, j.theta)), 1e-14);
  }
}

TEST(KinematicsDh, PlanarArmHandComputed) {
  std::vector<rk::DhJoint> arm(2);
  arm[0].a = 1.0;
  arm[1].a = 0.5;
  const auto model = rk::KinematicModel::from_kdl_chain(rk::dh_chain(arm), "link0");
  rk::Workspace ws(model);
  const std::vector<double> q{std::numbers::pi / 2, -std::numbers::pi / 2};
  rk::forward_kinematics(model, ws, q);
  EXPECT_TRUE(ws.frame(2).translation().isApprox(Eigen::Vector3d(0.5, 1.0, 0.0), 1e-15));
  EXPECT_TRUE(ws.frame(1).translation().isApprox(Eigen::Vector3d(0.0, 1.0, 0.0), 1e-15));
}

TEST(KinematicsDh, ChainIsTheProductOfDhTransforms) {
  std::mt19937 rng(42);
  for (const auto convention : {rk::DhConvention::standard, rk::DhConvention::modified}) {
    for (int trial = 0; trial < 20; ++trial) {
      const auto arm = random_arm(rng, 1 + trial % 8);
      const KDL::Chain chain = rk::dh_chain(arm, convention);
      ASSERT_EQ(chain.getNrOfSegments(), arm.size());
      const auto model = rk::KinematicModel::from_kdl_chain(chain, "link0");
      rk::Workspace ws(model);
      const auto q = random_angles(rng, model.pose_size());
      rk::forward_kinematics(model, ws, q);
      KDL::ChainFkSolverPos_recursive fk(chain);
      KDL::JntArray qk(chain.getNrOfJoints());
      for (std::size_t i = 0; i < q.size(); ++i) qk(static_cast<unsigned int>(i)) = q[i];
      Eigen::Isometry3d x = Eigen::Isometry3d::Identity();
      for (std::size_t i = 0; i < arm.size(); ++i) {
        x = x * rk::dh_transform(arm[i], q[i], convention);
        EXPECT_TRUE(ws.frame(i + 1).isApprox(x, 1e-12)) << i;
        KDL::Frame f;
        ASSERT_GE(fk.JntToCart(qk, f, static_cast<int>(i) + 1), 0);
        EXPECT_LT(frame_error(x, f), 1e-12);
      }
    }
  }
}

TEST(KinematicsDh, UrdfFormAgreesWithChainForm) {
  std::mt19937 rng(43);
  std::vector<std::vector<rk::DhJoint>> arms{puma_like()};
  for (int i = 0; i < 6; ++i) arms.push_back(random_arm(rng, 2 + i));
  for (const auto convention : {rk::DhConvention::standard, rk::DhConvention::modified}) {
    for (const auto& arm : arms) {
      const std::string urdf = rk::dh_urdf(arm, convention, "dh_test");
      const auto robot = rmodel::Model::from_urdf_string(urdf, "dh_test.urdf");
      EXPECT_EQ(robot.robot_name(), "dh_test");
      ASSERT_EQ(robot.pose_size(), arm.size());
      const auto urdf_tree = rk::KinematicModel::from_model(robot);
      const auto dh = rk::KinematicModel::from_kdl_chain(rk::dh_chain(arm, convention), "link0");
      rk::Workspace wu(urdf_tree), wd(dh);
      for (int trial = 0; trial < 5; ++trial) {
        const auto q = random_angles(rng, arm.size());
        // The URDF pose is sorted by the model: place each joint's value by name.
        std::vector<double> full(robot.pose_size());
        for (std::size_t i = 0; i < arm.size(); ++i) full[robot.joint_index("joint" + std::to_string(i + 1))] = q[i];
        rk::forward_kinematics(urdf_tree, wu, full);
        rk::forward_kinematics(dh, wd, q);
        for (std::size_t i = 0; i <= arm.size(); ++i) {
          const std::string link = "link" + std::to_string(i);
          EXPECT_TRUE(wu.frame(urdf_tree.body_index(link)).isApprox(wd.frame(dh.body_index(link)), 1e-12))
              << link << "\n" << wu.frame(urdf_tree.body_index(link)).matrix() << "\n"
              << wd.frame(dh.body_index(link)).matrix();
        }
        // Same tip Jacobian (columns by joint name) and centre of mass.
        rk::Jacobian ju, jd;
        rk::jacobian(urdf_tree, wu, urdf_tree.body_index("link" + std::to_string(arm.size())), ju);
        rk::jacobian(dh, wd, dh.tip(), jd);
        for (std::size_t i = 0; i < arm.size(); ++i)
          EXPECT_LT((ju.col(static_cast<Eigen::Index>(robot.joint_index("joint" + std::to_string(i + 1)))) -
                     jd.col(static_cast<Eigen::Index>(i))).cwiseAbs().maxCoeff(), 1e-12);
        if (dh.total_mass() > 0) {
          EXPECT_NEAR(urdf_tree.total_mass(), dh.total_mass(), 1e-12);
          EXPECT_LT((rk::center_of_mass(urdf_tree, wu) - rk::center_of_mass(dh, wd)).cwiseAbs().maxCoeff(), 1e-12);
        }
      }
      // Inertia tensors survive both routes.
      for (std::size_t i = 1; i <= arm.size(); ++i) {
        const std::string link = "link" + std::to_string(i);
        const auto& a = urdf_tree.body(urdf_tree.body_index(link)).inertial;
        const auto& b = dh.body(dh.body_index(link)).inertial;
        EXPECT_NEAR(a.mass, b.mass, 1e-12);
        EXPECT_LT((a.inertia - b.inertia).cwiseAbs().maxCoeff(), 1e-12) << link;
      }
    }
  }
}

TEST(KinematicsDh, UrdfNamesAndTypes) {
  const auto arm = puma_like();
  const std::string urdf = rk::dh_urdf(arm);
  const auto robot = rmodel::Model::from_urdf_string(urdf, "puma.urdf");
  EXPECT_EQ(robot.root_link(), "link0");
  EXPECT_EQ(robot.links().size(), 2 * arm.size() + 1);
  ASSERT_NE(robot.find_urdf_joint("joint6"), nullptr);
  EXPECT_EQ(robot.find_urdf_joint("joint6")->type, rmodel::JointType::prismatic);
  EXPECT_EQ(robot.find_urdf_joint("joint1")->type, rmodel::JointType::revolute);
  EXPECT_EQ(robot.find_urdf_joint("joint1_fixed")->type, rmodel::JointType::fixed);
  EXPECT_DOUBLE_EQ(robot.find_urdf_joint("joint6")->upper, 0.5);
}

TEST(KinematicsDh, TheRobotsNameIsWrittenAsAnAttributeValue) {
  // A name with the characters XML gives a meaning to: the URDF reads, and names the robot so.
  for (const std::string name : {"arm \"7\" <&> 'x'", "two\nlines\tand a tab"}) {
    const std::string urdf = rk::dh_urdf(puma_like(), rk::DhConvention::standard, name);
    EXPECT_EQ(rmodel::Model::from_urdf_string(urdf, "dh.urdf").robot_name(), name) << urdf.substr(0, 80);
  }
}
