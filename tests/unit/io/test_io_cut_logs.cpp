// Recordings cut short (issue 40, point 6): a log whose file ends in the middle of a chunk, as a
// recorder killed mid-write leaves it, is read as `mcap recover` reads it — every record that
// is whole in the file, those of the cut chunk included — and the end of the file is reported
// with the byte it falls at and the number of messages recovered from the cut chunk.
//
// The fixture logs (written by Foxglove's MCAP library and ROS 1's rosbag) are cut at many
// offsets, in copies in a temporary directory. Which messages each cut leaves whole is found
// by walking the uncut file's records here, from the formats' specifications (mcap.dev/spec,
// wiki.ros.org/Bags/Format/2.0), independently of the readers; the messages read must be
// exactly those, equal to the fixture's truth (JointState topic, log time and values).
// Compressed chunks cut short give what their data decodes to, checked against the `zstd` and
// `lz4` command-line tools decoding the same cut bytes.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rmodel/io/bag.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "ros_log_builders.hpp"
#include "test_support.hpp"

namespace io = rmodel::io;
namespace fs = std::filesystem;
namespace test = rmodel::test;
using nlohmann::json;

namespace {

std::uint64_t le_bytes(const std::string& b, std::size_t at, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(b.at(at + i))) << (8 * i);
  return v;
}

/// One message record of a log: where it lies and what it is.
struct MessageRecord {
  std::uint64_t start = 0, end = 0;  ///< its record's first byte, and one past its last: in the
                                     ///< file, or in its chunk's decoded data when compressed
  std::int64_t log_time = 0;
  std::string topic;
  std::size_t chunk = 0;  ///< index of the chunk holding it
};

/// A chunk record: its extent in the file, and where its records (or compressed data) begin.
struct ChunkRecord {
  std::uint64_t start = 0, data = 0, end = 0;
  std::string compression;  ///< "" (MCAP) or "none" (ROS 1) when stored as they are
  std::uint64_t uncompressed_size = 0;
  [[nodiscard]] bool stored() const { return compression.empty() || compression == "none"; }
};

struct LogLayout {
  std::vector<MessageRecord> messages;  ///< in file order
  std::vector<ChunkRecord> chunks;
};

/// What a command-line tool (`zstd -dc`, `lz4 -dc`, `bzip2 -dc`) decodes of `data`: as much as
/// it can, when the data is cut short. nullopt when the tool is missing.
std::optional<std::string> decode_with_tool(const std::string& compression, const std::string& data,
                                            const fs::path& dir) {
  const std::string tool = compression == "zstd" ? "zstd" : compression == "lz4" ? "lz4" : "bzip2";
  if (std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) != 0) return std::nullopt;
  const fs::path in = dir / "compressed", out = dir / "decoded";
  std::ofstream(in, std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
  (void)std::system((tool + " -dc < " + in.string() + " > " + out.string() + " 2>/dev/null").c_str());
  return test::read_file(out);
}

using Topics = std::map<std::uint64_t, std::string>;

/// The MCAP records in `b` from `at` to `end` that are whole (`opcode u8 | length u64 |
/// content`): Channel (`id u16 | schema_id u16 | topic (u32 + bytes) | ...`) and Message
/// (`channel u16 | sequence u32 | log_time u64 | publish_time u64 | data`) records noted.
void mcap_records(const std::string& b, std::size_t at, std::size_t end, std::size_t chunk, Topics& topics,
                  std::vector<MessageRecord>& out) {
  while (at + 9 <= end && at + 9 + le_bytes(b, at + 1, 8) <= end) {
    const auto op = static_cast<unsigned char>(b[at]);
    const std::size_t body = at + 9, len = le_bytes(b, at + 1, 8);
    if (op == 0x04) topics[le_bytes(b, body, 2)] = b.substr(body + 8, le_bytes(b, body + 4, 4));
    if (op == 0x05)
      out.push_back({at, body + len, static_cast<std::int64_t>(le_bytes(b, body + 6, 8)), topics.at(le_bytes(b, body, 2)),
                     chunk});
    at = body + len;
  }
}

/// An MCAP file's chunks and the messages in them, from the specification: `magic |
/// (opcode u8 | length u64 | content)*`; a Chunk's content is `start u64 | end u64 |
/// uncompressed_size u64 | crc u32 | compression (u32 length + bytes) | records (u64 length +
/// bytes)`. Compressed chunks are decoded with the tools.
LogLayout mcap_layout(const std::string& b, const fs::path& dir) {
  LogLayout out;
  Topics topics;
  std::size_t at = 8;
  while (at + 9 <= b.size()) {
    const auto op = static_cast<unsigned char>(b[at]);
    const std::size_t body = at + 9, len = le_bytes(b, at + 1, 8);
    if (op == 0x02) break;  // Footer
    if (op == 0x04) mcap_records(b, at, body + len, 0, topics, out.messages);
    if (op == 0x06) {
      const std::size_t clen = le_bytes(b, body + 28, 4);
      ChunkRecord c{at, body + 32 + clen + 8, body + len, b.substr(body + 32, clen), le_bytes(b, body + 16, 8)};
      if (c.stored()) {
        mcap_records(b, c.data, c.end, out.chunks.size(), topics, out.messages);
      } else if (const auto decoded = decode_with_tool(c.compression, b.substr(c.data, c.end - c.data), dir)) {
        mcap_records(*decoded, 0, decoded->size(), out.chunks.size(), topics, out.messages);
      }
      out.chunks.push_back(c);
    }
    at = body + len;
  }
  return out;
}

/// The fields of a ROS 1 record header (`len u32 | name=value` each).
std::map<std::string, std::string> bag_fields(const std::string& b, std::size_t at, std::size_t n) {
  std::map<std::string, std::string> f;
  for (std::size_t p = at; p < at + n;) {
    const std::size_t flen = le_bytes(b, p, 4);
    const std::string field = b.substr(p + 4, flen);
    f[field.substr(0, field.find('='))] = field.substr(field.find('=') + 1);
    p += 4 + flen;
  }
  return f;
}

std::uint64_t bag_number(const std::string& v) { return le_bytes(v, 0, v.size()); }

/// The ROS 1 records in `b` from `at` to `end` that are whole (`header_len u32 | header |
/// data_len u32 | data`): connections (op 0x07: `conn`, `topic`) and messages (op 0x02: `conn`,
/// `time` = sec u32 | nsec u32) noted.
void bag_records(const std::string& b, std::size_t at, std::size_t end, std::size_t chunk, Topics& topics,
                 std::vector<MessageRecord>& out) {
  while (at + 4 <= end && at + 8 + le_bytes(b, at, 4) <= end) {
    const std::size_t rh = le_bytes(b, at, 4), rd = le_bytes(b, at + 4 + rh, 4);
    if (at + 8 + rh + rd > end) break;
    auto f = bag_fields(b, at + 4, rh);
    const auto op = static_cast<unsigned char>(f.at("op")[0]);
    if (op == 0x07) topics[bag_number(f.at("conn"))] = f.at("topic");
    if (op == 0x02) {
      const std::uint64_t t = bag_number(f.at("time"));
      out.push_back({at, at + 8 + rh + rd, static_cast<std::int64_t>((t & 0xFFFFFFFFU) * 1'000'000'000U + (t >> 32)),
                     topics.at(bag_number(f.at("conn"))), chunk});
    }
    at += 8 + rh + rd;
  }
}

/// A ROS 1 bag's chunks (op 0x05: `compression`, `size`; its data: records) and the messages
/// in them, from the format 2.0 description: `#ROSBAG V2.0\n | records`. Compressed chunks are
/// decoded with the tools.
LogLayout bag_layout(const std::string& b, const fs::path& dir) {
  LogLayout out;
  Topics topics;
  std::size_t at = 13;
  while (at + 8 <= b.size()) {
    const std::size_t hlen = le_bytes(b, at, 4), dlen = le_bytes(b, at + 4 + hlen, 4), data = at + 8 + hlen;
    auto f = bag_fields(b, at + 4, hlen);
    const auto op = static_cast<unsigned char>(f.at("op")[0]);
    if (op == 0x07) topics[bag_number(f.at("conn"))] = f.at("topic");
    if (op == 0x05) {
      ChunkRecord c{at, data, data + dlen, f.at("compression"), bag_number(f.at("size"))};
      if (c.stored()) {
        bag_records(b, c.data, c.end, out.chunks.size(), topics, out.messages);
      } else if (const auto decoded = decode_with_tool(c.compression, b.substr(c.data, dlen), dir)) {
        bag_records(*decoded, 0, decoded->size(), out.chunks.size(), topics, out.messages);
      }
      out.chunks.push_back(c);
    }
    at = data + dlen;
  }
  return out;
}

std::string file_bytes(const fs::path& path) { return test::read_file(path); }

void write_cut(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

struct CutTempDir {
  fs::path dir = test::make_temp_dir("rmodel-cut-logs-");
  ~CutTempDir() { fs::remove_all(dir); }
};

/// A truth line's names and positions.
struct TruthState {
  std::vector<std::string> name;
  std::vector<double> position;
};

/// The truth's JointState lines by log time (the fixtures' log times are all distinct).
std::map<std::int64_t, TruthState> truth_by_log_time(const std::string& stem) {
  std::map<std::int64_t, TruthState> out;
  for (auto& line : test::json_lines(test::read_file(test::fixture("bags/" + stem + ".truth.jsonl"))))
    out[line["log_time_ns"].get<std::int64_t>()] = {line["name"].get<std::vector<std::string>>(),
                                                    line["position"].get<std::vector<double>>()};
  return out;
}

/// The messages read from `path` (log time) are exactly the JointState records of `layout`
/// whole before `cut`, in log-time order, each equal to its truth line; one error for the
/// damage, after them. Returns that error.
io::ReadError expect_whole_records(const fs::path& path, const LogLayout& layout, std::uint64_t cut,
                                   const std::map<std::int64_t, TruthState>& truth) {
  std::vector<std::int64_t> want;
  for (const MessageRecord& m : layout.messages)
    if (m.end <= cut && m.topic == "/joint_states") want.push_back(m.log_time);
  std::sort(want.begin(), want.end());
  io::ReaderOptions options;
  options.time = io::TimeSource::Log;
  const test::ReadResult r = test::read_log(path.string(), options);
  std::vector<std::int64_t> got;
  for (const io::Message& m : r.messages) got.push_back(m.joint.stamp.ns);
  EXPECT_EQ(got, want) << "cut at byte " << cut;
  for (const io::Message& m : r.messages) {
    const TruthState& w = truth.at(m.joint.stamp.ns);
    EXPECT_EQ(m.joint.name, w.name);
    EXPECT_EQ(m.joint.position, w.position);
    if (::testing::Test::HasFailure()) break;
  }
  // The damage, and before the JointState topic is declared, that the log has none.
  EXPECT_GE(r.errors.size(), 1U) << "cut at byte " << cut;
  for (std::size_t k = 1; k < r.errors.size(); ++k) {
    EXPECT_TRUE(want.empty()) << "cut at byte " << cut;
    EXPECT_EQ(r.errors[k].reason.rfind("no sensor_msgs/JointState topic in the log", 0), 0U) << r.errors[k].reason;
  }
  return r.errors.empty() ? io::ReadError{} : r.errors.front();
}

/// The chunk whose records `cut` falls among (past its header), if any.
const ChunkRecord* chunk_cut_by(const LogLayout& layout, std::uint64_t cut) {
  for (const ChunkRecord& c : layout.chunks)
    if (cut > c.data && cut < c.end) return &c;
  return nullptr;
}

/// The messages of chunk `c` whole before `cut`, every topic.
std::size_t whole_in_chunk(const LogLayout& layout, const ChunkRecord& c, std::uint64_t cut) {
  return static_cast<std::size_t>(std::count_if(layout.messages.begin(), layout.messages.end(), [&](const MessageRecord& m) {
    return m.end <= cut && &layout.chunks[m.chunk] == &c;
  }));
}

/// The cuts tried in a file: a step through the whole file (a prime number of bytes, so that
/// they fall anywhere in records), and around one message record in 5 of one chunk (its last
/// byte missing, whole, whole and one byte of the next record).
std::vector<std::uint64_t> cut_offsets(const LogLayout& layout, std::uint64_t size, std::size_t chunk) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t at = 0; at < size; at += 1999) out.push_back(at);
  std::size_t k = 0;
  for (const MessageRecord& m : layout.messages)
    if (m.chunk == chunk && k++ % 5 == 0)
      for (std::uint64_t at : {m.end - 1, m.end, m.end + 1}) out.push_back(at);
  return out;
}

std::string recovered_text(std::size_t n) {
  return " " + std::to_string(n) + " complete message" + (n == 1 ? "" : "s") + " read from it";
}

/// Zeroes the start and end times of every chunk's header (the records and their CRC stay):
/// the MCAP reader then reads the file in file order, a chunk at a time, as it reads a file
/// whose chunks say nothing of their times.
std::string without_chunk_times(std::string b, const LogLayout& layout) {
  for (const ChunkRecord& c : layout.chunks) std::fill(b.begin() + static_cast<std::ptrdiff_t>(c.start + 9),
                                                      b.begin() + static_cast<std::ptrdiff_t>(c.start + 9 + 16), '\0');
  return b;
}

/// `file` (stored chunks) cut at the offsets of cut_offsets() (around the messages of chunk
/// `chunk`), each cut written to `path` and read: expect_whole_records(), and the report of a
/// cut among a chunk's records, "the file ends at byte E, K bytes into this chunk of N
/// (truncated): M complete messages read from it" at the chunk's offset. Returns the number of
/// cuts that kept messages of their chunk.
std::size_t expect_stored_cuts(const std::string& file, const LogLayout& layout, std::size_t chunk,
                               const std::map<std::int64_t, TruthState>& truth, const fs::path& path) {
  std::size_t kept = 0;
  for (const std::uint64_t cut : cut_offsets(layout, file.size(), chunk)) {
    write_cut(path, file.substr(0, cut));
    const io::ReadError e = expect_whole_records(path, layout, cut, truth);
    if (::testing::Test::HasFailure()) return kept;
    if (const ChunkRecord* c = chunk_cut_by(layout, cut)) {
      const std::size_t n = whole_in_chunk(layout, *c, cut);
      EXPECT_EQ(e.byte_offset, c->start);
      EXPECT_EQ(e.reason, "the file ends at byte " + std::to_string(cut) + ", " + std::to_string(cut - c->start) +
                              " bytes into this chunk of " + std::to_string(c->end - c->start) + " (truncated):" +
                              recovered_text(n));
      kept += n > 0 ? 1 : 0;
    }
  }
  return kept;
}

/// `file` (compressed chunks) cut at a quarter, half and three quarters of each chunk: the
/// messages read are the whole file's first N, N counting the JointState messages of the
/// chunks before and those whole in what the tool decodes of the cut bytes; the report says
/// what the data decoded to and how many messages (every topic) came out of the cut chunk.
/// Returns the number of cuts that kept messages of their chunk.
std::size_t expect_compressed_cuts(const fs::path& file, bool mcap, const fs::path& dir) {
  const std::string whole = file_bytes(file);
  const LogLayout layout = mcap ? mcap_layout(whole, dir) : bag_layout(whole, dir);
  io::ReaderOptions options;
  options.time = io::TimeSource::Log;
  const test::ReadResult full = test::read_log(file.string(), options);
  EXPECT_TRUE(full.errors.empty());
  std::size_t kept = 0;
  for (std::size_t k = 0; k < layout.chunks.size(); ++k) {
    const ChunkRecord& c = layout.chunks[k];
    EXPECT_FALSE(c.stored());
    for (const std::uint64_t q : {1, 2, 3}) {
      const std::uint64_t cut = c.data + (c.end - c.data) * q / 4;
      SCOPED_TRACE(file.filename().string() + " cut at byte " + std::to_string(cut));
      const auto decoded = decode_with_tool(c.compression, whole.substr(c.data, cut - c.data), dir);
      if (!decoded) {
        ADD_FAILURE() << "no tool to decode " << c.compression;
        return kept;
      }
      std::size_t n = 0, from_chunk = 0;  // JointState messages to read; messages of the cut chunk
      for (const MessageRecord& m : layout.messages) {
        const bool whole_record = m.chunk < k || (m.chunk == k && m.end <= decoded->size());
        n += whole_record && m.topic == "/joint_states" ? 1 : 0;
        from_chunk += whole_record && m.chunk == k ? 1 : 0;
      }
      kept += from_chunk > 0 ? 1 : 0;
      write_cut(dir / "cut.log", whole.substr(0, cut));
      const test::ReadResult r = test::read_log((dir / "cut.log").string(), options);
      EXPECT_EQ(r.messages.size(), n);
      for (std::size_t i = 0; i < std::min(n, r.messages.size()); ++i) {
        EXPECT_EQ(r.messages[i].joint.stamp, full.messages[i].joint.stamp);
        EXPECT_EQ(r.messages[i].joint.name, full.messages[i].joint.name);
        EXPECT_EQ(r.messages[i].joint.position, full.messages[i].joint.position);
        if (::testing::Test::HasFailure()) return kept;
      }
      if (r.errors.empty()) {
        ADD_FAILURE() << "no error";
        continue;
      }
      EXPECT_EQ(r.errors[0].byte_offset, c.start);
      EXPECT_EQ(r.errors[0].reason, "the file ends at byte " + std::to_string(cut) + ", " +
                                        std::to_string(cut - c.start) + " bytes into this " + c.compression +
                                        " chunk of " + std::to_string(c.end - c.start) +
                                        " (truncated): its data decodes to " + std::to_string(decoded->size()) +
                                        " of " + std::to_string(c.uncompressed_size) + " bytes," +
                                        recovered_text(from_chunk));
    }
  }
  return kept;
}

}  // namespace

TEST(IoCutLogs, ACompressedChunkCutShortGivesWhatItsDataDecodesTo) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* tool : {"zstd", "lz4", "bzip2"})
    if (std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) != 0)
      GTEST_SKIP() << "the " << tool << " command is not installed: it decodes the cut chunks independently";
  const CutTempDir tmp;
  // The fixtures' chunks (64 KiB of records or less) are one block of each compression: a
  // cut one decodes to nothing, and only the chunks before it are read.
  for (const char* f : {"greeting.zstd.mcap", "greeting.lz4.mcap", "greeting.bz2.bag", "hoof_wave.lz4.bag"}) {
    const std::string name = f;
    expect_compressed_cuts(test::fixture("bags/" + name), name.find(".mcap") != std::string::npos, tmp.dir);
  }
  // Chunks of 1 MiB, as rosbag2 writes them (768 KiB by default), hold several blocks: a cut
  // one gives its whole blocks' messages.
  const test::ReadResult greeting = test::read_log(test::fixture("bags/greeting.zstd.mcap").string());
  for (const io::ChunkCompression c : {io::ChunkCompression::Zstd, io::ChunkCompression::Lz4}) {
    const fs::path big = tmp.dir / (c == io::ChunkCompression::Zstd ? "big.zstd.mcap" : "big.lz4.mcap");
    {
      io::WriterOptions o;
      o.format = io::parse_format("mcap");
      o.mcap_compression = c;
      o.mcap_chunk_size = std::size_t{1} << 20;
      io::MessageWriter w = io::MessageWriter::open(big.string(), o);
      for (int copy = 0; copy < 8; ++copy)  // eight times the recording: several chunks of 1 MiB
        for (const io::Message& m : greeting.messages) ASSERT_EQ(w.write(m.joint), io::WriteStatus::Written);
      w.close();
    }
    EXPECT_GT(expect_compressed_cuts(big, true, tmp.dir), 3U) << big;
  }
}

TEST(IoCutLogs, AnMcapCutAnywhereGivesEveryMessageWhoseRecordIsWhole) {
  RMODEL_REQUIRE_FIXTURES();
  // hoof_wave.mcap: uncompressed chunks, as rosbag2 records MCAP by default.
  const CutTempDir tmp;
  const std::string whole = file_bytes(test::fixture("bags/hoof_wave.mcap"));
  const LogLayout layout = mcap_layout(whole, tmp.dir);
  ASSERT_EQ(layout.chunks.size(), 4U);
  ASSERT_EQ(std::count_if(layout.messages.begin(), layout.messages.end(),
                          [](const MessageRecord& m) { return m.topic == "/joint_states"; }),
            542);
  const auto truth = truth_by_log_time("hoof_wave");
  // In log-time order (the file's chunks give their times), and in file order (they do not).
  for (const bool timed : {true, false}) {
    SCOPED_TRACE(timed ? "chunks with times" : "chunks without times: file order");
    const std::string file = timed ? whole : without_chunk_times(whole, layout);
    EXPECT_GT(expect_stored_cuts(file, layout, 2, truth, tmp.dir / "cut.mcap"), 60U);
  }
}

TEST(IoCutLogs, TheCountOfTheIssueIsEveryWholeJointState) {
  RMODEL_REQUIRE_FIXTURES();
  // Cut in the middle of the third chunk, as in the issue: every joint state whose record is
  // whole is read (337), not only those of the first two chunks (262, what was read before).
  const CutTempDir tmp;
  const std::string whole = file_bytes(test::fixture("bags/hoof_wave.mcap"));
  const LogLayout layout = mcap_layout(whole, tmp.dir);
  const ChunkRecord& third = layout.chunks.at(2);
  const std::uint64_t cut = third.data + (third.end - third.data) / 2;
  std::size_t in_earlier_chunks = 0, whole_records = 0;
  for (const MessageRecord& m : layout.messages) {
    if (m.topic != "/joint_states") continue;
    in_earlier_chunks += m.chunk < 2 ? 1 : 0;
    whole_records += m.end <= cut ? 1 : 0;
  }
  EXPECT_EQ(in_earlier_chunks, 262U);
  EXPECT_EQ(whole_records, 337U);
  write_cut(tmp.dir / "cut.mcap", whole.substr(0, cut));
  const test::ReadResult r = test::read_log((tmp.dir / "cut.mcap").string());
  EXPECT_EQ(r.messages.size(), whole_records);
}

TEST(IoCutLogs, ARos1BagCutAnywhereGivesEveryMessageWhoseRecordIsWhole) {
  RMODEL_REQUIRE_FIXTURES();
  // greeting.bag: uncompressed chunks, read in file order (= log order in this file).
  const CutTempDir tmp;
  const std::string whole = file_bytes(test::fixture("bags/greeting.bag"));
  const LogLayout layout = bag_layout(whole, tmp.dir);
  ASSERT_EQ(layout.chunks.size(), 5U);
  const auto truth = truth_by_log_time("greeting");
  EXPECT_GT(expect_stored_cuts(whole, layout, 3, truth, tmp.dir / "cut.bag"), 60U);
}

// A .db3 cut short (issue 40, point 10): SQLite refuses a database shorter than its header says
// ("database disk image is malformed", as its own shell says), which was reported as "not a
// rosbag2 database (no topics table)". The report now gives SQLite's words and the truncation
// the file's header shows (page size at byte 16, big endian; page count at byte 28).
TEST(IoCutLogs, ADb3CutShortSaysItIsTruncated) {
  RMODEL_REQUIRE_FIXTURES();
  const CutTempDir tmp;
  const std::string whole = file_bytes(test::fixture("bags/greeting_db3/greeting_db3_0.db3"));
  std::uint64_t page = 0, pages = 0;
  for (std::size_t i = 0; i < 2; ++i) page = page << 8 | static_cast<unsigned char>(whole[16 + i]);
  for (std::size_t i = 0; i < 4; ++i) pages = pages << 8 | static_cast<unsigned char>(whole[28 + i]);
  ASSERT_EQ(page * pages, whole.size());
  for (const std::uint64_t cut : {std::uint64_t{4096}, whole.size() / 2, whole.size() - page}) {
    SCOPED_TRACE("cut at byte " + std::to_string(cut));
    const fs::path path = tmp.dir / "cut.db3";
    write_cut(path, whole.substr(0, cut));
    const test::ReadResult r = test::read_log(path.string());
    ASSERT_FALSE(r.errors.empty());
    EXPECT_EQ(r.errors[0].reason, "sqlite3: database disk image is malformed; the file is truncated: its header says " +
                                      std::to_string(pages) + " pages of " + std::to_string(page) + " bytes (" +
                                      std::to_string(whole.size()) + " bytes), the file has " + std::to_string(cut));
    const io::LogInfo info = io::read_log_info(path.string());
    ASSERT_EQ(info.problems.size(), 1U);
    EXPECT_NE(info.problems[0].find("the file is truncated"), std::string::npos) << info.problems[0];
  }
  // Cut inside SQLite's 100-byte header.
  write_cut(tmp.dir / "head.db3", whole.substr(0, 60));
  const test::ReadResult head = test::read_log((tmp.dir / "head.db3").string());
  ASSERT_FALSE(head.errors.empty());
  EXPECT_NE(head.errors[0].reason.find("the file is truncated: 60 bytes, less than SQLite's 100-byte header"),
            std::string::npos)
      << head.errors[0].reason;
  // A whole database without rosbag2's tables is still not a rosbag2 database.
  if (std::system("command -v sqlite3 >/dev/null 2>&1") != 0) GTEST_SKIP() << "no sqlite3 shell to make a database";
  const fs::path other = tmp.dir / "other.db3";
  ASSERT_EQ(std::system(("sqlite3 " + other.string() + " 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'").c_str()), 0);
  const test::ReadResult r = test::read_log(other.string());
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].reason, "not a rosbag2 database (no topics table): no such table: topics");
}
