// `check`'s physical rules: inertial plausibility (mass, positive definite inertia, triangle
// inequalities of the moments) with the URDF line, and the joints that cannot hold their
// own weight (gravity torque, written here in closed form, above the effort limit at the
// zero pose and at every named pose).

#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "rmodel/check/check.hpp"
#include "test_support.hpp"

namespace {

const rmodel::Diagnostic* find_code(const rmodel::Diagnostics& d, std::string_view code) {
  for (const auto& item : d.items)
    if (item.code == code) return &item;
  return nullptr;
}

std::string listing(const rmodel::Diagnostics& d) {
  std::string out;
  for (const auto& item : d.items) out += item.where.to_string() + ": " + item.code + ": " + item.message + "\n";
  return out;
}

/// A robot whose link `arm` (line 4: <mass>, line 5: <inertia>) carries `inertial`.
std::string arm_urdf(const std::string& mass, const std::string& inertia) {
  return "<robot name=\"r\">\n"
         "  <link name=\"base\"/>\n"
         "  <link name=\"arm\"><inertial>\n"
         "    <mass value=\"" + mass + "\"/>\n"
         "    <inertia " + inertia + "/>\n"
         "  </inertial></link>\n"
         "  <joint name=\"j\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/><axis xyz=\"0 1 0\"/>\n"
         "    <limit lower=\"-3\" upper=\"3\" effort=\"100\" velocity=\"1\"/></joint>\n"
         "</robot>\n";
}

rmodel::Diagnostics check(const std::string& urdf) {
  return rmodel::check_model_text(urdf, "r.urdf", nullptr, "");
}

}  // namespace

TEST(ModelInertial, PlausibleInertialsPass) {
  const std::string pony = rmodel::test::read_file(rmodel::test::sample("pony.urdf"));
  const auto d = check(pony);
  EXPECT_FALSE(d.has_errors()) << listing(d);
  EXPECT_EQ(d.count(rmodel::Severity::warning), 0u) << listing(d);
  // A massless frame written out.
  EXPECT_TRUE(check(arm_urdf("0", "ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"")).items.empty());
  // A thin disc sits on the bound: izz = ixx + iyy.
  const std::string disc = "ixx=\"0.25\" ixy=\"0\" ixz=\"0\" iyy=\"0.25\" iyz=\"0\" izz=\"0.5\"";
  EXPECT_TRUE(check(arm_urdf("1", disc)).items.empty());
}

TEST(ModelInertial, ZeroMassWithAnInertiaIsAnErrorAtTheMassLine) {
  const auto d = check(arm_urdf("0", "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\""));
  const auto* e = find_code(d, "inertial-mass");
  ASSERT_NE(e, nullptr) << listing(d);
  EXPECT_EQ(e->severity, rmodel::Severity::error);
  EXPECT_EQ(e->where.file, "r.urdf");
  EXPECT_EQ(e->where.line, 4);
  EXPECT_NE(e->message.find("link 'arm'"), std::string::npos) << e->message;
}

TEST(ModelInertial, ANegativePrincipalMomentIsAnErrorAtTheInertiaLine) {
  for (const char* inertia : {"ixx=\"-1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"",
                              "ixx=\"1\" ixy=\"2\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\""}) {  // eigenvalue −1
    const auto d = check(arm_urdf("1", inertia));
    const auto* e = find_code(d, "inertia-not-positive");
    ASSERT_NE(e, nullptr) << inertia << "\n" << listing(d);
    EXPECT_EQ(e->severity, rmodel::Severity::error);
    EXPECT_EQ(e->where.line, 5);
    EXPECT_EQ(d.count(rmodel::Severity::error), 1u) << listing(d);
  }
}

// One rule (man rmodel-check): a zero principal moment, a thin rod or a point mass, is a
// warning; moments within rounding (1e-5 of the largest) of zero are zero.
TEST(ModelInertial, AZeroPrincipalMomentIsAWarning) {
  const std::string rod_along_x = "ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"1.2e-4\" iyz=\"0\" izz=\"1.2e-4\"";
  const std::string rounding_noise = "ixx=\"1e-20\" ixy=\"0\" ixz=\"0\" iyy=\"1.2e-4\" iyz=\"0\" izz=\"1.2e-4\"";
  // A rod along (1, 1, 0)/√2: I = 2e-4 (1 − a aᵀ), whose zero moment the eigen solver gives as ±1e-20.
  const std::string turned_rod = "ixx=\"1e-4\" ixy=\"-1e-4\" ixz=\"0\" iyy=\"1e-4\" iyz=\"0\" izz=\"2e-4\"";
  for (const std::string& inertia : {rod_along_x, rounding_noise, turned_rod}) {
    const auto d = check(arm_urdf("0.3", inertia));
    EXPECT_FALSE(d.has_errors()) << inertia << "\n" << listing(d);
    const auto* w = find_code(d, "inertia-zero-moment");
    ASSERT_NE(w, nullptr) << inertia << "\n" << listing(d);
    EXPECT_EQ(w->severity, rmodel::Severity::warning);
    EXPECT_EQ(w->where.line, 5);
    EXPECT_EQ(d.items.size(), 1u) << listing(d);
  }
  EXPECT_EQ(find_code(check(arm_urdf("0.3", turned_rod)), "inertia-zero-moment")->message,
            "link 'arm': a principal moment of inertia is zero (0, 0.0002, 0.0002 kg·m²): a thin rod, which no body "
            "of any thickness is");
  // A point mass (Talos' optical frames, its force-torque sensors).
  const auto point = check(arm_urdf("0.5", "ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\""));
  EXPECT_FALSE(point.has_errors()) << listing(point);
  const auto* w = find_code(point, "inertia-zero-moment");
  ASSERT_NE(w, nullptr) << listing(point);
  EXPECT_EQ(w->message, "link 'arm': a mass of 0.5 kg with a zero <inertia>: a point mass, which no body of any size is");
}

TEST(ModelInertial, ZeroMomentsAreShownAsZeroNotAsTheSolversRounding) {
  // As several public robots write a placeholder link (example-robot-data's go1, b1, hyq,
  // icub, anymal): every entry 1e-6, a matrix of rank one, whose zero moments the eigen
  // solver gives as about ±1e-22: principal moments 0, 0, 3e-6, which no body has.
  const auto d = check(arm_urdf("1", "ixx=\"1e-6\" ixy=\"1e-6\" ixz=\"1e-6\" iyy=\"1e-6\" iyz=\"1e-6\" izz=\"1e-6\""));
  const auto* e = find_code(d, "inertia-triangle");
  ASSERT_NE(e, nullptr) << listing(d);
  EXPECT_EQ(e->message,
            "link 'arm': its principal moments of inertia break the triangle inequality (0 + 0 < 3e-06 kg·m²): no "
            "body has this inertia");
}

TEST(ModelInertial, MomentsBreakingTheTriangleInequalityAreAnError) {
  // izz > ixx + iyy, and each of the other two; the last by 16 %.
  for (const char* inertia : {"ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.03\"",
                              "ixx=\"0.05\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.02\"",
                              "ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.025\" iyz=\"0\" izz=\"0.0126\""}) {
    const auto d = check(arm_urdf("1", inertia));
    const auto* e = find_code(d, "inertia-triangle");
    ASSERT_NE(e, nullptr) << inertia << "\n" << listing(d);
    EXPECT_EQ(e->severity, rmodel::Severity::error);
    EXPECT_EQ(e->where.line, 5);
    EXPECT_EQ(d.count(rmodel::Severity::error), 1u) << listing(d);
  }
}

TEST(ModelInertial, PrincipalMomentsBreakingItAreAnError) {
  // Principal moments 1, 1, 3 (×0.001) turned 45° about x: written 1, 2, 2 pass, but no body
  // has principal moments with 1 + 1 < 3.
  const auto d = check(arm_urdf("1", "ixx=\"0.001\" ixy=\"0\" ixz=\"0\" iyy=\"0.002\" iyz=\"0.001\" izz=\"0.002\""));
  const auto* e = find_code(d, "inertia-triangle");
  ASSERT_NE(e, nullptr) << listing(d);
  EXPECT_EQ(e->severity, rmodel::Severity::error);
  EXPECT_EQ(e->where.line, 5);
  EXPECT_EQ(d.items.size(), 1u) << listing(d);
}

TEST(ModelInertial, ATriangleBrokenByRoundingOnlyIsNoError) {
  // A thin disc (izz = ixx + iyy = m r²/2) written with six significant digits, as printf's
  // %g writes 1/12 and 1/6: 0.0833333 + 0.0833333 falls short of 0.166667 by 2.4e-6 of it.
  // Turned 30° about x, its principal moments are the same, the written ones not.
  for (const char* inertia : {"ixx=\"0.0833333\" ixy=\"0\" ixz=\"0\" iyy=\"0.0833333\" iyz=\"0\" izz=\"0.166667\"",
                              "ixx=\"0.0833333\" ixy=\"0\" ixz=\"0\" iyy=\"0.104167\" iyz=\"-0.0360844\" "
                              "izz=\"0.145833\""}) {
    const auto d = check(arm_urdf("2", inertia));
    EXPECT_TRUE(d.items.empty()) << inertia << "\n" << listing(d);
  }
  // Beyond rounding it is an error: 0.08333 + 0.08333 falls short of 0.1667 by 2.4e-4 of it.
  const auto d = check(arm_urdf("2", "ixx=\"0.08333\" ixy=\"0\" ixz=\"0\" iyy=\"0.08333\" iyz=\"0\" izz=\"0.1667\""));
  EXPECT_NE(find_code(d, "inertia-triangle"), nullptr) << listing(d);
}

TEST(ModelInertial, FixtureRobotsFollowTheRule) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* urdf : {"sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf", "example_robot_data/panda.urdf",
                           "example_robot_data/solo12.urdf"}) {
    const auto d = rmodel::check_model_text(rmodel::test::read_file(rmodel::test::fixture(urdf)), urdf, nullptr, "");
    EXPECT_FALSE(d.has_errors()) << urdf << "\n" << listing(d);
  }
  // Talos' gripper motors: principal moments 7.86e-05 + 0.000147 < 0.000232, which MuJoCo's
  // compiler refuses too (tests/oracle/test_mujoco_inertia_oracle.cpp); its optical
  // frames and force-torque sensors are point masses.
  const char* talos = "example_robot_data/talos_reduced.urdf";
  const auto d = rmodel::check_model_text(rmodel::test::read_file(rmodel::test::fixture(talos)), talos, nullptr, "");
  std::vector<std::string> errors, point_masses;
  for (const auto& item : d.items) {
    if (item.severity == rmodel::Severity::error) errors.push_back(item.code + " " + item.message.substr(0, item.message.find(':')));
    if (item.code == "inertia-zero-moment") point_masses.push_back(item.message.substr(0, item.message.find(':')));
  }
  EXPECT_EQ(errors, (std::vector<std::string>{"inertia-triangle link 'gripper_left_motor_single_link'",
                                              "inertia-triangle link 'gripper_right_motor_single_link'"}))
      << listing(d);
  EXPECT_EQ(point_masses, (std::vector<std::string>{"link 'rgbd_optical_frame'", "link 'wrist_right_ft_link'",
                                                    "link 'wrist_right_ft_tool_link'", "link 'wrist_left_ft_link'",
                                                    "link 'wrist_left_ft_tool_link'"}))
      << listing(d);
}

namespace {

/// An arm of mass 2 kg whose centre of mass lies 0.5 m along x from its joint (axis y):
/// its gravity torque is m g c cos q = 9.81 N·m · cos q. `effort` is its limit; the
/// semantics put it in a group and give it the named poses `poses` (JSON objects).
std::string weight_urdf(double effort) {
  return fmt::format(
      "<robot name=\"r\">\n"
      "  <link name=\"base\"/>\n"
      "  <link name=\"arm\"><inertial><origin xyz=\"0.5 0 0\"/><mass value=\"2\"/>\n"
      "    <inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>\n"
      "  <joint name=\"shoulder\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/>\n"
      "    <axis xyz=\"0 1 0\"/><limit lower=\"-3\" upper=\"3\" effort=\"{}\" velocity=\"1\"/></joint>\n"
      "</robot>\n",
      effort);
}

rmodel::Diagnostics check_weight(double effort, const std::string& poses) {
  const std::string semantics =
      "{\"rmodel_semantics\": 1, \"groups\": [{\"name\": \"arm\", \"joints\": [\"shoulder\"]}], \"poses\": [" + poses +
      "]}";
  return rmodel::check_model_text(weight_urdf(effort), "r.urdf", &semantics, "r.json");
}

}  // namespace

TEST(ModelInertial, JointThatCannotHoldItsOwnWeightIsAWarning) {
  const auto d = check_weight(9.0, "");  // needs 9.81 N·m at the zero pose
  const auto* w = find_code(d, "cannot-hold-weight");
  ASSERT_NE(w, nullptr) << listing(d);
  EXPECT_EQ(w->severity, rmodel::Severity::warning);
  EXPECT_EQ(w->where.file, "r.urdf");
  EXPECT_EQ(w->where.line, 5);
  EXPECT_NE(w->message.find("'shoulder'"), std::string::npos) << w->message;
  EXPECT_NE(w->message.find("9.81 N·m"), std::string::npos) << w->message;
  EXPECT_EQ(find_code(check_weight(10.0, ""), "cannot-hold-weight"), nullptr);
}

TEST(ModelInertial, AnAxisKdlTakesForZeroIsAnErrorOfCheckNotAnAbort) {
  // KDL normalises an axis whose largest component is x and under 1e-6 to infinity: the
  // model loads, but its kinematics cannot be built; `check` says so and goes on.
  std::string urdf = weight_urdf(100.0);
  const std::string axis = "<axis xyz=\"0 1 0\"/>";
  urdf.replace(urdf.find(axis), axis.size(), "<axis xyz=\"1e-7 0 0\"/>");
  rmodel::Diagnostics d;
  ASSERT_NO_THROW(d = rmodel::check_model_text(urdf, "r.urdf", nullptr, ""));
  const auto* e = find_code(d, "kinematics");
  ASSERT_NE(e, nullptr) << listing(d);
  EXPECT_EQ(e->severity, rmodel::Severity::error);
  EXPECT_EQ(e->where.file, "r.urdf");
  EXPECT_NE(e->message.find("joint 'shoulder'"), std::string::npos) << e->message;
}

TEST(ModelInertial, ANamedPoseWhereTheJointHoldsSilencesTheWarning) {
  // At q = 1.2 the torque is 9.81 cos 1.2 = 3.55 N·m: within 9 N·m, so the joint can hold.
  const std::string hanging = R"({"name": "rest", "group": "arm", "joints": {"shoulder": 1.2}})";
  const auto held = check_weight(9.0, hanging);
  EXPECT_EQ(find_code(held, "cannot-hold-weight"), nullptr) << listing(held);
  // Every named pose too heavy: still a warning, naming the least demanding one.
  const std::string heavy = R"({"name": "low", "group": "arm", "joints": {"shoulder": 0.1}},
                               {"name": "level", "group": "arm", "joints": {"shoulder": 0.0}})";
  const auto d = check_weight(9.0, heavy);
  const auto* w = find_code(d, "cannot-hold-weight");
  ASSERT_NE(w, nullptr) << listing(d);
  EXPECT_NE(w->message.find("arm/low"), std::string::npos) << w->message;
}

TEST(ModelInertial, JointsWithoutAnEffortLimitAreNotJudged) {
  EXPECT_EQ(find_code(check_weight(0.0, ""), "cannot-hold-weight"), nullptr);
}
