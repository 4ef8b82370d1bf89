// A time window starts from the state the log had reached (issue 40, points 1 and 9): a
// windowed run writes exactly what the whole replay writes inside the window — its output
// lines stamped start <= t < end, byte for byte — in every log format, by header stamp and by
// log time, for both aggregators, with filters, for dynamics --log and fk --log. The oracle
// is that definition, applied to the whole replay's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rmodel/base/time.hpp"
#include "test_support.hpp"

namespace rmodel::cli_window_state_tests {

namespace fs = std::filesystem;
using test::fixture;
using test::run_rmodel;

/// The time of an output line: its `t`, read exactly (the text as written, not a double).
Time line_time(const std::string& line) {
  const std::size_t at = line.find("\"t\":");
  EXPECT_NE(at, std::string::npos) << line;
  const std::size_t from = at + 4;
  return parse_time(line.substr(from, line.find_first_of(",}", from) - from), "t");
}

/// The lines of `whole` whose time lies in [lo, hi), each byte for byte.
std::string cut(const std::string& whole, Time lo, Time hi) {
  std::string kept;
  std::size_t at = 0;
  while (at < whole.size()) {
    const std::size_t end = whole.find('\n', at);
    const std::string line = whole.substr(at, end - at);
    const Time t = line_time(line);
    if (t >= lo && t < hi) kept += line + "\n";
    at = end == std::string::npos ? whole.size() : end + 1;
  }
  return kept;
}

std::vector<std::string> model_args(bool dynamics = false) {
  return {"-u",
          fixture(dynamics ? "sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf"
                           : "sweetie_bot_proto2/sweetie_bot_proto2.urdf")
              .string(),
          "-s", fixture("sweetie_bot_proto2/kinematic_chains.cpf").string()};
}

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// The greeting recording: its logs in every format the fixtures hold, the same messages as
/// JSON Lines and as CSV (partial rows, as its three drivers publish) written from the truth,
/// and a window cutting it between two drivers' messages of one stamp by log time.
struct Greeting {
  fs::path dir;
  std::vector<std::string> bags;  ///< MCAP zstd, lz4, uncompressed; rosbag2 .db3; ROS 1 plain, bz2, lz4
  std::string jsonl, csv;
  Time lo, hi;

  Greeting() {
    dir = test::make_temp_dir("rmodel_cli_window_state");
    for (const char* f : {"greeting.zstd.mcap", "greeting.lz4.mcap", "greeting_db3", "greeting.bag",
                          "greeting.bz2.bag", "hoof_wave.mcap", "hoof_wave.zstd.mcap", "hoof_wave_db3",
                          "hoof_wave.lz4.bag"})
      bags.push_back(fixture(std::string("bags/") + f).string());
    const auto truth = test::json_lines(test::read_file(fixture("bags/greeting.truth.jsonl")));
    lo = Time{truth[301]["log_time_ns"].get<std::int64_t>()};
    hi = Time{truth[700]["log_time_ns"].get<std::int64_t>()};
    std::vector<std::string> joints;  // in the order the drivers name them
    for (const auto& m : truth)
      for (const auto& n : m["name"])
        if (std::find(joints.begin(), joints.end(), n.get<std::string>()) == joints.end()) joints.push_back(n);
    jsonl = (dir / "greeting.jsonl").string();
    csv = (dir / "greeting.csv").string();
    std::ofstream j(jsonl, std::ios::binary), c(csv, std::ios::binary);
    c << "t";
    for (const auto& n : joints) c << "," << n << ".position," << n << ".velocity";
    c << "\n";
    for (const auto& m : truth) {
      const Time t = *Time::from_stamp(m["header"]["stamp"]["sec"], m["header"]["stamp"]["nanosec"]);
      std::string names, position, velocity;
      std::map<std::string, std::pair<double, double>> cells;
      for (std::size_t i = 0; i < m["name"].size(); ++i) {
        const std::string n = m["name"][i];
        const double p = m["position"][i], v = m["velocity"][i];
        names += fmt::format("{}\"{}\"", i ? "," : "", n);
        position += fmt::format("{}{}", i ? "," : "", p);
        velocity += fmt::format("{}{}", i ? "," : "", v);
        cells[n] = {p, v};
      }
      j << fmt::format(R"({{"t":{},"name":[{}],"position":[{}],"velocity":[{}]}})" "\n", to_string(t), names,
                       position, velocity);
      c << to_string(t);
      for (const auto& n : joints) {
        const auto it = cells.find(n);
        if (it == cells.end()) c << ",,";
        else c << fmt::format(",{},{}", it->second.first, it->second.second);
      }
      c << "\n";
    }
  }
  ~Greeting() { fs::remove_all(dir); }
  Greeting(const Greeting&) = delete;
  Greeting& operator=(const Greeting&) = delete;
};

/// Runs `args` on `log` whole and cut to [lo, hi) (`by`: --time header or log; text logs
/// have their own time only), and expects the cut run's output to be the whole run's cut.
void expect_cut_equals_whole(const std::vector<std::string>& args, const std::string& log, const std::string& by,
                             Time lo, Time hi, bool log_last = true) {
  std::vector<std::string> base = args;
  if (log_last) base.push_back(log);
  const bool text = log.ends_with(".jsonl") || log.ends_with(".csv");
  if (!text) base = joined(base, {"--time", by});
  const auto whole = run_rmodel(base);
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto window = run_rmodel(joined(base, {"--start", to_string(lo), "--end", to_string(hi)}));
  ASSERT_EQ(window.exit_code, 0) << window.err;
  const std::string want = cut(whole.out, lo, hi);
  ASSERT_FALSE(want.empty()) << log;
  EXPECT_TRUE(window.out == want) << fmt::format("{} {} by {}: {} lines written, {} in the whole run's cut", args[0],
                                                 log, by, std::count(window.out.begin(), window.out.end(), '\n'),
                                                 std::count(want.begin(), want.end(), '\n'));
  EXPECT_EQ(window.err.find("warning: no message"), std::string::npos) << window.err;
}

TEST(CliWindowState, BothAggregatorsInEveryFormatEqualTheWholeReplayCut) {
  RMODEL_REQUIRE_FIXTURES();
  const Greeting g;
  for (const char* kind : {"simple", "sync"}) {
    const std::vector<std::string> args = joined({"aggregate", "-k", kind}, model_args());
    for (const auto& bag : g.bags)
      for (const char* by : {"header", "log"}) expect_cut_equals_whole(args, bag, by, g.lo, g.hi);
    expect_cut_equals_whole(args, g.jsonl, "header", g.lo, g.hi);
    expect_cut_equals_whole(args, g.csv, "header", g.lo, g.hi);
  }
}

TEST(CliWindowState, AnOutputFilterEqualsTheWholeReplayCut) {
  RMODEL_REQUIRE_FIXTURES();
  const Greeting g;
  // An exponential filter remembers every sample before the window.
  const std::vector<std::string> args =
      joined({"aggregate", "--filter", "exponential", "--filter-param", "tau=0.05"}, model_args());
  for (std::size_t i = 0; i < g.bags.size(); ++i)
    expect_cut_equals_whole(args, g.bags[i], i % 2 == 0 ? "header" : "log", g.lo, g.hi);
  expect_cut_equals_whole(joined(args, {"-k", "sync", "--diff", "lag_diff"}), g.bags[0], "log", g.lo, g.hi);
  expect_cut_equals_whole(args, g.csv, "header", g.lo, g.hi);
}

TEST(CliWindowState, FilterDynamicsAndFkEqualTheWholeReplayCut) {
  RMODEL_REQUIRE_FIXTURES();
  const Greeting g;
  for (const std::string& log : {g.bags[0], g.bags[2], g.bags[4], g.jsonl}) {
    for (const char* by : {"header", "log"}) {
      if (by == std::string("log") && log == g.jsonl) continue;
      expect_cut_equals_whole({"filter", "lag_diff"}, log, by, g.lo, g.hi);
      expect_cut_equals_whole(joined(joined({"dynamics"}, model_args(true)), {"--log", log}), log, by, g.lo, g.hi,
                              false);
      expect_cut_equals_whole(joined(joined({"fk", "-f", "jsonl"}, model_args()), {"--log", log}), log, by, g.lo,
                              g.hi, false);
    }
  }
}

TEST(CliWindowState, TheIssuesRelativeWindowStartsFromTheRobotsState) {
  // `aggregate --start 1.0 --end 1.5` on a recording that publishes one chain per message:
  // the window's first pose holds every joint's last value (issue 40), and the torques of
  // dynamics --log at the start are those of the whole replay.
  RMODEL_REQUIRE_FIXTURES();
  const std::string bag = fixture("bags/greeting.zstd.mcap").string();
  const Time first{std::int64_t{1'700'000'000} * 1'000'000'000};  // the first JointState's stamp
  const Time lo = first + Time{1'000'000'000}, hi = first + Time{1'500'000'000};
  for (const bool dyn : {false, true}) {
    const std::vector<std::string> base =
        dyn ? joined(joined({"dynamics"}, model_args(true)), {"--log", bag})
            : joined(joined({"aggregate"}, model_args()), {bag});
    const auto whole = run_rmodel(base);
    const auto window = run_rmodel(joined(base, {"--start", "1.0", "--end", "1.5"}));
    ASSERT_EQ(window.exit_code, 0) << window.err;
    EXPECT_TRUE(window.out == cut(whole.out, lo, hi)) << (dyn ? "dynamics" : "aggregate");
    // The first pose holds, for every joint the drivers publish, its value in the last
    // message of the truth (in log order) up to the window's first message.
    std::map<std::string, double> held;
    for (const auto& m : test::json_lines(test::read_file(fixture("bags/greeting.truth.jsonl")))) {
      const Time t = *Time::from_stamp(m["header"]["stamp"]["sec"], m["header"]["stamp"]["nanosec"]);
      for (std::size_t i = 0; i < m["name"].size(); ++i) held[m["name"][i]] = m["position"][i];
      if (t >= lo) break;  // the window's first message
    }
    const auto pose = nlohmann::json::parse(window.out.substr(0, window.out.find('\n')));
    ASSERT_EQ(line_time(window.out.substr(0, window.out.find('\n'))), lo);
    std::size_t compared = 0;
    for (std::size_t i = 0; i < pose["name"].size(); ++i) {
      const auto it = held.find(pose["name"][i].get<std::string>());
      if (it == held.end()) continue;
      EXPECT_EQ(pose["position"][i].get<double>(), it->second) << it->first;
      ++compared;
    }
    // (The dynamics URDF lacks the chains' virtual links: its pose holds fewer joints.)
    if (dyn) EXPECT_GT(compared, 0U);
    else EXPECT_EQ(compared, 14U);
  }
}

TEST(CliWindowState, CheckLogJudgesTheWindowAsTheWholeLogsCheckDoes) {
  const fs::path dir = test::make_temp_dir("rmodel_cli_window_check");
  const fs::path log = dir / "jump.jsonl";
  // neck_pitch (velocity limit 2 rad/s) jumps 0.3 rad before the window and 0.4 rad at its
  // first message.
  std::ofstream(log) << "{\"t\":0,\"name\":[\"neck_pitch\"],\"position\":[0]}\n"
                        "{\"t\":0.01,\"name\":[\"neck_pitch\"],\"position\":[0.3]}\n"
                        "{\"t\":0.02,\"name\":[\"neck_pitch\"],\"position\":[-0.1]}\n"
                        "{\"t\":0.03,\"name\":[\"neck_pitch\"],\"position\":[-0.1]}\n";
  const auto whole = run_rmodel({"check-log", "--sample", "--period", "0.01", log.string()});
  const auto window = run_rmodel({"check-log", "--sample", "--period", "0.01", "--start", "0.02", log.string()});
  EXPECT_EQ(whole.exit_code, 1);
  EXPECT_EQ(window.exit_code, 1) << window.out << window.err;
  const std::string at3 = log.string() + ":3: error: joint 'neck_pitch': moved from 0.3 to -0.1";
  EXPECT_NE(whole.out.find(at3), std::string::npos) << whole.out;
  EXPECT_NE(window.out.find(at3), std::string::npos) << window.out;
  EXPECT_NE(whole.out.find(log.string() + ":2: error"), std::string::npos) << whole.out;
  EXPECT_EQ(window.out.find(log.string() + ":2: error"), std::string::npos) << window.out;  // before the window
  EXPECT_NE(window.out.find("1 error"), std::string::npos) << window.out;
  fs::remove_all(dir);
}

TEST(CliWindowState, AnEmptyWindowIsAWarningNamingTheWindowAndTheLogsSpan) {
  const fs::path dir = test::make_temp_dir("rmodel_cli_window_empty");
  const fs::path log = dir / "three.jsonl";
  std::ofstream(log) << "{\"t\":1700000000,\"name\":[\"neck_pitch\"],\"position\":[0]}\n"
                        "{\"t\":1700000001.5,\"name\":[\"neck_pitch\"],\"position\":[0.1]}\n"
                        "{\"t\":1700000003,\"name\":[\"neck_pitch\"],\"position\":[0.2]}\n";
  const std::string out = (dir / "out.jsonl").string();
  const auto r = run_rmodel({"aggregate", "--sample", "--start", "100", log.string(), "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // a warning, not a failure (docs/design.md)
  EXPECT_NE(r.err.find(fmt::format("rmodel: {}: warning: no message lies in the time window --start 100 (from "
                                   "1700000100 s on): its messages span 1700000000 to 1700000003 s",
                                   log.string())),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("read 0 messages"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(out));
  EXPECT_EQ(fs::file_size(out), 0U);
  // Both bounds, another command; a window with messages says nothing of the kind.
  const auto c = run_rmodel({"check-log", "--sample", "--start", "@5", "--end", "@6", log.string()});
  EXPECT_NE(c.err.find("no message lies in the time window --start @5 --end @6 ([5, 6) s): its messages span "
                       "1700000000 to 1700000003 s"),
            std::string::npos)
      << c.err;
  const auto f = run_rmodel({"filter", "exponential", "--end", "1", log.string()});
  EXPECT_EQ(f.exit_code, 0) << f.err;
  EXPECT_EQ(f.err.find("warning:"), std::string::npos) << f.err;
  fs::remove_all(dir);
}

TEST(CliWindowState, AnEmptyWindowOfABagByLogTimeNamesTheTimeAndTheSkippedChunks) {
  RMODEL_REQUIRE_FIXTURES();
  const std::string bag = fixture("bags/greeting.bag").string();
  const auto r = run_rmodel(joined(joined({"aggregate"}, model_args()),
                                   {bag, "--time", "log", "--start", "@100", "--end", "@200", "-o", "/dev/null"}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find(bag + ": warning: no message lies in the time window --start @100 --end @200 ([100, 200) s, "
                             "by log time): each of its chunks begins at or after the window's end"),
            std::string::npos)
      << r.err;
  const auto after = run_rmodel(joined(joined({"aggregate"}, model_args()),
                                       {bag, "--start", "1800000000", "-o", "/dev/null"}));
  EXPECT_NE(after.err.find("(from 1800000000 s on, by header stamp): its messages span 1700000000 to 1700000004.6 s"),
            std::string::npos)
      << after.err;
}

}  // namespace rmodel::cli_window_state_tests
