// MoveIt joint_limits.yaml as a model input: read as MoveIt reads it (a value counts when
// its has_*_limits flag is true), applied to the model's joints, used as filter defaults
// (tightest_limit) and by the log checker (acceleration and jerk implied by the samples).
#include <gtest/gtest.h>

#include <sstream>

#include "rmodel/check/check.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/limits.hpp"
#include "rmodel/stream/log_check.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::read_file;
using test::sample;

const char* kYaml = R"(# MoveIt joint limits
default_velocity_scaling_factor: 0.1
joint_limits:
  neck_pitch:
    has_velocity_limits: true
    max_velocity: 0.5
    has_acceleration_limits: true
    max_acceleration: 10
    has_jerk_limits: true
    max_jerk: 100
  head_yaw:
    has_velocity_limits: false
    max_velocity: 9
    has_acceleration_limits: true
    max_acceleration: 2.5
    max_jerk: 7
)";

Model pony(std::optional<JointLimitsFile> limits) {
  return Model::from_urdf_string(read_file(sample("pony.urdf")), "pony.urdf",
                                 parse_semantics(read_file(sample("pony.json")), "pony.json"), std::move(limits));
}

TEST(JointLimitsYaml, ValuesCountOnlyWithTheirFlag) {
  const JointLimitsFile f = parse_joint_limits(kYaml, "limits.yaml");
  ASSERT_EQ(f.joints.size(), 2U);
  EXPECT_EQ(f.joints[0].joint, "neck_pitch");
  EXPECT_EQ(f.joints[0].line, 4);
  EXPECT_EQ(f.joints[0].max_velocity, 0.5);
  EXPECT_EQ(f.joints[0].max_acceleration, 10.0);
  EXPECT_EQ(f.joints[0].max_jerk, 100.0);
  EXPECT_FALSE(f.joints[1].max_velocity);  // has_velocity_limits: false
  EXPECT_EQ(f.joints[1].max_acceleration, 2.5);
  EXPECT_FALSE(f.joints[1].max_jerk);  // no has_jerk_limits
  ASSERT_EQ(f.warnings.size(), 2U);
  EXPECT_EQ(f.warnings[0].where.line, 13);
  EXPECT_NE(f.warnings[0].message.find("max_velocity ignored, has_velocity_limits is false"), std::string::npos);
  EXPECT_EQ(f.warnings[1].where.line, 16);
  EXPECT_NE(f.warnings[1].message.find("max_jerk ignored, has_jerk_limits is not given"), std::string::npos);
}

// Angles as ROS 1 loads joint_limits.yaml (roslaunch's <rosparam load>, rosparam's YAML
// constructors): `!degrees X` is float(X) * pi / 180, `!radians E` the Python expression E with
// pi, and plain `deg(X)` / `rad(E)` the same. The expected values are what rosparam's own
// construct_angle_degrees / construct_angle_radians (ros_comm 845f746,
// tools/rosparam/src/rosparam/__init__.py) give under PyYAML 6.0.3. 175 degrees is one ulp
// below math.radians(175) (3.0543261909900767): rosparam multiplies by pi before dividing.
TEST(JointLimitsYaml, DegreesAndRadiansAsRosparamReadsThem) {
  const char* yaml = R"(joint_limits:
  a:
    min_position: !degrees -120
    max_position: !degrees 175
    has_velocity_limits: true
    max_velocity: !radians pi/2
  b:
    min_position: deg(-90)
    max_position: rad(2*pi/3)
    has_acceleration_limits: true
    max_acceleration: !radians 2 * pi
  c:
    max_position: !degrees 1_0
    min_position: !radians -pi
)";
  const JointLimitsFile f = parse_joint_limits(yaml, "limits.yaml");
  ASSERT_EQ(f.joints.size(), 3U);
  EXPECT_EQ(f.joints[0].min_position, -2.0943951023931953);
  EXPECT_EQ(f.joints[0].max_position, 3.0543261909900763);
  EXPECT_EQ(f.joints[0].max_velocity, 1.5707963267948966);
  EXPECT_EQ(f.joints[1].min_position, -1.5707963267948966);
  EXPECT_EQ(f.joints[1].max_position, 2.0943951023931953);
  EXPECT_EQ(f.joints[1].max_acceleration, 6.283185307179586);
  EXPECT_EQ(f.joints[2].max_position, 0.17453292519943295);
  EXPECT_EQ(f.joints[2].min_position, -3.141592653589793);
  EXPECT_TRUE(f.warnings.empty());
  // What rosparam refuses (a degree value that is not a number, an expression naming what
  // Python does not know: rosparam's 'pi' -> 'math.pi' makes math.pi math.math.pi) is an error
  // of the file, at its line.
  for (const auto& [value, text] : std::vector<std::pair<std::string, std::string>>{
           {"!degrees pi", "'pi' is not a number of degrees"},
           {"!degrees 9O", "'9O' is not a number of degrees"},
           {"!radians math.pi", "'math.pi' is not an expression of radians"},
           {"!radians nope", "'nope' is not an expression of radians"}}) {
    Diagnostics errors;
    (void)parse_joint_limits("joint_limits:\n  a:\n    max_position: " + value + "\n", "limits.yaml", errors);
    ASSERT_EQ(errors.items.size(), 1U) << value;
    EXPECT_EQ(errors.items[0].where.line, 3) << value;
    EXPECT_NE(errors.items[0].message.find("joint 'a': max_position: " + text), std::string::npos)
        << errors.items[0].message;
  }
  // A quoted 'deg(90)' is a string (rosparam's resolvers read plain scalars only).
  const JointLimitsFile quoted = parse_joint_limits("joint_limits:\n  a:\n    max_position: 'deg(90)'\n", "l.yaml");
  EXPECT_FALSE(quoted.joints[0].max_position);
}

TEST(JointLimitsYaml, FilesWithoutJointOverridesAreAccepted) {
  // Files MoveIt loads and finds no joint in: the default scaling factors alone, and an empty
  // joint_limits (null in YAML).
  for (const char* text : {"default_velocity_scaling_factor: 1\ndefault_acceleration_scaling_factor: 1\n",
                           "joint_limits:\n", "# no joint\ndefault_velocity_scaling_factor: 0.1\njoint_limits:\n"}) {
    const JointLimitsFile f = parse_joint_limits(text, "limits.yaml");
    EXPECT_TRUE(f.joints.empty()) << text;
    EXPECT_TRUE(f.warnings.empty()) << text;
  }
  EXPECT_EQ(pony(parse_joint_limits("joint_limits:\n", "limits.yaml")).find_urdf_joint("neck_pitch")->velocity_limit,
            pony(std::nullopt).find_urdf_joint("neck_pitch")->velocity_limit);
}

TEST(JointLimitsYaml, PositionsApplyAsMoveItAppliesThem) {
  // MoveIt replaces a bound whenever min_position or max_position is given and never reads
  // has_position_limits (YuMi's file gives positions without it); it refuses position limits
  // on a continuous joint.
  const JointLimitsFile f = parse_joint_limits(R"(joint_limits:
  neck_pitch:
    min_position: -0.5
    max_position: 0.25
  head_yaw:
    max_position: 0.75
  jaw_slide:
    has_position_limits: false
    min_position: 0.001
  tail_swing:
    min_position: -1
    max_position: 1
)",
                                               "limits.yaml");
  ASSERT_EQ(f.joints.size(), 4U);
  EXPECT_EQ(f.joints[0].min_position, -0.5);
  EXPECT_EQ(f.joints[0].max_position, 0.25);
  EXPECT_FALSE(f.joints[1].min_position);
  EXPECT_EQ(f.joints[1].max_position, 0.75);
  ASSERT_EQ(f.warnings.size(), 1U);
  EXPECT_EQ(f.warnings[0].where.line, 8);
  EXPECT_EQ(f.warnings[0].message,
            "joint 'jaw_slide': has_position_limits is false, but MoveIt does not read it: the min_position and "
            "max_position given apply");
  const Model plain = pony(std::nullopt);
  const Model model = pony(f);
  const JointInfo& neck = *model.find_urdf_joint("neck_pitch");
  EXPECT_EQ(neck.lower, -0.5);
  EXPECT_EQ(neck.upper, 0.25);
  const JointInfo& yaw = *model.find_urdf_joint("head_yaw");
  EXPECT_EQ(yaw.lower, plain.find_urdf_joint("head_yaw")->lower);  // the other bound stays the URDF's
  EXPECT_EQ(yaw.upper, 0.75);
  const JointInfo& jaw = *model.find_urdf_joint("jaw_slide");
  EXPECT_EQ(jaw.lower, 0.001);
  EXPECT_EQ(jaw.upper, plain.find_urdf_joint("jaw_slide")->upper);
  const JointInfo& tail = *model.find_urdf_joint("tail_swing");
  EXPECT_FALSE(tail.bounded());
  bool continuous_warned = false;
  for (const auto& d : model.load_diagnostics().items)
    if (d.where.file == "limits.yaml" && d.where.line == 10) {
      continuous_warned = true;
      EXPECT_EQ(d.severity, Severity::warning);
      EXPECT_EQ(d.message,
                "joint 'tail_swing' is continuous: its min_position and max_position are not used, as MoveIt does "
                "not use them");
    }
  EXPECT_TRUE(continuous_warned);
  // Both given, min above max: refused, with the joint's line.
  try {
    (void)parse_joint_limits("joint_limits:\n  a:\n    min_position: 1\n    max_position: -1\n", "bad.yaml");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.where().line, 2);
    EXPECT_NE(std::string(e.what()).find("min_position 1 is above max_position -1"), std::string::npos) << e.what();
  }
}

TEST(JointLimitsYaml, QuotedValuesAreStringsAndNotUsed) {
  // yaml-cpp converts "1.5" and "true" as it converts 1.5 and true; MoveIt 2 rejects a string
  // parameter where it asks for a double or a bool, MoveIt 1 does not use it.
  const JointLimitsFile f = parse_joint_limits(R"(joint_limits:
  neck_pitch:
    has_velocity_limits: "true"
    max_velocity: "1.5"
  head_yaw:
    has_velocity_limits: true
    max_velocity: 1.25
    has_acceleration_limits: true
    max_acceleration: !!str 3
    min_position: '-0.5'
  jaw_slide:
    has_jerk_limits: 'true'
    max_jerk: 10
)",
                                               "limits.yaml");
  ASSERT_EQ(f.joints.size(), 3U);
  EXPECT_FALSE(f.joints[0].max_velocity);
  EXPECT_EQ(f.joints[1].max_velocity, 1.25);
  EXPECT_FALSE(f.joints[1].max_acceleration);
  EXPECT_FALSE(f.joints[1].min_position);
  EXPECT_FALSE(f.joints[2].max_jerk);
  std::vector<std::pair<int, std::string>> warnings;
  for (const auto& w : f.warnings) warnings.emplace_back(w.where.line, w.message);
  const std::string note = ": not used (MoveIt 2 rejects a string here, MoveIt 1 ignores it)";
  EXPECT_EQ(warnings,
            (std::vector<std::pair<int, std::string>>{
                {3, "joint 'neck_pitch': has_velocity_limits is the string \"true\", not true or false" + note},
                {4, "joint 'neck_pitch': max_velocity is the string \"1.5\", not a number" + note},
                {10, "joint 'head_yaw': min_position is the string \"-0.5\", not a number" + note},
                {9, "joint 'head_yaw': max_acceleration is the string \"3\", not a number" + note},
                {12, "joint 'jaw_slide': has_jerk_limits is the string \"true\", not true or false" + note},
                {13, "joint 'jaw_slide': max_jerk ignored, has_jerk_limits is a string"}}));
}

TEST(JointLimitsYaml, SetupAssistantPlaceholdersAreNotWarnedAbout) {
  // The Setup Assistant writes `has_acceleration_limits: false` with `max_acceleration: 0`
  // for every joint; a nonzero value so disabled is still worth a warning.
  const JointLimitsFile f = parse_joint_limits(R"(joint_limits:
  neck_pitch:
    has_velocity_limits: true
    max_velocity: 2
    has_acceleration_limits: false
    max_acceleration: 0
  head_yaw:
    has_velocity_limits: false
    max_velocity: 0.0
    has_acceleration_limits: false
    max_acceleration: 2.5
  jaw_slide:
    max_velocity: 0.5
    max_acceleration: 0
)",
                                               "limits.yaml");
  std::vector<std::pair<int, std::string>> warnings;
  for (const auto& w : f.warnings) warnings.emplace_back(w.where.line, w.message);
  const std::string moveit1 = " (as MoveIt 2 reads it; MoveIt 1 applies the value and sets the flag)";
  EXPECT_EQ(warnings,
            (std::vector<std::pair<int, std::string>>{
                {11, "joint 'head_yaw': max_acceleration ignored, has_acceleration_limits is false"},
                {13, "joint 'jaw_slide': max_velocity ignored, has_velocity_limits is not given" + moveit1},
                {14, "joint 'jaw_slide': max_acceleration ignored, has_acceleration_limits is not given" + moveit1}}));
  EXPECT_EQ(f.joints[0].max_velocity, 2.0);
  EXPECT_FALSE(f.joints[0].max_acceleration);
}

TEST(JointLimitsYaml, MergeKeysAreMergedAsPyYamlMergesThem) {
  // rosparam and ROS 2 launch load the file with PyYAML, which merges `<<: *anchor`; a key
  // written in the map wins, and in a list of maps an earlier one wins. A merged key is no key
  // written twice.
  const JointLimitsFile f = parse_joint_limits(R"(arm: &arm {has_velocity_limits: true, max_velocity: 1.0, has_acceleration_limits: true, max_acceleration: 2.0}
slow: &slow {has_velocity_limits: true, max_velocity: 0.25, has_jerk_limits: true, max_jerk: 9}
joint_limits:
  neck_pitch: *arm
  head_yaw:
    <<: *arm
    max_velocity: 0.5
  jaw_slide:
    <<: [*slow, *arm]
    max_acceleration: 3
)",
                                               "limits.yaml");
  ASSERT_EQ(f.joints.size(), 3U);
  EXPECT_EQ(f.joints[0].max_velocity, 1.0);
  EXPECT_EQ(f.joints[0].max_acceleration, 2.0);
  EXPECT_EQ(f.joints[1].max_velocity, 0.5);  // written in the map
  EXPECT_EQ(f.joints[1].max_acceleration, 2.0);
  EXPECT_EQ(f.joints[2].max_velocity, 0.25);  // the first map of the list
  EXPECT_EQ(f.joints[2].max_acceleration, 3.0);
  EXPECT_EQ(f.joints[2].max_jerk, 9.0);
  std::vector<std::string> warnings;
  for (const auto& w : f.warnings) warnings.push_back(w.message);
  EXPECT_EQ(warnings, (std::vector<std::string>{"ignored key 'arm'", "ignored key 'slow'"}));
  // A key written twice in the map itself is still refused; a merge of a scalar is malformed.
  EXPECT_THROW((void)parse_joint_limits("a: &a {max_jerk: 1}\njoint_limits:\n  j:\n    <<: *a\n"
                                        "    max_jerk: 2\n    max_jerk: 3\n",
                                        "bad.yaml"),
               ParseError);
  try {
    (void)parse_joint_limits("joint_limits:\n  j:\n    <<: 3\n", "bad.yaml");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.where().line, 3);
    EXPECT_NE(std::string(e.what()).find("a merge key '<<' takes a map or a list of maps"), std::string::npos)
        << e.what();
  }
}

TEST(JointLimitsYaml, MalformedIsAParseErrorWithLine) {
  struct Case {
    const char* text;
    const char* expected;
    int line;
  };
  for (const Case& c : {Case{"joint_limits:\n  a:\n    has_velocity_limits: true\n    max_velocity: -1\n",
                             "joint 'a': max_velocity = -1 must be a positive finite number", 4},
                        Case{"joint_limits:\n  a:\n    has_acceleration_limits: true\n",
                             "has_acceleration_limits is true but max_acceleration is not given", 3},
                        Case{"joint_limits:\n  a:\n    has_velocity_limits: maybe\n", "must be true or false", 3},
                        Case{"limits: {}\n", "expected a map with a 'joint_limits' key", 1},
                        Case{"joint_limits: [a]\n", "'joint_limits' must map joint names to their limits", 1},
                        Case{"joint_limits:\n  ? [a, b]\n  : {}\n", "a key must be a name", 2},
                        Case{"joint_limits:\n  a:\n    has_jerk_limits: true\n    max_jerk: [1]\n",
                             "joint 'a': max_jerk is not a number", 4},
                        Case{"joint_limits:\n  a:\n    has_jerk_limits: ~\n", "must be true or false", 3},
                        Case{"joint_limits: [\n", "malformed YAML", 0},
                        // A key written twice: MoveIt's loaders keep the last, yaml-cpp the first.
                        Case{"joint_limits:\n  a:\n    has_velocity_limits: true\n    max_velocity: 1.0\n"
                             "    max_velocity: 1.5\n",
                             "joint 'a': max_velocity is given twice (first at line 4)", 5},
                        Case{"joint_limits:\n  a: {}\njoint_limits:\n  b: {}\n",
                             "the file: joint_limits is given twice (first at line 1)", 3}}) {
    try {
      (void)parse_joint_limits(c.text, "bad.yaml");
      FAIL() << c.text;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.where().file, "bad.yaml");
      if (c.line > 0) EXPECT_EQ(e.where().line, c.line) << e.what();
      else EXPECT_GT(e.where().line, 0) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    }
  }
}

TEST(JointLimitsYaml, CheckListsEveryProblemOfTheFile) {
  // Three problems: `check` names each; loading a model stops at the first.
  const std::string text =
      "joint_limits:\n  neck_pitch:\n    has_velocity_limits: true\n    max_velocity: -1.0\n"
      "  head_yaw:\n    has_velocity_limits: true\n    max_velocity: abc\n"
      "  neck_pitch:\n    has_jerk_limits: true\n    max_jerk: 1\n";
  Diagnostics errors;
  const JointLimitsFile f = parse_joint_limits(text, "limits.yaml", errors);
  ASSERT_EQ(errors.items.size(), 3U);
  EXPECT_EQ(errors.items[0].where.line, 4);
  EXPECT_EQ(errors.items[0].message, "joint 'neck_pitch': max_velocity = -1 must be a positive finite number");
  EXPECT_EQ(errors.items[1].where.line, 7);
  EXPECT_EQ(errors.items[1].message, "joint 'head_yaw': max_velocity is not a number");
  EXPECT_EQ(errors.items[2].where.line, 8);
  EXPECT_EQ(errors.items[2].message, "joint 'neck_pitch' is given twice (first at line 2)");
  for (const auto& e : errors.items) EXPECT_EQ(e.code, "limits-syntax");
  ASSERT_EQ(f.joints.size(), 2U);  // the values in error left out, the rest kept
  EXPECT_FALSE(f.joints[0].max_velocity);
  try {
    (void)parse_joint_limits(text, "limits.yaml");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.where().line, 4);
  }
}

TEST(JointLimitsYaml, AppliedToTheModel) {
  const Model plain = pony(std::nullopt);
  const Model model = pony(parse_joint_limits(kYaml, "limits.yaml"));
  ASSERT_NE(model.limits(), nullptr);
  const JointInfo& neck = *model.find_urdf_joint("neck_pitch");
  EXPECT_EQ(neck.velocity_limit, 0.5);  // replaces the URDF's
  EXPECT_EQ(neck.acceleration_limit, 10.0);
  EXPECT_EQ(neck.jerk_limit, 100.0);
  const JointInfo& yaw = *model.find_urdf_joint("head_yaw");
  EXPECT_EQ(yaw.velocity_limit, plain.find_urdf_joint("head_yaw")->velocity_limit);  // flag false: URDF's kept
  EXPECT_EQ(yaw.acceleration_limit, 2.5);
  EXPECT_EQ(yaw.jerk_limit, 0.0);
  // Filter defaults: the tightest limit among the joints a filter sees.
  EXPECT_EQ(model.tightest_limit(LimitKind::acceleration), 2.5);
  const std::vector<std::string> neck_only{"neck_pitch"};
  EXPECT_EQ(model.tightest_limit(LimitKind::acceleration, neck_only), 10.0);
  EXPECT_EQ(model.tightest_limit(LimitKind::jerk, neck_only), 100.0);
  EXPECT_EQ(model.tightest_limit(LimitKind::velocity, neck_only), 0.5);
  EXPECT_FALSE(plain.tightest_limit(LimitKind::jerk));
  EXPECT_THROW((void)model.tightest_limit(LimitKind::jerk, std::vector<std::string>{"nope"}), NotFound);
}

TEST(JointLimitsYaml, UnknownJointIsAWarningWithASuggestion) {
  // MoveIt reads joint_limits.<joint> for each joint of the model: an entry for a joint the
  // URDF lacks is never read (one file shared by several grippers), so the model loads; a
  // misspelt joint stays findable through the suggestion.
  const auto limits = parse_joint_limits(
      "joint_limits:\n  neck_pitch: {}\n  neck_ptich:\n    has_jerk_limits: true\n    max_jerk: 3\n"
      "  gripper_finger:\n    has_velocity_limits: true\n    max_velocity: 1\n",
      "limits.yaml");
  const Model model = pony(limits);
  EXPECT_EQ(model.find_urdf_joint("neck_pitch")->jerk_limit, 0.0);
  std::vector<const Diagnostic*> unknown;
  for (const auto& d : model.load_diagnostics().items)
    if (d.code == "limits-unknown-joint") unknown.push_back(&d);
  ASSERT_EQ(unknown.size(), 2U);
  EXPECT_EQ(unknown[0]->severity, Severity::warning);
  EXPECT_EQ(unknown[0]->where.file, "limits.yaml");
  EXPECT_EQ(unknown[0]->where.line, 3);
  EXPECT_EQ(unknown[0]->message,
            "joint 'neck_ptich' is not a joint of the URDF: its limits are not used; did you mean 'neck_pitch'?");
  EXPECT_EQ(unknown[1]->where.line, 6);
  EXPECT_EQ(unknown[1]->message, "joint 'gripper_finger' is not a joint of the URDF: its limits are not used");
  const std::string urdf = read_file(sample("pony.urdf"));
  const std::string semantics = read_file(sample("pony.json"));
  const Diagnostics d = check_model_text(urdf, "pony.urdf", &semantics, "pony.json", std::nullopt, &limits);
  EXPECT_FALSE(d.has_errors());
}

TEST(JointLimitsYaml, LogCheckAccelerationAndJerk) {
  const Model model = pony(parse_joint_limits(kYaml, "limits.yaml"));
  // neck_pitch velocity 0 → 0.05 → 0.25 every 10 ms: accelerations 5 and 20 (limit 10), jerk
  // (20 − 5) / 0.01 = 1500 (limit 100).
  std::istringstream in(R"({"t": 0.00, "name": ["neck_pitch"], "position": [0], "velocity": [0]}
{"t": 0.01, "name": ["neck_pitch"], "position": [0], "velocity": [0.05]}
{"t": 0.02, "name": ["neck_pitch"], "position": [0], "velocity": [0.25]}
)");
  io::ReaderOptions reader_options;
  reader_options.format = io::parse_format("jsonl");
  io::MessageReader reader(in, "log", reader_options);
  LogCheckOptions options;
  options.period = Time{10'000'000};
  LogChecker checker(model, options);
  io::Message m;
  while (reader.next(m) == io::ReadStatus::Ok) checker.add(m);
  std::vector<std::string> codes;
  for (const auto& p : checker.problems()) codes.push_back(p.code);
  EXPECT_EQ(codes, (std::vector<std::string>{"acceleration-limit", "jerk-limit"}));
  EXPECT_EQ(checker.problems()[0].line, 3U);
  EXPECT_NE(checker.problems()[0].message.find("acceleration 20 rad/s² implied, its magnitude above the limit 10"),
            std::string::npos)
      << checker.problems()[0].message;
}

}  // namespace
}  // namespace rmodel

namespace rmodel {
namespace {

TEST(ModelExtract, ChainFromAPartialUnsortedJointStateByName) {
  const Model model = pony(std::nullopt);
  const Chain& head = model.chains()[0];
  const auto joints = model.chain_joints(head.name);
  ASSERT_GE(joints.size(), 2U);
  // Only the chain's joints, reversed, with a stranger in between; no efforts.
  JointState state;
  for (std::size_t i = joints.size(); i-- > 0;) {
    state.name.push_back(joints[i]);
    state.position.push_back(0.1 * static_cast<double>(i + 1));
    state.velocity.push_back(-1.0 * static_cast<double>(i + 1));
    if (i == 1) {
      state.name.push_back("stranger");
      state.position.push_back(99);
      state.velocity.push_back(99);
    }
  }
  KDL::JntArray q, v, e;
  EXPECT_TRUE(model.extract_chain_by_name(head.name, state, q, v, e));
  ASSERT_EQ(q.rows(), joints.size());
  for (std::size_t i = 0; i < joints.size(); ++i) {
    EXPECT_DOUBLE_EQ(q(static_cast<unsigned>(i)), 0.1 * static_cast<double>(i + 1));
    EXPECT_DOUBLE_EQ(v(static_cast<unsigned>(i)), -1.0 * static_cast<double>(i + 1));
  }
  EXPECT_EQ(e.rows(), 0U);
  // A joint missing: false, its slot reads 0.
  state.name[0] = "renamed";
  EXPECT_FALSE(model.extract_chain_by_name(head.name, state, q, v, e));
  EXPECT_DOUBLE_EQ(q(static_cast<unsigned>(joints.size() - 1)), 0.0);
  state.velocity.pop_back();
  EXPECT_THROW((void)model.extract_chain_by_name(head.name, state, q, v, e), SizeMismatch);
  EXPECT_THROW((void)model.extract_chain_by_name("nope", state, q, v, e), NotFound);
}

}  // namespace
}  // namespace rmodel
