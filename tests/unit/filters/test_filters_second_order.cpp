// Second-order transients: the linear law against a hand-written recursion and its
// analytic convergence, bounds on acceleration and velocity that hold at every step,
// convergence under those bounds, and ramp tracking with velocity feed-forward.

#include <cmath>
#include <random>

#include <Eigen/Core>
#include <gtest/gtest.h>
#include <kdl/frames.hpp>

#include "rmodel/base/error.hpp"
#include "rmodel/filters/second_order.hpp"

namespace rf = rmodel::filters;

TEST(FilterSecondOrder, LinearLawMatchesHandRecursionAndConverges) {
  const double T = 0.01;
  rf::SecondOrderParams p;
  p.a0 = 25.0;  // ω = 5 rad/s
  p.a1 = 10.0;  // ζ = 1: critically damped
  rf::SecondOrderTransient<double> f(T, p, 0.0);
  double x = 0.0, v = 0.0;
  const double xr = 1.0;
  for (int k = 0; k < 1000; ++k) {
    // The position error is taken at t_k, where the state coasts to: x + T·v.
    v += T * (p.a0 * (xr - (x + T * v)) + p.a1 * (0.0 - v));
    x += T * v;
    ASSERT_NEAR(f.update(xr), x, 1e-12) << "k=" << k;
    ASSERT_NEAR(f.velocity(), v, 1e-12) << "k=" << k;
  }
  EXPECT_NEAR(x, 1.0, 1e-9);
  // The continuous critically damped response is 1 − (1 + ωt)e^{−ωt}; the semi-implicit
  // discretisation follows it to O(T).
  rf::SecondOrderTransient<double> g(T, p, 0.0);
  for (int k = 1; k <= 200; ++k) {
    const double t = k * T;
    EXPECT_NEAR(g.update(1.0), 1.0 - (1.0 + 5.0 * t) * std::exp(-5.0 * t), 0.02) << t;
  }
}

TEST(FilterSecondOrder, AccelerationBoundHoldsAtEveryStepAndConverges) {
  const double T = 0.01;
  rf::SecondOrderParams p;
  p.a0 = 100.0;
  p.a1 = 20.0;
  p.max_acceleration = 2.0;
  rf::SecondOrderTransient<double> f(T, p, 0.0);
  double v_prev = 0.0;
  double peak_acc = 0.0;
  for (int k = 0; k < 3000; ++k) {
    (void)f.update(1.5);
    const double acc = (f.velocity() - v_prev) / T;
    ASSERT_LE(std::abs(acc), p.max_acceleration * (1 + 1e-9)) << "k=" << k;
    peak_acc = std::max(peak_acc, std::abs(acc));
    v_prev = f.velocity();
  }
  EXPECT_GT(peak_acc, 0.99 * p.max_acceleration);  // the bound was active
  EXPECT_NEAR(f.position(), 1.5, 1e-6);
  EXPECT_NEAR(f.velocity(), 0.0, 1e-6);
}

TEST(FilterSecondOrder, AccelerationAndVelocityBoundsOnJointArrays) {
  const double T = 0.005;
  rf::SecondOrderParams p;
  p.a0 = 64.0;
  p.a1 = 16.0;
  p.max_acceleration = 5.0;
  p.max_velocity = 0.7;
  const Eigen::Index n = 7;
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> dist(-2.0, 2.0);
  Eigen::VectorXd x0(n), ref(n);
  for (Eigen::Index i = 0; i < n; ++i) x0[i] = dist(rng);
  rf::SecondOrderTransient<Eigen::VectorXd> f(T, p, x0);
  Eigen::VectorXd v_prev = Eigen::VectorXd::Zero(n);
  bool v_active = false;
  for (int segment = 0; segment < 3; ++segment) {
    for (Eigen::Index i = 0; i < n; ++i) ref[i] = dist(rng);
    for (int k = 0; k < 3000; ++k) {
      (void)f.update(ref);
      const Eigen::VectorXd& v = f.velocity();
      ASSERT_LE(v.cwiseAbs().maxCoeff(), p.max_velocity * (1 + 1e-12)) << "k=" << k;
      ASSERT_LE(((v - v_prev) / T).cwiseAbs().maxCoeff(), p.max_acceleration * (1 + 1e-9))
          << "k=" << k;
      v_active = v_active || v.cwiseAbs().maxCoeff() > 0.99 * p.max_velocity;
      v_prev = v;
    }
    EXPECT_LT((f.position() - ref).cwiseAbs().maxCoeff(), 1e-6) << "segment " << segment;
  }
  EXPECT_TRUE(v_active);
}

TEST(FilterSecondOrder, TracksRampWithVelocityFeedForward) {
  const double T = 0.01, c = 0.3;
  rf::SecondOrderParams p;
  p.a0 = 100.0;
  p.a1 = 20.0;
  rf::SecondOrderTransient<KDL::Vector> f(T, p, KDL::Vector(1, 0, 0));
  const KDL::Vector dir(0.6, 0.8, 0.0);
  KDL::Vector y;
  for (int k = 1; k <= 1000; ++k) y = f.update(dir * (c * k * T), dir * c);
  EXPECT_TRUE(KDL::Equal(y, dir * (c * 1000 * T), 1e-9));
  EXPECT_TRUE(KDL::Equal(f.velocity(), dir * c, 1e-9));
}

TEST(FilterSecondOrder, OutputDoesNotAdvanceAndStartRestores) {
  rf::SecondOrderParams p;
  rf::SecondOrderTransient<double> f(0.01, p, 2.0), g(0.01, p, 2.0);
  const double y1 = f.output(3.0, 0.5, 1.0);
  EXPECT_EQ(y1, f.output(3.0, 0.5, 1.0));
  EXPECT_EQ(f.position(), 2.0);
  f.update();
  EXPECT_EQ(f.position(), g.update(3.0, 0.5, 1.0));
  EXPECT_EQ(f.velocity(), g.velocity());
  f.start();
  EXPECT_EQ(f.position(), 2.0);
  EXPECT_EQ(f.velocity(), 0.0);
  f.start(1.0, -1.0);
  EXPECT_EQ(f.velocity(), -1.0);
}

TEST(FilterSecondOrder, RejectsInvalidParametersAndUnstableGains) {
  rf::SecondOrderParams p;
  EXPECT_THROW(rf::SecondOrderTransient<double>(0.0, p), rmodel::InvalidArgument);
  p.a0 = 0.0;
  EXPECT_THROW(rf::SecondOrderTransient<double>(0.01, p), rmodel::InvalidArgument);
  p = {};
  p.a1 = -1.0;
  EXPECT_THROW(rf::SecondOrderTransient<double>(0.01, p), rmodel::InvalidArgument);
  p = {};
  p.max_acceleration = -1.0;
  EXPECT_THROW(rf::SecondOrderTransient<double>(0.01, p), rmodel::InvalidArgument);
  p = {};
  p.max_velocity = std::nan("");
  EXPECT_THROW(rf::SecondOrderTransient<double>(0.01, p), rmodel::InvalidArgument);
  p = {};
  p.a0 = 1e5;  // 3·T²·a0 = 30 > 4
  try {
    rf::SecondOrderTransient<double> f(0.01, p);
    FAIL();
  } catch (const rmodel::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("unstable"), std::string::npos) << e.what();
  }
}
