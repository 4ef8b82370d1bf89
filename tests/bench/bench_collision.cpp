// Self-collision speed: the allowed-collision matrix of a 7-DoF arm with 10 000 random poses
// (MoveIt's Setup Assistant default), on one thread and on two, and the collision checks per
// pose along a log (a smooth motion through the joint ranges), intersection only and with
// penetration depths, and through check-log's LogChecker.
//
// Arms: a 7-DoF arm of primitives written here (capsules, cylinders and boxes), always there;
// and, when RMODEL_BENCH_ARM_URDF names one (with RMODEL_BENCH_PACKAGE_PATH for its meshes),
// a real one: MoveIt's Panda from moveit_resources, say,
//   RMODEL_BENCH_ARM_URDF=.../panda_description/urdf/panda.urdf RMODEL_BENCH_PACKAGE_PATH=...
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "rmodel/collision/collision.hpp"
#include "rmodel/stream/log_check.hpp"
#include "rmodel/base/package_path.hpp"

namespace col = rmodel::collision;

namespace {

/// A 7-DoF arm of primitives: a base box, seven links of a capsule each (0.3 m, alternating
/// joint axes z, y), a hand box and two finger boxes. Roughly a Panda's size.
std::string primitive_arm() {
  std::string urdf = "<?xml version=\"1.0\"?>\n<robot name=\"arm7\">\n";
  auto link = [&](const std::string& name, const std::string& geometry, const std::string& xyz) {
    urdf += fmt::format("<link name=\"{}\"><collision><origin xyz=\"{}\"/><geometry>{}</geometry></collision></link>\n",
                        name, xyz, geometry);
  };
  link("base", "<box size=\"0.3 0.3 0.1\"/>", "0 0 0.05");
  std::string parent = "base";
  for (int i = 1; i <= 7; ++i) {
    const std::string name = fmt::format("link{}", i);
    link(name, "<capsule radius=\"0.06\" length=\"0.2\"/>", "0 0 0.15");
    urdf += fmt::format(
        "<joint name=\"joint{}\" type=\"revolute\"><parent link=\"{}\"/><child link=\"{}\"/>"
        "<origin xyz=\"0 0 {}\"/><axis xyz=\"{}\"/><limit lower=\"-2.8\" upper=\"2.8\" effort=\"1\" velocity=\"1\"/>"
        "</joint>\n",
        i, parent, name, i == 1 ? 0.1 : 0.3, i % 2 == 1 ? "0 0 1" : "0 1 0");
    parent = name;
  }
  link("hand", "<box size=\"0.08 0.2 0.06\"/>", "0 0 0.03");
  urdf += "<joint name=\"flange\" type=\"fixed\"><parent link=\"link7\"/><child link=\"hand\"/>"
          "<origin xyz=\"0 0 0.3\"/></joint>\n";
  for (const char* side : {"left", "right"}) {
    const std::string name = std::string(side) + "_finger";
    link(name, "<box size=\"0.02 0.02 0.05\"/>", "0 0 0.025");
    urdf += fmt::format(
        "<joint name=\"{}_joint\" type=\"prismatic\"><parent link=\"hand\"/><child link=\"{}\"/>"
        "<origin xyz=\"0 {} 0.06\"/><axis xyz=\"0 1 0\"/><limit lower=\"0\" upper=\"0.04\" effort=\"1\" velocity=\"1\"/>"
        "</joint>\n",
        side, name, side[0] == 'l' ? 0.01 : -0.01);
  }
  return urdf + "</robot>\n";
}

struct Arm {
  std::string error;
  std::unique_ptr<col::CollisionModel> model;
  std::vector<std::vector<double>> motion;  ///< a smooth motion, one pose per 10 ms
  col::AllowedPairs allowed;
};

/// The arm's model and a 20 s motion: each joint a sine through most of its range.
Arm make_arm(const rmodel::Model& model, const col::GeometryOptions& options) {
  Arm arm;
  arm.model = std::make_unique<col::CollisionModel>(col::CollisionModel::build(model, options));
  const auto& cm = *arm.model;
  for (int step = 0; step < 2000; ++step) {
    std::vector<double> q(cm.joint_names().size());
    for (std::size_t j = 0; j < q.size(); ++j) {
      const double mid = (cm.lower()[j] + cm.upper()[j]) / 2, half = (cm.upper()[j] - cm.lower()[j]) / 2;
      q[j] = mid + 0.9 * half * std::sin(0.01 * step * (0.7 + 0.23 * static_cast<double>(j)) + static_cast<double>(j));
    }
    arm.motion.push_back(std::move(q));
  }
  // What MoveIt would leave out: the matrix.
  col::MatrixOptions m;
  m.samples = 10000;
  arm.allowed = col::allowed_pairs(cm, col::compute_collision_matrix(cm, m).disabled);
  return arm;
}

Arm& arm(int which) {
  static Arm primitives = make_arm(rmodel::Model::from_urdf_string(primitive_arm(), "arm7.urdf"), {});
  static Arm real = [] {
    const char* urdf = std::getenv("RMODEL_BENCH_ARM_URDF");
    if (urdf == nullptr) {
      Arm none;
      none.error = "RMODEL_BENCH_ARM_URDF is not set (a 7-DoF arm with meshes, such as moveit_resources' Panda)";
      return none;
    }
    rmodel::ModelSource source;
    source.urdf_path = urdf;
    if (const char* paths = std::getenv("RMODEL_BENCH_PACKAGE_PATH")) source.package_paths.emplace_back(paths);
    return make_arm(rmodel::Model::load(source), col::geometry_options(source));
  }();
  return which == 0 ? primitives : real;
}

const char* arm_name(int which) { return which == 0 ? "primitives" : "meshes"; }

/// The matrix with 10 000 random poses; argument: arm, threads.
void BM_Matrix10000(benchmark::State& state) {
  Arm& a = arm(static_cast<int>(state.range(0)));
  if (!a.error.empty()) {
    state.SkipWithError(a.error.c_str());
    return;
  }
  col::MatrixOptions options;
  options.samples = 10000;
  options.threads = static_cast<unsigned>(state.range(1));
  std::size_t disabled = 0;
  for (auto _ : state) disabled = col::compute_collision_matrix(*a.model, options).disabled.size();
  state.SetLabel(fmt::format("{}, {} links, {} disabled, {} thread{}", arm_name(static_cast<int>(state.range(0))),
                             a.model->links().size(), disabled, options.threads, options.threads == 1 ? "" : "s"));
}

/// One pose of the motion: FK, broad phase, narrow phase of the pairs left; argument: arm,
/// depth (0: intersection only, 1: with penetration depths).
void BM_CheckPerPose(benchmark::State& state) {
  Arm& a = arm(static_cast<int>(state.range(0)));
  if (!a.error.empty()) {
    state.SkipWithError(a.error.c_str());
    return;
  }
  col::CollisionWorkspace ws(*a.model);
  col::CheckOptions options;
  options.depth = state.range(1) != 0;
  std::size_t i = 0, found = 0;
  for (auto _ : state) {
    col::set_pose(*a.model, ws, a.motion[i]);
    found += col::check_self_collisions(*a.model, ws, a.allowed, options);
    i = (i + 1) % a.motion.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(fmt::format("{}, {}; {} colliding pairs seen", arm_name(static_cast<int>(state.range(0))),
                             options.depth ? "depths" : "intersection", found));
}

/// check-log --collisions on the motion as joint-state messages (the LogChecker's other checks
/// included); argument: arm.
void BM_LogCheckerPerMessage(benchmark::State& state) {
  Arm& a = arm(static_cast<int>(state.range(0)));
  if (!a.error.empty()) {
    state.SkipWithError(a.error.c_str());
    return;
  }
  const rmodel::Model& model = a.model->model();
  auto check = std::make_shared<col::SelfCollisionCheck>(col::SelfCollisionCheck{*a.model, a.allowed, {}});
  rmodel::LogCheckOptions options;
  options.collisions = check;
  std::vector<rmodel::io::Message> messages(a.motion.size());
  for (std::size_t k = 0; k < messages.size(); ++k) {
    auto& m = messages[k];
    m.kind = rmodel::io::MessageKind::Joint;
    m.has_stamp = true;
    m.joint.stamp = rmodel::Time{static_cast<std::int64_t>(k) * 10'000'000};
    m.joint.name = a.model->joint_names();
    m.joint.position = a.motion[k];
    m.line = k + 1;
  }
  std::size_t i = 0;
  std::unique_ptr<rmodel::LogChecker> checker;
  for (auto _ : state) {
    if (i == 0) {
      state.PauseTiming();
      checker = std::make_unique<rmodel::LogChecker>(model, options);
      state.ResumeTiming();
    }
    checker->add(messages[i]);
    i = (i + 1) % messages.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(arm_name(static_cast<int>(state.range(0))));
}

}  // namespace

BENCHMARK(BM_Matrix10000)->Args({0, 1})->Args({0, 2})->Args({1, 1})->Args({1, 2})->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_CheckPerPose)->Args({0, 0})->Args({0, 1})->Args({1, 0})->Args({1, 1});
BENCHMARK(BM_LogCheckerPerMessage)->Arg(0)->Arg(1);

BENCHMARK_MAIN();
