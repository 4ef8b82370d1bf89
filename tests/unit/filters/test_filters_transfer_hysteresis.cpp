// Transfer function against a hand-written direct-form recursion (and its normalisation
// and steady state), and hysteresis switching.

#include <cmath>
#include <random>
#include <vector>

#include <Eigen/Core>
#include <gtest/gtest.h>

#include "rmodel/base/error.hpp"
#include "rmodel/filters/hysteresis.hpp"
#include "rmodel/filters/transfer_function.hpp"

namespace rf = rmodel::filters;

namespace {

/// y[k] = (Σ b_i u[k−i] − Σ_{i≥1} a_i y[k−i]) / a_0 with zero initial history.
std::vector<double> recursion(const std::vector<double>& b, const std::vector<double>& a,
                              const std::vector<double>& u) {
  std::vector<double> y(u.size(), 0.0);
  for (std::size_t k = 0; k < u.size(); ++k) {
    double acc = 0.0;
    for (std::size_t i = 0; i < b.size() && i <= k; ++i) acc += b[i] * u[k - i];
    for (std::size_t i = 1; i < a.size() && i <= k; ++i) acc -= a[i] * y[k - i];
    y[k] = acc / a[0];
  }
  return y;
}

}  // namespace

TEST(FilterTransferFunction, EqualsHandComputedRecursion) {
  const std::vector<double> b{0.2, 0.3, -0.1, 0.05};
  const std::vector<double> a{2.0, -0.9, 0.3};  // not normalised on purpose
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> u(500);
  for (double& v : u) v = dist(rng);
  const std::vector<double> expected = recursion(b, a, u);
  rf::TransferFunction<double> f(b, a);
  for (std::size_t k = 0; k < u.size(); ++k)
    ASSERT_NEAR(f.update(u[k]), expected[k], 1e-12) << "k=" << k;
  EXPECT_DOUBLE_EQ(f.coefficients().a[0], 1.0);
  EXPECT_DOUBLE_EQ(f.coefficients().b[0], 0.1);
}

TEST(FilterTransferFunction, ScalingAllCoefficientsChangesNothing) {
  rf::TransferFunction<double> f({1.0, 1.0}, {1.0, -0.5});
  rf::TransferFunction<double> g({3.0, 3.0}, {3.0, -1.5});
  for (int k = 0; k < 50; ++k) {
    const double u = std::sin(0.2 * k);
    EXPECT_NEAR(f.update(u), g.update(u), 1e-14);
  }
}

TEST(FilterTransferFunction, JointArraysFilterEachJointAlike) {
  const std::vector<double> b{0.5, 0.25}, a{1.0, -0.25};
  rf::TransferFunction<Eigen::VectorXd> f(b, a, Eigen::VectorXd::Zero(3));
  std::vector<double> u0(100), u1(100), u2(100);
  for (int k = 0; k < 100; ++k) {
    u0[k] = std::sin(0.1 * k);
    u1[k] = k % 7 == 0 ? 1.0 : 0.0;
    u2[k] = -0.01 * k;
  }
  const auto e0 = recursion(b, a, u0), e1 = recursion(b, a, u1), e2 = recursion(b, a, u2);
  for (int k = 0; k < 100; ++k) {
    const Eigen::VectorXd& y = f.update(Eigen::Vector3d(u0[k], u1[k], u2[k]));
    EXPECT_NEAR(y[0], e0[k], 1e-13);
    EXPECT_NEAR(y[1], e1[k], 1e-13);
    EXPECT_NEAR(y[2], e2[k], 1e-13);
  }
}

TEST(FilterTransferFunction, StartInSteadyStateAndOutputSemantics) {
  // H(1) = (0.3 + 0.2) / (1 − 0.5) = 1.
  rf::TransferFunction<double> f({0.3, 0.2}, {1.0, -0.5}, 4.0);
  EXPECT_NEAR(f.coefficients().dc_gain, 1.0, 1e-15);
  for (int k = 0; k < 10; ++k) EXPECT_NEAR(f.update(4.0), 4.0, 1e-12);
  const double y = f.output(5.0);
  EXPECT_EQ(y, f.output(5.0));
  f.update();
  EXPECT_NEAR(f.update(4.0), 0.3 * 4.0 + 0.2 * 5.0 + 0.5 * y, 1e-12);
  // A pole at z = 1 (an integrator) has no steady state: it starts from zero output.
  rf::TransferFunction<double> integ({1.0}, {1.0, -1.0}, 2.0);
  EXPECT_EQ(integ.coefficients().dc_gain, 0.0);
  EXPECT_NEAR(integ.update(2.0), 2.0, 1e-15);
  EXPECT_NEAR(integ.update(2.0), 4.0, 1e-15);
}

TEST(FilterTransferFunction, RejectsInvalidCoefficients) {
  EXPECT_THROW(rf::TransferFunction<double>({}, {1.0}), rmodel::InvalidArgument);
  EXPECT_THROW(rf::TransferFunction<double>({1.0}, {}), rmodel::InvalidArgument);
  EXPECT_THROW(rf::TransferFunction<double>({1.0}, {0.0, 1.0}), rmodel::InvalidArgument);
  EXPECT_THROW(rf::TransferFunction<double>({1.0, NAN}, {1.0}), rmodel::InvalidArgument);
  EXPECT_THROW(rf::TransferFunction<double>(std::vector<double>(65, 1.0), {1.0}),
               rmodel::InvalidArgument);
  try {
    rf::TransferFunction<double> f({1.0}, {0.0});
    FAIL();
  } catch (const rmodel::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("a[0]"), std::string::npos) << e.what();
  }
}

TEST(FilterHysteresis, SwitchesOnAndOffAtThresholdsOnly) {
  rf::Hysteresis<double> h(1.0, -1.0);
  const std::vector<double> u{0.0, 0.9, 1.0, 0.5, -0.9, -1.0, -0.5, 0.99, 2.0, -3.0};
  const std::vector<double> y{0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0};
  for (std::size_t k = 0; k < u.size(); ++k) EXPECT_EQ(h.update(u[k]), y[k]) << "k=" << k;
}

TEST(FilterHysteresis, PerJointStatesAndStart) {
  Eigen::VectorXd x0(3);
  x0 << 0.0, 2.0, 0.0;  // nonzero = on
  rf::Hysteresis<Eigen::VectorXd> h(0.5, 0.1, x0);
  Eigen::VectorXd u(3);
  u << 0.3, 0.3, 0.6;
  EXPECT_EQ(h.update(u), Eigen::Vector3d(0.0, 1.0, 1.0));
  u << 0.05, 0.2, 0.2;
  EXPECT_EQ(h.output(u), Eigen::Vector3d(0.0, 1.0, 1.0));
  u << 0.6, 0.0, 0.2;
  EXPECT_EQ(h.update(u), Eigen::Vector3d(1.0, 0.0, 1.0));
  h.start();
  EXPECT_EQ(h.state(), Eigen::Vector3d(0.0, 1.0, 0.0));
}

TEST(FilterHysteresis, RejectsOffAboveOnOrNaN) {
  try {
    rf::Hysteresis<double> h(0.25, 1.5);
    FAIL();
  } catch (const rmodel::InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("off threshold (1.5) must be <= on threshold (0.25)"), std::string::npos)
        << what;
  }
  EXPECT_THROW(rf::Hysteresis<double>(NAN, 0.0), rmodel::InvalidArgument);
  EXPECT_NO_THROW(rf::Hysteresis<double>(0.5, 0.5));
}
