#include "model/xacro_source.hpp"

#include <cctype>
#include <charconv>
#include <optional>

#include "rmodel/base/error.hpp"
#include "rmodel/base/file.hpp"
#include "rmodel/model/semantics.hpp"

namespace rmodel::detail {

namespace {
/// A line reference in a URDF check's message: "at line N", "(line N" (a space may follow
/// "at" or "(").
struct LineReference {
  std::size_t begin = 0;       ///< where "at" or "(" starts
  std::size_t line_begin = 0;  ///< where "line " starts (kept before it: "at ", "(")
  std::size_t end = 0;         ///< one past the digits
  int line = 0;
};

/// The first reference at or after `from`; the number must end the word (not "line 12a")
/// and fit an int.
std::optional<LineReference> next_line_reference(std::string_view text, std::size_t from) {
  constexpr std::string_view kLine = "line ";
  const auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  for (std::size_t at = from; at < text.size(); ++at) {
    std::size_t p = at;
    if (text.substr(p, 2) == "at") p += 2;
    else if (text[p] == '(') p += 1;
    else continue;
    if (p < text.size() && text[p] == ' ') ++p;
    if (text.substr(p, kLine.size()) != kLine) continue;
    const std::size_t digits = p + kLine.size();
    std::size_t end = digits;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) != 0) ++end;
    if (end == digits || (end < text.size() && is_word(text[end]))) continue;
    int line = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + digits, text.data() + end, line);
    if (ec != std::errc() || ptr != text.data() + end) continue;
    return LineReference{at, p, end, line};
  }
  return std::nullopt;
}
}  // namespace

ExpandedInput read_model_file(const std::string& path, const ModelSource& source) {
  ExpandedInput input;
  input.text = read_text_file(path);
  input.name = display_name(path);
  if (!is_xacro(path, input.text)) return input;
  XacroOptions options;
  options.args = source.xacro_args;
  options.package_paths = source.package_paths;
  auto expanded = std::make_shared<XacroResult>(expand_xacro_string(input.text, input.name, options));
  input.text = expanded->xml();
  input.xacro = std::move(expanded);
  return input;
}

UrdfInput read_urdf_input(const ModelSource& source) { return read_model_file(source.urdf_path, source); }

Semantics parse_semantics_input(const ExpandedInput& input, std::optional<SemanticsFormat> format) {
  if (!input.xacro) return parse_semantics(input.text, input.name, format);
  try {
    return parse_semantics(input.text, input.name, format);
  } catch (const ParseError& e) {
    std::string message = e.message();
    const SourceLocation where = map_to_xacro(*input.xacro, input.name, e.where(), &message);
    throw ParseError(where, message);
  }
}

SourceLocation map_to_xacro(const XacroResult& xacro, const std::string& name, const SourceLocation& where,
                            std::string* message) {
  if (where.file != name) return where;
  if (message) {
    // The URDF checks name other elements by their line: "(first declared at line 12)",
    // "(line 12)". Those lines are the expanded text's too.
    const std::string_view text = *message;
    std::string out;
    std::size_t last = 0;
    while (const auto ref = next_line_reference(text, last)) {
      out.append(text.substr(last, ref->line_begin - last));  // up to "line ": "at ", "("
      out += xacro.origin(ref->line).to_string();
      last = ref->end;
    }
    out.append(text.substr(last));
    if (const std::string& context = xacro.context(where.line); !context.empty() && where.line > 0) out += ", " + context;
    *message = std::move(out);
  }
  if (where.line <= 0) return where;
  return xacro.origin(where.line);
}

void map_to_xacro(const XacroResult& xacro, const std::string& name, Diagnostics& diagnostics, std::size_t first) {
  for (std::size_t k = first; k < diagnostics.items.size(); ++k) {
    Diagnostic& d = diagnostics.items[k];
    d.where = map_to_xacro(xacro, name, d.where, &d.message);
  }
}

}  // namespace rmodel::detail
