// Xacro expansion of the example quadruped (share/rmodel/examples/xacro: six files, macros
// with block parameters, YAML-loaded dimensions, $(find)), and beside it npm's xacro-parser in
// node on the same file when it is installed in the build tree (tests/oracle/xacro_parser;
// `ctest -R xacro_parser_install` installs it).
// Run: build/bench/bench_xacro [--benchmark_filter=...].
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "rmodel/model/model.hpp"
#include "rmodel/xacro/xacro.hpp"

namespace {

const std::string kExamples = std::string(RMODEL_SOURCE_DIR) + "/share/rmodel/examples/xacro";
const std::string kNodeModules = std::string(RMODEL_BINARY_DIR) + "/npm-oracle/node_modules";

std::string quadruped(const char* file) { return kExamples + "/quadruped_description/urdf/" + file; }

rmodel::XacroOptions options() {
  rmodel::XacroOptions o;
  o.package_paths = {kExamples};
  return o;
}

void BM_ExpandQuadruped(benchmark::State& state) {
  const auto o = options();
  for (auto _ : state) benchmark::DoNotOptimize(rmodel::expand_xacro_file(quadruped("quadruped.urdf.xacro"), o));
}
BENCHMARK(BM_ExpandQuadruped)->Unit(benchmark::kMicrosecond);

// Without YAML: the variant xacro-parser can expand (it has no load_yaml).
void BM_ExpandQuadrupedFlat(benchmark::State& state) {
  const auto o = options();
  for (auto _ : state)
    benchmark::DoNotOptimize(rmodel::expand_xacro_file(quadruped("quadruped_flat.urdf.xacro"), o));
}
BENCHMARK(BM_ExpandQuadrupedFlat)->Unit(benchmark::kMicrosecond);

// What a model command does with a xacro file: expand, then parse the URDF and build the model.
void BM_LoadQuadrupedFromXacro(benchmark::State& state) {
  rmodel::ModelSource source;
  source.urdf_path = quadruped("quadruped.urdf.xacro");
  source.package_paths = {kExamples};
  for (auto _ : state) benchmark::DoNotOptimize(rmodel::Model::load(source).pose_size());
}
BENCHMARK(BM_LoadQuadrupedFromXacro)->Unit(benchmark::kMicrosecond);

// xacro-parser in node on quadruped_flat.urdf.xacro: the script times 50 warm expansions in
// process (node's start-up and module loading excluded) and prints the means: elapsed (the
// benchmark's time) and CPU (the counter node_cpu_ms, to compare with our CPU column on a busy
// machine).
void BM_XacroParserNodeQuadrupedFlat(benchmark::State& state) {
  if (!std::filesystem::exists(kNodeModules + "/xacro-parser")) {
    state.SkipWithError(("xacro-parser not installed in " + kNodeModules).c_str());
    return;
  }
  const std::string command = "NODE_PATH='" + kNodeModules + "' node '" + std::string(RMODEL_SOURCE_DIR) +
                              "/tests/oracle/xacro_parser/expand.mjs' '" + quadruped("quadruped_flat.urdf.xacro") +
                              "' --package-path '" + kExamples + "' --repeat 50";
  double cpu_total = 0;
  for (auto _ : state) {
    FILE* pipe = popen(command.c_str(), "r");
    double ms = 0, cpu_ms = 0;
    const bool read = pipe && std::fscanf(pipe, "%lf %lf", &ms, &cpu_ms) == 2;
    if (pipe) pclose(pipe);
    if (!read) {
      state.SkipWithError("node failed");
      return;
    }
    state.SetIterationTime(ms / 1000.0);
    cpu_total += cpu_ms;
  }
  state.counters["node_cpu_ms"] = cpu_total / static_cast<double>(state.iterations());
}
BENCHMARK(BM_XacroParserNodeQuadrupedFlat)->UseManualTime()->Iterations(5)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
