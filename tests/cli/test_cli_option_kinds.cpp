// The kind of every option's value (issue 45): declared where the option is (with_kind(),
// options/value_kind.hpp, or the type it declares), never guessed from words of its help.
// `rmodel __option-kinds` lists every option and positional of every command with its kind and
// value name; this file's table says what each one is, by the meaning of the option (a file is
// opened, a topic names a ROS topic, a time is seconds or a --start form, a count a whole
// number, free text anything else that is not a word of a list). The completions and man
// pages must follow: a value that is not a file or directory never completes as one, and its
// value name never says FILE.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace rmodel::test {
namespace {

namespace fs = std::filesystem;

struct OptionKind {
  std::string command;
  std::string option;  ///< its longest name, or the positional's name
  std::string kind;
  std::string value_name;
};

std::vector<OptionKind> option_kinds() {
  const RunResult r = run_rmodel({"__option-kinds"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<OptionKind> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    OptionKind k;
    fields >> k.command >> k.option >> k.kind >> k.value_name;
    out.push_back(k);
  }
  return out;
}

// What each option's value is, by its name in every command that has it.
const std::map<std::string, std::string> kKindByName = {
    // flags
    {"--help", "none"}, {"--version", "none"}, {"--clamp", "none"}, {"--debug", "none"}, {"--dynamics", "none"},
    {"--floating-base", "none"}, {"--flush-each", "none"}, {"--keep-time", "none"}, {"--list", "none"},
    {"--list-codes", "none"}, {"--mass-matrix", "none"}, {"--merge", "none"}, {"--meshes", "none"},
    {"--model-from-log", "none"}, {"--no-support", "none"}, {"--quiet", "none"}, {"--sample", "none"},
    {"--strict", "none"}, {"--tf", "none"}, {"--with-virtual", "none"}, {"--reduce", "none"},
    {"--collisions", "none"}, {"--mass-properties", "none"},
    // files and directories
    {"--urdf", "file"}, {"--semantics", "file"}, {"--model", "file"}, {"--limits", "file"},
    {"--old-limits", "file"}, {"--new-limits", "file"}, {"--old-semantics", "file"}, {"--new-semantics", "file"},
    {"--pose-file", "file"}, {"--output", "file"}, {"--log", "file"}, {"--plot", "file"},
    {"--initial-pose", "file"},  // a named pose, joint=value items or a joint-state file
    {"--from-pose", "file"},     // the same
    {"logs", "file"}, {"log", "file"}, {"movements", "file"}, {"file", "file"}, {"files", "file"},
    {"input", "file"}, {"old", "file"}, {"new", "file"},
    {"--package-path", "directory"}, {"--output-dir", "directory"},
    // ROS topics
    {"--topic", "topic"},
    // times and durations in seconds
    {"--start", "time"}, {"--end", "time"}, {"--at", "time"}, {"--period", "time"}, {"--max-gap", "time"},
    {"--tau", "time"}, {"--duration", "time"}, {"--to", "time"},
    // whole numbers
    {"--threads", "count"}, {"--jobs", "count"}, {"--max-errors", "count"}, {"--max-reports", "count"},
    {"--mcap-chunk-size", "count"}, {"--samples", "count"}, {"--seed", "count"},
    {"--show-sample", "count"},  // the number of a random pose
    // real numbers
    {"--tolerance", "number"}, {"--max-acceleration", "number"}, {"--brake-deceleration", "number"},
    {"--settle", "number"}, {"--margin", "number"}, {"--always-fraction", "number"},
    // words of a list
    {"--format", "choice"}, {"--input-format", "choice"}, {"--color", "choice"}, {"--field", "choice"},
    {"--kind", "choice"}, {"--law", "choice"}, {"--mcap-compression", "choice"}, {"--orientation", "choice"},
    {"--publish", "choice"}, {"--semantics-format", "choice"}, {"--stamp", "choice"}, {"--ticks", "choice"},
    {"--target", "choice"}, {"--time", "choice"}, {"--update", "choice"}, {"command", "choice"},
    // free text: names, items, expressions
    {"--acceleration", "text"}, {"--velocity", "text"}, {"--chain", "text"}, {"--contact", "text"},
    {"--column-prefix", "text"}, {"--time-column", "text"}, {"--diff", "text"}, {"--diff-param", "text"},
    {"--explain", "text"}, {"--ignore", "text"}, {"--filter", "text"}, {"--filter-param", "text"},
    {"--full", "text"}, {"--gravity", "text"}, {"--point", "text"}, {"--joints", "text"}, {"--link", "text"},
    {"--links", "text"}, {"--param", "text"}, {"--plot-joints", "text"}, {"--pose", "text"}, {"--quad", "text"},
    {"--quad-param", "text"}, {"--support", "text"}, {"--xacro-arg", "text"}, {"args", "text"},
    {"--shard", "text"},        // K/N
    {"joint_values", "text"}, {"kind", "text"}, {"names", "text"},
};

// Where one name means different things in different commands.
const std::map<std::pair<std::string, std::string>, std::string> kKindInCommand = {
    {{"convert", "--from"}, "choice"},    // the input's semantics format
    {{"collisions", "--update"}, "file"},  // the SRDF to update (aggregate's --update is a choice)
    {{"filter", "--from"}, "time"},     // start of the plotted window, s
    {{"filter", "--step"}, "none"},     // a step response instead of a log
    {{"splice", "--step"}, "time"},     // sample the transition every SECONDS
};

TEST(CliOptionKinds, EveryOptionOfEveryCommandHasItsKind) {
  const std::vector<OptionKind> kinds = option_kinds();
  ASSERT_GT(kinds.size(), 300u);
  std::set<std::string> commands;
  std::set<std::string> names_used;
  std::set<std::pair<std::string, std::string>> overrides_used;
  for (const OptionKind& k : kinds) {
    commands.insert(k.command);
    std::string expected;
    if (const auto it = kKindInCommand.find({k.command, k.option}); it != kKindInCommand.end()) {
      expected = it->second;
      overrides_used.insert(it->first);
    } else if (const auto by_name = kKindByName.find(k.option); by_name != kKindByName.end()) {
      expected = by_name->second;
      names_used.insert(k.option);
    } else {
      ADD_FAILURE() << k.command << " " << k.option << " (" << k.kind << ") is not in this test's table";
      continue;
    }
    EXPECT_EQ(k.kind, expected) << k.command << " " << k.option;
  }
  EXPECT_EQ(commands.size(), 24u);  // rmodel and its 23 commands
  // No entry of the tables names an option that no longer exists.
  for (const auto& [name, kind] : kKindByName) EXPECT_TRUE(names_used.count(name)) << "unused: " << name;
  for (const auto& [key, kind] : kKindInCommand)
    EXPECT_TRUE(overrides_used.count(key)) << "unused: " << key.first << " " << key.second;
}

TEST(CliOptionKinds, OnlyFilesAndDirectoriesShowFileValueNames) {
  for (const OptionKind& k : option_kinds()) {
    if (k.kind == "file" || k.kind == "directory") continue;
    EXPECT_EQ(k.value_name.find("FILE"), std::string::npos) << k.command << " " << k.option << " " << k.value_name;
    EXPECT_NE(k.value_name, "DIR") << k.command << " " << k.option;
  }
  // The man page of dynamics: --diff names a differentiator.
  const std::string man = read_file(source_dir() / "man" / "rmodel-dynamics.1");
  EXPECT_NE(man.find("\\fB\\-\\-diff\\fR \\fIKIND\\fR"), std::string::npos);
  EXPECT_EQ(man.find("\\fB\\-\\-diff\\fR \\fIFILE\\fR"), std::string::npos);
}

// A value that is not a file or a directory does not complete as one in bash, zsh or fish;
// one that is does.
TEST(CliOptionKinds, CompletionsOfferFileNamesForFilesOnly) {
  const fs::path dir = make_temp_dir("rmodel-option-kinds");
  ASSERT_EQ(run_rmodel({"--generate", "completions", dir.string()}).exit_code, 0);
  const std::string bash = read_file(dir / "rmodel.bash");
  const std::string zsh = read_file(dir / "_rmodel");
  const std::string fish = read_file(dir / "rmodel.fish");
  int files = 0, others = 0;
  for (const OptionKind& k : option_kinds()) {
    if (k.option.rfind("--", 0) != 0 || k.command == "rmodel") continue;  // positionals, the root's
    const bool path = k.kind == "file" || k.kind == "directory";
    (path ? files : others)++;
    SCOPED_TRACE(k.command + " " + k.option + " (" + k.kind + ")");
    // bash: 'CMD|-s'|'CMD|--long') _rmodel_files ;; (the long name last)
    const std::string bash_case = "'" + k.command + "|" + k.option + "') ";
    const bool bash_files = bash.find(bash_case + "_rmodel_files") != std::string::npos ||
                            bash.find(bash_case + "_rmodel_dirs") != std::string::npos;
    EXPECT_EQ(bash_files, path) << "bash";
    // zsh: in the command's function, '(...)--name=[description]:message:_files' (or
    // `_files -/` for a directory).
    std::string function = "_rmodel_" + k.command + "() {";
    for (char& c : function)
      if (c == '-') c = '_';
    const std::size_t begin = zsh.find(function);
    ASSERT_NE(begin, std::string::npos) << function;
    const std::string body = zsh.substr(begin, zsh.find("\n}\n", begin) - begin);
    bool zsh_files = false;
    for (std::size_t at = body.find(k.option + "=["); at != std::string::npos; at = body.find(k.option + "=[", at + 1)) {
      const std::string line = body.substr(at, body.find('\n', at) - at);
      if (line.find(":_files") != std::string::npos) zsh_files = true;
    }
    EXPECT_EQ(zsh_files, path) << "zsh";
    // fish: complete ... -n '__fish_seen_subcommand_from CMD' ... -l name -r -F
    bool fish_files = false;
    std::istringstream in(fish);
    for (std::string line; std::getline(in, line);)
      if (line.find("__fish_seen_subcommand_from " + k.command + "'") != std::string::npos &&
          line.find(" -l " + k.option.substr(2) + " ") != std::string::npos &&
          (line.find(" -r -F ") != std::string::npos || line.find("__fish_complete_directories") != std::string::npos))
        fish_files = true;
    EXPECT_EQ(fish_files, path) << "fish";
  }
  EXPECT_GT(files, 50);
  EXPECT_GT(others, 100);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rmodel::test
