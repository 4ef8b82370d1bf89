#include "rmodel/model/semantics.hpp"

#include <algorithm>
#include <cctype>

#include "rmodel/base/error.hpp"
#include "model/xacro_source.hpp"
#include "rmodel/base/file.hpp"

namespace rmodel {

bool ContactSpec::operator==(const ContactSpec& other) const {
  if (name != other.name || description != other.description || line != other.line ||
      points.size() != other.points.size())
    return false;
  for (std::size_t i = 0; i < points.size(); ++i)
    for (int a = 0; a < 3; ++a)
      if (points[i][a] != other.points[i][a]) return false;
  return true;
}

namespace {
template <class T>
bool same_ignoring_lines(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    T x = a[i], y = b[i];
    x.line = y.line = 0;
    if (!(x == y)) return false;
  }
  return true;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
}  // namespace

bool Semantics::same_content(const Semantics& other) const {
  return same_ignoring_lines(chains, other.chains) && same_ignoring_lines(groups, other.groups) &&
         same_ignoring_lines(contacts, other.contacts) && same_ignoring_lines(poses, other.poses) &&
         same_ignoring_lines(end_effectors, other.end_effectors) &&
         same_ignoring_lines(virtual_joints, other.virtual_joints) &&
         same_ignoring_lines(collisions.disabled, other.collisions.disabled) &&
         same_ignoring_lines(collisions.enabled, other.collisions.enabled) &&
         same_ignoring_lines(collisions.disabled_default, other.collisions.disabled_default);
}

std::optional<SemanticsFormat> detect_semantics_format(std::string_view text, std::string_view file_name) {
  auto first = std::find_if(text.begin(), text.end(), [](char c) { return !std::isspace(static_cast<unsigned char>(c)); });
  if (first != text.end()) {
    if (*first == '{') return SemanticsFormat::json;
    if (*first == '<') {
      if (text.find("<properties") != std::string_view::npos) return SemanticsFormat::cpf;
      if (text.find("<robot") != std::string_view::npos) return SemanticsFormat::srdf;
    }
  }
  if (ends_with(file_name, ".cpf") || ends_with(file_name, ".xml")) return SemanticsFormat::cpf;
  if (ends_with(file_name, ".json")) return SemanticsFormat::json;
  if (ends_with(file_name, ".srdf")) return SemanticsFormat::srdf;
  return std::nullopt;
}

// Defined in semantics_srdf.cpp when SRDF import is built; declared here to keep one
// dispatch point.
Semantics parse_srdf(std::string_view text, const std::string& source_name);

Semantics parse_semantics(std::string_view text, const std::string& source_name,
                          std::optional<SemanticsFormat> format) {
  if (!format) format = detect_semantics_format(text, source_name);
  if (!format)
    throw ParseError({source_name, 0},
                     "cannot tell the semantics format: expected .cpf XML (<properties>) or rmodel JSON ({...})");
  switch (*format) {
    case SemanticsFormat::cpf: return parse_cpf(text, source_name);
    case SemanticsFormat::json: return parse_semantics_json(text, source_name);
    case SemanticsFormat::srdf: return parse_srdf(text, source_name);
  }
  return {};
}

Semantics load_semantics(const std::string& path, std::optional<SemanticsFormat> format,
                         const XacroOptions& xacro) {
  ModelSource source;
  source.xacro_args = xacro.args;
  source.package_paths = xacro.package_paths;
  return detail::parse_semantics_input(detail::read_model_file(path, source), format);
}

}  // namespace rmodel
