// `rmodel log-info` as `rosbag info` / `ros2 bag info` show a log (issue 21): a topic with two
// connections is one line with "(2 connections)" in text (nothing when it has one) and
// `connections` in JSON and CSV; a split rosbag2 directory names its files and lists what
// its .db3 files list, merged. The logs are written here, so the truth is what was written.
#include <filesystem>
#include <fstream>
#include <map>
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

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// The line of `text` that contains `what` (empty when none).
std::string line_with(const std::string& text, const std::string& what) {
  const std::size_t at = text.find(what);
  if (at == std::string::npos) return {};
  const std::size_t begin = text.rfind('\n', at) + 1;  // npos + 1 == 0 on the first line
  return text.substr(begin, text.find('\n', at) - begin);
}

struct TempLogs {
  fs::path dir = rmodel::test::make_temp_dir("rmodel-cli-loginfo-");
  ~TempLogs() { fs::remove_all(dir); }
};

}  // namespace

TEST(CliLogInfo, TwoConnectionsAreOneTopicWithItsConnectionCount) {
  const TempLogs tmp;
  const fs::path bag = tmp.dir / "drivers.bag";
  using rmodel::test::ros1_joint_state;
  const std::string bytes = rmodel::test::ros1_bag(
      {{0, "/joint_states", "sensor_msgs/JointState", "/legs"},
       {1, "/joint_states", "sensor_msgs/JointState", "/head"},
       {2, "/rosout", "rosgraph_msgs/Log", "/legs"}},
      {{0, 1'000'000'000, ros1_joint_state(1, 1, 0, {"a"}, {0.5})},
       {1, 1'000'000'500, ros1_joint_state(1, 1, 0, {"b"}, {0.25})},
       {2, 1'005'000'000, "log line"},
       {0, 1'010'000'000, ros1_joint_state(2, 1, 10'000'000, {"a"}, {0.6})},
       {1, 1'010'000'500, ros1_joint_state(2, 1, 10'000'000, {"b"}, {0.3})},
       {1, 1'020'000'500, ros1_joint_state(3, 1, 20'000'000, {"b"}, {0.35})}});
  std::ofstream(bag, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));

  const auto text = run_rmodel({"log-info", bag.string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(occurrences(text.out, "/joint_states"), 1U) << text.out;
  EXPECT_NE(text.out.find("Topics:       2\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Messages:     6\n"), std::string::npos) << text.out;
  const std::string joints = line_with(text.out, "/joint_states");
  EXPECT_NE(joints.find(" 5 msgs"), std::string::npos) << joints;
  EXPECT_EQ(joints.substr(joints.size() - std::string("  (2 connections)").size()), "  (2 connections)") << joints;
  // One connection: nothing said, as rosbag info.
  EXPECT_EQ(line_with(text.out, "/rosout").find("connection"), std::string::npos) << text.out;

  const auto js = run_rmodel({"log-info", "--format", "json", bag.string()});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const json doc = json::parse(js.out);
  ASSERT_EQ(doc["topics"].size(), 2U);
  std::map<std::string, std::pair<int, int>> got;  // name → (messages, connections)
  for (const auto& t : doc["topics"]) got[t["name"]] = {t["messages"].get<int>(), t["connections"].get<int>()};
  const std::map<std::string, std::pair<int, int>> want = {{"/joint_states", {5, 2}}, {"/rosout", {1, 1}}};
  EXPECT_EQ(got, want);

  const auto csv = run_rmodel({"log-info", "--format", "csv", bag.string()});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')), "topic,type,messages,first_ns,last_ns,rate_hz,connections");
  EXPECT_EQ(line_with(csv.out, "/joint_states").rfind(",2"), line_with(csv.out, "/joint_states").size() - 2);
}

TEST(CliLogInfo, SplitDirectoryIsTheMergeOfItsFiles) {
  const TempLogs tmp;
  const fs::path dir = tmp.dir / "split";
  fs::create_directories(dir);
  const std::int64_t t0 = 1'700'000'000'000'000'000;
  const std::vector<rmodel::test::Db3Topic> topics = {{1, "/joint_states", "sensor_msgs/msg/JointState"},
                                                      {2, "/parameter_events", "rcl_interfaces/msg/ParameterEvent"}};
  rmodel::test::write_db3(dir / "split_0.db3", topics, {{1, t0, "a"}, {1, t0 + 10'000'000, "b"}});
  rmodel::test::write_db3(dir / "split_1.db3", topics,
                          {{1, t0 + 20'000'000, "c"}, {1, t0 + 30'000'000, "d"}, {1, t0 + 40'000'000, "e"}});
  rmodel::test::write_rosbag2_metadata(dir, "sqlite3", {"split_0.db3", "split_1.db3"});

  const auto text = run_rmodel({"log-info", dir.string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Format:       db3 (2 files: split_0.db3, split_1.db3; sqlite3)\n"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("Messages:     5\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Duration:     0.040000000 s\n"), std::string::npos) << text.out;
  EXPECT_NE(line_with(text.out, "/joint_states").find(" 5 msgs"), std::string::npos) << text.out;
  EXPECT_NE(line_with(text.out, "/parameter_events").find(" 0 msgs"), std::string::npos) << text.out;

  // JSON: the directory's topics are its files' topics, counts summed, times min / max.
  const auto info = [](const fs::path& log) {
    const auto r = run_rmodel({"log-info", "-f", "json", log.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
  };
  const json whole = info(dir);
  const json a = info(dir / "split_0.db3"), b = info(dir / "split_1.db3");
  EXPECT_EQ(whole["format"], "db3");
  EXPECT_EQ(whole["messages"], a["messages"].get<int>() + b["messages"].get<int>());
  EXPECT_EQ(whole["start_ns"], a["start_ns"]);
  EXPECT_EQ(whole["end_ns"], b["end_ns"]);
  ASSERT_EQ(whole["topics"].size(), 2U);
  for (std::size_t k = 0; k < 2; ++k) {
    const json& t = whole["topics"][k];
    SCOPED_TRACE(t["name"].get<std::string>());
    EXPECT_EQ(t["name"], a["topics"][k]["name"]);
    EXPECT_EQ(t["name"], b["topics"][k]["name"]);
    EXPECT_EQ(t["messages"], a["topics"][k]["messages"].get<int>() + b["topics"][k]["messages"].get<int>());
    EXPECT_EQ(t["connections"], 1);
  }
  EXPECT_EQ(whole["topics"][0]["first_ns"], a["topics"][0]["first_ns"]);
  EXPECT_EQ(whole["topics"][0]["last_ns"], b["topics"][0]["last_ns"]);
  EXPECT_EQ(whole["topics"][0]["first_ns"], t0);
  EXPECT_EQ(whole["topics"][0]["last_ns"], t0 + 40'000'000);
}

TEST(CliLogInfo, ABagWithoutChunksAndASpanOfYearsAreSaidExactly) {
  const TempLogs tmp;
  // rosbag writes no chunk until a message comes: the format has no detail to give.
  const fs::path empty = tmp.dir / "empty.bag";
  const std::string bytes = rmodel::test::ros1_bag({}, {});
  std::ofstream(empty, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  const auto none = run_rmodel({"log-info", empty.string()});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("Format:       bag\n"), std::string::npos) << none.out;
  EXPECT_NE(none.out.find("Messages:     0\n"), std::string::npos) << none.out;
  // A recorder killed before it wrote a byte leaves an empty file; the message says so.
  std::ofstream(tmp.dir / "killed.bag");
  const auto killed = run_rmodel({"log-info", (tmp.dir / "killed.bag").string()});
  EXPECT_EQ(killed.exit_code, 2) << killed.err;  // as any file that is not a log
  EXPECT_NE(killed.err.find("killed.bag: empty file (0 bytes), not a ROS log"), std::string::npos) << killed.err;

  // A stamp left at zero beside real ones: 1.7e18 ns is past a double's 53 bits, and the
  // duration is the difference of the two stamps, to the nanosecond.
  const fs::path db3 = tmp.dir / "span.db3";
  rmodel::test::write_db3(db3, {{1, "/joint_states", "sensor_msgs/msg/JointState"}},
                          {{1, 1, "a"}, {1, 1'700'000'000'123'456'789, "b"}});
  const auto span = run_rmodel({"log-info", db3.string()});
  ASSERT_EQ(span.exit_code, 0) << span.err;
  EXPECT_NE(span.out.find("Duration:     1700000000.123456788 s\n"), std::string::npos) << span.out;
  EXPECT_NE(span.out.find("Start:        0.000000001 s\n"), std::string::npos) << span.out;
  EXPECT_NE(span.out.find("End:          1700000000.123456789 s\n"), std::string::npos) << span.out;
}

TEST(CliLogInfo, ARosbag2DirectoryWithoutMetadataNamesItsFiles) {
  // ros2 bag killed before it wrote metadata.yaml, or a copy without it: the files are there.
  const TempLogs tmp;
  const fs::path dir = tmp.dir / "killed";
  fs::create_directories(dir);
  const std::vector<rmodel::test::Db3Topic> topics = {{1, "/joint_states", "sensor_msgs/msg/JointState"}};
  rmodel::test::write_db3(dir / "killed_1.db3", topics, {{1, 2, "b"}});
  rmodel::test::write_db3(dir / "killed_0.db3", topics, {{1, 1, "a"}});
  for (const char* command : {"log-info", "aggregate"}) {
    std::vector<std::string> args{command, dir.string()};
    if (std::string(command) == "aggregate") args.insert(args.begin() + 1, "--sample");
    const auto r = run_rmodel(args);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_NE(r.err.find(dir.string() + ": is a rosbag2 directory without metadata.yaml, holding 2 log files "
                                        "(killed_0.db3, killed_1.db3): give the files themselves, or write the "
                                        "metadata with 'ros2 bag reindex'"),
              std::string::npos)
        << command << ": " << r.err;
  }
  // Each file alone is a log.
  EXPECT_EQ(run_rmodel({"log-info", (dir / "killed_0.db3").string()}).exit_code, 0);
  // A directory of something else keeps the plain message.
  fs::create_directories(tmp.dir / "plain");
  const auto plain = run_rmodel({"log-info", (tmp.dir / "plain").string()});
  EXPECT_NE(plain.err.find("is a directory, expected a file (or a rosbag2 directory with metadata.yaml)"),
            std::string::npos)
      << plain.err;
}
