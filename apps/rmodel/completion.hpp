#pragma once
// Shell completion scripts for bash, zsh and fish, generated from the command tree:
// subcommands, options, option values (the choices of IsMember / CheckedTransformer and
// --format), and file names for options and positionals that take files.

#include <filesystem>
#include <string>
#include <vector>

#include "cli_doc.hpp"

namespace rmodel::cli {

std::string bash_completion(const CommandDoc& root);
std::string zsh_completion(const CommandDoc& root);
std::string fish_completion(const CommandDoc& root);

/// Writes <dir>/rmodel.bash, <dir>/_rmodel (zsh) and <dir>/rmodel.fish; returns them.
std::vector<std::filesystem::path> write_completions(const CommandDoc& root, const std::filesystem::path& dir);

}  // namespace rmodel::cli
