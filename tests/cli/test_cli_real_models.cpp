// Real robot descriptions as users bring them (issue 22): mimic joints in the commands,
// MoveIt configurations srdfdom loads, floating and planar joints, and `check` for CI
// (--ignore, -f github, --meshes). The models are small files of tests/data/models, each
// reproducing one case of a public robot description.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::run_rmodel;

std::string model_file(const std::string& file) {
  return (test::source_dir() / "tests/data/models" / file).string();
}

std::vector<std::string> humanoid(std::vector<std::string> args, const std::string& srdf) {
  args.insert(args.end(), {"--urdf", model_file("humanoid.urdf"), "--semantics", model_file(srdf)});
  return args;
}

bool has_text(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---- mimic joints ----

TEST(CliMimic, FkMovesTheMimicJointWithItsMaster) {
  // right_finger slides along -y by the left finger's displacement (hand at x = 0.3 + 0.1).
  const auto r = run_rmodel({"fk", "-u", model_file("gripper.urdf"), "finger_left=0.02", "--links",
                             "left_finger,right_finger", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> by_link;
  for (const auto& f : doc["frames"]) by_link[f["link"].get<std::string>()] = f;
  ASSERT_EQ(by_link.size(), 2U) << r.out;
  EXPECT_NEAR(by_link["left_finger"]["y"].get<double>(), 0.02, 1e-12);
  EXPECT_NEAR(by_link["right_finger"]["y"].get<double>(), -0.02, 1e-12);
  EXPECT_NEAR(by_link["right_finger"]["x"].get<double>(), 0.4, 1e-12);

  // A value the input gives for the mimic joint is kept, as robot_state_publisher keeps it.
  const auto own = run_rmodel({"fk", "-u", model_file("gripper.urdf"), "finger_left=0.02", "finger_right=0.01",
                               "--links", "right_finger", "-f", "json"});
  ASSERT_EQ(own.exit_code, 0) << own.err;
  EXPECT_NEAR(nlohmann::json::parse(own.out)["frames"][0]["y"].get<double>(), -0.01, 1e-12);
}

TEST(CliMimic, PandaRightFingerFollowsTheLeftOne) {
  RMODEL_REQUIRE_FIXTURES();
  // The issue's case: both fingers open by 0.02 m, symmetric about the hand's axis.
  const auto r = run_rmodel({"fk", "-u", fixture("example_robot_data/panda.urdf").string(), "panda_finger_joint1=0.02",
                             "--links", "panda_hand,panda_leftfinger,panda_rightfinger", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::vector<double>> at;
  const auto doc = nlohmann::json::parse(r.out);
  for (const auto& f : doc["frames"])
    at[f["link"].get<std::string>()] = {f["x"].get<double>(), f["y"].get<double>(), f["z"].get<double>()};
  ASSERT_EQ(at.size(), 3U);
  const auto& hand = at["panda_hand"];
  double left = 0, right = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    left += std::pow(at["panda_leftfinger"][k] - hand[k], 2);
    right += std::pow(at["panda_rightfinger"][k] - hand[k], 2);
  }
  // Each finger frame sits 0.0584 m along the hand's axis and 0.02 m aside from it.
  EXPECT_NEAR(std::sqrt(left), std::hypot(0.0584, 0.02), 1e-9);
  EXPECT_NEAR(std::sqrt(right), std::hypot(0.0584, 0.02), 1e-9);
  double gap = 0;
  for (std::size_t k = 0; k < 3; ++k) gap += std::pow(at["panda_leftfinger"][k] - at["panda_rightfinger"][k], 2);
  EXPECT_NEAR(std::sqrt(gap), 0.04, 1e-9);
}

TEST(CliMimic, AggregatedPosesCompleteMimicJointsAndKeepGivenOnes) {
  // Each message gives the left finger; the second one also the right finger's own value.
  const std::string input =
      "{\"t\": 1, \"name\": [\"finger_left\"], \"position\": [0.02]}\n"
      "{\"t\": 2, \"name\": [\"finger_left\", \"finger_right\"], \"position\": [0.03, 0.01]}\n";
  const auto r = run_rmodel({"aggregate", "-u", model_file("gripper.urdf")}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = test::json_lines(r.out);
  ASSERT_EQ(lines.size(), 2U) << r.out;
  const auto names = lines[0]["name"].get<std::vector<std::string>>();
  auto at = [&](const nlohmann::json& m, const std::string& joint) {
    const auto k = static_cast<std::size_t>(std::find(names.begin(), names.end(), joint) - names.begin());
    return m["position"][k].get<double>();
  };
  EXPECT_DOUBLE_EQ(at(lines[0], "finger_right"), 0.02);
  EXPECT_NEAR(at(lines[0], "knuckle"), 10 * 0.02 + 0.1, 1e-15);
  EXPECT_NEAR(at(lines[0], "tip"), -0.5 * (10 * 0.02 + 0.1) + 0.2, 1e-15);
  EXPECT_EQ(at(lines[1], "finger_right"), 0.01);  // given: kept
  EXPECT_NEAR(at(lines[1], "knuckle"), 10 * 0.03 + 0.1, 1e-15);
}

TEST(CliMimic, JointsListsTheMasterAndTheRule) {
  const auto r = run_rmodel({"joints", "-u", model_file("gripper.urdf"), "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  bool seen = false;
  for (const auto& j : doc["joints"]) {
    if (j["name"] == "tip") {
      EXPECT_EQ(j["mimic"], "knuckle");
      EXPECT_EQ(j["multiplier"].get<double>(), -0.5);
      EXPECT_EQ(j["offset"].get<double>(), 0.2);
      seen = true;
    }
    if (j["name"] == "arm") {
      EXPECT_TRUE(j["mimic"].is_null());
    }
  }
  EXPECT_TRUE(seen) << r.out;
}

TEST(CliMimic, JacobianHasNoColumnForAMimicJoint) {
  const std::string dir = test::make_temp_dir("rmodel-mimic-").string();
  const std::string sem = dir + "/gripper.json";
  std::ofstream(sem) << R"({"chains": [{"name": "finger", "first_link": "base_link", "last_link": "tip_link"}],
"groups": [{"name": "arm", "chains": ["finger"], "joints": ["finger_left"]}]})";
  const auto r = run_rmodel({"jacobian", "-u", model_file("gripper.urdf"), "-s", sem, "--chain", "finger",
                             "finger_left=0.01", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["columns"].get<std::vector<std::string>>(), (std::vector<std::string>{"arm", "wrist", "finger_left"}))
      << r.out;
}

TEST(CliMimic, CheckReportsMimicMistakesWithTheirLines) {
  const std::string path = model_file("mimic_mistakes.urdf");
  const auto r = run_rmodel({"check", "-u", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has_text(r.out, path + ":15: error: joint 'follows_nothing' mimics 'no_such_joint'")) << r.out;
  EXPECT_TRUE(has_text(r.out, path + ":20: error:")) << r.out;
  EXPECT_TRUE(has_text(r.out, "[mimic-cycle]")) << r.out;
}

// ---- MoveIt configurations srdfdom loads ----

TEST(CliMoveIt, GroupsGatheringOtherGroupsJointsLoad) {
  for (const char* srdf : {"humanoid_whole_body.srdf", "humanoid_all_arms_torso.srdf"}) {
    for (const char* command : {"joints", "chains", "groups", "poses"}) {
      const auto r = run_rmodel(humanoid({command}, srdf));
      EXPECT_EQ(r.exit_code, 0) << srdf << " " << command << "\n" << r.err;
    }
    const auto c = run_rmodel(humanoid({"check"}, srdf));
    EXPECT_TRUE(has_text(c.out, "valid: 0 errors")) << srdf << "\n" << c.out;
  }
  // whole_body keeps l_hip, which no chain has.
  const auto j = run_rmodel(humanoid({"joints", "-f", "json"}, "humanoid_whole_body.srdf"));
  EXPECT_TRUE(has_text(j.out, "\"l_hip\"")) << j.out;
}

TEST(CliMoveIt, AChainToAMissingLinkIsSkippedWithAWarning) {
  const std::string srdf = model_file("humanoid_missing_link.srdf");
  const auto r = run_rmodel(humanoid({"joints", "-f", "json"}, "humanoid_missing_link.srdf"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has_text(r.err, srdf + ":6: chain")) << r.err;
  EXPECT_TRUE(has_text(r.err, "'base' is not a link of the URDF")) << r.err;
  EXPECT_TRUE(has_text(r.out, "\"r_knee\"")) << r.out;
  EXPECT_FALSE(has_text(r.out, "\"l_elbow\"")) << r.out;
  // check: the mistake is an error naming the SRDF line.
  const auto c = run_rmodel(humanoid({"check"}, "humanoid_missing_link.srdf"));
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_TRUE(has_text(c.out, srdf + ":6: error:")) << c.out;
}

TEST(CliMoveIt, AGroupStateValueForAnUnknownJointIsDropped) {
  const std::string srdf = model_file("humanoid_unknown_pose_joint.srdf");
  const auto r = run_rmodel(humanoid({"fk", "crouch", "--links", "l_shin", "-f", "json"}, "humanoid_unknown_pose_joint.srdf"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto c = run_rmodel(humanoid({"check"}, "humanoid_unknown_pose_joint.srdf"));
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_TRUE(has_text(c.out, srdf + ":9: error: pose 'crouch' (group 'legs'): joint 'HeadYaw'")) << c.out;
  EXPECT_TRUE(has_text(c.out, "'HeadYaw'")) << c.out;
}

TEST(CliMoveIt, AGroupOfLinksBringsTheirParentJoints) {
  const auto r = run_rmodel(humanoid({"joints", "-f", "json"}, "humanoid_gripper_links.srdf"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const auto& j : doc["joints"]) names.push_back(j["name"].get<std::string>());
  EXPECT_NE(std::find(names.begin(), names.end(), "l_finger_a"), names.end()) << r.out;
  EXPECT_NE(std::find(names.begin(), names.end(), "l_finger_b"), names.end()) << r.out;
  const auto c = run_rmodel(humanoid({"check"}, "humanoid_gripper_links.srdf"));
  EXPECT_TRUE(has_text(c.out, "valid: 0 errors")) << c.out;
}

TEST(CliMoveIt, AnSrdfWithoutGroupsKeepsTheUrdfPoseAndWarns) {
  const auto with = run_rmodel(humanoid({"joints", "-f", "csv"}, "humanoid_no_group.srdf"));
  const auto without = run_rmodel({"joints", "-f", "csv", "-u", model_file("humanoid.urdf")});
  ASSERT_EQ(with.exit_code, 0) << with.err;
  EXPECT_EQ(with.out, without.out);
  const auto c = run_rmodel(humanoid({"check"}, "humanoid_no_group.srdf"));
  EXPECT_TRUE(has_text(c.out, "[no-groups]")) << c.out;
}

TEST(CliMoveIt, ACopiedGroupIsAnErrorOfCheck) {
  const std::string srdf = model_file("humanoid_copied_group.srdf");
  const auto c = run_rmodel(humanoid({"check"}, "humanoid_copied_group.srdf"));
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_TRUE(has_text(c.out, srdf + ":8: error: group 'r_leg' lists exactly what group 'l_leg'")) << c.out;
}

TEST(CliMoveIt, AGroupAliasIsAWarning) {
  // The same joints under a name that is not the other side's: MoveIt loads it, and
  // configurations do it on purpose (one solver per name in kinematics.yaml).
  const std::string srdf = model_file("humanoid_alias_group.srdf");
  const auto c = run_rmodel(humanoid({"check"}, "humanoid_alias_group.srdf"));
  EXPECT_EQ(c.exit_code, 0) << c.out;
  EXPECT_TRUE(has_text(c.out, srdf + ":9: warning: group 'l_leg_ik' lists exactly what group 'l_leg' (line 5) "
                                     "lists: a second name for the same joints (MoveIt allows it, e.g. for another "
                                     "solver) [group-alias]"))
      << c.out;
  const auto ignored = run_rmodel(humanoid({"check", "--ignore", "group-alias"}, "humanoid_alias_group.srdf"));
  EXPECT_FALSE(has_text(ignored.out, "[group-alias]")) << ignored.out;
  EXPECT_TRUE(has_text(ignored.out, "(1 ignored)")) << ignored.out;
  const auto groups = run_rmodel(humanoid({"groups", "-f", "json"}, "humanoid_alias_group.srdf"));
  ASSERT_EQ(groups.exit_code, 0) << groups.err;
  const auto doc = nlohmann::json::parse(groups.out);
  ASSERT_EQ(doc["groups"].size(), 2U) << groups.out;
  EXPECT_EQ(doc["groups"][1]["name"], "l_leg_ik");
  auto joints = [&](int g) {
    auto v = doc["groups"][g]["joints"].get<std::vector<std::string>>();
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(joints(1), joints(0));
}

TEST(CliMoveIt, EveryFixturePairChecksWithoutErrors) {
  RMODEL_REQUIRE_FIXTURES();
  const std::vector<std::pair<std::string, std::string>> pairs{
      {"example_robot_data/panda.urdf", "example_robot_data/panda.srdf"},
      {"example_robot_data/talos_reduced.urdf", "example_robot_data/talos.srdf"},
      {"sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/sweetie_bot_proto2.srdf"},
      {"sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/kinematic_chains.cpf"}};
  for (const auto& [urdf, semantics] : pairs) {
    // Talos' gripper motors break the triangle inequality (test_model_inertial.cpp): an error
    // of physical plausibility, which --ignore accepts; none of the semantics.
    const auto r = run_rmodel({"check", "-u", fixture(urdf).string(), "-s", fixture(semantics).string(), "--ignore",
                               "inertia-triangle"});
    EXPECT_EQ(r.exit_code, 0) << urdf << " " << semantics << "\n" << r.out << r.err;
    EXPECT_TRUE(has_text(r.out, ": 0 errors")) << r.out;
  }
  // panda_finger_joint2 mimics joint1: not a lost degree of freedom.
  const auto panda = run_rmodel({"check", "-u", fixture("example_robot_data/panda.urdf").string(), "-s",
                                 fixture("example_robot_data/panda.srdf").string()});
  EXPECT_FALSE(has_text(panda.out, "'panda_finger_joint2' is in no chain or group")) << panda.out;
}

// ---- floating and planar joints ----

TEST(CliFloating, AFloatingOrPlanarJointIsNamedAsWhatItIs) {
  const auto f = run_rmodel({"fk", "-u", model_file("floating.urdf"), "float_j=0.3"});
  EXPECT_NE(f.exit_code, 0);
  EXPECT_TRUE(has_text(f.err, "joint 'float_j' is floating (6 degrees of freedom)")) << f.err;
  EXPECT_FALSE(has_text(f.err, "unknown joint")) << f.err;
  const auto p = run_rmodel({"fk", "-u", model_file("floating.urdf"), "plane_j=0.3"});
  EXPECT_TRUE(has_text(p.err, "joint 'plane_j' is planar (3 degrees of freedom)")) << p.err;
  // The revolute joint below them is usable.
  const auto w = run_rmodel({"fk", "-u", model_file("floating.urdf"), "wheel_j=0.3", "--links", "wheel"});
  EXPECT_EQ(w.exit_code, 0) << w.err;
}

// ---- check for CI ----

TEST(CliCheckCi, IgnoreAcceptsOneKindOfWarningUnderStrict) {
  // The no-group SRDF warns `no-groups`; its collision matrix is read and names real links.
  const auto strict = run_rmodel(humanoid({"check", "--strict"}, "humanoid_no_group.srdf"));
  EXPECT_EQ(strict.exit_code, 1) << strict.out;
  EXPECT_TRUE(has_text(strict.out, "[no-groups]")) << strict.out;
  const auto ignored = run_rmodel(humanoid({"check", "--strict", "--ignore", "no-groups"}, "humanoid_no_group.srdf"));
  EXPECT_EQ(ignored.exit_code, 0) << ignored.out;
  EXPECT_TRUE(has_text(ignored.out, "valid: 0 errors, 0 warnings (1 ignored)")) << ignored.out;
  // Each mistake has its own code: accepting the collision matrix's does not hide the
  // <passive_joint> written inside a group.
  const std::string mistakes = "humanoid_moveit_mistakes.srdf";
  const auto one = run_rmodel(humanoid({"check", "--strict", "--ignore", "collision-unknown-link"}, mistakes));
  EXPECT_EQ(one.exit_code, 1) << one.out;
  EXPECT_FALSE(has_text(one.out, "[collision-unknown-link]")) << one.out;
  for (const char* code : {"[srdf-passive-joint-in-group]", "[collision-duplicate]", "[collision-self-pair]"})
    EXPECT_TRUE(has_text(one.out, code)) << code << "\n" << one.out;
  for (const std::vector<std::string>& ignore :
       {std::vector<std::string>{"--ignore",
                                 "srdf-passive-joint-in-group,collision-unknown-link,collision-duplicate,"
                                 "collision-self-pair"},
        std::vector<std::string>{"--ignore", "srdf-passive-joint-in-group,collision-unknown-link", "--ignore",
                                 "collision-duplicate", "--ignore", "collision-self-pair"}}) {
    std::vector<std::string> args{"check", "--strict"};
    args.insert(args.end(), ignore.begin(), ignore.end());
    const auto all = run_rmodel(humanoid(args, mistakes));
    EXPECT_EQ(all.exit_code, 0) << all.out;
    EXPECT_TRUE(has_text(all.out, "valid: 0 errors, 0 warnings (4 ignored)")) << all.out;
  }
  // Errors cannot be ignored.
  const auto errors = run_rmodel(humanoid({"check", "--ignore", "group-copy"}, "humanoid_copied_group.srdf"));
  EXPECT_EQ(errors.exit_code, 1) << errors.out;
}

// A MoveIt configuration written as MoveIt's examples write theirs: what MoveIt reads as
// written passes --strict (groups of groups, the virtual joint in a group, passive joints,
// another tool's elements are notes); its mistakes are warnings at their lines.
TEST(CliCheckCi, AMoveItConfigurationFailsStrictOnlyOnItsMistakes) {
  const std::string srdf = model_file("humanoid_moveit_mistakes.srdf");
  const auto r = run_rmodel(humanoid({"check", "--strict"}, "humanoid_moveit_mistakes.srdf"));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  for (const std::string& line :
       {srdf + ":17: warning: group 'hand': <passive_joint name=\"l_finger_b\"> inside a group is ignored, by MoveIt "
               "too: the joint stays active",
        srdf + ":38: warning: <disable_collisions>: links 'l_fore' and 'l_upper' are paired again (first at line 37) "
               "[collision-duplicate]",
        srdf + ":40: warning: <disable_collisions>: link 'r_sloe' is not a link of the URDF: MoveIt drops this entry; "
               "did you mean 'r_sole'? [collision-unknown-link]",
        srdf + ":41: warning: <disable_collisions>: link 'chest' is paired with itself",
        srdf + ":35: note: ignored <passive_joint> (r_elbow): rmodel has no passive joints",
        srdf + ":42: note: ignored <rotor_params>: not an element of MoveIt's SRDF", std::string("invalid: 0 errors, 4 warnings\n")})
    EXPECT_TRUE(has_text(r.out, line)) << line << "\n" << r.out;
  EXPECT_FALSE(has_text(r.out, "[group-overlap]")) << r.out;  // arms, arms_and_torso, whole_body nest
  EXPECT_FALSE(has_text(r.out, "[srdf-ignored]")) << r.out;
}

// The README's CI script (check --strict, then diff against the old model) on a MoveIt robot:
// it failed on every MoveIt configuration before issue 41 (the collision matrix and a group of
// groups were warnings).
TEST(CliCheckCi, TheExampleCiScriptPassesOnAMoveItRobot) {
  RMODEL_REQUIRE_FIXTURES();
  const auto dir = test::make_temp_dir("rmodel-ci-script-");
  const std::string urdf = fixture("example_robot_data/panda.urdf").string();
  const std::string srdf = fixture("example_robot_data/panda.srdf").string();
  const std::string command = "PATH='" + std::filesystem::path(RMODEL_EXE).parent_path().string() + "':\"$PATH\" sh '" +
                              (test::source_dir() / "share/rmodel/examples/check-model.sh").string() + "' '" + urdf +
                              "' '" + srdf + "' '" + urdf + "' '" + srdf + "' > '" + (dir / "out").string() + "' 2>&1";
  const int status = std::system(command.c_str());
  const std::string out = test::read_file(dir / "out");
  EXPECT_EQ(status, 0) << out;
  EXPECT_EQ(out, "valid: 0 errors, 0 warnings\n"
                 "full pose: identical (8 joints): logs recorded with OLD are read correctly with NEW\n"
                 "no other differences\n");
  std::filesystem::remove_all(dir);
}

TEST(CliCheckCi, IgnoreAcceptsErrorsOfPhysicalPlausibilityOnly) {
  const std::string urdf = model_file("implausible_inertias.urdf");
  const auto all = run_rmodel({"check", "-u", urdf});
  EXPECT_EQ(all.exit_code, 1);
  for (const char* code : {"[inertia-not-positive]", "[inertia-triangle]", "[inertial-mass]", "[mimic-unknown-joint]"})
    EXPECT_TRUE(has_text(all.out, code)) << code << "\n" << all.out;
  EXPECT_TRUE(has_text(all.out, "invalid: 5 errors, 0 warnings\n")) << all.out;

  // The three physical codes go; the mimic of nothing stays, and stderr says why.
  const auto some = run_rmodel({"check", "-u", urdf, "--ignore", "inertia-not-positive,inertia-triangle",
                                "--ignore", "inertial-mass", "--ignore", "mimic-unknown-joint"});
  EXPECT_EQ(some.exit_code, 1);
  EXPECT_FALSE(has_text(some.out, "[inertia")) << some.out;
  EXPECT_TRUE(has_text(some.out, "[mimic-unknown-joint]")) << some.out;
  EXPECT_TRUE(has_text(some.out, "invalid: 1 error, 0 warnings (4 ignored)\n")) << some.out;
  EXPECT_TRUE(has_text(some.err, "--ignore mimic-unknown-joint: errors of this code cannot be ignored")) << some.err;
  EXPECT_FALSE(has_text(some.err, "--ignore inertia")) << some.err;

  // A robot whose only errors are implausible inertias passes, -q and JSON alike.
  std::string text = test::read_file(urdf);
  const auto mimic = text.find("    <mimic joint=\"no_such_joint\"/>\n");
  ASSERT_NE(mimic, std::string::npos);
  text.erase(mimic, std::string("    <mimic joint=\"no_such_joint\"/>\n").size());
  const auto dir = test::make_temp_dir("rmodel-ignore-");
  const std::string plausible_but_for_inertias = (dir / "robot.urdf").string();
  std::ofstream(plausible_but_for_inertias) << text;
  const std::vector<std::string> ignore{"--ignore", "inertial-mass,inertia-not-positive,inertia-triangle"};
  auto args = [&](std::vector<std::string> a) {
    a.insert(a.begin(), {"check", "-u", plausible_but_for_inertias});
    a.insert(a.end(), ignore.begin(), ignore.end());
    return a;
  };
  EXPECT_EQ(run_rmodel({"check", "-u", plausible_but_for_inertias}).exit_code, 1);
  const auto passes = run_rmodel(args({"--strict"}));
  EXPECT_EQ(passes.exit_code, 0) << passes.out << passes.err;
  EXPECT_TRUE(has_text(passes.out, "valid: 0 errors, 0 warnings (4 ignored)\n")) << passes.out;
  EXPECT_EQ(passes.err, "");
  EXPECT_EQ(run_rmodel(args({"-q"})).exit_code, 0);
  const auto json = nlohmann::json::parse(run_rmodel(args({"-f", "json"})).out);
  EXPECT_EQ(json["valid"], true);
  EXPECT_EQ(json["errors"], 0);
  EXPECT_EQ(json["ignored"], 4);  // as the text's "(4 ignored)"
  EXPECT_TRUE(json["problems"].empty()) << json.dump();
  std::filesystem::remove_all(dir);
}

TEST(CliCheckCi, IgnoreRefusesACodeCheckDoesNotHave) {
  // A misspelt code would accept nothing: a usage error, with the code meant.
  const std::string urdf = model_file("implausible_inertias.urdf");
  const auto typo = run_rmodel({"check", "-u", urdf, "--ignore", "inertial-mass,inertia-triangel"});
  EXPECT_EQ(typo.exit_code, 2) << typo.out << typo.err;
  EXPECT_EQ(typo.out, "");
  EXPECT_TRUE(has_text(typo.err, "'inertia-triangel' is not a code of check; did you mean 'inertia-triangle'?"))
      << typo.err;
  const auto unknown = run_rmodel({"check", "-u", urdf, "--ignore", "everything"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
  EXPECT_TRUE(has_text(unknown.err, "'everything' is not a code of check (each problem shows its code in brackets)"))
      << unknown.err;
  // The principal moments' triangle was a warning of its own code; it is inertia-triangle now.
  const auto retired = run_rmodel({"check", "-u", urdf, "--ignore", "inertia-principal-triangle"});
  EXPECT_EQ(retired.exit_code, 2) << retired.err;
  EXPECT_TRUE(has_text(retired.err, "'inertia-principal-triangle' is a code of check no more: principal moments that "
                                    "break the triangle inequality are errors of inertia-triangle"))
      << retired.err;
  // Every code check reports is accepted, warnings and errors alike.
  const auto split = run_rmodel({"check", "-u", urdf, "--ignore", "srdf-ignored"});
  EXPECT_EQ(split.exit_code, 2) << split.err;
  EXPECT_TRUE(has_text(split.err, "'srdf-ignored' is a code of check no more: each SRDF element rmodel does not keep "
                                  "has a code of its own: srdf-passive-joint-in-group"))
      << split.err;
  const auto fine = run_rmodel({"check", "-u", urdf, "--ignore", "group-copy,srdf-unknown-element,mesh-missing"});
  EXPECT_EQ(fine.exit_code, 1) << fine.err;  // the inertias stay
  EXPECT_EQ(fine.err, "");
}

TEST(CliCheckCi, GithubFormatWritesAnnotations) {
  const std::string srdf = model_file("humanoid_copied_group.srdf");
  // GitHub's workflow command syntax: ::error file=F,line=L,title=T::MESSAGE, with : and ,
  // in property values escaped as %3A and %2C. F is relative to the repository's root (the
  // checkout, where GitHub looks for it), found from the current directory as git finds it.
  const auto dir = test::make_temp_dir("rmodel-github-");
  std::filesystem::create_directories(dir / "repo" / ".git");
  std::filesystem::create_directories(dir / "repo" / "robot:1");
  std::filesystem::copy_file(srdf, dir / "repo" / "robot:1" / "humanoid.srdf");
  std::filesystem::copy_file(model_file("humanoid.urdf"), dir / "repo" / "robot:1" / "humanoid.urdf");
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir / "repo" / "robot:1");
  const auto r = run_rmodel({"check", "-f", "github", "-u", "humanoid.urdf", "-s", "humanoid.srdf"});
  std::filesystem::current_path(cwd);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has_text(r.out, "::error file=robot%3A1/humanoid.srdf,line=8,title=group-copy::group 'r_leg' lists "
                              "exactly"))
      << r.out;
  const auto w = run_rmodel(humanoid({"check", "-f", "github"}, "humanoid_no_group.srdf"));
  EXPECT_TRUE(has_text(w.out, "::warning file=")) << w.out;
  EXPECT_TRUE(has_text(w.out, ",title=no-groups::")) << w.out;
}

TEST(CliCheckCi, MeshesAreLookedUpWithTheUrdfLine) {
  const auto dir = test::make_temp_dir("rmodel-meshes-");
  std::filesystem::create_directories(dir / "pkgs" / "robot_description" / "meshes");
  // Meshes of one triangle: files that exist and read (check_mesh_contents reads them).
  const char* triangle = "solid m\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 0.1 0 0\nvertex 0 0.1 0\n"
                         "endloop\nendfacet\nendsolid m\n";
  std::ofstream(dir / "pkgs" / "robot_description" / "meshes" / "base.stl") << triangle;
  std::ofstream(dir / "local.stl") << triangle;
  const std::string urdf = (dir / "robot.urdf").string();
  std::ofstream(urdf) << R"(<?xml version="1.0"?>
<robot name="meshy">
  <link name="base">
    <visual><geometry><mesh filename="package://robot_description/meshes/base.stl"/></geometry></visual>
    <collision><geometry><mesh filename="package://robot_description/meshes/gone.stl"/></geometry></collision>
  </link>
  <link name="arm">
    <visual><geometry><mesh filename="package://nowhere/mesh.stl"/></geometry></visual>
    <visual><geometry><mesh filename="local.stl"/></geometry></visual>
    <collision><geometry><mesh filename="file:///nonexistent/arm.dae"/></geometry></collision>
  </link>
  <joint name="j" type="revolute">
    <parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>
)";
  // Without --meshes nothing is looked up.
  EXPECT_EQ(run_rmodel({"check", "-u", urdf}).exit_code, 0);
  const auto r = run_rmodel({"check", "-u", urdf, "--meshes", "--package-path", (dir / "pkgs").string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_FALSE(has_text(r.out, ":4:")) << r.out;  // found in the package
  EXPECT_TRUE(has_text(r.out, urdf + ":5: error: mesh 'package://robot_description/meshes/gone.stl'")) << r.out;
  EXPECT_TRUE(has_text(r.out, urdf + ":8: error: mesh 'package://nowhere/mesh.stl': package 'nowhere' is not found"))
      << r.out;
  EXPECT_FALSE(has_text(r.out, ":9:")) << r.out;  // relative to the URDF's directory
  EXPECT_TRUE(has_text(r.out, urdf + ":10: error: mesh 'file:///nonexistent/arm.dae'")) << r.out;
  EXPECT_TRUE(has_text(r.out, "invalid: 3 errors")) << r.out;
}

}  // namespace
}  // namespace rmodel

namespace rmodel {
namespace {

TEST(CliCheckCi, GitLfsPointersAreNamedWhereverAFileIsRead) {
  // A clone without git-lfs (or with GIT_LFS_SKIP_SMUDGE=1) holds pointers where the
  // repository keeps its bags, meshes or descriptions: three lines, per git-lfs's spec.
  const auto dir = test::make_temp_dir("rmodel-lfs-");
  const auto pointer = [&](const std::string& name, const std::string& size) {
    std::ofstream(dir / name) << "version https://git-lfs.github.com/spec/v1\n"
                                 "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
                                 "size "
                              << size << "\n";
    return (dir / name).string();
  };
  const std::string said = "a Git LFS pointer to a file of 12345 bytes, not the file: fetch it with 'git lfs pull'";
  const std::string urdf = pointer("robot.urdf", "12345");
  auto r = run_rmodel({"check", "-u", urdf});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;  // as a URDF that is not there
  EXPECT_TRUE(has_text(r.out + r.err, urdf + ": " + said)) << r.out << r.err;
  for (const char* log : {"run.mcap", "run.bag", "run.db3", "run.jsonl"}) {
    const std::string path = pointer(log, "12345");
    for (const auto& args : std::vector<std::vector<std::string>>{{"log-info", path}, {"aggregate", "--sample", path}}) {
      r = run_rmodel(args);
      EXPECT_NE(r.exit_code, 0) << args[0] << " " << log;
      EXPECT_TRUE(has_text(r.err, path + ": " + said)) << args[0] << " " << log << ": " << r.err;
    }
  }
  // A mesh that is a pointer is missing, though a file is there.
  std::filesystem::create_directories(dir / "meshes");
  pointer("meshes/base.stl", "987");
  const std::string meshy = (dir / "meshy.urdf").string();
  std::ofstream(meshy) << R"(<robot name="meshy">
  <link name="base"><visual><geometry><mesh filename="meshes/base.stl"/></geometry></visual></link>
</robot>
)";
  r = run_rmodel({"check", "-u", meshy, "--meshes"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(has_text(r.out, meshy + ":2: error: mesh 'meshes/base.stl': " + (dir / "meshes/base.stl").string() +
                                  " is a Git LFS pointer to a file of 987 bytes, not the file"))
      << r.out;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rmodel
