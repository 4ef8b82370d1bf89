// Building kinematic models: flattening, indices, inertials and setup errors.

#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rk = rmodel::kinematics;

namespace {

KDL::Tree small_tree() {
  // root ─┬─ a ─┬─ b
  //       │     └─ c (prismatic)
  //       └─ d (fixed) ── e
  KDL::Tree tree("root");
  const KDL::Frame f(KDL::Vector(0.1, 0, 0));
  tree.addSegment(KDL::Segment("a", KDL::Joint("ja", KDL::Joint::RotZ), f), "root");
  tree.addSegment(KDL::Segment("d", KDL::Joint("jd", KDL::Joint::Fixed), f), "root");
  tree.addSegment(KDL::Segment("b", KDL::Joint("jb", KDL::Joint::RotX), f), "a");
  tree.addSegment(KDL::Segment("c", KDL::Joint("jc", KDL::Joint::TransY), f), "a");
  tree.addSegment(KDL::Segment("e", KDL::Joint("je", KDL::Joint::RotY), f), "d");
  return tree;
}

}  // namespace

TEST(KinematicModel, FlattensTreeDepthFirstInTopologicalOrder) {
  const KDL::Tree tree = small_tree();
  const auto model = rk::KinematicModel::from_kdl_tree(tree);
  ASSERT_EQ(model.size(), 6u);
  std::vector<std::string> names;
  for (const auto& b : model.bodies()) names.push_back(b.name);
  EXPECT_EQ(names, (std::vector<std::string>{"root", "a", "b", "c", "d", "e"}));
  EXPECT_EQ(model.bodies()[0].parent, -1);
  for (std::size_t k = 1; k < model.size(); ++k) EXPECT_LT(model.bodies()[k].parent, static_cast<int>(k));
  EXPECT_EQ(model.body(model.body_index("e")).parent, static_cast<int>(model.body_index("d")));
  EXPECT_EQ(model.pose_size(), tree.getNrOfJoints());
  EXPECT_EQ(model.joint_count(), 4u);
  EXPECT_EQ(model.body(model.body_index("d")).motion, rk::JointMotion::fixed);
  EXPECT_EQ(model.body(model.body_index("c")).motion, rk::JointMotion::prismatic);
  EXPECT_EQ(model.body(model.body_index("b")).joint, "jb");
  // Pose slots are KDL's q_nr.
  for (const auto& b : model.bodies()) {
    if (b.q_index < 0) continue;
    EXPECT_EQ(static_cast<unsigned int>(b.q_index), GetTreeElementQNr(tree.getSegments().at(b.name)));
    EXPECT_EQ(model.joint_body(static_cast<std::size_t>(b.q_index)), model.find_body(b.name));
  }
  EXPECT_EQ(model.body(model.body_index("b")).depth, 2);
  EXPECT_EQ(model.body(model.body_index("e")).depth, 1);
  EXPECT_TRUE(model.is_ancestor(model.body_index("a"), model.body_index("c")));
  EXPECT_TRUE(model.is_ancestor(model.body_index("c"), model.body_index("c")));
  EXPECT_FALSE(model.is_ancestor(model.body_index("b"), model.body_index("c")));
  EXPECT_FALSE(model.is_ancestor(model.body_index("d"), model.body_index("a")));
}

TEST(KinematicModel, DescribesJointsAsOriginAxisScaleTip) {
  KDL::Chain chain;
  // URDF-like: axis through the tip's origin.
  const KDL::Frame f(KDL::Rotation::RPY(0.1, 0.2, 0.3), KDL::Vector(0.1, 0.2, 0.3));
  chain.addSegment(KDL::Segment("u", KDL::Joint("ju", f.p, f.M * KDL::Vector(0, 1, 0), KDL::Joint::RotAxis), f));
  // DH-like: rotation about z of the segment base, then an offset tip.
  chain.addSegment(KDL::Segment("dh", KDL::Joint("jdh", KDL::Joint::RotZ, -2.0, 0.5), KDL::Frame(KDL::Vector(0.4, 0, 0))));
  const auto model = rk::KinematicModel::from_kdl_chain(chain, "base");
  const rk::Body& u = model.body(1);
  EXPECT_TRUE(u.axis.isApprox(Eigen::Vector3d::UnitY(), 1e-14));
  EXPECT_TRUE(u.tip.isZero(0.0));
  EXPECT_DOUBLE_EQ(u.scale, 1.0);
  EXPECT_TRUE(u.origin.translation().isApprox(Eigen::Vector3d(0.1, 0.2, 0.3)));
  const rk::Body& dh = model.body(2);
  EXPECT_NEAR(dh.scale, -2.0, 1e-12);
  EXPECT_FALSE(dh.tip.isZero(1e-12));
  EXPECT_EQ(model.body(0).name, "base");
  EXPECT_EQ(model.find_body("nothing"), std::nullopt);
  EXPECT_THROW((void)model.body_index("nothing"), rmodel::NotFound);
  EXPECT_THROW((void)model.body(3), rmodel::InvalidArgument);
}

TEST(KinematicModel, PerPoseErrorsAreTypedAndCheap) {
  const auto model = rk::KinematicModel::from_kdl_tree(small_tree());
  const auto other = rk::KinematicModel::from_kdl_tree(small_tree());
  rk::Workspace ws(model);
  std::vector<double> q(model.pose_size(), 0.0);
  EXPECT_NO_THROW(rk::forward_kinematics(model, ws, q));
  const auto copy = model;  // copies share the data: the workspace still fits
  EXPECT_NO_THROW(rk::forward_kinematics(copy, ws, q));
  EXPECT_THROW(rk::forward_kinematics(other, ws, q), rmodel::InvalidArgument);
  std::vector<double> short_q(model.pose_size() - 1);
  EXPECT_THROW(rk::forward_kinematics(model, ws, short_q), rmodel::SizeMismatch);
  try {
    rk::forward_kinematics(model, ws, short_q);
  } catch (const rmodel::SizeMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("expected 4"), std::string::npos) << e.what();
  }
  rk::Jacobian J;
  EXPECT_THROW(rk::jacobian(model, ws, 99, J), rmodel::InvalidArgument);
  EXPECT_THROW(rk::jacobian(other, ws, 1, J), rmodel::InvalidArgument);
}

TEST(KinematicModel, FromFixtureModels) {
  RMODEL_REQUIRE_FIXTURES();
  rmodel::ModelSource src;
  src.urdf_path = rmodel::test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string();
  src.semantics_path = rmodel::test::fixture("sweetie_bot_proto2/kinematic_chains.cpf").string();
  const auto model = rmodel::Model::load(src);
  const auto tree = rk::KinematicModel::from_model(model);
  EXPECT_EQ(tree.size(), model.links().size());
  EXPECT_EQ(tree.pose_size(), model.pose_size());
  // Every pose slot is read by the body whose joint has that index.
  for (std::size_t i = 0; i < model.pose_size(); ++i) {
    const auto body = tree.joint_body(i);
    ASSERT_TRUE(body.has_value()) << model.joint_names()[i];
    EXPECT_EQ(tree.bodies()[*body].joint, model.joint_names()[i]);
  }
  const auto leg = rk::KinematicModel::from_chain(model, "leg1", true);
  const auto& chain = model.chain("leg1");
  EXPECT_EQ(leg.bodies()[0].name, chain.first_link);
  EXPECT_EQ(leg.bodies()[leg.tip()].name, chain.last_link_virtual);
  EXPECT_EQ(leg.pose_size(), chain.size(true));
  EXPECT_EQ(leg.joint_count(), chain.size(true));
  const auto leg_real = rk::KinematicModel::from_chain(model, "leg1", false);
  EXPECT_EQ(leg_real.bodies()[leg_real.tip()].name, chain.last_link);
  EXPECT_EQ(leg_real.pose_size(), chain.real_size);
  // Joints appear in chain order with chain-layout slots 0..n-1.
  const auto names = model.chain_joints("leg1", true);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto body = leg.joint_body(i);
    ASSERT_TRUE(body.has_value());
    EXPECT_EQ(leg.bodies()[*body].joint, names[i]);
  }
  EXPECT_THROW((void)rk::KinematicModel::from_chain(model, "no_such_chain"), rmodel::NotFound);
}

TEST(KinematicModel, JointPathAndAncestry) {
  const auto model = rk::KinematicModel::from_kdl_tree(small_tree());
  const auto b = model.body_index("b"), c = model.body_index("c"), e = model.body_index("e");
  EXPECT_EQ(model.joint_path(b), (std::vector<std::size_t>{model.body_index("a"), b}));
  EXPECT_EQ(model.joint_path(c), (std::vector<std::size_t>{model.body_index("a"), c}));
  EXPECT_EQ(model.joint_path(e), (std::vector<std::size_t>{e}));  // d is fixed
  EXPECT_TRUE(model.joint_path(0).empty());
  EXPECT_THROW((void)model.joint_path(model.size()), rmodel::InvalidArgument);
  for (std::size_t x = 0; x < model.size(); ++x)
    for (std::size_t y = 0; y < model.size(); ++y) {
      bool walk = false;
      for (int p = static_cast<int>(y); p >= 0; p = model.bodies()[static_cast<std::size_t>(p)].parent)
        walk = walk || static_cast<std::size_t>(p) == x;
      EXPECT_EQ(model.is_ancestor(x, y), walk) << x << " " << y;
    }
}

TEST(KinematicModel, LongLineBuildsAndRuns) {
  // A 10 000-link line: building is linear in memory, FK needs no recursion.
  KDL::Tree tree("l0");
  for (int i = 1; i <= 10000; ++i)
    tree.addSegment(KDL::Segment("l" + std::to_string(i), KDL::Joint("j" + std::to_string(i), KDL::Joint::RotZ),
                                 KDL::Frame(KDL::Vector(0.001, 0, 0))),
                    "l" + std::to_string(i - 1));
  const auto model = rk::KinematicModel::from_kdl_tree(tree);
  ASSERT_EQ(model.size(), 10001u);
  EXPECT_EQ(model.body(10000).depth, 10000);
  rk::Workspace ws(model);
  std::vector<double> q(model.pose_size(), 0.0);
  q[0] = std::numbers::pi / 2;
  rk::forward_kinematics(model, ws, q);
  EXPECT_NEAR(ws.frame(10000).translation().y(), 10.0, 1e-9);
  EXPECT_NEAR(ws.frame(10000).translation().x(), 0.0, 1e-9);
  rk::Jacobian J;
  rk::jacobian(model, ws, 10000, J);
  EXPECT_NEAR(J(0, 0), -10.0, 1e-9);
}

namespace {

/// from_model reads rmodel's own tables (no KDL); from_kdl_tree reads the model's KDL tree.
/// Both must describe the same bodies: same order, names, parents, joints and motions, the
/// same origins (bit for bit: a URDF joint's segment at q = 0 is its origin), axes and
/// scales to rounding, and the same link frames at random poses (slots matched by joint
/// name: the KDL tree numbers its joints in its own order).
void expect_from_model_matches_kdl_tree(const rmodel::Model& model) {
  const auto ours = rk::KinematicModel::from_model(model, rk::MimicJoints::from_pose);
  const auto kdl = rk::KinematicModel::from_kdl_tree(model.kdl_tree());
  ASSERT_EQ(ours.size(), kdl.size());
  std::vector<double> q_ours(ours.pose_size()), q_kdl(kdl.pose_size());
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> value(-2.0, 2.0);
  for (double& q : q_kdl) q = value(random);
  for (std::size_t k = 0; k < ours.size(); ++k) {
    const rk::Body& a = ours.bodies()[k];
    const rk::Body& b = kdl.bodies()[k];
    SCOPED_TRACE(a.name);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.parent, b.parent);
    EXPECT_EQ(a.motion, b.motion);
    if (a.motion == rk::JointMotion::fixed) continue;
    EXPECT_EQ(a.joint, b.joint);
    EXPECT_TRUE(a.origin.matrix() == b.origin.matrix()) << a.origin.matrix() << "\nvs\n" << b.origin.matrix();
    EXPECT_LT((a.axis - b.axis).norm(), 1e-15);
    EXPECT_NEAR(a.scale, b.scale, 1e-15);
    EXPECT_TRUE(b.tip.isZero(1e-15));
    if (a.q_index >= 0 && b.q_index >= 0) q_ours[static_cast<std::size_t>(a.q_index)] = q_kdl[static_cast<std::size_t>(b.q_index)];
  }
  rk::Workspace ws_ours(ours), ws_kdl(kdl);
  rk::forward_kinematics(ours, ws_ours, q_ours);
  rk::forward_kinematics(kdl, ws_kdl, q_kdl);
  for (std::size_t k = 0; k < ours.size(); ++k)
    EXPECT_LT((ws_ours.frame(k).matrix() - ws_kdl.frame(k).matrix()).cwiseAbs().maxCoeff(), 1e-12)
        << ours.bodies()[k].name;
}

}  // namespace

TEST(KinematicModel, FromModelMatchesTheModelsKdlTree) {
  expect_from_model_matches_kdl_tree(rmodel::Model::load(
      {rmodel::test::sample("pony.urdf").string(), rmodel::test::sample("pony.json").string(), std::nullopt}));
}

/// A line of joints of the three moving types, each with one of `axes`, under a rotated origin.
std::string line_with_axes(const std::vector<std::string>& axes) {
  const char* types[] = {"revolute", "prismatic", "continuous"};
  std::string urdf = "<robot name=\"axes\">\n<link name=\"l0\"/>\n";
  for (std::size_t i = 0; i < 3 * axes.size(); ++i)
    urdf += fmt::format(
        "<link name=\"l{0}\"/><joint name=\"j{0}\" type=\"{2}\"><parent link=\"l{1}\"/><child link=\"l{0}\"/>"
        "<origin xyz=\"0.1 0 0.05\" rpy=\"0.3 -0.2 0.1\"/><axis xyz=\"{3}\"/>"
        "<limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/></joint>\n",
        i + 1, i, types[i % 3], axes[i / 3]);
  return urdf + "</robot>\n";
}

TEST(KinematicModel, FromModelMatchesTheModelsKdlTreeOnAxesOfAnyLength) {
  // KDL normalises a joint's axis whatever its length (the loader rejects only an exact
  // zero), also when squaring it would overflow or underflow, and also below 1e-6 unless x
  // is its largest component (in the parent frame, here rotated by the origin).
  const auto model = rmodel::Model::from_urdf_string(
      line_with_axes({"0 0 2", "1 1 0", "-3 4 12", "2e-6 0 0", "0 0 1.5e-6", "1e200 1e200 0", "0.6 0 0.8",
                      "0 9.9e-7 0", "0 0 9.9e-7", "1e-150 1e-150 1e-150"}),
      "axes.urdf");
  expect_from_model_matches_kdl_tree(model);
  // Below 1e-6 along x, KDL's axis is infinite: both ways of building the bodies refuse it.
  for (const char* axis : {"1e-7 0 0", "9.9e-7 1e-8 0", "-5e-7 0 1e-9"}) {
    SCOPED_TRACE(axis);
    const auto tiny = rmodel::Model::from_urdf_string(line_with_axes({"0 0 1", axis}), "tiny.urdf");
    EXPECT_THROW((void)rk::KinematicModel::from_model(tiny), rmodel::InvalidArgument);
    EXPECT_THROW((void)rk::KinematicModel::from_kdl_tree(tiny.kdl_tree()), rmodel::InvalidArgument);
  }
}

TEST(KinematicModel, FromModelMatchesTheModelsKdlTreeOnFixtureRobots) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* robot : {"example_robot_data/talos_reduced.urdf", "example_robot_data/panda.urdf",
                            "example_robot_data/solo12.urdf", "sweetie_bot_proto2/sweetie_bot_proto2.urdf",
                            "sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf"}) {
    SCOPED_TRACE(robot);
    rmodel::ModelSource source;
    source.urdf_path = rmodel::test::fixture(robot).string();
    expect_from_model_matches_kdl_tree(rmodel::Model::load(source));
  }
}
