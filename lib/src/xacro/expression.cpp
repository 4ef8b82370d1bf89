#include "xacro/expression.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numbers>
#include <numeric>

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

/// UTF-8 of the code point `c` (at most U+10FFFF).
void append_utf8(std::string& out, std::uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

/// Python's tokens, as compile(..., "eval") reads them (xacro strips the text first).
class Lexer {
public:
  explicit Lexer(std::string_view s) : s_(s) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    while (!s_.empty() && space(s_.front())) s_.remove_prefix(1);
    while (!s_.empty() && space(s_.back())) s_.remove_suffix(1);
  }

  Token next() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\f') {
        ++pos_;
      } else if (c == '\n' || c == '\r') {
        // a line end is the end of the expression outside brackets
        if (brackets_ == 0) fail("invalid syntax: a line end outside brackets");
        ++pos_;
      } else if (c == '\\' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '\n' || s_[pos_ + 1] == '\r')) {
        pos_ += 2;  // an explicit line joining
      } else {
        break;
      }
    }
    Token t;
    if (pos_ >= s_.size()) return t;
    const char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && pos_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_ + 1]))))
      return number();
    if (c == '\'' || c == '"') return string(c, false, false);
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      t.kind = Token::Kind::name;
      t.text = std::string(s_.substr(start, pos_ - start));
      if (pos_ < s_.size() && (s_[pos_] == '\'' || s_[pos_] == '"') && t.text.size() <= 2) {
        std::string prefix = t.text;
        for (auto& ch : prefix) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        const bool raw = prefix.find('r') != std::string::npos;
        if (prefix == "u" || prefix == "r") return string(s_[pos_], raw, false);
        if (prefix == "f" || prefix == "fr" || prefix == "rf") return string(s_[pos_], raw, true);
        if (prefix == "b" || prefix == "br" || prefix == "rb")
          fail("bytes literals (" + t.text + "'...') are not supported by rmodel");
      }
      return t;
    }
    static constexpr std::string_view three[] = {"//=", "**=", ">>=", "<<="};
    static constexpr std::string_view two[] = {"**", "//", "==", "!=", "<=", ">=", "<<", ">>"};
    for (auto op : three)
      if (s_.substr(pos_, 3) == op) fail("assignment is not an expression");
    if (s_.substr(pos_, 2) == ":=") fail("assignment expressions (:=) are not supported by rmodel");
    for (auto op : two)
      if (s_.substr(pos_, 2) == op) {
        pos_ += 2;
        t.kind = Token::Kind::op;
        t.text = std::string(op);
        return t;
      }
    if (std::string_view("+-*/%()[]{},:.<>~&|^").find(c) != std::string_view::npos) {
      ++pos_;
      if (c == '(' || c == '[' || c == '{') ++brackets_;
      if ((c == ')' || c == ']' || c == '}') && brackets_ > 0) --brackets_;
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
      if (pos_ < s_.size() && s_[pos_] == '_') ++pos_;  // 0x_1f
      const int base = base_char == 'x' ? 16 : base_char == 'o' ? 8 : 2;
      const std::string d = digits([base](char ch) {
        return base == 16 ? std::isxdigit(static_cast<unsigned char>(ch)) != 0 : ch >= '0' && ch < static_cast<char>('0' + base);
      });
      if (d.empty() || (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')))
        fail("invalid number '" + std::string(s_.substr(start, pos_ + 1 - start)) + "'");
      std::uint64_t v = 0;
      for (const char ch : d) {
        const int digit = std::isdigit(static_cast<unsigned char>(ch)) ? ch - '0' : std::tolower(static_cast<unsigned char>(ch)) - 'a' + 10;
        if (v > (static_cast<std::uint64_t>(INT64_MAX) - static_cast<std::uint64_t>(digit)) / static_cast<std::uint64_t>(base))
          fail("integer literal too large (xacro here computes with 64-bit integers)");
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
    if (pos_ < s_.size() && (s_[pos_] == 'j' || s_[pos_] == 'J')) fail("complex numbers are not supported by rmodel");
    if (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      fail("invalid number '" + std::string(s_.substr(start, pos_ + 1 - start)) + "'");
    if (is_real) {
      t.number = Value::real(parse_python_float(text).value_or(0.0));
    } else {
      if (text.size() > 1 && text[0] == '0' && text.find_first_not_of('0') != std::string::npos)
        fail("leading zeros in decimal integer literals are not permitted (" + text + "; write 0o" + text.substr(1) + " for octal)");
      const auto v = parse_python_int(text);
      if (!v) fail("integer literal too large (xacro here computes with 64-bit integers): " + text);
      t.number = Value::integer(*v);
    }
    return t;
  }

  /// A string literal from the quote at pos_: 'x', "x", triple-quoted; raw (r'') keeps its
  /// backslashes; an f-string (f'') may hold no replacement field here (an expression cannot
  /// hold '}'), so only its doubled braces mean anything.
  Token string(char quote, bool raw, bool formatted) {
    Token t;
    t.kind = Token::Kind::string;
    const bool triple = s_.substr(pos_, 3) == std::string(3, quote);
    pos_ += triple ? 3 : 1;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string literal");
      const char c = s_[pos_];
      if (c == quote && (!triple || s_.substr(pos_, 3) == std::string(3, quote))) {
        pos_ += triple ? 3 : 1;
        break;
      }
      ++pos_;
      if (!triple && (c == '\n' || c == '\r')) fail("unterminated string literal");
      if (formatted && (c == '{' || c == '}')) {
        if (pos_ < s_.size() && s_[pos_] == c) {
          t.text += c;
          ++pos_;
          continue;
        }
        fail(c == '{' ? "f-string: expecting '}'" : "f-string: single '}' is not allowed");
      }
      if (c != '\\') {
        t.text += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated string literal");
      const char e = s_[pos_++];
      if (raw) {  // the backslash stays, and the quote after it does not end the string
        t.text += '\\';
        t.text += e;
        continue;
      }
      auto hex_digits = [&](int count) {
        std::uint32_t v = 0;
        for (int k = 0; k < count; ++k) {
          if (pos_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[pos_])))
            fail(std::string("(unicode error) truncated \\") + e + " escape");
          const char h = static_cast<char>(std::tolower(static_cast<unsigned char>(s_[pos_++])));
          v = v * 16 + static_cast<std::uint32_t>(h <= '9' ? h - '0' : h - 'a' + 10);
        }
        return v;
      };
      switch (e) {
        case 'n': t.text += '\n'; break;
        case 't': t.text += '\t'; break;
        case 'r': t.text += '\r'; break;
        case 'a': t.text += '\a'; break;
        case 'b': t.text += '\b'; break;
        case 'f': t.text += '\f'; break;
        case 'v': t.text += '\v'; break;
        case '\\': t.text += '\\'; break;
        case '\'': t.text += '\''; break;
        case '"': t.text += '"'; break;
        case '\n': break;
        case '\r':
          if (pos_ < s_.size() && s_[pos_] == '\n') ++pos_;
          break;
        case 'x': append_utf8(t.text, hex_digits(2)); break;
        case 'u': append_utf8(t.text, hex_digits(4)); break;
        case 'U': {
          const std::uint32_t v = hex_digits(8);
          if (v > 0x10FFFF) fail("(unicode error) illegal Unicode character");
          append_utf8(t.text, v);
          break;
        }
        case 'N': fail("\\N{...} escapes are not supported by rmodel");
        default:
          if (e >= '0' && e <= '7') {  // up to three octal digits
            std::uint32_t v = static_cast<std::uint32_t>(e - '0');
            for (int k = 0; k < 2 && pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '7'; ++k)
              v = v * 8 + static_cast<std::uint32_t>(s_[pos_++] - '0');
            append_utf8(t.text, v);
          } else {
            t.text += '\\';  // Python keeps unknown escapes
            t.text += e;
          }
      }
    }
    return t;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  int brackets_ = 0;
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
    // a[i], or a slice a[lo:hi] and a[lo:hi:step], any part left out
    std::optional<Ast> lo, hi, step;
    if (!is_op(":")) lo = expression();
    if (!is_op(":")) return node(Ast::Op::index, {std::move(target), std::move(*lo)});
    advance();
    if (!is_op("]") && !is_op(":")) hi = expression();
    if (is_op(":")) {
      advance();
      if (!is_op("]")) step = expression();
    }
    Ast s = node(Ast::Op::slice, {std::move(target)});
    s.kids.push_back(lo ? std::move(*lo) : node(Ast::Op::constant));
    s.kids.push_back(hi ? std::move(*hi) : node(Ast::Op::constant));
    s.kids.push_back(step ? std::move(*step) : node(Ast::Op::constant));
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

private:
  Value name(const std::string& n) {
    // A comprehension's names shadow properties and globals, the innermost first (Python 3
    // gives a comprehension its own scope).
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
      if (it->first == n) return it->second;
    if (n.rfind("__", 0) == 0) fail("Use of invalid name(s): " + n);
    if (auto v = host_.lookup(n)) return *v;
    if (auto g = host_.global(n)) return *g;
    fail(host_.unknown_name_message(n));
  }

  /// [element for names in iterable if condition...]: the iterable is evaluated before the
  /// names exist, as in Python; every element and condition is charged as any expression is.
  Value comprehension(const Ast& a) {
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

  Value attribute(const Value& target, const std::string& attr) {
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

  /// a[lo:hi:step] as Python's PySlice_AdjustIndices takes it.
  Value slice(const Value& target, const Ast& lo_ast, const Ast& hi_ast, const Ast& step_ast) {
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

  void check_size(std::size_t bytes) {
    if (bytes > host_.value_bytes_limit()) too_large("this value", static_cast<long double>(bytes));
    host_.charge(bytes / 64);
  }
  static std::string format_count(long double n) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0Lf", n);
    return buf;
  }
  /// A value over the limit, before it is made: what asked for it and how big it would be.
  [[noreturn]] void too_large(const std::string& what, long double bytes) {
    fail(what + " would make a value of " + format_count(bytes) + " bytes; the limit is " +
         std::to_string(host_.value_bytes_limit()) + " bytes (XacroLimits::value_bytes)");
  }

  Value repeat(const Value& seq, std::int64_t times) {
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

  /// `text` padded to `width` characters (UTF-8 sequences), on the left unless `left`.
  static std::string pad(std::string text, std::int64_t width, bool left) {
    std::int64_t length = 0;
    for (const char c : text)
      if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++length;
    if (width <= length) return text;
    const std::string fill(static_cast<std::size_t>(std::min<std::int64_t>(width - length, 1 << 24)), ' ');
    return left ? text + fill : fill + text;
  }

  /// Python's printf-style formatting, str % args: %[(key)][flags][width][.precision]type,
  /// type one of d i u o x X e E f F g G c r s a %. An integer type of a float takes the
  /// float's integer part, however large (%d of 1.1e66 writes its 67 digits, as Python does).
  Value percent_format(const std::string& format, const Value& args) {
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
        if (precision && digits.size() < static_cast<std::size_t>(*precision))
          digits.insert(0, static_cast<std::size_t>(*precision) - digits.size(), '0');
        std::string prefix = negative ? "-" : plus ? "+" : space ? " " : "";
        if (alternate && conv == 'o') prefix += "0o";
        if (alternate && (conv == 'x' || conv == 'X')) prefix += conv == 'x' ? "0x" : "0X";
        const auto length = static_cast<std::int64_t>(prefix.size() + digits.size());
        if (zero && !left && width > length) digits.insert(0, static_cast<std::size_t>(width - length), '0');
        out += pad(prefix + digits, width, left);
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

  bool is_local(const std::string& n) const {
    return std::any_of(locals_.begin(), locals_.end(), [&](const auto& l) { return l.first == n; });
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
  static Value to_integer(double r, const char* what) {
    if (std::isnan(r)) fail(std::string("cannot convert float NaN to integer (") + what + ")");
    if (std::isinf(r)) fail(std::string("cannot convert float infinity to integer (") + what + ")");
    if (r >= 9.2233720368547758e18 || r < -9.2233720368547758e18) fail("integer overflow (xacro here computes with 64-bit integers)");
    return Value::integer(static_cast<std::int64_t>(r));
  }
  List iterate(const Value& v, const char* name) {
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

  /// A math function's result as CPython's math module checks it: a NaN from numbers none of
  /// which is NaN is a domain error, an infinity from finite numbers an overflow ("range
  /// error"), or a domain error at a pole (log(0), atanh(1), gamma(0)).
  static Value math_checked(double r, std::initializer_list<double> inputs, bool pole = false) {
    bool any_nan = false, all_finite = true;
    for (const double x : inputs) {
      any_nan = any_nan || std::isnan(x);
      all_finite = all_finite && std::isfinite(x);
    }
    if (std::isnan(r) && !any_nan) fail("math domain error");
    if (std::isinf(r) && all_finite) fail(pole ? "math domain error" : "math range error");
    return Value::real(r);
  }
  static std::int64_t integer_argument(const Value& v, const char* name) {
    if (!is_intlike(v)) fail("'" + std::string(type_name(v)) + "' object cannot be interpreted as an integer (" + name + ")");
    return as_int(v);
  }
  static std::optional<Value> take(Keywords& keywords, const char* name) {
    for (auto it = keywords.begin(); it != keywords.end(); ++it)
      if (it->first == name) {
        Value v = std::move(it->second);
        keywords.erase(it);
        return v;
      }
    return std::nullopt;
  }
  static void no_keywords(const Keywords& keywords, const char* name) {
    if (!keywords.empty()) fail(std::string(name) + "() got an unexpected keyword argument '" + keywords.front().first + "'");
  }

  /// Calls a function value (map(float, ...), sorted(key=abs)).
  Value call_value(const Value& fn, List args) {
    if (fn.kind != Value::Kind::function || fn.fn >= Builtin::ns_math)
      fail("'" + std::string(type_name(fn)) + "' object is not callable");
    if (fn.fn == Builtin::unsupported) fail(*fn.s + "() is not supported by rmodel");
    Keywords none;
    return builtin(fn.fn, args, none);
  }

  /// Python's int(text, base): blanks around, a sign, the base's prefix (any with base 0),
  /// '_' between digits.
  static std::optional<std::int64_t> parse_int_text(std::string_view t, std::int64_t base) {
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

  /// Shewchuk's exactly rounded sum, as Python's math.fsum.
  static double exact_sum(const List& items) {
    std::vector<double> partials;
    double special = 0.0;  // an infinity or NaN seen
    bool has_special = false;
    for (const Value& item : items) {
      double x = number(item, "fsum");
      if (!std::isfinite(x)) {
        special = has_special ? special + x : x;
        has_special = true;
        continue;
      }
      std::size_t used = 0;
      for (double y : partials) {
        if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
        const double hi = x + y;
        const double lo = y - (hi - x);
        if (lo != 0.0) partials[used++] = lo;
        x = hi;
      }
      if (!std::isfinite(x)) fail("intermediate overflow in fsum");
      partials.resize(used);
      partials.push_back(x);
    }
    if (has_special) {
      if (std::isnan(special)) {
        for (const Value& item : items)
          if (std::isinf(item.as_double())) fail("-inf + inf in fsum");
      }
      return special;
    }
    double hi = 0.0;
    if (!partials.empty()) {
      std::size_t n = partials.size();
      hi = partials[--n];
      double lo = 0.0;
      while (n > 0) {
        const double x = hi;
        const double y = partials[--n];
        hi = x + y;
        const double yr = hi - x;
        lo = y - yr;
        if (lo != 0.0) break;
      }
      if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
        const double y = lo * 2.0;
        const double x = hi + y;
        const double yr = x - hi;
        if (y == yr) hi = x;
      }
    }
    return hi;
  }

  Value builtin(Builtin f, List& args, Keywords& keywords) {
    using B = Builtin;
    using K = Value::Kind;
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
    auto unary = [&](const char* name, double (*fn)(double), bool pole = false) {
      arity(args, 1, 1, name);
      const double x = number(args[0], name);
      return math_checked(fn(x), {x}, pole);
    };
    auto binary_math = [&](const char* name, double (*fn)(double, double), bool pole = false) {
      arity(args, 2, 2, name);
      const double x = number(args[0], name), y = number(args[1], name);
      return math_checked(fn(x, y), {x, y}, pole);
    };
    switch (f) {
      // ---- math
      case B::sin: return unary("sin", [](double x) { return std::sin(x); });
      case B::cos: return unary("cos", [](double x) { return std::cos(x); });
      case B::tan: return unary("tan", [](double x) { return std::tan(x); });
      case B::asin: return unary("asin", [](double x) { return std::asin(x); });
      case B::acos: return unary("acos", [](double x) { return std::acos(x); });
      case B::atan: return unary("atan", [](double x) { return std::atan(x); });
      case B::sinh: return unary("sinh", [](double x) { return std::sinh(x); });
      case B::cosh: return unary("cosh", [](double x) { return std::cosh(x); });
      case B::tanh: return unary("tanh", [](double x) { return std::tanh(x); });
      case B::asinh: return unary("asinh", [](double x) { return std::asinh(x); });
      case B::acosh: return unary("acosh", [](double x) { return std::acosh(x); });
      case B::atanh: return unary("atanh", [](double x) { return std::atanh(x); }, true);
      case B::sqrt: return unary("sqrt", [](double x) { return std::sqrt(x); });
      case B::cbrt: return unary("cbrt", [](double x) { return std::cbrt(x); });
      case B::exp: return unary("exp", [](double x) { return std::exp(x); });
      case B::exp2: return unary("exp2", [](double x) { return std::exp2(x); });
      case B::expm1: return unary("expm1", [](double x) { return std::expm1(x); });
      case B::log1p: return unary("log1p", [](double x) { return std::log1p(x); }, true);
      case B::log10: return unary("log10", [](double x) { return std::log10(x); }, true);
      case B::log2: return unary("log2", [](double x) { return std::log2(x); }, true);
      case B::erf: return unary("erf", [](double x) { return std::erf(x); });
      case B::erfc: return unary("erfc", [](double x) { return std::erfc(x); });
      case B::gamma:
      case B::lgamma: {
        const char* name = f == B::gamma ? "gamma" : "lgamma";
        arity(args, 1, 1, name);
        const double x = number(args[0], name);
        if (x <= 0 && x == std::floor(x)) fail("math domain error");  // a pole
        return math_checked(f == B::gamma ? std::tgamma(x) : std::lgamma(x), {x});
      }
      case B::radians: return unary("radians", [](double x) { return x * (std::numbers::pi / 180.0); });
      case B::degrees: return unary("degrees", [](double x) { return x * (180.0 / std::numbers::pi); });
      case B::fabs: return unary("fabs", [](double x) { return std::fabs(x); });
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
        if (x < 0 && std::isfinite(x) && std::isfinite(y) && y != std::floor(y)) fail("math domain error");
        return math_checked(std::pow(x, y), {x, y});
      }
      case B::atan2: return binary_math("atan2", [](double x, double y) { return std::atan2(x, y); });
      case B::copysign: return binary_math("copysign", [](double x, double y) { return std::copysign(x, y); });
      case B::nextafter: return binary_math("nextafter", [](double x, double y) { return std::nextafter(x, y); });
      case B::fmod: {
        arity(args, 2, 2, "fmod");
        const double x = number(args[0], "fmod"), y = number(args[1], "fmod");
        if (std::isinf(y) && std::isfinite(x)) return Value::real(x);
        return math_checked(std::fmod(x, y), {x, y});
      }
      case B::remainder: return binary_math("remainder", [](double x, double y) { return std::remainder(x, y); });
      case B::hypot: {
        double r = 0;
        std::vector<double> xs;
        for (const Value& v : args) xs.push_back(number(v, "hypot"));
        bool any_inf = false;
        for (const double x : xs) any_inf = any_inf || std::isinf(x);
        if (any_inf) return Value::real(HUGE_VAL);
        for (const double x : xs) r = std::hypot(r, x);
        bool any_nan = false;
        for (const double x : xs) any_nan = any_nan || std::isnan(x);
        if (std::isinf(r) && !any_nan) fail("math range error");
        return Value::real(r);
      }
      case B::dist: {
        arity(args, 2, 2, "dist");
        const List p = iterate(args[0], "dist"), q = iterate(args[1], "dist");
        if (p.size() != q.size()) fail("both points must have the same number of dimensions");
        List d;
        for (std::size_t k = 0; k < p.size(); ++k) d.push_back(Value::real(number(p[k], "dist") - number(q[k], "dist")));
        Keywords none;
        return builtin(B::hypot, d, none);
      }
      case B::log: {
        arity(args, 1, 2, "log");
        const double x = number(args[0], "log");
        if (x <= 0) fail("math domain error");
        if (args.size() == 1) return math_checked(std::log(x), {x}, true);
        const double base = number(args[1], "log");
        if (base <= 0) fail("math domain error");
        if (base == 1) fail("float division by zero");
        return Value::real(std::log(x) / std::log(base));
      }
      case B::isnan:
      case B::isinf:
      case B::isfinite: {
        arity(args, 1, 1, "isnan");
        const double x = number(args[0], "isnan");
        return Value::boolean(f == B::isnan ? std::isnan(x) : f == B::isinf ? std::isinf(x) : std::isfinite(x));
      }
      case B::isclose: {
        arity(args, 2, 2, "isclose");
        const double rel = take(keywords, "rel_tol").value_or(Value::real(1e-9)).as_double();
        const double abs_tol = take(keywords, "abs_tol").value_or(Value::real(0.0)).as_double();
        no_keywords(keywords, "isclose");
        if (rel < 0 || abs_tol < 0) fail("tolerances must be non-negative");
        const double a = number(args[0], "isclose"), b = number(args[1], "isclose");
        if (a == b) return Value::boolean(true);
        if (std::isinf(a) || std::isinf(b)) return Value::boolean(false);
        const double diff = std::fabs(b - a);
        return Value::boolean((diff <= std::fabs(rel * b)) || (diff <= std::fabs(rel * a)) || diff <= abs_tol);
      }
      case B::frexp: {
        arity(args, 1, 1, "frexp");
        const double x = number(args[0], "frexp");
        if (!std::isfinite(x) || x == 0) return Value::list({Value::real(x), Value::integer(0)}, true);
        int e = 0;
        const double m = std::frexp(x, &e);
        return Value::list({Value::real(m), Value::integer(e)}, true);
      }
      case B::modf: {
        arity(args, 1, 1, "modf");
        const double x = number(args[0], "modf");
        if (std::isinf(x)) return Value::list({Value::real(std::copysign(0.0, x)), Value::real(x)}, true);
        double whole = 0;
        const double frac = std::modf(x, &whole);
        return Value::list({Value::real(frac), Value::real(whole)}, true);
      }
      case B::ldexp: {
        arity(args, 2, 2, "ldexp");
        const double x = number(args[0], "ldexp");
        const std::int64_t e = integer_argument(args[1], "ldexp");
        const double r = std::ldexp(x, static_cast<int>(std::clamp<std::int64_t>(e, -100000, 100000)));
        return math_checked(r, {x});
      }
      case B::ulp: {
        arity(args, 1, 1, "ulp");
        const double x = std::fabs(number(args[0], "ulp"));
        if (!std::isfinite(x)) return Value::real(x);
        const double next = std::nextafter(x, HUGE_VAL);
        if (std::isinf(next)) return Value::real(x - std::nextafter(x, -HUGE_VAL));
        return Value::real(next - x);
      }
      case B::fsum: {
        arity(args, 1, 1, "fsum");
        return Value::real(exact_sum(iterate(args[0], "fsum")));
      }
      case B::prod: {
        arity(args, 1, 1, "prod");
        Value total = take(keywords, "start").value_or(Value::integer(1));
        no_keywords(keywords, "prod");
        for (const Value& x : iterate(args[0], "prod")) total = binary("*", total, x);
        return total;
      }
      case B::factorial: {
        arity(args, 1, 1, "factorial");
        const std::int64_t n = integer_argument(args[0], "factorial");
        if (n < 0) fail("factorial() not defined for negative values");
        std::int64_t r = 1;
        for (std::int64_t k = 2; k <= n; ++k) r = checked_mul(r, k);
        return Value::integer(r);
      }
      case B::comb:
      case B::perm: {
        const char* name = f == B::comb ? "comb" : "perm";
        arity(args, f == B::comb ? 2 : 1, 2, name);
        if (f == B::perm) no_keywords(keywords, name);
        const std::int64_t n = integer_argument(args[0], name);
        const bool all = args.size() == 1 || args[1].kind == K::none;
        const std::int64_t k = all ? n : integer_argument(args[1], name);
        if (n < 0) fail("n must be a non-negative integer");
        if (k < 0) fail("k must be a non-negative integer");
        if (k > n) return Value::integer(0);
        std::int64_t r = 1;
        if (f == B::perm) {
          for (std::int64_t j = 0; j < k; ++j) r = checked_mul(r, n - j);
        } else {
          const std::int64_t m = std::min(k, n - k);
          for (std::int64_t j = 1; j <= m; ++j) {
            // r * (n - m + j) / j stays exact: r is comb(n - m + j - 1, j - 1)
            const std::int64_t g = std::gcd(r, j);
            r = checked_mul(r / g, (n - m + j) / (j / g));
          }
        }
        return Value::integer(r);
      }
      case B::gcd:
      case B::lcm: {
        std::int64_t r = f == B::gcd ? 0 : 1;
        for (const Value& v : args) {
          const std::int64_t x = integer_argument(v, f == B::gcd ? "gcd" : "lcm");
          if (x == INT64_MIN) fail("integer overflow (xacro here computes with 64-bit integers)");
          if (f == B::gcd) {
            r = std::gcd(r, x);
          } else {
            if (x == 0 || r == 0) {
              r = 0;
              continue;
            }
            r = checked_mul(std::abs(r) / std::gcd(r, x), std::abs(x));
          }
        }
        return Value::integer(r);
      }
      case B::isqrt: {
        arity(args, 1, 1, "isqrt");
        const std::int64_t n = integer_argument(args[0], "isqrt");
        if (n < 0) fail("isqrt() argument must be nonnegative");
        auto r = static_cast<std::int64_t>(std::sqrt(static_cast<double>(n)));
        while (r > 0 && r > n / r) --r;
        while ((r + 1) <= n / (r + 1)) ++r;
        return Value::integer(r);
      }
      // ---- Python's builtins
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
  // xacro.load_yaml, abs_filename and dotify are also global (deprecated)
  if (name == "load_yaml") return Value::function(Builtin::load_yaml);
  if (name == "abs_filename") return Value::function(Builtin::abs_filename);
  if (name == "dotify") return Value::function(Builtin::dotify);
  if (auto v = find_in(math_names(), name)) return v;
  return find_in(direct_python_names(), name);
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
    if (name == builtin) return find_in(python_names(), name);
  return find_in(math_names(), name);
}

const std::vector<std::string>& global_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out = {"math", "python", "xacro", "True", "False", "None"};
    for (const auto& e : math_names()) out.emplace_back(e.name);
    for (const auto& e : direct_python_names()) out.emplace_back(e.name);
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
