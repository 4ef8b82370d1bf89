// Fusion of two trajectories: the weight sequences in closed form, the blend formula,
// the speed bound of the limited law, and blending on the sphere (slerp) for orientations.

#include <algorithm>
#include <cmath>
#include <random>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <gtest/gtest.h>
#include <kdl/frames.hpp>

#include "rmodel/base/error.hpp"
#include "rmodel/filters/fusion.hpp"

namespace rf = rmodel::filters;

TEST(FilterFusion, LinearWeightFallsToZeroInTau) {
  const double T = 0.01, tau = 0.5;
  rf::FusionLinear<double> f(T, tau);
  for (int k = 0; k < 80; ++k) {
    const double w = std::max(0.0, 1.0 - k * T / tau);
    EXPECT_NEAR(f.weight(), w, 1e-12) << "k=" << k;
    const double u1 = std::sin(0.1 * k), u2 = 3.0 + 0.05 * k;
    EXPECT_NEAR(f.update(u1, u2), w * u1 + (1.0 - w) * u2, 1e-12) << "k=" << k;
  }
  EXPECT_EQ(f.weight(), 0.0);
}

TEST(FilterFusion, ExponentialWeightIsGeometric) {
  const double T = 0.01, tau = 0.2;
  Eigen::VectorXd u1(2), u2(2);
  u1 << 1.0, -1.0;
  u2 << 0.0, 4.0;
  rf::FusionExp<Eigen::VectorXd> f(T, tau, Eigen::VectorXd::Zero(2));
  for (int k = 0; k < 200; ++k) {
    const double w = std::pow(1.0 - T / tau, k);
    const Eigen::VectorXd& y = f.update(u1, u2);
    EXPECT_LT((y - (w * u1 + (1.0 - w) * u2)).cwiseAbs().maxCoeff(), 1e-12) << "k=" << k;
  }
}

TEST(FilterFusion, StartAndOutputSemantics) {
  rf::FusionExp<double> f(0.1, 0.5);
  EXPECT_EQ(f.output(1.0, 0.0), 1.0);
  EXPECT_EQ(f.output(1.0, 0.0), 1.0);  // output does not advance
  f.update();
  EXPECT_NEAR(f.weight(), 0.8, 1e-15);
  f.update();  // nothing pending
  EXPECT_NEAR(f.weight(), 0.8, 1e-15);
  f.start(0.5);
  EXPECT_EQ(f.update(2.0, 0.0), 1.0);
  f.start();
  EXPECT_EQ(f.weight(), 0.5);
  EXPECT_THROW(f.start(1.5), rmodel::InvalidArgument);
}

TEST(FilterFusion, LimitedFusionMovesNoFasterThanBoundAndConverges) {
  const double T = 0.01, tau = 0.05, v = 2.0;
  const Eigen::Index n = 6;
  std::mt19937 rng(1234);
  std::uniform_real_distribution<double> dist(-3.0, 3.0);
  Eigen::VectorXd u1(n), u2(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    u1[i] = dist(rng);
    u2[i] = dist(rng);
  }
  rf::FusionExpLimited<Eigen::VectorXd> f(T, tau, v, Eigen::VectorXd::Zero(n));
  Eigen::VectorXd prev = f.update(u1, u2);
  bool limited = false;
  for (int k = 1; k < 2000; ++k) {
    const double w_before = f.weight();
    const Eigen::VectorXd y = f.update(u1, u2);
    // Constant inputs: only the blend moves y, so every joint's step is bounded by v·T.
    EXPECT_LE((y - prev).cwiseAbs().maxCoeff(), v * T * (1.0 + 1e-12)) << "k=" << k;
    if (w_before * (T / tau) * (u1 - u2).cwiseAbs().maxCoeff() > v * T) limited = true;
    prev = y;
  }
  EXPECT_TRUE(limited) << "the test should exercise the bound";
  EXPECT_LT((prev - u2).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(FilterFusion, LimitedFusionEqualsExponentialWhenTheBoundIsSlack) {
  const double T = 0.01, tau = 0.1;
  rf::FusionExpLimited<double> lim(T, tau, 1e3);
  rf::FusionExp<double> exp(T, tau);
  // Equal up to rounding: the limited law lowers the weight by w·T/τ, the other scales it.
  for (int k = 0; k < 100; ++k) EXPECT_NEAR(lim.update(1.0, -1.0), exp.update(1.0, -1.0), 1e-14);
}

TEST(FilterFusion, QuaternionsBlendOnTheSphere) {
  const double T = 0.01, tau = 0.3;
  const Eigen::Quaterniond u1(Eigen::AngleAxisd(2.5, Eigen::Vector3d(1, 1, 0).normalized()));
  // Given with a negative scalar part: the blend must still take the short way.
  const Eigen::Quaterniond u2raw(Eigen::AngleAxisd(-0.4, Eigen::Vector3d(0, 0, 1)));
  const Eigen::Quaterniond u2(-u2raw.coeffs());
  rf::FusionLinear<Eigen::Quaterniond> f(T, tau);
  for (int k = 0; k < 40; ++k) {
    const double w = f.weight();
    const Eigen::Quaterniond& y = f.update(u1, u2);
    EXPECT_NEAR(y.norm(), 1.0, 1e-14);
    EXPECT_LT(y.angularDistance(u2.slerp(w, u1)), 1e-12) << "k=" << k;
    // On the great arc: the distances to both ends add up to the distance between them.
    EXPECT_NEAR(y.angularDistance(u1) + y.angularDistance(u2), u1.angularDistance(u2), 1e-12);
  }
}

TEST(FilterFusion, PosesBlendPositionLinearlyAndOrientationBySlerp) {
  const KDL::Frame a(KDL::Rotation::RotZ(1.0), KDL::Vector(1, 0, 0));
  const KDL::Frame b(KDL::Rotation::RotX(-0.5), KDL::Vector(0, 2, 0));
  rf::FusionExp<KDL::Frame> f(0.01, 0.1);
  for (int k = 0; k < 50; ++k) {
    const double w = f.weight();
    const KDL::Frame y = f.update(a, b);
    EXPECT_TRUE(KDL::Equal(y.p, w * a.p + (1.0 - w) * b.p, 1e-12));
    // Distances along the arc split in the ratio of the weights.
    KDL::Vector axis;
    const double to_b = (y.M * b.M.Inverse()).GetRotAngle(axis);
    const double to_a = (a.M * y.M.Inverse()).GetRotAngle(axis);
    EXPECT_NEAR(to_b, w * (to_a + to_b), 1e-9) << "k=" << k;
  }
}

TEST(FilterFusion, LimitedPoseFusionBoundsLinearAndAngularSpeedsSeparately) {
  const double T = 0.01;
  const rf::LinearAngular v{0.5, 1.0};  // m/s, rad/s
  const KDL::Frame a(KDL::Rotation::RotY(2.0), KDL::Vector(1, 1, 1));
  const KDL::Frame b(KDL::Rotation::Identity(), KDL::Vector(0, 0, 0));
  rf::FusionExpLimited<KDL::Frame> f(T, 0.02, v);
  KDL::Frame prev = f.update(a, b);
  for (int k = 1; k < 1500; ++k) {
    const KDL::Frame y = f.update(a, b);
    const KDL::Twist d = KDL::diff(prev, y);
    EXPECT_LE(d.vel.Norm(), v.linear * T * (1 + 1e-9)) << "k=" << k;
    EXPECT_LE(d.rot.Norm(), v.angular * T * (1 + 1e-6)) << "k=" << k;
    prev = y;
  }
  EXPECT_TRUE(KDL::Equal(prev, b, 1e-6));
}

TEST(FilterFusion, RejectsInvalidParameters) {
  EXPECT_THROW(rf::FusionLinear<double>(0.0, 1.0), rmodel::InvalidArgument);
  EXPECT_THROW(rf::FusionLinear<double>(0.01, 0.0), rmodel::InvalidArgument);
  EXPECT_THROW(rf::FusionExp<double>(0.01, 0.001), rmodel::InvalidArgument);
  EXPECT_THROW(rf::FusionExpLimited<double>(0.01, 0.1, -1.0), rmodel::InvalidArgument);
  EXPECT_THROW(rf::FusionExpLimited<KDL::Frame>(0.01, 0.1, rf::LinearAngular{1.0, -1.0}),
               rmodel::InvalidArgument);
  try {
    rf::FusionExpLimited<double> f(0.01, 0.1, -2.0);
    FAIL();
  } catch (const rmodel::InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("v must be >= 0"), std::string::npos) << what;
    EXPECT_NE(what.find("-2"), std::string::npos) << what;
  }
}
