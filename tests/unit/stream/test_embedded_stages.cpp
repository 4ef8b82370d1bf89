// A program embedding the library does what `rmodel fk --log` and `rmodel check-log` do, with
// the stages of rmodel/stream/fk_stream.hpp and rmodel/stream/log_check.hpp: the sample logs of
// share/rmodel/examples, whose results README.md shows (the command's output there is checked
// by ctest -R readme; tests/cli/test_cli_embedded_stages.cpp compares with the command itself).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "rmodel/stream/fk_stream.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/kinematics/forward_kinematics.hpp"
#include "rmodel/stream/log_check.hpp"
#include "test_support.hpp"

namespace {

std::string example(const std::string& file) {
  return (rmodel::test::source_dir() / "share/rmodel/examples" / file).string();
}

/// What FkStage hands on, copied out of the callback.
struct FkSeen {
  std::vector<double> pose;
  Eigen::Isometry3d hoof;
  std::int64_t stamp_ns;
  std::uint64_t number;
};

}  // namespace

TEST(EmbeddedFkStage, HoldsThePoseAndGivesTheFramesOfEachJointState) {
  const rmodel::Model model = rmodel::test::pony();
  namespace kin = rmodel::kinematics;
  const kin::KinematicModel km = kin::KinematicModel::from_model(model, kin::MimicJoints::from_pose);
  const std::size_t hoof = *km.find_body("front_left_hoof");
  std::vector<FkSeen> seen;
  rmodel::stream::FkStage stage(model, km, std::vector<double>(model.pose_size(), 0.0),
                                [&](const rmodel::stream::FkRecord& r) {
                                  seen.push_back({std::vector<double>(r.pose.begin(), r.pose.end()),
                                                  r.frames.frame(hoof), r.message.stamp().ns, r.number});
                                });
  rmodel::stream::CallbackSink none({});
  rmodel::stream::Pipeline pipeline(stage, none);
  auto reader = rmodel::io::MessageReader::open(example("fl.jsonl"));
  pipeline.run(reader);
  pipeline.finish();
  // fl.jsonl: three joint states and a support state (no record), as `rmodel fk --log` writes.
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(pipeline.summary().written, 3u);
  const auto hip = model.joint_index("front_left_hip");
  const auto knee = model.joint_index("front_left_knee");
  // The held pose: each state updates the joints it names, the others keep their values.
  const double expected[3][2] = {{0.2, -0.4}, {0.2, -0.5}, {0.3, -0.5}};
  const std::int64_t stamps[3] = {0, 10'000'000, 30'000'000};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(seen[i].number, i + 1);
    EXPECT_EQ(seen[i].stamp_ns, stamps[i]);
    EXPECT_EQ(seen[i].pose[hip], expected[i][0]);
    EXPECT_EQ(seen[i].pose[knee], expected[i][1]);
    // The frames are those of that pose.
    std::vector<double> q(model.pose_size(), 0.0);
    q[hip] = expected[i][0];
    q[knee] = expected[i][1];
    kin::Workspace ws(km);
    kin::forward_kinematics(km, ws, q);
    EXPECT_TRUE(seen[i].hoof.isApprox(ws.frame(hoof), 1e-15)) << i;
  }
  // README's `rmodel fk --sample --log fl.jsonl --links front_left_hoof -f csv`: x and z of the hoof.
  EXPECT_DOUBLE_EQ(seen[0].hoof.translation().x(), 0.15);
  EXPECT_DOUBLE_EQ(seen[1].hoof.translation().z(), -0.2822483680360217);
  EXPECT_DOUBLE_EQ(seen[2].hoof.translation().x(), 0.1383778948960466);
}

TEST(EmbeddedLogCheck, ChecksALogAsTheCommandDoes) {
  const rmodel::Model model = rmodel::test::pony();
  rmodel::LogCheckOptions options;
  options.max_gap = rmodel::Time{100'000'000};
  options.period = rmodel::Time{10'000'000};
  rmodel::LogChecker checker(model, options);
  auto reader = rmodel::io::MessageReader::open(example("walk.jsonl"));
  std::vector<std::string> streamed;
  int waits = 0;
  rmodel::LogCheckRun run;
  run.on_problem = [&](const rmodel::LogProblem& p) { streamed.push_back(std::to_string(p.line) + " " + p.code); };
  run.on_wait = [&] { ++waits; };
  (void)rmodel::check_log(checker, reader, run);
  // README's `rmodel check-log --sample walk.jsonl --max-gap 0.1 --period 0.01`: the problems
  // in log order, each handed on as it was found.
  const std::vector<std::string> expected = {"2 implied-velocity", "2 velocity-limit",   "3 position-limit",
                                             "3 implied-velocity", "3 unknown-joint",    "4 gap",
                                             "4 non-finite",       "5 stamp-backwards"};
  EXPECT_EQ(streamed, expected);
  ASSERT_EQ(checker.problems().size(), expected.size());
  EXPECT_EQ(checker.problems()[2].message, "joint 'neck_pitch': position 0.55 is outside its limits [-0.8, 0.5]");
  EXPECT_FALSE(checker.valid());
  EXPECT_EQ(checker.error_count(), 8u);
  EXPECT_GE(waits, 1);  // at least the end of the log
}

TEST(EmbeddedLogCheck, ReadErrorsReachTheChecker) {
  const rmodel::Model model = rmodel::test::pony();
  rmodel::LogChecker checker(model);
  std::istringstream in("{\"t\": 0, \"name\": [\"neck_pitch\"], \"position\": [0.1]}\nnot json\n");
  rmodel::io::MessageReader reader(in, "bad.jsonl", {.format = rmodel::io::parse_format("jsonl")});
  std::vector<rmodel::LogProblem> streamed;
  (void)rmodel::check_log(checker, reader, {.on_problem = [&](const rmodel::LogProblem& p) { streamed.push_back(p); }});
  ASSERT_EQ(streamed.size(), 1u);
  EXPECT_EQ(streamed[0].code, "read-error");
  EXPECT_EQ(streamed[0].line, 2u);
  EXPECT_EQ(checker.read_error_count(), 1u);
  EXPECT_EQ(checker.message_count(), 1u);
  EXPECT_FALSE(checker.valid());
}
