#pragma once
#include "rmodel/export.hpp"
/// @file transfer_function.hpp
/// Discrete transfer function H(z) = (b0 + b1 z⁻¹ + ...) / (a0 + a1 z⁻¹ + ...), applied
/// to every component of the signal. Coefficients are normalised by a0 as in ROS
/// `filters::TransferFunctionFilter`, and the output is the direct-form recursion
///     y[k] = Σ_{i>=0} b_i·u[k−i] − Σ_{i>=1} a_i·y[k−i].
/// Coefficients are per sample, so there is no period parameter.
///
/// S-function scheme of SPEC §3: the state is the input and output history; start(u0)
/// fills it as if the input had been u0 forever (outputs at the DC gain times u0, or 0
/// when H has a pole at z = 1). Vector-space values only; no allocation after
/// construction/start.

#include <cstddef>
#include <utility>
#include <vector>

#include "rmodel/filters/space.hpp"
#include "rmodel/filters/validate.hpp"

namespace rmodel::filters {

/// Normalised coefficients of a transfer function.
struct RMODEL_API TransferCoefficients {
  std::vector<double> b;  ///< numerator, b[0] first (multiplies u[k])
  std::vector<double> a;  ///< denominator, a[0] == 1
  /// H(1) = Σb/Σa, or 0 when Σa is 0 (pole at z = 1: no steady state).
  double dc_gain = 0.0;
};

/// Checks and normalises b and a (divides all by a[0]).
/// @throws InvalidArgument if b or a is empty or longer than 64, a coefficient is not
///         finite, or a[0] is 0
RMODEL_API TransferCoefficients normalize_transfer_function(std::vector<double> b, std::vector<double> a);

/// Discrete transfer function; see the file comment.
template <VectorValue V>
class TransferFunction {
public:
  using Value = V;

  /// @param b numerator coefficients (b[0] multiplies u[k])
  /// @param a denominator coefficients (a[0] != 0)
  /// @param u0 input assumed before start (steady state); its size fixes array sizes
  /// @throws InvalidArgument for invalid coefficients
  TransferFunction(std::vector<double> b, std::vector<double> a,
                   const V& u0 = Space<V>::identity())
      : c_(normalize_transfer_function(std::move(b), std::move(a))) {
    u_hist_.resize(c_.b.size() - 1);
    y_hist_.resize(c_.a.size() - 1);
    start(u0);
  }

  /// Refills the history from the u0 given last.
  void start() noexcept {
    for (V& h : u_hist_) detail::assign(h, detail::lin(u0_));
    for (V& h : y_hist_) detail::assign(h, c_.dc_gain * detail::lin(u0_));
    u_newest_ = y_newest_ = 0;
    pending_ = false;
  }
  /// Sets a new steady-state input u0 (may resize arrays) and resets.
  void start(const V& u0) {
    detail::copy_value(u0_, u0);
    for (V& h : u_hist_) detail::copy_value(h, u0);
    for (V& h : y_hist_) detail::copy_value(h, u0);
    detail::copy_value(y_, u0);
    detail::copy_value(u_last_, u0);
    start();
  }

  const V& output(const V& u) noexcept {
    detail::assign(u_last_, detail::lin(u));
    pending_ = true;
    compute(u);
    return y_;
  }
  const V& update(const V& u) noexcept {
    compute(u);
    push(u_hist_, u_newest_, u);
    push(y_hist_, y_newest_, y_);
    pending_ = false;
    return y_;
  }
  void update() noexcept {
    if (pending_) (void)update(u_last_);
  }

  /// Restarts component i in the steady state of input x0. No allocation.
  void restart_element(Eigen::Index i, double x0, double /*next_input*/) noexcept
    requires detail::is_array_v<V>
  {
    for (V& h : u_hist_) detail::lin(h)[i] = x0;
    for (V& h : y_hist_) detail::lin(h)[i] = c_.dc_gain * x0;
  }

  [[nodiscard]] const TransferCoefficients& coefficients() const noexcept { return c_; }

private:
  void compute(const V& u) noexcept {
    using detail::lin;
    detail::assert_same_size(u, y_);
    lin(y_) = c_.b[0] * lin(u);
    accumulate(u_hist_, u_newest_, c_.b, 1.0);
    accumulate(y_hist_, y_newest_, c_.a, -1.0);
  }

  /// y_ += sign · Σ_{i>=1} coef[i]·hist[newest − (i−1)]
  void accumulate(const std::vector<V>& hist, std::size_t newest, const std::vector<double>& coef,
                  double sign) noexcept {
    const std::size_t n = hist.size();
    std::size_t j = newest;
    for (std::size_t i = 1; i <= n; ++i) {
      detail::lin(y_) += (sign * coef[i]) * detail::lin(hist[j]);
      j = j == 0 ? n - 1 : j - 1;
    }
  }

  static void push(std::vector<V>& hist, std::size_t& newest, const V& value) noexcept {
    if (hist.empty()) return;
    // The slot after the newest holds the oldest entry, which is leaving the window.
    newest = newest + 1 == hist.size() ? 0 : newest + 1;
    detail::assign(hist[newest], detail::lin(value));
  }

  TransferCoefficients c_;
  std::vector<V> u_hist_, y_hist_;  // rings of u[k−1..k−nb+1], y[k−1..k−na+1]
  std::size_t u_newest_ = 0, y_newest_ = 0;
  V u0_{}, y_{}, u_last_{};
  bool pending_ = false;
};

}  // namespace rmodel::filters
