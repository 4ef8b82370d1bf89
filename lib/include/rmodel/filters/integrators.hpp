#pragma once
/// @file integrators.hpp
/// Integrators: y[k] estimates x0 + ∫₀^{t_k} u dt from samples u[k] taken every T seconds.
///
/// Input `u` is a `Space<V>::Tangent`: a rate of the value (unit/s for scalars and joint
/// arrays, m/s for Vector3, angular velocity in rad/s in the reference frame for
/// orientations, a Twist for poses). For orientations the Poisson equation
/// `q' = ½ ω ⊗ q` is integrated with the exponential map, so results stay unit quaternions
/// (orthonormal matrices) however long the run.
///
/// All three follow the S-function scheme of SPEC §3 (the shared plumbing is SFunction,
/// sfunction.hpp): `start()`/`start(x0)` reset, `output(u)` gives y[k] without advancing,
/// `update(u)` gives y[k] and advances, `update()` advances with the input last given to
/// `output`. Arrays are sized by `x0` at
/// construction or `start(x0)`; `output`/`update` never allocate. Inputs must have the
/// size of `x0` (checked by eigen_assert in debug builds). Returned references stay valid
/// until the next call on the filter.

#include "rmodel/filters/sfunction.hpp"
#include "rmodel/filters/space.hpp"
#include "rmodel/filters/validate.hpp"

namespace rmodel::filters {

/// Forward Euler (rectangles on the left): x[k+1] = x[k] ⊕ T·u[k], y[k] = x[k].
/// First order: the error on a smooth input is O(T) over a fixed time; exact for constant
/// inputs, including a constant angular velocity.
/// Variable step (the `dt` forms): y[k] = y[k-1] ⊕ dt·u[k-1], dt being the time since the
/// previous sample — the input is held over the interval it starts (exact for inputs that
/// are piecewise constant between samples).
template <FilterValue V>
class EulerIntegrator
    : public SFunction<EulerIntegrator<V>, typename Space<V>::Tangent, V> {
  friend class SFunction<EulerIntegrator<V>, typename Space<V>::Tangent, V>;

public:
  using Value = V;
  using Input = typename Space<V>::Tangent;

  /// @param period sample period T, s (> 0)
  /// @param x0 initial value; its size fixes the size of array inputs and outputs
  /// @throws InvalidArgument if T is not finite and > 0
  explicit EulerIntegrator(double period, const V& x0 = Space<V>::identity()) : T_(period) {
    detail::require_positive("EulerIntegrator", "T", period, "s");
    start(x0);
  }

  /// Resets to the initial value given last (constructor or start(x0)).
  void start() noexcept {
    detail::assign(x_, detail::lin(x0_));
    detail::assign(i_, detail::lin(x0_));
    detail::zero_like(u_prev_, x0_);
    this->clear_pending();
  }
  /// Sets a new initial value (may resize arrays) and resets to it.
  void start(const V& x0) {
    detail::copy_value(x0_, x0);
    detail::copy_value(x_, x0);
    detail::copy_value(i_, x0);
    detail::copy_value(y_, x0);
    detail::zero_like(this->u_last_, x0);
    detail::zero_like(u_prev_, x0);
    this->clear_pending();
  }

  // output/update/update() and their Interval forms come from SFunction.

  /// x[k]: the value the next output will return, unit of V.
  [[nodiscard]] const V& state() const noexcept { return x_; }
  [[nodiscard]] double period() const noexcept { return T_; }

  /// Restarts component i of an array from x0 at the next sample (its interval so far
  /// is dropped). Arrays only; no allocation.
  void restart_element(Eigen::Index i, double x0, double /*next_input*/) noexcept
    requires detail::is_array_v<V>
  {
    detail::lin(i_)[i] = x0;
    detail::lin(x_)[i] = x0;
    detail::lin(u_prev_)[i] = 0.0;
  }

private:
  /// y[k] = x[k]; does not advance.
  const V& output_step(const Input& u) noexcept {
    detail::assert_same_size(u, x_);
    return x_;
  }
  /// y[k] = x[k], then x[k+1] = x[k] ⊕ T·u[k].
  const V& update_step(const Input& u) noexcept {
    detail::assert_same_size(u, x_);
    // The old state becomes the output by a swap (O(1) for arrays), so the step below is a
    // single pass writing the new state.
    detail::swap_values(i_, x_);
    detail::assign(x_, Space<V>::retract(i_, T_ * detail::lin(u)));
    detail::assign(u_prev_, detail::lin(u));
    return i_;
  }
  /// y[k] = y[k-1] ⊕ dt·u[k-1] for a sample dt seconds (> 0) after the previous one;
  /// does not advance. dt == T gives output(u).
  const V& output_step(const Input& u, double dt) noexcept {
    if (dt == T_) return output_step(u);
    detail::assert_same_size(u, x_);
    detail::assign(y_, Space<V>::retract(i_, dt * detail::lin(u_prev_)));
    return y_;
  }
  /// As output(u, dt), and advances.
  const V& update_step(const Input& u, double dt) noexcept {
    if (dt == T_) return update_step(u);
    detail::assert_same_size(u, x_);
    detail::assign(i_, Space<V>::retract(i_, dt * detail::lin(u_prev_)));
    detail::assign(x_, Space<V>::retract(i_, T_ * detail::lin(u)));
    detail::assign(u_prev_, detail::lin(u));
    return i_;
  }

  double T_;
  V x0_{}, x_{}, i_{}, y_{};  // x_ = i_ ⊕ T·u_prev_: the next fixed-step output
  Input u_prev_{};
};

/// Trapezoid rule: y[k] = y[k-1] ⊕ T/2·(u[k-1] + u[k]), y[0] = x0 (direct feedthrough of
/// u[k]). Second order: error O(T²) over a fixed time; exact for inputs linear in time.
/// Variable step (the `dt` forms): the same rule over the actual interval,
/// y[k] = y[k-1] ⊕ dt/2·(u[k-1] + u[k]) — still exact for inputs linear in time.
/// For orientations the increment also carries the Magnus commutator term
/// T²/12·(ω[k] × ω[k-1]), which makes it exact for a constant angular velocity and
/// accurate when the rotation axis turns.
template <FilterValue V>
class TrapezoidIntegrator
    : public SFunction<TrapezoidIntegrator<V>, typename Space<V>::Tangent, V> {
  friend class SFunction<TrapezoidIntegrator<V>, typename Space<V>::Tangent, V>;

public:
  using Value = V;
  using Input = typename Space<V>::Tangent;

  /// @param period sample period T, s (> 0)
  /// @param x0 initial value (= y[0]); its size fixes the size of arrays
  /// @throws InvalidArgument if T is not finite and > 0
  explicit TrapezoidIntegrator(double period, const V& x0 = Space<V>::identity())
      : T_(period) {
    detail::require_positive("TrapezoidIntegrator", "T", period, "s");
    start(x0);
  }

  void start() noexcept {
    detail::assign(i_, detail::lin(x0_));
    primed_ = false;
    this->clear_pending();
  }
  void start(const V& x0) {
    detail::copy_value(x0_, x0);
    detail::copy_value(i_, x0);
    detail::copy_value(y_, x0);
    detail::zero_like(u_prev_, x0);
    detail::zero_like(this->u_last_, x0);
    start();
  }

  // output/update/update() and their Interval forms come from SFunction.

  /// Restarts component i of an array from x0 at the next sample, whose input is
  /// `next_input`: the interval closed by that sample adds nothing to it. No allocation.
  void restart_element(Eigen::Index i, double x0, double next_input) noexcept
    requires detail::is_array_v<V>
  {
    detail::lin(i_)[i] = x0;
    // u_prev + u is then exactly 0 over the closing interval.
    detail::lin(u_prev_)[i] = -next_input;
  }

  /// Integral up to the last sample given to update(), unit of V.
  [[nodiscard]] const V& state() const noexcept { return i_; }
  [[nodiscard]] double period() const noexcept { return T_; }

private:
  const V& output_step(const Input& u) noexcept { return step<false>(u, T_); }
  const V& update_step(const Input& u) noexcept { return step<true>(u, T_); }
  const V& output_step(const Input& u, double dt) noexcept { return step<false>(u, dt); }
  const V& update_step(const Input& u, double dt) noexcept { return step<true>(u, dt); }

  template <bool Commit>
  const V& step(const Input& u, double h) noexcept {
    detail::assert_same_size(u, i_);
    if (!primed_) {
      // The first sample closes no interval yet: the integral is still x0.
      if constexpr (Commit) {
        detail::assign(u_prev_, detail::lin(u));
        primed_ = true;
      }
      return i_;
    }
    V& target = Commit ? i_ : y_;
    const double c = 0.5 * h;
    if constexpr (Space<V>::linear) {
      detail::assign(target, Space<V>::retract(i_, c * (detail::lin(u_prev_) + detail::lin(u))));
    } else {
      const Input inc = c * (u_prev_ + u) + (h * h / 12.0) * Space<V>::bracket(u, u_prev_);
      target = Space<V>::retract(i_, inc);
    }
    if constexpr (Commit) detail::assign(u_prev_, detail::lin(u));
    return target;
  }

  double T_;
  V x0_{}, i_{}, y_{};
  Input u_prev_{};
  bool primed_ = false;
};

/// Simpson's rule run online. Every even sample closes a Simpson panel
/// y[k] = y[k-2] ⊕ T/3·(u[k-2] + 4u[k-1] + u[k]); every odd sample adds, to the last
/// even value, the integral over the last interval of the parabola through the last three
/// samples, T/12·(−u[k-2] + 8u[k-1] + 5u[k]); y[1] uses the trapezoid (only two samples
/// exist). Panels chain only through even samples, so odd estimates never accumulate
/// error: the result is fourth order (error O(T⁴) over a fixed time), exact for cubics
/// at even samples and for quadratics at every sample.
/// For orientations the panels carry the Magnus commutator terms (T²/3·(ω[k] × ω[k-2])
/// per panel, T²/12·(ω[k] × ω[k-1]) per odd step), keeping fourth order when the axis turns.
/// Variable step (the `dt` forms): Simpson's rule for non-uniform spacing — each panel
/// integrates the parabola through its three samples at their actual times, h1 and h2
/// apart: (h1+h2)/6·((2 − h2/h1)·u[k-2] + (h1+h2)²/(h1·h2)·u[k-1] + (2 − h1/h2)·u[k]), and
/// an odd sample adds the integral of the same parabola over the last interval,
/// h2/6·(−h2²/(h1(h1+h2))·u[k-2] + (h2 + 3h1)/h1·u[k-1] + (2h2 + 3h1)/(h1+h2)·u[k]).
/// Still exact for quadratics at every sample (cubics need equal spacing). The commutator
/// terms use the panel's length (H²/12 per panel, h2²/12 per odd step).
template <FilterValue V>
class SimpsonIntegrator
    : public SFunction<SimpsonIntegrator<V>, typename Space<V>::Tangent, V> {
  friend class SFunction<SimpsonIntegrator<V>, typename Space<V>::Tangent, V>;

public:
  using Value = V;
  using Input = typename Space<V>::Tangent;

  /// @param period sample period T, s (> 0)
  /// @param x0 initial value (= y[0]); its size fixes the size of arrays
  /// @throws InvalidArgument if T is not finite and > 0
  explicit SimpsonIntegrator(double period, const V& x0 = Space<V>::identity())
      : T_(period) {
    detail::require_positive("SimpsonIntegrator", "T", period, "s");
    start(x0);
  }

  void start() noexcept {
    detail::assign(even_, detail::lin(x0_));
    k_ = 0;
    this->clear_pending();
  }
  void start(const V& x0) {
    detail::copy_value(x0_, x0);
    detail::copy_value(even_, x0);
    detail::copy_value(y_, x0);
    detail::zero_like(u1_, x0);
    detail::zero_like(u2_, x0);
    detail::zero_like(this->u_last_, x0);
    start();
  }

  // output/update/update() and their Interval forms come from SFunction.

  [[nodiscard]] double period() const noexcept { return T_; }

  /// Adds delta to component i of the integral (arrays only): how the type-erased filters
  /// restart one component, since Simpson's panels span several samples.
  void offset_element(Eigen::Index i, double delta) noexcept
    requires detail::is_array_v<V>
  {
    detail::lin(even_)[i] += delta;
    detail::lin(y_)[i] += delta;
  }

private:
  const V& output_step(const Input& u) noexcept { return step<false>(u, T_); }
  const V& update_step(const Input& u) noexcept { return step<true>(u, T_); }
  const V& output_step(const Input& u, double dt) noexcept { return step<false>(u, dt); }
  const V& update_step(const Input& u, double dt) noexcept { return step<true>(u, dt); }

  template <bool Commit>
  const V& step(const Input& u, double h2) noexcept {
    detail::assert_same_size(u, even_);
    using detail::lin;
    if (k_ == 0) {
      if constexpr (Commit) shift(u, h2);
      return even_;
    }
    const bool even = (k_ & 1U) == 0U;
    // Even samples extend the chain of panels in place; odd ones only read it.
    V& target = (Commit && even) ? even_ : y_;
    const double h1 = gap_;
    if (k_ == 1) {
      integrate(target, 0.5 * h2 * (lin(u1_) + lin(u)), u, u1_, h2 * h2 / 12.0);
    } else if (h1 == T_ && h2 == T_) {
      if (even) {
        integrate(target, (T_ / 3.0) * (lin(u2_) + 4.0 * lin(u1_) + lin(u)), u, u2_,
                  T_ * T_ / 3.0);
      } else {
        integrate(target, (T_ / 12.0) * (5.0 * lin(u) + 8.0 * lin(u1_) - lin(u2_)), u, u1_,
                  T_ * T_ / 12.0);
      }
    } else if (even) {
      const double H = h1 + h2;
      const double c = H / 6.0;
      integrate(target,
                (c * (2.0 - h2 / h1)) * lin(u2_) + (c * H * H / (h1 * h2)) * lin(u1_) +
                    (c * (2.0 - h1 / h2)) * lin(u),
                u, u2_, H * H / 12.0);
    } else {
      const double H = h1 + h2;
      const double c = h2 / 6.0;
      integrate(target,
                (c * (2.0 * h2 + 3.0 * h1) / H) * lin(u) + (c * (h2 + 3.0 * h1) / h1) * lin(u1_) -
                    (c * h2 * h2 / (h1 * H)) * lin(u2_),
                u, u1_, h2 * h2 / 12.0);
    }
    if constexpr (Commit) shift(u, h2);
    return target;
  }

  /// target = even_ ⊕ (increment + c·[u, older]) — the bracket only where it is nonzero.
  template <class Inc>
  void integrate(V& target, const Inc& increment, const Input& u, const Input& older,
                 double c) noexcept {
    if constexpr (Space<V>::linear) {
      (void)u;
      (void)older;
      (void)c;
      detail::assign(target, Space<V>::retract(even_, increment));
    } else {
      const Input inc = increment + c * Space<V>::bracket(u, older);
      target = Space<V>::retract(even_, inc);
    }
  }

  void shift(const Input& u, double dt) noexcept {
    gap_ = dt;  // from the new u2_ (the old u1_) to the new u1_ (u)
    detail::swap_values(u2_, u1_);
    detail::assign(u1_, detail::lin(u));
    if (k_ < 2) ++k_;
    else k_ ^= 1U;  // only the parity matters from here on, and it must never overflow
  }

  double T_;
  double gap_ = 0.0;
  V x0_{}, even_{}, y_{};
  Input u1_{}, u2_{};  // u[k-1], u[k-2]
  unsigned k_ = 0;     // 0, 1, then 2/3 alternating (even/odd next sample)
};

}  // namespace rmodel::filters
