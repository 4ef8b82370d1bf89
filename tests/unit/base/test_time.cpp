// rmodel::Time: decimal seconds read exactly into integer nanoseconds (rounded to nearest,
// ties to even, beyond nine decimals), written back as the shortest decimal, the ROS stamp
// split, and the conversions to and from double.
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "rmodel/base/error.hpp"
#include "rmodel/base/time.hpp"

using rmodel::Time;
using rmodel::TimeParseStatus;

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

Time parsed(const std::string& text) {
  Time t{-42};
  EXPECT_EQ(rmodel::parse_time(text, t), TimeParseStatus::ok) << text;
  return t;
}

// The decimal of n nanoseconds with all nine decimals, written independently of write_time.
std::string nine_decimals(std::int64_t n) {
  const bool negative = n < 0;
  const std::uint64_t u = negative ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
  return fmt::format("{}{}.{:09}", negative ? "-" : "", u / 1'000'000'000, u % 1'000'000'000);
}

}  // namespace

TEST(Time, DecimalsAreReadExactly) {
  EXPECT_EQ(parsed("1700000000.01"), Time{1700000000'010000000});
  EXPECT_EQ(parsed("1700000000.13"), Time{1700000000'130000000});
  EXPECT_EQ(parsed("0.000000001"), Time{1});
  EXPECT_EQ(parsed("-0.000000001"), Time{-1});
  EXPECT_EQ(parsed("0.3"), Time{300'000'000});
  EXPECT_EQ(parsed("12"), Time{12'000'000'000});
  EXPECT_EQ(parsed("+12.5"), Time{12'500'000'000});
  EXPECT_EQ(parsed("-0"), Time{0});
  EXPECT_EQ(parsed("5."), Time{5'000'000'000});
  EXPECT_EQ(parsed(".5"), Time{500'000'000});
  EXPECT_EQ(parsed("0000.0100"), Time{10'000'000});
  // Exponents shift the decimal point, still exactly.
  EXPECT_EQ(parsed("1e-9"), Time{1});
  EXPECT_EQ(parsed("1.5e-3"), Time{1'500'000});
  EXPECT_EQ(parsed("17E8"), Time{1'700'000'000'000'000'000});
  EXPECT_EQ(parsed("1700000000010000000e-9"), Time{1700000000'010000000});
  EXPECT_EQ(parsed("0e999999999999999999"), Time{0});
  EXPECT_EQ(parsed("1e-999999999999999999"), Time{0});
  // The ends of the range.
  EXPECT_EQ(parsed("9223372036.854775807"), Time{kMax});
  EXPECT_EQ(parsed("-9223372036.854775808"), Time{kMin});
}

TEST(Time, MoreThanNineDecimalsRoundToNearestTiesToEven) {
  EXPECT_EQ(parsed("0.0000000014"), Time{1});
  EXPECT_EQ(parsed("0.0000000016"), Time{2});
  EXPECT_EQ(parsed("0.0000000015"), Time{2});  // tie: even
  EXPECT_EQ(parsed("0.0000000025"), Time{2});  // tie: even
  EXPECT_EQ(parsed("0.00000000250000000001"), Time{3});
  EXPECT_EQ(parsed("-0.0000000025"), Time{-2});
  EXPECT_EQ(parsed("-0.0000000035"), Time{-4});
  EXPECT_EQ(parsed("0.0000000005"), Time{0});  // tie between 0 and 1
  EXPECT_EQ(parsed("0.00000000049999"), Time{0});
  EXPECT_EQ(parsed("0.00000000000001"), Time{0});
  EXPECT_EQ(parsed("1.9999999999"), Time{2'000'000'000});  // the carry
  // A double printed with 17 digits reads as the decimal it stands for.
  EXPECT_EQ(parsed("0.10000000000000001"), Time{100'000'000});
  EXPECT_EQ(parsed("1700000000.0100002"), Time{1700000000'010000200});
}

TEST(Time, RandomDecimalsWithExtraDigitsAgainstAnIndependentRounding) {
  std::mt19937_64 rng(2111);
  for (int i = 0; i < 20000; ++i) {
    const auto n = static_cast<std::int64_t>(rng() % 2'000'000'000'000'000'000ULL) - 1'000'000'000'000'000'000LL;
    std::string extra;
    const int digits = static_cast<int>(rng() % 6);
    for (int k = 0; k < digits; ++k) extra += static_cast<char>('0' + (k == 0 && rng() % 3 == 0 ? 5 : rng() % 10));
    // The oracle: the dropped digits against one half, ties to the even neighbour, away
    // from zero in magnitude.
    std::int64_t want = n;
    if (!extra.empty()) {
      const std::string half = "5" + std::string(extra.size() - 1, '0');
      const int cmp = extra.compare(half);
      const std::int64_t magnitude_step = n < 0 ? -1 : 1;
      if (cmp > 0 || (cmp == 0 && (n % 2) != 0)) want = n + magnitude_step;
    }
    const std::string text = nine_decimals(n) + extra;
    EXPECT_EQ(parsed(text), Time{want}) << text;
  }
}

TEST(Time, BadTextAndOutOfRange) {
  Time t{7};
  for (const char* bad : {"", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", " 1", "1 ", "0x10", "nan", "inf", "1,5",
                          "--1", "1e5x"})
    EXPECT_EQ(rmodel::parse_time(bad, t), TimeParseStatus::invalid) << bad;
  for (const char* far : {"9223372036.854775808", "-9223372036.854775809", "1e10", "-1e10", "99999999999",
                          "9223372036.8547758075"})
    EXPECT_EQ(rmodel::parse_time(far, t), TimeParseStatus::out_of_range) << far;
  EXPECT_EQ(t, Time{7});  // unchanged
  EXPECT_THROW((void)rmodel::parse_time("abc", "--period"), rmodel::InvalidArgument);
  try {
    (void)rmodel::parse_time("abc", "--period");
  } catch (const rmodel::InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "--period: 'abc' is not a time in seconds");
  }
}

TEST(Time, WrittenAsTheShortestDecimalThatReadsBack) {
  EXPECT_EQ(rmodel::to_string(Time{1700000000'010000000}), "1700000000.01");
  EXPECT_EQ(rmodel::to_string(Time{1}), "0.000000001");
  EXPECT_EQ(rmodel::to_string(Time{-1}), "-0.000000001");
  EXPECT_EQ(rmodel::to_string(Time{0}), "0");
  EXPECT_EQ(rmodel::to_string(Time{12'000'000'000}), "12");
  EXPECT_EQ(rmodel::to_string(Time{-500'000'000}), "-0.5");
  EXPECT_EQ(rmodel::to_string(Time{kMax}), "9223372036.854775807");
  EXPECT_EQ(rmodel::to_string(Time{kMin}), "-9223372036.854775808");
  EXPECT_EQ(rmodel::to_string(Time{kMin}).size(), rmodel::kMaxTimeChars);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const Time t{static_cast<std::int64_t>(rng()) >> (rng() % 60)};
    // Nine decimals with the trailing zeros (and a bare '.') removed: the shortest form.
    std::string want = nine_decimals(t.ns);
    while (want.back() == '0') want.pop_back();
    if (want.back() == '.') want.pop_back();
    const std::string text = rmodel::to_string(t);
    EXPECT_EQ(text, want);
    EXPECT_EQ(parsed(text), t);
  }
}

TEST(Time, RosStampSplitAndSeconds) {
  EXPECT_EQ(Time{-250'000'000}.sec(), -1);
  EXPECT_EQ(Time{-250'000'000}.nanosec(), 750'000'000);
  EXPECT_EQ(Time{1700000000'010000000}.sec(), 1700000000);
  EXPECT_EQ(Time{1700000000'010000000}.nanosec(), 10'000'000);
  EXPECT_EQ(Time{-2'000'000'000}.sec(), -2);
  EXPECT_EQ(Time{-2'000'000'000}.nanosec(), 0);
  EXPECT_EQ(Time::from_stamp(1700000000, 10'000'000), Time{1700000000'010000000});
  EXPECT_EQ(Time::from_stamp(-3, 750'000'000), Time{-2'250'000'000});
  EXPECT_FALSE(Time::from_stamp(kMax, 0).has_value());
  // seconds(): the double nearest to ns·1e-9 (0.3, not 0 + 300000000·1e-9).
  EXPECT_EQ(Time{300'000'000}.seconds(), 0.3);
  EXPECT_EQ(Time{10'000'000}.seconds(), 0.01);
  // A 10 ms step is 0.01 s wherever the clock's zero is: the subtraction comes first.
  EXPECT_EQ((Time{1700000000'020000000} - Time{1700000000'010000000}).seconds(), 0.01);
  EXPECT_EQ(Time{1700000000'010000000}.seconds(), 1700000000.01);
}

TEST(Time, FromSecondsIsTheNearestNanosecond) {
  EXPECT_EQ(rmodel::time_from_seconds(0.3), Time{300'000'000});
  EXPECT_EQ(rmodel::time_from_seconds(0.1 + 0.2), Time{300'000'000});
  EXPECT_EQ(rmodel::time_from_seconds(-1e-9), Time{-1});
  EXPECT_EQ(rmodel::time_from_seconds(1700000000.01), Time{1700000000'009999990});  // the double's own value
  EXPECT_EQ(rmodel::time_from_seconds(0x1p-31), Time{0});          // 0.4656... ns
  EXPECT_EQ(rmodel::time_from_seconds(0.0009765625), Time{976562});  // 976562.5 ns: tie to even
  EXPECT_FALSE(rmodel::time_from_seconds(std::numeric_limits<double>::quiet_NaN()).has_value());
  EXPECT_FALSE(rmodel::time_from_seconds(std::numeric_limits<double>::infinity()).has_value());
  EXPECT_FALSE(rmodel::time_from_seconds(1e10).has_value());
  // Every decimal of up to nine digits below 104 days comes back exactly.
  std::mt19937_64 rng(99);
  for (int i = 0; i < 20000; ++i) {
    const auto n = static_cast<std::int64_t>(rng() % (std::uint64_t{1} << 53)) - (std::int64_t{1} << 52);
    EXPECT_EQ(rmodel::time_from_seconds(std::stod(nine_decimals(n))), Time{n}) << n;
  }
}
