// Model comparison: the full-pose verdict (identical, extended, incompatible) and every
// kind of change, on small crafted models and on the fixtures.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "rmodel/model/diff.hpp"
#include "rmodel/base/error.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;
using test::sample;

/// A joint of a crafted URDF.
struct J {
  std::string name;
  std::string parent;
  std::string child;
  std::string type = "revolute";
  std::string xyz = "0 0 0.1";
  std::string rpy = "0 0 0";
  std::string axis = "0 0 1";
  std::string limit = R"(lower="-1" upper="1" effort="3" velocity="2")";
};

/// A serial arm base → l1 → l2 → l3 plus a gripper on l3.
std::vector<J> arm() {
  return {{"j1", "base", "l1"}, {"j2", "l1", "l2"}, {"j3", "l2", "l3"}, {"grip", "l3", "finger", "prismatic"}};
}

std::string urdf(const std::vector<J>& joints, const std::string& robot = "arm") {
  std::string out = fmt::format("<robot name=\"{}\">\n  <link name=\"base\"/>\n", robot);
  for (const auto& j : joints) out += fmt::format("  <link name=\"{}\"/>\n", j.child);
  for (const auto& j : joints)
    out += fmt::format(
        "  <joint name=\"{}\" type=\"{}\"><parent link=\"{}\"/><child link=\"{}\"/><origin xyz=\"{}\" rpy=\"{}\"/>"
        "<axis xyz=\"{}\"/>{}</joint>\n",
        j.name, j.type, j.parent, j.child, j.xyz, j.rpy, j.axis, j.limit.empty() ? "" : "<limit " + j.limit + "/>");
  return out + "</robot>\n";
}

Model model(const std::vector<J>& joints, const char* semantics_json = nullptr) {
  std::optional<Semantics> s;
  if (semantics_json) s = parse_semantics_json(semantics_json, "sem.json");
  return Model::from_urdf_string(urdf(joints), "arm.urdf", std::move(s));
}

const EntityChange* changed(const EntityDiff& d, std::string_view name) {
  for (const auto& c : d.changed)
    if (c.name == name) return &c;
  return nullptr;
}

const PropertyChange* property(const EntityChange* c, std::string_view name) {
  if (!c) return nullptr;
  for (const auto& p : c->changes)
    if (p.property == name) return &p;
  return nullptr;
}

TEST(Diff, SameModelIsIdentical) {
  const Model a = model(arm());
  const ModelDiff d = diff_models(a, model(arm()));
  EXPECT_EQ(d.pose.verdict, PoseVerdict::identical);
  EXPECT_TRUE(d.pose.compatible(false));
  EXPECT_FALSE(d.has_changes());
  EXPECT_EQ(d.pose.old_size, 4U);
}

TEST(Diff, ReorderedUrdfMovesJointsAndBreaksThePose) {
  auto joints = arm();
  std::swap(joints[1], joints[2]);  // URDF-only pose follows declaration order
  const ModelDiff d = diff_models(model(arm()), model(joints));
  EXPECT_EQ(d.pose.verdict, PoseVerdict::incompatible);
  EXPECT_FALSE(d.pose.compatible());
  ASSERT_EQ(d.pose.moved.size(), 2U);
  EXPECT_EQ(d.pose.moved[0].name, "j2");
  EXPECT_EQ(d.pose.moved[0].old_index, 1);
  EXPECT_EQ(d.pose.moved[0].new_index, 2);
  EXPECT_TRUE(d.joints.empty());  // same joints, same properties
}

TEST(Diff, AppendedJointExtendsThePose) {
  auto joints = arm();
  joints.push_back({"wrist_cam", "l3", "cam"});
  const ModelDiff d = diff_models(model(arm()), model(joints));
  EXPECT_EQ(d.pose.verdict, PoseVerdict::extended);
  EXPECT_TRUE(d.pose.compatible());
  EXPECT_FALSE(d.pose.compatible(false));
  ASSERT_EQ(d.pose.added.size(), 1U);
  EXPECT_EQ(d.pose.added[0].index, 4);
  EXPECT_EQ(d.joints.added, (std::vector<std::string>{"wrist_cam"}));
  EXPECT_EQ(d.links.added, (std::vector<std::string>{"cam"}));
  // The other way round, a joint is removed: incompatible.
  const ModelDiff back = diff_models(model(joints), model(arm()));
  EXPECT_EQ(back.pose.verdict, PoseVerdict::incompatible);
  ASSERT_EQ(back.pose.removed.size(), 1U);
  EXPECT_EQ(back.pose.removed[0].name, "wrist_cam");
  EXPECT_EQ(back.joints.removed, (std::vector<std::string>{"wrist_cam"}));
}

TEST(Diff, InsertedJointShiftsTheRest) {
  auto joints = arm();
  joints.insert(joints.begin() + 1, J{"extra", "l1", "x"});
  const ModelDiff d = diff_models(model(arm()), model(joints));
  EXPECT_EQ(d.pose.verdict, PoseVerdict::incompatible);
  EXPECT_EQ(d.pose.added[0].index, 1);
  EXPECT_EQ(d.pose.moved.size(), 3U);  // j2, j3, grip
}

TEST(Diff, RenamedLookingJoint) {
  auto joints = arm();
  joints[1].name = "elbow";
  joints[1].limit = R"(lower="-1" upper="1.5" effort="3" velocity="2")";
  const ModelDiff d = diff_models(model(arm()), model(joints));
  ASSERT_EQ(d.renamed.size(), 1U);
  EXPECT_EQ(d.renamed[0].old_name, "j2");
  EXPECT_EQ(d.renamed[0].new_name, "elbow");
  ASSERT_EQ(d.renamed[0].changes.size(), 1U);
  EXPECT_EQ(d.renamed[0].changes[0].property, "upper");
  EXPECT_TRUE(d.joints.added.empty());
  EXPECT_TRUE(d.joints.removed.empty());
  // A renamed joint at the same index still breaks logs that carry names.
  EXPECT_EQ(d.pose.verdict, PoseVerdict::incompatible);
  EXPECT_EQ(d.pose.removed[0].name, "j2");
  EXPECT_EQ(d.pose.added[0].name, "elbow");
  // Another origin: not a rename.
  joints[1].xyz = "0 0 0.2";
  const ModelDiff e = diff_models(model(arm()), model(joints));
  EXPECT_TRUE(e.renamed.empty());
  EXPECT_EQ(e.joints.removed, (std::vector<std::string>{"j2"}));
  EXPECT_EQ(e.joints.added, (std::vector<std::string>{"elbow"}));
}

TEST(Diff, PropertiesBeyondTheTolerance) {
  auto joints = arm();
  joints[0].xyz = "0 0 0.1000001";
  joints[0].rpy = "0 0 0.5";
  joints[1].axis = "0 1 0";
  joints[2].limit = R"(lower="-1" upper="1" effort="3.5" velocity="2")";
  joints[3].limit = R"(lower="0" upper="0.05" effort="3" velocity="2")";
  const ModelDiff d = diff_models(model(arm()), model(joints));
  EXPECT_EQ(d.pose.verdict, PoseVerdict::identical);
  const PropertyChange* xyz = property(changed(d.joints, "j1"), "origin_xyz");
  ASSERT_NE(xyz, nullptr);
  EXPECT_EQ(std::get<std::vector<double>>(xyz->old_value), (std::vector<double>{0, 0, 0.1}));
  EXPECT_EQ(std::get<std::vector<double>>(xyz->new_value), (std::vector<double>{0, 0, 0.1000001}));
  const PropertyChange* rpy = property(changed(d.joints, "j1"), "origin_rpy");
  ASSERT_NE(rpy, nullptr);
  EXPECT_NEAR(std::get<std::vector<double>>(rpy->new_value)[2], 0.5, 1e-12);
  EXPECT_NE(property(changed(d.joints, "j2"), "axis"), nullptr);
  const PropertyChange* effort = property(changed(d.joints, "j3"), "effort");
  ASSERT_NE(effort, nullptr);
  EXPECT_EQ(std::get<double>(effort->old_value), 3.0);
  EXPECT_EQ(std::get<double>(effort->new_value), 3.5);
  EXPECT_NE(property(changed(d.joints, "grip"), "upper"), nullptr);

  // Within a tolerance of 1e-6 the translation is unchanged, the rest still differs.
  const ModelDiff loose = diff_models(model(arm()), model(joints), {1e-6});
  EXPECT_EQ(property(changed(loose.joints, "j1"), "origin_xyz"), nullptr);
  EXPECT_NE(property(changed(loose.joints, "j1"), "origin_rpy"), nullptr);
  EXPECT_THROW((void)diff_models(model(arm()), model(joints), {-1.0}), InvalidArgument);
}

TEST(Diff, LimitsAppearingAndTypeChanges) {
  auto joints = arm();
  joints[0].type = "continuous";
  joints[0].limit = R"(effort="3" velocity="2")";
  joints[2].type = "prismatic";
  const ModelDiff d = diff_models(model(arm()), model(joints));
  const EntityChange* j1 = changed(d.joints, "j1");
  ASSERT_NE(j1, nullptr);
  EXPECT_EQ(std::get<std::string>(property(j1, "type")->new_value), "continuous");
  // A continuous joint keeps its rad unit: the pose is still readable...
  // ...but revolute → prismatic changes the unit of j3's values: incompatible.
  EXPECT_EQ(d.pose.verdict, PoseVerdict::incompatible);
  ASSERT_EQ(d.pose.unit_changes.size(), 1U);
  EXPECT_EQ(d.pose.unit_changes[0].name, "j3");
  EXPECT_EQ(d.pose.unit_changes[0].old_type, JointType::revolute);
  EXPECT_EQ(d.pose.unit_changes[0].new_type, JointType::prismatic);
  EXPECT_TRUE(d.pose.moved.empty());
}

TEST(Diff, JointTurningFixedKeepsItsAxis) {
  // Same <axis> in both files: only the type changes (urdfdom leaves 0 0 0 on fixed joints).
  auto joints = arm();
  joints[1].type = "fixed";
  joints[1].axis = "0 1 0";
  auto before = arm();
  before[1].axis = "0 1 0";
  const ModelDiff d = diff_models(model(before), model(joints));
  const EntityChange* j2 = changed(d.joints, "j2");
  ASSERT_NE(j2, nullptr);
  EXPECT_NE(property(j2, "type"), nullptr);
  EXPECT_EQ(property(j2, "axis"), nullptr);
  // A fixed joint without <axis> has the URDF default, 1 0 0.
  auto no_axis = joints;
  no_axis[1].axis = "1 0 0";
  const ModelDiff d2 = diff_models(model(joints), model(no_axis));
  EXPECT_NE(property(changed(d2.joints, "j2"), "axis"), nullptr);
}

const char* kSemantics = R"({
  "chains": [{"name": "arm", "first_link": "base", "last_link": "l3"},
             {"name": "hand", "first_link": "l3", "last_link": "finger"}],
  "groups": [{"name": "body", "chains": ["arm"]}, {"name": "gripper", "chains": ["hand"]}],
  "contacts": [{"name": "tip", "points": [[0, 0, 0.1]]}],
  "poses": [{"name": "home", "group": "body", "joints": {"j2": 0.5}}]
})";

// ---- what the robot is made of: masses, inertias, joint dynamics, safety controllers ----

/// A two-link arm whose `forearm` carries `inertial` and whose `elbow` carries `extra`
/// (elements inside the joint: <dynamics>, <mimic>, <safety_controller>).
std::string physical_urdf(const std::string& inertial, const std::string& extra = "") {
  return "<robot name=\"arm\">\n"
         "  <link name=\"base\"/>\n"
         "  <link name=\"forearm\">" + inertial + "</link>\n"
         "  <link name=\"hand\"/>\n"
         "  <joint name=\"shoulder\" type=\"revolute\"><parent link=\"base\"/><child link=\"forearm\"/>"
         "<axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"30\" velocity=\"2\"/></joint>\n"
         "  <joint name=\"elbow\" type=\"revolute\"><parent link=\"forearm\"/><child link=\"hand\"/>"
         "<origin xyz=\"0 0 0.3\"/><axis xyz=\"0 1 0\"/><limit lower=\"-2\" upper=\"2\" effort=\"10\" velocity=\"3\"/>" +
         extra + "</joint>\n"
         "</robot>\n";
}

std::string forearm_inertial(const std::string& mass, const std::string& ixx, const std::string& origin = "") {
  return "<inertial>" + origin + "<mass value=\"" + mass + "\"/><inertia ixx=\"" + ixx +
         "\" ixy=\"0\" ixz=\"0\" iyy=\"0.0045\" iyz=\"0\" izz=\"0.0012\"/></inertial>";
}

ModelDiff physical_diff(const std::string& a, const std::string& b, double tolerance = 1e-9) {
  return diff_models(Model::from_urdf_string(a, "old.urdf"), Model::from_urdf_string(b, "new.urdf"), {tolerance});
}

double number(const DiffValue& v) { return std::get<double>(v); }

TEST(Diff, MassAndInertiaOfALink) {
  // The issue's case: a link's mass from 4 to 99 kg, ixx from 0.0044 to 5.
  const ModelDiff d = physical_diff(physical_urdf(forearm_inertial("4", "0.0044")),
                                    physical_urdf(forearm_inertial("99", "5")));
  EXPECT_EQ(d.pose.verdict, PoseVerdict::identical);
  EXPECT_TRUE(d.pose.compatible(false));
  EXPECT_TRUE(d.physical_changes());
  EXPECT_TRUE(d.joints.empty());
  const EntityChange* forearm = changed(d.links, "forearm");
  ASSERT_NE(forearm, nullptr);
  ASSERT_EQ(forearm->changes.size(), 2U);
  EXPECT_EQ(forearm->changes[0].property, "mass");
  EXPECT_EQ(number(forearm->changes[0].old_value), 4.0);
  EXPECT_EQ(number(forearm->changes[0].new_value), 99.0);
  EXPECT_EQ(forearm->changes[1].property, "ixx");
  EXPECT_EQ(number(forearm->changes[1].old_value), 0.0044);
  EXPECT_EQ(number(forearm->changes[1].new_value), 5.0);
  // The same file: nothing.
  const ModelDiff same = physical_diff(physical_urdf(forearm_inertial("4", "0.0044")),
                                       physical_urdf(forearm_inertial("4", "0.0044")));
  EXPECT_FALSE(same.has_changes());
  EXPECT_FALSE(same.physical_changes());
}

TEST(Diff, CentreOfMassAndTheInertiasAxesAsWritten) {
  const ModelDiff d = physical_diff(
      physical_urdf(forearm_inertial("4", "0.0044", "<origin xyz=\"0 0 0.15\"/>")),
      physical_urdf(forearm_inertial("4", "0.0044", "<origin xyz=\"0.01 0 0.15\" rpy=\"0 0 0.3\"/>")));
  const EntityChange* forearm = changed(d.links, "forearm");
  ASSERT_NE(forearm, nullptr);
  const PropertyChange* xyz = property(forearm, "inertial_xyz");
  ASSERT_NE(xyz, nullptr);
  EXPECT_EQ(std::get<std::vector<double>>(xyz->old_value), (std::vector<double>{0, 0, 0.15}));
  EXPECT_EQ(std::get<std::vector<double>>(xyz->new_value), (std::vector<double>{0.01, 0, 0.15}));
  const PropertyChange* rpy = property(forearm, "inertial_rpy");
  ASSERT_NE(rpy, nullptr);
  EXPECT_EQ(std::get<std::vector<double>>(rpy->old_value), (std::vector<double>{0, 0, 0}));
  EXPECT_NEAR(std::get<std::vector<double>>(rpy->new_value)[2], 0.3, 1e-12);
  // The moments are compared as written, in the inertia's own axes: unchanged here.
  EXPECT_EQ(property(forearm, "ixx"), nullptr);
  EXPECT_EQ(forearm->changes.size(), 2U);
}

TEST(Diff, AnInertialAppearingOrGoing) {
  const std::string none = physical_urdf("");
  const ModelDiff d = physical_diff(none, physical_urdf(forearm_inertial("2", "0.01")));
  const EntityChange* forearm = changed(d.links, "forearm");
  ASSERT_NE(forearm, nullptr);
  const PropertyChange* mass = property(forearm, "mass");
  ASSERT_NE(mass, nullptr);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(mass->old_value));  // no <inertial>: null
  EXPECT_EQ(number(mass->new_value), 2.0);
  // Every moment written, the zero ones excepted (no inertial reads as no inertia).
  std::vector<std::string> properties;
  for (const auto& c : forearm->changes) properties.push_back(c.property);
  EXPECT_EQ(properties, (std::vector<std::string>{"mass", "ixx", "iyy", "izz"}));
  // A massless <inertial> written out is what no <inertial> is.
  const std::string massless =
      "<inertial><mass value=\"0\"/><inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial>";
  EXPECT_FALSE(physical_diff(none, physical_urdf(massless)).has_changes());
}

TEST(Diff, MassesAndMomentsAreEqualWithinTheToleranceRelativeToTheirSize) {
  const std::string old_urdf = physical_urdf(forearm_inertial("4", "1e-20"));
  // 4 kg and 4.000000001 kg: 2.5e-10 of the mass apart. A moment of 1e-20 and one of 0,
  // beside 0.0045: the 0 it stands for.
  EXPECT_FALSE(physical_diff(old_urdf, physical_urdf(forearm_inertial("4.000000001", "0"))).has_changes());
  // Further than 1e-9 of their size, they differ, however small.
  const ModelDiff d = physical_diff(physical_urdf(forearm_inertial("0.001", "1e-6")),
                                    physical_urdf(forearm_inertial("0.0010001", "1.1e-6")));
  EXPECT_NE(property(changed(d.links, "forearm"), "mass"), nullptr);
  EXPECT_NE(property(changed(d.links, "forearm"), "ixx"), nullptr);
  // Tolerance 0: bit for bit as read. "4" and "4.0" are the same number; 1e-20 and 0 are not.
  EXPECT_FALSE(physical_diff(physical_urdf(forearm_inertial("4", "0.0044")),
                             physical_urdf(forearm_inertial("4.0", "4.4e-3")), 0.0)
                   .has_changes());
  EXPECT_NE(property(changed(physical_diff(old_urdf, physical_urdf(forearm_inertial("4", "0")), 0.0).links,
                             "forearm"),
                     "ixx"),
            nullptr);
}

TEST(Diff, JointDynamics) {
  const std::string plain = physical_urdf("");
  const std::string damped = physical_urdf("", "<dynamics damping=\"0.5\" friction=\"0.1\"/>");
  const ModelDiff d = physical_diff(plain, damped);
  EXPECT_EQ(d.pose.verdict, PoseVerdict::identical);
  EXPECT_TRUE(d.physical_changes());
  const EntityChange* elbow = changed(d.joints, "elbow");
  ASSERT_NE(elbow, nullptr);
  ASSERT_EQ(elbow->changes.size(), 2U);
  EXPECT_EQ(elbow->changes[0].property, "damping");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(elbow->changes[0].old_value));
  EXPECT_EQ(number(elbow->changes[0].new_value), 0.5);
  EXPECT_EQ(elbow->changes[1].property, "friction");
  EXPECT_EQ(number(elbow->changes[1].new_value), 0.1);
  const ModelDiff more = physical_diff(damped, physical_urdf("", "<dynamics damping=\"0.7\" friction=\"0.1\"/>"));
  const EntityChange* e = changed(more.joints, "elbow");
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(e->changes.size(), 1U);
  EXPECT_EQ(e->changes[0].property, "damping");
  EXPECT_EQ(number(e->changes[0].old_value), 0.5);
  EXPECT_EQ(number(e->changes[0].new_value), 0.7);
  // <dynamics damping="0"/> damps as little as none.
  EXPECT_FALSE(physical_diff(plain, physical_urdf("", "<dynamics damping=\"0\"/>")).has_changes());
}

TEST(Diff, SafetyControllerAndMimic) {
  const std::string safety =
      "<safety_controller soft_lower_limit=\"-1.9\" soft_upper_limit=\"1.9\" k_position=\"100\" k_velocity=\"2\"/>";
  const ModelDiff added = physical_diff(physical_urdf(""), physical_urdf("", safety));
  const EntityChange* elbow = changed(added.joints, "elbow");
  ASSERT_NE(elbow, nullptr);
  std::vector<std::string> properties;
  std::vector<double> values;
  for (const auto& c : elbow->changes) {
    properties.push_back(c.property);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(c.old_value)) << c.property;
    values.push_back(number(c.new_value));
  }
  EXPECT_EQ(properties, (std::vector<std::string>{"soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity"}));
  EXPECT_EQ(values, (std::vector<double>{-1.9, 1.9, 100, 2}));
  std::string stiffer = safety;
  stiffer.replace(stiffer.find("k_velocity=\"2\""), 14, "k_velocity=\"3\"");
  const ModelDiff changed_gain = physical_diff(physical_urdf("", safety), physical_urdf("", stiffer));
  elbow = changed(changed_gain.joints, "elbow");
  ASSERT_NE(elbow, nullptr);
  ASSERT_EQ(elbow->changes.size(), 1U);
  EXPECT_EQ(elbow->changes[0].property, "k_velocity");
  EXPECT_EQ(number(elbow->changes[0].old_value), 2.0);
  EXPECT_EQ(number(elbow->changes[0].new_value), 3.0);
  // A mimic's rule and the joint it follows.
  const ModelDiff mimic = physical_diff(physical_urdf("", "<mimic joint=\"shoulder\" multiplier=\"2\" offset=\"0.1\"/>"),
                                        physical_urdf("", "<mimic joint=\"shoulder\" multiplier=\"-1\" offset=\"0\"/>"));
  elbow = changed(mimic.joints, "elbow");
  ASSERT_NE(elbow, nullptr);
  EXPECT_EQ(number(property(elbow, "mimic_multiplier")->old_value), 2.0);
  EXPECT_EQ(number(property(elbow, "mimic_multiplier")->new_value), -1.0);
  EXPECT_EQ(number(property(elbow, "mimic_offset")->old_value), 0.1);
  EXPECT_EQ(number(property(elbow, "mimic_offset")->new_value), 0.0);
}

TEST(Diff, SemanticsAloneAreNoPhysicalChange) {
  const ModelDiff d = diff_models(model(arm(), kSemantics), model(arm()));
  EXPECT_TRUE(d.has_changes());
  EXPECT_FALSE(d.physical_changes());
  auto joints = arm();
  joints.push_back({"tip", "finger", "tip_link", "fixed"});
  EXPECT_TRUE(diff_models(model(arm()), model(joints)).physical_changes());  // a link and a joint added
}


TEST(Diff, ChainsGroupsContactsAndPoses) {
  const char* changed_semantics = R"({
  "chains": [{"name": "arm", "first_link": "base", "last_link": "l2"},
             {"name": "hand", "first_link": "l2", "last_link": "finger"},
             {"name": "wrist", "first_link": "l2", "last_link": "l3"}],
  "groups": [{"name": "body", "chains": ["arm"]}, {"name": "gripper", "chains": ["hand"]}],
  "contacts": [{"name": "tip", "points": [[0, 0, 0.12]]}, {"name": "pad", "points": [[0, 0, 0]]}],
  "poses": [{"name": "home", "group": "body", "joints": {"j2": 0.6}}]
})";
  const ModelDiff d = diff_models(model(arm(), kSemantics), model(arm(), changed_semantics));
  EXPECT_EQ(d.pose.verdict, PoseVerdict::identical);  // j1 j2 j3 grip either way
  EXPECT_EQ(d.chains.added, (std::vector<std::string>{"wrist"}));
  const EntityChange* arm_chain = changed(d.chains, "arm");
  ASSERT_NE(arm_chain, nullptr);
  EXPECT_EQ(std::get<std::string>(property(arm_chain, "last_link")->new_value), "l2");
  EXPECT_EQ(std::get<std::vector<std::string>>(property(arm_chain, "joints")->old_value),
            (std::vector<std::string>{"j1", "j2", "j3"}));
  EXPECT_EQ(std::get<std::vector<std::string>>(property(arm_chain, "joints")->new_value),
            (std::vector<std::string>{"j1", "j2"}));
  const EntityChange* body = changed(d.groups, "body");
  ASSERT_NE(body, nullptr);
  EXPECT_NE(property(body, "joints"), nullptr);
  EXPECT_EQ(property(body, "chains"), nullptr);
  EXPECT_NE(property(changed(d.groups, "gripper"), "joints"), nullptr);
  EXPECT_EQ(d.contacts.added, (std::vector<std::string>{"pad"}));
  EXPECT_NE(property(changed(d.contacts, "tip"), "points"), nullptr);
  const PropertyChange* home = property(changed(d.poses, "home"), "joints");
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(std::get<std::vector<std::string>>(home->new_value), (std::vector<std::string>{"j2=0.6"}));
}

TEST(Diff, SemanticsReorderingTheChainsBreaksThePose) {
  const char* swapped = R"({
  "chains": [{"name": "hand", "first_link": "l3", "last_link": "finger"},
             {"name": "arm", "first_link": "base", "last_link": "l3"}],
  "groups": [{"name": "body", "chains": ["arm"]}, {"name": "gripper", "chains": ["hand"]}]
})";
  const ModelDiff d = diff_models(model(arm(), kSemantics), model(arm(), swapped));
  EXPECT_EQ(d.pose.verdict, PoseVerdict::incompatible);
  EXPECT_EQ(d.pose.moved.size(), 4U);
  EXPECT_NE(property(changed(d.chains, "arm"), "index"), nullptr);
  EXPECT_EQ(d.contacts.removed, (std::vector<std::string>{"tip"}));
  EXPECT_EQ(d.poses.removed, (std::vector<std::string>{"home"}));
}

TEST(Diff, SampleAgainstItsUrdfOnly) {
  const Model with = Model::load({sample("pony.urdf").string(), sample("pony.json").string(), std::nullopt});
  const Model without = Model::load({sample("pony.urdf").string(), "", std::nullopt});
  const ModelDiff d = diff_models(with, without);
  // URDF-only puts every movable joint in declaration order, which the sample's chains follow.
  EXPECT_EQ(d.pose.verdict, PoseVerdict::identical);
  EXPECT_EQ(d.pose.old_size, 20U);
  EXPECT_EQ(d.pose.new_size, 20U);
  EXPECT_EQ(d.chains.removed.size(), 6U);
  EXPECT_EQ(d.groups.removed.size(), 3U);
  EXPECT_TRUE(d.joints.empty());
}

TEST(Diff, FixtureCpfAgainstSrdf) {
  RMODEL_REQUIRE_FIXTURES();
  const std::string urdf_path = fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string();
  const Model cpf = Model::load({urdf_path, fixture("sweetie_bot_proto2/kinematic_chains.cpf").string(), std::nullopt});
  const Model srdf = Model::load({urdf_path, fixture("sweetie_bot_proto2/sweetie_bot_proto2.srdf").string(), std::nullopt});
  const ModelDiff d = diff_models(cpf, srdf);
  EXPECT_EQ(d.pose.verdict, PoseVerdict::incompatible);
  EXPECT_EQ(d.pose.old_size, cpf.pose_size());
  EXPECT_EQ(d.pose.new_size, 30U);
  EXPECT_TRUE(d.joints.empty());
  EXPECT_TRUE(d.links.empty());
  const ModelDiff same = diff_models(srdf, srdf);
  EXPECT_FALSE(same.has_changes());
  // Talos: the same URDF and SRDF twice.
  const Model talos = Model::load({fixture("example_robot_data/talos_reduced.urdf").string(),
                                   fixture("example_robot_data/talos.srdf").string(), std::nullopt});
  EXPECT_FALSE(diff_models(talos, talos).has_changes());
}

}  // namespace
}  // namespace rmodel
