// check --target mujoco against MuJoCo's compiler itself (Debian's libmujoco-dev, MuJoCo 2.2,
// found optionally by tests/CMakeLists.txt; without it every test skips, saying so). Each
// URDF of our own exercises one rule at its edges and is loaded by mj_loadXML from a folder
// of its own (with the mesh files a case needs): rmodel says it loads exactly when MuJoCo
// loads it, and when MuJoCo refuses it, its message is the one of an error rmodel reports,
// about the body rmodel names. The one exception is written down: principal moments on the
// bound of A + B >= C within rounding, where MuJoCo's own eigen solver decides and rmodel
// warns (mujoco-inertia-on-bound). What MuJoCo reads otherwise without refusing is compared
// with the model it compiles (joint limits, <mimic>). The fixture robots are loaded twice:
// meshes left out, and as written (their meshes are not shipped, so MuJoCo looks for them in
// vain).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "rmodel/check/check.hpp"
#include "targets_oracle.hpp"
#include "test_support.hpp"

#ifdef RMODEL_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace rmodel {
namespace {

using namespace test::targets;

#ifdef RMODEL_HAVE_MUJOCO
#define REQUIRE_MUJOCO_COMPILER() (void)0
#else
#define REQUIRE_MUJOCO_COMPILER()                                                                          \
  GTEST_SKIP() << "libmujoco was not found when this build was configured (Debian: apt-get install "     \
                  "libmujoco-dev, then run cmake again): skipping the comparison with MuJoCo's compiler"
#endif

/// What MuJoCo's compiler makes of a URDF file.
struct Compiled {
  bool loads = false;
  std::string message;                ///< the error, when it does not load
  std::string object;                 ///< "Object name = X" of the error
  std::map<std::string, bool> limited;  ///< per joint, when it loads
  int equalities = 0;
};

Compiled mujoco_compile([[maybe_unused]] const fs::path& urdf) {
  Compiled c;
#ifdef RMODEL_HAVE_MUJOCO
  char error[2000] = "";
  mjModel* m = mj_loadXML(urdf.c_str(), nullptr, error, sizeof error);
  if (!m) {
    c.message = error;
    if (const auto at = c.message.find("Object name = "); at != std::string::npos)
      c.object = c.message.substr(at + 14, c.message.find(',', at) - at - 14);
    return c;
  }
  c.loads = true;
  for (int j = 0; j < m->njnt; ++j) c.limited[mj_id2name(m, mjOBJ_JOINT, j)] = m->jnt_limited[j] != 0;
  c.equalities = m->neq;
  mj_deleteModel(m);
#endif
  return c;
}

/// The words of MuJoCo's message for each of rmodel's errors.
const std::map<std::string, std::vector<std::string>>& phrases() {
  static const std::map<std::string, std::vector<std::string>> p = {
      {"mujoco-inertial-incomplete", {"required attribute missing", "missing element"}},
      {"mujoco-inertia-triangle", {"inertia must satisfy A + B >= C"}},
      {"mujoco-inertia-on-bound", {"inertia must satisfy A + B >= C"}},
      {"mujoco-moving-body-mass", {"mass and inertia of moving bodies", "in fusing static body inertias"}},
      {"mujoco-geom-mass", {"body mass is too small"}},
      {"mujoco-free-joint", {"free joint can only be used on top level"}},
      {"mujoco-geometry", {"sizes must be positive", "visual geometry specification not found"}},
      {"mujoco-mesh-format", {"Unknown mesh file type"}},
      {"mujoco-mesh-missing", {"could not open", "is empty", "could not parse OBJ file"}},
  };
  return p;
}

/// The codes whose MuJoCo error names the body (a link of the URDF).
const std::set<std::string> kBodyCodes = {"mujoco-inertia-triangle", "mujoco-inertia-on-bound",
                                          "mujoco-moving-body-mass", "mujoco-geom-mass", "mujoco-free-joint"};

struct Outcome {
  bool agree = true;      ///< same verdict
  bool on_bound = false;  ///< rmodel warned that MuJoCo's rounding decides
};

/// rmodel's verdict on a URDF file against MuJoCo's: the same, or MuJoCo deciding on the bound.
Outcome compare(const fs::path& urdf, const std::string& what) {
  const CheckReport report = rmodel_check(urdf, CheckTarget::mujoco);
  EXPECT_EQ(report.targets.size(), 1U);
  const TargetVerdict verdict = report.targets.at(0);
  const Compiled mujoco = mujoco_compile(urdf);
  Outcome outcome;
  outcome.on_bound = !of_code(report.problems, "mujoco-inertia-on-bound").empty();
  const std::string context = what + (mujoco.loads ? ": MuJoCo loads it" : ": MuJoCo: " + mujoco.message) + "\n" +
                              listing(report.problems);
  if (!outcome.on_bound) {
    EXPECT_EQ(verdict.loads, mujoco.loads) << context;
  }
  outcome.agree = verdict.loads == mujoco.loads;
  if (mujoco.loads || !verdict.applied) return outcome;
  // MuJoCo's error is one rmodel reports, about the body it names.
  bool matched = false;
  for (const Diagnostic* d : of_target(report.problems, CheckTarget::mujoco)) {
    const auto found = phrases().find(d->code);
    if (found == phrases().end()) continue;
    const bool same_words = std::any_of(found->second.begin(), found->second.end(), [&](const std::string& p) {
      return mujoco.message.find(p) != std::string::npos;
    });
    if (!same_words) continue;
    if (kBodyCodes.count(d->code) && !mujoco.object.empty() && d->code != "mujoco-free-joint" &&
        !names(*d, mujoco.object))
      continue;
    matched = true;
  }
  EXPECT_TRUE(matched) << context;
  return outcome;
}

struct Case {
  const char* name;
  std::string urdf;
  std::vector<std::string> codes;  ///< the mujoco codes the case is made to show
  std::vector<std::pair<std::string, std::string>> files = {};
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

const std::string kArm = link("base", solid());
std::string arm(const std::string& body, const std::string& type = "revolute", const std::string& compiler = "") {
  return robot({compiler, kArm, link("arm", body), joint("j", type, "base", "arm")});
}
std::string compiler(const std::string& attributes) { return "<mujoco><compiler " + attributes + "/></mujoco>"; }
const std::string kRod = R"(ixx="0" ixy="0" ixz="0" iyy="1.2e-4" iyz="0" izz="1.2e-4")";
const std::string kPoint = R"(ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0")";
const std::string kBox = R"(<box size="0.1 0.1 0.1"/>)";

std::vector<Case> cases() {
  const std::string stl = cube_stl();
  return {
      {"plain_arm", arm(solid()), {}},
      // A moving body's mass: none, a point, a rod, a tiny mass, raised by the bounds.
      {"moving_without_inertial", arm(""), {"mujoco-moving-body-mass"}},
      {"moving_point_mass", arm(inertial("1", kPoint)), {"mujoco-moving-body-mass"}},
      {"moving_thin_rod", arm(inertial("1", kRod)), {"mujoco-moving-body-mass"}},
      {"moving_tiny_mass", arm(inertial("1e-16")), {"mujoco-moving-body-mass"}},
      {"moving_tiny_mass_bounded", arm(inertial("1e-16"), "revolute", compiler(R"(boundmass="1e-6")")), {}},
      {"moving_point_mass_bounded", arm(inertial("1", kPoint), "revolute", compiler(R"(boundinertia="1e-9")")), {}},
      {"prismatic_without_inertial", arm("", "prismatic"), {"mujoco-moving-body-mass"}},
      // Links fixed to a moving one are merged into it (fusestatic), or are static children.
      {"massless_with_fixed_mass",
       robot({kArm, link("arm"), link("weight", solid()), joint("j", "revolute", "base", "arm"),
              joint("f", "fixed", "arm", "weight")}),
       {}},
      {"massless_with_fixed_mass_unfused",
       robot({compiler(R"(fusestatic="false")"), kArm, link("arm"), link("weight", solid()),
              joint("j", "revolute", "base", "arm"), joint("f", "fixed", "arm", "weight")}),
       {}},
      {"massless_with_fixed_massless",
       robot({kArm, link("arm"), link("frame"), joint("j", "revolute", "base", "arm"), joint("f", "fixed", "arm", "frame")}),
       {"mujoco-moving-body-mass"}},
      {"point_with_fixed_point_elsewhere",  // two point masses apart: a rod
       robot({kArm, link("arm", inertial("1", kPoint)), link("tip", inertial("1", kPoint, "0.2 0 0")),
              joint("j", "revolute", "base", "arm"), joint("f", "fixed", "arm", "tip")}),
       {"mujoco-moving-body-mass"}},
      {"point_with_fixed_point_at_it",  // merging finds no moment at all
       robot({kArm, link("arm", inertial("1", kPoint)), link("tip", inertial("1", kPoint, "0 0 -0.1")),
              joint("j", "revolute", "base", "arm"), joint("f", "fixed", "arm", "tip")}),
       {"mujoco-moving-body-mass"}},
      {"static_root_without_inertial", robot({link("base"), link("arm", solid()), joint("j", "revolute", "base", "arm")}),
       {}},
      // Mass from the geoms of a link without <inertial>.
      {"moving_box_collision", arm(shape(kBox)), {}},
      {"moving_box_visual_only", arm(shape(kBox, "visual")), {"mujoco-moving-body-mass"}},
      {"moving_box_collision_no_geom_inertia", arm(shape(kBox), "revolute", compiler(R"(inertiafromgeom="false")")),
       {"mujoco-moving-body-mass"}},
      {"two_visuals_kept",
       robot({compiler(R"(discardvisual="false")"), kArm, link("cam", shape(kBox, "visual") + shape(kBox, "visual")),
              joint("f", "fixed", "base", "cam")}),
       {"mujoco-geom-mass"}},
      {"inertial_ignored_for_geoms", arm(inertial("1", kPoint) + shape(kBox), "revolute",
                                         compiler(R"(inertiafromgeom="true")")),
       {}},
      // The triangle inequality, exact, and evened out by balanceinertia.
      {"triangle_broken", arm(inertial("1", R"(ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05")")),
       {"mujoco-inertia-triangle"}},
      {"triangle_broken_static",
       robot({kArm, link("cap", inertial("1", R"(ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05")")),
              joint("f", "fixed", "base", "cap")}),
       {"mujoco-inertia-triangle"}},
      {"triangle_broken_balanced",
       arm(inertial("1", R"(ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.05")"), "revolute",
           compiler(R"(balanceinertia="true")")),
       {}},
      {"triangle_by_rounding_only",
       arm(inertial("2", R"(ixx="0.0833333" ixy="0" ixz="0" iyy="0.0833333" iyz="0" izz="0.166667")")),
       {"mujoco-inertia-triangle"}},
      {"thin_disc_exact", arm(inertial("1", R"(ixx="0.25" ixy="0" ixz="0" iyy="0.25" iyz="0" izz="0.5")")), {}},
      {"turned_rod_on_bound",
       robot({kArm, link("rod", inertial("1", R"(ixx="1e-4" ixy="-1e-4" ixz="0" iyy="1e-4" iyz="0" izz="2e-4")")),
              joint("f", "fixed", "base", "rod")}),
       {"mujoco-inertia-on-bound"}},
      {"turned_box", arm(inertial("1", R"(ixx="0.01" ixy="0.002" ixz="0.001" iyy="0.02" iyz="0" izz="0.025")")), {}},
      {"negative_moment_static",
       robot({kArm, link("cap", inertial("1", R"(ixx="-0.001" ixy="0" ixz="0" iyy="1" iyz="0" izz="1")")),
              joint("f", "fixed", "base", "cap")}),
       {}},
      // mju_eig3 keeps the moments as written when every product is below 1e-12: on the bound,
      // where the true principal moments break A + B >= C by 2.5e-13 of the largest.
      {"products_below_solver_stop",
       arm(inertial("1", R"(ixx="1e-6" ixy="0" ixz="5e-13" iyy="1e-6" iyz="0" izz="2e-6")")),
       {}},
      // Free joints hang from the world.
      {"floating_below_root", arm(solid(), "floating"), {}},
      {"floating_below_root_unfused", arm(solid(), "floating", compiler(R"(fusestatic="false")")),
       {"mujoco-free-joint"}},
      {"floating_below_moving",
       robot({kArm, link("arm", solid()), link("cup", solid()), joint("j", "revolute", "base", "arm"),
              joint("w", "floating", "arm", "cup")}),
       {"mujoco-free-joint"}},
      {"floating_below_fixed_chain",
       robot({kArm, link("mount", solid()), link("cup", solid()), joint("f", "fixed", "base", "mount"),
              joint("w", "floating", "mount", "cup")}),
       {}},
      {"floating_from_world", robot({link("world"), link("base", solid()), joint("w", "floating", "world", "base")}), {}},
      {"planar_below_moving",
       robot({kArm, link("arm", solid()), link("puck", solid()), joint("j", "revolute", "base", "arm"),
              joint("p", "planar", "arm", "puck")}),
       {}},
      // Shapes and meshes.
      {"box_of_size_zero", arm(solid() + shape(R"(<box size="0 0.1 0.1"/>)")), {"mujoco-geometry"}},
      {"cylinder_of_length_zero", arm(solid() + shape(R"(<cylinder radius="0.1" length="0"/>)")), {"mujoco-geometry"}},
      {"visual_box_of_size_zero", arm(solid() + shape(R"(<box size="0 0.1 0.1"/>)", "visual")), {}},
      {"visual_box_of_size_zero_kept",
       arm(solid() + shape(R"(<box size="0 0.1 0.1"/>)", "visual"), "revolute", compiler(R"(discardvisual="false")")),
       {"mujoco-geometry"}},
      {"capsule", arm(solid() + shape(R"(<capsule radius="0.05" length="0.2"/>)")), {"mujoco-geometry"}},
      {"mesh_beside", arm(shape(R"(<mesh filename="cube.stl"/>)")), {}, {{"cube.stl", stl}}},
      {"mesh_package_uri", arm(shape(R"(<mesh filename="package://arm/meshes/cube.stl"/>)")), {}, {{"cube.stl", stl}}},
      {"mesh_package_uri_not_stripped",
       arm(solid() + shape(R"(<mesh filename="package://arm/meshes/cube.stl"/>)"), "revolute",
           compiler(R"(strippath="false")")),
       {"mujoco-mesh-missing"},
       {{"cube.stl", stl}}},
      {"mesh_in_meshdir", arm(shape(R"(<mesh filename="package://arm/meshes/cube.stl"/>)"), "revolute",
                              compiler(R"(meshdir="meshes")")),
       {},
       {{"meshes/cube.stl", stl}}},
      {"mesh_not_in_meshdir",
       arm(solid() + shape(R"(<mesh filename="cube.stl"/>)"), "revolute", compiler(R"(meshdir="meshes")")),
       {"mujoco-mesh-missing"},
       {{"cube.stl", stl}}},
      {"mesh_missing", arm(solid() + shape(R"(<mesh filename="package://arm/meshes/cube.stl"/>)")),
       {"mujoco-mesh-missing"}},
      {"mesh_empty", arm(solid() + shape(R"(<mesh filename="cube.stl"/>)")), {"mujoco-mesh-missing"}, {{"cube.stl", ""}}},
      {"mesh_uppercase_extension", arm(shape(R"(<mesh filename="cube.STL"/>)")), {}, {{"cube.STL", stl}}},
      {"mesh_same_name_twice",  // one mesh: the second file is never opened
       arm(shape(R"(<mesh filename="cube.stl"/>)") + shape(R"(<mesh filename="elsewhere/cube.stl"/>)")),
       {},
       {{"cube.stl", stl}}},
      {"mesh_same_name_other_scale",
       arm(solid() + shape(R"(<mesh filename="cube.stl"/>)") +
           shape(R"(<mesh filename="cube.obj" scale="2 2 2"/>)")),
       {"mujoco-mesh-missing"},
       {{"cube.stl", stl}}},
      {"collision_dae", arm(solid() + shape(R"(<mesh filename="cube.dae"/>)")), {"mujoco-mesh-format"},
       {{"cube.dae", stl}}},
      {"visual_dae", arm(solid() + shape(R"(<mesh filename="cube.dae"/>)", "visual")), {}},
      {"visual_dae_kept",
       arm(solid() + shape(R"(<mesh filename="cube.dae"/>)", "visual"), "revolute", compiler(R"(discardvisual="false")")),
       {"mujoco-mesh-format"},
       {{"cube.dae", stl}}},
      // <inertial> as MuJoCo requires it.
      {"inertial_without_inertia", arm(R"(<inertial><mass value="1"/></inertial>)"),
       {"mujoco-inertial-incomplete", "mujoco-moving-body-mass"}},
      {"inertia_without_ixy",
       arm(R"(<inertial><mass value="1"/><inertia ixx="0.01" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>)"),
       {"mujoco-inertial-incomplete", "mujoco-moving-body-mass"}},
      {"inertial_without_mass",
       robot({kArm, link("cap", R"(<inertial><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>)"),
              joint("f", "fixed", "base", "cap")}),
       {"mujoco-inertial-incomplete"}},
  };
}

using MujocoTargetCases = InFolder<::testing::TestWithParam<Case>>;

TEST_P(MujocoTargetCases, SameVerdictAsMujocosCompiler) {
  REQUIRE_MUJOCO_COMPILER();
  const Case& c = GetParam();
  const fs::path urdf = write_robot(dir_, c.urdf, c.files);
  const CheckReport report = rmodel_check(urdf, CheckTarget::mujoco);
  // The case shows what it is made to show (MuJoCo's verdict is then compared).
  std::set<std::string> shown;
  for (const Diagnostic* d : of_target(report.problems, CheckTarget::mujoco))
    if (d->severity != Severity::note) shown.insert(d->code);
  EXPECT_EQ(shown, std::set<std::string>(c.codes.begin(), c.codes.end())) << listing(report.problems);
  compare(urdf, c.name);
}

INSTANTIATE_TEST_SUITE_P(Rules, MujocoTargetCases, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

using MujocoTargetOracle = InFolder<::testing::Test>;

// On the bound of A + B >= C within rounding, MuJoCo's eigen solver decides: the rod along
// (1, 1, 0)/√2 is refused, the same rod along (1, 1, 1)/√3 may not be; rmodel warns on both
// and never says they do not load.
TEST_F(MujocoTargetOracle, OnTheBoundMujocosRoundingDecides) {
  REQUIRE_MUJOCO_COMPILER();
  const double a = 1e-4;
  for (const std::string& moments :
       {std::string(R"(ixx="1e-4" ixy="-1e-4" ixz="0" iyy="1e-4" iyz="0" izz="2e-4")"),
        fmt::format(R"(ixx="{0}" ixy="{1}" ixz="{1}" iyy="{0}" iyz="{1}" izz="{0}")", 2 * a / 3, -a / 3)}) {
    const fs::path urdf = write_robot(dir_, robot({kArm, link("rod", inertial("1", moments)), joint("f", "fixed", "base", "rod")}));
    const CheckReport report = rmodel_check(urdf, CheckTarget::mujoco);
    EXPECT_EQ(of_code(report.problems, "mujoco-inertia-on-bound").size(), 1U) << moments << "\n" << listing(report.problems);
    EXPECT_TRUE(report.targets.at(0).loads);
    const Compiled mujoco = mujoco_compile(urdf);
    if (!mujoco.loads) {
      EXPECT_NE(mujoco.message.find("inertia must satisfy A + B >= C"), std::string::npos);
    }
  }
}

// Limits MuJoCo reads otherwise: rmodel warns exactly where MuJoCo's limited flag differs from
// ROS's reading (continuous: unbounded; revolute and prismatic: bounded by <limit>).
TEST_F(MujocoTargetOracle, JointLimitsWarnedWhereMujocoLimitsOtherwise) {
  REQUIRE_MUJOCO_COMPILER();
  const std::string limit = R"(<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>)";
  const std::string still = R"(<axis xyz="0 0 1"/><limit lower="0.5" upper="0.5" effort="1" velocity="1"/>)";
  const std::string unwritten = R"(<axis xyz="0 0 1"/><limit effort="1" velocity="1"/>)";
  const fs::path urdf = write_robot(
      dir_, robot({kArm, link("a", solid()), link("b", solid()), link("c", solid()), link("d", solid()),
                   link("e", solid()), link("f", solid()), joint("continuous_limited", "continuous", "base", "a", limit),
                   joint("continuous_free", "continuous", "base", "b"), joint("revolute_still", "revolute", "base", "c", still),
                   joint("revolute_unwritten", "revolute", "base", "d", unwritten),
                   joint("revolute_limited", "revolute", "base", "e", limit),
                   joint("prismatic_still", "prismatic", "base", "f", still)}));
  const CheckReport report = rmodel_check(urdf, CheckTarget::mujoco);
  const Compiled mujoco = mujoco_compile(urdf);
  ASSERT_TRUE(mujoco.loads) << mujoco.message;
  const Model model = Model::load(ModelSource{urdf.string(), {}, {}});
  std::size_t warned = 0;
  for (const JointInfo& joint : model.urdf_joints()) {
    const bool ros_bounded = joint.type != JointType::continuous;
    const bool differs = mujoco.limited.at(joint.name) != ros_bounded;
    const auto warnings = of_code(report.problems, "mujoco-limits");
    const bool warns = std::any_of(warnings.begin(), warnings.end(), [&](const Diagnostic* d) { return names(*d, joint.name); });
    EXPECT_EQ(warns, differs) << joint.name << "\n" << listing(report.problems);
    warned += warns ? 1 : 0;
  }
  EXPECT_EQ(warned, 4U);
}

// <mimic>: rmodel's note where MuJoCo compiles the joint with no equality constraint.
TEST_F(MujocoTargetOracle, MimicIsAJointOfItsOwn) {
  REQUIRE_MUJOCO_COMPILER();
  const fs::path urdf = write_robot(
      dir_, robot({kArm, link("left", solid()), link("right", solid()), joint("l", "prismatic", "base", "left"),
                   joint("r", "prismatic", "base", "right",
                         R"(<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="l"/>)")}));
  const CheckReport report = rmodel_check(urdf, CheckTarget::mujoco);
  const auto notes = of_code(report.problems, "mujoco-mimic-ignored");
  ASSERT_EQ(notes.size(), 1U) << listing(report.problems);
  EXPECT_TRUE(names(*notes[0], "r"));
  const Compiled mujoco = mujoco_compile(urdf);
  ASSERT_TRUE(mujoco.loads) << mujoco.message;
  EXPECT_EQ(mujoco.limited.count("r"), 1U);  // a joint of its own
  EXPECT_EQ(mujoco.equalities, 0);           // that nothing couples to 'l'
}

// A URDF with errors of its own is said to load nowhere; MuJoCo's own reader refuses these.
TEST_F(MujocoTargetOracle, AUrdfWithErrorsOfItsOwn) {
  REQUIRE_MUJOCO_COMPILER();
  for (const std::string& urdf :
       {robot({kArm, link("base"), link("arm", solid()), joint("j", "revolute", "base", "arm")}),
        robot({kArm, link("arm", solid()), joint("j", "revolute", "base", "arm", R"(<axis xyz="0 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/>)")}),
        robot({kArm, link("arm", solid()), link("hand", solid()), joint("j", "revolute", "base", "arm"),
               joint("k", "revolute", "hand", "arm")})}) {
    const fs::path file = write_robot(dir_, urdf);
    const CheckReport report = rmodel_check(file, CheckTarget::mujoco);
    EXPECT_FALSE(report.targets.at(0).applied) << urdf;
    EXPECT_FALSE(report.targets.at(0).loads);
    EXPECT_FALSE(mujoco_compile(file).loads) << urdf;
  }
}

// The fixture robots: the same verdict, meshes left out, as written (their meshes are not
// shipped: MuJoCo looks for them in vain), and resolved (a stand-in STL where MuJoCo looks).
TEST_F(MujocoTargetOracle, FixtureRobots) {
  REQUIRE_MUJOCO_COMPILER();
  RMODEL_REQUIRE_FIXTURES();
  const char* const variants[] = {"meshes left out", "meshes as written", "meshes resolved"};
  std::size_t loads[3] = {0, 0, 0}, mujoco_loads[3] = {0, 0, 0};
  for (const std::string& robot_file : fixture_robots())
    for (int variant = 0; variant < 3; ++variant) {
      const fs::path dir = dir_ / std::to_string(variant) / fs::path(robot_file).stem();
      const std::string text = test::read_file(test::fixture(robot_file));
      const fs::path urdf = write_robot(dir, variant == 0 ? without_meshes(text) : text,
                                        variant == 2 ? mesh_stand_ins(text) : std::vector<std::pair<std::string, std::string>>{});
      const std::string what = robot_file + " (" + variants[variant] + ")";
      compare(urdf, what);
      const bool ours = rmodel_check(urdf, CheckTarget::mujoco).targets.at(0).loads;
      const bool theirs = mujoco_compile(urdf).loads;
      loads[variant] += ours ? 1 : 0;
      mujoco_loads[variant] += theirs ? 1 : 0;
      std::cout << "[ verdict  ] " << what << ": rmodel " << (ours ? "loads" : "does not load") << ", MuJoCo "
                << (theirs ? "loads" : "does not load") << "\n";
    }
  for (int variant = 0; variant < 3; ++variant) EXPECT_EQ(loads[variant], mujoco_loads[variant]) << variants[variant];
  EXPECT_EQ(loads[0], 3U);  // panda, solo12, the dynamics Sweetie Bot; Talos (inertias), Sweetie Bot (massless links)
  EXPECT_EQ(loads[1], 0U);  // every robot has a collision mesh
  EXPECT_EQ(loads[2], 3U);  // as with the meshes left out
}

}  // namespace
}  // namespace rmodel
