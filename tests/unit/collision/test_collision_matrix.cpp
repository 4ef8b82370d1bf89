// The allowed-collision matrix on robots built so that each reason has one answer: adjacency
// through links without geometry, a pair colliding at the default pose (the middle of the
// limits where 0 is outside them), a pair that always collides, pairs that never do.
#include <algorithm>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "collision_support.hpp"
#include "rmodel/collision/collision.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

namespace col = rmodel::collision;

std::string link_xml(const std::string& name, const std::string& collision = "") {
  return fmt::format("<link name=\"{}\">{}</link>\n", name, collision);
}
std::string joint_xml(const std::string& name, const std::string& type, const std::string& parent,
                  const std::string& child, const std::string& xyz, const std::string& limits = "",
                  const std::string& axis = "0 0 1") {
  return fmt::format("<joint name=\"{}\" type=\"{}\"><parent link=\"{}\"/><child link=\"{}\"/>"
                     "<origin xyz=\"{}\"/><axis xyz=\"{}\"/>{}</joint>\n",
                     name, type, parent, child, xyz, axis,
                     limits.empty() ? "" : fmt::format("<limit {} effort=\"1\" velocity=\"1\"/>", limits));
}
std::string robot_xml(const std::string& body) { return "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" + body + "</robot>\n"; }
std::string sphere_at(double r, const std::string& xyz = "0 0 0") {
  return test::collision_xml(fmt::format("<sphere radius=\"{}\"/>", r), xyz);
}

/// The matrix as "link1 link2 reason" lines.
std::vector<std::string> matrix_lines(const col::ComputedMatrix& m) {
  std::vector<std::string> out;
  for (const auto& d : m.disabled) out.push_back(d.link1 + " " + d.link2 + " " + d.reason);
  return out;
}

col::CollisionModel build_model(const std::string& urdf) {
  return col::CollisionModel::build(Model::from_urdf_string(urdf, "r.urdf"), {});
}

TEST(ComputedMatrix, AdjacentThroughLinksWithoutGeometry) {
  // a - (bare) - (bare) - b: a and b are adjacent, as MoveIt's connection graph joins the
  // neighbours of a link without geometry; c, hanging from b through a fixed joint, is adjacent
  // to b only. Everything far apart: the rest is Never.
  const auto cm = build_model(robot_xml(link_xml("a", sphere_at(0.05)) + link_xml("m1") + link_xml("m2") + link_xml("b", sphere_at(0.05)) +
                              link_xml("c", sphere_at(0.05)) + link_xml("d", sphere_at(0.05)) +
                              joint_xml("j1", "revolute", "a", "m1", "1 0 0", "lower=\"-1\" upper=\"1\"") +
                              joint_xml("j2", "fixed", "m1", "m2", "1 0 0") +
                              joint_xml("j3", "revolute", "m2", "b", "1 0 0", "lower=\"-1\" upper=\"1\"") +
                              joint_xml("j4", "fixed", "b", "c", "1 0 0") + joint_xml("j5", "fixed", "a", "d", "-1 0 0")));
  const auto m = col::compute_collision_matrix(cm);
  EXPECT_EQ(matrix_lines(m), (std::vector<std::string>{"a b Adjacent", "a c Never", "a d Adjacent", "b c Adjacent",
                                                "b d Never", "c d Never"}));
  EXPECT_EQ(m.links, 4u);
  EXPECT_EQ(m.pairs, 6u);
  EXPECT_EQ(m.count(col::Reason::adjacent), 3u);
}

TEST(ComputedMatrix, DefaultPoseIsZeroOrTheMiddleOfTheLimits) {
  // Arm b swings about z, its sphere 1 m from the axis; a's sphere sits at -x, reached only when
  // b is turned by about pi: the middle of b's limits [3, 3.28], where 0 is outside them. A
  // second arm e, limits [-1, 1], stays near +x. The hub between them has geometry of its own.
  const auto cm = build_model(robot_xml(
      link_xml("a", sphere_at(0.2, "-1 0 0")) + link_xml("hub", sphere_at(0.05)) + link_xml("b", sphere_at(0.2, "1 0 0")) +
      link_xml("e", sphere_at(0.2, "1 0 0")) + joint_xml("fix", "fixed", "a", "hub", "0 0 0") +
      joint_xml("swing", "revolute", "hub", "b", "0 0 0", "lower=\"3\" upper=\"3.28\"") +
      joint_xml("other", "revolute", "hub", "e", "0 0 0", "lower=\"-1\" upper=\"1\"")));
  EXPECT_NEAR(cm.default_pose()[0], (3 + 3.28) / 2, 1e-15);
  EXPECT_EQ(cm.default_pose()[1], 0.0);
  const auto m = col::compute_collision_matrix(cm);
  const auto l = matrix_lines(m);
  EXPECT_NE(std::find(l.begin(), l.end(), "a b Default"), l.end()) << ::testing::PrintToString(l);
  // a and e never meet (e stays within ±1 rad of +x, a is at -x).
  EXPECT_NE(std::find(l.begin(), l.end(), "a e Never"), l.end()) << ::testing::PrintToString(l);
}

/// a and b under a common root r (with geometry far away, so that they are not adjacent), b
/// turning about z so that its sphere meets a's (at -x) near +-pi, in about 13 % of its turns;
/// c away from both.
std::string sometimes_robot() {
  return robot_xml(link_xml("r", sphere_at(0.01, "0 0 -3")) + link_xml("a", sphere_at(0.1, "-0.5 0 0")) + link_xml("b", sphere_at(0.1, "0.5 0 0")) +
               link_xml("c", sphere_at(0.05)) + joint_xml("ja", "fixed", "r", "a", "0 0 0") +
               joint_xml("jb", "continuous", "r", "b", "0 0 0") +
               joint_xml("jc", "prismatic", "r", "c", "0 0 1", "lower=\"-0.01\" upper=\"0.01\"", "1 0 0"));
}

TEST(ComputedMatrix, SometimesCollidingPairsStayChecked) {
  const auto cm = build_model(sometimes_robot());
  const auto m = col::compute_collision_matrix(cm);
  const auto l = matrix_lines(m);
  // a and b meet when b's turn is within about 0.4 rad of +-pi: neither Default, Never nor Always.
  for (const auto& line : l) EXPECT_EQ(line.find("a b"), std::string::npos) << line;
  const auto a = *cm.find_link("a"), b = *cm.find_link("b");
  EXPECT_GE(m.first_collision[a * m.links + b], 0);
  EXPECT_NE(std::find(l.begin(), l.end(), "a c Never"), l.end());
}

TEST(ComputedMatrix, AlwaysCollidingPairIsAlways) {
  // c's sphere (0.05) moves ±1 cm inside a's big sphere (0.3): colliding in every pose. They are
  // siblings under r, so not adjacent.
  const auto cm = build_model(robot_xml(link_xml("r", sphere_at(0.01, "0 0 -3")) + link_xml("a", sphere_at(0.3)) + link_xml("c", sphere_at(0.05)) +
                              joint_xml("ja", "revolute", "r", "a", "0 0 0", "lower=\"-1\" upper=\"1\"") +
                              joint_xml("jc", "prismatic", "r", "c", "0 0 0", "lower=\"0.01\" upper=\"0.02\"", "1 0 0")));
  const auto m = col::compute_collision_matrix(cm);
  const auto l = matrix_lines(m);
  // At the default pose (c at 0.015) they collide already: Default wins, as in MoveIt (a pair
  // keeps its first reason).
  EXPECT_NE(std::find(l.begin(), l.end(), "a c Default"), l.end()) << ::testing::PrintToString(l);
  EXPECT_EQ(m.count(col::Reason::always), 0u);
}

TEST(ComputedMatrix, AlwaysWhenNotAtTheDefaultPose) {
  // The default pose separates them: c slides along x within [-0.001, 1], 0 inside, where its
  // sphere (0.05) is 0.55 from a's (0.49) centre: free by 1 cm. It meets a for x in (0.01, 1.09),
  // 99 % of the slide: Always.
  const auto cm = build_model(robot_xml(
      link_xml("r", sphere_at(0.01, "0 0 -3")) + link_xml("a", sphere_at(0.49, "0.55 0 0")) + link_xml("c", sphere_at(0.05)) +
      joint_xml("ja", "fixed", "r", "a", "0 0 0") +
      joint_xml("jc", "prismatic", "r", "c", "0 0 0", "lower=\"-0.001\" upper=\"1\"", "1 0 0")));
  const auto m = col::compute_collision_matrix(cm);
  const auto l = matrix_lines(m);
  EXPECT_NE(std::find(l.begin(), l.end(), "a c Always"), l.end()) << ::testing::PrintToString(l);
  EXPECT_GE(m.always_rounds, 2u);  // the round that found it, and one that found nothing
}

TEST(ComputedMatrix, ResultDependsOnTheSeedNotOnTheThreads) {
  const auto cm = build_model(sometimes_robot());
  col::MatrixOptions one;
  one.threads = 1;
  one.samples = 3000;
  col::MatrixOptions two = one;
  two.threads = 2;
  const auto a = col::compute_collision_matrix(cm, one);
  const auto b = col::compute_collision_matrix(cm, two);
  EXPECT_EQ(matrix_lines(a), matrix_lines(b));
  EXPECT_EQ(a.first_collision, b.first_collision);
  col::MatrixOptions other = one;
  other.seed = 99;
  EXPECT_NE(col::compute_collision_matrix(cm, other).first_collision, a.first_collision);
}

TEST(ComputedMatrix, RandomPosesAreWithinTheLimits) {
  const auto cm = build_model(robot_xml(link_xml("r", sphere_at(0.1)) + link_xml("a", sphere_at(0.1)) + link_xml("b", sphere_at(0.1)) +
                              joint_xml("ja", "revolute", "r", "a", "1 0 0", "lower=\"-0.3\" upper=\"0.7\"") +
                              joint_xml("jb", "continuous", "a", "b", "1 0 0")));
  EXPECT_EQ(cm.lower()[1], -std::numbers::pi);
  EXPECT_EQ(cm.upper()[1], std::numbers::pi);
  double lo = 1, hi = -1;
  for (std::uint64_t i = 0; i < 2000; ++i) {
    const auto q = col::sample_pose(cm, 3, i);
    ASSERT_EQ(q.size(), 2u);
    EXPECT_GE(q[0], -0.3);
    EXPECT_LT(q[0], 0.7);
    EXPECT_GE(q[1], -std::numbers::pi);
    EXPECT_LT(q[1], std::numbers::pi);
    lo = std::min(lo, q[0]);
    hi = std::max(hi, q[0]);
  }
  // Uniform: 2000 draws come within 1 % of both ends.
  EXPECT_LT(lo, -0.29);
  EXPECT_GT(hi, 0.69);
}

TEST(ComputedMatrix, ComparisonFindsStaleAndMissingEntries) {
  const auto cm = build_model(sometimes_robot());
  col::MatrixOptions options;
  options.samples = 2000;
  const auto computed = col::compute_collision_matrix(cm, options);
  // a–b collide sometimes: disabling them as Never is stale; a–c never collide: missing; b–c
  // declared as a user's choice: not judged.
  const std::vector<col::DisabledPair> declared = {{"a", "b", "Never", 7}, {"b", "c", "User", 8},
                                                   {"a", "ghost", "Never", 9}, {"r", "a", "Adjacent", 10},
                                                   {"r", "b", "Adjacent", 11}, {"r", "c", "Adjacent", 12}};
  const auto d = col::compare_collision_matrix(cm, computed, declared, "r.srdf", options);
  std::vector<std::string> got;
  for (const auto& item : d.items) got.push_back(fmt::format("{}:{} {}", item.where.line, item.code, item.message));
  // The entry naming a link the URDF lacks is loading's to report (collision-unknown-link).
  ASSERT_EQ(d.items.size(), 2u) << ::testing::PrintToString(got);
  EXPECT_EQ(d.items[0].code, "collision-matrix-stale");
  EXPECT_EQ(d.items[0].where.line, 7);
  EXPECT_NE(d.items[0].message.find("links 'a' and 'b' are disabled as Never, but collide in random pose"),
            std::string::npos)
      << d.items[0].message;
  EXPECT_EQ(d.items[1].code, "collision-matrix-missing");
  EXPECT_NE(d.items[1].message.find("links 'a' and 'c' are not disabled, but they collide in none of 2000"),
            std::string::npos)
      << d.items[1].message;
  for (const auto& item : d.items) EXPECT_EQ(item.severity, Severity::warning);
  // The pose named in the message does make them collide; the library names the function
  // that gives it, and no command line (the command says its own: apps/rmodel/option_fields.cpp).
  const auto a = *cm.find_link("a"), b = *cm.find_link("b");
  const auto index = computed.first_collision[a * computed.links + b];
  EXPECT_NE(d.items[0].message.find(
                fmt::format("random pose {} of 2000 (sample_pose with seed 0 and index {} gives it)", index, index)),
            std::string::npos)
      << d.items[0].message;
  for (const auto& item : d.items) {
    EXPECT_EQ(item.message.find("--"), std::string::npos) << item.message;
    EXPECT_EQ(item.message.find("rmodel "), std::string::npos) << item.message;
  }
  const auto q = col::sample_pose(cm, 0, static_cast<std::uint64_t>(index));
  col::CollisionWorkspace ws(cm);
  col::set_pose(cm, ws, q);
  EXPECT_LE(col::link_distance(cm, ws, a, b), 0);
}

TEST(ComputedMatrix, WithoutAMatrixTheNoteNamesTheFunctionThatComputesOne) {
  ModelSource source;
  source.urdf_path = test::sample("pony.urdf").string();
  source.semantics_path = test::sample("pony.json").string();  // no collision matrix in it
  const Diagnostics d = col::check_collision_matrix(source);
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].code, "collision-matrix-none");
  EXPECT_EQ(d.items[0].message,
            "the semantics have no collision matrix (<disable_collisions>) to check: compute_collision_matrix computes "
            "one");
}

}  // namespace
}  // namespace rmodel
