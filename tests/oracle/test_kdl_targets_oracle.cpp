// check --target kdl against kdl_parser itself (Debian's libkdl-parser-dev 1.14, found
// optionally by tests/CMakeLists.txt; without it every test skips, saying so). kdl_parser
// builds a KDL::Tree from urdfdom's reading of the URDF and says what it changes on the
// console (rosconsole, on stderr), which the tests capture: rmodel's kdl-root-inertia and
// kdl-joint-fixed warnings name exactly the links and joints kdl_parser's warnings name, its
// kdl-mimic-ignored notes the joints that move on their own in the tree, and rmodel says the
// URDF loads exactly when treeFromString succeeds, on URDFs of our own and the fixture robots.
#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "rmodel/check/check.hpp"
#include "targets_oracle.hpp"
#include "test_support.hpp"

#ifdef RMODEL_HAVE_KDL_PARSER
#include <kdl_parser/kdl_parser.hpp>
#endif

namespace rmodel {
namespace {

using namespace test::targets;

#ifdef RMODEL_HAVE_KDL_PARSER
#define REQUIRE_KDL_PARSER() (void)0
#else
#define REQUIRE_KDL_PARSER()                                                                          \
  GTEST_SKIP() << "kdl_parser was not found when this build was configured (Debian: apt-get install " \
                  "libkdl-parser-dev, then run cmake again): skipping the comparison with kdl_parser"
#endif

/// What kdl_parser makes of a URDF: whether it builds a tree, what it says, and the joints
/// of the tree's segments that move.
struct Built {
  bool ok = false;
  std::string log;
  std::set<std::string> root_inertia;  ///< links of "The root link X has an inertia"
  std::set<std::string> made_fixed;    ///< joints of "Converting unknown joint type of joint 'j'"
  std::set<std::string> moving;        ///< joints of the tree's segments that are not fixed
};

Built kdl_build([[maybe_unused]] const std::string& urdf) {
  Built b;
#ifdef RMODEL_HAVE_KDL_PARSER
  std::fflush(stderr);
  const int saved = dup(2);
  std::FILE* capture = std::tmpfile();
  dup2(fileno(capture), 2);
  KDL::Tree tree;
  b.ok = kdl_parser::treeFromString(urdf, tree);
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::rewind(capture);
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, capture)) > 0;) b.log.append(buffer, n);
  std::fclose(capture);
  const std::regex root(R"(The root link (\S+) has an inertia)"), fixed(R"(unknown joint type of joint '([^']+)')");
  for (std::sregex_iterator it(b.log.begin(), b.log.end(), root), end; it != end; ++it) b.root_inertia.insert((*it)[1]);
  for (std::sregex_iterator it(b.log.begin(), b.log.end(), fixed), end; it != end; ++it) b.made_fixed.insert((*it)[1]);
  if (b.ok)
    for (const auto& [name, element] : tree.getSegments())
      if (element.segment.getJoint().getType() != KDL::Joint::None)
        b.moving.insert(element.segment.getJoint().getName());
#endif
  return b;
}

/// The names rmodel's problems of a code give first (in quotes).
std::set<std::string> first_names(const Diagnostics& d, std::string_view code) {
  std::set<std::string> out;
  for (const Diagnostic* item : of_code(d, code)) {
    const auto open = item->message.find('\'');
    out.insert(item->message.substr(open + 1, item->message.find('\'', open + 1) - open - 1));
  }
  return out;
}

/// rmodel's report and kdl_parser's reading of one URDF agree.
void compare(const std::string& urdf, const fs::path& dir, const std::string& what) {
  const CheckReport report = rmodel_check(write_robot(dir, urdf), CheckTarget::kdl);
  const Built kdl = kdl_build(urdf);
  const std::string context = what + "\nkdl_parser: " + kdl.log + "\nrmodel:\n" + listing(report.problems);
  EXPECT_EQ(report.targets.at(0).loads, kdl.ok) << context;
  if (!kdl.ok) return;
  EXPECT_EQ(first_names(report.problems, "kdl-root-inertia"), kdl.root_inertia) << context;
  EXPECT_EQ(first_names(report.problems, "kdl-joint-fixed"), kdl.made_fixed) << context;
  // A mimic joint rmodel notes is a joint of its own in the tree; a mimic joint not noted is
  // not in it as one.
  const Model model = Model::from_urdf_string(urdf, "robot.urdf");
  for (const JointInfo& joint : model.urdf_joints()) {
    if (!joint.mimic) continue;
    const auto notes = first_names(report.problems, "kdl-mimic-ignored");
    EXPECT_EQ(notes.count(joint.name) == 1, kdl.moving.count(joint.name) == 1) << joint.name << "\n" << context;
  }
}

struct Case {
  const char* name;
  std::string urdf;
  std::vector<std::string> codes;  ///< the kdl codes the case is made to show
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> cases() {
  const std::string limit = R"(<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>)";
  return {
      {"root_with_inertia", robot({link("base", solid()), link("arm", solid()), joint("j", "revolute", "base", "arm")}),
       {"kdl-root-inertia"}},
      {"root_without_inertia", robot({link("base"), link("arm", solid()), joint("j", "revolute", "base", "arm")}), {}},
      {"dummy_root", robot({link("base_footprint"), link("base", solid()), link("arm", solid()),
                            joint("f", "fixed", "base_footprint", "base"), joint("j", "revolute", "base", "arm")}),
       {}},
      {"root_with_massless_inertial",
       robot({link("base", inertial("0", R"(ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0")")), link("arm", solid()),
              joint("j", "revolute", "base", "arm")}),
       {"kdl-root-inertia"}},
      {"root_with_incomplete_inertial",
       robot({link("base", R"(<inertial><mass value="1"/></inertial>)"), link("arm", solid()),
              joint("j", "revolute", "base", "arm")}),
       {"kdl-root-inertia"}},
      {"world_root", robot({link("world"), link("base", solid()), joint("w", "fixed", "world", "base")}), {}},
      {"floating", robot({link("world"), link("base", solid()), joint("w", "floating", "world", "base")}),
       {"kdl-joint-fixed"}},
      {"planar", robot({link("world"), link("puck", solid()), joint("p", "planar", "world", "puck")}),
       {"kdl-joint-fixed"}},
      {"continuous_and_prismatic",
       robot({link("world"), link("wheel", solid()), link("slider", solid()), joint("c", "continuous", "world", "wheel"),
              joint("s", "prismatic", "world", "slider")}),
       {}},
      {"mimic", robot({link("world"), link("left", solid()), link("right", solid()), joint("l", "prismatic", "world", "left"),
                       joint("r", "prismatic", "world", "right", limit + R"(<mimic joint="l" multiplier="-1"/>)")}),
       {}},
  };
}

using KdlTargetCases = InFolder<::testing::TestWithParam<Case>>;

TEST_P(KdlTargetCases, SameReadingAsKdlParser) {
  REQUIRE_KDL_PARSER();
  const Case& c = GetParam();
  const CheckReport report = rmodel_check(write_robot(dir_, c.urdf), CheckTarget::kdl);
  std::set<std::string> shown;
  for (const Diagnostic* d : of_target(report.problems, CheckTarget::kdl))
    if (d->severity != Severity::note) shown.insert(d->code);
  EXPECT_EQ(shown, std::set<std::string>(c.codes.begin(), c.codes.end())) << listing(report.problems);
  compare(c.urdf, dir_, c.name);
}

INSTANTIATE_TEST_SUITE_P(Rules, KdlTargetCases, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

using KdlTargetOracle = InFolder<::testing::Test>;

TEST_F(KdlTargetOracle, MimicNotedWhereTheTreeMovesTheJointOnItsOwn) {
  REQUIRE_KDL_PARSER();
  const std::string limit = R"(<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>)";
  const std::string urdf = robot({link("world"), link("left", solid()), link("right", solid()),
                                  joint("l", "prismatic", "world", "left"),
                                  joint("r", "prismatic", "world", "right", limit + R"(<mimic joint="l"/>)")});
  const CheckReport report = rmodel_check(write_robot(dir_, urdf), CheckTarget::kdl);
  EXPECT_EQ(first_names(report.problems, "kdl-mimic-ignored"), std::set<std::string>{"r"});
  const Built kdl = kdl_build(urdf);
  ASSERT_TRUE(kdl.ok) << kdl.log;
  EXPECT_EQ(kdl.moving, (std::set<std::string>{"l", "r"}));
}

// A URDF urdfdom refuses: no tree, and rmodel's target rules are not applied.
TEST_F(KdlTargetOracle, AUrdfUrdfdomRefusesBuildsNoTree) {
  REQUIRE_KDL_PARSER();
  for (const std::string& urdf :
       {robot({link("base", solid()), link("base"), link("arm", solid()), joint("j", "revolute", "base", "arm")}),
        robot({link("base", solid()), link("arm", solid()),
               joint("j", "revolute", "base", "arm", R"(<axis xyz="0 0 1"/>)")}),
        robot({link("base", solid()), link("arm", solid()), link("hand", solid()), joint("j", "revolute", "base", "arm"),
               joint("k", "revolute", "hand", "arm")})}) {
    const CheckReport report = rmodel_check(write_robot(dir_, urdf), CheckTarget::kdl);
    EXPECT_FALSE(report.targets.at(0).applied) << urdf;
    EXPECT_FALSE(kdl_build(urdf).ok) << urdf;
  }
}

// Where rmodel is stricter than kdl_parser, as written in rmodel-check(1): a zero axis, which
// urdfdom accepts and KDL divides by its length (a tree of NaN axes), is an error of the URDF.
TEST_F(KdlTargetOracle, AZeroAxisIsWhereRmodelIsStricter) {
  REQUIRE_KDL_PARSER();
  const std::string urdf = robot({link("base"), link("arm", solid()),
                                  joint("j", "revolute", "base", "arm",
                                        R"(<axis xyz="0 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/>)")});
  const CheckReport report = rmodel_check(write_robot(dir_, urdf), CheckTarget::kdl);
  EXPECT_FALSE(report.targets.at(0).loads);
  EXPECT_EQ(of_code(report.problems, "zero-axis").size(), 1U);
  EXPECT_TRUE(kdl_build(urdf).ok);
}

TEST_F(KdlTargetOracle, FixtureRobots) {
  REQUIRE_KDL_PARSER();
  RMODEL_REQUIRE_FIXTURES();
  std::size_t loads = 0, kdl_loads = 0, warned = 0;
  for (const std::string& robot_file : fixture_robots()) {
    const std::string text = test::read_file(test::fixture(robot_file));
    compare(text, dir_, robot_file);
    const CheckReport report = rmodel_check(write_robot(dir_, text), CheckTarget::kdl);
    const Built kdl = kdl_build(text);
    loads += report.targets.at(0).loads ? 1 : 0;
    kdl_loads += kdl.ok ? 1 : 0;
    warned += report.targets.at(0).warnings > 0 ? 1 : 0;
    std::cout << "[ verdict  ] " << robot_file << ": rmodel " << (report.targets.at(0).loads ? "loads" : "does not load")
              << " (" << report.targets.at(0).warnings << " warnings), kdl_parser " << (kdl.ok ? "builds" : "refuses")
              << " (" << kdl.root_inertia.size() + kdl.made_fixed.size() << " warnings)\n";
  }
  EXPECT_EQ(loads, kdl_loads);
  EXPECT_EQ(loads, fixture_robots().size());
  EXPECT_EQ(warned, 4U);  // every root link has an inertia but the kinematic Sweetie Bot's
}

}  // namespace
}  // namespace rmodel
