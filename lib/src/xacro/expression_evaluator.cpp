// xacro's expressions: evaluation of the tree (names, operators, subscripts, calls, the
// methods of str, list and dict, % and str.format). The builtins are expression_builtins.cpp
// and expression_math.cpp.
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

[[noreturn]] void fail(std::string message) { throw EvalError{std::move(message)}; }

namespace {

double python_float_mod(double a, double b, double* floordiv) {
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, b);
  }
  if (floordiv) {
    if (div != 0) {
      double f = std::floor(div);
      if (div - f > 0.5) f += 1.0;
      *floordiv = f;
    } else {
      *floordiv = std::copysign(0.0, a / b);
    }
  }
  return mod;
}

/// The flags, width and precision of one %-directive of str % args.
struct PercentSpec {
  bool left = false, plus = false, space = false, alternate = false, zero = false;
  std::int64_t width = 0;
  std::optional<std::int64_t> precision;
};

/// The text of %d %i %u %o %x %X of `v` (an integer, or a float for d i u), sign, prefix and
/// zero padding included; the caller pads it to the width with blanks.
std::string percent_integer(char conv, const Value& v, const PercentSpec& spec) {
  using K = Value::Kind;
  const bool decimal = conv == 'd' || conv == 'i' || conv == 'u';
  if (!is_intlike(v) && !(decimal && v.kind == K::real))
    fail(std::string("%") + conv + " format: " + (decimal ? "a real number" : "an integer") + " is required, not " +
         std::string(type_name(v)));
  bool negative = false;
  std::string digits;
  if (is_intlike(v)) {
    const std::int64_t i = as_int(v);
    negative = i < 0;
    const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i);
    char buf[32];
    std::snprintf(buf, sizeof buf, conv == 'o' ? "%llo" : conv == 'x' ? "%llx" : conv == 'X' ? "%llX" : "%llu",
                  static_cast<unsigned long long>(magnitude));
    digits = buf;
  } else {
    if (std::isnan(v.d)) fail("cannot convert float NaN to integer");
    if (std::isinf(v.d)) fail("cannot convert float infinity to integer");
    const double whole = std::trunc(v.d);
    negative = whole < 0;
    // glibc writes a double's exact decimal value: an integral one is its integer
    std::vector<char> buf(400);
    std::snprintf(buf.data(), buf.size(), "%.0f", std::fabs(whole));
    digits = buf.data();
  }
  if (spec.precision && digits.size() < static_cast<std::size_t>(*spec.precision))
    digits.insert(0, static_cast<std::size_t>(*spec.precision) - digits.size(), '0');
  std::string prefix = negative ? "-" : spec.plus ? "+" : spec.space ? " " : "";
  if (spec.alternate && conv == 'o') prefix += "0o";
  if (spec.alternate && (conv == 'x' || conv == 'X')) prefix += conv == 'x' ? "0x" : "0X";
  const auto length = static_cast<std::int64_t>(prefix.size() + digits.size());
  if (spec.zero && !spec.left && spec.width > length) digits.insert(0, static_cast<std::size_t>(spec.width - length), '0');
  return prefix + digits;
}

}  // namespace

Value Evaluator::eval(const Ast& a) {
  host_.charge(1);
  switch (a.op) {
    case Ast::Op::constant: return a.value;
    case Ast::Op::name: return name(a.text);
    case Ast::Op::attribute: return attribute(eval(a.kids[0]), a.text);
    case Ast::Op::index: return index(eval(a.kids[0]), eval(a.kids[1]));
    case Ast::Op::slice: return slice(eval(a.kids[0]), a.kids[1], a.kids[2], a.kids[3]);
    case Ast::Op::call: return call(a);
    case Ast::Op::negate: {
      const Value v = eval(a.kids[0]);
      if (is_intlike(v)) return Value::integer(checked(as_int(v) == INT64_MIN, -as_int(v)));
      if (v.kind == Value::Kind::real) return Value::real(-v.d);
      fail("bad operand type for unary -: '" + std::string(type_name(v)) + "'");
    }
    case Ast::Op::plus: {
      const Value v = eval(a.kids[0]);
      if (is_intlike(v)) return Value::integer(as_int(v));
      if (v.kind == Value::Kind::real) return v;
      fail("bad operand type for unary +: '" + std::string(type_name(v)) + "'");
    }
    case Ast::Op::invert: {
      const Value v = eval(a.kids[0]);
      if (is_intlike(v)) return Value::integer(~as_int(v));
      fail("bad operand type for unary ~: '" + std::string(type_name(v)) + "'");
    }
    case Ast::Op::not_: return Value::boolean(!truthy(eval(a.kids[0])));
    case Ast::Op::and_: {
      Value left = eval(a.kids[0]);
      return truthy(left) ? eval(a.kids[1]) : left;
    }
    case Ast::Op::or_: {
      Value left = eval(a.kids[0]);
      return truthy(left) ? left : eval(a.kids[1]);
    }
    case Ast::Op::if_else: return truthy(eval(a.kids[1])) ? eval(a.kids[0]) : eval(a.kids[2]);
    case Ast::Op::binary: return binary(a.text, eval(a.kids[0]), eval(a.kids[1]));
    case Ast::Op::compare: {
      Value left = eval(a.kids[0]);
      for (std::size_t k = 0; k < a.ops.size(); ++k) {
        Value right = eval(a.kids[k + 1]);
        if (!compare(a.ops[k], left, right)) return Value::boolean(false);
        left = std::move(right);
      }
      return Value::boolean(true);
    }
    case Ast::Op::list:
    case Ast::Op::tuple: {
      List items;
      items.reserve(a.kids.size());
      for (const auto& k : a.kids) items.push_back(eval(k));
      return Value::list(std::move(items), a.op == Ast::Op::tuple);
    }
    case Ast::Op::keyword: fail("a keyword argument outside a call");
    case Ast::Op::comprehension: return comprehension(a);
    case Ast::Op::dict: {
      Dict d;
      for (std::size_t k = 0; k + 1 < a.kids.size(); k += 2) set_item(d, eval(a.kids[k]), eval(a.kids[k + 1]));
      return Value::dictionary(std::move(d));
    }
  }
  fail("unsupported expression");
}

Value Evaluator::name(const std::string& n) {
  // A comprehension's names shadow properties and globals, the innermost first (Python 3
  // gives a comprehension its own scope).
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
    if (it->first == n) return it->second;
  if (n.rfind("__", 0) == 0) fail("Use of invalid name(s): " + n);
  if (auto v = host_.lookup(n)) return *v;
  if (auto g = host_.global(n)) return *g;
  fail(host_.unknown_name_message(n));
}

Value Evaluator::comprehension(const Ast& a) {
  using K = Value::Kind;
  const Value source = eval(a.kids[1]);
  if (source.kind != K::list && source.kind != K::tuple && source.kind != K::dict && source.kind != K::string &&
      source.kind != K::iterator)
    fail("'" + std::string(type_name(source)) + "' object is not iterable");
  const List items = iterate(source, "list");
  const std::size_t mark = locals_.size();
  List out;
  try {
    for (const Value& item : items) {
      locals_.resize(mark);
      if (a.ops.size() == 1) {
        locals_.emplace_back(a.ops.front(), item);
      } else {
        if (item.kind != K::list && item.kind != K::tuple && item.kind != K::dict && item.kind != K::string)
          fail("cannot unpack non-iterable " + std::string(type_name(item)) + " object");
        const List parts = iterate(item, "list");
        if (parts.size() < a.ops.size())
          fail("not enough values to unpack (expected " + std::to_string(a.ops.size()) + ", got " +
               std::to_string(parts.size()) + ")");
        if (parts.size() > a.ops.size())
          fail("too many values to unpack (expected " + std::to_string(a.ops.size()) + ")");
        for (std::size_t k = 0; k < parts.size(); ++k) locals_.emplace_back(a.ops[k], parts[k]);
      }
      bool keep = true;
      for (std::size_t k = 2; k < a.kids.size() && keep; ++k) keep = truthy(eval(a.kids[k]));
      if (!keep) continue;
      out.push_back(eval(a.kids[0]));
      check_size(out.size() * sizeof(Value));
    }
  } catch (...) {
    locals_.resize(mark);
    throw;
  }
  locals_.resize(mark);
  return Value::list(std::move(out));
}

Value Evaluator::attribute(const Value& target, const std::string& attr) {
  using K = Value::Kind;
  if (attr.rfind("__", 0) == 0) fail("Use of invalid name(s): " + attr);
  if (target.kind == K::function) {
    std::optional<Value> v;
    if (target.fn == Builtin::ns_math) v = find_in(math_names(), attr);
    if (target.fn == Builtin::ns_python) v = find_in(python_names(), attr);
    if (target.fn == Builtin::ns_xacro) v = find_in(xacro_names(), attr);
    if (v) return *v;
    fail("name '" + attr + "' is not defined in this namespace");
  }
  if (target.kind == K::scope) {
    if (auto v = host_.lookup_in(*target.table, attr)) return *v;
    fail("the namespace has no property '" + attr + "'");
  }
  if (target.kind == K::dict && target.dotted) {
    for (const auto& [k, v] : *target.dict)
      if (k.kind == K::string && *k.s == attr) return dotted(v);
    fail("The yaml dictionary has no key '" + attr + "'");
  }
  if (target.kind == K::dict)
    fail("'dict' object has no attribute '" + attr + "' (only a dict from YAML or xacro.dotify() reads d.key; write d['" +
         attr + "'])");
  fail("'" + std::string(type_name(target)) + "' object has no attribute '" + attr + "'");
}

std::size_t Evaluator::normalise_index(std::int64_t i, std::size_t size, const char* what) {
  const auto n = static_cast<std::int64_t>(size);
  if (i < 0) i += n;
  if (i < 0 || i >= n) fail(std::string(what) + " index out of range");
  return static_cast<std::size_t>(i);
}

Value Evaluator::index(const Value& target, const Value& key) {
  using K = Value::Kind;
  if (target.kind == K::dict) {
    for (const auto& [k, v] : *target.dict)
      if (equal(k, key)) return target.dotted ? dotted(v) : v;
    fail("the dictionary has no key " + to_repr(key));
  }
  if (target.kind != K::list && target.kind != K::tuple && target.kind != K::string)
    fail("'" + std::string(type_name(target)) + "' object is not subscriptable");
  if (!is_intlike(key)) fail(std::string(type_name(target)) + " indices must be integers, not " + std::string(type_name(key)));
  if (target.kind == K::list || target.kind == K::tuple) {
    const Value& item =
        (*target.items)[normalise_index(as_int(key), target.items->size(), type_name(target) == "list" ? "list" : "tuple")];
    return target.dotted ? dotted(item) : item;
  }
  if (target.kind == K::string)
    return Value::string(std::string(1, (*target.s)[normalise_index(as_int(key), target.s->size(), "string")]));
  fail("'" + std::string(type_name(target)) + "' object is not subscriptable");
}

Value Evaluator::slice(const Value& target, const Ast& lo_ast, const Ast& hi_ast, const Ast& step_ast) {
  using K = Value::Kind;
  if (target.kind != K::string && target.kind != K::list && target.kind != K::tuple)
    fail("'" + std::string(type_name(target)) + "' object is not subscriptable");
  const auto n = static_cast<std::int64_t>(target.kind == K::string ? target.s->size() : target.items->size());
  auto value = [&](const Ast& ast) -> std::optional<std::int64_t> {
    const Value v = eval(ast);
    if (v.kind == K::none) return std::nullopt;
    if (!is_intlike(v)) fail("slice indices must be integers or None or have an __index__ method");
    return as_int(v);
  };
  const auto lo_given = value(lo_ast), hi_given = value(hi_ast), step_given = value(step_ast);
  const std::int64_t step = step_given.value_or(1);
  if (step == 0) fail("slice step cannot be zero");
  auto adjust = [&](std::optional<std::int64_t> i, std::int64_t fallback) {
    if (!i) return fallback;
    std::int64_t x = *i;
    if (x < 0) {
      x = x < -n ? (step < 0 ? -1 : 0) : x + n;
    } else if (x >= n) {
      x = step < 0 ? n - 1 : n;
    }
    return x;
  };
  const std::int64_t lo = adjust(lo_given, step < 0 ? n - 1 : 0);
  const std::int64_t hi = adjust(hi_given, step < 0 ? -1 : n);
  std::vector<std::int64_t> at;
  for (std::int64_t k = lo; step > 0 ? k < hi : k > hi; k += step) {
    at.push_back(k);
    if (step > 0 ? k > INT64_MAX - step : k < INT64_MIN - step) break;
  }
  if (target.kind == K::string) {
    std::string out;
    out.reserve(at.size());
    for (const auto k : at) out += (*target.s)[static_cast<std::size_t>(k)];
    return Value::string(std::move(out));
  }
  List out;
  out.reserve(at.size());
  for (const auto k : at) out.push_back((*target.items)[static_cast<std::size_t>(k)]);
  Value result = Value::list(std::move(out), target.kind == K::tuple);
  result.dotted = target.dotted;
  return result;
}

void Evaluator::check_size(std::size_t bytes) {
  if (bytes > host_.value_bytes_limit()) too_large("this value", static_cast<long double>(bytes));
  host_.charge(bytes / 64);
}

std::string Evaluator::format_count(long double n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0Lf", n);
  return buf;
}

void Evaluator::too_large(const std::string& what, long double bytes) {
  fail(what + " would make a value of " + format_count(bytes) + " bytes; the limit is " +
       std::to_string(host_.value_bytes_limit()) + " bytes (XacroLimits::value_bytes)");
}

Value Evaluator::repeat(const Value& seq, std::int64_t times) {
  using K = Value::Kind;
  if (times <= 0) return seq.kind == K::string ? Value::string("") : Value::list({}, seq.kind == K::tuple);
  const std::size_t unit = seq.kind == K::string ? seq.s->size() : seq.items->size() * sizeof(Value);
  const long double bytes = static_cast<long double>(unit) * static_cast<long double>(times);
  if (bytes > static_cast<long double>(host_.value_bytes_limit()))
    too_large("a " + std::string(type_name(seq)) + " of " + format_count(static_cast<long double>(unit)) +
                  (seq.kind == K::string ? " bytes" : " bytes of items") + " repeated " + std::to_string(times) + " times",
              bytes);
  check_size(unit * static_cast<std::size_t>(times));
  if (seq.kind == K::string) {
    std::string out;
    out.reserve(seq.s->size() * static_cast<std::size_t>(times));
    for (std::int64_t k = 0; k < times; ++k) out += *seq.s;
    return Value::string(std::move(out));
  }
  List out;
  for (std::int64_t k = 0; k < times; ++k) out.insert(out.end(), seq.items->begin(), seq.items->end());
  return Value::list(std::move(out), seq.kind == K::tuple);
}

std::string Evaluator::pad(std::string text, std::int64_t width, bool left) {
  std::int64_t length = 0;
  for (const char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++length;
  if (width <= length) return text;
  const std::string fill(static_cast<std::size_t>(std::min<std::int64_t>(width - length, 1 << 24)), ' ');
  return left ? text + fill : fill + text;
}

Value Evaluator::percent_format(const std::string& format, const Value& args) {
  using K = Value::Kind;
  const bool tuple = args.kind == K::tuple;
  const List values = tuple ? *args.items : List{args};
  std::size_t next = 0;
  auto next_arg = [&]() -> const Value& {
    if (next >= values.size()) fail("not enough arguments for format string");
    return values[next++];
  };
  std::string out;
  const std::size_t n = format.size();
  for (std::size_t k = 0; k < n; ++k) {
    if (format[k] != '%') {
      out += format[k];
      continue;
    }
    std::size_t j = k + 1;
    std::optional<Value> keyed;
    if (j < n && format[j] == '(') {
      if (args.kind != K::dict) fail("format requires a mapping");
      int depth = 1;
      const std::size_t start = ++j;
      while (j < n && depth > 0) {
        if (format[j] == '(') ++depth;
        if (format[j] == ')') --depth;
        ++j;
      }
      if (depth > 0) fail("incomplete format key");
      const Value key = Value::string(format.substr(start, j - 1 - start));
      for (const auto& [dk, dv] : *args.dict)
        if (equal(dk, key)) keyed = dv;
      if (!keyed) fail("KeyError: " + to_repr(key));
    }
    bool left = false, plus = false, space = false, alternate = false, zero = false;
    for (; j < n && std::string_view("-+ #0").find(format[j]) != std::string_view::npos; ++j) {
      left = left || format[j] == '-';
      plus = plus || format[j] == '+';
      space = space || format[j] == ' ';
      alternate = alternate || format[j] == '#';
      zero = zero || format[j] == '0';
    }
    auto count = [&]() -> std::int64_t {
      if (j < n && format[j] == '*') {
        ++j;
        const Value& v = next_arg();
        if (!is_intlike(v)) fail("* wants int");
        return as_int(v);
      }
      std::int64_t v = 0;
      while (j < n && std::isdigit(static_cast<unsigned char>(format[j]))) {
        v = std::min<std::int64_t>(v * 10 + (format[j] - '0'), 1 << 24);
        ++j;
      }
      return v;
    };
    std::int64_t width = count();
    if (width < 0) {
      left = true;
      width = -width;
    }
    std::optional<std::int64_t> precision;
    if (j < n && format[j] == '.') {
      ++j;
      precision = std::max<std::int64_t>(0, count());
    }
    while (j < n && (format[j] == 'h' || format[j] == 'l' || format[j] == 'L')) ++j;
    if (j >= n) fail("incomplete format");
    const char conv = format[j];
    k = j;
    if (conv == '%') {
      out += '%';
      continue;
    }
    const Value& v = keyed ? *keyed : next_arg();
    if (conv == 's' || conv == 'r' || conv == 'a') {
      std::string text = conv == 's' ? to_text(v) : to_repr(v);
      if (precision && static_cast<std::size_t>(*precision) < text.size()) text.resize(static_cast<std::size_t>(*precision));
      out += pad(std::move(text), width, left);
    } else if (conv == 'c') {
      std::string c;
      if (v.kind == K::string) {
        if (iterate(v, "%c").size() != 1) fail("%c requires int or char");
        c = *v.s;
      } else if (is_intlike(v)) {
        if (as_int(v) < 0 || as_int(v) > 0x10FFFF) fail("%c arg not in range(0x110000)");
        append_utf8(c, static_cast<std::uint32_t>(as_int(v)));
      } else {
        fail("%c requires int or char");
      }
      out += pad(std::move(c), width, left);
    } else if (std::string_view("diuoxX").find(conv) != std::string_view::npos) {
      out += pad(percent_integer(conv, v, PercentSpec{left, plus, space, alternate, zero, width, precision}), width, left);
    } else if (std::string_view("eEfFgG").find(conv) != std::string_view::npos) {
      if (!v.is_number()) fail(std::string("must be real number, not ") + std::string(type_name(v)));
      std::string spec = "%";
      if (left) spec += '-';
      if (plus) spec += '+';
      if (space) spec += ' ';
      if (alternate) spec += '#';
      if (zero) spec += '0';
      spec += std::to_string(width) + "." + std::to_string(precision.value_or(6)) + conv;
      const double x = v.as_double();
      const int size = std::snprintf(nullptr, 0, spec.c_str(), x);
      check_size(out.size() + static_cast<std::size_t>(std::max(size, 0)));
      std::string text(static_cast<std::size_t>(std::max(size, 0)) + 1, '\0');
      std::snprintf(text.data(), text.size(), spec.c_str(), x);
      text.pop_back();
      out += text;
    } else {
      fail(std::string("unsupported format character '") + conv + "'");
    }
    check_size(out.size());
  }
  // A mapping (a dict, or a list, which Python takes for one) may be left unused.
  if (next < values.size() && !(!tuple && (args.kind == K::dict || args.kind == K::list)))
    fail("not all arguments converted during string formatting");
  return Value::string(std::move(out));
}

Value Evaluator::binary(const std::string& op, const Value& a, const Value& b) {
  using K = Value::Kind;
  const bool numbers = a.is_number() && b.is_number();
  const bool ints = is_intlike(a) && is_intlike(b);
  auto type_error = [&]() -> Value {
    fail("unsupported operand type(s) for " + op + ": '" + std::string(type_name(a)) + "' and '" +
         std::string(type_name(b)) + "'");
  };
  if (op == "+") {
    if (ints) return Value::integer(checked_add(as_int(a), as_int(b)));
    if (numbers) return Value::real(a.as_double() + b.as_double());
    if (a.kind == K::string && b.kind == K::string) {
      check_size(a.s->size() + b.s->size());
      return Value::string(*a.s + *b.s);
    }
    if ((a.kind == K::list || a.kind == K::tuple) && a.kind == b.kind) {
      check_size((a.items->size() + b.items->size()) * sizeof(Value));
      List out = *a.items;
      out.insert(out.end(), b.items->begin(), b.items->end());
      return Value::list(std::move(out), a.kind == K::tuple);
    }
    return type_error();
  }
  if (op == "-") {
    if (ints) return Value::integer(checked_sub(as_int(a), as_int(b)));
    if (numbers) return Value::real(a.as_double() - b.as_double());
    return type_error();
  }
  if (op == "*") {
    if (ints) return Value::integer(checked_mul(as_int(a), as_int(b)));
    if (numbers) return Value::real(a.as_double() * b.as_double());
    const bool a_seq = a.kind == K::string || a.kind == K::list || a.kind == K::tuple;
    const bool b_seq = b.kind == K::string || b.kind == K::list || b.kind == K::tuple;
    if (a_seq && is_intlike(b)) return repeat(a, as_int(b));
    if (b_seq && is_intlike(a)) return repeat(b, as_int(a));
    return type_error();
  }
  if (op == "/") {
    if (!numbers) return type_error();
    if (b.as_double() == 0) fail("division by zero");
    return Value::real(a.as_double() / b.as_double());
  }
  if (op == "//" || op == "%") {
    if (op == "%" && a.kind == K::string) return percent_format(*a.s, b);
    if (!numbers) return type_error();
    if (ints) {
      const std::int64_t x = as_int(a), y = as_int(b);
      if (y == 0) fail(op == "//" ? "integer division by zero" : "integer modulo by zero");
      if (x == INT64_MIN && y == -1) return op == "//" ? Value::integer(checked(true, 0)) : Value::integer(0);
      std::int64_t q = x / y, r = x % y;
      if (r != 0 && ((r < 0) != (y < 0))) {
        q -= 1;
        r += y;
      }
      return Value::integer(op == "//" ? q : r);
    }
    if (b.as_double() == 0) fail(op == "//" ? "float floor division by zero" : "float modulo");
    double floordiv = 0;
    const double mod = python_float_mod(a.as_double(), b.as_double(), &floordiv);
    return Value::real(op == "//" ? floordiv : mod);
  }
  if (op == "**") {
    if (!numbers) return type_error();
    if (ints && as_int(b) >= 0) {
      std::int64_t base = as_int(a), exponent = as_int(b), result = 1;
      while (exponent > 0) {
        if (exponent & 1) result = checked_mul(result, base);
        exponent >>= 1;
        if (exponent > 0) base = checked_mul(base, base);
      }
      return Value::integer(result);
    }
    const double x = a.as_double(), y = b.as_double();
    if (x == 0 && y < 0) fail("0.0 cannot be raised to a negative power");
    if (x < 0 && std::isfinite(y) && y != std::floor(y)) fail("a negative number raised to a fractional power is complex");
    const double r = std::pow(x, y);
    if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) fail("numerical result out of range");
    return Value::real(r);
  }
  if (op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>") {
    if (!ints) return type_error();
    const std::int64_t x = as_int(a), y = as_int(b);
    if (op == "&") return Value::integer(x & y);
    if (op == "|") return Value::integer(x | y);
    if (op == "^") return Value::integer(x ^ y);
    if (y < 0) fail("negative shift count");
    if (op == ">>") return Value::integer(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
    if (y >= 63 || (x != 0 && (std::abs(x) >> (63 - y)) != 0)) return Value::integer(checked(true, 0));
    return Value::integer(static_cast<std::int64_t>(static_cast<std::uint64_t>(x) << y));
  }
  fail("unsupported operator " + op);
}

bool Evaluator::contains(const Value& container, const Value& item) {
  using K = Value::Kind;
  if (container.kind == K::string) {
    if (item.kind != K::string) fail("'in <string>' requires string as left operand, not " + std::string(type_name(item)));
    return container.s->find(*item.s) != std::string::npos;
  }
  if (container.kind == K::list || container.kind == K::tuple)
    return std::any_of(container.items->begin(), container.items->end(), [&](const Value& v) { return equal(v, item); });
  if (container.kind == K::dict)
    return std::any_of(container.dict->begin(), container.dict->end(), [&](const auto& kv) { return equal(kv.first, item); });
  fail("argument of type '" + std::string(type_name(container)) + "' is not iterable");
}

bool Evaluator::compare(const std::string& op, const Value& a, const Value& b) {
  if (op == "==") return equal(a, b);
  if (op == "!=") return !equal(a, b);
  if (op == "in") return contains(b, a);
  if (op == "not in") return !contains(b, a);
  if (op == "is" || op == "is not") {
    // Identity: only meaningful for None and booleans here.
    const bool same = a.kind == b.kind && (a.kind == Value::Kind::none || equal(a, b));
    return op == "is" ? same : !same;
  }
  const int c = compare_values(a, b, op);
  if (op == "<") return c < 0;
  if (op == "<=") return c <= 0;
  if (op == ">") return c > 0;
  return c >= 0;
}

Value Evaluator::call(const Ast& a) {
  const Ast& callee = a.kids[0];
  Keywords keywords;
  // Methods of strings and dicts: obj.method(args)
  if (callee.op == Ast::Op::attribute) {
    Value target = eval(callee.kids[0]);
    if (target.kind == Value::Kind::list && callee.text == "pop") {
      List args = arguments(a, keywords);
      if (!keywords.empty()) fail("pop() takes no keyword arguments");
      return pop(target, args);
    }
    if (target.kind == Value::Kind::string || target.kind == Value::Kind::dict) {
      List args = arguments(a, keywords);
      if (!keywords.empty()) fail(callee.text + "() takes no keyword arguments");
      return method(target, callee.text, args);
    }
    const Value fn = attribute(target, callee.text);
    if (fn.kind != Value::Kind::function || fn.fn >= Builtin::ns_math)
      fail("'" + std::string(type_name(fn)) + "' object is not callable");
    if (fn.fn == Builtin::unsupported) fail(*fn.s + "() is not supported by rmodel");
    List args = arguments(a, keywords);
    return builtin(fn.fn, args, keywords);
  }
  const Value fn = eval(callee);
  if (fn.kind != Value::Kind::function || fn.fn >= Builtin::ns_math)
    fail("'" + std::string(type_name(fn)) + "' object is not callable");
  if (fn.fn == Builtin::unsupported) fail(*fn.s + "() is not supported by rmodel");
  List args = arguments(a, keywords);
  if (callee.op == Ast::Op::name)
    if (const auto warning = deprecation(callee.text))
      if (!is_local(callee.text) && !host_.lookup(callee.text) && host_.global(callee.text))
        host_.report(Severity::warning, *warning);  // as xacro's deprecate() wrapper, at each call
  return builtin(fn.fn, args, keywords);
}

bool Evaluator::is_local(const std::string& n) const {
  return std::any_of(locals_.begin(), locals_.end(), [&](const auto& l) { return l.first == n; });
}

List Evaluator::arguments(const Ast& a, Keywords& keywords) {
  List args;
  args.reserve(a.kids.size() - 1);
  for (std::size_t k = 1; k < a.kids.size(); ++k) {
    if (a.kids[k].op != Ast::Op::keyword) {
      args.push_back(eval(a.kids[k]));
      continue;
    }
    for (const auto& [name, value] : keywords)
      if (name == a.kids[k].text) fail("keyword argument repeated: " + name);
    keywords.emplace_back(a.kids[k].text, eval(a.kids[k].kids[0]));
  }
  return args;
}

List Evaluator::iterate(const Value& v, const char* name) {
  using K = Value::Kind;
  if (v.kind == K::list && v.dotted) {
    List items;
    items.reserve(v.items->size());
    for (const Value& x : *v.items) items.push_back(dotted(x));
    return items;
  }
  if (v.kind == K::list || v.kind == K::tuple || v.kind == K::iterator) return *v.items;
  if (v.kind == K::dict) {
    List keys;
    for (const auto& kv : *v.dict) keys.push_back(kv.first);
    return keys;
  }
  if (v.kind == K::string) {
    List chars;  // Python's characters: UTF-8 sequences
    check_size(v.s->size() * sizeof(Value));
    const std::string& text = *v.s;
    for (std::size_t k = 0; k < text.size();) {
      std::size_t e = k + 1;
      while (e < text.size() && (static_cast<unsigned char>(text[e]) & 0xC0) == 0x80) ++e;
      chars.push_back(Value::string(text.substr(k, e - k)));
      k = e;
    }
    return chars;
  }
  fail(std::string(name) + "(): '" + std::string(type_name(v)) + "' object is not iterable");
}

Value Evaluator::extreme(const List& args, bool want_max, const char* name) {
  if (args.empty()) fail(std::string(name) + " expected at least 1 argument, got 0");
  const List items = args.size() == 1 ? iterate(args[0], name) : args;
  if (items.empty()) fail(std::string(name) + "() arg is an empty sequence");
  std::size_t best = 0;
  for (std::size_t k = 1; k < items.size(); ++k) {
    const int c = compare_values(items[k], items[best], want_max ? ">" : "<");
    if (want_max ? c > 0 : c < 0) best = k;
  }
  return items[best];
}

Value Evaluator::call_value(const Value& fn, List args) {
  if (fn.kind != Value::Kind::function || fn.fn >= Builtin::ns_math)
    fail("'" + std::string(type_name(fn)) + "' object is not callable");
  if (fn.fn == Builtin::unsupported) fail(*fn.s + "() is not supported by rmodel");
  Keywords none;
  return builtin(fn.fn, args, none);
}

Value Evaluator::pop(const Value& target, const List& args) {
  arity(args, 0, 1, "pop");
  // Value::list makes non-const lists, so changing one through the shared pointer is sound.
  List& items = const_cast<List&>(*target.items);
  if (items.empty()) fail("pop from empty list");
  std::int64_t at = -1;
  if (!args.empty()) {
    if (args[0].kind != Value::Kind::integer && args[0].kind != Value::Kind::boolean)
      fail("'" + std::string(type_name(args[0])) + "' object cannot be interpreted as an integer");
    at = args[0].kind == Value::Kind::boolean ? (args[0].b ? 1 : 0) : args[0].i;
  }
  const auto size = static_cast<std::int64_t>(items.size());
  if (at < 0) at += size;
  if (at < 0 || at >= size) fail("pop index out of range");
  Value out = items[static_cast<std::size_t>(at)];
  items.erase(items.begin() + at);
  return out;
}

Value Evaluator::method(const Value& target, const std::string& name, const List& args) {
  using K = Value::Kind;
  auto str_arg = [&](std::size_t k) -> const std::string& {
    if (args[k].kind != K::string) fail(name + "(): argument " + std::to_string(k + 1) + " must be str, not " + std::string(type_name(args[k])));
    return *args[k].s;
  };
  if (target.kind == K::dict) {
    if (name == "get") {
      arity(args, 1, 2, "get");
      for (const auto& [k, v] : *target.dict)
        if (equal(k, args[0])) return v;
      return args.size() == 2 ? args[1] : Value::none();
    }
    if (name == "keys" || name == "values" || name == "items") {
      arity(args, 0, 0, name.c_str());
      List out;
      for (const auto& [k, v] : *target.dict)
        out.push_back(name == "keys" ? k : name == "values" ? v : Value::list({k, v}, true));
      return Value::list(std::move(out));
    }
    // a YAML map's key that happens to be callable-looking: d.key(...) is an error anyway
    return attribute(target, name);
  }
  const std::string& s = *target.s;
  if (name == "upper" || name == "lower") {
    arity(args, 0, 0, name.c_str());
    std::string out = s;
    for (auto& c : out) c = static_cast<char>(name == "upper" ? std::toupper(static_cast<unsigned char>(c)) : std::tolower(static_cast<unsigned char>(c)));
    return Value::string(std::move(out));
  }
  if (name == "strip" || name == "lstrip" || name == "rstrip") {
    arity(args, 0, 1, name.c_str());
    const std::string chars = args.empty() || args[0].kind == K::none ? std::string(" \t\n\r\f\v") : str_arg(0);
    std::size_t b = 0, e = s.size();
    if (name != "rstrip")
      while (b < e && chars.find(s[b]) != std::string::npos) ++b;
    if (name != "lstrip")
      while (e > b && chars.find(s[e - 1]) != std::string::npos) --e;
    return Value::string(s.substr(b, e - b));
  }
  if (name == "startswith" || name == "endswith") {
    arity(args, 1, 1, name.c_str());
    const std::string& p = str_arg(0);
    const bool r = p.size() <= s.size() && (name == "startswith" ? s.compare(0, p.size(), p) == 0
                                                                 : s.compare(s.size() - p.size(), p.size(), p) == 0);
    return Value::boolean(r);
  }
  if (name == "replace") {
    arity(args, 2, 2, "replace");
    const std::string& from = str_arg(0);
    const std::string& to = str_arg(1);
    std::string out;
    if (from.empty()) {
      check_size((s.size() + 1) * to.size() + s.size());
      for (const char c : s) out += to + c;
      out += to;
      return Value::string(std::move(out));
    }
    std::size_t at = 0, found = 0;
    while ((found = s.find(from, at)) != std::string::npos) {
      out.append(s, at, found - at);
      out += to;
      at = found + from.size();
      check_size(out.size());
    }
    out.append(s, at, std::string::npos);
    return Value::string(std::move(out));
  }
  if (name == "split") {
    arity(args, 0, 1, "split");
    List parts;
    if (args.empty() || args[0].kind == K::none) {
      std::size_t k = 0;
      while (k < s.size()) {
        while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
        const std::size_t start = k;
        while (k < s.size() && !std::isspace(static_cast<unsigned char>(s[k]))) ++k;
        if (k > start) parts.push_back(Value::string(s.substr(start, k - start)));
      }
    } else {
      const std::string& sep = str_arg(0);
      if (sep.empty()) fail("empty separator");
      std::size_t at = 0, found = 0;
      while ((found = s.find(sep, at)) != std::string::npos) {
        parts.push_back(Value::string(s.substr(at, found - at)));
        at = found + sep.size();
      }
      parts.push_back(Value::string(s.substr(at)));
    }
    check_size(parts.size() * sizeof(Value));
    return Value::list(std::move(parts));
  }
  if (name == "join") {
    arity(args, 1, 1, "join");
    std::string out;
    bool first = true;
    for (const Value& x : iterate(args[0], "join")) {
      if (x.kind != K::string) fail("join(): sequence item: expected str instance, " + std::string(type_name(x)) + " found");
      if (!first) out += s;
      out += *x.s;
      first = false;
      check_size(out.size());
    }
    return Value::string(std::move(out));
  }
  if (name == "format") return format(s, args);
  fail("'str' object has no attribute '" + name + "'");
}

Value Evaluator::format(const std::string& s, const List& args) {
  std::string out;
  std::size_t auto_index = 0;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const char c = s[k];
    if (c == '}' && k + 1 < s.size() && s[k + 1] == '}') {
      out += '}';
      ++k;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (k + 1 < s.size() && s[k + 1] == '{') {
      out += '{';
      ++k;
      continue;
    }
    const std::size_t close = s.find('}', k);
    if (close == std::string::npos) fail("single '{' encountered in format string");
    const std::string field = s.substr(k + 1, close - k - 1);
    const auto colon = field.find(':');
    const std::string name = field.substr(0, colon);
    const std::string spec = colon == std::string::npos ? std::string() : field.substr(colon + 1);
    std::size_t index = auto_index;
    if (name.empty()) {
      ++auto_index;
    } else {
      const auto i = parse_python_int(name);
      if (!i || *i < 0) fail("format(): only positional fields {} and {N} are supported");
      index = static_cast<std::size_t>(*i);
    }
    if (index >= args.size()) fail("format(): replacement index " + std::to_string(index) + " out of range");
    const Value& v = args[index];
    if (spec.empty()) {
      out += to_text(v);
    } else {
      // Only the printf-like part of the mini-language: [width][.precision][type]
      const char type = spec.back();
      if (std::string_view("fFeEgGd").find(type) == std::string_view::npos || !v.is_number())
        fail("format(): unsupported format specification '" + spec + "'");
      char buf[512];
      const std::string printf_spec = "%" + spec.substr(0, spec.size() - 1);
      if (type == 'd') {
        if (!is_intlike(v)) fail("format(): 'd' needs an integer");
        std::snprintf(buf, sizeof buf, (printf_spec + "lld").c_str(), static_cast<long long>(as_int(v)));
      } else {
        std::snprintf(buf, sizeof buf, (printf_spec + type).c_str(), v.as_double());
      }
      out += buf;
    }
    k = close;
    check_size(out.size());
  }
  return Value::string(std::move(out));
}

int compare_values(const Value& a, const Value& b, const std::string& op) {
  using K = Value::Kind;
  if (a.is_number() && b.is_number()) {
    if (is_intlike(a) && is_intlike(b)) return as_int(a) < as_int(b) ? -1 : as_int(a) > as_int(b) ? 1 : 0;
    const double x = a.as_double(), y = b.as_double();
    if (std::isnan(x) || std::isnan(y)) return op == "<" || op == "<=" ? 1 : -1;  // every comparison false
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a.kind == K::string && b.kind == K::string) return a.s->compare(*b.s) < 0 ? -1 : a.s->compare(*b.s) > 0 ? 1 : 0;
  if ((a.kind == K::list || a.kind == K::tuple) && a.kind == b.kind) {
    const std::size_t n = std::min(a.items->size(), b.items->size());
    for (std::size_t k = 0; k < n; ++k)
      if (!equal((*a.items)[k], (*b.items)[k])) return compare_values((*a.items)[k], (*b.items)[k], op);
    return a.items->size() < b.items->size() ? -1 : a.items->size() > b.items->size() ? 1 : 0;
  }
  fail("'" + op + "' not supported between instances of '" + std::string(type_name(a)) + "' and '" +
       std::string(type_name(b)) + "'");
}

}  // namespace expr

Value evaluate(const Ast& ast, ExpressionHost& host) {
  expr::Evaluator evaluator(host);
  return evaluator.eval(ast);
}

}  // namespace rmodel::xacro
