// Embedding the streaming pipeline in a program (a ROS node, a logger): joint states come in
// with their own time, full poses go out through a callback. The same code runs
// `rmodel aggregate`; nothing here reads a file or prints a diagnostic by itself.
//
// Build: link against rmodel (CMake: find_package(rmodel) + rmodel::rmodel).
// Run: embed_aggregator [SAMPLE_DIR]  (default: the installed sample models)

#include <cmath>
#include <cstdio>
#include <string>

#include "rmodel/stream/aggregator.hpp"
#include "rmodel/stream/stream.hpp"

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : rmodel::sample_model_dir();
  const rmodel::Model model = rmodel::Model::load({dir + "/pony.urdf", dir + "/pony.json", std::nullopt});

  // A sync aggregator with a 10 ms control period, ticked by the messages' own time.
  rmodel::AggregatorOptions options;
  options.kind = rmodel::AggregatorKind::sync;
  options.period = rmodel::Time{10'000'000};  // integer nanoseconds (rmodel/base/time.hpp)
  options.ticks = rmodel::TickSource::time;
  options.support = false;
  rmodel::Aggregator aggregator(model, options);

  const std::size_t head_yaw = model.joint_index("head_yaw");
  int poses = 0;
  double last_velocity = 0.0;
  rmodel::stream::CallbackSink sink([&](const rmodel::JointState& pose, std::optional<std::int64_t> cycle) {
    ++poses;
    last_velocity = pose.velocity[head_yaw];
    std::printf("cycle %lld t=%.3f head_yaw=%.4f rad, %.4f rad/s\n", static_cast<long long>(cycle.value_or(-1)),
                pose.stamp.seconds(), pose.position[head_yaw], pose.velocity[head_yaw]);
  });
  int problems = 0;
  rmodel::stream::Pipeline pipeline(aggregator, sink, [&](const rmodel::stream::Event& e) {
    ++problems;
    std::fprintf(stderr, "problem: %.*s\n", static_cast<int>(e.text.size()), e.text.data());
  });

  // The controller reports head_yaw = 0.5 sin(t) every 10 ms (position only).
  rmodel::io::Message message;
  message.kind = rmodel::io::MessageKind::Joint;
  message.joint.name = {"head_yaw"};
  message.joint.position = {0.0};
  for (int k = 0; k <= 100; ++k) {
    const rmodel::Time t{10'000'000 * k};
    message.joint.position[0] = 0.5 * std::sin(t.seconds());
    message.set_stamp(t);
    pipeline.push(message);
  }
  pipeline.finish();  // end of input: the last cycle is published too

  // One pose per message time; the backward difference of 0.5 sin(t) at t = 1 s is close to
  // 0.5 cos(1) = 0.270 rad/s.
  const bool ok = poses == 101 && problems == 0 && std::abs(last_velocity - 0.5 * std::cos(1.0)) < 0.01;
  std::printf("%d poses, %d problems: %s\n", poses, problems, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
