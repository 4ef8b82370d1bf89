#pragma once
// Internal: exact text ↔ double conversions shared by the JSON and CSV code.

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <system_error>

namespace rmodel::io::detail {

inline bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

/// The value of a hexadecimal digit (either case), or -1 (JSON and YAML \u escapes).
inline int hex_digit_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// End of the JSON number (RFC 8259 grammar) starting at `p`, or nullptr when `p` does not
/// start a valid number. `integral` tells whether it has neither fraction nor exponent.
inline const char* scan_json_number(const char* p, const char* end, bool& integral) noexcept {
  integral = true;
  if (p < end && *p == '-') ++p;
  if (p >= end) return nullptr;
  if (*p == '0') {
    ++p;
  } else if (*p >= '1' && *p <= '9') {
    ++p;
    while (p < end && is_digit(*p)) ++p;
  } else {
    return nullptr;
  }
  if (p < end && *p == '.') {
    integral = false;
    ++p;
    if (p >= end || !is_digit(*p)) return nullptr;
    while (p < end && is_digit(*p)) ++p;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    integral = false;
    ++p;
    if (p < end && (*p == '+' || *p == '-')) ++p;
    if (p >= end || !is_digit(*p)) return nullptr;
    while (p < end && is_digit(*p)) ++p;
  }
  return p;
}

/// True when a decimal number that std::from_chars found out of range is too small (rounds
/// to zero) rather than too large. `[b, e)` is a plain decimal (digits, '.', exponent).
bool decimal_underflows(const char* b, const char* e) noexcept;

/// Result of a text → double conversion.
enum class NumberStatus { Ok, Invalid, Overflow };

/// Converts `[b, e)` exactly (round to nearest), as std::from_chars does, but reads a value
/// below the range of double as ±0 and reports one above it as Overflow. The whole span
/// must be consumed. Accepts what from_chars accepts (also `nan`, `inf`).
inline NumberStatus to_double(const char* b, const char* e, double& out) noexcept {
  auto r = std::from_chars(b, e, out);
  if (r.ptr != e || r.ec == std::errc::invalid_argument) return NumberStatus::Invalid;
  if (r.ec == std::errc::result_out_of_range) {
    if (!decimal_underflows(b, e)) return NumberStatus::Overflow;
    out = (*b == '-') ? -0.0 : 0.0;
  }
  return NumberStatus::Ok;
}

/// Reads the JSON number at `p` (RFC 8259 grammar) into `out`, correctly rounded (the same
/// double as std::from_chars). Returns the end of the number, or nullptr when `p` does not
/// start a valid number (`status` Invalid) or it is beyond the range of double (`status`
/// Overflow). A number whose text is plainly JSON (a digit first, no leading zero, a digit
/// after '.', the exponent complete) is converted by std::from_chars, the fastest exact
/// routine measured (tests/bench/bench_io.cpp, BM_ParseDouble). Anything else, and values
/// out of range, take the full path: one pass that checks the grammar while accumulating
/// the digits, 8 at a time when 8 bytes can be read (bytes up to `readable_end` >= `end`
/// may be read, not interpreted: the readers pad their buffers), finishing up to 19
/// significant digits and decimal exponents within ±27 exactly in integer arithmetic (see
/// numbers.cpp) and giving the rest, and the rare possible midpoints, to std::from_chars.
const char* parse_json_double(const char* p, const char* end, const char* readable_end,
                              double& out, NumberStatus& status) noexcept;

/// Converts an integer `[b, e)` (optional '-', digits). False on anything else or overflow.
inline bool to_int64(const char* b, const char* e, std::int64_t& out) noexcept {
  auto r = std::from_chars(b, e, out);
  return r.ptr == e && r.ec == std::errc();
}

/// Longest text write_shortest() produces ("-2.2250738585072014e-308" is 24).
inline constexpr std::size_t kMaxDoubleChars = 25;
/// Room write_shortest() needs at `out`: it may write scratch bytes past the text's end.
inline constexpr std::size_t kDoubleRoom = 40;

/// Writes the shortest decimal text of `x` that parses back to the same double, exactly as
/// fmt's "{}" does (fmt's Dragonbox digits; fixed notation for decimal exponents -4..15,
/// else `d.ddde±XX`; `nan`, `inf`, `-inf`, `-0`). Returns the end; the text is at most
/// kMaxDoubleChars long, but kDoubleRoom bytes at `out` must be writable.
char* write_shortest(char* out, double x) noexcept;

/// Writes a signed integer; returns the end (at most 20 characters).
char* write_int(char* out, std::int64_t x) noexcept;

/// Parses a CSV number cell (already trimmed, non-empty): a decimal with optional sign
/// ('+' allowed), `nan`, `inf`, `infinity` (any case, optional sign).
NumberStatus parse_csv_double(std::string_view cell, double& out) noexcept;

}  // namespace rmodel::io::detail
