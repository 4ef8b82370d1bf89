// Command-line manners (issue 15): typos get a suggestion, parse errors say "rmodel:" and
// exit 2, enum values by name only, short and narrow help, completions of the model's names,
// the progress bar and diagnostics on a terminal, colour, filter plots on long logs, and the
// exit codes of write failures. Expected texts are written from the documented behaviour.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_rmodel;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// Display columns of UTF-8 text.
std::size_t columns(const std::string& line) {
  return static_cast<std::size_t>(
      std::count_if(line.begin(), line.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// 'text' for sh.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// A scratch directory removed at the end of the test.
class Scratch {
public:
  Scratch() : dir_(test::make_temp_dir("rmodel-manners")) {}
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  [[nodiscard]] const fs::path& dir() const { return dir_; }
  fs::path write(const std::string& name, const std::string& text, bool executable = false) const {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    if (executable) fs::permissions(path, fs::perms::owner_all);
    return path;
  }

private:
  fs::path dir_;
};

/// Runs `sh -c SCRIPT` (where $RMODEL is the built command) and returns its status, stdout
/// and stderr: for environment variables, redirections and pseudo-terminals.
test::RunResult run_shell(const std::string& script) {
  Scratch scratch;
  const fs::path out = scratch.dir() / "out", err = scratch.dir() / "err";
  const std::string command = "RMODEL=" + quoted(RMODEL_EXE) + "; export RMODEL; (" + script + ") >" +
                              quoted(out.string()) + " 2>" + quoted(err.string()) + " </dev/null";
  const int status = std::system(("sh -c " + quoted(command)).c_str());
  test::RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

/// Runs `rmodel ARGS` on a pseudo-terminal (script(1)): what a user sees, stdout and stderr
/// mixed, with the escape sequences.
test::RunResult run_on_terminal(const std::string& args, const std::string& env = "") {
  return run_shell("script -qfec " + quoted(env + " \"$RMODEL\" " + args) + " /dev/null");
}

bool have_script() { return std::system("command -v script >/dev/null 2>&1") == 0; }

/// Every stderr line of a usage error says who speaks, and the run exits 2 with no output.
void expect_usage_error(const test::RunResult& r, const std::string& expected) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(expected), std::string::npos) << "expected '" << expected << "' in\n" << r.err;
  for (const auto& line : lines_of(r.err)) EXPECT_EQ(line.rfind("rmodel: ", 0), 0u) << line;
}

// ---- 1. typos and parse errors ----

TEST(CliManners, UnknownCommandSuggestsTheCloseOne) {
  expect_usage_error(run_rmodel({"jonits", "--sample"}), "rmodel: error: unknown command 'jonits'; did you mean 'joints'?");
  expect_usage_error(run_rmodel({"fitler"}), "did you mean 'filter'?");
  // Far from every command: no guess, but still the prefix and exit 2.
  const auto r = run_rmodel({"frobnicate"});
  expect_usage_error(r, "unknown command 'frobnicate'");
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  expect_usage_error(run_rmodel({}), "rmodel: error: a command is required");
}

TEST(CliManners, UnknownOptionSuggestsTheCloseOne) {
  expect_usage_error(run_rmodel({"joints", "--sampel"}),
                     "rmodel: error: joints: unknown option '--sampel'; did you mean '--sample'?");
  expect_usage_error(run_rmodel({"joints", "--sample", "--fromat=json"}), "did you mean '--format'?");
  expect_usage_error(run_rmodel({"joints", "--sample", "--zzzzzz"}), "unknown option '--zzzzzz'");
  expect_usage_error(run_rmodel({"joints", "--sample", "stray"}), "joints: unexpected argument 'stray'");
  // An unknown option with a value: the option is named, not its value.
  expect_usage_error(run_rmodel({"check", "--sample", "--srdf", "robot.srdf"}),
                     "rmodel: error: check: unknown option '--srdf'; did you mean '--semantics'?");
  // Names from MoveIt and OROCOS go to the option that reads those files, not the closest spelling.
  expect_usage_error(run_rmodel({"joints", "--sample", "--cpf=robot.cpf"}),
                     "unknown option '--cpf'; did you mean '--semantics'?");
  // Only where the command has that option.
  const auto no_semantics = run_rmodel({"log-info", "--srdf", "robot.srdf"});
  EXPECT_EQ(no_semantics.exit_code, 2);
  EXPECT_NE(no_semantics.err.find("unknown option '--srdf'"), std::string::npos) << no_semantics.err;
  EXPECT_EQ(no_semantics.err.find("--semantics"), std::string::npos) << no_semantics.err;
  expect_usage_error(run_rmodel({"joints", "--sample", "--fromat", "json"}), "did you mean '--format'?");
}

TEST(CliManners, EnumValuesByNameOnlyWithASuggestion) {
  expect_usage_error(run_rmodel({"joints", "--sample", "-f", "jsn"}),
                     "'jsn' is not one of text, json, csv; did you mean 'json'?");
  // The enum's internal numbers are not names.
  expect_usage_error(run_rmodel({"joints", "--sample", "-f", "1"}), "'1' is not one of text, json, csv");
  expect_usage_error(run_rmodel({"index", "--sample", "-k", "chian", "x"}), "did you mean 'chain'?");
  expect_usage_error(run_rmodel({"help", "jonits"}), "did you mean 'joints'?");
  // Options still checked by CLI11's own list get the suggestion too.
  expect_usage_error(run_rmodel({"filter", "exponential", "--field", "posiiton", "--step"}),
                     "'posiiton' is not one of position, velocity, effort; did you mean 'position'?");
  // A good name works.
  const auto ok = run_rmodel({"joints", "--sample", "-f", "json"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(nlohmann::json::accept(ok.out)) << ok.out;
}

// Issue 40: `splice --tau 0` printed its upper bound as a 309-digit number ("Value 0 not in
// range 0.000000 to 179769313486231570814527423731704356798070567525844996598917476803157...").
// A number option out of its range says so with its numbers as they are written.
TEST(CliManners, NumberOptionsOutOfRangeSayItWithReadableNumbers) {
  const std::string log = test::sample("pony.urdf").string();  // never read: refused first
  struct Refused {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Refused> cases = {
      {{"splice", log, log, "--tau", "0"}, "splice: --tau: '0' must be more than 0"},
      {{"splice", log, log, "--tau", "-1e-9"}, "splice: --tau: '-1e-9' must be more than 0"},
      {{"splice", log, log, "--tau", "fast"}, "splice: --tau: 'fast' is not a number"},
      {{"splice", log, log, "--settle", "2"}, "splice: --settle: '2' is not in [1e-12, 0.999999]"},
      {{"splice", log, log, "--settle", "0"}, "splice: --settle: '0' is not in [1e-12, 0.999999]"},
      {{"check-log", "--sample", log, "--tolerance", "-1"}, "check-log: --tolerance: '-1' must be at least 0"},
      {{"check-log", "--sample", log, "--max-acceleration", "-2"},
       "check-log: --max-acceleration: '-2' must be at least 0"},
      {{"diff", log, log, "--tolerance", "-0.5"}, "diff: --tolerance: '-0.5' must be at least 0"},
      {{"aggregate", "--sample", log, "--max-reports", "0"}, "aggregate: --max-reports: '0' must be more than 0"},
      {{"aggregate", "--sample", log, "--brake-deceleration", "0"},
       "aggregate: --brake-deceleration: '0' must be more than 0"},
      {{"filter", "exponential", "--step", "--duration", "-1"}, "filter: --duration: '-1' must be at least 0"},
  };
  for (const Refused& c : cases) {
    SCOPED_TRACE(c.message);
    const auto r = run_rmodel(c.args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("rmodel: error: " + c.message + "\n"), std::string::npos) << r.err;
    EXPECT_LT(r.err.size(), 200u) << r.err;
  }
}

TEST(CliManners, HelpShowsEnumNamesNotInternalCodes) {
  const auto r = run_rmodel({"index", "--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("->"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("ENUM"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{joint|chain|group}"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{text|json|csv}"), std::string::npos) << r.out;
}

TEST(CliManners, UnknownModelNamesSuggestTheCloseOne) {
  auto r = run_rmodel({"index", "--sample", "neck_pich"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("rmodel: error: unknown joint 'neck_pich'; did you mean 'neck_pitch'?"), std::string::npos)
      << r.err;
  r = run_rmodel({"index", "--sample", "-k", "chain", "haed"});
  EXPECT_NE(r.err.find("did you mean 'head'?"), std::string::npos) << r.err;
  r = run_rmodel({"index", "--sample", "elbow_roll_left"});
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
}

TEST(CliManners, UnknownFilterKindAndParameterSuggestTheCloseOne) {
  auto r = run_rmodel({"filter", "exponentail", "--step"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("rmodel: error: unknown filter kind 'exponentail'; did you mean 'exponential'?"),
            std::string::npos)
      << r.err;
  r = run_rmodel({"filter", "exponential", "-p", "taw=1", "--step"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown parameter 'taw'; did you mean 'tau'?"), std::string::npos) << r.err;
}

TEST(CliManners, StdinCanFeedOnlyOneOfUrdfAndSemantics) {
  const auto r = run_rmodel({"joints", "-u", "-", "-s", "-"}, "<robot name='x'/>");
  expect_usage_error(r, "standard input can feed only one of them");
}

// ---- 3. help ----

TEST(CliManners, RootHelpIsShortAndNarrow) {
  const auto r = run_rmodel({"--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  EXPECT_LE(lines.size(), 45u) << r.out;
  for (const auto& line : lines) EXPECT_LE(columns(line), 100u) << line;
  for (const char* expected : {"Usage: rmodel", "\n  joints ", "\n  filter ", "--color", "rmodel help COMMAND"})
    EXPECT_NE(r.out.find(expected), std::string::npos) << expected << " in\n" << r.out;
}

TEST(CliManners, EveryHelpTextFitsHundredColumns) {
  const auto list = run_rmodel({"help"});
  ASSERT_EQ(list.exit_code, 0);
  for (const auto& line : lines_of(list.out)) EXPECT_LE(columns(line), 100u) << line;
  std::vector<std::string> commands;
  bool in_list = false;
  for (const auto& line : lines_of(list.out)) {
    if (line == "Commands:") in_list = true;
    else if (in_list && line.rfind("  ", 0) == 0 && line[2] != ' ') commands.push_back(line.substr(2, line.find(' ', 2) - 2));
    else if (in_list && line.empty()) break;
  }
  ASSERT_GE(commands.size(), 10u);
  for (const auto& command : commands) {
    const auto r = run_rmodel({command, "--help"});
    ASSERT_EQ(r.exit_code, 0) << command;
    for (const auto& line : lines_of(r.out)) EXPECT_LE(columns(line), 100u) << command << ": " << line;
  }
}

// ---- 3. completions of the model's names ----

std::set<std::string> word_set(const std::string& text) {
  std::set<std::string> out;
  for (const auto& line : lines_of(text))
    if (!line.empty()) out.insert(line);
  return out;
}

TEST(CliManners, CompletesNamesFromTheModelOnTheCommandLine) {
  const auto joints = run_rmodel({"joints", "--sample", "-f", "json"});
  ASSERT_EQ(joints.exit_code, 0) << joints.err;
  std::set<std::string> expected;
  const auto joint_doc = nlohmann::json::parse(joints.out);
  for (const auto& j : joint_doc["joints"]) expected.insert(j["name"].get<std::string>());
  ASSERT_FALSE(expected.empty());
  auto r = run_rmodel({"__complete", "joints", "filter", "--sample", "--joints"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(word_set(r.out), expected);

  const auto chains = run_rmodel({"chains", "--sample", "-f", "json"});
  std::set<std::string> chain_names;
  const auto chain_doc = nlohmann::json::parse(chains.out);
  for (const auto& c : chain_doc["chains"]) chain_names.insert(c["name"].get<std::string>());
  r = run_rmodel({"__complete", "index-names", "index", "--sample", "-k", "chain"});
  EXPECT_EQ(word_set(r.out), chain_names);
  r = run_rmodel({"__complete", "chains", "jacobian", "--model=" + test::sample("model.json").string()});
  EXPECT_EQ(word_set(r.out), chain_names);

  // No model yet: nothing, quietly.
  r = run_rmodel({"__complete", "joints", "filter"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

TEST(CliManners, CompletesFilterKindsAndTheirParameters) {
  const auto list = run_rmodel({"filter", "--list", "-f", "json"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  std::set<std::string> kinds, params;
  const auto list_doc = nlohmann::json::parse(list.out);
  for (const auto& k : list_doc["kinds"]) {
    kinds.insert(k["name"].get<std::string>());
    if (k["name"] == "exponential")
      for (const auto& p : k["params"]) params.insert(p["name"].get<std::string>() + "=");
  }
  EXPECT_EQ(word_set(run_rmodel({"__complete", "filter-kinds", "filter"}).out), kinds);
  ASSERT_FALSE(params.empty());
  EXPECT_EQ(word_set(run_rmodel({"__complete", "filter-params", "filter", "exponential", "-p"}).out), params);
}

TEST(CliManners, BashCompletionAsksTheModelForNames) {
  if (std::system("command -v bash >/dev/null 2>&1") != 0) GTEST_SKIP() << "bash is not installed";
  const fs::path script = test::source_dir() / "completions" / "rmodel.bash";
  const auto r = run_shell("bash -c " + quoted(". " + quoted(script.string()) +
                                               "; COMP_WORDS=(\"$RMODEL\" chains --sample he); COMP_CWORD=3; _rmodel; "
                                               "printf '%s\\n' \"${COMPREPLY[@]}\""));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(word_set(r.out), (std::set<std::string>{"head"})) << r.out << r.err;
}

// ---- 5. terminal manners ----

/// A JSON Lines log of `n` messages of one joint, message `bad` malformed.
std::string log_with_bad_line(int n, int bad) {
  std::string text;
  for (int i = 1; i <= n; ++i)
    text += i == bad ? "{\"t\": oops}\n"
                     : "{\"t\":" + std::to_string(i * 0.01) + ",\"name\":[\"head_yaw\"],\"position\":[0.5]}\n";
  return text;
}

TEST(CliManners, ProgressBarIsClearedBeforeADiagnosticAndRedrawnAfter) {
  if (!have_script()) GTEST_SKIP() << "script(1) is not installed";
  Scratch scratch;
  // The bar is first drawn at message 256 (it draws every 256 messages at most every 100 ms,
  // and the first time at once); the bad line comes after it.
  const fs::path log = scratch.write("log.jsonl", log_with_bad_line(400, 300));
  const auto r = run_on_terminal("filter exponential --color=never -o /dev/null " + quoted(log.string()));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const std::size_t diag = r.out.find("rmodel: " + log.string() + ":300");
  ASSERT_NE(diag, std::string::npos) << r.out;
  ASSERT_NE(r.out.find("] "), std::string::npos) << "no progress bar in\n" << r.out;
  // Right before the diagnostic: the bar erased (carriage return, erase line).
  EXPECT_EQ(r.out.substr(diag - 4, 4), "\r\x1b[K") << nlohmann::json(r.out.substr(0, diag + 10)).dump();
  // Right after its line: the bar again.
  const std::size_t eol = r.out.find('\n', diag);
  ASSERT_NE(eol, std::string::npos);
  EXPECT_EQ(r.out.substr(eol + 1, 1), "[") << nlohmann::json(r.out.substr(diag)).dump();
  // The summary starts on a clean line too.
  const std::size_t summary = r.out.find("rmodel filter: read");
  ASSERT_NE(summary, std::string::npos);
  EXPECT_TRUE(r.out[summary - 1] == '\n' || r.out.substr(summary - 3, 3) == "\x1b[K")
      << nlohmann::json(r.out).dump();
}

TEST(CliManners, ColourOnlyOnATerminalAndAsAsked) {
  const std::string red_error = "\x1b[1;31merror:\x1b[0m";
  // Not a terminal: plain.
  auto r = run_rmodel({"jonits"});
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  // --color=always: coloured even into a pipe.
  r = run_rmodel({"--color=always", "jonits"});
  EXPECT_NE(r.err.find("rmodel: " + red_error + " unknown command"), std::string::npos) << r.err;
  r = run_rmodel({"joints", "--sample", "--color", "always", "-f", "jsn"});
  EXPECT_NE(r.err.find(red_error), std::string::npos) << r.err;
  if (!have_script()) GTEST_SKIP() << "script(1) is not installed";
  // A terminal: coloured, unless NO_COLOR or --color=never.
  r = run_on_terminal("jonits");
  EXPECT_NE(r.out.find(red_error), std::string::npos) << r.out;
  r = run_on_terminal("jonits", "NO_COLOR=1");
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  r = run_on_terminal("--color=never jonits");
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  // A bad --color value is a usage error naming the choices.
  expect_usage_error(run_rmodel({"--color=sometimes", "help"}), "'sometimes' is not one of auto, always, never");
}

TEST(CliManners, McapIsNotWrittenToATerminal) {
  // MCAP is binary: into a terminal it is refused (exit 2, nothing written), into a pipe or a
  // file it is written.
  if (!have_script()) GTEST_SKIP() << "script(1) is not installed";
  const std::string log = quoted((test::source_dir() / "share/rmodel/examples/arm_wave.jsonl").string());
  auto r = run_on_terminal("aggregate --sample --color=never -f mcap " + log);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("MCAP is binary and standard output is a terminal"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\x89MCAP"), std::string::npos) << "MCAP bytes reached the terminal";
  r = run_on_terminal("filter exponential --sample --color=never -f mcap " + log + " | head -c 5 | od -c");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("211   M   C   A   P"), std::string::npos) << r.out;
}

// ---- 6. filter plots ----

/// A fake gnuplot that copies its script and the data files into `keep` and exits with `code`
/// after printing `message` (several lines) on stderr.
std::string fake_gnuplot(const fs::path& keep, int code, const std::string& message = "") {
  return "#!/bin/sh\n"
         "echo \"$1\" > " + quoted((keep / "script-path").string()) + "\n"
         "cp \"$1\" " + quoted((keep / "plot.gp").string()) + "\n"
         "for f in \"$(dirname \"$1\")\"/*.dat; do cp \"$f\" " + quoted(keep.string()) + "/; done\n"
         "printf '%s' " + quoted(message) + " >&2\n"
         "exit " + std::to_string(code) + "\n";
}

std::string ramp_log(int n) {
  std::string text;
  for (int i = 0; i < n; ++i)
    text += "{\"t\":" + std::to_string(10.0 + i * 0.01) + ",\"name\":[\"head_yaw\"],\"position\":[" +
            std::to_string(i * 0.001) + "]}\n";
  return text;
}

TEST(CliManners, PlotWindowResidualAndTmpdir) {
  Scratch scratch;
  const fs::path bin = scratch.dir() / "bin", keep = scratch.dir() / "keep", tmp = scratch.dir() / "tmp";
  fs::create_directories(bin);
  fs::create_directories(keep);
  fs::create_directories(tmp);
  scratch.write("bin/gnuplot", fake_gnuplot(keep, 0), true);
  const fs::path log = scratch.write("ramp.jsonl", ramp_log(1000));
  const fs::path png = scratch.dir() / "out.png";
  const auto r = run_shell("PATH=" + quoted(bin.string()) + ":$PATH TMPDIR=" + quoted(tmp.string()) +
                           " \"$RMODEL\" filter exponential -p T=0.01 -p tau=0.05 --plot " + quoted(png.string()) +
                           " --from 2 --to 3 -o /dev/null " + quoted(log.string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The temporary files were under TMPDIR (and are gone).
  const std::string script_path = read_file(keep / "script-path");
  EXPECT_EQ(script_path.rfind(tmp.string() + "/", 0), 0u) << script_path;
  EXPECT_TRUE(fs::is_empty(tmp));
  // Only samples in [2, 3] s after the first stamp; column 4 is output - input.
  std::ifstream data(keep / "trace0.dat");
  std::size_t rows = 0;
  for (double t, in, out, residual; data >> t >> in >> out >> residual; ++rows) {
    EXPECT_GE(t, 2.0 - 1e-9);
    EXPECT_LE(t, 3.0 + 1e-9);
    EXPECT_NEAR(residual, out - in, 1e-12);
    // The ramp's input at time t is (t/0.01)/1000.
    EXPECT_NEAR(in, t * 0.1, 1e-9);
  }
  EXPECT_GE(rows, 99u);
  EXPECT_LE(rows, 101u);
  const std::string gp = read_file(keep / "plot.gp");
  EXPECT_NE(gp.find("set xrange [2:3]"), std::string::npos) << gp;
  EXPECT_NE(gp.find("residual (output - input)"), std::string::npos) << gp;
}

TEST(CliManners, GnuplotFailureIsOneClearLine) {
  Scratch scratch;
  const fs::path bin = scratch.dir() / "bin", keep = scratch.dir() / "keep";
  fs::create_directories(bin);
  fs::create_directories(keep);
  scratch.write("bin/gnuplot",
                fake_gnuplot(keep, 1, "\nplot 'x' using 1:2 with lines\n          ^\n\"plot.gp\" line 12: undefined variable: x\n"),
                true);
  const fs::path png = scratch.dir() / "step.png";
  const auto r = run_shell("PATH=" + quoted(bin.string()) + ":$PATH \"$RMODEL\" filter exponential --step --plot " +
                           quoted(png.string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "rmodel: error: --plot " + png.string() +
                       ": gnuplot failed (exit status 1): \"plot.gp\" line 12: undefined variable: x\n");
}

TEST(CliManners, PlotIntoAMissingDirectoryIsAWriteFailure) {
  const auto r = run_rmodel({"filter", "exponential", "--step", "--plot", "/nonexistent-dir/x.png"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("rmodel: error: /nonexistent-dir/x.png: cannot create the plot"), std::string::npos) << r.err;
}

TEST(CliManners, FromAfterToIsAUsageError) {
  const auto r = run_rmodel({"filter", "exponential", "--step", "--plot", "x.png", "--from", "3", "--to", "2"});
  expect_usage_error(r, "--from must not be after --to");
}

// ---- write failures ----

TEST(CliManners, AFullDiskExitsOneForEveryCommand) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  Scratch scratch;
  const fs::path log = scratch.write("log.jsonl", ramp_log(200));
  for (const std::string& command :
       {std::string("joints --sample"), std::string("tree --sample"), std::string("filter exponential --step"),
        "aggregate --sample " + quoted(log.string()), "filter exponential " + quoted(log.string()),
        "aggregate --sample -o /dev/full " + quoted(log.string())}) {
    const auto r = run_shell("\"$RMODEL\" " + command + " >/dev/full");
    EXPECT_EQ(r.exit_code, 1) << command << "\n" << r.err;
    EXPECT_NE(r.err.find("rmodel: error: "), std::string::npos) << command << "\n" << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << command << "\n" << r.err;
  }
}

}  // namespace
}  // namespace rmodel
