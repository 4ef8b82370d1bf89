#pragma once
/// @file transients.hpp
/// First-order transients from the current state to a reference trajectory u_r.
///
/// The state x is the current value; each step moves it toward u_r[k]:
///     y[k] = x[k] ⊕ s·(u_r[k] ⊖ x[k]),   x[k+1] = y[k],
/// with s = min(1, v·T/|u_r ⊖ x|) (linear: constant speed v), s = T/τ (exponential), or
/// s = min(T/τ, v·T/|u_r ⊖ x|) (exponential with speed limit). The step is scaled as a
/// whole, so its direction is kept: a joint array moves along a straight line in joint
/// space with no joint faster than v, orientations turn about a fixed axis.
///
/// Variable step (the `dt` forms, dt = time since the previous sample, reference held at
/// u_r[k] over that interval): linear moves at most v·dt; exponential uses the exact
/// s = 1 − exp(−dt/τ) (so the step response is 1 − exp(−t/τ) at the sample times
/// whatever the spacing); the limited law uses both, s = min(1 − exp(−dt/τ), v·dt/|u_r ⊖ x|).
/// dt == T gives the fixed-step result exactly (gain T/τ).
///
/// The original design feeds the current state back as an input (u[k+1] = y[k]); here
/// the state is kept inside and fed back automatically, while `output(ur, u)` and
/// `update(ur, u)` take the current value u from outside (e.g. a measured pose) instead.
///
/// S-function scheme of SPEC §3 (SFunction, sfunction.hpp): `start()` resets x to x0,
/// `start(x0)` sets a new x0 (may resize arrays); `output`/`update` never allocate; inputs
/// must have the size of x0.

#include <cmath>

#include "rmodel/filters/sfunction.hpp"
#include "rmodel/filters/space.hpp"
#include "rmodel/filters/validate.hpp"

namespace rmodel::filters {

/// How a first-order transient approaches its reference.
enum class TransientLaw {
  Linear,             ///< constant speed v until reached
  Exponential,        ///< gain T/τ per step: time constant τ
  ExponentialLimited  ///< exponential, but no faster than v
};

/// First-order transient; see the file comment and the aliases below.
template <FilterValue V, TransientLaw Law>
class Transient : public SFunction<Transient<V, Law>, V, V, Pending::Adopt> {
  using Base = SFunction<Transient<V, Law>, V, V, Pending::Adopt>;
  friend Base;

public:
  using Value = V;
  using Bound = typename Space<V>::Bound;

  /// Linear transient at speed `speed`.
  /// @param period sample period T, s (> 0)
  /// @param speed speed bound v (>= 0): unit/s (joint arrays: per joint; Vector3: m/s;
  ///        orientations: rad/s; poses/twists: LinearAngular)
  /// @param x0 initial value; sizes arrays
  /// @throws InvalidArgument for invalid T or a negative speed
  Transient(double period, const Bound& speed, const V& x0 = Space<V>::identity())
    requires(Law == TransientLaw::Linear)
      : T_(period), tau_(0.0), gain_(1.0), speed_(speed),
        step_bound_(detail::scale_bound(speed, period)) {
    detail::require_positive(name(), "T", T_, "s");
    detail::require_bound(name(), "v", speed, "units/s");
    start(x0);
  }

  /// Exponential transient with time constant `tau`.
  /// @param tau time constant τ, s (>= T)
  /// @throws InvalidArgument for invalid T or tau
  Transient(double period, double tau, const V& x0 = Space<V>::identity())
    requires(Law == TransientLaw::Exponential)
      : T_(period), tau_(tau), gain_(period / tau) {
    validate_tau();
    start(x0);
  }

  /// Exponential transient with time constant `tau`, no faster than `speed`.
  /// @throws InvalidArgument for invalid T, tau or a negative speed
  Transient(double period, double tau, const Bound& speed, const V& x0 = Space<V>::identity())
    requires(Law == TransientLaw::ExponentialLimited)
      : T_(period), tau_(tau), gain_(period / tau), speed_(speed),
        step_bound_(detail::scale_bound(speed, period)) {
    validate_tau();
    detail::require_bound(name(), "v", speed, "units/s");
    start(x0);
  }

  void start() noexcept {
    detail::assign(x_, detail::lin(x0_));
    this->clear_pending();
  }
  void start(const V& x0) {
    detail::copy_value(x0_, x0);
    detail::copy_value(x_, x0);
    detail::copy_value(y_, x0);
    this->clear_pending();
  }

  // From SFunction: output(ur) gives y[k] toward reference ur from the internal state;
  // update(ur) also makes it the state; update() makes the y[k] of the last output (of
  // any form) the state; the Interval forms do the same for a sample dt seconds (> 0)
  // after the previous one (update(dt): the interval was given to output()).
  using Base::output;
  using Base::update;

  /// y[k] toward ur from an external current value u; does not change the state.
  const V& output(const V& ur, const V& u) noexcept {
    step(y_, u, ur);
    this->set_pending();
    return y_;
  }
  /// y[k] toward ur from an external current value u; the state becomes y[k].
  const V& update(const V& ur, const V& u) noexcept {
    step(x_, u, ur);
    this->clear_pending();
    return x_;
  }

  /// Restarts component i of an array at x0 (its current value). No allocation.
  void restart_element(Eigen::Index i, double x0, double /*next_input*/) noexcept
    requires detail::is_array_v<V>
  {
    detail::lin(x_)[i] = x0;
  }

  /// x[k], unit of V.
  [[nodiscard]] const V& state() const noexcept { return x_; }
  [[nodiscard]] double period() const noexcept { return T_; }

private:
  const V& output_step(const V& ur) noexcept {
    step(y_, x_, ur);
    return y_;
  }
  const V& update_step(const V& ur) noexcept {
    step(x_, x_, ur);
    return x_;
  }
  const V& output_step(const V& ur, double dt) noexcept {
    step(y_, x_, ur, dt);
    return y_;
  }
  const V& update_step(const V& ur, double dt) noexcept {
    step(x_, x_, ur, dt);
    return x_;
  }
  /// The next state is the output already computed: adopting it is a swap.
  void adopt_output() noexcept { detail::swap_values(x_, y_); }

  static constexpr const char* name() noexcept {
    switch (Law) {
      case TransientLaw::Linear: return "TransientLinear";
      case TransientLaw::Exponential: return "TransientExp";
      case TransientLaw::ExponentialLimited: return "TransientExpLimited";
    }
    return "Transient";
  }

  void validate_tau() const {
    detail::require_positive(name(), "T", T_, "s");
    detail::require_positive(name(), "tau", tau_, "s");
    detail::require_tau_not_below_period(name(), tau_, T_);
  }

  /// target = from ⊕ s·(ur ⊖ from); target may be `from` itself (element-wise, no aliasing
  /// hazard; the bound is measured before anything is written).
  void step(V& target, const V& from, const V& ur) noexcept {
    detail::assert_same_size(ur, x_);
    detail::assert_same_size(from, x_);
    double s = gain_;
    if constexpr (Law != TransientLaw::Exponential)
      s = Space<V>::scale_within(Space<V>::local(from, ur), step_bound_, gain_);
    detail::assign(target, Space<V>::retract(from, s * Space<V>::local(from, ur)));
  }

  /// The step over dt seconds (the fixed one when dt == T).
  void step(V& target, const V& from, const V& ur, double dt) noexcept {
    if (dt == T_) return step(target, from, ur);
    detail::assert_same_size(ur, x_);
    detail::assert_same_size(from, x_);
    // Exact for the exponential law: x' = (ur − x)/τ with ur held over the interval.
    double s = Law == TransientLaw::Linear ? 1.0 : -std::expm1(-dt / tau_);
    if constexpr (Law != TransientLaw::Exponential)
      s = Space<V>::scale_within(Space<V>::local(from, ur), detail::scale_bound(speed_, dt), s);
    detail::assign(target, Space<V>::retract(from, s * Space<V>::local(from, ur)));
  }

  double T_, tau_, gain_;
  Bound speed_{}, step_bound_{};
  V x0_{}, x_{}, y_{};
};

/// Moves toward the reference at constant speed v (step min(v·T, distance)).
template <FilterValue V>
using TransientLinear = Transient<V, TransientLaw::Linear>;
/// Exponential approach with time constant τ: the step response of a scalar is
/// 1 − (1 − T/τ)^k.
template <FilterValue V>
using TransientExp = Transient<V, TransientLaw::Exponential>;
/// Exponential approach with time constant τ, no faster than v.
template <FilterValue V>
using TransientExpLimited = Transient<V, TransientLaw::ExponentialLimited>;

}  // namespace rmodel::filters
