#pragma once
/// @file hysteresis.hpp
/// Hysteresis (a relay with two thresholds), per component: the output switches on
/// (1.0) when the input reaches the on threshold, off (0.0) when it falls to the off
/// threshold, and otherwise keeps its previous value, so noise around one threshold does
/// not make it chatter:
///     y[k] = 1 if u[k] >= on;  0 if u[k] <= off;  y[k−1] otherwise;   x[k+1] = y[k].
/// With on == off it is a plain comparator (on wins the tie).
///
/// Values: double or Eigen/KDL joint arrays (each joint has its own relay, same
/// thresholds). S-function scheme of SPEC §3 (SFunction, sfunction.hpp); start() turns
/// every relay off unless start(x0) gave other initial states (nonzero = on). No
/// allocation after construction/start.

#include <type_traits>

#include "rmodel/filters/sfunction.hpp"
#include "rmodel/filters/space.hpp"
#include "rmodel/filters/validate.hpp"

namespace rmodel::filters {

/// A value type with per-component access: double or a joint array.
template <class V>
concept ComponentValue = std::is_same_v<V, double> || std::is_same_v<V, KDL::JntArray> ||
                         detail::is_eigen_vector_v<V>;

/// Per-component relay with hysteresis; see the file comment.
template <ComponentValue V>
class Hysteresis : public SFunction<Hysteresis<V>, V, V, Pending::Adopt, /*Timed=*/false> {
  friend class SFunction<Hysteresis<V>, V, V, Pending::Adopt, false>;

public:
  using Value = V;

  /// @param on threshold at or above which the output turns on (unit of the input)
  /// @param off threshold at or below which it turns off (<= on)
  /// @param x0 initial states (nonzero = on); its size fixes array sizes
  /// @throws InvalidArgument if a threshold is NaN or off > on
  Hysteresis(double on, double off, const V& x0 = Space<V>::identity()) : on_(on), off_(off) {
    detail::require_not_nan("Hysteresis", "on", on);
    detail::require_not_nan("Hysteresis", "off", off);
    detail::require_ordered("Hysteresis", "off threshold", off, "on threshold", on);
    start(x0);
  }

  void start() noexcept {
    detail::assign(x_, detail::lin(x0_));
    this->clear_pending();
  }
  /// Sets new initial states (nonzero = on; may resize arrays) and resets.
  void start(const V& x0) {
    detail::copy_value(x0_, x0);
    // Stored as exact 0/1 so that the state doubles as the output.
    if constexpr (std::is_same_v<V, double>) {
      x0_ = x0 != 0.0 ? 1.0 : 0.0;
    } else {
      auto& s = detail::lin(x0_);
      s = (s.array() != 0.0).template cast<double>().matrix();
    }
    detail::copy_value(x_, x0_);
    detail::copy_value(y_, x0_);
    start();
  }

  // From SFunction: output(u) gives y[k] without advancing, update(u) gives y[k] and makes
  // it the state, update() makes the y[k] of the last output() the state.

  /// Restarts the relay of component i: on if x0 is nonzero. Arrays only; no allocation.
  void restart_element(Eigen::Index i, double x0, double /*next_input*/) noexcept
    requires detail::is_array_v<V>
  {
    detail::lin(x_)[i] = x0 != 0.0 ? 1.0 : 0.0;
  }

  [[nodiscard]] const V& state() const noexcept { return x_; }
  [[nodiscard]] double on_threshold() const noexcept { return on_; }
  [[nodiscard]] double off_threshold() const noexcept { return off_; }

private:
  const V& output_step(const V& u) noexcept {
    step(y_, u);
    return y_;
  }
  const V& update_step(const V& u) noexcept {
    step(x_, u);
    return x_;
  }
  void adopt_output() noexcept { detail::swap_values(x_, y_); }

  static double relay(double u, double previous, double on, double off) noexcept {
    return u >= on ? 1.0 : (u <= off ? 0.0 : previous);
  }

  void step(V& target, const V& u) noexcept {
    detail::assert_same_size(u, x_);
    if constexpr (std::is_same_v<V, double>) {
      target = relay(u, x_, on_, off_);
    } else {
      const auto& in = detail::lin(u);
      const auto& prev = detail::lin(x_);
      auto& out = detail::lin(target);
      for (Eigen::Index i = 0; i < in.size(); ++i) out[i] = relay(in[i], prev[i], on_, off_);
    }
  }

  double on_, off_;
  V x0_{}, x_{}, y_{};
};

}  // namespace rmodel::filters
