// Time windows (ReaderOptions::start/end) and merging by time (MessageReader::merge), issue 25:
// a windowed reading equals the full replay filtered by time, on text logs, MCAP (indexed and
// without summary) and ROS 1 bags; on indexed logs only the chunks overlapping the window are
// read; the window's bounds parse exactly; a merge equals the stable sort of the union.
#include <gtest/gtest.h>

#include <time.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rmodel/base/error.hpp"
#include "rmodel/io/reader.hpp"
#include "ros_log_builders.hpp"
#include "test_support.hpp"

namespace rmodel::window_tests {

namespace fs = std::filesystem;
using io::MessageReader;
using io::ReaderOptions;
using io::ReadStatus;
using io::TimeBound;

constexpr std::int64_t kSecond = 1'000'000'000;

io::ReaderOptions with_time(io::TimeSource time) {
  io::ReaderOptions o;
  o.time = time;
  return o;
}

/// Every message of `path` read with `options`, with the reader's stats at the end.
struct Replay {
  std::vector<io::Message> messages;
  io::ReaderStats stats;
  std::size_t errors = 0;
};
Replay replay(const std::string& path, const io::ReaderOptions& options) {
  Replay r;
  MessageReader reader = MessageReader::open(path, options);
  io::Message m;
  for (;;) {
    const ReadStatus st = reader.next(m);
    if (st == ReadStatus::End) break;
    if (st == ReadStatus::Ok) r.messages.push_back(m);
    else ++r.errors;
  }
  r.stats = reader.stats();
  return r;
}

/// The messages of `all` with lo ≤ stamp < hi (the oracle of a window: the documented rule).
std::vector<io::Message> cut(const std::vector<io::Message>& all, std::int64_t lo, std::int64_t hi) {
  std::vector<io::Message> out;
  for (const auto& m : all)
    if (m.stamp().ns >= lo && m.stamp().ns < hi) out.push_back(m);
  return out;
}

void expect_same_messages(const std::vector<io::Message>& got, const std::vector<io::Message>& want,
                          const std::string& what, bool same_numbers = true) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].stamp(), want[i].stamp()) << what << " message " << i;
    ASSERT_EQ(got[i].joint.name, want[i].joint.name) << what << " message " << i;
    ASSERT_EQ(got[i].joint.position, want[i].joint.position) << what << " message " << i;
    // Message numbers of binary logs count the messages read: chunks skipped are not counted.
    if (same_numbers) {
      ASSERT_EQ(got[i].line, want[i].line) << what << " message " << i;
    }
  }
}

// ---- parsing the bounds ----

TEST(TimeWindowParse, DecimalSecondsBelowTenToTheNineAreRelative) {
  EXPECT_EQ(io::parse_time_bound("2.5", "--start"), (TimeBound{Time{2'500'000'000}, true}));
  EXPECT_EQ(io::parse_time_bound("0", "--start"), (TimeBound{Time{0}, true}));
  EXPECT_EQ(io::parse_time_bound("999999999.999999999", "--end"), (TimeBound{Time{1'000'000'000 * kSecond - 1}, true}));
  EXPECT_EQ(io::parse_time_bound("1e-9", "--end"), (TimeBound{Time{1}, true}));
}

TEST(TimeWindowParse, DecimalSecondsFromTenToTheNineAreAbsoluteAndExact) {
  EXPECT_EQ(io::parse_time_bound("1000000000", "--start"), (TimeBound{Time{1'000'000'000 * kSecond}, false}));
  // 1700000000.123456789 is not a double; the bound keeps every nanosecond.
  EXPECT_EQ(io::parse_time_bound("1700000000.123456789", "--start"),
            (TimeBound{Time{1'700'000'000'123'456'789}, false}));
  EXPECT_EQ(io::parse_time_bound("1700000000.0000000015", "--start").time, Time{1'700'000'000 * kSecond + 2});
  EXPECT_EQ(io::parse_time_bound("@12.5", "--start"), (TimeBound{Time{12'500'000'000}, false}));
  EXPECT_EQ(io::parse_time_bound("@-0.5", "--start"), (TimeBound{Time{-500'000'000}, false}));
}

TEST(TimeWindowParse, Rfc3339MatchesTimegm) {
  EXPECT_EQ(io::parse_time_bound("2023-11-14T22:13:20.5Z", "--start"),
            (TimeBound{Time{1'700'000'000'500'000'000}, false}));
  EXPECT_EQ(io::parse_time_bound("2023-11-14T23:13:20.5+01:00", "--start").time, Time{1'700'000'000'500'000'000});
  EXPECT_EQ(io::parse_time_bound("2023-11-14 16:43:20.123456789-05:30", "--start").time,
            Time{1'700'000'000'123'456'789});
  EXPECT_EQ(io::parse_time_bound("2023-11-14t22:13:20z", "--start").time, Time{1'700'000'000 * kSecond});
  EXPECT_EQ(io::parse_time_bound("1969-12-31T23:59:59.5Z", "--start").time, Time{-500'000'000});
  // A leap second is the second after :59, as POSIX time counts.
  EXPECT_EQ(io::parse_time_bound("2016-12-31T23:59:60Z", "--start").time, Time{1'483'228'800 * kSecond});
  // The C library's timegm as the oracle, on dates drawn with a fixed seed.
  std::mt19937_64 rng(25);
  for (int i = 0; i < 200; ++i) {
    std::tm tm{};
    tm.tm_year = static_cast<int>(rng() % 200);  // 1900..2099
    tm.tm_mon = static_cast<int>(rng() % 12);
    tm.tm_mday = 1 + static_cast<int>(rng() % 28);
    tm.tm_hour = static_cast<int>(rng() % 24);
    tm.tm_min = static_cast<int>(rng() % 60);
    tm.tm_sec = static_cast<int>(rng() % 60);
    const int offset = static_cast<int>(rng() % (2 * 24 * 60 - 1)) - (24 * 60 - 1);  // minutes, ±23:59
    const auto nanos = static_cast<std::int64_t>(rng() % kSecond);
    std::tm copy = tm;
    const std::int64_t utc = static_cast<std::int64_t>(timegm(&copy)) - std::int64_t{offset} * 60;
    const std::string text =
        fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:09}{}{:02}:{:02}", tm.tm_year + 1900, tm.tm_mon + 1,
                    tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, nanos, offset < 0 ? '-' : '+',
                    std::abs(offset) / 60, std::abs(offset) % 60);
    EXPECT_EQ(io::parse_time_bound(text, "--end").time, Time{utc * kSecond + nanos}) << text;
  }
}

void expect_refused(const std::string& text, const std::string& option, const std::string& why) {
  try {
    (void)io::parse_time_bound(text, option);
    ADD_FAILURE() << text << " was accepted";
  } catch (const InvalidArgument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'" + option + "'"), std::string::npos) << message;
    EXPECT_NE(message.find("'" + text + "'"), std::string::npos) << message;
    EXPECT_NE(message.find(why), std::string::npos) << message;
  }
}

TEST(TimeWindowParse, ErrorsNameTheOptionAndTheValue) {
  expect_refused("-1", "--start", "before the log's first message");
  expect_refused("abc", "--start", "is not a time");
  expect_refused("", "--end", "is not a time");
  expect_refused("1.5s", "--end", "is not a time");
  expect_refused("@", "--end", "is not a time");
  expect_refused("99999999999", "--end", "beyond the range");
  expect_refused("2023-02-29T00:00:00Z", "--start", "not a valid date");
  expect_refused("2023-11-14T24:00:00Z", "--start", "not a valid time of day");
  expect_refused("2023-11-14T22:61:00Z", "--start", "not a valid time of day");
  expect_refused("2023-11-14T22:13:20", "--start", "no time zone");
  expect_refused("2023-11-14T22:13:20+24:00", "--start", "offset out of range");
  expect_refused("2023-11-14T22:13:20.Z", "--start", "RFC 3339");
  expect_refused("2023-11-14", "--start", "RFC 3339");
  expect_refused("2023-11-14T22:13:20Zjunk", "--start", "RFC 3339");
}

// ---- windows equal the filtered replay ----

/// Checks windows of several kinds on `path` read by `time` against the full replay cut by the
/// same rule; returns the full replay.
std::vector<io::Message> check_windows(const std::string& path, io::TimeSource time) {
  const auto full = replay(path, with_time(time)).messages;
  EXPECT_GT(full.size(), 10U) << path;
  if (full.size() <= 10) return full;
  const std::int64_t first = full.front().stamp().ns;
  const std::int64_t mid = full[full.size() / 2].stamp().ns;
  const std::int64_t late = full[full.size() * 3 / 4].stamp().ns;
  const auto expect_window = [&](const ReaderOptions& o, const std::vector<io::Message>& want, const std::string& what) {
    const Replay r = replay(path, o);
    expect_same_messages(r.messages, want, what, r.stats.chunks_skipped == 0);
  };
  const auto name = [&](const std::string& w) {
    return fmt::format("{} --time {} {}", path, time == io::TimeSource::Log ? "log" : "header", w);
  };
  {  // absolute, both ends, an end exactly on a stamp (excluded) and a start on one (included)
    ReaderOptions o = with_time(time);
    o.start = TimeBound{Time{mid}, false};
    o.end = TimeBound{Time{late}, false};
    const Replay r = replay(path, o);
    expect_same_messages(r.messages, cut(full, mid, late), name("absolute [mid, late)"), r.stats.chunks_skipped == 0);
    // Every message is read and left out, unless whole chunks were skipped unread.
    if (r.stats.chunks_skipped == 0) {
      EXPECT_EQ(r.stats.outside_window, full.size() - r.messages.size()) << path;
    } else {
      EXPECT_LT(r.stats.outside_window, full.size() - r.messages.size()) << path;
    }
  }
  {  // relative: from the first message
    ReaderOptions o = with_time(time);
    o.start = TimeBound{Time{mid - first}, true};
    o.end = TimeBound{Time{late - first + 1}, true};
    expect_window(o, cut(full, mid, late + 1), name("relative"));
  }
  {  // only a start, only an end
    ReaderOptions o = with_time(time);
    o.start = TimeBound{Time{late}, false};
    expect_window(o, cut(full, late, INT64_MAX), name("start only"));
    ReaderOptions e = with_time(time);
    e.end = TimeBound{Time{mid - first}, true};
    expect_window(e, cut(full, INT64_MIN, mid), name("end only"));
  }
  {  // a window between two messages' times, and one after the log
    ReaderOptions o = with_time(time);
    o.start = TimeBound{Time{mid + 1}, false};
    o.end = TimeBound{Time{mid + 2}, false};
    expect_window(o, cut(full, mid + 1, mid + 2), name("between"));
    const auto latest = std::max_element(full.begin(), full.end(), [](const io::Message& a, const io::Message& b) {
      return a.stamp() < b.stamp();
    });
    o.start = TimeBound{Time{latest->stamp().ns + 1}, false};
    o.end.reset();
    EXPECT_TRUE(replay(path, o).messages.empty()) << name("after the end");
  }
  return full;
}

TEST(TimeWindow, FixtureLogsEqualTheFilteredReplay) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* file : {"bags/greeting.zstd.mcap", "bags/greeting.lz4.mcap", "bags/hoof_wave.mcap",
                           "bags/hoof_wave.zstd.mcap", "bags/greeting.bag", "bags/greeting.bz2.bag",
                           "bags/hoof_wave.lz4.bag", "bags/greeting_db3"}) {
    for (const auto time : {io::TimeSource::Header, io::TimeSource::Log})
      check_windows(test::fixture(file).string(), time);
  }
}

// The count in a window by log time, against the truth file's log times (not our reader).
TEST(TimeWindow, LogTimeWindowCountsMatchTheTruth) {
  RMODEL_REQUIRE_FIXTURES();
  std::vector<std::int64_t> log_times;
  for (const auto& line : test::json_lines(test::read_file(test::fixture("bags/greeting.truth.jsonl"))))
    log_times.push_back(line["log_time_ns"].get<std::int64_t>());
  ASSERT_EQ(log_times.size(), 1383U);
  const std::int64_t lo = log_times[400], hi = log_times[700] + 1;
  const auto expected = static_cast<std::size_t>(
      std::count_if(log_times.begin(), log_times.end(), [&](std::int64_t t) { return t >= lo && t < hi; }));
  for (const char* file : {"bags/greeting.zstd.mcap", "bags/greeting.bag", "bags/greeting.bz2.bag", "bags/greeting_db3"}) {
    ReaderOptions o = with_time(io::TimeSource::Log);
    o.start = TimeBound{Time{lo}, false};
    o.end = TimeBound{Time{hi}, false};
    const Replay r = replay(test::fixture(file).string(), o);
    EXPECT_EQ(r.messages.size(), expected) << file;
    if (r.stats.chunks_skipped == 0) {
      EXPECT_EQ(r.messages.size() + r.stats.outside_window, log_times.size()) << file;
    }
  }
}

// One message's log time as the window: it lies in exactly one of the file's chunks (the files
// are written in log order, so the chunks' ranges do not overlap): one chunk is read.
TEST(TimeWindow, IndexedLogsReadOnlyTheChunksOverlappingTheWindow) {
  RMODEL_REQUIRE_FIXTURES();
  std::vector<std::int64_t> log_times;
  for (const auto& line : test::json_lines(test::read_file(test::fixture("bags/greeting.truth.jsonl"))))
    log_times.push_back(line["log_time_ns"].get<std::int64_t>());
  const std::int64_t t = log_times[log_times.size() / 2];
  // README: greeting's MCAP files and ROS 1 bags have 5 chunks each.
  for (const char* file : {"bags/greeting.zstd.mcap", "bags/greeting.lz4.mcap", "bags/greeting.bag",
                           "bags/greeting.bz2.bag"}) {
    const std::string path = test::fixture(file).string();
    const Replay all = replay(path, with_time(io::TimeSource::Log));
    EXPECT_EQ(all.stats.chunks_read, 5U) << file;
    EXPECT_EQ(all.stats.chunks_skipped, 0U) << file;
    ReaderOptions o = with_time(io::TimeSource::Log);
    o.start = TimeBound{Time{t}, false};
    o.end = TimeBound{Time{t + 1}, false};
    const Replay one = replay(path, o);
    ASSERT_EQ(one.messages.size(), 1U) << file;
    EXPECT_EQ(one.messages[0].stamp(), Time{t}) << file;
    EXPECT_EQ(one.stats.chunks_read, 1U) << file;
    EXPECT_EQ(one.stats.chunks_skipped, 4U) << file;
    // (The 70 KB bz2 bag fits in the reader's first 64 KiB read: nothing to save there.)
    if (all.stats.bytes_read > 200'000) {
      EXPECT_LT(one.stats.bytes_read, all.stats.bytes_read) << file;
    }
    // By header stamps the chunks' log-time ranges say nothing: every chunk is read.
    ReaderOptions h = with_time(io::TimeSource::Header);
    h.start = TimeBound{Time{t}, false};
    h.end = TimeBound{Time{t + 1}, false};
    EXPECT_EQ(replay(path, h).stats.chunks_read, 5U) << file;
  }
}

// Logs the tests build themselves: JSON Lines (out of order too), MCAP without summary, a ROS 1
// bag as rosbag writes it.
TEST(TimeWindow, BuiltLogsEqualTheFilteredReplay) {
  const fs::path dir = test::make_temp_dir("rmodel_window");
  const std::vector<std::string> names{"a", "b"};
  std::vector<test::Ros1Message> ros1;
  std::vector<test::McapMessage> mcap;
  std::string jsonl;
  for (std::uint32_t k = 0; k < 60; ++k) {
    const std::uint32_t sec = 1'700'000'000 + k / 10, nsec = (k % 10) * 100'000'000;
    // Out of order now and then: the window is by each message's own time.
    const std::uint32_t shown = k % 7 == 3 ? nsec / 2 : nsec;
    ros1.push_back({1, std::int64_t{sec} * kSecond + nsec + 1000, test::ros1_joint_state(k, sec, shown, names, {k * 0.1, -k * 0.1})});
    jsonl += fmt::format(R"({{"t":{}.{:09},"name":["a","b"],"position":[{},{}]}})" "\n", sec, shown, k * 0.1, -k * 0.1);
  }
  const fs::path bag = dir / "built.bag";
  std::ofstream(bag, std::ios::binary) << test::ros1_bag({{1, "/joint_states", "sensor_msgs/JointState", "/driver"}}, ros1);
  const fs::path text = dir / "built.jsonl";
  std::ofstream(text, std::ios::binary) << jsonl;
  for (const auto& path : {bag, text})
    for (const auto time : {io::TimeSource::Header, io::TimeSource::Log})
      check_windows(path.string(), time);
  fs::remove_all(dir);
}

// ---- an MCAP without summary, its channel declared only in its first chunk ----

using WindowBytes = test::LeBytes;

/// CDR sensor_msgs/msg/JointState with one joint, from the CDR rules (4-byte encapsulation
/// header, alignment counted from its end).
std::string window_cdr_joint_state(std::int32_t sec, std::uint32_t nsec, double position) {
  WindowBytes b;
  b.s = std::string("\x00\x01\x00\x00", 4);
  const auto align = [&](std::size_t n) {
    while ((b.s.size() - 4) % n) b.s += '\0';
  };
  b.le(sec);
  b.le(nsec);
  b.le(std::uint32_t{1});  // frame_id ""
  b.s += '\0';
  align(4);
  b.le(std::uint32_t{1});
  b.le(std::uint32_t{2});
  b.s += std::string("a\0", 2);
  align(4);
  b.le(std::uint32_t{1});
  align(8);
  b.le(std::bit_cast<std::uint64_t>(position));
  b.le(std::uint32_t{0});  // velocity
  b.le(std::uint32_t{0});  // effort
  return b.s;
}

/// `chunks` uncompressed chunks of `per_chunk` messages at log times 1700000000 s + k·10 ms (the
/// stamp 1 ms earlier); the schema and channel records only in the first chunk (as a writer
/// declares a channel once); no summary. CRC 0: not checked, as the specification allows.
std::string window_mcap_without_summary(int chunks, int per_chunk) {
  WindowBytes f;
  f.s = std::string("\x89MCAP0\r\n", 8);
  WindowBytes h;
  h.str("ros2");
  h.str("rmodel window test");
  f.record(0x01, h.s);
  for (int c = 0; c < chunks; ++c) {
    WindowBytes records;
    if (c == 0) records.s += test::mcap_joint_state_declarations();
    const auto time_of = [](int k) { return std::uint64_t{1'700'000'000} * kSecond + static_cast<std::uint64_t>(k) * 10'000'000; };
    for (int i = 0; i < per_chunk; ++i) {
      const int k = c * per_chunk + i;
      const std::uint64_t stamp = time_of(k) - 1'000'000;
      WindowBytes m;
      m.le(std::uint16_t{1});
      m.le(static_cast<std::uint32_t>(k));
      m.le(time_of(k));
      m.le(time_of(k));
      m.s += window_cdr_joint_state(static_cast<std::int32_t>(stamp / kSecond), static_cast<std::uint32_t>(stamp % kSecond), k);
      records.record(0x05, m.s);
    }
    WindowBytes chunk;
    chunk.le(time_of(c * per_chunk));
    chunk.le(time_of(c * per_chunk + per_chunk - 1));
    chunk.le(static_cast<std::uint64_t>(records.s.size()));
    chunk.le(std::uint32_t{0});
    chunk.str("");
    chunk.le(static_cast<std::uint64_t>(records.s.size()));
    chunk.s += records.s;
    f.record(0x06, chunk.s);
  }
  WindowBytes de;
  de.le(std::uint32_t{0});
  f.record(0x0F, de.s);
  WindowBytes ft;
  ft.le(std::uint64_t{0});
  ft.le(std::uint64_t{0});
  ft.le(std::uint32_t{0});
  f.record(0x02, ft.s);
  f.s += std::string("\x89MCAP0\r\n", 8);
  return f.s;
}

TEST(TimeWindow, McapWithoutSummaryEqualsTheFilteredReplay) {
  const fs::path dir = test::make_temp_dir("rmodel_window_mcap");
  const fs::path path = dir / "no_summary.mcap";
  std::ofstream(path, std::ios::binary) << window_mcap_without_summary(10, 10);
  for (const auto time : {io::TimeSource::Header, io::TimeSource::Log}) {
    const auto full = check_windows(path.string(), time);
    ASSERT_EQ(full.size(), 100U);
  }
  // Messages 55..64 by log time: chunks 5 and 6, and chunk 0 for the channel's declaration
  // (its messages are not returned).
  ReaderOptions o = with_time(io::TimeSource::Log);
  o.start = TimeBound{Time{5 * 100'000'000 + 50'000'000}, true};
  o.end = TimeBound{Time{6 * 100'000'000 + 50'000'000}, true};
  const Replay r = replay(path.string(), o);
  ASSERT_EQ(r.messages.size(), 10U);
  for (std::size_t i = 0; i < r.messages.size(); ++i) EXPECT_EQ(r.messages[i].joint.position[0], 55.0 + static_cast<double>(i));
  EXPECT_EQ(r.errors, 0U);
  // The first chunk is read for the relative start (the first message), then 5 and 6.
  EXPECT_EQ(r.stats.chunks_read, 3U);
  EXPECT_EQ(r.stats.chunks_skipped, 7U);
  // An absolute window: chunk 0 only for its channel declaration.
  o.start = TimeBound{Time{1'700'000'000 * kSecond + 550'000'000}, false};
  o.end = TimeBound{Time{1'700'000'000 * kSecond + 650'000'000}, false};
  const Replay a = replay(path.string(), o);
  ASSERT_EQ(a.messages.size(), 10U);
  EXPECT_EQ(a.messages.front().joint.position[0], 55.0);
  EXPECT_EQ(a.stats.chunks_read, 3U);
  EXPECT_EQ(a.stats.chunks_skipped, 7U);
  fs::remove_all(dir);
}

TEST(TimeWindow, MessageWithoutTimeIsAnErrorInsideAWindow) {
  ReaderOptions o;
  o.start = TimeBound{Time{0}, true};
  const auto items = test::read_items(
      "{\"t\":1,\"name\":[\"a\"],\"position\":[1]}\n{\"name\":[\"a\"],\"position\":[2]}\n"
      "{\"t\":2,\"name\":[\"a\"],\"position\":[3]}\n",
      o);
  ASSERT_EQ(items.size(), 3U);  // a message, an error, a message
  EXPECT_EQ(items[0].status, ReadStatus::Ok);
  EXPECT_EQ(items[1].status, ReadStatus::Error);
  EXPECT_EQ(items[1].error.line, 2U);
  EXPECT_NE(items[1].error.reason.find("no time"), std::string::npos);
  EXPECT_EQ(items[2].status, ReadStatus::Ok);
  EXPECT_EQ(items[2].message.stamp(), Time{2 * kSecond});
}

TEST(TimeWindow, TheWindowAndTheSpanOfWhatWasReadAreKnownAfterTheFirstMessage) {
  // Out of order on purpose: the span is the earliest and the latest time read, in the window
  // or not (what an empty window's warning names).
  ReaderOptions o;
  o.start = TimeBound{Time{5 * kSecond}, true};
  std::istringstream in("{\"t\":3,\"name\":[\"a\"],\"position\":[1]}\n{\"t\":1,\"name\":[\"a\"],\"position\":[2]}\n"
                        "{\"t\":4,\"name\":[\"a\"],\"position\":[3]}\n");
  MessageReader reader(in, "memory", o);
  EXPECT_FALSE(reader.window());  // relative: known at the first message
  io::Message m;
  EXPECT_EQ(reader.next(m), ReadStatus::End);
  ASSERT_TRUE(reader.window());
  EXPECT_EQ(*reader.window(), (TimeWindow{Time{8 * kSecond}, std::nullopt}));
  const io::ReaderStats stats = reader.stats();
  EXPECT_EQ(stats.outside_window, 3U);
  EXPECT_EQ(stats.earliest, Time{1 * kSecond});
  EXPECT_EQ(stats.latest, Time{4 * kSecond});
  // Without a window nothing is resolved or tracked.
  std::istringstream again("{\"t\":3,\"name\":[\"a\"],\"position\":[1]}\n");
  MessageReader plain(again, "memory");
  EXPECT_EQ(plain.next(m), ReadStatus::Ok);
  EXPECT_FALSE(plain.window());
  EXPECT_FALSE(plain.stats().earliest);
}

// ---- merging ----

std::vector<io::Message> stable_union(const std::vector<std::vector<io::Message>>& inputs) {
  std::vector<io::Message> all;
  for (const auto& in : inputs) all.insert(all.end(), in.begin(), in.end());
  std::stable_sort(all.begin(), all.end(), [](const io::Message& a, const io::Message& b) { return a.stamp() < b.stamp(); });
  return all;
}

std::vector<io::Message> read_merged(const std::vector<std::string>& paths, const ReaderOptions& options,
                                     std::vector<std::string>* sources = nullptr) {
  std::vector<MessageReader> readers;
  for (const auto& p : paths) readers.push_back(MessageReader::open(p, options));
  MessageReader merged = MessageReader::merge(std::move(readers));
  std::vector<io::Message> out;
  io::Message m;
  for (;;) {
    const ReadStatus st = merged.next(m);
    if (st == ReadStatus::End) break;
    EXPECT_EQ(st, ReadStatus::Ok) << merged.error().to_string(merged.source());
    if (st != ReadStatus::Ok) continue;
    out.push_back(m);
    if (sources) sources->push_back(merged.source());
  }
  EXPECT_EQ(merged.message_count(), out.size());
  return out;
}

TEST(MergeByTime, TwoTextLogsEqualTheStableSortOfTheirUnion) {
  const fs::path dir = test::make_temp_dir("rmodel_merge");
  // Equal stamps across the inputs, runs of equal stamps in one input, interleaving.
  const std::vector<int> a_t{0, 10, 10, 20, 30, 30, 50, 70};
  const std::vector<int> b_t{5, 10, 10, 30, 40, 80, 80, 90};
  const auto write = [&](const fs::path& p, const std::vector<int>& ts, const char* joint) {
    std::ofstream f(p, std::ios::binary);
    for (std::size_t i = 0; i < ts.size(); ++i)
      f << fmt::format(R"({{"t":{}.{:03},"name":["{}"],"position":[{}]}})" "\n", 1700000000 + ts[i] / 1000,
                       ts[i] % 1000, joint, static_cast<double>(i));
  };
  write(dir / "a.jsonl", a_t, "a");
  write(dir / "b.jsonl", b_t, "b");
  const std::vector<std::string> paths{(dir / "a.jsonl").string(), (dir / "b.jsonl").string()};
  std::vector<std::string> sources;
  const auto merged = read_merged(paths, {}, &sources);
  const auto want = stable_union({test::read_log(paths[0]).messages, test::read_log(paths[1]).messages});
  expect_same_messages(merged, want, "merge a b");
  ASSERT_EQ(sources.size(), merged.size());
  for (std::size_t i = 0; i < merged.size(); ++i)
    EXPECT_EQ(sources[i], merged[i].joint.name[0] == "a" ? paths[0] : paths[1]) << i;
  // The other order puts b's messages first at equal stamps.
  const auto reversed = read_merged({paths[1], paths[0]}, {});
  expect_same_messages(reversed, stable_union({test::read_log(paths[1]).messages, test::read_log(paths[0]).messages}),
                       "merge b a");
  fs::remove_all(dir);
}

TEST(MergeByTime, FixtureLogsOfDifferentFormatsEqualTheStableSortOfTheirUnion) {
  RMODEL_REQUIRE_FIXTURES();
  const std::vector<std::string> paths{test::fixture("bags/hoof_wave.mcap").string(),
                                       test::fixture("bags/greeting.bag").string()};
  for (const auto time : {io::TimeSource::Header, io::TimeSource::Log}) {
    const auto merged = read_merged(paths, with_time(time));
    const auto want = stable_union({replay(paths[0], with_time(time)).messages, replay(paths[1], with_time(time)).messages});
    expect_same_messages(merged, want, "merge hoof_wave greeting");
  }
  // With a window each input is cut by its own reader.
  ReaderOptions o = with_time(io::TimeSource::Log);
  o.start = TimeBound{Time{1 * kSecond}, true};
  o.end = TimeBound{Time{2 * kSecond}, true};
  const auto merged = read_merged(paths, o);
  const auto want = stable_union({replay(paths[0], o).messages, replay(paths[1], o).messages});
  expect_same_messages(merged, want, "merge with a window");
  EXPECT_FALSE(merged.empty());
}

TEST(MergeByTime, ErrorsPassThroughNamingTheirInput) {
  const fs::path dir = test::make_temp_dir("rmodel_merge_err");
  std::ofstream(dir / "good.jsonl") << "{\"t\":1,\"name\":[\"a\"],\"position\":[1]}\n{\"t\":3,\"name\":[\"a\"],\"position\":[3]}\n";
  std::ofstream(dir / "bad.jsonl") << "{\"t\":2,\"name\":[\"b\"],\"position\":[2]}\nnot json\n";
  std::vector<MessageReader> readers;
  readers.push_back(MessageReader::open((dir / "good.jsonl").string()));
  readers.push_back(MessageReader::open((dir / "bad.jsonl").string()));
  MessageReader merged = MessageReader::merge(std::move(readers));
  io::Message m;
  std::vector<std::string> seen;
  for (;;) {
    const ReadStatus st = merged.next(m);
    if (st == ReadStatus::End) break;
    if (st == ReadStatus::Ok) seen.push_back(to_string(m.stamp()));
    else seen.push_back(merged.error().to_string(merged.source()));
  }
  ASSERT_EQ(seen.size(), 4U);
  EXPECT_EQ(seen[0], "1");
  EXPECT_EQ(seen[1], "2");
  EXPECT_NE(seen[2].find((dir / "bad.jsonl").string() + ":2:"), std::string::npos) << seen[2];
  EXPECT_EQ(seen[3], "3");
  EXPECT_EQ(merged.error_count(), 1U);
  fs::remove_all(dir);
}

}  // namespace rmodel::window_tests
