#pragma once
// Conversions between a ROS time in integer nanoseconds and rmodel's time in seconds
// (double), shared by the log readers and the MCAP writer so that rmodel reading its own
// MCAP gets its times back bit for bit.
//
// seconds_from_ns(n) is the double nearest to n·10⁻⁹ (correctly rounded): below 2^53 ns
// (104 days) both n and 1e9 are exact doubles and one IEEE division rounds once; above, the
// sum sec + nsec·1e-9 is used, whose error (~1e-16 s) is far below half the spacing of
// doubles there (≥ 0.9 ns), so it rounds to the same double.
//
// ns_from_seconds(t) is the n with seconds_from_ns(n) == t when one exists, else the n
// nearest to t. One exists for every double t that is the nearest double to a whole number
// of nanoseconds: every time read from a ROS log, every decimal `t` with at most nine digits
// after the point (`12.345678901`), and every double of magnitude ≥ 2^23 s (97 days, e.g.
// epoch stamps), where doubles are spaced wider than 1 ns. A time such as 0.1 + 0.2
// (0.30000000000000004) has no nanosecond representation and comes back as 0.3.

#include <cmath>
#include <cstdint>
#include <optional>

namespace rmodel::io::detail {

inline double seconds_from_ns(std::int64_t ns) noexcept {
  constexpr std::int64_t k53 = std::int64_t{1} << 53;
  if (ns > -k53 && ns < k53) return static_cast<double>(ns) / 1e9;
  return static_cast<double>(ns / 1'000'000'000) + static_cast<double>(ns % 1'000'000'000) * 1e-9;
}

/// The nanoseconds of a ROS stamp {sec, nsec}: sec·10⁹ + nsec, nothing when it overflows.
inline std::optional<std::int64_t> ns_from_stamp(std::int64_t sec, std::int64_t nsec) noexcept {
  std::int64_t ns = 0;
  if (__builtin_mul_overflow(sec, std::int64_t{1'000'000'000}, &ns) || __builtin_add_overflow(ns, nsec, &ns))
    return std::nullopt;
  return ns;
}

/// The seconds of a ROS stamp {sec, nsec}: seconds_from_ns() of its nanoseconds, so that a
/// stamp given as text (JSON, YAML, a trajectory) reads as the same stamp from a ROS log; the
/// plain sum where the nanoseconds overflow.
inline double seconds_from_stamp(std::int64_t sec, std::int64_t nsec) noexcept {
  if (const auto ns = ns_from_stamp(sec, nsec)) return seconds_from_ns(*ns);
  return static_cast<double>(sec) + static_cast<double>(nsec) * 1e-9;
}

/// The nanoseconds of `t` seconds (see above); nothing for NaN, infinities and |t| ≥ 9.2e9 s.
inline std::optional<std::int64_t> ns_from_seconds(double t) noexcept {
  if (!std::isfinite(t) || std::fabs(t) >= 9.2e9) return std::nullopt;
  // The exact product t·1e9 is p + e (1e9 is exact; fma gives the rounding error of p).
  const double p = t * 1e9;
  const double e = std::fma(t, 1e9, -p);
  const double r = std::nearbyint(p);
  auto n = static_cast<std::int64_t>(r) + std::llround((p - r) + e);
  if (seconds_from_ns(n) == t) return n;
  if (seconds_from_ns(n - 1) == t) return n - 1;
  if (seconds_from_ns(n + 1) == t) return n + 1;
  return n;
}

}  // namespace rmodel::io::detail
