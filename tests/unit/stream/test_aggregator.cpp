// The aggregator as a pipeline stage: every rule of docs/streaming.md for the simple and the
// sync kinds, the seven defects of issue 12 with the numbers of the issue, the update
// policies, and a replay of the real Sweetie Bot trajectory. Expected values are worked out
// by hand from docs/streaming.md (arithmetic in the comments), not taken from the code.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "rmodel/stream/aggregator.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/reader.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::sample;

using test::pony;

constexpr std::size_t kNeckPitch = 16, kHeadYaw = 17, kTailSwing = 19;  // pony pose slots

struct Published {
  JointState pose;
  std::optional<std::int64_t> cycle;
};

/// An aggregator in a pipeline whose sink records every published pose and whose handler
/// records every problem's text.
struct Harness {
  Aggregator agg;
  std::vector<Published> out;
  std::vector<std::string> events;
  stream::CallbackSink sink{[this](const JointState& s, std::optional<std::int64_t> c) { out.push_back({s, c}); }};
  stream::Pipeline pipe{agg, sink, [this](const stream::Event& e) { events.emplace_back(e.text); }};

  Harness(const Model& model, AggregatorOptions options) : agg(model, std::move(options)) {}

  void joint(std::vector<std::string> names, std::vector<double> pos, std::vector<double> vel = {},
             std::optional<double> t = std::nullopt, std::optional<std::int64_t> cycle = std::nullopt) {
    io::Message m;
    m.kind = io::MessageKind::Joint;
    m.joint.name = std::move(names);
    m.joint.position = std::move(pos);
    m.joint.velocity = std::move(vel);
    m.has_stamp = t.has_value();
    m.joint.stamp = *time_from_seconds(t.value_or(0.0));  // short decimals: exact
    m.cycle = cycle;
    pipe.push(m);
  }
  void tick(std::optional<double> t = std::nullopt, std::optional<std::int64_t> cycle = std::nullopt) {
    io::Message m;
    m.kind = io::MessageKind::Sync;
    m.has_stamp = t.has_value();
    m.sync_stamp = *time_from_seconds(t.value_or(0.0));
    m.cycle = cycle;
    pipe.push(m);
  }
  void finish() { pipe.finish(); }
};

AggregatorOptions sync_options(double period = 0.01, TickSource ticks = TickSource::stream) {
  AggregatorOptions o;
  o.kind = AggregatorKind::sync;
  o.period = *time_from_seconds(period);
  o.ticks = ticks;
  o.support = false;
  return o;
}

// ---- simple ---------------------------------------------------------------------------

TEST(AggregatorSimple, MergesPartialMessagesIntoTheSortedPose) {
  const Model model = pony();
  AggregatorOptions o;
  o.support = false;
  Harness h(model, o);
  h.joint({"tail_swing", "neck_pitch"}, {1.5, 0.25}, {}, 3.0);
  ASSERT_EQ(h.out.size(), 1U);
  EXPECT_EQ(h.out[0].pose.name, model.joint_names());
  EXPECT_EQ(h.out[0].pose.position[kTailSwing], 1.5);
  EXPECT_EQ(h.out[0].pose.position[kNeckPitch], 0.25);
  EXPECT_EQ(h.out[0].pose.stamp, Time{3'000'000'000});
  EXPECT_TRUE(h.out[0].pose.velocity.empty());
  h.joint({"head_yaw"}, {}, {0.5});
  ASSERT_EQ(h.out.size(), 2U);
  ASSERT_EQ(h.out[1].pose.velocity.size(), 20U);
  EXPECT_EQ(h.out[1].pose.velocity[kHeadYaw], 0.5);
  EXPECT_EQ(h.out[1].pose.position[kNeckPitch], 0.25);  // kept
  EXPECT_TRUE(h.events.empty());
}

TEST(AggregatorSimple, OneWordingForUnknownJointsSizesAndRepeatedNames) {
  Harness h(pony(), {});
  h.joint({"nope", "head_yaw"}, {1.0, 0.5});
  h.joint({"nope"}, {2.0});
  h.joint({"head_yaw", "neck_pitch"}, {1.0, 2.0, 3.0});
  h.joint({"head_yaw", "neck_pitch", "tail_swing", "head_yaw"}, {0.1, 0.2, 0.3, 0.4});
  const std::vector<std::string> expected = {
      "unknown joint 'nope' skipped",  // once per name
      "message rejected: 'position' has 3 values for 2 names",
      "message rejected: joint 'head_yaw' is named twice (elements 1 and 4)"};
  EXPECT_EQ(h.events, expected);
  const stream::Summary& s = h.pipe.summary();
  EXPECT_EQ(s.read, 4U);
  EXPECT_EQ(s.rejected, 2U);
  EXPECT_EQ(s.warnings, 2U);  // counted every time
  ASSERT_EQ(h.out.size(), 2U);
  EXPECT_EQ(h.out[0].pose.position[kHeadYaw], 0.5);
}

TEST(AggregatorSimple, LimitsWarnAndClampWhenAsked) {
  AggregatorOptions o;
  o.clamp = true;
  Harness h(pony(), o);
  h.joint({"head_yaw"}, {1.5});  // limits [-1, 1]
  ASSERT_EQ(h.events.size(), 1U);
  EXPECT_EQ(h.events[0], "joint 'head_yaw' at 1.5 is outside its limits [-1, 1]; clamped");
  EXPECT_EQ(h.out.back().pose.position[kHeadYaw], 1.0);
}

TEST(AggregatorSimple, MaxErrorsStopsThePipeline) {
  Aggregator agg(pony(), {});
  stream::CallbackSink sink([](const JointState&, std::optional<std::int64_t>) {});
  stream::RunOptions run;
  run.max_errors = 2;
  stream::Pipeline pipe(agg, sink, {}, run);
  io::Message bad;
  bad.joint.name = {"head_yaw"};
  bad.joint.position = {1.0, 2.0};
  EXPECT_TRUE(pipe.push(bad));
  EXPECT_FALSE(pipe.push(bad));
  EXPECT_TRUE(pipe.summary().budget_exhausted);
  EXPECT_FALSE(pipe.push(bad));
  EXPECT_EQ(pipe.summary().read, 2U);
}

// ---- sync: the seven defects of issue 12 --------------------------------------------------

TEST(AggregatorSyncDefects, FiltersStepPerTickNotPerMessage) {
  // T = 0.01 s: 0.3 in cycle 0; 0.4 and 0.5 in cycle 1. Each message of cycle 1 is
  // differentiated against the same previous sample 0.3: (0.5 − 0.3)/0.01 = 20 rad/s.
  Harness h(pony(), sync_options(0.01));
  h.joint({"head_yaw"}, {0.3});
  h.tick();
  h.joint({"head_yaw"}, {0.4});
  h.joint({"head_yaw"}, {0.5});
  h.tick();
  ASSERT_EQ(h.out.size(), 2U);
  EXPECT_EQ(h.out[0].pose.velocity[kHeadYaw], 0.0);  // first sample: no spike
  EXPECT_EQ(h.out[1].pose.position[kHeadYaw], 0.5);
  EXPECT_NEAR(h.out[1].pose.velocity[kHeadYaw], 20.0, 1e-9);
  EXPECT_EQ(h.out[1].cycle, 1);
}

TEST(AggregatorSyncDefects, EndOfInputPublishesTheLastCycle) {
  // Time ticks, T = 0.01, stamps 0, 0.01, 0.02: one cycle per stamp. The third cycle ends
  // only with the input.
  Harness h(pony(), sync_options(0.01, TickSource::time));
  h.joint({"head_yaw"}, {0.1}, {}, 0.0);
  h.joint({"head_yaw"}, {0.2}, {}, 0.01);
  h.joint({"head_yaw"}, {0.3}, {}, 0.02);
  EXPECT_EQ(h.out.size(), 2U);
  h.finish();
  ASSERT_EQ(h.out.size(), 3U);
  EXPECT_EQ(h.out[2].pose.position[kHeadYaw], 0.3);
  EXPECT_EQ(h.out[2].pose.stamp, Time{20'000'000});
  EXPECT_EQ(h.out[2].cycle, 2);
}

TEST(AggregatorSyncDefects, ALogWithItsOwnTicksIsTickedOnce) {
  // Default (auto) ticks; the log ticks itself every 0.05 s while T = 0.01 s. Time ticks
  // would add 4 ticks per gap; the log's own ticks give exactly 3 cycles.
  AggregatorOptions o = sync_options(0.01, TickSource::automatic);
  Harness h(pony(), o);
  for (int k = 0; k < 3; ++k) {
    h.joint({"head_yaw"}, {0.1 * (k + 1)}, {}, 0.05 * k);
    h.tick(0.05 * k);
  }
  h.finish();
  EXPECT_EQ(h.agg.ticks(), TickSource::stream);
  ASSERT_EQ(h.out.size(), 3U);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(h.out[static_cast<std::size_t>(k)].cycle, k);
    EXPECT_NEAR(h.out[static_cast<std::size_t>(k)].pose.position[kHeadYaw], 0.1 * (k + 1), 1e-12);
  }
}

TEST(AggregatorSyncDefects, CycleZeroMeansAbsent) {
  Harness h(pony(), sync_options());
  h.joint({"head_yaw"}, {0.1}, {}, std::nullopt, 0);
  h.tick(std::nullopt, 0);
  h.joint({"head_yaw"}, {0.2}, {}, std::nullopt, 0);  // cycle 1 now: 0 is "absent", no mismatch
  h.tick();
  EXPECT_TRUE(h.events.empty()) << h.events.front();
  ASSERT_EQ(h.out.size(), 2U);
  EXPECT_EQ(h.out[1].cycle, 1);
  EXPECT_EQ(h.out[1].pose.position[kHeadYaw], 0.2);
}

TEST(AggregatorSyncDefects, DiffTakesOnlyDifferentiatorsAndQuadOnlyIntegrators) {
  const Model model = pony();
  AggregatorOptions o = sync_options();
  o.diff_method = "exponential";
  EXPECT_THROW(Aggregator(model, o), InvalidArgument);
  o.diff_method = "euler";
  EXPECT_THROW(Aggregator(model, o), InvalidArgument);
  o = sync_options();
  o.quad_method = "diff";
  EXPECT_THROW(Aggregator(model, o), InvalidArgument);
  // Parameters reach the filter: diff at T = 0.02 while the period is 0.01:
  // (0.5 − 0.3)/0.02 = 10 rad/s.
  o = sync_options(0.01);
  o.diff_params = {{"T", 0.02}};
  Harness h(model, o);
  h.joint({"head_yaw"}, {0.3});
  h.tick();
  h.joint({"head_yaw"}, {0.5});
  h.tick();
  EXPECT_NEAR(h.out[1].pose.velocity[kHeadYaw], 10.0, 1e-9);
}

TEST(AggregatorSyncDefects, ClampStopsTheIntegratorAtTheLimit) {
  // head_yaw limits [-1, 1], T = 0.01, Euler, starting at 0.9 (initial pose), velocity only:
  // cycle 0: v = 50 → x = 0.9; tick 0: 0.9 + 0.5 = 1.4;
  // cycle 1: v = 50 → x = 1.4 → clamped 1.0, integrator restarts at 1.0; tick 1: no input
  //          since the restart → stays 1.0;
  // cycle 2: v = −50 → x = 1.0; tick 2: 1.0 − 0.5 = 0.5;
  // cycle 3: v = −50 → x = 0.5. (With wind-up: 1.4 + 0.5 − 0.5 = 1.4 → clamped 1.0.)
  const Model model = pony();
  AggregatorOptions o = sync_options(0.01);
  o.clamp = true;
  o.initial_positions.assign(model.pose_size(), 0.0);
  o.initial_positions[kHeadYaw] = 0.9;
  Harness h(model, o);
  for (double v : {50.0, 50.0, -50.0, -50.0}) {
    h.joint({"head_yaw"}, {}, {v});
    h.tick();
  }
  ASSERT_EQ(h.out.size(), 4U);
  EXPECT_NEAR(h.out[0].pose.position[kHeadYaw], 0.9, 1e-12);
  EXPECT_NEAR(h.out[1].pose.position[kHeadYaw], 1.0, 1e-12);
  EXPECT_NEAR(h.out[2].pose.position[kHeadYaw], 1.0, 1e-12);
  EXPECT_NEAR(h.out[3].pose.position[kHeadYaw], 0.5, 1e-12);
}

TEST(AggregatorSyncDefects, APoseStampedTkHoldsTheMessagesOfTk) {
  // Time ticks, T = 0.01, t0 = 0: cycle 1 holds (0, 0.01], cycle 2 (0.01, 0.02].
  // 0.02 s + 5 ns is within the tolerance 1e-6·T = 10 ns: still cycle 2. The ticks fall on
  // the integer grid t0 + k·T exactly.
  Harness h(pony(), sync_options(0.01, TickSource::time));
  h.joint({"head_yaw"}, {0.1}, {}, 0.0);
  h.joint({"head_yaw"}, {0.2}, {}, 0.004);
  h.joint({"head_yaw"}, {0.3}, {}, 0.01);
  h.joint({"head_yaw"}, {0.4}, {}, 0.020000005);
  h.finish();
  ASSERT_EQ(h.out.size(), 3U);
  EXPECT_EQ(h.out[0].pose.stamp, Time{0});
  EXPECT_EQ(h.out[0].pose.position[kHeadYaw], 0.1);
  EXPECT_EQ(h.out[1].pose.stamp, Time{10'000'000});
  EXPECT_EQ(h.out[1].pose.position[kHeadYaw], 0.3);
  EXPECT_EQ(h.out[2].pose.stamp, Time{20'000'000});
  EXPECT_EQ(h.out[2].pose.position[kHeadYaw], 0.4);
  EXPECT_EQ(h.out[2].cycle, 2);
}

// ---- sync: the other rules --------------------------------------------------------------

TEST(AggregatorSync, MissingTicksAreFiredFromCycleNumbers) {
  // cycle 0: 0.1; a message of cycle 3 fires the ticks of cycles 0, 1, 2 first (stamped
  // with its time 0.5), then belongs to cycle 3, which the end of input ends.
  Harness h(pony(), sync_options());
  h.joint({"head_yaw"}, {0.1}, {}, 0.0, 0);
  h.joint({"head_yaw"}, {0.2}, {}, 0.5, 3);
  h.finish();
  ASSERT_EQ(h.out.size(), 4U);
  for (std::int64_t k = 0; k < 4; ++k) EXPECT_EQ(h.out[static_cast<std::size_t>(k)].cycle, k);
  EXPECT_EQ(h.out[0].pose.position[kHeadYaw], 0.1);
  EXPECT_EQ(h.out[0].pose.stamp, Time{500'000'000});
  EXPECT_EQ(h.out[2].pose.position[kHeadYaw], 0.1);  // held
  EXPECT_EQ(h.out[3].pose.position[kHeadYaw], 0.2);
}

TEST(AggregatorSync, LateMessagesWarnAndLateTicksAreIgnored) {
  Harness h(pony(), sync_options());
  h.tick();
  h.tick();
  h.joint({"head_yaw"}, {0.1}, {}, std::nullopt, 1);
  h.tick(std::nullopt, 1);
  const std::vector<std::string> expected = {"message of cycle 1 arrived in cycle 2",
                                             "tick of cycle 1 arrived in cycle 2; ignored"};
  EXPECT_EQ(h.events, expected);
  EXPECT_EQ(h.agg.cycle(), 2);
}

TEST(AggregatorSync, VelocityOnlyJointsAreIntegrated) {
  // Euler from 0: the report of cycle k gives the integral to the end of cycle k−1: k·T·v.
  Harness h(pony(), sync_options(0.1));
  for (int k = 0; k < 5; ++k) {
    h.joint({"tail_swing"}, {}, {2.0});
    h.tick();
    EXPECT_NEAR(h.out.back().pose.position[kTailSwing], k * 0.1 * 2.0, 1e-12) << k;
    EXPECT_EQ(h.out.back().pose.velocity[kTailSwing], 2.0);
  }
}

TEST(AggregatorSync, PositionAndVelocityTogetherRestartTheFilters) {
  Harness h(pony(), sync_options(0.1));
  h.joint({"head_yaw"}, {0.1}, {3.0});
  h.tick();
  EXPECT_EQ(h.out[0].pose.position[kHeadYaw], 0.1);
  EXPECT_EQ(h.out[0].pose.velocity[kHeadYaw], 3.0);
  h.joint({"head_yaw"}, {0.3});  // (0.3 − 0.1)/0.1 from the restart point
  h.tick();
  EXPECT_NEAR(h.out[1].pose.velocity[kHeadYaw], 2.0, 1e-12);
}

TEST(AggregatorSync, MixedJointsInOneCycle) {
  // head_yaw position only, tail_swing velocity only, in the same cycles; T = 0.1.
  Harness h(pony(), sync_options(0.1));
  h.joint({"head_yaw"}, {0.2});
  h.joint({"tail_swing"}, {}, {1.0});
  h.tick();
  h.joint({"head_yaw"}, {0.3});
  h.joint({"tail_swing"}, {}, {1.0});
  h.tick();
  EXPECT_NEAR(h.out[1].pose.velocity[kHeadYaw], (0.3 - 0.2) / 0.1, 1e-12);
  EXPECT_NEAR(h.out[1].pose.position[kTailSwing], 0.1 * 1.0, 1e-12);
}

TEST(AggregatorSync, UpdatePoliciesForCyclesWithoutMessages) {
  const Model model = pony();
  auto run = [&](UpdatePolicy p) {
    AggregatorOptions o = sync_options(0.1);
    o.update = p;
    Harness h(model, o);
    h.joint({"tail_swing"}, {1.0}, {2.0});
    h.tick();  // ends the cycle that had a message
    h.tick();  // two cycles without: two predictions
    h.tick();
    return std::pair(h.out.back().pose.position[kTailSwing], h.out.back().pose.velocity[kTailSwing]);
  };
  EXPECT_EQ(run(UpdatePolicy::hold), std::pair(1.0, 2.0));
  EXPECT_EQ(run(UpdatePolicy::hold_zero_velocity), std::pair(1.0, 0.0));
  auto [xe, ve] = run(UpdatePolicy::extrapolate);
  EXPECT_NEAR(xe, 1.0 + 2 * 0.1 * 2.0, 1e-12);
  EXPECT_EQ(ve, 2.0);
  // brake at 10 rad/s²: 2 → 1 → 0 rad/s; position advances by the mean velocity times T.
  auto [xb, vb] = run(UpdatePolicy::brake);
  EXPECT_NEAR(vb, 0.0, 1e-12);
  EXPECT_NEAR(xb, 1.0 + 0.1 * (2.0 + 1.0) / 2 + 0.1 * (1.0 + 0.0) / 2, 1e-12);
}

TEST(AggregatorSync, AutoTicksFollowTheLog) {
  const Model model = pony();
  {
    // Stamps only, spanning more than 2T: time ticks.
    Harness h(model, sync_options(0.01, TickSource::automatic));
    for (int k = 0; k < 4; ++k) h.joint({"head_yaw"}, {0.1 * k}, {}, 0.01 * k);
    EXPECT_EQ(h.agg.ticks(), TickSource::time);
    h.finish();
    EXPECT_EQ(h.out.size(), 4U);  // one cycle per stamp, nothing lost while deciding
  }
  {
    // Neither stamps nor ticks: stream ticks (so the end of input is the only tick).
    Harness h(model, sync_options(0.01, TickSource::automatic));
    h.joint({"head_yaw"}, {0.1});
    h.joint({"head_yaw"}, {0.2});
    h.finish();
    EXPECT_EQ(h.agg.ticks(), TickSource::stream);
    ASSERT_EQ(h.out.size(), 1U);
    EXPECT_EQ(h.out[0].pose.position[kHeadYaw], 0.2);
  }
}

TEST(AggregatorSync, PublishBothWritesMessagesAndTicks) {
  AggregatorOptions o = sync_options();
  o.publish = PublishPolicy::both;
  Harness h(pony(), o);
  h.joint({"head_yaw"}, {0.1});
  h.tick();
  ASSERT_EQ(h.out.size(), 2U);
  EXPECT_EQ(h.out[0].cycle, 0);
  EXPECT_EQ(h.out[1].cycle, 0);
}

TEST(AggregatorOptionsTest, InvalidOptionsThrow) {
  const Model model = pony();
  AggregatorOptions o;
  o.period = Time{0};
  EXPECT_THROW(Aggregator(model, o), InvalidArgument);
  o = sync_options();
  o.brake_deceleration = -1;
  EXPECT_THROW(Aggregator(model, o), InvalidArgument);
  o = sync_options();
  o.initial_positions = {1.0};
  EXPECT_THROW(Aggregator(model, o), SizeMismatch);
}

TEST(AggregatorFixtures, GreetingTrajectoryGivesFullPosesAndLegSupport) {
  RMODEL_REQUIRE_FIXTURES();
  const auto dir = test::fixture("sweetie_bot_proto2");
  const Model model = Model::load({(dir / "sweetie_bot_proto2.urdf").string(), (dir / "kinematic_chains.cpf").string(), std::nullopt});
  const auto nominal = nlohmann::json::parse(test::read_file(dir / "joint_state/nominal.json"));
  const auto goal = nlohmann::json::parse(test::read_file(dir / "joint_trajectories/greeting.json"));
  const auto& joint_names = goal["trajectory"]["joint_names"];
  const auto& points = goal["trajectory"]["points"];

  Aggregator agg(model);
  std::vector<JointState> poses;
  std::vector<SupportState> supports;
  stream::CallbackSink sink([&](const JointState& s, std::optional<std::int64_t>) { poses.push_back(s); },
                            [&](const SupportState& s, std::optional<std::int64_t>) { supports.push_back(s); });
  std::vector<std::string> events;
  stream::Pipeline pipe(agg, sink, [&](const stream::Event& e) { events.emplace_back(e.text); });
  auto reader = io::MessageReader::open((dir / "joint_trajectories/greeting.json").string());
  pipe.run(reader);
  pipe.finish();
  EXPECT_TRUE(events.empty());
  ASSERT_EQ(poses.size(), points.size());
  EXPECT_EQ(supports.size(), points.size());
  for (std::size_t p = 0; p < poses.size(); ++p) {
    ASSERT_EQ(poses[p].position.size(), 32U);
    const auto& positions = points[p]["positions"];
    for (std::size_t i = 0; i < joint_names.size(); ++i) {
      const std::string name = joint_names[i];
      if (name.rfind("support/", 0) == 0) continue;
      EXPECT_EQ(poses[p].position[model.joint_index(name)], positions[i].get<double>()) << name;
    }
  }
  EXPECT_EQ(agg.pose().name, nominal["name"].get<std::vector<std::string>>());
  const SupportState& s = agg.support();
  for (const char* leg : {"leg1", "leg2", "leg3", "leg4"}) {
    const std::size_t c = model.chain_index(leg);
    EXPECT_EQ(s.name[c], leg);
    EXPECT_EQ(s.contact[c], "hoof_flat");
    const std::size_t column = static_cast<std::size_t>(
        std::find(joint_names.begin(), joint_names.end(), std::string("support/") + leg) - joint_names.begin());
    EXPECT_EQ(s.support[c], points.back()["positions"][column].get<double>());
  }
}

}  // namespace
}  // namespace rmodel
