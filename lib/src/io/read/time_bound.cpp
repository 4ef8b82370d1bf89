// The ends of a time window as a command line writes them (reader.hpp, parse_time_bound):
// seconds after the log's first message, absolute decimal seconds, or RFC 3339 date-times, all
// read exactly into integer nanoseconds (never through a double).
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/io/reader.hpp"

namespace rmodel::io {

namespace {

/// Decimal seconds from this value on are absolute (epoch) times: 10⁹ s is 2001-09-09, so a
/// recording's own seconds (hours, days) are relative and any ROS wall-clock stamp absolute.
constexpr std::int64_t kAbsoluteFromNs = std::int64_t{1'000'000'000} * 1'000'000'000;

[[noreturn]] void bad_bound(std::string_view option, std::string_view text, std::string_view why) {
  throw InvalidArgument(fmt::format("'{}': '{}' {}", option, text, why));
}

/// Reads exactly `n` digits at `pos` into `value`.
bool take_digits(std::string_view s, std::size_t& pos, std::size_t n, int& value) {
  if (s.size() - pos < n) return false;
  value = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  pos += n;
  return true;
}

/// RFC 3339 `date-time`: YYYY-MM-DD(T|t| )hh:mm:ss[.fraction](Z|z|(+|-)hh:mm). A leap second
/// (ss = 60) is the second after :59, as POSIX time counts it.
TimeBound parse_rfc3339(std::string_view text, std::string_view option) {
  constexpr std::string_view kForm = "is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss[.frac]Z or ±hh:mm)";
  std::size_t pos = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  const auto expect = [&](char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  };
  if (!take_digits(text, pos, 4, year) || !expect('-') || !take_digits(text, pos, 2, month) || !expect('-') ||
      !take_digits(text, pos, 2, day))
    bad_bound(option, text, kForm);
  if (!(expect('T') || expect('t') || expect(' '))) bad_bound(option, text, kForm);
  if (!take_digits(text, pos, 2, hour) || !expect(':') || !take_digits(text, pos, 2, minute) || !expect(':') ||
      !take_digits(text, pos, 2, second))
    bad_bound(option, text, kForm);
  std::string_view fraction;
  if (expect('.')) {
    const std::size_t from = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
    fraction = text.substr(from, pos - from);
    if (fraction.empty()) bad_bound(option, text, kForm);
  }
  int offset_minutes = 0;
  if (expect('Z') || expect('z')) {
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const bool minus = text[pos++] == '-';
    int oh = 0, om = 0;
    if (!take_digits(text, pos, 2, oh) || !expect(':') || !take_digits(text, pos, 2, om))
      bad_bound(option, text, kForm);
    if (oh > 23 || om > 59) bad_bound(option, text, "has a UTC offset out of range (at most ±23:59)");
    offset_minutes = (minus ? -1 : 1) * (oh * 60 + om);
  } else {
    bad_bound(option, text, "has no time zone: end it with Z (UTC) or an offset such as +01:00");
  }
  if (pos != text.size()) bad_bound(option, text, kForm);
  const std::chrono::year_month_day date{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok()) bad_bound(option, text, "is not a valid date");
  if (hour > 23 || minute > 59 || second > 60) bad_bound(option, text, "is not a valid time of day");
  const std::int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
  const std::int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - std::int64_t{offset_minutes} * 60;
  Time frac;
  if (!fraction.empty() && parse_time("0." + std::string(fraction), frac) != TimeParseStatus::ok)
    bad_bound(option, text, kForm);
  const std::optional<Time> whole = Time::from_stamp(seconds, frac.ns);
  if (!whole) bad_bound(option, text, "is beyond the range of times (±9223372036.854775807 s)");
  return TimeBound{*whole, false};
}

}  // namespace

TimeBound parse_time_bound(std::string_view text, std::string_view option) {
  if (text.empty()) bad_bound(option, text, "is not a time: give seconds after the log's first message, "
                                            "@SECONDS, or an RFC 3339 date-time");
  // A date has its '-' after four digits; a decimal number never does.
  if (text.size() >= 5 && text[4] == '-') return parse_rfc3339(text, option);
  const bool at = text.front() == '@';
  const std::string_view number = at ? text.substr(1) : text;
  Time t;
  switch (parse_time(number, t)) {
    case TimeParseStatus::ok: break;
    case TimeParseStatus::invalid:
      bad_bound(option, text, "is not a time: give seconds after the log's first message (2.5), absolute "
                              "seconds (1700000000.5 or @12.5) or an RFC 3339 date-time (2023-11-14T22:13:20.5Z)");
    case TimeParseStatus::out_of_range: bad_bound(option, text, "is beyond the range of times (±9223372036.854775807 s)");
  }
  if (at) return TimeBound{t, false};
  if (t.ns < 0)
    bad_bound(option, text, "is before the log's first message (write an absolute time as @SECONDS)");
  return TimeBound{t, t.ns < kAbsoluteFromNs};
}

}  // namespace rmodel::io
