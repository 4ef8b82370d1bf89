// MoveIt SRDF files as srdfdom reads them: each case that rmodel used to refuse has its own
// minimal SRDF against a real URDF of the fixtures, loads with a warning naming file and
// line, and keeps every movable joint of every group in the full pose. The real mistakes
// (a joint or link that does not exist, a limb's group naming another limb's joint) stay
// errors of `check`. Chains through a common ancestor are compared with KDL's own
// Tree::getChain and solvers, and with finite differences.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>

#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainjnttojacsolver.hpp>

#include "rmodel/check/check.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/model/pose.hpp"
#include "rmodel/model/semantics.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;

const char* const kPanda = "example_robot_data/panda.urdf";
const char* const kTalos = "example_robot_data/talos_reduced.urdf";

std::string srdf_text(const std::string& body) {
  return "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" + body + "</robot>\n";
}

/// The model of a fixture URDF with an SRDF whose elements are `body` (line 3 onwards).
Model load(const char* urdf, const std::string& body) {
  return Model::from_urdf_string(read_file(fixture(urdf)), urdf, parse_srdf(srdf_text(body), "case.srdf"));
}

/// What `rmodel check` reports for the same pair.
Diagnostics check(const char* urdf, const std::string& body) {
  const std::string text = srdf_text(body);
  return check_model_text(read_file(fixture(urdf)), urdf, &text, "case.srdf", SemanticsFormat::srdf);
}

const Diagnostic* find(const Diagnostics& d, std::string_view code, std::string_view text = {}) {
  for (const auto& item : d.items)
    if (item.code == code && item.message.find(text) != std::string::npos) return &item;
  return nullptr;
}

/// Errors other than physical plausibility: Talos' gripper motors break the triangle
/// inequality (test_model_inertial.cpp), which is no concern of its SRDF.
bool has_errors_besides_inertias(const Diagnostics& d) {
  return std::any_of(d.items.begin(), d.items.end(), [](const Diagnostic& item) {
    return item.severity == Severity::error && !is_plausibility_error(item.code);
  });
}

std::string listing(const Diagnostics& d) {
  std::string out;
  for (const auto& item : d.items) out += item.where.file + ":" + std::to_string(item.where.line) + ": " + item.code + ": " + item.message + "\n";
  return out;
}

std::vector<std::string> panda_arm() {
  std::vector<std::string> out;
  for (int i = 1; i <= 7; ++i) out.push_back("panda_joint" + std::to_string(i));
  return out;
}

std::string joints_xml(const std::vector<std::string>& joints) {
  std::string out;
  for (const auto& j : joints) out += "  <joint name=\"" + j + "\"/>\n";
  return out;
}

// ---- the cases srdfdom accepts ----

TEST(SrdfMoveIt, GroupListingTheVirtualJointLoadsWhateverTheOrder) {
  RMODEL_REQUIRE_FIXTURES();
  const std::string vj = "<virtual_joint name=\"world_joint\" type=\"fixed\" parent_frame=\"world\" child_link=\"panda_link0\"/>\n";
  const std::string group = "<group name=\"arm\">\n  <joint name=\"world_joint\"/>\n" + joints_xml(panda_arm()) + "</group>\n";
  for (const std::string& body : {vj + group, group + vj}) {
    const Model model = load(kPanda, body);
    EXPECT_EQ(model.group_joints("arm"), panda_arm());
    EXPECT_FALSE(model.find_joint_index("world_joint"));
    const Diagnostics d = check(kPanda, body);
    EXPECT_FALSE(d.has_errors()) << listing(d);
    const Diagnostic* w = find(d, "srdf-virtual-joint-in-group", "'world_joint'");
    ASSERT_NE(w, nullptr) << listing(d);
    EXPECT_EQ(w->where.file, "case.srdf");
    EXPECT_EQ(w->where.line, body == vj + group ? 5 : 4);  // the <joint> element's own line
  }
}

TEST(SrdfMoveIt, NestedChainGroupsShareTheirJoints) {
  RMODEL_REQUIRE_FIXTURES();
  // An arm group and a longer group over the same chain: MoveIt's usual arm / arm+base pair.
  const std::string body =
      "<group name=\"arm\"><chain base_link=\"panda_link1\" tip_link=\"panda_link8\"/></group>\n"
      "<group name=\"arm_base\"><chain base_link=\"panda_link0\" tip_link=\"panda_link8\"/></group>\n";
  const Model model = load(kPanda, body);
  const auto arm = panda_arm();
  EXPECT_EQ(model.chain_joints("arm"), std::vector<std::string>(arm.begin() + 1, arm.end()));
  EXPECT_EQ(model.chain_joints("arm_base"), panda_arm());
  EXPECT_EQ(model.group_joints("arm_base"), panda_arm());  // the later group keeps its whole content
  EXPECT_EQ(model.joint_group("panda_joint3"), "arm");      // the first declared owns what it shares
  EXPECT_EQ(model.joint_group("panda_joint1"), "arm_base"); // and what no earlier group took is the later's
  EXPECT_EQ(model.pose_size(), 7U);
  const Diagnostics d = check(kPanda, body);
  EXPECT_FALSE(d.has_errors()) << listing(d);
  // One group inside the other is how MoveIt configurations build groups: no overlap.
  EXPECT_EQ(find(d, "group-overlap"), nullptr) << listing(d);
}

TEST(SrdfMoveIt, JointGroupThenChainGroupOverTheSameJoints) {
  RMODEL_REQUIRE_FIXTURES();
  // A joints-only arm group declared before a chain group covering its joints.
  const std::string body = "<group name=\"arm\">\n" + joints_xml(panda_arm()) +
                           "</group>\n<group name=\"arm_chain\"><chain base_link=\"panda_link0\" "
                           "tip_link=\"panda_hand\"/></group>\n";
  const Model model = load(kPanda, body);
  EXPECT_EQ(model.group_joints("arm"), panda_arm());
  EXPECT_EQ(model.group_joints("arm_chain"), panda_arm());
  EXPECT_EQ(model.joint_group("panda_joint7"), "arm");
  EXPECT_FALSE(check(kPanda, body).has_errors()) << listing(check(kPanda, body));
}

TEST(SrdfMoveIt, GroupStateWithoutGroupKeepsItsJoints) {
  RMODEL_REQUIRE_FIXTURES();
  const std::string body = "<group name=\"arm\">\n" + joints_xml(panda_arm()) +
                           "</group>\n<group_state name=\"ready\">\n  <joint name=\"panda_joint4\" "
                           "value=\"-2\"/>\n</group_state>\n";
  const Semantics s = parse_srdf(srdf_text(body), "case.srdf");
  ASSERT_EQ(s.poses.size(), 1U);
  EXPECT_EQ(s.poses[0].group, "");
  const Model model = load(kPanda, body);
  EXPECT_DOUBLE_EQ(named_pose(model, "ready").position[model.joint_index("panda_joint4")], -2.0);
  const Diagnostics d = check(kPanda, body);
  EXPECT_FALSE(d.has_errors()) << listing(d);
  const Diagnostic* w = find(d, "srdf-pose-without-group", "'ready'");
  ASSERT_NE(w, nullptr) << listing(d);
  EXPECT_EQ(w->where.line, 12);
  // convert keeps it: JSON and .cpf round trips.
  EXPECT_TRUE(parse_semantics_json(to_semantics_json(s), "x.json").same_content(s));
}

TEST(SrdfMoveIt, FixedJointsInAGroupAreSkipped) {
  RMODEL_REQUIRE_FIXTURES();
  auto joints = panda_arm();
  joints.push_back("panda_joint8");      // fixed
  joints.push_back("panda_hand_joint");  // fixed
  const std::string body = "<group name=\"arm\">\n" + joints_xml(joints) + "</group>\n";
  const Model model = load(kPanda, body);
  EXPECT_EQ(model.group_joints("arm"), panda_arm());
  const Diagnostics d = check(kPanda, body);
  EXPECT_FALSE(d.has_errors()) << listing(d);
  const Diagnostic* w = find(d, "fixed-joint", "panda_joint8, panda_hand_joint");
  ASSERT_NE(w, nullptr) << listing(d);
  EXPECT_EQ(w->where.line, 3);
}

TEST(SrdfMoveIt, LaterOverlappingGroupKeepsTheJointsNoEarlierGroupTook) {
  RMODEL_REQUIRE_FIXTURES();
  auto all = panda_arm();
  all.push_back("panda_finger_joint1");
  all.push_back("panda_finger_joint2");
  const std::string body = "<group name=\"arm\">\n" + joints_xml(panda_arm()) +
                           "</group>\n<group name=\"arm_and_hand\">\n" + joints_xml(all) +
                           "</group>\n<group_state name=\"open\" group=\"arm_and_hand\">\n"
                           "  <joint name=\"panda_finger_joint2\" value=\"0.03\"/>\n</group_state>\n";
  const Model model = load(kPanda, body);
  EXPECT_EQ(model.joint_names(), all);
  EXPECT_EQ(model.group_joints("arm_and_hand"), all);
  EXPECT_EQ(model.joint_group("panda_finger_joint2"), "arm_and_hand");
  EXPECT_DOUBLE_EQ(named_pose(model, "open").position[model.joint_index("panda_finger_joint2")], 0.03);
  const Diagnostics d = check(kPanda, body);
  EXPECT_FALSE(d.has_errors()) << listing(d);
  EXPECT_EQ(find(d, "group-overlap"), nullptr) << listing(d);  // arm lies inside arm_and_hand
  EXPECT_EQ(find(d, "joint-outside-pose"), nullptr) << listing(d);
}

// MoveIt's panda_moveit_config: panda_arm_hand is panda_arm + hand, written with subgroups or
// with the same joints and links listed again. What two groups share being a group of its own
// is no overlap; joints shared with no group of their own are (the joint's own group is then
// an accident of declaration order), whichever group is declared first.
TEST(SrdfMoveIt, GroupsOfGroupsDoNotOverlapPartlySharedJointsDo) {
  RMODEL_REQUIRE_FIXTURES();
  const std::string arm = "<group name=\"panda_arm\"><chain base_link=\"panda_link0\" tip_link=\"panda_link8\"/></group>\n";
  const std::string hand = "<group name=\"hand\"><link name=\"panda_hand\"/><link name=\"panda_leftfinger\"/>"
                           "<link name=\"panda_rightfinger\"/></group>\n";
  const std::string by_subgroups = "<group name=\"panda_arm_hand\"><group name=\"panda_arm\"/><group name=\"hand\"/></group>\n";
  auto all = panda_arm();
  all.push_back("panda_finger_joint1");
  all.push_back("panda_finger_joint2");
  const std::string by_joints = "<group name=\"panda_arm_hand\">\n" + joints_xml(all) + "</group>\n";
  for (const std::string& body : {arm + hand + by_subgroups, arm + hand + by_joints, by_subgroups + arm + hand,
                                  by_joints + hand + arm}) {
    const Diagnostics d = check(kPanda, body);
    EXPECT_FALSE(d.has_errors()) << listing(d);
    EXPECT_EQ(find(d, "group-overlap"), nullptr) << body << listing(d);
    EXPECT_EQ(load(kPanda, body).group_joints("panda_arm_hand").size(), 9U);
  }
  // PR2's arms_and_torso = arms + the torso joint and whole_body = arms + base + torso: what
  // two groups share (arms, or all of arms_and_torso) is a group.
  const std::string upper = "<group name=\"upper\">" + joints_xml({"panda_joint1", "panda_joint2"}) + "</group>\n";
  const std::string lower = "<group name=\"lower\">" + joints_xml({"panda_joint3", "panda_joint4"}) + "</group>\n";
  const std::string both = "<group name=\"both\"><group name=\"upper\"/><group name=\"lower\"/></group>\n";
  const std::string both_wrist = "<group name=\"both_wrist\"><group name=\"both\"/><joint name=\"panda_joint5\"/></group>\n";
  const std::string upper_hand = "<group name=\"upper_hand\"><group name=\"upper\"/><group name=\"hand\"/></group>\n";
  const Diagnostics composed = check(kPanda, upper + lower + hand + both + both_wrist + upper_hand);
  EXPECT_EQ(find(composed, "group-overlap"), nullptr) << listing(composed);
  // Two limbs both naming panda_joint4, which no group holds alone: an overlap, whichever
  // comes first, naming only the joint they share.
  const std::string left = "<group name=\"left\"><joint name=\"panda_joint3\"/><joint name=\"panda_joint4\"/></group>\n";
  const std::string right = "<group name=\"right\"><joint name=\"panda_joint4\"/><joint name=\"panda_joint5\"/></group>\n";
  for (const auto& [body, later, earlier] : {std::tuple{left + right, "right", "left"},
                                             std::tuple{right + left, "left", "right"}}) {
    const Diagnostics d = check(kPanda, body);
    const Diagnostic* w = find(d, "group-overlap");
    ASSERT_NE(w, nullptr) << listing(d);
    EXPECT_EQ(w->severity, Severity::warning);
    EXPECT_EQ(w->message, std::string("group '") + later + "' shares 1 joint (panda_joint4) with group " + earlier +
                              ", declared before it: the first declared keeps them as their group, '" + later +
                              "' still lists them");
    EXPECT_EQ(w->where.line, 4);
  }
  // With a group of its own, the shared joint is no longer loose.
  const Diagnostics fixed = check(kPanda, left + right + "<group name=\"elbow\"><joint name=\"panda_joint4\"/></group>\n");
  EXPECT_EQ(find(fixed, "group-overlap"), nullptr) << listing(fixed);
}

const std::string kChestToFoot =
    "<group name=\"left_foot\"><chain base_link=\"torso_2_link\" tip_link=\"left_sole_link\"/></group>\n";

TEST(SrdfMoveIt, ChainThroughACommonAncestorLoads) {
  RMODEL_REQUIRE_FIXTURES();
  const Model model = load(kTalos, kChestToFoot);
  EXPECT_EQ(model.chain_joints("left_foot"),
            (std::vector<std::string>{"torso_2_joint", "torso_1_joint", "leg_left_1_joint", "leg_left_2_joint",
                                      "leg_left_3_joint", "leg_left_4_joint", "leg_left_5_joint",
                                      "leg_left_6_joint"}));
  const Diagnostics d = check(kTalos, kChestToFoot);
  EXPECT_FALSE(has_errors_besides_inertias(d)) << listing(d);
  const Diagnostic* w = find(d, "chain-through-ancestor", "common ancestor 'base_link'");
  ASSERT_NE(w, nullptr) << listing(d);
  EXPECT_EQ(w->where.line, 3);
}

/// A 6-DoF arm laid out as Universal Robots' description lays out the UR5: fixed joints
/// between base_link and the first revolute joint (base_link-base_link_inertia) and after the
/// last one (wrist_3-flange, flange-tool0), and a `base` frame beside them.
std::string ur_like_urdf() {
  std::string links, joints;
  auto link = [&](const std::string& name) { links += "  <link name=\"" + name + "\"/>\n"; };
  auto joint = [&](const std::string& name, const char* type, const std::string& parent, const std::string& child) {
    joints += "  <joint name=\"" + name + "\" type=\"" + type + "\"><parent link=\"" + parent +
              "\"/><child link=\"" + child + "\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"0 0 1\"/>" +
              (std::string(type) == "fixed" ? "" : "<limit lower=\"-6\" upper=\"6\" effort=\"150\" velocity=\"3\"/>") +
              "</joint>\n";
  };
  for (const char* name : {"base_link", "base", "base_link_inertia", "shoulder_link", "upper_arm_link", "forearm_link",
                           "wrist_1_link", "wrist_2_link", "wrist_3_link", "flange", "tool0"})
    link(name);
  joint("base_link-base_fixed_joint", "fixed", "base_link", "base");
  joint("base_link-base_link_inertia", "fixed", "base_link", "base_link_inertia");
  joint("shoulder_pan_joint", "revolute", "base_link_inertia", "shoulder_link");
  joint("shoulder_lift_joint", "revolute", "shoulder_link", "upper_arm_link");
  joint("elbow_joint", "revolute", "upper_arm_link", "forearm_link");
  joint("wrist_1_joint", "revolute", "forearm_link", "wrist_1_link");
  joint("wrist_2_joint", "revolute", "wrist_1_link", "wrist_2_link");
  joint("wrist_3_joint", "revolute", "wrist_2_link", "wrist_3_link");
  joint("wrist_3-flange", "fixed", "wrist_3_link", "flange");
  joint("flange-tool0", "fixed", "flange", "tool0");
  return "<robot name=\"ur_like\">\n" + links + joints + "</robot>\n";
}

TEST(SrdfMoveIt, ChainThroughACommonAncestorCountsTheJointsThatMove) {
  const std::string urdf = ur_like_urdf();
  auto check_chain = [&](const char* base, const char* tip) {
    const std::string srdf =
        srdf_text(std::string("<group name=\"g\"><chain base_link=\"") + base + "\" tip_link=\"" + tip + "\"/></group>\n");
    return check_model_text(urdf, "ur.urdf", &srdf, "case.srdf", SemanticsFormat::srdf);
  };
  // tool0 up to base_link: two fixed joints, the six revolute ones, one fixed; then down to
  // `base`. Six joints move in reverse, not nine or seven.
  const Diagnostics up = check_chain("tool0", "base");
  EXPECT_FALSE(up.has_errors()) << listing(up);
  const Diagnostic* w = find(up, "chain-through-ancestor", "common ancestor 'base_link'");
  ASSERT_NE(w, nullptr) << listing(up);
  EXPECT_NE(w->message.find("(the 6 movable joints on the way up move in reverse)"), std::string::npos) << w->message;
  const Diagnostics wrist = check_chain("wrist_2_link", "base");
  w = find(wrist, "chain-through-ancestor");
  ASSERT_NE(w, nullptr) << listing(wrist);
  EXPECT_NE(w->message.find("(the 5 movable joints on the way up move in reverse)"), std::string::npos) << w->message;
  // From the `base` frame, the way up is one fixed joint: nothing turns in reverse, and the
  // chain is the arm's, so there is nothing to warn about.
  const Diagnostics from_base = check_chain("base", "tool0");
  EXPECT_EQ(find(from_base, "chain-through-ancestor"), nullptr) << listing(from_base);
  EXPECT_EQ(Model::from_urdf_string(urdf, "ur.urdf", parse_srdf(srdf_text("<group name=\"g\"><chain base_link=\"base\" "
                                                                        "tip_link=\"tool0\"/></group>\n"),
                                                               "case.srdf"))
                .chain_joints("g")
                .size(),
            6u);
}

// ---- what stays an error ----

TEST(SrdfMoveIt, RealMistakesStayErrorsWithFileAndLine) {
  RMODEL_REQUIRE_FIXTURES();
  struct Case {
    std::string body, code, text;
    int line;
  };
  // Each loads as srdfdom loads it (the element skipped, with a warning), and `check` fails
  // on it naming the SRDF file and line.
  const std::vector<Case> cases = {
      {"<group name=\"arm\">\n  <joint name=\"panda_joint1\"/>\n  <joint name=\"panda_jiont2\"/>\n</group>\n",
       "unknown-joint", "'panda_jiont2' is not a joint of the URDF", 3},
      {"\n<group name=\"arm\"><chain base_link=\"panda_link0\" tip_link=\"panda_link9\"/></group>\n", "unknown-link",
       "'panda_link9' is not a link of the URDF", 4},
      {"<group name=\"hand\">\n<link name=\"panda_hnad\"/><joint name=\"panda_finger_joint1\"/></group>\n",
       "unknown-link", "group 'hand': link 'panda_hnad' is not a link of the URDF", 3},
      {"<group name=\"hand\"><joint name=\"panda_finger_joint1\"/></group>\n"
       "<group name=\"all\">\n<group name=\"hnad\"/><group name=\"hand\"/></group>\n",
       "srdf-unknown-group", "subgroup 'hnad' is not a declared group", 5},
      {"<group name=\"hand\"><joint name=\"panda_finger_joint1\"/></group>\n"
       "<group_state name=\"open\" group=\"hand\">\n<joint name=\"panda_finger_joint1\" value=\"0.04\"/>"
       "<joint name=\"panda_finger_joint3\" value=\"0.04\"/></group_state>\n",
       "pose-unknown-joint", "joint 'panda_finger_joint3' is not a joint of the URDF", 4},
      {"<group name=\"left_arm\"><joint name=\"panda_joint1\"/><joint name=\"panda_joint2\"/></group>\n"
       "<group name=\"right_arm\"><joint name=\"panda_joint2\"/><joint name=\"panda_joint1\"/></group>\n",
       "group-copy", "group 'right_arm' lists exactly what group 'left_arm' (line 3) lists", 4},
  };
  for (const auto& c : cases) {
    const Diagnostics d = check(kPanda, c.body);
    const Diagnostic* e = find(d, c.code, c.text);
    ASSERT_NE(e, nullptr) << c.code << "\n" << listing(d);
    EXPECT_EQ(e->severity, Severity::error);
    EXPECT_EQ(e->where.file, "case.srdf");
    EXPECT_EQ(e->where.line, c.line) << c.code;
    EXPECT_NO_THROW((void)load(kPanda, c.body)) << c.code;
  }
}

TEST(SrdfMoveIt, EveryFixturePairLoadsAndPutsEveryGroupJointInThePose) {
  RMODEL_REQUIRE_FIXTURES();
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"example_robot_data/panda.urdf", "example_robot_data/panda.srdf"},
      {"example_robot_data/talos_reduced.urdf", "example_robot_data/talos.srdf"},
      {"sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/sweetie_bot_proto2.srdf"},
  };
  for (const auto& [urdf, srdf] : pairs) {
    const Model model = Model::load({fixture(urdf).string(), fixture(srdf).string(), std::nullopt});
    const Diagnostics d = check_model({fixture(urdf).string(), fixture(srdf).string(), std::nullopt});
    EXPECT_FALSE(has_errors_besides_inertias(d)) << srdf << "\n" << listing(d);
    for (const auto& g : model.semantics().groups)
      for (const auto& j : g.joints)
        if (const JointInfo* info = model.find_urdf_joint(j); info && info->movable()) {
          EXPECT_TRUE(model.find_joint_index(j)) << srdf << ": " << j;
        }
    for (const auto& p : model.semantics().poses) EXPECT_NO_THROW((void)named_pose(model, p.group + "/" + p.name)) << p.name;
  }
}

// ---- chains through a common ancestor: KDL is the oracle ----

Eigen::Isometry3d to_eigen(const KDL::Frame& f) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) t.linear()(i, j) = f.M(i, j);
    t.translation()(i) = f.p(i);
  }
  return t;
}

TEST(SrdfMoveIt, ChainThroughAncestorMatchesKdlTreeGetChain) {
  RMODEL_REQUIRE_FIXTURES();
  namespace rk = kinematics;
  const Model model = load(kTalos, kChestToFoot);
  KDL::Chain oracle;
  ASSERT_TRUE(model.kdl_tree().getChain("torso_2_link", "left_sole_link", oracle));
  ASSERT_EQ(oracle.getNrOfJoints(), 8U);
  // The chain's joints are KDL's, in KDL's order.
  std::vector<std::string> kdl_joints;
  for (const auto& seg : oracle.segments)
    if (seg.getJoint().getType() != KDL::Joint::Fixed) kdl_joints.push_back(seg.getJoint().getName());
  EXPECT_EQ(model.chain_joints("left_foot"), kdl_joints);

  const rk::KinematicModel km = rk::KinematicModel::from_chain(model, "left_foot", true, rk::PoseLayout::chain);
  rk::Workspace ws(km, rk::DerivativeOrder::first);
  KDL::ChainFkSolverPos_recursive fk(oracle);
  KDL::ChainJntToJacSolver jac(oracle);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.2, 1.2);
  for (int trial = 0; trial < 20; ++trial) {
    KDL::JntArray q(8);
    for (unsigned i = 0; i < 8; ++i) q(i) = u(rng);
    rk::forward_kinematics(km, ws, q);
    // Every segment's frame, as ChainFkSolverPos_recursive gives it.
    for (unsigned s = 0; s < oracle.getNrOfSegments(); ++s) {
      KDL::Frame expected;
      ASSERT_GE(fk.JntToCart(q, expected, static_cast<int>(s) + 1), 0);
      const Eigen::Isometry3d got = ws.frame(s + 1);
      EXPECT_LT((got.matrix() - to_eigen(expected).matrix()).cwiseAbs().maxCoeff(), 1e-12) << "segment " << s;
    }
    // The Jacobian of the tip, against KDL's (reference point: the tip origin).
    KDL::Jacobian expected_j(8);
    ASSERT_GE(jac.JntToJac(q, expected_j), 0);
    rk::Jacobian J;
    rk::jacobian(km, ws, km.size() - 1, J);
    EXPECT_LT((J - expected_j.data).cwiseAbs().maxCoeff(), 1e-11);
    // First derivatives of the tip transform against central differences.
    rk::frame_derivatives(km, ws, rk::DerivativeOrder::first);
    const double h = 1e-6;
    for (unsigned i = 0; i < 8; ++i) {
      KDL::JntArray qp = q, qm = q;
      qp(i) += h;
      qm(i) -= h;
      KDL::Frame fp, fm;
      fk.JntToCart(qp, fp);
      fk.JntToCart(qm, fm);
      const Eigen::Matrix4d fd = (to_eigen(fp).matrix() - to_eigen(fm).matrix()) / (2 * h);
      EXPECT_LT((ws.frame_derivative(km.size() - 1, i) - fd).cwiseAbs().maxCoeff(), 1e-7) << "joint " << i;
    }
  }
}

}  // namespace
}  // namespace rmodel
