// First-order transients: the exponential step response in closed form, speed bounds
// that hold at every step and still converge, direction kept by the bounds, and the same
// laws on orientations and poses.

#include <cmath>
#include <random>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <gtest/gtest.h>
#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>

#include "rmodel/base/error.hpp"
#include "rmodel/filters/transients.hpp"

namespace rf = rmodel::filters;

TEST(FilterTransients, ExponentialStepResponseIsClosedForm) {
  const double T = 0.01, tau = 0.1;
  rf::TransientExp<double> f(T, tau, 0.0);
  for (int k = 1; k <= 300; ++k) {
    // y[k] is the state after k steps toward 1.
    EXPECT_NEAR(f.update(1.0), 1.0 - std::pow(1.0 - T / tau, k), 1e-14) << "k=" << k;
  }
}

TEST(FilterTransients, ExponentialOnJointArraysIsPerJoint) {
  const double T = 0.01, tau = 0.05;
  Eigen::VectorXd x0(3), ref(3);
  x0 << 0.0, 1.0, -2.0;
  ref << 1.0, 1.0, 2.0;
  rf::TransientExp<Eigen::VectorXd> f(T, tau, x0);
  for (int k = 1; k <= 100; ++k) {
    const Eigen::VectorXd expected = ref + std::pow(1.0 - T / tau, k) * (x0 - ref);
    EXPECT_LT((f.update(ref) - expected).cwiseAbs().maxCoeff(), 1e-13) << "k=" << k;
  }
}

TEST(FilterTransients, LinearMovesAtConstantSpeedAndStopsExactly) {
  const double T = 0.01, v = 0.5;
  rf::TransientLinear<double> f(T, v, 0.0);
  double prev = 0.0;
  int k = 0;
  for (; k < 1000 && prev != 0.3; ++k) {
    const double y = f.update(0.3);
    EXPECT_LE(std::abs(y - prev), v * T * (1 + 1e-12));
    EXPECT_LE(y, 0.3);  // never overshoots
    prev = y;
  }
  EXPECT_EQ(prev, 0.3);
  // 0.3 / (0.5 · 0.01) steps, one more if rounding left the last step a hair too long.
  EXPECT_GE(k, 60);
  EXPECT_LE(k, 61);
}

TEST(FilterTransients, LinearOnJointArraysKeepsDirectionAndBoundsEveryJoint) {
  const double T = 0.01, v = 1.0;
  Eigen::VectorXd x0(3), ref(3);
  x0 << 0.0, 0.0, 0.0;
  ref << 2.0, -0.5, 1.0;
  rf::TransientLinear<Eigen::VectorXd> f(T, v, x0);
  Eigen::VectorXd prev = x0;
  for (int k = 0; k < 199; ++k) {
    const Eigen::VectorXd y = f.update(ref);
    EXPECT_LE((y - prev).cwiseAbs().maxCoeff(), v * T * (1 + 1e-12));
    // On the straight line from x0 to ref.
    const double s = y[0] / ref[0];
    EXPECT_LT((y - s * ref).norm(), 1e-12);
    prev = y;
  }
  EXPECT_LT((f.update(ref) - ref).norm(), 1e-12);  // the farthest joint needs 200 steps
}

TEST(FilterTransients, LimitedExponentialNeverExceedsSpeedAndConverges) {
  const double T = 0.005, tau = 0.05, v = 0.8;
  const Eigen::Index n = 8;
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> dist(-2.0, 2.0);
  Eigen::VectorXd x0(n), ref(n);
  for (Eigen::Index i = 0; i < n; ++i) x0[i] = dist(rng);
  rf::TransientExpLimited<Eigen::VectorXd> f(T, tau, v, x0);
  Eigen::VectorXd prev = x0;
  // A reference jumping to a new random target every second.
  for (int segment = 0; segment < 4; ++segment) {
    for (Eigen::Index i = 0; i < n; ++i) ref[i] = dist(rng);
    for (int k = 0; k < 2000; ++k) {
      const Eigen::VectorXd y = f.update(ref);
      ASSERT_LE((y - prev).cwiseAbs().maxCoeff(), v * T * (1 + 1e-12)) << "k=" << k;
      prev = y;
    }
    EXPECT_LT((prev - ref).cwiseAbs().maxCoeff(), 1e-9) << "segment " << segment;
  }
}

TEST(FilterTransients, LimitedExponentialEqualsExponentialNearTheReference) {
  const double T = 0.01, tau = 0.1;
  rf::TransientExpLimited<double> lim(T, tau, 10.0, 0.0);
  rf::TransientExp<double> exp(T, tau, 0.0);
  for (int k = 0; k < 100; ++k) EXPECT_EQ(lim.update(1.0), exp.update(1.0));
}

TEST(FilterTransients, ExternalStateOverridesTheInternalOne) {
  const double T = 0.01, tau = 0.1;
  rf::TransientExp<double> f(T, tau, 0.0);
  EXPECT_NEAR(f.output(1.0, 0.5), 0.5 + 0.1 * 0.5, 1e-15);
  EXPECT_EQ(f.state(), 0.0);
  EXPECT_NEAR(f.update(1.0, 0.5), 0.55, 1e-15);
  EXPECT_NEAR(f.state(), 0.55, 1e-15);
  EXPECT_NEAR(f.output(1.0), 0.55 + 0.1 * 0.45, 1e-15);
  f.update();
  EXPECT_NEAR(f.state(), 0.595, 1e-15);
  f.start();
  EXPECT_EQ(f.state(), 0.0);
  // update() adopts the output of either form of output().
  (void)f.output(1.0, 0.5);
  f.update();
  EXPECT_NEAR(f.state(), 0.55, 1e-15);
  f.update();  // nothing pending
  EXPECT_NEAR(f.state(), 0.55, 1e-15);
}

TEST(FilterTransients, QuaternionLinearTurnsAboutFixedAxisAtBoundedRate) {
  const double T = 0.01, w = 1.5;  // rad/s
  const Eigen::Quaterniond q0 = Eigen::Quaterniond::Identity();
  const Eigen::Quaterniond ref(Eigen::AngleAxisd(2.4, Eigen::Vector3d(1, -1, 2).normalized()));
  rf::TransientLinear<Eigen::Quaterniond> f(T, w, q0);
  Eigen::Quaterniond prev = q0;
  int k = 0;
  for (; k < 1000 && prev.angularDistance(ref) > 1e-12; ++k) {
    const Eigen::Quaterniond y = f.update(ref);
    EXPECT_NEAR(y.norm(), 1.0, 1e-14);
    EXPECT_LE(y.angularDistance(prev), w * T * (1 + 1e-9));
    // Stays on the geodesic from q0 to ref.
    EXPECT_NEAR(y.angularDistance(q0) + y.angularDistance(ref), 2.4, 1e-9);
    prev = y;
  }
  // 2.4 rad at 0.015 rad per step (one more if rounding left a residue).
  EXPECT_GE(k, 160);
  EXPECT_LE(k, 161);
}

TEST(FilterTransients, PoseTransientBoundsLinearAndAngularSpeeds) {
  const double T = 0.01, tau = 0.2;
  const rf::LinearAngular v{0.3, 0.6};
  rf::TransientExpLimited<KDL::Frame> f(T, tau, v, KDL::Frame::Identity());
  const KDL::Frame ref(KDL::Rotation::RPY(0.3, -1.0, 0.8), KDL::Vector(0.5, -0.2, 0.4));
  KDL::Frame prev = KDL::Frame::Identity();
  for (int k = 0; k < 2000; ++k) {
    const KDL::Frame y = f.update(ref);
    const KDL::Twist d = KDL::diff(prev, y);
    ASSERT_LE(d.vel.Norm(), v.linear * T * (1 + 1e-9)) << "k=" << k;
    ASSERT_LE(d.rot.Norm(), v.angular * T * (1 + 1e-6)) << "k=" << k;
    prev = y;
  }
  EXPECT_TRUE(KDL::Equal(prev, ref, 1e-9));
}

TEST(FilterTransients, TwistAndVector3AndJntArraySignals) {
  rf::TransientExp<KDL::Twist> ft(0.01, 0.02);
  const KDL::Twist target(KDL::Vector(1, 2, 3), KDL::Vector(-1, 0, 1));
  KDL::Twist y;
  for (int k = 0; k < 200; ++k) y = ft.update(target);
  EXPECT_TRUE(KDL::Equal(y, target, 1e-12));

  rf::TransientLinear<KDL::Vector> fv(0.01, 1.0);  // m/s, Euclidean length
  const KDL::Vector p = fv.update(KDL::Vector(3, 4, 0));
  EXPECT_NEAR(p.x(), 0.006, 1e-15);
  EXPECT_NEAR(p.y(), 0.008, 1e-15);

  KDL::JntArray q0(2), qr(2);
  qr.data << 1.0, -1.0;
  rf::TransientExp<KDL::JntArray> fj(0.01, 0.1, q0);
  EXPECT_NEAR(fj.update(qr)(1), -0.1, 1e-15);
}

TEST(FilterTransients, RejectsInvalidParameters) {
  EXPECT_THROW(rf::TransientExp<double>(0.0, 0.1), rmodel::InvalidArgument);
  EXPECT_THROW(rf::TransientExp<double>(0.01, -0.1), rmodel::InvalidArgument);
  EXPECT_THROW(rf::TransientExp<double>(0.01, 0.001), rmodel::InvalidArgument);
  EXPECT_THROW(rf::TransientLinear<double>(0.01, -1.0), rmodel::InvalidArgument);
  EXPECT_THROW(rf::TransientLinear<double>(0.01, std::nan("")), rmodel::InvalidArgument);
  EXPECT_THROW(rf::TransientExpLimited<double>(0.01, 0.1, -0.1), rmodel::InvalidArgument);
  EXPECT_NO_THROW(rf::TransientLinear<double>(0.01, INFINITY));
  EXPECT_NO_THROW(rf::TransientLinear<double>(0.01, 0.0));
  try {
    rf::TransientExp<double> f(0.01, -3.0);
    FAIL();
  } catch (const rmodel::InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("TransientExp"), std::string::npos) << what;
    EXPECT_NE(what.find("tau must be"), std::string::npos) << what;
    EXPECT_NE(what.find("-3"), std::string::npos) << what;
  }
}
