// Second-order transient on SO(3) and on poses: a constant-rate rotation fed forward is
// tracked exactly (fixed and variable step), about a fixed axis the angle error follows the
// scalar recursion of the documented law step for step and the continuous critically damped
// response to O(T), the bounds hold at every step, non-coaxial starts converge, and no call
// allocates.

#include <cmath>
#include <random>

#include <Eigen/Geometry>
#include <gtest/gtest.h>
#include <kdl/frames.hpp>

#include "alloc_counter.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/filters/second_order_group.hpp"

namespace rf = rmodel::filters;

namespace {

/// exp of a rotation vector (rad), from Eigen's angle-axis, independently of the filters'
/// own exponential map.
Eigen::Quaterniond exp_rotation(const Eigen::Vector3d& r) {
  const double angle = r.norm();
  if (angle == 0.0) return Eigen::Quaterniond::Identity();
  return Eigen::Quaterniond(Eigen::AngleAxisd(angle, r / angle));
}

/// Angle (rad) of the rotation between two orientations.
double rotation_gap(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) { return a.angularDistance(b); }

double rotation_gap(const KDL::Rotation& a, const KDL::Rotation& b) {
  KDL::Vector axis;
  return (b * a.Inverse()).GetRotAngle(axis);
}

}  // namespace

TEST(FilterSecondOrderGroup, ConstantRateRotationFedForwardIsTrackedExactly) {
  const double T = 0.01;
  const Eigen::Vector3d omega(0.4, -1.1, 0.7);  // rad/s
  const Eigen::Quaterniond start = exp_rotation(Eigen::Vector3d(0.3, 0.2, -0.5));
  auto reference = [&](double t) { return Eigen::Quaterniond(exp_rotation(t * omega) * start); };
  rf::GroupSecondOrderTransient<Eigen::Quaterniond> f(T, {});
  f.start(start, omega);
  for (int k = 1; k <= 2000; ++k) {
    const Eigen::Quaterniond& y = f.update(reference(k * T), omega);
    ASSERT_LT(rotation_gap(y, reference(k * T)), 1e-12) << "k=" << k;
    ASSERT_LT((f.velocity() - omega).norm(), 1e-12) << "k=" << k;
  }
}

TEST(FilterSecondOrderGroup, VariableStepTracksTheSameRotationExactly) {
  const double T = 0.01;
  const KDL::Vector omega(-0.9, 0.25, 1.4);
  const KDL::Rotation start = KDL::Rotation::RPY(0.1, -0.4, 2.0);
  auto reference = [&](double t) {
    const Eigen::Quaterniond q = exp_rotation(t * Eigen::Vector3d(omega.x(), omega.y(), omega.z()));
    return KDL::Rotation::Quaternion(q.x(), q.y(), q.z(), q.w()) * start;
  };
  rf::GroupSecondOrderTransient<KDL::Rotation> f(T, {});
  f.start(start, omega);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> gap(0.002, 0.035);  // shorter and longer than T
  double t = 0.0;
  for (int k = 0; k < 500; ++k) {
    const double dt = gap(rng);
    t += dt;
    const KDL::Rotation& y = f.update(reference(t), omega, rf::Interval{dt});
    ASSERT_LT(rotation_gap(y, reference(t)), 1e-11) << "t=" << t;
  }
}

TEST(FilterSecondOrderGroup, AngleErrorAboutOneAxisFollowsTheScalarLaw) {
  const double T = 0.01;
  rf::GroupSecondOrderParams<double> p;
  p.a0 = 25.0;  // ω = 5 rad/s
  p.a1 = 10.0;  // ζ = 1: critically damped
  const Eigen::Vector3d axis = Eigen::Vector3d(1.0, -2.0, 0.5).normalized();
  const double target = 1.2;  // rad
  const Eigen::Quaterniond reference = exp_rotation(target * axis);
  rf::GroupSecondOrderTransient<Eigen::Quaterniond> f(T, p);
  // The documented discrete law on the angle (x: angle reached, v: its rate).
  double x = 0.0, v = 0.0;
  for (int k = 1; k <= 600; ++k) {
    v += T * (p.a0 * (target - (x + T * v)) + p.a1 * (0.0 - v));
    x += T * v;
    const Eigen::Quaterniond& y = f.update(reference);
    ASSERT_LT(rotation_gap(y, exp_rotation(x * axis)), 1e-12) << "k=" << k;
    ASSERT_LT((f.velocity() - v * axis).norm(), 1e-12) << "k=" << k;
    // ... which follows the continuous response 1 − (1 + ωt)e^{−ωt} to O(T).
    const double t = k * T;
    ASSERT_NEAR(x, target * (1.0 - (1.0 + 5.0 * t) * std::exp(-5.0 * t)), 0.02 * target) << "t=" << t;
  }
  EXPECT_LT(rotation_gap(f.position(), reference), 1e-6);
}

TEST(FilterSecondOrderGroup, BoundsHoldAtEveryStepAndTheTransientStillConverges) {
  const double T = 0.005;
  rf::GroupSecondOrderParams<double> p;
  p.max_velocity = 1.5;      // rad/s
  p.max_acceleration = 6.0;  // rad/s²
  rf::GroupSecondOrderTransient<Eigen::Quaterniond> f(T, p);
  // A start spinning about an axis across the error's: the motion is not about one axis.
  f.start(Eigen::Quaterniond::Identity(), Eigen::Vector3d(0.0, 1.0, 0.0));
  const Eigen::Quaterniond reference = exp_rotation(Eigen::Vector3d(2.0, 0.0, 0.8));
  Eigen::Vector3d previous = f.velocity();
  for (int k = 0; k < 4000; ++k) {
    (void)f.update(reference);
    const Eigen::Vector3d w = f.velocity();
    ASSERT_LE(w.norm(), p.max_velocity * (1 + 1e-12)) << "k=" << k;
    ASSERT_LE((w - previous).norm(), p.max_acceleration * T * (1 + 1e-12)) << "k=" << k;
    previous = w;
  }
  EXPECT_LT(rotation_gap(f.position(), reference), 1e-8);
  EXPECT_LT(f.velocity().norm(), 1e-8);
}

TEST(FilterSecondOrderGroup, PoseTranslationFollowsTheVectorLawAndRotationTheGroupLaw) {
  const double T = 0.01;
  rf::GroupSecondOrderParams<rf::LinearAngular> p;
  p.max_velocity = {0.5, 1.0};  // m/s, rad/s
  rf::GroupSecondOrderTransient<KDL::Frame> f(T, p);
  const KDL::Frame reference(KDL::Rotation::RPY(0.5, -0.3, 1.0), KDL::Vector(0.4, -0.2, 0.9));
  // The translation by the documented vector law (velocity bound on the length).
  KDL::Vector x = KDL::Vector::Zero(), v = KDL::Vector::Zero();
  for (int k = 0; k < 1500; ++k) {
    KDL::Vector desired = v + T * (p.a0 * (reference.p - (x + T * v)) - p.a1 * v);
    if (desired.Norm() > p.max_velocity.linear) desired = desired * (p.max_velocity.linear / desired.Norm());
    v = desired;
    x = x + T * v;
    const KDL::Frame& y = f.update(reference);
    ASSERT_LT((y.p - x).Norm(), 1e-12) << "k=" << k;
    ASSERT_LE(f.velocity().rot.Norm(), p.max_velocity.angular * (1 + 1e-12)) << "k=" << k;
  }
  EXPECT_LT(rotation_gap(f.position().M, reference.M), 1e-8);
}

TEST(FilterSecondOrderGroup, OutputDoesNotAdvanceAndUpdateAdvancesWithTheLastReference) {
  const double T = 0.01;
  rf::GroupSecondOrderTransient<Eigen::Quaterniond> f(T, {}), g(T, {});
  const Eigen::Quaterniond reference = exp_rotation(Eigen::Vector3d(0.0, 0.0, 1.0));
  for (int k = 0; k < 50; ++k) {
    const Eigen::Quaterniond peek = f.output(reference);
    EXPECT_LT(rotation_gap(f.output(reference), peek), 1e-15);  // output twice: same
    f.update();
    ASSERT_LT(rotation_gap(f.position(), g.update(reference)), 1e-15) << "k=" << k;
  }
}

TEST(FilterSecondOrderGroup, RejectsInvalidParameters) {
  rf::GroupSecondOrderParams<double> p;
  EXPECT_THROW((rf::GroupSecondOrderTransient<Eigen::Quaterniond>(0.0, p)), rmodel::InvalidArgument);
  p.a0 = -1.0;
  EXPECT_THROW((rf::GroupSecondOrderTransient<Eigen::Quaterniond>(0.01, p)), rmodel::InvalidArgument);
  p = {};
  p.max_velocity = -1.0;
  EXPECT_THROW((rf::GroupSecondOrderTransient<Eigen::Quaterniond>(0.01, p)), rmodel::InvalidArgument);
  p = {};
  p.a0 = 1e6;  // unstable at T = 0.01
  EXPECT_THROW((rf::GroupSecondOrderTransient<Eigen::Quaterniond>(0.01, p)), rmodel::InvalidArgument);
  rf::GroupSecondOrderParams<rf::LinearAngular> q;
  q.max_acceleration = {1.0, -2.0};
  EXPECT_THROW((rf::GroupSecondOrderTransient<KDL::Frame>(0.01, q)), rmodel::InvalidArgument);
}

TEST(FilterSecondOrderGroup, NoCallAllocates) {
  rf::GroupSecondOrderTransient<KDL::Frame> f(0.01, {});
  const KDL::Frame reference(KDL::Rotation::RotZ(0.5), KDL::Vector(1, 2, 3));
  const KDL::Twist rate(KDL::Vector(0.1, 0, 0), KDL::Vector(0, 0, 0.2));
  rmodel::test::AllocationCounter counter;
  for (int k = 0; k < 100; ++k) {
    (void)f.output(reference, rate);
    f.update();
    (void)f.update(reference, rate, rf::Interval{0.023});
  }
  EXPECT_EQ(counter.count(), 0U);
}
