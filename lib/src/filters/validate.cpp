#include "rmodel/filters/validate.hpp"

#include <cmath>

#include <fmt/format.h>

namespace rmodel::filters::detail {

void invalid(std::string_view filter, std::string_view message) {
  throw InvalidArgument(fmt::format("{}: {}", filter, message));
}

void require_positive(std::string_view filter, std::string_view name, double value,
                      std::string_view unit) {
  if (!(value > 0.0) || !std::isfinite(value))
    invalid(filter, fmt::format("{} must be a finite value > 0 ({}), got {}", name, unit, value));
}

void require_bound(std::string_view filter, std::string_view name, double value,
                   std::string_view unit) {
  if (!(value >= 0.0))
    invalid(filter,
            fmt::format("{} must be >= 0 ({}; inf for no bound), got {}", name, unit, value));
}

void require_bound(std::string_view filter, std::string_view name, const LinearAngular& value,
                   std::string_view unit) {
  require_bound(filter, fmt::format("{}.linear", name), value.linear, unit);
  require_bound(filter, fmt::format("{}.angular", name), value.angular, unit);
}

void require_tau_not_below_period(std::string_view filter, double tau, double period) {
  if (tau < period)
    invalid(filter, fmt::format("tau must be >= T ({} s), got {} s: with a gain T/tau above 1 "
                                "the discrete exponential law overshoots",
                                period, tau));
}

void require_ordered(std::string_view filter, std::string_view low_name, double low,
                     std::string_view high_name, double high) {
  if (low > high)
    invalid(filter, fmt::format("{} ({}) must be <= {} ({})", low_name, low, high_name, high));
}

void require_not_nan(std::string_view filter, std::string_view name, double value) {
  if (std::isnan(value)) invalid(filter, fmt::format("{} must be a number, got NaN", name));
}

}  // namespace rmodel::filters::detail
