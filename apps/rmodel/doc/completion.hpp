#pragma once
// Shell completion scripts for bash, zsh and fish, generated from the command tree:
// subcommands, options, option values (the choices of IsMember / CheckedTransformer and
// --format), file names for options and positionals that take files, and names read from
// the model given earlier on the command line (joints, chains, groups, poses, filter kinds
// and their parameters), which the scripts ask of `rmodel __complete KIND WORDS...`.

#include <filesystem>
#include <string>
#include <vector>

#include "doc/cli_doc.hpp"

namespace rmodel::cli {

/// What kind of dynamic names the option or positional `opt` of the command `path` takes
/// (see OptionDoc::dynamic), or empty: one table, checked by a test against the tree.
std::string dynamic_kind(const std::vector<std::string>& path, const OptionDoc& opt);

/// Every (command, option or positional name) of that table, for the test.
std::vector<std::pair<std::string, std::string>> dynamic_table();

/// `rmodel __complete KIND WORDS...`: prints the names of KIND, one per line, using the model
/// options (-u, -s, -m, --sample, --semantics-format) and other context found in WORDS (the
/// command line before the word completed). Prints nothing when the model cannot be loaded:
/// completion must never show an error. Returns 0.
int complete_names(std::string_view kind, const std::vector<std::string>& words);

std::string bash_completion(const CommandDoc& root);
std::string zsh_completion(const CommandDoc& root);
std::string fish_completion(const CommandDoc& root);

/// Writes <dir>/rmodel.bash, <dir>/_rmodel (zsh) and <dir>/rmodel.fish; returns them.
std::vector<std::filesystem::path> write_completions(const CommandDoc& root, const std::filesystem::path& dir);

}  // namespace rmodel::cli
