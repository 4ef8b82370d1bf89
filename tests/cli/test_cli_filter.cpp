// rmodel filter as a user runs it: a real trajectory filtered and checked against the
// exponential recursion computed here from the input, the catalogue, step responses,
// plots (when gnuplot is installed), bad input, and aggregate --filter.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;
using test::json_lines;
using test::run_rmodel;

bool have_gnuplot() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (::access((dir + "/gnuplot").c_str(), X_OK) == 0) return true;
  return false;
}

TEST(CliFilter, HoofWaveExponentialMatchesRecursion) {
  RMODEL_REQUIRE_FIXTURES();
  const auto path = fixture("sweetie_bot_proto2/joint_trajectories/hoof_wave.json");
  const double T = 0.2, tau = 0.5;
  const auto r = run_rmodel({"filter", "exponential", "--param", "T=0.2", "--param", "tau=0.5", path.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto goal = nlohmann::json::parse(read_file(path));
  const auto& names = goal["trajectory"]["joint_names"];
  const auto& points = goal["trajectory"]["points"];
  std::vector<nlohmann::json> states;
  for (const auto& m : json_lines(r.out))
    if (m.contains("position")) states.push_back(m);
  ASSERT_EQ(states.size(), points.size());
  std::map<std::string, double> y;  // y[k] = y[k-1] + T/tau*(u[k] - y[k-1]), y[0] = u[0]
  for (std::size_t k = 0; k < points.size(); ++k) {
    const auto& out = states[k];
    for (std::size_t j = 0; j < names.size(); ++j) {
      const std::string name = names[j];
      const double u = points[k]["positions"][j];
      const auto it = y.find(name);
      const double expected = it == y.end() ? (y[name] = u) : (it->second += T / tau * (u - it->second));
      const auto pos = std::find(out["name"].begin(), out["name"].end(), name);
      ASSERT_NE(pos, out["name"].end()) << name;
      const auto idx = static_cast<std::size_t>(pos - out["name"].begin());
      EXPECT_NEAR(out["position"][idx].get<double>(), expected, 1e-12) << name << " k=" << k;
      // Velocities (none in this trajectory) pass through unchanged.
      if (!points[k]["velocities"].empty()) {
        EXPECT_EQ(out["velocity"][idx], points[k]["velocities"][j]);
      }
    }
  }
  EXPECT_NE(r.err.find("rmodel filter: read"), std::string::npos) << r.err;
}

TEST(CliFilter, JointsSelectionPassesOthersThrough) {
  const std::string input =
      "{\"t\": 0, \"name\": [\"a\", \"b\"], \"position\": [0, 0]}\n"
      "{\"t\": 0.01, \"name\": [\"b\", \"a\"], \"position\": [1, 1]}\n"
      "{\"t\": 0.02, \"name\": [\"a\"], \"position\": [1]}\n";
  const auto r = run_rmodel({"filter", "exponential", "-p", "tau=0.02", "--joints", "a"}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[1]["position"][0], 1.0);   // b unfiltered
  EXPECT_EQ(lines[1]["position"][1], 0.5);   // a: 0 + 0.5*(1 - 0)
  EXPECT_EQ(lines[2]["position"][0], 0.75);  // a: 0.5 + 0.5*(1 - 0.5)
}

TEST(CliFilter, ListTextAndJson) {
  const auto text = run_rmodel({"filter", "--list"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("exponential (transient)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("tau"), std::string::npos);
  const auto json = run_rmodel({"filter", "--list", "-f", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["schema"], "rmodel.filter_kinds");
  bool found = false;
  for (const auto& k : doc["kinds"]) {
    if (k["name"] != "exponential") continue;
    found = true;
    EXPECT_EQ(k["params"][0]["name"], "T");
    EXPECT_EQ(k["params"][0]["unit"], "s");
    EXPECT_EQ(k["params"][0]["default"], 0.01);
    EXPECT_EQ(k["params"][1]["name"], "tau");
  }
  EXPECT_TRUE(found);
}

TEST(CliFilter, UnknownKindOrParameterIsUsageError) {
  const auto kind = run_rmodel({"filter", "lowpass"}, "");
  EXPECT_EQ(kind.exit_code, 2);
  EXPECT_NE(kind.err.find("unknown filter kind 'lowpass'"), std::string::npos) << kind.err;
  EXPECT_NE(kind.err.find("exponential"), std::string::npos) << kind.err;
  const auto param = run_rmodel({"filter", "exponential", "--param", "omega=3"}, "");
  EXPECT_EQ(param.exit_code, 2);
  EXPECT_NE(param.err.find("omega"), std::string::npos) << param.err;
  EXPECT_NE(param.err.find("tau"), std::string::npos) << param.err;
  const auto missing = run_rmodel({"filter"}, "");
  EXPECT_EQ(missing.exit_code, 2);
}

TEST(CliFilter, StepResponseTable) {
  const auto r = run_rmodel({"filter", "exponential", "--step", "-p", "T=0.01", "-p", "tau=0.1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "t,input,output");
  int k = -5, rows = 0;
  for (; std::getline(in, line); ++k, ++rows) {
    double t = 0, u = 0, y = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%lf,%lf", &t, &u, &y), 3) << line;
    EXPECT_NEAR(t, 0.01 * k, 1e-12);
    EXPECT_EQ(u, k < 0 ? 0.0 : 1.0);
    EXPECT_NEAR(y, k < 0 ? 0.0 : 1.0 - std::pow(0.9, k + 1), 1e-12);
  }
  EXPECT_EQ(rows, 5 + 51);  // 5 samples before the step, then 5 tau
  const auto jl = run_rmodel({"filter", "second_order", "--step", "-O", "jsonl", "--duration", "0.1"});
  ASSERT_EQ(jl.exit_code, 0) << jl.err;
  const auto lines = json_lines(jl.out);
  ASSERT_EQ(lines.size(), 5U + 11U);
  EXPECT_EQ(lines.back()["input"], 1.0);
}

TEST(CliFilter, StepAndLogPlots) {
  if (!have_gnuplot()) GTEST_SKIP() << "gnuplot not installed (Debian: gnuplot-nox)";
  const auto dir = test::make_temp_dir("rmodel-filter-plot");
  const auto png = dir / "step.png";
  const auto r = run_rmodel({"filter", "second_order", "--step", "--plot", png.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  ASSERT_TRUE(std::filesystem::exists(png));
  EXPECT_GT(std::filesystem::file_size(png), 1000U);
  EXPECT_EQ(read_file(png).substr(1, 3), "PNG");
  if (test::have_fixtures()) {
    const auto svg = dir / "wave.svg";
    const auto w = run_rmodel({"filter", "exponential", "-p", "T=0.2", "-p", "tau=0.5", "--plot", svg.string(),
                               "--plot-joints", "joint12,joint13",
                               fixture("sweetie_bot_proto2/joint_trajectories/hoof_wave.json").string()});
    ASSERT_EQ(w.exit_code, 0) << w.err;
    const std::string text = read_file(svg);
    EXPECT_NE(text.find("<svg"), std::string::npos);
    EXPECT_NE(text.find("joint13"), std::string::npos);
  }
  const auto bad = run_rmodel({"filter", "exponential", "--step", "--plot", (dir / "x.pdf").string()});
  EXPECT_EQ(bad.exit_code, 2);
  std::filesystem::remove_all(dir);
}

TEST(CliFilter, PlotAxisUnitFollowsTheJointType) {
  if (!have_gnuplot()) GTEST_SKIP() << "gnuplot not installed (Debian: gnuplot-nox)";
  const auto dir = test::make_temp_dir("rmodel-filter-units");
  std::string log;
  for (int i = 0; i < 20; ++i)
    log += "{\"t\":" + std::to_string(i * 0.01) + R"(,"name":["head_yaw","jaw_slide"],"position":[0.5,0.01]})" + "\n";
  const auto unit_of = [&](const std::string& joints) {
    const auto svg = dir / (joints + ".svg");
    const auto r = run_rmodel({"filter", "exponential", "--sample", "--plot", svg.string(), "--plot-joints", joints},
                              log);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::string text = read_file(svg);
    for (const char* label : {"position [rad]", "position [m]", "position [rad or m]"})
      if (text.find(label) != std::string::npos) return std::string(label);
    return std::string("none");
  };
  EXPECT_EQ(unit_of("head_yaw"), "position [rad]");   // revolute
  EXPECT_EQ(unit_of("jaw_slide"), "position [m]");    // prismatic
  EXPECT_EQ(unit_of("head_yaw,jaw_slide"), "position [rad or m]");
  std::filesystem::remove_all(dir);
}

TEST(CliFilter, BadLinesAreReportedAndSkipped) {
  const std::string input =
      "{\"t\": 0, \"name\": [\"a\"], \"position\": [0]}\n"
      "{\"t\": 0.01, \"name\": [\"a\"], \"position\": [1\n"       // truncated
      "{\"t\": 0.02, \"name\": [\"a\", \"b\"], \"position\": [1]}\n"  // sizes disagree
      "{\"t\": 0.03, \"name\": [\"a\"], \"position\": [1]}\n";
  const auto r = run_rmodel({"filter", "exponential", "-p", "tau=0.02"}, input);
  EXPECT_EQ(r.exit_code, 1);
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 2U);
  // The skipped lines did not advance the filter; the step is the 0.03 s since the last
  // sample filtered (no T given: time from the stamps): 1 − exp(−0.03/0.02).
  EXPECT_NEAR(lines[1]["position"][0].get<double>(), 1.0 - std::exp(-0.03 / 0.02), 1e-12);
  EXPECT_NE(r.err.find("<stdin>:2: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("<stdin>:3: message rejected: 'position' has 1 values for 2 names"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("read 3 messages, wrote 2, rejected 2"), std::string::npos) << r.err;
}

TEST(CliFilter, TimeFromStampsOnAnIrregularlySampledStep) {
  // A unit step at t = 0 sampled in bursts 1–3 ms apart with gaps of 40–50 ms between them
  // (a fixed pseudo-random pattern); the last sample before the step is at −2 ms. With no T,
  // each step of the exponential filter is the time since the previous sample, so the output
  // follows the continuous response 1 − exp(−t/τ) (within 1 − exp(−0.002/τ) ≈ 0.004 here).
  const double tau = 0.5;
  std::string input;
  for (double t : {-0.1, -0.05, -0.002}) input += "{\"t\": " + fmt::format("{}", t) + ", \"name\": [\"a\"], \"position\": [0]}\n";
  std::uint32_t seed = 12345;
  const auto uniform = [&seed](double lo, double hi) {
    seed = seed * 1664525u + 1013904223u;  // a fixed LCG: the same pattern every run
    return lo + (hi - lo) * (seed >> 8) / double(1u << 24);
  };
  std::vector<double> times;
  double t = 0.0;
  while (t < 4 * tau) {
    const int burst = 3 + static_cast<int>(uniform(0, 3));
    for (int i = 0; i < burst; ++i) {
      times.push_back(t);
      t += uniform(0.001, 0.003);
    }
    t += uniform(0.040, 0.050);
  }
  for (double ts : times) input += "{\"t\": " + fmt::format("{}", ts) + ", \"name\": [\"a\"], \"position\": [1]}\n";
  const auto r = run_rmodel({"filter", "exponential", "-p", "tau=0.5"}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), times.size() + 3);
  for (std::size_t k = 0; k < times.size(); ++k) {
    const double y = lines[k + 3]["position"][0].get<double>();
    EXPECT_NEAR(y, 1.0 - std::exp(-times[k] / tau), 0.03) << "t = " << times[k];
  }
  // With T forced the filter is fixed-step, and says that the stamps are irregular.
  const auto fixed = run_rmodel({"filter", "exponential", "-p", "tau=0.5", "-p", "T=0.01"}, input);
  ASSERT_EQ(fixed.exit_code, 0) << fixed.err;
  EXPECT_NE(fixed.err.find("was given: every sample was filtered as T after the previous one"), std::string::npos)
      << fixed.err;
}

TEST(CliFilter, AggregateWithFilter) {
  std::string input;
  for (int k = 0; k <= 4; ++k)
    input += "{\"t\": " + std::to_string(k * 0.01) + ", \"name\": [\"head_yaw\"], \"position\": [" +
             (k == 0 ? "0" : "1") + "]}\n";
  const auto r = run_rmodel({"aggregate", "--sample", "--no-support", "--filter", "exponential", "--filter-param",
                             "T=0.01", "--filter-param", "tau=0.02"},
                            input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 5U);
  double y = 0.0;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    y += 0.5 * (1.0 - y);
    EXPECT_NEAR(lines[k]["position"][17].get<double>(), y, 1e-12) << k;
  }
  const auto bad = run_rmodel({"aggregate", "--sample", "--filter", "nope"}, "");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown filter kind 'nope'"), std::string::npos) << bad.err;
}

// With a limits file, the bounds the user leaves out default to the tightest limit of the
// filtered joints: the same output as giving them by hand, and one line on stderr each.
TEST(CliFilter, BoundsDefaultToTheJointLimits) {
  const auto dir = test::make_temp_dir("rmodel-filter-limits");
  const std::string limits = (dir / "joint_limits.yaml").string();
  std::ofstream(limits) << "joint_limits:\n  neck_pitch:\n    has_velocity_limits: true\n    max_velocity: 0.05\n"
                           "    has_acceleration_limits: true\n    max_acceleration: 3\n";
  // The lines about bounds taken from the limits (the stream summary aside).
  auto said = [](const std::string& err) {
    std::string lines, line;
    std::istringstream in(err);
    while (std::getline(in, line))
      if (line.find("from the joint limits") != std::string::npos) lines += line + "\n";
    return lines;
  };
  std::string input;
  for (int k = 0; k <= 4; ++k)
    input += "{\"t\": " + std::to_string(k * 0.1) + ", \"name\": [\"neck_pitch\", \"head_yaw\"], \"position\": [" +
             (k == 0 ? "0, 0" : "1, 1") + "]}\n";
  const std::vector<std::string> base{"filter", "linear", "--sample", "-p", "T=0.1", "--joints", "neck_pitch,head_yaw"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_rmodel(args, input);
  };
  const auto defaulted = with({"--limits", limits});
  ASSERT_EQ(defaulted.exit_code, 0) << defaulted.err;
  EXPECT_EQ(said(defaulted.err), "rmodel filter: v = 0.05 rad/s from the joint limits\n") << defaulted.err;
  const auto by_hand = with({"--limits", limits, "-p", "v=0.05"});
  ASSERT_EQ(by_hand.exit_code, 0) << by_hand.err;
  EXPECT_EQ(said(by_hand.err), "") << by_hand.err;
  EXPECT_EQ(defaulted.out, by_hand.out);
  // -q: the same bound, not said.
  const auto quiet = with({"--limits", limits, "-q"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(said(quiet.err), "") << quiet.err;
  EXPECT_EQ(quiet.out, defaulted.out);
  // The bound at work: at most v*T = 0.005 rad per period toward 1, over 4 periods.
  const auto last = json_lines(defaulted.out).back();
  const auto pos = std::find(last["name"].begin(), last["name"].end(), "neck_pitch");
  ASSERT_NE(pos, last["name"].end()) << defaulted.out;
  const double y = last["position"][static_cast<std::size_t>(pos - last["name"].begin())].get<double>();
  EXPECT_GT(y, 0.0) << defaulted.out;
  EXPECT_LE(y, 4 * 0.005 + 1e-12) << defaulted.out;
  // Without a limits file the registry's default (v = 1) stays, and nothing is said.
  const auto plain = with({});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(said(plain.err), "") << plain.err;
  EXPECT_NE(plain.out, defaulted.out);
  // head_yaw alone: its URDF velocity (2 rad/s) is the tightest.
  const auto head = run_rmodel({"filter", "linear", "--sample", "--limits", limits, "--joints", "head_yaw"}, input);
  ASSERT_EQ(head.exit_code, 0) << head.err;
  EXPECT_EQ(said(head.err), "rmodel filter: v = 2 rad/s from the joint limits\n") << head.err;
  // aggregate --filter bounds every pose joint: the tightest is neck_pitch's, both bounds given.
  const auto agg = run_rmodel({"aggregate", "--sample", "--no-support", "--limits", limits, "--filter",
                               "second_order_acc", "--filter-param", "T=0.01"},
                              input);
  ASSERT_EQ(agg.exit_code, 0) << agg.err;
  EXPECT_EQ(said(agg.err), "rmodel aggregate: amax = 3 units/s^2 from the joint limits\n") << agg.err;
  const auto agg_linear = run_rmodel({"aggregate", "--sample", "--no-support", "--limits", limits, "--filter",
                                      "linear", "--filter-param", "T=0.1"},
                                     input);
  ASSERT_EQ(agg_linear.exit_code, 0) << agg_linear.err;
  EXPECT_EQ(said(agg_linear.err), "rmodel aggregate: v = 0.05 units/s from the joint limits\n") << agg_linear.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rmodel
