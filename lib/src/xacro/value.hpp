#pragma once
// Internal: the values of xacro's expression language, with Python's meaning (str(),
// truthiness, int/float arithmetic), since xacro evaluates `${...}` as Python.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rmodel::xacro {

class Table;
struct Value;

using List = std::vector<Value>;
/// Insertion-ordered, as Python's dict (and YAML maps as PyYAML loads them).
using Dict = std::vector<std::pair<Value, Value>>;

/// A function of the language (math, builtins, xacro.*), called by name.
enum class Builtin : std::uint8_t;

/// An evaluation failed: the message only; the processor adds where.
struct EvalError {
  std::string message;
};

struct Value {
  /// iterator: what Python 3's map(), filter(), zip(), enumerate() and reversed() give, held
  /// as the list of its items (`s` names its type); it iterates, but has no len(), index or
  /// text.
  enum class Kind : std::uint8_t { none, boolean, integer, real, string, list, tuple, dict, function, scope, iterator };
  Kind kind = Kind::none;
  bool b = false;
  /// dict or list read from YAML or given to xacro.dotify(): xacro's YamlDictWrapper and
  /// YamlListWrapper, whose dicts answer `d.key`, and whose items, when taken, are wrapped too.
  /// A plain dict has no `.key`.
  bool dotted = false;
  std::int64_t i = 0;
  double d = 0.0;
  Builtin fn{};
  const Table* table = nullptr;  ///< kind scope: a namespace (`math`, an include's ns)
  std::shared_ptr<const std::string> s;
  std::shared_ptr<const List> items;  ///< list and tuple
  std::shared_ptr<const Dict> dict;

  static Value none() { return {}; }
  static Value boolean(bool v) { Value x; x.kind = Kind::boolean; x.b = v; return x; }
  static Value integer(std::int64_t v) { Value x; x.kind = Kind::integer; x.i = v; return x; }
  static Value real(double v) { Value x; x.kind = Kind::real; x.d = v; return x; }
  static Value string(std::string v) {
    Value x;
    x.kind = Kind::string;
    x.s = std::make_shared<const std::string>(std::move(v));
    return x;
  }
  static Value list(List v, bool tuple = false) {
    Value x;
    x.kind = tuple ? Kind::tuple : Kind::list;
    // Not a const object: list.pop() changes a list in place, seen by every value sharing
    // it, as Python's lists are shared by reference (see the Evaluator's pop).
    x.items = std::make_shared<List>(std::move(v));
    return x;
  }
  static Value dictionary(Dict v) {
    Value x;
    x.kind = Kind::dict;
    x.dict = std::make_shared<const Dict>(std::move(v));
    return x;
  }
  static Value function(Builtin f) { Value x; x.kind = Kind::function; x.fn = f; return x; }
  /// A function of Python's that rmodel does not have (`python.complex`): named in `s`.
  static Value function(Builtin f, std::string name) {
    Value x = function(f);
    x.s = std::make_shared<const std::string>(std::move(name));
    return x;
  }
  static Value iterator(List v, std::string type) {
    Value x = list(std::move(v));
    x.kind = Kind::iterator;
    x.s = std::make_shared<const std::string>(std::move(type));
    return x;
  }
  static Value scope(const Table* t) { Value x; x.kind = Kind::scope; x.table = t; return x; }

  [[nodiscard]] bool is_number() const noexcept {
    return kind == Kind::boolean || kind == Kind::integer || kind == Kind::real;
  }
  [[nodiscard]] bool is_string() const noexcept { return kind == Kind::string; }
  [[nodiscard]] const std::string& str_ref() const { return *s; }
  /// The number as a double (booleans and integers included).
  [[nodiscard]] double as_double() const noexcept {
    return kind == Kind::real ? d : kind == Kind::integer ? static_cast<double>(i) : (b ? 1.0 : 0.0);
  }
};

/// xacro's YamlListWrapper.wrap(): a dict or list made dotted (shared, not copied).
Value dotted(Value v);

/// Python's str(): 3, 0.5, 1.0, 1e-05, True, None, [1, 'a'], {'k': 2}. @throws EvalError for an
/// iterator (Python writes its address: `<map object at 0x7f...>`).
std::string to_text(const Value& v);
/// Python's repr() (strings quoted).
std::string to_repr(const Value& v);
/// Python's float repr: the shortest text that reads back to the same double.
std::string format_real(double v);
/// Python's truth value.
bool truthy(const Value& v);
/// Python's type name, for messages ("int", "str", ...).
std::string_view type_name(const Value& v);
/// Python's ==.
bool equal(const Value& a, const Value& b);
/// A copy sharing no list with `v` (list.pop() changes lists in place).
Value deep_copy(const Value& v);
/// Python's d[key] = value: an equal key keeps its place and takes the new value.
void set_item(Dict& d, Value key, Value value);

/// xacro's literal reading of a property or parameter text: 'quoted' → the text inside;
/// an int, a float, true/True/false/False → that value; anything else stays text. Texts
/// with '_' stay text, as in xacro.
Value literal(const std::string& text);
/// roslaunch's convert_value(text, 'auto'), which $(eval) gives its arguments with: a float
/// when the text holds a '.', else an int, if Python reads it so; true or false in any case
/// a bool; else the text.
Value roslaunch_value(const std::string& text);
/// Python's int(text) / float(text) (surrounding whitespace allowed); nullopt when invalid.
std::optional<std::int64_t> parse_python_int(std::string_view text);
std::optional<double> parse_python_float(std::string_view text);

}  // namespace rmodel::xacro
