// Fixed-root dynamics against closed forms and physical laws: the single and the double
// pendulum, energy balance with gravity off (d/dt ½q̇ᵀMq̇ = q̇ᵀτ), M symmetric positive
// definite and consistent with the inverse dynamics, the per-body torque mapping, and the
// errors of the entry points.

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "dynamics_support.hpp"
#include "rmodel/kinematics/dynamics.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rd = rmodel::dynamics;
using rmodel::test::random_values;

namespace {

constexpr double kG = 9.81;

/// A link hanging from the joint `joint` (axis y) of `parent` at `xyz`, its centre of mass
/// `c` below the joint, with mass m and moment of inertia `iyy` about the y axis through it.
std::string hanging_link(const std::string& name, const std::string& parent, const std::string& xyz, double c,
                         double m, double iyy) {
  return fmt::format(
      "  <link name=\"{0}\"><inertial><origin xyz=\"0 0 {1}\"/><mass value=\"{2}\"/>"
      "<inertia ixx=\"{3}\" ixy=\"0\" ixz=\"0\" iyy=\"{3}\" iyz=\"0\" izz=\"{4}\"/></inertial></link>\n"
      "  <joint name=\"{0}_joint\" type=\"revolute\"><parent link=\"{5}\"/><child link=\"{0}\"/>"
      "<origin xyz=\"{6}\"/><axis xyz=\"0 1 0\"/><limit lower=\"-10\" upper=\"10\" effort=\"100\" velocity=\"10\"/>"
      "</joint>\n",
      name, -c, m, iyy, 0.5 * iyy, parent, xyz);
}

rmodel::Model urdf_model(const std::string& links) {
  return rmodel::Model::from_urdf_string("<robot name=\"r\">\n  <link name=\"base\"/>\n" + links + "</robot>\n",
                                         "pendulum.urdf");
}

}  // namespace

TEST(DynamicsAnalytic, SinglePendulum) {
  // τ = (I + m c²) q̈ + m g c sin q: the link hangs along −z at q = 0 and swings about y.
  const double m = 1.7, c = 0.42, iyy = 0.013;
  const auto model = urdf_model(hanging_link("arm", "base", "0 0 0", c, m, iyy));
  const auto km = rd::KinematicModel::from_model(model);
  rd::DynamicsWorkspace ws(km);
  std::mt19937 rng(1);
  std::vector<double> tau(1);
  Eigen::MatrixXd M;
  for (int trial = 0; trial < 20; ++trial) {
    const auto v = random_values(rng, 3, 3.0);
    const std::vector<double> q{v[0]}, qd{v[1]}, qdd{v[2]};
    rd::inverse_dynamics(km, ws, q, qd, qdd, tau);
    const double expected = (iyy + m * c * c) * qdd[0] + m * kG * c * std::sin(q[0]);
    EXPECT_NEAR(tau[0], expected, 1e-12);
    rd::gravity_torques(km, ws, q, tau);
    EXPECT_NEAR(tau[0], m * kG * c * std::sin(q[0]), 1e-12);
    rd::coriolis_torques(km, ws, q, qd, tau);
    EXPECT_NEAR(tau[0], 0.0, 1e-12);
    rd::mass_matrix(km, ws, q, M);
    EXPECT_NEAR(M(0, 0), iyy + m * c * c, 1e-12);
  }
}

TEST(DynamicsAnalytic, DoublePendulum) {
  // The planar double pendulum (angles from the hanging position, the second relative):
  //   M11 = I1 + I2 + m1 c1² + m2 (l1² + c2² + 2 l1 c2 cos θ2),  M12 = I2 + m2 (c2² + l1 c2 cos θ2),
  //   M22 = I2 + m2 c2²,  h = m2 l1 c2 sin θ2,
  //   τ1 = M11 θ̈1 + M12 θ̈2 − h (2 θ̇1 θ̇2 + θ̇2²) + g ((m1 c1 + m2 l1) sin θ1 + m2 c2 sin(θ1 + θ2)),
  //   τ2 = M12 θ̈1 + M22 θ̈2 + h θ̇1² + g m2 c2 sin(θ1 + θ2).
  const double m1 = 2.1, c1 = 0.23, i1 = 0.031, l1 = 0.5;
  const double m2 = 0.8, c2 = 0.31, i2 = 0.007;
  const auto model = urdf_model(hanging_link("upper", "base", "0 0 0", c1, m1, i1) +
                                hanging_link("lower", "upper", fmt::format("0 0 {}", -l1), c2, m2, i2));
  const auto km = rd::KinematicModel::from_model(model);
  ASSERT_EQ(km.pose_size(), 2u);
  const auto first = *model.find_joint_index("upper_joint");
  const auto second = *model.find_joint_index("lower_joint");
  rd::DynamicsWorkspace ws(km);
  std::mt19937 rng(2);
  std::vector<double> tau(2), q(2), qd(2), qdd(2);
  Eigen::MatrixXd M;
  for (int trial = 0; trial < 20; ++trial) {
    const auto v = random_values(rng, 6, 3.0);
    const double t1 = v[0], t2 = v[1], d1 = v[2], d2 = v[3], a1 = v[4], a2 = v[5];
    q[first] = t1, q[second] = t2, qd[first] = d1, qd[second] = d2, qdd[first] = a1, qdd[second] = a2;
    const double m11 = i1 + i2 + m1 * c1 * c1 + m2 * (l1 * l1 + c2 * c2 + 2 * l1 * c2 * std::cos(t2));
    const double m12 = i2 + m2 * (c2 * c2 + l1 * c2 * std::cos(t2));
    const double m22 = i2 + m2 * c2 * c2;
    const double h = m2 * l1 * c2 * std::sin(t2);
    const double g1 = kG * ((m1 * c1 + m2 * l1) * std::sin(t1) + m2 * c2 * std::sin(t1 + t2));
    const double g2 = kG * m2 * c2 * std::sin(t1 + t2);
    rd::inverse_dynamics(km, ws, q, qd, qdd, tau);
    EXPECT_NEAR(tau[first], m11 * a1 + m12 * a2 - h * (2 * d1 * d2 + d2 * d2) + g1, 1e-12);
    EXPECT_NEAR(tau[second], m12 * a1 + m22 * a2 + h * d1 * d1 + g2, 1e-12);
    rd::mass_matrix(km, ws, q, M);
    EXPECT_NEAR(M(first, first), m11, 1e-12);
    EXPECT_NEAR(M(first, second), m12, 1e-12);
    EXPECT_NEAR(M(second, first), m12, 1e-12);
    EXPECT_NEAR(M(second, second), m22, 1e-12);
  }
}

TEST(DynamicsAnalytic, EnergyBalanceWithGravityOff) {
  // Along q(t) = q0 + A sin(ωt + φ): d/dt ½q̇ᵀM(q)q̇, by central differences, equals q̇ᵀτ with
  // τ = M q̈ + C q̇ (gravity off), the power the joints put in.
  RMODEL_REQUIRE_FIXTURES();
  for (const auto& f : rmodel::test::dynamics_fixtures()) {
    SCOPED_TRACE(f.name);
    const auto model = rmodel::test::load_fixture(f);
    const auto km = rd::KinematicModel::from_model(model);
    rd::DynamicsWorkspace ws(km);
    const std::size_t n = km.pose_size();
    std::mt19937 rng(404);
    const auto q0 = random_values(rng, n, 1.0);
    const auto amplitude = random_values(rng, n, 0.8);
    const auto omega = random_values(rng, n, 3.0);
    const auto phase = random_values(rng, n, 3.0);
    auto motion = [&](double t, std::vector<double>& q, std::vector<double>& qd, std::vector<double>& qdd) {
      for (std::size_t i = 0; i < n; ++i) {
        const double s = std::sin(omega[i] * t + phase[i]), c = std::cos(omega[i] * t + phase[i]);
        q[i] = q0[i] + amplitude[i] * s;
        qd[i] = amplitude[i] * omega[i] * c;
        qdd[i] = -amplitude[i] * omega[i] * omega[i] * s;
      }
    };
    std::vector<double> q(n), qd(n), qdd(n), tau(n);
    Eigen::MatrixXd M;
    auto energy = [&](double t) {
      motion(t, q, qd, qdd);
      rd::mass_matrix(km, ws, q, M);
      const Eigen::Map<const Eigen::VectorXd> v(qd.data(), static_cast<Eigen::Index>(n));
      return 0.5 * v.dot(M * v);
    };
    for (const double t : {0.0, 0.37, 1.1}) {
      const double step = 1e-5;
      const double rate = (energy(t + step) - energy(t - step)) / (2 * step);
      motion(t, q, qd, qdd);
      rd::inverse_dynamics(km, ws, q, qd, qdd, tau, Eigen::Vector3d::Zero());
      double power = 0.0;
      for (std::size_t i = 0; i < n; ++i) power += qd[i] * tau[i];
      EXPECT_NEAR(rate, power, 1e-6 * (1.0 + std::abs(power))) << "t = " << t;
    }
  }
}

TEST(DynamicsAnalytic, MassMatrixIsSymmetricPositiveDefiniteAndGivesTheInertialTorques) {
  RMODEL_REQUIRE_FIXTURES();
  auto fixtures = rmodel::test::dynamics_fixtures();
  for (const auto& f : fixtures) {
    SCOPED_TRACE(f.name);
    const auto model = rmodel::test::load_fixture(f);
    const auto km = rd::KinematicModel::from_model(model);
    rd::DynamicsWorkspace ws(km);
    const std::size_t n = km.pose_size();
    std::mt19937 rng(8);
    Eigen::MatrixXd M;
    std::vector<double> tau(n);
    const std::vector<double> zero(n, 0.0);
    for (int trial = 0; trial < 5; ++trial) {
      const auto q = random_values(rng, n, 2.0);
      const auto qdd = random_values(rng, n, 5.0);
      rd::mass_matrix(km, ws, q, M);
      EXPECT_EQ(M, M.transpose());
      // Joints that move a mass: a positive diagonal; on those M is positive definite.
      std::vector<Eigen::Index> moving;
      for (Eigen::Index i = 0; i < M.rows(); ++i)
        if (M(i, i) > 0) moving.push_back(i);
      EXPECT_GT(moving.size(), n / 2);
      Eigen::MatrixXd sub(moving.size(), moving.size());
      for (std::size_t r = 0; r < moving.size(); ++r)
        for (std::size_t c = 0; c < moving.size(); ++c) sub(r, c) = M(moving[r], moving[c]);
      const Eigen::LLT<Eigen::MatrixXd> llt(sub);
      EXPECT_EQ(llt.info(), Eigen::Success);
      EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(sub).eigenvalues().minCoeff(), 0.0);
      // M q̈ = τ(q, 0, q̈) with gravity off.
      rd::inverse_dynamics(km, ws, q, zero, qdd, tau, Eigen::Vector3d::Zero());
      const Eigen::VectorXd expected = M * Eigen::Map<const Eigen::VectorXd>(qdd.data(), static_cast<Eigen::Index>(n));
      for (std::size_t i = 0; i < n; ++i)
        EXPECT_NEAR(tau[i], expected(static_cast<Eigen::Index>(i)), 1e-9 * (1.0 + expected.cwiseAbs().maxCoeff()));
    }
  }
}

TEST(DynamicsAnalytic, InverseDynamicsIsTheSumOfItsParts) {
  // τ(q, q̇, q̈) = M q̈ + C q̇ + g, each part from its own entry point.
  const auto model = rmodel::test::pony();
  const auto km = rd::KinematicModel::from_model(model);
  rd::DynamicsWorkspace ws(km);
  const std::size_t n = km.pose_size();
  std::mt19937 rng(12);
  std::vector<double> tau(n), gravity(n), coriolis(n);
  Eigen::MatrixXd M;
  for (int trial = 0; trial < 5; ++trial) {
    const auto q = random_values(rng, n, 2.0);
    const auto qd = random_values(rng, n, 3.0);
    const auto qdd = random_values(rng, n, 6.0);
    rd::inverse_dynamics(km, ws, q, qd, qdd, tau);
    rd::gravity_torques(km, ws, q, gravity);
    rd::coriolis_torques(km, ws, q, qd, coriolis);
    rd::mass_matrix(km, ws, q, M);
    const Eigen::VectorXd inertial = M * Eigen::Map<const Eigen::VectorXd>(qdd.data(), static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i)
      EXPECT_NEAR(tau[i], inertial(static_cast<Eigen::Index>(i)) + coriolis[i] + gravity[i], 1e-11);
  }
}

TEST(DynamicsAnalytic, JointTorqueIsPerUnitOfTheJointsOwnAngle) {
  // A KDL joint of scale 2 turns 2q: its pose-slot torque is twice the torque about its axis.
  // The mass hangs 0.5 m below the joint (its centre is given in the segment's tip frame).
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("arm", KDL::Joint("j", KDL::Joint::RotY, 2.0), KDL::Frame(KDL::Vector(0, 0, -1)),
                                KDL::RigidBodyInertia(3.0, KDL::Vector(0, 0, 0.5))));
  const auto km = rd::KinematicModel::from_kdl_chain(chain);
  rd::DynamicsWorkspace ws(km);
  const std::vector<double> q{0.3};
  std::vector<double> tau(1);
  rd::gravity_torques(km, ws, q, tau);
  const double about_axis = 3.0 * kG * 0.5 * std::sin(0.6);
  EXPECT_NEAR(ws.joint_torque(1), about_axis, 1e-12);
  EXPECT_NEAR(tau[0], 2.0 * about_axis, 1e-12);
  EXPECT_EQ(ws.joint_torque(0), 0.0);
}

TEST(DynamicsAnalytic, EntryPointsCheckSizesAndWorkspace) {
  const auto model = rmodel::test::pony();
  const auto km = rd::KinematicModel::from_model(model);
  const auto other = rd::KinematicModel::from_model(model);
  rd::DynamicsWorkspace ws(km);
  const std::size_t n = km.pose_size();
  std::vector<double> q(n), tau(n), short_one(n - 1);
  Eigen::MatrixXd M;
  EXPECT_THROW(rd::inverse_dynamics(km, ws, short_one, q, q, tau), rmodel::SizeMismatch);
  EXPECT_THROW(rd::inverse_dynamics(km, ws, q, short_one, q, tau), rmodel::SizeMismatch);
  EXPECT_THROW(rd::inverse_dynamics(km, ws, q, q, short_one, tau), rmodel::SizeMismatch);
  EXPECT_THROW(rd::gravity_torques(km, ws, q, short_one), rmodel::SizeMismatch);
  EXPECT_THROW(rd::coriolis_torques(km, ws, q, short_one, tau), rmodel::SizeMismatch);
  EXPECT_THROW(rd::mass_matrix(km, ws, short_one, M), rmodel::SizeMismatch);
  EXPECT_THROW(rd::gravity_torques(other, ws, q, tau), rmodel::InvalidArgument);
  EXPECT_THROW(rd::mass_matrix(other, ws, q, M), rmodel::InvalidArgument);
  EXPECT_TRUE(ws.belongs_to(km));
  EXPECT_FALSE(ws.belongs_to(other));
}
