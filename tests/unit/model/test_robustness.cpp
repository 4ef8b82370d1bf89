// Structures that break naive recursive code: a 10 000-link chain loads, converts to KDL
// and runs forward kinematics (against the analytic answer); rings, self-parenting links and
// deeply nested XML fail with an error that names the place. Also the reader-level guards:
// duplicate keys, joints named twice, characters that are not UTF-8 XML.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "rmodel/stream/aggregator.hpp"
#include "rmodel/check/check.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/stream/stream_filter.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/model/semantics.hpp"

namespace rmodel {
namespace {

constexpr int kDepth = 10000;

/// l0 → l1 → … → l<links>, each revolute joint 1 cm above the previous about y.
std::string line_of_links(int links) {
  std::string urdf = "<robot name=\"deep\">\n<link name=\"l0\"/>\n";
  for (int i = 1; i <= links; ++i)
    urdf += "<link name=\"l" + std::to_string(i) + "\"/><joint name=\"j" + std::to_string(i) +
            "\" type=\"revolute\"><parent link=\"l" + std::to_string(i - 1) + "\"/><child link=\"l" +
            std::to_string(i) +
            "\"/><origin xyz=\"0 0 0.01\"/><axis xyz=\"0 1 0\"/>"
            "<limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/></joint>\n";
  return urdf + "</robot>\n";
}

TEST(Robustness, TenThousandLinksInALineLoadAndRunKinematics) {
  const std::string urdf = line_of_links(kDepth);
  EXPECT_FALSE(check_model_text(urdf, "deep.urdf", nullptr, "", std::nullopt).has_errors());
  const Model model = Model::from_urdf_string(urdf, "deep.urdf");
  ASSERT_EQ(model.pose_size(), static_cast<std::size_t>(kDepth));
  EXPECT_EQ(model.kdl_tree().getNrOfSegments(), static_cast<unsigned>(kDepth));
  const Model copy = model;  // copies share the immutable model
  EXPECT_EQ(copy.pose_size(), model.pose_size());

  const auto kinematic = kinematics::KinematicModel::from_model(model);
  kinematics::Workspace workspace(kinematic);
  // Straight up: the tip is kDepth centimetres above the root.
  std::vector<double> q(kinematic.pose_size(), 0.0);
  kinematics::forward_kinematics(kinematic, workspace, q);
  const auto tip = kinematic.find_body("l" + std::to_string(kDepth));
  ASSERT_TRUE(tip);
  EXPECT_NEAR(workspace.frame(*tip).translation().z(), kDepth * 0.01, 1e-9);
  // Bend only the first joint by θ: the whole line tilts, tip at L·(sin θ, 0, cos θ)
  // (+ the first 1 cm, which is below the joint).
  const double theta = 0.3;
  const auto first = model.find_joint_index("j1");
  ASSERT_TRUE(first);
  q[*first] = theta;
  kinematics::forward_kinematics(kinematic, workspace, q);
  const double above = (kDepth - 1) * 0.01;
  EXPECT_NEAR(workspace.frame(*tip).translation().x(), above * std::sin(theta), 1e-9);
  EXPECT_NEAR(workspace.frame(*tip).translation().z(), 0.01 + above * std::cos(theta), 1e-9);
}

TEST(Robustness, ARingOfTenThousandLinksIsAKinematicLoop) {
  std::string urdf = line_of_links(kDepth);
  urdf.replace(urdf.rfind("</robot>"), 8,
               "<joint name=\"close\" type=\"fixed\"><parent link=\"l" + std::to_string(kDepth) +
                   "\"/><child link=\"l0\"/></joint>\n</robot>");
  const Diagnostics report = check_model_text(urdf, "ring.urdf", nullptr, "", std::nullopt);
  ASSERT_TRUE(report.has_errors());
  bool loop = false;
  for (const auto& d : report.items) loop = loop || d.code == "kinematic-loop" || d.code == "no-root";
  EXPECT_TRUE(loop);
  EXPECT_THROW((void)Model::from_urdf_string(urdf, "ring.urdf"), Error);
}

TEST(Robustness, SelfParentingLinkNamesItsJoint) {
  const std::string urdf =
      "<robot name=\"r\">\n<link name=\"a\"/><link name=\"b\"/>\n"
      "<joint name=\"ab\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
      "<joint name=\"bb\" type=\"continuous\"><parent link=\"b\"/><child link=\"b\"/></joint>\n</robot>\n";
  try {
    (void)Model::from_urdf_string(urdf, "self.urdf");
    FAIL() << "a link parenting itself must not load";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.where().line, 4);
    EXPECT_NE(std::string(e.what()).find("'bb'"), std::string::npos) << e.what();
  }
}

TEST(Robustness, DeeplyNestedXmlIsAParseError) {
  std::string deep = "<robot name=\"r\">\n";
  for (int i = 0; i < 100000; ++i) deep += "<a>";
  EXPECT_TRUE(check_model_text(deep, "nested.urdf", nullptr, "", std::nullopt).has_errors());
  EXPECT_THROW((void)parse_cpf("<properties>" + deep, "nested.cpf"), ParseError);
  EXPECT_THROW((void)parse_srdf(deep, "nested.srdf"), ParseError);
}

TEST(Robustness, BytesThatAreNotUtf8XmlAreRejectedWithTheirLine) {
  const std::string bad_utf8 = "<robot name=\"r\">\n<link name=\"\xC3\x28\"/>\n</robot>\n";
  const std::string nul = std::string("<robot name=\"r\">\n\n<link name=\"a\0\"/>\n</robot>\n", 43);
  for (const auto& [text, line] : {std::pair{bad_utf8, 2}, std::pair{nul, 3}}) {
    try {
      (void)Model::from_urdf_string(text, "bytes.urdf");
      ADD_FAILURE() << "loaded";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("bytes.urdf:" + std::to_string(line) + ": malformed XML: byte 0x"),
                std::string::npos)
          << e.what();
    }
    EXPECT_THROW((void)parse_srdf(text, "bytes.srdf"), ParseError);
  }
  // Valid multi-byte UTF-8 (a degree sign, a CJK character, an emoji) is fine.
  EXPECT_NO_THROW((void)Model::from_urdf_string(
      "<robot name=\"r\xC2\xB0\xE6\x9C\xBA\xF0\x9F\xA4\x96\">\n<link name=\"a\"/>\n</robot>\n", "ok.urdf"));
}

TEST(Robustness, DuplicateJsonKeysAreErrorsInEveryJsonReader) {
  std::istringstream in(
      "{\"name\":[\"a\"],\"position\":[1],\"position\":[2]}\n"
      "{\"t\":1,\"header\":{\"stamp\":{\"secs\":1,\"sec\":2}},\"name\":[\"a\"],\"position\":[1]}\n"
      "{\"name\":[\"a\"],\"position\":[3]}\n");
  io::MessageReader reader(in, "log.jsonl", {.format = io::parse_format("jsonl")});
  io::Message m;
  ASSERT_EQ(reader.next(m), io::ReadStatus::Error);
  EXPECT_EQ(reader.error().to_string(reader.source()), "log.jsonl:1: duplicate key 'position'");
  ASSERT_EQ(reader.next(m), io::ReadStatus::Error);
  EXPECT_NE(reader.error().reason.find("duplicate"), std::string::npos) << reader.error().reason;
  ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
  EXPECT_EQ(m.joint.position, std::vector<double>{3});

  try {
    (void)parse_semantics_json("{\n  \"chains\": [],\n  \"groups\": [],\n  \"chains\": []\n}\n", "dup.json");
    FAIL() << "a duplicate key must not parse";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.where().line, 4);
    EXPECT_NE(e.message().find("duplicate key 'chains'"), std::string::npos) << e.message();
  }
}

TEST(Robustness, AJointNamedTwiceIsRejectedByTheAggregatorAndTheFilter) {
  const Model model = Model::load({sample_model_dir() + "/pony.urdf", sample_model_dir() + "/pony.json", {}});
  Aggregator aggregator(model);
  std::vector<double> published;
  stream::CallbackSink sink([&](const JointState& pose, std::optional<std::int64_t>) {
    published.push_back(pose.position[*model.find_joint_index("head_yaw")]);
  });
  std::vector<std::string> events;
  stream::Pipeline pipeline(aggregator, sink, [&](const stream::Event& e) { events.emplace_back(e.text); });
  io::Message twice_message;
  JointState& twice = twice_message.joint;
  twice.name = {"head_yaw", "neck_pitch", "head_yaw"};
  twice.position = {0.1, 0.2, 0.3};
  pipeline.push(twice_message);
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0], "message rejected: joint 'head_yaw' is named twice (elements 1 and 3)");
  EXPECT_EQ(pipeline.summary().rejected, 1U);
  // Nothing of the rejected message was applied; the next message is taken as usual.
  EXPECT_TRUE(published.empty());
  EXPECT_EQ(aggregator.pose().position[*model.find_joint_index("neck_pitch")], 0.0);
  io::Message once_message;
  JointState& once = once_message.joint;
  once.name = {"head_yaw"};
  once.position = {0.4};
  pipeline.push(once_message);
  EXPECT_EQ(published, std::vector<double>{0.4});

  filters::StreamFilter filter("exponential", {{"tau", 0.1}});
  JointState copy = twice;
  EXPECT_EQ(filter.apply(copy), filters::StreamFilterStatus::repeated_name);
  EXPECT_EQ(filter.repeated_element(), 2U);
  EXPECT_EQ(copy.position, twice.position);  // untouched
  EXPECT_EQ(filter.apply(once), filters::StreamFilterStatus::filtered);
}

}  // namespace
}  // namespace rmodel
