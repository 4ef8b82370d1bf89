// Exact time through the command (issue 21): stamps pass every format bit for bit, filters and
// the sync aggregator do not depend on where the clock's zero is, check-log states the
// interval it measured.
#include <cctype>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rmodel/io/reader.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;
using test::fixture;
using test::json_lines;
using test::run_rmodel;

// A regular 100 Hz log of two joints, t = zero + k·10 ms written as exact decimals.
std::string regular_log(std::int64_t zero_seconds, int samples) {
  std::string out;
  for (int k = 0; k < samples; ++k) {
    const double a = std::sin(0.05 * k) + 0.3 * ((k / 17) % 2);  // a ramp-like signal with steps
    const double b = std::cos(0.03 * k);
    out += fmt::format(R"({{"t":{}.{:02},"name":["a","b"],"position":[{},{}]}})" "\n", zero_seconds + k / 100, k % 100,
                       a, b);
  }
  return out;
}

// The `t` text of each line (exact, as written) and the lines' positions.
struct Stream {
  std::vector<std::string> t;
  std::vector<std::vector<double>> position;
};
Stream parse_stream(const std::string& text) {
  Stream s;
  for (const auto& m : json_lines(text)) s.position.push_back(m["position"].get<std::vector<double>>());
  std::size_t at = 0;
  while ((at = text.find("\"t\":", at)) != std::string::npos) {
    at += 4;
    s.t.push_back(text.substr(at, text.find_first_of(",}", at) - at));
  }
  return s;
}

// Issue 21: on a 100 Hz log with epoch stamps, `exponential -p tau=0.05` switched its gain
// every 0.25 s (the double difference of two epoch stamps is 0.0100002289 s) and differed from
// `-p T=0.01` by up to 2.4e-3 rad; the same log starting at 0 gave other results again.
TEST(CliExactTime, FilterOutputDoesNotDependOnTheClocksZero) {
  const int samples = 400;
  const std::string epoch = regular_log(1700000000, samples), zero = regular_log(0, samples);
  for (const std::vector<std::string>& kind :
       {std::vector<std::string>{"exponential", "-p", "tau=0.05"}, {"lag_diff", "-p", "tau=0.05"},
        {"second_order"}, {"fir_diff"}, {"trapezoid"}}) {
    SCOPED_TRACE(kind[0]);
    std::vector<std::string> args = {"filter"};
    args.insert(args.end(), kind.begin(), kind.end());
    const auto on_epoch = run_rmodel(args, epoch);
    const auto on_zero = run_rmodel(args, zero);
    args.insert(args.end(), {"-p", "T=0.01"});
    const auto fixed = run_rmodel(args, zero);
    ASSERT_EQ(on_epoch.exit_code, 0) << on_epoch.err;
    ASSERT_EQ(on_zero.exit_code, 0) << on_zero.err;
    ASSERT_EQ(fixed.exit_code, 0) << fixed.err;
    const Stream e = parse_stream(on_epoch.out), z = parse_stream(on_zero.out), f = parse_stream(fixed.out);
    ASSERT_EQ(e.position.size(), static_cast<std::size_t>(samples));
    ASSERT_EQ(z.position.size(), e.position.size());
    ASSERT_EQ(f.position.size(), e.position.size());
    for (std::size_t k = 0; k < e.position.size(); ++k) {
      EXPECT_EQ(e.position[k], z.position[k]) << "sample " << k << ": epoch and zero stamps";
      EXPECT_EQ(z.position[k], f.position[k]) << "sample " << k << ": stamps and -p T=0.01";
    }
    // The stamps pass unchanged.
    ASSERT_EQ(e.t.size(), e.position.size());
    EXPECT_EQ(e.t[1], "1700000000.01");
    EXPECT_EQ(e.t[399], "1700000003.99");
    EXPECT_EQ(z.t[1], "0.01");
  }
}

// The sync aggregator's ticks and filter steps: the same poses wherever the clock starts.
TEST(CliExactTime, SyncAggregateDoesNotDependOnTheClocksZero) {
  auto log = [](std::int64_t zero) {
    std::string out;
    for (int k = 0; k < 300; ++k)
      out += fmt::format(R"({{"t":{}.{:02},"name":["head_yaw","neck_pitch"],"position":[{},{}]}})" "\n",
                         zero + k / 100, k % 100, 0.5 * std::sin(0.02 * k), 0.1 * std::cos(0.05 * k));
    return out;
  };
  const std::vector<std::string> args = {"aggregate", "--sample", "--kind", "sync", "--no-support", "-"};
  const auto epoch = run_rmodel(args, log(1700000000));
  const auto zero = run_rmodel(args, log(0));
  ASSERT_EQ(epoch.exit_code, 0) << epoch.err;
  ASSERT_EQ(zero.exit_code, 0) << zero.err;
  const auto e = json_lines(epoch.out), z = json_lines(zero.out);
  ASSERT_EQ(e.size(), 300u);  // one cycle per stamp: the ticks fall on the stamps
  ASSERT_EQ(z.size(), e.size());
  for (std::size_t k = 0; k < e.size(); ++k) {
    EXPECT_EQ(e[k]["position"], z[k]["position"]) << k;
    EXPECT_EQ(e[k]["velocity"], z[k]["velocity"]) << k;
  }
  const Stream es = parse_stream(epoch.out);
  EXPECT_EQ(es.t[0], "1700000000");
  EXPECT_EQ(es.t[299], "1700000002.99");
}

// A bag's {sec, nanosec} through MCAP, JSON Lines (with ROS 2 header stamps) and MCAP again:
// every stamp as recorded (issue 21: 10000000 ns came back as 9999990, 130000000 as 130000114).
TEST(CliExactTime, BagToMcapToJsonLinesToMcapKeepsEveryStamp) {
  RMODEL_REQUIRE_FIXTURES();
  const fs::path dir = test::make_temp_dir("rmodel-exact-time");
  const std::vector<std::string> model = {"-u", fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(), "-s",
                                          fixture("sweetie_bot_proto2/kinematic_chains.cpf").string()};
  auto aggregate = [&](std::vector<std::string> io_args) {
    std::vector<std::string> args = {"aggregate", "-q", "--no-support"};
    args.insert(args.end(), model.begin(), model.end());
    args.insert(args.end(), io_args.begin(), io_args.end());
    return run_rmodel(args);
  };
  const std::string a = (dir / "a.mcap").string(), b = (dir / "b.jsonl").string(), c = (dir / "c.mcap").string();
  auto r = aggregate({fixture("bags/greeting.bag").string(), "-o", a});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = aggregate({a, "--stamp", "ros2", "-o", b});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = aggregate({b, "-o", c});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // The truth: the header stamps of the recorded JointStates, in recording order.
  std::vector<std::pair<std::int64_t, std::int64_t>> truth;
  for (const auto& m : json_lines(test::read_file(fixture("bags/greeting.truth.jsonl"))))
    if (m["topic"] == "/joint_states")
      truth.emplace_back(m["header"]["stamp"]["sec"].get<std::int64_t>(),
                         m["header"]["stamp"]["nanosec"].get<std::int64_t>());
  ASSERT_EQ(truth.size(), 1383u);

  const auto lines = json_lines(test::read_file(b));
  ASSERT_EQ(lines.size(), truth.size());
  for (std::size_t k = 0; k < truth.size(); ++k) {
    EXPECT_EQ(lines[k]["header"]["stamp"]["sec"].get<std::int64_t>(), truth[k].first) << k;
    EXPECT_EQ(lines[k]["header"]["stamp"]["nanosec"].get<std::int64_t>(), truth[k].second) << k;
  }
  for (const std::string& mcap : {a, c}) {
    const auto read = test::read_log(mcap);
    ASSERT_TRUE(read.errors.empty()) << read.errors[0].to_string(mcap);
    ASSERT_EQ(read.messages.size(), truth.size());
    for (std::size_t k = 0; k < truth.size(); ++k) {
      EXPECT_EQ(read.messages[k].joint.stamp.sec(), truth[k].first) << mcap << " message " << k;
      EXPECT_EQ(read.messages[k].joint.stamp.nanosec(), truth[k].second) << mcap << " message " << k;
    }
  }
  // The CSV time column keeps them too.
  r = aggregate({c, "-f", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\n1700000000.01,"), std::string::npos);
  EXPECT_NE(r.out.find("\n1700000000.13,"), std::string::npos);
  fs::remove_all(dir);
}

// check-log --period states the interval it divided by: the stamps' difference (0.375 s),
// not the period given, and the count of errors does not change with the period.
TEST(CliExactTime, CheckLogPeriodUsesTheIntervalBetweenTheStamps) {
  const std::string log =
      R"({"t":0,"name":["head_yaw"],"position":[-0.000314]})" "\n"
      R"({"t":0.375,"name":["head_yaw"],"position":[-0.794]})" "\n"
      R"({"t":0.4,"name":["head_yaw"],"position":[-0.7]})" "\n";
  std::string first;
  for (const char* period : {"0.1", "0.2", "0.375", "0.001"}) {
    SCOPED_TRACE(period);
    const auto r = run_rmodel({"check-log", "--sample", "--period", period, "-"}, log);
    EXPECT_EQ(r.exit_code, 1);
    // (−0.794 + 0.000314) / 0.375 = −2.116496 rad/s; head_yaw's limit is 2.
    EXPECT_NE(r.out.find("moved from -0.000314 to -0.794 in 0.375 s, -2.1165 rad/s implied"), std::string::npos)
        << r.out;
    const std::string verdict = r.out.substr(r.out.rfind("invalid:"));
    if (first.empty()) first = verdict;
    EXPECT_EQ(verdict, first);
  }
}

}  // namespace
}  // namespace rmodel

namespace rmodel {
namespace {

// ROS logs on a pipe (`cat run.mcap | rmodel aggregate -`) give the output of the same file
// named; the log's first bytes may come a few at a time; text on a pipe is still read as it
// comes; a .db3 on a pipe is refused with a reason (SQLite reads files only).
TEST(CliLogsOnAPipe, EveryBinaryLogReadsAsItsFile) {
  RMODEL_REQUIRE_FIXTURES();
  const std::vector<std::string> model = {"-u", fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(), "-s",
                                          fixture("sweetie_bot_proto2/kinematic_chains.cpf").string()};
  auto aggregate = [&](const std::string& input) {
    std::vector<std::string> args{"aggregate"};
    args.insert(args.end(), model.begin(), model.end());
    args.push_back(input);
    return args;
  };
  for (const char* name : {"greeting.zstd.mcap", "greeting.lz4.mcap", "greeting.bag", "greeting.bz2.bag",
                           "hoof_wave.lz4.bag", "hoof_wave.mcap"}) {
    SCOPED_TRACE(name);
    const fs::path path = fixture(std::string("bags/") + name);
    const auto named = run_rmodel(aggregate(path.string()));
    ASSERT_EQ(named.exit_code, 0) << named.err;
    ASSERT_FALSE(named.out.empty());
    const std::string bytes = test::read_file(path);
    const auto piped = run_rmodel(aggregate("-"), bytes);
    EXPECT_EQ(piped.exit_code, 0) << piped.err;
    EXPECT_EQ(piped.out, named.out);
    // The magic bytes trickling in three at a time.
    const auto trickled = run_rmodel(aggregate("-"), bytes.substr(0, 64), 3);
    EXPECT_EQ(trickled.err.find("bad number"), std::string::npos) << trickled.err;
  }
  const auto db3 = run_rmodel(aggregate("-"), test::read_file(fixture("bags/greeting_db3/greeting_db3_0.db3")));
  EXPECT_NE(db3.exit_code, 0);
  EXPECT_NE(db3.err.find("a ROS 2 .db3 cannot be read from a pipe"), std::string::npos) << db3.err;
}

TEST(CliLogsOnAPipe, TextTricklingInByteByByteIsReadAsTheFile) {
  const fs::path log = test::source_dir() / "share/rmodel/examples/walk.jsonl";
  const auto named = run_rmodel({"aggregate", "--sample", log.string()});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  const auto piped = run_rmodel({"aggregate", "--sample", "-"}, test::read_file(log).substr(0, 1500), 1);
  const auto expected = run_rmodel({"aggregate", "--sample", "-"}, test::read_file(log).substr(0, 1500));
  EXPECT_EQ(piped.exit_code, expected.exit_code);
  EXPECT_EQ(piped.out, expected.out);
  EXPECT_EQ(named.out.substr(0, 200), piped.out.substr(0, 200));
}

}  // namespace
}  // namespace rmodel

namespace rmodel {
namespace {

// One way to take a log in: every command that reads logs declares the same input options
// with the same help (issue 21), so what --help says of one holds for all.
TEST(CliLogInput, EveryLogReadingCommandHasTheSameInputOptions) {
  const std::vector<std::string> options = {"-i,--input-format ", "--topic NAME", "--time TEXT", "--time-column ",
                                            "--column-prefix "};
  // The help of an option: its line and the lines of its description after it, spaces
  // collapsed, without the "Needs: --log" of the commands whose log is an option.
  auto help_of = [](const std::string& help, const std::string& option) {
    const auto at = help.find("  " + option);
    if (at == std::string::npos) return std::string("(missing)");
    const auto end = help.find("\n  -", at + 1);
    std::string text = help.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (const auto needs = text.find(" Needs: --log"); needs != std::string::npos) text.erase(needs, 13);
    std::string collapsed;
    for (char c : text)
      if (!(std::isspace(static_cast<unsigned char>(c)) && (collapsed.empty() || collapsed.back() == ' ')))
        collapsed += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
    return collapsed;
  };
  const auto reference = run_rmodel({"aggregate", "--help"});
  ASSERT_EQ(reference.exit_code, 0);
  for (const char* command : {"filter", "fk", "dynamics", "check-log"}) {
    SCOPED_TRACE(command);
    const auto help = run_rmodel({command, "--help"});
    ASSERT_EQ(help.exit_code, 0) << help.err;
    for (const auto& option : options) {
      const std::string mine = help_of(help.out, option);
      EXPECT_NE(mine, "(missing)") << option;
      EXPECT_EQ(mine, help_of(reference.out, option));
    }
  }
}

}  // namespace
}  // namespace rmodel
