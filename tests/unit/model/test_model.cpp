// The model: indexing rules of SPEC §1 and the query API, on the sample robot, the real
// Sweetie Bot files, and small crafted models for every error.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include <nlohmann/json.hpp>

#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;
using test::sample;

Model load_sample() {
  return Model::load({sample("pony.urdf").string(), sample("pony.json").string(), std::nullopt});
}

Model load_sweetie() {
  const auto dir = fixture("sweetie_bot_proto2");
  return Model::load({(dir / "sweetie_bot_proto2.urdf").string(), (dir / "kinematic_chains.cpf").string(), std::nullopt});
}

TEST(ModelSweetie, FullPoseMatchesTheRobotsOwnAggregator) {
  RMODEL_REQUIRE_FIXTURES();
  const Model model = load_sweetie();
  const auto nominal = nlohmann::json::parse(read_file(fixture("sweetie_bot_proto2/joint_state/nominal.json")));
  const auto expected = nominal["name"].get<std::vector<std::string>>();
  ASSERT_EQ(expected.size(), 32U);
  EXPECT_EQ(model.joint_names(), expected);
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(model.joint_index(expected[i]), i);
}

TEST(ModelSweetie, ChainsGroupsContacts) {
  RMODEL_REQUIRE_FIXTURES();
  const Model model = load_sweetie();
  EXPECT_EQ(model.chain_names(), (std::vector<std::string>{"leg1", "leg3", "leg4", "leg2", "head", "nose"}));
  EXPECT_EQ(model.group_names(), (std::vector<std::string>{"leg1", "leg3", "leg4", "leg2", "head", "eyes"}));
  EXPECT_EQ(model.contact_names(), (std::vector<std::string>{"hoof_flat", "hoof_center", "hoof_fixed"}));
  EXPECT_EQ(model.chain_index("leg2"), 3U);
  EXPECT_EQ(model.group_index("eyes"), 5U);
  // leg1: joint11..joint15 real, joint16 virtual (bone15 → bone16).
  EXPECT_EQ(model.chain_joints("leg1", false),
            (std::vector<std::string>{"joint11", "joint12", "joint13", "joint14", "joint15"}));
  EXPECT_EQ(model.chain_joints("leg1", true).back(), "joint16");
  // nose shares joint51..54 with head and adds its virtual joints 55, 56.
  EXPECT_EQ(model.joint_chains("joint52"), (std::vector<std::string>{"head", "nose"}));
  const auto nose = model.chain_joint_indices("nose", true);
  EXPECT_EQ(std::vector<int>(nose.begin(), nose.end()), (std::vector<int>{24, 25, 26, 27, 28, 29}));
  EXPECT_EQ(model.chain_joint_indices("nose", false).size(), 4U);
  EXPECT_EQ(model.group_joints("head"),
            (std::vector<std::string>{"joint51", "joint52", "joint53", "joint54", "joint55", "joint56"}));
  EXPECT_EQ(model.group_joints("eyes"), (std::vector<std::string>{"eyes_pitch", "eyes_yaw"}));
  EXPECT_EQ(model.joint_group("eyes_yaw"), "eyes");
  EXPECT_TRUE(model.joint_chains("eyes_yaw").empty());
  EXPECT_EQ(model.chain_default_contact("leg3"), "hoof_flat");
  // As the original getChainProperty: no virtual joints, so the chain ends at last_link.
  EXPECT_EQ(model.chain_property("head", ChainProperty::last_link_virtual), model.chain("head").last_link);
  EXPECT_EQ(model.contact_points("hoof_fixed").size(), 3U);
  EXPECT_DOUBLE_EQ(model.contact_points("hoof_fixed")[2].x(), 0.02);
}

TEST(ModelSweetie, KdlChainsWithAndWithoutVirtualJoints) {
  RMODEL_REQUIRE_FIXTURES();
  const Model model = load_sweetie();
  EXPECT_EQ(model.kdl_chain("leg1", true).getNrOfJoints(), 6U);
  EXPECT_EQ(model.kdl_chain("leg1", false).getNrOfJoints(), 5U);
  EXPECT_EQ(model.kdl_chain("nose", true).getNrOfJoints(), 6U);
  EXPECT_EQ(model.kdl_tree().getNrOfJoints(), 32U);
  // The KDL joint names of a chain are the chain's joints, in order.
  const KDL::Chain& chain = model.kdl_chain("leg2", true);
  std::vector<std::string> names;
  for (const auto& segment : chain.segments)
    if (segment.getJoint().getType() != KDL::Joint::None) names.push_back(segment.getJoint().getName());
  EXPECT_EQ(names, model.chain_joints("leg2", true));
}

TEST(ModelFixtures, ExampleRobotsLoad) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* urdf : {"example_robot_data/panda.urdf", "example_robot_data/solo12.urdf",
                           "example_robot_data/talos_reduced.urdf", "sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf"}) {
    SCOPED_TRACE(urdf);
    const Model model = Model::load({fixture(urdf).string(), "", std::nullopt});
    EXPECT_FALSE(model.has_semantics());
    EXPECT_GT(model.links().size(), 5U);
    EXPECT_EQ(model.kdl_tree().getNrOfSegments() + 1, model.links().size());
    // Without semantics the pose is every movable joint in URDF declaration order.
    std::vector<std::string> movable;
    for (const auto& j : model.urdf_joints())
      if (j.movable()) movable.push_back(j.name);
    EXPECT_EQ(model.joint_names(), movable);
    EXPECT_TRUE(model.total_mass().has_value());
  }
}

TEST(ModelSample, PoseOrderFollowsChainsThenGroupJoints) {
  const Model model = load_sample();
  ASSERT_EQ(model.pose_size(), 20U);
  EXPECT_EQ(model.joint_names().front(), "front_left_hip");
  EXPECT_EQ(model.joint_names()[3], "front_left_hoof_yaw");  // virtual joint, still in the pose
  EXPECT_EQ(model.joint_names()[16], "neck_pitch");         // first seen in chain head
  EXPECT_EQ(model.joint_names()[18], "jaw_slide");          // group extra joint
  EXPECT_EQ(model.joint_names()[19], "tail_swing");         // joint outside every chain
  EXPECT_EQ(model.joint_chains("neck_pitch"), (std::vector<std::string>{"head", "neck"}));
  EXPECT_EQ(model.chain_group("neck"), "head");
  EXPECT_EQ(model.group_chains("head"), (std::vector<std::string>{"head", "neck"}));
  EXPECT_EQ(model.group_joints("head"), (std::vector<std::string>{"neck_pitch", "head_yaw", "jaw_slide"}));
  EXPECT_EQ(model.joint_group("tail_swing"), "tail");
  std::vector<std::string> chains{"rear_right", "head"};
  EXPECT_EQ(model.chains_groups(chains), (std::vector<std::string>{"legs", "head"}));
  std::vector<std::string> groups{"head", "legs"};
  EXPECT_EQ(model.groups_chains(groups).size(), 6U);
  std::vector<std::string> joints{"head_yaw", "front_left_knee", "tail_swing"};
  EXPECT_EQ(model.joints_chains(joints), (std::vector<std::string>{"front_left", "head"}));
  EXPECT_EQ(model.joints_groups(joints), (std::vector<std::string>{"legs", "head", "tail"}));
  EXPECT_EQ(model.pose_joint(19).type, JointType::continuous);
  EXPECT_FALSE(model.pose_joint(19).bounded());
  EXPECT_NEAR(*model.total_mass(), 2.0 + 4 * (0.2 + 0.1 + 0.05) + 0.15 + 0.3 + 0.02 + 0.05, 1e-12);
}

// The order of the multi-name queries is the original service's (getChainsGroups,
// getGroupsChains, getJointsGroups), written out by hand from pony.json: chains front_left,
// front_right, rear_left, rear_right, head, neck; groups legs (the four legs), head (head,
// neck + jaw_slide), tail (tail_swing).
TEST(ModelSample, MultiNameQueriesAnswerInTheOriginalsOrder) {
  const Model model = load_sample();
  // Groups in the order the given chains first meet them, no repeats.
  std::vector<std::string> chains{"neck", "rear_left", "head", "front_right"};
  EXPECT_EQ(model.chains_groups(chains), (std::vector<std::string>{"head", "legs"}));
  // The groups as given, each group's chains in its own order.
  std::vector<std::string> groups{"head", "legs"};
  EXPECT_EQ(model.groups_chains(groups), (std::vector<std::string>{"head", "neck", "front_left", "front_right",
                                                                   "rear_left", "rear_right"}));
  // A group without chains gives nothing; a group named twice gives its chains twice.
  std::vector<std::string> twice{"tail", "head", "head"};
  EXPECT_EQ(model.groups_chains(twice), (std::vector<std::string>{"head", "neck", "head", "neck"}));
  // Groups in declaration order, whatever the order of the joints.
  std::vector<std::string> joints{"tail_swing", "jaw_slide", "rear_right_knee"};
  EXPECT_EQ(model.joints_groups(joints), (std::vector<std::string>{"legs", "head", "tail"}));
  // rmodel's group order (chain joints root to tip, then the extra joints).
  EXPECT_EQ(model.group_joints("head"), (std::vector<std::string>{"neck_pitch", "head_yaw", "jaw_slide"}));
  // Unknown names throw (the original skipped them).
  std::vector<std::string> unknown{"head", "nope"};
  EXPECT_THROW((void)model.chains_groups(unknown), NotFound);
  EXPECT_THROW((void)model.groups_chains(unknown), NotFound);
}

// The same on Sweetie Bot: chains leg1, leg3, leg4, leg2, head, nose; groups leg1, leg3,
// leg4, leg2 (one chain each), head (head, nose), eyes (eyes_pitch, eyes_yaw).
TEST(ModelSweetie, MultiNameQueriesAnswerInTheOriginalsOrder) {
  RMODEL_REQUIRE_FIXTURES();
  const Model model = load_sweetie();
  std::vector<std::string> chains{"nose", "leg2", "head", "leg1"};
  EXPECT_EQ(model.chains_groups(chains), (std::vector<std::string>{"head", "leg2", "leg1"}));
  std::vector<std::string> groups{"head", "leg4", "leg1"};
  EXPECT_EQ(model.groups_chains(groups), (std::vector<std::string>{"head", "nose", "leg4", "leg1"}));
  std::vector<std::string> joints{"eyes_yaw", "joint21", "joint13"};
  EXPECT_EQ(model.joints_groups(joints), (std::vector<std::string>{"leg1", "leg2", "eyes"}));
  EXPECT_EQ(model.group_joints("eyes"), (std::vector<std::string>{"eyes_pitch", "eyes_yaw"}));
}

TEST(ModelSample, NotFoundIsDistinctFromAnswers) {
  const Model model = load_sample();
  EXPECT_FALSE(model.find_joint_index("nope").has_value());
  EXPECT_EQ(model.find_chain("nope"), nullptr);
  EXPECT_THROW((void)model.joint_index("nope"), NotFound);
  EXPECT_THROW((void)model.chain("nope"), NotFound);
  EXPECT_THROW((void)model.group_joints("nope"), NotFound);
  EXPECT_THROW((void)model.contact_points("nope"), NotFound);
  EXPECT_THROW((void)model.kdl_chain("nope"), NotFound);
  std::vector<KDL::Vector> buffer{KDL::Vector(1, 2, 3)};
  EXPECT_FALSE(model.append_contact_points("nope", buffer));
  EXPECT_EQ(buffer.size(), 1U);
  EXPECT_TRUE(model.append_contact_points("hoof_flat", buffer));
  ASSERT_EQ(buffer.size(), 3U);
  EXPECT_DOUBLE_EQ(buffer[2].x(), -0.02);
  try {
    (void)model.joint_index("nope");
  } catch (const NotFound& e) {
    EXPECT_EQ(e.kind(), "joint");
    EXPECT_EQ(e.name(), "nope");
  }
}

TEST(ModelSample, ExtractPackAndMapMoveTheRightSlots) {
  const Model model = load_sample();
  JointState full = model.make_full_state(true, false);
  for (std::size_t i = 0; i < full.position.size(); ++i) {
    full.position[i] = static_cast<double>(i);
    full.velocity[i] = 100.0 + static_cast<double>(i);
  }
  KDL::JntArray q, dq, tau;
  model.extract_chain("rear_left", full, q, dq, tau, true);
  ASSERT_EQ(q.rows(), 4U);
  EXPECT_EQ(tau.rows(), 0U);  // effort absent in the pose
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(q(i), 8.0 + i);
    EXPECT_EQ(dq(i), 108.0 + i);
  }
  model.extract_chain("rear_left", full, q, dq, tau, false);
  EXPECT_EQ(q.rows(), 3U);

  KDL::JntArray new_q(2), none;
  new_q(0) = -1;
  new_q(1) = -2;
  model.pack_chain("head", new_q, none, none, full, true);
  EXPECT_EQ(full.position[16], -1);
  EXPECT_EQ(full.position[17], -2);
  EXPECT_EQ(full.position[15], 15);
  EXPECT_EQ(full.velocity[16], 116);  // empty array leaves the field alone
  KDL::JntArray wrong(3);
  EXPECT_THROW(model.pack_chain("head", wrong, none, none, full, true), SizeMismatch);

  ChainView view = model.map_chain("front_right", full, true);
  ASSERT_EQ(view.position.size(), 4);
  EXPECT_EQ(view.effort.size(), 0);
  view.position[2] = 42.0;  // writes through to the pose
  EXPECT_EQ(full.position[6], 42.0);
  EXPECT_EQ(view.velocity.data(), full.velocity.data() + 4);

  JointState short_state;
  short_state.position.assign(3, 0.0);
  EXPECT_THROW(model.extract_chain("head", short_state, q, dq, tau), SizeMismatch);
}

TEST(ModelSample, SharedBetweenThreads) {
  const Model model = load_sample();
  std::vector<std::thread> threads;
  std::vector<std::size_t> sums(4, 0);
  for (std::size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      const Model copy = model;  // copies share the immutable data
      for (int k = 0; k < 200; ++k)
        for (const auto& name : copy.joint_names()) sums[t] += copy.joint_index(name);
    });
  for (auto& th : threads) th.join();
  for (auto s : sums) EXPECT_EQ(s, 200U * (19U * 20U / 2U));
}

TEST(ModelSample, UrdfOnlyPoseIsDeclarationOrder) {
  const Model model = Model::load({sample("pony.urdf").string(), "", std::nullopt});
  EXPECT_FALSE(model.has_semantics());
  ASSERT_EQ(model.pose_size(), 20U);
  EXPECT_EQ(model.joint_names()[0], "front_left_hip");
  EXPECT_EQ(model.joint_names()[16], "neck_pitch");
  EXPECT_EQ(model.joint_names()[17], "head_yaw");
  EXPECT_EQ(model.joint_names()[18], "jaw_slide");
  EXPECT_TRUE(model.chains().empty());
  EXPECT_EQ(model.urdf_text(), read_file(sample("pony.urdf")));
}

TEST(ModelSample, InertialsAreInLinkFrame) {
  const Model model = load_sample();
  const LinkInfo* thigh = model.find_link("front_left_thigh");
  ASSERT_TRUE(thigh && thigh->inertial);
  EXPECT_DOUBLE_EQ(thigh->inertial->mass, 0.2);
  EXPECT_DOUBLE_EQ(thigh->inertial->com.z(), -0.06);
  EXPECT_DOUBLE_EQ(thigh->inertial->inertia(1, 1), 0.0003);
  const JointInfo* jaw = model.find_urdf_joint("jaw_slide");
  ASSERT_TRUE(jaw);
  EXPECT_EQ(jaw->type, JointType::prismatic);
  EXPECT_DOUBLE_EQ(jaw->axis.z(), -1.0);
  EXPECT_DOUBLE_EQ(jaw->upper, 0.02);
}

}  // namespace
}  // namespace rmodel
