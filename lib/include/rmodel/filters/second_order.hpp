#pragma once
#include "rmodel/export.hpp"
/// @file second_order.hpp
/// Second-order transient from the current (position, velocity) to a reference trajectory.
///
/// With position x, velocity v and reference x_r, v_r, a_r, the error xe = x_r − x,
/// ve = v_r − v is given the dynamics ve' = −f with the linear law f = a0·xe + a1·ve
/// (exponential convergence; a0 = ω², a1 = 2ζω), so the output obeys
///     x' = v,   v' = a_r + a0·(x_r − x) + a1·(v_r − v).
/// Discretised semi-implicitly (velocity first, then position with the new velocity).
/// The state x[k], v[k] is the previous output; y[k] is the position at t_k, so the
/// position error is taken against where the state coasts to by t_k, x[k] + T·v[k] —
/// without that y would run one step ahead of x_r; with it a ramp whose velocity is fed
/// forward as v_r is tracked exactly:
///     xe = x_r − (x[k] + T·v[k]),  ve = v_r − v[k]
///     v_d = v[k] + T·(a_r + a0·xe + a1·ve)             desired velocity
///     v_d ← v_d scaled so that |v_d| <= v_max            (velocity bound)
///     v[k+1] = v[k] + (v_d − v[k]) scaled so that |Δv| <= a_max·T  (acceleration bound)
///     x[k+1] = x[k] + T·v[k+1],   y[k] = x[k+1]
/// Bounds scale the whole vector (joint arrays: the largest joint component; Vector3:
/// the length), so the direction is kept and every component obeys them. Once |v| <= v_max
/// it stays so, and |Δv/T| <= a_max always. Infinite bounds give the plain linear law.
///
/// Variable step (the `dt` forms, dt = time since the previous sample): the interval is
/// split into n = ⌈dt/T⌉ equal substeps h = dt/n <= T, each the step above with h for T,
/// so every substep is as stable as the fixed one whatever dt is. Over the substeps the
/// reference position moves back along v_r (x_r − v_r·(remaining time)), so a fed-forward
/// ramp is still tracked exactly. A gap longer than 1000·T is shortened to its last
/// 1000·T (the transient has settled long before with any stable gains).
///
/// Vector-space values only (scalars, joint arrays, Vector3); orientation needs a law on
/// SO(3) that the original design leaves open.
///
/// S-function scheme of SPEC §3 with inputs (x_r, v_r, a_r); `output` returns the next
/// position y[k] = x[k+1] and velocity() the matching velocity; no allocation after
/// construction/start.

#include <cmath>
#include <limits>
#include <type_traits>

#include "rmodel/filters/space.hpp"
#include "rmodel/filters/validate.hpp"

namespace rmodel::filters {

/// Parameters of SecondOrderTransient.
struct RMODEL_API SecondOrderParams {
  double a0 = 100.0;  ///< position gain, 1/s² (> 0)
  double a1 = 20.0;   ///< velocity gain, 1/s (> 0)
  /// acceleration bound, unit/s² (>= 0, +inf = none)
  double max_acceleration = std::numeric_limits<double>::infinity();
  /// velocity bound, unit/s (>= 0, +inf = none)
  double max_velocity = std::numeric_limits<double>::infinity();
};

/// Second-order transient; see the file comment.
template <VectorValue V>
  requires std::is_same_v<typename Space<V>::Bound, double>
class SecondOrderTransient {
public:
  using Value = V;
  using Bound = typename Space<V>::Bound;

  /// @param period sample period T, s (> 0)
  /// @param params gains and bounds; 2·T·a1 + 3·T²·a0 < 4 (the discrete law is unstable
  ///        otherwise; the continuous one needs only a0, a1 > 0)
  /// @param x0 initial position; sizes arrays. The initial velocity is zero.
  /// @throws InvalidArgument for invalid T, gains, negative bounds or an unstable
  ///         combination of T and gains
  SecondOrderTransient(double period, const SecondOrderParams& params,
                       const V& x0 = Space<V>::identity())
      : T_(period), p_(params) {
    detail::require_stable_second_order("SecondOrderTransient", period, p_);
    dv_bound_ = p_.max_acceleration * T_;
    limit_v_ = p_.max_velocity < std::numeric_limits<double>::infinity();
    limit_a_ = p_.max_acceleration < std::numeric_limits<double>::infinity();
    start(x0);
  }

  /// Resets to the initial position and velocity given last.
  void start() noexcept {
    detail::assign(x_, detail::lin(x0_));
    detail::assign(v_, detail::lin(v0_));
    pending_refs_ = 0;
    vel_from_output_ = false;
  }
  /// Sets a new initial position with zero velocity (may resize arrays).
  void start(const V& x0) {
    detail::zero_like(zero_, x0);
    start(x0, zero_);
  }
  /// Sets a new initial position and velocity (unit/s; same size).
  void start(const V& x0, const V& v0) {
    detail::copy_value(x0_, x0);
    detail::copy_value(v0_, v0);
    detail::zero_like(zero_, x0_);
    detail::copy_value(x_, x0_);
    detail::copy_value(v_, v0_);
    detail::copy_value(y_, x0_);
    detail::copy_value(vy_, v0_);
    detail::copy_value(xr_, x0_);
    detail::copy_value(vr_, zero_);
    detail::copy_value(ar_, zero_);
    detail::copy_value(xs_, x0_);
    detail::copy_value(vs_, zero_);
    detail::copy_value(xsub_, x0_);
    start();
  }

  /// Next position toward reference position xr, velocity vr (unit/s) and acceleration
  /// ar (unit/s²); does not advance.
  const V& output(const V& xr, const V& vr, const V& ar) noexcept {
    return output_impl<3>(xr, vr, ar);
  }
  /// As output(xr, vr, 0).
  const V& output(const V& xr, const V& vr) noexcept { return output_impl<2>(xr, vr, zero_); }
  /// As output(xr, 0, 0): a set point.
  const V& output(const V& xr) noexcept { return output_impl<1>(xr, zero_, zero_); }

  /// Next position, and advances: x[k+1], v[k+1].
  const V& update(const V& xr, const V& vr, const V& ar) noexcept {
    return update_impl<3>(xr, vr, ar);
  }
  const V& update(const V& xr, const V& vr) noexcept { return update_impl<2>(xr, vr, zero_); }
  const V& update(const V& xr) noexcept { return update_impl<1>(xr, zero_, zero_); }
  /// Advances with the reference last given to output().
  void update() noexcept {
    switch (pending_refs_) {
      case 1: (void)update_impl<1>(xr_, zero_, zero_); break;
      case 2: (void)update_impl<2>(xr_, vr_, zero_); break;
      case 3: (void)update_impl<3>(xr_, vr_, ar_); break;
      default: break;
    }
  }

  /// The forms above for a sample dt seconds (> 0) after the previous one.
  const V& output(const V& xr, const V& vr, const V& ar, Interval dt) noexcept {
    return timed<3, false>(xr, vr, ar, dt.seconds);
  }
  const V& output(const V& xr, const V& vr, Interval dt) noexcept {
    return timed<2, false>(xr, vr, zero_, dt.seconds);
  }
  const V& output(const V& xr, Interval dt) noexcept {
    return timed<1, false>(xr, zero_, zero_, dt.seconds);
  }
  const V& update(const V& xr, const V& vr, const V& ar, Interval dt) noexcept {
    return timed<3, true>(xr, vr, ar, dt.seconds);
  }
  const V& update(const V& xr, const V& vr, Interval dt) noexcept {
    return timed<2, true>(xr, vr, zero_, dt.seconds);
  }
  const V& update(const V& xr, Interval dt) noexcept {
    return timed<1, true>(xr, zero_, zero_, dt.seconds);
  }
  /// Advances with the reference last given to output(), over dt seconds.
  void update(Interval dt) noexcept {
    switch (pending_refs_) {
      case 1: (void)timed<1, true>(xr_, zero_, zero_, dt.seconds); break;
      case 2: (void)timed<2, true>(xr_, vr_, zero_, dt.seconds); break;
      case 3: (void)timed<3, true>(xr_, vr_, ar_, dt.seconds); break;
      default: break;
    }
  }

  /// Restarts component i of an array at position x0 with velocity 0. No allocation.
  void restart_element(Eigen::Index i, double x0, double /*next_input*/) noexcept
    requires detail::is_array_v<V>
  {
    detail::lin(x_)[i] = x0;
    detail::lin(v_)[i] = 0.0;
  }

  /// Velocity matching the last output/update result, unit/s.
  [[nodiscard]] const V& velocity() const noexcept { return vel_from_output_ ? vy_ : v_; }
  /// Current position x[k].
  [[nodiscard]] const V& position() const noexcept { return x_; }
  [[nodiscard]] double period() const noexcept { return T_; }
  [[nodiscard]] const SecondOrderParams& params() const noexcept { return p_; }

private:
  // Refs = how many of (xr, vr, ar) were given: the missing ones are zero and are left out
  // of the arithmetic rather than read from zero arrays.
  template <int Refs>
  void remember(const V& xr, const V& vr, const V& ar) noexcept {
    detail::assign(xr_, detail::lin(xr));
    if constexpr (Refs >= 2) detail::assign(vr_, detail::lin(vr));
    if constexpr (Refs >= 3) detail::assign(ar_, detail::lin(ar));
    pending_refs_ = Refs;
  }

  /// The step over dt: the fixed one when dt == T, otherwise substeps no longer than T.
  template <int Refs, bool Commit>
  const V& timed(const V& xr, const V& vr, const V& ar, double dt) noexcept {
    if (dt == T_) return Commit ? update_impl<Refs>(xr, vr, ar) : output_impl<Refs>(xr, vr, ar);
    constexpr double kMaxSubsteps = 1000.0;
    double n = std::ceil(dt / T_);
    double h = dt / n;
    if (n > kMaxSubsteps) {
      n = kMaxSubsteps;
      h = T_;
    }
    if constexpr (!Commit) {
      remember<Refs>(xr, vr, ar);
      // Substeps run on copies: output() leaves the state alone.
      detail::assign(xs_, detail::lin(x_));
      detail::assign(vs_, detail::lin(v_));
    }
    V& x = Commit ? x_ : xs_;
    V& v = Commit ? v_ : vs_;
    const int steps = static_cast<int>(n);
    for (int j = 1; j <= steps; ++j) {
      const V* ref = &xr;
      if constexpr (Refs >= 2) {
        if (j < steps) {
          detail::assign(xsub_, detail::lin(xr) - (static_cast<double>(steps - j) * h) * detail::lin(vr));
          ref = &xsub_;
        }
      }
      compute<Refs>(x, v, *ref, vr, ar, h, p_.max_acceleration * h);
      detail::swap_values(v, vy_);
      detail::assign(x, detail::lin(x) + h * detail::lin(v));
    }
    if constexpr (Commit) {
      pending_refs_ = 0;
      vel_from_output_ = false;
      return x_;
    } else {
      detail::swap_values(vs_, vy_);  // vy_: the velocity matching y_
      detail::assign(y_, detail::lin(xs_));
      vel_from_output_ = true;
      return y_;
    }
  }

  template <int Refs>
  const V& output_impl(const V& xr, const V& vr, const V& ar) noexcept {
    remember<Refs>(xr, vr, ar);
    compute<Refs>(x_, v_, xr, vr, ar, T_, dv_bound_);
    detail::assign(y_, detail::lin(x_) + T_ * detail::lin(vy_));
    vel_from_output_ = true;
    return y_;
  }

  template <int Refs>
  const V& update_impl(const V& xr, const V& vr, const V& ar) noexcept {
    compute<Refs>(x_, v_, xr, vr, ar, T_, dv_bound_);
    detail::swap_values(v_, vy_);
    detail::assign(x_, detail::lin(x_) + T_ * detail::lin(v_));
    pending_refs_ = 0;
    vel_from_output_ = false;
    return x_;
  }

  /// vy_ = the velocity after a step h from position x, velocity v (dv_bound = a_max·h).
  template <int Refs>
  void compute(const V& x, const V& v, const V& xr, [[maybe_unused]] const V& vr,
               [[maybe_unused]] const V& ar, double h, double dv_bound) noexcept {
    using detail::lin;
    detail::assert_same_size(xr, x_);
    detail::assert_same_size(vr, x_);
    detail::assert_same_size(ar, x_);
    const auto position_term = p_.a0 * (lin(xr) - lin(x) - h * lin(v));
    if constexpr (Refs == 1) {
      lin(vy_) = lin(v) + h * (position_term - p_.a1 * lin(v));
    } else if constexpr (Refs == 2) {
      lin(vy_) = lin(v) + h * (position_term + p_.a1 * (lin(vr) - lin(v)));
    } else {
      lin(vy_) = lin(v) + h * (lin(ar) + position_term + p_.a1 * (lin(vr) - lin(v)));
    }
    if (limit_v_) {
      const double s = Space<V>::scale_within(lin(vy_), p_.max_velocity, 1.0);
      if (s < 1.0) lin(vy_) = s * lin(vy_);
    }
    if (limit_a_) {
      const double s = Space<V>::scale_within(lin(vy_) - lin(v), dv_bound, 1.0);
      if (s < 1.0) lin(vy_) = lin(v) + s * (lin(vy_) - lin(v));
    }
  }

  double T_;
  SecondOrderParams p_;
  double dv_bound_ = 0.0;
  bool limit_v_ = false, limit_a_ = false;
  V x0_{}, v0_{}, x_{}, v_{}, y_{}, vy_{}, zero_{}, xr_{}, vr_{}, ar_{};
  V xs_{}, vs_{}, xsub_{};  // scratch of the variable step
  bool vel_from_output_ = false;  // velocity() of output() lives in vy_, of update() in v_
  int pending_refs_ = 0;  // references buffered by output() for update(); 0 = none
};

}  // namespace rmodel::filters
