// The dummy format (issue 45): a format declared in one file (dummy_format.cpp) and one row of
// the format table shows up wherever a user sees the formats, with nothing else edited.
//
// These tests run the command built with it (RMODEL_TEST_COMMAND, tests/format/CMakeLists.txt)
// and, as the reference, the plain `rmodel` (RMODEL_EXE). The oracle for the texts: the plain
// command's help, man pages and completions with `dummy` added to every list of formats (after
// `bag` in the lists of read formats, after `mcap` in the lists of written ones, `.dummy` after
// `.bag` in the lists of file name endings) must be exactly the dummy command's. A list written
// by hand somewhere would lack `dummy` in the dummy command and fail the comparison. For the
// data: `dummy ` followed by a JSON Lines message, as dummy_format.cpp defines it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.hpp"

namespace rmodel::test {
namespace {

namespace fs = std::filesystem;

/// Runs the command with the dummy format.
RunResult run_dummy(const std::vector<std::string>& args, const std::string& input = {}) {
  return run_rmodel(args, input);
}

/// Runs the plain command (RMODEL_TEST_COMMAND unset for the call).
RunResult run_plain(const std::vector<std::string>& args, const std::string& input = {}) {
  const char* dummy = std::getenv("RMODEL_TEST_COMMAND");
  const std::string saved = dummy != nullptr ? dummy : "";
  ::unsetenv("RMODEL_TEST_COMMAND");
  RunResult r = run_rmodel(args, input);
  if (!saved.empty()) ::setenv("RMODEL_TEST_COMMAND", saved.c_str(), 1);
  return r;
}

/// `text` with every `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// The plain command's text with `dummy` added to each list of formats, in each separator the
/// texts use (help: ",", completions: " ", man pages and -f: "|", sentences: ", ").
std::string with_dummy(std::string text) {
  for (const std::string_view sep_view : {",", " ", "|", ", "}) {
    const std::string sep(sep_view);
    // Read formats.
    const std::string read = "auto" + sep + "jsonl" + sep + "json" + sep + "csv" + sep + "yaml" + sep + "mcap" + sep +
                             "db3" + sep + "bag";
    text = replaced(text, read, read + sep + "dummy");
    // Written formats (a command's own csv before them takes the log's csv out of the list).
    for (const std::string& written : {"jsonl" + sep + "csv" + sep + "mcap", "jsonl" + sep + "mcap"})
      text = replaced(text, written, written + sep + "dummy");
  }
  text = replaced(text, "jsonl, csv or mcap", "jsonl, csv, mcap or dummy");
  // File name endings of every format (not those of the binary logs alone).
  return replaced(text, ".yaml, .mcap, .db3, .bag", ".yaml, .mcap, .db3, .bag, .dummy");
}

/// `text` with each run of white space made one space (help texts wrap at a width).
std::string one_space(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t';
    if (!space)
      out += c;
    else if (out.empty() || out.back() != ' ')
      out += ' ';
  }
  return out;
}

/// The commands `rmodel --help` lists: lines "  NAME  summary".
std::vector<std::string> command_names() {
  const RunResult r = run_plain({"--help"});
  std::vector<std::string> names;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.size() < 3 || line.compare(0, 2, "  ") != 0 || line[2] < 'a' || line[2] > 'z') continue;
    std::size_t end = 2;
    while (end < line.size() && ((line[end] >= 'a' && line[end] <= 'z') || line[end] == '-')) ++end;
    if (line.compare(end, 2, "  ") == 0 && line.find_first_not_of(' ', end) != std::string::npos)
      names.push_back(line.substr(2, end - 2));
  }
  return names;
}

TEST(DummyFormat, ListedInEveryCommandsHelp) {
  const std::vector<std::string> commands = command_names();
  ASSERT_GE(commands.size(), 20u);
  int listing = 0;  // commands whose help lists formats
  for (const std::string& command : commands) {
    const RunResult plain = run_plain({command, "--help"});
    const RunResult dummy = run_dummy({command, "--help"});
    ASSERT_EQ(plain.exit_code, 0) << command;
    ASSERT_EQ(dummy.exit_code, 0) << command;
    EXPECT_EQ(one_space(dummy.out), with_dummy(one_space(plain.out))) << command;
    if (dummy.out.find("dummy") != std::string::npos) ++listing;
  }
  // The commands reading or writing logs: check-log, log-info, aggregate, filter, fk,
  // dynamics, splice (log-info reads binary logs only: the dummy is text).
  EXPECT_GE(listing, 6);
  const RunResult aggregate = run_dummy({"aggregate", "--help"});
  EXPECT_NE(aggregate.out.find("auto,jsonl,json,csv,yaml,mcap,db3,bag,dummy"), std::string::npos) << aggregate.out;
  EXPECT_NE(aggregate.out.find("{jsonl|csv|mcap|dummy}"), std::string::npos) << aggregate.out;
  EXPECT_NE(one_space(aggregate.out).find(".bag, .dummy or a rosbag2 directory"), std::string::npos) << aggregate.out;
}

TEST(DummyFormat, ListedInTheManPagesAndCompletions) {
  const fs::path dir = make_temp_dir("rmodel-dummy-format");
  for (const char* kind : {"man", "completions"}) {
    ASSERT_EQ(run_plain({"--generate", kind, (dir / "plain" / kind).string()}).exit_code, 0);
    ASSERT_EQ(run_dummy({"--generate", kind, (dir / "dummy" / kind).string()}).exit_code, 0);
  }
  int files = 0, listing = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir / "plain")) {
    if (!entry.is_regular_file()) continue;
    const fs::path relative = fs::relative(entry.path(), dir / "plain");
    const std::string dummy = read_file(dir / "dummy" / relative);
    EXPECT_EQ(dummy, with_dummy(read_file(entry.path()))) << relative;
    ++files;
    if (dummy.find("dummy") != std::string::npos) ++listing;
  }
  EXPECT_GE(files, 20);
  // Bash, zsh and fish; the pages of the commands that read or write logs.
  EXPECT_GE(listing, 3 + 6);
  fs::remove_all(dir);
}

TEST(DummyFormat, ListedWhenANameIsRefused) {
  const RunResult bad = run_dummy({"aggregate", "--sample", "-i", "nope", "-"}, "");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("dummy"), std::string::npos) << bad.err;
  const RunResult bad_out = run_dummy({"aggregate", "--sample", "-f", "nope", "-"}, "");
  EXPECT_NE(bad_out.exit_code, 0);
  EXPECT_NE(bad_out.err.find("dummy"), std::string::npos) << bad_out.err;
}

// Written with -f and by -o's ending, read by its ending, by its name (-i) and from
// its content on stdin: the same messages as the JSON Lines they carry.
TEST(DummyFormat, WrittenAndReadBack) {
  const std::string input =
      "{\"t\": 0.0, \"name\": [\"neck_pitch\", \"head_yaw\"], \"position\": [0.1, 0.2]}\n"
      "{\"t\": 0.5, \"name\": [\"neck_pitch\"], \"position\": [0.3]}\n";
  const RunResult jsonl = run_dummy({"aggregate", "--sample", "-q", "-", "-f", "jsonl"}, input);
  ASSERT_EQ(jsonl.exit_code, 0) << jsonl.err;
  ASSERT_EQ(json_lines(jsonl.out).size(), 2u);
  std::string expected;  // each line of the JSON Lines output after "dummy "
  std::istringstream lines(jsonl.out);
  for (std::string line; std::getline(lines, line);) expected += "dummy " + line + "\n";

  const RunResult written = run_dummy({"aggregate", "--sample", "-q", "-", "-f", "dummy"}, input);
  ASSERT_EQ(written.exit_code, 0) << written.err;
  EXPECT_EQ(written.out, expected);

  const fs::path dir = make_temp_dir("rmodel-dummy-format");
  const fs::path file = dir / "poses.dummy";
  const RunResult by_ending = run_dummy({"aggregate", "--sample", "-q", "-", "-o", file.string()}, input);
  ASSERT_EQ(by_ending.exit_code, 0) << by_ending.err;
  EXPECT_EQ(read_file(file), expected);

  const fs::path renamed = dir / "poses.txt";
  fs::copy_file(file, renamed);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{file.string()}, std::vector<std::string>{"-i", "dummy", renamed.string()},
        std::vector<std::string>{"-"}}) {
    std::vector<std::string> all = {"aggregate", "--sample", "-q", "-f", "jsonl"};
    all.insert(all.end(), args.begin(), args.end());
    const RunResult read = run_dummy(all, args.front() == "-" ? expected : std::string());
    EXPECT_EQ(read.exit_code, 0) << args.front() << ": " << read.err;
    EXPECT_EQ(read.out, jsonl.out) << args.front();
  }
  fs::remove_all(dir);
}

// The plain command does not know it: the test's format is the test's alone.
TEST(DummyFormat, AbsentFromThePlainCommand) {
  const RunResult r = run_plain({"aggregate", "--sample", "-i", "dummy", "-"}, "");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(run_plain({"aggregate", "--help"}).out.find("dummy"), std::string::npos);
}

}  // namespace
}  // namespace rmodel::test
