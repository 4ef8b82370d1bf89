// Filters over a variable step: the dt forms of ArrayFilter (registry.hpp) and of the
// family templates. Truth: (a) the fixed-step filter itself when every dt equals T (bit
// for bit); (b) analytic solutions of the continuous systems at the actual sample times
// of irregular timings (bursts 1–3 ms apart, gaps of 40–50 ms, fixed seed).

#include <cmath>
#include <random>
#include <string>
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

namespace {

/// Runs `f` over u(t) at the given times with the dt forms (the first sample's dt is
/// irrelevant to every check below and taken as 1 ms); returns y(t_k) of element i.
template <class Input>
std::vector<double> run_timed(rf::ArrayFilter& f, const std::vector<double>& t, Input&& u,
                              Eigen::Index i = 0) {
  std::vector<double> y;
  Vec in(f.size());
  for (std::size_t k = 0; k < t.size(); ++k) {
    for (Eigen::Index j = 0; j < in.size(); ++j) in[j] = u(t[k]);
    EXPECT_TRUE(f.update(in, k == 0 ? 0.001 : t[k] - t[k - 1]));
    y.push_back(f.y()[i]);
  }
  return y;
}

}  // namespace

// Integrators: Euler holds each input over the interval it starts, so a constant rate is
// integrated exactly; the trapezoid is exact for rates linear in time; Simpson (non-uniform
// panels) for quadratics. Truth: the integrals in closed form.
TEST(VariableDt, IntegratorsAreExactOnPolynomialsOnIrregularSampling) {
  const std::vector<double> t = irregular_times(2.0);
  struct Case {
    const char* kind;
    double (*rate)(double);
    double (*integral)(double);
  };
  const Case cases[] = {
      {"euler", [](double) { return 1.5; }, [](double s) { return 1.5 * s; }},
      {"trapezoid", [](double s) { return 2.0 - 3.0 * s; },
       [](double s) { return 2.0 * s - 1.5 * s * s; }},
      {"simpson", [](double s) { return 1.0 + 2.0 * s - 3.0 * s * s; },
       [](double s) { return s + s * s - s * s * s; }},
  };
  for (const Case& c : cases) {
    const auto f = rf::make_array_filter(c.kind, 2);
    const std::vector<double> y = run_timed(*f, t, c.rate);
    for (std::size_t k = 0; k < t.size(); ++k) {
      // Simpson's second sample has only two points: the trapezoid, exact to first degree.
      if (std::string(c.kind) == "simpson" && k == 1) continue;
      ASSERT_NEAR(y[k], c.integral(t[k]), 1e-12) << c.kind << " at t = " << t[k];
    }
  }
}

// Differentiators: the backward difference over dt is exact on a ramp; the lag
// differentiator's first-order hold is exact on a ramp started from rest, whose continuous
// response is c·(1 − exp(−t/τ)); the FIR fit at the actual times is exact on a polynomial
// of its order once its window holds real samples.
TEST(VariableDt, DifferentiatorsAreExactOnIrregularSampling) {
  const std::vector<double> t = irregular_times(2.0);
  {
    const auto f = rf::make_array_filter("diff", 1);
    const std::vector<double> y = run_timed(*f, t, [](double s) { return 4.0 - 2.5 * s; });
    for (std::size_t k = 1; k < t.size(); ++k) ASSERT_NEAR(y[k], -2.5, 1e-9) << t[k];
  }
  {
    const double tau = 0.2;
    const auto f = rf::make_array_filter("lag_diff", 1, {{"tau", tau}});
    const std::vector<double> y = run_timed(*f, t, [](double s) { return 1.0 + 3.0 * s; });
    for (std::size_t k = 0; k < t.size(); ++k)
      ASSERT_NEAR(y[k], 3.0 * (1.0 - std::exp(-t[k] / tau)), 1e-9) << t[k];
  }
  {
    const auto f = rf::make_array_filter("fir_diff", 1, {{"window", 6}, {"order", 2}});
    const std::vector<double> y =
        run_timed(*f, t, [](double s) { return 1.0 + 2.0 * s - 3.0 * s * s; });
    // Samples 1–3 ms apart make the fit's abscissae close: relative rounding of the
    // weights grows like 1/(smallest spacing), hence 1e-6 rather than 1e-12.
    for (std::size_t k = 5; k < t.size(); ++k)
      ASSERT_NEAR(y[k], 2.0 - 6.0 * t[k], 1e-6) << t[k];
  }
}

// Transients and fusion: the continuous laws in closed form at the sample times.
TEST(VariableDt, TransientsAndFusionFollowTheContinuousLaws) {
  const std::vector<double> t = irregular_times(3.0);
  const auto step = [](double s) { return s > 0.0 ? 1.0 : 0.0; };
  {
    // Constant speed 0.5/s toward 1, from 0: min(1, 0.5·t).
    const auto f = rf::make_array_filter("linear", 1, {{"v", 0.5}});
    const std::vector<double> y = run_timed(*f, t, step);
    for (std::size_t k = 0; k < t.size(); ++k)
      ASSERT_NEAR(y[k], std::min(1.0, 0.5 * t[k]), 1e-12) << t[k];
  }
  {
    // Far from the target the speed bound rules: 1/s toward 10 with τ = 0.5 stays bounded
    // while (10 − x)/τ > 1, i.e. well past t = 5 s.
    const auto f = rf::make_array_filter("exp_limited", 1, {{"tau", 0.5}, {"v", 1.0}});
    const std::vector<double> y = run_timed(*f, t, [](double s) { return s > 0.0 ? 10.0 : 0.0; });
    for (std::size_t k = 0; k < t.size(); ++k) ASSERT_NEAR(y[k], t[k], 1e-12) << t[k];
  }
  {
    // Hand-over from the held first input 2 to the input 0 that follows it.
    const auto input = [](double s) { return s > 0.0 ? 0.0 : 2.0; };
    const auto lin = rf::make_array_filter("fusion_linear", 1, {{"tau", 0.8}});
    const auto ex = rf::make_array_filter("fusion_exp", 1, {{"tau", 0.4}});
    const std::vector<double> yl = run_timed(*lin, t, input);
    const std::vector<double> ye = run_timed(*ex, t, input);
    for (std::size_t k = 0; k < t.size(); ++k) {
      ASSERT_NEAR(yl[k], 2.0 * std::max(0.0, 1.0 - t[k] / 0.8), 1e-12) << t[k];
      ASSERT_NEAR(ye[k], 2.0 * std::exp(-t[k] / 0.4), 1e-12) << t[k];
    }
  }
}

// Second order: a set-point step against the continuous critically damped response
// x(t) = 1 − (1 + ωt)·exp(−ωt), ω = 10 (a0 = ω², a1 = 2ω). The substeps are semi-implicit
// Euler steps of at most T = 1 ms, a first-order method: with ωT = 0.01 its error stays
// about ωT times the response's scale, hence 0.01.
TEST(VariableDt, SecondOrderTracksTheContinuousResponseAndStaysStable) {
  const std::vector<double> t = irregular_times(2.0);
  const auto f = rf::make_array_filter("second_order", 1, {{"T", 0.001}, {"a0", 100.0}, {"a1", 20.0}});
  const std::vector<double> y = run_timed(*f, t, [](double s) { return s > 0.0 ? 1.0 : 0.0; });
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double w = 10.0 * t[k];
    ASSERT_NEAR(y[k], 1.0 - (1.0 + w) * std::exp(-w), 0.01) << t[k];
  }
  // A gap of 500 T with the default T = 10 ms: 2·T·a1 + 3·T²·a0 would be far past the
  // stability limit in one step; substeps keep it settling on the set point.
  const auto g = rf::make_array_filter("second_order", 1);
  ASSERT_TRUE(g->update(Vec::Zero(1), 0.01));
  ASSERT_TRUE(g->update(Vec::Ones(1), 5.0));
  EXPECT_NEAR(g->y()[0], 1.0, 1e-9);
}

// Per-element restart: on the kinds whose elements are independent, the restarted element
// equals a fresh filter started at that sample and the others a filter never restarted.
TEST(VariableDt, RestartOneElementIsAFreshStartOfThatElementOnly) {
  constexpr Eigen::Index n = 3;
  const char* independent[] = {"euler", "trapezoid", "diff", "lag_diff", "fir_diff",
                               "exponential", "fusion_linear", "fusion_exp", "second_order",
                               "transfer_function", "hysteresis"};
  for (const char* kind : independent) {
    const rf::FilterParams p = std::string(kind) == "transfer_function"
                                   ? rf::FilterParams{{"b0", 0.3}, {"a1", -0.7}}
                                   : rf::FilterParams{};
    const auto a = rf::make_array_filter(kind, n, p);      // restarted at k = 20
    const auto fresh = rf::make_array_filter(kind, n, p);  // started at k = 20
    const auto never = rf::make_array_filter(kind, n, p);
    for (int k = 0; k < 50; ++k) {
      const Vec u = signal(0.01 * k, n) * (std::string(kind) == "hysteresis" ? 2.0 : 1.0);
      if (k == 20) {
        a->restart(1);
        fresh->start();
      }
      ASSERT_TRUE(a->update(u));
      ASSERT_TRUE(never->update(u));
      ASSERT_TRUE(fresh->update(u));
      ASSERT_EQ(a->y()[0], never->y()[0]) << kind << " k = " << k;
      ASSERT_EQ(a->y()[2], never->y()[2]) << kind << " k = " << k;
      if (k >= 20) {
        ASSERT_NEAR(a->y()[1], fresh->y()[1], 1e-12) << kind << " k = " << k;
      }
    }
  }
}

TEST(VariableDt, RestartFromAValue) {
  const auto f = rf::make_array_filter("trapezoid", 2);
  const std::vector<double> t = irregular_times(0.5);
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (k == 7) f->restart(0, 5.0);
    ASSERT_TRUE(f->update(Vec::Ones(2), k == 0 ? 0.001 : t[k] - t[k - 1]));
    if (k >= 7) {
      EXPECT_NEAR(f->y()[0], 5.0 + (t[k] - t[7]), 1e-12) << k;
    }
    EXPECT_NEAR(f->y()[1], t[k], 1e-12) << k;
  }
  // Simpson restarts by an offset: the restart sample gives x0 exactly up to rounding.
  const auto s = rf::make_array_filter("simpson", 2);
  for (int k = 0; k < 9; ++k) ASSERT_TRUE(s->update(Vec::Ones(2)));
  s->restart(1, -1.0);
  ASSERT_TRUE(s->update(Vec::Ones(2)));
  EXPECT_NEAR(s->y()[1], -1.0, 1e-15);
  ASSERT_TRUE(s->update(Vec::Ones(2)));
  EXPECT_NEAR(s->y()[1], -1.0 + 0.01, 1e-15);
  // Out of range: nothing.
  s->restart(2);
  s->restart(-1, 3.0);
  EXPECT_TRUE(s->update(Vec::Ones(2)));
}

// The templates' variable-step forms on scalars, where Interval keeps dt apart from a
// second scalar input; truth as above.
TEST(VariableDt, ScalarTemplates) {
  const std::vector<double> t = irregular_times(1.0);
  rf::TrapezoidIntegrator<double> integral(0.01);
  rf::BackwardDifference<double> diff(0.01, 0.0);
  rf::TransientExp<double> low_pass(0.01, 0.3, 0.0);
  rf::FusionExp<double> fusion(0.01, 0.3);
  rf::SecondOrderTransient<double> second(0.001, rf::SecondOrderParams{}, 0.0);
  (void)integral.update(0.0, rf::Interval{0.001});  // the rate at t = 0 (no interval yet)
  for (std::size_t k = 1; k < t.size(); ++k) {
    const rf::Interval dt{t[k] - t[k - 1]};
    ASSERT_NEAR(integral.update(2.0 * t[k], dt), t[k] * t[k], 1e-12);
    ASSERT_NEAR(diff.update(5.0 * t[k], dt), 5.0, 1e-9);
    ASSERT_NEAR(low_pass.update(1.0, dt), 1.0 - std::exp(-t[k] / 0.3), 1e-12);
    // Hand-over from 3 to 1, the weight starting at 1 at the first sample here (t[1]).
    ASSERT_NEAR(fusion.update(3.0, 1.0, dt), 1.0 + 2.0 * std::exp(-(t[k] - t[1]) / 0.3), 1e-12);
    ASSERT_TRUE(std::isfinite(second.update(1.0, 0.0, dt)));
  }
  EXPECT_NEAR(second.position(), 1.0, 1e-3);  // settled (ω = 10/s, 1 s)
}
