#pragma once
#include "rmodel/export.hpp"
/// @file validate.hpp
/// Parameter checks shared by the filters. They throw rmodel::InvalidArgument with a
/// message naming the filter, the parameter, its unit and the offending value; they run
/// at construction and start only, never per update.

#include <string_view>

#include "rmodel/base/error.hpp"
#include "rmodel/filters/space.hpp"

namespace rmodel::filters::detail {

/// `value` must be finite and > 0 (periods, time constants, gains).
RMODEL_API void require_positive(std::string_view filter, std::string_view name, double value,
                      std::string_view unit);
/// `value` must be >= 0; +inf is allowed and means "no bound".
RMODEL_API void require_bound(std::string_view filter, std::string_view name, double value,
                   std::string_view unit);
/// Both parts >= 0 (+inf allowed).
RMODEL_API void require_bound(std::string_view filter, std::string_view name, const LinearAngular& value,
                   std::string_view unit);
/// An exponential law with gain T/tau > 1 overshoots (and diverges past 2), so tau >= T.
RMODEL_API void require_tau_not_below_period(std::string_view filter, double tau, double period);
/// `low` must not exceed `high` (e.g. hysteresis thresholds).
RMODEL_API void require_ordered(std::string_view filter, std::string_view low_name, double low,
                     std::string_view high_name, double high);
/// `value` must not be NaN.
RMODEL_API void require_not_nan(std::string_view filter, std::string_view name, double value);
/// Throws InvalidArgument("<filter>: <message>").
[[noreturn]] RMODEL_API void invalid(std::string_view filter, std::string_view message);

/// The second-order law's parameters (vector and group forms): T, a0 and a1 > 0, bounds
/// >= 0, and Jury's criterion for the discrete error recursion, 2·T·a1 + 3·T²·a0 < 4.
template <class Params>
void require_stable_second_order(std::string_view filter, double period, const Params& p) {
  require_positive(filter, "T", period, "s");
  require_positive(filter, "a0", p.a0, "1/s^2");
  require_positive(filter, "a1", p.a1, "1/s");
  require_bound(filter, "amax", p.max_acceleration, "units/s^2");
  require_bound(filter, "vmax", p.max_velocity, "units/s");
  if (!(2.0 * period * p.a1 + 3.0 * period * period * p.a0 < 4.0))
    invalid(filter, "T, a0 and a1 give an unstable discrete law: need "
                    "2*T*a1 + 3*T^2*a0 < 4 (shorten T or lower the gains)");
}

}  // namespace rmodel::filters::detail
