#include "xacro/value.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <system_error>
#include <utility>

namespace rmodel::xacro {
namespace {

std::string_view strip_python_space(std::string_view t) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!t.empty() && space(t.front())) t.remove_prefix(1);
  while (!t.empty() && space(t.back())) t.remove_suffix(1);
  return t;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(a[k])) != std::tolower(static_cast<unsigned char>(b[k]))) return false;
  return true;
}

std::string repr_string(const std::string& s) {
  // Python picks single quotes unless the text holds a single quote and no double quote.
  const bool has_single = s.find('\'') != std::string::npos;
  const bool has_double = s.find('"') != std::string::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (const char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c == quote) {
          out += '\\';
          out += c;
        } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += quote;
  return out;
}

}  // namespace

std::string format_real(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  // Shortest round-trip digits and the decimal exponent, then Python's layout: positional
  // for 1e-4 <= |v| < 1e16, scientific with at least two exponent digits otherwise.
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string sci(buf, r.ptr);
  const auto e_at = sci.find('e');
  std::string mantissa = sci.substr(0, e_at);
  const int exponent = std::atoi(sci.c_str() + e_at + 1);
  const bool negative = mantissa[0] == '-';
  if (negative) mantissa.erase(0, 1);
  std::string digits;
  for (const char c : mantissa)
    if (c != '.') digits += c;
  std::string out = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    } else {
      const auto point = static_cast<std::size_t>(exponent) + 1;
      if (digits.size() <= point) {
        out += digits + std::string(point - digits.size(), '0') + ".0";
      } else {
        out += digits.substr(0, point) + "." + digits.substr(point);
      }
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  char exp[16];
  std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
  return out + exp;
}

std::string to_text(const Value& v) {
  using K = Value::Kind;
  switch (v.kind) {
    case K::string: return *v.s;
    default: return to_repr(v);
  }
}

std::string to_repr(const Value& v) {
  using K = Value::Kind;
  switch (v.kind) {
    case K::none: return "None";
    case K::boolean: return v.b ? "True" : "False";
    case K::integer: return std::to_string(v.i);
    case K::real: return format_real(v.d);
    case K::string: return repr_string(*v.s);
    case K::list:
    case K::tuple: {
      std::string out = v.kind == K::list ? "[" : "(";
      for (std::size_t k = 0; k < v.items->size(); ++k) {
        if (k) out += ", ";
        out += to_repr((*v.items)[k]);
      }
      if (v.kind == K::tuple && v.items->size() == 1) out += ",";
      return out + (v.kind == K::list ? "]" : ")");
    }
    case K::dict: {
      std::string out = "{";
      for (std::size_t k = 0; k < v.dict->size(); ++k) {
        if (k) out += ", ";
        out += to_repr((*v.dict)[k].first) + ": " + to_repr((*v.dict)[k].second);
      }
      return out + "}";
    }
    case K::function: return "<built-in function>";
    case K::scope: return "<namespace>";
    case K::iterator:
      throw EvalError{"a " + *v.s + " object has no text of its own (Python writes its address, <" + *v.s +
                      " object at 0x...>): make it a list, list(...)"};
  }
  return "None";
}

Value dotted(Value v) {
  if (v.kind == Value::Kind::dict || v.kind == Value::Kind::list) v.dotted = true;
  return v;
}

bool truthy(const Value& v) {
  using K = Value::Kind;
  switch (v.kind) {
    case K::none: return false;
    case K::boolean: return v.b;
    case K::integer: return v.i != 0;
    case K::real: return v.d != 0.0;
    case K::string: return !v.s->empty();
    case K::list:
    case K::tuple: return !v.items->empty();
    case K::dict: return !v.dict->empty();
    case K::function:
    case K::scope:
    case K::iterator: return true;
  }
  return false;
}

std::string_view type_name(const Value& v) {
  using K = Value::Kind;
  switch (v.kind) {
    case K::none: return "NoneType";
    case K::boolean: return "bool";
    case K::integer: return "int";
    case K::real: return "float";
    case K::string: return "str";
    case K::list: return "list";
    case K::tuple: return "tuple";
    case K::dict: return "dict";
    case K::function: return "builtin_function_or_method";
    case K::scope: return "namespace";
    case K::iterator: return *v.s;
  }
  return "object";
}

void set_item(Dict& d, Value key, Value value) {
  for (auto& [k, v] : d)
    if (equal(k, key)) {
      v = std::move(value);
      return;
    }
  d.emplace_back(std::move(key), std::move(value));
}

bool equal(const Value& a, const Value& b) {
  using K = Value::Kind;
  if (a.is_number() && b.is_number()) {
    if (a.kind != K::real && b.kind != K::real) {
      const auto ai = a.kind == K::integer ? a.i : static_cast<std::int64_t>(a.b);
      const auto bi = b.kind == K::integer ? b.i : static_cast<std::int64_t>(b.b);
      return ai == bi;
    }
    return a.as_double() == b.as_double();
  }
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case K::none: return true;
    case K::string: return *a.s == *b.s;
    case K::list:
    case K::tuple: {
      if (a.items->size() != b.items->size()) return false;
      for (std::size_t k = 0; k < a.items->size(); ++k)
        if (!equal((*a.items)[k], (*b.items)[k])) return false;
      return true;
    }
    case K::dict: {
      if (a.dict->size() != b.dict->size()) return false;
      for (const auto& [key, value] : *a.dict) {
        bool found = false;
        for (const auto& [other_key, other_value] : *b.dict)
          if (equal(key, other_key)) {
            found = equal(value, other_value);
            break;
          }
        if (!found) return false;
      }
      return true;
    }
    case K::function: return a.fn == b.fn;
    case K::scope: return a.table == b.table;
    case K::iterator: return a.items == b.items;
    default: return false;
  }
}

std::optional<std::int64_t> parse_python_int(std::string_view text) {
  std::string_view t = strip_python_space(text);
  bool negative = false;
  if (!t.empty() && (t.front() == '+' || t.front() == '-')) {
    negative = t.front() == '-';
    t.remove_prefix(1);
  }
  if (t.empty()) return std::nullopt;
  for (const char c : t)
    if (c < '0' || c > '9') return std::nullopt;
  std::uint64_t magnitude = 0;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), magnitude);
  if (r.ec != std::errc() || r.ptr != t.data() + t.size()) return std::nullopt;
  if (negative) {
    if (magnitude > static_cast<std::uint64_t>(INT64_MAX) + 1) return std::nullopt;
    return magnitude == static_cast<std::uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<std::int64_t>(magnitude);
  }
  if (magnitude > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
  return static_cast<std::int64_t>(magnitude);
}

std::optional<double> parse_python_float(std::string_view text) {
  std::string_view t = strip_python_space(text);
  bool negative = false;
  std::string_view body = t;
  if (!body.empty() && (body.front() == '+' || body.front() == '-')) {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (iequals(body, "inf") || iequals(body, "infinity")) return negative ? -HUGE_VAL : HUGE_VAL;
  if (iequals(body, "nan")) return negative ? -std::nan("") : std::nan("");
  // digits [. digits] [e [sign] digits], or . digits ...: checked by hand, since from_chars
  // also takes forms Python refuses (hex floats, "inf" spelled otherwise).
  std::size_t k = 0, int_digits = 0, frac_digits = 0;
  while (k < body.size() && body[k] >= '0' && body[k] <= '9') ++k, ++int_digits;
  if (k < body.size() && body[k] == '.') {
    ++k;
    while (k < body.size() && body[k] >= '0' && body[k] <= '9') ++k, ++frac_digits;
  }
  if (int_digits + frac_digits == 0) return std::nullopt;
  if (k < body.size() && (body[k] == 'e' || body[k] == 'E')) {
    ++k;
    if (k < body.size() && (body[k] == '+' || body[k] == '-')) ++k;
    std::size_t exp_digits = 0;
    while (k < body.size() && body[k] >= '0' && body[k] <= '9') ++k, ++exp_digits;
    if (exp_digits == 0) return std::nullopt;
  }
  if (k != body.size()) return std::nullopt;
  double value = 0;
  const std::string copy(body);  // strtod: from_chars rejects a leading '.' on some libraries
  char* end = nullptr;
  value = std::strtod(copy.c_str(), &end);
  return negative ? -value : value;
}

Value deep_copy(const Value& v) {
  if (v.kind == Value::Kind::list || v.kind == Value::Kind::tuple) {
    List items;
    items.reserve(v.items->size());
    for (const Value& item : *v.items) items.push_back(deep_copy(item));
    Value copy = Value::list(std::move(items), v.kind == Value::Kind::tuple);
    copy.dotted = v.dotted;
    return copy;
  }
  if (v.kind == Value::Kind::dict) {
    Dict d;
    d.reserve(v.dict->size());
    for (const auto& [key, value] : *v.dict) d.emplace_back(key, deep_copy(value));
    Value copy = Value::dictionary(std::move(d));
    copy.dotted = v.dotted;
    return copy;
  }
  return v;
}

Value roslaunch_value(const std::string& text) {
  if (text.find('.') != std::string::npos) {
    if (const auto d = parse_python_float(text)) return Value::real(*d);
  } else if (const auto i = parse_python_int(text)) {
    return Value::integer(*i);
  }
  std::string lower = text;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true" || lower == "false") return Value::boolean(lower == "true");
  return Value::string(text);
}

Value literal(const std::string& text) {
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') return Value::string(text.substr(1, text.size() - 2));
  if (text.find('_') != std::string::npos) return Value::string(text);
  if (const auto i = parse_python_int(text)) return Value::integer(*i);
  // An integer beyond 64 bits (Python's are unbounded) stays its text, which is what it prints.
  if (text.find_first_not_of(" \t\n\r\f\v+-0123456789") == std::string::npos) return Value::string(text);
  if (const auto d = parse_python_float(text)) return Value::real(*d);
  if (text == "true" || text == "True") return Value::boolean(true);
  if (text == "false" || text == "False") return Value::boolean(false);
  return Value::string(text);
}

}  // namespace rmodel::xacro
