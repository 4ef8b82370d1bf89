// An oracle for the sync aggregator written from docs/streaming.md alone (not from the code):
// every expected number below is worked out by hand from that text, with the arithmetic in the
// comments. The robot is the shipped sample (share/rmodel/sample): neck_pitch is revolute with
// limits [-0.8, 0.5], head_yaw revolute [-1, 1], tail_swing continuous (no limits).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

using nlohmann::json;
using test::json_lines;
using test::run_rmodel;

constexpr double kTol = 1e-12;

struct Outcome {
  int exit_code;
  std::string err;
  std::vector<json> poses;
};

Outcome aggregate(std::vector<std::string> options, const std::string& input) {
  std::vector<std::string> args{"aggregate", "--sample", "--no-support", "--kind", "sync", "--period", "0.01"};
  args.insert(args.end(), options.begin(), options.end());
  const auto r = run_rmodel(args, input);
  return {r.exit_code, r.err, r.exit_code == 0 || r.exit_code == 1 ? json_lines(r.out) : std::vector<json>{}};
}

/// The value of `field` of `joint` in a published full pose.
double value(const json& pose, const std::string& joint, const char* field) {
  const auto& names = pose.at("name");
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == joint) return pose.at(field).at(i).get<double>();
  ADD_FAILURE() << "joint " << joint << " not in the pose";
  return 0.0;
}

#define EXPECT_JOINT(pose, joint, x, v)                                      \
  do {                                                                       \
    EXPECT_NEAR(value(pose, joint, "position"), x, kTol) << joint << " " << (pose).dump(); \
    EXPECT_NEAR(value(pose, joint, "velocity"), v, kTol) << joint << " " << (pose).dump(); \
  } while (0)

// "Several messages of the same joint in one cycle: each one is output() against the same
// p_prev ... 0.3 in cycle 0, then 0.4 and 0.5 in cycle 1: (0.5 − 0.3)/0.01 = 20 rad/s."
const std::string kTwoCycles =
    "{\"name\":[\"neck_pitch\"],\"position\":[0.3]}\n"
    "{\"sync\":true}\n"
    "{\"name\":[\"neck_pitch\"],\"position\":[0.4]}\n"
    "{\"name\":[\"neck_pitch\"],\"position\":[0.5]}\n"
    "{\"sync\":true}\n";

TEST(SyncOracle, DifferentiatorStepsPerTickNotPerMessage) {
  const Outcome r = aggregate({"--ticks", "stream", "--publish", "message"}, kTwoCycles);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.poses.size(), 3U);
  EXPECT_JOINT(r.poses[0], "neck_pitch", 0.3, 0.0);   // first sample: no spike
  EXPECT_JOINT(r.poses[1], "neck_pitch", 0.4, 10.0);  // (0.4 − 0.3)/0.01
  EXPECT_JOINT(r.poses[2], "neck_pitch", 0.5, 20.0);  // (0.5 − 0.3)/0.01, not (0.5 − 0.4)/0.01
}

TEST(SyncOracle, PublishTickGivesOnePosePerCycleAndBothGivesBoth) {
  const Outcome tick = aggregate({"--ticks", "stream", "--publish", "tick"}, kTwoCycles);
  ASSERT_EQ(tick.exit_code, 0) << tick.err;
  ASSERT_EQ(tick.poses.size(), 2U);
  EXPECT_JOINT(tick.poses[0], "neck_pitch", 0.3, 0.0);
  EXPECT_JOINT(tick.poses[1], "neck_pitch", 0.5, 20.0);
  EXPECT_EQ(tick.poses[0].value("cycle", -1), 0);  // the pose of tick k carries cycle k
  EXPECT_EQ(tick.poses[1].value("cycle", -1), 1);

  // The default publish policy of --kind sync is tick.
  const Outcome by_default = aggregate({"--ticks", "stream"}, kTwoCycles);
  ASSERT_EQ(by_default.exit_code, 0) << by_default.err;
  EXPECT_EQ(by_default.poses.size(), 2U);

  // both: message, tick 0, message, message, tick 1.
  const Outcome both = aggregate({"--ticks", "stream", "--publish", "both"}, kTwoCycles);
  ASSERT_EQ(both.exit_code, 0) << both.err;
  ASSERT_EQ(both.poses.size(), 5U);
  EXPECT_JOINT(both.poses[1], "neck_pitch", 0.3, 0.0);
  EXPECT_JOINT(both.poses[3], "neck_pitch", 0.5, 20.0);
  EXPECT_JOINT(both.poses[4], "neck_pitch", 0.5, 20.0);
}

TEST(SyncOracle, EndOfInputPublishesTheLastCycle) {
  // No tick after the last message: end of input ends cycle 1.
  const std::string input =
      "{\"name\":[\"neck_pitch\"],\"position\":[0.1]}\n"
      "{\"sync\":true}\n"
      "{\"name\":[\"neck_pitch\"],\"position\":[0.2]}\n";
  const Outcome r = aggregate({"--ticks", "stream"}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.poses.size(), 2U);
  EXPECT_JOINT(r.poses[1], "neck_pitch", 0.2, 10.0);  // (0.2 − 0.1)/0.01

  // But no extra pose when nothing arrived since the last tick.
  const Outcome closed = aggregate({"--ticks", "stream"}, input + "{\"sync\":true}\n");
  ASSERT_EQ(closed.exit_code, 0) << closed.err;
  EXPECT_EQ(closed.poses.size(), 2U);
}

// Time ticks: t_k = t0 + k·T; cycle k holds the messages stamped in (t_{k−1}, t_k]; the pose of
// tick k is stamped t_k. A log sampled every T gives one cycle per stamp.
const std::string kStamped =
    "{\"t\":0.00,\"name\":[\"neck_pitch\"],\"position\":[0.1]}\n"
    "{\"t\":0.01,\"name\":[\"neck_pitch\"],\"position\":[0.2]}\n"
    "{\"t\":0.01,\"name\":[\"head_yaw\"],\"position\":[0.5]}\n"
    "{\"t\":0.02,\"name\":[\"neck_pitch\"],\"position\":[0.3]}\n";

void expect_stamped_cycles(const Outcome& r) {
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.poses.size(), 3U);  // ticks at 0, 0.01 and, at end of input, 0.02
  EXPECT_NEAR(r.poses[0].at("t").get<double>(), 0.00, kTol);
  EXPECT_NEAR(r.poses[1].at("t").get<double>(), 0.01, kTol);
  EXPECT_NEAR(r.poses[2].at("t").get<double>(), 0.02, kTol);
  // Cycle 0: neck 0.1 (first sample); head_yaw never seen yet: 0.
  EXPECT_JOINT(r.poses[0], "neck_pitch", 0.1, 0.0);
  EXPECT_JOINT(r.poses[0], "head_yaw", 0.0, 0.0);
  // Cycle 1 holds both messages stamped 0.01 (the pose stamped 0.01 includes them).
  EXPECT_JOINT(r.poses[1], "neck_pitch", 0.2, 10.0);  // (0.2 − 0.1)/0.01
  EXPECT_JOINT(r.poses[1], "head_yaw", 0.5, 0.0);     // its first sample
  // Cycle 2: neck (0.3 − 0.2)/0.01; head_yaw had no message: held (hold keeps x and v).
  EXPECT_JOINT(r.poses[2], "neck_pitch", 0.3, 10.0);
  EXPECT_JOINT(r.poses[2], "head_yaw", 0.5, 0.0);
}

TEST(SyncOracle, TimeTicksStampMeaning) { expect_stamped_cycles(aggregate({"--ticks", "time"}, kStamped)); }

TEST(SyncOracle, AutoTicksChooseTimeForALogWithoutTicks) { expect_stamped_cycles(aggregate({}, kStamped)); }

TEST(SyncOracle, AutoTicksFollowTheLogsOwnTicksAndNeverTickTwice) {
  // The log ticks itself at its stamps; with time ticks on top there would be extra poses.
  const std::string input =
      "{\"t\":0.000,\"name\":[\"neck_pitch\"],\"position\":[0.1]}\n"
      "{\"t\":0.004,\"name\":[\"head_yaw\"],\"position\":[0.2]}\n"
      "{\"sync\":true,\"t\":0.005}\n"
      "{\"t\":0.013,\"name\":[\"neck_pitch\"],\"position\":[0.2]}\n"
      "{\"sync\":true,\"t\":0.015}\n"
      "{\"t\":0.021,\"name\":[\"neck_pitch\"],\"position\":[0.3]}\n"
      "{\"t\":0.024,\"name\":[\"head_yaw\"],\"position\":[0.3]}\n"
      "{\"sync\":true,\"t\":0.025}\n";
  const Outcome r = aggregate({}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.poses.size(), 3U);
  EXPECT_NEAR(r.poses[0].at("t").get<double>(), 0.005, kTol);
  EXPECT_NEAR(r.poses[1].at("t").get<double>(), 0.015, kTol);
  EXPECT_NEAR(r.poses[2].at("t").get<double>(), 0.025, kTol);
  // Inside cycle 1, dt is the length of the previous cycle: cycle 0 has no start tick, so T.
  EXPECT_JOINT(r.poses[1], "neck_pitch", 0.2, 10.0);  // (0.2 − 0.1)/0.01
  // Inside cycle 2, dt = length of cycle 1 = 0.015 − 0.005 = 0.01.
  EXPECT_JOINT(r.poses[2], "neck_pitch", 0.3, 10.0);
  EXPECT_JOINT(r.poses[2], "head_yaw", 0.3, 0.1 / 0.01);  // (0.3 − 0.2)/0.01: held in cycle 1
}

TEST(SyncOracle, CycleZeroMeansAbsentAndCycleNumbersImplyMissingTicks) {
  // cycle 0 = absent: no mismatch warning. cycle 3 while in cycle 1: ticks of cycles 1 and 2
  // fire first (cycle 0 was ended by the explicit tick).
  const std::string input =
      "{\"cycle\":0,\"name\":[\"neck_pitch\"],\"position\":[0.1]}\n"
      "{\"sync\":true}\n"
      "{\"cycle\":3,\"name\":[\"neck_pitch\"],\"position\":[0.4]}\n";
  const Outcome r = aggregate({"--ticks", "stream"}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning:"), std::string::npos) << r.err;
  ASSERT_EQ(r.poses.size(), 4U);  // ticks 0, 1, 2, and 3 at end of input
  for (int k = 0; k < 4; ++k) EXPECT_EQ(r.poses[static_cast<std::size_t>(k)].value("cycle", -1), k);
  EXPECT_JOINT(r.poses[0], "neck_pitch", 0.1, 0.0);
  EXPECT_JOINT(r.poses[1], "neck_pitch", 0.1, 0.0);  // no message: held
  EXPECT_JOINT(r.poses[2], "neck_pitch", 0.1, 0.0);  // held again
  // The filters restarted at the held 0.1: (0.4 − 0.1)/0.01 = 30.
  EXPECT_JOINT(r.poses[3], "neck_pitch", 0.4, 30.0);
}

TEST(SyncOracle, LateCycleIsAWarningAndAppliedToTheCurrentCycle) {
  const std::string input =
      "{\"name\":[\"neck_pitch\"],\"position\":[0.1]}\n"
      "{\"sync\":true}\n"
      "{\"sync\":true}\n"
      "{\"cycle\":1,\"name\":[\"neck_pitch\"],\"position\":[0.2]}\n";
  const Outcome r = aggregate({"--ticks", "stream"}, input);
  EXPECT_NE(r.err.find("warning:"), std::string::npos) << r.err;
  ASSERT_EQ(r.poses.size(), 3U);
  EXPECT_JOINT(r.poses[2], "neck_pitch", 0.2, 10.0);  // applied in cycle 2 against the held 0.1
}

TEST(SyncOracle, MixedPositionAndVelocityJointsAndExtrapolation) {
  // Cycle 0: neck position only, head_yaw velocity only, tail position and velocity.
  // Cycle 1: neck 0.15, head_yaw velocity 4, nothing for tail. Cycle 2: nothing at all.
  // Cycle 3: neck 0.3.
  const std::string input =
      "{\"name\":[\"neck_pitch\"],\"position\":[0.1]}\n"
      "{\"name\":[\"head_yaw\"],\"velocity\":[2]}\n"
      "{\"name\":[\"tail_swing\"],\"position\":[1],\"velocity\":[3]}\n"
      "{\"sync\":true}\n"
      "{\"name\":[\"neck_pitch\"],\"position\":[0.15]}\n"
      "{\"name\":[\"head_yaw\"],\"velocity\":[4]}\n"
      "{\"sync\":true}\n"
      "{\"sync\":true}\n"
      "{\"name\":[\"neck_pitch\"],\"position\":[0.3]}\n"
      "{\"sync\":true}\n";
  const Outcome r = aggregate({"--ticks", "stream", "--update", "extrapolate"}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.poses.size(), 4U);
  // Tick 0. head_yaw: the Euler integrator starts at 0 (no initial pose): output = 0.
  EXPECT_JOINT(r.poses[0], "neck_pitch", 0.1, 0.0);
  EXPECT_JOINT(r.poses[0], "head_yaw", 0.0, 2.0);
  EXPECT_JOINT(r.poses[0], "tail_swing", 1.0, 3.0);
  // Tick 0 steps the integrator: 0 + 0.01·2 = 0.02. Cycle 1: neck (0.15 − 0.1)/0.01 = 5;
  // head_yaw output = 0.02; tail had no message: extrapolated 1 + 3·0.01 = 1.03.
  EXPECT_JOINT(r.poses[1], "neck_pitch", 0.15, 5.0);
  EXPECT_JOINT(r.poses[1], "head_yaw", 0.02, 4.0);
  EXPECT_JOINT(r.poses[1], "tail_swing", 1.03, 3.0);
  // Cycle 2 is empty: everything extrapolated from its buffer.
  EXPECT_JOINT(r.poses[2], "neck_pitch", 0.15 + 5 * 0.01, 5.0);
  EXPECT_JOINT(r.poses[2], "head_yaw", 0.02 + 4 * 0.01, 4.0);
  EXPECT_JOINT(r.poses[2], "tail_swing", 1.03 + 3 * 0.01, 3.0);
  // Cycle 3: neck's filters restarted at the predicted 0.2: (0.3 − 0.2)/0.01 = 10.
  EXPECT_JOINT(r.poses[3], "neck_pitch", 0.3, 10.0);
  EXPECT_JOINT(r.poses[3], "head_yaw", 0.06 + 4 * 0.01, 4.0);
  EXPECT_JOINT(r.poses[3], "tail_swing", 1.06 + 3 * 0.01, 3.0);
}

TEST(SyncOracle, HoldZeroVelocityAndBrake) {
  const std::string input =
      "{\"name\":[\"tail_swing\"],\"position\":[1],\"velocity\":[3]}\n"
      "{\"sync\":true}\n"
      "{\"sync\":true}\n"
      "{\"sync\":true}\n";
  const Outcome zero = aggregate({"--ticks", "stream", "--update", "hold-zero-velocity"}, input);
  ASSERT_EQ(zero.exit_code, 0) << zero.err;
  ASSERT_EQ(zero.poses.size(), 3U);
  EXPECT_JOINT(zero.poses[1], "tail_swing", 1.0, 0.0);
  // brake at 100 rad/s²: per cycle |v| drops by 100·0.01 = 1; x advances by the mean v·dt.
  const Outcome brake =
      aggregate({"--ticks", "stream", "--update", "brake", "--brake-deceleration", "100"}, input);
  ASSERT_EQ(brake.exit_code, 0) << brake.err;
  ASSERT_EQ(brake.poses.size(), 3U);
  EXPECT_JOINT(brake.poses[1], "tail_swing", 1.0 + 0.5 * (3 + 2) * 0.01, 2.0);
  EXPECT_JOINT(brake.poses[2], "tail_swing", 1.025 + 0.5 * (2 + 1) * 0.01, 1.0);
}

TEST(SyncOracle, InitialPoseStartsTheFilters) {
  // The differentiator starts at the initial 0.2 rather than at the first sample.
  const Outcome r = aggregate({"--ticks", "stream", "--initial-pose", "neck_pitch=0.2"},
                          "{\"name\":[\"neck_pitch\"],\"position\":[0.3]}\n{\"sync\":true}\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.poses.size(), 1U);
  EXPECT_JOINT(r.poses[0], "neck_pitch", 0.3, 10.0);  // (0.3 − 0.2)/0.01
}

TEST(SyncOracle, ClampFeedsBackIntoTheIntegrator) {
  // neck_pitch's upper limit is 0.5. Cycle 0 sets 0.45 (position and velocity: restart at 0.45).
  // Cycles 1, 2: velocity 10; cycles 3, 4: velocity −10.
  //   tick 0: integrator restarted, no input since: stays 0.45.
  //   cycle 1: x = 0.45; tick 1: 0.45 + 0.1 = 0.55.
  //   cycle 2: x = 0.55 → clamped 0.5, the integrator restarts at 0.5 (no input since: stays).
  //   cycle 3: x = 0.5; tick 3: 0.5 − 0.1 = 0.4.   cycle 4: x = 0.4.
  // With wind-up the integrator would reach 0.65, and cycle 4 would read 0.55 → clamped 0.5.
  std::string input = "{\"name\":[\"neck_pitch\"],\"position\":[0.45],\"velocity\":[0]}\n{\"sync\":true}\n";
  for (const char* v : {"10", "10", "-10", "-10"})
    input += std::string("{\"name\":[\"neck_pitch\"],\"velocity\":[") + v + "]}\n{\"sync\":true}\n";
  const Outcome r = aggregate({"--ticks", "stream", "--clamp"}, input);
  ASSERT_EQ(r.poses.size(), 5U) << r.err;
  EXPECT_JOINT(r.poses[1], "neck_pitch", 0.45, 10.0);
  EXPECT_JOINT(r.poses[2], "neck_pitch", 0.5, 10.0);
  EXPECT_JOINT(r.poses[3], "neck_pitch", 0.5, -10.0);
  EXPECT_JOINT(r.poses[4], "neck_pitch", 0.4, -10.0);
}

TEST(SyncOracle, DiffAndQuadAcceptOnlyTheirFamilyWithTheirParameters) {
  const std::string input = "{\"name\":[\"neck_pitch\"],\"position\":[0.3]}\n";
  EXPECT_EQ(aggregate({"--diff", "exponential"}, input).exit_code, 2);
  EXPECT_EQ(aggregate({"--quad", "diff"}, input).exit_code, 2);
  EXPECT_EQ(aggregate({"--diff", "euler"}, input).exit_code, 2);
  // lag_diff at another period: its default tau (0.1 s) is below T = 0.2 s, so it needs its own.
  auto with_period = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"aggregate", "--sample", "--no-support", "--kind", "sync",
                                  "--period", "0.2", "--diff", "lag_diff"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_rmodel(args, input);
  };
  EXPECT_NE(with_period({}).exit_code, 0);
  const auto ok = with_period({"--diff-param", "tau=0.5"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(aggregate({"--quad", "trapezoid", "--quad-param", "T=0.01"}, input).exit_code, 0);
  EXPECT_EQ(aggregate({"--quad", "trapezoid", "--quad-param", "tau=1"}, input).exit_code, 2);
}

}  // namespace
}  // namespace rmodel
