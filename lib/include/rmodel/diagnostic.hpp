#pragma once
#include "rmodel/export.hpp"
/// @file diagnostic.hpp
/// Problems found while loading or checking a model, with severity and place.

#include <string>
#include <string_view>
#include <vector>

#include "rmodel/error.hpp"

namespace rmodel {

enum class Severity { error, warning, note };

/// "error", "warning", "note".
RMODEL_API std::string_view to_string(Severity severity);

/// One problem: where, how bad, a stable machine-readable code and a human message.
struct RMODEL_API Diagnostic {
  Severity severity = Severity::error;
  SourceLocation where;
  std::string code;     ///< stable kebab-case identifier, e.g. "unknown-link"
  std::string message;  ///< human text naming the offending element
};

/// An ordered list of diagnostics.
struct RMODEL_API Diagnostics {
  std::vector<Diagnostic> items;

  void add(Severity severity, SourceLocation where, std::string code, std::string message) {
    items.push_back({severity, std::move(where), std::move(code), std::move(message)});
  }
  [[nodiscard]] std::size_t count(Severity severity) const noexcept;
  [[nodiscard]] bool has_errors() const noexcept { return count(Severity::error) > 0; }
  /// The first error, or nullptr.
  [[nodiscard]] const Diagnostic* first_error() const noexcept;
};

}  // namespace rmodel
