#pragma once
#include "rmodel/export.hpp"
/// @file second_order_group.hpp
/// Second-order transient for orientations and poses: the law of second_order.hpp with the
/// error taken by the group operation of SO(3), as the original design suggests.
///
/// State: orientation R (or pose) and angular velocity ω (rad/s, reference frame; for a
/// pose also the velocity of the origin, m/s: a KDL::Twist). Reference: R_r, ω_r and the
/// angular acceleration α_r. The orientation error is the rotation vector taking R to R_r,
/// e = log(R_r·Rᵀ) (Space<V>::local: R_r = exp(e)·R); the velocity error is ω_r − ω. The
/// error is given the linear dynamics of the vector form, so the output obeys
///     R' = [ω]×·R,   ω' = α_r + a0·log(R_r·Rᵀ) + a1·(ω_r − ω)
/// and is discretised as the vector form is, with the exponential map in place of sums:
///     R_c = exp(T·ω[k])·R[k]                         where the state coasts to by t_k
///     ω_d = ω[k] + T·(α_r + a0·log(R_r·R_cᵀ) + a1·(ω_r − ω[k]))
///     ω_d ← ω_d scaled so that |ω_d| <= ω_max          (velocity bound)
///     ω[k+1] = ω[k] + (ω_d − ω[k]) scaled so that |Δω| <= α_max·T   (acceleration bound)
///     R[k+1] = exp(T·ω[k+1])·R[k],   y[k] = R[k+1]
/// For a pose the translation follows exactly the vector form (second_order.hpp) and the
/// rotation the law above, with the same gains; the bounds are LinearAngular, each part
/// against its own (m/s, rad/s; m/s², rad/s²) and the whole step scaled by the smaller
/// factor, so the direction of the step is kept.
///
/// Properties (tests/unit/filters/test_filters_second_order_group.cpp): a rotation at a
/// constant rate whose angular velocity is fed forward is tracked exactly, as the vector
/// form tracks a ramp (rotations about one axis commute, so the coasting prediction is the
/// reference itself); about a fixed axis the angle error follows the scalar recursion of
/// the vector form step for step; the bounds hold at every step.
///
/// Variable step (the Interval forms) as in the vector form: n = ⌈dt/T⌉ substeps of
/// h = dt/n, the reference rotated back along ω_r over the remaining time
/// (exp(−(remaining)·ω_r)·R_r), gaps longer than 1000·T shortened to their last 1000·T.
///
/// S-function scheme of SPEC §3 with inputs (R_r, ω_r, α_r); `output` returns the next
/// value y[k] = R[k+1] and velocity() the matching velocity. Fixed-size values only: no
/// allocation at all.

#include <cmath>
#include <limits>

#include "rmodel/filters/space.hpp"
#include "rmodel/filters/validate.hpp"

namespace rmodel::filters {

/// Parameters of GroupSecondOrderTransient. `Bound` is `double` for orientations (rad/s,
/// rad/s²) and LinearAngular for poses.
template <class Bound>
struct GroupSecondOrderParams {
  double a0 = 100.0;  ///< position gain, 1/s² (> 0)
  double a1 = 20.0;   ///< velocity gain, 1/s (> 0)
  /// acceleration bound (>= 0, +inf = none)
  Bound max_acceleration = unbounded();
  /// velocity bound (>= 0, +inf = none)
  Bound max_velocity = unbounded();

  static Bound unbounded() noexcept {
    constexpr double inf = std::numeric_limits<double>::infinity();
    if constexpr (std::is_same_v<Bound, LinearAngular>) {
      return LinearAngular{inf, inf};
    } else {
      return inf;
    }
  }
};

/// Second-order transient on orientations (Eigen::Quaterniond, KDL::Rotation) and poses
/// (KDL::Frame); see the file comment.
template <FilterValue V>
  requires(!Space<V>::linear)
class GroupSecondOrderTransient {
public:
  using Value = V;
  using Tangent = typename Space<V>::Tangent;
  using Bound = typename Space<V>::Bound;
  using Params = GroupSecondOrderParams<Bound>;

  /// @param period sample period T, s (> 0)
  /// @param params gains and bounds; 2·T·a1 + 3·T²·a0 < 4, as for the vector form
  /// @param x0 initial orientation or pose; the initial velocity is zero
  /// @throws InvalidArgument for invalid T, gains, negative bounds or an unstable
  ///         combination of T and gains
  GroupSecondOrderTransient(double period, const Params& params, const V& x0 = Space<V>::identity())
      : T_(period), p_(params) {
    detail::require_stable_second_order("GroupSecondOrderTransient", period, p_);
    zero_ = Space<V>::zero_tangent(x0);
    start(x0, zero_);
  }

  /// Resets to the initial value and velocity given last.
  void start() noexcept {
    x_ = x0_;
    v_ = v0_;
    y_ = x0_;
    vy_ = v0_;
    pending_ = false;
  }
  /// Sets a new initial value with zero velocity.
  void start(const V& x0) noexcept { start(x0, zero_); }
  /// Sets a new initial value and velocity (reference frame).
  void start(const V& x0, const Tangent& v0) noexcept {
    x0_ = x0;
    v0_ = v0;
    start();
  }

  /// Next value toward reference xr moving at vr with acceleration ar; does not advance.
  const V& output(const V& xr, const Tangent& vr, const Tangent& ar) noexcept {
    remember(xr, vr, ar);
    step(x_, v_, xr, vr, ar, T_, y_, vy_);
    return y_;
  }
  const V& output(const V& xr, const Tangent& vr) noexcept { return output(xr, vr, zero_); }
  /// A set point: output(xr, 0, 0).
  const V& output(const V& xr) noexcept { return output(xr, zero_, zero_); }

  /// Next value, and advances.
  const V& update(const V& xr, const Tangent& vr, const Tangent& ar) noexcept {
    step(x_, v_, xr, vr, ar, T_, x_, v_);
    y_ = x_;
    vy_ = v_;
    pending_ = false;
    return x_;
  }
  const V& update(const V& xr, const Tangent& vr) noexcept { return update(xr, vr, zero_); }
  const V& update(const V& xr) noexcept { return update(xr, zero_, zero_); }
  /// Advances with the reference last given to output().
  void update() noexcept {
    if (pending_) (void)update(xr_, vr_, ar_);
  }

  /// The forms above for a sample dt seconds (> 0) after the previous one.
  const V& output(const V& xr, const Tangent& vr, const Tangent& ar, Interval dt) noexcept {
    remember(xr, vr, ar);
    timed(x_, v_, xr, vr, ar, dt.seconds, y_, vy_);
    return y_;
  }
  const V& output(const V& xr, const Tangent& vr, Interval dt) noexcept { return output(xr, vr, zero_, dt); }
  const V& output(const V& xr, Interval dt) noexcept { return output(xr, zero_, zero_, dt); }
  const V& update(const V& xr, const Tangent& vr, const Tangent& ar, Interval dt) noexcept {
    timed(x_, v_, xr, vr, ar, dt.seconds, x_, v_);
    y_ = x_;
    vy_ = v_;
    pending_ = false;
    return x_;
  }
  const V& update(const V& xr, const Tangent& vr, Interval dt) noexcept { return update(xr, vr, zero_, dt); }
  const V& update(const V& xr, Interval dt) noexcept { return update(xr, zero_, zero_, dt); }
  /// Advances with the reference last given to output(), over dt seconds.
  void update(Interval dt) noexcept {
    if (pending_) (void)update(xr_, vr_, ar_, dt);
  }

  /// Velocity matching the last output/update result (reference frame).
  [[nodiscard]] const Tangent& velocity() const noexcept { return vy_; }
  /// Current value x[k].
  [[nodiscard]] const V& position() const noexcept { return x_; }
  [[nodiscard]] double period() const noexcept { return T_; }
  [[nodiscard]] const Params& params() const noexcept { return p_; }

private:
  void remember(const V& xr, const Tangent& vr, const Tangent& ar) noexcept {
    xr_ = xr;
    vr_ = vr;
    ar_ = ar;
    pending_ = true;
  }

  /// One step of h from (x, v) into (x_out, v_out), which may alias x and v.
  void step(const V& x, const Tangent& v, const V& xr, const Tangent& vr, const Tangent& ar, double h, V& x_out,
            Tangent& v_out) const noexcept {
    const V coasted = Space<V>::retract(x, h * v);
    const Tangent error = Space<V>::local(coasted, xr);
    Tangent desired = v + h * (ar + p_.a0 * error + p_.a1 * (vr - v));
    const double s_v = Space<V>::scale_within(desired, p_.max_velocity, 1.0);
    if (s_v < 1.0) desired = s_v * desired;
    const Tangent change = desired - v;
    const double s_a = Space<V>::scale_within(change, detail::scale_bound(p_.max_acceleration, h), 1.0);
    v_out = s_a < 1.0 ? Tangent(v + s_a * change) : desired;
    x_out = Space<V>::retract(x, h * v_out);
  }

  /// The step over dt: the fixed one when dt == T, otherwise substeps no longer than T.
  void timed(const V& x, const Tangent& v, const V& xr, const Tangent& vr, const Tangent& ar, double dt, V& x_out,
             Tangent& v_out) const noexcept {
    if (dt == T_) {
      step(x, v, xr, vr, ar, T_, x_out, v_out);
      return;
    }
    constexpr double kMaxSubsteps = 1000.0;
    double n = std::ceil(dt / T_);
    double h = dt / n;
    if (n > kMaxSubsteps) {
      n = kMaxSubsteps;
      h = T_;
    }
    const int steps = static_cast<int>(n);
    V xs = x;
    Tangent vs = v;
    for (int j = 1; j <= steps; ++j) {
      // The reference where it was (steps − j)·h before xr, moving at vr.
      const V ref = j < steps ? Space<V>::retract(xr, (-static_cast<double>(steps - j) * h) * vr) : xr;
      step(xs, vs, ref, vr, ar, h, xs, vs);
    }
    x_out = xs;
    v_out = vs;
  }

  double T_;
  Params p_;
  V x0_{}, x_{}, y_{}, xr_{};
  Tangent zero_{}, v0_{}, v_{}, vy_{}, vr_{}, ar_{};
  bool pending_ = false;  // a reference buffered by output() for update()
};

}  // namespace rmodel::filters
