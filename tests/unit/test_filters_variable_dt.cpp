// Filters over a variable step: the dt forms of ArrayFilter (registry.hpp) and of the
// family templates. Truth: (a) the fixed-step filter itself when every dt equals T (bit
// for bit); (b) analytic solutions of the continuous systems at the actual sample times
// of irregular timings (bursts 1–3 ms apart, gaps of 40–50 ms, fixed seed).

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "rmodel/filters.hpp"

namespace rf = rmodel::filters;
using Vec = Eigen::VectorXd;

namespace {

/// Sample times from 0: bursts of 1..5 samples 1–3 ms apart, separated by 40–50 ms gaps.
std::vector<double> irregular_times(double duration, unsigned seed = 12) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> burst(0.001, 0.003), gap(0.040, 0.050);
  std::uniform_int_distribution<int> burst_len(1, 5);
  std::vector<double> t{0.0};
  while (t.back() < duration) {
    t.push_back(t.back() + gap(rng));
    for (int i = burst_len(rng); i > 0; --i) t.push_back(t.back() + burst(rng));
  }
  return t;
}

/// A deterministic, non-trivial joint-array signal.
Vec signal(double t, Eigen::Index n) {
  Vec u(n);
  for (Eigen::Index i = 0; i < n; ++i)
    u[i] = std::sin(3.0 * t + 0.7 * static_cast<double>(i)) + 0.3 * static_cast<double>(i);
  return u;
}

}  // namespace

// (a) dt == T is the fixed-step filter, bit for bit, for every kind and every call form.
TEST(VariableDt, DtEqualToPeriodIsTheFixedStepFilter) {
  constexpr Eigen::Index n = 4;
  for (const rf::FilterKind& kind : rf::filter_kinds()) {
    const auto fixed = rf::make_array_filter(kind.name, n);
    const auto timed = rf::make_array_filter(kind.name, n);
    const double T = timed->period() > 0.0 ? timed->period() : 0.01;
    for (int k = 0; k < 60; ++k) {
      const Vec u = signal(k * 0.01, n);
      if (k % 3 == 1) {
        ASSERT_TRUE(fixed->output(u));
        ASSERT_TRUE(timed->output(u, T));
        ASSERT_EQ(fixed->y(), timed->y()) << kind.name << " output at k = " << k;
        fixed->update();
        timed->update(T);
      } else {
        ASSERT_TRUE(fixed->update(u));
        ASSERT_TRUE(timed->update(u, T));
        ASSERT_EQ(fixed->y(), timed->y()) << kind.name << " at k = " << k;
      }
    }
  }
}

TEST(VariableDt, PeriodIsTheKindsT) {
  EXPECT_EQ(rf::make_array_filter("exponential", 1, {{"T", 0.02}})->period(), 0.02);
  EXPECT_EQ(rf::make_array_filter("diff", 1)->period(), 0.01);
  EXPECT_EQ(rf::make_array_filter("hysteresis", 1)->period(), 0.0);
}

TEST(VariableDt, InvalidDtIsRefused) {
  const auto f = rf::make_array_filter("exponential", 2);
  const Vec u = Vec::Ones(2);
  for (const double dt : {0.0, -0.01, std::nan(""), HUGE_VAL}) {
    EXPECT_FALSE(f->output(u, dt)) << dt;
    EXPECT_FALSE(f->update(u, dt)) << dt;
  }
  EXPECT_EQ(f->y(), Vec::Zero(2));  // nothing was done
  EXPECT_FALSE(f->update(Vec::Ones(3), 0.01));
}

// (b) The exact discretisation 1 − exp(−dt/τ): the step response is the continuous one at
// every sample time, whatever the spacing (rounding only).
TEST(VariableDt, ExponentialStepResponseOnIrregularSampling) {
  const double tau = 0.5;
  const auto f = rf::make_array_filter("exponential", 1, {{"tau", tau}});
  f->start(Vec::Zero(1));  // at rest at 0 until t = 0, then a unit step
  const std::vector<double> t = irregular_times(3.0);
  double worst = 0.0;
  for (std::size_t k = 1; k < t.size(); ++k) {
    ASSERT_TRUE(f->update(Vec::Ones(1), t[k] - t[k - 1]));
    worst = std::max(worst, std::abs(f->y()[0] - (1.0 - std::exp(-t[k] / tau))));
  }
  EXPECT_LT(worst, 1e-12);
}
