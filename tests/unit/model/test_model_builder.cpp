// addChain / removeChain as builders: a new model each time, the old one unchanged; the new
// model is the one loading the edited semantics would give.
#include <gtest/gtest.h>

#include "rmodel/base/error.hpp"
#include "rmodel/model/model_builder.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::read_file;
using test::sample;

using test::pony;

TEST(ModelBuilder, AddChainReturnsANewModel) {
  const Model before = pony();
  const std::size_t chains = before.chains().size();
  ChainSpec jaw;
  jaw.name = "jaw";
  jaw.first_link = "head";
  jaw.last_link = "jaw";
  const Model after = add_chain(before, jaw, "head");
  EXPECT_EQ(before.chains().size(), chains);  // unchanged
  EXPECT_FALSE(before.find_chain("jaw"));
  ASSERT_EQ(after.chains().size(), chains + 1);
  EXPECT_EQ(after.chain_joints("jaw"), (std::vector<std::string>{"jaw_slide"}));
  EXPECT_EQ(after.group_chains("head"), (std::vector<std::string>{"head", "neck", "jaw"}));
  EXPECT_EQ(after.pose_size(), before.pose_size());  // jaw_slide was already in the pose
  // The same as loading the edited semantics.
  Semantics edited = before.semantics();
  edited.chains.push_back(jaw);
  edited.groups[1].chains.push_back("jaw");
  const Model loaded = Model::from_urdf_string(read_file(sample("pony.urdf")), "pony.urdf", edited);
  EXPECT_EQ(after.joint_names(), loaded.joint_names());
  // A rule broken by the new chain is the usual ModelError.
  // A new group is created at the end of the groups.
  ChainSpec tail;
  tail.name = "tail";
  tail.first_link = "base_link";
  tail.last_link = "tail";
  const Model wag = add_chain(before, tail, "wag");
  EXPECT_EQ(wag.group_names().back(), "wag");
  EXPECT_EQ(wag.group_joints("wag"), (std::vector<std::string>{"tail_swing"}));
  EXPECT_EQ(wag.joint_group("tail_swing"), "tail");  // the first declared group keeps it
  ChainSpec bad = jaw;
  bad.last_link = "nowhere";
  EXPECT_THROW((void)add_chain(before, bad), ModelError);
  EXPECT_THROW((void)add_chain(after, jaw), ModelError);  // duplicate
}

TEST(ModelBuilder, RemoveChainReturnsANewModel) {
  const Model before = pony();
  const Model after = remove_chain(before, "neck");
  EXPECT_TRUE(before.find_chain("neck"));
  EXPECT_FALSE(after.find_chain("neck"));
  EXPECT_EQ(after.group_chains("head"), (std::vector<std::string>{"head"}));
  EXPECT_EQ(after.joint_names(), before.joint_names());  // neck_pitch is also the head chain's
  EXPECT_THROW((void)remove_chain(before, "nope"), NotFound);
}

}  // namespace
}  // namespace rmodel
