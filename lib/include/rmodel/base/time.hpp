#pragma once
#include "rmodel/export.hpp"
/// @file time.hpp
/// rmodel's one time type: a signed 64-bit count of nanoseconds, as ROS (`{sec, nanosec}`)
/// and MCAP (`log_time`) keep time. Every stamp — read from any log, carried through the
/// pipeline, the aggregators, the filters and the checks, and written to any format — is a
/// Time, so a stamp read is written back bit for bit.
///
/// - **Range.** ±9223372036.854775807 s (±292 years) around the clock's zero: every epoch
///   time and every ROS 1/2 stamp fits.
/// - **Instants and spans.** A Time is an instant on the clock of its log (its zero is the
///   log's: the epoch for ROS stamps, the start of a run for a trajectory) or the span
///   between two instants (a period, a dt); they share the type because both are
///   nanoseconds and the difference of two stamps is the interesting span.
/// - **Seconds only at the end.** Arithmetic is done in integers; seconds() converts to the
///   nearest double only where a formula needs seconds (a filter's dt = (t1 − t0).seconds(),
///   after the subtraction, so a log sampled every 10 ms gives dt = 0.01 exactly, wherever its
///   zero is). Overflow of the arithmetic operators is undefined, as for int64_t.
/// - **Text.** parse_time() reads decimal seconds (`1700000000.01`, `-0.5`, `1e-9`) exactly,
///   never through a double: up to nine decimals are exact; more are rounded to the nearest
///   nanosecond, ties to even. write_time() / to_string() give the shortest decimal that
///   parses back to the same nanoseconds (`1700000000.01`, `0.000000001`, `12`, `-0.5`; no
///   exponent).

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rmodel {

/// A time (or a span of time) in integer nanoseconds.
struct Time {
  std::int64_t ns = 0;  ///< nanoseconds since the clock's zero (or the span's length)

  /// The time of a ROS stamp `{sec, nanosec}` (nanosec may be any value, also negative or
  /// ≥ 10⁹, as some writers leave it); nothing when sec·10⁹ + nanosec overflows.
  [[nodiscard]] static constexpr std::optional<Time> from_stamp(std::int64_t sec, std::int64_t nanosec) noexcept {
    std::int64_t n = 0;
    if (__builtin_mul_overflow(sec, std::int64_t{1'000'000'000}, &n) || __builtin_add_overflow(n, nanosec, &n))
      return std::nullopt;
    return Time{n};
  }
  /// Whole seconds of a ROS stamp: floor(ns / 10⁹) (−0.25 s is sec −1, nanosec 750000000).
  [[nodiscard]] constexpr std::int64_t sec() const noexcept {
    const std::int64_t q = ns / 1'000'000'000;
    return ns % 1'000'000'000 < 0 ? q - 1 : q;
  }
  /// Nanoseconds of a ROS stamp: ns − sec()·10⁹, in [0, 10⁹).
  [[nodiscard]] constexpr std::int64_t nanosec() const noexcept {
    const std::int64_t r = ns % 1'000'000'000;
    return r < 0 ? r + 1'000'000'000 : r;
  }
  /// The time in seconds: the double nearest to ns·10⁻⁹ (correctly rounded).
  [[nodiscard]] double seconds() const noexcept {
    constexpr std::int64_t k53 = std::int64_t{1} << 53;
    // Below 2^53 both ns and 1e9 are exact doubles and one division rounds once; above, the
    // error of the sum (~1e-16 s) is far below half the spacing of doubles there (≥ 0.9 ns).
    if (ns > -k53 && ns < k53) return static_cast<double>(ns) / 1e9;
    return static_cast<double>(ns / 1'000'000'000) + static_cast<double>(ns % 1'000'000'000) * 1e-9;
  }

  constexpr auto operator<=>(const Time&) const noexcept = default;
  friend constexpr Time operator+(Time a, Time b) noexcept { return Time{a.ns + b.ns}; }
  friend constexpr Time operator-(Time a, Time b) noexcept { return Time{a.ns - b.ns}; }
  friend constexpr Time operator*(Time a, std::int64_t k) noexcept { return Time{a.ns * k}; }
  friend constexpr Time operator*(std::int64_t k, Time a) noexcept { return Time{a.ns * k}; }
  constexpr Time operator-() const noexcept { return Time{-ns}; }
  constexpr Time& operator+=(Time b) noexcept {
    ns += b.ns;
    return *this;
  }
  constexpr Time& operator-=(Time b) noexcept {
    ns -= b.ns;
    return *this;
  }
};

/// A window of time [start, end) on a log's clock (half-open: windows [a, b) and [b, c) share
/// no instant); a bound left out leaves that side open.
struct TimeWindow {
  std::optional<Time> start{};  ///< none: from the beginning
  std::optional<Time> end{};    ///< none: to the end
  /// True when start ≤ t < end.
  [[nodiscard]] constexpr bool contains(Time t) const noexcept {
    return (!start || t >= *start) && (!end || t < *end);
  }
  friend constexpr bool operator==(const TimeWindow&, const TimeWindow&) = default;
};

/// The Time nearest to `seconds` (ties to even), computed exactly from the double;
/// nothing for NaN, infinities and times beyond ±9.2e9 s. Exact for every double that is the
/// nearest double to a whole number of nanoseconds below 2^53 ns (104 days), so for decimal
/// numbers of up to nine decimals there; for text, parse_time() is exact everywhere.
[[nodiscard]] RMODEL_API std::optional<Time> time_from_seconds(double seconds) noexcept;

/// Outcome of parse_time().
enum class TimeParseStatus {
  ok,
  invalid,       ///< not a decimal number
  out_of_range,  ///< beyond ±9223372036.854775807 s
};

/// Reads decimal seconds exactly: an optional sign (`+`, `-`), digits with an optional `.`
/// (`5.`, `.5` accepted), an optional exponent (`e`/`E`, sign, digits). The whole text is
/// consumed (no blanks). More than nine decimals are rounded to the nearest nanosecond, ties
/// to even (`0.0000000015` → 2 ns). On invalid or out_of_range `out` is unchanged.
[[nodiscard]] RMODEL_API TimeParseStatus parse_time(std::string_view text, Time& out) noexcept;

/// parse_time() for a command-line value: the Time, or InvalidArgument naming `what`
/// ("'--period': 'abc' is not a time in seconds").
[[nodiscard]] RMODEL_API Time parse_time(std::string_view text, std::string_view what);

/// Longest text write_time() writes: `-9223372036.854775808`.
inline constexpr std::size_t kMaxTimeChars = 21;

/// Writes the shortest decimal seconds that parse_time() reads back as `t` (no exponent,
/// no trailing zeros, `0` for zero); returns the end. kMaxTimeChars bytes must be writable.
RMODEL_API char* write_time(char* out, Time t) noexcept;

/// write_time() as a string (`1700000000.01`).
[[nodiscard]] RMODEL_API std::string to_string(Time t);

}  // namespace rmodel
