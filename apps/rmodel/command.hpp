#pragma once
// A subcommand of `rmodel`: it declares its options in setup() (opening no files) and does
// its work in run(), after the whole command line has been parsed.

#include <exception>
#include <memory>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace rmodel::cli {

/// Exit codes shared by every command.
enum ExitCode : int { kOk = 0, kFailed = 1, kUsage = 2 };

/// The words for an exception that is not one of rmodel's errors: a resource the system did
/// not give (memory: "out of memory: ..."; threads, descriptors: "out of system resources:
/// ...") is said as such; anything else is "internal error: ... (rerun with --debug ...)".
[[nodiscard]] std::string unexpected_error_text(const std::exception& e);

class Command {
public:
  virtual ~Command() = default;
  /// Declares options and positionals on the command's own CLI::App.
  virtual void setup(CLI::App& app) = 0;
  /// Runs after parsing; returns the exit code. Library errors propagate to main.
  virtual int run() = 0;
};

/// One row of the command table: the single place a command is registered.
struct CommandEntry {
  std::string_view name;
  std::string_view summary;
  std::unique_ptr<Command> (*make)();
};

}  // namespace rmodel::cli
