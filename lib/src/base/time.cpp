#include "rmodel/base/time.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"

namespace rmodel {

std::optional<Time> time_from_seconds(double seconds) noexcept {
  if (!std::isfinite(seconds) || std::fabs(seconds) >= 9.2e9) return std::nullopt;
  // The exact product seconds·1e9 is p + e (1e9 is exact; fma gives the rounding error of p),
  // and p − r is exact for the integer r nearest to p.
  const double p = seconds * 1e9;
  const double e = std::fma(seconds, 1e9, -p);
  const double r = std::nearbyint(p);
  // What remains beyond r: below 2^53 ns a fraction, above it e alone (up to half the
  // spacing of doubles there, hundreds of nanoseconds at epoch times).
  const double d = (p - r) + e;
  const double whole = std::floor(d);
  auto n = static_cast<std::int64_t>(r) + static_cast<std::int64_t>(whole);
  const double fraction = d - whole;  // [0, 1)
  if (fraction > 0.5 || (fraction == 0.5 && (n & 1) != 0)) ++n;
  return Time{n};
}

namespace {
inline bool time_digit(char c) noexcept { return c >= '0' && c <= '9'; }
}  // namespace

TimeParseStatus parse_time(std::string_view text, Time& out) noexcept {
  const char* p = text.data();
  const char* const end = p + text.size();
  bool negative = false;
  if (p < end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  // The significant digits D (leading zeros dropped) and the power of ten E such that the
  // time in nanoseconds is D·10^E.
  const char* int_begin = p;
  while (p < end && time_digit(*p)) ++p;
  const char* int_end = p;
  const char* frac_begin = p;
  const char* frac_end = p;
  if (p < end && *p == '.') {
    frac_begin = ++p;
    while (p < end && time_digit(*p)) ++p;
    frac_end = p;
  }
  if (int_begin == int_end && frac_begin == frac_end) return TimeParseStatus::invalid;
  std::int64_t exponent = 0;
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool exp_negative = false;
    if (p < end && (*p == '+' || *p == '-')) exp_negative = *p++ == '-';
    if (p == end || !time_digit(*p)) return TimeParseStatus::invalid;
    for (; p < end && time_digit(*p); ++p)
      if (exponent < (std::int64_t{1} << 40)) exponent = exponent * 10 + (*p - '0');
    if (exp_negative) exponent = -exponent;
  }
  if (p != end) return TimeParseStatus::invalid;

  // Digit k of D, reading the integer digits then the fraction digits.
  const auto int_count = static_cast<std::int64_t>(int_end - int_begin);
  const auto frac_count = static_cast<std::int64_t>(frac_end - frac_begin);
  auto digit = [&](std::int64_t k) -> int {
    return k < int_count ? int_begin[k] - '0' : frac_begin[k - int_count] - '0';
  };
  std::int64_t first = 0;  // first non-zero digit
  const std::int64_t count = int_count + frac_count;
  while (first < count && digit(first) == 0) ++first;
  if (first == count) {
    out = Time{0};
    return TimeParseStatus::ok;
  }
  const std::int64_t power = exponent - frac_count + 9;
  // Digits of D kept in the integer part: those before the decimal point of D·10^power.
  const std::int64_t kept = (count - first) + power;
  if (kept > 19) return TimeParseStatus::out_of_range;
  std::uint64_t value = 0;
  const std::int64_t last = std::min(count, first + std::max<std::int64_t>(kept, 0));
  for (std::int64_t k = first; k < last; ++k) value = value * 10 + static_cast<std::uint64_t>(digit(k));
  if (power > 0) {
    for (std::int64_t k = 0; k < power; ++k) {
      if (value > std::numeric_limits<std::uint64_t>::max() / 10) return TimeParseStatus::out_of_range;
      value *= 10;
    }
  } else if (kept >= 0 && last < count) {
    // Round to nearest, ties to even, on the dropped digits.
    const int dropped = digit(last);
    bool rest = false;
    for (std::int64_t k = last + 1; k < count && !rest; ++k) rest = digit(k) != 0;
    if (dropped > 5 || (dropped == 5 && (rest || (value & 1) != 0))) ++value;
  }
  // kept < 0: below 0.1 ns, rounds to 0.
  constexpr std::uint64_t kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (value > kMax + (negative ? 1 : 0)) return TimeParseStatus::out_of_range;
  out = Time{negative ? static_cast<std::int64_t>(0 - value) : static_cast<std::int64_t>(value)};
  return TimeParseStatus::ok;
}

Time parse_time(std::string_view text, std::string_view what) {
  Time t;
  switch (parse_time(text, t)) {
    case TimeParseStatus::ok: return t;
    case TimeParseStatus::invalid:
      throw InvalidArgument(fmt::format("{}: '{}' is not a time in seconds", what, text));
    case TimeParseStatus::out_of_range:
      throw InvalidArgument(fmt::format("{}: '{}' is beyond the range of times (±9223372036.854775807 s)", what, text));
  }
  return t;
}

char* write_time(char* out, Time t) noexcept {
  std::uint64_t u = static_cast<std::uint64_t>(t.ns);
  if (t.ns < 0) {
    *out++ = '-';
    u = 0 - u;
  }
  const std::uint64_t whole = u / 1'000'000'000;
  auto frac = static_cast<std::uint32_t>(u % 1'000'000'000);
  char digits[20];
  int n = 0;
  std::uint64_t w = whole;
  do {
    digits[n++] = static_cast<char>('0' + w % 10);
    w /= 10;
  } while (w != 0);
  while (n > 0) *out++ = digits[--n];
  if (frac != 0) {
    *out++ = '.';
    int width = 9;
    while (frac % 10 == 0) {
      frac /= 10;
      --width;
    }
    for (int k = width - 1; k >= 0; --k) {
      out[k] = static_cast<char>('0' + frac % 10);
      frac /= 10;
    }
    out += width;
  }
  return out;
}

std::string to_string(Time t) {
  char buffer[kMaxTimeChars];
  return std::string(buffer, write_time(buffer, t));
}

}  // namespace rmodel
