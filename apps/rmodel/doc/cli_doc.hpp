#pragma once
// A plain description of the CLI::App tree (commands, options, positionals, value kinds),
// read by walking the tree. Man pages, `rmodel help` and the shell completions are all
// generated from it, so they say what `--help` says.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "options/value_kind.hpp"

namespace rmodel::cli {

struct OptionDoc {
  std::vector<std::string> short_names;  ///< "-f"
  std::vector<std::string> long_names;   ///< "--format"
  std::string positional;                ///< the positional's name ("names"), else empty
  std::string value_name;                ///< "FILE", "{text|json}", "TEXT", "FLOAT"; empty for flags
  std::string description;
  std::string default_value;
  std::string group;  ///< CLI11 option group ("Options", "Model", …)
  std::vector<std::string> choices;
  ValueKind kind = ValueKind::text;
  bool required = false;
  bool repeatable = false;  ///< takes several values (positionals) or may be repeated
  /// Names read from the model at completion time (`rmodel __complete DYNAMIC WORDS...`):
  /// "joints", "chains", "groups", "contacts", "poses", "joint-values", "index-names",
  /// "filter-kinds", "filter-params"; empty for other options.
  std::string dynamic;

  /// Every name, short ones first: {"-f", "--format"}.
  [[nodiscard]] std::vector<std::string> names() const;
};

struct CommandDoc {
  std::vector<std::string> path;  ///< {} for the root, {"joints"}, {"filter", "list"}
  std::string name;               ///< "rmodel", "joints"
  std::string summary;            ///< one line (the command table's summary)
  std::string description;        ///< the command's description (from its setup())
  std::vector<OptionDoc> options;      ///< named options in declaration order
  std::vector<OptionDoc> positionals;  ///< in order
  std::vector<CommandDoc> subcommands;

  /// "rmodel joints", "rmodel filter list".
  [[nodiscard]] std::string full_name() const;
  /// "rmodel-joints": the man page's name.
  [[nodiscard]] std::string page_name() const;
};

/// Describes `app` and, recursively, its visible subcommands. Hidden options and
/// subcommands (empty group) are left out. Summaries of the root's subcommands come from
/// the command table; others use the first sentence of their description.
CommandDoc describe_app(const CLI::App& app);

/// Every command of the tree, depth first, the root first.
std::vector<const CommandDoc*> all_commands(const CommandDoc& root);

}  // namespace rmodel::cli
