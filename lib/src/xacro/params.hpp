#pragma once
// Internal: a macro's `params` attribute as ROS's xacro reads it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rmodel::xacro {

/// One parameter of a macro.
struct MacroParam {
  std::string name;                         ///< with its stars: "*block", "**content"
  bool forward = false;                     ///< `name:=^` or `name:=^|default`: the caller's property
  std::optional<std::string> default_text;  ///< the text after `:=` (or `=`), if not empty

  [[nodiscard]] bool has_default() const noexcept { return forward || default_text.has_value(); }
};

/// Splits `params` into parameters exactly as xacro's parse_macro_arg does with its regular
/// expression (xacro/__init__.py, re_macro_arg): a name, then `:=` or `=`, then `^|`, `^` or
/// nothing, then a default that is the shortest `${...}` or `$(...)` followed by a blank or
/// the end, or else a run of quoted texts and unquoted non-blank text; without `=` after the
/// name, the parameter is the first word. Python's backtracking is reproduced, so that
/// `prefix=${arm_id}_` is one parameter with the default `${arm_id}_`, `a:=${x}${y}` takes
/// `${x}${y}`, and `a:=` followed by a blank takes the next word as its default, as xacro
/// does. Linear in the text's length. @throws EvalError for a text of blanks only (xacro
/// fails on it).
std::vector<MacroParam> parse_macro_params(std::string_view params);

/// The length of the Python whitespace character (str.isspace(), regex `\s`) at `s[k]` in
/// UTF-8 text, or 0.
std::size_t python_space(std::string_view s, std::size_t k) noexcept;

}  // namespace rmodel::xacro
