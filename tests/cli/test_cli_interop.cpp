// Interop and CI guards, run as a user runs them: SRDF models in every command, `poses`,
// `convert` from SRDF, and `diff` with its exit codes.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;
using test::run_rmodel;
using test::sample;

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size())
    text.replace(pos, from.size(), to);
  return text;
}

/// Golden files live in tests/cli/golden/<name>; RMODEL_UPDATE_GOLDEN=1 rewrites them.
/// Machine-specific paths read $SRC (the checkout), $FIXTURES and $TMP.
void expect_golden(const std::string& name, std::string actual, const std::filesystem::path& tmp = {}) {
  if (!tmp.empty()) actual = replace_all(actual, tmp.string(), "$TMP");
  actual = replace_all(actual, test::fixtures_dir().string(), "$FIXTURES");
  actual = replace_all(actual, test::source_dir().string(), "$SRC");
  const auto path = test::source_dir() / "tests" / "cli" / "golden" / name;
  if (std::getenv("RMODEL_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  EXPECT_EQ(actual, read_file(path)) << "golden " << path << " differs (RMODEL_UPDATE_GOLDEN=1 to rewrite)";
}

std::vector<std::string> with_model(std::vector<std::string> args, const std::string& urdf, const std::string& srdf) {
  args.insert(args.end(), {"--urdf", fixture(urdf).string(), "--semantics", fixture(srdf).string()});
  return args;
}

std::vector<std::string> sweetie_srdf(std::vector<std::string> args) {
  return with_model(std::move(args), "sweetie_bot_proto2/sweetie_bot_proto2.urdf",
                    "sweetie_bot_proto2/sweetie_bot_proto2.srdf");
}

// ---- SRDF models ----

TEST(CliSrdf, InfoReportsPosesEndEffectorsAndVirtualJoints) {
  RMODEL_REQUIRE_FIXTURES();
  const auto text = run_rmodel(sweetie_srdf({"info"}));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.err, "");
  expect_golden("srdf_info.txt", text.out);
  const auto json = run_rmodel(sweetie_srdf({"info", "-f", "json"}));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  expect_golden("srdf_info.json", json.out);
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["poses"], 13);
  EXPECT_EQ(doc["end_effectors"].size(), 5U);
  EXPECT_EQ(doc["virtual_joints"][0]["child_link"], "base_link");
  EXPECT_EQ(doc["pose_size"], 30);
}

TEST(CliSrdf, EveryFixtureSrdfLoadsAndChecksValid) {
  RMODEL_REQUIRE_FIXTURES();
  const std::pair<const char*, const char*> models[] = {
      {"sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/sweetie_bot_proto2.srdf"},
      {"example_robot_data/panda.urdf", "example_robot_data/panda.srdf"},
      {"example_robot_data/talos_reduced.urdf", "example_robot_data/talos.srdf"}};
  for (const auto& [urdf, srdf] : models) {
    const auto joints = run_rmodel(with_model({"joints", "-f", "json"}, urdf, srdf));
    EXPECT_EQ(joints.exit_code, 0) << srdf << joints.err;
    // Talos' gripper motors break the triangle inequality (MuJoCo refuses them too): the
    // robot is checked for its SRDF here.
    const auto check = run_rmodel(with_model({"check", "-f", "json", "--ignore", "inertia-triangle"}, urdf, srdf));
    ASSERT_EQ(check.exit_code, 0) << srdf << check.out;
    const auto doc = nlohmann::json::parse(check.out);
    EXPECT_EQ(doc["valid"], true);
    EXPECT_EQ(doc["errors"], 0);
    // What the SRDF says and rmodel cannot keep is listed, with lines, as notes (MoveIt reads
    // it as written); the one mistake is Sweetie Bot's collision matrix naming a link its URDF
    // calls eyes_link_yaw.
    std::vector<std::string> warnings;
    for (const auto& d : doc["problems"]) {
      if (d["file"] != fixture(srdf).string()) continue;
      EXPECT_GT(d["line"].get<int>(), 0) << d.dump();
      if (d["severity"] != "note") warnings.push_back(d["code"].get<std::string>() + ":" + d["message"].get<std::string>());
    }
    if (std::string_view(srdf).starts_with("sweetie"))
      EXPECT_EQ(warnings, (std::vector<std::string>{"collision-unknown-link:<disable_collisions>: link 'link_eyes_z' "
                                                    "is not a link of the URDF: MoveIt drops this entry"}));
    else
      EXPECT_TRUE(warnings.empty()) << srdf << "\n" << check.out;
  }
}

TEST(CliSrdf, ConvertWritesPosesIntoJsonThatLoadsTheSameModel) {
  RMODEL_REQUIRE_FIXTURES();
  const auto srdf = fixture("sweetie_bot_proto2/sweetie_bot_proto2.srdf").string();
  const auto r = run_rmodel({"convert", srdf});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("rmodel: note: " + srdf + ":264: ignored 7 <passive_joint> elements"), std::string::npos)
      << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  // Groups' links are kept (MoveIt gives their parent joints to the group).
  EXPECT_EQ(doc["groups"][0]["links"].size(), 6U);
  ASSERT_EQ(doc["poses"].size(), 13U);
  EXPECT_EQ(doc["poses"][4]["name"], "low_raised1");
  EXPECT_EQ(doc["poses"][4]["joints"]["joint13"], 0.9);
  EXPECT_EQ(doc["end_effectors"].size(), 5U);
  EXPECT_EQ(doc["virtual_joints"][0]["name"], "floating_base");
  // The collision matrix too (the file has 134 <disable_collisions>), pairs as written.
  ASSERT_EQ(doc["collisions"]["disabled"].size(), 134U);
  EXPECT_EQ(doc["collisions"]["disabled"][0],
            nlohmann::json({{"link1", "base_link"}, {"link2", "bone11"}, {"reason", "Adjacent"}}));

  const auto dir = test::make_temp_dir("rmodel-interop-");
  const auto json = dir / "sweetie.json";
  std::ofstream(json) << r.out;
  const auto urdf = fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string();
  const auto from_srdf = run_rmodel({"joints", "--urdf", urdf, "--semantics", srdf, "-f", "csv"});
  const auto from_json = run_rmodel({"joints", "--urdf", urdf, "--semantics", json.string(), "-f", "csv"});
  EXPECT_EQ(from_srdf.out, from_json.out);
  EXPECT_EQ(run_rmodel({"poses", "--urdf", urdf, "--semantics", json.string()}).out,
            run_rmodel({"poses", "--urdf", urdf, "--semantics", srdf}).out);
  // The two models are the same for `diff` as well.
  const auto d = run_rmodel({"diff", urdf, urdf, "--old-semantics", srdf, "--new-semantics", json.string()});
  EXPECT_EQ(d.exit_code, 0) << d.out << d.err;
  EXPECT_EQ(d.out, "full pose: identical (30 joints): logs recorded with OLD are read correctly with NEW\n"
                   "no other differences\n");
  // .cpf has no room for SRDF-only items: each kind is named, none dropped silently.
  const auto cpf = run_rmodel({"convert", "--to", "cpf", srdf});
  ASSERT_EQ(cpf.exit_code, 0) << cpf.err;
  EXPECT_NE(cpf.err.find("13 named pose(s) cannot be written to .cpf"), std::string::npos) << cpf.err;
  EXPECT_NE(cpf.err.find("5 end effector(s) cannot be written to .cpf"), std::string::npos) << cpf.err;
  EXPECT_NE(cpf.err.find("1 virtual joint(s) cannot be written to .cpf"), std::string::npos) << cpf.err;
  EXPECT_NE(cpf.err.find("134 collision matrix entry(ies) cannot be written to .cpf"), std::string::npos) << cpf.err;
  std::filesystem::remove_all(dir);
}

// ---- poses ----

TEST(CliPoses, ListsNamedPosesInEveryFormat) {
  RMODEL_REQUIRE_FIXTURES();
  for (const auto& [format, golden] : std::vector<std::pair<std::string, std::string>>{
           {"text", "poses.txt"}, {"csv", "poses.csv"}, {"json", "poses.json"}}) {
    const auto r = run_rmodel(sweetie_srdf({"poses", "-f", format}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    expect_golden(golden, r.out);
  }
  const auto some = run_rmodel(sweetie_srdf({"poses", "head_basic", "stand1", "-f", "csv"}));
  EXPECT_EQ(some.out,
            "index,name,group,joints\n"
            "0,stand1,leg1,joint11=0 joint12=0 joint13=0 joint14=0 joint15=0 joint16=0\n"
            "11,head_basic,head,joint51=-0.15 joint52=0 joint53=0.15 joint54=0 joint55=0 joint56=0\n");
}

TEST(CliPoses, FullPoseOfANamedPoseWithOverrides) {
  RMODEL_REQUIRE_FIXTURES();
  const auto r = run_rmodel(sweetie_srdf({"poses", "--full", "head_basic joint52=0.1", "-f", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto whole = nlohmann::json::parse(r.out);
  EXPECT_EQ(whole["schema"], "rmodel.pose");
  const auto& doc = whole["joints"];
  ASSERT_EQ(doc.size(), 30U);
  EXPECT_EQ(doc[24]["name"], "joint51");
  EXPECT_EQ(doc[24]["position"], -0.15);
  EXPECT_EQ(doc[25]["position"], 0.1);
  EXPECT_EQ(doc[0]["position"], 0.0);
  const auto text = run_rmodel(sweetie_srdf({"poses", "--full", "low_raised1"}));
  expect_golden("poses_full.txt", text.out);
}

TEST(CliPoses, ErrorsAndProblems) {
  RMODEL_REQUIRE_FIXTURES();
  const auto unknown = run_rmodel(sweetie_srdf({"poses", "nope"}));
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_EQ(unknown.err, "rmodel: error: unknown pose 'nope'\n");
  const auto bad = run_rmodel(sweetie_srdf({"poses", "--full", "stand joint11"}));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "rmodel: error: pose item 'joint11': expected joint=value\n");
  const auto outside = run_rmodel(sweetie_srdf({"poses", "--full", "eyes_yaw=0.1"}));
  EXPECT_EQ(outside.exit_code, 1);
  EXPECT_EQ(run_rmodel(sweetie_srdf({"poses", "--full", "stand", "stand1"})).exit_code, 2);
  // The sample has no named poses: an empty list, not an error.
  const auto none = run_rmodel({"poses", "--sample", "-f", "json"});
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(none.out)["poses"], nlohmann::json::array());
  // A pose naming a joint outside the pose is reported on stderr, the list still printed.
  const auto dir = test::make_temp_dir("rmodel-poses-");
  const auto json = dir / "pony.json";
  std::string semantics = read_file(sample("pony.json"));
  semantics.replace(semantics.rfind('}'), 1,
                    ",\n  \"poses\": [{\"name\": \"cam\", \"joints\": {\"camera_mount\": 0}},\n"
                    "            {\"name\": \"open\", \"group\": \"head\", \"joints\": {\"jaw_slide\": 0.5}}]\n}");
  std::ofstream(json) << semantics;
  const auto r = run_rmodel({"poses", "--urdf", sample("pony.urdf").string(), "--semantics", json.string()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("open"), std::string::npos);
  EXPECT_NE(r.err.find("rmodel: error: " + json.string() +
                       ":103: pose 'cam': joint 'camera_mount' is fixed: it has no value in the full pose "
                       "[pose-joint-outside-pose]"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("rmodel: warning: " + json.string() + ":104: pose 'open' (group 'head'): joint 'jaw_slide' = "
                       "0.5 is outside its limits [0, 0.02] [pose-out-of-limits]"),
            std::string::npos)
      << r.err;
  // `check` runs the same pose checks: the pose naming a fixed joint makes the model invalid.
  const auto check = run_rmodel({"check", "--urdf", sample("pony.urdf").string(), "--semantics", json.string()});
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_NE(check.out.find(json.string() + ":103: error: pose 'cam': joint 'camera_mount' is fixed"), std::string::npos)
      << check.out;
  EXPECT_NE(check.out.find("[pose-out-of-limits]"), std::string::npos) << check.out;
  std::filesystem::remove_all(dir);
}

// ---- diff ----

/// The sample URDF with a neck_roll joint inserted between neck and head: the head chain
/// gains a joint, so every later index of the full pose shifts.
std::string pony_with_neck_roll() {
  const std::string urdf = read_file(sample("pony.urdf"));
  const std::string from = "  <joint name=\"head_yaw\" type=\"revolute\">\n    <parent link=\"neck\"/>";
  const std::string to =
      "  <link name=\"neck_top\"/>\n"
      "  <joint name=\"neck_roll\" type=\"revolute\">\n"
      "    <parent link=\"neck\"/>\n"
      "    <child link=\"neck_top\"/>\n"
      "    <origin xyz=\"0 0 0.05\" rpy=\"0 0 0\"/>\n"
      "    <axis xyz=\"1 0 0\"/>\n"
      "    <limit lower=\"-0.5\" upper=\"0.5\" velocity=\"2.0\" effort=\"2.0\"/>\n"
      "  </joint>\n"
      "  <joint name=\"head_yaw\" type=\"revolute\">\n    <parent link=\"neck_top\"/>";
  EXPECT_NE(urdf.find(from), std::string::npos);
  return replace_all(urdf, from, to);
}

class CliDiff : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-diff-"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  std::filesystem::path dir_;
  const std::string urdf_ = sample("pony.urdf").string();
  const std::string json_ = sample("pony.json").string();
};

TEST_F(CliDiff, SameModelIsIdenticalAndExitsZero) {
  const auto r = run_rmodel({"diff", urdf_, urdf_, "--semantics", json_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "full pose: identical (20 joints): logs recorded with OLD are read correctly with NEW\n"
                   "no other differences\n");
  // Model manifests work as OLD and NEW too.
  const auto manifest = sample("model.json").string();
  EXPECT_EQ(run_rmodel({"diff", manifest, manifest}).exit_code, 0);
  const auto q = run_rmodel({"diff", "-q", manifest, urdf_});  // semantics → URDF-only: same order here
  EXPECT_EQ(q.exit_code, 0);
  EXPECT_EQ(q.out, "");
}

TEST_F(CliDiff, InsertedJointIsIncompatible) {
  const std::string changed = write("pony.urdf", pony_with_neck_roll());
  const auto r = run_rmodel({"diff", urdf_, changed, "--semantics", json_});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "");
  expect_golden("diff_neck_roll.txt", r.out, dir_);
  const auto j = run_rmodel({"diff", urdf_, changed, "--semantics", json_, "--format", "json"});
  EXPECT_EQ(j.exit_code, 1);
  expect_golden("diff_neck_roll.json", j.out, dir_);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["compatible"], false);
  EXPECT_EQ(doc["pose"]["verdict"], "incompatible");
  EXPECT_EQ(doc["pose"]["added"][0], (nlohmann::json{{"name", "neck_roll"}, {"index", 17}}));
  EXPECT_EQ(doc["pose"]["moved"].size(), 3U);  // head_yaw, jaw_slide, tail_swing
  EXPECT_EQ(doc["joints"]["added"], nlohmann::json::array({"neck_roll"}));
  EXPECT_EQ(doc["links"]["added"], nlohmann::json::array({"neck_top"}));
}

TEST_F(CliDiff, AppendedJointIsCompatibleUnlessStrict) {
  // URDF only: the pose is every movable joint in declaration order, so a joint declared
  // last is appended.
  std::string urdf = read_file(urdf_);
  urdf.replace(urdf.rfind("</robot>"), 8,
               "  <link name=\"tail_tip\"/>\n  <joint name=\"tail_tip_swing\" type=\"continuous\">\n"
               "    <parent link=\"tail\"/>\n    <child link=\"tail_tip\"/>\n    <axis xyz=\"0 0 1\"/>\n"
               "    <limit velocity=\"5.0\" effort=\"1.0\"/>\n  </joint>\n</robot>\n");
  const std::string changed = write("pony.urdf", urdf);
  const auto r = run_rmodel({"diff", urdf_, changed});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "full pose: extended (20 → 21 joints, appended at the end): logs recorded with OLD are read correctly "
            "with NEW\n"
            "  added     tail_tip_swing (new index 20)\n"
            "links:\n  added     tail_tip\njoints:\n  added     tail_tip_swing\n");
  const auto strict = run_rmodel({"diff", "--strict", urdf_, changed, "-f", "json"});
  EXPECT_EQ(strict.exit_code, 1);
  const auto doc = nlohmann::json::parse(strict.out);
  EXPECT_EQ(doc["compatible"], false);
  EXPECT_EQ(doc["pose"]["verdict"], "extended");
  // Backwards, the joint is removed: incompatible.
  EXPECT_EQ(run_rmodel({"diff", changed, urdf_}).exit_code, 1);
}

TEST_F(CliDiff, RenamedJointAndChangedLimits) {
  std::string urdf = replace_all(read_file(urdf_), "\"head_yaw\"", "\"head_pan\"");
  urdf = replace_all(urdf, "<limit lower=\"-0.8\" upper=\"0.5\"", "<limit lower=\"-0.8\" upper=\"0.6\"");
  const std::string changed = write("pony.urdf", urdf);
  const std::string sem = write("pony.json", replace_all(read_file(json_), "head_yaw", "head_pan"));
  const auto r = run_rmodel({"diff", urdf_, changed, "--old-semantics", json_, "--new-semantics", sem});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out,
            "full pose: INCOMPATIBLE (20 joints): logs recorded with OLD are misread with NEW\n"
            "  removed   head_yaw (old index 17)\n"
            "  added     head_pan (new index 17)\n"
            "joints:\n"
            "  renamed   head_yaw → head_pan (same parent, child, type and origin)\n"
            "  changed   neck_pitch: upper 0.5 → 0.6\n"
            "chains:\n"
            "  changed   head: joints [neck_pitch head_yaw] → [neck_pitch head_pan]\n"
            "groups:\n"
            "  changed   head: joints [neck_pitch head_yaw jaw_slide] → [neck_pitch head_pan jaw_slide]\n");
  // Within the tolerance, the limit change disappears.
  const auto loose = run_rmodel({"diff", urdf_, changed, "--old-semantics", json_, "--new-semantics", sem,
                                 "--tolerance", "0.2", "-f", "json"});
  EXPECT_EQ(nlohmann::json::parse(loose.out)["joints"]["changed"].size(), 0U);
}

// The robot's physics: a mass, a moment of inertia, a joint's damping and friction. The full
// pose keeps its meaning (exit 0), --strict fails on them.
TEST_F(CliDiff, PhysicalChangesShowAndFailUnderStrict) {
  std::string urdf = read_file(urdf_);
  const std::string base_inertial = "      <mass value=\"2.0\"/>\n"
                                    "      <inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/>";
  ASSERT_NE(urdf.find(base_inertial), std::string::npos);
  urdf = replace_all(urdf, base_inertial,
                     "      <mass value=\"99\"/>\n"
                     "      <inertia ixx=\"5\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/>");
  const std::string neck_limit = "<limit lower=\"-0.8\" upper=\"0.5\" velocity=\"2.0\" effort=\"4.0\"/>";
  ASSERT_NE(urdf.find(neck_limit), std::string::npos);
  urdf = replace_all(urdf, neck_limit, neck_limit + "\n    <dynamics damping=\"0.7\" friction=\"0.05\"/>");
  const std::string changed = write("pony.urdf", urdf);
  const std::string expected =
      "full pose: identical (20 joints): logs recorded with OLD are read correctly with NEW\n"
      "links:\n"
      "  changed   base_link: mass 2 → 99; ixx 0.01 → 5\n"
      "joints:\n"
      "  changed   neck_pitch: damping - → 0.7; friction - → 0.05\n";
  const auto r = run_rmodel({"diff", urdf_, changed, "--semantics", json_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, expected);
  const auto strict = run_rmodel({"diff", urdf_, changed, "--semantics", json_, "--strict"});
  EXPECT_EQ(strict.exit_code, 1) << strict.err;
  EXPECT_EQ(strict.out, expected + "INCOMPATIBLE under --strict: the robot's links or joints changed\n");
  EXPECT_EQ(run_rmodel({"diff", "-q", "--strict", urdf_, changed, "--semantics", json_}).exit_code, 1);
  // Without a physical change, --strict passes an identical pose.
  EXPECT_EQ(run_rmodel({"diff", "-q", "--strict", urdf_, urdf_, "--semantics", json_}).exit_code, 0);

  const auto j = run_rmodel({"diff", urdf_, changed, "--semantics", json_, "-f", "json"});
  EXPECT_EQ(j.exit_code, 0);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["compatible"], true);
  EXPECT_EQ(doc["physical_changes"], true);
  ASSERT_EQ(doc["links"]["changed"].size(), 1U) << j.out;
  EXPECT_EQ(doc["links"]["changed"][0]["name"], "base_link");
  EXPECT_EQ(doc["links"]["changed"][0]["changes"][0], (nlohmann::json{{"property", "mass"}, {"old", 2.0}, {"new", 99.0}}));
  EXPECT_EQ(doc["links"]["changed"][0]["changes"][1], (nlohmann::json{{"property", "ixx"}, {"old", 0.01}, {"new", 5.0}}));
  EXPECT_EQ(doc["joints"]["changed"][0]["changes"][0],
            (nlohmann::json{{"property", "damping"}, {"old", nullptr}, {"new", 0.7}}));
  const auto js = nlohmann::json::parse(run_rmodel({"diff", urdf_, changed, "-s", json_, "-f", "json", "--strict"}).out);
  EXPECT_EQ(js["compatible"], false);
  EXPECT_EQ(js["pose"]["verdict"], "identical");

  const auto csv = run_rmodel({"diff", urdf_, changed, "--semantics", json_, "-f", "csv"});
  EXPECT_EQ(csv.out,
            "section,change,name,property,old,new\n"
            "links,changed,base_link,mass,2,99\n"
            "links,changed,base_link,ixx,0.01,5\n"
            "joints,changed,neck_pitch,damping,-,0.7\n"
            "joints,changed,neck_pitch,friction,-,0.05\n");
}

// diff compares the joint limits a joint_limits.yaml gives (they replace the URDF's velocity
// and add acceleration/jerk), so a limits change is a model change; the pose is untouched.
TEST_F(CliDiff, LimitsFileChangesShowUpPerSide) {
  const std::string limits = write("joint_limits.yaml",
                                   "joint_limits:\n  neck_pitch:\n    has_velocity_limits: true\n"
                                   "    max_velocity: 1.5\n    has_acceleration_limits: true\n"
                                   "    max_acceleration: 4\n");
  const auto r = run_rmodel({"diff", urdf_, urdf_, "--semantics", json_, "--new-limits", limits});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "full pose: identical (20 joints): logs recorded with OLD are read correctly with NEW\n"
                   "joints:\n"
                   "  changed   neck_pitch: velocity 2 → 1.5; acceleration - → 4\n");
  // --limits applies to both sides: no difference; --old-limits overrides it for OLD.
  const auto both = run_rmodel({"diff", urdf_, urdf_, "--semantics", json_, "--limits", limits});
  EXPECT_EQ(both.exit_code, 0) << both.err;
  EXPECT_EQ(both.out, "full pose: identical (20 joints): logs recorded with OLD are read correctly with NEW\n"
                      "no other differences\n");
  const auto j = run_rmodel({"diff", urdf_, urdf_, "--limits", limits, "--old-limits", write("none.yaml", "joint_limits: {}\n"),
                             "-f", "json"});
  EXPECT_EQ(j.exit_code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["new"]["limits"], limits);
  ASSERT_EQ(doc["joints"]["changed"].size(), 1U) << j.out;
  EXPECT_EQ(doc["joints"]["changed"][0]["name"], "neck_pitch");
  EXPECT_EQ(doc["joints"]["changed"][0]["changes"][1],
            (nlohmann::json{{"property", "acceleration"}, {"old", nullptr}, {"new", 4.0}}));
  // A limits file naming a joint the model lacks: MoveIt never reads that entry, so nothing
  // changes; a warning names the file and line.
  const std::string other = write("other.yaml", "joint_limits:\n  neck_ptich:\n    has_jerk_limits: true\n    max_jerk: 4\n");
  const auto b = run_rmodel({"diff", urdf_, urdf_, "--old-limits", other});
  EXPECT_EQ(b.exit_code, 0) << b.err;
  EXPECT_NE(b.err.find("other.yaml:2: joint 'neck_ptich' is not a joint of the URDF"), std::string::npos) << b.err;
}

TEST_F(CliDiff, UsageErrorsExitTwo) {
  EXPECT_EQ(run_rmodel({"diff", urdf_}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"diff", urdf_, "/nonexistent.urdf"}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"diff", urdf_, urdf_, "--tolerance", "-1"}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"diff", urdf_, urdf_, "--format", "yaml"}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"diff", "-", "-"}).exit_code, 2);
  // A model that does not load is the command failing, not a usage error.
  const std::string broken = write("broken.json", R"({"chains": [{"name": "a", "first_link": "base_link", "last_link": "head"},
    {"name": "a", "first_link": "base_link", "last_link": "head"}]})");
  const auto r = run_rmodel({"diff", urdf_, urdf_, "--new-semantics", broken});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("duplicate chain 'a'"), std::string::npos) << r.err;
  // A chain to a missing link loads without the chain, as srdfdom loads it, with a warning.
  const std::string skipped = write("skipped.json", R"({"chains": [{"name": "a", "first_link": "base_link", "last_link": "x"}]})");
  const auto w = run_rmodel({"diff", urdf_, urdf_, "--new-semantics", skipped});
  EXPECT_NE(w.err.find("rmodel: warning: " + skipped + ":1: chain 'a': last_link 'x' is not a link of the URDF"),
            std::string::npos)
      << w.err;
}

TEST_F(CliDiff, CiSnippetFromTheReadme) {
  // The README's "Use in CI" check, step by step: the old URDF from the main branch, the new
  // one from the change; `check` passes, `diff` fails the build.
  const std::string old_urdf = write("old.urdf", read_file(urdf_));
  const std::string new_urdf = write("new.urdf", pony_with_neck_roll());
  EXPECT_EQ(run_rmodel({"check", "--strict", "--quiet", "--urdf", new_urdf, "--semantics", json_}).exit_code, 0);
  EXPECT_EQ(run_rmodel({"diff", "--quiet", old_urdf, new_urdf, "--semantics", json_}).exit_code, 1);
  EXPECT_EQ(run_rmodel({"diff", "--quiet", old_urdf, old_urdf, "--semantics", json_}).exit_code, 0);
}


// ---- check-log ----

const char* kWalkLog =
    R"({"t": 0.00, "name": ["neck_pitch", "head_yaw", "tail_swing"], "position": [0.10, 0.00, 0.0], "velocity": [0.0, 0.0, 0.0]}
{"t": 0.01, "name": ["neck_pitch", "head_yaw", "tail_swing"], "position": [0.12, 0.01, 0.1], "velocity": [2.0, 1.0, 10.0]}
{"t": 0.02, "name": ["neck_pitch", "head_yaw", "ear_twitch"], "position": [0.55, 0.02, 0.0], "velocity": [1.0, 1.0, 0.0]}
{"t": 0.50, "name": ["neck_pitch", "head_yaw", "tail_swing"], "position": [0.40, null, 0.3], "velocity": [0.0, 0.0, 0.0]}
{"t": 0.49, "name": ["neck_pitch"], "position": [0.40]}
)";

class CliCheckLog : public CliDiff {};

TEST_F(CliCheckLog, ProblemsAsTheyComeThenASummary) {
  const std::string log = write("walk.jsonl", kWalkLog);
  const auto r = run_rmodel({"check-log", "--sample", log, "--max-gap", "0.1", "--period", "0.01"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "");
  expect_golden("check_log.txt", r.out, dir_);
  const auto j = run_rmodel({"check-log", "--sample", log, "-f", "json"});
  EXPECT_EQ(j.exit_code, 1);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["valid"], false);
  EXPECT_EQ(doc["errors"], 5);  // no gap or implied checks without --max-gap and --period
  EXPECT_EQ(doc["problems"][0]["code"], "velocity-limit");
  EXPECT_EQ(doc["problems"][0]["line"], 2);
  EXPECT_EQ(doc["problems"][0]["joint"], "tail_swing");
  EXPECT_EQ(doc["unknown_joints"][0]["name"], "ear_twitch");
  EXPECT_EQ(doc["joints"].size(), 20U);
  EXPECT_EQ(doc["joints"][16]["joint"], "neck_pitch");
  EXPECT_EQ(doc["joints"][16]["max"], 0.55);
  EXPECT_EQ(doc["joints"][16]["errors"], 2);
  EXPECT_FALSE(doc["joints"][0].contains("max_acceleration"));
  const auto q = run_rmodel({"check-log", "--sample", log, "--quiet"});
  EXPECT_EQ(q.exit_code, 1);
  EXPECT_EQ(q.out, "");
}

TEST_F(CliCheckLog, CleanLogFromStdinAndCsv) {
  const auto r = run_rmodel({"check-log", "--sample", "-"},
                            "{\"t\": 0, \"name\": [\"tail_swing\"], \"position\": [1]}\n"
                            "{\"t\": 0.1, \"name\": [\"tail_swing\"], \"position\": [2]}\n");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("valid: 0 errors, 0 warnings in 2 messages (2 joint states, t = 0 to 0.1 s)\n"),
            std::string::npos)
      << r.out;
  const std::string csv = write("log.csv", "t,neck_pitch,head_yaw\n0,0.1,0\n0.01,0.2,0\n");
  const auto c = run_rmodel({"check-log", "--sample", csv, "-f", "json"});
  EXPECT_EQ(c.exit_code, 0) << c.out;
  EXPECT_EQ(nlohmann::json::parse(c.out)["joint_states"], 2);
}

TEST_F(CliCheckLog, RealRobotLogsAreValid) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* log : {"joint_state/nominal.json", "joint_trajectories/greeting.json"}) {
    const auto r = run_rmodel({"check-log", "--urdf", fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(),
                               "--semantics", fixture("sweetie_bot_proto2/kinematic_chains.cpf").string(),
                               fixture(std::string("sweetie_bot_proto2/") + log).string(), "-f", "json"});
    EXPECT_EQ(r.exit_code, 0) << log << r.out << r.err;
  }
}

TEST_F(CliCheckLog, UsageErrorsExitTwo) {
  EXPECT_EQ(run_rmodel({"check-log", "--sample"}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"check-log", "--sample", "/nonexistent.jsonl"}).exit_code, 2);
  const std::string log = write("walk.jsonl", kWalkLog);
  EXPECT_EQ(run_rmodel({"check-log", "--sample", log, "--period", "-1"}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"check-log", "--sample", log, "--max-reports", "0"}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"check-log", "--sample", log, "-i", "xml"}).exit_code, 2);
}

}  // namespace
}  // namespace rmodel
