// What the reports of the streaming commands say (issue 21, points 6 and 7): repeated
// warnings capped per kind and joint with the rest counted in the summary (--max-reports),
// each message of a pretty JSON array at its own line, one wording for where a message is
// (":LINE: item N" in text logs, ": byte B: message N" in binary ROS logs), and a damaged
// ROS log named at the same byte by aggregate as by log-info.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "text_scan.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;
using test::run_rmodel;

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

std::vector<std::string> report_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

class CliReports : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-reports-"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) const {
    const auto path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  std::filesystem::path dir_;
};

// Sweetie Bot's hoof_wave bag with a joint_limits.yaml that narrows two joints' position
// ranges: the truth file says how many messages carry each joint outside its range, and
// aggregate warns once per such message. The cap shows max-reports of them per joint.
class CliReportsCap : public CliReports {
protected:
  void SetUp() override {
    CliReports::SetUp();
    if (!test::have_fixtures()) return;
    limits_ = write("joint_limits.yaml",
                    "joint_limits:\n"
                    "  joint13:\n    has_position_limits: true\n    min_position: -0.5\n    max_position: 0.5\n"
                    "  joint12:\n    has_position_limits: true\n    min_position: -0.2\n    max_position: 0.3\n");
    // The oracle: the bag's own truth, compared with the limits above.
    std::istringstream truth(read_file(fixture("bags/hoof_wave.truth.jsonl")));
    for (std::string line; std::getline(truth, line);) {
      const auto m = nlohmann::json::parse(line);
      if (m.value("topic", "") != "/joint_states") continue;
      for (std::size_t i = 0; i < m["name"].size(); ++i) {
        const double q = m["position"][i].get<double>();
        if (m["name"][i] == "joint13" && (q < -0.5 || q > 0.5)) ++outside13_;
        if (m["name"][i] == "joint12" && (q < -0.2 || q > 0.3)) ++outside12_;
      }
    }
  }
  test::RunResult aggregate(std::vector<std::string> more) const {
    std::vector<std::string> args = {"aggregate",
                                     "-u",
                                     fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(),
                                     "-s",
                                     fixture("sweetie_bot_proto2/kinematic_chains.cpf").string(),
                                     "--limits",
                                     limits_,
                                     fixture("bags/hoof_wave.lz4.bag").string(),
                                     "-o",
                                     (dir_ / "out.jsonl").string()};
    args.insert(args.end(), more.begin(), more.end());
    return run_rmodel(args);
  }
  static std::string shown(const std::string& joint) { return ": warning: joint '" + joint + "' at "; }
  static std::string held(std::size_t count, const std::string& joint, std::size_t max) {
    return "rmodel aggregate: " + std::to_string(count) + " more position-limit warnings for '" + joint +
           "' not shown (--max-reports " + std::to_string(max) + ")\n";
  }
  std::string summary() const {
    return ", " + std::to_string(outside12_ + outside13_) + " warnings\n";
  }
  std::string limits_;
  std::size_t outside13_ = 0;
  std::size_t outside12_ = 0;
};

TEST_F(CliReportsCap, DefaultShowsTenPerJointAndCountsTheRest) {
  RMODEL_REQUIRE_FIXTURES();
  ASSERT_GT(outside13_, 10U);  // the data: both joints leave their range often
  ASSERT_GT(outside12_, 10U);
  const auto r = aggregate({});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(occurrences(r.err, shown("joint13")), 10U) << r.err;
  EXPECT_EQ(occurrences(r.err, shown("joint12")), 10U) << r.err;
  EXPECT_EQ(occurrences(r.err, held(outside13_ - 10, "joint13", 10)), 1U) << r.err;
  EXPECT_EQ(occurrences(r.err, held(outside12_ - 10, "joint12", 10)), 1U) << r.err;
  // Every warning is counted in the summary line, shown or not.
  EXPECT_EQ(occurrences(r.err, summary()), 1U) << r.err;
}

TEST_F(CliReportsCap, MaxReportsSetsTheCap) {
  RMODEL_REQUIRE_FIXTURES();
  const auto three = aggregate({"--max-reports", "3"});
  ASSERT_EQ(three.exit_code, 0) << three.err;
  EXPECT_EQ(occurrences(three.err, shown("joint13")), 3U) << three.err;
  EXPECT_EQ(occurrences(three.err, shown("joint12")), 3U);
  EXPECT_EQ(occurrences(three.err, held(outside13_ - 3, "joint13", 3)), 1U) << three.err;
  EXPECT_EQ(occurrences(three.err, held(outside12_ - 3, "joint12", 3)), 1U) << three.err;
  EXPECT_EQ(occurrences(three.err, summary()), 1U) << three.err;
  // A cap above the counts shows every warning and holds nothing back.
  const auto all = aggregate({"--max-reports", "100000"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(occurrences(all.err, shown("joint13")), outside13_);
  EXPECT_EQ(occurrences(all.err, shown("joint12")), outside12_);
  EXPECT_EQ(occurrences(all.err, "not shown"), 0U) << all.err;
  // Quiet: only the summary, which still counts them.
  const auto quiet = aggregate({"-q"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(occurrences(quiet.err, "warning:"), 0U) << quiet.err;
  EXPECT_EQ(occurrences(quiet.err, "not shown"), 0U) << quiet.err;
  EXPECT_EQ(report_lines(quiet.err).size(), 1U) << quiet.err;
  EXPECT_EQ(occurrences(quiet.err, summary()), 1U) << quiet.err;
}

TEST_F(CliReportsCap, WarningsOfABinaryLogNameTheMessageNumber) {
  RMODEL_REQUIRE_FIXTURES();
  const auto r = aggregate({"--max-reports", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // No line in a bag: "BAG: message N:", the number of the message in the file (from 1,
  // no leading zero).
  const std::string head = "rmodel: " + fixture("bags/hoof_wave.lz4.bag").string() + ": message ";
  const auto names_the_message = [&](const std::string& line) {
    for (const std::string joint : {"joint12", "joint13"}) {
      const std::string tail = ": warning: joint '" + joint + "' at ";
      for (auto found = test::find_number_between(line, head, tail); found;
           found = test::find_number_between(line, head, tail, found->at + 1))
        if (found->digits.front() != '0') return true;
    }
    return false;
  };
  std::size_t matched = 0;
  for (const auto& line : report_lines(r.err)) matched += names_the_message(line) ? 1 : 0;
  EXPECT_EQ(matched, 2U) << r.err;
}

TEST_F(CliReports, MaxReportsIsOneOptionOfAggregateFilterAndCheckLog) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"aggregate", "--sample", "--max-reports", "0", "-"},
        std::vector<std::string>{"filter", "exponential", "-p", "tau=0.05", "--max-reports", "0", "-"},
        std::vector<std::string>{"check-log", "--sample", "--max-reports", "0", "-"}}) {
    const auto r = run_rmodel(args, "");
    EXPECT_EQ(r.exit_code, 2) << args[0] << r.err;
    EXPECT_NE(r.err.find("--max-reports"), std::string::npos) << r.err;
  }
  for (const std::string command : {"aggregate", "filter", "check-log"}) {
    const auto help = run_rmodel({command, "--help"});
    EXPECT_NE(help.out.find("Problems shown per kind and joint; later ones are only counted"), std::string::npos)
        << command << help.out;
  }
}

// A pretty-printed JSON array: each message at the line where its element starts, a parse
// error at the line of the bad value, and "item N" for the element in every report.
TEST_F(CliReports, PrettyJsonArrayMessagesKeepTheirLines) {
  const std::string log = write("pretty.json",
                                "[\n"                                         // 1
                                "  {\n"                                       // 2
                                "    \"t\": 0,\n"                             // 3
                                "    \"name\": [\"neck_pitch\"],\n"           // 4
                                "    \"position\": [0.1]\n"                   // 5
                                "  },\n"                                      // 6
                                "  {\n"                                       // 7
                                "    \"t\": 0.01,\n"                          // 8
                                "    \"name\": [\"neck_pitch\"],\n"           // 9
                                "    \"position\": [\"x\"]\n"                 // 10: not a number
                                "  },\n"                                      // 11
                                "\n"                                          // 12
                                "  {\n"                                       // 13
                                "    \"t\": 0.02,\n"                          // 14
                                "    \"name\": [\"neck_pitch\", \"nose\"],\n"  // 15
                                "    \"position\": [0.9, 0]\n"                // 16: above 0.5
                                "  }\n"                                       // 17
                                "]\n");
  const auto agg = run_rmodel({"aggregate", "--sample", log});
  EXPECT_EQ(agg.exit_code, 1) << agg.err;  // a message was rejected
  const auto err = report_lines(agg.err);
  ASSERT_EQ(err.size(), 4U) << agg.err;
  EXPECT_TRUE(err[0].starts_with("rmodel: " + log + ":10: item 2: ")) << err[0];
  EXPECT_EQ(err[1], "rmodel: " + log + ":13: item 3: warning: unknown joint 'nose' skipped");
  EXPECT_TRUE(err[2].starts_with("rmodel: " + log + ":13: item 3: warning: joint 'neck_pitch' at 0.9 is outside"))
      << err[2];
  EXPECT_EQ(err[3], "rmodel aggregate: read 2 messages, wrote 2, rejected 1, 2 warnings");

  const auto check = run_rmodel({"check-log", "--sample", log, "-f", "json"});
  EXPECT_EQ(check.exit_code, 1) << check.err;
  const auto doc = nlohmann::json::parse(check.out);
  std::vector<std::pair<int, int>> places;
  for (const auto& p : doc["problems"]) places.emplace_back(p["line"].get<int>(), p["item"].get<int>());
  EXPECT_EQ(places, (std::vector<std::pair<int, int>>{{10, 2}, {13, 3}, {13, 3}})) << check.out;
  const auto text = run_rmodel({"check-log", "--sample", log});
  EXPECT_NE(text.out.find(log + ":13: item 3: error: joint 'neck_pitch': position 0.9 is outside"), std::string::npos)
      << text.out;
}

// A value below minus the limit is over it by its magnitude, and the report says so (it used
// to read "velocity -2.5 is above its limit 2").
TEST_F(CliReports, LimitsAreComparedWithMagnitudesAndSaySo) {
  const std::string log = write("back.jsonl",
                                "{\"t\": 0, \"name\": [\"head_yaw\"], \"position\": [0.3], \"velocity\": [-2.5]}\n"
                                "{\"t\": 0.1, \"name\": [\"head_yaw\"], \"position\": [-0.3]}\n");
  const auto r = run_rmodel({"check-log", "--sample", "--period", "0.1", log});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find(log + ":1: error: joint 'head_yaw': velocity -2.5 rad/s, its magnitude above the limit 2 "
                             "[velocity-limit]"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(log + ":2: error: joint 'head_yaw': moved from 0.3 to -0.3 in 0.1 s, -6 rad/s implied, its "
                             "magnitude above the velocity limit 2 [implied-velocity]"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("is above its limit"), std::string::npos) << r.out;
}

// A bag cut short: aggregate names the damaged record as log-info does, with its byte.
TEST_F(CliReports, TruncatedLogNamedAtTheSameByteAsLogInfo) {
  RMODEL_REQUIRE_FIXTURES();
  for (const std::string name : {"hoof_wave.lz4.bag", "hoof_wave.mcap"}) {
    const std::string bytes = read_file(fixture("bags/" + name));
    const std::string cut = write("cut-" + name, bytes.substr(0, bytes.size() / 2));
    const auto info = run_rmodel({"log-info", cut, "-f", "json"});
    const auto doc = nlohmann::json::parse(info.out);
    ASSERT_EQ(doc["problems"].size(), 1U) << info.out;
    const std::string problem = doc["problems"][0].get<std::string>();
    const auto byte = test::find_number_between(problem, ": byte ", ": ");
    ASSERT_TRUE(byte) << problem;
    EXPECT_LE(std::stoull(std::string(byte->digits)), bytes.size() / 2) << problem;  // within what is left
    const auto agg = run_rmodel({"aggregate", "--sample", cut, "-o", (dir_ / "out.jsonl").string()});
    EXPECT_NE(agg.err.find("rmodel: " + problem + "\n"), std::string::npos) << name << "\n" << problem << "\n" << agg.err;
  }
}

}  // namespace
}  // namespace rmodel
