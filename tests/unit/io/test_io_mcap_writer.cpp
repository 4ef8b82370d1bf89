// MCAP output (io/writer.hpp, parse_format("mcap")): read back by rmodel's reader bit for bit,
// checked record by record by tests/mcap/check_mcap.py (written from the MCAP specification,
// not from the writer; it also accepts Foxglove's files), and compared with the MCAP files
// written by Foxglove's library in ../shared/fixtures/bags.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "alloc_counter.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/bag.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "test_support.hpp"

namespace {

using namespace rmodel;
using namespace rmodel::io;
namespace fs = std::filesystem;

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

void expect_same_bits(const std::vector<double>& a, const std::vector<double>& b, const char* what, std::size_t k) {
  ASSERT_EQ(a.size(), b.size()) << what << " of message " << k;
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(bits(a[i]), bits(b[i])) << what << "[" << i << "] of message " << k;
}

struct TempDir {
  fs::path path = test::make_temp_dir("mcap_writer");
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

WriterOptions mcap_options(ChunkCompression c, std::size_t chunk = std::size_t{1} << 20) {
  WriterOptions o;
  o.format = parse_format("mcap");
  o.mcap_compression = c;
  o.mcap_chunk_size = chunk;
  return o;
}

void write_all(const std::string& path, const std::vector<JointState>& states, const WriterOptions& o) {
  MessageWriter w = MessageWriter::open(path, o);
  for (const auto& s : states) ASSERT_EQ(w.write(s), WriteStatus::Written) << "t " << to_string(s.stamp);
  w.close();
}

std::vector<JointState> read_states(const std::string& path) {
  const test::ReadResult r = test::read_log(path);
  for (const auto& e : r.errors) ADD_FAILURE() << e.to_string(path);
  std::vector<JointState> out;
  for (const auto& m : r.messages) {
    EXPECT_EQ(m.kind, MessageKind::Joint);
    out.push_back(m.joint);
  }
  return out;
}

// The python checker (tests/mcap/check_mcap.py); empty when python3 is missing.
std::string checker() {
  if (std::system("python3 -c 'import sys' >/dev/null 2>&1") != 0) return {};
  return std::string("python3 ") + RMODEL_SOURCE_DIR + "/tests/mcap/check_mcap.py";
}

int run_checker(const std::string& args) {
  const std::string cmd = checker() + " " + args + " >/dev/null 2>" + (fs::temp_directory_path() / "check_mcap.err").string();
  const int rc = std::system(cmd.c_str());
  if (rc != 0) ADD_FAILURE() << cmd << ":\n" << test::read_file(fs::temp_directory_path() / "check_mcap.err");
  return rc;
}

std::vector<double> awkward_values() {
  const double nan_payload = std::bit_cast<double>(std::uint64_t{0x7ff8000000000123});
  return {-0.0, 5e-324, -5e-324, 1e308, -1.7976931348623157e308, 0.1, 1.0 / 3.0, std::numeric_limits<double>::infinity(),
          -std::numeric_limits<double>::infinity(), nan_payload, 2.2250738585072014e-308, 123456789.123456789};
}

std::vector<JointState> awkward_states() {
  std::vector<JointState> out;
  const std::vector<double> v = awkward_values();
  // Times: small ones, epoch stamps with every nanosecond, negative times and the ends of a
  // ROS 2 stamp (int32 seconds).
  const Time stamps[] = {Time{0},
                         Time{300'000'000},
                         Time{10'000'000},
                         Time{12'345'678'901},
                         Time{-1'250'000'000},
                         Time{-1},
                         Time{1700000000'123456789},
                         Time{1700000000'010000000},
                         Time{2147483647'999999999},
                         Time{-2147483648'000000000},
                         Time{1},
                         Time{86400'000000001}};
  std::size_t k = 0;
  for (Time t : stamps) {
    JointState s;
    s.stamp = t;
    s.name = {"j" + std::to_string(k), "a \"quoted\" name", "é ü", std::string(40, 'x')};
    for (std::size_t i = 0; i < 4; ++i) s.position.push_back(v[(k + i) % v.size()]);
    if (k % 2 == 0)
      for (std::size_t i = 0; i < 4; ++i) s.velocity.push_back(v[(k + i + 5) % v.size()]);
    if (k % 3 == 0)
      for (std::size_t i = 0; i < 4; ++i) s.effort.push_back(v[(k + i + 7) % v.size()]);
    out.push_back(std::move(s));
    ++k;
  }
  JointState empty;  // no joints at all
  empty.stamp = Time{5'000'000'000};
  out.push_back(empty);
  return out;
}

TEST(McapWriter, AwkwardValuesAndTimesComeBackBitForBit) {
  TempDir dir;
  const std::vector<JointState> states = awkward_states();
  for (ChunkCompression c : {ChunkCompression::None, ChunkCompression::Lz4, ChunkCompression::Zstd}) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{300}, std::size_t{1} << 20}) {
      SCOPED_TRACE(fmt::format("compression {} chunk size {}", static_cast<int>(c), chunk));
      const std::string path = (dir.path / "awkward.mcap").string();
      write_all(path, states, mcap_options(c, chunk));
      const std::vector<JointState> back = read_states(path);
      ASSERT_EQ(back.size(), states.size());
      for (std::size_t k = 0; k < states.size(); ++k) {
        EXPECT_EQ(back[k].stamp, states[k].stamp) << "stamp of message " << k << ": " << to_string(states[k].stamp);
        EXPECT_EQ(back[k].name, states[k].name);
        expect_same_bits(back[k].position, states[k].position, "position", k);
        expect_same_bits(back[k].velocity, states[k].velocity, "velocity", k);
        expect_same_bits(back[k].effort, states[k].effort, "effort", k);
      }
      if (c == ChunkCompression::None && !checker().empty()) run_checker(path + " --expect-compression none");
      if (c != ChunkCompression::None && !checker().empty()) run_checker(path);
    }
  }
}

// Any time of a ROS 2 stamp (int32 seconds) comes back to the nanosecond.
TEST(McapWriter, StampsRoundTripOnRandomTimes) {
  TempDir dir;
  std::mt19937_64 rng(20261123);
  std::vector<JointState> states;
  JointState s;
  s.name = {"j"};
  s.position = {1.0};
  constexpr std::int64_t kLow = std::int64_t{INT32_MIN} * 1'000'000'000;
  constexpr std::int64_t kSpan = (std::int64_t{1} << 32) * 1'000'000'000;  // [−2^31, 2^31) s
  for (int i = 0; i < 20000; ++i) {
    s.stamp = Time{kLow + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(kSpan))};
    states.push_back(s);
  }
  const std::string path = (dir.path / "stamps.mcap").string();
  write_all(path, states, mcap_options(ChunkCompression::Zstd));
  const std::vector<JointState> back = read_states(path);
  ASSERT_EQ(back.size(), states.size());
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < states.size(); ++k)
    if (back[k].stamp != states[k].stamp && ++wrong < 10)
      ADD_FAILURE() << fmt::format("message {}: t {} came back as {}", k, to_string(states[k].stamp),
                                   to_string(back[k].stamp));
  EXPECT_EQ(wrong, 0u);
}

TEST(McapWriter, SupportStatesSyncTicksAndOutOfRangeTimesAreSkipped) {
  TempDir dir;
  const std::string path = (dir.path / "skip.mcap").string();
  {
    MessageWriter w = MessageWriter::open(path);  // Auto: from the extension
    EXPECT_EQ(w.format().name(), "mcap");
    SupportState sup;
    sup.name = {"left"};
    sup.support = {1.0};
    EXPECT_EQ(w.write(sup), WriteStatus::Skipped);
    EXPECT_EQ(w.write_sync(Time{1'000'000'000}, 3), WriteStatus::Skipped);
    JointState s;
    s.name = {"j"};
    s.position = {2.0};
    s.stamp = Time{3'000'000'000'000'000'000};  // after 2038: beyond an int32 `sec`
    EXPECT_EQ(w.write(s), WriteStatus::Skipped);
    s.stamp = Time{2147483648'000000000};  // the first second beyond
    EXPECT_EQ(w.write(s), WriteStatus::Skipped);
    s.stamp = Time{1'500'000'000};
    EXPECT_EQ(w.write(s), WriteStatus::Written);
    w.close();
    EXPECT_THROW((void)w.write(s), InvalidArgument);
    w.close();  // again: nothing
  }
  const auto back = read_states(path);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].stamp, Time{1'500'000'000});
}

TEST(McapWriter, EmptyOutputIsAValidMcapFile) {
  TempDir dir;
  for (ChunkCompression c : {ChunkCompression::None, ChunkCompression::Zstd}) {
    const std::string path = (dir.path / "empty.mcap").string();
    { MessageWriter w = MessageWriter::open(path, mcap_options(c)); }  // the destructor ends it
    const test::ReadResult r = test::read_log(path);
    EXPECT_TRUE(r.messages.empty());
    EXPECT_TRUE(r.errors.empty()) << r.errors.front().to_string(path);
    const LogInfo info = read_log_info(path);
    EXPECT_TRUE(info.problems.empty());
    ASSERT_EQ(info.topics.size(), 1u);
    EXPECT_EQ(info.topics[0].name, "/joint_states");
    EXPECT_EQ(info.topics[0].type, "sensor_msgs/msg/JointState");
    if (!checker().empty()) run_checker(path);
  }
}

TEST(McapWriter, TopicOptionNamesTheChannel) {
  TempDir dir;
  const std::string path = (dir.path / "topic.mcap").string();
  WriterOptions o = mcap_options(ChunkCompression::Lz4);
  o.topic = "/robot/joint_states";
  JointState s;
  s.name = {"j"};
  write_all(path, {s}, o);
  const LogInfo info = read_log_info(path);
  ASSERT_EQ(info.topics.size(), 1u);
  EXPECT_EQ(info.topics[0].name, "/robot/joint_states");
  EXPECT_EQ(info.topics[0].messages, 1u);
}

// Every record checked by the independent checker, and every message's CDR decoded by it and
// compared with the JSON Lines writer's output of the same messages.
TEST(McapWriter, IndependentCheckerAgreesWithJsonLines) {
  if (checker().empty()) GTEST_SKIP() << "python3 not found";
  TempDir dir;
  std::vector<JointState> states;
  std::mt19937_64 rng(7);
  for (int k = 0; k < 3000; ++k) {
    JointState s;
    s.stamp = Time{1'000'000LL * k};
    const int n = 1 + k % 32;
    for (int j = 0; j < n; ++j) {
      s.name.push_back(fmt::format("joint_{}", (j * 7 + k) % 40));
      s.position.push_back(std::uniform_real_distribution<double>(-3, 3)(rng));
      if (k % 2) s.velocity.push_back(std::uniform_real_distribution<double>(-10, 10)(rng));
      if (k % 5 == 0) s.effort.push_back(k % 7 ? 0.5 * j : std::nan(""));
    }
    states.push_back(std::move(s));
  }
  const std::string jsonl = (dir.path / "m.jsonl").string();
  {
    MessageWriter w = MessageWriter::open(jsonl);
    for (const auto& s : states) (void)w.write(s);
    w.close();
  }
  for (ChunkCompression c : {ChunkCompression::None, ChunkCompression::Zstd, ChunkCompression::Lz4}) {
    const std::string path = (dir.path / fmt::format("m{}.mcap", static_cast<int>(c))).string();
    write_all(path, states, mcap_options(c, 64 << 10));  // several chunks
    if (c == ChunkCompression::None)
      run_checker(path + " --expect-compression none --jsonl " + jsonl);
    else
      run_checker(path + " --expect-compression " + (c == ChunkCompression::Zstd ? "zstd" : "lz4"));
    EXPECT_EQ(read_states(path).size(), states.size());
  }
}

// The MCAP files of the fixtures were written by Foxglove's TypeScript library (@mcap/core)
// with @foxglove/rosmsg2-serialization: rmodel writes the same JointState schema (name,
// encoding, text) and channel encoding, and the same CDR bytes for the same messages.
TEST(McapWriter, MatchesFoxgloveFilesOfTheFixtures) {
  RMODEL_REQUIRE_FIXTURES();
  if (checker().empty()) GTEST_SKIP() << "python3 not found";
  TempDir dir;
  const std::string fox = test::fixture("bags/hoof_wave.mcap").string();
  const std::string ours = (dir.path / "hoof_wave.mcap").string();
  {
    const test::ReadResult r = test::read_log(fox);
    ASSERT_EQ(r.messages.size(), 542u);
    MessageWriter w = MessageWriter::open(ours, mcap_options(ChunkCompression::None));
    for (const auto& m : r.messages) ASSERT_EQ(w.write(m), WriteStatus::Written);
    w.close();
  }
  // The same payloads, byte for byte (header stamp, empty frame_id, names, arrays, padding).
  run_checker(ours + " --expect-compression none --same-payloads " + fox);
  // The same schema text and channel encoding.
  auto dump = [](const std::string& path) {
    const fs::path out = fs::temp_directory_path() / "mcap_schema_dump.txt";
    const std::string cmd = checker() + " " + path + " --dump-schema > " + out.string();
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return test::read_file(out);
  };
  const std::string theirs = dump(fox), mine = dump(ours);
  auto schema_of = [](const std::string& d) {
    const auto a = d.find("schema ");
    const auto b = d.find("\nchannel ");
    return d.substr(d.find('\n', a) + 1, b - d.find('\n', a));
  };
  EXPECT_EQ(schema_of(mine), schema_of(theirs));
  EXPECT_NE(mine.find(": sensor_msgs/msg/JointState ros2msg\n"), std::string::npos) << mine;
  EXPECT_NE(theirs.find(": sensor_msgs/msg/JointState ros2msg\n"), std::string::npos) << theirs;
  EXPECT_NE(mine.find("topic /joint_states encoding cdr"), std::string::npos) << mine;
  EXPECT_NE(theirs.find("topic /joint_states encoding cdr"), std::string::npos) << theirs;
  EXPECT_NE(mine.find("header: profile 'ros2'"), std::string::npos) << mine;
  // The QoS metadata the ros2 profile requires, as Foxglove's file has it for /joint_states.
  auto channel_line = [](const std::string& d) {
    const auto a = d.find("topic /joint_states");
    return d.substr(a, d.find('\n', a) - a);
  };
  const std::string their_channel = channel_line(theirs), my_channel = channel_line(mine);
  const std::string qos = their_channel.substr(0, their_channel.find(", 'topic_type_hash'"));
  EXPECT_EQ(my_channel.substr(0, qos.size()), qos) << my_channel;
  // Read back: the same messages as Foxglove's file gives, stamps exact.
  const test::ReadResult a = test::read_log(fox), b = test::read_log(ours);
  ASSERT_EQ(a.messages.size(), b.messages.size());
  for (std::size_t k = 0; k < a.messages.size(); ++k) {
    EXPECT_EQ(a.messages[k].joint.stamp, b.messages[k].joint.stamp) << k;
    EXPECT_EQ(a.messages[k].joint.name, b.messages[k].joint.name) << k;
    expect_same_bits(a.messages[k].joint.position, b.messages[k].joint.position, "position", k);
    expect_same_bits(a.messages[k].joint.velocity, b.messages[k].joint.velocity, "velocity", k);
  }
}

TEST(McapWriter, WritesToAStringAndAStream) {
  std::string out;
  {
    MessageWriter w(out, mcap_options(ChunkCompression::Zstd));
    JointState s;
    s.name = {"a", "b"};
    s.position = {1, 2};
    s.stamp = Time{2'500'000'000};
    EXPECT_EQ(w.write(s), WriteStatus::Written);
    w.close();
  }
  ASSERT_GE(out.size(), 16u);
  EXPECT_EQ(out.substr(0, 8), std::string("\x89MCAP0\r\n", 8));
  EXPECT_EQ(out.substr(out.size() - 8), std::string("\x89MCAP0\r\n", 8));
}

// No allocation per message once warm: chunks close, compress and go out without growing
// anything (32-joint full poses, zstd, the default 1 MiB chunks: several chunks closed).
TEST(McapWriter, NoAllocationPerMessageOnceWarm) {
  const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  for (ChunkCompression c : {ChunkCompression::Zstd, ChunkCompression::Lz4, ChunkCompression::None}) {
    MessageWriter w(fd, "/dev/null", mcap_options(c));
    Message m;
    m.kind = MessageKind::Joint;
    for (int j = 0; j < 32; ++j) {
      m.joint.name.push_back(fmt::format("joint_{:02}", j));
      m.joint.position.push_back(0.01 * j);
      m.joint.velocity.push_back(0.0);
    }
    auto step = [&](int k) {
      m.joint.stamp = Time{2'000'000LL * k};
      for (int j = 0; j < 32; ++j) m.joint.position[static_cast<std::size_t>(j)] += 1e-3 * (j + k % 3);
      (void)w.write(m);
    };
    int k = 0;
    for (; k < 3000; ++k) step(k);  // warm: two chunks closed
    test::AllocationCounter count;
    for (; k < 9000; ++k) step(k);
    w.flush();
    EXPECT_EQ(count.count(), 0u) << "compression " << static_cast<int>(c);
    w.close();
  }
  ::close(fd);
}

}  // namespace

namespace {

// A JSON header stamp and the same stamp in an MCAP file read as the same nanoseconds, and
// writing it to MCAP gives it back.
TEST(McapWriter, JsonHeaderStampAndMcapStampAgree) {
  TempDir dir;
  const std::string jsonl = (dir.path / "h.jsonl").string();
  {
    std::ofstream f(jsonl);
    f << R"({"header":{"stamp":{"sec":0,"nanosec":300000000}},"name":["j"],"position":[1]})" << '\n'
      << R"({"header":{"stamp":{"sec":12,"nanosec":345678901}},"name":["j"],"position":[2]})" << '\n';
  }
  const auto json = read_states(jsonl);
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[0].stamp, Time{300'000'000});
  EXPECT_EQ(json[1].stamp, Time{12'345'678'901});
  const std::string path = (dir.path / "h.mcap").string();
  write_all(path, json, mcap_options(ChunkCompression::None));
  const auto back = read_states(path);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].stamp, Time{300'000'000});
  EXPECT_EQ(back[1].stamp, Time{12'345'678'901});
}

// flush() writes out closed chunks only; flush_each_message closes a chunk per message.
TEST(McapWriter, FlushKeepsTheChunkOpenFlushEachClosesIt) {
  JointState s;
  s.name = {"a"};
  s.position = {1};
  std::string plain, each;
  WriterOptions o = mcap_options(ChunkCompression::None);
  MessageWriter w(plain, o);
  o.flush_each_message = true;
  MessageWriter e(each, o);
  (void)w.write(s);
  (void)e.write(s);
  w.flush();
  const std::size_t plain_after_one = plain.size(), each_after_one = each.size();
  (void)w.write(s);
  (void)e.write(s);
  w.flush();
  EXPECT_EQ(plain.size(), plain_after_one);  // the message waits in the open chunk
  EXPECT_GT(each.size(), each_after_one);    // a chunk (with its message) per message
  w.close();
  e.close();
  EXPECT_GT(plain.size(), plain_after_one);
}

}  // namespace

namespace {

// The checker itself: it accepts the MCAP files Foxglove's library wrote (so its reading of the
// specification agrees with theirs), and it rejects a file of rmodel's with one byte changed.
TEST(McapChecker, AcceptsFoxgloveFilesAndRejectsDamage) {
  RMODEL_REQUIRE_FIXTURES();
  if (checker().empty()) GTEST_SKIP() << "python3 not found";
  for (const char* f : {"hoof_wave.mcap", "hoof_wave.zstd.mcap", "greeting.zstd.mcap", "greeting.lz4.mcap"})
    run_checker(test::fixture(std::string("bags/") + f).string());

  TempDir dir;
  const std::string path = (dir.path / "damaged.mcap").string();
  JointState s;
  s.name = {"joint_a", "joint_b"};
  s.position = {0.5, -0.25};
  s.stamp = Time{1'000'000'000};
  write_all(path, {s, s}, mcap_options(ChunkCompression::None));
  std::string bytes = test::read_file(path);
  const std::size_t at = bytes.find("joint_b");
  ASSERT_NE(at, std::string::npos);
  bytes[at] = 'J';  // inside a chunk: its CRC and the data section's no longer match
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << bytes;
  }
  const std::string cmd = checker() + " " + path + " >/dev/null 2>&1";
  EXPECT_NE(std::system(cmd.c_str()), 0) << "the checker accepted a damaged file";
}

}  // namespace

namespace {

// One chunk per message: the summary's chunk indexes outgrow their first buffer (64 KiB).
TEST(McapWriter, ThousandsOfChunksStayIndexed) {
  TempDir dir;
  std::vector<JointState> states(1500);
  for (std::size_t k = 0; k < states.size(); ++k) {
    states[k].stamp = Time{10'000'000 * static_cast<std::int64_t>(k)};
    states[k].name = {"j"};
    states[k].position = {static_cast<double>(k)};
  }
  const std::string path = (dir.path / "many.mcap").string();
  write_all(path, states, mcap_options(ChunkCompression::None, 1));
  const auto back = read_states(path);
  ASSERT_EQ(back.size(), states.size());
  for (std::size_t k = 0; k < states.size(); ++k) EXPECT_EQ(back[k].position, states[k].position);
  if (!checker().empty()) run_checker(path + " --expect-compression none");
}

}  // namespace
