#include <Eigen/Dense>
#include <fmt/format.h>

#include "rmodel/filters/differentiators.hpp"

namespace rmodel::filters {

std::vector<double> polynomial_derivative_weights(int window, int order) {
  constexpr int kMaxWindow = 512;
  constexpr int kMaxOrder = 8;  // beyond this the fit is too ill-conditioned to be useful
  if (window < 2 || window > kMaxWindow)
    detail::invalid("FirDifferentiator",
                    fmt::format("window must be 2..{} samples, got {}", kMaxWindow, window));
  if (order < 1 || order > kMaxOrder || order >= window)
    detail::invalid("FirDifferentiator",
                    fmt::format("order must be 1..{} and below window ({}), got {}",
                                std::min(kMaxOrder, window - 1), window, order));

  // Sample i sits at s = -i (newest first). Abscissae are mapped onto [-1, 1] so the
  // Vandermonde matrix stays well conditioned; the fit is solved by QR rather than normal
  // equations for the same reason.
  const double half = 0.5 * (window - 1);
  const Eigen::Index n = window;
  const Eigen::Index m = order + 1;
  Eigen::MatrixXd A(n, m);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double s = (half - static_cast<double>(i)) / half;  // newest sample at s = 1
    double p = 1.0;
    for (Eigen::Index j = 0; j < m; ++j, p *= s) A(i, j) = p;
  }
  // Coefficients c = pinv(A)·u; the derivative at s = 1 is Σ j·c_j (d/ds), and ds/di = 1/half.
  Eigen::RowVectorXd d(m);
  for (Eigen::Index j = 0; j < m; ++j) d(j) = static_cast<double>(j) / half;
  const Eigen::MatrixXd pinv = A.colPivHouseholderQr().solve(Eigen::MatrixXd::Identity(n, n));
  const Eigen::RowVectorXd w = d * pinv;
  return {w.data(), w.data() + w.size()};
}

}  // namespace rmodel::filters
