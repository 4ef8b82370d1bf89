#pragma once
// The command tree of `rmodel`, built in one place for main (parse and dispatch), for the
// help command, and for the generators of man pages and shell completions, so that none of
// them can drift from what `--help` shows.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "command.hpp"

namespace rmodel::cli {

/// The root CLI::App with one subcommand per row of the command table.
struct AppTree {
  struct Registered {
    CLI::App* app;
    std::unique_ptr<Command> command;
  };

  std::unique_ptr<CLI::App> app;
  std::vector<Registered> commands;  ///< in command-table order
  bool debug = false;                ///< --debug: let internal exceptions through

  /// The command whose subcommand was parsed, or nullptr.
  [[nodiscard]] Command* parsed_command() const;
};

/// Thrown while parsing `rmodel --generate KIND DIR` (a hidden option), before the
/// "a subcommand is required" rule applies; main writes the files.
struct GenerateRequest {
  std::string kind;  ///< "man" or "completions"
  std::string dir;
};

/// What of the tree a command line needs, when that can be told before parsing.
struct TreeScope {
  /// The command whose options are declared: the first word after the global flags; empty
  /// (none) for `--version` and `--help` at the root.
  std::string_view set_up;
  /// The words of the command line. The other commands are added, without options, only
  /// when one of these words is their name: CLI11 consults a sibling command only by its
  /// name, so the parse, its errors and --help are those of the whole tree.
  std::vector<std::string_view> words;
};

/// Builds the tree: root options (--help, --version, --debug) and the commands of the
/// registry with the options their setup() declares. Opens no file. Without a scope, every
/// command is added and set up (help, man pages, completions). With one, only the commands
/// it needs are (see TreeScope): constructing the option tree of every command was most of
/// the start-up time of a run that needs one of them or none.
std::unique_ptr<AppTree> build_app(const std::optional<TreeScope>& scope = std::nullopt);

/// The scope of a command line (see TreeScope); nothing (the whole tree) for `--generate`,
/// `help` and a command line that starts with other options.
std::optional<TreeScope> tree_scope(int argc, const char* const* argv);

/// `rmodel --version`: the command's version, the loaded library's, and the libraries
/// they were built with (no trailing newline).
std::string version_text();

/// The libraries rmodel was built with: librmodel's dependencies, then CLI11.
std::vector<std::pair<std::string, std::string>> build_versions();

/// The list of commands with their summaries, as `rmodel help` and `rmodel --help` print it.
std::string command_list_text();

/// `text` with every line longer than `width` columns broken at spaces; a continuation is
/// indented to the line's description column (after its first run of two spaces) or to the
/// line's own indentation.
std::string wrap_lines(const std::string& text, std::size_t width = 100);

/// Runs `--generate KIND DIR` on the tree; returns the exit code. Prints the files written
/// to stderr.
int generate(const AppTree& tree, const GenerateRequest& request);

}  // namespace rmodel::cli
