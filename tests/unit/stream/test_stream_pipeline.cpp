// The assembled streaming pipeline: reader (from memory) → sync aggregator → output filter →
// writer (into memory) allocates nothing per message once warm; the slot mapper's cache and
// wording; the run loop's counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "alloc_counter.hpp"
#include "rmodel/stream/aggregator.hpp"
#include "rmodel/stream/stream_filter.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "rmodel/stream/stream.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::pony;

TEST(StreamPipelineAlloc, ReaderSyncAggregatorFilterWriterAllocateNothingPerMessage) {
  const Model model = pony();
  // Partial messages as controllers send them, four per 10 ms cycle, with stamps: position
  // only, velocity only, both, and a message with an unknown joint (counted, reported once).
  const char* groups[] = {
      R"("name": ["neck_pitch", "head_yaw"], "position": [{0}, {1}])",
      R"("name": ["tail_swing"], "velocity": [{0}])",
      R"("name": ["front_left_hip", "front_left_knee"], "position": [{0}, {2}], "velocity": [{1}, {0}])",
      R"("name": ["wing", "jaw_slide"], "position": [{0}, {3}])",
  };
  constexpr int kWarmUp = 2000, kMeasured = 10000;
  std::string log;
  for (int k = 0; k < kWarmUp + kMeasured; ++k) {
    // Within the joints' limits (a limit warning would format its text).
    const double a = 0.3 * std::sin(0.01 * k), b = 0.2 * std::cos(0.013 * k);
    const double knee = -0.5 + b, jaw = 0.01 + 0.005 * std::sin(0.02 * k);
    log += fmt::format("{{\"t\": {}, ", 0.0025 * k) + fmt::format(fmt::runtime(groups[k % 4]), a, b, knee, jaw) + "}\n";
  }
  std::istringstream in(log);
  io::MessageReader reader(in, "memory");

  AggregatorOptions options;
  options.kind = AggregatorKind::sync;
  options.period = Time{10'000'000};
  options.ticks = TickSource::time;
  options.support = false;
  Aggregator aggregator(model, options);
  std::string out;
  out.reserve(std::size_t{32} << 20);  // the writer appends to it: no growth while measured
  io::MessageWriter writer(out);
  stream::WriterSink sink(writer);
  filters::FilterSink filtered(sink, "exponential", {{"tau", 0.05}}, model.pose_size());
  std::size_t events = 0;
  stream::Pipeline pipeline(aggregator, filtered, [&](const stream::Event&) { ++events; });

  io::Message message;
  for (int k = 0; k < kWarmUp; ++k) {
    ASSERT_EQ(reader.next(message), io::ReadStatus::Ok);
    pipeline.push(message);
  }
  test::AllocationCounter counter;
  for (int k = 0; k < kMeasured; ++k) {
    if (reader.next(message) != io::ReadStatus::Ok) break;
    pipeline.push(message);
  }
  const std::size_t allocations = counter.count();
  pipeline.finish();
  EXPECT_EQ(allocations, 0U);
  const stream::Summary& s = pipeline.summary();
  EXPECT_EQ(s.read, static_cast<std::uint64_t>(kWarmUp + kMeasured));
  EXPECT_EQ(s.rejected, 0U);
  EXPECT_EQ(s.warnings, static_cast<std::uint64_t>((kWarmUp + kMeasured) / 4));  // every 'wing'
  EXPECT_EQ(events, 1U);                                                           // reported once
  // Stamps 0 … 29.9975 s at T = 0.01 s: cycles end at 0, 0.01, …, 30.00 (the last one by the
  // end of input): 3001 poses.
  EXPECT_EQ(s.written, 3001U);
}

TEST(SlotMapper, OpenMapperGivesSlotsInOrderOfFirstSight) {
  stream::SlotMapper mapper;
  stream::Reporter report;
  io::Message m;
  m.joint.name = {"b", "a"};
  m.joint.position = {1, 2};
  ASSERT_TRUE(mapper.map(m, report));
  EXPECT_EQ(std::vector<std::int32_t>(mapper.slots().begin(), mapper.slots().end()), (std::vector<std::int32_t>{0, 1}));
  m.joint.name = {"a", "c", "b"};
  m.joint.position = {1, 2, 3};
  ASSERT_TRUE(mapper.map(m, report));
  EXPECT_EQ(std::vector<std::int32_t>(mapper.slots().begin(), mapper.slots().end()),
            (std::vector<std::int32_t>{1, 2, 0}));
  EXPECT_EQ(mapper.names(), (std::vector<std::string>{"b", "a", "c"}));
  m.joint.name = {"a", "a"};
  m.joint.position = {1, 2};
  EXPECT_FALSE(mapper.map(m, report));
  EXPECT_EQ(mapper.problem(), stream::SlotMapper::Problem::repeated);
  EXPECT_EQ(mapper.repeated_element(), 1U);
  EXPECT_EQ(report.summary().rejected, 1U);
}

TEST(SlotMapper, ListsSeenBeforeGetTheSlotsTheirNamesHave) {
  // More distinct lists than the mapper remembers, in a cycle and then shuffled, some naming
  // unknown joints: every element's slot is its name's position in the fixed list (or
  // unknown), whatever was mapped before.
  const std::vector<std::string> fixed = {"j0", "j1", "j2", "j3", "j4", "j5", "j6", "j7", "j8", "j9"};
  stream::SlotMapper mapper(fixed);
  stream::Reporter report;
  std::vector<std::vector<std::string>> lists;
  for (int k = 0; k < 12; ++k) {
    std::vector<std::string> names;
    for (int i = 0; i < 1 + k % 5; ++i) names.push_back(fmt::format("j{}", (3 * k + 7 * i) % 13));
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    lists.push_back(names);
  }
  std::mt19937 rng(11);
  std::vector<std::size_t> order;
  for (int round = 0; round < 3; ++round)
    for (std::size_t k = 0; k < lists.size(); ++k) order.push_back(k);
  for (int i = 0; i < 200; ++i) order.push_back(rng() % lists.size());
  for (std::size_t k : order) {
    io::Message m;
    m.joint.name = lists[k];
    ASSERT_TRUE(mapper.map(m, report));
    ASSERT_EQ(mapper.slots().size(), lists[k].size());
    for (std::size_t i = 0; i < lists[k].size(); ++i) {
      const auto at = std::find(fixed.begin(), fixed.end(), lists[k][i]);
      const std::int32_t want =
          at == fixed.end() ? stream::SlotMapper::kUnknown : static_cast<std::int32_t>(at - fixed.begin());
      ASSERT_EQ(mapper.slots()[i], want) << "list " << k << " element " << i;
    }
  }
}

TEST(SlotMapper, ANameAddedLaterIsNoLongerUnknownInAListSeenBefore) {
  stream::SlotMapper mapper({"a", "b"});
  stream::Reporter report;
  io::Message m;
  m.joint.name = {"a", "x"};
  ASSERT_TRUE(mapper.map(m, report));
  EXPECT_EQ(mapper.slots()[1], stream::SlotMapper::kUnknown);
  EXPECT_EQ(mapper.add("x"), 2U);
  ASSERT_TRUE(mapper.map(m, report));
  EXPECT_EQ(mapper.slots()[0], 0);
  EXPECT_EQ(mapper.slots()[1], 2);
}

TEST(SlotMapper, ARepeatedNameIsFoundEveryTimeItsListComes) {
  stream::SlotMapper mapper({"a", "b", "c"});
  mapper.set_repeats(stream::SlotMapper::Repeats::skip);
  stream::Reporter report;
  io::Message repeated, plain;
  repeated.joint.name = {"b", "c", "b"};
  plain.joint.name = {"c", "b"};
  for (int k = 0; k < 3; ++k) {
    ASSERT_TRUE(mapper.map(repeated, report));
    EXPECT_EQ(std::vector<std::int32_t>(mapper.slots().begin(), mapper.slots().end()),
              (std::vector<std::int32_t>{1, 2, stream::SlotMapper::kRepeated}));
    EXPECT_EQ(mapper.repeated_text(2), "joint 'b' is named twice (elements 1 and 3)");
    ASSERT_TRUE(mapper.map(plain, report));
    EXPECT_EQ(std::vector<std::int32_t>(mapper.slots().begin(), mapper.slots().end()),
              (std::vector<std::int32_t>{2, 1}));
  }
}

}  // namespace
}  // namespace rmodel

namespace rmodel {
namespace {

TEST(StreamReporter, CapsWarningsPerKindAndSubjectAndListsTheRest) {
  std::vector<std::string> shown;
  stream::Reporter report([&](const stream::Event& e) { shown.emplace_back(e.text); });
  report.set_max_reports(2);
  std::size_t formatted = 0;
  const io::Message m;
  const auto warn = [&](std::string_view kind, std::string_view subject) {
    report.warn(m, kind, subject, [&] {
      ++formatted;
      return fmt::format("{} {}", kind, subject);
    });
  };
  for (int i = 0; i < 5; ++i) warn("position-limit", "a");
  for (int i = 0; i < 3; ++i) warn("position-limit", "b");
  warn("late-tick", "");
  for (int i = 0; i < 4; ++i) warn("late-tick", "");
  // 2 of a, 2 of b, 2 of the stream's late ticks passed on; the others only counted.
  EXPECT_EQ(shown, (std::vector<std::string>{"position-limit a", "position-limit a", "position-limit b",
                                             "position-limit b", "late-tick ", "late-tick "}));
  EXPECT_EQ(formatted, 6U);
  EXPECT_EQ(report.summary().warnings, 13U);
  const auto held = report.held_back();
  ASSERT_EQ(held.size(), 3U);  // in the order the first of each was held back
  EXPECT_EQ(held[0].kind, "position-limit");
  EXPECT_EQ(held[0].subject, "a");
  EXPECT_EQ(held[0].count, 3U);
  EXPECT_EQ(held[1].subject, "b");
  EXPECT_EQ(held[1].count, 1U);
  EXPECT_EQ(held[2].kind, "late-tick");
  EXPECT_EQ(held[2].subject, "");
  EXPECT_EQ(held[2].count, 3U);
}

TEST(StreamReporter, WithoutCapEveryWarningIsPassedOn) {
  std::size_t events = 0;
  stream::Reporter report([&](const stream::Event&) { ++events; });
  const io::Message m;
  for (int i = 0; i < 50; ++i) report.warn(m, "position-limit", "a", [] { return std::string("x"); });
  EXPECT_EQ(events, 50U);
  EXPECT_TRUE(report.held_back().empty());
}

TEST(StreamReporter, WithoutHandlerNoTextIsFormatted) {
  stream::Reporter report;  // what a quiet command gives
  report.set_max_reports(10);
  std::size_t formatted = 0;
  const io::Message m;
  for (int i = 0; i < 30; ++i)
    report.warn(m, "position-limit", "a", [&] {
      ++formatted;
      return std::string("never");
    });
  EXPECT_EQ(formatted, 0U);
  EXPECT_EQ(report.summary().warnings, 30U);
  EXPECT_TRUE(report.held_back().empty());  // nothing was shown, so nothing was held back
}

/// `count` JSON Lines messages of the pony with neck_pitch at 0.9, above its upper limit 0.5.
std::string out_of_limit_log(int count) {
  std::string log;
  for (int k = 0; k < count; ++k)
    log += fmt::format(R"({{"t": {}, "name": ["neck_pitch", "head_yaw"], "position": [0.9, 0.1]}})", 0.01 * k) + "\n";
  return log;
}

/// Allocations of an aggregator pipeline over `count` out-of-limit messages after `warm_up`
/// of them, with `handler` and `max_reports`; `warnings`: the run's count.
std::size_t allocations_of_warnings(const stream::EventHandler& handler, std::uint64_t max_reports, int warm_up,
                                    int count, std::uint64_t& warnings) {
  const Model model = test::pony();
  std::istringstream in(out_of_limit_log(warm_up + count));
  io::MessageReader reader(in, "memory");
  Aggregator aggregator(model, AggregatorOptions{});
  std::string out;
  out.reserve(std::size_t{8} << 20);
  io::MessageWriter writer(out);
  stream::WriterSink sink(writer);
  stream::RunOptions options;
  options.max_reports = max_reports;
  stream::Pipeline pipeline(aggregator, sink, handler, options);
  io::Message message;
  for (int k = 0; k < warm_up; ++k) {
    EXPECT_EQ(reader.next(message), io::ReadStatus::Ok);
    pipeline.push(message);
  }
  test::AllocationCounter counter;
  for (int k = 0; k < count; ++k) {
    if (reader.next(message) != io::ReadStatus::Ok) break;
    pipeline.push(message);
  }
  const std::size_t allocations = counter.count();
  pipeline.finish();
  warnings = pipeline.summary().warnings;
  return allocations;
}

TEST(StreamPipelineAlloc, WarningsNobodySeesAreNotFormatted) {
  // Every message warns (neck_pitch above its limit). Quiet (no handler): no text is built,
  // not even for the first ones; beyond the cap: nothing once the joint's warning was seen.
  std::uint64_t warnings = 0;
  EXPECT_EQ(allocations_of_warnings({}, 10, 100, 2000, warnings), 0U);
  EXPECT_EQ(warnings, 2100U);
  std::size_t events = 0;
  EXPECT_EQ(allocations_of_warnings([&](const stream::Event&) { ++events; }, 10, 100, 2000, warnings), 0U);
  EXPECT_EQ(warnings, 2100U);
  EXPECT_EQ(events, 10U);
  // Shown warnings do format their text (the counter sees it): the test can fail.
  events = 0;
  EXPECT_GT(allocations_of_warnings([&](const stream::Event&) { ++events; }, 0, 100, 2000, warnings), 0U);
  EXPECT_EQ(events, 2100U);
}

}  // namespace
}  // namespace rmodel

namespace rmodel {

// ---------------------------------------------------------------------------------------
// Reading ahead on a second thread (RunOptions::read_ahead)

namespace {

struct RunRecord {
  std::string output;
  std::vector<std::string> events;  // "severity line item byte: text", in the order reported
  stream::Summary summary;
  std::vector<std::uint64_t> progress;  // on_message's counts
};

using test::pony;

RunRecord run_file(const Model& model, const std::filesystem::path& path, bool read_ahead, std::uint64_t max_errors) {
  RunRecord record;
  io::MessageReader reader = io::MessageReader::open(path.string());
  EXPECT_TRUE(reader.may_read_ahead()) << "a regular file";
  Aggregator aggregator(model, AggregatorOptions{});
  io::MessageWriter writer(record.output);
  stream::WriterSink sink(writer);
  stream::RunOptions options;
  options.read_ahead = read_ahead;
  options.max_errors = max_errors;
  options.on_message = [&](std::uint64_t read) { record.progress.push_back(read); };
  stream::Pipeline pipeline(aggregator, sink, [&](const stream::Event& e) {
    record.events.push_back(fmt::format("{} {} {} {}: {}", e.severity == Severity::error ? "error" : "warning", e.line,
                                        e.item, e.byte_offset.value_or(0), e.text));
  }, options);
  (void)pipeline.run(reader);
  pipeline.finish();
  record.summary = pipeline.summary();
  return record;
}

}  // namespace

TEST(StreamReadAhead, AFileReadOnASecondThreadGivesWhatOneThreadGives) {
  const Model model = pony();
  // Many laps of the ring, with bad lines, unknown joints and limit warnings among them.
  std::string log;
  for (int k = 0; k < 20'000; ++k) {
    if (k % 997 == 5) log += "{\"t\": oops}\n";
    else if (k % 1499 == 7) log += fmt::format("{{\"t\": {}, \"name\": [\"wing\"], \"position\": [1]}}\n", 0.001 * k);
    else if (k % 2503 == 11) log += fmt::format("{{\"t\": {}, \"name\": [\"neck_pitch\"], \"position\": [40]}}\n", 0.001 * k);
    else
      log += fmt::format("{{\"t\": {}, \"name\": [\"neck_pitch\", \"head_yaw\"], \"position\": [{}, {}]}}\n", 0.001 * k,
                         0.3 * std::sin(0.01 * k), 0.2 * std::cos(0.01 * k));
  }
  const auto dir = test::make_temp_dir("read_ahead");
  const auto path = dir / "log.jsonl";
  { std::ofstream(path) << log; }

  for (std::uint64_t max_errors : {std::uint64_t{0}, std::uint64_t{7}}) {
    SCOPED_TRACE(fmt::format("max_errors {}", max_errors));
    const RunRecord one = run_file(model, path, false, max_errors);
    const RunRecord two = run_file(model, path, true, max_errors);
    EXPECT_GT(one.summary.written, max_errors == 0 ? 19'000U : 4'000U);
    EXPECT_FALSE(one.events.empty());
    EXPECT_TRUE(one.output == two.output) << "outputs differ";
    EXPECT_EQ(one.events, two.events);
    EXPECT_EQ(one.progress, two.progress);
    EXPECT_EQ(one.summary.read, two.summary.read);
    EXPECT_EQ(one.summary.written, two.summary.written);
    EXPECT_EQ(one.summary.rejected, two.summary.rejected);
    EXPECT_EQ(one.summary.warnings, two.summary.warnings);
    EXPECT_EQ(one.summary.budget_exhausted, two.summary.budget_exhausted);
  }
  std::filesystem::remove_all(dir);
}

// The reading thread tells its count every few messages, and both sides sleep for batches:
// lengths around those steps and around the ring's size must all be read to the last line.
TEST(StreamReadAhead, FilesOfLengthsAroundTheBatchesAreReadToTheLastLine) {
  const Model model = pony();
  const auto dir = test::make_temp_dir("read_ahead_lengths");
  const auto path = dir / "log.jsonl";
  for (int n : {0, 1, 2, 15, 16, 17, 31, 32, 33, 127, 128, 129, 255, 256, 257, 384, 511, 512, 513, 1024, 1025, 3000}) {
    SCOPED_TRACE(fmt::format("{} messages", n));
    {
      std::ofstream out(path);
      for (int k = 0; k < n; ++k)
        out << fmt::format("{{\"t\": {}, \"name\": [\"neck_pitch\"], \"position\": [{}]}}\n", k, 0.001 * k);
    }
    const RunRecord one = run_file(model, path, false, 0);
    const RunRecord two = run_file(model, path, true, 0);
    EXPECT_EQ(two.summary.read, static_cast<std::uint64_t>(n));
    EXPECT_EQ(two.summary.written, static_cast<std::uint64_t>(n));
    EXPECT_TRUE(one.output == two.output) << "outputs differ";
    EXPECT_EQ(one.progress, two.progress);
  }
  std::filesystem::remove_all(dir);
}

TEST(StreamReadAhead, StreamsAndMergesAreReadOnTheCallingThread) {
  std::istringstream in("{\"t\": 0, \"name\": [\"neck_pitch\"], \"position\": [0.1]}\n");
  io::MessageReader from_stream(in, "memory");
  EXPECT_FALSE(from_stream.may_read_ahead());
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  io::MessageReader from_pipe(fds[0], "pipe", {}, true);
  EXPECT_FALSE(from_pipe.may_read_ahead());
  ::close(fds[1]);
  // Each input of a merge is a file, but the merge's source() follows the input read last.
  const auto dir = test::make_temp_dir("read_ahead_merge");
  std::vector<io::MessageReader> inputs;
  for (const char* name : {"a.jsonl", "b.jsonl"}) {
    std::ofstream(dir / name) << "{\"t\": 0, \"name\": [\"neck_pitch\"], \"position\": [0.1]}\n";
    inputs.push_back(io::MessageReader::open((dir / name).string()));
    EXPECT_TRUE(inputs.back().may_read_ahead());
  }
  EXPECT_FALSE(io::MessageReader::merge(std::move(inputs)).may_read_ahead());
  std::filesystem::remove_all(dir);
}

}  // namespace rmodel
