// xacro's expressions: the tree, by recursive descent over Python's grammar for expressions.
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
#include "xacro/expression_lexer.hpp"

namespace rmodel::xacro {
namespace expr {
namespace {

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

}  // namespace
}  // namespace expr

std::shared_ptr<const Ast> parse_expression(std::string_view text) {
  expr::Parser parser(text);
  return std::make_shared<const Ast>(parser.parse());
}

}  // namespace rmodel::xacro
