#pragma once
#include "rmodel/export.hpp"
/// @file severity.hpp
/// How bad a problem of a report is.

#include <string_view>

namespace rmodel {

enum class Severity { error, warning, note };

/// "error", "warning", "note".
RMODEL_API std::string_view to_string(Severity severity);

}  // namespace rmodel
