// Shortest round-trip formatting of doubles: fmt's Dragonbox digits (the algorithm behind
// fmt's "{}"), written out by a small layout routine instead of fmt's general float writer,
// which spends more time on options (locale grouping, padding) than on the digits.

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "io/text/numbers.hpp"

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

// The 8 digits of v (< 10^8), leading zeros included, as ASCII in memory order (little
// endian): v's halves of 4 digits, then their pairs, then single digits are split in all
// lanes of one word at once, dividing by multiplication with reciprocals that are exact over
// each lane's range (10486 / 2^20 for 100 below 10^4, 103 / 2^10 for 10 below 100).
inline std::uint64_t eight_digits_ascii(std::uint32_t v) noexcept {
  const std::uint64_t halves = (v / 10000) | (static_cast<std::uint64_t>(v % 10000) << 32);
  const std::uint64_t hundreds = ((halves * 10486) >> 20) & 0x0000007F0000007FULL;
  const std::uint64_t pairs = hundreds | ((halves - hundreds * 100) << 16);
  const std::uint64_t tens = ((pairs * 103) >> 10) & 0x000F000F000F000FULL;
  const std::uint64_t digits = tens | ((pairs - tens * 10) << 8);
  return digits + 0x3030303030303030ULL;
}

// 10^0 .. 10^19, every power of ten an std::uint64_t holds.
constexpr auto kPow10U64 = [] {
  std::array<std::uint64_t, 20> p{};
  p[0] = 1;
  for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}();

// Number of decimal digits of v (> 0): log10 from the bit length (1233 / 4096 ~ log10(2)),
// corrected by one comparison.
inline int decimal_digits(std::uint64_t v) noexcept {
  const int t = ((64 - __builtin_clzll(v)) * 1233) >> 12;
  return t + (v >= kPow10U64[t] ? 1 : 0);
}

// Writes the 17 digits of v (< 10^17) with leading zeros at p: two 8-digit words and the
// first digit, with no loop and no branch on the length.
inline void seventeen_digits(char* p, std::uint64_t v) noexcept {
  const std::uint64_t rest = v % 10000000000000000ULL;
  p[0] = static_cast<char>('0' + v / 10000000000000000ULL);
  std::uint64_t hi = eight_digits_ascii(static_cast<std::uint32_t>(rest / 100000000));
  std::uint64_t lo = eight_digits_ascii(static_cast<std::uint32_t>(rest % 100000000));
  if constexpr (std::endian::native == std::endian::big) {
    hi = __builtin_bswap64(hi);
    lo = __builtin_bswap64(lo);
  }
  std::memcpy(p + 1, &hi, 8);
  std::memcpy(p + 9, &lo, 8);
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
  // Digits end at tmp + 17 and copies below move a fixed 16 or 17 bytes (cheaper than a
  // variable-length memcpy); the caller reserved kMaxDoubleChars (and the writers more)
  // bytes of room, and the bytes past the text are overwritten or dropped. A significand
  // of a double has at most 17 digits.
  char tmp[40] = {};
  static_assert(sizeof tmp >= 17 + 17, "a copy of 17 bytes from the last digit's place");
  seventeen_digits(tmp, dec.significand);
  const int n = decimal_digits(dec.significand);
  const char* d = tmp + 17 - n;
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
