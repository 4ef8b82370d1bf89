// Support states set per chain (the original setSupportState) on an immutable model:
// expectations written by hand from the sample's pony.json (legs front_left, front_right with
// default contact hoof_flat, rear_left, rear_right with hoof_point; head and neck without) and
// Sweetie Bot's kinematic_chains.cpf (leg1..leg4 with hoof_flat; head, nose without).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/model/support.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::sample;

Model load_sample() {
  return Model::load({sample("pony.urdf").string(), sample("pony.json").string(), std::nullopt});
}

using Names = std::vector<std::string>;

TEST(SupportState, FullStateIsEveryChainInTheAirWithItsDefaultContact) {
  const SupportState s = make_support_state(load_sample());
  EXPECT_EQ(s.name, (Names{"front_left", "front_right", "rear_left", "rear_right", "head", "neck"}));
  EXPECT_EQ(s.support, (std::vector<double>{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(s.contact, (Names{"hoof_flat", "hoof_flat", "hoof_point", "hoof_point", "", ""}));
  EXPECT_EQ(s.stamp, Time{});
}

TEST(SupportState, SetsTheNamedChainsOnlyAndDefaultsMissingContacts) {
  const Model model = load_sample();
  SupportState s = make_support_state(model);
  SupportState update;
  update.stamp = Time{1'500'000'000};
  update.name = {"rear_left", "front_left"};
  update.support = {1.0, 0.5};
  update.contact = {"", "hoof_point"};  // empty: rear_left's default, hoof_point
  set_support(model, s, update);
  EXPECT_EQ(s.support, (std::vector<double>{0.5, 0, 1.0, 0, 0, 0}));
  EXPECT_EQ(s.contact, (Names{"hoof_point", "hoof_flat", "hoof_point", "hoof_point", "", ""}));
  EXPECT_EQ(s.stamp, Time{1'500'000'000});
  // No contacts at all: every named chain gets its default back; no coefficients: kept.
  SupportState reset;
  reset.name = {"front_left"};
  set_support(model, s, reset);
  EXPECT_EQ(s.contact[0], "hoof_flat");
  EXPECT_EQ(s.support[0], 0.5);
}

TEST(SupportState, BadUpdatesThrowAndLeaveTheStateAlone) {
  const Model model = load_sample();
  SupportState s = make_support_state(model);
  const SupportState before = s;
  SupportState update;
  update.name = {"front_left", "rear_lfet"};
  update.support = {1.0, 1.0};
  try {
    set_support(model, s, update);
    FAIL() << "no throw";
  } catch (const NotFound& e) {
    EXPECT_EQ(e.kind(), "chain");
    EXPECT_NE(std::string(e.what()).find("did you mean 'rear_left'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(s, before);  // front_left was not applied either
  update.name = {"front_left"};
  update.support = {1.0};
  update.contact = {"hoof_flta"};
  try {
    set_support(model, s, update);
    FAIL() << "no throw";
  } catch (const NotFound& e) {
    EXPECT_EQ(e.kind(), "contact");
    EXPECT_NE(std::string(e.what()).find("did you mean 'hoof_flat'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(s, before);
  update.contact.clear();
  update.support = {1.5};
  EXPECT_THROW(set_support(model, s, update), InvalidArgument);
  update.support = {std::nan("")};
  EXPECT_THROW(set_support(model, s, update), InvalidArgument);
  update.support = {1.0, 0.0};
  EXPECT_THROW(set_support(model, s, update), SizeMismatch);
  EXPECT_EQ(s, before);
  // The full state must be the model's: one entry per chain, in chain order.
  SupportState partial;
  partial.name = {"front_left"};
  partial.support = {0.0};
  partial.contact = {""};
  update.support = {1.0};
  EXPECT_THROW(set_support(model, partial, update), SizeMismatch);
  SupportState swapped = before;
  std::swap(swapped.name[0], swapped.name[1]);
  EXPECT_THROW(set_support(model, swapped, update), InvalidArgument);
}

TEST(SupportState, SweetieBotLegs) {
  RMODEL_REQUIRE_FIXTURES();
  const auto dir = fixture("sweetie_bot_proto2");
  const Model model =
      Model::load({(dir / "sweetie_bot_proto2.urdf").string(), (dir / "kinematic_chains.cpf").string(), std::nullopt});
  SupportState s = make_support_state(model);
  EXPECT_EQ(s.name, (Names{"leg1", "leg3", "leg4", "leg2", "head", "nose"}));
  EXPECT_EQ(s.contact, (Names{"hoof_flat", "hoof_flat", "hoof_flat", "hoof_flat", "", ""}));
  SupportState stand;
  stand.name = {"leg1", "leg2", "leg3", "leg4"};
  stand.support = {1, 1, 1, 1};
  stand.contact = {"hoof_fixed", "", "hoof_center", ""};
  set_support(model, s, stand);
  EXPECT_EQ(s.support, (std::vector<double>{1, 1, 1, 1, 0, 0}));
  EXPECT_EQ(s.contact, (Names{"hoof_fixed", "hoof_center", "hoof_flat", "hoof_flat", "", ""}));
}

}  // namespace
}  // namespace rmodel
