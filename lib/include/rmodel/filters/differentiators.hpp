#pragma once
#include "rmodel/export.hpp"
/// @file differentiators.hpp
/// Differentiators: y[k] estimates du/dt at t_k from samples taken every T seconds.
///
/// Output is `Space<V>::Tangent`: unit/s for scalars and joint arrays, m/s for Vector3,
/// angular velocity (rad/s, reference frame) for orientations, a Twist for poses.
/// S-function scheme of SPEC §3 (see integrators.hpp); arrays are sized by `x0` at
/// construction or start(x0), and output/update never allocate.

#include <cstddef>
#include <vector>

#include "rmodel/filters/space.hpp"
#include "rmodel/filters/validate.hpp"

namespace rmodel::filters {

/// Backward difference: y[k] = (u[k] ⊖ x[k]) / T, x[k+1] = u[k]. Exact for inputs linear
/// in time (constant angular velocity for orientations); first order otherwise.
template <FilterValue V>
class BackwardDifference {
public:
  using Value = V;
  using Output = typename Space<V>::Tangent;

  /// @param period sample period T, s (> 0)
  /// @param x0 the input before the first sample (x[0]); its size fixes array sizes
  /// @throws InvalidArgument if T is not finite and > 0
  explicit BackwardDifference(double period, const V& x0 = Space<V>::identity())
      : T_(period), inv_T_(1.0 / period) {
    detail::require_positive("BackwardDifference", "T", period, "s");
    start(x0);
  }

  void start() noexcept {
    detail::assign(x_, detail::lin(x0_));
    pending_ = false;
  }
  void start(const V& x0) {
    detail::copy_value(x0_, x0);
    detail::copy_value(x_, x0);
    detail::copy_value(u_last_, x0);
    detail::zero_like(y_, x0);
    pending_ = false;
  }

  const Output& output(const V& u) noexcept {
    detail::assert_same_size(u, x_);
    detail::assign(u_last_, detail::lin(u));
    pending_ = true;
    detail::assign(y_, inv_T_ * Space<V>::local(x_, u));
    return y_;
  }
  const Output& update(const V& u) noexcept {
    detail::assert_same_size(u, x_);
    detail::assign(y_, inv_T_ * Space<V>::local(x_, u));
    detail::assign(x_, detail::lin(u));
    pending_ = false;
    return y_;
  }
  void update() noexcept {
    if (pending_) (void)update(u_last_);
  }

  [[nodiscard]] double period() const noexcept { return T_; }

private:
  double T_, inv_T_;
  V x0_{}, x_{}, u_last_{};
  Output y_{};
  bool pending_ = false;
};

/// First-order lag differentiator, transfer function s/(τs + 1): the derivative seen
/// through a low-pass of time constant τ, trading lag for noise. Discretised as
/// y[k] = (u[k] ⊖ x[k]) / τ, x[k+1] = x[k] ⊕ T·y[k], where x is the low-passed input;
/// with τ = T it is the backward difference. A ramp of slope c gives y → c exactly.
template <FilterValue V>
class LagDifferentiator {
public:
  using Value = V;
  using Output = typename Space<V>::Tangent;

  /// @param period sample period T, s (> 0)
  /// @param tau time constant τ, s (>= T)
  /// @param x0 initial low-passed input (the input "before start"); sizes arrays
  /// @throws InvalidArgument for T <= 0, tau <= 0 or tau < T
  LagDifferentiator(double period, double tau, const V& x0 = Space<V>::identity())
      : T_(period), tau_(tau), inv_tau_(1.0 / tau) {
    detail::require_positive("LagDifferentiator", "T", period, "s");
    detail::require_positive("LagDifferentiator", "tau", tau, "s");
    detail::require_tau_not_below_period("LagDifferentiator", tau, period);
    start(x0);
  }

  void start() noexcept {
    detail::assign(x_, detail::lin(x0_));
    pending_ = false;
  }
  void start(const V& x0) {
    detail::copy_value(x0_, x0);
    detail::copy_value(x_, x0);
    detail::copy_value(u_last_, x0);
    detail::zero_like(y_, x0);
    pending_ = false;
  }

  const Output& output(const V& u) noexcept {
    detail::assert_same_size(u, x_);
    detail::assign(u_last_, detail::lin(u));
    pending_ = true;
    detail::assign(y_, inv_tau_ * Space<V>::local(x_, u));
    return y_;
  }
  const Output& update(const V& u) noexcept {
    detail::assert_same_size(u, x_);
    detail::assign(y_, inv_tau_ * Space<V>::local(x_, u));
    detail::assign(x_, Space<V>::retract(x_, T_ * detail::lin(y_)));
    pending_ = false;
    return y_;
  }
  void update() noexcept {
    if (pending_) (void)update(u_last_);
  }

  /// The low-passed input x[k], unit of V.
  [[nodiscard]] const V& state() const noexcept { return x_; }
  [[nodiscard]] double period() const noexcept { return T_; }
  [[nodiscard]] double tau() const noexcept { return tau_; }

private:
  double T_, tau_, inv_tau_;
  V x0_{}, x_{}, u_last_{};
  Output y_{};
  bool pending_ = false;
};

/// Weights w[0..window-1] of the least-squares polynomial differentiator: fitting a
/// polynomial of degree `order` to the last `window` samples u[k], u[k-1], ... spaced one
/// apart and differentiating it at the newest sample gives Σ w[i]·u[k-i] (per sample;
/// divide by T for per second). Exact for polynomials of degree <= order.
/// @param window number of samples, 2..512
/// @param order polynomial degree, 1..min(window-1, 8)
/// @throws InvalidArgument when out of range
RMODEL_API std::vector<double> polynomial_derivative_weights(int window, int order);

/// FIR polynomial (Savitzky–Golay) differentiator evaluated at the newest sample, so it
/// adds no delay: y[k] = Σ_{i<window} w[i]·u[k-i] / T with the weights of
/// polynomial_derivative_weights(). Exact for polynomial inputs up to `order`; larger
/// windows trade responsiveness for noise rejection. Vector-space values only.
template <VectorValue V>
class FirDifferentiator {
public:
  using Value = V;
  using Output = V;

  /// @param period sample period T, s (> 0)
  /// @param window number of samples in the fit (2..512)
  /// @param order polynomial degree (1..min(window-1, 8))
  /// @param x0 value assumed for the samples before start (history); sizes arrays
  /// @throws InvalidArgument for an invalid T, window or order
  FirDifferentiator(double period, int window, int order, const V& x0 = Space<V>::identity())
      : T_(period) {
    detail::require_positive("FirDifferentiator", "T", period, "s");
    weights_ = polynomial_derivative_weights(window, order);
    for (double& w : weights_) w /= period;
    history_.resize(weights_.size() - 1);
    start(x0);
  }

  /// Refills the history with the initial value given last.
  void start() noexcept {
    for (V& h : history_) detail::assign(h, detail::lin(x0_));
    newest_ = 0;
    pending_ = false;
  }
  /// Sets a new initial history value (may resize arrays) and resets.
  void start(const V& x0) {
    detail::copy_value(x0_, x0);
    for (V& h : history_) detail::copy_value(h, x0);
    detail::copy_value(y_, x0);
    detail::copy_value(u_last_, x0);
    start();
  }

  const Output& output(const V& u) noexcept {
    detail::assign(u_last_, detail::lin(u));
    pending_ = true;
    compute(u);
    return y_;
  }
  const Output& update(const V& u) noexcept {
    compute(u);
    // The slot after the newest holds the oldest sample, which has just left the window.
    newest_ = newest_ + 1 == history_.size() ? 0 : newest_ + 1;
    detail::assign(history_[newest_], detail::lin(u));
    pending_ = false;
    return y_;
  }
  void update() noexcept {
    if (pending_) (void)update(u_last_);
  }

  /// Weights per second, newest sample first (w[i]/T).
  [[nodiscard]] const std::vector<double>& weights() const noexcept { return weights_; }
  [[nodiscard]] double period() const noexcept { return T_; }

private:
  void compute(const V& u) noexcept {
    using detail::lin;
    detail::assert_same_size(u, y_);
    lin(y_) = weights_[0] * lin(u);
    std::size_t j = newest_;
    const std::size_t n = history_.size();
    for (std::size_t i = 1; i <= n; ++i) {
      lin(y_) += weights_[i] * lin(history_[j]);
      j = j == 0 ? n - 1 : j - 1;
    }
  }

  double T_;
  std::vector<double> weights_;
  std::vector<V> history_;  // ring of the last window-1 inputs
  std::size_t newest_ = 0;
  V x0_{}, y_{}, u_last_{};
  bool pending_ = false;
};

}  // namespace rmodel::filters
