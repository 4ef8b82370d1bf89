#pragma once
#include "rmodel/export.hpp"
/// @file differentiators.hpp
/// Differentiators: y[k] estimates du/dt at t_k from samples taken every T seconds.
///
/// Output is `Space<V>::Tangent`: unit/s for scalars and joint arrays, m/s for Vector3,
/// angular velocity (rad/s, reference frame) for orientations, a Twist for poses.
/// S-function scheme of SPEC §3 (SFunction, sfunction.hpp); arrays are sized by `x0` at
/// construction or start(x0), and output/update never allocate.

#include <cmath>
#include <cstddef>
#include <vector>

#include <Eigen/Cholesky>

#include "rmodel/filters/sfunction.hpp"
#include "rmodel/filters/space.hpp"
#include "rmodel/filters/validate.hpp"

namespace rmodel::filters {

/// Backward difference: y[k] = (u[k] ⊖ x[k]) / T, x[k+1] = u[k]. Exact for inputs linear
/// in time (constant angular velocity for orientations); first order otherwise.
/// Variable step (the `dt` forms): the difference over the actual interval,
/// y[k] = (u[k] ⊖ u[k-1]) / dt — still exact for inputs linear in time.
template <FilterValue V>
class BackwardDifference
    : public SFunction<BackwardDifference<V>, V, typename Space<V>::Tangent> {
  friend class SFunction<BackwardDifference<V>, V, typename Space<V>::Tangent>;

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
    this->clear_pending();
  }
  void start(const V& x0) {
    detail::copy_value(x0_, x0);
    detail::copy_value(x_, x0);
    detail::copy_value(this->u_last_, x0);
    detail::zero_like(y_, x0);
    this->clear_pending();
  }

  // output/update/update() and their Interval forms come from SFunction.

  /// Restarts component i of an array: x0 is taken as the input before the next sample.
  void restart_element(Eigen::Index i, double x0, double /*next_input*/) noexcept
    requires detail::is_array_v<V>
  {
    detail::lin(x_)[i] = x0;
  }

  [[nodiscard]] double period() const noexcept { return T_; }

private:
  const Output& output_step(const V& u) noexcept {
    detail::assert_same_size(u, x_);
    detail::assign(y_, inv_T_ * Space<V>::local(x_, u));
    return y_;
  }
  const Output& update_step(const V& u) noexcept {
    detail::assert_same_size(u, x_);
    detail::assign(y_, inv_T_ * Space<V>::local(x_, u));
    detail::assign(x_, detail::lin(u));
    return y_;
  }
  /// The difference over dt seconds (dt == T: the fixed step, with the stored 1/T).
  const Output& output_step(const V& u, double dt) noexcept {
    if (dt == T_) return output_step(u);
    detail::assert_same_size(u, x_);
    detail::assign(y_, (1.0 / dt) * Space<V>::local(x_, u));
    return y_;
  }
  const Output& update_step(const V& u, double dt) noexcept {
    if (dt == T_) return update_step(u);
    detail::assert_same_size(u, x_);
    detail::assign(y_, (1.0 / dt) * Space<V>::local(x_, u));
    detail::assign(x_, detail::lin(u));
    return y_;
  }

  double T_, inv_T_;
  V x0_{}, x_{};
  Output y_{};
};

/// First-order lag differentiator, transfer function s/(τs + 1): the derivative seen
/// through a low-pass of time constant τ, trading lag for noise. Discretised as
/// y[k] = (u[k] ⊖ x[k]) / τ, x[k+1] = x[k] ⊕ T·y[k], where x is the low-passed input;
/// with τ = T it is the backward difference. A ramp of slope c gives y → c exactly.
/// Variable step (the `dt` forms): the low-pass x' = (u − x)/τ is advanced exactly over
/// the interval with the input taken linear between the samples (first-order hold):
///     x[k] = x[k-1] ⊕ [(1 − a)·(u[k-1] ⊖ x[k-1]) + (1 − τ(1 − a)/dt)·(u[k] ⊖ u[k-1])],
/// a = exp(−dt/τ); then y[k] = (u[k] ⊖ x[k]) / τ. Exact at the sample times for inputs
/// linear in time: a ramp of slope c started from rest gives c·(1 − exp(−t/τ)).
template <FilterValue V>
class LagDifferentiator
    : public SFunction<LagDifferentiator<V>, V, typename Space<V>::Tangent> {
  friend class SFunction<LagDifferentiator<V>, V, typename Space<V>::Tangent>;

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
    primed_ = false;
    this->clear_pending();
  }
  void start(const V& x0) {
    detail::copy_value(x0_, x0);
    detail::copy_value(x_, x0);
    detail::copy_value(xs_, x0);
    detail::copy_value(xt_, x0);
    detail::copy_value(us_, x0);
    detail::copy_value(this->u_last_, x0);
    detail::zero_like(y_, x0);
    start();
  }

  // output/update/update() and their Interval forms come from SFunction.

  /// Restarts component i of an array: x0 is its low-passed input (over a variable step,
  /// its value at the previous sample, the input ramping from x0 to the next one).
  void restart_element(Eigen::Index i, double x0, double /*next_input*/) noexcept
    requires detail::is_array_v<V>
  {
    detail::lin(x_)[i] = x0;
    detail::lin(xs_)[i] = x0;
    detail::lin(us_)[i] = x0;
  }

  /// The low-passed input x[k+1] the next fixed step starts from, unit of V.
  [[nodiscard]] const V& state() const noexcept { return x_; }
  [[nodiscard]] double period() const noexcept { return T_; }
  [[nodiscard]] double tau() const noexcept { return tau_; }

private:
  const Output& output_step(const V& u) noexcept {
    detail::assert_same_size(u, x_);
    detail::assign(y_, inv_tau_ * Space<V>::local(x_, u));
    return y_;
  }
  const Output& update_step(const V& u) noexcept {
    detail::assert_same_size(u, x_);
    detail::assign(y_, inv_tau_ * Space<V>::local(x_, u));
    commit(u);
    return y_;
  }
  /// y[k] for a sample dt seconds (> 0) after the previous one; does not advance.
  const Output& output_step(const V& u, double dt) noexcept {
    if (dt == T_) return output_step(u);
    detail::assert_same_size(u, x_);
    const V& x = advanced(xt_, u, dt);
    detail::assign(y_, inv_tau_ * Space<V>::local(x, u));
    return y_;
  }
  /// As output_step(u, dt), and advances.
  const Output& update_step(const V& u, double dt) noexcept {
    if (dt == T_) return update_step(u);
    detail::assert_same_size(u, x_);
    // x_ takes the low-passed value at this sample; commit() then moves it to xs_.
    detail::assign(x_, detail::lin(advanced(xt_, u, dt)));
    detail::assign(y_, inv_tau_ * Space<V>::local(x_, u));
    commit(u);
    return y_;
  }

  /// x_ holds x[k] (the value at sample k); keeps it and u[k] in xs_, us_ for the
  /// variable step and advances x_ by the fixed step T.
  void commit(const V& u) noexcept {
    detail::swap_values(xs_, x_);
    detail::assign(x_, Space<V>::retract(xs_, T_ * detail::lin(y_)));
    detail::assign(us_, detail::lin(u));
    primed_ = true;
  }

  /// The low-passed input at a sample dt after the last one, into `out`.
  const V& advanced(V& out, const V& u, double dt) noexcept {
    if (!primed_) return x_;  // the first sample: x0 is its low-passed input
    const double p = -std::expm1(-dt / tau_);  // 1 − a
    const double c = 1.0 - tau_ * p / dt;
    detail::assign(out, Space<V>::retract(xs_, p * Space<V>::local(xs_, us_) +
                                                   c * Space<V>::local(us_, u)));
    return out;
  }

  double T_, tau_, inv_tau_;
  V x0_{}, x_{}, xs_{}, xt_{}, us_{};  // xs_, us_: x and u at the last sample
  Output y_{};
  bool primed_ = false;
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
/// Variable step (the `dt` forms): the same least-squares fit at the actual sample times
/// (samples before start are taken T apart): the weights, shared by every component, are
/// recomputed per step into preallocated storage (normal equations in a Legendre basis
/// over the window, which keeps them well conditioned); still exact for polynomials up to
/// `order`. While the window's spacing is exactly T the fixed weights are used.
template <VectorValue V>
class FirDifferentiator : public SFunction<FirDifferentiator<V>, V, V> {
  friend class SFunction<FirDifferentiator<V>, V, V>;

public:
  using Value = V;
  using Output = V;

  /// @param period sample period T, s (> 0)
  /// @param window number of samples in the fit (2..512)
  /// @param order polynomial degree (1..min(window-1, 8))
  /// @param x0 value assumed for the samples before start (history); sizes arrays
  /// @throws InvalidArgument for an invalid T, window or order
  FirDifferentiator(double period, int window, int order, const V& x0 = Space<V>::identity())
      : T_(period), order_(order) {
    detail::require_positive("FirDifferentiator", "T", period, "s");
    weights_ = polynomial_derivative_weights(window, order);
    for (double& w : weights_) w /= period;
    history_.resize(weights_.size() - 1);
    gaps_.assign(history_.size(), period);
    ages_.assign(weights_.size(), 0.0);
    fit_.assign(weights_.size(), 0.0);
    const Eigen::Index m = order + 1;
    gram_.resize(m, m);
    rhs_.resize(m);
    coef_.resize(m);
    basis_.resize(m);
    start(x0);
  }

  /// Refills the history with the initial value given last.
  void start() noexcept {
    for (V& h : history_) detail::assign(h, detail::lin(x0_));
    for (double& g : gaps_) g = T_;
    newest_ = 0;
    this->clear_pending();
  }
  /// Sets a new initial history value (may resize arrays) and resets.
  void start(const V& x0) {
    detail::copy_value(x0_, x0);
    for (V& h : history_) detail::copy_value(h, x0);
    detail::copy_value(y_, x0);
    detail::copy_value(this->u_last_, x0);
    start();
  }

  // output/update/update() and their Interval forms come from SFunction.

  /// Restarts component i: every past sample of it becomes x0. No allocation.
  void restart_element(Eigen::Index i, double x0, double /*next_input*/) noexcept
    requires detail::is_array_v<V>
  {
    for (V& h : history_) detail::lin(h)[i] = x0;
  }

  /// Weights per second, newest sample first (w[i]/T).
  [[nodiscard]] const std::vector<double>& weights() const noexcept { return weights_; }
  [[nodiscard]] double period() const noexcept { return T_; }

private:
  const Output& output_step(const V& u) noexcept {
    compute(weights_, u);
    return y_;
  }
  const Output& update_step(const V& u) noexcept {
    compute(weights_, u);
    push(u, T_);
    return y_;
  }
  /// y[k] for a sample dt seconds (> 0) after the previous one; does not advance.
  const Output& output_step(const V& u, double dt) noexcept {
    if (uniform(dt)) return output_step(u);
    fit(dt);
    compute(fit_, u);
    return y_;
  }
  /// As output_step(u, dt), and advances.
  const Output& update_step(const V& u, double dt) noexcept {
    if (uniform(dt)) return update_step(u);
    fit(dt);
    compute(fit_, u);
    push(u, dt);
    return y_;
  }

  void compute(const std::vector<double>& w, const V& u) noexcept {
    using detail::lin;
    detail::assert_same_size(u, y_);
    lin(y_) = w[0] * lin(u);
    std::size_t j = newest_;
    const std::size_t n = history_.size();
    for (std::size_t i = 1; i <= n; ++i) {
      lin(y_) += w[i] * lin(history_[j]);
      j = j == 0 ? n - 1 : j - 1;
    }
  }

  /// Stores u, which came dt after the newest sample of the history.
  void push(const V& u, double dt) noexcept {
    gaps_[newest_] = dt;
    // The slot after the newest holds the oldest sample, which has just left the window.
    newest_ = newest_ + 1 == history_.size() ? 0 : newest_ + 1;
    detail::assign(history_[newest_], detail::lin(u));
  }

  /// True when a sample dt after the newest leaves every interval of the window at T.
  [[nodiscard]] bool uniform(double dt) const noexcept {
    if (dt != T_) return false;
    for (std::size_t j = 0; j < gaps_.size(); ++j)
      if (j != newest_ && gaps_[j] != T_) return false;
    return true;
  }

  /// fit_ = weights (per second) of the least-squares derivative at a sample dt after the
  /// newest one. Abscissae s in [-1, 1] (newest at 1); Legendre polynomials P_j as basis,
  /// P_j'(1) = j(j+1)/2.
  void fit(double dt) noexcept {
    const std::size_t n = history_.size();
    ages_[0] = 0.0;
    double age = dt;
    std::size_t j = newest_;
    for (std::size_t i = 1; i <= n; ++i) {
      ages_[i] = age;
      j = j == 0 ? n - 1 : j - 1;
      age += gaps_[j];
    }
    const double span = ages_[n];
    gram_.setZero();
    for (std::size_t i = 0; i <= n; ++i) {
      legendre(1.0 - 2.0 * ages_[i] / span);
      gram_.noalias() += basis_ * basis_.transpose();
    }
    for (Eigen::Index k = 0; k <= order_; ++k)
      rhs_[k] = static_cast<double>(k * (k + 1)) / span;  // d/dt = (2/span)·d/ds
    ldlt_.compute(gram_);
    coef_ = ldlt_.solve(rhs_);
    for (std::size_t i = 0; i <= n; ++i) {
      legendre(1.0 - 2.0 * ages_[i] / span);
      fit_[i] = basis_.dot(coef_);
    }
  }

  /// basis_ = P_0..P_order at s.
  void legendre(double s) noexcept {
    basis_[0] = 1.0;
    if (order_ >= 1) basis_[1] = s;
    for (Eigen::Index k = 1; k < order_; ++k)
      basis_[k + 1] = ((2.0 * static_cast<double>(k) + 1.0) * s * basis_[k] -
                       static_cast<double>(k) * basis_[k - 1]) /
                      static_cast<double>(k + 1);
  }

  static constexpr int kMaxTerms = 9;  // order <= 8
  using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxTerms, kMaxTerms>;
  using SmallVec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxTerms, 1>;

  double T_;
  Eigen::Index order_;
  std::vector<double> weights_;
  std::vector<V> history_;     // ring of the last window-1 inputs
  std::vector<double> gaps_;   // gaps_[j]: time from history_[j] to the next newer sample
  std::vector<double> ages_, fit_;
  Small gram_;
  SmallVec rhs_, coef_, basis_;
  // Decomposed once here so that every member of the LDLT is set: Eigen leaves its `info`
  // uninitialised until compute(), and moving the filter would copy it (UBSan).
  Eigen::LDLT<Small> ldlt_{Small::Identity(kMaxTerms, kMaxTerms)};
  std::size_t newest_ = 0;
  V x0_{}, y_{};
};

}  // namespace rmodel::filters
