// check's inertia rule against MuJoCo's compiler (Debian's libmujoco-dev, found optionally by
// tests/CMakeLists.txt; without it every test skips, saying so). MuJoCo reads a URDF
// (mj_loadXML), takes the principal moments of each <inertia> (its own eigen solver), raises
// a negative one to `boundinertia` (0) and refuses a body whose moments break A + B >= C:
// "inertia must satisfy A + B >= C; use 'balanceinertia' to fix". It compares exactly.
// rmodel's rule (man rmodel-check) allows rounding, 1e-5 of the largest moment: on the
// triangle the two agree everywhere but inside that rounding, where MuJoCo may refuse what
// rmodel accepts. Every comparison below holds to that: the same verdict, or MuJoCo refusing
// moments that its own eigen solver (mju_eig3) finds broken by less than the rounding while
// rmodel accepts them; rmodel never refuses what MuJoCo loads.
//
// Each <inertial> is loaded alone, as the one link of a robot of its own: a body without
// joints, so that MuJoCo's other rule (a moving body's mass and moments above 1e-15) stays
// out of the comparison, with `fusestatic` off so that the body is compiled as written. The
// fixture robots are also loaded whole, their meshes left out (MuJoCo would need the files).
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <tinyxml2.h>

#include "rmodel/check/check.hpp"
#include "test_support.hpp"

#ifdef RMODEL_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace rmodel {
namespace {

namespace fs = std::filesystem;

#ifdef RMODEL_HAVE_MUJOCO
#define REQUIRE_MUJOCO() (void)0
#else
#define REQUIRE_MUJOCO()                                                                                  \
  GTEST_SKIP() << "libmujoco was not found when this build was configured (Debian: apt-get install "    \
                  "libmujoco-dev, then run cmake again): skipping the comparison with MuJoCo's compiler"
#endif

/// What MuJoCo's compiler makes of a URDF.
struct MujocoVerdict {
  bool loads = false;
  bool refuses_triangle = false;  ///< "inertia must satisfy A + B >= C"
  std::string message;            ///< the error, when it does not load
};

MujocoVerdict mujoco_load([[maybe_unused]] const std::string& urdf, [[maybe_unused]] const fs::path& dir) {
  MujocoVerdict verdict;
#ifdef RMODEL_HAVE_MUJOCO
  const fs::path file = dir / "robot.urdf";
  std::ofstream(file) << urdf;
  char error[1000] = "";
  if (mjModel* model = mj_loadXML(file.c_str(), nullptr, error, sizeof error)) {
    mj_deleteModel(model);
    verdict.loads = true;
    return verdict;
  }
  verdict.message = error;
  verdict.refuses_triangle = verdict.message.find("inertia must satisfy A + B >= C") != std::string::npos;
#endif
  return verdict;
}

/// The moments of an <inertia> element's text: ixx, ixy, ixz, iyy, iyz, izz.
using Moments = std::array<double, 6>;

Moments moments_of(const std::string& inertia_text) {
  tinyxml2::XMLDocument doc;
  EXPECT_EQ(doc.Parse(inertia_text.c_str()), tinyxml2::XML_SUCCESS) << inertia_text;
  const tinyxml2::XMLElement* e = doc.RootElement();
  if (e && std::string_view(e->Name()) != "inertia") e = e->FirstChildElement("inertia");
  Moments m{};
  const char* names[] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
  for (std::size_t k = 0; k < m.size(); ++k)
    if (e) (void)e->QueryDoubleAttribute(names[k], &m[k]);
  return m;
}

/// By how much MuJoCo's principal moments (its own eigen solver; a negative one raised to 0,
/// its boundinertia) break A + B >= C, relative to the largest: <= 0 when they do not.
double mujoco_break([[maybe_unused]] const Moments& i) {
#ifdef RMODEL_HAVE_MUJOCO
  const mjtNum full[9] = {i[0], i[1], i[2], i[1], i[3], i[4], i[2], i[4], i[5]};
  mjtNum eigval[3], eigvec[9], quat[4];
  mju_eig3(eigval, eigvec, quat, full);
  for (mjtNum& v : eigval) v = std::max(v, 0.0);
  std::sort(eigval, eigval + 3);
  return eigval[2] > 0.0 ? (eigval[2] - eigval[0] - eigval[1]) / eigval[2] : 0.0;
#else
  return 0.0;
#endif
}

/// rmodel's rounding, relative to the largest moment (man rmodel-check).
constexpr double kRounding = 1e-5;

/// rmodel's verdict on the triangle rule: an error inertia-triangle.
bool rmodel_refuses_triangle(const Diagnostics& d, const std::string& link = {}) {
  for (const auto& item : d.items)
    if (item.severity == Severity::error && item.code == "inertia-triangle" &&
        (link.empty() || item.message.find("link '" + link + "'") != std::string::npos))
      return true;
  return false;
}

std::string listing(const Diagnostics& d) {
  std::string out;
  for (const auto& item : d.items) out += item.where.to_string() + ": " + item.code + ": " + item.message + "\n";
  return out;
}

/// A robot of one link carrying `inertial` (an <inertial> element as text), for MuJoCo with
/// `fusestatic` off (and nothing visual to discard).
std::string one_link_robot(const std::string& inertial) {
  return "<robot name=\"one\">\n"
         "  <mujoco><compiler fusestatic=\"false\" discardvisual=\"true\"/></mujoco>\n"
         "  <link name=\"body\">" + inertial + "</link>\n"
         "</robot>\n";
}

/// Where the two verdicts on `urdf`, whose moments are `moments`, agree, or differ as allowed:
/// MuJoCo refusing what it finds broken within rounding. Returns true when they differ.
bool compare(const std::string& urdf, const Moments& moments, const fs::path& dir, const std::string& what) {
  const MujocoVerdict mujoco = mujoco_load(urdf, dir);
  EXPECT_TRUE(mujoco.loads || mujoco.refuses_triangle) << what << ": " << mujoco.message;
  const Diagnostics d = check_model_text(urdf, "one.urdf", nullptr, "");
  const bool ours = rmodel_refuses_triangle(d);
  if (ours == mujoco.refuses_triangle) return false;
  EXPECT_FALSE(ours) << what << ": rmodel refuses what MuJoCo loads\n" << listing(d);
  EXPECT_LE(mujoco_break(moments), kRounding)
      << what << ": MuJoCo refuses beyond rounding what rmodel accepts (" << mujoco.message << ")\n"
      << listing(d);
  return true;
}

std::string inertial(const std::string& mass, const std::string& moments) {
  return "<inertial><origin xyz=\"0 0 0\" rpy=\"0 0 0\"/><mass value=\"" + mass + "\"/><inertia " + moments +
         "/></inertial>";
}

/// The <inertial> elements of a URDF file, by link.
std::vector<std::pair<std::string, std::string>> inertials_of(const fs::path& urdf) {
  tinyxml2::XMLDocument doc;
  EXPECT_EQ(doc.LoadFile(urdf.c_str()), tinyxml2::XML_SUCCESS) << urdf;
  std::vector<std::pair<std::string, std::string>> out;
  const auto* robot = doc.FirstChildElement("robot");
  for (const auto* link = robot ? robot->FirstChildElement("link") : nullptr; link;
       link = link->NextSiblingElement("link"))
    if (const auto* element = link->FirstChildElement("inertial")) {
      tinyxml2::XMLPrinter printer(nullptr, true);
      element->Accept(&printer);
      out.emplace_back(link->Attribute("name"), printer.CStr());
    }
  return out;
}

const char* const kFixtureRobots[] = {"example_robot_data/panda.urdf", "example_robot_data/solo12.urdf",
                                      "example_robot_data/talos_reduced.urdf",
                                      "sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf"};

/// A test with a folder of its own for the URDF files MuJoCo reads.
template <class Base>
class WithFolder : public Base {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-mujoco-"); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

using MujocoInertiaOracle = WithFolder<::testing::Test>;

// Every <inertial> of every fixture robot, alone: the same verdict on the triangle.
TEST_F(MujocoInertiaOracle, EveryInertialOfTheFixtureRobots) {
  REQUIRE_MUJOCO();
  RMODEL_REQUIRE_FIXTURES();
  std::size_t compared = 0, refused = 0, within_rounding = 0;
  for (const char* robot : kFixtureRobots)
    for (const auto& [link, element] : inertials_of(test::fixture(robot))) {
      const std::string urdf = one_link_robot(element);
      within_rounding += compare(urdf, moments_of(element), dir_, std::string(robot) + " link " + link) ? 1 : 0;
      refused += mujoco_load(urdf, dir_).refuses_triangle ? 1 : 0;
      ++compared;
    }
  EXPECT_GT(compared, 100u);
  EXPECT_EQ(refused, 2u);  // Talos' gripper motors
  EXPECT_EQ(within_rounding, 0u);  // no fixture inertia is on the bound
}

// The fixture robots whole, meshes left out: MuJoCo stops at the first body it refuses,
// which check reports as an inertia-triangle error of that link; a robot MuJoCo loads has none.
TEST_F(MujocoInertiaOracle, FixtureRobotsWhole) {
  REQUIRE_MUJOCO();
  RMODEL_REQUIRE_FIXTURES();
  for (const char* robot : kFixtureRobots) {
    const std::string text = test::read_file(test::fixture(robot));
    tinyxml2::XMLDocument doc;
    ASSERT_EQ(doc.Parse(text.c_str()), tinyxml2::XML_SUCCESS) << robot;
    auto* root = doc.FirstChildElement("robot");
    for (auto* link = root->FirstChildElement("link"); link; link = link->NextSiblingElement("link"))
      for (const char* geometry : {"visual", "collision"})
        while (auto* element = link->FirstChildElement(geometry)) link->DeleteChild(element);
    auto* mujoco_element = doc.NewElement("mujoco");
    auto* compiler = mujoco_element->InsertNewChildElement("compiler");
    compiler->SetAttribute("fusestatic", "false");
    compiler->SetAttribute("discardvisual", "true");
    root->InsertFirstChild(mujoco_element);
    tinyxml2::XMLPrinter printer;
    doc.Print(&printer);
    const MujocoVerdict mujoco = mujoco_load(printer.CStr(), dir_);
    const Diagnostics d = check_model_text(text, robot, nullptr, "");
    if (mujoco.loads) {
      EXPECT_FALSE(rmodel_refuses_triangle(d)) << robot << ": MuJoCo loads it\n" << listing(d);
      continue;
    }
    ASSERT_TRUE(mujoco.refuses_triangle) << robot << ": " << mujoco.message;
    // "Object name = gripper_left_motor_single_link, id = 27"
    const auto at = mujoco.message.find("Object name = ");
    ASSERT_NE(at, std::string::npos) << mujoco.message;
    const std::string link = mujoco.message.substr(at + 14, mujoco.message.find(',', at) - at - 14);
    EXPECT_TRUE(rmodel_refuses_triangle(d, link)) << robot << ": MuJoCo refuses link " << link << "\n" << listing(d);
  }
}

// Cases of our own, at the edges of the rule.
struct Case {
  const char* name;
  const char* mass;
  const char* moments;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

using MujocoInertiaCases = WithFolder<::testing::TestWithParam<Case>>;

TEST_P(MujocoInertiaCases, SameVerdictOnTheTriangle) {
  REQUIRE_MUJOCO();
  const Case& c = GetParam();
  EXPECT_FALSE(compare(one_link_robot(inertial(c.mass, c.moments)), moments_of(std::string("<inertia ") + c.moments + "/>"),
                       dir_, c.name))
      << c.name << ": the verdicts differ within rounding";
}

INSTANTIATE_TEST_SUITE_P(
    Edges, MujocoInertiaCases,
    ::testing::Values(
        // izz above ixx + iyy by 16 % of it: both refuse.
        Case{"broken_by_16_percent", "1", "ixx=\"0.042\" ixy=\"0\" ixz=\"0\" iyy=\"0.042\" iyz=\"0\" izz=\"0.1\""},
        // Principal moments 1, 1.2, 2.4 (×0.001) turned 45° about x: the written ones pass,
        // the principal ones break it by 8 %: both refuse.
        Case{"principal_broken", "1", "ixx=\"0.001\" ixy=\"0\" ixz=\"0\" iyy=\"0.0018\" iyz=\"0.0006\" izz=\"0.0018\""},
        // Every entry 1e-6 (public robots' placeholder): principal moments 0, 0, 3e-6.
        Case{"rank_one_placeholder", "0.1", "ixx=\"1e-6\" ixy=\"1e-6\" ixz=\"1e-6\" iyy=\"1e-6\" iyz=\"1e-6\" izz=\"1e-6\""},
        // On the bound, exactly: a thin disc.
        Case{"thin_disc", "1", "ixx=\"0.25\" ixy=\"0\" ixz=\"0\" iyy=\"0.25\" iyz=\"0\" izz=\"0.5\""},
        // A moment at rounding noise beside the others: zero, a thin rod; no triangle broken.
        Case{"moment_at_1e_minus_20", "0.3", "ixx=\"1e-20\" ixy=\"0\" ixz=\"0\" iyy=\"1.2e-4\" iyz=\"0\" izz=\"1.2e-4\""},
        Case{"ideal_thin_rod", "0.3", "ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"1.2e-4\" iyz=\"0\" izz=\"1.2e-4\""},
        Case{"point_mass", "0.5", "ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\""},
        Case{"plain_box", "2", "ixx=\"0.01\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.02\" iyz=\"0\" izz=\"0.025\""}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

// Where the two differ: a triangle broken by rounding only, which MuJoCo refuses and rmodel
// does not. A thin disc written with six significant digits (1/12, 1/12, 1/6 as printf's %g
// writes them) falls short by 2.4e-6 of izz; a thin rod along (1, 1, 0)/√2, whose moments
// MuJoCo's solver finds as 2e-4 and 2e-4 one unit in the last place apart, beside a zero.
// rmodel takes them as the disc and the rod they are; MuJoCo's balanceinertia option would
// even the moments out.
TEST_F(MujocoInertiaOracle, ATriangleBrokenByRoundingOnlyIsWhereTheyDiffer) {
  REQUIRE_MUJOCO();
  for (const std::string moments :
       {"ixx=\"0.0833333\" ixy=\"0\" ixz=\"0\" iyy=\"0.0833333\" iyz=\"0\" izz=\"0.166667\"",
        "ixx=\"1e-4\" ixy=\"-1e-4\" ixz=\"0\" iyy=\"1e-4\" iyz=\"0\" izz=\"2e-4\""}) {
    const std::string urdf = one_link_robot(inertial("2", moments));
    EXPECT_TRUE(compare(urdf, moments_of("<inertia " + moments + "/>"), dir_, moments)) << moments;
    const Diagnostics d = check_model_text(urdf, "one.urdf", nullptr, "");
    EXPECT_FALSE(d.has_errors()) << listing(d);
    std::string balanced = urdf;
    balanced.replace(balanced.find("fusestatic"), 0, "balanceinertia=\"true\" ");
    EXPECT_TRUE(mujoco_load(balanced, dir_).loads) << moments;
  }
}

}  // namespace
}  // namespace rmodel
