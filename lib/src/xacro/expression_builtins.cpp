// xacro's expressions: the global names (xacro's create_global_symbols, $(eval)'s names),
// Python's builtins and xacro's functions. The math module is expression_math.cpp.
#include "xacro/expression.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <numbers>
#include <numeric>

#include "xacro/expression_internal.hpp"

namespace rmodel::xacro {
namespace expr {

/// Python 3.11's math module, every public name (Debian 12's Python, the oracle's).
const std::vector<GlobalEntry>& math_names() {
  static const std::vector<GlobalEntry> names = [] {
    using B = Builtin;
    std::vector<GlobalEntry> v = {
        {"acos", Value::function(B::acos)},
        {"acosh", Value::function(B::acosh)},
        {"asin", Value::function(B::asin)},
        {"asinh", Value::function(B::asinh)},
        {"atan", Value::function(B::atan)},
        {"atan2", Value::function(B::atan2)},
        {"atanh", Value::function(B::atanh)},
        {"cbrt", Value::function(B::cbrt)},
        {"ceil", Value::function(B::ceil)},
        {"comb", Value::function(B::comb)},
        {"copysign", Value::function(B::copysign)},
        {"cos", Value::function(B::cos)},
        {"cosh", Value::function(B::cosh)},
        {"degrees", Value::function(B::degrees)},
        {"dist", Value::function(B::dist)},
        {"erf", Value::function(B::erf)},
        {"erfc", Value::function(B::erfc)},
        {"exp", Value::function(B::exp)},
        {"exp2", Value::function(B::exp2)},
        {"expm1", Value::function(B::expm1)},
        {"fabs", Value::function(B::fabs)},
        {"factorial", Value::function(B::factorial)},
        {"floor", Value::function(B::floor)},
        {"fmod", Value::function(B::fmod)},
        {"frexp", Value::function(B::frexp)},
        {"fsum", Value::function(B::fsum)},
        {"gamma", Value::function(B::gamma)},
        {"gcd", Value::function(B::gcd)},
        {"hypot", Value::function(B::hypot)},
        {"isclose", Value::function(B::isclose)},
        {"isfinite", Value::function(B::isfinite)},
        {"isinf", Value::function(B::isinf)},
        {"isnan", Value::function(B::isnan)},
        {"isqrt", Value::function(B::isqrt)},
        {"lcm", Value::function(B::lcm)},
        {"ldexp", Value::function(B::ldexp)},
        {"lgamma", Value::function(B::lgamma)},
        {"log", Value::function(B::log)},
        {"log1p", Value::function(B::log1p)},
        {"log10", Value::function(B::log10)},
        {"log2", Value::function(B::log2)},
        {"modf", Value::function(B::modf)},
        {"pow", Value::function(B::pow)},
        {"radians", Value::function(B::radians)},
        {"remainder", Value::function(B::remainder)},
        {"sin", Value::function(B::sin)},
        {"sinh", Value::function(B::sinh)},
        {"sqrt", Value::function(B::sqrt)},
        {"tan", Value::function(B::tan)},
        {"tanh", Value::function(B::tanh)},
        {"trunc", Value::function(B::trunc)},
        {"prod", Value::function(B::prod)},
        {"perm", Value::function(B::perm)},
        {"nextafter", Value::function(B::nextafter)},
        {"ulp", Value::function(B::ulp)},
        {"pi", Value::real(std::numbers::pi)},
        {"e", Value::real(std::numbers::e)},
        {"tau", Value::real(2 * std::numbers::pi)},
        {"inf", Value::real(HUGE_VAL)},
        {"nan", Value::real(std::nan(""))},
    };
    return v;
  }();
  return names;
}

/// xacro's `python` namespace: Python's builtins it lists; those rmodel lacks are named.
const std::vector<GlobalEntry>& python_names() {
  static const std::vector<GlobalEntry> names = [] {
    using B = Builtin;
    std::vector<GlobalEntry> v = {
        {"list", Value::function(B::list)},       {"dict", Value::function(B::dict)},
        {"map", Value::function(B::map)},         {"len", Value::function(B::len)},
        {"str", Value::function(B::str_)},        {"float", Value::function(B::float_)},
        {"int", Value::function(B::int_)},        {"True", Value::boolean(true)},
        {"False", Value::boolean(false)},         {"min", Value::function(B::min)},
        {"max", Value::function(B::max)},         {"round", Value::function(B::round)},
        {"abs", Value::function(B::abs)},         {"all", Value::function(B::all)},
        {"any", Value::function(B::any)},         {"divmod", Value::function(B::divmod)},
        {"enumerate", Value::function(B::enumerate)}, {"filter", Value::function(B::filter)},
        {"ord", Value::function(B::ord)},         {"repr", Value::function(B::repr)},
        {"reversed", Value::function(B::reversed)}, {"sum", Value::function(B::sum)},
        {"tuple", Value::function(B::tuple)},     {"zip", Value::function(B::zip)},
        {"sorted", Value::function(B::sorted)},   {"range", Value::function(B::range)},
    };
    for (const char* name : {"complex", "frozenset", "hash", "isinstance", "issubclass", "set", "slice", "type"})
      v.push_back({name, Value::function(B::unsupported, std::string("python.") + name)});
    return v;
  }();
  return names;
}

/// The builtins xacro exposes directly (its first expose() call, and sorted and range, which
/// warn).
const std::vector<GlobalEntry>& direct_python_names() {
  static const std::vector<GlobalEntry> names = [] {
    std::vector<GlobalEntry> v;
    for (const char* name : {"list", "dict", "map", "len", "str", "float", "int", "min", "max", "round", "sorted", "range"})
      for (const auto& e : python_names())
        if (e.name == name) v.push_back(e);
    return v;
  }();
  return names;
}

const std::vector<GlobalEntry>& xacro_names() {
  static const std::vector<GlobalEntry> names = {
      {"load_yaml", Value::function(Builtin::load_yaml)},
      {"arg", Value::function(Builtin::arg)},
      {"fatal", Value::function(Builtin::fatal)},
      {"message", Value::function(Builtin::message)},
      {"warning", Value::function(Builtin::warning)},
      {"error", Value::function(Builtin::error)},
      {"print_location", Value::function(Builtin::print_location)},
      {"dotify", Value::function(Builtin::dotify)},
      {"abs_filename", Value::function(Builtin::abs_filename)},
      {"tokenize", Value::function(Builtin::tokenize)},
  };
  return names;
}

std::optional<Value> find_in(const std::vector<GlobalEntry>& names, std::string_view name) {
  for (const auto& e : names)
    if (e.name == name) return e.value;
  return std::nullopt;
}

void Evaluator::bind_keywords(List& args, Keywords& keywords, const char* name, const std::vector<Parameter>& parameters) {
  if (args.size() > parameters.size()) return;  // the function's arity says so
  std::vector<std::optional<Value>> places(parameters.size());
  for (std::size_t k = 0; k < args.size(); ++k) places[k] = std::move(args[k]);
  std::size_t last = args.size();
  for (auto& [keyword, value] : keywords) {
    std::size_t at = 0;
    while (at < parameters.size() && keyword != parameters[at].name) ++at;
    if (at == parameters.size()) fail(std::string(name) + "() got an unexpected keyword argument '" + keyword + "'");
    if (places[at]) fail(std::string(name) + "() got multiple values for argument '" + keyword + "'");
    places[at] = std::move(value);
    last = std::max(last, at + 1);
  }
  keywords.clear();
  args.clear();
  for (std::size_t k = 0; k < last; ++k) {
    if (!places[k] && !parameters[k].fallback)
      fail(std::string(name) + "() missing required argument '" + parameters[k].name + "'");
    args.push_back(places[k] ? std::move(*places[k]) : *parameters[k].fallback);
  }
}

void Evaluator::arity(const List& args, std::size_t lo, std::size_t hi, const char* name) {
  if (args.size() < lo || args.size() > hi) {
    const std::string expected = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
    fail(std::string(name) + "() takes " + expected + " argument" + (hi == 1 ? "" : "s") + " (" +
         std::to_string(args.size()) + " given)");
  }
}

double Evaluator::number(const Value& v, const char* name) {
  if (!v.is_number()) fail(std::string(name) + "(): must be a number, not " + std::string(type_name(v)));
  return v.as_double();
}

Value Evaluator::to_integer(double r, const char* what) {
  if (std::isnan(r)) fail(std::string("cannot convert float NaN to integer (") + what + ")");
  if (std::isinf(r)) fail(std::string("cannot convert float infinity to integer (") + what + ")");
  if (r >= 9.2233720368547758e18 || r < -9.2233720368547758e18) fail("integer overflow (xacro here computes with 64-bit integers)");
  return Value::integer(static_cast<std::int64_t>(r));
}

std::int64_t Evaluator::integer_argument(const Value& v, const char* name) {
  if (!is_intlike(v)) fail("'" + std::string(type_name(v)) + "' object cannot be interpreted as an integer (" + name + ")");
  return as_int(v);
}

std::optional<Value> Evaluator::take(Keywords& keywords, const char* name) {
  for (auto it = keywords.begin(); it != keywords.end(); ++it)
    if (it->first == name) {
      Value v = std::move(it->second);
      keywords.erase(it);
      return v;
    }
  return std::nullopt;
}

void Evaluator::no_keywords(const Keywords& keywords, const char* name) {
  if (!keywords.empty()) fail(std::string(name) + "() got an unexpected keyword argument '" + keywords.front().first + "'");
}

std::optional<std::int64_t> Evaluator::parse_int_text(std::string_view t, std::int64_t base) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!t.empty() && space(t.front())) t.remove_prefix(1);
  while (!t.empty() && space(t.back())) t.remove_suffix(1);
  bool negative = false;
  if (!t.empty() && (t.front() == '+' || t.front() == '-')) {
    negative = t.front() == '-';
    t.remove_prefix(1);
  }
  bool prefixed = false;
  if (t.size() >= 2 && t[0] == '0') {
    const char p = static_cast<char>(std::tolower(static_cast<unsigned char>(t[1])));
    const std::int64_t named = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    if (named != 0 && (base == 0 || base == named)) {
      base = named;
      t.remove_prefix(2);
      prefixed = true;
    }
  }
  if (base == 0) {
    base = 10;
    if (t.size() > 1 && t[0] == '0' && t.find_first_not_of("0_") != std::string_view::npos) return std::nullopt;
  }
  if (t.empty() || t.back() == '_' || (!prefixed && t.front() == '_')) return std::nullopt;
  std::uint64_t v = 0;
  char previous = 0;
  for (const char c : t) {
    if (c == '_') {
      if (previous == '_') return std::nullopt;
      previous = c;
      continue;
    }
    previous = c;
    const int d = std::isdigit(static_cast<unsigned char>(c))   ? c - '0'
                  : std::isalpha(static_cast<unsigned char>(c)) ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                                                                : 99;
    if (d >= base) return std::nullopt;
    if (v > (static_cast<std::uint64_t>(INT64_MAX) + 1 - static_cast<std::uint64_t>(d)) / static_cast<std::uint64_t>(base))
      fail("integer overflow (xacro here computes with 64-bit integers)");
    v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  if (!negative && v > static_cast<std::uint64_t>(INT64_MAX)) fail("integer overflow (xacro here computes with 64-bit integers)");
  return negative ? static_cast<std::int64_t>(0 - v) : static_cast<std::int64_t>(v);
}

Value Evaluator::builtin(Builtin f, List& args, Keywords& keywords) {
  if (std::optional<Value> made = builtin_keywords(f, args, keywords)) return std::move(*made);
  if (std::optional<Value> v = math_function(f, args)) return std::move(*v);
  if (std::optional<Value> v = float_function(f, args, keywords)) return std::move(*v);
  if (std::optional<Value> v = integer_function(f, args, keywords)) return std::move(*v);
  if (std::optional<Value> v = conversion_builtin(f, args, keywords)) return std::move(*v);
  if (std::optional<Value> v = collection_builtin(f, args, keywords)) return std::move(*v);
  if (std::optional<Value> v = iteration_builtin(f, args, keywords)) return std::move(*v);
  if (std::optional<Value> v = xacro_builtin(f, args)) return std::move(*v);
  fail("not callable");  // the namespaces math, python and xacro
}

std::optional<Value> Evaluator::builtin_keywords(Builtin f, List& args, Keywords& keywords) {
  using B = Builtin;
  switch (f) {
    case B::dict:
      if (!keywords.empty()) {
        // dict(pairs, **kwargs): the pairs, then each keyword as d['name'] = value.
        Keywords named = std::move(keywords);
        keywords.clear();
        const Value base = builtin(f, args, keywords);
        Dict d = *base.dict;
        for (auto& [name, value] : named) set_item(d, Value::string(name), std::move(value));
        return Value::dictionary(std::move(d));
      }
      break;
    case B::tokenize:
      if (!keywords.empty())
        bind_keywords(args, keywords, "tokenize",
                      {{"s", std::nullopt}, {"sep", Value::string(",; ")}, {"skip_empty", Value::boolean(true)}});
      break;
    case B::message:
    case B::warning:
    case B::error:
      // How and where xacro prints (print_location=, color=, alt_text=, file=): the
      // messages here are kept with their place, whatever these say.
      for (const auto& [name, value] : keywords)
        if (name != "print_location" && name != "color" && name != "alt_text" && name != "file")
          fail("message functions take no keyword argument '" + name + "'");
      keywords.clear();
      break;
    case B::enumerate:
    case B::sorted:
    case B::min:
    case B::max:
    case B::sum:
    case B::prod:
    case B::isclose:
    case B::int_:
    case B::round:
    case B::perm:
      break;  // they take their keywords
    default:
      if (!keywords.empty()) fail("this function takes no keyword arguments ('" + keywords.front().first + "=' given)");
  }
  return std::nullopt;
}

// Python's builtins on one value: abs, min, max, round, int, float, str, repr, ord, len.
std::optional<Value> Evaluator::conversion_builtin(Builtin f, List& args, Keywords& keywords) {
  using B = Builtin;
  using K = Value::Kind;
  switch (f) {
    case B::abs: {
      arity(args, 1, 1, "abs");
      if (is_intlike(args[0])) return Value::integer(checked(as_int(args[0]) == INT64_MIN, std::abs(as_int(args[0]))));
      if (args[0].kind != K::real) fail("bad operand type for abs(): '" + std::string(type_name(args[0])) + "'");
      return Value::real(std::fabs(args[0].d));
    }
    case B::min:
    case B::max: {
      const char* name = f == B::min ? "min" : "max";
      const std::optional<Value> key = take(keywords, "key");
      const std::optional<Value> fallback = take(keywords, "default");
      no_keywords(keywords, name);
      if (args.empty()) fail(std::string(name) + " expected at least 1 argument, got 0");
      if (fallback && args.size() > 1) fail(std::string("Cannot specify a default for ") + name + "() with multiple positional arguments");
      const List items = args.size() == 1 ? iterate(args[0], name) : args;
      if (items.empty()) {
        if (fallback) return *fallback;
        fail(std::string(name) + "() arg is an empty sequence");
      }
      std::size_t best = 0;
      Value best_key = key && key->kind != K::none ? call_value(*key, {items[0]}) : items[0];
      for (std::size_t k = 1; k < items.size(); ++k) {
        Value this_key = key && key->kind != K::none ? call_value(*key, {items[k]}) : items[k];
        const int c = compare_values(this_key, best_key, f == B::max ? ">" : "<");
        if (f == B::max ? c > 0 : c < 0) {
          best = k;
          best_key = std::move(this_key);
        }
      }
      return items[best];
    }
    case B::round: {
      if (auto n = take(keywords, "ndigits")) args.push_back(*n);
      no_keywords(keywords, "round");
      arity(args, 1, 2, "round");
      const Value& x = args[0];
      if (!x.is_number()) fail("type " + std::string(type_name(x)) + " doesn't define __round__ method");
      if (args.size() == 1 || args[1].kind == K::none) {
        if (is_intlike(x)) return Value::integer(as_int(x));
        return to_integer(python_round(x.d, 0), "round");
      }
      if (!is_intlike(args[1])) fail("'" + std::string(type_name(args[1])) + "' object cannot be interpreted as an integer");
      const auto n = static_cast<int>(std::clamp<std::int64_t>(as_int(args[1]), -400, 400));
      if (is_intlike(x)) {
        if (n >= 0) return Value::integer(as_int(x));
        return to_integer(python_round(static_cast<double>(as_int(x)), n), "round");
      }
      return Value::real(python_round(x.d, n));
    }
    case B::int_: {
      std::optional<Value> base = take(keywords, "base");
      no_keywords(keywords, "int");
      arity(args, 0, base ? 1 : 2, "int");
      if (args.size() == 2) base = args[1];
      if (args.empty()) {
        if (base) fail("int() missing string argument");
        return Value::integer(0);
      }
      const Value& x = args[0];
      if (base) {
        if (x.kind != K::string) fail("int() can't convert non-string with explicit base");
        const std::int64_t b = integer_argument(*base, "int");
        if (b != 0 && (b < 2 || b > 36)) fail("int() base must be >= 2 and <= 36, or 0");
        if (const auto i = parse_int_text(*x.s, b)) return Value::integer(*i);
        fail("invalid literal for int() with base " + std::to_string(b) + ": " + to_repr(x));
      }
      if (is_intlike(x)) return Value::integer(as_int(x));
      if (x.kind == K::real) return to_integer(std::trunc(x.d), "int");
      if (x.kind == K::string) {
        if (const auto i = parse_int_text(*x.s, 10)) return Value::integer(*i);
        fail("invalid literal for int() with base 10: " + to_repr(x));
      }
      fail("int() argument must be a string, a bytes-like object or a real number, not '" + std::string(type_name(x)) + "'");
    }
    case B::float_: {
      arity(args, 0, 1, "float");
      if (args.empty()) return Value::real(0);
      const Value& x = args[0];
      if (x.is_number()) return Value::real(x.as_double());
      if (x.kind == K::string) {
        if (const auto d = parse_python_float(*x.s)) return Value::real(*d);
        fail("could not convert string to float: " + to_repr(x));
      }
      fail("float() argument must be a string or a real number, not '" + std::string(type_name(x)) + "'");
    }
    case B::str_: {
      arity(args, 0, 1, "str");
      return Value::string(args.empty() ? std::string() : to_text(args[0]));
    }
    case B::repr: {
      arity(args, 1, 1, "repr");
      return Value::string(to_repr(args[0]));
    }
    case B::ord: {
      arity(args, 1, 1, "ord");
      if (args[0].kind != K::string) fail("ord() expected string of length 1, but " + std::string(type_name(args[0])) + " found");
      const std::string& c = *args[0].s;
      const List chars = iterate(args[0], "ord");
      if (chars.size() != 1) fail("ord() expected a character, but string of length " + std::to_string(chars.size()) + " found");
      const auto b0 = static_cast<unsigned char>(c[0]);
      std::uint32_t v = b0 < 0x80 ? b0 : b0 < 0xE0 ? b0 & 0x1Fu : b0 < 0xF0 ? b0 & 0x0Fu : b0 & 0x07u;
      for (std::size_t k = 1; k < c.size(); ++k) v = (v << 6) | (static_cast<unsigned char>(c[k]) & 0x3Fu);
      return Value::integer(v);
    }
    case B::len: {
      arity(args, 1, 1, "len");
      const Value& x = args[0];
      if (x.kind == K::string) return Value::integer(static_cast<std::int64_t>(iterate(x, "len").size()));
      if (x.kind == K::list || x.kind == K::tuple) return Value::integer(static_cast<std::int64_t>(x.items->size()));
      if (x.kind == K::dict) return Value::integer(static_cast<std::int64_t>(x.dict->size()));
      fail("object of type '" + std::string(type_name(x)) + "' has no len()");
    }
    default: return std::nullopt;
  }
}

// Python's builtins that make a collection: list, tuple, dict, sorted, range, sum.
std::optional<Value> Evaluator::collection_builtin(Builtin f, List& args, Keywords& keywords) {
  using B = Builtin;
  using K = Value::Kind;
  switch (f) {
    case B::list:
    case B::tuple: {
      arity(args, 0, 1, f == B::list ? "list" : "tuple");
      return Value::list(args.empty() ? List{} : iterate(args[0], "list"), f == B::tuple);
    }
    case B::dict: {
      arity(args, 0, 1, "dict");
      if (args.empty()) return Value::dictionary({});
      if (args[0].kind == K::dict) return Value::dictionary(*args[0].dict);
      Dict d;
      for (const Value& pair : iterate(args[0], "dict")) {
        if ((pair.kind != K::list && pair.kind != K::tuple) || pair.items->size() != 2)
          fail("dictionary update sequence element has length other than 2");
        set_item(d, (*pair.items)[0], (*pair.items)[1]);
      }
      return Value::dictionary(std::move(d));
    }
    case B::sorted: {
      const std::optional<Value> key = take(keywords, "key");
      const bool reverse = truthy(take(keywords, "reverse").value_or(Value::boolean(false)));
      no_keywords(keywords, "sorted");
      arity(args, 1, 1, "sorted");
      List items = iterate(args[0], "sorted");
      std::vector<std::pair<Value, std::size_t>> keyed;
      for (std::size_t k = 0; k < items.size(); ++k)
        keyed.emplace_back(key && key->kind != K::none ? call_value(*key, {items[k]}) : items[k], k);
      // Python's sort is stable; reverse=True keeps equal items in their order too
      std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
        return reverse ? compare_values(y.first, x.first, "<") < 0 : compare_values(x.first, y.first, "<") < 0;
      });
      List out;
      for (const auto& [k, at] : keyed) out.push_back(items[at]);
      return Value::list(std::move(out));
    }
    case B::range: {
      arity(args, 1, 3, "range");
      for (const auto& x : args)
        if (!is_intlike(x)) fail("'" + std::string(type_name(x)) + "' object cannot be interpreted as an integer");
      const std::int64_t start = args.size() == 1 ? 0 : as_int(args[0]);
      const std::int64_t stop = args.size() == 1 ? as_int(args[0]) : as_int(args[1]);
      const std::int64_t step = args.size() == 3 ? as_int(args[2]) : 1;
      if (step == 0) fail("range() arg 3 must not be zero");
      const long double count_ld = std::max<long double>(
          0, std::ceil((static_cast<long double>(stop) - static_cast<long double>(start)) / static_cast<long double>(step)));
      if (count_ld * sizeof(Value) > static_cast<long double>(host_.value_bytes_limit()))
        too_large("range(...) of " + format_count(count_ld) + " numbers", count_ld * sizeof(Value));
      const auto count = static_cast<std::size_t>(count_ld);
      check_size(count * sizeof(Value));
      List items;
      items.reserve(count);
      for (std::size_t k = 0; k < count; ++k) items.push_back(Value::integer(start + static_cast<std::int64_t>(k) * step));
      return Value::list(std::move(items));
    }
    case B::sum: {
      if (auto start = take(keywords, "start")) args.push_back(*start);
      no_keywords(keywords, "sum");
      arity(args, 1, 2, "sum");
      Value total = args.size() == 2 ? args[1] : Value::integer(0);
      if (total.kind == K::string) fail("sum() can't sum strings [use ''.join(seq) instead]");
      for (const Value& x : iterate(args[0], "sum")) total = binary("+", total, x);
      return total;
    }
    default: return std::nullopt;
  }
}

// Python's builtins that walk an iterable: any, all, divmod, enumerate, zip, reversed, map, filter.
std::optional<Value> Evaluator::iteration_builtin(Builtin f, List& args, Keywords& keywords) {
  using B = Builtin;
  using K = Value::Kind;
  switch (f) {
    case B::any:
    case B::all: {
      arity(args, 1, 1, f == B::any ? "any" : "all");
      const List items = iterate(args[0], f == B::any ? "any" : "all");
      const bool want = f == B::any;
      for (const Value& x : items)
        if (truthy(x) == want) return Value::boolean(want);
      return Value::boolean(!want);
    }
    case B::divmod: {
      arity(args, 2, 2, "divmod");
      return Value::list({binary("//", args[0], args[1]), binary("%", args[0], args[1])}, true);
    }
    case B::enumerate: {
      if (auto start = take(keywords, "start")) args.push_back(*start);
      no_keywords(keywords, "enumerate");
      arity(args, 1, 2, "enumerate");
      std::int64_t at = args.size() == 2 ? integer_argument(args[1], "enumerate") : 0;
      List out;
      for (const Value& x : iterate(args[0], "enumerate")) out.push_back(Value::list({Value::integer(at++), x}, true));
      return Value::iterator(std::move(out), "enumerate");
    }
    case B::zip: {
      std::vector<List> sources;
      for (const Value& a : args) sources.push_back(iterate(a, "zip"));
      List out;
      std::size_t n = sources.empty() ? 0 : SIZE_MAX;
      for (const auto& s : sources) n = std::min(n, s.size());
      for (std::size_t k = 0; k < n; ++k) {
        List t;
        for (const auto& s : sources) t.push_back(s[k]);
        out.push_back(Value::list(std::move(t), true));
      }
      return Value::iterator(std::move(out), "zip");
    }
    case B::reversed: {
      arity(args, 1, 1, "reversed");
      const Value& x = args[0];
      if (x.kind != K::list && x.kind != K::tuple && x.kind != K::string && x.kind != K::dict)
        fail("'" + std::string(type_name(x)) + "' object is not reversible");
      List items = iterate(x, "reversed");
      std::reverse(items.begin(), items.end());
      return Value::iterator(std::move(items), x.kind == K::list   ? "list_reverseiterator"
                                               : x.kind == K::dict ? "dict_reversekeyiterator"
                                                                   : "reversed");
    }
    case B::map: {
      if (args.size() < 2) fail("map() must have at least two arguments.");
      std::vector<List> sources;
      for (std::size_t k = 1; k < args.size(); ++k) sources.push_back(iterate(args[k], "map"));
      std::size_t n = SIZE_MAX;
      for (const auto& s : sources) n = std::min(n, s.size());
      List out;
      for (std::size_t k = 0; k < n; ++k) {
        List call_args;
        for (const auto& s : sources) call_args.push_back(s[k]);
        out.push_back(call_value(args[0], std::move(call_args)));
      }
      return Value::iterator(std::move(out), "map");
    }
    case B::filter: {
      arity(args, 2, 2, "filter");
      List out;
      for (const Value& x : iterate(args[1], "filter"))
        if (truthy(args[0].kind == K::none ? x : call_value(args[0], {x}))) out.push_back(x);
      return Value::iterator(std::move(out), "filter");
    }
    case B::unsupported: fail("a function rmodel does not have");
    default: return std::nullopt;
  }
}

// xacro.NAME (load_yaml, arg, fatal, message, warning, error, print_location, dotify,
// abs_filename, tokenize) and the functions of $(eval ...).
std::optional<Value> Evaluator::xacro_builtin(Builtin f, List& args) {
  using B = Builtin;
  using K = Value::Kind;
  switch (f) {
    // ---- xacro.*
    case B::load_yaml: {
      arity(args, 1, 1, "load_yaml");
      if (args[0].kind != K::string) fail("load_yaml(): the file name must be a string");
      return dotted(host_.load_yaml(*args[0].s));
    }
    case B::arg: {
      // xacro.arg(name): the argument's text, as given or defaulted
      arity(args, 1, 1, "arg");
      if (args[0].kind != K::string) fail("arg(): the argument name must be a string");
      return Value::string(host_.arg(*args[0].s));
    }
    case B::fatal: {
      std::string message;
      for (const auto& x : args) message += (message.empty() ? "" : " ") + to_text(x);
      fail(message);
    }
    case B::message:
    case B::warning:
    case B::error: {
      // print(*args): each argument's str(), separated by spaces; the call gives ''.
      std::string text;
      for (std::size_t k = 0; k < args.size(); ++k) text += (k ? " " : "") + to_text(args[k]);
      host_.report(f == B::error ? Severity::error : f == B::warning ? Severity::warning : Severity::note, text);
      return Value::string("");
    }
    case B::print_location: {
      arity(args, 0, 0, "print_location");
      host_.report(Severity::note, "xacro.print_location()");  // the place and context follow
      return Value::string("");
    }
    case B::dotify: {
      // xacro's YamlDictWrapper(d): a dict read with dotted access
      arity(args, 1, 1, "dotify");
      if (args[0].kind != K::dict) fail("dotify(): the argument must be a dict, not " + std::string(type_name(args[0])));
      return dotted(args[0]);
    }
    case B::abs_filename: {
      arity(args, 1, 1, "abs_filename");
      if (args[0].kind != K::string) fail("abs_filename(): the file name must be a string");
      return Value::string(host_.abs_filename(*args[0].s));
    }
    case B::tokenize: {
      // xacro.tokenize(s, sep=',; ', skip_empty=True): s split at any character of sep.
      arity(args, 1, 3, "tokenize");
      if (args[0].kind != K::string) fail("tokenize(): the text must be a string");
      if (args.size() > 1 && args[1].kind != K::string) fail("tokenize(): the separators must be a string");
      const std::string separators = args.size() > 1 ? *args[1].s : ",; ";
      const bool skip_empty = args.size() > 2 ? truthy(args[2]) : true;
      List items;
      const std::string& text = *args[0].s;
      std::size_t start = 0;
      for (std::size_t k = 0; k <= text.size(); ++k) {
        if (k < text.size() && separators.find(text[k]) == std::string::npos) continue;
        if (k > start || !skip_empty) items.push_back(Value::string(text.substr(start, k - start)));
        start = k + 1;
      }
      return Value::list(std::move(items));
    }
    // ---- $(eval ...)
    case B::eval_arg: {
      arity(args, 1, 1, "arg");
      if (args[0].kind != K::string) fail("arg(): the argument name must be a string");
      return roslaunch_value(host_.arg(*args[0].s));
    }
    case B::eval_env:
    case B::eval_optenv:
    case B::eval_find:
    case B::eval_dirname: {
      const char* name = f == B::eval_env ? "env" : f == B::eval_optenv ? "optenv" : f == B::eval_find ? "find" : "dirname";
      std::vector<std::string> words;
      for (const Value& v : args) words.push_back(to_text(v));
      return Value::string(host_.substitute(name, words));
    }
    default: return std::nullopt;
  }
}

}  // namespace expr

std::optional<Value> global_name(std::string_view name) {
  if (name == "math") return Value::function(Builtin::ns_math);
  if (name == "python") return Value::function(Builtin::ns_python);
  if (name == "xacro") return Value::function(Builtin::ns_xacro);
  // xacro.load_yaml, abs_filename and dotify are also global (deprecated)
  if (name == "load_yaml") return Value::function(Builtin::load_yaml);
  if (name == "abs_filename") return Value::function(Builtin::abs_filename);
  if (name == "dotify") return Value::function(Builtin::dotify);
  if (auto v = expr::find_in(expr::math_names(), name)) return v;
  return expr::find_in(expr::direct_python_names(), name);
}

std::optional<std::string> deprecation(std::string_view name) {
  const std::string n(name);
  if (name == "sorted" || name == "range") return "Using " + n + "() directly is deprecated. Use python." + n + "() instead.";
  if (name == "load_yaml" || name == "abs_filename" || name == "dotify")
    return "Using " + n + "() directly is deprecated. Use xacro." + n + "() instead.";
  return std::nullopt;
}

std::optional<Value> eval_name(std::string_view name) {
  if (name == "true" || name == "True") return Value::boolean(true);
  if (name == "false" || name == "False") return Value::boolean(false);
  if (name == "arg") return Value::function(Builtin::eval_arg);
  if (name == "env") return Value::function(Builtin::eval_env);
  if (name == "optenv") return Value::function(Builtin::eval_optenv);
  if (name == "find") return Value::function(Builtin::eval_find);
  if (name == "dirname") return Value::function(Builtin::eval_dirname);
  for (const char* builtin : {"list", "dict", "map", "str", "float", "int"})
    if (name == builtin) return expr::find_in(expr::python_names(), name);
  return expr::find_in(expr::math_names(), name);
}

const std::vector<std::string>& global_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out = {"math", "python", "xacro", "True", "False", "None"};
    for (const auto& e : expr::math_names()) out.emplace_back(e.name);
    for (const auto& e : expr::direct_python_names()) out.emplace_back(e.name);
    return out;
  }();
  return names;
}

double python_round(double x, int ndigits) {
  if (!std::isfinite(x)) return x;
  if (ndigits == 0) return std::nearbyint(x);  // default rounding mode: half to even
  if (ndigits > 0) {
    // Correctly rounded decimal text of the binary value (glibc's printf rounds exactly, half
    // to even on ties), read back: what Python's round(x, n) computes.
    if (ndigits > 330) return x;
    std::vector<char> buf(static_cast<std::size_t>(ndigits) + 400);
    std::snprintf(buf.data(), buf.size(), "%.*f", ndigits, x);
    return std::strtod(buf.data(), nullptr);
  }
  const double scale = std::pow(10.0, -ndigits);
  if (!std::isfinite(scale)) return std::copysign(0.0, x);
  return std::nearbyint(x / scale) * scale;
}

}  // namespace rmodel::xacro
