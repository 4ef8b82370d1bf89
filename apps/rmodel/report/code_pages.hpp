#pragma once
// The catalogue of codes (rmodel/base/check_codes.hpp) as people read it: `check --list-codes`,
// `check --explain CODE`, the CODES sections of rmodel-check(1) and rmodel-check-log(1), the
// help of the rules of `-f sarif`. One page text per code, rendered from the library's entry.

#include <string>
#include <string_view>

#include "options/output.hpp"
#include "rmodel/base/check_codes.hpp"

namespace rmodel::cli {

/// "error", "warning" or "note", with ", a mistake" for a mistake (loading warns, check fails).
std::string severity_text(const CheckCode& code);

/// The inputs a model code concerns: "URDF", "URDF, semantics", "joint_limits.yaml"; "the log".
std::string inputs_text(const CheckCode& code);

/// The page of `code` in man prose markup (doc/man_page.hpp): a subsection titled with the code
/// ("## CODE") when `heading`, then its severity and line, what it means, why it matters, who
/// cares, the example (verbatim) and the fix.
std::string code_page_prose(const CheckCode& code, bool heading);

/// The page of `code` in Markdown (the help of a SARIF rule, GitHub's alert).
std::string code_page_markdown(const CheckCode& code);

/// `--list-codes`: code, severity and one line of every code of `scope`, as text, json
/// (`rmodel.check_codes`) or csv.
std::string list_codes(CodeScope scope, OutputFormat format);

/// `--explain CODE`: the page of `code` as `rmodel help` shows man pages.
std::string explain_code(const CheckCode& code);

/// The code of `scope` named `text`, or nullptr.
const CheckCode* code_named(std::string_view text, CodeScope scope);

/// "'x' is not a code of rmodel check; did you mean 'y'? (rmodel check --list-codes lists them)".
std::string unknown_code_text(std::string_view text, CodeScope scope);

}  // namespace rmodel::cli
