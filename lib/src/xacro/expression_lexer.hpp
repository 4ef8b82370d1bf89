#pragma once
// Internal: the tokens of xacro's expressions, Python's as compile(..., "eval") reads them.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "xacro/value.hpp"

namespace rmodel::xacro::expr {

struct Token {
  enum class Kind : std::uint8_t { end, number, string, name, op } kind = Kind::end;
  std::string text;  ///< name, operator, string contents
  Value number;
};

/// Python's tokens, as compile(..., "eval") reads them (xacro strips the text first).
class Lexer {
public:
  explicit Lexer(std::string_view s);

  Token next();

  /// A single '=' comes next (a keyword argument's, after its name): consumes it.
  bool take_keyword_equals();

private:
  Token number();

  /// A string literal from the quote at pos_: 'x', "x", triple-quoted; raw (r'') keeps its
  /// backslashes; an f-string (f'') may hold no replacement field here (an expression cannot
  /// hold '}'), so only its doubled braces mean anything.
  Token string(char quote, bool raw, bool formatted);

  std::string_view s_;
  std::size_t pos_ = 0;
  int brackets_ = 0;
};

}  // namespace rmodel::xacro::expr
