// rmodel dynamics, run as a user runs it, against hand computations on the sample pony:
// a leg's gravity torque as a pendulum, its inertia about the hip, the weight carried by the
// legs, and the errors of the command line.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

using nlohmann::json;
using test::run_rmodel;

constexpr double kG = 9.81;
// The pony's front left leg (share/rmodel/sample/pony.urdf): masses and the distances of their
// centres below the hip along the straight leg.
constexpr double kThigh = 0.2, kShin = 0.1, kHoof = 0.05;
constexpr double kThighCom = 0.06, kShinCom = 0.18, kHoofCom = 0.25;
constexpr double kPonyMass = 3.92;

json dynamics(std::vector<std::string> args) {
  args.insert(args.begin(), {"dynamics", "--sample"});
  args.insert(args.end(), {"-f", "json"});
  const auto r = run_rmodel(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  if (r.exit_code != 0) return json::object();
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc.value("schema", ""), "rmodel.dynamics");
  return doc;
}

std::map<std::string, std::pair<double, double>> torques(const json& doc) {
  std::map<std::string, std::pair<double, double>> out;
  for (const auto& j : doc.at("joints"))
    out[j.at("joint").get<std::string>()] = {j.at("gravity").get<double>(), j.at("total").get<double>()};
  return out;
}

TEST(CliDynamics, ALegHeldOutIsAPendulum) {
  // Hip at 0.5 rad, knee and ankle straight: the hip holds m g d sin q.
  const double q = 0.5;
  const json doc = dynamics({"front_left_hip=0.5"});
  ASSERT_TRUE(doc.contains("joints"));
  EXPECT_EQ(doc.at("root"), "fixed");
  EXPECT_EQ(doc.at("frame"), "base_link");
  const auto t = torques(doc);
  ASSERT_EQ(t.size(), 20u);
  const double hip = kG * std::sin(q) * (kThigh * kThighCom + kShin * kShinCom + kHoof * kHoofCom);
  EXPECT_NEAR(t.at("front_left_hip").first, hip, 1e-12);
  EXPECT_NEAR(t.at("front_left_hip").second, hip, 1e-12);
  const double knee = kG * std::sin(q) * (kShin * (kShinCom - 0.12) + kHoof * (kHoofCom - 0.12));
  EXPECT_NEAR(t.at("front_left_knee").first, knee, 1e-12);
  EXPECT_NEAR(t.at("front_right_hip").first, 0.0, 1e-12);  // hanging straight down
}

TEST(CliDynamics, AccelerationAndTheMassMatrix) {
  // At the zero pose the straight leg's inertia about the hip is Σ (I + m d²); accelerating
  // the hip needs that times q̈, and M's hip entry is that inertia.
  const double inertia = 0.0003 + kThigh * kThighCom * kThighCom + 0.0001 + kShin * kShinCom * kShinCom + 2e-5 +
                         kHoof * kHoofCom * kHoofCom;
  const json doc = dynamics({"--acceleration", "front_left_hip=2", "--velocity", "front_left_hip=3", "--mass-matrix"});
  const auto t = torques(doc);
  EXPECT_NEAR(t.at("front_left_hip").second, 2.0 * inertia, 1e-12);
  EXPECT_NEAR(t.at("front_left_hip").first, 0.0, 1e-12);
  const auto names = doc.at("joints");
  std::size_t hip = 0;
  while (names.at(hip).at("joint") != "front_left_hip") ++hip;
  const auto& M = doc.at("mass_matrix");
  ASSERT_EQ(M.size(), 20u);
  EXPECT_NEAR(M.at(hip).at(hip).get<double>(), inertia, 1e-12);
  for (std::size_t r = 0; r < M.size(); ++r)
    for (std::size_t c = 0; c < M.size(); ++c) EXPECT_EQ(M.at(r).at(c), M.at(c).at(r));
}

TEST(CliDynamics, FloatingBaseTheLegsCarryTheWeight) {
  const json doc = dynamics({"--floating-base", "--pose",
                             "front_left_knee=-0.6,front_right_knee=-0.6,rear_left_knee=-0.6,rear_right_knee=-0.6"});
  EXPECT_EQ(doc.at("root"), "floating");
  ASSERT_EQ(doc.at("supports").size(), 4u);
  double fz = 0.0, fx = 0.0;
  for (const auto& cf : doc.at("contact_forces")) {
    fx += cf.at("force").at(0).get<double>();
    fz += cf.at("force").at(2).get<double>();
  }
  EXPECT_NEAR(fz, kPonyMass * kG, 1e-9);
  EXPECT_NEAR(fx, 0.0, 1e-9);
  for (const char* part : {"force", "moment"})
    for (const auto& v : doc.at("unbalanced").at(part)) EXPECT_NEAR(v.get<double>(), 0.0, 1e-9);
  // Bent knees carry the body: far more than the leg alone.
  const auto t = torques(doc);
  EXPECT_GT(std::abs(t.at("front_left_knee").first), 0.2);
}

TEST(CliDynamics, SupportItemsChooseTheChainsAndContacts) {
  const json doc = dynamics({"--floating-base", "--support", "front_left=1,front_right=0.5:hoof_point"});
  ASSERT_EQ(doc.at("supports").size(), 2u);
  EXPECT_EQ(doc.at("supports").at(1), json({{"chain", "front_right"}, {"support", 0.5}, {"contact", "hoof_point"}}));
  std::size_t points = 0;
  for (const auto& cf : doc.at("contact_forces")) {
    EXPECT_TRUE(cf.at("chain") == "front_left" || cf.at("chain") == "front_right");
    ++points;
  }
  EXPECT_EQ(points, 3u);  // hoof_flat: 2 points, hoof_point: 1
  // Three points off one line balance the body (a point may pull: least squares).
  for (const auto& v : doc.at("unbalanced").at("moment")) EXPECT_NEAR(v.get<double>(), 0.0, 1e-9);
  // One flat hoof cannot hold the body's moment about the line of its two points (along x).
  const json one = dynamics({"--floating-base", "--support", "front_left"});
  const auto& left = one.at("unbalanced").at("moment");
  EXPECT_GT(std::abs(left.at(0).get<double>()), 0.1);
  EXPECT_NEAR(one.at("unbalanced").at("force").at(2).get<double>(), 0.0, 1e-9);
}

TEST(CliDynamics, TextAndCsv) {
  const auto text = run_rmodel({"dynamics", "--sample", "front_left_hip=0.5", "--floating-base"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("# torques in N·m (N for prismatic joints); frame base_link, gravity (0 0 -9.81) m/s²"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("# root floating at rest, carried by front_left (hoof_flat, 1), front_right (hoof_flat, 1)"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("# unbalanced: force (0.000000 0.000000 0.000000) N"), std::string::npos) << text.out;
  const auto csv = run_rmodel({"dynamics", "--sample", "--mass-matrix", "-f", "csv", "--gravity", "0,0,-1"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find(',', 20)), "joint,gravity,total,M.front_left_hip");
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 21);
}

TEST(CliDynamics, Errors) {
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"--support", "front_left"}, 2, "--support requires --floating-base"},
      {{"--floating-base", "--support", "front_lef"}, 1, "front_lef"},
      {{"--floating-base", "--support", "front_left=2"}, 2, "[0, 1]"},
      {{"--floating-base", "--support", "front_left=x"}, 2, "not a number"},
      {{"--floating-base", "--support", "front_left:hoof_round"}, 1, "hoof_round"},
      {{"--floating-base", "--support", "head"}, 2, "no default contact"},
      {{"--floating-base", "--support", "front_left=0"}, 1, "no chain supports"},
      {{"--velocity", "hip=abc"}, 2, "hip=abc"},
      {{"--acceleration", "wing=1"}, 1, "wing"},
      {{"--gravity", "0,0"}, 2, "gravity"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"dynamics", "--sample"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_rmodel(args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args.back() << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace
}  // namespace rmodel
