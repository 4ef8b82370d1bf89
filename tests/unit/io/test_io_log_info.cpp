// read_log_info (io/bag.hpp) as `ros2 bag info` / `rosbag info` show a log (issue 21): a rosbag2
// directory lists every topic of every file, those without messages too, merged by name
// (counts summed, first/last times the earliest/latest); several ROS 1 connections or MCAP
// channels on one topic are one topic with their count. The logs are written here (sqlite3,
// ROS 1 bag and MCAP bytes from the specifications), so the truth is what was written.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "rmodel/io/bag.hpp"
#include "rmodel/io/reader.hpp"
#include "ros_log_builders.hpp"
#include "test_support.hpp"

namespace io = rmodel::io;
namespace fs = std::filesystem;
using rmodel::test::Db3Message;
using rmodel::test::Db3Topic;

namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000'000'000;  // ns: beyond a double's exact integers

struct TopicTruth {
  std::uint64_t messages = 0;
  std::int64_t first_ns = 0;
  std::int64_t last_ns = 0;
  std::uint32_t connections = 1;
  bool operator==(const TopicTruth&) const = default;
};

/// The topics of a LogInfo by name; fails the test when a name is listed twice.
std::map<std::string, TopicTruth> by_name(const io::LogInfo& info) {
  std::map<std::string, TopicTruth> out;
  for (const auto& t : info.topics) {
    EXPECT_EQ(out.count(t.name), 0U) << t.name << " listed twice";
    out[t.name] = TopicTruth{t.messages, t.first_ns, t.last_ns, t.connections};
  }
  return out;
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// A split rosbag2 directory as `ros2 bag record --max-bag-size` leaves it: each file declares
/// the topics anew (in another id order in the second), `/parameter_events` has no message.
struct SplitDb3Dir {
  fs::path dir;
  SplitDb3Dir() : dir(rmodel::test::make_temp_dir("rmodel-loginfo-") / "run") {
    fs::create_directories(dir);
    rmodel::test::write_db3(dir / "run_0.db3",
                            {{1, "/joint_states", "sensor_msgs/msg/JointState"},
                             {2, "/parameter_events", "rcl_interfaces/msg/ParameterEvent"},
                             {3, "/rosout", "rcl_interfaces/msg/Log"}},
                            {{1, kEpoch + 100, "a"}, {3, kEpoch + 105, "b"}, {1, kEpoch + 110, "c"},
                             {1, kEpoch + 120, "d"}});
    rmodel::test::write_db3(dir / "run_1.db3",
                            {{1, "/rosout", "rcl_interfaces/msg/Log"},
                             {2, "/joint_states", "sensor_msgs/msg/JointState"},
                             {3, "/parameter_events", "rcl_interfaces/msg/ParameterEvent"}},
                            {{2, kEpoch + 130, "e"}, {1, kEpoch + 135, "f"}, {2, kEpoch + 140, "g"},
                             {1, kEpoch + 150, "h"}});
    rmodel::test::write_rosbag2_metadata(dir, "sqlite3", {"run_0.db3", "run_1.db3"});
  }
  ~SplitDb3Dir() { fs::remove_all(dir.parent_path()); }
};

}  // namespace

TEST(LogInfo, SplitRosbag2DirectoryListsEveryTopicOfEveryFile) {
  const SplitDb3Dir bag;
  const io::LogInfo info = io::read_log_info(bag.dir.string());
  EXPECT_TRUE(info.problems.empty()) << info.problems.front();
  EXPECT_EQ(info.format.name(), "db3");
  EXPECT_EQ(info.detail.rfind("2 files: run_0.db3, run_1.db3", 0), 0U) << info.detail;
  EXPECT_EQ(info.messages, 8U);
  EXPECT_EQ(info.start_ns, kEpoch + 100);
  EXPECT_EQ(info.end_ns, kEpoch + 150);
  // What was written.
  const std::map<std::string, TopicTruth> want = {{"/joint_states", {5, kEpoch + 100, kEpoch + 140, 1}},
                                                  {"/rosout", {3, kEpoch + 105, kEpoch + 150, 1}},
                                                  {"/parameter_events", {0, 0, 0, 1}}};
  EXPECT_EQ(by_name(info), want);
  ASSERT_EQ(info.topics.size(), 3U);
  EXPECT_EQ(info.topics.back().name, "/parameter_events");  // without messages: last
  EXPECT_EQ(info.topics.back().type, "rcl_interfaces/msg/ParameterEvent");

  // The same as its files given one at a time, merged by name.
  std::map<std::string, TopicTruth> sum;
  for (const char* f : {"run_0.db3", "run_1.db3"}) {
    const io::LogInfo one = io::read_log_info((bag.dir / f).string());
    EXPECT_EQ(one.format.name(), "db3");
    EXPECT_EQ(one.topics.size(), 3U) << f;
    for (const auto& [name, t] : by_name(one)) {
      auto [it, fresh] = sum.try_emplace(name, t);
      if (fresh || t.messages == 0) continue;
      TopicTruth& s = it->second;
      s.first_ns = s.messages == 0 ? t.first_ns : std::min(s.first_ns, t.first_ns);
      s.last_ns = s.messages == 0 ? t.last_ns : std::max(s.last_ns, t.last_ns);
      s.messages += t.messages;
    }
  }
  EXPECT_EQ(by_name(info), sum);
}

TEST(LogInfo, TopicWithoutMessagesOfADirectoryIsInTheLog) {
  // Reading chooses among the same topics as log-info lists: /parameter_events is in the log
  // (declared by both files), with nothing to read, as when its .db3 is given directly.
  const SplitDb3Dir bag;
  io::ReaderOptions o;
  o.topics = {"/parameter_events"};
  for (const fs::path& log : {bag.dir, bag.dir / "run_0.db3"}) {
    const auto r = rmodel::test::read_log(log.string(), o);
    EXPECT_TRUE(r.messages.empty()) << log;
    EXPECT_TRUE(r.errors.empty()) << log << ": " << r.errors.front().reason;
  }
}

TEST(LogInfo, Rosbag2DirectoryAndItsDb3ListTheSameTopics) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* stem : {"greeting", "hoof_wave"}) {
    SCOPED_TRACE(stem);
    const fs::path dir = rmodel::test::fixture(std::string("bags/") + stem + "_db3");
    const io::LogInfo whole = io::read_log_info(dir.string());
    const io::LogInfo file = io::read_log_info((dir / (std::string(stem) + "_db3_0.db3")).string());
    EXPECT_EQ(whole.format.name(), "db3");
    EXPECT_EQ(whole.detail, fmt::format("1 file: {}_db3_0.db3; sqlite3", stem));
    EXPECT_EQ(whole.messages, file.messages);
    EXPECT_EQ(whole.start_ns, file.start_ns);
    EXPECT_EQ(whole.end_ns, file.end_ns);
    EXPECT_EQ(by_name(whole), by_name(file));
    EXPECT_EQ(whole.topics.size(), 3U);
  }
}

TEST(LogInfo, TwoConnectionsOnOneTopicAreOneTopic) {
  // Two joint drivers publish /joint_states (rosbag: two connections, one topic); a third
  // topic is declared by a publisher that sent nothing.
  using rmodel::test::ros1_joint_state;
  const std::vector<rmodel::test::Ros1Connection> connections = {
      {0, "/joint_states", "sensor_msgs/JointState", "/legs_driver"},
      {1, "/joint_states", "sensor_msgs/JointState", "/head_driver"},
      {2, "/rosout", "rosgraph_msgs/Log", "/legs_driver"},
      {3, "/diagnostics", "diagnostic_msgs/DiagnosticArray", "/monitor"}};
  const std::int64_t t0 = 1'700'000'000'000'000'000;
  const std::vector<rmodel::test::Ros1Message> messages = {
      {0, t0 + 1'000'001, ros1_joint_state(1, 1'700'000'000, 0, {"leg1", "leg2"}, {0.5, -0.5})},
      {1, t0 + 1'000'002, ros1_joint_state(1, 1'700'000'000, 0, {"head"}, {0.25})},
      {2, t0 + 5'000'000, "rosout payload"},
      {1, t0 + 11'000'002, ros1_joint_state(2, 1'700'000'000, 10'000'000, {"head"}, {0.3})},
      {0, t0 + 11'000'003, ros1_joint_state(2, 1'700'000'000, 10'000'000, {"leg1", "leg2"}, {0.6, -0.6})},
      {0, t0 + 21'000'001, ros1_joint_state(3, 1'700'000'000, 20'000'000, {"leg1", "leg2"}, {0.7, -0.7})}};
  const fs::path dir = rmodel::test::make_temp_dir("rmodel-loginfo-");
  const fs::path path = dir / "two_drivers.bag";
  write_file(path, rmodel::test::ros1_bag(connections, messages));

  const io::LogInfo info = io::read_log_info(path.string());
  EXPECT_TRUE(info.problems.empty()) << info.problems.front();
  EXPECT_EQ(info.format.name(), "bag");
  EXPECT_EQ(info.messages, 6U);
  const std::map<std::string, TopicTruth> want = {{"/joint_states", {5, t0 + 1'000'001, t0 + 21'000'001, 2}},
                                                  {"/rosout", {1, t0 + 5'000'000, t0 + 5'000'000, 1}},
                                                  {"/diagnostics", {0, 0, 0, 1}}};
  EXPECT_EQ(by_name(info), want);
  ASSERT_EQ(info.topics.size(), 3U);
  EXPECT_EQ(info.topics[0].name, "/joint_states");
  EXPECT_EQ(info.topics[0].type, "sensor_msgs/JointState");

  // Replay reads both connections' messages, in file order.
  const auto r = rmodel::test::read_log(path.string());
  EXPECT_TRUE(r.errors.empty()) << r.errors.front().reason;
  ASSERT_EQ(r.messages.size(), 5U);
  const std::vector<std::vector<std::string>> names = {
      {"leg1", "leg2"}, {"head"}, {"head"}, {"leg1", "leg2"}, {"leg1", "leg2"}};
  for (std::size_t k = 0; k < names.size(); ++k) EXPECT_EQ(r.messages[k].joint.name, names[k]) << k;
  fs::remove_all(dir);
}

TEST(LogInfo, McapChannelsOnOneTopicAreOneTopic) {
  // Three channels of /joint_states (one never used) and a /tf channel without messages.
  const std::vector<rmodel::test::McapChannel> channels = {{1, "/joint_states", "sensor_msgs/msg/JointState"},
                                                           {2, "/joint_states", "sensor_msgs/msg/JointState"},
                                                           {3, "/tf", "tf2_msgs/msg/TFMessage"},
                                                           {4, "/joint_states", "sensor_msgs/msg/JointState"}};
  const std::vector<rmodel::test::McapMessage> messages = {
      {2, kEpoch + 10, "x"}, {1, kEpoch + 20, "y"}, {2, kEpoch + 30, "z"}, {1, kEpoch + 25, "w"}};
  const fs::path dir = rmodel::test::make_temp_dir("rmodel-loginfo-");
  const fs::path path = dir / "channels.mcap";
  write_file(path, rmodel::test::mcap_with_channels(channels, messages));
  const io::LogInfo info = io::read_log_info(path.string());
  EXPECT_TRUE(info.problems.empty()) << info.problems.front();
  EXPECT_EQ(info.format.name(), "mcap");
  const std::map<std::string, TopicTruth> want = {{"/joint_states", {4, kEpoch + 10, kEpoch + 30, 3}},
                                                  {"/tf", {0, 0, 0, 1}}};
  EXPECT_EQ(by_name(info), want);
  fs::remove_all(dir);
}

TEST(LogInfo, McapRosbag2DirectoryCountsEachFilesChannelsOnce) {
  // rosbag2 with MCAP storage declares its channels in every file: the directory has as many
  // connections per topic as its files have, not their sum.
  const fs::path root = rmodel::test::make_temp_dir("rmodel-loginfo-");
  const fs::path dir = root / "run";
  fs::create_directories(dir);
  const std::vector<rmodel::test::McapChannel> channels = {{1, "/joint_states", "sensor_msgs/msg/JointState"},
                                                           {2, "/joint_states", "sensor_msgs/msg/JointState"},
                                                           {3, "/parameter_events", "rcl_interfaces/msg/ParameterEvent"}};
  write_file(dir / "run_0.mcap", rmodel::test::mcap_with_channels(channels, {{1, kEpoch + 1, "a"}, {2, kEpoch + 2, "b"}}));
  write_file(dir / "run_1.mcap", rmodel::test::mcap_with_channels(channels, {{2, kEpoch + 3, "c"}}));
  rmodel::test::write_rosbag2_metadata(dir, "mcap", {"run_0.mcap", "run_1.mcap"});
  const io::LogInfo info = io::read_log_info(dir.string());
  EXPECT_TRUE(info.problems.empty()) << info.problems.front();
  EXPECT_EQ(info.format.name(), "mcap");
  EXPECT_EQ(info.detail.rfind("2 files: run_0.mcap, run_1.mcap; profile ros2", 0), 0U) << info.detail;
  const std::map<std::string, TopicTruth> want = {{"/joint_states", {3, kEpoch + 1, kEpoch + 3, 2}},
                                                  {"/parameter_events", {0, 0, 0, 1}}};
  EXPECT_EQ(by_name(info), want);
  fs::remove_all(root);
}
