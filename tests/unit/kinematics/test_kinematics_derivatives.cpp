// First and second partial derivatives of link transforms: finite differences of the
// frames, and the substitution rule of the original design written out literally.

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rmodel/base/error.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "kdl_support.hpp"
#include "test_support.hpp"

namespace rk = rmodel::kinematics;

namespace {

using rmodel::test::random_frame;
using rmodel::test::random_unit;



KDL::Segment random_segment(std::mt19937& rng, const std::string& name) {
  std::uniform_int_distribution<int> pick(0, 6);
  std::uniform_real_distribution<double> l(-0.2, 0.2);
  const KDL::Frame tip = random_frame(rng);
  const std::string jn = name + "_joint";
  switch (pick(rng)) {
    case 0:
      return KDL::Segment(name, KDL::Joint(jn, tip.p, tip.M * random_unit(rng), KDL::Joint::RotAxis), tip);
    case 1:
      return KDL::Segment(name, KDL::Joint(jn, tip.p, tip.M * random_unit(rng), KDL::Joint::TransAxis), tip);
    case 2:
      return KDL::Segment(name, KDL::Joint(jn, KDL::Joint::Fixed), tip);
    case 3:
      return KDL::Segment(name, KDL::Joint(jn, KDL::Vector(l(rng), l(rng), l(rng)), random_unit(rng), KDL::Joint::RotAxis, 1.5, 0.2), tip);
    case 4:
      return KDL::Segment(name, KDL::Joint(jn, KDL::Joint::RotY, -2.0, 0.3), tip);
    case 5:
      return KDL::Segment(name, KDL::Joint(jn, KDL::Joint::TransZ, 0.5, 0.1), tip);
    default:
      return KDL::Segment(name, KDL::Joint(jn, tip.p, tip.M * KDL::Vector(1, 0, 0), KDL::Joint::RotAxis), tip);
  }
}

KDL::Tree random_tree(std::mt19937& rng, int segments) {
  KDL::Tree tree("root");
  std::vector<std::string> names{"root"};
  for (int i = 0; i < segments; ++i) {
    std::uniform_int_distribution<std::size_t> parent(0, names.size() - 1);
    const std::string name = "t" + std::to_string(i);
    tree.addSegment(random_segment(rng, name), names[parent(rng)]);
    names.push_back(name);
  }
  return tree;
}

std::vector<double> random_pose(std::mt19937& rng, std::size_t n) {
  std::uniform_real_distribution<double> a(-2.5, 2.5);
  std::vector<double> q(n);
  for (double& v : q) v = a(rng);
  return q;
}

/// Every body's 4×4 frame at q.
std::vector<Eigen::Matrix4d> frames_at(const rk::KinematicModel& model, rk::Workspace& ws,
                                       const std::vector<double>& q) {
  rk::forward_kinematics(model, ws, q);
  std::vector<Eigen::Matrix4d> out;
  for (const auto& f : ws.frames()) out.push_back(f.matrix());
  return out;
}

/// Checks the workspace's first and second derivatives against central differences of
/// the frames (h = 1e-5 for first, 1e-4 for second derivatives).
void expect_derivatives_match_finite_differences(const rk::KinematicModel& model,
                                                 const std::vector<double>& q0,
                                                 double tolerance = 1e-6) {
  rk::Workspace ws(model, rk::DerivativeOrder::second);
  rk::Workspace scratch(model);
  rk::forward_kinematics(model, ws, q0);
  rk::frame_derivatives(model, ws, rk::DerivativeOrder::second);
  const std::size_t n = model.pose_size();
  const double h1 = 1e-5, h2 = 1e-4;
  double worst1 = 0, worst2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    auto qp = q0, qm = q0;
    qp[i] += h1;
    qm[i] -= h1;
    const auto fp = frames_at(model, scratch, qp), fm = frames_at(model, scratch, qm);
    for (std::size_t b = 0; b < model.size(); ++b) {
      const Eigen::Matrix4d fd = (fp[b] - fm[b]) / (2 * h1);
      const double e = (fd - ws.frame_derivative(b, i)).cwiseAbs().maxCoeff();
      worst1 = std::max(worst1, e);
      EXPECT_LT(e, tolerance) << "body " << model.bodies()[b].name << " slot " << i;
      EXPECT_TRUE(ws.frame_derivative(b, i).row(3).isZero(0.0));
    }
  }
  const auto f0 = frames_at(model, scratch, q0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i; j < n; ++j) {
      std::vector<Eigen::Matrix4d> fd(model.size());
      if (i == j) {
        auto qp = q0, qm = q0;
        qp[i] += h2;
        qm[i] -= h2;
        const auto fp = frames_at(model, scratch, qp), fm = frames_at(model, scratch, qm);
        for (std::size_t b = 0; b < model.size(); ++b) fd[b] = (fp[b] - 2 * f0[b] + fm[b]) / (h2 * h2);
      } else {
        auto qpp = q0, qpm = q0, qmp = q0, qmm = q0;
        qpp[i] += h2, qpp[j] += h2;
        qpm[i] += h2, qpm[j] -= h2;
        qmp[i] -= h2, qmp[j] += h2;
        qmm[i] -= h2, qmm[j] -= h2;
        const auto a = frames_at(model, scratch, qpp), b2 = frames_at(model, scratch, qpm),
                   c = frames_at(model, scratch, qmp), d = frames_at(model, scratch, qmm);
        for (std::size_t b = 0; b < model.size(); ++b) fd[b] = (a[b] - b2[b] - c[b] + d[b]) / (4 * h2 * h2);
      }
      for (std::size_t b = 0; b < model.size(); ++b) {
        const double e = (fd[b] - ws.frame_second_derivative(b, i, j)).cwiseAbs().maxCoeff();
        worst2 = std::max(worst2, e);
        EXPECT_LT(e, tolerance) << "body " << model.bodies()[b].name << " slots " << i << "," << j;
        EXPECT_EQ(ws.frame_second_derivative(b, i, j), ws.frame_second_derivative(b, j, i));
      }
    }
  }
  ::testing::Test::RecordProperty("worst_first", std::to_string(worst1));
  ::testing::Test::RecordProperty("worst_second", std::to_string(worst2));
}

Eigen::Matrix3d hat(const Eigen::Vector3d& u) {
  Eigen::Matrix3d m;
  m << 0, -u.z(), u.y(), u.z(), 0, -u.x(), -u.y(), u.x(), 0;
  return m;
}

/// Joint transform origin·R(axis, θ) of the design (θ = scale·q), or its first or second
/// derivative by q: origin·R·[u]^k·scale^k.
Eigen::Matrix4d joint_factor(const rk::Body& b, double q, int order) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  const double theta = b.scale * q;
  if (b.motion == rk::JointMotion::revolute) {
    Eigen::Matrix3d r = Eigen::AngleAxisd(theta, b.axis).toRotationMatrix();
    if (order >= 1) r = r * hat(b.axis) * b.scale;
    if (order >= 2) r = r * hat(b.axis) * b.scale;
    m.topLeftCorner<3, 3>() = r;
    if (order >= 1) m(3, 3) = 0;
  } else if (b.motion == rk::JointMotion::prismatic) {
    m.block<3, 1>(0, 3) = b.axis * theta;
    if (order == 1) {
      m.setZero();
      m.block<3, 1>(0, 3) = b.axis * b.scale;
    }
    if (order == 2) m.setZero();
  }
  Eigen::Matrix4d tip = Eigen::Matrix4d::Identity();
  tip.block<3, 1>(0, 3) = b.tip;
  return b.origin.matrix() * m * tip;
}

}  // namespace

TEST(KinematicsDerivatives, RandomTreesMatchFiniteDifferences) {
  std::mt19937 rng(31337);
  for (int trial = 0; trial < 8; ++trial) {
    const auto model = rk::KinematicModel::from_kdl_tree(random_tree(rng, 4 + 2 * trial));
    expect_derivatives_match_finite_differences(model, random_pose(rng, model.pose_size()));
  }
}

TEST(KinematicsDerivatives, SubstitutionRuleOfTheDesign) {
  // X_tip = Π_k origin_k·R(axis_k, θ_k); ∂/∂θi replaces the i-th factor by its derivative,
  // ∂²/∂θi∂θj both factors, or the i-th by its second derivative when i = j.
  std::mt19937 rng(2718);
  KDL::Chain chain;
  for (int i = 0; i < 7; ++i) chain.addSegment(random_segment(rng, "c" + std::to_string(i)));
  const auto model = rk::KinematicModel::from_kdl_chain(chain);
  rk::Workspace ws(model, rk::DerivativeOrder::second);
  const auto q = random_pose(rng, model.pose_size());
  rk::forward_kinematics(model, ws, q);
  rk::frame_derivatives(model, ws, model.tip(), rk::DerivativeOrder::second);
  auto product = [&](std::size_t i, int order_i, std::size_t j, int order_j) {
    Eigen::Matrix4d x = Eigen::Matrix4d::Identity();
    for (std::size_t k = 1; k < model.size(); ++k) {
      const rk::Body& b = model.bodies()[k];
      const double qk = b.q_index >= 0 ? q[static_cast<std::size_t>(b.q_index)] : 0.0;
      int order = 0;
      if (b.q_index >= 0 && static_cast<std::size_t>(b.q_index) == i) order += order_i;
      if (b.q_index >= 0 && static_cast<std::size_t>(b.q_index) == j) order += order_j;
      x = x * joint_factor(b, qk, order);
    }
    return x;
  };
  const std::size_t none = model.pose_size();
  EXPECT_LT((product(none, 0, none, 0) - ws.frame(model.tip()).matrix()).cwiseAbs().maxCoeff(), 1e-12);
  for (std::size_t i = 0; i < model.pose_size(); ++i) {
    EXPECT_LT((product(i, 1, none, 0) - ws.frame_derivative(model.tip(), i)).cwiseAbs().maxCoeff(), 1e-12) << i;
    for (std::size_t j = 0; j < model.pose_size(); ++j)
      EXPECT_LT((product(i, 1, j, 1) - ws.frame_second_derivative(model.tip(), i, j)).cwiseAbs().maxCoeff(), 1e-12)
          << i << "," << j;
  }
}

TEST(KinematicsDerivatives, PlanarArmHandComputed) {
  // One link of length l about z: x = l cos q, y = l sin q.
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("l", KDL::Joint("j", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(2.0, 0, 0))));
  const auto model = rk::KinematicModel::from_kdl_chain(chain);
  rk::Workspace ws(model, rk::DerivativeOrder::second);
  const std::vector<double> q{0.3};
  rk::forward_kinematics(model, ws, q);
  rk::frame_derivatives(model, ws, rk::DerivativeOrder::second);
  const double c = std::cos(0.3), s = std::sin(0.3);
  Eigen::Matrix4d d1, d2;
  d1 << -s, -c, 0, -2 * s, c, -s, 0, 2 * c, 0, 0, 0, 0, 0, 0, 0, 0;
  d2 << -c, s, 0, -2 * c, -s, -c, 0, -2 * s, 0, 0, 0, 0, 0, 0, 0, 0;
  EXPECT_TRUE(ws.frame_derivative(1, 0).isApprox(d1, 1e-15)) << ws.frame_derivative(1, 0);
  EXPECT_TRUE(ws.frame_second_derivative(1, 0, 0).isApprox(d2, 1e-15));
  EXPECT_TRUE(ws.frame_derivative(0, 0).isZero(0.0));  // the base does not move
}

TEST(KinematicsDerivatives, NeedStorageAndFrames) {
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("l", KDL::Joint("j", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(1, 0, 0))));
  const auto model = rk::KinematicModel::from_kdl_chain(chain);
  rk::Workspace plain(model);
  EXPECT_THROW(rk::frame_derivatives(model, plain, rk::DerivativeOrder::first), rmodel::InvalidArgument);
  EXPECT_THROW((void)plain.frame_derivative(1, 0), rmodel::InvalidArgument);
  rk::Workspace first(model, rk::DerivativeOrder::first);
  EXPECT_NO_THROW(rk::frame_derivatives(model, first, rk::DerivativeOrder::first));
  EXPECT_THROW(rk::frame_derivatives(model, first, rk::DerivativeOrder::second), rmodel::InvalidArgument);
  EXPECT_THROW((void)first.frame_second_derivative(1, 0, 0), rmodel::InvalidArgument);
  EXPECT_THROW((void)first.frame_derivative(1, 5), rmodel::InvalidArgument);
  EXPECT_THROW((void)first.frame_derivative(9, 0), rmodel::InvalidArgument);
  EXPECT_THROW(rk::frame_derivatives(model, first, 9, rk::DerivativeOrder::first), rmodel::InvalidArgument);
}

TEST(KinematicsDerivatives, FixtureChainsMatchFiniteDifferences) {
  RMODEL_REQUIRE_FIXTURES();
  rmodel::ModelSource src;
  src.urdf_path = rmodel::test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string();
  src.semantics_path = rmodel::test::fixture("sweetie_bot_proto2/kinematic_chains.cpf").string();
  const auto model = rmodel::Model::load(src);
  std::mt19937 rng(8);
  for (const char* chain : {"leg1", "head", "nose"}) {
    SCOPED_TRACE(chain);
    const auto km = rk::KinematicModel::from_chain(model, chain, true);
    expect_derivatives_match_finite_differences(km, random_pose(rng, km.pose_size()));
  }
}

TEST(KinematicsDerivatives, FixtureTreesMatchFiniteDifferences) {
  RMODEL_REQUIRE_FIXTURES();
  std::mt19937 rng(9);
  for (const char* urdf : {"example_robot_data/panda.urdf", "example_robot_data/talos_reduced.urdf"}) {
    SCOPED_TRACE(urdf);
    rmodel::ModelSource src;
    src.urdf_path = rmodel::test::fixture(urdf).string();
    const auto model = rmodel::Model::load(src);
    const auto km = rk::KinematicModel::from_model(model);
    expect_derivatives_match_finite_differences(km, random_pose(rng, km.pose_size()));
  }
}
