// Model loading: URDF parse + KDL conversion + semantic indexing, and the full check.
// Run: build/bench/bench_model [--benchmark_filter=...]; needs ../shared/fixtures.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "rmodel/check/check.hpp"
#include "rmodel/model/model.hpp"

namespace {

std::string fixture(const std::string& relative) { return std::string(RMODEL_FIXTURES_DIR) + "/" + relative; }

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool have(benchmark::State& state, const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  state.SkipWithError(("fixture not found: " + path).c_str());
  return false;
}

void BM_LoadSweetieWithCpf(benchmark::State& state) {
  const auto urdf = fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf");
  const auto cpf = fixture("sweetie_bot_proto2/kinematic_chains.cpf");
  if (!have(state, urdf)) return;
  const std::string text = slurp(urdf);
  const std::string cpf_text = slurp(cpf);
  for (auto _ : state) {
    auto model = rmodel::Model::from_urdf_string(text, "sweetie.urdf", rmodel::parse_cpf(cpf_text, "chains.cpf"));
    benchmark::DoNotOptimize(model.pose_size());
  }
}
BENCHMARK(BM_LoadSweetieWithCpf)->Unit(benchmark::kMicrosecond);

void BM_LoadUrdf(benchmark::State& state, const char* relative) {
  const auto path = fixture(relative);
  if (!have(state, path)) return;
  const std::string text = slurp(path);
  for (auto _ : state) {
    auto model = rmodel::Model::from_urdf_string(text, relative);
    benchmark::DoNotOptimize(model.pose_size());
  }
}
BENCHMARK_CAPTURE(BM_LoadUrdf, talos_reduced, "example_robot_data/talos_reduced.urdf")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_LoadUrdf, panda, "example_robot_data/panda.urdf")->Unit(benchmark::kMicrosecond);

void BM_CheckTalos(benchmark::State& state) {
  const auto path = fixture("example_robot_data/talos_reduced.urdf");
  if (!have(state, path)) return;
  const std::string text = slurp(path);
  for (auto _ : state) {
    auto report = rmodel::check_model_text(text, "talos.urdf", nullptr, "");
    benchmark::DoNotOptimize(report.items.size());
  }
}
BENCHMARK(BM_CheckTalos)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
