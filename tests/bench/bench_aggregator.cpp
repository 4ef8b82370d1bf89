// The aggregator core on the Sweetie Bot model (32 joints) with partial messages, and the
// whole per-message pipeline: parse a JSON line, merge, format the full pose as JSON.
// Needs ../shared/fixtures.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>
#include <sstream>

#include "rmodel/stream/aggregator.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "rmodel/stream/stream.hpp"

namespace {

const std::string kDir = std::string(RMODEL_FIXTURES_DIR) + "/sweetie_bot_proto2";

std::optional<rmodel::Model> sweetie(benchmark::State& state) {
  if (!std::filesystem::exists(kDir + "/sweetie_bot_proto2.urdf")) {
    state.SkipWithError("fixtures not found: ../shared/fixtures");
    return std::nullopt;
  }
  return rmodel::Model::load({kDir + "/sweetie_bot_proto2.urdf", kDir + "/kinematic_chains.cpf", std::nullopt});
}

/// Partial messages as a robot's controllers send them: one chain each (6 or 4 joints),
/// positions and velocities, in rotation.
std::vector<rmodel::JointState> partial_messages(const rmodel::Model& model) {
  std::vector<rmodel::JointState> out;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (const auto& chain : model.chains()) {
    rmodel::JointState m;
    m.name = model.chain_joints(chain.name, true);
    for (std::size_t i = 0; i < m.name.size(); ++i) {
      m.position.push_back(value(rng));
      m.velocity.push_back(value(rng));
    }
    out.push_back(std::move(m));
  }
  return out;
}

/// A sink that only counts (the stage's cost alone).
class CountingSink final : public rmodel::stream::Sink {
public:
  void joint_state(const rmodel::JointState&, std::optional<std::int64_t>) override { ++count; }
  void support_state(const rmodel::SupportState&, std::optional<std::int64_t>) override { ++count; }
  std::uint64_t count = 0;
};

void BM_AggregatorCore(benchmark::State& state, rmodel::AggregatorKind kind) {
  auto model = sweetie(state);
  if (!model) return;
  rmodel::AggregatorOptions options;
  options.kind = kind;
  options.clamp = true;
  options.ticks = rmodel::TickSource::stream;
  rmodel::Aggregator aggregator(*model, options);
  CountingSink sink;
  rmodel::stream::Pipeline pipeline(aggregator, sink);
  const auto partial = partial_messages(*model);
  std::vector<rmodel::io::Message> messages(partial.size());
  for (std::size_t k = 0; k < partial.size(); ++k) messages[k].joint = partial[k];
  rmodel::io::Message tick;
  tick.kind = rmodel::io::MessageKind::Sync;
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(pipeline.push(messages[i]));
    if (++i == messages.size()) {
      i = 0;
      pipeline.push(tick);
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_AggregatorCore, simple, rmodel::AggregatorKind::simple);
BENCHMARK_CAPTURE(BM_AggregatorCore, sync, rmodel::AggregatorKind::sync);

void BM_ParseMergeFormat(benchmark::State& state) {
  auto model = sweetie(state);
  if (!model) return;
  rmodel::Aggregator aggregator(*model);
  std::string log;
  {
    rmodel::io::Message m;
    m.kind = rmodel::io::MessageKind::Joint;
    const auto messages = partial_messages(*model);
    for (int k = 0; k < 1000; ++k) {
      m.joint = messages[static_cast<std::size_t>(k) % messages.size()];
      m.set_stamp(rmodel::Time{10'000'000 * static_cast<std::int64_t>(k)});
      rmodel::io::append_json_line(log, m);
    }
  }
  std::string buffer;
  std::int64_t messages = 0;
  for (auto _ : state) {
    std::istringstream in(log);
    rmodel::io::MessageReader reader(in, "bench");
    buffer.clear();
    auto writer = rmodel::io::MessageWriter(buffer);
    rmodel::stream::WriterSink sink(writer);
    rmodel::stream::Pipeline pipeline(aggregator, sink);
    pipeline.run(reader);
    messages += static_cast<std::int64_t>(pipeline.summary().read);
  }
  state.SetItemsProcessed(messages);
}
BENCHMARK(BM_ParseMergeFormat)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
