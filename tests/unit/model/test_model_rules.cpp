// Every error of the original robot_model service, and the URDF structure checks, on
// small crafted models: each must name the file, the line and the offending element.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "rmodel/check/check.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel {
namespace {

// base ─j1→ l1 ─j2→ l2 ─j3→ l3 ─jv→ lv        (jv: the virtual joint)
//  └──k1→ m1 ─kfix (fixed)→ m2 ─k2→ m3
//  └──e1→ e (eye, outside every chain)   └──fx (fixed) → f
const char* kUrdf = R"(<robot name="crafted">
  <link name="base"/>
  <link name="l1"/><link name="l2"/><link name="l3"/><link name="lv"/>
  <link name="m1"/><link name="m2"/><link name="m3"/><link name="e"/><link name="f"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j3" type="prismatic"><parent link="l2"/><child link="l3"/><axis xyz="1 0 0"/><limit lower="0" upper="0.1" effort="1" velocity="1"/></joint>
  <joint name="jv" type="continuous"><parent link="l3"/><child link="lv"/><axis xyz="0 0 1"/></joint>
  <joint name="k1" type="revolute"><parent link="base"/><child link="m1"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="kfix" type="fixed"><parent link="m1"/><child link="m2"/></joint>
  <joint name="k2" type="revolute"><parent link="m2"/><child link="m3"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="e1" type="revolute"><parent link="base"/><child link="e"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="fx" type="fixed"><parent link="base"/><child link="f"/></joint>
</robot>
)";

Semantics semantics(const std::string& json) { return parse_semantics_json(json, "sem.json"); }

const char* kGood = R"({
  "chains": [
    {"name": "arm", "first_link": "base", "last_link": "l3", "last_link_virtual": "lv", "default_contact": "tip"},
    {"name": "wrist", "first_link": "l1", "last_link": "l2"},
    {"name": "side", "first_link": "base", "last_link": "m3"}
  ],
  "groups": [
    {"name": "g_arm", "chains": ["arm", "wrist"]},
    {"name": "g_side", "chains": ["side"], "joints": ["e1"]}
  ],
  "contacts": [{"name": "tip", "points": [[0, 0, 0.1]]}]
})";

TEST(ModelRules, GoodCraftedModel) {
  const Model model = Model::from_urdf_string(kUrdf, "crafted.urdf", semantics(kGood));
  EXPECT_EQ(model.joint_names(), (std::vector<std::string>{"j1", "j2", "j3", "jv", "k1", "k2", "e1"}));
  EXPECT_EQ(model.chain_joints("arm", false), (std::vector<std::string>{"j1", "j2", "j3"}));
  EXPECT_EQ(model.chain_joints("wrist"), (std::vector<std::string>{"j2"}));
  EXPECT_EQ(model.chain_joints("side"), (std::vector<std::string>{"k1", "k2"}));  // fixed joint skipped
  EXPECT_EQ(model.kdl_chain("side").getNrOfSegments(), 3U);                      // fixed segment kept
  EXPECT_EQ(model.joint_group("e1"), "g_side");
  EXPECT_TRUE(model.chain("side").contiguous());
}

TEST(ModelRules, SharedJointsMakeNonContiguousChains) {
  const Model model = Model::from_urdf_string(kUrdf, "crafted.urdf", semantics(R"({
    "chains": [{"name": "upper", "first_link": "l1", "last_link": "l3"},
               {"name": "whole", "first_link": "base", "last_link": "l2"}]})"));
  // upper takes j2, j3 first; whole then adds j1 and reuses j2.
  EXPECT_EQ(model.joint_names(), (std::vector<std::string>{"j2", "j3", "j1"}));
  const auto whole = model.chain_joint_indices("whole");
  EXPECT_EQ(std::vector<int>(whole.begin(), whole.end()), (std::vector<int>{2, 0}));
  EXPECT_FALSE(model.chain("whole").contiguous());
  JointState full = model.make_full_state();
  EXPECT_THROW((void)model.map_chain("whole", full), InvalidArgument);
}

struct RuleCase {
  const char* name;
  const char* json;
  const char* expected;  // fragment of the message
  int line;              // expected line in sem.json
};

void PrintTo(const RuleCase& c, std::ostream* os) { *os << c.name; }
class ModelRuleErrors : public ::testing::TestWithParam<RuleCase> {};

TEST_P(ModelRuleErrors, EachIsReportedWithFileLineAndElement) {
  const RuleCase& c = GetParam();
  try {
    (void)Model::from_urdf_string(kUrdf, "crafted.urdf", semantics(c.json));
    FAIL() << "expected a ModelError containing: " << c.expected;
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    EXPECT_EQ(e.where().file, "sem.json");
    EXPECT_EQ(e.where().line, c.line) << e.what();
  }
  // check lists the same problem without throwing.
  const std::string sem(c.json);
  const Diagnostics report = check_model_text(kUrdf, "crafted.urdf", &sem, "sem.json");
  ASSERT_TRUE(report.has_errors());
  EXPECT_NE(report.first_error()->message.find(c.expected), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    All, ModelRuleErrors,
    ::testing::Values(
        RuleCase{"duplicate_chain",
                 "{\"chains\": [{\"name\": \"a\", \"first_link\": \"base\", \"last_link\": \"l1\"},\n"
                 "{\"name\": \"a\", \"first_link\": \"base\", \"last_link\": \"l2\"}]}",
                 "duplicate chain 'a'", 2},
        RuleCase{"duplicate_group",
                 "{\"groups\": [{\"name\": \"g\", \"joints\": [\"e1\"]},\n{\"name\": \"g\"}]}",
                 "duplicate group 'g'", 2},
        RuleCase{"duplicate_contact",
                 "{\"contacts\": [{\"name\": \"c\", \"points\": []},\n\n{\"name\": \"c\", \"points\": []}]}",
                 "duplicate contact 'c'", 3},
        RuleCase{"unknown_default_contact",
                 "{\"chains\": [{\"name\": \"a\", \"first_link\": \"base\", \"last_link\": \"l1\", "
                 "\"default_contact\": \"hoof\"}]}",
                 "default_contact 'hoof' is not a declared contact", 1}),
    [](const ::testing::TestParamInfo<RuleCase>& info) { return std::string(info.param.name); });

// Mistakes srdfdom and MoveIt load all the same, skipping the element: loading skips it too
// with a warning naming file and line, and `check` counts it as an error.
class ModelRuleMistakes : public ::testing::TestWithParam<RuleCase> {};

TEST_P(ModelRuleMistakes, LoadWithAWarningAndAreErrorsOfCheck) {
  const RuleCase& c = GetParam();
  const std::string sem(c.json);
  const Model model = Model::from_urdf_string(kUrdf, "crafted.urdf", semantics(c.json));
  EXPECT_FALSE(model.find_chain("a")) << "the chain naming a missing link is skipped";
  EXPECT_FALSE(model.find_joint_index("ghost"));
  const Diagnostics report = check_model_text(kUrdf, "crafted.urdf", &sem, "sem.json");
  ASSERT_TRUE(report.has_errors());
  const Diagnostic& d = *report.first_error();
  EXPECT_NE(d.message.find(c.expected), std::string::npos) << d.message;
  EXPECT_EQ(d.where.file, "sem.json");
  EXPECT_EQ(d.where.line, c.line);
}

INSTANTIATE_TEST_SUITE_P(
    All, ModelRuleMistakes,
    ::testing::Values(
        RuleCase{"unknown_first_link",
                 "{\"chains\": [{\"name\": \"a\", \"first_link\": \"nowhere\", \"last_link\": \"l1\"}]}",
                 "chain 'a': first_link 'nowhere' is not a link of the URDF", 1},
        RuleCase{"unknown_last_link",
                 "{\"chains\": [\n{\"name\": \"a\", \"first_link\": \"base\", \"last_link\": \"zz\"}]}",
                 "last_link 'zz' is not a link", 2},
        RuleCase{"unknown_virtual_link",
                 "{\"chains\": [{\"name\": \"a\", \"first_link\": \"base\", \"last_link\": \"l1\", "
                 "\"last_link_virtual\": \"zz\"}]}",
                 "last_link_virtual 'zz' is not a link", 1},
        RuleCase{"last_link_not_between",
                 "{\"chains\": [{\"name\": \"a\", \"first_link\": \"base\", \"last_link\": \"m1\", "
                 "\"last_link_virtual\": \"lv\"}]}",
                 "last_link 'm1' is not between first_link 'base' and last_link_virtual 'lv'", 1},
        RuleCase{"unknown_chain_in_group",
                 "{\"groups\": [{\"name\": \"g\", \"chains\": [\"ghost\"]}]}",
                 "group 'g': chain 'ghost' is not a declared chain", 1},
        RuleCase{"group_joint_absent",
                 "{\"groups\": [{\"name\": \"g\", \"joints\": [\"ghost\"]}]}",
                 "group 'g': joint 'ghost' is not a joint of the URDF", 1}),
    [](const ::testing::TestParamInfo<RuleCase>& info) { return std::string(info.param.name); });

// What MoveIt's reader accepts loads, with a warning naming the file and line.
struct LenientCase {
  const char* name;
  const char* json;
  const char* code;
  const char* expected;
  int line;
};

void PrintTo(const LenientCase& c, std::ostream* os) { *os << c.name; }
class ModelRuleWarnings : public ::testing::TestWithParam<LenientCase> {};

TEST_P(ModelRuleWarnings, LoadAndAreReportedByCheck) {
  const LenientCase& c = GetParam();
  EXPECT_NO_THROW((void)Model::from_urdf_string(kUrdf, "crafted.urdf", semantics(c.json)));
  const std::string sem(c.json);
  const Diagnostics report = check_model_text(kUrdf, "crafted.urdf", &sem, "sem.json");
  EXPECT_FALSE(report.has_errors());
  bool found = false;
  for (const auto& d : report.items)
    if (d.code == c.code && d.message.find(c.expected) != std::string::npos) {
      found = true;
      EXPECT_EQ(d.severity, Severity::warning);
      EXPECT_EQ(d.where.file, "sem.json");
      EXPECT_EQ(d.where.line, c.line);
    }
  EXPECT_TRUE(found) << c.code << ": " << c.expected;
}

INSTANTIATE_TEST_SUITE_P(
    All, ModelRuleWarnings,
    ::testing::Values(
        LenientCase{"through_common_ancestor",
                    "{\"chains\": [{\"name\": \"a\", \"first_link\": \"l2\", \"last_link\": \"m3\"}]}",
                    "chain-through-ancestor", "common ancestor 'base'", 1},
        // Groups sharing joints that no group holds alone (each holds something the other
        // does not): the shared joints' own group is the first declared, an accident of order.
        LenientCase{"chain_in_two_groups",
                    "{\"chains\": [{\"name\": \"a\", \"first_link\": \"base\", \"last_link\": \"l1\"}],\n"
                    "\"groups\": [{\"name\": \"g1\", \"chains\": [\"a\"], \"joints\": [\"e1\"]},\n"
                    "{\"name\": \"g2\", \"chains\": [\"a\"], \"joints\": [\"k1\"]}]}",
                    "group-overlap", "group 'g2' shares chain a and 1 joint (j1) with group g1", 3},
        LenientCase{"joint_in_two_groups",
                    "{\"groups\": [{\"name\": \"g1\", \"joints\": [\"e1\", \"k1\"]}, "
                    "{\"name\": \"g2\", \"joints\": [\"e1\", \"j1\"]}]}",
                    "group-overlap", "group 'g2' shares 1 joint (e1) with group g1", 1},
        // The joint and its child link both bring e1, one joint.
        LenientCase{"joint_and_its_link_in_two_groups",
                    "{\"groups\": [{\"name\": \"g1\", \"joints\": [\"e1\", \"k1\"]}, "
                    "{\"name\": \"g2\", \"joints\": [\"e1\", \"j1\"], \"links\": [\"e\"]}]}",
                    "group-overlap", "group 'g2' shares 1 joint (e1) with group g1,", 1},
        // srdfdom skips an end effector or virtual joint naming what does not exist; rmodel
        // keeps it as written and says so.
        LenientCase{"eef_unknown_group",
                    "{\"groups\": [{\"name\": \"g\", \"joints\": [\"e1\"]}],\n"
                    "\"end_effectors\": [{\"name\": \"hand\", \"parent_link\": \"e\", \"group\": \"left_hand\"}]}",
                    "eef-unknown-group",
                    "end_effector 'hand': group 'left_hand' is not a declared group (MoveIt skips this end effector)", 2},
        LenientCase{"eef_unknown_link",
                    "{\"groups\": [{\"name\": \"g\", \"joints\": [\"e1\"]}],\n"
                    "\"end_effectors\": [{\"name\": \"hand\", \"parent_link\": \"palm\", \"group\": \"g\", "
                    "\"parent_group\": \"arm\"}]}",
                    "eef-unknown-link", "end_effector 'hand': parent_link 'palm' is not a link of the URDF", 2},
        LenientCase{"eef_unknown_parent_group",
                    "{\"groups\": [{\"name\": \"g\", \"joints\": [\"e1\"]}],\n"
                    "\"end_effectors\": [{\"name\": \"hand\", \"parent_link\": \"e\", \"group\": \"g\", "
                    "\"parent_group\": \"arm\"}]}",
                    "eef-unknown-group", "end_effector 'hand': parent_group 'arm' is not a declared group", 2},
        LenientCase{"virtual_joint_unknown_link",
                    "{\"groups\": [{\"name\": \"g\", \"joints\": [\"e1\"]}],\n"
                    "\"virtual_joints\": [{\"name\": \"world\", \"type\": \"floating\", \"parent_frame\": "
                    "\"odom\", \"child_link\": \"base_footprint\"}]}",
                    "virtual-joint-unknown-link", "virtual_joint 'world': child_link 'base_footprint' is not a link", 2},
        // A group with chains of its own naming a joint of another group's chain (PR2's
        // whole_body): kept as listed, owned by the first group.
        LenientCase{"group_joint_of_another_groups_chain",
                    "{\"chains\": [{\"name\": \"a\", \"first_link\": \"base\", \"last_link\": \"l2\"},"
                    "{\"name\": \"side\", \"first_link\": \"base\", \"last_link\": \"m3\"}],\n"
                    "\"groups\": [{\"name\": \"g1\", \"chains\": [\"a\"]},\n"
                    "{\"name\": \"g2\", \"chains\": [\"side\"], \"joints\": [\"j1\"]}]}",
                    "group-overlap", "group 'g2' shares 1 joint (j1) with group g1", 3},
        LenientCase{"joint_group_over_a_chain",
                    "{\"chains\": [{\"name\": \"a\", \"first_link\": \"base\", \"last_link\": \"l1\"}],"
                    "\"groups\": [{\"name\": \"g\", \"joints\": [\"j1\", \"e1\"]},\n"
                    "{\"name\": \"h\", \"chains\": [\"a\"], \"joints\": [\"k1\"]}]}",
                    "group-overlap", "group 'h' shares 1 joint (j1) with group g", 2},
        // The collision matrix, as srdfdom and MoveIt read it: an entry naming a link the URDF
        // lacks is dropped (the pair meant to be left out is checked after all).
        LenientCase{"collision_unknown_link",
                    "{\"collisions\": {\"disabled\": [\n{\"link1\": \"l1\", \"link2\": \"l2\"},\n"
                    "{\"link1\": \"l2\", \"link2\": \"l4\", \"reason\": \"Adjacent\"}]}}",
                    "collision-unknown-link",
                    "<disable_collisions>: link 'l4' is not a link of the URDF: MoveIt drops this entry; did you mean "
                    "'l1'?",
                    3},
        LenientCase{"collision_default_unknown_link",
                    "{\"collisions\": {\"disabled_default\": [{\"link\": \"base\"},\n{\"link\": \"bsae\"}]}}",
                    "collision-unknown-link",
                    "<disable_default_collisions>: link 'bsae' is not a link of the URDF: MoveIt drops this entry; "
                    "did you mean 'base'?",
                    2},
        LenientCase{"collision_self_pair", "{\"collisions\": {\"disabled\": [{\"link1\": \"l1\", \"link2\": \"l1\"}]}}",
                    "collision-self-pair", "<disable_collisions>: link 'l1' is paired with itself", 1},
        LenientCase{"collision_pair_again_in_the_other_order",
                    "{\"collisions\": {\"disabled\": [{\"link1\": \"l1\", \"link2\": \"l2\"},\n"
                    "{\"link1\": \"m1\", \"link2\": \"l2\"},\n{\"link1\": \"l2\", \"link2\": \"l1\"}]}}",
                    "collision-duplicate", "<disable_collisions>: links 'l2' and 'l1' are paired again (first at line 1)",
                    3},
        LenientCase{"collision_default_again",
                    "{\"collisions\": {\"disabled_default\": [{\"link\": \"e\"},\n{\"link\": \"e\"}]}}",
                    "collision-duplicate",
                    "<disable_default_collisions>: link 'e' is given again (first at line 1)", 2},
        LenientCase{"collision_disabled_and_enabled",
                    "{\"collisions\": {\"disabled\": [{\"link1\": \"l1\", \"link2\": \"m1\"}],\n"
                    "\"enabled\": [{\"link1\": \"l3\", \"link2\": \"e\"},\n{\"link1\": \"m1\", \"link2\": \"l1\"}]}}",
                    "collision-conflict",
                    "<enable_collisions>: links 'm1' and 'l1' are also disabled (line 1): MoveIt checks them", 3}),
    [](const ::testing::TestParamInfo<LenientCase>& info) { return std::string(info.param.name); });

TEST(ModelRules, OverlappingGroupsKeepTheirJointsTheFirstOwnsThem) {
  const Model model = Model::from_urdf_string(kUrdf, "crafted.urdf", semantics(R"({
    "chains": [{"name": "a", "first_link": "base", "last_link": "l1"}],
    "groups": [{"name": "g1", "chains": ["a"]}, {"name": "g2", "chains": ["a"], "joints": ["e1"]}]})"));
  EXPECT_EQ(model.group_joints("g2"), (std::vector<std::string>{"j1", "e1"}));
  EXPECT_EQ(model.joint_group("j1"), "g1");
  EXPECT_EQ(model.joint_group("e1"), "g2");
  EXPECT_EQ(model.chain_group("a"), "g1");
  EXPECT_EQ(model.group_chains("g2"), (std::vector<std::string>{"a"}));
}

TEST(ModelRules, CheckReportsEveryProblemNotOnlyTheFirst) {
  const std::string sem = R"({
  "chains": [{"name": "a", "first_link": "base", "last_link": "nowhere"},
             {"name": "b", "first_link": "base", "last_link": "l1", "default_contact": "none"}],
  "groups": [{"name": "g", "chains": ["ghost"], "joints": ["fx"]}]
})";
  const Diagnostics report = check_model_text(kUrdf, "crafted.urdf", &sem, "sem.json");
  EXPECT_EQ(report.count(Severity::error), 3U);  // the fixed joint fx is skipped with a note
  // k1, k2, j2.. are in no chain: notes, not errors (a file MoveIt reads as it is).
  EXPECT_GE(report.count(Severity::note), 2U);
}

// What rmodel reads differently from MoveIt, in a file MoveIt reads as it is, is a note: it
// does not fail `check --strict`. Groups that nest, or hold the same joints, do not overlap.
TEST(ModelRules, WhatMoveItReadsAsWrittenIsANote) {
  const std::string sem = R"({
  "chains": [{"name": "a", "first_link": "base", "last_link": "l1"}],
  "groups": [{"name": "g", "joints": ["fx", "j1"]},
             {"name": "same", "chains": ["a"]},
             {"name": "more", "joints": ["j1", "j2"]},
             {"name": "fixed_only", "joints": ["fx"]},
             {"name": "base", "joints": ["world"]}],
  "virtual_joints": [{"name": "world", "type": "planar", "parent_frame": "odom", "child_link": "base"}],
  "collisions": {"disabled": [{"link1": "l1", "link2": "l2", "reason": "Adjacent"}],
                 "enabled": [{"link1": "l1", "link2": "l3"}], "disabled_default": [{"link": "e"}]}
})";
  const Diagnostics report = check_model_text(kUrdf, "crafted.urdf", &sem, "sem.json");
  std::string listing;
  for (const auto& d : report.items) listing += d.code + ": " + d.message + "\n";
  EXPECT_EQ(report.count(Severity::error), 0U) << listing;
  EXPECT_EQ(report.count(Severity::warning), 0U) << listing;
  const auto note = [&](std::string_view code, std::string_view text) {
    for (const auto& d : report.items)
      if (d.code == code && d.message.find(text) != std::string::npos) return d.severity == Severity::note;
    return false;
  };
  EXPECT_TRUE(note("fixed-joint", "group 'g': 1 joint skipped, not movable: fx")) << listing;
  EXPECT_TRUE(note("empty-group", "group 'fixed_only' has no movable joints")) << listing;
  EXPECT_TRUE(note("virtual-joint-in-group", "group 'base': world skipped")) << listing;
  EXPECT_TRUE(note("joint-outside-pose", "movable joint 'k1' is in no chain or group")) << listing;
}

std::string urdf_with(const std::string& body) { return "<robot name=\"r\">\n" + body + "\n</robot>\n"; }

struct UrdfCase {
  const char* name;
  std::string urdf;
  const char* code;
  int line;
};

void PrintTo(const UrdfCase& c, std::ostream* os) { *os << c.name; }
class UrdfStructureErrors : public ::testing::TestWithParam<UrdfCase> {};

TEST_P(UrdfStructureErrors, AreFoundWithLine) {
  const UrdfCase& c = GetParam();
  const Diagnostics report = check_model_text(c.urdf, "r.urdf", nullptr, "");
  bool found = false;
  for (const auto& d : report.items)
    if (d.code == c.code && d.severity == Severity::error) {
      found = true;
      EXPECT_EQ(d.where.file, "r.urdf");
      EXPECT_EQ(d.where.line, c.line) << d.message;
    }
  EXPECT_TRUE(found) << "no error " << c.code;
  EXPECT_THROW((void)Model::from_urdf_string(c.urdf, "r.urdf"), ParseError);
}

const std::string kLimit = "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>";

INSTANTIATE_TEST_SUITE_P(
    All, UrdfStructureErrors,
    ::testing::Values(
        UrdfCase{"xml_syntax", "<robot name=\"r\">\n<link name=\"a\">\n</robot>", "xml-syntax", 2},
        UrdfCase{"not_robot", "<model/>", "not-urdf", 1},
        UrdfCase{"duplicate_link", urdf_with("<link name=\"a\"/>\n<link name=\"a\"/>"), "duplicate-link", 3},
        UrdfCase{"duplicate_joint",
                 urdf_with("<link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n"
                           "<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
                           "<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/></joint>"),
                 "duplicate-joint", 4},
        UrdfCase{"unknown_link",
                 urdf_with("<link name=\"a\"/>\n<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"zz\"/></joint>"),
                 "unknown-link", 3},
        UrdfCase{"self_parent",
                 urdf_with("<link name=\"a\"/>\n<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"a\"/></joint>"),
                 "self-parent", 3},
        UrdfCase{"several_roots", urdf_with("<link name=\"a\"/>\n<link name=\"b\"/>"), "several-roots", 1},
        UrdfCase{"loop",
                 urdf_with("<link name=\"root\"/><link name=\"a\"/>\n<link name=\"b\"/>\n"
                           "<joint name=\"j1\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
                           "<joint name=\"j2\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint>"),
                 "kinematic-loop", 2},
        UrdfCase{"several_parents",
                 urdf_with("<link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n"
                           "<joint name=\"j1\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/></joint>\n"
                           "<joint name=\"j2\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint>"),
                 "several-parents", 4},
        UrdfCase{"missing_limit",
                 urdf_with("<link name=\"a\"/><link name=\"b\"/>\n"
                           "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint>"),
                 "missing-limit", 3},
        UrdfCase{"zero_axis",
                 urdf_with("<link name=\"a\"/><link name=\"b\"/>\n<joint name=\"j\" type=\"revolute\">"
                           "<parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 0 0\"/>" + kLimit + "</joint>"),
                 "zero-axis", 3},
        UrdfCase{"unknown_type",
                 urdf_with("<link name=\"a\"/><link name=\"b\"/>\n"
                           "<joint name=\"j\" type=\"hinge\"><parent link=\"a\"/><child link=\"b\"/></joint>"),
                 "joint-type", 3}),
    [](const ::testing::TestParamInfo<UrdfCase>& info) { return std::string(info.param.name); });

TEST(UrdfStructure, DeepLineLoadsWithoutRecursion) {
  std::string body = "<link name=\"l0\"/>\n";
  const int depth = 10000;
  for (int i = 1; i <= depth; ++i)
    body += fmt::format("<link name=\"l{}\"/><joint name=\"j{}\" type=\"continuous\"><parent link=\"l{}\"/>"
                        "<child link=\"l{}\"/><origin xyz=\"0 0 0.01\"/></joint>\n",
                        i, i, i - 1, i);
  const Model model = Model::from_urdf_string(urdf_with(body), "deep.urdf");
  EXPECT_EQ(model.pose_size(), static_cast<std::size_t>(depth));
  EXPECT_EQ(model.joint_names().back(), "j10000");
}

TEST(UrdfStructure, CheckReportsAllProblemsAtOnce) {
  const std::string urdf = urdf_with(
      "<link name=\"a\"/><link name=\"b\"/><link name=\"a\"/>\n"
      "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
      "<joint name=\"k\" type=\"fixed\"><parent link=\"a\"/><child link=\"ghost\"/></joint>");
  const Diagnostics report = check_model_text(urdf, "r.urdf", nullptr, "");
  EXPECT_EQ(report.count(Severity::error), 3U);  // duplicate link, missing limit, unknown link
}

}  // namespace
}  // namespace rmodel
