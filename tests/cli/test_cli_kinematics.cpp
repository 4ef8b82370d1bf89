// The kinematics commands (fk, jacobian, contacts --pose, info --pose), run as a user runs
// them, checked against hand computations on the sample robot and against finite
// differences of fk's own output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <Eigen/Geometry>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

using nlohmann::json;
using test::fixture;
using test::run_rmodel;

struct Frame {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
};

/// The frames of `fk -f json` output (an array of {link, x, y, z, qx, qy, qz, qw}).
std::map<std::string, Frame> frames_of(const json& rows) {
  std::map<std::string, Frame> out;
  for (const auto& r : rows) {
    Frame f;
    f.p = {r.at("x").get<double>(), r.at("y").get<double>(), r.at("z").get<double>()};
    f.q = Eigen::Quaterniond(r.at("qw").get<double>(), r.at("qx").get<double>(), r.at("qy").get<double>(),
                             r.at("qz").get<double>());
    out[r.at("link").get<std::string>()] = f;
  }
  return out;
}

/// Runs fk with JSON output and returns its frames; fails the test on a non-zero exit.
std::map<std::string, Frame> fk(std::vector<std::string> args) {
  args.insert(args.begin(), "fk");
  args.push_back("-f");
  args.push_back("json");
  const auto r = run_rmodel(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return {};
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc.value("schema", ""), "rmodel.fk");
  return frames_of(doc.at("frames"));
}

Eigen::Matrix3d ry(double angle) { return Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitY()).toRotationMatrix(); }

void expect_near(const Eigen::Vector3d& actual, const Eigen::Vector3d& expected, double tol = 1e-12) {
  EXPECT_TRUE((actual - expected).norm() < tol) << "got " << actual.transpose() << ", expected "
                                                << expected.transpose();
}

TEST(CliFk, ZeroPoseLinkPositionIsTheSumOfOrigins) {
  const auto frames = fk({"--sample"});
  ASSERT_TRUE(frames.count("front_left_shin"));
  expect_near(frames.at("front_left_shin").p, {0.15, 0.08, -0.05 - 0.12});
  EXPECT_NEAR(frames.at("front_left_shin").q.w(), 1.0, 1e-15);
  expect_near(frames.at("front_left_hoof").p, {0.15, 0.08, -0.05 - 0.24});
  expect_near(frames.at("base_link").p, Eigen::Vector3d::Zero());
  // camera_mount: head at (0.23, 0, 0.15), then the fixed origin (0.08, 0, 0.02) rpy (0, 0.2, 0).
  expect_near(frames.at("camera").p, {0.31, 0, 0.17});
  EXPECT_NEAR(frames.at("camera").q.angularDistance(Eigen::Quaterniond(Eigen::AngleAxisd(0.2, Eigen::Vector3d::UnitY()))), 0, 1e-12);
  // Virtual links are hidden unless asked for.
  EXPECT_FALSE(frames.count("front_left_hoof_virtual"));
  EXPECT_TRUE(fk({"--sample", "--with-virtual"}).count("front_left_hoof_virtual"));
}

TEST(CliFk, BentHipRotatesTheLegBelowIt) {
  const double a = 0.5;
  const auto frames = fk({"--sample", "front_left_hip=0.5", "--links", "front_left_thigh,front_left_shin"});
  ASSERT_EQ(frames.size(), 2u);
  const Eigen::Vector3d hip(0.15, 0.08, -0.05);
  expect_near(frames.at("front_left_thigh").p, hip);
  expect_near(frames.at("front_left_shin").p, hip + ry(a) * Eigen::Vector3d(0, 0, -0.12));
  const Eigen::Quaterniond q = frames.at("front_left_shin").q;
  EXPECT_NEAR(q.x(), 0, 1e-12);
  EXPECT_NEAR(q.y(), std::sin(a / 2), 1e-12);
  EXPECT_NEAR(q.z(), 0, 1e-12);
  EXPECT_NEAR(q.w(), std::cos(a / 2), 1e-12);
  // --pose gives the same frames as positionals.
  const auto same = fk({"--sample", "--pose", "front_left_hip=0.5", "--links", "front_left_shin"});
  expect_near(same.at("front_left_shin").p, frames.at("front_left_shin").p);
}

TEST(CliFk, RollPitchYawAndTextTable) {
  const auto r = run_rmodel({"fk", "--sample", "front_left_hip=0.5", "--links", "front_left_thigh", "--orientation",
                             "rpy", "-f", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(header, "link,x,y,z,roll,pitch,yaw");
  double x, y, z, roll, pitch, yaw;
  ASSERT_EQ(std::sscanf(row.c_str(), "front_left_thigh,%lf,%lf,%lf,%lf,%lf,%lf", &x, &y, &z, &roll, &pitch, &yaw), 6)
      << row;
  EXPECT_NEAR(pitch, 0.5, 1e-12);
  EXPECT_NEAR(roll, 0, 1e-12);
  EXPECT_NEAR(yaw, 0, 1e-12);

  const auto t = run_rmodel({"fk", "--sample", "--links", "front_left_shin"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_EQ(t.out,
            "link             x         y         z          qx        qy        qz        qw\n"
            "front_left_shin  0.150000  0.080000  -0.170000  0.000000  0.000000  0.000000  1.000000\n");
}

TEST(CliFk, ChainFramesAreInTheChainsFirstLink) {
  const auto frames = fk({"--sample", "--chain", "front_left", "front_left_hip=0.5"});
  EXPECT_TRUE(frames.count("base_link"));
  EXPECT_TRUE(frames.count("front_left_hoof"));
  EXPECT_FALSE(frames.count("front_left_hoof_virtual"));
  EXPECT_FALSE(frames.count("neck"));
  const auto tree = fk({"--sample", "front_left_hip=0.5"});
  // The sample's chains start at the root link: the same frames as the whole robot.
  expect_near(frames.at("front_left_hoof").p, tree.at("front_left_hoof").p);
  EXPECT_TRUE(fk({"--sample", "--chain", "front_left", "--with-virtual"}).count("front_left_hoof_virtual"));
}

TEST(CliFk, PoseFileTakesTheFirstJointState) {
  const auto dir = test::make_temp_dir("rmodel_fk");
  const auto path = dir / "pose.jsonl";
  {
    std::ofstream out(path);
    out << R"({"name": ["front_left_hip"], "position": [0.5], "t": 1})" << "\n"
        << R"({"name": ["front_left_hip"], "position": [0.9], "t": 2})" << "\n";
  }
  const auto frames = fk({"--sample", "--pose-file", path.string(), "--links", "front_left_shin"});
  expect_near(frames.at("front_left_shin").p,
              Eigen::Vector3d(0.15, 0.08, -0.05) + ry(0.5) * Eigen::Vector3d(0, 0, -0.12));
  std::filesystem::remove_all(dir);
}

TEST(CliFk, LogGivesOneRecordPerJointStateWithAHeldPose) {
  const std::string log =
      R"({"name": ["front_left_hip"], "position": [0.5], "t": 1})" "\n"
      R"({"name": ["front_left_knee"], "position": [-0.3], "t": 2})" "\n"
      R"({"name": ["rear_left_hip"], "support": [1.0], "t": 2.5})" "\n"
      R"({"name": ["front_left_hip", "front_left_knee"], "position": [0, 0], "t": 3})" "\n";
  const auto r = run_rmodel({"fk", "--sample", "--log", "-", "--links", "front_left_hoof", "-f", "jsonl"}, log);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<json> records;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) records.push_back(json::parse(line));
  ASSERT_EQ(records.size(), 3u) << r.out;
  const Eigen::Vector3d hip(0.15, 0.08, -0.05), leg(0, 0, -0.12);
  const Eigen::Vector3d expected[3] = {hip + ry(0.5) * (leg + leg), hip + ry(0.5) * (leg + ry(-0.3) * leg),
                                       hip + leg + leg};
  const double stamps[3] = {1, 2, 3};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(records[i].at("t").get<double>(), stamps[i]);
    const auto frames = frames_of(records[i].at("frames"));
    expect_near(frames.at("front_left_hoof").p, expected[i]);
  }
  EXPECT_NE(r.err.find("rmodel fk: read 4 messages, wrote 3"), std::string::npos) << r.err;

  // CSV: a header and one wide row per joint state.
  const auto c = run_rmodel({"fk", "--sample", "--log", "-", "--links", "front_left_hoof", "-f", "csv"}, log);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  std::istringstream rows(c.out);
  std::string line;
  std::getline(rows, line);
  EXPECT_EQ(line, "t,front_left_hoof.x,front_left_hoof.y,front_left_hoof.z,front_left_hoof.qx,front_left_hoof.qy,"
                  "front_left_hoof.qz,front_left_hoof.qw");
  int count = 0;
  while (std::getline(rows, line)) ++count;
  EXPECT_EQ(count, 3);
}

TEST(CliFk, LogRejectsMalformedMessagesAndWarnsOnUnknownJoints) {
  const std::string log =
      R"({"name": ["front_left_hip", "bogus_joint"], "position": [0.1, 2], "t": 1})" "\n"
      R"({"name": ["front_left_hip"], "position": [0.1, 0.2], "t": 2})" "\n";
  const auto r = run_rmodel({"fk", "--sample", "--log", "-", "-f", "jsonl"}, log);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bogus_joint"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rejected"), std::string::npos) << r.err;
  std::istringstream in(r.out);
  int count = 0;
  for (std::string line; std::getline(in, line);) ++count;
  EXPECT_EQ(count, 1);
}

TEST(CliFk, Errors) {
  auto r = run_rmodel({"fk", "--sample", "bogus_joint=1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bogus_joint"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");

  r = run_rmodel({"fk", "--sample", "front_left_hip=abc"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("front_left_hip=abc"), std::string::npos) << r.err;

  r = run_rmodel({"fk", "--sample", "--chain", "no_such_chain"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no_such_chain"), std::string::npos) << r.err;

  r = run_rmodel({"fk", "--sample", "--links", "no_such_link"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no_such_link"), std::string::npos) << r.err;

  r = run_rmodel({"fk", "--sample", "--orientation", "euler"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(CliContacts, PosedPointsAreTheEndLinkFramePlusThePoint) {
  const std::string pose = "front_left_hip=0.4,front_left_knee=-0.7,front_left_ankle=0.2,front_left_hoof_yaw=0.3";
  const auto r = run_rmodel({"contacts", "--sample", "--pose", pose, "--chain", "front_left", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json posed = json::parse(r.out).at("points");
  // The contact's points in the link frame, and that link's frame at the pose.
  const auto c = run_rmodel({"contacts", "--sample", "-f", "json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  json points;
  const json contacts = json::parse(c.out);
  for (const auto& contact : contacts.at("contacts"))
    if (contact.at("name") == "hoof_flat") points = contact.at("points");
  ASSERT_FALSE(points.empty());
  const auto frames = fk({"--sample", "--with-virtual", "--pose", pose, "--links", "front_left_hoof_virtual"});
  const Frame& end = frames.at("front_left_hoof_virtual");
  ASSERT_EQ(posed.size(), points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Eigen::Vector3d local(points[i][0].get<double>(), points[i][1].get<double>(), points[i][2].get<double>());
    const Eigen::Vector3d expected = end.p + end.q * local;
    const auto& row = posed[i];
    EXPECT_EQ(row.at("chain"), "front_left");
    EXPECT_EQ(row.at("contact"), "hoof_flat");
    EXPECT_EQ(row.at("point"), i);
    expect_near({row.at("x").get<double>(), row.at("y").get<double>(), row.at("z").get<double>()}, expected);
  }
}

TEST(CliContacts, PoseCoversEveryChainWithADefaultContact) {
  const auto r = run_rmodel({"contacts", "--sample", "--pose", "", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> chains;
  const json posed = json::parse(r.out);
  for (const auto& row : posed.at("points")) chains.insert(row.at("chain").get<std::string>());
  EXPECT_EQ(chains, (std::set<std::string>{"front_left", "front_right", "rear_left", "rear_right"}));

  auto e = run_rmodel({"contacts", "--sample", "--pose", "front_left_hip=0", "--chain", "no_such_chain"});
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_NE(e.err.find("no_such_chain"), std::string::npos) << e.err;
  e = run_rmodel({"contacts", "--sample", "--pose", "front_left_hip=0", "--chain", "head"});
  EXPECT_NE(e.exit_code, 0);  // no default contact
}

/// Jacobian columns by central differences of fk (position of the point, orientation).
void check_jacobian_against_fk(const std::vector<std::string>& model_args, const std::string& chain,
                               const std::string& pose_text, const Eigen::Vector3d& point) {
  std::vector<std::string> args{"jacobian", "--chain", chain, "--with-virtual", "--pose", pose_text, "-f", "json",
                                "--point", std::to_string(point.x()) + "," + std::to_string(point.y()) + "," +
                                               std::to_string(point.z())};
  args.insert(args.end(), model_args.begin(), model_args.end());
  const auto r = run_rmodel(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  const auto columns = doc.at("columns").get<std::vector<std::string>>();
  const std::string link = doc.at("link").get<std::string>();
  ASSERT_FALSE(columns.empty());
  ASSERT_EQ(doc.at("rows").size(), 6u);
  ASSERT_EQ(doc.at("data").size(), 6u);

  // The pose as joint=value items, so that one joint can be moved.
  std::map<std::string, double> pose;
  {
    std::string text = pose_text;
    for (char& ch : text) if (ch == ',') ch = ' ';
    std::istringstream in(text);
    for (std::string item; in >> item;) pose[item.substr(0, item.find('='))] = std::stod(item.substr(item.find('=') + 1));
  }
  auto frame_at = [&](const std::map<std::string, double>& p) {
    std::string text;
    for (const auto& [joint, value] : p) {
      std::ostringstream v;
      v.precision(17);
      v << value;
      text += (text.empty() ? "" : ",") + joint + "=" + v.str();
    }
    std::vector<std::string> fk_args{"--chain", chain, "--with-virtual", "--links", link, "--pose", text};
    fk_args.insert(fk_args.end(), model_args.begin(), model_args.end());
    return fk(fk_args).at(link);
  };
  const double h = 1e-6;
  for (std::size_t k = 0; k < columns.size(); ++k) {
    auto plus = pose, minus = pose;
    plus[columns[k]] += h;
    minus[columns[k]] -= h;
    const Frame fp = frame_at(plus), fm = frame_at(minus);
    const Eigen::Vector3d v = ((fp.p + fp.q * point) - (fm.p + fm.q * point)) / (2 * h);
    const Eigen::AngleAxisd d(fp.q * fm.q.conjugate());
    const Eigen::Vector3d w = d.axis() * d.angle() / (2 * h);
    for (int row = 0; row < 3; ++row) {
      EXPECT_NEAR(doc["data"][row][k].get<double>(), v[row], 1e-6) << columns[k] << " row " << row;
      EXPECT_NEAR(doc["data"][row + 3][k].get<double>(), w[row], 1e-6) << columns[k] << " row " << row + 3;
    }
  }
}

TEST(CliJacobian, SampleLegMatchesFiniteDifferencesOfFk) {
  check_jacobian_against_fk({"--sample"}, "front_left",
                            "front_left_hip=0.3,front_left_knee=-0.8,front_left_ankle=0.4,front_left_hoof_yaw=0.7",
                            {0.01, -0.02, -0.005});
}

TEST(CliJacobian, FixtureRobotMatchesFiniteDifferencesOfFk) {
  RMODEL_REQUIRE_FIXTURES();
  const std::vector<std::string> model{"--urdf", fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(),
                                       "--semantics", fixture("sweetie_bot_proto2/kinematic_chains.cpf").string()};
  // The chain's joints, to build a pose that moves every one of them.
  std::vector<std::string> args{"jacobian", "--chain", "leg1", "--with-virtual", "-f", "json"};
  args.insert(args.end(), model.begin(), model.end());
  const auto r = run_rmodel(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string pose;
  double value = 0.2;
  const json doc = json::parse(r.out);  // kept alive: a range-for over a temporary's member dangles
  for (const auto& joint : doc.at("columns")) {
    pose += (pose.empty() ? "" : ",") + joint.get<std::string>() + "=" + std::to_string(value);
    value = -value * 1.3;
  }
  check_jacobian_against_fk(model, "leg1", pose, {0.0, 0.01, -0.02});
}

TEST(CliJacobian, TextCsvAndErrors) {
  auto r = run_rmodel({"jacobian", "--sample", "--chain", "neck"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // neck_pitch about y at (0.2, 0, 0.05); the neck's origin is on the axis: only wy = 1.
  EXPECT_EQ(r.out,
            "# chain neck, link neck, point (0 0 0) m, frame base_link\n"
            "    neck_pitch\n"
            "vx  0.000000\n"
            "vy  0.000000\n"
            "vz  0.000000\n"
            "wx  0.000000\n"
            "wy  1.000000\n"
            "wz  0.000000\n");
  r = run_rmodel({"jacobian", "--sample", "--chain", "head", "--link", "neck", "-f", "csv", "--point", "0,0,0.1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // A point 0.1 above the neck joint: v = w × r = (0, 1, 0) × (0, 0, 0.1) = (0.1, 0, 0).
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "row,neck_pitch,head_yaw");
  double vx = 0, vx_head = 1;
  const auto vx_row = r.out.find("\nvx,");
  ASSERT_NE(vx_row, std::string::npos) << r.out;
  ASSERT_EQ(std::sscanf(r.out.c_str() + vx_row, "\nvx,%lf,%lf", &vx, &vx_head), 2) << r.out;
  EXPECT_NEAR(vx, 0.1, 1e-12);
  EXPECT_EQ(vx_head, 0.0);

  r = run_rmodel({"jacobian", "--sample", "--chain", "no_such_chain"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no_such_chain"), std::string::npos) << r.err;
  r = run_rmodel({"jacobian", "--sample", "--chain", "neck", "--link", "front_left_hoof"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("front_left_hoof"), std::string::npos) << r.err;
  r = run_rmodel({"jacobian", "--sample", "--chain", "neck", "bogus_joint=1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bogus_joint"), std::string::npos) << r.err;
  r = run_rmodel({"jacobian", "--sample"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_rmodel({"jacobian", "--sample", "--chain", "neck", "--point", "1,2"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(CliInfo, PoseAddsTheCentreOfMass) {
  const auto r = run_rmodel({"info", "--sample", "-f", "json", "--pose", ""});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  // Hand computation from share/rmodel/sample/pony.urdf at the zero pose (base frame).
  struct Mass {
    double m;
    Eigen::Vector3d c;
  };
  std::vector<Mass> masses{{2.0, {0, 0, 0}}};
  for (double x : {0.15, -0.15})
    for (double y : {0.08, -0.08}) {
      masses.push_back({0.2, {x, y, -0.05 - 0.06}});
      masses.push_back({0.1, {x, y, -0.05 - 0.12 - 0.06}});
      masses.push_back({0.05, {x, y, -0.05 - 0.24 - 0.01}});
    }
  masses.push_back({0.15, {0.2 + 0.02, 0, 0.05 + 0.05}});             // neck
  masses.push_back({0.3, {0.2 + 0.03 + 0.05, 0, 0.05 + 0.1}});        // head
  masses.push_back({0.02, {0.23 + 0.06 + 0.03, 0, 0.15 - 0.03 - 0.01}});  // jaw
  masses.push_back({0.05, Eigen::Vector3d(-0.2, 0, 0.04) + ry(0.5) * Eigen::Vector3d(-0.05, 0, 0)});  // tail
  double total = 0;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  for (const auto& m : masses) {
    total += m.m;
    moment += m.m * m.c;
  }
  EXPECT_NEAR(doc.at("total_mass").get<double>(), total, 1e-12);
  const auto& com = doc.at("center_of_mass");
  ASSERT_EQ(com.size(), 3u);
  expect_near({com[0].get<double>(), com[1].get<double>(), com[2].get<double>()}, moment / total);

  // Raising the neck moves the centre of mass; without --pose there is no key.
  const auto bent = json::parse(run_rmodel({"info", "--sample", "-f", "json", "--pose", "neck_pitch=-0.5"}).out);
  EXPECT_GT((Eigen::Vector3d(bent["center_of_mass"][0].get<double>(), bent["center_of_mass"][1].get<double>(),
                             bent["center_of_mass"][2].get<double>()) -
             moment / total).norm(), 1e-4);
  EXPECT_FALSE(json::parse(run_rmodel({"info", "--sample", "-f", "json"}).out).contains("center_of_mass"));

  const auto text = run_rmodel({"info", "--sample", "--pose", "neck_pitch=0"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("center of mass"), std::string::npos) << text.out;
  const auto bad = run_rmodel({"info", "--sample", "--pose", "bogus_joint=0"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("bogus_joint"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace rmodel
