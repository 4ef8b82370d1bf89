#pragma once
/// @file stateless_integrator.hpp
/// The integrator without state of the original design: two inputs, the position x and
/// the velocity u, and one output, the new position. The position is not kept: it comes in
/// at every step (from the aggregator's output, a measured pose, or this integrator's last
/// output fed back), so the integration can be started from, or corrected to, any position
/// at any sample. What the rules of higher order need is the velocity's history, which is
/// all that is kept: the last two velocities and the gaps between them.
///
/// `step(x, u[k])`, x being the position at the previous sample t_{k-1}, returns the
/// position at t_k, the sample of u[k] (h = T, or the Interval given):
/// - euler:     x ⊕ h·u[k-1]                                   exact for constant u
/// - trapezoid: x ⊕ h/2·(u[k-1] + u[k])                         exact for u linear in time
/// - simpson:   x ⊕ the integral over [t_{k-1}, t_k] of the parabola through the last three
///              samples; with equal steps h/12·(−u[k-2] + 8·u[k-1] + 5·u[k]), with unequal
///              ones h2/6·(−h2²/(h1(h1+h2))·u[k-2] + (h2+3h1)/h1·u[k-1] + (2h2+3h1)/(h1+h2)·u[k])
///              (h1, h2 the last two gaps)                       exact for u quadratic in time
/// These are the increments of integrators.hpp's Euler, trapezoid and Simpson odd samples,
/// so fed back its own output the euler and trapezoid rules reproduce EulerIntegrator and
/// TrapezoidIntegrator (to rounding). The first step after start() has no earlier velocity and
/// returns x unchanged (the position at the first sample is the one given); Simpson's second
/// step uses the trapezoid, as only two samples exist, so fed back its own output Simpson
/// carries that step's error (h³·u''/12) and adds none on quadratics afterwards. For orientations the increments carry
/// the same Magnus commutator terms as integrators.hpp (h²/12·(ω[k] × ω[k-1])), so a
/// constant angular velocity is integrated exactly. No allocation after construction.

#include <cstdint>

#include "rmodel/filters/space.hpp"
#include "rmodel/filters/validate.hpp"

namespace rmodel::filters {

/// The quadrature rule of a StatelessIntegrator.
enum class IntegrationRule : std::uint8_t { euler, trapezoid, simpson };

/// Integrator with the position as an input; see the file comment.
template <FilterValue V>
class StatelessIntegrator {
public:
  using Value = V;
  using Input = typename Space<V>::Tangent;

  /// @param period sample period T, s (> 0)
  /// @param rule quadrature rule
  /// @param like a value of the size of the arrays to integrate (arrays only)
  /// @throws InvalidArgument if T is not finite and > 0
  StatelessIntegrator(double period, IntegrationRule rule, const V& like = Space<V>::identity())
      : T_(period), rule_(rule) {
    detail::require_positive("StatelessIntegrator", "T", period, "s");
    detail::copy_value(y_, like);
    detail::zero_like(u1_, like);
    detail::zero_like(u2_, like);
    start();
  }

  /// Forgets the velocities seen: the next step is a first one.
  void start() noexcept { seen_ = 0; }

  /// The position at the sample of u, from the position x at the previous sample, T
  /// seconds before.
  const V& step(const V& x, const Input& u) noexcept { return advance(x, u, T_); }
  /// As step(x, u) for a sample dt seconds (> 0) after the previous one.
  const V& step(const V& x, const Input& u, Interval dt) noexcept { return advance(x, u, dt.seconds); }

  [[nodiscard]] double period() const noexcept { return T_; }
  [[nodiscard]] IntegrationRule rule() const noexcept { return rule_; }

private:
  const V& advance(const V& x, const Input& u, double h2) noexcept {
    using detail::lin;
    detail::assert_same_size(x, y_);
    detail::assert_same_size(u, y_);
    if (seen_ == 0) {
      detail::assign(y_, lin(x));
    } else if (rule_ == IntegrationRule::euler) {
      integrate(x, h2 * lin(u1_), u, u1_, 0.0);
    } else if (rule_ == IntegrationRule::trapezoid || seen_ == 1) {
      integrate(x, (0.5 * h2) * (lin(u1_) + lin(u)), u, u1_, h2 * h2 / 12.0);
    } else if (h1_ == h2) {
      integrate(x, (h2 / 12.0) * (5.0 * lin(u) + 8.0 * lin(u1_) - lin(u2_)), u, u1_, h2 * h2 / 12.0);
    } else {
      const double h1 = h1_;
      const double H = h1 + h2;
      const double c = h2 / 6.0;
      integrate(x,
                (c * (2.0 * h2 + 3.0 * h1) / H) * lin(u) + (c * (h2 + 3.0 * h1) / h1) * lin(u1_) -
                    (c * h2 * h2 / (h1 * H)) * lin(u2_),
                u, u1_, h2 * h2 / 12.0);
    }
    // Shift the history: u2 ← u1 ← u (swaps: no copy of arrays beyond one assignment).
    detail::swap_values(u2_, u1_);
    detail::assign(u1_, lin(u));
    h1_ = h2;
    if (seen_ < 2) ++seen_;
    return y_;
  }

  /// y = x ⊕ (increment + c·[u, older]) — the bracket only where rotations fail to commute.
  template <class Inc>
  void integrate(const V& x, const Inc& increment, const Input& u, const Input& older, double c) noexcept {
    if constexpr (Space<V>::linear) {
      (void)u;
      (void)older;
      (void)c;
      detail::assign(y_, Space<V>::retract(x, increment));
    } else {
      const Input inc = increment + c * Space<V>::bracket(u, older);
      y_ = Space<V>::retract(x, inc);
    }
  }

  double T_;
  IntegrationRule rule_;
  V y_{};
  Input u1_{}, u2_{};  // the velocities of the last and the one-before-last samples
  double h1_ = 0.0;    // the gap before the last sample
  int seen_ = 0;       // velocities seen since start(), up to 2
};

}  // namespace rmodel::filters
