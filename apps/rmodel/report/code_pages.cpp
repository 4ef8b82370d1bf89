#include "report/code_pages.hpp"

#include <vector>

#include <fmt/format.h>

#include "doc/man_page.hpp"
#include "rmodel/base/suggest.hpp"

namespace rmodel::cli {
namespace {

std::string prose_literal(std::string_view text) { return markup_literal(text); }

std::vector<std::string_view> example_lines(std::string_view example) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start <= example.size();) {
    auto end = example.find('\n', start);
    if (end == std::string_view::npos) end = example.size();
    lines.push_back(example.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

/// The language of an example for a Markdown fence: XML, YAML or plain text.
std::string_view fence_language(std::string_view example) {
  if (example.starts_with('<')) return "xml";
  if (example.starts_with("joint_limits:")) return "yaml";
  if (example.starts_with('{')) return "json";
  return "text";
}

std::string severity_phrase(const CheckCode& code) {
  if (code.mistake) return "error; loading warns and goes on, check counts it as an error";
  return std::string(to_string(code.severity));
}

}  // namespace

std::string severity_text(const CheckCode& code) {
  return code.mistake ? "error (a mistake)" : std::string(to_string(code.severity));
}

std::string inputs_text(const CheckCode& code) {
  if (code.scope == CodeScope::log) return "the log";
  std::string out;
  auto add = [&](unsigned bit, const char* name) {
    if (code.inputs & bit) out += (out.empty() ? "" : ", ") + std::string(name);
  };
  add(code_input::urdf, "URDF");
  add(code_input::semantics, "semantics");
  add(code_input::limits, "joint_limits.yaml");
  return out;
}

std::string code_page_prose(const CheckCode& code, bool heading) {
  const CheckCodePage& page = check_code_page(code);
  std::string out;
  if (heading) out += fmt::format("## {}\n", code.code);
  out += fmt::format("**{}** ({}), in {}: {}.\n\n", prose_literal(code.code), severity_phrase(code),
                     prose_literal(inputs_text(code)), prose_literal(code.summary));
  out += prose_literal(page.meaning) + "\n\n";
  out += "*Why it matters.* " + prose_literal(page.matters) + "\n\n";
  out += "*Who cares.* " + prose_literal(page.consumers) + ".\n\n";
  out += "*Example:*\n\n";
  for (std::string_view line : example_lines(page.example)) out += "    " + std::string(line) + "\n";
  out += "\n*Fix.* " + prose_literal(page.fix) + "\n\n";
  return out;
}

std::string code_page_markdown(const CheckCode& code) {
  const CheckCodePage& page = check_code_page(code);
  std::string out = fmt::format("**{}** ({}), in {}: {}.\n\n{}\n\n**Why it matters.** {}\n\n**Who cares.** {}.\n\n",
                                code.code, severity_phrase(code), inputs_text(code), code.summary, page.meaning,
                                page.matters, page.consumers);
  out += fmt::format("**Example**\n\n```{}\n{}\n```\n\n**Fix.** {}\n", fence_language(page.example), page.example,
                     page.fix);
  return out;
}

std::string generated_prose(std::string_view stem) {
  CodeScope scope;
  std::string out = "# CODES\n";
  if (stem == "check") {
    scope = CodeScope::model;
    out += "Every code `check` reports, in the catalogue's order (by the input it is found in, then by topic): its "
           "severity in the report, what it means, why it matters, who cares, an example and the fix. "
           "`rmodel check --list-codes` lists them, `rmodel check --explain CODE` shows one. A mistake is what "
           "loading skips with a warning, as MoveIt loads the file, and `check` counts as an error.\n\n";
  } else if (stem == "check-log") {
    scope = CodeScope::log;
    out += "Every code `check-log` reports, with its severity, what it means, why it matters, who cares, an "
           "example and the fix.\n\n";
  } else {
    return {};
  }
  for (const CheckCode& code : check_codes())
    if (code.scope == scope) out += code_page_prose(code, true);
  return out;
}

std::string list_codes(CodeScope scope, OutputFormat format) {
  if (format == OutputFormat::text) {
    Table table({"code", "severity", "summary"});
    for (const CheckCode& code : check_codes())
      if (code.scope == scope) table.add_row({std::string(code.code), severity_text(code), std::string(code.summary)});
    return table.render(format);
  }
  Table table({"code", "severity", "mistake", "inputs", "summary"});
  for (const CheckCode& code : check_codes()) {
    if (code.scope != scope) continue;
    Json inputs = Json::array();
    if (code.inputs & code_input::urdf) inputs.push_back("urdf");
    if (code.inputs & code_input::semantics) inputs.push_back("semantics");
    if (code.inputs & code_input::limits) inputs.push_back("limits");
    table.add_row({std::string(code.code), std::string(to_string(code.severity)), code.mistake, inputs,
                   std::string(code.summary)});
  }
  return table.render(format, "rmodel.check_codes", "codes");
}

std::string explain_code(const CheckCode& code) {
  std::string prose = fmt::format("# {}\n", code.code) + code_page_prose(code, false);
  return render_prose_text(prose);
}

const CheckCode* code_named(std::string_view text, CodeScope scope) { return find_check_code(text, scope); }

std::string unknown_code_text(std::string_view text, CodeScope scope) {
  std::vector<std::string_view> names;
  for (const CheckCode& code : check_codes())
    if (code.scope == scope) names.push_back(code.code);
  const char* command = scope == CodeScope::model ? "check" : "check-log";
  return fmt::format("'{}' is not a code of rmodel {}{} (rmodel check --list-codes lists them)", text, command,
                     did_you_mean(text, names));
}

}  // namespace rmodel::cli
