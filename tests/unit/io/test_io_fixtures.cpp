// Reading the real robot's joint states and trajectories, checked against an independent
// reading of the same files with nlohmann_json.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "json_parsers.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/reader.hpp"
#include "test_support.hpp"

namespace io = rmodel::io;
using rmodel::Time;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::vector<fs::path> fixture_files(const std::string& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(rmodel::test::fixture(dir)))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

using Read = rmodel::test::ReadResult;

Read read_path(const std::string& path, io::ReaderOptions options = {}) {
  return rmodel::test::read_log(path, std::move(options));
}

Read read_text(const std::string& text, io::ReaderOptions options = {}) {
  Read r;
  for (auto& item : rmodel::test::read_items(text, std::move(options), "<text>")) {
    if (item.status == io::ReadStatus::Ok) r.messages.push_back(std::move(item.message));
    if (item.status == io::ReadStatus::Error) r.errors.push_back(std::move(item.error));
  }
  return r;
}

// A ROS time {secs, nsecs}: secs·10⁹ + nsecs nanoseconds.
Time ros_time(const json& t) {
  return Time{t.at("secs").get<std::int64_t>() * 1'000'000'000 + t.at("nsecs").get<std::int64_t>()};
}

std::vector<double> doubles(const json& a) { return a.get<std::vector<double>>(); }

// The expected messages of a trajectory, computed from nlohmann's reading of the file.
std::vector<io::Message> expected_trajectory(const json& goal) {
  const json& traj = goal.at("trajectory");
  const auto names = traj.at("joint_names").get<std::vector<std::string>>();
  const Time base = ros_time(traj.at("header").at("stamp"));
  std::vector<io::Message> out;
  for (const json& p : traj.at("points")) {
    const auto pos = doubles(p.at("positions"));
    const auto vel = doubles(p.at("velocities"));
    io::Message j, s;
    j.kind = io::MessageKind::Joint;
    s.kind = io::MessageKind::Support;
    j.joint.stamp = s.support.stamp = base + ros_time(p.at("time_from_start"));
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i].substr(0, 8) == "support/") {
        s.support.name.push_back(names[i].substr(8));
        s.support.support.push_back(pos.at(i));
      } else {
        j.joint.name.push_back(names[i]);
        if (!pos.empty()) j.joint.position.push_back(pos[i]);
        if (!vel.empty()) j.joint.velocity.push_back(vel[i]);
      }
    }
    out.push_back(j);
    if (!s.support.name.empty()) out.push_back(s);
  }
  return out;
}

}  // namespace

TEST(IoFixtures, EveryJointStateFileReadsAsOneMessage) {
  RMODEL_REQUIRE_FIXTURES();
  const auto files = fixture_files("sweetie_bot_proto2/joint_state");
  ASSERT_EQ(files.size(), 5u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    const json truth = json::parse(std::ifstream(f));
    // The nlohmann_json parser is not in librmodel (tests/json_parsers).
    using io::testing::JsonParser;
    for (JsonParser parser : {JsonParser::Native, JsonParser::Nlohmann}) {
      auto reader = io::MessageReader::open(f.string());
      io::testing::use_parser(reader, parser);
      const Read r = rmodel::test::read_log(reader);
      ASSERT_TRUE(r.errors.empty()) << r.errors[0].to_string(f.string());
      ASSERT_EQ(r.messages.size(), 1u);
      const io::Message& m = r.messages[0];
      EXPECT_EQ(m.kind, io::MessageKind::Joint);
      EXPECT_EQ(m.line, 1u);
      EXPECT_TRUE(m.has_stamp);
      EXPECT_EQ(m.joint.stamp, ros_time(truth.at("header").at("stamp")));
      EXPECT_EQ(m.joint.name, truth.at("name").get<std::vector<std::string>>());
      EXPECT_EQ(m.joint.position, doubles(truth.at("position")));
      EXPECT_EQ(m.joint.velocity, doubles(truth.at("velocity")));
      EXPECT_EQ(m.joint.effort, doubles(truth.at("effort")));
      EXPECT_FALSE(io::check_sizes(m).has_value());
    }
  }
  const Read nominal = read_path(rmodel::test::fixture("sweetie_bot_proto2/joint_state/nominal.json").string());
  ASSERT_EQ(nominal.messages.size(), 1u);
  EXPECT_EQ(nominal.messages[0].joint.name.size(), 32u);
  EXPECT_EQ(nominal.messages[0].joint.name.front(), "joint11");
  EXPECT_EQ(nominal.messages[0].joint.name.back(), "eyes_yaw");
}

TEST(IoFixtures, JointStateFilesAsOneArrayAndAsJsonLines) {
  RMODEL_REQUIRE_FIXTURES();
  const auto files = fixture_files("sweetie_bot_proto2/joint_state");
  std::string array = "[\n";
  std::string lines;
  for (std::size_t i = 0; i < files.size(); ++i) {
    array += rmodel::test::read_file(files[i]) + (i + 1 < files.size() ? ",\n" : "\n");
    lines += json::parse(std::ifstream(files[i])).dump() + "\n";
  }
  array += "]\n";
  const Read a = read_text(array);
  const Read l = read_text(lines, {io::parse_format("jsonl")});
  ASSERT_TRUE(a.errors.empty());
  ASSERT_TRUE(l.errors.empty());
  ASSERT_EQ(a.messages.size(), files.size());
  ASSERT_EQ(l.messages.size(), files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    EXPECT_EQ(a.messages[i].joint, l.messages[i].joint);
    EXPECT_EQ(a.messages[i].item, i + 1);
    EXPECT_EQ(l.messages[i].line, i + 1);
  }
}

TEST(IoFixtures, GreetingTrajectory) {
  RMODEL_REQUIRE_FIXTURES();
  const auto path = rmodel::test::fixture("sweetie_bot_proto2/joint_trajectories/greeting.json");
  const json goal = json::parse(std::ifstream(path));
  const Read r = read_path(path.string());
  ASSERT_TRUE(r.errors.empty()) << r.errors[0].to_string(path.string());
  ASSERT_EQ(goal.at("trajectory").at("points").size(), 10u);
  ASSERT_EQ(r.messages.size(), 20u);  // a JointState and a SupportState per point
  const Time base{1532276474'571175114};
  const std::vector<std::string> chains = {"leg1", "leg2", "leg3", "leg4"};
  for (std::size_t k = 0; k < 10; ++k) {
    const io::Message& j = r.messages[2 * k];
    const io::Message& s = r.messages[2 * k + 1];
    const json& point = goal.at("trajectory").at("points").at(k);
    const Time t = base + ros_time(point.at("time_from_start"));
    ASSERT_EQ(j.kind, io::MessageKind::Joint);
    ASSERT_EQ(s.kind, io::MessageKind::Support);
    EXPECT_EQ(j.item, k + 1);
    EXPECT_EQ(s.item, k + 1);
    EXPECT_EQ(j.joint.stamp, t);
    EXPECT_EQ(s.support.stamp, t);
    EXPECT_EQ(j.joint.name.size(), 14u);
    for (const auto& n : j.joint.name) EXPECT_EQ(n.find("support/"), std::string::npos);
    EXPECT_EQ(j.joint.name.front(), "eyes_pitch");
    EXPECT_EQ(j.joint.position.size(), 14u);
    EXPECT_TRUE(j.joint.velocity.empty());
    EXPECT_EQ(s.support.name, chains);
    const auto pos = doubles(point.at("positions"));
    EXPECT_EQ(s.support.support, (std::vector<double>(pos.end() - 4, pos.end())));
    EXPECT_EQ(j.joint.position, (std::vector<double>(pos.begin(), pos.end() - 4)));
  }
  EXPECT_EQ(r.messages[0].joint.stamp, base);
  EXPECT_EQ(r.messages[2].joint.stamp, base + Time{200'000'000});
  EXPECT_EQ(r.messages.back().support.stamp, base + Time{4'599'999'998});
}

TEST(IoFixtures, EveryTrajectoryMatchesAnIndependentReading) {
  RMODEL_REQUIRE_FIXTURES();
  const auto files = fixture_files("sweetie_bot_proto2/joint_trajectories");
  ASSERT_EQ(files.size(), 4u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    const json goal = json::parse(std::ifstream(f));
    const auto expected = expected_trajectory(goal);
    // As the file is (pretty), compact on one JSON line, and as a bare JointTrajectory.
    const std::vector<Read> reads = {
        read_path(f.string()),
        read_text(goal.dump() + "\n", {io::parse_format("jsonl")}),
        read_text(goal.at("trajectory").dump(2)),
    };
    for (const Read& r : reads) {
      ASSERT_TRUE(r.errors.empty()) << r.errors[0].reason;
      ASSERT_EQ(r.messages.size(), expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(r.messages[i].kind, expected[i].kind);
        if (expected[i].kind == io::MessageKind::Joint) {
          EXPECT_EQ(r.messages[i].joint, expected[i].joint);
        }
        if (expected[i].kind == io::MessageKind::Support) {
          EXPECT_EQ(r.messages[i].support, expected[i].support);
        }
      }
    }
  }
}

TEST(IoFixtures, MissingAndDirectoryPathsThrow) {
  EXPECT_THROW((void)io::MessageReader::open("/nonexistent/rmodel/file.jsonl"), rmodel::IoError);
  EXPECT_THROW((void)io::MessageReader::open(fs::temp_directory_path().string()), rmodel::IoError);
  try {
    (void)io::MessageReader::open("/nonexistent/x.csv");
    FAIL();
  } catch (const rmodel::IoError& e) {
    EXPECT_EQ(e.path(), "/nonexistent/x.csv");
  }
}
