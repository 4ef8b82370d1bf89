#pragma once
/// @file fusion.hpp
/// Fusion of two trajectories: a smooth hand-over from u1 to u2,
///     y[k] = x[k]·u1[k] + (1 − x[k])·u2[k]   (y = u2 ⊕ x·(u1 ⊖ u2) on non-vector spaces),
/// with the weight x going from x0 = 1 (all u1) towards 0 (all u2). Orientations blend
/// along the shortest great arc (slerp), poses blend position linearly and orientation by
/// slerp. Used to splice trajectories without a jump.
///
/// Variable step (the `dt` forms, dt = time since the previous sample): the weight
/// advances over the interval before the blend — linear x −= dt/τ, exponential the exact
/// x·exp(−dt/τ), and the bounded law lowers x by at most x·(1 − exp(−dt/τ)) and by no more
/// than moves y by v·dt (measured on the inputs of the new sample; the type-erased fusion
/// of registry.hpp measures them at the previous one). dt == T gives the fixed step exactly.
///
/// S-function scheme of SPEC §3 with two inputs: `output(u1, u2)`, `update(u1, u2)`,
/// `update()`; `start()` resets the weight to x0, `start(x0)` sets a new x0 in [0, 1].
/// The state is the scalar weight; array outputs are sized by the `prototype` argument at
/// construction. output/update never allocate; inputs must have the prototype's size.

#include <algorithm>
#include <cmath>

#include "rmodel/filters/space.hpp"
#include "rmodel/filters/validate.hpp"

namespace rmodel::filters {

/// How the fusion weight decays.
enum class FusionLaw {
  Linear,             ///< x[k+1] = max(0, x[k] − T/τ): done in exactly τ seconds
  Exponential,        ///< x[k+1] = x[k]·(1 − T/τ): time constant τ
  ExponentialLimited  ///< exponential, but the blend moves y by at most v·T per step
};

/// Fusion of two trajectories; see the file comment and the aliases below.
template <FilterValue V, FusionLaw Law>
class Fusion {
public:
  using Value = V;
  using Bound = typename Space<V>::Bound;

  /// Linear or exponential fusion.
  /// @param period sample period T, s (> 0)
  /// @param tau duration (linear) or time constant (exponential, >= T), s
  /// @param prototype any value of the signal; only its size is used (joint arrays)
  /// @throws InvalidArgument for invalid T or tau
  Fusion(double period, double tau, const V& prototype = Space<V>::identity())
    requires(Law != FusionLaw::ExponentialLimited)
      : T_(period), tau_(tau), rate_(period / tau) {
    validate();
    size_buffers(prototype);
  }

  /// Exponential fusion whose blend term moves the output no faster than `speed`.
  /// @param speed bound on the speed at which the blend moves y: unit/s (joint arrays:
  ///        per joint; Vector3: m/s; orientations: rad/s; poses/twists: LinearAngular)
  /// @throws InvalidArgument for invalid T, tau or a negative speed
  Fusion(double period, double tau, const Bound& speed, const V& prototype = Space<V>::identity())
    requires(Law == FusionLaw::ExponentialLimited)
      : T_(period), tau_(tau), rate_(period / tau), speed_(speed),
        step_bound_(detail::scale_bound(speed, period)) {
    validate();
    detail::require_bound(name(), "v", speed, "units/s");
    size_buffers(prototype);
  }

  /// Resets the weight to x0 (1 unless start(x0) said otherwise).
  void start() noexcept {
    w_ = w0_;
    w_last_ = w_out_ = w0_;
    first_ = true;
    pending_ = false;
  }
  /// Sets the initial weight. @throws InvalidArgument unless 0 <= x0 <= 1
  void start(double x0) {
    if (!(x0 >= 0.0 && x0 <= 1.0)) detail::invalid(name(), "initial weight must be in [0, 1]");
    w0_ = x0;
    start();
  }

  /// y[k] for inputs u1[k], u2[k]; does not advance the weight.
  const V& output(const V& u1, const V& u2) noexcept {
    w_out_ = w_;
    w_next_ = blend(u1, u2);
    pending_ = true;
    return y_;
  }
  /// y[k], then advances the weight.
  const V& update(const V& u1, const V& u2) noexcept {
    w_last_ = w_;
    first_ = false;
    w_ = blend(u1, u2);
    pending_ = false;
    return y_;
  }
  /// Advances the weight as the inputs last given to output() dictate.
  void update() noexcept {
    if (pending_) {
      w_last_ = w_out_;
      w_ = w_next_;
      first_ = false;
    }
    pending_ = false;
  }

  /// y[k] for inputs dt seconds (> 0) after the previous ones; does not advance.
  const V& output(const V& u1, const V& u2, Interval dt) noexcept {
    if (dt.seconds == T_) return output(u1, u2);
    const double fixed_next = w_;
    w_ = weight_at(dt.seconds, u1, u2);
    w_out_ = w_;
    w_next_ = blend(u1, u2);
    w_ = fixed_next;
    pending_ = true;
    return y_;
  }
  /// As output(u1, u2, dt), and advances the weight.
  const V& update(const V& u1, const V& u2, Interval dt) noexcept {
    if (dt.seconds == T_) return update(u1, u2);
    w_ = weight_at(dt.seconds, u1, u2);
    return update(u1, u2);
  }
  /// Advances the weight as the last output() dictates (its dt was given there).
  void update(Interval /*dt*/) noexcept { update(); }

  /// The weight x[k] of u1, in [0, 1].
  [[nodiscard]] double weight() const noexcept { return w_; }
  [[nodiscard]] double period() const noexcept { return T_; }
  [[nodiscard]] double tau() const noexcept { return tau_; }

private:
  static constexpr const char* name() noexcept {
    switch (Law) {
      case FusionLaw::Linear: return "FusionLinear";
      case FusionLaw::Exponential: return "FusionExp";
      case FusionLaw::ExponentialLimited: return "FusionExpLimited";
    }
    return "Fusion";
  }

  void validate() const {
    detail::require_positive(name(), "T", T_, "s");
    detail::require_positive(name(), "tau", tau_, "s");
    if (Law != FusionLaw::Linear) detail::require_tau_not_below_period(name(), tau_, T_);
  }

  void size_buffers(const V& prototype) { detail::copy_value(y_, prototype); }

  /// The weight at a sample dt after the last one (x0 at the first sample).
  double weight_at(double dt, const V& u1, const V& u2) const noexcept {
    if (first_) return w_;
    const double w = w_last_;
    if constexpr (Law == FusionLaw::Linear) {
      return std::max(0.0, w - dt / tau_);
    } else if constexpr (Law == FusionLaw::Exponential) {
      return w * std::exp(-dt / tau_);
    } else {
      return w - Space<V>::scale_within(Space<V>::local(u2, u1), detail::scale_bound(speed_, dt),
                                        -w * std::expm1(-dt / tau_));
    }
  }

  /// Writes y_ and returns the next weight.
  double blend(const V& u1, const V& u2) noexcept {
    detail::assert_same_size(u1, y_);
    detail::assert_same_size(u2, y_);
    detail::assign(y_, Space<V>::retract(u2, w_ * Space<V>::local(u2, u1)));
    if constexpr (Law == FusionLaw::Linear) {
      return std::max(0.0, w_ - rate_);
    } else if constexpr (Law == FusionLaw::Exponential) {
      return w_ * (1.0 - rate_);
    } else {
      // Lowering the weight by dw moves y by dw·|u1 ⊖ u2|; cap that at v·T.
      return w_ - Space<V>::scale_within(Space<V>::local(u2, u1), step_bound_, w_ * rate_);
    }
  }

  double T_, tau_, rate_;
  Bound speed_{}, step_bound_{};
  double w0_ = 1.0, w_ = 1.0, w_next_ = 1.0;
  double w_last_ = 1.0, w_out_ = 1.0;  // weight used at the last sample, by the last output()
  bool first_ = true;                  // no sample since start
  V y_{};
  bool pending_ = false;
};

/// Linear hand-over from u1 to u2 completed in τ seconds.
template <FilterValue V>
using FusionLinear = Fusion<V, FusionLaw::Linear>;
/// Exponential hand-over with time constant τ.
template <FilterValue V>
using FusionExp = Fusion<V, FusionLaw::Exponential>;
/// Exponential hand-over whose blend moves the output no faster than a speed bound.
template <FilterValue V>
using FusionExpLimited = Fusion<V, FusionLaw::ExponentialLimited>;

}  // namespace rmodel::filters
