// Checking joint-state logs against a model: every kind of problem on crafted logs read by
// the real reader, the report budget, no allocation in steady state, and real robot data.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "alloc_counter.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/stream/log_check.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::sample;

using test::pony;

/// Runs a log text through the reader and a checker.
LogChecker check(const Model& model, const std::string& text, LogCheckOptions options = {},
                 io::Format format = io::parse_format("jsonl")) {
  std::istringstream in(text);
  io::ReaderOptions reader_options;
  reader_options.format = format;
  io::MessageReader reader(in, "log", reader_options);
  LogChecker checker(model, options);
  io::Message m;
  for (;;) {
    const auto status = reader.next(m);
    if (status == io::ReadStatus::End) break;
    if (status == io::ReadStatus::Error) checker.add_read_error(reader.error());
    else checker.add(m);
  }
  return checker;
}

std::vector<std::string> codes(const LogChecker& c) {
  std::vector<std::string> out;
  for (const auto& p : c.problems()) out.push_back(p.code);
  return out;
}

const JointLogStats& stats(const LogChecker& c, const Model& model, std::string_view joint) {
  return c.joints()[model.joint_index(joint)];
}

TEST(LogCheck, CleanLogIsValidWithStatistics) {
  const Model model = pony();
  const auto c = check(model, R"({"t": 0.0, "name": ["neck_pitch", "head_yaw"], "position": [0.1, -0.2], "velocity": [1, 0]}
{"t": 0.01, "name": ["neck_pitch", "head_yaw"], "position": [0.2, -0.3], "velocity": [-1.5, 0]}
{"t": 0.02, "name": ["tail_swing"], "position": [12.0]}
{"t": 0.02, "name": ["front_left"], "support": [1.0]}
)");
  EXPECT_TRUE(c.valid());
  EXPECT_TRUE(c.problems().empty());
  EXPECT_EQ(c.message_count(), 4U);
  EXPECT_EQ(c.joint_state_count(), 3U);
  EXPECT_EQ(c.first_stamp(), Time{0});
  EXPECT_EQ(c.last_stamp(), Time{20'000'000});
  const auto& neck = stats(c, model, "neck_pitch");
  EXPECT_EQ(neck.samples, 2U);
  EXPECT_EQ(neck.min_position, 0.1);
  EXPECT_EQ(neck.max_position, 0.2);
  EXPECT_EQ(neck.max_abs_velocity, 1.5);
  EXPECT_TRUE(std::isnan(neck.max_abs_implied_velocity));  // no period
  EXPECT_TRUE(std::isnan(stats(c, model, "jaw_slide").min_position));
  EXPECT_EQ(stats(c, model, "tail_swing").max_position, 12.0);  // continuous: no limits
}

TEST(LogCheck, EveryKindOfProblemWithItsLine) {
  const Model model = pony();
  LogCheckOptions options;
  options.max_gap = Time{500'000'000};
  const auto c = check(model, R"({"t": 0.0, "name": ["neck_pitch", "ear"], "position": [0, 0]}
{"t": 0.1, "name": ["neck_pitch", "head_yaw"], "position": [0]}
{"t": 0.1, "name": ["neck_pitch", "neck_pitch"], "position": [0.1, 0.2]}
{"t": 0.05, "name": ["neck_pitch"], "position": [0.1]}
{"t": 0.1, "name": ["neck_pitch"], "position": [0.1]}
this is not json
{"t": 1.0, "name": ["neck_pitch", "camera_mount"], "position": [0.6, 0]}
{"t": 1.1, "name": ["head_yaw"], "position": [null], "velocity": [2.5]}
{"t": 1.2, "name": ["neck_pitch", "ear"], "position": [-0.9, 1]}
)",
                       options);
  EXPECT_FALSE(c.valid());
  EXPECT_EQ(codes(c), (std::vector<std::string>{
                          "unknown-joint",    // line 1: ear
                          "array-size",       // line 2
                          "duplicate-joint",  // line 3
                          "stamp-backwards",  // line 4
                          "stamp-repeated",   // line 5: neck_pitch had t = 0.1 on line 3
                          "read-error",       // line 6
                          "gap",              // line 7: 0.1 → 1.0 (no joint-gap on top of it)
                          "position-limit",   // line 7: 0.6 > 0.5
                          "unknown-joint",    // line 7: camera_mount (fixed)
                          "non-finite",       // line 8: position null → NaN
                          "velocity-limit",   // line 8: 2.5 > 2
                          "position-limit",   // line 9: -0.9 < -0.8; 'ear' again is only counted
                      }));
  const auto& p = c.problems();
  EXPECT_EQ(p[0].line, 1U);
  EXPECT_EQ(p[0].message, "joint 'ear' is not a joint of the URDF");
  EXPECT_EQ(p[1].message, "'position' has 1 values for 2 names; the message is skipped");
  EXPECT_EQ(p[2].joint, "neck_pitch");
  EXPECT_EQ(p[3].message, "joint 'neck_pitch': time goes back from 0.1 to 0.05");
  EXPECT_EQ(p[5].line, 6U);
  EXPECT_EQ(p[6].message, "no message for 0.9 s (t = 0.1 to 1), longer than 0.5 s");
  EXPECT_EQ(p[7].message, "joint 'neck_pitch': position 0.6 is outside its limits [-0.8, 0.5]");
  EXPECT_EQ(p[8].message, "joint 'camera_mount' is fixed, not part of the full pose");
  EXPECT_EQ(p[9].message, "joint 'head_yaw': position is nan");
  EXPECT_EQ(p[10].message, "joint 'head_yaw': velocity 2.5 rad/s, its magnitude above the limit 2");
  EXPECT_EQ(c.error_count(), 13U);  // the second 'ear' is counted, not reported again
  ASSERT_EQ(c.unknown_joints().size(), 2U);
  EXPECT_EQ(c.unknown_joints()[0].name, "ear");
  EXPECT_EQ(c.unknown_joints()[0].count, 2U);
  EXPECT_EQ(c.unknown_joints()[0].first_line, 1U);
  EXPECT_EQ(stats(c, model, "neck_pitch").errors, 5U);
  EXPECT_EQ(c.read_error_count(), 1U);
}

TEST(LogCheck, JointGapWhileOthersArePublished) {
  const Model model = pony();
  LogCheckOptions options;
  options.max_gap = Time{150'000'000};
  std::string log;
  for (int i = 0; i <= 5; ++i)
    log += "{\"t\": " + std::to_string(i * 0.1) + ", \"name\": [\"neck_pitch\"" + (i == 0 || i == 5 ? ", \"head_yaw\"" : "") +
           "], \"position\": [0" + (i == 0 || i == 5 ? ", 0" : "") + "]}\n";
  const auto c = check(model, log, options);
  EXPECT_EQ(codes(c), (std::vector<std::string>{"joint-gap"}));
  EXPECT_EQ(c.problems()[0].joint, "head_yaw");
  EXPECT_EQ(c.problems()[0].line, 6U);
}

TEST(LogCheck, PeriodImpliesVelocitiesAndAccelerations) {
  const Model model = pony();
  LogCheckOptions options;
  options.period = Time{10'000'000};
  options.max_acceleration = 100.0;
  // head_yaw (velocity limit 2): 0 → 0.01 → 0.05 in 10 ms steps: 1 rad/s then 4 rad/s.
  const auto c = check(model, R"({"t": 0.00, "name": ["head_yaw"], "position": [0.00]}
{"t": 0.01, "name": ["head_yaw"], "position": [0.01]}
{"t": 0.02, "name": ["head_yaw"], "position": [0.05]}
{"t": 0.04, "name": ["head_yaw"], "position": [0.07]}
)",
                       options);
  const auto& st = stats(c, model, "head_yaw");
  EXPECT_NEAR(st.max_abs_implied_velocity, 4.0, 1e-9);
  // Accelerations: (4 - 1) / 0.01 = 300; then (1 - 4) / 0.02 (a sample was skipped) = 150.
  EXPECT_NEAR(st.max_abs_acceleration, 300.0, 1e-6);
  EXPECT_EQ(codes(c), (std::vector<std::string>{"implied-velocity", "acceleration", "acceleration"}));
  EXPECT_EQ(c.problems()[0].line, 3U);
  // Without a bound, accelerations are only reported in the statistics.
  options.max_acceleration = 0;
  EXPECT_EQ(codes(check(model, "{\"t\": 0, \"name\": [\"head_yaw\"], \"velocity\": [0]}\n"
                               "{\"t\": 0.01, \"name\": [\"head_yaw\"], \"velocity\": [1.5]}\n",
                        options)),
            std::vector<std::string>{});
}

TEST(LogCheck, ToleranceAndInfinitiesFromCsv) {
  const Model model = pony();
  LogCheckOptions options;
  options.tolerance = 0.05;
  const auto c = check(model, "t,neck_pitch,head_yaw.velocity,jaw_slide.effort\n0,0.52,2.04,inf\n0.1,0.56,2.1,0\n",
                       options, io::parse_format("csv"));
  EXPECT_EQ(codes(c), (std::vector<std::string>{"non-finite", "position-limit", "velocity-limit"}));
  EXPECT_EQ(c.problems()[0].message, "joint 'jaw_slide': effort is inf");
  EXPECT_EQ(c.problems()[1].line, 3U);
}

TEST(LogCheck, UnstampedLogsWarnOnceAndStayValid) {
  const Model model = pony();
  const auto c = check(model, "{\"name\": [\"neck_pitch\"], \"position\": [0]}\n{\"name\": [\"neck_pitch\"], \"position\": [0]}\n");
  EXPECT_TRUE(c.valid());
  EXPECT_EQ(c.warning_count(), 1U);
  EXPECT_EQ(codes(c), (std::vector<std::string>{"no-stamp"}));
  EXPECT_FALSE(c.first_stamp().has_value());
}

TEST(LogCheck, ReportBudgetKeepsMemoryBounded) {
  const Model model = pony();
  LogCheckOptions options;
  options.max_reports = 3;
  std::string log;
  for (int i = 0; i < 100; ++i)
    log += "{\"t\": " + std::to_string(i) + ", \"name\": [\"neck_pitch\", \"head_yaw\"], \"position\": [1, 5]}\n";
  const auto c = check(model, log, options);
  EXPECT_EQ(c.error_count(), 200U);
  EXPECT_EQ(c.problems().size(), 6U);  // 3 per joint
  EXPECT_EQ(c.unreported(), 194U);
  EXPECT_EQ(stats(c, model, "head_yaw").errors, 100U);
}

/// problem_counts() as "code count" items.
std::vector<std::string> counted(const LogChecker& c) {
  std::vector<std::string> out;
  for (const LogCodeCount& n : c.problem_counts()) out.push_back(n.code + " " + std::to_string(n.count));
  return out;
}

TEST(LogCheck, ProblemsAreCountedByCodeKeptOrNot) {
  const Model model = pony();
  LogCheckOptions options;
  options.max_reports = 2;
  // 30 messages: neck_pitch 1 (above 0.5) in each, head_yaw at 5 rad/s (above 2) in every
  // third, a stamp repeated by the last message, one line that is not JSON.
  std::string log;
  for (int i = 0; i < 30; ++i)
    log += fmt::format("{{\"t\": {}, \"name\": [\"neck_pitch\", \"head_yaw\"], \"position\": [1, 0], "
                       "\"velocity\": [0, {}]}}\n",
                       i == 29 ? 28 : i, i % 3 == 0 ? 5 : 0);
  log += "not json\n";
  const auto c = check(model, log, options);
  // The catalogue's order: read-error, ..., stamp-repeated, ..., position-limit, velocity-limit.
  EXPECT_EQ(counted(c), (std::vector<std::string>{"read-error 1", "stamp-repeated 2", "position-limit 30",
                                                  "velocity-limit 10"}));
  EXPECT_EQ(c.error_count(), 43U);
  EXPECT_EQ(c.problems().size(), 7U);  // 2 per code and joint, 1 read error
  EXPECT_TRUE(check(model, "{\"t\": 0, \"name\": [\"neck_pitch\"], \"position\": [0]}\n").problem_counts().empty());
}

TEST(LogCheck, SteadyStateAllocatesNothing) {
  const Model model = pony();
  LogCheckOptions options;
  options.max_gap = Time{1'000'000'000};
  options.period = Time{10'000'000};
  options.max_reports = 2;
  LogChecker checker(model, options);
  io::Message m;
  m.joint.name = model.joint_names();
  m.joint.position.assign(model.pose_size(), 0.0);
  m.joint.velocity.assign(model.pose_size(), 0.0);
  m.joint.position[model.joint_index("neck_pitch")] = 3.0;  // out of limits: errors past the budget too
  for (int i = 0; i < 5; ++i) {
    m.joint.stamp = Time{10'000'000LL * i};
    checker.add(m);
  }
  test::AllocationCounter counter;
  for (int i = 5; i < 1000; ++i) {
    m.joint.stamp = Time{10'000'000LL * i};
    checker.add(m);
  }
  EXPECT_EQ(counter.count(), 0U);
  EXPECT_EQ(checker.error_count(), 1000U);
}

TEST(LogCheck, DynamicsInSteadyStateAllocateNothing) {
  const Model model = pony();
  for (const bool floating : {false, true}) {
    LogCheckOptions options;
    options.dynamics = true;
    options.floating_base = floating;
    LogChecker checker(model, options);
    io::Message m;
    m.joint.name = model.joint_names();
    m.joint.position.assign(model.pose_size(), 0.01);  // within every limit: no report to keep
    m.joint.velocity.assign(model.pose_size(), 0.05);
    m.joint.effort.assign(model.pose_size(), 0.0);
    io::Message support;
    support.kind = io::MessageKind::Support;
    support.support.name = {"front_left", "rear_right"};
    for (int i = 0; i < 5; ++i) {
      m.joint.stamp = rmodel::Time{i * std::int64_t{10'000'000}};
      checker.add(m);
      checker.add(support);
    }
    test::AllocationCounter counter;
    for (int i = 5; i < 500; ++i) {
      m.joint.stamp = rmodel::Time{i * std::int64_t{10'000'000}};
      checker.add(m);
      if (i % 7 == 0) checker.add(support);
    }
    EXPECT_EQ(counter.count(), 0U) << (floating ? "floating" : "fixed");
    EXPECT_EQ(checker.error_count(), 0U);
    EXPECT_EQ(checker.joints().front().effort_samples, 500U);
    EXPECT_TRUE(std::isfinite(checker.joints().front().effort_residual_rms));
  }
}

// The documented rule: joint states were given and not one named a joint of the full pose.
TEST(LogCheck, ALogNamingNoJointOfTheModelIsOneMoreError) {
  const Model model = pony();
  auto other = check(model, R"({"t": 0.0, "name": ["wing", "horn"], "position": [1, 2]}
{"t": 0.1, "name": ["wing"], "position": [3]}
)");
  ASSERT_EQ(codes(other), (std::vector<std::string>{"unknown-joint", "unknown-joint"}));
  other.finish();
  ASSERT_EQ(codes(other), (std::vector<std::string>{"unknown-joint", "unknown-joint", "no-model-joint"}));
  const LogProblem& p = other.problems().back();
  EXPECT_EQ(p.severity, Severity::error);
  EXPECT_EQ(p.line, 0U);  // the whole log
  EXPECT_EQ(p.joint, "");
  EXPECT_EQ(p.message,
            "no joint of the model appears in this input: its 2 joint states name only 'wing', 'horn' "
            "(a log of another robot?)");
  EXPECT_EQ(other.error_count(), 4U);  // 'wing' twice, 'horn' once, and the whole log
  other.finish();  // once only
  EXPECT_EQ(other.error_count(), 4U);

  // One model joint anywhere in the log, no joint state at all, or an empty log: not this error.
  auto some = check(model, R"({"t": 0.0, "name": ["wing"], "position": [1]}
{"t": 0.1, "name": ["wing", "neck_pitch"], "position": [1, 0.1]}
)");
  some.finish();
  EXPECT_EQ(codes(some), (std::vector<std::string>{"unknown-joint"}));
  auto support_only = check(model, R"({"t": 0.0, "name": ["front_left"], "support": [1.0]})" "\n");
  support_only.finish();
  EXPECT_TRUE(support_only.valid());
  EXPECT_TRUE(support_only.problems().empty());
  auto empty = check(model, "");
  empty.finish();
  EXPECT_EQ(codes(empty), (std::vector<std::string>{"read-error"}));  // "empty input: no messages"
}

TEST(LogCheck, BadOptions) {
  const Model model = pony();
  LogCheckOptions bad;
  bad.period = Time{-1};
  EXPECT_THROW(LogChecker(model, bad), InvalidArgument);
  bad = {};
  bad.max_reports = 0;
  EXPECT_THROW(LogChecker(model, bad), InvalidArgument);
}

TEST(LogCheck, RealRobotStatesAndTrajectories) {
  RMODEL_REQUIRE_FIXTURES();
  const Model model = Model::load({fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(),
                                   fixture("sweetie_bot_proto2/kinematic_chains.cpf").string(), std::nullopt});
  for (const char* log : {"joint_state/nominal.json", "joint_state/crouched.json", "joint_state/lying.json",
                          "joint_trajectories/greeting.json", "joint_trajectories/hoof_wave.json"}) {
    io::MessageReader reader = io::MessageReader::open(fixture(std::string("sweetie_bot_proto2/") + log).string());
    LogChecker checker(model);
    io::Message m;
    while (reader.next(m) != io::ReadStatus::End) checker.add(m);
    EXPECT_TRUE(checker.valid()) << log << ": " << (checker.problems().empty() ? "" : checker.problems()[0].message);
    EXPECT_GT(checker.joint_state_count(), 0U) << log;
  }
}

}  // namespace
}  // namespace rmodel
