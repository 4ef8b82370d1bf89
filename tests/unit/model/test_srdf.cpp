// SRDF import: the real MoveIt files of the fixtures load with their URDFs, every construct
// rmodel cannot express is a warning with its line, malformed SRDF is a ParseError with
// file and line, and SRDF semantics survive conversion to rmodel JSON.
#include <gtest/gtest.h>

#include <algorithm>

#include "rmodel/check/check.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/model/pose.hpp"
#include "rmodel/model/semantics.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;

std::vector<std::string> names(const auto& entities) {
  std::vector<std::string> out;
  for (const auto& e : entities) out.push_back(e.name);
  return out;
}

std::size_t count_code(const Semantics& s, std::string_view code) {
  return static_cast<std::size_t>(
      std::count_if(s.warnings.begin(), s.warnings.end(), [&](const Diagnostic& d) { return d.code == code; }));
}

const Diagnostic* find_warning(const Semantics& s, std::string_view code, std::string_view text) {
  for (const auto& d : s.warnings)
    if (d.code == code && d.message.find(text) != std::string::npos) return &d;
  return nullptr;
}

Model load_fixture(const std::string& urdf, const std::string& srdf) {
  return Model::load({fixture(urdf).string(), fixture(srdf).string(), std::nullopt});
}

// ---- real robots ----

TEST(SrdfFixtures, SweetieBotGroupsBecomeChainsAndGroups) {
  RMODEL_REQUIRE_FIXTURES();
  const std::string path = fixture("sweetie_bot_proto2/sweetie_bot_proto2.srdf").string();
  const Semantics s = load_semantics(path);  // format from content (<robot>)
  EXPECT_EQ(names(s.chains), (std::vector<std::string>{"leg1", "leg2", "leg3", "leg4", "head"}));
  EXPECT_EQ(s.chains[0].first_link, "base_link");
  EXPECT_EQ(s.chains[0].last_link, "bone16");
  EXPECT_EQ(s.chains[4].last_link, "bone56");
  EXPECT_EQ(s.chains[0].line, 25);
  // Every group is kept, the aggregates too (overlaps are the model rules' business).
  EXPECT_EQ(names(s.groups), (std::vector<std::string>{"leg1", "leg2", "leg3", "leg4", "head", "legs", "all",
                                                       "legs_front"}));
  EXPECT_EQ(s.groups[0].chains, (std::vector<std::string>{"leg1"}));
  // Joints listed beside the chain are kept: the model rules find them on the chain.
  EXPECT_EQ(s.groups[0].joints,
            (std::vector<std::string>{"joint11", "joint12", "joint13", "joint14", "joint15", "joint16"}));
  EXPECT_EQ(s.groups[5].chains, (std::vector<std::string>{"leg1", "leg2", "leg3", "leg4"}));
  EXPECT_EQ(s.groups[0].line, 12);

  // Named poses, in order, with their values.
  ASSERT_EQ(s.poses.size(), 13U);
  EXPECT_EQ(s.poses[0].name, "stand1");
  EXPECT_EQ(s.poses[0].group, "leg1");
  EXPECT_EQ(s.poses[4].name, "low_raised1");
  ASSERT_EQ(s.poses[4].joints.size(), 5U);
  EXPECT_EQ(s.poses[4].joints[1], (std::pair<std::string, double>{"joint12", -0.45}));
  EXPECT_EQ(s.poses[8].name, "stand");
  EXPECT_EQ(s.poses[8].joints.size(), 30U);

  ASSERT_EQ(s.end_effectors.size(), 5U);
  EXPECT_EQ(s.end_effectors[4].name, "nose");
  EXPECT_EQ(s.end_effectors[4].parent_link, "bone56");
  EXPECT_EQ(s.end_effectors[4].group, "head");
  ASSERT_EQ(s.virtual_joints.size(), 1U);
  EXPECT_EQ(s.virtual_joints[0].name, "floating_base");
  EXPECT_EQ(s.virtual_joints[0].type, "floating");
  EXPECT_EQ(s.virtual_joints[0].parent_frame, "odom_combined");
  EXPECT_EQ(s.virtual_joints[0].child_link, "base_link");

  // Links listed in groups are kept (their parent joints join the group against the
  // URDF, as MoveIt builds groups); passive joints are noted, the collision matrix is kept.
  EXPECT_EQ(s.groups[0].name, "leg1");
  EXPECT_EQ(s.groups[0].links,
            (std::vector<std::string>{"bone11", "bone12", "bone13", "bone14", "bone15", "bone16"}));
  EXPECT_EQ(count_code(s, "srdf-group-links"), 0U);
  const Diagnostic* passive = find_warning(s, "srdf-passive-joint", "7 <passive_joint> elements");
  ASSERT_NE(passive, nullptr);
  EXPECT_EQ(passive->severity, Severity::note);  // MoveIt reads the file the same
  EXPECT_NE(passive->message.find("joint16"), std::string::npos);
  // The file's own count (grep -c '<disable_collisions'), first and last pair as written.
  ASSERT_EQ(s.collisions.disabled.size(), 134U);
  EXPECT_EQ(s.collisions.disabled.front(),
            (CollisionPair{"base_link", "bone11", "Adjacent", 272}));
  EXPECT_TRUE(s.collisions.enabled.empty());
  EXPECT_TRUE(s.collisions.disabled_default.empty());
  for (const auto& w : s.warnings) {
    EXPECT_EQ(w.severity, Severity::note) << w.message;  // nothing MoveIt would object to
    EXPECT_GT(w.where.line, 0) << w.message;
  }
}

TEST(SrdfFixtures, SweetieBotLoadsWithItsUrdf) {
  RMODEL_REQUIRE_FIXTURES();
  const Model model = load_fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/sweetie_bot_proto2.srdf");
  std::vector<std::string> expected;
  for (int leg : {1, 2, 3, 4, 5})
    for (int j = 1; j <= 6; ++j) expected.push_back("joint" + std::to_string(leg * 10 + j));
  EXPECT_EQ(model.joint_names(), expected);
  EXPECT_EQ(model.chain_joints("leg2"),
            (std::vector<std::string>{"joint21", "joint22", "joint23", "joint24", "joint25", "joint26"}));
  EXPECT_EQ(model.joint_group("joint53"), "head");
  EXPECT_FALSE(model.find_joint_index("eyes_yaw"));  // in no SRDF group
  // Every named pose resolves against the model.
  EXPECT_FALSE(check_named_poses(model).has_errors());
  const JointState stand = named_pose(model, "stand");
  EXPECT_DOUBLE_EQ(stand.position[model.joint_index("joint51")], -0.15);
  EXPECT_DOUBLE_EQ(stand.position[model.joint_index("joint53")], 0.15);
}

TEST(SrdfFixtures, PandaJointGroupsAndDefaultPose) {
  RMODEL_REQUIRE_FIXTURES();
  const Model model = load_fixture("example_robot_data/panda.urdf", "example_robot_data/panda.srdf");
  const Semantics& s = model.semantics();
  EXPECT_TRUE(s.chains.empty());
  EXPECT_EQ(names(s.groups), (std::vector<std::string>{"arm", "hand", "arm_and_hand"}));
  EXPECT_EQ(s.groups[0].joints.size(), 7U);
  EXPECT_EQ(model.group_joints("arm_and_hand").size(), 8U);  // the aggregate keeps its joints
  EXPECT_EQ(model.joint_group("panda_finger_joint1"), "hand");  // owned by the first declared
  // joints_groups asks every group, as the original getJointsGroups: the overlapping
  // aggregate counts too, in declaration order.
  const std::vector<std::string> finger{"panda_finger_joint1"};
  EXPECT_EQ(model.joints_groups(finger), (std::vector<std::string>{"hand", "arm_and_hand"}));
  const std::vector<std::string> arm{"panda_finger_joint1", "panda_joint3"};
  EXPECT_EQ(model.joints_groups(arm), (std::vector<std::string>{"arm", "hand", "arm_and_hand"}));
  EXPECT_EQ(model.pose_size(), 8U);
  EXPECT_EQ(model.joint_names().back(), "panda_finger_joint1");
  ASSERT_EQ(s.end_effectors.size(), 1U);
  EXPECT_EQ(s.end_effectors[0].parent_link, "panda_hand_tcp");
  const JointState def = named_pose(model, "default");
  EXPECT_DOUBLE_EQ(def.position[model.joint_index("panda_joint4")], -2.35619);
  EXPECT_DOUBLE_EQ(def.position[model.joint_index("panda_finger_joint1")], 0.001);
  EXPECT_FALSE(check_named_poses(model).has_errors());
}

TEST(SrdfFixtures, TalosLoadsWithTheReducedUrdf) {
  RMODEL_REQUIRE_FIXTURES();
  const Model model = load_fixture("example_robot_data/talos_reduced.urdf", "example_robot_data/talos.srdf");
  const Semantics& s = model.semantics();
  EXPECT_EQ(names(s.chains), (std::vector<std::string>{"r_leg", "l_leg", "r_arm", "l_arm", "torso"}));
  EXPECT_EQ(names(s.groups), (std::vector<std::string>{"r_leg", "l_leg", "r_arm", "l_arm", "head", "torso", "all",
                                                       "all_legs", "all_arms", "all_arms_torso", "r_arm_torso",
                                                       "l_arm_torso"}));
  EXPECT_EQ(s.groups[4].joints, (std::vector<std::string>{"head_1_joint", "head_2_joint"}));
  EXPECT_EQ(model.pose_size(), 30U);
  // The floating root of half_sitting has 7 values: left out with a warning.
  const Diagnostic* root = find_warning(s, "srdf-multi-dof-value", "'root_joint'");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->where.line, 104);
  ASSERT_EQ(s.poses.size(), 1U);
  EXPECT_EQ(s.poses[0].joints.size(), 30U);
  EXPECT_FALSE(check_named_poses(model).has_errors());
  const JointState half_sitting = named_pose(model, "half_sitting");
  EXPECT_DOUBLE_EQ(half_sitting.position[model.joint_index("leg_left_4_joint")], 0.859395);
  // Talos-specific elements are reported, not dropped silently.
  for (const char* tag : {"<rotor_params>", "<specificities>", "2 <gripper> elements (left_gripper, right_gripper)"})
    EXPECT_NE(find_warning(s, "srdf-extension", tag), nullptr) << tag;  // Pinocchio's, HPP's extensions
  EXPECT_NE(find_warning(s, "srdf-passive-joint", "12 <passive_joint> elements"), nullptr);
  EXPECT_EQ(model.group_joints("all").size(), 30U);
}

TEST(SrdfFixtures, ConvertToJsonKeepsEverythingKept) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* srdf : {"sweetie_bot_proto2/sweetie_bot_proto2.srdf", "example_robot_data/panda.srdf",
                           "example_robot_data/talos.srdf"}) {
    const Semantics s = load_semantics(fixture(srdf).string());
    const std::string json = to_semantics_json(s);
    const Semantics back = parse_semantics_json(json, "x.json");
    EXPECT_TRUE(back.same_content(s)) << srdf;
    if (!s.end_effectors.empty()) {  // same_content sees SRDF-only items too
      Semantics changed = back;
      changed.end_effectors.back().parent_link += "_x";
      EXPECT_FALSE(changed.same_content(s)) << srdf;
    }
    if (!s.virtual_joints.empty()) {
      Semantics changed = back;
      changed.virtual_joints.pop_back();
      EXPECT_FALSE(changed.same_content(s)) << srdf;
    }
    EXPECT_EQ(back.poses.size(), s.poses.size()) << srdf;
    auto strip = [](auto v) {
      for (auto& e : v) e.line = 0;
      return v;
    };
    EXPECT_EQ(strip(back.end_effectors), strip(s.end_effectors)) << srdf;
    EXPECT_EQ(strip(back.virtual_joints), strip(s.virtual_joints)) << srdf;
    EXPECT_TRUE(back.warnings.empty());
    EXPECT_EQ(to_semantics_json(back), json) << srdf;  // text-stable
  }
}

// ---- crafted SRDF ----

Semantics srdf(const std::string& body) {
  return parse_srdf("<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" + body + "</robot>\n", "r.srdf");
}

TEST(SrdfCrafted, DispatchedByContentAndExtension) {
  const Semantics s = parse_semantics("<robot name='r'><group name='g'><joint name='j'/></group></robot>", "x");
  EXPECT_EQ(names(s.groups), (std::vector<std::string>{"g"}));
  EXPECT_EQ(detect_semantics_format("", "robot.srdf"), SemanticsFormat::srdf);
}

TEST(SrdfCrafted, SeveralChainsInOneGroupGetNumberedNames) {
  const Semantics s = srdf(R"(<group name="arms">
  <chain base_link="base" tip_link="left"/>
  <chain base_link="base" tip_link="right"/>
</group>
)");
  EXPECT_EQ(names(s.chains), (std::vector<std::string>{"arms_1", "arms_2"}));
  EXPECT_EQ(s.chains[1].last_link, "right");
  EXPECT_EQ(s.chains[1].line, 5);
  EXPECT_EQ(s.groups[0].chains, (std::vector<std::string>{"arms_1", "arms_2"}));
  EXPECT_TRUE(s.warnings.empty());
}

TEST(SrdfCrafted, SubgroupsMergeChainsAndJointsWhenNothingOverlaps) {
  const Semantics s = srdf(R"(<group name="body">
  <group name="arm"/>
  <group name="gripper"/>
</group>
<group name="arm"><chain base_link="base" tip_link="hand"/><joint name="j1"/></group>
<group name="gripper"><joint name="finger"/></group>
)");
  // Every group is kept with its merged content; which group owns a shared joint is the
  // model rules' decision (the first declared), made against the URDF.
  EXPECT_EQ(names(s.chains), (std::vector<std::string>{"arm"}));
  ASSERT_EQ(names(s.groups), (std::vector<std::string>{"body", "arm", "gripper"}));
  EXPECT_EQ(s.groups[0].chains, (std::vector<std::string>{"arm"}));
  EXPECT_EQ(s.groups[0].joints, (std::vector<std::string>{"j1", "finger"}));
  EXPECT_EQ(s.groups[1].joints, (std::vector<std::string>{"j1"}));
  EXPECT_EQ(count_code(s, "srdf-group-overlap"), 0U);
}

TEST(SrdfCrafted, VirtualJointsInGroupsAndStatesAreLeftOutWhateverTheOrder) {
  const Semantics s = srdf(R"(<group name="arm"><joint name="root_joint"/><joint name="j1"/></group>
<group_state name="zero" group="arm"><joint name="root_joint" value="0"/><joint name="j1" value="0"/></group_state>
<virtual_joint name="root_joint" type="fixed" parent_frame="world" child_link="base"/>
)");
  EXPECT_EQ(s.groups[0].joints, (std::vector<std::string>{"j1"}));
  EXPECT_EQ(s.poses[0].joints, (std::vector<std::pair<std::string, double>>{{"j1", 0.0}}));
  const Diagnostic* g = find_warning(s, "srdf-virtual-joint-in-group", "group 'arm': joint 'root_joint'");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->where.line, 3);
  const Diagnostic* p = find_warning(s, "srdf-virtual-joint-in-pose", "group_state 'zero': joint 'root_joint'");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->where.line, 4);
}

TEST(SrdfCrafted, WhatCannotBeExpressedIsReported) {
  const Semantics s = srdf(R"(<group name="links_only"><link name="a"/><link name="b"/></group>
<group name="empty"/>
<group name="g"><joint name="j"/><group name="missing"/><group name="g"/><bogus/></group>
<group name="g"><joint name="k"/></group>
<group_state name="p" group="nowhere"><joint name="j" value="1"/></group_state>
<virtual_joint name="v" type="spinning" parent_frame="world" child_link="base"/>
<disable_collisions link1="a" link2="b" reason="Never"/>
<disable_collisions link1=" a " link2="c"/>
<my_extension/>
<disable_colisions link1="a" link2="b"/>
<group name="h"><passive_joint name="j"/><joint name="j"/></group>
<group_state name="q" group="g"><joint name="j" value="1"/><link name="a"/></group_state>
<passive_joint name="j"/>
<link_sphere_approximation link="a"/>
<joint_property joint_name="j" property_name="angular_distance_weight" value="0.5"/>
)");
  // A group of links is kept: its links' parent joints are its joints against the URDF.
  EXPECT_EQ(names(s.groups), (std::vector<std::string>{"links_only", "g", "h"}));
  EXPECT_EQ(s.groups[0].links, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.groups[1].joints, (std::vector<std::string>{"j"}));
  auto line_of = [&](std::string_view code, std::string_view text) {
    const Diagnostic* d = find_warning(s, code, text);
    return d ? d->where.line : -1;
  };
  EXPECT_EQ(line_of("srdf-group-empty", "group 'links_only'"), -1);
  EXPECT_EQ(line_of("srdf-group-empty", "group 'empty' is not kept"), 4);
  EXPECT_EQ(line_of("srdf-unknown-group", "subgroup 'missing'"), 5);
  EXPECT_EQ(line_of("srdf-group-cycle", "subgroup 'g'"), 5);
  EXPECT_EQ(line_of("srdf-unknown-element", "group 'g': ignored <bogus>, by MoveIt too"), 5);
  EXPECT_EQ(line_of("srdf-duplicate-group", "group 'g' is declared again (first at line 5)"), 6);
  EXPECT_EQ(line_of("srdf-unknown-group", "group_state 'p': group 'nowhere'"), 7);
  EXPECT_EQ(line_of("srdf-virtual-joint-type", "type 'spinning'"), 8);
  // The collision matrix is kept, names trimmed as srdfdom trims them, reasons as written.
  EXPECT_EQ(s.collisions.disabled, (std::vector<CollisionPair>{{"a", "b", "Never", 9}, {"a", "c", "", 10}}));
  EXPECT_EQ(line_of("srdf-extension", "ignored <my_extension>: not an element of MoveIt's SRDF"), 11);
  // A misspelt element is ignored by MoveIt without a word: a warning naming the element meant.
  EXPECT_EQ(line_of("srdf-unknown-element", "ignored <disable_colisions>, by MoveIt too: not an SRDF element; did "
                                            "you mean <disable_collisions>?"),
            12);
  // srdfdom reads <passive_joint> at the top of the file only: inside a group it is a mistake.
  EXPECT_EQ(line_of("srdf-passive-joint-in-group", "group 'h': <passive_joint name=\"j\"> inside a group is ignored"),
            13);
  EXPECT_EQ(line_of("srdf-unknown-element", "group_state 'q': ignored <link>"), 14);
  // What MoveIt reads and rmodel does not keep, each under its own code, as a note.
  EXPECT_EQ(line_of("srdf-passive-joint", "ignored <passive_joint> (j): rmodel has no passive joints"), 15);
  EXPECT_EQ(line_of("srdf-sphere-approximation", "ignored <link_sphere_approximation>"), 16);
  EXPECT_EQ(line_of("srdf-joint-property", "ignored <joint_property>"), 17);
  for (const auto& d : s.warnings) {
    const bool mistake = d.code == "srdf-unknown-element" || d.code == "srdf-passive-joint-in-group" ||
                         d.code == "srdf-unknown-group" || d.code == "srdf-group-cycle" ||
                         d.code == "srdf-duplicate-group" || d.code == "srdf-group-empty" ||
                         d.code == "srdf-virtual-joint-type";
    EXPECT_EQ(d.severity, mistake ? Severity::warning : Severity::note) << d.code << ": " << d.message;
  }
  EXPECT_EQ(count_code(s, "srdf-ignored"), 0U);  // one code for everything is gone
  ASSERT_EQ(s.poses.size(), 2U);  // kept
  ASSERT_EQ(s.virtual_joints.size(), 1U);
}

TEST(SrdfCrafted, GroupStates) {
  const Semantics s = srdf(R"(<group_state name="home" group="arm">
  <joint name="a" value=" -0.5 "/>
  <joint name="b" value="1e-3"/>
  <joint name="a" value="2"/>
  <joint name="base" value="0 0 1 0 0 0 1"/>
</group_state>
<group_state name="home" group="hand"><joint name="f" value="0.01"/></group_state>
<group_state name="home" group="arm"><joint name="a" value="9"/></group_state>
)");
  ASSERT_EQ(s.poses.size(), 2U);
  // MoveIt keeps a group's states by name, the later replacing the earlier (its place in the
  // list stays the first's).
  EXPECT_EQ(s.poses[0].joints, (std::vector<std::pair<std::string, double>>{{"a", 9}}));
  EXPECT_EQ(s.poses[0].line, 10);
  EXPECT_EQ(s.poses[1].group, "hand");
  EXPECT_NE(find_warning(s, "srdf-duplicate-joint", "joint 'a' is given twice"), nullptr);
  EXPECT_NE(find_warning(s, "srdf-multi-dof-value", "joint 'base' has 7 values"), nullptr);
  EXPECT_NE(find_warning(s, "srdf-duplicate-pose",
                         "group_state 'home' of group 'arm' is declared again (first at line 3): this declaration "
                         "replaces the first, as in MoveIt"),
            nullptr);
  // MoveIt names states per group: "home" is ambiguous, "hand/home" is not.
  EXPECT_THROW((void)find_named_pose(s, "home"), InvalidArgument);
  EXPECT_EQ(find_named_pose(s, "hand/home").joints[0].first, "f");
  EXPECT_THROW((void)find_named_pose(s, "nope"), NotFound);
}

TEST(SrdfCrafted, ReadAsSrdfdomReadsIt) {
  // srdfdom trims every name, reads values with operator>> (a leading '+' is a number) and the
  // virtual joint's type without case, taking an unknown type as fixed.
  const Semantics s = srdf(R"(<group name=" arm "><chain base_link="  base" tip_link="hand  "/>
  <joint name=" j
 "/></group>
<group_state name="up " group=" arm"><joint name=" j " value="+0.5"/><joint name="k" value=" +1e-3 "/></group_state>
<virtual_joint name=" world " type="Floating" parent_frame=" odom " child_link="base "/>
<virtual_joint name="w2" type="prismatic" parent_frame="odom" child_link="base"/>
)");
  ASSERT_EQ(s.groups.size(), 1U);
  EXPECT_EQ(s.groups[0].name, "arm");
  EXPECT_EQ(s.groups[0].joints, (std::vector<std::string>{"j"}));
  ASSERT_EQ(s.poses.size(), 1U);
  EXPECT_EQ(s.poses[0].name, "up");
  EXPECT_EQ(s.poses[0].group, "arm");
  EXPECT_EQ(s.poses[0].joints, (std::vector<std::pair<std::string, double>>{{"j", 0.5}, {"k", 1e-3}}));
  ASSERT_EQ(s.virtual_joints.size(), 2U);
  EXPECT_EQ(s.virtual_joints[0].name, "world");
  EXPECT_EQ(s.virtual_joints[0].type, "floating");
  EXPECT_EQ(s.virtual_joints[0].parent_frame, "odom");
  EXPECT_EQ(s.virtual_joints[0].child_link, "base");
  EXPECT_EQ(s.virtual_joints[1].type, "fixed");
  EXPECT_NE(find_warning(s, "srdf-virtual-joint-type", "type 'prismatic' is not one of fixed, floating, planar: it is "
                                                        "fixed, as srdfdom and MoveIt take it"),
            nullptr);
  EXPECT_EQ(find_warning(s, "srdf-virtual-joint-type", "Floating"), nullptr);
}

struct BadSrdf {
  const char* name;
  const char* text;
  const char* expected;
  int line;
};

void PrintTo(const BadSrdf& c, std::ostream* os) { *os << c.name; }
class SrdfBad : public ::testing::TestWithParam<BadSrdf> {};

TEST_P(SrdfBad, IsAParseErrorWithFileAndLine) {
  const auto& c = GetParam();
  try {
    (void)parse_srdf(c.text, "bad.srdf");
    FAIL() << "no error for " << c.name;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.where().file, "bad.srdf");
    EXPECT_EQ(e.where().line, c.line) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SrdfBad,
    ::testing::Values(
        BadSrdf{"xml", "<robot name='r'>\n<group name='g'>\n</robot>", "malformed XML: mismatched closing tag", 2},
        BadSrdf{"root", "\n<properties/>", "root element is <properties>, expected <robot> (SRDF)", 2},
        BadSrdf{"group_name", "<robot>\n<group/>\n</robot>", "<group> without a name attribute", 2},
        BadSrdf{"chain_tip", "<robot>\n<group name='g'>\n<chain base_link='a'/></group></robot>",
                "group 'g': <chain> without a tip_link attribute", 3},
        BadSrdf{"state_value", "<robot><group_state name='s' group='g'>\n<joint name='j' value='abc'/>"
                               "</group_state></robot>",
                "group_state 's', joint 'j': value 'abc' is not a finite number", 2},
        BadSrdf{"state_no_value", "<robot><group_state name='s' group='g'>\n\n<joint name='j'/></group_state></robot>",
                "without a value attribute", 3},
        BadSrdf{"state_empty_value", "<robot><group_state name='s' group='g'>\n<joint name='j' value=' '/>"
                                     "</group_state></robot>",
                "group_state 's', joint 'j': <joint> with an empty value attribute", 2},
        BadSrdf{"plus_minus", "<robot><group_state name='s' group='g'>\n<joint name='j' value='+-1'/>"
                              "</group_state></robot>",
                "value '+-1' is not a finite number", 2},
        BadSrdf{"multi_value", "<robot><group_state name='s' group='g'>\n<joint name='j' value='0 x'/>"
                               "</group_state></robot>",
                "value 'x' is not a finite number", 2},
        BadSrdf{"eef", "<robot>\n<end_effector name='e' group='g'/></robot>",
                "end_effector 'e': <end_effector> without a parent_link attribute", 2},
        BadSrdf{"vj", "<robot>\n<virtual_joint name='v' type='fixed' child_link='b'/></robot>",
                "without a parent_frame attribute", 2}),
    [](const ::testing::TestParamInfo<BadSrdf>& info) { return std::string(info.param.name); });

TEST(SrdfJson, EndEffectorsAndVirtualJointsInRmodelJson) {
  const Semantics s = parse_semantics_json(R"({
  "end_effectors": [
    {"name": "hand", "parent_link": "wrist", "group": "gripper", "parent_group": "arm"}
  ],
  "virtual_joints": [
    {"name": "world", "type": "floating", "parent_frame": "odom", "child_link": "base"}
  ]
})",
                                           "x.json");
  ASSERT_EQ(s.end_effectors.size(), 1U);
  EXPECT_EQ(s.end_effectors[0], (EndEffector{"hand", "wrist", "gripper", "arm", 3}));
  ASSERT_EQ(s.virtual_joints.size(), 1U);
  EXPECT_EQ(s.virtual_joints[0], (VirtualJoint{"world", "floating", "odom", "base", 6}));
  EXPECT_TRUE(s.warnings.empty());
  // Written only when present, so files without them are unchanged.
  EXPECT_EQ(to_semantics_json(Semantics{}).find("end_effectors"), std::string::npos);
  EXPECT_THROW((void)parse_semantics_json(R"({"end_effectors": [{"name": "e", "group": "g"}]})", "x.json"),
               ParseError);
  EXPECT_THROW((void)parse_semantics_json(
                   R"({"virtual_joints": [{"name": "v", "type": "fixed", "parent_frame": "w", "child_link": "b", "x": 1}]})",
                   "x.json"),
               ParseError);
}

// ---- loading crafted SRDF against a crafted URDF ----

// base ─a1→ u1 ─a2→ u2 ─a3(fixed)→ u3        f: a finger beside the arm
//  └─f1→ fl
const char* kCraftedUrdf = R"(<robot name="crafted">
  <link name="base"/><link name="u1"/><link name="u2"/><link name="u3"/><link name="fl"/>
  <joint name="a1" type="revolute"><parent link="base"/><child link="u1"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="a2" type="revolute"><parent link="u1"/><child link="u2"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="a3" type="fixed"><parent link="u2"/><child link="u3"/></joint>
  <joint name="f1" type="prismatic"><parent link="base"/><child link="fl"/><axis xyz="1 0 0"/><limit lower="0" upper="0.04" effort="1" velocity="1"/></joint>
</robot>
)";

TEST(SrdfCrafted, LoadsAgainstAUrdfAndChainRulesStillApply) {
  const Semantics s = srdf(R"(<group name="arm"><chain base_link="base" tip_link="u3"/></group>
<group name="hand"><joint name="f1"/></group>
<group_state name="ready" group="arm"><joint name="a2" value="0.5"/><joint name="f1" value="0.02"/></group_state>
)");
  const Model model = Model::from_urdf_string(kCraftedUrdf, "crafted.urdf", s);
  EXPECT_EQ(model.joint_names(), (std::vector<std::string>{"a1", "a2", "f1"}));
  EXPECT_EQ(model.joint_group("f1"), "hand");
  const JointState ready = named_pose(model, "ready");
  EXPECT_EQ(ready.position, (std::vector<double>{0, 0.5, 0.02}));

  // A chain to a link the URDF lacks is skipped, as srdfdom skips it; `check` reports the
  // mistake as an error naming the SRDF line.
  const std::string bad_text =
      "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n<group name=\"arm\">\n<chain base_link=\"base\" "
      "tip_link=\"nowhere\"/></group>\n<group name=\"hand\"><joint name=\"f1\"/></group>\n</robot>\n";
  const Model skipped = Model::from_urdf_string(kCraftedUrdf, "crafted.urdf", parse_srdf(bad_text, "r.srdf"));
  EXPECT_FALSE(skipped.find_chain("arm"));
  EXPECT_EQ(skipped.joint_names(), (std::vector<std::string>{"f1"}));
  const Diagnostics report = check_model_text(kCraftedUrdf, "crafted.urdf", &bad_text, "r.srdf", SemanticsFormat::srdf);
  const Diagnostic* e = report.first_error();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->where.file, "r.srdf");
  EXPECT_EQ(e->where.line, 4);
  EXPECT_NE(e->message.find("last_link 'nowhere' is not a link of the URDF"), std::string::npos);
}

}  // namespace
}  // namespace rmodel
