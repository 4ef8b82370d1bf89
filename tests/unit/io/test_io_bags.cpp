// ROS logs (io/bag.hpp): every fixture log (written by the formats' reference libraries) read
// message by message against its truth JSON Lines; corner files built here byte by byte from
// the MCAP specification (empty, truncated chunk, unknown compression, bad CRC, arrays that
// disagree with `name`); no allocation per JointState once warm.

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <thread>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "alloc_counter.hpp"
#include "rmodel/io/bag.hpp"
#include "rmodel/io/reader.hpp"
#include "ros_log_builders.hpp"
#include "test_support.hpp"

namespace io = rmodel::io;
using rmodel::Time;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Read = rmodel::test::ReadResult;

using rmodel::test::read_log;

using rmodel::test::same_bits;

void expect_same_doubles(const std::vector<double>& got, const json& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(same_bits(got[i], want[i].get<double>())) << what << "[" << i << "]: " << got[i] << " vs " << want[i];
}

std::vector<json> truth(const std::string& stem) {
  return rmodel::test::json_lines(rmodel::test::read_file(rmodel::test::fixture("bags/" + stem + ".truth.jsonl")));
}

const char* const kGreeting[] = {"greeting.zstd.mcap", "greeting.lz4.mcap", "greeting_db3", "greeting_db3/greeting_db3_0.db3",
                                 "greeting.bag", "greeting.bz2.bag"};
const char* const kHoofWave[] = {"hoof_wave.mcap", "hoof_wave.zstd.mcap", "hoof_wave_db3", "hoof_wave.lz4.bag"};

void check_against_truth(const std::string& file, const std::vector<json>& want, io::TimeSource time) {
  SCOPED_TRACE(file);
  io::ReaderOptions o;
  o.time = time;
  const Read r = read_log(rmodel::test::fixture("bags/" + file).string(), o);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front().to_string(file);
  ASSERT_EQ(r.messages.size(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    const io::Message& m = r.messages[k];
    const json& w = want[k];
    ASSERT_EQ(m.kind, io::MessageKind::Joint);
    const std::int64_t sec = w["header"]["stamp"]["sec"].get<std::int64_t>();
    const std::int64_t nsec = w["header"]["stamp"]["nanosec"].get<std::int64_t>();
    const std::int64_t log_ns = w["log_time_ns"].get<std::int64_t>();
    ASSERT_TRUE(m.has_stamp);
    if (time == io::TimeSource::Header)
      EXPECT_EQ(m.joint.stamp, Time{sec * 1'000'000'000 + nsec}) << "message " << k;
    else
      EXPECT_EQ(m.joint.stamp, Time{log_ns}) << "message " << k;
    EXPECT_EQ(m.joint.name, w["name"].get<std::vector<std::string>>()) << "message " << k;
    expect_same_doubles(m.joint.position, w["position"], "position");
    expect_same_doubles(m.joint.velocity, w["velocity"], "velocity");
    expect_same_doubles(m.joint.effort, w["effort"], "effort");
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace

TEST(IoBags, EveryFixtureLogEqualsItsTruth) {
  RMODEL_REQUIRE_FIXTURES();
  const auto greeting = truth("greeting");
  const auto hoof = truth("hoof_wave");
  ASSERT_EQ(greeting.size(), 1383U);
  ASSERT_EQ(hoof.size(), 542U);
  for (const char* f : kGreeting) check_against_truth(f, greeting, io::TimeSource::Header);
  for (const char* f : kHoofWave) check_against_truth(f, hoof, io::TimeSource::Header);
}

TEST(IoBags, LogTimeIsTheRecordersTime) {
  RMODEL_REQUIRE_FIXTURES();
  const auto greeting = truth("greeting");
  for (const char* f : kGreeting) check_against_truth(f, greeting, io::TimeSource::Log);
}

TEST(IoBags, FormatIsDetectedFromContent) {
  RMODEL_REQUIRE_FIXTURES();
  for (auto [file, format] : {std::pair{"greeting.zstd.mcap", io::parse_format("mcap")}, std::pair{"greeting.bag", io::parse_format("bag")},
                              std::pair{"greeting_db3", io::parse_format("db3")}}) {
    const std::string path = rmodel::test::fixture(std::string("bags/") + file).string();
    const int fd = ::open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    io::MessageReader reader(fd, path, {}, true);  // Format{} and no extension look-up: bytes only
    EXPECT_EQ(reader.format(), format) << file;
  }
}

TEST(IoBags, TrajectoryTopicExpandsLikeItsJsonTruth) {
  RMODEL_REQUIRE_FIXTURES();
  for (const std::string stem : {"greeting", "hoof_wave"}) {
    const Read want = read_log(rmodel::test::fixture("bags/" + stem + ".trajectory.truth.jsonl").string());
    ASSERT_TRUE(want.errors.empty());
    ASSERT_GT(want.messages.size(), 2U);
    for (const char* f : stem == "greeting" ? std::vector<const char*>(std::begin(kGreeting), std::end(kGreeting))
                                            : std::vector<const char*>(std::begin(kHoofWave), std::end(kHoofWave))) {
      SCOPED_TRACE(f);
      io::ReaderOptions o;
      o.topics = {"/trajectory"};
      const Read got = read_log(rmodel::test::fixture(std::string("bags/") + f).string(), o);
      EXPECT_TRUE(got.errors.empty());
      ASSERT_EQ(got.messages.size(), want.messages.size());
      for (std::size_t k = 0; k < got.messages.size(); ++k) {
        const auto& a = got.messages[k];
        const auto& b = want.messages[k];
        ASSERT_EQ(a.kind, b.kind);
        EXPECT_EQ(a.item, b.item);
        if (a.kind == io::MessageKind::Joint) {
          EXPECT_EQ(a.joint, b.joint) << "point " << a.item;
        } else {
          EXPECT_EQ(a.support, b.support) << "point " << a.item;
        }
      }
    }
  }
}

TEST(IoBags, UnreadTypeIsCountedAndReportedOnce) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* f : {"greeting.zstd.mcap", "greeting.bag", "greeting_db3"}) {
    io::ReaderOptions o;
    o.topics = {"/rosout"};
    const Read r = read_log(rmodel::test::fixture(std::string("bags/") + f).string(), o);
    EXPECT_TRUE(r.messages.empty()) << f;
    ASSERT_EQ(r.errors.size(), 1U) << f;
    EXPECT_NE(r.errors[0].reason.find("/rosout"), std::string::npos);
    EXPECT_NE(r.errors[0].reason.find("3 messages skipped"), std::string::npos) << r.errors[0].reason;
  }
}

TEST(IoBags, LogInfoCountsEveryTopic) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* f : kGreeting) {
    const io::LogInfo info = io::read_log_info(rmodel::test::fixture(std::string("bags/") + f).string());
    EXPECT_EQ(info.messages, 1387U) << f;
    EXPECT_TRUE(info.problems.empty()) << f;
    std::map<std::string, std::uint64_t> counts;
    for (const auto& t : info.topics) counts[t.name] = t.messages;
    EXPECT_EQ(counts["/joint_states"], 1383U) << f;
    EXPECT_EQ(counts["/trajectory"], 1U) << f;
    EXPECT_EQ(counts["/rosout"], 3U) << f;
  }
}

TEST(IoBags, TruncatedFixtureDeliversEverythingBeforeTheDamage) {
  RMODEL_REQUIRE_FIXTURES();
  const auto greeting = truth("greeting");
  const fs::path dir = rmodel::test::make_temp_dir("rmodel-bags");
  for (const char* f : {"greeting.bag", "greeting.bz2.bag", "greeting.zstd.mcap", "greeting.lz4.mcap"}) {
    SCOPED_TRACE(f);
    const std::string bytes = rmodel::test::read_file(rmodel::test::fixture(std::string("bags/") + f));
    const fs::path cut = dir / f;
    std::ofstream(cut, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
    const Read r = read_log(cut.string());
    ASSERT_EQ(r.errors.size(), 1U);
    ASSERT_TRUE(r.errors[0].byte_offset.has_value());
    EXPECT_LT(*r.errors[0].byte_offset, bytes.size() / 2);
    EXPECT_NE(r.errors[0].to_string(cut.string()).find(": byte "), std::string::npos);
    ASSERT_GT(r.messages.size(), 0U);
    ASSERT_LT(r.messages.size(), greeting.size());
    for (std::size_t k = 0; k < r.messages.size(); ++k)
      ASSERT_EQ(r.messages[k].joint.name, greeting[k]["name"].get<std::vector<std::string>>());
  }
  fs::remove_all(dir);
}

// ---- corner files built here from the MCAP specification ----

namespace {

using Bytes = rmodel::test::LeBytes;

std::uint32_t crc32_ref(const std::string& data) {  // bitwise, the MCAP (zlib) polynomial
  std::uint32_t c = 0xFFFFFFFFU;
  for (unsigned char b : data) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c & 1U) ? 0xEDB88320U ^ (c >> 1) : c >> 1;
  }
  return ~c;
}

/// CDR sensor_msgs/msg/JointState, encoded by hand (4-byte header, alignment from its end).
std::string cdr_joint_state(std::int32_t sec, std::uint32_t nsec, const std::vector<std::string>& names,
                            const std::vector<double>& pos) {
  Bytes b;
  b.s = std::string("\x00\x01\x00\x00", 4);
  auto align = [&](std::size_t n) {
    while ((b.s.size() - 4) % n) b.s += '\0';
  };
  b.le(sec);
  b.le(nsec);
  b.le(std::uint32_t{1});  // frame_id "" (just the NUL)
  b.s += '\0';
  align(4);
  b.le(static_cast<std::uint32_t>(names.size()));
  for (const auto& n : names) {
    align(4);
    b.le(static_cast<std::uint32_t>(n.size() + 1));
    b.s += n;
    b.s += '\0';
  }
  align(4);
  b.le(static_cast<std::uint32_t>(pos.size()));
  if (!pos.empty()) align(8);
  for (double d : pos) b.f64(d);
  align(4);
  b.le(std::uint32_t{0});  // velocity
  align(4);
  b.le(std::uint32_t{0});  // effort
  return b.s;
}

std::string message_record(std::uint64_t t, const std::string& data) {
  Bytes m;
  m.le(std::uint16_t{1});
  m.le(std::uint32_t{0});
  m.le(t);
  m.le(t);
  m.s += data;
  Bytes r;
  r.record(0x05, m.s);
  return r.s;
}

std::string chunk_record(const std::string& records, std::string_view compression, bool good_crc = true) {
  Bytes c;
  c.le(std::uint64_t{0});
  c.le(std::uint64_t{0});
  c.le(static_cast<std::uint64_t>(records.size()));
  c.le(good_crc ? crc32_ref(records) : crc32_ref(records) ^ 1U);
  c.str(compression);
  c.le(static_cast<std::uint64_t>(records.size()));
  c.s += records;
  Bytes r;
  r.record(0x06, c.s);
  return r.s;
}

/// A chunk whose header carries the log times of its messages, as writers fill it.
std::string timed_chunk(const std::string& records, std::uint64_t start, std::uint64_t end) {
  Bytes c;
  c.le(start);
  c.le(end);
  c.le(static_cast<std::uint64_t>(records.size()));
  c.le(crc32_ref(records));
  c.str("");
  c.le(static_cast<std::uint64_t>(records.size()));
  c.s += records;
  Bytes r;
  r.record(0x06, c.s);
  return r.s;
}

/// An MCAP file: header, schema, channel, then `chunks` (each a list of messages), footer.
/// `offsets` gets the byte offset of each chunk record.
std::string mcap_file(const std::vector<std::string>& chunks, std::vector<std::size_t>* offsets = nullptr) {
  Bytes f;
  f.s = std::string("\x89MCAP0\r\n", 8);
  Bytes h;
  h.str("ros2");
  h.str("rmodel test");
  f.record(0x01, h.s);
  f.s += rmodel::test::mcap_joint_state_declarations();
  for (const auto& c : chunks) {
    if (offsets) offsets->push_back(f.s.size());
    f.s += c;
  }
  Bytes de;
  de.le(std::uint32_t{0});
  f.record(0x0F, de.s);
  Bytes ft;
  ft.le(std::uint64_t{0});
  ft.le(std::uint64_t{0});
  ft.le(std::uint32_t{0});
  f.record(0x02, ft.s);
  f.s += std::string("\x89MCAP0\r\n", 8);
  return f.s;
}

std::string messages(int first, int count) {
  std::string r;
  for (int k = first; k < first + count; ++k)
    r += message_record(1000 + static_cast<std::uint64_t>(k),
                        cdr_joint_state(k, 0, {"a", "b"}, {0.5 * k, -0.25 * k}));
  return r;
}

struct TempFile {
  fs::path path;
  TempFile(const std::string& name, const std::string& bytes) {
    path = fs::temp_directory_path() / ("rmodel-bags-" + std::to_string(::getpid()) + "-" + name);
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  ~TempFile() { fs::remove(path); }
};

}  // namespace

TEST(IoBags, HandBuiltMcapReadsBack) {
  const TempFile f("good.mcap", mcap_file({chunk_record(messages(0, 3), ""), chunk_record(messages(3, 2), "")}));
  const Read r = read_log(f.path.string());
  EXPECT_TRUE(r.errors.empty());
  ASSERT_EQ(r.messages.size(), 5U);
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(r.messages[static_cast<std::size_t>(k)].joint.stamp, Time{k * 1'000'000'000LL});
    EXPECT_EQ(r.messages[static_cast<std::size_t>(k)].joint.name, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(r.messages[static_cast<std::size_t>(k)].joint.position, (std::vector<double>{0.5 * k, -0.25 * k}));
    EXPECT_EQ(r.messages[static_cast<std::size_t>(k)].line, static_cast<std::size_t>(k + 1));
  }
}

TEST(IoBags, EmptyFileIsAnErrorAtByteZero) {
  const TempFile f("empty.mcap", "");
  const Read r = read_log(f.path.string());
  EXPECT_TRUE(r.messages.empty());
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_EQ(r.errors[0].byte_offset, 0U);
  EXPECT_EQ(r.errors[0].to_string("e.mcap"), "e.mcap: byte 0: empty file: no MCAP magic");
}

TEST(IoBags, DamagedSecondChunkKeepsTheFirst) {
  struct Case {
    const char* name;
    std::string second;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"unknown-compression", chunk_record(messages(3, 2), "xz"), "unknown compression 'xz'"},
      {"bad-crc", chunk_record(messages(3, 2), "", false), "CRC mismatch"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::size_t> at;
    const TempFile f(std::string(c.name) + ".mcap", mcap_file({chunk_record(messages(0, 3), ""), c.second}, &at));
    const Read r = read_log(f.path.string());
    ASSERT_EQ(r.messages.size(), 3U);
    ASSERT_EQ(r.errors.size(), 1U);
    EXPECT_EQ(r.errors[0].byte_offset, at[1]);
    EXPECT_NE(r.errors[0].reason.find(c.reason), std::string::npos) << r.errors[0].reason;
  }
  // Truncated in the middle of the second chunk.
  std::vector<std::size_t> at;
  const std::string whole = mcap_file({chunk_record(messages(0, 3), ""), chunk_record(messages(3, 2), "")}, &at);
  const TempFile f("truncated.mcap", whole.substr(0, at[1] + 40));
  const Read r = read_log(f.path.string());
  ASSERT_EQ(r.messages.size(), 3U);
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_EQ(r.errors[0].byte_offset, at[1]);
  EXPECT_NE(r.errors[0].to_string("t.mcap").find("t.mcap: byte " + std::to_string(at[1]) + ": "), std::string::npos);
}

TEST(IoBags, ArraysThatDisagreeWithNameAreCarriedFaithfully) {
  const std::string recs = message_record(1, cdr_joint_state(1, 0, {"a", "b"}, {1.0}));
  const TempFile f("sizes.mcap", mcap_file({chunk_record(recs, "")}));
  const Read r = read_log(f.path.string());
  ASSERT_EQ(r.messages.size(), 1U);
  const auto problem = io::check_sizes(r.messages[0]);
  ASSERT_TRUE(problem.has_value());  // the aggregator rejects it, as a JSON message of that shape
  EXPECT_EQ(problem->field, "position");
}

// Found by fuzz_db3: an empty joint name was decoded and passed on, while the JSON readers
// refuse one. A bag message holding one is now refused too, and the next message still read.
TEST(IoBags, EmptyJointNameIsRefusedAsInJson) {
  const std::string recs = message_record(1, cdr_joint_state(1, 0, {"a", ""}, {1.0, 2.0})) +
                           message_record(2, cdr_joint_state(2, 0, {"a", "b"}, {1.0, 2.0}));
  const TempFile f("empty-name.mcap", mcap_file({chunk_record(recs, "")}));
  const Read r = read_log(f.path.string());
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_NE(r.errors[0].reason.find("'name' element 2 is empty"), std::string::npos) << r.errors[0].reason;
  ASSERT_EQ(r.messages.size(), 1U);
  EXPECT_EQ(r.messages[0].joint.name, (std::vector<std::string>{"a", "b"}));
}

// The same for every reader on the files of the reference libraries: zstd and lz4 MCAP,
// sqlite3 bags, ROS 1 bags uncompressed, bz2 and lz4. Warm means the first 500 messages (the
// first chunks, every driver's joint names); the remaining ones, across later chunks and other
// topics' messages skipped on the way, allocate nothing.
TEST(IoBags, EveryFormatDecodesWithoutAllocatingOnceWarm) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* file : {"greeting.zstd.mcap", "greeting.lz4.mcap", "greeting_db3", "greeting.bag",
                           "greeting.bz2.bag", "hoof_wave.lz4.bag"}) {
    SCOPED_TRACE(file);
    auto reader = io::MessageReader::open(rmodel::test::fixture(std::string("bags/") + file).string());
    io::Message m;
    std::size_t read = 0;
    for (; read < 500; ++read) ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
    const rmodel::test::AllocationCounter counter;
    io::ReadStatus status;
    while ((status = reader.next(m)) == io::ReadStatus::Ok) ++read;
    const std::size_t allocations = counter.count();
    EXPECT_EQ(status, io::ReadStatus::End);
    EXPECT_GE(read, 542U);
    EXPECT_EQ(allocations, 0U) << "over " << read - 500 << " messages";
  }
}

TEST(IoBags, DecodingAJointStateAllocatesNothingOnceWarm) {
  const TempFile f("alloc.mcap", mcap_file({chunk_record(messages(0, 200), "")}));
  auto reader = io::MessageReader::open(f.path.string());
  io::Message m;
  for (int k = 0; k < 20; ++k) ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
  const rmodel::test::AllocationCounter counter;
  for (int k = 20; k < 200; ++k) ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
  EXPECT_EQ(counter.count(), 0U);
}

// ---- replay in log-time order ----

namespace {

/// Channel `id` on `topic` (schema 1), as a record.
std::string channel_record(std::uint16_t id, const std::string& topic) {
  Bytes ch;
  ch.le(id);
  ch.le(std::uint16_t{1});
  ch.str(topic);
  ch.str("cdr");
  ch.le(std::uint32_t{0});
  Bytes r;
  r.record(0x04, ch.s);
  return r.s;
}

/// A message on `channel` at log time `t` whose header stamp is `t` + 7 ns and whose one
/// position tells `t` apart (the truth a replay is compared with).
std::string stamped_message(std::uint16_t channel, std::uint64_t t) {
  Bytes m;
  m.le(channel);
  m.le(std::uint32_t{0});
  m.le(t);
  m.le(t);
  m.s += cdr_joint_state(static_cast<std::int32_t>(t / 1'000'000'000), static_cast<std::uint32_t>(t % 1'000'000'000 + 7),
                         {channel == 1 ? "front" : "hind"}, {static_cast<double>(t) * 1e-9});
  Bytes r;
  r.record(0x05, m.s);
  return r.s;
}

struct Written {
  std::uint16_t channel;
  std::uint64_t t;
};

/// Two writers' chunks, out of log-time order in the file. First the front legs' chunk: it
/// declares both channels and holds 0.1 … 0.9 s, not sorted inside (a writer may flush a late
/// message early). Then the hind legs' chunks, 0 … 0.4 s (equal times to the front's) and
/// 0.55 … 0.95 s, on the channel declared in the front chunk. With `summary`, a summary
/// section repeats the schema and the channels. `file_order` gets the messages as written.
std::string overlapping_mcap(bool summary, std::vector<Written>& file_order, bool chunk_times = true) {
  constexpr std::uint64_t s = 1'700'000'000'000'000'000ULL;  // epoch times: integers, never doubles
  const auto at = [](int tenths, std::uint64_t extra = 0) { return s + 100'000'000ULL * static_cast<std::uint64_t>(tenths) + extra; };
  std::vector<Written> front, hind1, hind2;
  for (int k = 1; k < 10; ++k) front.push_back({1, at(k)});
  std::swap(front[2], front[5]);  // 0.3 s and 0.6 s
  for (int k = 0; k < 5; ++k) hind1.push_back({2, at(k)});
  for (int k = 5; k < 10; ++k) hind2.push_back({2, at(k, 50'000'000ULL)});
  const auto records = [](const std::vector<Written>& ws) {
    std::string r;
    for (const auto& w : ws) r += stamped_message(w.channel, w.t);
    return r;
  };
  const std::string channels = channel_record(1, "/front/joint_states") + channel_record(2, "/hind/joint_states");
  const auto times = [chunk_times](std::uint64_t t) { return chunk_times ? t : 0; };
  const std::string chunks = timed_chunk(channels + records(front), times(at(1)), times(at(9))) +
                             timed_chunk(records(hind1), times(at(0)), times(at(4))) +
                             timed_chunk(records(hind2), times(at(5, 50'000'000ULL)), times(at(9, 50'000'000ULL)));
  file_order = front;
  file_order.insert(file_order.end(), hind1.begin(), hind1.end());
  file_order.insert(file_order.end(), hind2.begin(), hind2.end());
  std::string file = mcap_file({chunks});
  // mcap_file declares a channel 1 on /joint_states before the chunks: take it out.
  const std::string default_channel = channel_record(1, "/joint_states");
  file.erase(file.find(default_channel), default_channel.size());
  if (!summary) return file;
  // The summary (the schema and the channels again) goes between DataEnd and the Footer,
  // whose summary_start points at it.
  constexpr std::size_t kFooterRecord = 1 + 8 + 20, kMagicBytes = 8;
  const std::size_t summary_start = file.size() - kFooterRecord - kMagicBytes;
  Bytes sc;
  sc.le(std::uint16_t{1});
  sc.str("sensor_msgs/msg/JointState");
  sc.str("ros2msg");
  sc.str("std_msgs/Header header\nstring[] name\nfloat64[] position\nfloat64[] velocity\nfloat64[] effort\n");
  Bytes section;
  section.record(0x03, sc.s);
  section.s += channels;
  Bytes ft;
  ft.le(static_cast<std::uint64_t>(summary_start));
  ft.le(std::uint64_t{0});
  ft.le(std::uint32_t{0});
  section.record(0x02, ft.s);
  return file.substr(0, summary_start) + section.s + std::string("\x89MCAP0\r\n", 8);
}

}  // namespace

TEST(IoBags, OverlappingMcapChunksReplayInLogTimeOrder) {
  for (const bool summary : {false, true}) {
    SCOPED_TRACE(summary ? "with a summary" : "without a summary");
    std::vector<Written> file_order;
    const TempFile f(summary ? "overlap-summary.mcap" : "overlap.mcap", overlapping_mcap(summary, file_order));
    // The truth: the messages as written, sorted by log time, equal times in file order.
    std::vector<Written> truth = file_order;
    std::stable_sort(truth.begin(), truth.end(), [](const Written& a, const Written& b) { return a.t < b.t; });
    ASSERT_NE(truth.front().t, file_order.front().t);  // the file is really out of order
    io::ReaderOptions log_time;
    log_time.time = io::TimeSource::Log;
    log_time.topics = {"/front/joint_states", "/hind/joint_states"};
    const Read r = read_log(f.path.string(), log_time);
    for (const auto& e : r.errors) ADD_FAILURE() << e.to_string("overlap.mcap");
    ASSERT_EQ(r.messages.size(), truth.size());
    for (std::size_t k = 0; k < truth.size(); ++k) {
      SCOPED_TRACE(k);
      EXPECT_EQ(r.messages[k].joint.name.at(0), truth[k].channel == 1 ? "front" : "hind");
      EXPECT_EQ(r.messages[k].joint.stamp, Time{static_cast<std::int64_t>(truth[k].t)});
      EXPECT_EQ(r.messages[k].joint.position.at(0), static_cast<double>(truth[k].t) * 1e-9);
      EXPECT_EQ(r.messages[k].line, k + 1);  // numbered in replay order
    }
    // Header stamps come through bit for bit, in the same order.
    io::ReaderOptions header = log_time;
    header.time = io::TimeSource::Header;
    const Read h = read_log(f.path.string(), header);
    ASSERT_EQ(h.messages.size(), truth.size());
    for (std::size_t k = 0; k < truth.size(); ++k)
      EXPECT_EQ(h.messages[k].joint.stamp, Time{static_cast<std::int64_t>(truth[k].t) + 7});
  }
}

/// Everything a reader gives, in order: messages as (joint, stamp), errors as their text.
struct Replay {
  std::vector<std::pair<std::string, std::int64_t>> messages;
  std::vector<std::string> errors;
};
Replay replay(io::MessageReader reader) {
  Replay out;
  io::Message m;
  for (;;) {
    const io::ReadStatus st = reader.next(m);
    if (st == io::ReadStatus::End) break;
    if (st == io::ReadStatus::Error) out.errors.push_back(reader.error().to_string("log.mcap"));
    if (st == io::ReadStatus::Ok) out.messages.emplace_back(m.joint.name.at(0), m.joint.stamp.ns);
  }
  return out;
}

io::ReaderOptions both_topics_log_time() {
  io::ReaderOptions options;
  options.time = io::TimeSource::Log;
  options.topics = {"/front/joint_states", "/hind/joint_states"};
  return options;
}

TEST(IoBags, McapOnAPipeReplaysAsItsFile) {
  std::vector<Written> file_order;
  const std::string bytes = overlapping_mcap(true, file_order);
  const TempFile f("piped.mcap", bytes);
  const Replay from_file = replay(io::MessageReader::open(f.path.string(), both_topics_log_time()));
  ASSERT_EQ(from_file.messages.size(), file_order.size());
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  // The reader is made before a byte is written (a live pipe), then the bytes trickle in.
  io::MessageReader reader(fds[0], "log.mcap", both_topics_log_time(), true);
  std::thread writer([&] {
    for (std::size_t done = 0; done < bytes.size();) {
      const ssize_t n = ::write(fds[1], bytes.data() + done, std::min<std::size_t>(5, bytes.size() - done));
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
  });
  const Replay from_pipe = replay(std::move(reader));
  writer.join();
  EXPECT_EQ(from_pipe.messages, from_file.messages);
  EXPECT_EQ(from_pipe.errors, from_file.errors);
}

TEST(IoBags, McapWithoutChunkTimesIsReadInFileOrderAndTimeGoingBackIsReported) {
  std::vector<Written> file_order;
  const std::string bytes = overlapping_mcap(false, file_order, false);
  const TempFile f("untimed.mcap", bytes);
  const Replay got = replay(io::MessageReader::open(f.path.string(), both_topics_log_time()));
  // Chunks that do not say their times are read in file order, and the front topic's time
  // going back (twice, inside its chunk) is reported once, with its place.
  std::vector<std::pair<std::string, std::int64_t>> want;
  for (const auto& w : file_order) want.emplace_back(w.channel == 1 ? "front" : "hind", static_cast<std::int64_t>(w.t));
  EXPECT_EQ(got.messages, want);
  ASSERT_EQ(got.errors.size(), 1U) << ::testing::PrintToString(got.errors);
  EXPECT_EQ(got.errors[0],
            "log.mcap: topic /front/joint_states: log time goes back 2 times, first at byte " +
                std::to_string(bytes.find(stamped_message(1, file_order[3].t))) +
                ": message 4: from 1700000000.6 to 1700000000.4 (messages are replayed in the order of the file)");
}
