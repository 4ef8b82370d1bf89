// Shortest round-trip formatting of doubles: fmt's Dragonbox digits (the algorithm behind
// fmt's "{}"), written out by a small layout routine instead of fmt's general float writer,
// which spends more time on options (locale grouping, padding) than on the digits.

#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "io/numbers.hpp"

#if defined(FMT_VERSION) && FMT_VERSION >= 80000 && FMT_VERSION < 120000
#define RMODEL_IO_DRAGONBOX 1
#endif

namespace rmodel::io::detail {
namespace {

constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

inline void two_digits(char* p, std::uint32_t v) noexcept { std::memcpy(p, kDigitPairs + 2 * v, 2); }

// Writes exactly 8 digits of v (< 10^8) at p; the halves are independent (32-bit math).
inline void eight_digits(char* p, std::uint32_t v) noexcept {
  const std::uint32_t a = v / 10000, b = v % 10000;
  two_digits(p, a / 100);
  two_digits(p + 2, a % 100);
  two_digits(p + 4, b / 100);
  two_digits(p + 6, b % 100);
}

// Writes the digits of v (> 0, < 10^19) ending at `end`; returns where they start.
inline char* digits_backward(char* end, std::uint64_t v) noexcept {
  while (v >= 100000000) {
    const std::uint64_t q = v / 100000000;
    end -= 8;
    eight_digits(end, static_cast<std::uint32_t>(v - q * 100000000));
    v = q;
  }
  auto w = static_cast<std::uint32_t>(v);
  while (w >= 100) {
    end -= 2;
    two_digits(end, w % 100);
    w /= 100;
  }
  if (w >= 10) {
    end -= 2;
    two_digits(end, w);
  } else {
    *--end = static_cast<char>('0' + w);
  }
  return end;
}

}  // namespace

char* write_int(char* out, std::int64_t x) noexcept {
  std::uint64_t u = static_cast<std::uint64_t>(x);
  if (x < 0) {
    *out++ = '-';
    u = ~u + 1;
  }
  char tmp[24];
  char* b = digits_backward(tmp + sizeof tmp, u);
  const auto n = static_cast<std::size_t>(tmp + sizeof tmp - b);
  std::memcpy(out, b, n);
  return out + n;
}

char* write_shortest(char* out, double x) noexcept {
#ifdef RMODEL_IO_DRAGONBOX
  if (std::signbit(x)) {
    *out++ = '-';
    x = -x;
  }
  if (!std::isfinite(x)) {
    std::memcpy(out, std::isnan(x) ? "nan" : "inf", 3);
    return out + 3;
  }
  if (x == 0.0) {
    *out++ = '0';
    return out;
  }
  const auto dec = fmt::detail::dragonbox::to_decimal(x);
  // Digits end at tmp + 24 and copies below move a fixed 24 bytes (cheaper than a
  // variable-length memcpy); the caller reserved kMaxDoubleChars (and the writers more)
  // bytes of room, and the bytes past the text are overwritten or dropped.
  char tmp[48] = {};
  char* const tend = tmp + 24;
  const char* d = digits_backward(tend, dec.significand);
  const int n = static_cast<int>(tend - d);
  const int e = dec.exponent;
  const int oexp = e + n - 1;  // decimal exponent of the first digit
  if (oexp < -4 || oexp >= 16) {
    *out++ = d[0];
    if (n > 1) {
      *out++ = '.';
      std::memcpy(out, d + 1, 16);  // n - 1 <= 16
      out += n - 1;
    }
    *out++ = 'e';
    int ex = oexp;
    if (ex < 0) {
      *out++ = '-';
      ex = -ex;
    } else {
      *out++ = '+';
    }
    if (ex >= 100) {
      *out++ = static_cast<char>('0' + ex / 100);
      ex %= 100;
    }
    std::memcpy(out, kDigitPairs + 2 * ex, 2);
    return out + 2;
  }
  if (e >= 0) {  // an integer: digits then zeros
    std::memcpy(out, d, 17);  // n <= 17
    out += n;
    std::memset(out, '0', 16);  // e <= 15; a fixed size needs no call to memset
    return out + e;
  }
  if (oexp >= 0) {  // digits '.' digits
    const int whole = oexp + 1;
    std::memcpy(out, d, 16);  // whole <= 16
    out += whole;
    *out++ = '.';
    std::memcpy(out, d + whole, 16);  // n - whole <= 16
    return out + (n - whole);
  }
  // 0.000ddd
  *out++ = '0';
  *out++ = '.';
  std::memcpy(out, "000", 4);  // -oexp - 1 <= 3 zeros; a fixed size needs no call
  out += -oexp - 1;
  std::memcpy(out, d, 17);  // n <= 17
  return out + n;
#else
  return fmt::format_to(out, FMT_COMPILE("{}"), x);
#endif
}

}  // namespace rmodel::io::detail
