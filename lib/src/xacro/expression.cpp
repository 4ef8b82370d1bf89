#include "xacro/expression.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numbers>

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

namespace {

[[noreturn]] void fail(std::string message) { throw EvalError{std::move(message)}; }

// ---------------------------------------------------------------- tokens

struct Token {
  enum class Kind : std::uint8_t { end, number, string, name, op } kind = Kind::end;
  std::string text;  ///< name, operator, string contents
  Value number;
};

class Lexer {
public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Token next() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
    Token t;
    if (pos_ >= s_.size()) return t;
    const char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && pos_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_ + 1]))))
      return number();
    if (c == '\'' || c == '"') return string(c);
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      t.kind = Token::Kind::name;
      t.text = std::string(s_.substr(start, pos_ - start));
      // String prefixes are not part of the language; say so rather than "unexpected".
      if (pos_ < s_.size() && (s_[pos_] == '\'' || s_[pos_] == '"') && t.text.size() <= 2)
        fail("string prefixes such as " + t.text + "'...' are not supported");
      return t;
    }
    static constexpr std::string_view three[] = {"//=", "**="};
    static constexpr std::string_view two[] = {"**", "//", "==", "!=", "<=", ">=", "<<", ">>"};
    for (auto op : three)
      if (s_.substr(pos_, 3) == op) fail("assignment is not an expression");
    for (auto op : two)
      if (s_.substr(pos_, 2) == op) {
        pos_ += 2;
        t.kind = Token::Kind::op;
        t.text = std::string(op);
        return t;
      }
    if (std::string_view("+-*/%()[]{},:.<>~&|^").find(c) != std::string_view::npos) {
      ++pos_;
      t.kind = Token::Kind::op;
      t.text = std::string(1, c);
      return t;
    }
    if (c == '=') fail("'=' is assignment; compare with '=='");
    fail(std::string("unexpected character '") + c + "'");
  }

  /// A single '=' comes next (a keyword argument's, after its name): consumes it.
  bool take_keyword_equals() {
    std::size_t at = pos_;
    while (at < s_.size() && (s_[at] == ' ' || s_[at] == '\t' || s_[at] == '\n' || s_[at] == '\r')) ++at;
    if (at >= s_.size() || s_[at] != '=' || (at + 1 < s_.size() && s_[at + 1] == '=')) return false;
    pos_ = at + 1;
    return true;
  }

private:
  Token number() {
    Token t;
    t.kind = Token::Kind::number;
    const std::size_t start = pos_;
    auto digits = [&](auto is_digit) {
      std::string out;
      while (pos_ < s_.size() && (is_digit(s_[pos_]) || (s_[pos_] == '_' && pos_ + 1 < s_.size() && is_digit(s_[pos_ + 1])))) {
        if (s_[pos_] != '_') out += s_[pos_];
        ++pos_;
      }
      return out;
    };
    auto decimal = [](char ch) { return ch >= '0' && ch <= '9'; };
    if (s_[pos_] == '0' && pos_ + 1 < s_.size() && std::string_view("xXoObB").find(s_[pos_ + 1]) != std::string_view::npos) {
      const char base_char = static_cast<char>(std::tolower(static_cast<unsigned char>(s_[pos_ + 1])));
      pos_ += 2;
      const int base = base_char == 'x' ? 16 : base_char == 'o' ? 8 : 2;
      const std::string d = digits([base](char ch) {
        return base == 16 ? std::isxdigit(static_cast<unsigned char>(ch)) != 0 : ch >= '0' && ch < static_cast<char>('0' + base);
      });
      if (d.empty()) fail("invalid number '" + std::string(s_.substr(start, pos_ - start)) + "'");
      std::uint64_t v = 0;
      for (const char ch : d) {
        const int digit = std::isdigit(static_cast<unsigned char>(ch)) ? ch - '0' : std::tolower(static_cast<unsigned char>(ch)) - 'a' + 10;
        if (v > (static_cast<std::uint64_t>(INT64_MAX) - static_cast<std::uint64_t>(digit)) / static_cast<std::uint64_t>(base))
          fail("integer literal too large");
        v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(digit);
      }
      t.number = Value::integer(static_cast<std::int64_t>(v));
      return t;
    }
    std::string text = digits(decimal);
    bool is_real = false;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      is_real = true;
      ++pos_;
      text += '.' + digits(decimal);
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      std::size_t k = pos_ + 1;
      if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
      if (k < s_.size() && decimal(s_[k])) {
        is_real = true;
        text += 'e';
        text += std::string(s_.substr(pos_ + 1, k - pos_ - 1));
        pos_ = k;
        text += digits(decimal);
      }
    }
    if (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      fail("invalid number '" + std::string(s_.substr(start, pos_ + 1 - start)) + "'");
    if (is_real) {
      t.number = Value::real(parse_python_float(text).value_or(0.0));
    } else {
      const auto v = parse_python_int(text);
      if (!v) fail("integer literal too large: " + text);
      t.number = Value::integer(*v);
    }
    return t;
  }

  Token string(char quote) {
    Token t;
    t.kind = Token::Kind::string;
    ++pos_;
    if (s_.substr(pos_, 2) == std::string(2, quote)) fail("triple-quoted strings are not supported");
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string literal");
      const char c = s_[pos_++];
      if (c == quote) break;
      if (c != '\\') {
        t.text += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated string literal");
      const char e = s_[pos_++];
      switch (e) {
        case 'n': t.text += '\n'; break;
        case 't': t.text += '\t'; break;
        case 'r': t.text += '\r'; break;
        case '0': t.text += '\0'; break;
        case '\\': t.text += '\\'; break;
        case '\'': t.text += '\''; break;
        case '"': t.text += '"'; break;
        case '\n': break;
        default: t.text += '\\'; t.text += e;  // Python keeps unknown escapes
      }
    }
    return t;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

// ---------------------------------------------------------------- parser

constexpr int kMaxNesting = 100;

class Parser {
public:
  explicit Parser(std::string_view text) : lexer_(text) { advance(); }

  Ast parse() {
    Ast result = expression_list();
    if (tok_.kind != Token::Kind::end) fail("unexpected " + describe(tok_));
    return result;
  }

private:
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Token::Kind::end: return "end of expression";
      case Token::Kind::number: return "number";
      case Token::Kind::string: return "string";
      default: return "'" + t.text + "'";
    }
  }
  void advance() { tok_ = lexer_.next(); }
  bool is_op(std::string_view op) const { return tok_.kind == Token::Kind::op && tok_.text == op; }
  bool is_name(std::string_view name) const { return tok_.kind == Token::Kind::name && tok_.text == name; }
  void expect(std::string_view op) {
    if (!is_op(op)) fail("expected '" + std::string(op) + "', found " + describe(tok_));
    advance();
  }
  bool at_expression_end() const {
    return tok_.kind == Token::Kind::end || is_op(")") || is_op("]") || is_op("}") || is_op(":");
  }

  struct Depth {
    explicit Depth(int& d) : d_(d) {
      if (++d_ > kMaxNesting) fail("expression nested too deeply");
    }
    ~Depth() { --d_; }
    int& d_;
  };

  static Ast node(Ast::Op op, std::vector<Ast> kids = {}, std::string text = {}) {
    Ast a;
    a.op = op;
    a.kids = std::move(kids);
    a.text = std::move(text);
    return a;
  }

  Ast expression_list() {
    Ast first = expression();
    if (!is_op(",")) return first;
    std::vector<Ast> items;
    items.push_back(std::move(first));
    while (is_op(",")) {
      advance();
      if (at_expression_end()) break;
      items.push_back(expression());
    }
    return node(Ast::Op::tuple, std::move(items));
  }

  Ast expression() {
    Depth depth(depth_);
    if (is_name("lambda")) fail("lambda is not supported");
    Ast value = or_test();
    if (!is_name("if")) return value;
    advance();
    Ast condition = or_test();
    if (!is_name("else")) fail("expected 'else' in a conditional expression");
    advance();
    Ast otherwise = expression();
    return node(Ast::Op::if_else, {std::move(value), std::move(condition), std::move(otherwise)});
  }

  Ast or_test() {
    Ast left = and_test();
    while (is_name("or")) {
      advance();
      left = node(Ast::Op::or_, {std::move(left), and_test()});
    }
    return left;
  }
  Ast and_test() {
    Ast left = not_test();
    while (is_name("and")) {
      advance();
      left = node(Ast::Op::and_, {std::move(left), not_test()});
    }
    return left;
  }
  Ast not_test() {
    if (is_name("not")) {
      Depth depth(depth_);
      advance();
      return node(Ast::Op::not_, {not_test()});
    }
    return comparison();
  }
  std::string comparison_operator() {
    if (tok_.kind == Token::Kind::op &&
        (tok_.text == "<" || tok_.text == ">" || tok_.text == "==" || tok_.text == "!=" || tok_.text == "<=" ||
         tok_.text == ">=")) {
      std::string op = tok_.text;
      advance();
      return op;
    }
    if (is_name("in")) {
      advance();
      return "in";
    }
    if (is_name("not")) {
      advance();
      if (!is_name("in")) fail("expected 'in' after 'not'");
      advance();
      return "not in";
    }
    if (is_name("is")) {
      advance();
      if (is_name("not")) {
        advance();
        return "is not";
      }
      return "is";
    }
    return {};
  }
  Ast comparison() {
    Ast first = bit_or();
    std::string op = comparison_operator();
    if (op.empty()) return first;
    Ast chain = node(Ast::Op::compare, {std::move(first)});
    while (!op.empty()) {
      chain.ops.push_back(op);
      chain.kids.push_back(bit_or());
      op = comparison_operator();
    }
    return chain;
  }
  template <class Next>
  Ast binary_level(std::initializer_list<std::string_view> ops, Next next) {
    Ast left = (this->*next)();
    while (tok_.kind == Token::Kind::op && std::find(ops.begin(), ops.end(), tok_.text) != ops.end()) {
      std::string op = tok_.text;
      advance();
      left = node(Ast::Op::binary, {std::move(left), (this->*next)()}, std::move(op));
    }
    return left;
  }
  Ast bit_or() { return binary_level({"|"}, &Parser::bit_xor); }
  Ast bit_xor() { return binary_level({"^"}, &Parser::bit_and); }
  Ast bit_and() { return binary_level({"&"}, &Parser::shift); }
  Ast shift() { return binary_level({"<<", ">>"}, &Parser::arith); }
  Ast arith() { return binary_level({"+", "-"}, &Parser::term); }
  Ast term() { return binary_level({"*", "/", "//", "%"}, &Parser::factor); }
  Ast factor() {
    if (is_op("-") || is_op("+") || is_op("~")) {
      Depth depth(depth_);
      const std::string op = tok_.text;
      advance();
      Ast operand = factor();
      return node(op == "-" ? Ast::Op::negate : op == "+" ? Ast::Op::plus : Ast::Op::invert, {std::move(operand)});
    }
    return power();
  }
  Ast power() {
    Ast base = primary();
    if (!is_op("**")) return base;
    advance();
    Depth depth(depth_);
    return node(Ast::Op::binary, {std::move(base), factor()}, "**");
  }
  Ast primary() {
    Ast a = atom();
    while (true) {
      if (is_op("(")) {
        advance();
        Ast call = node(Ast::Op::call, {std::move(a)});
        bool keywords = false;
        while (!is_op(")")) {
          // name=value: a keyword argument (dict(a=1), xacro.tokenize(s, sep=':'))
          if (tok_.kind == Token::Kind::name && lexer_.take_keyword_equals()) {
            std::string name = tok_.text;
            advance();
            call.kids.push_back(node(Ast::Op::keyword, {expression()}, std::move(name)));
            keywords = true;
          } else {
            if (keywords) fail("positional argument follows keyword argument");
            call.kids.push_back(expression());
          }
          if (!is_op(",")) break;
          advance();
        }
        expect(")");
        a = std::move(call);
      } else if (is_op("[")) {
        advance();
        a = subscript(std::move(a));
        expect("]");
      } else if (is_op(".")) {
        advance();
        if (tok_.kind != Token::Kind::name) fail("expected a name after '.'");
        Ast attr = node(Ast::Op::attribute, {std::move(a)}, tok_.text);
        advance();
        a = std::move(attr);
      } else {
        return a;
      }
    }
  }
  Ast subscript(Ast target) {
    // a[i] or a[lo:hi] (no step)
    std::optional<Ast> lo, hi;
    if (!is_op(":")) lo = expression();
    if (!is_op(":")) return node(Ast::Op::index, {std::move(target), std::move(*lo)});
    advance();
    if (!is_op("]")) hi = expression();
    if (is_op(":")) fail("slices with a step are not supported");
    Ast s = node(Ast::Op::slice, {std::move(target)});
    s.kids.push_back(lo ? std::move(*lo) : node(Ast::Op::constant));
    s.kids.push_back(hi ? std::move(*hi) : node(Ast::Op::constant));
    return s;
  }
  Ast atom() {
    Depth depth(depth_);
    switch (tok_.kind) {
      case Token::Kind::end: fail("unexpected end of expression");
      case Token::Kind::number: {
        Ast a = node(Ast::Op::constant);
        a.value = tok_.number;
        advance();
        return a;
      }
      case Token::Kind::string: {
        std::string text;
        while (tok_.kind == Token::Kind::string) {  // 'a' 'b' is 'ab', as in Python
          text += tok_.text;
          advance();
        }
        Ast a = node(Ast::Op::constant);
        a.value = Value::string(std::move(text));
        return a;
      }
      case Token::Kind::name: {
        Ast a = node(Ast::Op::constant);
        if (tok_.text == "True" || tok_.text == "False") {
          a.value = Value::boolean(tok_.text == "True");
        } else if (tok_.text == "None") {
          a.value = Value::none();
        } else {
          static constexpr std::string_view keywords[] = {"and", "or", "not", "in", "is", "if", "else", "for",
                                                          "lambda", "import", "def", "class", "return", "yield",
                                                          "while", "with", "del", "global", "pass", "raise"};
          if (std::find(std::begin(keywords), std::end(keywords), tok_.text) != std::end(keywords))
            fail("unexpected '" + tok_.text + "'");
          a = node(Ast::Op::name, {}, tok_.text);
        }
        advance();
        return a;
      }
      case Token::Kind::op: break;
    }
    if (is_op("(")) {
      advance();
      if (is_op(")")) {
        advance();
        return node(Ast::Op::tuple);
      }
      Ast inner = expression();
      if (is_name("for")) fail("generator expressions are not supported; a list comprehension [... for ...] is");
      if (is_op(",")) {
        Ast t = node(Ast::Op::tuple, {std::move(inner)});
        while (is_op(",")) {
          advance();
          if (is_op(")")) break;
          t.kids.push_back(expression());
        }
        inner = std::move(t);
      }
      expect(")");
      return inner;
    }
    if (is_op("[")) {
      advance();
      Ast l = node(Ast::Op::list);
      while (!is_op("]")) {
        l.kids.push_back(expression());
        if (is_name("for")) {
          if (l.kids.size() != 1) fail("unexpected 'for'");
          Ast c = comprehension(std::move(l.kids.front()));
          expect("]");
          return c;
        }
        if (!is_op(",")) break;
        advance();
      }
      expect("]");
      return l;
    }
    if (is_op("{")) {
      advance();
      Ast d = node(Ast::Op::dict);
      while (!is_op("}")) {
        d.kids.push_back(expression());
        if (!is_op(":")) fail("sets are not supported; a dict needs 'key: value'");
        advance();
        d.kids.push_back(expression());
        if (!is_op(",")) break;
        advance();
      }
      expect("}");
      return d;
    }
    fail("unexpected " + describe(tok_));
  }

  /// `for NAME[, NAME...] in ITERABLE [if CONDITION]...` after a list comprehension's
  /// element: kids are the element, the iterable and the conditions. One `for` only
  /// (MoveIt's panda_moveit_config needs no more).
  Ast comprehension(Ast element) {
    advance();  // for
    Ast c = node(Ast::Op::comprehension, {std::move(element)});
    while (true) {
      static constexpr std::string_view keywords[] = {"and", "or", "not", "in", "is", "if", "else", "for",
                                                      "lambda", "True", "False", "None"};
      if (tok_.kind != Token::Kind::name ||
          std::find(std::begin(keywords), std::end(keywords), tok_.text) != std::end(keywords))
        fail("a comprehension's 'for' needs a name, not " + describe(tok_));
      c.ops.push_back(tok_.text);
      advance();
      if (!is_op(",")) break;
      advance();
    }
    if (!is_name("in")) fail("expected 'in' after a comprehension's 'for " + c.ops.front() + "'");
    advance();
    c.kids.push_back(or_test());
    while (is_name("if")) {
      advance();
      c.kids.push_back(or_test());
    }
    if (is_name("for")) fail("a comprehension with a second 'for' is not supported");
    return c;
  }

  Lexer lexer_;
  Token tok_;
  int depth_ = 0;
};

// ---------------------------------------------------------------- builtins

struct GlobalEntry {
  std::string_view name;
  Value value;
};

const std::vector<GlobalEntry>& math_names() {
  static const std::vector<GlobalEntry> names = [] {
    using B = Builtin;
    std::vector<GlobalEntry> v = {
        {"sin", Value::function(B::sin)},       {"cos", Value::function(B::cos)},
        {"tan", Value::function(B::tan)},       {"asin", Value::function(B::asin)},
        {"acos", Value::function(B::acos)},     {"atan", Value::function(B::atan)},
        {"atan2", Value::function(B::atan2)},   {"sinh", Value::function(B::sinh)},
        {"cosh", Value::function(B::cosh)},     {"tanh", Value::function(B::tanh)},
        {"sqrt", Value::function(B::sqrt)},     {"radians", Value::function(B::radians)},
        {"degrees", Value::function(B::degrees)}, {"fabs", Value::function(B::fabs)},
        {"floor", Value::function(B::floor)},   {"ceil", Value::function(B::ceil)},
        {"trunc", Value::function(B::trunc)},   {"pow", Value::function(B::pow)},
        {"log", Value::function(B::log)},       {"log10", Value::function(B::log10)},
        {"log2", Value::function(B::log2)},     {"exp", Value::function(B::exp)},
        {"hypot", Value::function(B::hypot)},   {"fmod", Value::function(B::fmod)},
        {"copysign", Value::function(B::copysign)}, {"isnan", Value::function(B::isnan)},
        {"isinf", Value::function(B::isinf)},   {"isfinite", Value::function(B::isfinite)},
        {"pi", Value::real(std::numbers::pi)},  {"e", Value::real(std::numbers::e)},
        {"tau", Value::real(2 * std::numbers::pi)}, {"inf", Value::real(HUGE_VAL)},
        {"nan", Value::real(std::nan(""))},
    };
    return v;
  }();
  return names;
}

const std::vector<GlobalEntry>& python_names() {
  static const std::vector<GlobalEntry> names = [] {
    using B = Builtin;
    return std::vector<GlobalEntry>{
        {"abs", Value::function(B::abs)},     {"min", Value::function(B::min)},
        {"max", Value::function(B::max)},     {"round", Value::function(B::round)},
        {"int", Value::function(B::int_)},    {"float", Value::function(B::float_)},
        {"str", Value::function(B::str_)},    {"bool", Value::function(B::bool_)},
        {"len", Value::function(B::len)},     {"list", Value::function(B::list)},
        {"tuple", Value::function(B::tuple)}, {"dict", Value::function(B::dict)},
        {"sorted", Value::function(B::sorted)}, {"range", Value::function(B::range)},
        {"sum", Value::function(B::sum)},     {"any", Value::function(B::any)},
        {"all", Value::function(B::all)},
    };
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

// ---------------------------------------------------------------- evaluation

std::int64_t as_int(const Value& v) { return v.kind == Value::Kind::integer ? v.i : static_cast<std::int64_t>(v.b); }
bool is_intlike(const Value& v) { return v.kind == Value::Kind::integer || v.kind == Value::Kind::boolean; }

std::int64_t checked(bool overflow, std::int64_t result) {
  if (overflow) fail("integer overflow (xacro here computes with 64-bit integers)");
  return result;
}
std::int64_t checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  const bool overflow = __builtin_add_overflow(a, b, &r);
  return checked(overflow, r);
}
std::int64_t checked_sub(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  const bool overflow = __builtin_sub_overflow(a, b, &r);
  return checked(overflow, r);
}
std::int64_t checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  const bool overflow = __builtin_mul_overflow(a, b, &r);
  return checked(overflow, r);
}

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

int compare_values(const Value& a, const Value& b, const std::string& op);

class Evaluator {
public:
  explicit Evaluator(ExpressionHost& host) : host_(host) {}

  Value eval(const Ast& a) {
    host_.charge(1);
    switch (a.op) {
      case Ast::Op::constant: return a.value;
      case Ast::Op::name: return name(a.text);
      case Ast::Op::attribute: return attribute(eval(a.kids[0]), a.text);
      case Ast::Op::index: return index(eval(a.kids[0]), eval(a.kids[1]));
      case Ast::Op::slice: return slice(eval(a.kids[0]), a.kids[1], a.kids[2]);
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

private:
  Value name(const std::string& n) {
    // A comprehension's names shadow properties and globals, the innermost first (Python 3
    // gives a comprehension its own scope).
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
      if (it->first == n) return it->second;
    if (auto v = host_.lookup(n)) return *v;
    if (auto g = global_name(n)) return *g;
    fail(host_.unknown_name_message(n));
  }

  /// [element for names in iterable if condition...]: the iterable is evaluated before the
  /// names exist, as in Python; every element and condition is charged as any expression is.
  Value comprehension(const Ast& a) {
    using K = Value::Kind;
    const Value source = eval(a.kids[1]);
    if (source.kind != K::list && source.kind != K::tuple && source.kind != K::dict && source.kind != K::string)
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

  Value attribute(const Value& target, const std::string& attr) {
    using K = Value::Kind;
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
    if (target.kind == K::dict) {
      for (const auto& [k, v] : *target.dict)
        if (k.kind == K::string && *k.s == attr) return v;
      fail("the dictionary has no key '" + attr + "'");
    }
    fail("'" + std::string(type_name(target)) + "' object has no attribute '" + attr + "'");
  }

  static std::size_t normalise_index(std::int64_t i, std::size_t size, const char* what) {
    const auto n = static_cast<std::int64_t>(size);
    if (i < 0) i += n;
    if (i < 0 || i >= n) fail(std::string(what) + " index out of range");
    return static_cast<std::size_t>(i);
  }

  Value index(const Value& target, const Value& key) {
    using K = Value::Kind;
    if (target.kind == K::dict) {
      for (const auto& [k, v] : *target.dict)
        if (equal(k, key)) return v;
      fail("the dictionary has no key " + to_repr(key));
    }
    if (!is_intlike(key)) fail(std::string(type_name(target)) + " indices must be integers, not " + std::string(type_name(key)));
    if (target.kind == K::list || target.kind == K::tuple)
      return (*target.items)[normalise_index(as_int(key), target.items->size(), type_name(target) == "list" ? "list" : "tuple")];
    if (target.kind == K::string)
      return Value::string(std::string(1, (*target.s)[normalise_index(as_int(key), target.s->size(), "string")]));
    fail("'" + std::string(type_name(target)) + "' object is not subscriptable");
  }

  Value slice(const Value& target, const Ast& lo_ast, const Ast& hi_ast) {
    using K = Value::Kind;
    const std::size_t size = target.kind == K::string ? target.s->size()
                             : (target.kind == K::list || target.kind == K::tuple) ? target.items->size()
                                                                                    : 0;
    if (target.kind != K::string && target.kind != K::list && target.kind != K::tuple)
      fail("'" + std::string(type_name(target)) + "' object is not subscriptable");
    const auto n = static_cast<std::int64_t>(size);
    auto bound = [&](const Ast& ast, std::int64_t fallback) {
      const Value v = eval(ast);
      if (v.kind == K::none) return fallback;
      if (!is_intlike(v)) fail("slice indices must be integers");
      std::int64_t i = as_int(v);
      if (i < 0) i = std::max<std::int64_t>(0, i + n);
      return std::min(i, n);
    };
    const std::int64_t lo = bound(lo_ast, 0);
    const std::int64_t hi = std::max(lo, bound(hi_ast, n));
    if (target.kind == K::string)
      return Value::string(target.s->substr(static_cast<std::size_t>(lo), static_cast<std::size_t>(hi - lo)));
    return Value::list(List(target.items->begin() + lo, target.items->begin() + hi), target.kind == K::tuple);
  }

  void check_size(std::size_t bytes) {
    if (bytes > host_.value_bytes_limit())
      fail("a value of " + std::to_string(bytes) + " bytes exceeds the limit of " +
           std::to_string(host_.value_bytes_limit()));
    host_.charge(bytes / 64);
  }

  Value repeat(const Value& seq, std::int64_t times) {
    using K = Value::Kind;
    if (times <= 0) return seq.kind == K::string ? Value::string("") : Value::list({}, seq.kind == K::tuple);
    const std::size_t unit = seq.kind == K::string ? seq.s->size() : seq.items->size() * sizeof(Value);
    if (unit != 0 && static_cast<std::uint64_t>(times) > host_.value_bytes_limit() / unit + 1)
      check_size(std::numeric_limits<std::size_t>::max());
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

  Value percent_format(const std::string& format, const Value& args) {
    List values = args.kind == Value::Kind::tuple ? *args.items : List{args};
    std::size_t next = 0;
    std::string out;
    for (std::size_t k = 0; k < format.size(); ++k) {
      if (format[k] != '%') {
        out += format[k];
        continue;
      }
      std::size_t j = k + 1;
      while (j < format.size() && std::string_view("-+ #0123456789.").find(format[j]) != std::string_view::npos) ++j;
      if (j >= format.size()) fail("incomplete format");
      const char conv = format[j];
      const std::string spec = format.substr(k, j - k);
      k = j;
      if (conv == '%') {
        out += '%';
        continue;
      }
      if (next >= values.size()) fail("not enough arguments for format string");
      const Value& v = values[next++];
      char buf[512];
      if (conv == 's' || conv == 'r') {
        const std::string text = conv == 's' ? to_text(v) : to_repr(v);
        std::snprintf(buf, sizeof buf, (spec + "s").c_str(), text.c_str());
        out += text.size() + 64 > sizeof buf ? text : std::string(buf);
      } else if (conv == 'd' || conv == 'i') {
        if (!v.is_number()) fail("%d format: a number is required, not " + std::string(type_name(v)));
        const long long i = is_intlike(v) ? as_int(v) : static_cast<long long>(std::trunc(v.d));
        std::snprintf(buf, sizeof buf, (spec + "lld").c_str(), i);
        out += buf;
      } else if (std::string_view("feEgG").find(conv) != std::string_view::npos) {
        if (!v.is_number()) fail(std::string("%") + conv + " format: a number is required, not " + std::string(type_name(v)));
        std::snprintf(buf, sizeof buf, (spec + conv).c_str(), v.as_double());
        out += buf;
      } else {
        fail(std::string("unsupported format character '") + conv + "'");
      }
    }
    if (next < values.size()) fail("not all arguments converted during string formatting");
    check_size(out.size());
    return Value::string(std::move(out));
  }

  Value binary(const std::string& op, const Value& a, const Value& b) {
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

  bool contains(const Value& container, const Value& item) {
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

  bool compare(const std::string& op, const Value& a, const Value& b) {
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

  // -- calls
  Value call(const Ast& a) {
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
      if (fn.kind != Value::Kind::function) fail("'" + std::string(type_name(fn)) + "' object is not callable");
      List args = arguments(a, keywords);
      return builtin(fn.fn, args, keywords);
    }
    const Value fn = eval(callee);
    if (fn.kind != Value::Kind::function || fn.fn >= Builtin::ns_math)
      fail("'" + std::string(type_name(fn)) + "' object is not callable");
    List args = arguments(a, keywords);
    return builtin(fn.fn, args, keywords);
  }

  /// Keyword arguments of a call, in order.
  using Keywords = std::vector<std::pair<std::string, Value>>;

  List arguments(const Ast& a, Keywords& keywords) {
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

  /// A parameter of a function that takes keywords: its name and its default, if any.
  struct Parameter {
    const char* name;
    std::optional<Value> fallback;
  };
  /// Binds the keyword arguments to their positional places, as Python binds
  /// `f(x, skip_empty=False)` to f(s, sep=',; ', skip_empty=True): a place left out before
  /// a given one takes its default. Any other keyword is an error.
  static void bind_keywords(List& args, Keywords& keywords, const char* name, const std::vector<Parameter>& parameters) {
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

  static void arity(const List& args, std::size_t lo, std::size_t hi, const char* name) {
    if (args.size() < lo || args.size() > hi) {
      const std::string expected = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
      fail(std::string(name) + "() takes " + expected + " argument" + (hi == 1 ? "" : "s") + " (" +
           std::to_string(args.size()) + " given)");
    }
  }
  static double number(const Value& v, const char* name) {
    if (!v.is_number()) fail(std::string(name) + "(): must be a number, not " + std::string(type_name(v)));
    return v.as_double();
  }
  static Value math_result(double r, const char* name) {
    (void)name;
    if (std::isnan(r)) fail("math domain error");
    if (std::isinf(r)) fail("math range error");
    return Value::real(r);
  }
  static Value to_integer(double r, const char* what) {
    if (std::isnan(r)) fail(std::string("cannot convert float NaN to integer (") + what + ")");
    if (std::isinf(r)) fail(std::string("cannot convert float infinity to integer (") + what + ")");
    if (r >= 9.2233720368547758e18 || r < -9.2233720368547758e18) fail("integer overflow (xacro here computes with 64-bit integers)");
    return Value::integer(static_cast<std::int64_t>(r));
  }
  List iterate(const Value& v, const char* name) {
    using K = Value::Kind;
    if (v.kind == K::list || v.kind == K::tuple) return *v.items;
    if (v.kind == K::dict) {
      List keys;
      for (const auto& kv : *v.dict) keys.push_back(kv.first);
      return keys;
    }
    if (v.kind == K::string) {
      List chars;
      for (const char c : *v.s) chars.push_back(Value::string(std::string(1, c)));
      check_size(v.s->size() * sizeof(Value));
      return chars;
    }
    fail(std::string(name) + "(): '" + std::string(type_name(v)) + "' object is not iterable");
  }

  Value extreme(const List& args, bool want_max, const char* name) {
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

  Value builtin(Builtin f, List& args, Keywords& keywords) {
    using B = Builtin;
    using K = Value::Kind;
    if (!keywords.empty()) {
      switch (f) {
        case B::dict: {
          // dict(pairs, **kwargs): the pairs, then each keyword as d['name'] = value.
          Keywords named = std::move(keywords);
          keywords.clear();
          const Value base = builtin(f, args, keywords);
          Dict d = *base.dict;
          for (auto& [name, value] : named) set_item(d, Value::string(name), std::move(value));
          return Value::dictionary(std::move(d));
        }
        case B::tokenize:
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
        default: fail("this function takes no keyword arguments ('" + keywords.front().first + "=' given)");
      }
    }
    auto unary = [&](const char* name, double (*fn)(double)) {
      arity(args, 1, 1, name);
      return math_result(fn(number(args[0], name)), name);
    };
    switch (f) {
      case B::sin: return unary("sin", [](double x) { return std::isinf(x) ? std::nan("") : std::sin(x); });
      case B::cos: return unary("cos", [](double x) { return std::isinf(x) ? std::nan("") : std::cos(x); });
      case B::tan: return unary("tan", [](double x) { return std::isinf(x) ? std::nan("") : std::tan(x); });
      case B::asin: return unary("asin", [](double x) { return std::asin(x); });
      case B::acos: return unary("acos", [](double x) { return std::acos(x); });
      case B::atan: {
        arity(args, 1, 1, "atan");
        return Value::real(std::atan(number(args[0], "atan")));
      }
      case B::sinh: return unary("sinh", [](double x) { return std::sinh(x); });
      case B::cosh: return unary("cosh", [](double x) { return std::cosh(x); });
      case B::tanh: return unary("tanh", [](double x) { return std::tanh(x); });
      case B::sqrt: return unary("sqrt", [](double x) { return x < 0 ? std::nan("") : std::sqrt(x); });
      case B::exp: return unary("exp", [](double x) { return std::exp(x); });
      case B::radians: {
        arity(args, 1, 1, "radians");
        return Value::real(number(args[0], "radians") * (std::numbers::pi / 180.0));
      }
      case B::degrees: {
        arity(args, 1, 1, "degrees");
        return Value::real(number(args[0], "degrees") * (180.0 / std::numbers::pi));
      }
      case B::fabs: {
        arity(args, 1, 1, "fabs");
        return Value::real(std::fabs(number(args[0], "fabs")));
      }
      case B::floor:
      case B::ceil:
      case B::trunc: {
        const char* name = f == B::floor ? "floor" : f == B::ceil ? "ceil" : "trunc";
        arity(args, 1, 1, name);
        if (is_intlike(args[0])) return Value::integer(as_int(args[0]));
        const double x = number(args[0], name);
        return to_integer(f == B::floor ? std::floor(x) : f == B::ceil ? std::ceil(x) : std::trunc(x), name);
      }
      case B::pow: {
        arity(args, 2, 2, "pow");
        const double x = number(args[0], "pow"), y = number(args[1], "pow");
        if (x == 0 && y < 0) fail("math domain error");
        if (x < 0 && std::isfinite(y) && y != std::floor(y)) fail("math domain error");
        const double r = std::pow(x, y);
        if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) fail("math range error");
        return Value::real(r);
      }
      case B::atan2: {
        arity(args, 2, 2, "atan2");
        return Value::real(std::atan2(number(args[0], "atan2"), number(args[1], "atan2")));
      }
      case B::hypot: {
        arity(args, 2, 2, "hypot");
        return Value::real(std::hypot(number(args[0], "hypot"), number(args[1], "hypot")));
      }
      case B::fmod: {
        arity(args, 2, 2, "fmod");
        const double x = number(args[0], "fmod"), y = number(args[1], "fmod");
        if (y == 0 || std::isinf(x)) fail("math domain error");
        return Value::real(std::fmod(x, y));
      }
      case B::copysign: {
        arity(args, 2, 2, "copysign");
        return Value::real(std::copysign(number(args[0], "copysign"), number(args[1], "copysign")));
      }
      case B::log: {
        arity(args, 1, 2, "log");
        const double x = number(args[0], "log");
        if (x <= 0) fail("math domain error");
        if (args.size() == 1) return Value::real(std::log(x));
        const double base = number(args[1], "log");
        if (base <= 0 || base == 1) fail(base == 1 ? "float division by zero" : "math domain error");
        return Value::real(std::log(x) / std::log(base));
      }
      case B::log10:
      case B::log2: {
        const char* name = f == B::log10 ? "log10" : "log2";
        arity(args, 1, 1, name);
        const double x = number(args[0], name);
        if (x <= 0) fail("math domain error");
        return Value::real(f == B::log10 ? std::log10(x) : std::log2(x));
      }
      case B::isnan:
      case B::isinf:
      case B::isfinite: {
        arity(args, 1, 1, "isnan");
        const double x = number(args[0], "isnan");
        return Value::boolean(f == B::isnan ? std::isnan(x) : f == B::isinf ? std::isinf(x) : std::isfinite(x));
      }
      case B::abs: {
        arity(args, 1, 1, "abs");
        if (is_intlike(args[0])) return Value::integer(checked(as_int(args[0]) == INT64_MIN, std::abs(as_int(args[0]))));
        return Value::real(std::fabs(number(args[0], "abs")));
      }
      case B::min: return extreme(args, false, "min");
      case B::max: return extreme(args, true, "max");
      case B::round: {
        arity(args, 1, 2, "round");
        const Value& x = args[0];
        if (args.size() == 1 || args[1].kind == K::none) {
          if (is_intlike(x)) return Value::integer(as_int(x));
          return to_integer(python_round(number(x, "round"), 0), "round");
        }
        if (!is_intlike(args[1])) fail("round(): ndigits must be an integer");
        const auto n = static_cast<int>(std::clamp<std::int64_t>(as_int(args[1]), -400, 400));
        if (is_intlike(x)) {
          if (n >= 0) return Value::integer(as_int(x));
          return to_integer(python_round(static_cast<double>(as_int(x)), n), "round");
        }
        return Value::real(python_round(number(x, "round"), n));
      }
      case B::int_: {
        arity(args, 0, 1, "int");
        if (args.empty()) return Value::integer(0);
        const Value& x = args[0];
        if (is_intlike(x)) return Value::integer(as_int(x));
        if (x.kind == K::real) return to_integer(std::trunc(x.d), "int");
        if (x.kind == K::string) {
          if (const auto i = parse_python_int(*x.s)) return Value::integer(*i);
          fail("invalid literal for int() with base 10: " + to_repr(x));
        }
        fail("int() argument must be a string or a number, not '" + std::string(type_name(x)) + "'");
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
        fail("float() argument must be a string or a number, not '" + std::string(type_name(x)) + "'");
      }
      case B::str_: {
        arity(args, 0, 1, "str");
        return Value::string(args.empty() ? std::string() : to_text(args[0]));
      }
      case B::bool_: {
        arity(args, 0, 1, "bool");
        return Value::boolean(!args.empty() && truthy(args[0]));
      }
      case B::len: {
        arity(args, 1, 1, "len");
        const Value& x = args[0];
        if (x.kind == K::string) return Value::integer(static_cast<std::int64_t>(x.s->size()));
        if (x.kind == K::list || x.kind == K::tuple) return Value::integer(static_cast<std::int64_t>(x.items->size()));
        if (x.kind == K::dict) return Value::integer(static_cast<std::int64_t>(x.dict->size()));
        fail("object of type '" + std::string(type_name(x)) + "' has no len()");
      }
      case B::list:
      case B::tuple: {
        arity(args, 0, 1, f == B::list ? "list" : "tuple");
        return Value::list(args.empty() ? List{} : iterate(args[0], "list"), f == B::tuple);
      }
      case B::dict: {
        arity(args, 0, 1, "dict");
        if (args.empty()) return Value::dictionary({});
        if (args[0].kind == K::dict) return args[0];
        Dict d;
        for (const Value& pair : iterate(args[0], "dict")) {
          if ((pair.kind != K::list && pair.kind != K::tuple) || pair.items->size() != 2)
            fail("dict(): each element must be a pair");
          set_item(d, (*pair.items)[0], (*pair.items)[1]);
        }
        return Value::dictionary(std::move(d));
      }
      case B::sorted: {
        arity(args, 1, 1, "sorted");
        List items = iterate(args[0], "sorted");
        std::stable_sort(items.begin(), items.end(),
                         [](const Value& x, const Value& y) { return compare_values(x, y, "<") < 0; });
        return Value::list(std::move(items));
      }
      case B::range: {
        arity(args, 1, 3, "range");
        for (const auto& x : args)
          if (!is_intlike(x)) fail("range(): arguments must be integers, not " + std::string(type_name(x)));
        const std::int64_t start = args.size() == 1 ? 0 : as_int(args[0]);
        const std::int64_t stop = args.size() == 1 ? as_int(args[0]) : as_int(args[1]);
        const std::int64_t step = args.size() == 3 ? as_int(args[2]) : 1;
        if (step == 0) fail("range() arg 3 must not be zero");
        const long double count_ld = std::max<long double>(
            0, std::ceil((static_cast<long double>(stop) - static_cast<long double>(start)) / static_cast<long double>(step)));
        if (count_ld * sizeof(Value) > static_cast<long double>(host_.value_bytes_limit()))
          check_size(std::numeric_limits<std::size_t>::max());
        const auto count = static_cast<std::size_t>(count_ld);
        check_size(count * sizeof(Value));
        List items;
        items.reserve(count);
        for (std::size_t k = 0; k < count; ++k) items.push_back(Value::integer(start + static_cast<std::int64_t>(k) * step));
        return Value::list(std::move(items));
      }
      case B::sum: {
        arity(args, 1, 2, "sum");
        Value total = args.size() == 2 ? args[1] : Value::integer(0);
        for (const Value& x : iterate(args[0], "sum")) total = binary("+", total, x);
        return total;
      }
      case B::any:
      case B::all: {
        arity(args, 1, 1, f == B::any ? "any" : "all");
        const List items = iterate(args[0], "any");
        const bool want = f == B::any;
        for (const Value& x : items)
          if (truthy(x) == want) return Value::boolean(want);
        return Value::boolean(!want);
      }
      case B::load_yaml: {
        arity(args, 1, 1, "load_yaml");
        if (args[0].kind != K::string) fail("load_yaml(): the file name must be a string");
        return host_.load_yaml(*args[0].s);
      }
      case B::arg: {
        arity(args, 1, 1, "arg");
        if (args[0].kind != K::string) fail("arg(): the argument name must be a string");
        return literal(host_.arg(*args[0].s));  // roslaunch's arg() converts "2" to 2
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
        // A dict here is read with dotted access already (d.key), as xacro's wrapper gives.
        arity(args, 1, 1, "dotify");
        if (args[0].kind != K::dict) fail("dotify(): the argument must be a dict, not " + std::string(type_name(args[0])));
        return args[0];
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
      case B::ns_math:
      case B::ns_python:
      case B::ns_xacro: break;
    }
    fail("not callable");
  }

  /// list.pop([i]): removes and gives the item, changing the list in place for every value
  /// sharing it, as Python does. MoveIt's panda_moveit_config walks a list with it in a
  /// recursive macro whose parameter forwards (^) the same list to the next call, so a copy
  /// would never end. Lists are shared where Python shares them (properties, parameters) and
  /// made new where Python makes new ones (literals, list(), slices, +, load_yaml).
  Value pop(const Value& target, const List& args) {
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

  Value method(const Value& target, const std::string& name, const List& args) {
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

  Value format(const std::string& s, const List& args) {
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

  ExpressionHost& host_;
  std::vector<std::pair<std::string, Value>> locals_;  ///< the names of the comprehensions being evaluated
};

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

}  // namespace

std::shared_ptr<const Ast> parse_expression(std::string_view text) {
  Parser parser(text);
  return std::make_shared<const Ast>(parser.parse());
}

Value evaluate(const Ast& ast, ExpressionHost& host) {
  Evaluator evaluator(host);
  return evaluator.eval(ast);
}

std::optional<Value> global_name(std::string_view name) {
  if (name == "math") return Value::function(Builtin::ns_math);
  if (name == "python") return Value::function(Builtin::ns_python);
  if (name == "xacro") return Value::function(Builtin::ns_xacro);
  if (name == "load_yaml") return Value::function(Builtin::load_yaml);
  if (auto v = find_in(math_names(), name)) return v;
  return find_in(python_names(), name);
}

const std::vector<std::string>& global_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out = {"math", "python", "xacro", "load_yaml", "True", "False", "None"};
    for (const auto& e : math_names()) out.emplace_back(e.name);
    for (const auto& e : python_names()) out.emplace_back(e.name);
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
