#pragma once
// Internal: xacro's `${...}` expression language, a closed subset of Python 3 expressions.
// Parsing builds a small tree (cached by the processor per expression text); evaluation asks
// the processor for names, YAML files and substitution arguments through ExpressionHost.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xacro/value.hpp"

#include "rmodel/diagnostic.hpp"

namespace rmodel::xacro {

/// Functions and namespaces of the language.
enum class Builtin : std::uint8_t {
  // math (also as math.NAME)
  sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, sqrt, radians, degrees, fabs, floor, ceil, trunc, pow,
  log, log10, log2, exp, hypot, fmod, copysign, isnan, isinf, isfinite,
  // builtins (also as python.NAME)
  abs, min, max, round, int_, float_, str_, bool_, len, list, tuple, dict, sorted, range, sum, any, all,
  // xacro.NAME
  load_yaml, arg, fatal, message, warning, error, print_location, dotify, abs_filename, tokenize,
  // namespaces
  ns_math, ns_python, ns_xacro,
};

/// What evaluation needs from the processor.
class ExpressionHost {
public:
  virtual ~ExpressionHost() = default;
  /// A property (or an include namespace) visible from the current scope; nullopt when none.
  virtual std::optional<Value> lookup(const std::string& name) = 0;
  /// A property of an include namespace; nullopt when none.
  virtual std::optional<Value> lookup_in(const Table& table, const std::string& name) = 0;
  /// "unknown property 'x'" with a "did you mean" from the names visible.
  virtual std::string unknown_name_message(const std::string& name) = 0;
  /// xacro.load_yaml(file).
  virtual Value load_yaml(const std::string& file) = 0;
  /// xacro.arg(name) / $(arg name).
  virtual std::string arg(const std::string& name) = 0;
  /// xacro.message(), warning(), error() and print_location(): what ROS's xacro prints on
  /// stderr, kept with the place of the expression (the library prints nothing).
  virtual void report(Severity severity, const std::string& text) = 0;
  /// xacro.abs_filename(name): `name` from the directory of the file being read.
  virtual std::string abs_filename(const std::string& name) = 0;
  /// Counts work and value sizes against the limits; throws EvalError when exceeded.
  virtual void charge(std::size_t steps) = 0;
  virtual std::size_t value_bytes_limit() const = 0;
};

struct Ast;

/// Parses a Python expression (top-level tuples allowed). @throws EvalError
std::shared_ptr<const Ast> parse_expression(std::string_view text);

/// Evaluates a parsed expression. @throws EvalError
Value evaluate(const Ast& ast, ExpressionHost& host);

/// The global name `name` of the language (pi, sin, math, ...), if any.
std::optional<Value> global_name(std::string_view name);
/// Every global name, for "did you mean" suggestions.
const std::vector<std::string>& global_names();

/// Python's round-half-even `round(x)` and `round(x, n)`.
double python_round(double x, int ndigits);

}  // namespace rmodel::xacro
