// Text that ROS users have: `ros2 topic echo` / `rostopic echo` YAML, `rostopic echo -p` CSV and
// PlotJuggler-style CSV with topic-prefixed columns. The samples are written by hand from the
// formats as ros2cli (PyYAML block and flow style, `.nan`/`.inf`), rostopic (genpy's
// `secs`/`nsecs`, `-p` columns `%time,field.name0,...`) and PlotJuggler (`__time`,
// `/topic/<joint>/<field>`) print them; the expected values are the ones written in them.

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "alloc_counter.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/stream/stream.hpp"
#include "test_support.hpp"

namespace io = rmodel::io;
using rmodel::Time;

namespace {

using Item = rmodel::test::ReadItem;

std::vector<Item> read_log_text(const std::string& text, io::ReaderOptions o, const std::string& source = "<in>") {
  return rmodel::test::read_items(text, std::move(o), source);
}

std::vector<Item> read_yaml(const std::string& text, io::Format f = io::parse_format("yaml")) {
  return read_log_text(text, {.format = f});
}

using Names = std::vector<std::string>;
using Values = std::vector<double>;

// ros2 topic echo /joint_states (Humble..Jazzy, block style), two messages.
const std::string kRos2Echo =
    "header:\n"
    "  stamp:\n"
    "    sec: 1700000000\n"
    "    nanosec: 250000000\n"
    "  frame_id: ''\n"
    "name:\n"
    "- neck_pitch\n"
    "- head_yaw\n"
    "position:\n"
    "- 0.1\n"
    "- -0.25\n"
    "velocity: []\n"
    "effort: []\n"
    "---\n"
    "header:\n"
    "  stamp:\n"
    "    sec: 1700000000\n"
    "    nanosec: 260000001\n"
    "  frame_id: base\n"
    "name:\n"
    "- neck_pitch\n"
    "- head_yaw\n"
    "position:\n"
    "- .nan\n"
    "- 1.0e-05\n"
    "velocity:\n"
    "- .inf\n"
    "- -.inf\n"
    "effort: []\n"
    "---\n";

}  // namespace

TEST(IoRosYaml, Ros2EchoBlockStyle) {
  const auto items = read_yaml(kRos2Echo);
  ASSERT_EQ(items.size(), 2u);
  for (const auto& it : items) ASSERT_EQ(it.status, io::ReadStatus::Ok) << it.error.reason;
  const io::Message& a = items[0].message;
  EXPECT_EQ(a.kind, io::MessageKind::Joint);
  EXPECT_EQ(a.joint.name, (Names{"neck_pitch", "head_yaw"}));
  EXPECT_EQ(a.joint.position, (Values{0.1, -0.25}));
  EXPECT_TRUE(a.joint.velocity.empty());
  EXPECT_TRUE(a.joint.effort.empty());
  EXPECT_TRUE(a.has_stamp);
  EXPECT_EQ(a.joint.stamp, Time{1700000000'250000000});  // sec·10⁹ + nanosec, exactly
  EXPECT_EQ(a.line, 1u);
  const io::Message& b = items[1].message;
  EXPECT_EQ(b.line, 15u);
  EXPECT_EQ(b.joint.stamp, Time{1700000000'260000001});
  ASSERT_EQ(b.joint.position.size(), 2u);
  EXPECT_TRUE(std::isnan(b.joint.position[0]));
  EXPECT_EQ(b.joint.position[1], 1e-5);
  EXPECT_EQ(b.joint.velocity, (Values{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}));
}

TEST(IoRosYaml, Ros2EchoFlowStyleBothShapes) {
  // PyYAML default_flow_style=None (leaf lists in flow) and True (the whole message in flow).
  const std::string leaf =
      "header:\n  stamp:\n    sec: 3\n    nanosec: 500000000\n  frame_id: ''\n"
      "name: [a, 'yes', \"c d\"]\nposition: [1.0, 2.0, 3.0]\nvelocity: []\neffort: [0.5, .nan, -1.0]\n---\n";
  const std::string whole =
      "{header: {stamp: {sec: 3, nanosec: 500000000}, frame_id: ''}, name: [a, 'yes', \"c d\"],\n"
      "  position: [1.0, 2.0, 3.0], velocity: [], effort: [0.5, .nan, -1.0]}\n---\n";
  for (const std::string& text : {leaf, whole}) {
    const auto items = read_yaml(text, io::Format{});  // detected by content
    ASSERT_EQ(items.size(), 1u) << text;
    ASSERT_EQ(items[0].status, io::ReadStatus::Ok) << items[0].error.reason;
    const io::Message& m = items[0].message;
    EXPECT_EQ(m.joint.name, (Names{"a", "yes", "c d"}));
    EXPECT_EQ(m.joint.position, (Values{1, 2, 3}));
    EXPECT_TRUE(m.joint.velocity.empty());
    ASSERT_EQ(m.joint.effort.size(), 3u);
    EXPECT_EQ(m.joint.effort[0], 0.5);
    EXPECT_TRUE(std::isnan(m.joint.effort[1]));
    EXPECT_EQ(m.joint.stamp, Time{3'500'000'000});
  }
}

TEST(IoRosYaml, Ros1RostopicEcho) {
  // genpy prints `header: ` with a trailing blank, inline lists, nan/inf without dots.
  const std::string text =
      "header: \n  seq: 42\n  stamp: \n    secs: 1500000000\n    nsecs:  12345678\n  frame_id: ''\n"
      "name: [neck_pitch, head_yaw]\nposition: [0.1, nan]\nvelocity: [inf, -inf]\neffort: []\n---\n";
  const auto items = read_yaml(text, io::Format{});
  ASSERT_EQ(items.size(), 1u);
  ASSERT_EQ(items[0].status, io::ReadStatus::Ok) << items[0].error.reason;
  const io::Message& m = items[0].message;
  EXPECT_EQ(m.joint.name, (Names{"neck_pitch", "head_yaw"}));
  EXPECT_EQ(m.joint.position[0], 0.1);
  EXPECT_TRUE(std::isnan(m.joint.position[1]));
  EXPECT_EQ(m.joint.velocity[0], std::numeric_limits<double>::infinity());
  EXPECT_EQ(m.joint.stamp, Time{1500000000'012345678});
}

TEST(IoRosYaml, LastDocumentWithoutSeparatorAndEmptyDocuments) {
  const auto items = read_yaml("---\n---\nname: [a]\nposition: [1]\n---\n# a comment\n---\nname: [b]\nposition: [2]\n");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].message.joint.name, (Names{"a"}));
  EXPECT_FALSE(items[0].message.has_stamp);
  EXPECT_EQ(items[1].message.joint.name, (Names{"b"}));
  EXPECT_EQ(items[1].message.line, 8u);
}

TEST(IoRosYaml, ErrorsNameTheLineAndTheNextDocumentIsRead) {
  const std::string text =
      "name:\n- a\n- b\nposition:\n- 0.1\n- oops\n---\n"           // line 6: a bad number
      "name: [a]\nposition: '<sequence type: double, length: 1>'\n---\n"  // line 9: --no-arr
      "name: [a]\nposition: [1]\nvelocity: [1, '...']\n---\n"      // line 13: truncated list
      "header:\n  stamp:\n    sec: x\n---\n"                        // line 17
      "position: [1]\n---\n"                                        // line 19: no name
      "name: [a]\n  position: [1]\n---\n"                           // line 22: indentation
      "name: [a, b]\nposition: [3, 4]\n";
  const auto items = read_yaml(text);
  ASSERT_EQ(items.size(), 7u);
  const std::size_t lines[] = {6, 9, 13, 17, 19, 22};
  for (std::size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(items[k].status, io::ReadStatus::Error) << k;
    EXPECT_EQ(items[k].error.line, lines[k]) << items[k].error.reason;
  }
  EXPECT_EQ(items[0].error.reason, "'position' element 2: expected a number, got 'oops'");
  EXPECT_NE(items[1].error.reason.find("--no-arr"), std::string::npos) << items[1].error.reason;
  EXPECT_NE(items[2].error.reason.find("--full-length"), std::string::npos) << items[2].error.reason;
  EXPECT_EQ(items[3].error.reason, "'header.stamp.sec': expected an integer, got 'x'");
  EXPECT_EQ(items[4].error.reason, "missing 'name'");
  EXPECT_EQ(items[5].error.reason, "unexpected indentation");
  ASSERT_EQ(items[6].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[6].message.joint.position, (Values{3, 4}));
}

TEST(IoRosYaml, ErrorTextNamesFileAndLine) {
  const auto items = read_log_text("name: [a]\nposition: [1, x]\n", {.format = io::parse_format("yaml")}, "echo.yaml");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].error.to_string("echo.yaml"), "echo.yaml:2: 'position' element 2: expected a number, got 'x'");
}

TEST(IoRosYaml, JointTrajectoryDocument) {
  // ros2 topic echo of trajectory_msgs/msg/JointTrajectory.
  const std::string text =
      "header:\n  stamp:\n    sec: 10\n    nanosec: 0\n  frame_id: ''\n"
      "joint_names:\n- a\n- b\n"
      "points:\n"
      "- positions:\n  - 1.0\n  - 2.0\n  velocities: []\n  accelerations: []\n  effort: []\n"
      "  time_from_start:\n    sec: 0\n    nanosec: 500000000\n"
      "- positions:\n  - 3.0\n  - 4.0\n  velocities: []\n  accelerations: []\n  effort: []\n"
      "  time_from_start:\n    sec: 1\n    nanosec: 0\n"
      "---\n";
  const auto items = read_yaml(text);
  ASSERT_EQ(items.size(), 2u);
  for (const auto& it : items) ASSERT_EQ(it.status, io::ReadStatus::Ok) << it.error.reason;
  EXPECT_EQ(items[0].message.joint.name, (Names{"a", "b"}));
  EXPECT_EQ(items[0].message.joint.position, (Values{1, 2}));
  EXPECT_EQ(items[0].message.joint.stamp, Time{10'500'000'000});
  EXPECT_EQ(items[1].message.joint.position, (Values{3, 4}));
  EXPECT_EQ(items[1].message.joint.stamp, Time{11'000'000'000});
}

TEST(IoRosYaml, FormatNamesAndDetection) {
  EXPECT_EQ(io::format_from_path("echo.yaml").name(), "yaml");
  EXPECT_EQ(io::format_from_path("ECHO.YML").name(), "yaml");
  EXPECT_EQ(io::parse_format("yaml").name(), "yaml");
  EXPECT_EQ(io::to_string(io::parse_format("yaml")), "yaml");
  std::istringstream in(kRos2Echo);
  io::MessageReader reader(in, "-", {});
  io::Message m;
  ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
  EXPECT_EQ(reader.format().name(), "yaml");
  // JSON Lines stays JSON Lines; CSV stays CSV.
  std::istringstream j("{\"name\": [\"a\"], \"position\": [1]}\n");
  io::MessageReader rj(j, "-", {});
  ASSERT_EQ(rj.next(m), io::ReadStatus::Ok);
  EXPECT_EQ(rj.format().name(), "jsonl");
  // A leading comment: only YAML has them, so it is YAML (a shell redirect often starts one).
  std::istringstream c("# ros2 topic echo /joint_states\n\nname: [a]\nposition: [1]\n---\n");
  io::MessageReader rc(c, "-", {});
  ASSERT_EQ(rc.next(m), io::ReadStatus::Ok);
  EXPECT_EQ(rc.format().name(), "yaml");
  EXPECT_EQ(m.joint.position, (Values{1}));
}

TEST(IoRosYaml, StreamsEachDocumentWhenItsSeparatorArrives) {
  // A pipe that receives one message, then stays open: the message must come out before
  // more input (or the end) arrives.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  io::MessageReader reader(fds[0], "<pipe>", {.format = io::Format{}}, true);
  const std::string first = kRos2Echo.substr(0, kRos2Echo.find("---\n") + 4);
  ASSERT_EQ(::write(fds[1], first.data(), first.size()), static_cast<ssize_t>(first.size()));
  io::Message m;
  ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);  // would block forever if it waited for more
  EXPECT_EQ(m.joint.position, (Values{0.1, -0.25}));
  EXPECT_FALSE(reader.input_pending());  // nothing more is ready: the caller flushes now
  const std::string rest = "name: [z]\nposition: [9]\n---\n";
  ASSERT_EQ(::write(fds[1], rest.data(), rest.size()), static_cast<ssize_t>(rest.size()));
  ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
  EXPECT_EQ(m.joint.name, (Names{"z"}));
  ::close(fds[1]);
  EXPECT_EQ(reader.next(m), io::ReadStatus::End);
}

TEST(IoRosYaml, NoAllocationOnceWarm) {
  std::string text;
  for (int k = 0; k < 50; ++k) text += kRos2Echo.substr(0, kRos2Echo.find("---\n") + 4);
  std::istringstream in(text);
  io::MessageReader reader(in, "<in>", {.format = io::parse_format("yaml")});
  io::Message m;
  for (int k = 0; k < 5; ++k) ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
  const std::size_t before = rmodel::test::allocation_count();
  for (int k = 0; k < 40; ++k) ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
  EXPECT_EQ(rmodel::test::allocation_count() - before, 0u);
}

// ---- rostopic echo -p CSV ----

namespace {
const std::string kRostopicCsv =
    "%time,field.header.seq,field.header.stamp,field.header.frame_id,field.name0,field.name1,field.position0,"
    "field.position1,field.velocity0,field.velocity1\n"
    "1500000000600000000,42,1500000000500000000,,neck_pitch,head_yaw,0.1,-0.25,0.0,1.5\n"
    "1500000000700000000,43,1500000000600000001,,head_yaw,neck_pitch,0.3,0.4,,\n";
}  // namespace

TEST(IoRostopicCsv, HeaderStampByDefault) {
  const auto items = read_log_text(kRostopicCsv, {.format = io::Format{}});
  ASSERT_EQ(items.size(), 2u);
  for (const auto& it : items) ASSERT_EQ(it.status, io::ReadStatus::Ok) << it.error.reason;
  const io::Message& a = items[0].message;
  EXPECT_EQ(a.joint.name, (Names{"neck_pitch", "head_yaw"}));
  EXPECT_EQ(a.joint.position, (Values{0.1, -0.25}));
  EXPECT_EQ(a.joint.velocity, (Values{0.0, 1.5}));
  EXPECT_EQ(a.joint.stamp, Time{1500000000'500000000});
  EXPECT_EQ(a.line, 2u);
  const io::Message& b = items[1].message;
  EXPECT_EQ(b.joint.name, (Names{"head_yaw", "neck_pitch"}));  // names are per row
  EXPECT_EQ(b.joint.position, (Values{0.3, 0.4}));
  EXPECT_TRUE(b.joint.velocity.empty());  // all its cells empty: absent
  EXPECT_EQ(b.joint.stamp, Time{1500000000'600000001});
}

TEST(IoRostopicCsv, LogTimeWithTimeLog) {
  const auto items = read_log_text(kRostopicCsv, {.format = io::parse_format("csv"), .time = io::TimeSource::Log});
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].message.joint.stamp, Time{1500000000'600000000});
}

TEST(IoRostopicCsv, BadRowsAreErrors) {
  const std::string text =
      "%time,field.header.stamp,field.name0,field.name1,field.position0,field.position1\n"
      "1,2,a,b,1,\n"       // half the positions
      "1,x,a,b,1,2\n"      // bad time
      "1,2,a,,1,2\n"       // empty name
      "5,6,a,b,1,2\n";
  const auto items = read_log_text(text, {.format = io::parse_format("csv")});
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].status, io::ReadStatus::Error);
  EXPECT_EQ(items[0].error.line, 2u);
  EXPECT_EQ(items[1].error.reason, "column 2: bad time 'x' (expected integer nanoseconds)");
  EXPECT_EQ(items[2].error.reason, "field.name1 is empty");
  ASSERT_EQ(items[3].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[3].message.joint.stamp, Time{6});  // 6 ns
}

// ---- PlotJuggler-style CSV ----

namespace {
const std::string kPlotJuggler =
    "__time,/joint_states/header/stamp,/joint_states/neck_pitch/position,/joint_states/neck_pitch/velocity,"
    "/joint_states/head_yaw/position,/imu/orientation/x\n"
    "1700000000.25,1700000000.25,0.1,0.5,-0.25,0.9\n"
    "1700000000.35,,0.2,,,0.8\n"
    "1700000000.45,,,,,0.7\n";
}  // namespace

TEST(IoPrefixedCsv, PlotJugglerColumnsAreInferred) {
  const auto items = read_log_text(kPlotJuggler, {.format = io::parse_format("csv")});
  ASSERT_EQ(items.size(), 3u);
  for (const auto& it : items) ASSERT_EQ(it.status, io::ReadStatus::Ok) << it.error.reason;
  // Row 1: neck_pitch has position+velocity, head_yaw position only: two uniform messages.
  EXPECT_EQ(items[0].message.joint.name, (Names{"neck_pitch"}));
  EXPECT_EQ(items[0].message.joint.position, (Values{0.1}));
  EXPECT_EQ(items[0].message.joint.velocity, (Values{0.5}));
  EXPECT_EQ(items[0].message.joint.stamp, Time{1700000000'250000000});
  EXPECT_EQ(items[1].message.joint.name, (Names{"head_yaw"}));
  EXPECT_EQ(items[1].message.joint.position, (Values{-0.25}));
  EXPECT_EQ(items[2].message.joint.name, (Names{"neck_pitch"}));
  EXPECT_EQ(items[2].message.joint.position, (Values{0.2}));
  EXPECT_EQ(items[2].message.line, 3u);  // the /imu-only row yields nothing
}

TEST(IoPrefixedCsv, ExplicitPrefixAndTimeColumn) {
  const std::string text =
      "stamp,/a/j1/position,/b/j1/position,/b/j2.velocity,/b/j3\n"
      "2.5,1,2,3,4\n";
  auto items = read_log_text(text, {.format = io::parse_format("csv"), .time_column = "stamp", .column_prefix = "/b/"});
  ASSERT_EQ(items.size(), 2u);  // {j1, j3}: position, then {j2}: velocity
  EXPECT_EQ(items[0].message.joint.name, (Names{"j1", "j3"}));
  EXPECT_EQ(items[0].message.joint.position, (Values{2, 4}));
  EXPECT_EQ(items[0].message.joint.stamp, Time{2'500'000'000});
  EXPECT_EQ(items[1].message.joint.name, (Names{"j2"}));
  EXPECT_EQ(items[1].message.joint.velocity, (Values{3}));
  // Two topics and no prefix: reported on the header line, the columns stay unmatched.
  items = read_log_text(text, {.format = io::parse_format("csv")});
  ASSERT_FALSE(items.empty());
  EXPECT_EQ(items[0].status, io::ReadStatus::Error);
  EXPECT_EQ(items[0].error.line, 1u);
  EXPECT_NE(items[0].error.reason.find("several topics ('/a/', '/b/')"), std::string::npos) << items[0].error.reason;
  // A time column that is not there.
  items = read_log_text(text, {.format = io::parse_format("csv"), .time_column = "nope", .column_prefix = "/b/"});
  ASSERT_FALSE(items.empty());
  EXPECT_NE(items[0].error.reason.find("no time column 'nope'"), std::string::npos) << items[0].error.reason;
}

// ---- the no-joint rule of the pipeline ----

namespace {
struct CountingStage final : rmodel::stream::Stage {
  rmodel::stream::SlotMapper mapper{{"neck_pitch", "head_yaw"}};
  void push(const io::Message& m, rmodel::stream::Output&, rmodel::stream::Reporter& report) override {
    if (m.kind == io::MessageKind::Joint) (void)mapper.map(m, report);
  }
};
struct NullSink final : rmodel::stream::Sink {
  void joint_state(const rmodel::JointState&, std::optional<std::int64_t>) override {}
  void support_state(const rmodel::SupportState&, std::optional<std::int64_t>) override {}
};
}  // namespace

TEST(NoJointRule, AnInputNamingNoJointOfTheModelIsRejected) {
  CountingStage stage;
  NullSink sink;
  std::vector<std::string> errors;
  rmodel::stream::Pipeline pipeline(stage, sink, [&](const rmodel::stream::Event& e) {
    if (e.severity == rmodel::Severity::error) errors.emplace_back(e.text);
  });
  // Without the prefix the columns are joints named "/joint_states/neck_pitch/position"...
  std::istringstream in("t,/x/neck_pitch/position,/y/head_yaw/position\n0,1,2\n1,3,4\n");
  io::MessageReader reader(in, "pj.csv", {.format = io::parse_format("csv")});
  pipeline.run(reader);
  pipeline.finish();
  ASSERT_EQ(errors.size(), 2u);  // the header (two topics) and the whole input
  EXPECT_EQ(errors[1],
            "no joint of the model appears in this input: its 2 joint states name only "
            "'/x/neck_pitch/position', '/y/head_yaw/position' (a log of another robot? CSV columns named by topic, "
            "like /joint_states/<joint>/position, need ReaderOptions::column_prefix /joint_states/)");
  EXPECT_EQ(pipeline.summary().rejected, 2u);
}

TEST(NoJointRule, SomeMatchingMessagesAreFine) {
  CountingStage stage;
  NullSink sink;
  rmodel::stream::Pipeline pipeline(stage, sink);
  std::istringstream in("name: [wing]\nposition: [1]\n---\nname: [neck_pitch]\nposition: [1]\n---\n");
  io::MessageReader reader(in, "e.yaml", {.format = io::parse_format("yaml")});
  pipeline.run(reader);
  pipeline.finish();
  EXPECT_EQ(pipeline.summary().rejected, 0u);
  EXPECT_EQ(pipeline.summary().warnings, 1u);  // the unknown joint
}

TEST(NoJointRule, PushedMessagesAreJudgedAtFinish) {
  CountingStage stage;
  NullSink sink;
  rmodel::stream::Pipeline pipeline(stage, sink);
  io::Message m;
  m.joint.name = {"wing"};
  m.joint.position = {1.0};
  pipeline.push(m);
  pipeline.finish();
  EXPECT_EQ(pipeline.summary().rejected, 1u);
}

// ---- fixture truth rendered as ros2 echo YAML and rostopic -p CSV ----
//
// An independent renderer written from the formats (not from the reader): PyYAML's float
// spelling (Python repr; an exponent without '.' gets '.0'; .nan/.inf), ros2's block layout;
// rostopic -p's columns with str() numbers and integer nanoseconds. Every message read back
// must equal the truth message: names, every value to the bit, the exact nanoseconds.

namespace {

std::string py_float(double x, bool yaml) {
  if (std::isnan(x)) return yaml ? ".nan" : "nan";
  if (std::isinf(x)) return yaml ? (x > 0 ? ".inf" : "-.inf") : (x > 0 ? "inf" : "-inf");
  std::string s = fmt::format("{}", x);  // shortest round trip, as Python's repr
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  else if (yaml && s.find('.') == std::string::npos) s.insert(s.find('e'), ".0");
  return s;
}

std::string render_ros2_echo(const nlohmann::json& m) {
  std::string out = fmt::format("header:\n  stamp:\n    sec: {}\n    nanosec: {}\n  frame_id: '{}'\n",
                                m["header"]["stamp"]["sec"].get<std::int64_t>(),
                                m["header"]["stamp"]["nanosec"].get<std::int64_t>(),
                                m["header"]["frame_id"].get<std::string>());
  out += "name:\n";
  for (const auto& n : m["name"]) out += "- " + n.get<std::string>() + "\n";
  for (const char* key : {"position", "velocity", "effort"}) {
    if (m[key].empty()) {
      out += fmt::format("{}: []\n", key);
      continue;
    }
    out += fmt::format("{}:\n", key);
    for (const auto& v : m[key]) out += "- " + py_float(v.get<double>(), true) + "\n";
  }
  return out + "---\n";
}

std::string render_rostopic_csv(const std::vector<nlohmann::json>& messages) {
  const nlohmann::json& first = messages.front();
  std::string out = "%time,field.header.seq,field.header.stamp,field.header.frame_id";
  for (std::size_t k = 0; k < first["name"].size(); ++k) out += fmt::format(",field.name{}", k);
  for (const char* key : {"position", "velocity", "effort"})
    for (std::size_t k = 0; k < first[key].size(); ++k) out += fmt::format(",field.{}{}", key, k);
  out += "\n";
  std::size_t seq = 0;
  for (const auto& m : messages) {
    const std::int64_t stamp = m["header"]["stamp"]["sec"].get<std::int64_t>() * 1'000'000'000 +
                               m["header"]["stamp"]["nanosec"].get<std::int64_t>();
    out += fmt::format("{},{},{},{}", m["log_time_ns"].get<std::int64_t>(), seq++, stamp,
                       m["header"]["frame_id"].get<std::string>());
    for (const auto& n : m["name"]) out += "," + n.get<std::string>();
    for (const char* key : {"position", "velocity", "effort"})
      for (const auto& v : m[key]) out += "," + py_float(v.get<double>(), false);
    out += "\n";
  }
  return out;
}

void expect_same_bits(const Values& got, const nlohmann::json& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double w = want[i].get<double>();
    EXPECT_EQ(std::memcmp(&got[i], &w, sizeof w), 0) << what << " element " << i << ": " << got[i] << " vs " << w;
  }
}

void expect_truth(const io::Message& got, const nlohmann::json& want, bool log_time, const std::string& where) {
  ASSERT_EQ(got.kind, io::MessageKind::Joint) << where;
  EXPECT_EQ(got.joint.name, want["name"].get<Names>()) << where;
  expect_same_bits(got.joint.position, want["position"], where + " position");
  expect_same_bits(got.joint.velocity, want["velocity"], where + " velocity");
  expect_same_bits(got.joint.effort, want["effort"], where + " effort");
  std::int64_t ns = want["header"]["stamp"]["sec"].get<std::int64_t>() * 1'000'000'000 +
                    want["header"]["stamp"]["nanosec"].get<std::int64_t>();
  if (log_time) ns = want["log_time_ns"].get<std::int64_t>();
  ASSERT_TRUE(got.has_stamp) << where;
  EXPECT_EQ(got.joint.stamp, Time{ns}) << where;
}

}  // namespace

TEST(IoTextLogsTruth, Ros2EchoAndRostopicCsvOfEveryTruthMessage) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* stem : {"greeting", "hoof_wave"}) {
    std::vector<nlohmann::json> truth;
    for (auto& j : rmodel::test::json_lines(rmodel::test::read_file(rmodel::test::fixture(
             std::string("bags/") + stem + ".truth.jsonl"))))
      truth.push_back(std::move(j));
    ASSERT_GT(truth.size(), 100u);
    std::string yaml;
    for (const auto& m : truth) yaml += render_ros2_echo(m);
    const auto from_yaml = read_log_text(yaml, {.format = io::Format{}});
    ASSERT_EQ(from_yaml.size(), truth.size()) << stem;
    for (std::size_t k = 0; k < truth.size(); ++k) {
      ASSERT_EQ(from_yaml[k].status, io::ReadStatus::Ok) << from_yaml[k].error.reason;
      expect_truth(from_yaml[k].message, truth[k], false, fmt::format("{} yaml message {}", stem, k + 1));
    }
    // rostopic -p writes one header, sized by the first message: keep the messages of that
    // size (greeting's third driver has 4 joints; its rows would not fit that header).
    std::vector<nlohmann::json> same_size;
    for (const auto& m : truth)
      if (m["name"].size() == truth.front()["name"].size()) same_size.push_back(m);
    const std::string csv = render_rostopic_csv(same_size);
    for (const bool log_time : {false, true}) {
      const auto from_csv =
          read_log_text(csv, {.format = io::Format{}, .time = log_time ? io::TimeSource::Log : io::TimeSource::Header});
      std::size_t k = 0;
      for (const auto& it : from_csv) {
        ASSERT_EQ(it.status, io::ReadStatus::Ok) << it.error.reason;
        expect_truth(it.message, same_size[k], log_time, fmt::format("{} csv message {}", stem, k + 1));
        ++k;
      }
      EXPECT_EQ(k, same_size.size()) << stem;
    }
  }
}

TEST(IoRosYaml, QuotedNamesCrlfAndComments) {
  // PyYAML quotes names that would read as other types; escapes are decoded; CRLF line ends
  // (a file saved on Windows) and comments are accepted.
  const std::string text =
      "# recorded with ros2 topic echo\r\nname:\r\n- 'it''s'\r\n- \"caf\\u00e9 \\\"x\\\"\"\r\n- '1'   # a comment\r\n"
      "position: [1, 2, 3]\r\n---\r\n";
  const auto items = read_yaml(text);
  ASSERT_EQ(items.size(), 1u);
  ASSERT_EQ(items[0].status, io::ReadStatus::Ok) << items[0].error.reason;
  EXPECT_EQ(items[0].message.joint.name, (Names{"it's", "caf\xC3\xA9 \"x\"", "1"}));
  EXPECT_EQ(items[0].message.joint.position, (Values{1, 2, 3}));
}
