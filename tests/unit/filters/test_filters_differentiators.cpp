// Differentiators against analytic derivatives: exact on ramps (backward difference), the
// closed-form response of the lag differentiator, exactness of the FIR polynomial
// differentiator on polynomials up to its order, and textbook finite-difference weights.

#include <cmath>
#include <random>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <gtest/gtest.h>
#include <kdl/frames.hpp>

#include "rmodel/base/error.hpp"
#include "rmodel/filters/differentiators.hpp"

namespace rf = rmodel::filters;

TEST(FilterDifferentiators, BackwardDifferenceOfRampIsExact) {
  const double T = 0.01;
  rf::BackwardDifference<double> f(T, 1.0 - 2.5 * T);  // x0 = the sample before t = 0
  for (int k = 0; k < 300; ++k) EXPECT_NEAR(f.update(1.0 + 2.5 * k * T), 2.5, 1e-9);
}

TEST(FilterDifferentiators, BackwardDifferenceOnJointArrays) {
  const double T = 0.02;
  Eigen::VectorXd x0(3), slope(3);
  x0 << 0.1, -0.2, 0.3;
  slope << 1.0, -2.0, 0.5;
  rf::BackwardDifference<Eigen::VectorXd> f(T, x0);
  for (int k = 1; k < 100; ++k) {
    const Eigen::VectorXd u = x0 + slope * (k * T);
    EXPECT_LT((f.update(u) - slope).cwiseAbs().maxCoeff(), 1e-9) << "k=" << k;
  }
}

TEST(FilterDifferentiators, LagDifferentiatorStepResponseIsClosedForm) {
  // s/(τs+1) on a unit step from rest: y[k] = (1/τ)(1 − T/τ)^k in this discretisation.
  const double T = 0.01, tau = 0.05;
  rf::LagDifferentiator<double> f(T, tau, 0.0);
  for (int k = 0; k < 200; ++k)
    EXPECT_NEAR(f.update(1.0), std::pow(1.0 - T / tau, k) / tau, 1e-12) << "k=" << k;
}

TEST(FilterDifferentiators, LagDifferentiatorRampGivesSlopeAndEqualsBackwardDifferenceAtTauT) {
  const double T = 0.01;
  rf::LagDifferentiator<double> lag(T, 0.1);
  double y = 0.0;
  for (int k = 0; k < 2000; ++k) y = lag.update(3.0 * k * T);
  EXPECT_NEAR(y, 3.0, 1e-9);

  rf::LagDifferentiator<double> lag_t(T, T, 0.4);
  rf::BackwardDifference<double> bd(T, 0.4);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int k = 0; k < 100; ++k) {
    const double u = dist(rng);
    EXPECT_NEAR(lag_t.update(u), bd.update(u), 1e-9);
  }
}

TEST(FilterDifferentiators, FirWeightsMatchTextbookFormulas) {
  const std::vector<double> w2 = rf::polynomial_derivative_weights(2, 1);
  ASSERT_EQ(w2.size(), 2U);
  EXPECT_NEAR(w2[0], 1.0, 1e-12);
  EXPECT_NEAR(w2[1], -1.0, 1e-12);
  // Second-order backward difference (3u[k] − 4u[k−1] + u[k−2]) / 2.
  const std::vector<double> w3 = rf::polynomial_derivative_weights(3, 2);
  ASSERT_EQ(w3.size(), 3U);
  EXPECT_NEAR(w3[0], 1.5, 1e-12);
  EXPECT_NEAR(w3[1], -2.0, 1e-12);
  EXPECT_NEAR(w3[2], 0.5, 1e-12);
  // Least-squares line through 5 points: slope = Σ (i − 2)·u / 10, newest at +2.
  const std::vector<double> w5 = rf::polynomial_derivative_weights(5, 1);
  ASSERT_EQ(w5.size(), 5U);
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(w5[i], (2.0 - i) / 10.0, 1e-12) << i;
}

TEST(FilterDifferentiators, FirWeightsDifferentiatePolynomialsUpToTheirOrderExactly) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> dist(-2.0, 2.0);
  for (int window : {3, 5, 9, 15, 31}) {
    for (int order = 1; order < window && order <= 6; ++order) {
      const std::vector<double> w = rf::polynomial_derivative_weights(window, order);
      for (int degree = 0; degree <= order; ++degree) {
        std::vector<double> c(static_cast<std::size_t>(degree) + 1);
        for (double& ci : c) ci = dist(rng);
        // p(s) = Σ c_j (s/W)^j with the newest sample at s = 0, older ones at s = −i;
        // scaling by the window W keeps the values O(1), so p'(0) = c_1/W is resolved.
        const double W = window;
        auto p = [&](double s) {
          double v = 0.0;
          for (std::size_t j = c.size(); j-- > 0;) v = v * (s / W) + c[j];
          return v;
        };
        double d = 0.0;
        for (int i = 0; i < window; ++i) d += w[static_cast<std::size_t>(i)] * p(-i);
        const double truth = degree >= 1 ? c[1] / W : 0.0;
        EXPECT_NEAR(d, truth, 1e-10)
            << "window " << window << " order " << order << " degree " << degree;
      }
    }
  }
}

TEST(FilterDifferentiators, FirDifferentiatorIsExactOnQuadraticSignal) {
  const double T = 0.01;
  auto u = [](double t) { return 2.0 - t + 3.0 * t * t; };
  auto du = [](double t) { return -1.0 + 6.0 * t; };
  rf::FirDifferentiator<double> f(T, 7, 2, 0.0);
  for (int k = 0; k < 200; ++k) {
    const double y = f.update(u(k * T));
    if (k >= 6) {  // window filled
      EXPECT_NEAR(y, du(k * T), 1e-8) << "k=" << k;
    }
  }
  EXPECT_EQ(f.weights().size(), 7U);
}

TEST(FilterDifferentiators, FirDifferentiatorStartFillsHistory) {
  rf::FirDifferentiator<Eigen::VectorXd> f(0.1, 4, 2, Eigen::VectorXd::Constant(2, 5.0));
  // A signal that has been constant forever has zero derivative.
  EXPECT_LT(f.update(Eigen::VectorXd::Constant(2, 5.0)).cwiseAbs().maxCoeff(), 1e-12);
  f.start(Eigen::VectorXd::Constant(2, 1.0));
  EXPECT_LT(f.update(Eigen::VectorXd::Constant(2, 1.0)).cwiseAbs().maxCoeff(), 1e-12);
  const Eigen::VectorXd y = f.output(Eigen::VectorXd::Constant(2, 2.0));
  EXPECT_GT(y[0], 0.0);
  EXPECT_EQ(y, f.output(Eigen::VectorXd::Constant(2, 2.0)));  // output does not advance
}

TEST(FilterDifferentiators, QuaternionBackwardDifferenceRecoversAngularVelocity) {
  const double T = 0.01;
  const Eigen::Vector3d w(0.5, -0.25, 1.0);
  auto q = [&](double t) {
    return Eigen::Quaterniond(Eigen::AngleAxisd(w.norm() * t, w.normalized()));
  };
  rf::BackwardDifference<Eigen::Quaterniond> f(T, q(-T));
  rf::LagDifferentiator<KDL::Rotation> lag(T, 0.05, KDL::Rotation::Identity());
  Eigen::Vector3d y;
  KDL::Vector yl;
  for (int k = 0; k < 500; ++k) {
    // The sign of a quaternion is irrelevant to the rotation.
    y = f.update(k % 2 == 0 ? q(k * T) : Eigen::Quaterniond(-q(k * T).coeffs()));
    const Eigen::Matrix3d m = q(k * T).toRotationMatrix();
    yl = lag.update(KDL::Rotation(m(0, 0), m(0, 1), m(0, 2), m(1, 0), m(1, 1), m(1, 2), m(2, 0),
                                  m(2, 1), m(2, 2)));
    EXPECT_LT((y - w).norm(), 1e-9) << "k=" << k;
  }
  EXPECT_NEAR(yl.x(), w.x(), 1e-6);
  EXPECT_NEAR(yl.y(), w.y(), 1e-6);
  EXPECT_NEAR(yl.z(), w.z(), 1e-6);
}

TEST(FilterDifferentiators, RejectsInvalidParameters) {
  EXPECT_THROW(rf::BackwardDifference<double>(0.0), rmodel::InvalidArgument);
  EXPECT_THROW(rf::LagDifferentiator<double>(0.01, 0.0), rmodel::InvalidArgument);
  EXPECT_THROW(rf::LagDifferentiator<double>(0.01, -1.0), rmodel::InvalidArgument);
  EXPECT_THROW(rf::LagDifferentiator<double>(0.01, 0.005), rmodel::InvalidArgument);
  EXPECT_THROW(rf::FirDifferentiator<double>(0.01, 1, 1), rmodel::InvalidArgument);
  EXPECT_THROW(rf::FirDifferentiator<double>(0.01, 5, 0), rmodel::InvalidArgument);
  EXPECT_THROW(rf::FirDifferentiator<double>(0.01, 5, 5), rmodel::InvalidArgument);
  EXPECT_THROW(rf::FirDifferentiator<double>(0.01, 600, 2), rmodel::InvalidArgument);
  EXPECT_THROW(rf::FirDifferentiator<double>(-0.01, 5, 2), rmodel::InvalidArgument);
  try {
    rf::LagDifferentiator<double> f(0.01, 0.001);
    FAIL();
  } catch (const rmodel::InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("tau"), std::string::npos) << what;
    EXPECT_NE(what.find("0.001"), std::string::npos) << what;
  }
  try {
    rf::FirDifferentiator<double> f(0.01, 4, 7);
    FAIL();
  } catch (const rmodel::InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("order"), std::string::npos) << what;
    EXPECT_NE(what.find("7"), std::string::npos) << what;
  }
}
