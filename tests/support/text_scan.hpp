#pragma once
// Scans for the shapes the CLI tests look for in the command's output: a run of digits, a
// number between two known texts. Hand-written instead of std::regex, whose libstdc++ code
// warns -Wmaybe-uninitialized under GCC 12 in the sanitizer build (issue 26).

#include <cstddef>
#include <optional>
#include <string_view>

namespace rmodel::test {

/// How many ASCII digits `text` begins with (what [0-9]* takes).
inline std::size_t leading_digits(std::string_view text) {
  std::size_t n = 0;
  while (n < text.size() && text[n] >= '0' && text[n] <= '9') ++n;
  return n;
}

/// Whether `text` is one or more ASCII digits and nothing else (what ^[0-9]+$ matches).
inline bool is_digits(std::string_view text) { return !text.empty() && leading_digits(text) == text.size(); }

/// Where find_number_between found its number.
struct NumberFound {
  std::size_t at = 0;       ///< where `before` begins in the text
  std::string_view digits;  ///< the number, a view into the text
};

/// The first place at or after `from` where `before`, one or more ASCII digits and `after`
/// follow each other: a search for before[0-9]+after, for an `after` that does not begin
/// with a digit (so the number is the whole run of digits).
inline std::optional<NumberFound> find_number_between(std::string_view text, std::string_view before,
                                                      std::string_view after, std::size_t from = 0) {
  for (auto at = text.find(before, from); at != std::string_view::npos; at = text.find(before, at + 1)) {
    const std::string_view rest = text.substr(at + before.size());
    const std::size_t digits = leading_digits(rest);
    if (digits > 0 && rest.substr(digits).starts_with(after)) return NumberFound{at, rest.substr(0, digits)};
  }
  return std::nullopt;
}

}  // namespace rmodel::test
