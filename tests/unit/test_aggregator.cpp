// The aggregator: every rule of SPEC §2 for the simple and the sync kinds, the update
// policies, allocation-free steady state, and a replay of the real Sweetie Bot trajectory.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "alloc_counter.hpp"
#include "rmodel/aggregator.hpp"
#include "rmodel/error.hpp"
#include "rmodel/io/reader.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::sample;

Model pony() { return Model::load({sample("pony.urdf").string(), sample("pony.json").string(), std::nullopt}); }

JointState msg(std::vector<std::string> names, std::vector<double> pos, std::vector<double> vel = {},
               std::vector<double> eff = {}, double t = 0) {
  JointState s;
  s.name = std::move(names);
  s.position = std::move(pos);
  s.velocity = std::move(vel);
  s.effort = std::move(eff);
  s.stamp = t;
  return s;
}

TEST(AggregatorSimple, MergesPartialMessagesIntoTheSortedPose) {
  const Model model = pony();
  Aggregator agg(model);
  EXPECT_EQ(agg.pose().name, model.joint_names());
  EXPECT_EQ(agg.pose().position, std::vector<double>(20, 0.0));
  EXPECT_TRUE(agg.pose().velocity.empty());
  ASSERT_EQ(agg.on_joint_state(msg({"tail_swing", "neck_pitch"}, {1.5, 0.25}, {}, {}, 3.0)), Verdict::accepted);
  EXPECT_EQ(agg.pose().position[19], 1.5);
  EXPECT_EQ(agg.pose().position[16], 0.25);
  EXPECT_EQ(agg.pose().stamp, 3.0);
  EXPECT_TRUE(agg.pose().velocity.empty());
  ASSERT_EQ(agg.on_joint_state(msg({"head_yaw"}, {}, {0.5})), Verdict::accepted);
  ASSERT_EQ(agg.pose().velocity.size(), 20U);
  EXPECT_EQ(agg.pose().velocity[17], 0.5);
  EXPECT_EQ(agg.pose().position[16], 0.25);  // kept
  EXPECT_TRUE(agg.warnings().empty());
}

TEST(AggregatorSimple, UnknownJointsWarnAndAreSkipped) {
  Aggregator agg(pony());
  ASSERT_EQ(agg.on_joint_state(msg({"wing", "jaw_slide"}, {9.0, 0.01})), Verdict::accepted);
  ASSERT_EQ(agg.warnings().size(), 1U);
  EXPECT_EQ(agg.warnings()[0].kind, AggregatorWarning::Kind::unknown_joint);
  EXPECT_EQ(agg.warnings()[0].element, 0U);
  EXPECT_EQ(agg.pose().position[18], 0.01);
}

TEST(AggregatorSimple, SizeMismatchRejectsTheWholeMessage) {
  Aggregator agg(pony());
  EXPECT_EQ(agg.on_joint_state(msg({"neck_pitch", "head_yaw"}, {0.1})), Verdict::rejected);
  EXPECT_EQ(agg.rejection().field, "position");
  EXPECT_EQ(agg.rejection().expected, 2U);
  EXPECT_EQ(agg.rejection().got, 1U);
  EXPECT_EQ(agg.pose().position[16], 0.0);  // nothing applied
  EXPECT_EQ(agg.on_joint_state(msg({"neck_pitch"}, {0.1}, {1, 2})), Verdict::rejected);
  EXPECT_EQ(agg.rejection().field, "velocity");
  EXPECT_EQ(agg.pose().position[16], 0.0);
  EXPECT_EQ(agg.on_joint_state(msg({"neck_pitch"}, {0.1}, {}, {1, 2, 3})), Verdict::rejected);
  EXPECT_EQ(agg.rejection().field, "effort");
}

TEST(AggregatorSimple, LimitsWarnAndClampWhenAsked) {
  const Model model = pony();
  Aggregator plain(model);
  plain.on_joint_state(msg({"neck_pitch", "tail_swing"}, {2.0, 100.0}));
  ASSERT_EQ(plain.warnings().size(), 1U);  // the continuous tail has no position limits
  EXPECT_EQ(plain.warnings()[0].kind, AggregatorWarning::Kind::limit_exceeded);
  EXPECT_EQ(plain.warnings()[0].value, 2.0);
  EXPECT_EQ(plain.pose().position[16], 2.0);
  EXPECT_EQ(plain.pose().position[19], 100.0);

  AggregatorOptions options;
  options.clamp = true;
  Aggregator clamped(model, options);
  clamped.on_joint_state(msg({"neck_pitch", "front_left_knee"}, {2.0, -5.0}));
  EXPECT_EQ(clamped.warnings().size(), 2U);
  EXPECT_EQ(clamped.pose().position[16], 0.5);   // upper limit
  EXPECT_EQ(clamped.pose().position[1], -2.0);   // lower limit
}

TEST(AggregatorSimple, SupportStatesMergeWithDefaultContacts) {
  Aggregator agg(pony());
  const SupportState& s = agg.support();
  ASSERT_EQ(s.name.size(), 6U);
  EXPECT_EQ(s.contact[0], "hoof_flat");
  EXPECT_EQ(s.contact[2], "hoof_point");
  EXPECT_EQ(s.contact[4], "");  // head has no default contact

  SupportState m;
  m.name = {"rear_left", "front_left", "hoof"};
  m.support = {1.0, 0.5, 1.0};
  m.contact = {"hoof_flat", "", "x"};
  ASSERT_EQ(agg.on_support_state(m), Verdict::accepted);
  ASSERT_EQ(agg.warnings().size(), 1U);
  EXPECT_EQ(agg.warnings()[0].kind, AggregatorWarning::Kind::unknown_chain);
  EXPECT_EQ(s.support[2], 1.0);
  EXPECT_EQ(s.contact[2], "hoof_flat");
  EXPECT_EQ(s.support[0], 0.5);
  EXPECT_EQ(s.contact[0], "hoof_flat");  // empty contact → default

  m.name = {"rear_left"};
  m.support = {0.0};
  m.contact = {"teleport"};
  agg.on_support_state(m);
  ASSERT_EQ(agg.warnings().size(), 1U);
  EXPECT_EQ(agg.warnings()[0].kind, AggregatorWarning::Kind::unknown_contact);
  EXPECT_EQ(s.contact[2], "hoof_point");  // back to the default

  m.support = {0.0, 1.0};
  EXPECT_EQ(agg.on_support_state(m), Verdict::rejected);
  EXPECT_EQ(agg.rejection().field, "support");
}

AggregatorOptions sync_options(UpdatePolicy update = UpdatePolicy::hold) {
  AggregatorOptions o;
  o.kind = AggregatorKind::sync;
  o.period = 0.1;
  o.update = update;
  return o;
}

TEST(AggregatorSync, PositionOnlyJointsGetABackwardDifferenceVelocity) {
  Aggregator agg(pony(), sync_options());
  ASSERT_EQ(agg.pose().velocity.size(), 20U);
  agg.on_joint_state(msg({"head_yaw"}, {0.2}));
  EXPECT_EQ(agg.pose().velocity[17], 0.0);  // first sample: no derivative spike
  agg.on_sync(0.1);
  agg.on_joint_state(msg({"head_yaw"}, {0.25}));
  EXPECT_NEAR(agg.pose().velocity[17], 0.5, 1e-12);
  agg.on_sync(0.2);
  agg.on_joint_state(msg({"head_yaw"}, {0.2}));
  EXPECT_NEAR(agg.pose().velocity[17], -0.5, 1e-12);
}

TEST(AggregatorSync, VelocityOnlyJointsAreIntegrated) {
  Aggregator agg(pony(), sync_options());
  // Forward Euler from the held position: the k-th report gives x0 + (k-1)·T·v.
  for (int k = 1; k <= 5; ++k) {
    agg.on_joint_state(msg({"tail_swing"}, {}, {2.0}));
    EXPECT_NEAR(agg.pose().position[19], (k - 1) * 0.1 * 2.0, 1e-12) << k;
    EXPECT_EQ(agg.pose().velocity[19], 2.0);
    agg.on_sync(0.1 * k);
  }
}

TEST(AggregatorSync, PositionAndVelocityTogetherResetTheFilters) {
  Aggregator agg(pony(), sync_options());
  agg.on_joint_state(msg({"head_yaw"}, {0.1}, {3.0}));
  EXPECT_EQ(agg.pose().position[17], 0.1);
  EXPECT_EQ(agg.pose().velocity[17], 3.0);
  agg.on_sync(0.1);
  agg.on_joint_state(msg({"head_yaw"}, {0.3}));  // differentiated from the reset point
  EXPECT_NEAR(agg.pose().velocity[17], 2.0, 1e-12);
}

TEST(AggregatorSync, UpdatePoliciesForJointsWithoutNews) {
  const Model model = pony();
  auto run = [&](UpdatePolicy p) {
    Aggregator agg(model, sync_options(p));
    agg.on_joint_state(msg({"tail_swing"}, {1.0}, {2.0}));
    agg.on_sync(0.1);  // ends the cycle that had news
    agg.on_sync(0.2);  // two cycles without news: two predictions
    agg.on_sync(0.3);
    return std::pair(agg.pose().position[19], agg.pose().velocity[19]);
  };
  EXPECT_EQ(run(UpdatePolicy::hold), std::pair(1.0, 2.0));
  EXPECT_EQ(run(UpdatePolicy::hold_zero_velocity), std::pair(1.0, 0.0));
  auto [xe, ve] = run(UpdatePolicy::extrapolate);
  EXPECT_NEAR(xe, 1.0 + 2 * 0.1 * 2.0, 1e-12);
  EXPECT_EQ(ve, 2.0);
  // brake at 10 rad/s²: 2 → 1 → 0 rad/s; position integrates the trapezoid of the velocity.
  auto [xb, vb] = run(UpdatePolicy::brake);
  EXPECT_NEAR(vb, 0.0, 1e-12);
  EXPECT_NEAR(xb, 1.0 + 0.1 * (2.0 + 1.0) / 2 + 0.1 * (1.0 + 0.0) / 2, 1e-12);
}

TEST(AggregatorSync, BrakeNeverReversesAndCycleCounts) {
  Aggregator agg(pony(), sync_options(UpdatePolicy::brake));
  agg.on_joint_state(msg({"head_yaw"}, {0.0}, {-0.35}));
  for (int k = 0; k < 10; ++k) agg.on_sync(0.1 * k);
  EXPECT_EQ(agg.pose().velocity[17], 0.0);
  EXPECT_EQ(agg.cycle(), 10);
  agg.on_joint_state(msg({"head_yaw"}, {0.0}), 3);
  ASSERT_EQ(agg.warnings().size(), 1U);
  EXPECT_EQ(agg.warnings()[0].kind, AggregatorWarning::Kind::cycle_mismatch);
  agg.on_joint_state(msg({"head_yaw"}, {0.0}), 10);
  EXPECT_TRUE(agg.warnings().empty());
}

TEST(AggregatorOptionsTest, InvalidOptionsThrow) {
  const Model model = pony();
  AggregatorOptions bad = sync_options();
  bad.period = 0;
  EXPECT_THROW(Aggregator(model, bad), InvalidArgument);
  bad = sync_options();
  bad.diff_method = "crystal_ball";
  EXPECT_THROW(Aggregator(model, bad), InvalidArgument);
  EXPECT_THROW(parse_update_policy("teleport"), InvalidArgument);
  EXPECT_EQ(parse_update_policy("hold-zero-velocity"), UpdatePolicy::hold_zero_velocity);
  EXPECT_EQ(parse_aggregator_kind("sync"), AggregatorKind::sync);
  EXPECT_EQ(parse_publish_policy("message"), PublishPolicy::every_message);
}

TEST(AggregatorAlloc, SteadyStateAllocatesNothing) {
  const Model model = pony();
  for (AggregatorKind kind : {AggregatorKind::simple, AggregatorKind::sync}) {
    AggregatorOptions options = sync_options(UpdatePolicy::extrapolate);
    options.kind = kind;
    options.clamp = true;
    Aggregator agg(model, options);
    const JointState a = msg({"neck_pitch", "head_yaw", "wing"}, {0.1, 0.2, 0.3}, {1, 2, 3}, {4, 5, 6});
    const JointState b = msg({"tail_swing", "front_left_knee"}, {0.5, -3.0});
    const JointState c = msg({"jaw_slide"}, {}, {0.01});
    SupportState s;
    s.name = {"front_left", "rear_right"};
    s.support = {1, 0};
    s.contact = {"hoof_point", ""};
    // Warm up: first sight of each message shape may size caches.
    agg.on_joint_state(a);
    agg.on_joint_state(b);
    agg.on_joint_state(c);
    agg.on_support_state(s);
    agg.on_sync(0.1);
    test::AllocationCounter counter;
    for (int k = 0; k < 100; ++k) {
      agg.on_joint_state(a);
      agg.on_joint_state(b);
      agg.on_joint_state(c);
      agg.on_support_state(s);
      agg.on_sync(0.1 * k);
    }
    EXPECT_EQ(counter.count(), 0U) << (kind == AggregatorKind::sync ? "sync" : "simple");
  }
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
  auto reader = io::MessageReader::open((dir / "joint_trajectories/greeting.json").string());
  io::Message m;
  std::size_t poses = 0, supports = 0;
  while (true) {
    const auto st = reader.next(m);
    if (st == io::ReadStatus::End) break;
    ASSERT_EQ(st, io::ReadStatus::Ok) << reader.error().reason;
    if (m.kind == io::MessageKind::Joint) {
      ASSERT_EQ(agg.on_joint_state(m.joint), Verdict::accepted);
      EXPECT_TRUE(agg.warnings().empty());
      ASSERT_EQ(agg.pose().position.size(), 32U);
      // The pose holds the point's values at the joints' sorted indices.
      const auto& positions = points[poses]["positions"];
      for (std::size_t i = 0; i < joint_names.size(); ++i) {
        const std::string name = joint_names[i];
        if (name.rfind("support/", 0) == 0) continue;
        EXPECT_EQ(agg.pose().position[model.joint_index(name)], positions[i].get<double>()) << name;
      }
      ++poses;
    } else if (m.kind == io::MessageKind::Support) {
      ASSERT_EQ(agg.on_support_state(m.support), Verdict::accepted);
      ++supports;
    }
  }
  EXPECT_EQ(poses, points.size());
  EXPECT_EQ(supports, points.size());
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
