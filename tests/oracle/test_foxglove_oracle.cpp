// The robot moving in Foxglove (issue 25, point 4): MCAP output with --tf read by Foxglove's
// own libraries (tests/oracle/foxglove/decode.mjs: @mcap/core's stream and indexed readers,
// @foxglove/rosmsg, @foxglove/rosmsg2-serialization over @foxglove/cdr), installed into the
// build tree at test time (the ctest fixture foxglove_npm); skips with a message when node or
// the packages are absent. Every transform on /tf and /tf_static is compared with `rmodel fk`
// at the same pose (fk --log over the joint states of the same file: T = F_parent⁻¹ · F_child
// of fk's link frames) to 1e-12; the frames are the URDF joints' parent and child links, the
// stamps the joint states', /tf_static the fixed joints once, /robot_description the URDF, and
// the semantics after it (an SRDF on /robot_description_semantic, rmodel JSON on
// /rmodel/semantics).
// Robots: the Sweetie Bot with a real recording (aggregate: full poses), and the sample
// robot with its example log through a filter (partial messages: the held pose).
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rmodel/model/model.hpp"
#include "rmodel/model/semantics.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path foxglove_modules() { return fs::path(RMODEL_NPM_FOXGLOVE_DIR) / "node_modules"; }

bool have_foxglove() {
  return std::system("node --version > /dev/null 2>&1") == 0 && fs::exists(foxglove_modules() / "@mcap/core") &&
         fs::exists(foxglove_modules() / "@foxglove/rosmsg2-serialization");
}

#define REQUIRE_FOXGLOVE()                                                                                   \
  do {                                                                                                       \
    if (!have_foxglove())                                                                                    \
      GTEST_SKIP() << "node or Foxglove's npm packages (@mcap/core, @foxglove/rosmsg2-serialization) not "   \
                      "found in "                                                                            \
                   << foxglove_modules()                                                                     \
                   << " (tests/oracle/npm_install.sh installs them; needs node, npm and the npm "       \
                      "registry): skipping the decode of --tf output with Foxglove's libraries";            \
  } while (0)

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// decode.mjs's lines, parsed; fails the test when node fails.
std::vector<json> foxglove_decode(const fs::path& mcap) {
  const std::string command = "NODE_PATH=" + shell_quote(foxglove_modules().string()) + " node " +
                              shell_quote((test::source_dir() / "tests/oracle/foxglove/decode.mjs").string()) + " " +
                              shell_quote(mcap.string()) + " 2>&1";
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {};
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int status = pclose(pipe);
  EXPECT_EQ(status, 0) << out;
  if (status != 0) return {};
  return test::json_lines(out);
}

Eigen::Isometry3d frame_of(const json& translation, const json& rotation) {
  Eigen::Isometry3d x = Eigen::Isometry3d::Identity();
  x.translation() = Eigen::Vector3d(translation["x"].get<double>(), translation["y"].get<double>(),
                                    translation["z"].get<double>());
  x.linear() = Eigen::Quaterniond(rotation["w"].get<double>(), rotation["x"].get<double>(),
                                  rotation["y"].get<double>(), rotation["z"].get<double>())
                   .toRotationMatrix();
  return x;
}

/// fk's link frames of one record: link → frame in the base.
std::map<std::string, Eigen::Isometry3d> fk_frames(const json& record) {
  std::map<std::string, Eigen::Isometry3d> frames;
  for (const auto& f : record["frames"]) {
    Eigen::Isometry3d x = Eigen::Isometry3d::Identity();
    x.translation() = Eigen::Vector3d(f["x"].get<double>(), f["y"].get<double>(), f["z"].get<double>());
    x.linear() = Eigen::Quaterniond(f["qw"].get<double>(), f["qx"].get<double>(), f["qy"].get<double>(),
                                    f["qz"].get<double>())
                     .toRotationMatrix();
    frames[f["link"].get<std::string>()] = x;
  }
  return frames;
}

/// Largest difference of two transforms: translation (m) and rotation-matrix entries.
double difference(const Eigen::Isometry3d& a, const Eigen::Isometry3d& b) {
  return std::max((a.translation() - b.translation()).cwiseAbs().maxCoeff(),
                  (a.linear() - b.linear()).cwiseAbs().maxCoeff());
}

/// The model's joints: child link → (parent link, fixed?).
std::map<std::string, std::pair<std::string, bool>> urdf_joints(const Model& model) {
  std::map<std::string, std::pair<std::string, bool>> out;
  for (const auto& j : model.urdf_joints()) out[j.child_link] = {j.parent_link, j.type == JointType::fixed};
  return out;
}

/// The semantics a --tf file should carry: the topic, and a check of the text found there.
struct ExpectedSemantics {
  std::string topic;  ///< empty: none
  std::function<void(const std::string&)> check = {};
};

/// Writes `args` (an rmodel command writing `out` with --tf) and checks what Foxglove decodes.
void check_replay(const std::vector<std::string>& args, const std::vector<std::string>& model_args,
                  const fs::path& out, const fs::path& urdf, const ExpectedSemantics& semantics = {}) {
  const auto run = test::run_rmodel(args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<json> decoded = foxglove_decode(out);
  ASSERT_FALSE(decoded.empty());

  // fk at the pose of every joint state of the file (fk --log holds the pose as --tf does).
  std::vector<std::string> fk = {"fk", "--log", out.string(), "-f", "jsonl", "--with-virtual"};
  fk.insert(fk.end(), model_args.begin(), model_args.end());
  const auto fk_run = test::run_rmodel(fk);
  ASSERT_EQ(fk_run.exit_code, 0) << fk_run.err;
  const std::vector<json> poses = test::json_lines(fk_run.out);

  const Model model = Model::load({urdf.string(), {}, std::nullopt});
  const auto joints = urdf_joints(model);
  std::size_t movable = 0, fixed = 0;
  for (const auto& [child, joint] : joints) (joint.second ? fixed : movable) += 1;

  std::map<std::string, std::size_t> seen;  // per topic
  std::size_t pose = 0;                     // joint states so far
  json last_stamp;
  double worst = 0;
  for (const json& d : decoded) {
    if (d["kind"] == "summary") {
      // The summary's counts are what the stream holds, and the indexes find every message.
      for (const auto& [topic, n] : seen) {
        EXPECT_EQ(d["counts"][topic], n) << topic;
        EXPECT_EQ(d["indexed"][topic], n) << topic;
      }
      continue;
    }
    const std::string topic = d["topic"];
    ++seen[topic];
    const json& m = d["message"];
    if (topic == "/joint_states") {
      last_stamp = m["header"]["stamp"];
      ++pose;
      continue;
    }
    if (topic == "/robot_description") {
      EXPECT_EQ(d["schema"], "std_msgs/msg/String");
      EXPECT_EQ(m["data"].get<std::string>(), test::read_file(urdf));
      EXPECT_EQ(pose, 1U) << "the model comes with the first joint state";
      continue;
    }
    if (topic == "/robot_description_semantic" || topic == "/rmodel/semantics") {
      EXPECT_EQ(topic, semantics.topic);
      EXPECT_EQ(d["schema"], "std_msgs/msg/String");
      EXPECT_EQ(seen["/robot_description"], 1U) << "the semantics come after the URDF";
      if (semantics.check) semantics.check(m["data"].get<std::string>());
      continue;
    }
    ASSERT_TRUE(topic == "/tf" || topic == "/tf_static") << topic;
    EXPECT_EQ(d["schema"], "tf2_msgs/msg/TFMessage");
    ASSERT_GE(pose, 1U) << "transforms before any joint state";
    ASSERT_LE(pose, poses.size());
    const auto frames = fk_frames(poses[pose - 1]);
    std::set<std::string> children;
    for (const json& t : m["transforms"]) {
      const std::string parent = t["header"]["frame_id"], child = t["child_frame_id"];
      children.insert(child);
      ASSERT_EQ(joints.count(child), 1U) << child;
      EXPECT_EQ(joints.at(child).first, parent) << child;
      EXPECT_EQ(joints.at(child).second, topic == "/tf_static") << child;
      EXPECT_EQ(t["header"]["stamp"], last_stamp) << child;
      ASSERT_TRUE(frames.count(parent) == 1 && frames.count(child) == 1) << parent << " → " << child;
      const Eigen::Isometry3d want = frames.at(parent).inverse() * frames.at(child);
      const double diff = difference(frame_of(t["transform"]["translation"], t["transform"]["rotation"]), want);
      worst = std::max(worst, diff);
      EXPECT_LE(diff, 1e-12) << topic << " " << parent << " → " << child << " at joint state " << pose;
    }
    EXPECT_EQ(children.size(), topic == "/tf" ? movable : fixed);
  }
  EXPECT_EQ(pose, poses.size());
  EXPECT_EQ(seen["/tf"], pose) << "one /tf per joint state";
  EXPECT_EQ(seen["/tf_static"], fixed > 0 ? 1U : 0U);
  EXPECT_EQ(seen["/robot_description"], 1U);
  if (!semantics.topic.empty()) {
    EXPECT_EQ(seen[semantics.topic], 1U) << semantics.topic;
  }
  EXPECT_GE(pose, 5U);
  std::printf("%zu joint states, %zu movable and %zu fixed joints: largest difference from fk %.3g\n", pose,
              movable, fixed, worst);
}

struct TempDir {
  fs::path dir = test::make_temp_dir("rmodel-foxglove-");
  ~TempDir() { fs::remove_all(dir); }
};

TEST(FoxgloveDecode, SweetieBotRecordingAggregatedWithTf) {
  REQUIRE_FOXGLOVE();
  RMODEL_REQUIRE_FIXTURES();
  const TempDir tmp;
  const fs::path urdf = test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf");
  const fs::path out = tmp.dir / "greeting_tf.mcap";
  // Uncompressed chunks (@mcap/core decompresses only through handlers the app supplies; the
  // compressions are tested elsewhere), small enough that the messages span several chunks.
  check_replay({"aggregate", test::fixture("bags/greeting.zstd.mcap").string(), "-u", urdf.string(), "--tf",
                "--mcap-compression", "none", "--mcap-chunk-size", "65536", "-o", out.string()},
               {"-u", urdf.string()}, out, urdf);
}

TEST(FoxgloveDecode, SampleRobotFilteredLogWithTf) {
  REQUIRE_FOXGLOVE();
  const TempDir tmp;
  const fs::path out = tmp.dir / "pony_tf.mcap";
  // The sample's semantics (rmodel JSON) on /rmodel/semantics, read back to the same content.
  const Semantics given = load_semantics(test::sample("pony.json").string());
  check_replay({"filter", "exponential", "-p", "tau=0.05", (test::source_dir() / "share/rmodel/examples/swing.jsonl").string(),
                "--sample", "--tf", "--mcap-compression", "none", "-o", out.string()},
               {"--sample"}, out, test::sample("pony.urdf"),
               {"/rmodel/semantics", [&](const std::string& text) {
                  EXPECT_TRUE(parse_semantics_json(text, "decoded").same_content(given));
                }});
}

TEST(FoxgloveDecode, SweetieBotWithItsSrdfCarriesTheSrdfAsMoveItPublishesIt) {
  REQUIRE_FOXGLOVE();
  RMODEL_REQUIRE_FIXTURES();
  const TempDir tmp;
  const fs::path urdf = test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf");
  const fs::path srdf = test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.srdf");
  const fs::path out = tmp.dir / "hoof_wave_srdf.mcap";
  check_replay({"aggregate", test::fixture("bags/hoof_wave.mcap").string(), "-u", urdf.string(), "-s", srdf.string(),
                "--tf", "--mcap-compression", "none", "-o", out.string()},
               {"-u", urdf.string(), "-s", srdf.string()}, out, urdf,
               {"/robot_description_semantic",
                [&](const std::string& text) { EXPECT_EQ(text, test::read_file(srdf)); }});
}

TEST(FoxgloveDecode, AWindowOfPartialMessagesWithTfIsTheWholeReplayCut) {
  // A time window starts from the state the log had reached (issue 40): filter passes the
  // drivers' partial messages on, so its /tf holds the pose joint by joint; the window's
  // first /tf carries the other drivers' joints as the whole replay has them. The URDF and
  // the fixed transforms go out once, at the window's first joint state.
  REQUIRE_FOXGLOVE();
  RMODEL_REQUIRE_FIXTURES();
  const TempDir tmp;
  const std::vector<std::string> args = {
      "filter", "exponential", "-p", "tau=0.05", test::fixture("bags/greeting.zstd.mcap").string(), "-u",
      test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(), "--tf", "--mcap-compression", "none"};
  const auto decoded = [&](const std::string& name, const std::vector<std::string>& window) {
    std::vector<std::string> a = args;
    a.insert(a.end(), window.begin(), window.end());
    a.insert(a.end(), {"-o", (tmp.dir / name).string()});
    const auto run = test::run_rmodel(a);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    std::vector<json> messages;
    for (json& d : foxglove_decode(tmp.dir / name))
      if (d["kind"] != "summary") messages.push_back(std::move(d));
    return messages;
  };
  const std::vector<json> whole = decoded("whole.mcap", {});
  const std::vector<json> window = decoded("window.mcap", {"--start", "1", "--end", "1.5"});
  const auto ns = [](const json& stamp) {
    return stamp["sec"].get<std::int64_t>() * 1'000'000'000 + stamp["nanosec"].get<std::int64_t>();
  };
  const std::int64_t lo = std::int64_t{1'700'000'001} * 1'000'000'000, hi = lo + 500'000'000;
  // /joint_states and /tf: the whole replay's, stamped in the window, in order.
  std::vector<json> want, got, latched;
  for (const json& d : whole) {
    if (d["topic"] != "/joint_states" && d["topic"] != "/tf") continue;
    const json& stamp = d["topic"] == "/tf" ? d["message"]["transforms"][0]["header"]["stamp"]
                                            : d["message"]["header"]["stamp"];
    if (ns(stamp) >= lo && ns(stamp) < hi) want.push_back(d["message"]);
  }
  for (const json& d : window) {
    if (d["topic"] == "/joint_states" || d["topic"] == "/tf") got.push_back(d["message"]);
    else latched.push_back(d);
  }
  ASSERT_GT(want.size(), 100U);
  EXPECT_EQ(got.size(), want.size());
  EXPECT_TRUE(got == want) << "the window's /joint_states and /tf differ from the whole replay's";
  ASSERT_EQ(latched.size(), 2U);
  for (const json& d : latched) EXPECT_TRUE(d["topic"] == "/robot_description" || d["topic"] == "/tf_static");
  EXPECT_EQ(window[0]["topic"], "/joint_states");
  EXPECT_EQ(ns(window[0]["message"]["header"]["stamp"]), lo);
}

}  // namespace
}  // namespace rmodel
