#include "rmodel/base/diagnostic.hpp"

#include <algorithm>

namespace rmodel {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

std::size_t Diagnostics::count(Severity severity) const noexcept {
  return static_cast<std::size_t>(std::count_if(
      items.begin(), items.end(), [&](const Diagnostic& d) { return d.severity == severity; }));
}

const Diagnostic* Diagnostics::first_error() const noexcept {
  for (const auto& d : items)
    if (d.severity == Severity::error) return &d;
  return nullptr;
}

}  // namespace rmodel
