// The model a recording carries on /robot_description (issue 25, point 3): a log written here
// with the URDF of the sample robot on that topic (a ROS 1 bag, a rosbag2 .db3; an MCAP file
// written by rmodel's own writer with --tf)
// replays without a model given, byte for byte as with -u naming the same URDF; the commands
// that need a model say where it came from (not with -q); --model-from-log asks for it and is
// an error naming the log when there is none; log-info says whether a log carries one.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ros_log_builders.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using rmodel::test::run_rmodel;

namespace {

struct RecordedLogs {
  fs::path dir = rmodel::test::make_temp_dir("rmodel-cli-model-from-log-");
  ~RecordedLogs() { fs::remove_all(dir); }
};

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// ---- serializations, from the ROS 1 wire format and CDR (XCDR1, little endian) ----

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFFU));
}

/// std_msgs/String in ROS 1: u32 length, the bytes.
std::string ros1_string(const std::string& text) {
  std::string out;
  put_u32(out, static_cast<std::uint32_t>(text.size()));
  return out + text;
}

/// CDR writer: alignment counts from after the 4-byte encapsulation header.
struct CdrOut {
  std::string bytes{'\0', '\1', '\0', '\0'};
  void align(std::size_t n) {
    while ((bytes.size() - 4) % n != 0) bytes.push_back('\0');
  }
  void u32(std::uint32_t v) {
    align(4);
    put_u32(bytes, v);
  }
  void str(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size() + 1));
    bytes += s;
    bytes.push_back('\0');
  }
  void f64(double v) {
    align(8);
    char b[8];
    std::memcpy(b, &v, 8);
    bytes.append(b, 8);
  }
};

/// std_msgs/msg/String in CDR.
std::string cdr_string(const std::string& text) {
  CdrOut c;
  c.str(text);
  return c.bytes;
}

/// sensor_msgs/msg/JointState in CDR: header stamp, empty frame_id, names, positions.
std::string cdr_joint_state(std::int32_t sec, std::uint32_t nanosec, const std::vector<std::string>& names,
                            const std::vector<double>& positions) {
  CdrOut c;
  c.u32(static_cast<std::uint32_t>(sec));
  c.u32(nanosec);
  c.str("");
  c.u32(static_cast<std::uint32_t>(names.size()));
  for (const auto& n : names) c.str(n);
  c.u32(static_cast<std::uint32_t>(positions.size()));
  for (double p : positions) c.f64(p);
  c.u32(0);  // velocity
  c.u32(0);  // effort
  return c.bytes;
}

// A few poses of the sample robot, partial as drivers publish them.
struct Sample {
  std::uint32_t sec, nsec;
  std::vector<std::string> names;
  std::vector<double> positions;
};
const std::vector<Sample>& samples() {
  static const std::vector<Sample> s = {
      {100, 0, {"neck_pitch", "head_yaw"}, {0.1, -0.2}},
      {100, 10'000'000, {"tail_swing", "front_left_knee"}, {1.0, 0.5}},
      {100, 20'000'000, {"neck_pitch", "jaw_slide"}, {0.3, 0.01}},
      {100, 30'000'000, {"front_left_hip", "rear_right_ankle"}, {-0.25, 0.125}},
  };
  return s;
}

std::int64_t ns(const Sample& s) { return std::int64_t{s.sec} * 1'000'000'000 + s.nsec; }

/// A ROS 1 bag: the URDF on /robot_description (when `with_model`), then the joint states.
fs::path write_bag(const fs::path& dir, const std::string& urdf, bool with_model) {
  std::vector<rmodel::test::Ros1Connection> connections = {{0, "/joint_states", "sensor_msgs/JointState", "/driver"}};
  std::vector<rmodel::test::Ros1Message> messages;
  if (with_model) {
    connections.push_back({1, "/robot_description", "std_msgs/String", "/robot_state_publisher"});
    messages.push_back({1, ns(samples()[0]) - 5'000'000, ros1_string(urdf)});
  }
  std::uint32_t seq = 0;
  for (const auto& s : samples())
    messages.push_back({0, ns(s), rmodel::test::ros1_joint_state(++seq, s.sec, s.nsec, s.names, s.positions)});
  const fs::path path = dir / (with_model ? "recorded.bag" : "bare.bag");
  write_bytes(path, rmodel::test::ros1_bag(connections, messages));
  return path;
}

/// A rosbag2 .db3 with the URDF on /robot_description.
fs::path write_db3(const fs::path& dir, const std::string& urdf) {
  std::vector<rmodel::test::Db3Message> messages = {{2, ns(samples()[0]) - 5'000'000, cdr_string(urdf)}};
  for (const auto& s : samples())
    messages.push_back({1, ns(s), cdr_joint_state(static_cast<std::int32_t>(s.sec), s.nsec, s.names, s.positions)});
  const fs::path path = dir / "recorded.db3";
  rmodel::test::write_db3(path, {{1, "/joint_states", "sensor_msgs/msg/JointState"},
                                 {2, "/robot_description", "std_msgs/msg/String"}},
                          messages);
  return path;
}

const std::string& sample_urdf_path() {
  static const std::string p = rmodel::test::sample("pony.urdf").string();
  return p;
}

/// The commands that read a log and need a model, with the arguments that name the log.
std::vector<std::vector<std::string>> log_commands(const std::string& log) {
  return {{"aggregate", log},
          {"aggregate", log, "-f", "csv"},
          {"fk", "--log", log, "-f", "jsonl"},
          {"dynamics", "--log", log},
          {"check-log", log, "-f", "json"}};
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace

TEST(CliModelFromLog, EveryCommandReplaysTheRecordedModelAsWithUrdfGiven) {
  const RecordedLogs tmp;
  const std::string urdf = rmodel::test::read_file(sample_urdf_path());
  for (const fs::path& log : {write_bag(tmp.dir, urdf, true), write_db3(tmp.dir, urdf)}) {
    for (const auto& args : log_commands(log.string())) {
      SCOPED_TRACE(log.filename().string() + ": " + args.front() + " " + args.back());
      const auto given = run_rmodel(with(args, {"-u", sample_urdf_path()}));
      ASSERT_LT(given.exit_code, 2) << given.err;  // check-log: 1 when the log breaks a limit
      const auto recorded = run_rmodel(args);
      EXPECT_EQ(recorded.exit_code, given.exit_code) << recorded.err;
      ASSERT_FALSE(given.out.empty()) << given.err;
      EXPECT_EQ(recorded.out, given.out);
      // One line says where the model came from; -u says nothing of the kind.
      const std::string said = "the model is the URDF " + log.string() + " recorded on /robot_description (robot '";
      EXPECT_NE(recorded.err.find(said), std::string::npos) << recorded.err;
      EXPECT_EQ(given.err.find("/robot_description"), std::string::npos) << given.err;
      // --model-from-log asks for the same.
      const auto asked = run_rmodel(with(args, {"--model-from-log"}));
      EXPECT_EQ(asked.exit_code, given.exit_code) << asked.err;
      EXPECT_EQ(asked.out, recorded.out);
    }
  }
}

TEST(CliModelFromLog, QuietSaysNothingOfTheModel) {
  const RecordedLogs tmp;
  const fs::path bag = write_bag(tmp.dir, rmodel::test::read_file(sample_urdf_path()), true);
  const auto r = run_rmodel({"aggregate", bag.string(), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("/robot_description"), std::string::npos) << r.err;
}

TEST(CliModelFromLog, ModelFromLogWithoutOneIsAnErrorNamingTheLog) {
  const RecordedLogs tmp;
  const fs::path bare = write_bag(tmp.dir, {}, false);
  const auto r = run_rmodel({"aggregate", bare.string(), "--model-from-log"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--model-from-log: no /robot_description (std_msgs String) in " + bare.string()),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty());
  // Without a model at all, the usual error also says the log has none.
  const auto none = run_rmodel({"check-log", bare.string()});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("no model given"), std::string::npos) << none.err;
  EXPECT_NE(none.err.find("(no /robot_description in " + bare.string() + ")"), std::string::npos) << none.err;
  // A batch with no model anywhere is the same one usage error, not a failure per log.
  const auto batch = run_rmodel({"check-log", bare.string(), "--output-dir", (tmp.dir / "reports").string()});
  EXPECT_EQ(batch.exit_code, 2) << batch.err;
  EXPECT_NE(batch.err.find("no model given"), std::string::npos) << batch.err;
  // A model named and --model-from-log exclude each other (a usage error).
  const auto both = run_rmodel({"aggregate", bare.string(), "--model-from-log", "-u", sample_urdf_path()});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--model-from-log"), std::string::npos) << both.err;
}

TEST(CliModelFromLog, FilterNeedsNoModelAndTakesTheRecordedOneWhenAsked) {
  const RecordedLogs tmp;
  const fs::path bag = write_bag(tmp.dir, rmodel::test::read_file(sample_urdf_path()), true);
  // Without a model the filter runs on the names the log has, and does not look for one.
  const auto plain = run_rmodel({"filter", "exponential", "-p", "tau=0.05", bag.string(), "-f", "csv"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.err.find("/robot_description"), std::string::npos) << plain.err;
  const auto given = run_rmodel(
      {"filter", "exponential", "-p", "tau=0.05", bag.string(), "-f", "csv", "-u", sample_urdf_path()});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  const auto asked =
      run_rmodel({"filter", "exponential", "-p", "tau=0.05", bag.string(), "-f", "csv", "--model-from-log"});
  ASSERT_EQ(asked.exit_code, 0) << asked.err;
  EXPECT_EQ(asked.out, given.out);
  EXPECT_NE(plain.out, given.out);  // the model's joints are the CSV's columns
}

TEST(CliModelFromLog, ABatchChecksEachLogAgainstItsOwnRecordedModel) {
  // --output-dir runs each input as if rmodel ran once per input (docs/streaming.md): logs of
  // two robots are each replayed with the model they recorded, not with the first log's.
  const RecordedLogs tmp;
  const std::string urdf = rmodel::test::read_file(sample_urdf_path());
  // Robot B: the sample with its tail joint renamed, so that the two models' CSV columns
  // differ and B does not know a name A's log sends.
  std::string other = urdf;
  for (std::size_t at; (at = other.find("\"tail_swing\"")) != std::string::npos;)
    other.replace(at, 12, "\"tail_wag\"");
  ASSERT_NE(other, urdf);
  const fs::path a = tmp.dir / "robot_a.bag", b = tmp.dir / "robot_b.bag";
  fs::rename(write_bag(tmp.dir, urdf, true), a);
  fs::rename(write_bag(tmp.dir, other, true), b);
  struct Case {
    std::vector<std::string> args;  // without the logs
    std::string extension;
  };
  for (const Case& c : std::vector<Case>{{{"aggregate", "-f", "csv"}, "csv"},
                                         {{"check-log", "-f", "json"}, "json"},
                                         {{"filter", "exponential", "-p", "tau=0.05", "-f", "csv", "--model-from-log"},
                                          "csv"}}) {
    SCOPED_TRACE(c.args.front());
    const fs::path out = tmp.dir / ("out-" + c.args.front());
    const auto batch = run_rmodel(with(c.args, {a.string(), b.string(), "--output-dir", out.string()}));
    ASSERT_LT(batch.exit_code, 2) << batch.err;
    std::vector<std::string> single;
    for (const fs::path& log : {a, b}) {
      const auto alone = run_rmodel(with(c.args, {log.string()}));
      ASSERT_LT(alone.exit_code, 2) << alone.err;
      EXPECT_EQ(rmodel::test::read_file(out / (log.stem().string() + "." + c.extension)), alone.out) << log;
      // Each input's diagnostics say which model it took.
      EXPECT_NE(batch.err.find("the model is the URDF " + log.string()), std::string::npos) << batch.err;
      single.push_back(alone.out);
    }
    EXPECT_NE(single[0], single[1]);  // the two robots give different results
  }
}

TEST(CliModelFromLog, LogInfoSaysWhetherTheLogCarriesAModel) {
  const RecordedLogs tmp;
  const std::string urdf = rmodel::test::read_file(sample_urdf_path());
  const fs::path bag = write_bag(tmp.dir, urdf, true);
  const fs::path db3 = write_db3(tmp.dir, urdf);
  const fs::path bare = write_bag(tmp.dir, {}, false);

  const auto text = run_rmodel({"log-info", bag.string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  // The description is the first message of the bag.
  EXPECT_NE(text.out.find("Model:        /robot_description (std_msgs/String, " + std::to_string(urdf.size()) +
                          " bytes, message 1)\n"),
            std::string::npos)
      << text.out;
  const auto js = run_rmodel({"log-info", db3.string(), "-f", "json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const json doc = json::parse(js.out);
  EXPECT_EQ(doc["robot_description"]["topic"], "/robot_description");
  EXPECT_EQ(doc["robot_description"]["type"], "std_msgs/msg/String");
  EXPECT_EQ(doc["robot_description"]["bytes"], urdf.size());
  EXPECT_EQ(doc["robot_description"]["log_time_ns"], ns(samples()[0]) - 5'000'000);

  const auto none = run_rmodel({"log-info", bare.string()});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("Model:        none\n"), std::string::npos) << none.out;
  const auto none_js = run_rmodel({"log-info", bare.string(), "-f", "json"});
  EXPECT_TRUE(json::parse(none_js.out)["robot_description"].is_null());
}

TEST(CliModelFromLog, RmodelsOwnMcapWithTfCarriesTheModel) {
  const RecordedLogs tmp;
  const std::string walk = (rmodel::test::source_dir() / "share/rmodel/examples/walk.jsonl").string();
  const fs::path mcap = tmp.dir / "walk.mcap";
  const auto write = run_rmodel({"aggregate", walk, "-u", sample_urdf_path(), "--tf", "-o", mcap.string()});
  ASSERT_EQ(write.exit_code, 0) << write.err;
  for (const auto& args : log_commands(mcap.string())) {
    SCOPED_TRACE(args.front() + " " + args.back());
    const auto given = run_rmodel(with(args, {"-u", sample_urdf_path()}));
    ASSERT_LT(given.exit_code, 2) << given.err;  // check-log: 1 when the log breaks a limit
    const auto recorded = run_rmodel(args);
    EXPECT_EQ(recorded.exit_code, given.exit_code) << recorded.err;
    EXPECT_EQ(recorded.out, given.out);
    EXPECT_NE(recorded.err.find("recorded on /robot_description (robot 'pony')"), std::string::npos)
        << recorded.err;
  }
  // Written again with --tf from the model the log carries: the same file.
  const fs::path again = tmp.dir / "again.mcap";
  const auto copy = run_rmodel({"aggregate", mcap.string(), "--tf", "-o", again.string()});
  ASSERT_EQ(copy.exit_code, 0) << copy.err;
  const fs::path direct = tmp.dir / "direct.mcap";
  ASSERT_EQ(run_rmodel({"aggregate", mcap.string(), "-u", sample_urdf_path(), "--tf", "-o", direct.string()}).exit_code,
            0);
  EXPECT_EQ(rmodel::test::read_file(again), rmodel::test::read_file(direct));
}

TEST(CliModelFromLog, TfNeedsMcapOutputAndAModel) {
  const RecordedLogs tmp;
  const std::string walk = (rmodel::test::source_dir() / "share/rmodel/examples/walk.jsonl").string();
  const auto jsonl = run_rmodel({"aggregate", walk, "--sample", "--tf"});
  EXPECT_EQ(jsonl.exit_code, 2);
  EXPECT_NE(jsonl.err.find("--tf applies to MCAP output"), std::string::npos) << jsonl.err;
  const auto one_pose = run_rmodel({"dynamics", "--sample", "--tf", "-f", "json"});
  EXPECT_EQ(one_pose.exit_code, 2);
  // filter runs without a model, but its --tf needs one: given, or the log's.
  const auto none =
      run_rmodel({"filter", "exponential", "-p", "tau=0.05", walk, "--tf", "-o", (tmp.dir / "f.mcap").string()});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("no model given"), std::string::npos) << none.err;
}

// ---- the semantics beside the URDF (issue 40, point 4) ----

namespace {

/// A model with semantics written into an MCAP with --tf, and what the log then carries.
struct SemanticsCase {
  std::string name;
  std::vector<std::string> model;  ///< the model options of the run that writes the log
  std::string input;               ///< the log it aggregates
  std::string semantics;           ///< the semantics file given
  std::string topic;               ///< where the log carries them
  bool srdf = false;               ///< an SRDF (published whole), else rmodel's JSON
};

std::vector<SemanticsCase> semantics_cases() {
  const std::string walk = (rmodel::test::source_dir() / "share/rmodel/examples/walk.jsonl").string();
  std::vector<SemanticsCase> cases = {
      {"sample (JSON semantics)", {"--sample"}, walk, rmodel::test::sample("pony.json").string(), "/rmodel/semantics"},
      {"sample with its .cpf",
       {"-u", sample_urdf_path(), "-s", rmodel::test::sample("pony.cpf").string()},
       walk,
       rmodel::test::sample("pony.cpf").string(),
       "/rmodel/semantics"},
  };
  if (rmodel::test::have_fixtures()) {
    const std::string srdf = rmodel::test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.srdf").string();
    cases.push_back({"Sweetie Bot with its SRDF",
                     {"-u", rmodel::test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(), "-s", srdf},
                     rmodel::test::fixture("bags/hoof_wave.mcap").string(),
                     srdf,
                     "/robot_description_semantic",
                     true});
  }
  return cases;
}

}  // namespace

TEST(CliModelFromLog, ATfLogCarriesTheSemanticsAndReplaysInTheirPoseOrder) {
  const RecordedLogs tmp;
  for (const SemanticsCase& c : semantics_cases()) {
    SCOPED_TRACE(c.name);
    const fs::path mcap = tmp.dir / "with_semantics.mcap";
    const auto write = run_rmodel(
        with({"aggregate", c.input, "--tf", "--mcap-compression", "none", "-q", "-o", mcap.string()}, c.model));
    ASSERT_EQ(write.exit_code, 0) << write.err;
    // A valid MCAP file by the specification's checker (every record, index and CRC).
    if (std::system("python3 --version >/dev/null 2>&1") == 0) {
      EXPECT_EQ(std::system(("python3 " RMODEL_SOURCE_DIR "/tests/mcap/check_mcap.py " + mcap.string() + " >/dev/null")
                                .c_str()),
                0);
    }
    // Replayed without a model, every command gives what it gives with the model given: the
    // full pose in the semantics' order, not the URDF's.
    for (const auto& args : log_commands(mcap.string())) {
      SCOPED_TRACE(args.front() + " " + args.back());
      const auto given = run_rmodel(with(args, c.model));
      ASSERT_LT(given.exit_code, 2) << given.err;
      const auto recorded = run_rmodel(args);
      EXPECT_EQ(recorded.exit_code, given.exit_code) << recorded.err;
      ASSERT_FALSE(given.out.empty());
      EXPECT_EQ(recorded.out, given.out);
      EXPECT_NE(recorded.err.find("recorded on /robot_description (robot '"), std::string::npos) << recorded.err;
      EXPECT_NE(recorded.err.find("), with the semantics on " + c.topic + "\n"), std::string::npos) << recorded.err;
      const auto asked = run_rmodel(with(args, {"--model-from-log"}));
      EXPECT_EQ(asked.out, given.out);
    }
    // Semantics given with the log's URDF replace the log's; the URDF alone gives another pose
    // (the sample's semantics add its support chains to the CSV).
    if (c.name.rfind("sample", 0) == 0) {
      const auto given_semantics =
          run_rmodel({"aggregate", mcap.string(), "-s", rmodel::test::sample("pony.json").string(), "-q", "-f", "csv"});
      ASSERT_EQ(given_semantics.exit_code, 0) << given_semantics.err;
      EXPECT_EQ(given_semantics.out, run_rmodel(with({"aggregate", mcap.string(), "-q", "-f", "csv"}, c.model)).out);
      const auto urdf_only = run_rmodel({"aggregate", mcap.string(), "-u", sample_urdf_path(), "-q", "-f", "csv"});
      EXPECT_NE(urdf_only.out, given_semantics.out);
    }

    // log-info names both, in text and JSON; the JSON semantics read back as the file given.
    const auto js = run_rmodel({"log-info", mcap.string(), "-f", "json"});
    ASSERT_EQ(js.exit_code, 0) << js.err;
    const json doc = json::parse(js.out);
    EXPECT_EQ(doc["robot_description"]["topic"], "/robot_description");
    const json& s = doc["semantics"];
    ASSERT_TRUE(s.is_object()) << js.out;
    EXPECT_EQ(s["topic"], c.topic);
    EXPECT_EQ(s["type"], "std_msgs/msg/String");
    EXPECT_EQ(s["format"], c.srdf ? "srdf" : "json");
    EXPECT_EQ(s["message"], doc["robot_description"]["message"].get<std::uint64_t>() + 1);
    if (c.srdf) {
      EXPECT_EQ(s["bytes"], rmodel::test::read_file(c.semantics).size());
    }
    const auto text = run_rmodel({"log-info", mcap.string()});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("Semantics:    " + c.topic + " (std_msgs/msg/String, " + (c.srdf ? "SRDF" : "rmodel JSON") +
                            ", " + std::to_string(s["bytes"].get<std::size_t>()) + " bytes, message " +
                            std::to_string(s["message"].get<std::uint64_t>()) + ")\n"),
              std::string::npos)
        << text.out;
    // The topic is listed with the others, one message.
    EXPECT_NE(text.out.find(c.topic), text.out.rfind(c.topic)) << text.out;
  }
}

TEST(CliModelFromLog, ALogWithoutSemanticsSaysSoNowhere) {
  // The URDF alone: no semantics line, JSON null, the stderr line as before.
  const RecordedLogs tmp;
  const fs::path bag = write_bag(tmp.dir, rmodel::test::read_file(sample_urdf_path()), true);
  const auto text = run_rmodel({"log-info", bag.string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.find("Semantics:"), std::string::npos) << text.out;
  EXPECT_TRUE(json::parse(run_rmodel({"log-info", bag.string(), "-f", "json"}).out)["semantics"].is_null());
  const auto r = run_rmodel({"aggregate", bag.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("recorded on /robot_description (robot 'pony')\n"), std::string::npos) << r.err;
}

TEST(CliModelFromLog, ARecordingWithMoveItsSrdfReplaysInTheSrdfsPoseOrder) {
  // A rosbag2 .db3 as a ROS 2 system records it: robot_state_publisher's URDF, then move_group's
  // SRDF on /robot_description_semantic a little later (after a joint state). The log is read
  // past the URDF to it, since the topics table declares it.
  const RecordedLogs tmp;
  const fs::path examples = rmodel::test::source_dir() / "share/rmodel/examples";
  const std::string urdf = rmodel::test::read_file(examples / "robot.urdf");
  const std::string srdf = rmodel::test::read_file(examples / "robot.srdf");
  const std::vector<std::string> names = {"knee", "arm_pan", "finger_slide", "hip", "elbow", "wrist", "arm_lift"};
  std::vector<rmodel::test::Db3Message> messages = {{2, 1'000'000'000, cdr_string(urdf)}};
  for (std::uint32_t k = 0; k < 4; ++k) {
    messages.push_back({1, 1'100'000'000 + std::int64_t{k} * 10'000'000,
                        cdr_joint_state(1, 100'000'000 + k * 10'000'000, names,
                                        {0.1 * k, 0.2, -0.3, 0.4, -0.5 * k, 0.6, 0.05})});
    if (k == 0) messages.push_back({3, 1'105'000'000, cdr_string(srdf)});
  }
  const fs::path db3 = tmp.dir / "moveit.db3";
  rmodel::test::write_db3(db3, {{1, "/joint_states", "sensor_msgs/msg/JointState"},
                                {2, "/robot_description", "std_msgs/msg/String"},
                                {3, "/robot_description_semantic", "std_msgs/msg/String"}},
                          messages);
  const std::vector<std::string> model = {"-u", (examples / "robot.urdf").string(), "-s", (examples / "robot.srdf").string()};
  for (const auto& args : log_commands(db3.string())) {
    SCOPED_TRACE(args.front() + " " + args.back());
    const auto given = run_rmodel(with(args, model));
    ASSERT_LT(given.exit_code, 2) << given.err;
    const auto recorded = run_rmodel(args);
    EXPECT_EQ(recorded.exit_code, given.exit_code) << recorded.err;
    EXPECT_EQ(recorded.out, given.out);
    EXPECT_NE(recorded.err.find("), with the semantics on /robot_description_semantic\n"), std::string::npos)
        << recorded.err;
  }
  // The URDF's own order is another one: the SRDF's is what the replay followed.
  EXPECT_NE(run_rmodel({"aggregate", db3.string(), "-u", (examples / "robot.urdf").string(), "-f", "csv"}).out,
            run_rmodel({"aggregate", db3.string(), "-f", "csv"}).out);
  const auto info = run_rmodel({"log-info", db3.string()});
  EXPECT_NE(info.out.find("Semantics:    /robot_description_semantic (std_msgs/msg/String, SRDF, " +
                          std::to_string(srdf.size()) + " bytes, message 3)\n"),
            std::string::npos)
      << info.out;
}
