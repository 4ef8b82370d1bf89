// `--shard K/N`: the K-th of N parts of the inputs, so that N runs (a Slurm job array's
// tasks) share a batch. The oracles are the documented promises (README "Beyond one
// machine", rmodel-aggregate(1)): the N shard runs together write, byte for byte, the files
// one run with --output-dir writes; shard K holds the inputs whose rank in the list sorted by
// bytes is K-1, K-1+N, ... (the rule, computed here independently), processed in the order
// given; every shard checks the whole list before anything runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_rmodel;
using test::RunResult;

std::string shard_example(const std::string& file) {
  return (test::source_dir() / "share" / "rmodel" / "examples" / file).string();
}

std::vector<std::string> shard_args(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// Every regular file under `dir` (relative path → bytes).
std::map<std::string, std::string> shard_tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  if (!fs::exists(dir)) return files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = read_file(e.path());
  return files;
}

/// The inputs of shard k (1-based) of n by the documented rule, in the order given.
std::vector<std::string> shard_by_rule(const std::vector<std::string>& inputs, std::size_t k, std::size_t n) {
  std::vector<std::string> sorted = inputs;
  std::sort(sorted.begin(), sorted.end());
  std::set<std::string> chosen;
  for (std::size_t j = k - 1; j < sorted.size(); j += n) chosen.insert(sorted[j]);
  std::vector<std::string> out;
  for (const auto& input : inputs)
    if (chosen.count(input) > 0) out.push_back(input);
  return out;
}

class CliShard : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-shard-"); }
  void TearDown() override { fs::remove_all(dir_); }

  /// A log of `count` messages of two sample-robot joints, every 0.01 s; with `bad`, its
  /// third line is not JSON (the run rejects it: no output file, exit 1).
  std::string make_log(const std::string& name, int count, bool bad = false) const {
    const fs::path path = dir_ / "logs" / name;
    fs::create_directories(path.parent_path());
    std::ofstream out(path);
    for (int i = 1; i <= count; ++i) {
      if (bad && i == 3) {
        out << "not json\n";
        continue;
      }
      out << fmt::format("{{\"t\": {:.2f}, \"name\": [\"neck_pitch\", \"head_yaw\"], \"position\": [{:.6f}, {:.6f}]}}\n",
                         0.01 * (i - 1), 0.4 * std::sin(0.05 * i), 0.3 * std::cos(0.02 * i));
    }
    return path.string();
  }

  fs::path dir_;
};

TEST_F(CliShard, ShardsTogetherWriteWhatOneRunWrites) {
  // Given in an order that is not the sorted one; the shipped logs have mistakes (rejected
  // messages: no output file, exit 1), so do two of the made ones.
  const std::vector<std::string> inputs = {
      make_log("c.jsonl", 40),        shard_example("walk.jsonl"), make_log("a.jsonl", 12, true),
      shard_example("pony_log.jsonl"), make_log("e.jsonl", 25),      shard_example("fl.jsonl"),
      make_log("b.jsonl", 7),         make_log("d.jsonl", 30, true)};
  struct Case {
    std::string name;
    std::vector<std::string> args;
  };
  const std::vector<Case> cases = {
      {"aggregate", {"aggregate", "--sample", "--kind", "sync"}},
      {"aggregate mcap --tf", {"aggregate", "--sample", "-f", "mcap", "--tf"}},
      {"filter", {"filter", "exponential", "-p", "tau=0.05", "--sample"}},
      {"check-log json", {"check-log", "--sample", "--period", "0.01", "-f", "json"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path serial = dir_ / "serial";
    const RunResult one = run_rmodel(shard_args(shard_args(c.args, inputs), {"--output-dir", serial.string()}));
    ASSERT_EQ(one.exit_code, 1) << one.err;  // some inputs fail
    const auto expected = shard_tree(serial);
    ASSERT_GE(expected.size(), 4U);
    const std::string noun = c.args.front() == "check-log" ? "log" : "input";
    for (const std::size_t n : {1U, 3U, 8U, 11U}) {
      SCOPED_TRACE(fmt::format("N = {}", n));
      const fs::path out = dir_ / fmt::format("shards-{}", n);
      int worst = 0;
      for (std::size_t k = 1; k <= n; ++k) {
        const RunResult r = run_rmodel(
            shard_args(shard_args(c.args, inputs), {"--output-dir", out.string(), "--shard", fmt::format("{}/{}", k, n)}));
        worst = std::max(worst, r.exit_code);
        EXPECT_LE(r.exit_code, 1) << r.err;
        EXPECT_EQ(r.out, "");
        // This shard's inputs, and only they, are named on its stderr, in the order given.
        const std::vector<std::string> mine = shard_by_rule(inputs, k, n);
        std::size_t last = 0;
        for (const auto& input : inputs) {
          const std::size_t at = r.err.find(fmt::format("rmodel {}: {}: ", c.args.front(), input));
          const bool named = at != std::string::npos;
          EXPECT_EQ(named, std::count(mine.begin(), mine.end(), input) > 0) << input << " in shard " << k << ":\n"
                                                                           << r.err;
          if (named) {
            EXPECT_GE(at, last) << input;
            last = at;
          }
        }
        EXPECT_NE(r.err.find(fmt::format("rmodel {}: shard {}/{}: {} of {} {}s", c.args.front(), k, n, mine.size(),
                                         inputs.size(), noun)),
                  std::string::npos)
            << r.err;
        // Balanced by count: ⌊M/N⌋ or ⌈M/N⌉ inputs.
        EXPECT_LE(mine.size(), (inputs.size() + n - 1) / n);
        EXPECT_GE(mine.size(), inputs.size() / n);
      }
      EXPECT_EQ(worst, one.exit_code);
      const auto got = shard_tree(out);
      EXPECT_EQ(got.size(), expected.size());
      for (const auto& [name, bytes] : expected) {
        ASSERT_TRUE(got.count(name) > 0) << name << " not written by the shards";
        EXPECT_TRUE(got.at(name) == bytes) << name << " differs from the serial run's";
      }
      fs::remove_all(out);
    }
    fs::remove_all(serial);
  }
}

TEST_F(CliShard, EveryShardChecksTheWholeListFirst) {
  const std::string a = make_log("a.jsonl", 5), b = make_log("b.jsonl", 5);
  const std::string missing = (dir_ / "logs" / "zz_missing.jsonl").string();
  fs::create_directories(dir_ / "other");
  const std::string b2 = (dir_ / "other" / "b.jsonl").string();
  std::ofstream(b2) << read_file(b);
  // The missing log and the two b.jsonl fall in shard 2 or 3 of 3: shard 1 refuses all the same.
  for (const auto& list : {std::vector<std::string>{a, b, missing}, std::vector<std::string>{a, b, b2}}) {
    for (const char* shard : {"1/3", "2/3", "3/3"}) {
      const fs::path out = dir_ / "out";
      const RunResult r =
          run_rmodel(shard_args(shard_args({"aggregate", "--sample"}, list), {"--output-dir", out.string(), "--shard", shard}));
      EXPECT_EQ(r.exit_code, 2) << shard << ": " << r.err;
      EXPECT_TRUE(shard_tree(out).empty()) << shard;
      const RunResult serial =
          run_rmodel(shard_args(shard_args({"aggregate", "--sample"}, list), {"--output-dir", out.string()}));
      EXPECT_EQ(serial.exit_code, 2);
      EXPECT_EQ(r.err, serial.err) << "the shard refuses as the serial run does";
      fs::remove_all(out);
    }
  }
}

TEST_F(CliShard, MoreShardsThanInputsLeavesSomeEmpty) {
  const std::string a = make_log("a.jsonl", 5);
  const RunResult r = run_rmodel({"check-log", "--sample", a, "--output-dir", (dir_ / "out").string(), "--shard", "2/4"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "rmodel check-log: shard 2/4: 0 of 1 log: 0 valid, 0 invalid\n");
  EXPECT_TRUE(shard_tree(dir_ / "out").empty());
}

TEST_F(CliShard, UsageErrors) {
  const std::string a = make_log("a.jsonl", 5);
  const std::string out = (dir_ / "out").string();
  struct Bad {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Bad> bad = {
      {{"aggregate", "--sample", a, "--shard", "1/2"}, "--shard needs --output-dir DIR"},
      {{"filter", "exponential", a, "--shard", "1/2"}, "--shard needs --output-dir DIR"},
      {{"check-log", "--sample", a, "--shard", "1/2"}, "--shard needs --output-dir DIR"},
      {{"check", "--sample", "--shard", "1/2"}, "--shard divides the FILE arguments"},
      {{"aggregate", "--sample", a, "--output-dir", out, "--shard", "0/4"},
       "'0/4': K counts from 1 to N (a Slurm array --array=1-4 gives $SLURM_ARRAY_TASK_ID/4; --array=0-3, "
       "$((SLURM_ARRAY_TASK_ID + 1))/4)"},
      {{"aggregate", "--sample", a, "--output-dir", out, "--shard", "5/4"}, "'5/4': K counts from 1 to N"},
      {{"aggregate", "--sample", a, "--output-dir", out, "--shard", "1/0"}, "'1/0': N, the number of parts, is at least 1"},
  };
  for (const auto& text : {"3", "a/b", "-1/2", "1/2/3", " 1/2", "1/", "/2", "1.0/2", "+1/2", "1234567890/1234567891"})
    ASSERT_NO_FATAL_FAILURE(
        [&] {
          const RunResult r = run_rmodel({"aggregate", "--sample", a, "--output-dir", out, "--shard", text});
          EXPECT_EQ(r.exit_code, 2) << text;
          EXPECT_NE(r.err.find(fmt::format("--shard: '{}' is not K/N (two whole numbers, e.g. 2/8)", text)),
                    std::string::npos)
              << r.err;
        }());
  for (const Bad& b : bad) {
    const RunResult r = run_rmodel(b.args);
    EXPECT_EQ(r.exit_code, 2) << fmt::format("{}", fmt::join(b.args, " "));
    EXPECT_NE(r.err.find(b.message), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(CliShard, CheckFilesInShardsFindWhatOneCheckFinds) {
  // URDFs with and without problems; each shard's report holds its files' lines.
  std::vector<std::string> files = {shard_example("robot_v2.urdf"), shard_example("robot.urdf"),
                                    (test::source_dir() / "share" / "rmodel" / "sample" / "pony.urdf").string()};
  if (test::have_fixtures())
    for (const char* f : {"example_robot_data/talos_reduced.urdf", "example_robot_data/panda.urdf",
                          "example_robot_data/solo12.urdf", "sweetie_bot_proto2/sweetie_bot_proto2.urdf"})
      files.push_back(test::fixture(f).string());
  const RunResult serial = run_rmodel(shard_args({"check"}, files));
  // Lines of a text report: the problems, then one summary line per file.
  const auto lines = [](const std::string& text) {
    std::multiset<std::string> out;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
      out.insert(text.substr(start, end - start));
    return out;
  };
  for (const std::size_t n : {2U, 3U}) {
    std::multiset<std::string> together;
    int worst = 0;
    for (std::size_t k = 1; k <= n; ++k) {
      const RunResult r = run_rmodel(shard_args(shard_args({"check"}, files), {"--shard", fmt::format("{}/{}", k, n)}));
      worst = std::max(worst, r.exit_code);
      for (const auto& file : shard_by_rule(files, k, n))
        EXPECT_NE(r.out.find(file + ": "), std::string::npos) << file << " not in shard " << k;
      const auto part = lines(r.out);
      together.insert(part.begin(), part.end());
    }
    EXPECT_EQ(worst, serial.exit_code);
    EXPECT_EQ(together, lines(serial.out)) << "no URDF of these is shared by two models";
  }
}

/// A log of the sample robot written line by line (JSON Lines).
std::string reduce_log(const fs::path& dir, const std::string& name, const std::vector<std::string>& lines) {
  fs::create_directories(dir);
  std::ofstream out(dir / name);
  for (const auto& line : lines) out << line << "\n";
  return (dir / name).string();
}

/// A joint state of neck_pitch (limits [-0.8, 0.5]) and head_yaw (velocity limit 2 rad/s).
std::string reduce_state(int i, double neck, double head_velocity) {
  return fmt::format("{{\"t\": {:.2f}, \"name\": [\"neck_pitch\", \"head_yaw\"], \"position\": [{}, 0.1], "
                     "\"velocity\": [0, {}]}}",
                     0.01 * i, neck, head_velocity);
}

TEST_F(CliShard, ReduceSumsUpTheReportsOfEveryShard) {
  const fs::path logs = dir_ / "logs";
  // Known by construction: ok 10 clean messages; high 12 messages, neck_pitch at 0.7 in 7 of
  // them, head_yaw at 3 rad/s in 2 others; bad 6 messages and 2 lines that are not JSON;
  // broken_db3 a rosbag2 directory whose metadata lists no file (its check fails: no report).
  std::vector<std::string> ok_lines, high_lines, bad_lines;
  for (int i = 0; i < 10; ++i) ok_lines.push_back(reduce_state(i, 0.1 * (i % 3), 0.5));
  for (int i = 0; i < 12; ++i) high_lines.push_back(reduce_state(i, i >= 3 && i <= 9 ? 0.7 : 0.2, i < 2 ? 3 : 0));
  for (int i = 0; i < 6; ++i) {
    bad_lines.push_back(reduce_state(i, 0, 0));
    if (i == 1 || i == 4) bad_lines.push_back("not json");
  }
  const std::string ok = reduce_log(logs, "ok.jsonl", ok_lines), high = reduce_log(logs, "high.jsonl", high_lines),
                    bad = reduce_log(logs, "bad.jsonl", bad_lines);
  const fs::path broken = logs / "broken_db3";
  fs::create_directories(broken);
  std::ofstream(broken / "metadata.yaml") << "rosbag2_bagfile_information:\n  version: 5\n";
  const std::vector<std::string> list = {high, ok, broken.string(), bad};
  const fs::path reports = dir_ / "reports";
  for (const char* shard : {"1/3", "2/3", "3/3"}) {
    const RunResult r = run_rmodel(shard_args(shard_args({"check-log", "--sample", "-f", "json", "--max-reports", "1"}, list),
                                              {"--output-dir", reports.string(), "--shard", shard}));
    EXPECT_LE(r.exit_code, 1) << r.err;
  }
  const auto reduce = [&](const std::vector<std::string>& logs_given, const std::vector<std::string>& more) {
    return run_rmodel(shard_args(shard_args({"check-log", "--reduce", "--output-dir", reports.string()}, logs_given), more));
  };

  const RunResult json = reduce(list, {"-f", "json"});
  EXPECT_EQ(json.exit_code, 1) << json.err;
  EXPECT_EQ(json.err, "");
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(json.out);
  EXPECT_EQ(doc["schema"], "rmodel.check_log_summary");
  EXPECT_EQ(doc["valid"], false);
  EXPECT_EQ(doc["counts"], nlohmann::ordered_json::parse(R"({"logs": 4, "valid": 1, "invalid": 2, "missing": 1})"));
  ASSERT_EQ(doc["logs"].size(), 4U);
  const auto& h = doc["logs"][0];
  EXPECT_EQ(h["log"], high);
  EXPECT_EQ(h["report"], (reports / "high.json").string());
  EXPECT_EQ(h["verdict"], "invalid");
  EXPECT_EQ(h["messages"], 12);
  EXPECT_EQ(h["errors"], 9);
  EXPECT_EQ(h["problems_by_code"].dump(), R"({"position-limit":7,"velocity-limit":2})");
  EXPECT_EQ(h["first_stamp"], 0.0);
  EXPECT_EQ(h["last_stamp"], 0.11);
  EXPECT_EQ(doc["logs"][1]["verdict"], "valid");
  EXPECT_EQ(doc["logs"][1]["messages"], 10);
  EXPECT_EQ(doc["logs"][1]["problems_by_code"].dump(), "{}");
  const auto& m = doc["logs"][2];
  EXPECT_EQ(m["verdict"], "missing");
  EXPECT_TRUE(m["messages"].is_null());
  EXPECT_EQ(m["reason"], (reports / "broken_db3.json").string() +
                             ": no such report: the check of this log failed or did not run (its task's standard "
                             "error says why)");
  const auto& b = doc["logs"][3];
  EXPECT_EQ(b["verdict"], "invalid");
  EXPECT_EQ(b["messages"], 6);
  EXPECT_EQ(b["read_errors"], 2);
  EXPECT_EQ(b["problems_by_code"].dump(), R"({"read-error":2})");
  EXPECT_EQ(doc["totals"].dump(), R"({"messages":28,"joint_states":28,"read_errors":2,"errors":11,"warnings":0,)"
                                  R"("problems_by_code":{"read-error":2,"position-limit":7,"velocity-limit":2}})");

  const RunResult text = reduce(list, {});
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_EQ(text.out,
            fmt::format("{}: invalid: 9 errors, 0 warnings in 12 messages (12 joint states): position-limit 7, "
                        "velocity-limit 2\n"
                        "{}: valid: 0 errors, 0 warnings in 10 messages (10 joint states)\n"
                        "{}: missing: {}\n"
                        "{}: invalid: 2 errors, 0 warnings in 6 messages (6 joint states): read-error 2\n"
                        "problems by code: read-error 2, position-limit 7, velocity-limit 2\n"
                        "4 logs: 1 valid, 2 invalid, 1 without a report\n",
                        high, ok, broken.string(), m["reason"].get<std::string>(), bad));

  // Every log valid and reported: exit 0; -o writes the summary to a file.
  const fs::path summary = dir_ / "summary.json";
  const RunResult clean = reduce({ok}, {"-o", summary.string()});
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_EQ(clean.out, "");
  EXPECT_EQ(nlohmann::json::parse(read_file(summary))["valid"], true);
  EXPECT_EQ(reduce({ok}, {}).out, ok + ": valid: 0 errors, 0 warnings in 10 messages (10 joint states)\n"
                                       "1 log: 1 valid, 0 invalid\n");
  EXPECT_EQ(reduce({ok}, {"-q"}).out, "");
  EXPECT_EQ(reduce({ok}, {"-q"}).exit_code, 0);

  // A report of another log of the same name (left from another batch) is not this log's.
  fs::create_directories(dir_ / "elsewhere");
  const std::string other = reduce_log(dir_ / "elsewhere", "high.jsonl", ok_lines);
  const RunResult stale = reduce({other}, {});
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_EQ(stale.out, fmt::format("{}: missing: {}: the report of '{}', not of this log\n1 log: 0 valid, 0 invalid, 1 "
                                   "without a report\n",
                                   other, (reports / "high.json").string(), high));
  // Not JSON, or JSON of something else.
  std::ofstream(reports / "ok.json") << "{\"schema\": \"rmodel.check\"}";
  EXPECT_NE(reduce({ok}, {}).out.find("ok.json: not a report of check-log -f json"), std::string::npos);
  std::ofstream(reports / "ok.json") << "{";
  EXPECT_NE(reduce({ok}, {}).out.find("ok.json: not JSON ("), std::string::npos);
}

TEST_F(CliShard, ReduceTakesOnlyWhatItReads) {
  const std::string a = make_log("a.jsonl", 5);
  const std::string dir = (dir_ / "reports").string();
  struct Bad {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Bad> bad = {
      {{"check-log", "--reduce", a}, "--reduce needs --output-dir DIR, the directory of the logs' JSON reports"},
      {{"check-log", "--reduce", a, "--output-dir", dir, "--shard", "1/2"},
       "--reduce reads the reports of the logs: --shard does not apply"},
      {{"check-log", "--reduce", a, "--output-dir", dir, "--sample"},
       "--reduce reads the reports of the logs: --sample does not apply"},
      {{"check-log", "--reduce", a, "--output-dir", dir, "--period", "0.01"},
       "--reduce reads the reports of the logs: --period does not apply"},
      {{"check-log", "--reduce", a, "--output-dir", dir, "-f", "sarif"},
       "-f sarif does not apply to --reduce: the formats are text, json"},
      {{"check-log", "--reduce", "-", "--output-dir", dir}, "'-' (stdin) cannot be an input"},
  };
  for (const Bad& b : bad) {
    const RunResult r = run_rmodel(b.args);
    EXPECT_EQ(r.exit_code, 2) << fmt::format("{}", fmt::join(b.args, " "));
    EXPECT_NE(r.err.find(b.message), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(dir)) << "the reduce creates no directory";
}

}  // namespace
}  // namespace rmodel
