// Filters in spherical coordinates (rmodel/filters/spherical.hpp): the existing Fusion,
// Transient and GroupSecondOrderTransient run on Spherical values. Checked against closed
// forms written here from the documented semantics: the fused direction is the slerp
// formula sin((1−x)θ)/sin θ·b + sin(xθ)/sin θ·a (on the great circle, angle x·θ from u2),
// the distance the linear blend, the first-order transient's angle and distance errors
// shrink by (1 − T/τ) per step, a rotation at a constant rate fed forward is tracked
// exactly; edge cases at the centre and for opposite directions.

#include <algorithm>
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>
#include <kdl/frames.hpp>

#include "alloc_counter.hpp"
#include "rmodel/filters/fusion.hpp"
#include "rmodel/filters/second_order_group.hpp"
#include "rmodel/filters/spherical.hpp"
#include "rmodel/filters/transients.hpp"

namespace rf = rmodel::filters;

namespace {

/// Euclidean length; KDL::Vector::Norm() returns 0 below 1e-6, too coarse for these tests.
double length(const KDL::Vector& v) { return std::sqrt(KDL::dot(v, v)); }

KDL::Vector unit(const KDL::Vector& v) { return v / length(v); }

/// Angle (rad) between two directions, accurate near 0 and π alike.
double spherical_angle(const KDL::Vector& a, const KDL::Vector& b) {
  return std::atan2(length(a * b), KDL::dot(a, b));
}

/// Rotation of v about the unit axis k by angle θ (Rodrigues' formula).
KDL::Vector rodrigues(const KDL::Vector& v, const KDL::Vector& k, double theta) {
  return v * std::cos(theta) + (k * v) * std::sin(theta) + k * (KDL::dot(k, v) * (1.0 - std::cos(theta)));
}

/// Slerp from b (x = 0) to a (x = 1) for unit vectors at angle θ (0 < θ < π).
KDL::Vector slerp_formula(const KDL::Vector& b, const KDL::Vector& a, double x) {
  const double theta = spherical_angle(a, b);
  return b * (std::sin((1.0 - x) * theta) / std::sin(theta)) + a * (std::sin(x * theta) / std::sin(theta));
}

double gap(const KDL::Vector& a, const KDL::Vector& b) { return length(a - b); }

}  // namespace

TEST(FilterSpherical, CartesianRoundTripAboutACentre) {
  const KDL::Vector shoulder(0.1, -0.2, 0.9), hand(0.4, 0.1, 0.5);
  const rf::Spherical s = rf::Spherical::from_cartesian(hand, shoulder);
  EXPECT_NEAR(s.distance, std::sqrt(0.09 + 0.09 + 0.16), 1e-15);
  EXPECT_NEAR(length(s.direction), 1.0, 1e-15);
  EXPECT_LT(gap(s.to_cartesian(shoulder), hand), 1e-15);
  // At the centre the direction is the one given for it, normalised.
  const rf::Spherical c = rf::Spherical::from_cartesian(shoulder, shoulder, KDL::Vector(0, 2, 0));
  EXPECT_EQ(c.distance, 0.0);
  EXPECT_LT(gap(c.direction, KDL::Vector(0, 1, 0)), 1e-15);
  EXPECT_LT(gap(rf::Spherical::from_cartesian(KDL::Vector::Zero()).direction, KDL::Vector(0, 0, 1)), 1e-15);
}

TEST(FilterSpherical, LinearFusionMovesAlongTheGreatCircleAndBlendsTheDistanceLinearly) {
  const double T = 0.01, tau = 0.8;
  const rf::Spherical u2{unit(KDL::Vector(1.0, 0.2, -0.3)), 0.45};
  const rf::Spherical start{unit(KDL::Vector(-0.2, 1.0, 0.6)), 0.62};
  const KDL::Vector spin = unit(KDL::Vector(0.3, 0.3, 1.0));  // u1 turns about it at 0.4 rad/s
  rf::FusionLinear<rf::Spherical> f(T, tau);
  for (int k = 0; k <= 100; ++k) {
    const double x = std::max(0.0, 1.0 - k * T / tau);
    const rf::Spherical u1{rodrigues(start.direction, spin, 0.4 * k * T), start.distance + 0.1 * k * T};
    const rf::Spherical& y = f.update(u1, u2);
    // On the great circle through u1 and u2, x·θ away from u2: the slerp formula.
    const KDL::Vector normal = unit(u2.direction * u1.direction);
    ASSERT_LT(std::abs(KDL::dot(y.direction, normal)), 1e-14) << "k=" << k;
    ASSERT_NEAR(spherical_angle(y.direction, u2.direction), x * spherical_angle(u1.direction, u2.direction), 1e-12)
        << "k=" << k;
    ASSERT_LT(gap(y.direction, slerp_formula(u2.direction, u1.direction, x)), 1e-14) << "k=" << k;
    ASSERT_NEAR(y.distance, x * u1.distance + (1.0 - x) * u2.distance, 1e-15) << "k=" << k;
  }
  EXPECT_EQ(f.weight(), 0.0);
}

TEST(FilterSpherical, FusionOfEqualReachesKeepsTheReachWhereACartesianBlendCutsTheChord) {
  const double T = 0.01, tau = 1.0;
  const rf::Spherical a{KDL::Vector(1, 0, 0), 0.6}, b{KDL::Vector(0, 1, 0), 0.6};
  rf::FusionLinear<rf::Spherical> spherical(T, tau);
  rf::FusionLinear<KDL::Vector> cartesian(T, tau);
  double shortest_cartesian = 1.0;
  for (int k = 0; k <= 100; ++k) {
    const rf::Spherical& y = spherical.update(a, b);
    ASSERT_NEAR(length(y.to_cartesian()), 0.6, 1e-15) << "k=" << k;
    shortest_cartesian = std::min(shortest_cartesian, length(cartesian.update(a.to_cartesian(), b.to_cartesian())));
  }
  EXPECT_NEAR(shortest_cartesian, 0.6 * std::sqrt(0.5), 1e-12);  // the chord's midpoint
}

TEST(FilterSpherical, ExponentialTransientConvergesAsTheLawDictates) {
  const double T = 0.01, tau = 0.2;
  const rf::Spherical x0{unit(KDL::Vector(0.0, -1.0, 0.2)), 0.3};
  const rf::Spherical reference{unit(KDL::Vector(0.7, 0.1, 0.7)), 0.55};
  const double theta0 = spherical_angle(x0.direction, reference.direction);
  const KDL::Vector normal = unit(x0.direction * reference.direction);
  rf::TransientExp<rf::Spherical> f(T, tau, x0);
  for (int k = 1; k <= 300; ++k) {
    const rf::Spherical& y = f.update(reference);
    const double left = std::pow(1.0 - T / tau, k);
    ASSERT_LT(std::abs(KDL::dot(y.direction, normal)), 1e-14) << "k=" << k;
    ASSERT_NEAR(spherical_angle(y.direction, reference.direction), theta0 * left, 1e-12) << "k=" << k;
    ASSERT_NEAR(y.distance - reference.distance, (x0.distance - reference.distance) * left, 1e-14) << "k=" << k;
  }
  // The variable-step form: errors shrink by exp(−t/τ) whatever the spacing.
  rf::TransientExp<rf::Spherical> g(T, tau, x0);
  double t = 0.0;
  for (int k = 0; k < 60; ++k) {
    const double dt = 0.003 + 0.004 * (k % 5);
    t += dt;
    const rf::Spherical& y = g.update(reference, rf::Interval{dt});
    ASSERT_NEAR(spherical_angle(y.direction, reference.direction), theta0 * std::exp(-t / tau), 1e-12) << "t=" << t;
    ASSERT_NEAR(y.distance - reference.distance, (x0.distance - reference.distance) * std::exp(-t / tau), 1e-14);
  }
}

TEST(FilterSpherical, LinearTransientTurnsAtTheAngularSpeedAndStretchesInProportion) {
  const double T = 0.01;
  const rf::LinearAngular speed{0.1, 0.5};  // m/s, rad/s
  const rf::Spherical x0{KDL::Vector(0, 0, 1), 0.4};
  const rf::Spherical reference{KDL::Vector(std::sin(1.2), 0.0, std::cos(1.2)), 0.45};
  const double theta0 = spherical_angle(x0.direction, reference.direction);  // 1.2 rad: 2.4 s at 0.5 rad/s
  ASSERT_NEAR(theta0, 1.2, 1e-12);
  rf::TransientLinear<rf::Spherical> f(T, speed, x0);
  // The stretch alone would take 0.5 s: the turn bounds the step, scaled as a whole.
  for (int k = 1; k <= 260; ++k) {
    const rf::Spherical& y = f.update(reference);
    const double angle = std::max(0.0, theta0 - speed.angular * T * k);
    ASSERT_NEAR(spherical_angle(y.direction, reference.direction), angle, 1e-9) << "k=" << k;
    ASSERT_NEAR(reference.distance - y.distance, 0.05 * angle / theta0, 1e-12) << "k=" << k;
    ASSERT_NEAR(y.direction.y(), 0.0, 1e-15);  // in the x-z plane: the great circle
  }
  EXPECT_LT(gap(f.update(reference).to_cartesian(), reference.to_cartesian()), 1e-15);
}

TEST(FilterSpherical, SecondOrderTracksAConstantTurnAndStretchFedForwardExactly) {
  const double T = 0.01;
  const KDL::Vector omega(0.3, -0.8, 0.5);  // rad/s, not perpendicular to the direction
  const double stretch_rate = 0.04;         // m/s
  const rf::Spherical start{unit(KDL::Vector(0.2, 0.9, -0.3)), 0.5};
  auto reference = [&](double t) {
    return rf::Spherical{rodrigues(start.direction, unit(omega), length(omega) * t), start.distance + stretch_rate * t};
  };
  const rf::SphericalTangent rate{omega, stretch_rate};
  rf::GroupSecondOrderTransient<rf::Spherical> f(T, {});
  f.start(start, rate);
  for (int k = 1; k <= 1000; ++k) {
    const rf::Spherical& y = f.update(reference(k * T), rate);
    ASSERT_LT(gap(y.direction, reference(k * T).direction), 1e-12) << "k=" << k;
    ASSERT_NEAR(y.distance, reference(k * T).distance, 1e-13) << "k=" << k;
  }
}

TEST(FilterSpherical, OppositeDirectionsTakeTheDocumentedArc) {
  using S = rf::Space<rf::Spherical>;
  // From +z to −z: π about z × x = +y, through +x.
  const rf::SphericalTangent d = S::local({KDL::Vector(0, 0, 1), 1.0}, {KDL::Vector(0, 0, -1), 2.0});
  EXPECT_LT(gap(d.turn, KDL::Vector(0, std::numbers::pi, 0)), 1e-15);
  EXPECT_EQ(d.stretch, 1.0);
  rf::FusionLinear<rf::Spherical> f(0.1, 1.0, {});
  for (int k = 0; k < 5; ++k) (void)f.update({KDL::Vector(0, 0, -1), 1.0}, {KDL::Vector(0, 0, 1), 1.0});
  const rf::Spherical& mid = f.update({KDL::Vector(0, 0, -1), 1.0}, {KDL::Vector(0, 0, 1), 1.0});
  EXPECT_LT(gap(mid.direction, KDL::Vector(1, 0, 0)), 1e-15);  // x = 0.5
  // From +x to −x: the least aligned axis is y (first on the tie), π about x × y = +z.
  EXPECT_LT(gap(S::local({KDL::Vector(1, 0, 0), 1.0}, {KDL::Vector(-1, 0, 0), 1.0}).turn,
                KDL::Vector(0, 0, std::numbers::pi)),
            1e-15);
  // Nearly opposite directions take their own great circle: +z to −z leaning to +y
  // passes +y half way.
  const rf::Spherical near_opposite{unit(KDL::Vector(0, 1e-9, -1)), 1.0};
  const rf::SphericalTangent n = S::local({KDL::Vector(0, 0, 1), 1.0}, near_opposite);
  EXPECT_NEAR(length(n.turn), std::numbers::pi - 1e-9, 1e-15);
  EXPECT_LT(gap(S::retract({KDL::Vector(0, 0, 1), 1.0}, 0.5 * n).direction, KDL::Vector(0, 1, 0)), 1e-9);
  // Equal directions: no turn.
  EXPECT_EQ(S::local({KDL::Vector(0, 1, 0), 1.0}, {KDL::Vector(0, 1, 0), 3.0}).turn, KDL::Vector::Zero());
}

TEST(FilterSpherical, AtTheCentreTheCarriedDirectionIsKeptAndDistancesNeverGoNegative) {
  using S = rf::Space<rf::Spherical>;
  // A point at the centre still blends its direction: the weight alone decides.
  rf::FusionLinear<rf::Spherical> f(0.1, 1.0, {});
  const rf::Spherical centre{KDL::Vector(1, 0, 0), 0.0}, out{KDL::Vector(0, 1, 0), 0.8};
  for (int k = 0; k <= 10; ++k) {
    const double x = 1.0 - 0.1 * k;
    const rf::Spherical& y = f.update(centre, out);
    ASSERT_NEAR(y.distance, (1.0 - x) * 0.8, 1e-15) << "k=" << k;
    ASSERT_NEAR(std::atan2(y.direction.x(), y.direction.y()), x * 0.5 * std::numbers::pi, 1e-12) << "k=" << k;
  }
  // A step past the centre stops at it, direction unchanged.
  const rf::Spherical stopped = S::retract({KDL::Vector(0, 0, 1), 0.2}, {KDL::Vector::Zero(), -0.5});
  EXPECT_EQ(stopped.distance, 0.0);
  EXPECT_EQ(stopped.direction, KDL::Vector(0, 0, 1));
}

TEST(FilterSpherical, BoundsAreAngleAndDistanceEachAgainstItsOwn) {
  using S = rf::Space<rf::Spherical>;
  const rf::SphericalTangent d{KDL::Vector(0, 0.3, 0.4), -0.2};  // 0.5 rad, 0.2 m
  EXPECT_DOUBLE_EQ(S::scale_within(d, {0.1, 1.0}, 1.0), 0.5);   // distance limits
  EXPECT_DOUBLE_EQ(S::scale_within(d, {1.0, 0.1}, 1.0), 0.2);   // angle limits
  EXPECT_DOUBLE_EQ(S::scale_within(d, {1.0, 1.0}, 0.7), 0.7);   // neither
  // The limited fusion never moves the output's direction faster than its angular bound.
  const double T = 0.01;
  rf::FusionExpLimited<rf::Spherical> f(T, 0.05, rf::LinearAngular{10.0, 0.8});
  rf::Spherical previous = f.update({KDL::Vector(1, 0, 0), 0.3}, {KDL::Vector(0, 0, 1), 0.3});
  for (int k = 0; k < 300; ++k) {
    const rf::Spherical& y = f.update({KDL::Vector(1, 0, 0), 0.3}, {KDL::Vector(0, 0, 1), 0.3});
    ASSERT_LE(spherical_angle(y.direction, previous.direction), 0.8 * T * (1 + 1e-9) + 1e-15) << "k=" << k;
    previous = y;
  }
  EXPECT_LT(spherical_angle(previous.direction, KDL::Vector(0, 0, 1)), 1e-6);
}

TEST(FilterSpherical, NoCallAllocates) {
  rf::FusionExp<rf::Spherical> fusion(0.01, 0.3);
  rf::TransientExpLimited<rf::Spherical> transient(0.01, 0.3, rf::LinearAngular{0.5, 1.0});
  rf::GroupSecondOrderTransient<rf::Spherical> second(0.01, {});
  const rf::Spherical a{KDL::Vector(1, 0, 0), 0.3}, b{unit(KDL::Vector(0, 1, 1)), 0.5};
  rmodel::test::AllocationCounter counter;
  for (int k = 0; k < 100; ++k) {
    (void)fusion.update(a, b);
    (void)transient.update(b, rf::Interval{0.013});
    (void)second.update(a, rf::SphericalTangent{KDL::Vector(0, 0, 0.1), 0.01});
  }
  EXPECT_EQ(counter.count(), 0U);
}
