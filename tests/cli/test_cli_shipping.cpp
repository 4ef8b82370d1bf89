// Shipping: `rmodel help`, `rmodel version`, and the man pages and shell completions that
// `rmodel --generate` derives from the command tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "text_scan.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;
using test::run_rmodel;

struct TempDir {
  fs::path path = test::make_temp_dir("rmodel-shipping");
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

bool have_program(const std::string& name) {
  return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

/// Runs a bash script file; returns its stdout.
std::string run_bash(const fs::path& script) {
  const std::string command = "bash --norc --noprofile '" + script.string() + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "<popen failed>";
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  pclose(pipe);
  return out;
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

/// The command names `rmodel help` lists.
std::vector<std::string> listed_commands() {
  const auto r = run_rmodel({"help"});
  std::vector<std::string> names;
  bool in_list = false;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line == "Commands:") {
      in_list = true;
      continue;
    }
    if (in_list && line.rfind("  ", 0) == 0) names.push_back(words(line).at(0));
    if (in_list && line.empty()) break;
  }
  return names;
}

/// Whether `help` has the row "  NAME", one or more spaces, then `summary` (after a newline).
bool has_command_row(std::string_view help, const std::string& name, std::string_view summary) {
  const std::string head = "\n  " + name + " ";
  for (auto at = help.find(head); at != std::string_view::npos; at = help.find(head, at + 1)) {
    const std::string_view rest = help.substr(at + head.size());
    if (rest.substr(std::min(rest.find_first_not_of(' '), rest.size())).starts_with(summary)) return true;
  }
  return false;
}

/// The long options an option line of --help names: "--" and a lowercase letter, then
/// lowercase letters, digits and '-', at the line's start or after a space or a comma.
std::vector<std::string> long_options_on_line(std::string_view line) {
  const auto is_lower = [](char c) { return c >= 'a' && c <= 'z'; };
  std::vector<std::string> options;
  for (std::size_t at = 0; at + 2 < line.size(); ++at) {
    if (at > 0 && line[at - 1] != ' ' && line[at - 1] != ',') continue;
    if (!line.substr(at).starts_with("--") || !is_lower(line[at + 2])) continue;
    std::size_t end = at + 3;
    while (end < line.size() && (is_lower(line[end]) || (line[end] >= '0' && line[end] <= '9') || line[end] == '-'))
      ++end;
    options.emplace_back(line.substr(at, end - at));
  }
  return options;
}

/// Whether `version` is MAJOR.MINOR.PATCH: three numbers between two dots.
bool is_three_part_version(const std::string& version) {
  if (std::count(version.begin(), version.end(), '.') != 2) return false;
  const auto first = version.find('.');
  const auto second = version.rfind('.');
  return test::is_digits(version.substr(0, first)) && test::is_digits(version.substr(first + 1, second - first - 1)) &&
         test::is_digits(version.substr(second + 1));
}

TEST(CliHelp, ListsTheCommandsWithSummaries) {
  const auto r = run_rmodel({"help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto names = listed_commands();
  for (const char* expected : {"check", "joints", "index", "convert", "help", "version"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected << " in\n" << r.out;
  EXPECT_TRUE(has_command_row(r.out, "joints", "The full sorted pose")) << r.out;
}

TEST(CliHelp, ShowsACommandsPageAsTextWhenNotATerminal) {
  const auto r = run_rmodel({"help", "joints"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  for (const char* expected : {"NAME\n       rmodel-joints - ", "SYNOPSIS\n       rmodel joints [OPTIONS]",
                               "-f, --format {text|json|csv}", "Output format (default: from -o's extension, else text).",
                               "-o, --output FILE", "-u, --urdf FILE",
                               "EXIT STATUS", "SEE ALSO\n       rmodel(1)"})
    EXPECT_NE(r.out.find(expected), std::string::npos) << expected << " in\n" << r.out;
}

TEST(CliHelp, UnknownCommandIsAUsageError) {
  const auto r = run_rmodel({"help", "nope"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
}

// Every option `rmodel CMD --help` shows is on the command's manual page.
TEST(CliHelp, PagesListEveryOptionOfHelp) {
  for (const auto& command : listed_commands()) {
    const auto help = run_rmodel({command, "--help"});
    ASSERT_EQ(help.exit_code, 0) << command;
    const auto page = run_rmodel({"help", command});
    ASSERT_EQ(page.exit_code, 0) << command;
    std::istringstream in(help.out);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("  -", 0) != 0) continue;  // option lines only
      for (const auto& option : long_options_on_line(line))
        EXPECT_NE(page.out.find(option), std::string::npos) << command << ": " << option << " not on its page";
    }
  }
}

TEST(CliVersion, FlagAndCommandAgree) {
  const auto json = run_rmodel({"version", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc.at("schema"), "rmodel.version");
  EXPECT_EQ(doc.at("name"), "rmodel");
  const std::string version = doc.at("version");
  EXPECT_TRUE(is_three_part_version(version)) << version;
  EXPECT_EQ(doc.at("library_version"), version);
  for (const char* lib : {"orocos_kdl", "Eigen", "fmt", "CLI11"}) EXPECT_TRUE(doc.at("built_with").contains(lib)) << lib;

  const auto flag = run_rmodel({"--version"});
  EXPECT_EQ(flag.exit_code, 0);
  EXPECT_EQ(flag.out.substr(0, flag.out.find('\n')), "rmodel " + version);
  const auto text = run_rmodel({"version"});
  EXPECT_EQ(text.out, flag.out);
}

TEST(CliShipping, VersionFlagAloneIsTheParsersAnswer) {
  // `rmodel --version` alone is answered before the command tree is built (main.cpp); with
  // another flag CLI11 answers. Both print the same, byte for byte, and exit 0.
  const auto alone = run_rmodel({"--version"});
  const auto short_flag = run_rmodel({"-V"});
  const auto parsed = run_rmodel({"--color", "never", "--version"});
  const auto parsed_short = run_rmodel({"--debug", "-V"});
  for (const auto* r : {&alone, &short_flag, &parsed, &parsed_short}) {
    EXPECT_EQ(r->exit_code, 0);
    EXPECT_EQ(r->err, "");
  }
  EXPECT_EQ(alone.out.substr(0, 7), "rmodel ");
  EXPECT_EQ(alone.out, parsed.out);
  EXPECT_EQ(short_flag.out, parsed.out);
  EXPECT_EQ(parsed_short.out, parsed.out);
}

TEST(CliGenerate, ManPagesOnePerCommandAndCleanRoff) {
  TempDir tmp;
  const auto r = run_rmodel({"--generate", "man", tmp.path.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> pages;
  for (const auto& entry : fs::directory_iterator(tmp.path)) pages.insert(entry.path().filename().string());
  std::set<std::string> expected = {"rmodel.1"};
  for (const auto& command : listed_commands()) expected.insert("rmodel-" + command + ".1");
  EXPECT_EQ(pages, expected);
  if (!have_program("groff")) GTEST_SKIP() << "groff not installed: roff not linted";
  for (const auto& page : pages) {
    const std::string command = "groff -man -Tutf8 -ww -z '" + (tmp.path / page).string() + "' 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string warnings;
    char buf[1024];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) warnings.append(buf, n);
    EXPECT_EQ(pclose(pipe), 0) << page;
    EXPECT_EQ(warnings, "") << page;
  }
}

TEST(CliGenerate, UnknownKindIsAUsageError) {
  TempDir tmp;
  const auto r = run_rmodel({"--generate", "pdf", tmp.path.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown kind 'pdf'"), std::string::npos) << r.err;
}

class BashCompletion : public ::testing::Test {
protected:
  void SetUp() override {
    if (!have_program("bash")) GTEST_SKIP() << "bash not installed";
    const auto r = run_rmodel({"--generate", "completions", tmp_.path.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* file : {"rmodel.bash", "_rmodel", "rmodel.fish"}) ASSERT_TRUE(fs::exists(tmp_.path / file));
  }

  /// Completes the last word of `line` (words separated by spaces, "" for an empty word)
  /// the way bash does: COMP_WORDS/COMP_CWORD set, then the completion function.
  std::vector<std::string> complete(const std::vector<std::string>& line) {
    std::string script = "source '" + (tmp_.path / "rmodel.bash").string() + "'\n";
    script += "cd '" + tmp_.path.string() + "'\nCOMP_WORDS=(";
    for (const auto& w : line) script += " '" + w + "'";
    script += " )\nCOMP_CWORD=" + std::to_string(line.size() - 1) + "\n";
    script += "COMPREPLY=()\n_rmodel\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n";
    const fs::path file = tmp_.path / "complete.sh";
    std::ofstream(file) << script;
    auto out = words(run_bash(file));
    std::sort(out.begin(), out.end());
    return out;
  }

  static bool has(const std::vector<std::string>& v, const std::string& w) {
    return std::find(v.begin(), v.end(), w) != v.end();
  }

  TempDir tmp_;
};

TEST_F(BashCompletion, SubcommandsAfterTheCommandName) {
  const auto got = complete({"rmodel", ""});
  for (const auto& command : listed_commands()) EXPECT_TRUE(has(got, command)) << command;
  EXPECT_EQ(complete({"rmodel", "jo"}), std::vector<std::string>{"joints"});
}

TEST_F(BashCompletion, OptionsOfTheSubcommand) {
  const auto got = complete({"rmodel", "joints", "--"});
  for (const char* option : {"--format", "--urdf", "--semantics", "--model", "--sample", "--help"})
    EXPECT_TRUE(has(got, option)) << option;
  EXPECT_FALSE(has(got, "--strict"));  // check's, not joints'
  EXPECT_TRUE(has(complete({"rmodel", "check", "--st"}), "--strict"));
}

TEST_F(BashCompletion, FormatValues) {
  EXPECT_EQ(complete({"rmodel", "joints", "--format", ""}), (std::vector<std::string>{"csv", "json", "text"}));
  EXPECT_EQ(complete({"rmodel", "check", "-f", ""}),
            (std::vector<std::string>{"codequality", "csv", "github", "json", "junit", "sarif", "text"}));
  EXPECT_EQ(complete({"rmodel", "joints", "--format", "=", "j"}), std::vector<std::string>{"json"});
  EXPECT_EQ(complete({"rmodel", "index", "--kind", ""}), (std::vector<std::string>{"chain", "group", "joint"}));
  // After a value, options again.
  EXPECT_TRUE(has(complete({"rmodel", "joints", "-f", "csv", "--s"}), "--sample"));
}

TEST_F(BashCompletion, FileNamesForFileOptionsAndPositionals) {
  std::ofstream(tmp_.path / "robot.urdf") << "<robot/>";
  EXPECT_EQ(complete({"rmodel", "joints", "--urdf", "rob"}), std::vector<std::string>{"robot.urdf"});
  EXPECT_EQ(complete({"rmodel", "convert", "rob"}), std::vector<std::string>{"robot.urdf"});
  EXPECT_EQ(complete({"rmodel", "help", "jo"}), std::vector<std::string>{"joints"});
}

}  // namespace
}  // namespace rmodel
