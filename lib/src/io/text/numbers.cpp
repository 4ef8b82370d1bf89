#include "io/text/numbers.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace rmodel::io::detail {

bool decimal_underflows(const char* b, const char* e) noexcept {
  const char* p = b;
  if (p < e && (*p == '-' || *p == '+')) ++p;
  // Decimal exponent of the first non-zero digit, before the explicit exponent.
  std::int64_t lead = 0;
  bool found = false;
  std::int64_t int_digits = 0;
  const char* q = p;
  while (q < e && is_digit(*q)) ++q;
  int_digits = q - p;
  for (const char* r = p; r < q; ++r) {
    if (*r != '0') {
      lead = int_digits - 1 - (r - p);
      found = true;
      break;
    }
  }
  p = q;
  if (p < e && *p == '.') {
    ++p;
    std::int64_t j = 0;
    for (; p < e && is_digit(*p); ++p, ++j) {
      if (!found && *p != '0') {
        lead = -(j + 1);
        found = true;
      }
    }
  }
  if (!found) return true;  // zero never overflows
  std::int64_t exp = 0;
  if (p < e && (*p == 'e' || *p == 'E')) {
    ++p;
    bool neg = false;
    if (p < e && (*p == '+' || *p == '-')) neg = (*p++ == '-');
    for (; p < e && is_digit(*p); ++p) {
      if (exp < 100000000) exp = exp * 10 + (*p - '0');
    }
    if (neg) exp = -exp;
  }
  return lead + exp < 0;
}

namespace {
bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i]) return false;
  }
  return true;
}
}  // namespace

NumberStatus parse_csv_double(std::string_view cell, double& out) noexcept {
  bool neg = false;
  std::string_view body = cell;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    neg = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body.empty()) return NumberStatus::Invalid;
  if (!is_digit(body[0]) && body[0] != '.') {
    if (iequals(body, "nan")) {
      out = neg ? -std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::quiet_NaN();
      return NumberStatus::Ok;
    }
    if (iequals(body, "inf") || iequals(body, "infinity")) {
      out = neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
      return NumberStatus::Ok;
    }
    return NumberStatus::Invalid;
  }
  // Plain decimal: digits, optional fraction, optional exponent; nothing else.
  const char* p = body.data();
  const char* e = p + body.size();
  for (const char* q = p; q < e; ++q) {
    const char c = *q;
    if (!(is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
      return NumberStatus::Invalid;
  }
  NumberStatus st = to_double(p, e, out);
  if (st == NumberStatus::Ok && neg) out = -out;
  return st;
}

}  // namespace rmodel::io::detail

// ---------------------------------------------------------------------------------------
// Fast JSON number parsing.

namespace rmodel::io::detail {
namespace {

constexpr double kPow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

__extension__ typedef unsigned __int128 u128;

constexpr int kMaxPow5 = 27;  // 5^27 < 2^64

constexpr int bit_length(std::uint64_t x) noexcept { return x ? 64 - __builtin_clzll(x) : 0; }

// 5^k and, for division by 10^k, Q_k = ceil(2^(127 + m_k) / 5^k) in [2^127, 2^128) where
// m_k is the bit length of 5^k. Computed by the compiler: at run time, the long divisions
// cost every start of every program using librmodel 52 000 instructions.
struct Pow5Tables {
  std::uint64_t pow5[kMaxPow5 + 1];
  std::uint64_t recip_hi[kMaxPow5 + 1];
  std::uint64_t recip_lo[kMaxPow5 + 1];
  int shift[kMaxPow5 + 1];  // 127 + m_k
  constexpr Pow5Tables() noexcept {
    std::uint64_t p = 1;
    for (int k = 0; k <= kMaxPow5; ++k) {
      pow5[k] = p;
      const int n = 127 + bit_length(p);
      // Long division of 2^n by p, bit by bit (p < 2^63: the remainder doubles safely).
      u128 q = 0;
      std::uint64_t r = 0;
      for (int i = n; i >= 0; --i) {
        r = 2 * r + (i == n ? 1 : 0);
        q <<= 1;
        if (r >= p) {
          r -= p;
          q |= 1;
        }
      }
      if (r != 0) ++q;  // round up
      recip_hi[k] = static_cast<std::uint64_t>(q >> 64);
      recip_lo[k] = static_cast<std::uint64_t>(q);
      shift[k] = n;
      p *= 5;
    }
  }
};
constexpr Pow5Tables kPow5;

// The double of mant53 · 2^e2, mant53 in [2^52, 2^53), for a normal result.
inline double make_double(std::uint64_t mant53, int e2) noexcept {
  const std::uint64_t bits =
      (static_cast<std::uint64_t>(e2 + 52 + 1023) << 52) | (mant53 & ((std::uint64_t{1} << 52) - 1));
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// mant · 10^k exactly rounded, 0 <= k <= 27, mant > 0: the product with 5^k is exact in
// 128 bits, then rounded to 53 bits (ties to even) and scaled by 2^k.
inline double scale_up(std::uint64_t mant, int k) noexcept {
  const u128 p = static_cast<u128>(mant) * kPow5.pow5[k];
  const auto hi = static_cast<std::uint64_t>(p >> 64);
  const int bl = hi ? 64 + bit_length(hi) : bit_length(static_cast<std::uint64_t>(p));
  if (bl <= 53) return std::ldexp(static_cast<double>(static_cast<std::uint64_t>(p)), k);
  int shift = bl - 53;
  auto m = static_cast<std::uint64_t>(p >> shift);
  const u128 rem = p & ((static_cast<u128>(1) << shift) - 1);
  const u128 half = static_cast<u128>(1) << (shift - 1);
  if (rem > half || (rem == half && (m & 1))) {
    if (++m == (std::uint64_t{1} << 53)) {
      m >>= 1;
      ++shift;
    }
  }
  return make_double(m, shift + k);
}

// mant / 10^k correctly rounded, 1 <= k <= 27, 0 < mant < 2^64; false when the value may be
// a midpoint between two doubles (then the caller asks std::from_chars).
//
// With mn = mant normalised to [2^63, 2^64) and Q_k >= 2^n / 5^k (less than one unit more),
// mn · Q_k = t · 2^128 + g, g < 2^64, where t is the exact quotient scaled into [2^62, 2^64).
// H = floor(mn · Q_k / 2^128) is therefore floor(t) or, when t is within 2^-64 below an
// integer, that integer. A midpoint between two doubles is an integer in these units, so
// only when H's bits below the 53-bit mantissa are exactly one half can t be on either side
// of it; otherwise H rounds the same way t does.
inline bool scale_down(std::uint64_t mant, int k, double& out) noexcept {
  const int lz = __builtin_clzll(mant);
  const std::uint64_t mn = mant << lz;
  // h = floor(mn · Q_k / 2^128) from two 64×64→128 products: only their high words and the
  // carry out of the middle word matter.
  const u128 lo = static_cast<u128>(mn) * kPow5.recip_lo[k];
  const u128 hi = static_cast<u128>(mn) * kPow5.recip_hi[k];
  const auto mid = static_cast<std::uint64_t>(hi) + static_cast<std::uint64_t>(lo >> 64);
  const std::uint64_t h =
      static_cast<std::uint64_t>(hi >> 64) + (mid < static_cast<std::uint64_t>(hi) ? 1 : 0);
  int shift = (h >> 63) ? 11 : 10;
  std::uint64_t m = h >> shift;
  const std::uint64_t extra = h & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t half = std::uint64_t{1} << (shift - 1);
  if (extra == half) return false;
  if (extra > half && ++m == (std::uint64_t{1} << 53)) {
    m >>= 1;
    ++shift;
  }
  // value = m · 2^(shift + 128 - lz - k - n): 2^128 from H, 2^-lz from mn, 2^-k and 2^-n from
  // 1/10^k = 2^-k / 5^k ≈ 2^-k · Q_k / 2^n.
  out = make_double(m, shift + 128 - lz - k - kPow5.shift[k]);
  return true;
}

// mant · 10^exp10 correctly rounded (mant > 0, at most 19 digits); false when this needs
// std::from_chars (exponent beyond ±27, or a possible midpoint).
inline bool exact_value(std::uint64_t mant, std::int64_t exp10, double& d) noexcept {
  const bool small = mant <= (std::uint64_t{1} << 53);
  if (exp10 >= 0) {
    if (small && exp10 <= 22) {
      d = static_cast<double>(mant) * kPow10[exp10];  // exact operands, one rounding
      return true;
    }
    if (exp10 > kMaxPow5) return false;
    d = scale_up(mant, static_cast<int>(exp10));
    return true;
  }
  // Integer multiplications first: cheaper than a division.
  if (exp10 >= -kMaxPow5 && scale_down(mant, static_cast<int>(-exp10), d)) return true;
  if (small && exp10 >= -22) {
    d = static_cast<double>(mant) / kPow10[-exp10];  // exact operands, one rounding
    return true;
  }
  return false;
}

// The value of 8 ASCII digits loaded little-endian (first digit in the lowest byte).
inline std::uint32_t eight_digits_value(std::uint64_t v) noexcept {
  v -= 0x3030303030303030ULL;  // bytes d0..d7 (d0 lowest)
  v = v * 10 + (v >> 8);       // bytes 0, 2, 4, 6: two-digit groups 10·d(2i) + d(2i+1)
  const std::uint64_t pairs = v & 0x00FF00FF00FF00FFULL;
  const std::uint64_t g0 = pairs & 0xFF, g1 = (pairs >> 16) & 0xFF, g2 = (pairs >> 32) & 0xFF,
                      g3 = (pairs >> 48) & 0xFF;
  return static_cast<std::uint32_t>(g0 * 1000000 + g1 * 10000 + g2 * 100 + g3);
}

constexpr std::uint64_t kPow10Int[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                        100000000};

// Reads the run of up to 8 digits at p (stopping at `end`): mant = mant·10^k + their value
// (which wraps harmlessly past 19 digits: the caller then does not use mant); returns k.
// With 8 readable bytes at p (the readers pad their buffers) the 8 bytes are examined at
// once, without a branch per digit.
inline int digit_run8(const char* p, const char* end, const char* readable_end,
                      std::uint64_t& mant) noexcept {
  if (std::endian::native == std::endian::little && readable_end - p >= 8) {
    std::uint64_t chunk;
    std::memcpy(&chunk, p, 8);
    // Per byte, without carries between bytes: x = c ^ '0' is a digit iff x <= 9.
    const std::uint64_t x = chunk ^ 0x3030303030303030ULL;
    std::uint64_t bad = (x & 0xF0F0F0F0F0F0F0F0ULL) |
                        (((x & 0x0F0F0F0F0F0F0F0FULL) + 0x0606060606060606ULL) &
                         0x1010101010101010ULL);
    const std::ptrdiff_t avail = end - p;
    if (avail < 8) bad |= ~std::uint64_t{0} << (8 * avail);  // bytes past the end
    const int k = bad == 0 ? 8 : __builtin_ctzll(bad) / 8;
    if (k == 0) return 0;
    // The k digits move to the top bytes; '0's fill the low (leading) ones.
    const int sh = 8 * (8 - k);
    const std::uint64_t digits8 =
        sh == 0 ? chunk : (chunk << sh) | (0x3030303030303030ULL >> (64 - sh));
    mant = mant * kPow10Int[k] + eight_digits_value(digits8);
    return k;
  }
  int k = 0;
  while (k < 8 && p + k < end && is_digit(p[k])) {
    mant = mant * 10 + static_cast<std::uint64_t>(p[k] - '0');
    ++k;
  }
  return k;
}

// Reads the whole run of digits at p; returns its length.
inline int digit_run(const char* p, const char* end, const char* readable_end,
                     std::uint64_t& mant) noexcept {
  int n = 0, k;
  do {
    k = digit_run8(p + n, end, readable_end, mant);
    n += k;
  } while (k == 8);
  return n;
}

}  // namespace

namespace {
// The common case through std::from_chars (GCC 12: fast_float, measured faster than the
// digit loop below), when the text is plainly a JSON number: from_chars accepts more than
// JSON ("01", "1.", ".5", "inf"), so the few places where the grammars differ are checked
// here, and anything doubtful (also a value out of range) takes the full path, which gives
// the errors. Returns nullptr when the full path must decide.
inline const char* fast_json_double(const char* p, const char* end, double& out) noexcept {
  const char* q = p + (p < end && *p == '-');
  if (q >= end || !is_digit(*q)) return nullptr;  // "-", ".5", "inf", "nan"
  const char* i = q + 1;
  if (*q == '0') {
    if (i < end && is_digit(*i)) return nullptr;  // a leading zero
  } else {
    while (i < end && is_digit(*i)) ++i;
  }
  if (i < end && *i == '.' && (i + 1 >= end || !is_digit(i[1]))) return nullptr;  // "1.", "1.e5"
  const auto r = std::from_chars(p, end, out);
  if (r.ec != std::errc()) return nullptr;
  // An exponent from_chars left unread ("1e", "1e+") is an error for the full path to name.
  if (r.ptr < end && (*r.ptr == 'e' || *r.ptr == 'E' || *r.ptr == '.' || is_digit(*r.ptr)))
    return nullptr;
  return r.ptr;
}
}  // namespace

const char* parse_json_double(const char* p, const char* end, const char* readable_end,
                              double& out, NumberStatus& status) noexcept {
  if (const char* e = fast_json_double(p, end, out)) {
    status = NumberStatus::Ok;
    return e;
  }
  const char* const start = p;
  const bool negative = p < end && *p == '-';
  if (negative) ++p;
  if (p >= end) {
    status = NumberStatus::Invalid;
    return nullptr;
  }
  std::uint64_t mant = 0;
  int digits = 0;  // digits read into mant (a lone leading 0 not counted); mant is exact
                   // while digits <= 19
  if (*p == '0') {
    ++p;
  } else if (*p >= '1' && *p <= '9') {
    const int k = digit_run(p, end, readable_end, mant);
    p += k;
    digits += k;
  } else {
    status = NumberStatus::Invalid;
    return nullptr;
  }
  std::int64_t exp10 = 0;
  if (p < end && *p == '.') {
    ++p;
    const char* frac = p;
    const int k = digit_run(p, end, readable_end, mant);
    p += k;
    digits += k;
    if (p == frac) {
      status = NumberStatus::Invalid;
      return nullptr;
    }
    // Digits of the fraction lower the exponent.
    exp10 = -static_cast<std::int64_t>(p - frac);
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool eneg = false;
    if (p < end && (*p == '+' || *p == '-')) eneg = *p++ == '-';
    if (p >= end || !is_digit(*p)) {
      status = NumberStatus::Invalid;
      return nullptr;
    }
    std::int64_t e = 0;
    while (p < end && is_digit(*p)) {
      if (e < 100000) e = e * 10 + (*p - '0');
      ++p;
    }
    exp10 += eneg ? -e : e;
  }
  status = NumberStatus::Ok;
  if (digits <= 19) {
    if (mant == 0) {
      out = negative ? -0.0 : 0.0;
      return p;
    }
    double d;
    if (exact_value(mant, exp10, d)) {
      out = negative ? -d : d;
      return p;
    }
  }
  status = to_double(start, p, out);
  return status == NumberStatus::Ok ? p : nullptr;
}

}  // namespace rmodel::io::detail
