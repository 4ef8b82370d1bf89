// Legged robots: a floating base carried by its supporting chains. Oracles: statics of the
// whole robot (its weight through the centre of mass of the kinematics), the contact
// Jacobians of the kinematics (τ = g(q) − Σ Jᵢᵀfᵢ at rest), the definition of the weighted
// least-norm forces solved another way (KKT system about the base origin), the rate of
// change of the momentum by finite differences, a spinning rigid robot, and symmetry.

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <Eigen/LU>
#include <gtest/gtest.h>

#include "dynamics_support.hpp"
#include "rmodel/kinematics/dynamics.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rd = rmodel::dynamics;
namespace rk = rmodel::kinematics;
using rmodel::test::random_values;

namespace {

/// A legged robot with everything the floating-base calls need.
struct Legged {
  rmodel::Model model;
  rd::KinematicModel km;
  rd::SupportModel supports;
  rd::DynamicsWorkspace ws;
  std::vector<rd::ChainSupport> support;

  explicit Legged(rmodel::Model m)
      : model(std::move(m)),
        km(rd::KinematicModel::from_model(model)),
        supports(rd::SupportModel::from_model(model, km)),
        ws(km, supports.max_points()),
        support(supports.chains().size()) {
    // Every chain with a default contact stands on it.
    for (std::size_t c = 0; c < support.size(); ++c)
      if (supports.chains()[c].default_contact) support[c].coefficient = 1.0;
  }
  [[nodiscard]] std::size_t n() const { return km.pose_size(); }
};

std::vector<rmodel::Model> legged_robots() {
  std::vector<rmodel::Model> out{rmodel::test::pony()};
  if (rmodel::test::have_fixtures()) out.push_back(rmodel::test::load_fixture(rmodel::test::dynamics_fixtures()[0]));
  return out;
}

/// A random pose with the legs bent moderately (all joints within ±0.6 rad or m·0.6).
std::vector<double> moderate_pose(std::mt19937& rng, std::size_t n) { return random_values(rng, n, 0.6); }

const Eigen::Vector3d kGravity(0, 0, -9.81);

}  // namespace

TEST(DynamicsFloating, AtRestTheSupportingChainsCarryTheWeight) {
  // Σ fᵢ + M g = 0 and Σ pᵢ × fᵢ + c × M g = 0, c from the kinematics' centre of mass.
  for (auto& robot : legged_robots()) {
    SCOPED_TRACE(robot.robot_name());
    Legged r(robot);
    rk::Workspace kin(r.km);
    std::mt19937 rng(7);
    const std::vector<double> zero(r.n(), 0.0);
    std::vector<double> tau(r.n());
    const double weight = r.km.total_mass() * 9.81;
    for (int trial = 0; trial < 10; ++trial) {
      const auto q = moderate_pose(rng, r.n());
      rd::floating_base_dynamics(r.km, r.supports, r.ws, q, zero, zero, r.support, tau);
      rk::forward_kinematics(r.km, kin, q);
      const Eigen::Vector3d com = rk::center_of_mass(r.km, kin);
      const Eigen::Vector3d gravity_force = r.km.total_mass() * kGravity;
      Eigen::Vector3d force = gravity_force, moment = com.cross(gravity_force);
      ASSERT_GT(r.ws.contact_forces().size(), 3u);
      for (const auto& cf : r.ws.contact_forces()) {
        force += cf.force;
        moment += cf.position.cross(cf.force);
      }
      EXPECT_LT(force.norm(), 1e-9 * weight) << force.transpose();
      EXPECT_LT(moment.norm(), 1e-9 * weight) << moment.transpose();
      EXPECT_LT(r.ws.unbalanced_wrench().force.norm(), 1e-9 * weight);
      EXPECT_LT(r.ws.unbalanced_wrench().moment.norm(), 1e-9 * weight);
      EXPECT_LT((r.ws.base_wrench().force + gravity_force).norm(), 1e-9 * weight);
      EXPECT_LT((r.ws.base_wrench().moment + com.cross(gravity_force)).norm(), 1e-9 * weight);
    }
  }
}

TEST(DynamicsFloating, AtRestTheTorquesAreGravityMinusContactJacobiansTransposed) {
  for (auto& robot : legged_robots()) {
    SCOPED_TRACE(robot.robot_name());
    Legged r(robot);
    rk::Workspace kin(r.km);
    std::mt19937 rng(9);
    const std::vector<double> zero(r.n(), 0.0);
    std::vector<double> tau(r.n()), gravity(r.n());
    rk::Jacobian J;
    for (int trial = 0; trial < 6; ++trial) {
      const auto q = moderate_pose(rng, r.n());
      rd::floating_base_dynamics(r.km, r.supports, r.ws, q, zero, zero, r.support, tau);
      rd::gravity_torques(r.km, r.ws, q, gravity);
      rk::forward_kinematics(r.km, kin, q);
      Eigen::VectorXd expected = Eigen::Map<const Eigen::VectorXd>(gravity.data(), static_cast<Eigen::Index>(r.n()));
      double scale = 1.0;
      for (const auto& cf : r.ws.contact_forces()) {
        const std::size_t body = r.supports.chains()[cf.chain].body;
        const Eigen::Vector3d local = r.supports.contacts()[cf.contact].points[cf.point];
        rk::jacobian(r.km, kin, body, local, J);
        EXPECT_LT((kin.frame(body) * local - cf.position).norm(), 1e-12);
        expected -= J.topRows<3>().transpose() * cf.force;
        scale = std::max(scale, cf.force.norm());
      }
      for (std::size_t i = 0; i < r.n(); ++i)
        EXPECT_NEAR(tau[i], expected(static_cast<Eigen::Index>(i)), 1e-9 * scale) << r.model.joint_names()[i];
    }
  }
}

TEST(DynamicsFloating, ForcesAreTheWeightedLeastNormSolutionOfTheDesignNote) {
  // docs/design.md: minimise Σ |fᵢ|² / wᵢ, wᵢ = coefficient / points of the contact, subject
  // to Σ fᵢ = F and Σ pᵢ × fᵢ = N (about the base origin), solved here as a KKT system.
  for (auto& robot : legged_robots()) {
    SCOPED_TRACE(robot.robot_name());
    Legged r(robot);
    std::mt19937 rng(21);
    std::uniform_real_distribution<double> coefficient(0.05, 1.0);
    std::vector<double> tau(r.n());
    for (int trial = 0; trial < 8; ++trial) {
      const auto q = moderate_pose(rng, r.n());
      const auto qd = random_values(rng, r.n(), 1.0);
      const auto qdd = random_values(rng, r.n(), 2.0);
      for (auto& s : r.support)
        if (s.coefficient > 0) s.coefficient = coefficient(rng);
      rd::floating_base_dynamics(r.km, r.supports, r.ws, q, qd, qdd, r.support, tau);
      const auto forces = r.ws.contact_forces();
      const auto m = static_cast<Eigen::Index>(3 * forces.size());
      Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(m + 6, m + 6);
      Eigen::VectorXd rhs = Eigen::VectorXd::Zero(m + 6);
      for (std::size_t i = 0; i < forces.size(); ++i) {
        const auto& cf = forces[i];
        const auto points = static_cast<double>(r.supports.contacts()[cf.contact].points.size());
        const double w = r.support[cf.chain].coefficient / points;
        const auto k = static_cast<Eigen::Index>(3 * i);
        kkt.block<3, 3>(k, k) = Eigen::Matrix3d::Identity() / w;
        Eigen::Matrix<double, 6, 3> a;
        a.topRows<3>() = Eigen::Matrix3d::Identity();
        a.bottomRows<3>() << 0, -cf.position.z(), cf.position.y(), cf.position.z(), 0, -cf.position.x(),
            -cf.position.y(), cf.position.x(), 0;
        kkt.block<6, 3>(m, k) = a;
        kkt.block<3, 6>(k, m) = a.transpose();
      }
      rhs.segment<3>(m) = r.ws.base_wrench().force;
      rhs.segment<3>(m + 3) = r.ws.base_wrench().moment;
      const Eigen::VectorXd solution = kkt.fullPivLu().solve(rhs);
      double scale = 1.0;
      for (const auto& cf : forces) scale = std::max(scale, cf.force.norm());
      for (std::size_t i = 0; i < forces.size(); ++i)
        EXPECT_LT((forces[i].force - solution.segment<3>(static_cast<Eigen::Index>(3 * i))).norm(), 1e-9 * scale)
            << "point " << i;
    }
  }
}

TEST(DynamicsFloating, OneChainOnOnePointCarriesTheForceAndLeavesTheMoment) {
  Legged r(rmodel::test::pony());
  const auto chain = r.supports.find_chain("rear_left");
  ASSERT_TRUE(chain);
  for (auto& s : r.support) s = {};
  r.support[*chain] = {1.0, r.supports.find_contact("hoof_point")};
  const std::vector<double> zero(r.n(), 0.0);
  std::vector<double> tau(r.n());
  rd::floating_base_dynamics(r.km, r.supports, r.ws, zero, zero, zero, r.support, tau);
  ASSERT_EQ(r.ws.contact_forces().size(), 1u);
  const auto& cf = r.ws.contact_forces()[0];
  const rd::Wrench& need = r.ws.base_wrench();
  EXPECT_LT((cf.force - need.force).norm(), 1e-12);
  EXPECT_LT(r.ws.unbalanced_wrench().force.norm(), 1e-12);
  EXPECT_LT((r.ws.unbalanced_wrench().moment - (need.moment - cf.position.cross(need.force))).norm(), 1e-12);
  EXPECT_GT(r.ws.unbalanced_wrench().moment.norm(), 0.1);  // the body tips over that hoof
}

TEST(DynamicsFloating, TwoPointsLeaveOnlyTheMomentAboutTheirLine) {
  Legged r(rmodel::test::pony());
  for (auto& s : r.support) s = {};
  r.support[*r.supports.find_chain("front_left")] = {1.0, r.supports.find_contact("hoof_flat")};
  std::mt19937 rng(3);
  std::vector<double> tau(r.n());
  const auto q = moderate_pose(rng, r.n());
  const auto qd = random_values(rng, r.n(), 1.0);
  rd::floating_base_dynamics(r.km, r.supports, r.ws, q, qd, qd, r.support, tau);
  const auto forces = r.ws.contact_forces();
  ASSERT_EQ(forces.size(), 2u);
  const Eigen::Vector3d line = (forces[1].position - forces[0].position).normalized();
  EXPECT_LT(r.ws.unbalanced_wrench().force.norm(), 1e-9 * r.ws.base_wrench().force.norm());
  // About the points' midpoint, the unbalanced moment lies along their line.
  const Eigen::Vector3d middle = 0.5 * (forces[0].position + forces[1].position);
  const Eigen::Vector3d left = r.ws.unbalanced_wrench().moment - middle.cross(r.ws.unbalanced_wrench().force);
  EXPECT_LT((left - line * line.dot(left)).norm(), 1e-9 * (1.0 + left.norm()));
}

TEST(DynamicsFloating, ChainsInTheAirCarryNothingAndOnlyRatiosOfCoefficientsCount) {
  Legged r(rmodel::test::pony());
  std::mt19937 rng(4);
  const auto q = moderate_pose(rng, r.n());
  const std::vector<double> zero(r.n(), 0.0);
  std::vector<double> tau(r.n()), tau_half(r.n());
  rd::floating_base_dynamics(r.km, r.supports, r.ws, q, zero, zero, r.support, tau);
  const std::vector<rd::DynamicsWorkspace::ContactForce> full(r.ws.contact_forces().begin(),
                                                              r.ws.contact_forces().end());
  for (auto& s : r.support) s.coefficient *= 0.5;
  rd::floating_base_dynamics(r.km, r.supports, r.ws, q, zero, zero, r.support, tau_half);
  ASSERT_EQ(r.ws.contact_forces().size(), full.size());
  for (std::size_t i = 0; i < full.size(); ++i)
    EXPECT_LT((r.ws.contact_forces()[i].force - full[i].force).norm(), 1e-9 * (1.0 + full[i].force.norm()));
  for (std::size_t i = 0; i < r.n(); ++i) EXPECT_NEAR(tau[i], tau_half[i], 1e-9 * (1.0 + std::abs(tau[i])));
  // A leg in the air: no contact point of it, and its joints hold only the leg.
  const auto chain = *r.supports.find_chain("front_right");
  r.support[chain].coefficient = 0.0;
  rd::floating_base_dynamics(r.km, r.supports, r.ws, q, zero, zero, r.support, tau);
  for (const auto& cf : r.ws.contact_forces()) EXPECT_NE(cf.chain, chain);
  std::vector<double> gravity(r.n());
  rd::gravity_torques(r.km, r.ws, q, gravity);
  for (const char* joint : {"front_right_hip", "front_right_knee", "front_right_ankle"}) {
    const auto i = *r.model.find_joint_index(joint);
    EXPECT_NEAR(tau[i], gravity[i], 1e-12) << joint;
  }
}

TEST(DynamicsFloating, SymmetricPosesGiveMirroredTorquesAndForces) {
  // The pony is symmetric about its xz plane. Mirrored, a leg joint about y keeps its torque,
  // a hoof yaw about z changes sign, and a force (fx, fy, fz) becomes (fx, −fy, fz).
  Legged r(rmodel::test::pony());
  std::mt19937 rng(6);
  std::vector<double> tau(r.n());
  const auto names = r.model.joint_names();
  auto mirror = [](std::string name) {
    if (const auto at = name.find("left"); at != std::string::npos) return name.replace(at, 4, "right");
    if (const auto at = name.find("right"); at != std::string::npos) return name.replace(at, 5, "left");
    return name;
  };
  for (int trial = 0; trial < 5; ++trial) {
    auto q = moderate_pose(rng, r.n());
    auto qd = random_values(rng, r.n(), 1.0);
    auto qdd = random_values(rng, r.n(), 2.0);
    for (std::size_t i = 0; i < r.n(); ++i) {
      const auto other = *r.model.find_joint_index(mirror(names[i]));
      const bool yaw = names[i].find("yaw") != std::string::npos;  // about z: mirrored angle
      if (other == i) {
        if (yaw || names[i] == "tail_swing") q[i] = qd[i] = qdd[i] = 0.0;  // on the plane: turning breaks it
        continue;
      }
      if (names[i].find("left") == std::string::npos) continue;
      const double sign = yaw ? -1.0 : 1.0;
      q[other] = sign * q[i], qd[other] = sign * qd[i], qdd[other] = sign * qdd[i];
    }
    rd::floating_base_dynamics(r.km, r.supports, r.ws, q, qd, qdd, r.support, tau);
    for (std::size_t i = 0; i < r.n(); ++i) {
      if (names[i].find("left") == std::string::npos) continue;
      const auto other = *r.model.find_joint_index(mirror(names[i]));
      const double sign = names[i].find("yaw") != std::string::npos ? -1.0 : 1.0;
      EXPECT_NEAR(tau[other], sign * tau[i], 1e-9 * (1.0 + std::abs(tau[i]))) << names[i];
    }
    const auto forces = r.ws.contact_forces();
    for (const auto& cf : forces) {
      const std::string twin = mirror(std::string(r.supports.chains()[cf.chain].name));
      const auto twin_chain = *r.supports.find_chain(twin);
      for (const auto& other : forces) {
        if (other.chain != twin_chain || other.point != cf.point) continue;
        const Eigen::Vector3d mirrored_position(cf.position.x(), -cf.position.y(), cf.position.z());
        const Eigen::Vector3d mirrored_force(cf.force.x(), -cf.force.y(), cf.force.z());
        EXPECT_LT((other.position - mirrored_position).norm(), 1e-12);
        EXPECT_LT((other.force - mirrored_force).norm(), 1e-9 * (1.0 + cf.force.norm()));
      }
    }
  }
}

TEST(DynamicsFloating, BaseWrenchIsTheRateOfChangeOfMomentumMinusGravity) {
  // Base at rest, joints moving along q(t): linear momentum M·Jc q̇, angular momentum about
  // the base origin Σ (R I Rᵀ ωₖ + m cₖ × ċₖ) from the kinematics' Jacobians; their rates by
  // central differences, plus the weight, are the base wrench.
  for (auto& robot : legged_robots()) {
    SCOPED_TRACE(robot.robot_name());
    Legged r(robot);
    rk::Workspace kin(r.km);
    const std::size_t n = r.n();
    std::mt19937 rng(15);
    const auto q0 = moderate_pose(rng, n);
    const auto v = random_values(rng, n, 1.5);
    const auto a = random_values(rng, n, 3.0);
    auto state = [&](double t, std::vector<double>& q, std::vector<double>& qd, std::vector<double>& qdd) {
      for (std::size_t i = 0; i < n; ++i) {
        q[i] = q0[i] + v[i] * t + 0.5 * a[i] * t * t;
        qd[i] = v[i] + a[i] * t;
        qdd[i] = a[i];
      }
    };
    std::vector<double> q(n), qd(n), qdd(n), tau(n);
    rk::Jacobian J;
    auto momentum = [&](double t) {
      state(t, q, qd, qdd);
      rk::forward_kinematics(r.km, kin, q);
      const Eigen::Map<const Eigen::VectorXd> rate(qd.data(), static_cast<Eigen::Index>(n));
      Eigen::Matrix<double, 6, 1> h = Eigen::Matrix<double, 6, 1>::Zero();  // linear, angular
      for (std::size_t b = 0; b < r.km.size(); ++b) {
        const auto& in = r.km.body(b).inertial;
        if (in.mass == 0.0) continue;
        rk::jacobian(r.km, kin, b, in.com, J);
        const Eigen::Matrix<double, 6, 1> twist = J * rate;
        const Eigen::Vector3d c = kin.frame(b) * in.com;
        const Eigen::Matrix3d R = kin.frame(b).linear();
        h.head<3>() += in.mass * twist.head<3>();
        h.tail<3>() += R * in.inertia * R.transpose() * twist.tail<3>() + in.mass * c.cross(twist.head<3>());
      }
      return h;
    };
    const double t = 0.2, step = 1e-5;
    const Eigen::Matrix<double, 6, 1> rate = (momentum(t + step) - momentum(t - step)) / (2 * step);
    state(t, q, qd, qdd);
    rd::floating_base_dynamics(r.km, r.supports, r.ws, q, qd, qdd, r.support, tau);
    rk::forward_kinematics(r.km, kin, q);
    const Eigen::Vector3d weight = r.km.total_mass() * kGravity;
    const Eigen::Vector3d com = rk::center_of_mass(r.km, kin);
    const Eigen::Vector3d force = rate.head<3>() - weight;
    const Eigen::Vector3d moment = rate.tail<3>() - com.cross(weight);
    EXPECT_LT((r.ws.base_wrench().force - force).norm(), 1e-6 * (1.0 + force.norm()));
    EXPECT_LT((r.ws.base_wrench().moment - moment).norm(), 1e-6 * (1.0 + moment.norm()));
  }
}

TEST(DynamicsFloating, SpinningRigidRobotNeedsTheCentripetalWrench) {
  // Joints still, the base turning at a constant ω about its fixed origin: the robot is one
  // rigid body, Ṗ = M ω × (ω × c) and L̇ = ω × I_O ω (I_O about the origin).
  for (auto& robot : legged_robots()) {
    SCOPED_TRACE(robot.robot_name());
    Legged r(robot);
    rk::Workspace kin(r.km);
    std::mt19937 rng(16);
    const auto q = moderate_pose(rng, r.n());
    const std::vector<double> zero(r.n(), 0.0);
    std::vector<double> tau(r.n());
    rd::BaseMotion base;
    base.angular_velocity = Eigen::Vector3d(0.7, -1.3, 2.1);
    rd::floating_base_dynamics(r.km, r.supports, r.ws, q, zero, zero, r.support, tau, base, Eigen::Vector3d::Zero());
    rk::forward_kinematics(r.km, kin, q);
    Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
    for (std::size_t b = 0; b < r.km.size(); ++b) {
      const auto& in = r.km.body(b).inertial;
      const Eigen::Vector3d c = kin.frame(b) * in.com;
      const Eigen::Matrix3d R = kin.frame(b).linear();
      inertia += R * in.inertia * R.transpose() +
                 in.mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
    }
    const Eigen::Vector3d& w = base.angular_velocity;
    const Eigen::Vector3d com = rk::center_of_mass(r.km, kin);
    const Eigen::Vector3d force = r.km.total_mass() * w.cross(w.cross(com));
    const Eigen::Vector3d moment = w.cross(inertia * w);
    EXPECT_LT((r.ws.base_wrench().force - force).norm(), 1e-9 * (1.0 + force.norm()));
    EXPECT_LT((r.ws.base_wrench().moment - moment).norm(), 1e-9 * (1.0 + moment.norm()));
  }
}

TEST(DynamicsFloating, AcceleratingTheBaseIsGravityTheOtherWay) {
  Legged r(rmodel::test::pony());
  std::mt19937 rng(17);
  const auto q = moderate_pose(rng, r.n());
  const auto qd = random_values(rng, r.n(), 1.0);
  const auto qdd = random_values(rng, r.n(), 2.0);
  std::vector<double> accelerated(r.n()), heavier(r.n());
  rd::BaseMotion base;
  base.linear_acceleration = Eigen::Vector3d(1.5, -0.5, 2.0);
  rd::floating_base_dynamics(r.km, r.supports, r.ws, q, qd, qdd, r.support, accelerated, base);
  const Eigen::Vector3d force = r.ws.base_wrench().force;
  rd::floating_base_dynamics(r.km, r.supports, r.ws, q, qd, qdd, r.support, heavier, {},
                             kGravity - base.linear_acceleration);
  EXPECT_LT((force - r.ws.base_wrench().force).norm(), 1e-12);
  for (std::size_t i = 0; i < r.n(); ++i) EXPECT_NEAR(accelerated[i], heavier[i], 1e-12);
}

TEST(DynamicsFloating, SupportFromStateAndErrors) {
  Legged r(rmodel::test::pony());
  std::vector<rd::ChainSupport> support(r.supports.chains().size());
  rmodel::SupportState state;
  state.name = {"rear_left", "front_left"};
  state.support = {0.5, 1.0};
  state.contact = {"hoof_flat", ""};
  rd::support_from_state(r.supports, state, support);
  const auto rear = *r.supports.find_chain("rear_left");
  const auto front = *r.supports.find_chain("front_left");
  EXPECT_EQ(support[rear].coefficient, 0.5);
  EXPECT_EQ(support[rear].contact, r.supports.find_contact("hoof_flat"));
  EXPECT_EQ(support[front].coefficient, 1.0);
  EXPECT_FALSE(support[front].contact);
  EXPECT_EQ(support[*r.supports.find_chain("head")].coefficient, 0.0);
  state.support.clear();
  state.contact.clear();
  rd::support_from_state(r.supports, state, support);
  EXPECT_EQ(support[rear].coefficient, 1.0);

  state.name = {"rear_lef"};
  EXPECT_THROW(rd::support_from_state(r.supports, state, support), rmodel::NotFound);
  state.name = {"rear_left"};
  state.contact = {"hoof_round"};
  EXPECT_THROW(rd::support_from_state(r.supports, state, support), rmodel::NotFound);
  state.contact.clear();
  state.support = {1.5};
  EXPECT_THROW(rd::support_from_state(r.supports, state, support), rmodel::InvalidArgument);
  state.support = {1.0, 1.0};
  EXPECT_THROW(rd::support_from_state(r.supports, state, support), rmodel::SizeMismatch);

  const std::vector<double> zero(r.n(), 0.0);
  std::vector<double> tau(r.n());
  std::vector<rd::ChainSupport> head_down(r.supports.chains().size());
  head_down[*r.supports.find_chain("head")].coefficient = 1.0;  // the head has no default contact
  EXPECT_THROW(rd::floating_base_dynamics(r.km, r.supports, r.ws, zero, zero, zero, head_down, tau),
               rmodel::InvalidArgument);
  head_down[*r.supports.find_chain("head")].contact = r.supports.find_contact("hoof_point");
  EXPECT_NO_THROW(rd::floating_base_dynamics(r.km, r.supports, r.ws, zero, zero, zero, head_down, tau));
  std::vector<rd::ChainSupport> too_few(2);
  EXPECT_THROW(rd::floating_base_dynamics(r.km, r.supports, r.ws, zero, zero, zero, too_few, tau),
               rmodel::SizeMismatch);
  rd::DynamicsWorkspace small(r.km);  // no room for contact points
  EXPECT_THROW(rd::floating_base_dynamics(r.km, r.supports, small, zero, zero, zero, r.support, tau),
               rmodel::InvalidArgument);
}
