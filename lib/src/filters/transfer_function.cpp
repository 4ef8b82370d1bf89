#include "rmodel/filters/transfer_function.hpp"

#include <cmath>

#include <fmt/format.h>

namespace rmodel::filters {

TransferCoefficients normalize_transfer_function(std::vector<double> b, std::vector<double> a) {
  constexpr const char* kName = "TransferFunction";
  constexpr std::size_t kMaxLength = 64;
  if (b.empty()) detail::invalid(kName, "numerator b must have at least one coefficient");
  if (a.empty()) detail::invalid(kName, "denominator a must have at least one coefficient");
  if (b.size() > kMaxLength || a.size() > kMaxLength)
    detail::invalid(kName, fmt::format("at most {} coefficients each, got {} in b and {} in a",
                                       kMaxLength, b.size(), a.size()));
  for (std::size_t i = 0; i < b.size(); ++i)
    if (!std::isfinite(b[i])) detail::invalid(kName, fmt::format("b[{}] is {}", i, b[i]));
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!std::isfinite(a[i])) detail::invalid(kName, fmt::format("a[{}] is {}", i, a[i]));
  if (a[0] == 0.0) detail::invalid(kName, "a[0] must not be 0 (it normalises the others)");

  const double a0 = a[0];
  for (double& v : b) v /= a0;
  for (double& v : a) v /= a0;
  double sum_b = 0.0, sum_a = 0.0, scale = 0.0;
  for (double v : b) sum_b += v;
  for (double v : a) {
    sum_a += v;
    scale = std::max(scale, std::abs(v));
  }
  TransferCoefficients c;
  // A sum of a that is rounding noise means a pole at z = 1: an integrator has no
  // steady state, so start() then begins from zero output.
  c.dc_gain = std::abs(sum_a) > 1e-12 * scale ? sum_b / sum_a : 0.0;
  c.b = std::move(b);
  c.a = std::move(a);
  return c;
}

}  // namespace rmodel::filters
