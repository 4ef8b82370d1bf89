// Loading a model does not open KDL (lib/src/base/lazy_kdl.cpp): the joint origins are
// computed without KDL's Rotation::Quaternion, and the KDL tree and chains are built on the
// first call of kdl_tree() or kdl_chain(). Checked here: the origins are bit for bit what
// KDL computes from the quaternions urdfdom reads (the oracle: urdfdom and KDL, called by
// the test), on the sample robot, on every fixture robot and on joints with random and
// singular angles; roll, pitch and yaw are GetRPY's, bit for bit; and the lazily built view
// is one, whichever threads ask for it.
// (That no KDL is opened is checked on the command: libraries_linked_for_start_up.)
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <kdl/frames.hpp>
#include <urdf_parser/urdf_parser.h>

#include "rmodel/kinematics/forward_kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;
using test::sample;

/// Every joint origin of `model` against KDL::Rotation::Quaternion of the quaternion urdfdom
/// reads from the same text: the nine numbers of each rotation, compared as bits.
void expect_origins_bitwise_kdls(const std::string& urdf_text, const Model& model) {
  const urdf::ModelInterfaceSharedPtr oracle = urdf::parseURDF(urdf_text);
  ASSERT_TRUE(oracle) << "urdfdom rejects the test's URDF";
  ASSERT_EQ(model.urdf_joints().size(), oracle->joints_.size());
  for (const auto& [name, joint] : oracle->joints_) {
    const JointInfo* ours = model.find_urdf_joint(name);
    ASSERT_NE(ours, nullptr) << name;
    const auto& q = joint->parent_to_joint_origin_transform.rotation;
    const KDL::Rotation expected = KDL::Rotation::Quaternion(q.x, q.y, q.z, q.w);
    for (int i = 0; i < 9; ++i)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(ours->origin.M.data[i]), std::bit_cast<std::uint64_t>(expected.data[i]))
          << "joint " << name << ", element " << i << ": " << ours->origin.M.data[i] << " vs " << expected.data[i];
  }
}

TEST(KdlOnDemand, SampleRobotOriginsAreKdlsBitForBit) {
  const std::string text = read_file(sample("pony.urdf"));
  expect_origins_bitwise_kdls(text, Model::from_urdf_string(text, "pony.urdf"));
}

TEST(KdlOnDemand, FixtureRobotOriginsAreKdlsBitForBit) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* robot : {"example_robot_data/talos_reduced.urdf", "example_robot_data/panda.urdf",
                            "example_robot_data/solo12.urdf", "sweetie_bot_proto2/sweetie_bot_proto2.urdf"}) {
    SCOPED_TRACE(robot);
    const std::string text = read_file(fixture(robot));
    expect_origins_bitwise_kdls(text, Model::from_urdf_string(text, robot));
  }
}

TEST(KdlOnDemand, RandomAndSingularAnglesAreKdlsBitForBit) {
  // A line of fixed joints, each with its own rpy: random angles in [-2π, 2π], and the
  // angles where the quaternion has zeros, ones and halves (multiples of π/2, gimbal lock).
  std::mt19937_64 random(20261126);
  std::uniform_real_distribution<double> angle(-2 * M_PI, 2 * M_PI);
  const double special[] = {0.0, -0.0, M_PI_2, -M_PI_2, M_PI, -M_PI, M_PI_4, 3 * M_PI_2, 1e-300, 1e-9};
  std::vector<std::array<double, 3>> rpys;
  for (double r : special)
    for (double p : special)
      for (double y : special) rpys.push_back({r, p, y});
  for (int i = 0; i < 2000; ++i) rpys.push_back({angle(random), angle(random), angle(random)});
  std::string urdf = "<robot name=\"angles\">\n<link name=\"l0\"/>\n";
  for (std::size_t i = 0; i < rpys.size(); ++i)
    urdf += fmt::format(
        "<link name=\"l{0}\"/><joint name=\"j{0}\" type=\"fixed\"><parent link=\"l{1}\"/><child link=\"l{0}\"/>"
        "<origin xyz=\"0 0 0.1\" rpy=\"{2} {3} {4}\"/></joint>\n",
        i + 1, i, rpys[i][0], rpys[i][1], rpys[i][2]);
  urdf += "</robot>\n";
  expect_origins_bitwise_kdls(urdf, Model::from_urdf_string(urdf, "angles.urdf"));
}

TEST(KdlOnDemand, RollPitchYawIsKdlsGetRpyBitForBit) {
  // Rotations from random angles and random quaternions, the gimbal locks (pitch ±π/2, and
  // within KDL's 1e-12 of it, on both sides), and the axis-aligned turns with their signed
  // zeros.
  std::mt19937_64 random(20261127);
  std::uniform_real_distribution<double> angle(-M_PI, M_PI), unit(-1.0, 1.0);
  std::vector<KDL::Rotation> rotations;
  for (int i = 0; i < 3000; ++i) {
    rotations.push_back(KDL::Rotation::RPY(angle(random), angle(random), angle(random)));
    rotations.push_back(KDL::Rotation::Quaternion(unit(random), unit(random), unit(random), unit(random)));
  }
  for (double near : {0.0, 1e-13, -1e-13, 1e-12, 2e-12, 1e-9})
    for (double sign : {1.0, -1.0})
      rotations.push_back(KDL::Rotation::RPY(angle(random), sign * (M_PI_2 - near), angle(random)));
  for (double r : {0.0, M_PI_2, M_PI, -M_PI_2})
    for (double p : {0.0, M_PI_2, M_PI, -M_PI_2})
      for (double y : {0.0, M_PI_2, M_PI, -M_PI_2}) rotations.push_back(KDL::Rotation::RPY(r, p, y));
  for (const KDL::Rotation& rotation : rotations) {
    double roll = 0, pitch = 0, yaw = 0;
    rotation.GetRPY(roll, pitch, yaw);
    Eigen::Matrix3d m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m(i, j) = rotation(i, j);
    const auto ours = kinematics::roll_pitch_yaw(m);
    const double expected[3] = {roll, pitch, yaw};
    for (int k = 0; k < 3; ++k)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(ours[k]), std::bit_cast<std::uint64_t>(expected[k]))
          << "angle " << k << ": " << ours[k] << " vs " << expected[k] << " for\n" << m;
  }
}

TEST(KdlOnDemand, ViewIsBuiltOnceWhicheverThreadsAskFirst) {
  const Model model = Model::load({sample("pony.urdf").string(), sample("pony.json").string(), std::nullopt});
  const std::string chain = model.chains().front().name;
  constexpr int kThreads = 8;
  std::vector<const KDL::Tree*> trees(kThreads);
  std::vector<const KDL::Chain*> chains(kThreads);
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        // Half ask for a chain first, half for the tree: both build the same view.
        if (t % 2) chains[t] = &model.kdl_chain(chain);
        trees[t] = &model.kdl_tree();
        if (t % 2 == 0) chains[t] = &model.kdl_chain(chain);
      });
  }
  for (int t = 1; t < kThreads; ++t) {
    EXPECT_EQ(trees[t], trees[0]);
    EXPECT_EQ(chains[t], chains[0]);
  }
  // One segment per link but the root; the chain's movable joints are the chain's pose.
  EXPECT_EQ(trees[0]->getNrOfSegments() + 1, model.links().size());
  EXPECT_EQ(chains[0]->getNrOfJoints(), model.chains().front().joint_indices.size());
}

}  // namespace
}  // namespace rmodel
