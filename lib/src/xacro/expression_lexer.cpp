// xacro's expressions: the tokens.
#include "xacro/expression_lexer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <numbers>
#include <numeric>

#include "xacro/expression_internal.hpp"

namespace rmodel::xacro::expr {

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

Lexer::Lexer(std::string_view s) : s_(s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!s_.empty() && space(s_.front())) s_.remove_prefix(1);
  while (!s_.empty() && space(s_.back())) s_.remove_suffix(1);
}

Token Lexer::next() {
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

bool Lexer::take_keyword_equals() {
  std::size_t at = pos_;
  while (at < s_.size() && (s_[at] == ' ' || s_[at] == '\t' || s_[at] == '\n' || s_[at] == '\r')) ++at;
  if (at >= s_.size() || s_[at] != '=' || (at + 1 < s_.size() && s_[at + 1] == '=')) return false;
  pos_ = at + 1;
  return true;
}

Token Lexer::number() {
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

Token Lexer::string(char quote, bool raw, bool formatted) {
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

}  // namespace rmodel::xacro::expr
