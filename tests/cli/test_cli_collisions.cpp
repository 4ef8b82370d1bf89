// Self-collision from the command line: `collisions` (the matrix, --update), `check
// --collisions`, `check-log --collisions`, `fk --collisions`, `info --mass-properties`, on the
// sample robot, whose geometry makes the answers known: which links a joint joins, which legs
// can reach each other.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "rmodel/collision/collision.hpp"
#include "rmodel/model/semantics.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using nlohmann::json;
using test::run_rmodel;

std::string collision_example(const std::string& name) { return (test::source_dir() / "share/rmodel/examples" / name).string(); }
std::string pony_urdf() { return test::sample("pony.urdf").string(); }

bool has_part(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class CliCollisions : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-cli-collisions-"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(CliCollisions, MatrixOfTheSampleRobot) {
  const auto r = run_rmodel({"collisions", "--sample", "-f", "json", "--samples", "2000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["schema"], "rmodel.collisions");
  EXPECT_EQ(doc["links"], 17);  // every link but the hoofs' virtual links and the camera
  EXPECT_EQ(doc["pairs"], 17 * 16 / 2);
  EXPECT_EQ(doc["samples"], 2000);
  // Adjacent: the links each joint joins, both with geometry (the URDF's own structure).
  std::set<std::pair<std::string, std::string>> adjacent, expected;
  for (const char* leg : {"front_left", "front_right", "rear_left", "rear_right"}) {
    const std::string l = leg;
    expected.insert({"base_link", l + "_thigh"});
    expected.insert({l + "_shin", l + "_thigh"});
    expected.insert({l + "_hoof", l + "_shin"});
  }
  expected.insert({"base_link", "neck"});
  expected.insert({"head", "neck"});
  expected.insert({"head", "jaw"});
  expected.insert({"base_link", "tail"});
  std::string previous;
  for (const auto& d : doc["disabled"]) {
    const std::string a = d["link1"], b = d["link2"];
    EXPECT_LT(a, b);
    EXPECT_LT(previous, a + " " + b);  // sorted
    previous = a + " " + b;
    if (d["reason"] == "Adjacent") adjacent.insert({a, b});
  }
  EXPECT_EQ(adjacent, expected);
  EXPECT_EQ(doc["disabled_counts"]["Adjacent"], 16);
  // A front leg can swing back into the rear leg of its side: they are checked, not Never.
  for (const auto& d : doc["disabled"])
    EXPECT_FALSE(d["link1"] == "front_left_shin" && d["link2"] == "rear_left_shin") << d;
  // The same run as SRDF lines reads back as the same entries.
  const auto srdf = run_rmodel({"collisions", "--sample", "-f", "srdf", "--samples", "2000"});
  const auto entries = parse_srdf("<robot name=\"pony\">" + srdf.out + "</robot>", "lines").collisions.disabled;
  ASSERT_EQ(entries.size(), doc["disabled"].size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(entries[i].link1, doc["disabled"][i]["link1"]);
    EXPECT_EQ(entries[i].reason, doc["disabled"][i]["reason"]);
  }
  // Repeatable: the same seed, the same matrix, whatever the threads.
  const auto one = run_rmodel({"collisions", "--sample", "-f", "srdf", "--samples", "2000", "--threads", "1"});
  EXPECT_EQ(one.out, srdf.out);
}

TEST_F(CliCollisions, UpdateRewritesOnlyTheMatrixInPlace) {
  const auto srdf = dir_ / "pony.srdf";
  const std::string head = "<?xml version=\"1.0\"?>\n<!-- kept -->\n<robot name=\"pony\">\n"
                           "  <virtual_joint name=\"world\" type=\"floating\" parent_frame=\"odom\" child_link=\"base_link\"/>\n";
  std::ofstream(srdf) << head << "  <disable_collisions link1=\"head\" link2=\"tail\" reason=\"Never\"/>\n"
                      << "  <disable_collisions link1=\"jaw\" link2=\"tail\" reason=\"Mine\"/>\n</robot>\n";
  // -o naming an input is refused: only --update writes to one.
  const auto refused = run_rmodel({"collisions", "-u", pony_urdf(), "-s", srdf.string(), "-f", "srdf", "-o",
                                   srdf.string(), "--samples", "500"});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  const auto r =
      run_rmodel({"collisions", "-u", pony_urdf(), "-s", srdf.string(), "--update", srdf.string(), "--samples", "500"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(has_part(r.err, "17 links with geometry")) << r.err;
  const std::string text = test::read_file(srdf);
  EXPECT_EQ(text.rfind(head, 0), 0u) << text;
  EXPECT_TRUE(has_part(text, "  <disable_collisions link1=\"base_link\" link2=\"front_left_thigh\" reason=\"Adjacent\"/>\n"));
  // The user's entry (a reason of their own) is kept.
  EXPECT_TRUE(has_part(text, "<disable_collisions link1=\"jaw\" link2=\"tail\" reason=\"Mine\"/>")) << text;
  EXPECT_TRUE(text.ends_with("\"/>\n</robot>\n"));
  // What -f srdf prints with -s is what --update wrote.
  const auto printed = run_rmodel({"collisions", "-u", pony_urdf(), "-s", srdf.string(), "-f", "srdf", "--samples", "500"});
  EXPECT_EQ(printed.out, text);
  // A file that cannot be replaced: exit 1, the file as it was.
  std::filesystem::permissions(dir_, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  const auto failed =
      run_rmodel({"collisions", "-u", pony_urdf(), "--update", srdf.string(), "--samples", "10", "--seed", "3"});
  std::filesystem::permissions(dir_, std::filesystem::perms::owner_all);
  if (::geteuid() != 0) {  // root writes anywhere
    EXPECT_EQ(failed.exit_code, 1) << failed.err;
    EXPECT_EQ(test::read_file(srdf), text);
  }
}

TEST_F(CliCollisions, CheckFindsStaleAndMissingEntries) {
  // front_left_shin and rear_left_shin collide when the legs swing together (kick.jsonl):
  // disabling them as Never is stale; the matrix lacks every other pair: missing.
  const auto srdf = dir_ / "pony.srdf";
  std::ofstream(srdf) << "<robot name=\"pony\">\n"
                         "  <disable_collisions link1=\"front_left_shin\" link2=\"rear_left_shin\" reason=\"Never\"/>\n"
                         "</robot>\n";
  const auto r = run_rmodel({"check", "-u", pony_urdf(), "-s", srdf.string(), "--collisions", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = json::parse(r.out);
  std::size_t stale = 0, missing = 0;
  for (const auto& p : doc["problems"]) {
    if (p["code"] == "collision-matrix-stale") {
      ++stale;
      EXPECT_EQ(p["line"], 2);
      EXPECT_TRUE(has_part(p["message"], "links 'front_left_shin' and 'rear_left_shin' are disabled as Never, but "
                                         "collide in random pose "))
          << p;
    }
    if (p["code"] == "collision-matrix-missing") ++missing;
  }
  EXPECT_EQ(stale, 1u);
  EXPECT_GT(missing, 16u);  // the adjacent pairs at least
  // The pose named in the warning does collide.
  const std::string message = [&] {
    for (const auto& p : doc["problems"])
      if (p["code"] == "collision-matrix-stale") return p["message"].get<std::string>();
    return std::string();
  }();
  const auto at = message.find("--show-sample ");
  ASSERT_NE(at, std::string::npos);
  const std::string index = message.substr(at + 14, message.find('`', at) - at - 14);
  const auto pose = run_rmodel({"collisions", "--sample", "--show-sample", index});
  ASSERT_EQ(pose.exit_code, 0) << pose.err;
  const auto fk = run_rmodel({"fk", "--sample", "--collisions", "--pose", pose.out.substr(0, pose.out.size() - 1)});
  EXPECT_TRUE(has_part(fk.out, "front_left_shin   rear_left_shin")) << fk.out << fk.err;
  // Semantics without a matrix (the sample's rmodel JSON): a note.
  const auto none = run_rmodel({"check", "--sample", "--collisions"});
  EXPECT_EQ(none.exit_code, 0) << none.out;
  EXPECT_TRUE(has_part(none.out, "the semantics have no collision matrix (<disable_collisions>) to check: `rmodel "
                                 "collisions` computes one [collision-matrix-none]"))
      << none.out;
}

TEST_F(CliCollisions, ShowSampleTakesAPoseNumber) {
  // A count: a negative one is refused, not wrapped round to 2^64 - 3.
  const auto negative = run_rmodel({"collisions", "--sample", "--show-sample", "-3"});
  EXPECT_EQ(negative.exit_code, 2) << negative.out;
  EXPECT_TRUE(has_part(negative.err, "--show-sample: '-3' must be at least 0")) << negative.err;
  EXPECT_TRUE(negative.out.empty()) << negative.out;
  EXPECT_EQ(run_rmodel({"collisions", "--sample", "--samples", "-3"}).exit_code, 2);
  const auto pose = run_rmodel({"collisions", "--sample", "--show-sample", "0"});
  EXPECT_EQ(pose.exit_code, 0) << pose.err;
  EXPECT_TRUE(has_part(pose.out, "front_left_hip=")) << pose.out;
}

TEST_F(CliCollisions, CheckLogFindsTheKick) {
  const auto r = run_rmodel({"check-log", "--sample", "--collisions", collision_example("kick.jsonl")});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(has_part(r.out, "kick.jsonl:4: error: links 'front_left_shin' and 'rear_left_shin' collide at t = 0.3 "
                              "(depth "))
      << r.out;
  EXPECT_TRUE(has_part(r.out, "self-collision front_left_shin and rear_left_shin: in 1 joint state")) << r.out;
  EXPECT_TRUE(has_part(r.out, "invalid: 4 errors")) << r.out;
  // Without --collisions the log is fine; with a margin, the approach is reported too.
  EXPECT_EQ(run_rmodel({"check-log", "--sample", collision_example("kick.jsonl")}).exit_code, 0);
  const auto json_report =
      run_rmodel({"check-log", "--sample", "--collisions", "--margin", "0.05", collision_example("kick.jsonl"), "-f", "json"});
  const json doc = json::parse(json_report.out);
  ASSERT_TRUE(doc.contains("collisions"));
  bool apart = false;
  for (const auto& p : doc["problems"]) apart = apart || has_part(p["message"], "apart at t = 0.2, closer than");
  EXPECT_TRUE(apart) << json_report.out;
}

TEST_F(CliCollisions, FkReportsThePairsAtAPoseAndAlongALog) {
  const auto apart = run_rmodel({"fk", "--sample", "--collisions"});
  EXPECT_EQ(apart.out, "link1  link2  depth\n");  // the zero pose: nothing but adjacent links touching
  const auto r = run_rmodel({"fk", "--sample", "--collisions", "-f", "json", "front_left_hip=1.2",
                             "front_left_knee=-2", "rear_left_hip=-1.2"});
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["schema"], "rmodel.fk_collisions");
  ASSERT_EQ(doc["collisions"].size(), 4u) << r.out;
  for (const auto& c : doc["collisions"]) EXPECT_GT(c["depth"].get<double>(), 0);
  const auto log = run_rmodel({"fk", "--sample", "--collisions", "--log", collision_example("kick.jsonl"), "-f", "jsonl"});
  const auto lines = test::json_lines(log.out);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_TRUE(lines[0]["collisions"].empty());
  EXPECT_EQ(lines[3]["collisions"].size(), 4u);
  EXPECT_EQ(lines[3]["t"], 0.3);
}

TEST_F(CliCollisions, PairsLeftOutAreMoveItsAllowedMatrix) {
  // a, b and c overlap pairwise (spheres of 0.1 m, centres 0.05 m apart); r is far below them.
  // MoveIt's order (srdfdom, then the planning scene): a–b disabled; c disabled with every link
  // (<disable_default_collisions>); c–a checked again (<enable_collisions>). Only a–c is left.
  const auto urdf = dir_ / "t.urdf", srdf = dir_ / "t.srdf";
  const std::string sphere = "<collision><geometry><sphere radius=\"0.1\"/></geometry></collision>";
  std::ofstream(urdf) << "<robot name=\"t\">\n"
                      << "<link name=\"r\"><collision><origin xyz=\"0 0 -3\"/><geometry><sphere radius=\"0.1\"/>"
                         "</geometry></collision></link>\n"
                      << "<link name=\"a\">" << sphere << "</link><link name=\"b\">" << sphere
                      << "</link><link name=\"c\">" << sphere << "</link>\n"
                      << "<joint name=\"ja\" type=\"fixed\"><parent link=\"r\"/><child link=\"a\"/></joint>\n"
                      << "<joint name=\"jb\" type=\"fixed\"><parent link=\"r\"/><child link=\"b\"/>"
                         "<origin xyz=\"0.05 0 0\"/></joint>\n"
                      << "<joint name=\"jc\" type=\"fixed\"><parent link=\"r\"/><child link=\"c\"/>"
                         "<origin xyz=\"0 0.05 0\"/></joint>\n</robot>\n";
  std::ofstream(srdf) << "<robot name=\"t\">\n  <disable_collisions link1=\"a\" link2=\"b\" reason=\"Never\"/>\n"
                      << "  <disable_default_collisions link=\"c\"/>\n  <enable_collisions link1=\"c\" link2=\"a\"/>\n"
                      << "</robot>\n";
  const auto r = run_rmodel({"fk", "-u", urdf.string(), "-s", srdf.string(), "--collisions", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  ASSERT_EQ(doc["collisions"].size(), 1u) << r.out;
  EXPECT_EQ(doc["collisions"][0]["link1"], "a");
  EXPECT_EQ(doc["collisions"][0]["link2"], "c");
  // Without the SRDF, the adjacent pairs (r with each) are left out, and a, b and c all collide.
  const auto all = run_rmodel({"fk", "-u", urdf.string(), "--collisions", "-f", "json"});
  EXPECT_EQ(json::parse(all.out)["collisions"].size(), 3u) << all.out;
}

TEST_F(CliCollisions, TheSummaryCountsInTheSingular) {
  // Two links with geometry, joined by a joint: one pair, disabled as Adjacent.
  const auto urdf = dir_ / "two.urdf";
  const std::string sphere = "<collision><geometry><sphere radius=\"0.1\"/></geometry></collision>";
  std::ofstream(urdf) << "<robot name=\"two\">\n<link name=\"a\">" << sphere << "</link><link name=\"b\">" << sphere
                      << "</link>\n<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/>"
                         "<origin xyz=\"1 0 0\"/></joint>\n</robot>\n";
  const auto r = run_rmodel({"collisions", "-u", urdf.string(), "--samples", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has_part(r.out + r.err, "2 links with geometry, 1 pair: 1 disabled (1 Adjacent,")) << r.out << r.err;
}

TEST_F(CliCollisions, MassPropertiesBesideTheDeclaredInertia) {
  const auto r = run_rmodel({"info", "--sample", "--mass-properties", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["schema"], "rmodel.mass_properties");
  ASSERT_FALSE(doc["links"].empty());
  const auto& base = doc["links"][0];
  EXPECT_EQ(base["link"], "base_link");
  // A 0.44 × 0.2 × 0.1 m box of 2 kg: Ixx = 2/12·(0.2² + 0.1²).
  EXPECT_NEAR(base["volume"].get<double>(), 0.0088, 1e-15);
  EXPECT_NEAR(base["shape_inertia"][0].get<double>(), 2.0 / 12 * 0.05, 1e-15);
  EXPECT_EQ(base["verdict"], "ok");
}

}  // namespace
}  // namespace rmodel
