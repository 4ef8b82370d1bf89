// The stateless integrator (position and velocity in, new position out): each rule is exact
// on the polynomials its order promises (fixed and variable step), fed back its own output it
// reproduces the stateful Euler and trapezoid integrators, a position given from outside
// restarts the integration there, a constant angular velocity is integrated exactly, and no
// step allocates.

#include <cmath>
#include <random>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "alloc_counter.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/filters/integrators.hpp"
#include "rmodel/filters/stateless_integrator.hpp"

namespace rf = rmodel::filters;

namespace {

// Velocity polynomials and their integrals from 0 (positions), written by hand.
double constant_rate(double) { return 0.7; }
double constant_rate_integral(double t) { return 0.7 * t; }
double linear_rate(double t) { return 0.7 - 2.0 * t; }
double linear_rate_integral(double t) { return 0.7 * t - t * t; }
double quadratic_rate(double t) { return 0.7 - 2.0 * t + 3.0 * t * t; }
double quadratic_rate_integral(double t) { return 0.7 * t - t * t + t * t * t; }

/// Runs `rule` fed back its own output over the sample times `times` (times[0] = 0) and
/// returns the largest error against the exact position.
double stateless_worst_error(rf::IntegrationRule rule, const std::vector<double>& times, double (*u)(double),
                   double (*x)(double)) {
  rf::StatelessIntegrator<double> f(0.01, rule);
  double position = x(times[0]);
  double worst = 0.0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    const double dt = k == 0 ? 0.01 : times[k] - times[k - 1];
    position = f.step(position, u(times[k]), rf::Interval{dt});
    worst = std::max(worst, std::abs(position - x(times[k])));
  }
  return worst;
}

std::vector<double> uniform_sample_times(int n, double T) {
  std::vector<double> t;
  for (int k = 0; k < n; ++k) t.push_back(k * T);
  return t;
}

std::vector<double> random_sample_times(int n) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> gap(0.003, 0.02);
  std::vector<double> t{0.0};
  for (int k = 1; k < n; ++k) t.push_back(t.back() + gap(rng));
  return t;
}

}  // namespace

/// Largest error of one step from the exact position at the previous sample (the position
/// given from outside), over the steps from `first` on.
double stateless_step_error(rf::IntegrationRule rule, const std::vector<double>& times, double (*u)(double),
                            double (*x)(double), std::size_t first) {
  rf::StatelessIntegrator<double> f(0.01, rule);
  double worst = 0.0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    const double dt = k == 0 ? 0.01 : times[k] - times[k - 1];
    const double from = k == 0 ? x(times[0]) : x(times[k - 1]);
    const double y = f.step(from, u(times[k]), rf::Interval{dt});
    if (k >= first) worst = std::max(worst, std::abs(y - x(times[k])));
  }
  return worst;
}

TEST(FilterStatelessIntegrator, EachRuleIsExactOnThePolynomialsOfItsOrder) {
  using R = rf::IntegrationRule;
  for (const auto& times : {uniform_sample_times(300, 0.01), random_sample_times(300)}) {
    // Given the exact position at every sample, each step is exact once the rule has the
    // samples it needs (Simpson's second step has two: the trapezoid).
    EXPECT_LT(stateless_step_error(R::euler, times, constant_rate, constant_rate_integral, 0), 1e-14);
    EXPECT_LT(stateless_step_error(R::trapezoid, times, linear_rate, linear_rate_integral, 0), 1e-14);
    EXPECT_LT(stateless_step_error(R::simpson, times, quadratic_rate, quadratic_rate_integral, 2), 1e-14);
    // ... and not beyond its order: the lower rules do err on the next polynomial.
    EXPECT_GT(stateless_step_error(R::euler, times, linear_rate, linear_rate_integral, 0), 1e-6);
    EXPECT_GT(stateless_step_error(R::trapezoid, times, quadratic_rate, quadratic_rate_integral, 0), 1e-8);
    // Fed back its own output, a rule exact from the first step stays exact; Simpson keeps
    // the error of its second (trapezoid) step and adds nothing to it.
    EXPECT_LT(stateless_worst_error(R::euler, times, constant_rate, constant_rate_integral), 1e-12);
    EXPECT_LT(stateless_worst_error(R::trapezoid, times, linear_rate, linear_rate_integral), 1e-12);
    const double second = stateless_step_error(R::simpson, std::vector<double>(times.begin(), times.begin() + 2),
                                               quadratic_rate, quadratic_rate_integral, 1);
    EXPECT_GT(second, 0.0);
    EXPECT_LT(stateless_worst_error(R::simpson, times, quadratic_rate, quadratic_rate_integral), second + 1e-12);
  }
}

TEST(FilterStatelessIntegrator, FedBackItsOutputItIsTheStatefulIntegrator) {
  const double T = 0.02;
  const Eigen::VectorXd x0 = Eigen::VectorXd::LinSpaced(4, -1.0, 2.0);
  rf::EulerIntegrator<Eigen::VectorXd> euler(T, x0);
  rf::TrapezoidIntegrator<Eigen::VectorXd> trapezoid(T, x0);
  rf::StatelessIntegrator<Eigen::VectorXd> e(T, rf::IntegrationRule::euler, x0);
  rf::StatelessIntegrator<Eigen::VectorXd> t(T, rf::IntegrationRule::trapezoid, x0);
  Eigen::VectorXd xe = x0, xt = x0;
  for (int k = 0; k < 200; ++k) {
    const Eigen::VectorXd u = Eigen::VectorXd::LinSpaced(4, 0.5, -0.5) * std::sin(0.1 * k) +
                              Eigen::VectorXd::Constant(4, 0.01 * k);
    xe = e.step(xe, u);
    xt = t.step(xt, u);
    ASSERT_LT((xe - euler.update(u)).cwiseAbs().maxCoeff(), 1e-13) << "k=" << k;
    ASSERT_LT((xt - trapezoid.update(u)).cwiseAbs().maxCoeff(), 1e-13) << "k=" << k;
  }
}

TEST(FilterStatelessIntegrator, APositionFromOutsideRestartsTheIntegrationThere) {
  rf::StatelessIntegrator<double> f(0.01, rf::IntegrationRule::simpson);
  double x = 0.0;
  for (int k = 0; k < 10; ++k) x = f.step(x, quadratic_rate(k * 0.01));
  // A measurement says the position at the next sample's start is 5: the step goes from 5
  // by the same increment it would have added to x.
  const double increment = f.step(x, quadratic_rate(0.10)) - x;
  rf::StatelessIntegrator<double> g(0.01, rf::IntegrationRule::simpson);
  double y = 0.0;
  for (int k = 0; k < 10; ++k) y = g.step(y, quadratic_rate(k * 0.01));
  EXPECT_NEAR(g.step(5.0, quadratic_rate(0.10)), 5.0 + increment, 1e-15);
  EXPECT_NEAR(increment, quadratic_rate_integral(0.10) - quadratic_rate_integral(0.09), 1e-15);
}

TEST(FilterStatelessIntegrator, ConstantAngularVelocityIsIntegratedExactly) {
  const Eigen::Vector3d omega(0.3, -1.2, 0.8);
  const Eigen::Quaterniond start(Eigen::AngleAxisd(0.9, Eigen::Vector3d(1, 2, 3).normalized()));
  for (auto rule : {rf::IntegrationRule::euler, rf::IntegrationRule::trapezoid, rf::IntegrationRule::simpson}) {
    rf::StatelessIntegrator<Eigen::Quaterniond> f(0.01, rule);
    Eigen::Quaterniond q = start;
    for (int k = 0; k <= 500; ++k) {
      q = f.step(q, omega);
      const Eigen::Quaterniond exact = Eigen::Quaterniond(Eigen::AngleAxisd(k * 0.01 * omega.norm(), omega.normalized())) * start;
      ASSERT_LT(q.angularDistance(exact), 1e-12) << "rule " << static_cast<int>(rule) << " k=" << k;
    }
  }
}

TEST(FilterStatelessIntegrator, RejectsABadPeriodAndNeverAllocates) {
  EXPECT_THROW((rf::StatelessIntegrator<double>(0.0, rf::IntegrationRule::euler)), rmodel::InvalidArgument);
  const Eigen::VectorXd x0 = Eigen::VectorXd::Zero(12);
  rf::StatelessIntegrator<Eigen::VectorXd> f(0.01, rf::IntegrationRule::simpson, x0);
  const Eigen::VectorXd u = Eigen::VectorXd::Constant(12, 0.3);
  Eigen::VectorXd x = x0;
  rmodel::test::AllocationCounter counter;
  for (int k = 0; k < 100; ++k) {
    x = f.step(x, u);
    x = f.step(x, u, rf::Interval{0.013});
  }
  EXPECT_EQ(counter.count(), 0U);
}
