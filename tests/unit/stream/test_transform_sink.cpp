// stream::TransformSink and the MCAP writer's /tf, /tf_static and /robot_description (issue 25,
// point 4), read back by rmodel's own readers: the joint states are unchanged by what goes
// beside them, io::robot_description finds the URDF written, log-info counts every channel,
// each joint's transform equals F_parent⁻¹ · F_child of forward kinematics (an independent
// computation: the sink composes origin and motion per joint), and writing a pose's
// transforms allocates nothing once warm. Foxglove's own decoding is tests/oracle/.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alloc_counter.hpp"
#include "rmodel/io/bag.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/stream/transform_stream.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;

/// A few partial joint states of the sample robot.
std::vector<JointState> pony_states() {
  std::vector<JointState> out;
  for (int k = 0; k < 20; ++k) {
    JointState s;
    s.stamp = Time{1'700'000'000'000'000'000 + k * 10'000'000LL};
    s.name = {"neck_pitch", "jaw_slide", "tail_swing", "front_left_knee", "unknown_joint"};
    s.position = {0.05 * k, 0.001 * k, -0.1 * k, 0.02 * k, 1.0};
    out.push_back(s);
  }
  return out;
}

TEST(TransformSink, WritesBesideTheJointStatesWhatTheReadersFind) {
  const Model model = test::pony();
  const fs::path dir = test::make_temp_dir("rmodel-tf-sink-");
  const fs::path path = dir / "tf.mcap";
  const auto states = pony_states();
  {
    io::WriterOptions options;
    options.format = io::parse_format("mcap");
    options.mcap_chunk_size = 2048;  // several chunks
    io::MessageWriter writer = io::MessageWriter::open(path.string(), options);
    stream::WriterSink sink(writer);
    stream::TransformSink tf(sink, writer, model);
    for (const auto& s : states) tf.joint_state(s, std::nullopt);
    writer.close();
  }
  // The joint states read back as written.
  const auto read = test::read_log(path.string());
  ASSERT_EQ(read.messages.size(), states.size());
  for (std::size_t i = 0; i < states.size(); ++i) EXPECT_EQ(read.messages[i].joint, states[i]) << i;
  EXPECT_TRUE(read.errors.empty());
  // The model, found where the reader puts it: after the first joint state.
  const auto found = io::robot_description(path.string());
  ASSERT_TRUE(found);
  EXPECT_EQ(found->urdf, model.urdf_text());
  EXPECT_EQ(found->type, "std_msgs/msg/String");
  EXPECT_EQ(found->message, 2U);
  EXPECT_EQ(found->log_time_ns, states.front().stamp.ns);
  // Its semantics beside it (the sample's are rmodel JSON): what fixes the full pose's order.
  ASSERT_TRUE(found->semantics);
  EXPECT_EQ(found->semantics->format, io::SemanticsText::rmodel_json);
  EXPECT_EQ(found->semantics->topic, "/rmodel/semantics");
  EXPECT_EQ(found->semantics->type, "std_msgs/msg/String");
  EXPECT_EQ(found->semantics->message, 3U);
  EXPECT_EQ(found->semantics->log_time_ns, states.front().stamp.ns);
  EXPECT_TRUE(parse_semantics_json(found->semantics->text, "log").same_content(model.semantics()));
  // Every channel counted.
  const io::LogInfo info = io::read_log_info(path.string());
  EXPECT_TRUE(info.problems.empty());
  std::map<std::string, std::uint64_t> counts;
  for (const auto& t : info.topics) counts[t.name + " " + t.type] = t.messages;
  const std::map<std::string, std::uint64_t> want = {{"/joint_states sensor_msgs/msg/JointState", states.size()},
                                                     {"/tf tf2_msgs/msg/TFMessage", states.size()},
                                                     {"/tf_static tf2_msgs/msg/TFMessage", 1},
                                                     {"/robot_description std_msgs/msg/String", 1},
                                                     {"/rmodel/semantics std_msgs/msg/String", 1}};
  EXPECT_EQ(counts, want);
  fs::remove_all(dir);
}

TEST(TransformSink, AnSrdfModelsSemanticsAreWrittenAsReadOnMoveItsTopic) {
  const fs::path examples = test::source_dir() / "share/rmodel/examples";
  const Model model = Model::load({(examples / "robot.urdf").string(), (examples / "robot.srdf").string(), std::nullopt});
  ASSERT_TRUE(model.has_semantics());
  const fs::path dir = test::make_temp_dir("rmodel-tf-sink-");
  const fs::path path = dir / "srdf.mcap";
  {
    io::WriterOptions options;
    options.format = io::parse_format("mcap");
    io::MessageWriter writer = io::MessageWriter::open(path.string(), options);
    stream::WriterSink sink(writer);
    stream::TransformSink tf(sink, writer, model);
    JointState s;
    s.stamp = Time{5'000'000'000};
    tf.joint_state(s, std::nullopt);
    writer.close();
  }
  const auto found = io::robot_description(path.string());
  ASSERT_TRUE(found);
  ASSERT_TRUE(found->semantics);
  EXPECT_EQ(found->semantics->format, io::SemanticsText::srdf);
  EXPECT_EQ(found->semantics->topic, "/robot_description_semantic");
  EXPECT_EQ(found->semantics->text, test::read_file(examples / "robot.srdf"));  // the file, byte for byte
  fs::remove_all(dir);
}

TEST(TransformSink, JointTransformIsTheRelativeFrameOfForwardKinematics) {
  const Model model = test::pony();
  const auto km = kinematics::KinematicModel::from_model(model, kinematics::MimicJoints::from_pose);
  kinematics::Workspace ws(km);
  std::vector<double> q(km.pose_size());
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = 0.3 * static_cast<double>(i % 7) - 0.9;
  kinematics::forward_kinematics(km, ws, q);
  const auto bodies = km.bodies();
  for (std::size_t b = 1; b < bodies.size(); ++b) {
    const Eigen::Isometry3d want = ws.frame(static_cast<std::size_t>(bodies[b].parent)).inverse() * ws.frame(b);
    const Eigen::Isometry3d got = kinematics::joint_transform(bodies[b], q);
    EXPECT_LE((got.matrix() - want.matrix()).cwiseAbs().maxCoeff(), 1e-14) << bodies[b].joint;
  }
}

TEST(TransformSink, AllocatesNothingOnceWarm) {
  const Model model = test::pony();
  std::string bytes;
  io::WriterOptions options;
  options.format = io::parse_format("mcap");
  io::MessageWriter writer(bytes, options);
  stream::WriterSink sink(writer);
  stream::TransformSink tf(sink, writer, model);
  const auto states = pony_states();
  bytes.reserve(std::size_t{8} << 20);
  for (std::size_t i = 0; i < 3; ++i) tf.joint_state(states[i], std::nullopt);
  test::AllocationCounter counter;
  for (std::size_t i = 3; i < states.size(); ++i) tf.joint_state(states[i], std::nullopt);
  EXPECT_EQ(counter.count(), 0U);
}

}  // namespace
}  // namespace rmodel
