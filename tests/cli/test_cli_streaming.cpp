// Streaming robustness of every command that reads a joint-state stream (aggregate, filter,
// fk --log, check-log): a closed stdout, a last line without its newline, CRLF lines mixed
// with LF lines, and input trickling in a few bytes at a time all give the same messages
// as a clean file would, and end the process normally.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "test_support.hpp"

namespace rmodel {
namespace {

using test::run_rmodel;
using test::sample;

/// The streaming commands reading stdin, with the sample model.
std::vector<std::vector<std::string>> stream_commands() {
  const std::string urdf = sample("pony.urdf").string();
  const std::string semantics = sample("pony.json").string();
  return {{"aggregate", "--urdf", urdf, "--semantics", semantics, "--no-support"},
          {"filter", "exponential", "-p", "tau=0.1"},
          {"fk", "--log", "-", "--links", "head", "-f", "jsonl", "--urdf", urdf, "--semantics", semantics},
          {"check-log", "-", "-f", "json", "--urdf", urdf, "--semantics", semantics}};
}

std::string message(int i, const char* end = "\n") {
  return "{\"t\":" + std::to_string(i) + ",\"name\":[\"head_yaw\"],\"position\":[0." + std::to_string(i) + "]}" + end;
}

std::string clean_log(int count) {
  std::string text;
  for (int i = 1; i <= count; ++i) text += message(i);
  return text;
}

/// The output of `args` for the clean log of `count` messages: what every variant of the
/// same input must reproduce.
std::string reference_output(const std::vector<std::string>& args, int count) {
  const auto r = run_rmodel(args, clean_log(count));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(CliStreaming, PartialLastLineIsStillRead) {
  for (const auto& args : stream_commands()) {
    SCOPED_TRACE(args.front());
    std::string input = clean_log(3);
    input.pop_back();  // no newline after the last message
    const auto r = run_rmodel(args, input);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, reference_output(args, 3));
  }
}

TEST(CliStreaming, InterleavedCrlfLinesReadAsLf) {
  for (const auto& args : stream_commands()) {
    SCOPED_TRACE(args.front());
    const std::string input = message(1, "\r\n") + message(2) + message(3, "\r\n") + "\r\n" + message(4);
    const auto r = run_rmodel(args, input);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, reference_output(args, 4));
  }
}

TEST(CliStreaming, InputInTinyChunksGivesTheSameOutput) {
  for (const auto& args : stream_commands()) {
    SCOPED_TRACE(args.front());
    for (std::size_t chunk : {1U, 3U, 7U}) {
      const auto r = run_rmodel(args, clean_log(5), chunk);
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, reference_output(args, 5)) << "chunks of " << chunk << " bytes";
    }
  }
}

/// Runs a bash script (written to a file, so that no quoting is lost) and returns its stdout.
std::string run_bash(const std::filesystem::path& dir, const std::string& script) {
  const auto file = dir / "script.sh";
  std::ofstream(file) << script;
  std::string out;
  if (FILE* p = popen(("bash '" + file.string() + "'").c_str(), "r")) {
    char buf[256];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
  }
  return out;
}

TEST(CliStreaming, ClosedStdoutEndsQuietlyWithoutASignal) {
  // 20 000 messages into `| head -n 1`: the command must stop normally (exit 0, no SIGPIPE
  // death, no error on stderr). check-log writes one report at the end, into the closed pipe.
  const auto dir = test::make_temp_dir("rmodel-stream-");
  const auto log = dir / "long.jsonl";
  std::ofstream(log) << clean_log(20000);
  for (const auto& args : stream_commands()) {
    SCOPED_TRACE(args.front());
    std::string command = "'" RMODEL_EXE "'";
    for (const auto& a : args) command += " '" + a + "'";
    const std::string status = run_bash(dir, command + " < '" + log.string() + "' 2> '" + (dir / "err").string() +
                                                 "' | head -n 1 > /dev/null; echo ${PIPESTATUS[0]}\n");
    EXPECT_EQ(status, "0\n");
    const std::string err = test::read_file(dir / "err");  // the usual summary, no error
    EXPECT_EQ(err.find("error"), std::string::npos) << err;
  }
  std::filesystem::remove_all(dir);
}


// A log file is parsed on a second thread (--threads 2, the default): every output byte,
// every reported problem and the exit code are those of the one-thread run, for the real
// recordings of the fixtures in each format and for the commands that read logs.
TEST(CliThreads, ALogFileReadAheadGivesTheOneThreadRunByteForByte) {
  RMODEL_REQUIRE_FIXTURES();
  const std::string urdf = test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string();
  const std::string semantics = test::fixture("sweetie_bot_proto2/kinematic_chains.cpf").string();
  const std::vector<std::vector<std::string>> commands = {
      {"aggregate", "-u", urdf, "-s", semantics},
      {"aggregate", "-u", urdf, "-s", semantics, "--kind", "sync", "--period", "0.02", "--max-errors", "3"},
      {"filter", "exponential", "-p", "tau=0.1"},
      {"fk", "-u", urdf, "-s", semantics, "--links", "bone13", "-f", "jsonl", "--log"},
      {"check-log", "-u", urdf, "-s", semantics, "--period", "0.01", "--max-reports", "1000"},
      {"check-log", "-u", urdf, "-s", semantics, "-f", "json"},
  };
  for (const char* log : {"bags/hoof_wave.mcap", "bags/greeting.bz2.bag", "bags/hoof_wave_db3",
                          "bags/greeting.truth.jsonl", "bags/hoof_wave.trajectory.truth.jsonl"}) {
    for (auto args : commands) {
      args.push_back(test::fixture(log).string());
      const auto two = run_rmodel(args);
      args.insert(args.begin() + 1, {"--threads", "1"});
      const auto one = run_rmodel(args);
      SCOPED_TRACE(log + std::string(" ") + args[0]);
      EXPECT_EQ(one.exit_code, two.exit_code) << one.err;
      EXPECT_FALSE(one.out.empty()) << one.err;
      EXPECT_TRUE(one.out == two.out) << "outputs differ";
      EXPECT_EQ(one.err, two.err);
    }
  }
  const auto refused = run_rmodel({"aggregate", "-u", urdf, "--threads", "3", "-"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--threads"), std::string::npos) << refused.err;
}

}  // namespace
}  // namespace rmodel
