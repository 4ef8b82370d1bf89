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

#include "rmodel/base/diagnostic.hpp"

namespace rmodel::xacro {

/// Functions and namespaces of the language: what ROS's xacro puts in its global symbols
/// (create_global_symbols), and what roslaunch's $(eval) has.
enum class Builtin : std::uint8_t {
  // math (all of Python 3.11's math module, as math.NAME and directly)
  acos, acosh, asin, asinh, atan, atan2, atanh, cbrt, ceil, comb, copysign, cos, cosh, degrees, dist, erf, erfc,
  exp, exp2, expm1, fabs, factorial, floor, fmod, frexp, fsum, gamma, gcd, hypot, isclose, isfinite, isinf, isnan,
  isqrt, lcm, ldexp, lgamma, log, log1p, log10, log2, modf, pow, radians, remainder, sin, sinh, sqrt, tan, tanh,
  trunc, prod, perm, nextafter, ulp,
  // Python's builtins (python.NAME; a few directly)
  abs, all, any, divmod, dict, enumerate, filter, float_, int_, len, list, map, max, min, ord, range, repr, reversed,
  round, sorted, str_, sum, tuple, zip,
  unsupported,  ///< in python.* but not in rmodel (complex, set, ...): the value names it
  // xacro.NAME
  load_yaml, arg, fatal, message, warning, error, print_location, dotify, abs_filename, tokenize,
  // $(eval ...)
  eval_arg, eval_env, eval_optenv, eval_find, eval_dirname,
  // namespaces
  ns_math, ns_python, ns_xacro,
};

/// The global name `name` of xacro's expressions (pi, sin, math, python, xacro, ...), if any.
std::optional<Value> global_name(std::string_view name);
/// Whether using `name` directly is deprecated in xacro (sorted, range, load_yaml, ...): its
/// warning then, as xacro words it.
std::optional<std::string> deprecation(std::string_view name);

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
  /// A name no property holds: xacro's global symbols (global_name), or $(eval)'s names.
  virtual std::optional<Value> global(std::string_view name) { return global_name(name); }
  /// $(eval)'s env(), optenv(), find() and dirname(): `command` with its arguments, as the
  /// substitution $(command args) gives it.
  virtual std::string substitute(const std::string& command, const std::vector<std::string>& args) {
    (void)args;
    throw EvalError{command + "() is a function of $(eval ...) only"};
  }
};

struct Ast;

/// Parses a Python expression (top-level tuples allowed). @throws EvalError
std::shared_ptr<const Ast> parse_expression(std::string_view text);

/// Evaluates a parsed expression. @throws EvalError
Value evaluate(const Ast& ast, ExpressionHost& host);

/// Every global name, for "did you mean" suggestions.
const std::vector<std::string>& global_names();

/// The names of roslaunch's $(eval ...) but its arguments (true, false, list, dict, map, str,
/// float, int, the math module, arg, env, optenv, find, dirname), if `name` is one.
std::optional<Value> eval_name(std::string_view name);

/// Python's round-half-even `round(x)` and `round(x, n)`.
double python_round(double x, int ndigits);

}  // namespace rmodel::xacro
