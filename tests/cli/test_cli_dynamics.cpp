// rmodel dynamics, run as a user runs it, against hand computations on the sample pony:
// a leg's gravity torque as a pendulum, its inertia about the hip, the weight carried by the
// legs, and the errors of the command line.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
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

// ---- --log and check-log --dynamics: the front left hip swinging, the rest of the pony
// at 0. With the knee and ankle straight the leg is one rigid pendulum about the hip: the hip
// needs I q̈ + g sin(q) Σ m d whatever the speed (no centrifugal torque about its own axis).

constexpr double kLegInertia = 0.0003 + kThigh * kThighCom * kThighCom + 0.0001 + kShin * kShinCom * kShinCom +
                               2e-5 + kHoof * kHoofCom * kHoofCom;
constexpr double kLegMoment = kThigh * kThighCom + kShin * kShinCom + kHoof * kHoofCom;

double hip_torque(double q, double qdd) { return kLegInertia * qdd + kG * std::sin(q) * kLegMoment; }

/// A JSON Lines log of the hip accelerating at `a` from rest: q = a t²/2, velocity a t
/// (written unless `positions_only`), effort `offset` + the pendulum's torque (when given).
std::string hip_log(const std::vector<double>& stamps, double a, bool positions_only,
                    std::optional<double> offset = std::nullopt) {
  std::ostringstream out;
  out.precision(17);
  for (std::size_t k = 0; k < stamps.size(); ++k) {
    const double t = stamps[k];
    const double q = 0.5 * a * t * t;
    out << R"({"t": )" << t << R"(, "name": ["front_left_hip"], "position": [)" << q << "]";
    if (!positions_only) out << R"(, "velocity": [)" << a * t << "]";
    // The first sample starts the differentiator: acceleration 0 there.
    if (offset) out << R"(, "effort": [)" << *offset + hip_torque(q, k == 0 ? 0.0 : a) << "]";
    out << "}\n";
  }
  return out.str();
}

std::size_t slot_of(const json& state, const std::string& joint) {
  const auto& names = state.at("name");
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == joint) return i;
  ADD_FAILURE() << joint << " not in " << names.dump();
  return 0;
}

TEST(CliDynamics, LogGivesThePendulumsTorqueAtEveryPose) {
  const std::vector<double> stamps{0.0, 0.01, 0.025, 0.03, 0.05};
  const double a = 20.0;
  const auto r = run_rmodel({"dynamics", "--sample", "--log", "-"}, hip_log(stamps, a, false));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = test::json_lines(r.out);
  ASSERT_EQ(lines.size(), stamps.size());
  for (std::size_t k = 0; k < stamps.size(); ++k) {
    const json& s = lines[k];
    const std::size_t hip = slot_of(s, "front_left_hip");
    EXPECT_EQ(s.at("name").size(), 20u);
    EXPECT_EQ(s.at("t").get<double>(), stamps[k]);
    const double q = 0.5 * a * stamps[k] * stamps[k];
    EXPECT_NEAR(s.at("position")[hip].get<double>(), q, 1e-15);
    EXPECT_NEAR(s.at("effort")[hip].get<double>(), hip_torque(q, k == 0 ? 0.0 : a), 1e-9) << "pose " << k;
    EXPECT_NEAR(s.at("effort")[slot_of(s, "front_right_hip")].get<double>(), 0.0, 1e-12);
  }
}

TEST(CliDynamics, LogWithDiffTakesVelocitiesFromPositions) {
  // A ramp q = w t given as positions only: velocity w from the second pose, acceleration 0
  // from the third, so the hip needs only the pendulum's gravity torque.
  const double w = 2.0;
  std::ostringstream log;
  log.precision(17);
  const std::vector<double> stamps{0.0, 0.01, 0.02, 0.035, 0.05};
  for (const double t : stamps)
    log << R"({"t": )" << t << R"(, "name": ["front_left_hip"], "position": [)" << w * t << "]}\n";
  for (const std::string diff : {"", "diff"}) {
    std::vector<std::string> args{"dynamics", "--sample", "--log", "-", "-f", "csv"};
    if (!diff.empty()) args.insert(args.end(), {"--diff", diff});
    const auto r = run_rmodel(args, log.str());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // CSV: header t, then position, velocity, effort columns per joint.
    std::istringstream in(r.out);
    std::string header, row;
    std::getline(in, header);
    const auto column = [&](const std::string& name) {
      std::istringstream h(header);
      std::string cell;
      for (std::size_t i = 0; std::getline(h, cell, ','); ++i)
        if (cell == name) return i;
      ADD_FAILURE() << name << " not in " << header;
      return std::size_t{0};
    };
    const std::size_t effort = column("front_left_hip.effort");
    std::vector<double> efforts;
    while (std::getline(in, row)) {
      std::istringstream cells(row);
      std::string cell;
      for (std::size_t i = 0; std::getline(cells, cell, ','); ++i)
        if (i == effort) efforts.push_back(std::stod(cell));
    }
    ASSERT_EQ(efforts.size(), stamps.size());
    for (std::size_t k = 2; k < stamps.size(); ++k)
      EXPECT_NEAR(efforts[k], hip_torque(w * stamps[k], 0.0), 1e-9) << diff << " pose " << k;
  }
}

TEST(CliDynamics, LogFloatingBaseUsesTheSupportStatesAndLogErrors) {
  // Standing on all four legs, then lifting the front left one: its knee goes from carrying
  // its share to holding its own shin and hoof only, as `dynamics --floating-base` says.
  std::string log = R"({"t": 0, "name": ["front_left_knee"], "position": [-0.8]})" "\n";
  log += R"({"t": 0.01, "name": ["front_right", "rear_left", "rear_right"], "support": [1, 1, 1]})" "\n";
  log += R"({"t": 0.02, "name": ["front_left_knee"], "position": [-0.8]})" "\n";
  const auto r = run_rmodel({"dynamics", "--sample", "--floating-base", "--log", "-"}, log);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = test::json_lines(r.out);
  ASSERT_EQ(lines.size(), 3u);
  const auto knee_at = [&](std::vector<std::string> support) {
    std::vector<std::string> args{"dynamics", "--sample", "front_left_knee=-0.8", "--floating-base"};
    if (!support.empty()) {
      std::string items;
      for (const auto& c : support) items += (items.empty() ? "" : ",") + c;
      args.insert(args.end(), {"--support", items});
    }
    return torques(dynamics(std::vector<std::string>(args.begin() + 2, args.end()))).at("front_left_knee").first;
  };
  const std::size_t knee = slot_of(lines[0], "front_left_knee");
  EXPECT_NEAR(lines[0].at("effort")[knee].get<double>(), knee_at({}), 1e-9);
  EXPECT_TRUE(lines[1].contains("support"));
  EXPECT_NEAR(lines[2].at("effort")[knee].get<double>(), knee_at({"front_right", "rear_left", "rear_right"}), 1e-9);
  EXPECT_GT(std::abs(lines[0].at("effort")[knee].get<double>() - lines[2].at("effort")[knee].get<double>()), 0.1);

  const auto refused = run_rmodel({"dynamics", "--sample", "--log", "-", "--mass-matrix"}, log);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("--mass-matrix"), std::string::npos) << refused.err;
  const auto not_diff = run_rmodel({"dynamics", "--sample", "--log", "-", "--diff", "exponential"}, log);
  EXPECT_NE(not_diff.exit_code, 0);
  EXPECT_NE(not_diff.err.find("differentiator"), std::string::npos) << not_diff.err;
  const auto diff_without_log = run_rmodel({"dynamics", "--sample", "--diff", "diff"});
  EXPECT_EQ(diff_without_log.exit_code, 2);
  EXPECT_NE(diff_without_log.err.find("--diff requires --log"), std::string::npos) << diff_without_log.err;
}

TEST(CliCheckLogDynamics, ATorqueAboveTheEffortLimitIsAnError) {
  // 1000 rad/s² from rest within the velocity limit (3 rad/s): about 7.5 N·m, the hip's
  // effort limit is 5 (share/rmodel/sample/pony.urdf).
  const std::vector<double> stamps{0.0, 0.001, 0.002, 0.003};
  const std::string log = hip_log(stamps, 1000.0, false);
  const auto plain = run_rmodel({"check-log", "--sample", "-"}, log);
  EXPECT_EQ(plain.exit_code, 0) << plain.out;
  const auto r = run_rmodel({"check-log", "--sample", "--dynamics", "-", "-f", "json"}, log);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const json doc = json::parse(r.out);
  ASSERT_EQ(doc.at("problems").size(), 3u) << doc.at("problems").dump();
  for (const auto& p : doc.at("problems")) {
    EXPECT_EQ(p.at("code"), "effort-limit");
    EXPECT_EQ(p.at("joint"), "front_left_hip");
    EXPECT_NE(p.at("message").get<std::string>().find("effort limit 5"), std::string::npos) << p.dump();
  }
  EXPECT_EQ(doc.at("problems")[0].at("line"), 2);
  for (const auto& j : doc.at("joints"))
    if (j.at("joint") == "front_left_hip") {
      EXPECT_NEAR(j.at("max_torque").get<double>(), hip_torque(0.5 * 1000.0 * 9e-6, 1000.0), 1e-9);
      EXPECT_EQ(j.at("effort_limit"), 5.0);
      EXPECT_EQ(j.at("effort_samples"), 0);
      EXPECT_TRUE(j.at("effort_rms").is_null());
    }
}

TEST(CliCheckLogDynamics, RecordedEffortsAreComparedWithTheRequiredOnes) {
  // The recorded effort is the pendulum's torque plus 0.1 N·m at every sample.
  const std::vector<double> stamps{0.0, 0.01, 0.02, 0.03};
  const auto r =
      run_rmodel({"check-log", "--sample", "--dynamics", "-", "-f", "json"}, hip_log(stamps, 10.0, false, 0.1));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = json::parse(r.out);
  bool seen = false;
  for (const auto& j : doc.at("joints"))
    if (j.at("joint") == "front_left_hip") {
      seen = true;
      EXPECT_EQ(j.at("effort_samples"), 4);
      EXPECT_NEAR(j.at("effort_rms").get<double>(), 0.1, 1e-9);
      EXPECT_NEAR(j.at("effort_max").get<double>(), 0.1, 1e-9);
    } else {
      EXPECT_EQ(j.at("effort_samples"), 0);
    }
  EXPECT_TRUE(seen);
  const auto refused = run_rmodel({"check-log", "--sample", "--floating-base", "-"}, "");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--floating-base requires --dynamics"), std::string::npos) << refused.err;
}

}  // namespace
}  // namespace rmodel
