// check --target gazebo against sdformat itself (Debian's libsdformat-dev, sdformat 12, found
// optionally by tests/CMakeLists.txt; without it every test skips, saying so). sdf::Root
// loads each URDF from a file, as Gazebo does: rmodel says it loads exactly when sdformat
// loads it without an error, an error sdformat gives is one rmodel reports, and the links
// rmodel's gazebo-link-dropped warnings name are exactly the links the model sdformat builds
// lacks. Which links a URDF should give in SDF is written here from sdformat's documented
// reading (fixed joints lumped into their parent, except from "world" or kept by
// <preserveFixedJoint>), not from rmodel's rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "rmodel/check/check.hpp"
#include "targets_oracle.hpp"
#include "test_support.hpp"

#ifdef RMODEL_HAVE_SDFORMAT
#include <sdf/Console.hh>
#include <sdf/Link.hh>
#include <sdf/Model.hh>
#include <sdf/Root.hh>
#endif

namespace rmodel {
namespace {

using namespace test::targets;

#ifdef RMODEL_HAVE_SDFORMAT
#define REQUIRE_SDFORMAT() (void)0
#else
#define REQUIRE_SDFORMAT()                                                                           \
  GTEST_SKIP() << "sdformat 12 was not found when this build was configured (Debian: apt-get install " \
                  "libsdformat-dev, then run cmake again): skipping the comparison with sdformat"
#endif

/// What sdformat makes of a URDF file.
struct Converted {
  bool loads = false;
  std::string errors;         ///< every error's message, one a line
  std::set<std::string> links;  ///< of the model, when it loads
};

Converted sdformat_load([[maybe_unused]] const fs::path& urdf) {
  Converted c;
#ifdef RMODEL_HAVE_SDFORMAT
  sdf::Console::Instance()->SetQuiet(true);
  sdf::Root root;
  const sdf::Errors errors = root.Load(urdf.string());
  for (const sdf::Error& e : errors) c.errors += e.Message() + "\n";
  const sdf::Model* model = root.Model();
  c.loads = errors.empty() && model != nullptr;
  if (model)
    for (std::uint64_t k = 0; k < model->LinkCount(); ++k) c.links.insert(model->LinkByIndex(k)->Name());
#endif
  return c;
}

/// The links the URDF gives in SDF when none is left out: every link but "world", except the
/// children of fixed joints sdformat lumps (a parent other than "world", no
/// <preserveFixedJoint> or <disableFixedJointLumping> true for the joint).
std::set<std::string> links_of_sdf(const std::string& urdf) {
  tinyxml2::XMLDocument doc;
  doc.Parse(urdf.c_str());
  const auto* robot = doc.FirstChildElement("robot");
  std::set<std::string> kept;
  for (const auto* g = robot->FirstChildElement("gazebo"); g; g = g->NextSiblingElement("gazebo"))
    for (const char* option : {"preserveFixedJoint", "disableFixedJointLumping"})
      if (const auto* e = g->FirstChildElement(option); e && e->GetText() && std::string(e->GetText()) == "true")
        kept.insert(g->Attribute("reference"));
  std::set<std::string> out;
  for (const auto* l = robot->FirstChildElement("link"); l; l = l->NextSiblingElement("link"))
    if (std::string(l->Attribute("name")) != "world") out.insert(l->Attribute("name"));
  for (const auto* j = robot->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint"))
    if (std::string(j->Attribute("type")) == "fixed" &&
        std::string(j->FirstChildElement("parent")->Attribute("link")) != "world" && !kept.count(j->Attribute("name")))
      out.erase(j->FirstChildElement("child")->Attribute("link"));
  return out;
}

/// Every name rmodel's gazebo-link-dropped warnings quote.
std::set<std::string> quoted_in_dropped(const Diagnostics& d) {
  std::set<std::string> out;
  const std::regex quoted("'([^']+)'");
  for (const Diagnostic* item : of_code(d, "gazebo-link-dropped"))
    for (std::sregex_iterator it(item->message.begin(), item->message.end(), quoted), end; it != end; ++it)
      out.insert((*it)[1]);
  return out;
}

/// The words of sdformat's message for each of rmodel's errors.
const std::map<std::string, std::vector<std::string>>& phrases() {
  static const std::map<std::string, std::vector<std::string>> p = {
      {"gazebo-no-link", {"at least one link"}},
      {"gazebo-lump-nan", {"Error reading element <pose>", "finite"}},
      {"gazebo-inertia-invalid", {"invalid inertia"}},
      {"gazebo-joint-type", {"relative_to", "does not match"}},
      {"gazebo-name-clash", {"non-unique name"}},
  };
  return p;
}

/// rmodel's report on a URDF file and sdformat's conversion of it agree.
void compare(const std::string& urdf, const fs::path& dir, const std::string& what) {
  const fs::path file = write_robot(dir, urdf);
  const CheckReport report = rmodel_check(file, CheckTarget::gazebo);
  const Converted gazebo = sdformat_load(file);
  const std::string context = what + "\nsdformat: " + (gazebo.loads ? "loads\n" : gazebo.errors) + "rmodel:\n" +
                              listing(report.problems);
  ASSERT_EQ(report.targets.size(), 1U);
  EXPECT_EQ(report.targets[0].loads, gazebo.loads) << context;
  if (!gazebo.loads) {
    if (!report.targets[0].applied) return;  // the URDF's own errors
    bool matched = false;
    for (const Diagnostic* d : of_target(report.problems, CheckTarget::gazebo)) {
      const auto found = phrases().find(d->code);
      if (found != phrases().end() && d->severity == Severity::error)
        matched = matched || std::any_of(found->second.begin(), found->second.end(), [&](const std::string& p) {
                    return gazebo.errors.find(p) != std::string::npos;
                  });
    }
    EXPECT_TRUE(matched) << context;
    return;
  }
  std::set<std::string> lost;
  for (const std::string& link : links_of_sdf(urdf))
    if (!gazebo.links.count(link)) lost.insert(link);
  std::set<std::string> named;
  for (const std::string& name : quoted_in_dropped(report.problems))
    if (links_of_sdf(urdf).count(name)) named.insert(name);
  EXPECT_EQ(named, lost) << context;
}

struct Case {
  const char* name;
  std::string urdf;
  std::vector<std::string> codes;  ///< the gazebo codes the case is made to show
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

const std::string kBase = link("base", solid());
const std::string kNone = R"(ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0")";

std::string keep(const std::string& joint_name) {
  return R"(<gazebo reference=")" + joint_name + R"("><preserveFixedJoint>true</preserveFixedJoint></gazebo>)";
}

std::vector<Case> cases() {
  const std::string limit = R"(<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>)";
  return {
      {"plain_arm", robot({kBase, link("arm", solid()), joint("j", "revolute", "base", "arm")}), {}},
      // Links without inertia are left out, with the links below them.
      {"moving_without_inertial", robot({kBase, link("arm"), joint("j", "revolute", "base", "arm")}),
       {"gazebo-link-dropped"}},
      {"moving_without_inertial_and_below",
       robot({kBase, link("arm"), link("hand", solid()), link("finger", solid()), joint("j", "revolute", "base", "arm"),
              joint("k", "revolute", "arm", "hand"), joint("l", "prismatic", "hand", "finger")}),
       {"gazebo-link-dropped"}},
      {"moving_tiny_mass", robot({kBase, link("arm", inertial("1e-7")), joint("j", "revolute", "base", "arm")}),
       {"gazebo-link-dropped"}},
      {"moving_small_mass", robot({kBase, link("arm", inertial("1e-5")), joint("j", "revolute", "base", "arm")}), {}},
      {"massless_with_fixed_mass",
       robot({kBase, link("arm"), link("weight", solid()), joint("j", "revolute", "base", "arm"),
              joint("f", "fixed", "arm", "weight")}),
       {}},
      {"fixed_without_inertial_cuts_the_branch",  // lumped, and still no link of its own: nothing below
       robot({kBase, link("frame"), link("arm", solid()), joint("f", "fixed", "base", "frame"),
              joint("j", "revolute", "frame", "arm")}),
       {"gazebo-link-dropped"}},
      {"fixed_massless_frame_kept",
       robot({kBase, link("frame"), joint("f", "fixed", "base", "frame"), keep("f")}), {"gazebo-link-dropped"}},
      {"fixed_massless_frame_with_moving_below_kept",
       robot({kBase, link("frame"), link("arm", solid()), joint("f", "fixed", "base", "frame"),
              joint("j", "revolute", "frame", "arm"), keep("f")}),
       {"gazebo-link-dropped"}},
      // No link left.
      {"root_without_inertia", robot({link("base"), link("arm", solid()), joint("j", "revolute", "base", "arm")}),
       {"gazebo-no-link"}},
      {"world_then_massless",
       robot({link("world"), link("base"), joint("w", "fixed", "world", "base")}),
       {"gazebo-no-link", "gazebo-link-dropped"}},
      {"world_then_solid", robot({link("world"), kBase, joint("w", "fixed", "world", "base")}), {}},
      // Massless frames written with an <inertial> of mass 0, lumped: a centre of mass of NaN.
      {"massless_inertials_lumped",
       robot({kBase, link("camera", inertial("0", kNone)), link("optical", inertial("0", kNone)),
              joint("c", "fixed", "base", "camera"), joint("o", "fixed", "camera", "optical")}),
       {"gazebo-lump-nan"}},
      {"massless_inertial_into_solid",
       robot({kBase, link("camera", inertial("0", kNone)), joint("c", "fixed", "base", "camera")}), {}},
      // Inertia ignition-math refuses.
      {"triangle_broken",
       robot({kBase, link("arm", inertial("1", R"(ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05")")),
              joint("j", "revolute", "base", "arm")}),
       {"gazebo-inertia-invalid"}},
      {"triangle_broken_by_rounding",  // by 4e-7: beyond ignition-math's tolerance of 10 epsilons
       robot({kBase, link("arm", inertial("2", R"(ixx="0.0833333" ixy="0" ixz="0" iyy="0.0833333" iyz="0" izz="0.166667")")),
              joint("j", "revolute", "base", "arm")}),
       {"gazebo-inertia-invalid"}},
      {"triangle_on_the_bound",
       robot({kBase, link("disc", inertial("1", R"(ixx="0.25" ixy="0" ixz="0" iyy="0.25" iyz="0" izz="0.5")")),
              joint("j", "revolute", "base", "disc")}),
       {}},
      {"not_positive",
       robot({kBase, link("arm", inertial("1", R"(ixx="0.01" ixy="0.02" ixz="0" iyy="0.01" iyz="0" izz="0.01")")),
              joint("j", "revolute", "base", "arm")}),
       {"gazebo-inertia-invalid"}},
      {"triangle_broken_lumped_away",  // lumped into a heavy parent: the sum is valid
       robot({kBase, link("cap", inertial("0.001", R"(ixx="1e-6" ixy="0" ixz="0" iyy="1e-6" iyz="0" izz="5e-6")")),
              joint("f", "fixed", "base", "cap")}),
       {}},
      // Joints SDF does not have.
      {"floating_from_world", robot({link("world"), kBase, joint("w", "floating", "world", "base")}),
       {"gazebo-joint-type"}},
      {"planar", robot({kBase, link("puck", solid()), joint("p", "planar", "base", "puck")}), {"gazebo-joint-type"}},
      {"floating_to_massless",
       robot({kBase, link("ghost"), joint("w", "floating", "base", "ghost")}), {"gazebo-link-dropped"}},
      // One namespace for links and joints.
      {"joint_named_as_link",
       robot({kBase, link("arm", solid()), joint("arm", "revolute", "base", "arm")}), {"gazebo-name-clash"}},
      {"fixed_joint_named_as_lumped_link",
       robot({kBase, link("cap", solid()), joint("cap", "fixed", "base", "cap")}), {}},
      {"mimic",
       robot({kBase, link("left", solid()), link("right", solid()), joint("l", "prismatic", "base", "left"),
              joint("r", "prismatic", "base", "right", limit + R"(<mimic joint="l"/>)")}),
       {}},
  };
}

using GazeboTargetCases = InFolder<::testing::TestWithParam<Case>>;

TEST_P(GazeboTargetCases, SameVerdictAsSdformat) {
  REQUIRE_SDFORMAT();
  const Case& c = GetParam();
  const CheckReport report = rmodel_check(write_robot(dir_, c.urdf), CheckTarget::gazebo);
  std::set<std::string> shown;
  for (const Diagnostic* d : of_target(report.problems, CheckTarget::gazebo))
    if (d->severity != Severity::note) shown.insert(d->code);
  EXPECT_EQ(shown, std::set<std::string>(c.codes.begin(), c.codes.end())) << listing(report.problems);
  compare(c.urdf, dir_, c.name);
}

INSTANTIATE_TEST_SUITE_P(Rules, GazeboTargetCases, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

using GazeboTargetOracle = InFolder<::testing::Test>;

// A URDF urdfdom refuses: sdformat, which reads it through urdfdom, refuses it too, and
// rmodel's target rules are not applied.
TEST_F(GazeboTargetOracle, AUrdfUrdfdomRefusesDoesNotLoad) {
  REQUIRE_SDFORMAT();
  for (const std::string& urdf :
       {robot({kBase, link("base"), link("arm", solid()), joint("j", "revolute", "base", "arm")}),
        robot({kBase, link("arm", solid()), link("hand", solid()), joint("j", "revolute", "base", "arm"),
               joint("k", "revolute", "hand", "arm")})}) {
    const fs::path file = write_robot(dir_, urdf);
    const CheckReport report = rmodel_check(file, CheckTarget::gazebo);
    EXPECT_FALSE(report.targets.at(0).applied) << urdf;
    EXPECT_FALSE(sdformat_load(file).loads) << urdf;
  }
}

TEST_F(GazeboTargetOracle, FixtureRobots) {
  REQUIRE_SDFORMAT();
  RMODEL_REQUIRE_FIXTURES();
  std::size_t loads = 0, sdformat_loads = 0;
  for (const std::string& robot_file : fixture_robots()) {
    const std::string text = test::read_file(test::fixture(robot_file));
    compare(text, dir_, robot_file);
    const fs::path file = write_robot(dir_, text);
    const bool ours = rmodel_check(file, CheckTarget::gazebo).targets.at(0).loads;
    const bool theirs = sdformat_load(file).loads;
    loads += ours ? 1 : 0;
    sdformat_loads += theirs ? 1 : 0;
    std::cout << "[ verdict  ] " << robot_file << ": rmodel " << (ours ? "loads" : "does not load") << ", sdformat "
              << (theirs ? "loads" : "does not load") << "\n";
  }
  EXPECT_EQ(loads, sdformat_loads);
  EXPECT_EQ(loads, 4U);  // all but Talos, whose massless camera frames lump into a centre of mass of NaN
}

}  // namespace
}  // namespace rmodel
