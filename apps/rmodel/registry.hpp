#pragma once
#include <span>

#include "command.hpp"

namespace rmodel::cli {

/// Every subcommand, in the order `rmodel --help` lists them.
std::span<const CommandEntry> command_table();

}  // namespace rmodel::cli
