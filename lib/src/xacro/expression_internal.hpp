#pragma once
// Internal to xacro's expression language (xacro/expression.hpp), shared by its files:
// expression_lexer.cpp (tokens), expression_parser.cpp (the tree below), expression_evaluator.cpp
// (names, operators, calls, methods, formatting), expression_builtins.cpp (the global names,
// Python's builtins and xacro's functions), expression_math.cpp (the math module).

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xacro/expression.hpp"
#include "xacro/value.hpp"

namespace rmodel::xacro {

// ---------------------------------------------------------------- the tree

struct Ast {
  enum class Op : std::uint8_t {
    constant, name, attribute, index, slice, call, negate, plus, invert, not_, and_, or_, if_else, binary, compare,
    list, tuple, dict, keyword, comprehension
  };
  Op op = Op::constant;
  Value value;                    ///< constant
  std::string text;               ///< name, attribute, binary/compare operator(s)
  std::vector<std::string> ops;   ///< compare: one operator per pair; comprehension: the loop's names
  std::vector<Ast> kids;
};

namespace expr {

[[noreturn]] void fail(std::string message);

/// UTF-8 of the code point `c` (at most U+10FFFF).
void append_utf8(std::string& out, std::uint32_t c);

inline std::int64_t as_int(const Value& v) { return v.kind == Value::Kind::integer ? v.i : static_cast<std::int64_t>(v.b); }
inline bool is_intlike(const Value& v) { return v.kind == Value::Kind::integer || v.kind == Value::Kind::boolean; }

inline std::int64_t checked(bool overflow, std::int64_t result) {
  if (overflow) fail("integer overflow (xacro here computes with 64-bit integers)");
  return result;
}
inline std::int64_t checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  const bool overflow = __builtin_add_overflow(a, b, &r);
  return checked(overflow, r);
}
inline std::int64_t checked_sub(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  const bool overflow = __builtin_sub_overflow(a, b, &r);
  return checked(overflow, r);
}
inline std::int64_t checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  const bool overflow = __builtin_mul_overflow(a, b, &r);
  return checked(overflow, r);
}

/// Python's ordering of two values for `op` (<, <=, >, >=): -1, 0 or 1. @throws EvalError
int compare_values(const Value& a, const Value& b, const std::string& op);

// ---------------------------------------------------------------- global names

struct GlobalEntry {
  std::string_view name;
  Value value;
};

const std::vector<GlobalEntry>& math_names();
const std::vector<GlobalEntry>& python_names();
const std::vector<GlobalEntry>& xacro_names();
std::optional<Value> find_in(const std::vector<GlobalEntry>& names, std::string_view name);

// ---------------------------------------------------------------- evaluation

class Evaluator {
public:
  explicit Evaluator(ExpressionHost& host) : host_(host) {}

  Value eval(const Ast& a);

private:
  Value name(const std::string& n);

  /// [element for names in iterable if condition...]: the iterable is evaluated before the
  /// names exist, as in Python; every element and condition is charged as any expression is.
  Value comprehension(const Ast& a);

  Value attribute(const Value& target, const std::string& attr);

  static std::size_t normalise_index(std::int64_t i, std::size_t size, const char* what);

  Value index(const Value& target, const Value& key);

  /// a[lo:hi:step] as Python's PySlice_AdjustIndices takes it.
  Value slice(const Value& target, const Ast& lo_ast, const Ast& hi_ast, const Ast& step_ast);

  void check_size(std::size_t bytes);
  static std::string format_count(long double n);
  /// A value over the limit, before it is made: what asked for it and how big it would be.
  [[noreturn]] void too_large(const std::string& what, long double bytes);

  Value repeat(const Value& seq, std::int64_t times);

  /// `text` padded to `width` characters (UTF-8 sequences), on the left unless `left`.
  static std::string pad(std::string text, std::int64_t width, bool left);

  /// Python's printf-style formatting, str % args: %[(key)][flags][width][.precision]type,
  /// type one of d i u o x X e E f F g G c r s a %. An integer type of a float takes the
  /// float's integer part, however large (%d of 1.1e66 writes its 67 digits, as Python does).
  Value percent_format(const std::string& format, const Value& args);

  Value binary(const std::string& op, const Value& a, const Value& b);

  bool contains(const Value& container, const Value& item);

  bool compare(const std::string& op, const Value& a, const Value& b);

  // -- calls
  Value call(const Ast& a);

  bool is_local(const std::string& n) const;

  /// Keyword arguments of a call, in order.
  using Keywords = std::vector<std::pair<std::string, Value>>;

  List arguments(const Ast& a, Keywords& keywords);

  /// A parameter of a function that takes keywords: its name and its default, if any.
  struct Parameter {
    const char* name;
    std::optional<Value> fallback;
  };
  /// Binds the keyword arguments to their positional places, as Python binds
  /// `f(x, skip_empty=False)` to f(s, sep=',; ', skip_empty=True): a place left out before
  /// a given one takes its default. Any other keyword is an error.
  static void bind_keywords(List& args, Keywords& keywords, const char* name, const std::vector<Parameter>& parameters);

  static void arity(const List& args, std::size_t lo, std::size_t hi, const char* name);
  static double number(const Value& v, const char* name);
  static Value to_integer(double r, const char* what);
  List iterate(const Value& v, const char* name);

  Value extreme(const List& args, bool want_max, const char* name);

  /// A math function's result as CPython's math module checks it: a NaN from numbers none of
  /// which is NaN is a domain error, an infinity from finite numbers an overflow ("range
  /// error"), or a domain error at a pole (log(0), atanh(1), gamma(0)).
  static Value math_checked(double r, std::initializer_list<double> inputs, bool pole = false);
  static std::int64_t integer_argument(const Value& v, const char* name);
  static std::optional<Value> take(Keywords& keywords, const char* name);
  static void no_keywords(const Keywords& keywords, const char* name);

  /// Calls a function value (map(float, ...), sorted(key=abs)).
  Value call_value(const Value& fn, List args);

  /// Python's int(text, base): blanks around, a sign, the base's prefix (any with base 0),
  /// '_' between digits.
  static std::optional<std::int64_t> parse_int_text(std::string_view t, std::int64_t base);

  /// Shewchuk's exactly rounded sum, as Python's math.fsum.
  static double exact_sum(const List& items);

  /// Calls the builtin `f`: its keywords checked (builtin_keywords), then the group that has it.
  Value builtin(Builtin f, List& args, Keywords& keywords);
  /// The keywords of a call of `f`: bound, checked or refused; the value when they make it
  /// (dict(pairs, **kwargs)).
  std::optional<Value> builtin_keywords(Builtin f, List& args, Keywords& keywords);
  // The builtins by group, each a value for the builtins it has, nullopt for the others.
  std::optional<Value> math_function(Builtin f, List& args);                         // expression_math.cpp
  std::optional<Value> float_function(Builtin f, List& args, Keywords& keywords);    // expression_math.cpp
  std::optional<Value> integer_function(Builtin f, List& args, Keywords& keywords);  // expression_math.cpp
  std::optional<Value> conversion_builtin(Builtin f, List& args, Keywords& keywords);
  std::optional<Value> collection_builtin(Builtin f, List& args, Keywords& keywords);
  std::optional<Value> iteration_builtin(Builtin f, List& args, Keywords& keywords);
  std::optional<Value> xacro_builtin(Builtin f, List& args);

  /// list.pop([i]): removes and gives the item, changing the list in place for every value
  /// sharing it, as Python does. MoveIt's panda_moveit_config walks a list with it in a
  /// recursive macro whose parameter forwards (^) the same list to the next call, so a copy
  /// would never end. Lists are shared where Python shares them (properties, parameters) and
  /// made new where Python makes new ones (literals, list(), slices, +, load_yaml).
  Value pop(const Value& target, const List& args);

  Value method(const Value& target, const std::string& name, const List& args);

  Value format(const std::string& s, const List& args);

  ExpressionHost& host_;
  std::vector<std::pair<std::string, Value>> locals_;  ///< the names of the comprehensions being evaluated
};

}  // namespace expr
}  // namespace rmodel::xacro
