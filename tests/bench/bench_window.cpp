// Cutting a time window out of a large indexed log (issue 25): a 1 GB MCAP of 32-joint poses
// (uncompressed 1 MiB chunks, written by rmodel into the temporary directory and removed at
// exit) is replayed whole and through a window of 1 % of its duration. Counters: bytes read
// from the file and chunks read (MessageReader::stats()), messages returned. By log time the
// window reads the chunks it overlaps; by header stamps every chunk is read (exactness first:
// docs/design.md, "Time windows"). The file is usually in the page cache after writing it,
// so the times are the reading's own work, not the disk's.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"

namespace {

namespace io = rmodel::io;
using rmodel::Time;

constexpr std::uint64_t kTargetBytes = std::uint64_t{1} << 30;
constexpr std::int64_t kStepNs = 1'000'000;  // 1 kHz
constexpr std::int64_t kZeroNs = std::int64_t{1'700'000'000} * 1'000'000'000;

struct BigLog {
  std::string path;
  std::int64_t messages = 0;
  BigLog() {
    path = (std::filesystem::temp_directory_path() / fmt::format("rmodel_bench_window_{}.mcap", ::getpid())).string();
    io::WriterOptions o;
    o.format = io::parse_format("mcap");
    o.mcap_compression = io::ChunkCompression::None;
    io::MessageWriter w = io::MessageWriter::open(path, o);
    io::Message m;
    for (int j = 0; j < 32; ++j) m.joint.name.push_back(fmt::format("joint_{:02}", j));
    m.joint.position.assign(32, 0.0);
    m.joint.velocity.assign(32, 0.0);
    m.joint.effort.assign(32, 0.0);
    std::uintmax_t written = 0;
    while (written < kTargetBytes) {
      for (int k = 0; k < 10000; ++k, ++messages) {
        m.joint.stamp = Time{kZeroNs + messages * kStepNs};
        for (int j = 0; j < 32; ++j) m.joint.position[static_cast<std::size_t>(j)] = 1e-6 * static_cast<double>(messages + j);
        (void)w.write(m);
      }
      w.flush();
      written = std::filesystem::file_size(path);
    }
    w.close();
  }
  ~BigLog() { std::filesystem::remove(path); }
};

const BigLog& big_log() {
  static const BigLog log;
  return log;
}

// arg 0: whole file; 1: a 1 % window by log time; 2: the same window by header stamps.
void BM_CutWindow(benchmark::State& state) {
  const BigLog& log = big_log();
  io::ReaderOptions o;
  o.time = state.range(0) == 2 ? io::TimeSource::Header : io::TimeSource::Log;
  if (state.range(0) != 0) {
    const std::int64_t duration = log.messages * kStepNs;
    o.start = io::TimeBound{Time{kZeroNs + duration / 2}, false};
    o.end = io::TimeBound{Time{kZeroNs + duration / 2 + duration / 100}, false};
  }
  io::Message m;
  io::ReaderStats stats;
  std::int64_t count = 0;
  for (auto _ : state) {
    io::MessageReader reader = io::MessageReader::open(log.path, o);
    count = 0;
    while (reader.next(m) == io::ReadStatus::Ok) ++count;
    stats = reader.stats();
    benchmark::DoNotOptimize(m.joint.position.data());
  }
  state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(log.path)) / 1e6;
  state.counters["read_MB"] = static_cast<double>(stats.bytes_read) / 1e6;
  state.counters["chunks_read"] = static_cast<double>(stats.chunks_read);
  state.counters["chunks_skipped"] = static_cast<double>(stats.chunks_skipped);
  state.counters["messages"] = static_cast<double>(count);
  const char* labels[] = {"whole file", "1 % window, --time log", "1 % window, --time header"};
  state.SetLabel(labels[state.range(0)]);
}

}  // namespace

BENCHMARK(BM_CutWindow)->ArgName("whole0_log1_header2")->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
