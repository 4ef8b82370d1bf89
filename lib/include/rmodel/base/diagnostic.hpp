#pragma once
#include "rmodel/export.hpp"
/// @file diagnostic.hpp
/// Problems found while loading or checking a model, with severity and place.

#include <string>
#include <string_view>
#include <vector>

#include "rmodel/base/check_codes.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/base/severity.hpp"

namespace rmodel {

/// The code of a diagnostic rmodel makes: a model code of the catalogue (rmodel/base/check_codes.hpp),
/// checked while compiling. `Diagnostic{Severity::error, where, "unknown-link", text}` compiles;
/// a string the catalogue does not declare fails the build in a call to
/// code_not_in_the_catalogue(): declare the code in kCheckCodes first, and give it its page.
class DiagnosticCode {
public:
  consteval DiagnosticCode(const char* code) : code_(code) {  // NOLINT: implicit on purpose
    if (!is_check_code(code_, CodeScope::model)) code_not_in_the_catalogue();
  }
  [[nodiscard]] constexpr std::string_view text() const noexcept { return code_; }

private:
  static void code_not_in_the_catalogue() {}  // not constexpr: calling it at compile time is the error
  std::string_view code_;
};

/// One problem: where, how bad, a stable machine-readable code and a human message.
struct RMODEL_API Diagnostic {
  Severity severity = Severity::error;
  SourceLocation where;
  std::string code;     ///< stable kebab-case identifier of the catalogue, e.g. "unknown-link"
  std::string message;  ///< human text naming the offending element

  Diagnostic() = default;
  Diagnostic(Severity severity_, SourceLocation where_, DiagnosticCode code_, std::string message_)
      : severity(severity_), where(std::move(where_)), code(code_.text()), message(std::move(message_)) {}
};

/// An ordered list of diagnostics.
struct RMODEL_API Diagnostics {
  std::vector<Diagnostic> items;

  void add(Severity severity, SourceLocation where, DiagnosticCode code, std::string message) {
    items.emplace_back(severity, std::move(where), code, std::move(message));
  }
  [[nodiscard]] std::size_t count(Severity severity) const noexcept;
  [[nodiscard]] bool has_errors() const noexcept { return count(Severity::error) > 0; }
  /// The first error, or nullptr.
  [[nodiscard]] const Diagnostic* first_error() const noexcept;
};

}  // namespace rmodel
