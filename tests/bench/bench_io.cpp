// Joint-state I/O throughput: which JSON parser for the JSON Lines hot path (native,
// simdjson On Demand, simdjson DOM, nlohmann_json), the cost of formatting, and the whole
// read → write pipeline per message, on partial states of a 32-joint robot (each message a
// random run of 1..32 joints with positions and velocities at full precision; full32 = all).
//
//   cmake --build build --target bench_io && build/bench/bench_io
//
// Items/s are messages per second; bytes/s count the JSON Lines text.

#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <random>
#include <streambuf>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#define FMT_HEADER_ONLY
#include <fmt/compile.h>
#include <fmt/format.h>

#include "io/text/numbers.hpp"  // librmodel's internal number parser, for BM_ParseDouble
#include "json_parsers.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"

namespace io = rmodel::io;
using rmodel::Time;
using rmodel::io::testing::JsonParser;

namespace {

// An istream over a string without copying it.
class MemoryBuf : public std::streambuf {
public:
  explicit MemoryBuf(const std::string& s) {
    char* p = const_cast<char*>(s.data());
    setg(p, p, p + s.size());
  }
};

const std::vector<std::string>& joint_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (int leg = 1; leg <= 4; ++leg)
      for (int j = 1; j <= 6; ++j) n.push_back("joint" + std::to_string(leg) + std::to_string(j));
    for (int j = 1; j <= 6; ++j) n.push_back("joint5" + std::to_string(j));
    n.push_back("eyes_pitch");
    n.push_back("eyes_yaw");
    return n;
  }();
  return names;
}

// Messages as a robot's drivers send them: each a random run of the 32 joints (partial),
// with positions and velocities at full double precision and a time; `full` = all 32.
std::vector<io::Message> make_messages(std::size_t count, bool full) {
  std::mt19937_64 rng(1234);
  std::uniform_real_distribution<double> angle(-1.7, 1.7), speed(-3.0, 3.0);
  const auto& names = joint_names();
  std::vector<io::Message> out(count);
  for (std::size_t k = 0; k < count; ++k) {
    io::Message& m = out[k];
    m.kind = io::MessageKind::Joint;
    m.joint.stamp = Time{1563014597'000'000'000 + static_cast<std::int64_t>(k) * 12'500'000};
    std::size_t first = 0, n = names.size();
    if (!full) {
      first = rng() % names.size();
      n = 1 + rng() % (names.size() - first);
    }
    for (std::size_t i = first; i < first + n; ++i) {
      m.joint.name.push_back(names[i]);
      m.joint.position.push_back(angle(rng));
      m.joint.velocity.push_back(speed(rng));
    }
  }
  return out;
}

const std::string& jsonl_text(bool full) {
  static std::string text[2];
  std::string& t = text[full ? 1 : 0];
  if (t.empty()) {
    const auto messages = make_messages(20000, full);
    for (const auto& m : messages) io::append_json_line(t, m);
  }
  return t;
}

const std::vector<io::Message>& messages(bool full) {
  static std::vector<io::Message> m[2] = {make_messages(20000, false), make_messages(20000, true)};
  return m[full ? 1 : 0];
}

// Reading JSON Lines with each parser: the parser comparison.
void BM_ReadJsonl(benchmark::State& state) {
  const auto parser = static_cast<JsonParser>(state.range(0));  // the alternatives are not in librmodel
  const bool full = state.range(1) != 0;
  if (parser != JsonParser::Native && parser != JsonParser::Nlohmann && !io::testing::have_simdjson()) {
    state.SkipWithError("built without simdjson");
    return;
  }
  const std::string& text = jsonl_text(full);
  std::int64_t count = 0;
  io::Message m;
  for (auto _ : state) {
    MemoryBuf buf(text);
    std::istream in(&buf);
    io::ReaderOptions o;
    o.format = io::parse_format("jsonl");
    io::MessageReader reader(in, "<mem>", o);
    io::testing::use_parser(reader, parser);
    while (reader.next(m) == io::ReadStatus::Ok) ++count;
    benchmark::DoNotOptimize(m.joint.position.data());
  }
  state.SetItemsProcessed(count);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(text.size()));
}

// Formatting one JSON line per message into a reused string.
void BM_FormatJsonLine(benchmark::State& state) {
  const auto layout = static_cast<io::StampLayout>(state.range(0));
  const auto& msgs = messages(state.range(1) != 0);
  std::string line;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    for (const auto& m : msgs) {
      line.clear();
      io::append_json_line(line, m, layout);
      bytes += static_cast<std::int64_t>(line.size());
    }
    benchmark::DoNotOptimize(line.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * msgs.size()));
  state.SetBytesProcessed(bytes);
}

// The streaming pipeline: read JSON Lines, write JSON Lines to /dev/null.
void BM_ReadWriteJsonl(benchmark::State& state) {
  const auto parser = static_cast<JsonParser>(state.range(0));  // the alternatives are not in librmodel
  const bool full = state.range(1) != 0;
  if (parser != JsonParser::Native && parser != JsonParser::Nlohmann && !io::testing::have_simdjson()) {
    state.SkipWithError("built without simdjson");
    return;
  }
  const std::string& text = jsonl_text(full);
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  io::MessageWriter writer(null_fd, "/dev/null", {}, true);
  std::int64_t count = 0;
  io::Message m;
  for (auto _ : state) {
    MemoryBuf buf(text);
    std::istream in(&buf);
    io::ReaderOptions o;
    o.format = io::parse_format("jsonl");
    io::MessageReader reader(in, "<mem>", o);
    io::testing::use_parser(reader, parser);
    while (reader.next(m) == io::ReadStatus::Ok) {
      writer.write(m);
      ++count;
    }
    writer.flush();
  }
  state.SetItemsProcessed(count);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(text.size()));
}

// What an aggregator does: read partial states, write the full 32-joint pose after each.
void BM_ReadPartialWriteFullPose(benchmark::State& state) {
  const std::string& text = jsonl_text(false);
  const auto& names = joint_names();
  rmodel::JointState pose;
  pose.name = names;
  pose.position.assign(names.size(), 0.0);
  pose.velocity.assign(names.size(), 0.0);
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  io::MessageWriter writer(null_fd, "/dev/null", {}, true);
  std::int64_t count = 0;
  io::Message m;
  for (auto _ : state) {
    MemoryBuf buf(text);
    std::istream in(&buf);
    io::MessageReader reader(in, "<mem>", {io::parse_format("jsonl")});
    while (reader.next(m) == io::ReadStatus::Ok) {
      // the 32 names in a fixed order: the first partial name tells where the run starts
      std::size_t first = 0;
      while (names[first] != m.joint.name[0]) ++first;
      for (std::size_t i = 0; i < m.joint.name.size(); ++i) {
        pose.position[first + i] = m.joint.position[i];
        pose.velocity[first + i] = m.joint.velocity[i];
      }
      pose.stamp = m.joint.stamp;
      writer.write(pose);
      ++count;
    }
    writer.flush();
  }
  state.SetItemsProcessed(count);
}

void BM_ReadCsv(benchmark::State& state) {
  static std::string text;
  if (text.empty()) {
    io::WriterOptions o;
    o.format = io::parse_format("csv");
    o.csv_joints = joint_names();
    o.csv_fields = io::CsvPosition | io::CsvVelocity;
    io::MessageWriter w(text, o);
    for (const auto& m : messages(false)) w.write(m);
  }
  std::int64_t count = 0;
  io::Message m;
  for (auto _ : state) {
    MemoryBuf buf(text);
    std::istream in(&buf);
    io::MessageReader reader(in, "<mem>", {io::parse_format("csv")});
    while (reader.next(m) == io::ReadStatus::Ok) ++count;
  }
  state.SetItemsProcessed(count);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(text.size()));
}

void BM_WriteCsv(benchmark::State& state) {
  const auto& msgs = messages(false);
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  io::WriterOptions o;
  o.format = io::parse_format("csv");
  o.csv_joints = joint_names();
  o.csv_fields = io::CsvPosition | io::CsvVelocity;
  io::MessageWriter writer(null_fd, "/dev/null", o, true);
  for (auto _ : state) {
    for (const auto& m : msgs) writer.write(m);
    writer.flush();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * msgs.size()));
}

// Shortest round-trip double formatting: fmt (what the writer uses) against alternatives.
std::vector<double> sample_doubles() {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> d(-3.2, 3.2);
  std::vector<double> v(4096);
  for (double& x : v) x = d(rng);
  return v;
}

void BM_FormatDouble(benchmark::State& state) {
  const auto v = sample_doubles();
  char buf[64];
  std::string s;
  s.reserve(64);
  for (auto _ : state) {
    for (double x : v) {
      switch (state.range(0)) {
        case 0: benchmark::DoNotOptimize(fmt::format_to(buf, FMT_COMPILE("{}"), x)); break;
        case 1:
          s.clear();
          io::append_double(s, x);  // rmodel: fmt's Dragonbox digits, own layout
          benchmark::DoNotOptimize(s.data());
          break;
        case 2: benchmark::DoNotOptimize(std::to_chars(buf, buf + sizeof buf, x).ptr); break;
        default: benchmark::DoNotOptimize(std::snprintf(buf, sizeof buf, "%.17g", x)); break;
      }
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * v.size()));
  const char* labels[] = {"fmt::format_to {}", "rmodel append_double", "std::to_chars",
                          "snprintf %.17g"};
  state.SetLabel(labels[state.range(0)]);
}

// Reading the numbers of a JSON Lines message: librmodel's one-pass JSON number parser
// (grammar check and value together) against the JSON grammar scan followed by
// std::from_chars (GCC 12: fast_float inside), std::from_chars alone (no grammar check:
// not enough for JSON), and strtod. The texts sit in one padded buffer, as in the reader.
void BM_ParseDouble(benchmark::State& state) {
  const auto v = sample_doubles();
  std::string text;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for (double x : v) {
    const std::string s = fmt::format("{}", x);
    spans.emplace_back(text.size(), s.size());
    text += s;
    text += ',';
  }
  text.append(64, ' ');
  const char* const base = text.data();
  const char* const readable = base + text.size();
  for (auto _ : state) {
    for (const auto& [at, n] : spans) {
      const char* b = base + at;
      const char* e = b + n;
      double x = 0;
      switch (state.range(0)) {
        case 0: {
          io::detail::NumberStatus st;
          benchmark::DoNotOptimize(io::detail::parse_json_double(b, e + 1, readable, x, st));
          break;
        }
        case 1: {
          bool integral = false;
          const char* end = io::detail::scan_json_number(b, e + 1, integral);
          benchmark::DoNotOptimize(std::from_chars(b, end, x).ptr);
          break;
        }
        case 2: benchmark::DoNotOptimize(std::from_chars(b, e, x).ptr); break;
        default: x = std::strtod(b, nullptr); break;
      }
      benchmark::DoNotOptimize(x);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * spans.size()));
  const char* labels[] = {"rmodel parse_json_double", "JSON scan + std::from_chars",
                          "std::from_chars alone", "strtod"};
  state.SetLabel(labels[state.range(0)]);
}

// Replaying a log file: the same 20000 full 32-joint poses as JSON Lines and as MCAP written
// by rmodel (arg: 0 JSON Lines, 1 MCAP uncompressed, 2 MCAP zstd, 3 MCAP lz4), read to the
// end through MessageReader::open; items = messages.
std::string replay_file(int kind) {
  static const char* names[] = {"jsonl", "none.mcap", "zstd.mcap", "lz4.mcap"};
  const std::string path = fmt::format("/tmp/rmodel_bench_replay_{}.{}", ::getpid(), names[kind]);
  io::WriterOptions o;
  o.format = kind == 0 ? io::parse_format("jsonl") : io::parse_format("mcap");
  o.mcap_compression = kind == 1 ? io::ChunkCompression::None
                       : kind == 3 ? io::ChunkCompression::Lz4 : io::ChunkCompression::Zstd;
  io::MessageWriter w = io::MessageWriter::open(path, o);
  for (const auto& m : messages(true)) (void)w.write(m);
  w.close();
  return path;
}

void BM_ReplayLog(benchmark::State& state) {
  const std::string path = replay_file(static_cast<int>(state.range(0)));
  std::int64_t count = 0;
  io::Message m;
  for (auto _ : state) {
    io::MessageReader reader = io::MessageReader::open(path);
    while (reader.next(m) == io::ReadStatus::Ok) ++count;
    benchmark::DoNotOptimize(m.joint.position.data());
  }
  state.SetItemsProcessed(count);
  std::remove(path.c_str());
}

// Writing the same poses as MCAP (arg: 1 uncompressed, 2 zstd, 3 lz4) to /dev/null.
void BM_WriteMcap(benchmark::State& state) {
  io::WriterOptions o;
  o.format = io::parse_format("mcap");
  o.mcap_compression = state.range(0) == 1 ? io::ChunkCompression::None
                       : state.range(0) == 3 ? io::ChunkCompression::Lz4 : io::ChunkCompression::Zstd;
  std::int64_t count = 0;
  for (auto _ : state) {
    io::MessageWriter w = io::MessageWriter::open("/dev/null", o);
    for (const auto& m : messages(true)) (void)w.write(m);
    w.close();
    count += static_cast<std::int64_t>(messages(true).size());
  }
  state.SetItemsProcessed(count);
}

void parser_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"parser", "full32"});
  for (int full : {0, 1})
    for (int p : {0, 1, 2, 3}) b->Args({p, full});  // Native, Ondemand, Dom, Nlohmann
}

}  // namespace

BENCHMARK(BM_ReadJsonl)->Apply(parser_args)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FormatJsonLine)->ArgNames({"stamp", "full32"})->Args({0, 0})->Args({1, 0})->Args({0, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadWriteJsonl)->ArgNames({"parser", "full32"})->Args({0, 0})->Args({1, 0})->Args({0, 1})
    ->Args({1, 1})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadPartialWriteFullPose)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReplayLog)->ArgName("jsonl0_mcap1none2zstd3lz4")->DenseRange(0, 3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WriteMcap)->ArgName("mcap1none2zstd3lz4")->DenseRange(1, 3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadCsv)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WriteCsv)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FormatDouble)->Arg(0)->Arg(1)->Arg(2)->Arg(3);
BENCHMARK(BM_ParseDouble)->Arg(0)->Arg(1)->Arg(2)->Arg(3);

BENCHMARK_MAIN();
