// --start/--end and --merge through the commands (issue 25, points 1–2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rmodel/base/time.hpp"
#include "test_support.hpp"

namespace rmodel::cli_window_tests {

namespace fs = std::filesystem;
using test::fixture;
using test::json_lines;
using test::run_rmodel;

/// The `t` texts of a JSON Lines output, in order, exactly as written (not through a double).
std::vector<std::string> times_of(const std::string& out) {
  std::vector<std::string> t;
  std::size_t at = 0;
  while ((at = out.find("\"t\":", at)) != std::string::npos) {
    at += 4;
    t.push_back(out.substr(at, out.find_first_of(",}", at) - at));
  }
  return t;
}

/// A JSON Lines log of joint `joint` at the given times (text exactly as written).
void write_log(const fs::path& path, const std::vector<std::string>& times, const std::string& joint) {
  std::ofstream f(path, std::ios::binary);
  for (std::size_t i = 0; i < times.size(); ++i)
    f << fmt::format(R"({{"t":{},"name":["{}"],"position":[{}]}})" "\n", times[i], joint, i);
}

TEST(CliWindow, FilterCutsALogByLogTimeAsTheTruthSays) {
  RMODEL_REQUIRE_FIXTURES();
  std::vector<std::int64_t> log_times;
  for (const auto& line : json_lines(test::read_file(fixture("bags/greeting.truth.jsonl"))))
    log_times.push_back(line["log_time_ns"].get<std::int64_t>());
  const std::int64_t lo = log_times[300], hi = log_times[360];
  std::vector<std::string> want;
  for (const std::int64_t t : log_times)
    if (t >= lo && t < hi) want.push_back(to_string(Time{t}));
  for (const char* file : {"bags/greeting.zstd.mcap", "bags/greeting.bag"}) {
    const auto r = run_rmodel({"filter", "exponential", "-p", "tau=0.05", "--time", "log", "--start",
                               to_string(Time{lo}), "--end", to_string(Time{hi}), fixture(file).string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(times_of(r.out), want) << file;
    EXPECT_NE(r.err.find(fmt::format("read {} messages", want.size())), std::string::npos) << r.err;
  }
}

TEST(CliWindow, RelativeAbsoluteAndRfc3339BoundsCutTheSameWindow) {
  const fs::path dir = test::make_temp_dir("rmodel_cli_window");
  const fs::path log = dir / "log.jsonl";
  write_log(log, {"1700000000", "1700000000.25", "1700000000.5", "1700000000.75", "1700000001"}, "neck_pitch");
  const std::vector<std::string> want{"1700000000.25", "1700000000.5"};
  for (const auto& [start, end] : std::vector<std::pair<std::string, std::string>>{
           {"0.25", "0.75"},
           {"1700000000.25", "1700000000.75"},
           {"2023-11-14T22:13:20.25Z", "2023-11-14T23:13:20.75+01:00"},
           {"0.25", "2023-11-14T22:13:20.75Z"}}) {
    const auto r = run_rmodel({"filter", "exponential", "-p", "tau=0.05", "--start", start, "--end", end, log.string()});
    ASSERT_EQ(r.exit_code, 0) << start << " " << end << ": " << r.err;
    EXPECT_EQ(times_of(r.out), want) << start << " " << end;
  }
  // The same options on aggregate, check-log and fk --log.
  const auto a = run_rmodel({"aggregate", "--sample", "--no-support", "--start", "0.5", log.string()});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(times_of(a.out), (std::vector<std::string>{"1700000000.5", "1700000000.75", "1700000001"}));
  const auto f = run_rmodel({"fk", "--sample", "--log", log.string(), "--end", "0.5", "-f", "jsonl"});
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_NE(f.err.find("read 2 messages"), std::string::npos) << f.err;
  const auto c = run_rmodel({"check-log", "--sample", "--start", "@1700000000.75", log.string()});
  std::istringstream rows(c.out);
  std::string samples;
  for (std::string row; std::getline(rows, row);) {
    std::istringstream cells(row);
    std::string index, joint;
    if (cells >> index >> joint >> samples && joint == "neck_pitch") break;
    samples.clear();
  }
  EXPECT_EQ(samples, "2") << c.out << c.err;  // the summary row of neck_pitch: 2 samples
  fs::remove_all(dir);
}

TEST(CliWindow, BadBoundsAreUsageErrorsNamingOptionAndValue) {
  const fs::path dir = test::make_temp_dir("rmodel_cli_window_bad");
  const fs::path log = dir / "log.jsonl";
  write_log(log, {"0", "1"}, "neck_pitch");
  const auto bad = run_rmodel({"filter", "exponential", "-p", "tau=0.05", "--start", "yesterday", log.string()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("filter: --start: 'yesterday' is not a time"), std::string::npos) << bad.err;
  const auto zone = run_rmodel({"aggregate", "--sample", "--end", "2023-11-14T22:13:20", log.string()});
  EXPECT_EQ(zone.exit_code, 2);
  EXPECT_NE(zone.err.find("aggregate: --end: '2023-11-14T22:13:20' has no time zone"), std::string::npos)
      << zone.err;
  // The option is named once, as for every other option (it was "--start: '--start': ...").
  const auto negative = run_rmodel({"aggregate", "--sample", "--start", "-1", log.string()});
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.err.find("rmodel: error: aggregate: --start: '-1' is before the log's first message"),
            std::string::npos)
      << negative.err;
  EXPECT_EQ(negative.err.find("'--start': "), std::string::npos) << negative.err;
  const auto empty = run_rmodel({"aggregate", "--sample", "--start", "2", "--end", "1", log.string()});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("'--end' 1 is not after '--start' 2"), std::string::npos) << empty.err;
  fs::remove_all(dir);
}

TEST(CliMerge, MergeInterleavesByTimeAndWithoutItInputsFollowEachOther) {
  const fs::path dir = test::make_temp_dir("rmodel_cli_merge");
  const std::vector<std::string> a{"0", "0.02", "0.02", "0.05", "0.09"};
  const std::vector<std::string> b{"0.01", "0.02", "0.05", "0.06", "0.1"};
  write_log(dir / "a.jsonl", a, "neck_pitch");
  write_log(dir / "b.jsonl", b, "head_yaw");
  const std::vector<std::string> inputs{(dir / "a.jsonl").string(), (dir / "b.jsonl").string()};
  // The oracle: the stable sort of the union by time (equal times: a's before b's).
  struct Item {
    double t;
    std::string text, joint;
  };
  std::vector<Item> all;
  for (const auto& t : a) all.push_back({std::stod(t), t, "neck_pitch"});
  for (const auto& t : b) all.push_back({std::stod(t), t, "head_yaw"});
  std::stable_sort(all.begin(), all.end(), [](const Item& x, const Item& y) { return x.t < y.t; });
  const auto merged = run_rmodel({"aggregate", "--sample", "--no-support", "--merge", inputs[0], inputs[1]});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  std::vector<std::string> want;
  for (const auto& item : all) want.push_back(item.text);
  EXPECT_EQ(times_of(merged.out), want);
  EXPECT_NE(merged.err.find("read 10 messages"), std::string::npos) << merged.err;
  // Each pose holds the joint of the message it follows.
  const auto poses = json_lines(merged.out);
  ASSERT_EQ(poses.size(), all.size());
  // Without --merge: a, then b.
  const auto sequential = run_rmodel({"aggregate", "--sample", "--no-support", inputs[0], inputs[1]});
  ASSERT_EQ(sequential.exit_code, 0) << sequential.err;
  std::vector<std::string> concatenated = a;
  concatenated.insert(concatenated.end(), b.begin(), b.end());
  EXPECT_EQ(times_of(sequential.out), concatenated);
  // A bad line is reported with its own file and line.
  std::ofstream(dir / "b.jsonl", std::ios::app) << "oops\n";
  const auto bad = run_rmodel({"filter", "exponential", "-p", "tau=0.05", "--merge", inputs[0], inputs[1]});
  EXPECT_NE(bad.err.find(inputs[1] + ":6:"), std::string::npos) << bad.err;
  // --merge makes one stream; --output-dir one per input.
  const auto batch = run_rmodel({"filter", "exponential", "-p", "tau=0.05", "--merge", "--output-dir",
                                 (dir / "out").string(), inputs[0], inputs[1]});
  EXPECT_EQ(batch.exit_code, 2);
  EXPECT_NE(batch.err.find("--merge and --output-dir exclude each other"), std::string::npos) << batch.err;
  fs::remove_all(dir);
}

}  // namespace rmodel::cli_window_tests
