// Whole archives: `--output-dir DIR` and `-j N` of aggregate, filter and check-log. The
// oracle is the documented promise (README "Whole archives and fleets", docs/streaming.md):
// each output file is byte for byte what the same command prints for that input alone (and an
// input whose run alone writes no file, for rejected messages, gets none), each input's stderr
// lines are those of its run alone (its summary line naming it), together and in input order,
// followed by a total; the exit status is the worst of the runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include <sys/wait.h>

#include <fmt/format.h>

#include "test_support.hpp"
#include "text_scan.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_rmodel;
using test::RunResult;

std::string example(const std::string& file) {
  return (test::source_dir() / "share" / "rmodel" / "examples" / file).string();
}

/// A temporary directory removed with the fixture.
class CliBatch : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-batch-"); }
  void TearDown() override { fs::remove_all(dir_); }

  /// A log of `count` messages of two sample-robot joints, every 0.01 s, with a malformed
  /// line at each of `bad_lines` (1-based) instead of a message.
  std::string make_log(const std::string& name, int count, std::vector<int> bad_lines = {}) const {
    const fs::path path = dir_ / "logs" / name;
    fs::create_directories(path.parent_path());
    std::ofstream out(path);
    for (int i = 1; i <= count; ++i) {
      if (std::find(bad_lines.begin(), bad_lines.end(), i) != bad_lines.end()) {
        out << fmt::format("{{\"t\": {:.2f}, \"name\": [\"neck_pitch\"], \"position\": [0.1, 0.2]}}\n", 0.01 * (i - 1));
        continue;
      }
      out << fmt::format("{{\"t\": {:.2f}, \"name\": [\"neck_pitch\", \"head_yaw\"], \"position\": [{:.6f}, {:.6f}]}}\n",
                         0.01 * (i - 1), 0.5 * std::sin(0.01 * i), 0.3 * std::cos(0.02 * i));
    }
    return path.string();
  }

  fs::path dir_;
};

/// A command over several inputs and how to get one input's output alone.
struct Case {
  std::string name;
  std::vector<std::string> args;  ///< the command without inputs and outputs
  std::string extension;          ///< of the batch's output files
  bool to_stdout;                 ///< check-log: the report is stdout; else `-o FILE`
};

std::vector<Case> cases() {
  return {{"aggregate simple", {"aggregate", "--sample"}, "jsonl", false},
          {"aggregate sync", {"aggregate", "--sample", "--kind", "sync", "--publish", "both"}, "jsonl", false},
          {"aggregate csv", {"aggregate", "--sample", "-O", "csv"}, "csv", false},
          {"filter", {"filter", "exponential", "-p", "tau=0.05", "--sample"}, "jsonl", false},
          {"check-log text", {"check-log", "--sample", "--period", "0.01"}, "txt", true},
          {"check-log json", {"check-log", "--sample", "-f", "json"}, "json", true}};
}

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string base_name(const std::string& input) { return fs::path(input).stem().string(); }

/// The input's run alone: its output (the file of -o, or stdout; none when the run wrote no
/// file), the file it was given and its result.
struct Alone {
  std::optional<std::string> output;
  std::string file;
  RunResult result;
};

Alone run_alone(const Case& c, const std::string& input, const fs::path& scratch) {
  Alone a;
  if (c.to_stdout) {
    a.result = run_rmodel(c.args + std::vector<std::string>{input});
    a.output = a.result.out;
  } else {
    const fs::path out = scratch / ("alone." + c.extension);
    a.file = out.string();
    a.result = run_rmodel(c.args + std::vector<std::string>{input, "-o", out.string()});
    if (fs::exists(out)) a.output = read_file(out);
    fs::remove(out);
  }
  return a;
}

/// Checks that `out` holds, for each input, the file its run alone wrote (and none where that
/// run wrote none), and nothing else.
void expect_outputs_as_alone(const fs::path& out, const std::vector<std::string>& inputs,
                             const std::vector<Alone>& alone, const std::string& extension) {
  std::size_t files = 0, written = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(out)) ++files;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const fs::path file = out / (base_name(inputs[i]) + "." + extension);
    if (!alone[i].output) {
      EXPECT_FALSE(fs::exists(file)) << file << ": its run alone writes no file";
      continue;
    }
    ++written;
    ASSERT_TRUE(fs::exists(file)) << file;
    EXPECT_EQ(read_file(file), *alone[i].output) << file;
  }
  EXPECT_EQ(files, written);
}

/// The summary line that ends a run's stderr, "rmodel CMD: read N message(s), wrote N,
/// rejected N, N warning(s)": where it begins and its four counts.
struct SummaryLine {
  std::size_t at = 0;
  unsigned long long counts[4] = {0, 0, 0, 0};
};

std::optional<SummaryLine> final_summary(const std::string& err, const std::string& command) {
  const std::string head = "rmodel " + command + ": read ";
  SummaryLine line;
  // Only the last "rmodel CMD: read " can begin it: what follows holds no "rmodel".
  line.at = err.rfind(head);
  if (line.at == std::string::npos) return std::nullopt;
  std::string_view rest = std::string_view(err).substr(line.at + head.size());
  const auto text = [&rest](std::string_view expected) {
    if (!rest.starts_with(expected)) return false;
    rest.remove_prefix(expected.size());
    return true;
  };
  const auto plural_then = [&](std::string_view expected) {
    if (rest.starts_with('s')) rest.remove_prefix(1);
    return text(expected);
  };
  const auto number = [&rest](unsigned long long& value) {
    const std::size_t digits = test::leading_digits(rest);
    if (digits == 0) return false;
    value = std::stoull(std::string(rest.substr(0, digits)));
    rest.remove_prefix(digits);
    return true;
  };
  unsigned long long* n = line.counts;
  if (number(n[0]) && text(" message") && plural_then(", wrote ") && number(n[1]) && text(", rejected ") &&
      number(n[2]) && text(", ") && number(n[3]) && text(" warning") && plural_then("\n") && rest.empty())
    return line;
  return std::nullopt;
}

/// The stderr a batch must print: per input, its lines alone with the summary line naming
/// the input (and the line saying that its file was not written naming the batch's file,
/// in `out`); then the total, summed from the runs alone.
std::string expected_stderr(const Case& c, const std::vector<std::string>& inputs, const std::vector<Alone>& alone,
                            const fs::path& out = {}) {
  const std::string command = c.args.front();
  std::string expected;
  if (command == "check-log") {
    int valid = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      EXPECT_EQ(alone[i].result.err, "") << inputs[i];
      // The verdict is the last line of the text report (of the run alone, in text).
      std::vector<std::string> text_args;
      for (std::size_t k = 0; k < c.args.size(); ++k) {
        if (c.args[k] == "-f") ++k;
        else text_args.push_back(c.args[k]);
      }
      std::string report = run_rmodel(text_args + std::vector<std::string>{inputs[i]}).out;
      report.pop_back();
      const std::string verdict = report.substr(report.rfind('\n') + 1);
      valid += verdict.starts_with("valid:") ? 1 : 0;
      expected += fmt::format("rmodel check-log: {}: {}\n", inputs[i], verdict);
    }
    return expected + fmt::format("rmodel check-log: {} logs: {} valid, {} invalid\n", inputs.size(), valid,
                                  static_cast<int>(inputs.size()) - valid);
  }
  unsigned long long total[4] = {0, 0, 0, 0};
  int failed = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    std::string err = alone[i].result.err;
    // "rmodel CMD: FILE not written: WHY (-o - writes it anyway)" after the summary.
    const std::string note = "rmodel " + command + ": " + alone[i].file + " not written: ";
    const std::string hint = " (-o - writes it anyway)\n";
    std::string batch_note;
    if (const auto at = err.rfind(note); !alone[i].file.empty() && at != std::string::npos && err.ends_with(hint)) {
      const std::string why = err.substr(at + note.size(), err.size() - hint.size() - at - note.size());
      batch_note = fmt::format("rmodel {}: {} not written: {}\n", command,
                               (out / (base_name(inputs[i]) + "." + c.extension)).string(), why);
      err.resize(at);
    }
    const auto summary = final_summary(err, command);
    EXPECT_TRUE(summary) << err;
    if (!summary) continue;
    for (int k = 0; k < 4; ++k) total[k] += summary->counts[k];
    failed += alone[i].result.exit_code != 0 ? 1 : 0;
    const std::size_t at = summary->at;
    expected += err.substr(0, at) + "rmodel " + command + ": " + inputs[i] + ": " + err.substr(at + command.size() + 9) +
                batch_note;
  }
  return expected + fmt::format("rmodel {}: {} inputs ({} failed): read {} message{}, wrote {}, rejected {}, {} warning{}\n",
                                command, inputs.size(), failed, total[0], total[0] == 1 ? "" : "s", total[1],
                                total[2], total[3], total[3] == 1 ? "" : "s");
}

int worst(const std::vector<Alone>& alone) {
  int code = 0;
  for (const auto& a : alone) code = std::max(code, a.result.exit_code);
  return code;
}

TEST_F(CliBatch, EachOutputIsTheInputsRunAloneWhateverTheJobs) {
  // The shipped logs (with their mistakes) and a longer one with bad lines; the long one
  // first, so that with -j 3 the others usually end before it and must wait to be printed.
  const std::vector<std::string> inputs = {make_log("long.jsonl", 3000, {700, 2100}), example("pony_log.jsonl"),
                                           example("walk.jsonl"), example("fl.jsonl"),
                                           make_log("short.jsonl", 20, {5})};
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    std::vector<Alone> alone;
    for (const auto& input : inputs) alone.push_back(run_alone(c, input, dir_));
    ASSERT_EQ(worst(alone), 1) << "the inputs have mistakes: some run alone fails";
    for (const char* jobs : {"1", "3"}) {
      SCOPED_TRACE(std::string("-j ") + jobs);
      const fs::path out = dir_ / (std::string("out-") + jobs);
      const auto r = run_rmodel(c.args + inputs + std::vector<std::string>{"--output-dir", out.string(), "-j", jobs});
      EXPECT_EQ(r.exit_code, worst(alone)) << r.err;
      EXPECT_EQ(r.out, "");
      expect_outputs_as_alone(out, inputs, alone, c.extension);
      EXPECT_EQ(r.err, expected_stderr(c, inputs, alone, out));
      fs::remove_all(out);
    }
  }
}

TEST_F(CliBatch, QuietBatchKeepsTheSummariesAndTheOutputs) {
  const std::vector<std::string> inputs = {make_log("a.jsonl", 50, {3}), example("walk.jsonl")};
  const Case c{"aggregate quiet", {"aggregate", "--sample", "-q"}, "jsonl", false};
  std::vector<Alone> alone;
  for (const auto& input : inputs) alone.push_back(run_alone(c, input, dir_));
  const auto r = run_rmodel(c.args + inputs + std::vector<std::string>{"--output-dir", (dir_ / "out").string(), "-j", "2"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, expected_stderr(c, inputs, alone, dir_ / "out"));
  expect_outputs_as_alone(dir_ / "out", inputs, alone, "jsonl");
}

TEST_F(CliBatch, SeveralInputsWithoutOutputDirStayOneStream) {
  // The default is unchanged: two logs are read as one stream (one summary, one output).
  const std::string a = make_log("a.jsonl", 10), b = make_log("b.jsonl", 10);
  const auto both = run_rmodel({"aggregate", "--sample", a, b});
  EXPECT_EQ(both.exit_code, 0) << both.err;
  EXPECT_EQ(both.err, "rmodel aggregate: read 20 messages, wrote 20, rejected 0, 0 warnings\n");
  EXPECT_EQ(both.out, run_rmodel({"aggregate", "--sample", "-"}, read_file(a) + read_file(b)).out);
}

TEST_F(CliBatch, AnInputThatFailsDoesNotStopTheOthers) {
  // A rosbag2 directory whose metadata.yaml lists no file cannot even be opened: that input
  // fails (its error among its lines), the others are written as alone, and the batch exits 1.
  const fs::path broken = dir_ / "logs" / "broken_db3";
  fs::create_directories(broken);
  std::ofstream(broken / "metadata.yaml") << "rosbag2_bagfile_information:\n  version: 5\n";
  const std::string good = make_log("good.jsonl", 30);
  const Case c{"aggregate", {"aggregate", "--sample"}, "jsonl", false};
  const Alone broken_alone = run_alone(c, broken.string(), dir_);
  EXPECT_NE(broken_alone.result.exit_code, 0);
  const Alone good_alone = run_alone(c, good, dir_);
  ASSERT_EQ(good_alone.result.exit_code, 0);
  for (const char* jobs : {"1", "2"}) {
    const fs::path out = dir_ / (std::string("out-") + jobs);
    const auto r = run_rmodel({"aggregate", "--sample", broken.string(), good, example("fl.jsonl"), "--output-dir",
                               out.string(), "-j", jobs});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    ASSERT_TRUE(good_alone.output);
    EXPECT_EQ(read_file(out / "good.jsonl"), *good_alone.output);
    EXPECT_TRUE(fs::exists(out / "fl.jsonl"));
    // The broken input's error comes first (input order), as alone, then the others.
    const std::size_t error_at = r.err.find("rmodel: error: ");
    ASSERT_NE(error_at, std::string::npos) << r.err;
    EXPECT_NE(r.err.find(broken_alone.result.err.substr(std::string("rmodel: error: ").size())), std::string::npos)
        << "expected the error of the run alone:\n" << broken_alone.result.err << "in:\n" << r.err;
    EXPECT_LT(error_at, r.err.find("rmodel aggregate: " + good + ": read 30 messages"));
    EXPECT_NE(r.err.find("rmodel aggregate: 3 inputs (1 failed): "), std::string::npos) << r.err;
  }
}

TEST_F(CliBatch, CheckLogFailsWhenOneLogIsInvalid) {
  const std::string clean = make_log("clean.jsonl", 20);
  const auto r = run_rmodel({"check-log", "--sample", clean, example("walk.jsonl"), "--output-dir",
                             (dir_ / "reports").string(), "-j", "2"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(run_rmodel({"check-log", "--sample", clean}).exit_code, 0);
  EXPECT_NE(r.err.find("rmodel check-log: 2 logs: 1 valid, 1 invalid\n"), std::string::npos) << r.err;
  // -q: nothing on the terminal, the reports still written.
  const auto quiet = run_rmodel({"check-log", "--sample", "-q", clean, example("walk.jsonl"), "--output-dir",
                                 (dir_ / "quiet").string()});
  EXPECT_EQ(quiet.exit_code, 1);
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(read_file(dir_ / "quiet" / "clean.txt"), run_rmodel({"check-log", "--sample", clean}).out);
}

TEST_F(CliBatch, UsageErrorsBeforeAnythingRuns) {
  const std::string a = make_log("a.jsonl", 5);
  fs::create_directories(dir_ / "other");
  const std::string a2 = (dir_ / "other" / "a.jsonl").string();
  std::ofstream(a2) << read_file(a);
  const std::string out = (dir_ / "out").string();
  std::ofstream(dir_ / "plain_file") << "x";
  struct Bad {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Bad> bad = {
      {{"aggregate", "--sample", a, "-", "--output-dir", out}, "'-' (stdin) cannot be an input"},
      {{"filter", "exponential", "-", "--output-dir", out}, "'-' (stdin) cannot be an input"},
      {{"check-log", "--sample", "-", "--output-dir", out}, "'-' (stdin) cannot be an input"},
      {{"aggregate", "--sample", "--output-dir", out}, "--output-dir needs input files"},
      {{"aggregate", "--sample", a, "-o", (dir_ / "x.jsonl").string(), "--output-dir", out},
       "-o and --output-dir exclude each other"},
      {{"filter", "exponential", a, "-o", (dir_ / "x.jsonl").string(), "--output-dir", out},
       "-o and --output-dir exclude each other"},
      {{"aggregate", "--sample", a, a2, "--output-dir", out},
       fmt::format("'{}' and '{}' would both be written to {}/a.jsonl", a, a2, out)},
      {{"check-log", "--sample", a, a2, "--output-dir", out},
       fmt::format("'{}' and '{}' would both be written to {}/a.txt", a, a2, out)},
      {{"aggregate", "--sample", a, "--output-dir", (dir_ / "plain_file" / "sub").string()},
       "cannot create the output directory"},
      {{"aggregate", "--sample", a, (dir_ / "missing.jsonl").string(), "--output-dir", out}, "missing.jsonl: no such file"},
      {{"aggregate", "--sample", a, "-j", "2"}, "-j/--jobs needs --output-dir DIR"},
      {{"check-log", "--sample", a, a2}, "check-log checks one log; for one report per log, give --output-dir DIR"},
      {{"filter", "exponential", a, "--step", "--output-dir", out}, "--step and --plot"},
      // The output would overwrite its input: the directory of the inputs themselves.
      {{"aggregate", "--sample", a, "--output-dir", (dir_ / "logs").string()}, "would overwrite its input"},
  };
  for (const Bad& b : bad) {
    std::string line;
    for (const auto& arg : b.args) line += arg + " ";
    SCOPED_TRACE(line);
    const auto r = run_rmodel(b.args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(b.message), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("error:"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(out)) << "a usage error must come before the output directory is made";
    EXPECT_EQ(read_file(a), read_file(a2)) << "an input was touched";
  }
}

TEST_F(CliBatch, OutputDirIsCreatedWithItsParents) {
  const std::string a = make_log("a.jsonl", 5);
  const fs::path out = dir_ / "deep" / "er" / "out";
  const auto r = run_rmodel({"filter", "exponential", "-p", "tau=0.1", a, "--output-dir", out.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(out / "a.jsonl"), run_rmodel({"filter", "exponential", "-p", "tau=0.1", a}).out);
}

TEST_F(CliBatch, RosLogsAreNamedAfterTheFileOrTheRosbag2Directory) {
  RMODEL_REQUIRE_FIXTURES();
  const std::vector<std::string> inputs = {test::fixture("bags/hoof_wave_db3").string() + "/",
                                           test::fixture("bags/hoof_wave.zstd.mcap").string(),
                                           test::fixture("bags/greeting.bz2.bag").string()};
  const Case c{"filter", {"filter", "exponential", "-p", "tau=0.05"}, "jsonl", false};
  const fs::path out = dir_ / "out";
  const auto r = run_rmodel(c.args + inputs + std::vector<std::string>{"--output-dir", out.string(), "-j", "0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> names = {"hoof_wave_db3.jsonl", "hoof_wave.zstd.jsonl", "greeting.bz2.jsonl"};
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Alone alone = run_alone(c, inputs[i], dir_);
    ASSERT_EQ(alone.result.exit_code, 0) << alone.result.err;
    ASSERT_TRUE(alone.output && !alone.output->empty());
    EXPECT_EQ(read_file(out / names[i]), *alone.output) << names[i];
  }
}

/// Runs a bash script (written to a file, so that no quoting is lost) in `dir`.
RunResult run_bash(const fs::path& dir, const std::string& script) {
  std::ofstream(dir / "script.sh") << script;
  RunResult r;
  const std::string command = "cd '" + dir.string() + "' && bash script.sh 2> stderr.txt";
  if (FILE* p = popen(command.c_str(), "r")) {
    char buf[256];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
    const int status = pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  r.err = read_file(dir / "stderr.txt");
  return r;
}

/// True when GNU parallel (not moreutils' parallel) is on PATH.
bool have_gnu_parallel(const fs::path& dir) {
  return run_bash(dir, "parallel --will-cite --version 2>/dev/null | head -n 1\n").out.find("GNU parallel") !=
         std::string::npos;
}

/// The rover's logs and model files of the fleet recipe, side by side in `dir`:
/// {wave,slow,shifted}.jsonl.
std::vector<std::string> fleet_inputs(const fs::path& dir) {
  // The arm waving, and the same wave slower and shifted.
  fs::copy_file(example("arm_wave.jsonl"), dir / "wave.jsonl");
  for (const char* name : {"slow.jsonl", "shifted.jsonl"}) {
    std::ofstream out(dir / name);
    for (int i = 0; i <= 40; ++i)
      out << fmt::format("{{\"t\": {:.2f}, \"name\": [\"arm_pan\", \"elbow\"], \"position\": [{:.4f}, {:.4f}]}}\n",
                         0.05 * i, 0.4 * std::sin(0.1 * i), name[1] == 'l' ? -0.5 : -0.7);
  }
  for (const char* file : {"model.json", "robot.urdf", "robot.json"}) fs::copy_file(example(file), dir / file);
  return {"wave", "slow", "shifted"};
}

/// What follows the hosts in the README's "parallel --will-cite --sshlogin HOSTS \" line: the
/// backslash and the lines up to the first "::: *.jsonl" that ends a line, within the code
/// block (no backquote on the way).
std::optional<std::string> fleet_recipe_after_hosts(std::string_view readme) {
  const std::string_view head = "parallel --will-cite --sshlogin ";
  for (auto at = readme.find(head); at != std::string_view::npos; at = readme.find(head, at + 1)) {
    const auto hosts = at + head.size();
    const auto hosts_end = std::min(readme.find_first_of(" \t\n\v\f\r", hosts), readme.size());
    if (hosts_end == hosts || !readme.substr(hosts_end).starts_with(" \\\n")) continue;
    const auto last = readme.find("::: *.jsonl\n", hosts_end);
    if (last == std::string_view::npos) continue;
    const std::string_view rest = readme.substr(hosts_end, last + std::string_view("::: *.jsonl").size() - hosts_end);
    if (rest.find('`') == std::string_view::npos) return std::string(rest);
  }
  return std::nullopt;
}

/// The README's fleet recipe (its `parallel --will-cite` block), with `parallel_options`
/// instead of its hosts, run with this build's rmodel first on PATH.
std::string fleet_recipe(const std::string& parallel_options) {
  const std::string readme = read_file(test::source_dir() / "README.md");
  const auto rest = fleet_recipe_after_hosts(readme);
  if (!rest) return "echo 'README.md has no fleet recipe' >&2; exit 99\n";
  return fmt::format("export PATH=\"{}:$PATH\"\nparallel --will-cite {}{}\n",
                     fs::path(RMODEL_EXE).parent_path().string(), parallel_options, *rest);
}

/// Each LOG.mcap of `dir` is `rmodel aggregate` run alone on LOG.jsonl.
void expect_fleet_outputs(const fs::path& dir, const std::vector<std::string>& logs, const RunResult& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("README.md has no fleet recipe"), std::string::npos) << r.err;
  const fs::path alone_dir = dir / "alone";
  fs::create_directories(alone_dir);
  for (const auto& log : logs) {
    SCOPED_TRACE(log);
    const fs::path alone = alone_dir / (log + ".mcap");
    const auto run = run_rmodel({"aggregate", "--model", (dir / "model.json").string(), "--kind", "sync",
                                 (dir / (log + ".jsonl")).string(), "-o", alone.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    ASSERT_TRUE(fs::exists(dir / (log + ".mcap"))) << r.err;
    EXPECT_EQ(read_file(dir / (log + ".mcap")), read_file(alone));
  }
}

TEST_F(CliBatch, GnuParallelRecipeOfTheReadmeRunsOnThisMachine) {
  // The README's fleet recipe, with `--sshlogin :` (this machine) instead of the hosts.
  if (!have_gnu_parallel(dir_))
    GTEST_SKIP() << "GNU parallel is not installed (Debian package 'parallel'; scripts/install-deps.sh); skipping "
                    "the fleet recipe";
  const auto logs = fleet_inputs(dir_);
  const auto r = run_bash(dir_, fleet_recipe("--sshlogin :"));
  expect_fleet_outputs(dir_, logs, r);
  // rmodel's own batch gives the same files.
  std::vector<std::string> args = {"aggregate", "--model", (dir_ / "model.json").string(), "--kind", "sync",
                                   "-f", "mcap", "--output-dir", (dir_ / "batch").string(), "-j", "2"};
  for (const auto& log : logs) args.push_back((dir_ / (log + ".jsonl")).string());
  const auto batch = run_rmodel(args);
  EXPECT_EQ(batch.exit_code, 0) << batch.err;
  for (const auto& log : logs)
    EXPECT_EQ(read_file(dir_ / "batch" / (log + ".mcap")), read_file(dir_ / (log + ".mcap"))) << log;
}

/// The scripts parallel sent to run on the host, decoded: it passes each as `perl -e ...`
/// followed by the script in hex, cut into arguments of 1000 digits (so a text may straddle
/// two of them, depending on the length of what precedes it, such as $PARALLEL_PID).
std::string decoded_worker_scripts(const std::string& ssh_log) {
  std::string out;
  std::istringstream lines(ssh_log);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("GNU_Parallel_worker") == std::string::npos) continue;
    std::istringstream words(line);
    std::string hex;
    for (std::string w; words >> w;)
      if (w.find_first_not_of("0123456789abcdef") == std::string::npos) hex += w;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    out += '\n';
  }
  return out;
}

TEST_F(CliBatch, GnuParallelRecipeWithAStandInRemoteHost) {
  // The same recipe with a host: its "ssh" runs commands in a directory of its own (the
  // host's home), so the model files and logs must really travel there (rsync), the outputs
  // come back, and --cleanup leaves the host empty.
  if (!have_gnu_parallel(dir_))
    GTEST_SKIP() << "GNU parallel is not installed (Debian package 'parallel'); skipping the fleet recipe";
  if (run_bash(dir_, "command -v rsync\n").exit_code != 0)
    GTEST_SKIP() << "rsync is not installed (parallel transfers files with it; scripts/install-deps.sh); skipping "
                    "the remote fleet recipe";
  const fs::path local = dir_ / "local", remote = dir_ / "remote";
  fs::create_directories(local);
  fs::create_directories(remote);
  std::ofstream(dir_ / "ssh") << fmt::format(R"(#!/bin/bash
# ssh HOST [--] COMMAND: COMMAND in {} (options before HOST are dropped)
echo "$*" >> '{}'
# sshd gives every session the user's login shell as SHELL, and parallel's remote side runs
# jobs with $SHELL: a run whose own environment lacks it (CI's does) must not pass that on.
export SHELL=/bin/bash
while [[ $# -gt 0 && "$1" == -* ]]; do
  case "$1" in -l|-p|-o|-i|-S|-O) shift 2;; *) shift;; esac
done
shift
[[ "$1" == "--" ]] && shift
cd '{}' && exec bash -c "$*"
)",
                                             remote.string(), (dir_ / "ssh.log").string(), remote.string());
  fs::permissions(dir_ / "ssh", fs::perms::owner_all);
  const auto logs = fleet_inputs(local);
  const auto r = run_bash(local, fleet_recipe(fmt::format("--ssh '{}' --sshlogin 2/host1", (dir_ / "ssh").string())));
  expect_fleet_outputs(local, logs, r);
  std::string left;
  for (const auto& entry : fs::recursive_directory_iterator(remote)) left += " " + entry.path().string();
  EXPECT_EQ(left, "") << "--cleanup left files on the host; parallel said:\n" << r.err;
  const std::string calls = read_file(dir_ / "ssh.log");
  EXPECT_NE(decoded_worker_scripts(calls).find("rmodel aggregate --model model.json"), std::string::npos)
      << "rmodel did not run on the host:\n"
      << calls;
  EXPECT_NE(calls.find("rsync --server"), std::string::npos) << "nothing was transferred:\n" << calls;
}

}  // namespace
}  // namespace rmodel
