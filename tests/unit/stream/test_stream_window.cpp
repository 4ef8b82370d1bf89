// A time window starts from the state the log had reached (issue 40, point 1): the pipeline
// gives its stages what lies outside the window, writes only what is stamped inside it, and
// so equals the replay of the whole log cut to the window. The oracle is that definition: the
// whole replay's results, kept when start <= stamp < end.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "rmodel/stream/aggregator.hpp"
#include "rmodel/stream/dynamics_stream.hpp"
#include "rmodel/stream/stream_filter.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "rmodel/stream/log_check.hpp"
#include "rmodel/stream/stream.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::pony;

/// What a sink was given: each result as a line of text (every value and stamp exactly, in
/// the writer's shortest round-trip form), with its stamp; the results outside the window
/// apart.
class Recorder final : public stream::Sink {
public:
  struct Item {
    Time stamp;
    std::string text;
  };
  void joint_state(const JointState& s, std::optional<std::int64_t> cycle) override { add(items, s, cycle); }
  void support_state(const SupportState& s, std::optional<std::int64_t> cycle) override { add(items, s, cycle); }
  void joint_state_outside(const JointState& s, std::optional<std::int64_t> cycle) override {
    add(outside, s, cycle);
  }
  void support_state_outside(const SupportState& s, std::optional<std::int64_t> cycle) override {
    add(outside, s, cycle);
  }
  std::vector<Item> items, outside;

private:
  template <class State>
  static void add(std::vector<Item>& to, const State& s, std::optional<std::int64_t> cycle) {
    std::string text;
    io::MessageWriter writer(text);
    (void)writer.write(s, cycle);
    writer.flush();
    to.push_back({s.stamp, text});
  }
};

/// The whole replay's results stamped in `window`.
std::vector<std::string> cut(const std::vector<Recorder::Item>& all, TimeWindow window) {
  std::vector<std::string> kept;
  for (const auto& item : all)
    if (window.contains(item.stamp)) kept.push_back(item.text);
  return kept;
}
std::vector<std::string> texts(const std::vector<Recorder::Item>& items) {
  std::vector<std::string> t;
  for (const auto& item : items) t.push_back(item.text);
  return t;
}

/// A pony publishing one chain per message, as a robot's drivers do: every 10 ms the legs
/// (positions and velocities), the head (positions only), the tail (velocity only) and, every
/// fifth cycle, the jaw with an effort; a support state every 7th cycle. Stamps from 1000 s.
std::string pony_log(int cycles) {
  std::string log;
  for (int k = 0; k < cycles; ++k) {
    const std::string t = to_string(Time{std::int64_t{1000} * 1'000'000'000 + std::int64_t{k} * 10'000'000});
    const double a = 0.3 * std::sin(0.05 * k), b = -0.5 + 0.2 * std::cos(0.07 * k);
    for (const char* leg : {"front_left", "front_right", "rear_left", "rear_right"})
      log += fmt::format(R"({{"t":{},"name":["{}_hip","{}_knee"],"position":[{},{}],"velocity":[{},{}]}})"
                         "\n",
                         t, leg, leg, a, b, 0.1 * a, 0.1 * b);
    log += fmt::format(R"({{"t":{},"name":["neck_pitch","head_yaw"],"position":[{},{}]}})" "\n", t, 0.5 * a, a);
    log += fmt::format(R"({{"t":{},"name":["tail_swing"],"velocity":[{}]}})" "\n", t, 2 * b);
    if (k % 5 == 0)
      log += fmt::format(R"({{"t":{},"name":["jaw_slide"],"position":[0.01],"effort":[{}]}})" "\n", t, a);
    if (k % 7 == 0)
      log += fmt::format(R"({{"t":{},"name":["front_left","rear_right"],"support":[{},1]}})" "\n", t,
                         k % 14 == 0 ? 1 : 0);
  }
  return log;
}

/// Runs `log` through `stage` into `sink`, the reader cut to [start, end) (relative seconds;
/// nothing: the whole log).
stream::Summary replay(const std::string& log, stream::Stage& stage, stream::Sink& sink,
                       std::optional<std::string> start = std::nullopt, std::optional<std::string> end = std::nullopt,
                       std::vector<std::string>* events = nullptr) {
  io::ReaderOptions options;
  if (start) options.start = io::parse_time_bound(*start, "start");
  if (end) options.end = io::parse_time_bound(*end, "end");
  std::istringstream in(log);
  io::MessageReader reader(in, "memory", options);
  stream::Pipeline pipeline(stage, sink, [&](const stream::Event& e) {
    if (events != nullptr) events->push_back(fmt::format("{}: {}", e.line, e.text));
  });
  (void)pipeline.run(reader);
  pipeline.finish();
  return pipeline.summary();
}

const TimeWindow kWindow{Time{std::int64_t{1000} * 1'000'000'000 + 203'000'000},
                         Time{std::int64_t{1000} * 1'000'000'000 + 601'000'000}};

TEST(PipelineWindow, BothAggregatorsEqualTheWholeReplayCut) {
  const Model model = pony();
  const std::string log = pony_log(100);
  for (const AggregatorKind kind : {AggregatorKind::simple, AggregatorKind::sync}) {
    AggregatorOptions options;
    options.kind = kind;
    Aggregator whole_agg(model, options), window_agg(model, options);
    Recorder whole, window;
    (void)replay(log, whole_agg, whole);
    const stream::Summary s = replay(log, window_agg, window, "0.203", "0.601");
    const std::vector<std::string> want = cut(whole.items, kWindow);
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(texts(window.items), want) << (kind == AggregatorKind::sync ? "sync" : "simple");
    // What lies outside went through the stage and was kept out of the output.
    EXPECT_EQ(window.items.size() + window.outside.size(), whole.items.size());
    EXPECT_EQ(s.written, want.size());
    EXPECT_GT(s.outside, 0U);
  }
}

TEST(PipelineWindow, FirstPoseHoldsTheValuesEveryJointHadBeforeTheWindow) {
  // The symptom of issue 40: the first pose of the window held zeros for the chains not yet
  // seen inside it. Here a pose is checked against the log itself, joint by joint.
  const Model model = pony();
  Aggregator aggregator(model, {});
  Recorder window;
  (void)replay(pony_log(100), aggregator, window, "0.203", "0.601");
  ASSERT_FALSE(window.items.empty());
  // 0.203 s: the first message inside is cycle 21 (t = 1000.21), the front-left leg; the
  // others still hold cycle 20's values.
  const double a20 = 0.3 * std::sin(0.05 * 20), a21 = 0.3 * std::sin(0.05 * 21);
  const nlohmann::json first = nlohmann::json::parse(window.items.front().text);
  const auto& names = first["name"];
  const auto& position = first["position"];
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string name = names[i];
    if (name == "front_left_hip") {
      EXPECT_EQ(position[i].get<double>(), a21);
    } else if (name == "rear_right_hip" || name == "head_yaw") {
      EXPECT_EQ(position[i].get<double>(), a20) << name;
    } else if (name == "jaw_slide") {
      EXPECT_EQ(position[i].get<double>(), 0.01);  // given last in cycle 20
    }
  }
  ASSERT_TRUE(first.contains("effort"));  // the jaw's effort was given before the window
}

TEST(PipelineWindow, FiltersDifferentiatorsAndTorquesEqualTheWholeReplayCut) {
  const Model model = pony();
  const std::string log = pony_log(100);
  // The aggregator's output through an infinite-memory filter and the torques' differentiators.
  const auto run = [&](Recorder& into, bool windowed) {
    Aggregator aggregator(model, {});
    dynamics::TorqueSink torques(into, model);
    filters::FilterSink filtered(torques, "exponential", {{"tau", 0.05}}, model.pose_size());
    return windowed ? replay(log, aggregator, filtered, "0.203", "0.601") : replay(log, aggregator, filtered);
  };
  Recorder whole, window;
  (void)run(whole, false);
  (void)run(window, true);
  EXPECT_EQ(texts(window.items), cut(whole.items, kWindow));
  // The filter command's stage: per joint, by the stamps.
  filters::StreamFilter whole_filter("lag_diff", {}, filters::JointField::position, {});
  filters::StreamFilter window_filter("lag_diff", {}, filters::JointField::position, {});
  Recorder whole_out, window_out;
  (void)replay(log, whole_filter, whole_out);
  (void)replay(log, window_filter, window_out, "0.203", "0.601");
  EXPECT_EQ(texts(window_out.items), cut(whole_out.items, kWindow));
  EXPECT_FALSE(window_out.items.empty());
}

TEST(PipelineWindow, SyncTicksStampedOutsideTheWindowAreNotWritten) {
  // Time ticks every 25 ms from the first stamp, the window's bounds between ticks: the
  // window's first message fires the tick before the window's start.
  const Model model = pony();
  const std::string log = pony_log(60);
  AggregatorOptions options;
  options.kind = AggregatorKind::sync;
  options.period = Time{25'000'000};
  options.ticks = TickSource::time;
  Aggregator whole_agg(model, options), window_agg(model, options);
  Recorder whole, window;
  (void)replay(log, whole_agg, whole);
  (void)replay(log, window_agg, window, "0.203", "0.5");
  const TimeWindow w{Time{std::int64_t{1000} * 1'000'000'000 + 203'000'000},
                     Time{std::int64_t{1000} * 1'000'000'000 + 500'000'000}};
  EXPECT_EQ(texts(window.items), cut(whole.items, w));
  for (const auto& item : window.items) EXPECT_TRUE(w.contains(item.stamp)) << item.text;
  // The ticks before the window and those from its end on went through, outside.
  ASSERT_FALSE(window.outside.empty());
  EXPECT_LT(window.outside.front().stamp, *w.start);
  EXPECT_GE(window.outside.back().stamp, *w.end);
  EXPECT_EQ(window.items.size() + window.outside.size(), whole.items.size());
}

TEST(PipelineWindow, ProblemsOutsideTheWindowAreNeitherReportedNorCounted) {
  const Model model = pony();
  // Before the window: a rejected message and an unknown joint; inside: the unknown joint
  // again (reported there, once) and a position beyond its limits.
  const std::string log =
      "{\"t\":1,\"name\":[\"neck_pitch\",\"head_yaw\"],\"position\":[0.1]}\n"
      "{\"t\":2,\"name\":[\"ghost\",\"neck_pitch\"],\"position\":[1,0.2]}\n"
      "{\"t\":3,\"name\":[\"neck_pitch\"],\"position\":[9]}\n"
      "{\"t\":4,\"name\":[\"ghost\",\"head_yaw\"],\"position\":[1,0.3]}\n"
      "{\"t\":5,\"name\":[\"neck_pitch\"],\"position\":[9]}\n";
  Aggregator aggregator(model, {});
  Recorder out;
  std::vector<std::string> events;
  const stream::Summary s = replay(log, aggregator, out, "@4", std::nullopt, &events);
  EXPECT_EQ(events, (std::vector<std::string>{"4: unknown joint 'ghost' skipped",
                                              "5: joint 'neck_pitch' at 9 is outside its limits [-0.8, 0.5]"}));
  EXPECT_EQ(s.rejected, 0U);
  EXPECT_EQ(s.warnings, 2U);
  EXPECT_EQ(s.read, 2U);
  EXPECT_EQ(s.outside, 3U);
  ASSERT_EQ(out.items.size(), 2U);
  // The pose at t = 4 holds what t = 3 left (9, outside the limits, as the whole replay has it).
  const nlohmann::json first = nlohmann::json::parse(out.items.front().text);
  EXPECT_EQ(first["t"], 4);
  EXPECT_EQ(first["name"][16], "neck_pitch");
  EXPECT_EQ(first["position"][16], 9);
}

TEST(PipelineWindow, MessagesHeldWhileTheTicksAreDecidedAreReportedOnlyInsideTheWindow) {
  // The sync aggregator holds the first messages until the log shows where its ticks come
  // from (here at 0.03 s, a span of more than 2 T); those from before the window are then
  // processed during a push inside it, and still not reported on.
  const Model model = pony();
  const std::string log =
      "{\"t\":0,\"name\":[\"neck_pitch\"],\"position\":[9]}\n"
      "{\"t\":0.01,\"name\":[\"head_yaw\"],\"position\":[0.1]}\n"
      "{\"t\":0.02,\"name\":[\"neck_pitch\"],\"position\":[8]}\n"
      "{\"t\":0.03,\"name\":[\"head_yaw\"],\"position\":[0.2]}\n";
  AggregatorOptions options;
  options.kind = AggregatorKind::sync;
  Aggregator aggregator(model, options);
  Recorder out;
  std::vector<std::string> events;
  const stream::Summary s = replay(log, aggregator, out, "0.01", std::nullopt, &events);
  EXPECT_EQ(events, (std::vector<std::string>{"3: joint 'neck_pitch' at 8 is outside its limits [-0.8, 0.5]"}));
  EXPECT_EQ(s.warnings, 1U);
}

TEST(PipelineWindow, LogCheckerJudgesTheWindowAsTheWholeLogsCheckDoes) {
  const Model model = pony();
  // neck_pitch moves 0.4 rad in 10 ms at the window's first message (40 rad/s implied, its
  // limit 2 rad/s), and 0.3 rad before the window.
  const std::string log =
      "{\"t\":0,\"name\":[\"neck_pitch\"],\"position\":[0]}\n"
      "{\"t\":0.01,\"name\":[\"neck_pitch\"],\"position\":[0.3]}\n"
      "{\"t\":0.02,\"name\":[\"neck_pitch\"],\"position\":[-0.1]}\n"
      "{\"t\":0.03,\"name\":[\"neck_pitch\"],\"position\":[-0.1]}\n";
  LogCheckOptions options;
  options.period = Time{10'000'000};
  // The two messages before the window are taken in with add_outside, as check-log's stage does.
  LogChecker whole(model, options), window(model, options);
  std::istringstream in(log);
  io::MessageReader reader(in, "memory");
  std::size_t n = 0;
  for (io::Message m; reader.next(m) == io::ReadStatus::Ok; ++n) {
    whole.add(m);
    if (n < 2) window.add_outside(m);
    else window.add(m);
  }
  std::vector<LogProblem> inside;
  for (const LogProblem& p : whole.problems())
    if (p.line >= 3) inside.push_back(p);
  ASSERT_EQ(inside.size(), 1U);
  ASSERT_EQ(window.problems().size(), 1U);
  EXPECT_EQ(window.problems()[0].message, inside[0].message);
  EXPECT_EQ(window.problems()[0].line, 3U);
  EXPECT_EQ(window.joint_state_count(), 2U);
  EXPECT_EQ(window.joints()[16].samples, 2U);  // neck_pitch: the two messages checked
  EXPECT_EQ(whole.problems().size(), 2U);
}

TEST(PipelineWindow, McapByLogTimeReadsFromItsStartAndSkipsTheChunksAfterTheEnd) {
  // The bound (docs/design.md, "Time windows"): every chunk before the window is read, those
  // beginning at or after its end are not. A reader alone still skips both sides.
  const Model model = pony();
  const std::filesystem::path dir = test::make_temp_dir("rmodel_stream_window");
  const std::string path = (dir / "pony.mcap").string();
  {
    io::WriterOptions wo;
    wo.format = io::parse_format("mcap");
    wo.mcap_compression = io::ChunkCompression::None;
    wo.mcap_chunk_size = 4096;  // many small chunks
    io::MessageWriter writer = io::MessageWriter::open(path, wo);
    std::istringstream in(pony_log(200));
    io::MessageReader reader(in, "memory");
    for (io::Message m; reader.next(m) == io::ReadStatus::Ok;) (void)writer.write(m);
    writer.close();
  }
  io::ReaderOptions ro;
  ro.time = io::TimeSource::Log;
  const auto run = [&](Recorder& into, bool windowed) {
    io::ReaderOptions o = ro;
    if (windowed) {
      o.start = io::parse_time_bound("0.803", "start");
      o.end = io::parse_time_bound("1.201", "end");
    }
    io::MessageReader reader = io::MessageReader::open(path, o);
    Aggregator aggregator(model, {});
    stream::Pipeline pipeline(aggregator, into);
    (void)pipeline.run(reader);
    pipeline.finish();
    return reader.stats();
  };
  Recorder whole, window;
  const io::ReaderStats all = run(whole, false);
  const io::ReaderStats cut_stats = run(window, true);
  const TimeWindow w{Time{std::int64_t{1000} * 1'000'000'000 + 803'000'000},
                     Time{std::int64_t{1000} * 1'000'000'000 + 1'201'000'000}};
  EXPECT_EQ(texts(window.items), cut(whole.items, w));
  ASSERT_GT(all.chunks_read, 20U);
  EXPECT_EQ(cut_stats.chunks_skipped + cut_stats.chunks_read, all.chunks_read);
  EXPECT_GT(cut_stats.chunks_skipped, all.chunks_read / 3);  // the last ~40 % of the log
  EXPECT_LT(cut_stats.chunks_skipped, all.chunks_read * 2 / 3);  // but not the 40 % before
  io::MessageReader alone = io::MessageReader::open(path, [&] {
    io::ReaderOptions o = ro;
    o.start = io::parse_time_bound("0.803", "start");
    o.end = io::parse_time_bound("1.201", "end");
    return o;
  }());
  for (io::Message m; alone.next(m) == io::ReadStatus::Ok;) {
  }
  EXPECT_GT(alone.stats().chunks_skipped, cut_stats.chunks_skipped);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rmodel
