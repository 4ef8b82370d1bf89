// Contact point positions of chains in the base frame.

#include <numbers>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <kdl/chainfksolverpos_recursive.hpp>

#include "rmodel/base/error.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rk = rmodel::kinematics;

TEST(KinematicsContacts, PointsOnAHandBuiltChain) {
  KDL::Chain chain;
  chain.addSegment(KDL::Segment("l1", KDL::Joint("j1", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(1, 0, 0))));
  chain.addSegment(KDL::Segment("foot", KDL::Joint("j2", KDL::Joint::RotZ), KDL::Frame(KDL::Vector(1, 0, 0))));
  const auto model = rk::KinematicModel::from_kdl_chain(chain);
  const auto contact = rk::make_contact(model, model.body_index("foot"),
                                        {Eigen::Vector3d(0, 0, -0.1), Eigen::Vector3d(0.2, 0, 0)}, "sole");
  rk::Workspace ws(model);
  const std::vector<double> q{std::numbers::pi / 2, std::numbers::pi / 2};
  rk::forward_kinematics(model, ws, q);
  std::vector<Eigen::Vector3d> out(2);
  rk::contact_positions(ws, contact, out);
  // foot at (−1, 1, 0) facing −x.
  EXPECT_TRUE(out[0].isApprox(Eigen::Vector3d(-1, 1, -0.1), 1e-15)) << out[0].transpose();
  EXPECT_TRUE(out[1].isApprox(Eigen::Vector3d(-1.2, 1, 0), 1e-15)) << out[1].transpose();
  std::vector<Eigen::Vector3d> wrong(3);
  EXPECT_THROW(rk::contact_positions(ws, contact, wrong), rmodel::SizeMismatch);
  EXPECT_THROW((void)rk::make_contact(model, 7, {}), rmodel::InvalidArgument);
}

namespace {

rmodel::Model sweetie() {
  rmodel::ModelSource src;
  src.urdf_path = rmodel::test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string();
  src.semantics_path = rmodel::test::fixture("sweetie_bot_proto2/kinematic_chains.cpf").string();
  return rmodel::Model::load(src);
}

}  // namespace

TEST(KinematicsContacts, SweetieBotLegsMatchKdl) {
  RMODEL_REQUIRE_FIXTURES();
  const auto model = sweetie();
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> a(-1.5, 1.5);
  for (const char* leg : {"leg1", "leg2", "leg3", "leg4"}) {
    SCOPED_TRACE(leg);
    const auto km = rk::KinematicModel::from_chain(model, leg, true);
    const auto& chain = model.chain(leg);
    const auto contact = rk::chain_contact(model, km, leg);
    EXPECT_EQ(contact.name, chain.default_contact);
    EXPECT_EQ(km.bodies()[contact.body].name, chain.last_link_virtual);  // e.g. bone16
    EXPECT_EQ(contact.body, km.tip());
    ASSERT_EQ(contact.points.size(), model.contact_points(chain.default_contact).size());
    const KDL::Chain& kdl = model.kdl_chain(leg, true);
    KDL::ChainFkSolverPos_recursive fk(kdl);
    rk::Workspace ws(km);
    std::vector<Eigen::Vector3d> out(contact.points.size());
    for (int trial = 0; trial < 10; ++trial) {
      KDL::JntArray q(kdl.getNrOfJoints());
      for (unsigned int i = 0; i < q.rows(); ++i) q(i) = a(rng);
      rk::forward_kinematics(km, ws, q);
      rk::contact_positions(ws, contact, out);
      KDL::Frame tip;
      ASSERT_GE(fk.JntToCart(q, tip), 0);
      const auto points = model.contact_points(chain.default_contact);
      for (std::size_t i = 0; i < points.size(); ++i) {
        const KDL::Vector p = tip * points[i];
        EXPECT_LT((out[i] - Eigen::Vector3d(p.x(), p.y(), p.z())).cwiseAbs().maxCoeff(), 1e-12);
      }
    }
    // A named contact, and the same contact located through the whole tree.
    const auto fixed = rk::chain_contact(model, km, leg, "hoof_fixed");
    EXPECT_EQ(fixed.points.size(), 3u);
    const auto tree = rk::KinematicModel::from_model(model);
    const auto in_tree = rk::chain_contact(model, tree, leg);
    EXPECT_EQ(tree.bodies()[in_tree.body].name, chain.last_link_virtual);
  }
}

TEST(KinematicsContacts, Errors) {
  RMODEL_REQUIRE_FIXTURES();
  const auto model = sweetie();
  const auto real = rk::KinematicModel::from_chain(model, "leg1", false);
  EXPECT_THROW((void)rk::chain_contact(model, real, "leg1"), rmodel::InvalidArgument);
  const auto full = rk::KinematicModel::from_chain(model, "leg1", true);
  EXPECT_THROW((void)rk::chain_contact(model, full, "leg1", "no_such_contact"), rmodel::NotFound);
  EXPECT_THROW((void)rk::chain_contact(model, full, "no_such_chain"), rmodel::NotFound);
  const auto head = rk::KinematicModel::from_chain(model, "head", true);
  EXPECT_THROW((void)rk::chain_contact(model, head, "head"), rmodel::InvalidArgument);  // no default
  EXPECT_NO_THROW((void)rk::chain_contact(model, head, "head", "hoof_center"));
}
