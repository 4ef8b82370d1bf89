// rmodel: build the command tree from the registry, parse, dispatch, map errors to exit
// codes (0 ok, 1 the command failed, 2 bad arguments or unreadable input).
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "command.hpp"
#include "commands/registry.hpp"
#include "rmodel/error.hpp"

namespace {

void print_error(const std::string& message) { fmt::print(stderr, "rmodel: error: {}\n", message); }

}  // namespace

int main(int argc, char** argv) {
  using namespace rmodel::cli;
  // A closed stdout ends the program quietly, as `head` users expect.
  std::signal(SIGPIPE, SIG_DFL);

  CLI::App app{"rmodel: robot model inspection and joint-state processing", "rmodel"};
  app.require_subcommand(1);
  app.set_version_flag("-V,--version", RMODEL_VERSION_STRING);
  bool debug = false;
  app.add_flag("--debug", debug, "Let internal exceptions through (for bug reports)");
  app.fallthrough();

  struct Registered {
    CLI::App* app;
    std::unique_ptr<Command> command;
  };
  std::vector<Registered> commands;
  for (const CommandEntry& entry : command_table()) {
    CLI::App* sub = app.add_subcommand(std::string(entry.name), std::string(entry.summary));
    auto command = entry.make();
    command->setup(*sub);
    commands.push_back({sub, std::move(command)});
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kUsage;
  }

  // Dispatch outside the parse try, so that library errors are not taken for usage errors.
  for (auto& [sub, command] : commands) {
    if (!sub->parsed()) continue;
    if (debug) return command->run();
    try {
      const int code = command->run();
      std::fflush(stdout);
      return code;
    } catch (const rmodel::IoError& e) {
      print_error(e.what());
      return kUsage;
    } catch (const rmodel::InvalidArgument& e) {
      print_error(e.what());
      return kUsage;
    } catch (const rmodel::Error& e) {
      print_error(e.what());
      return kFailed;
    } catch (const std::exception& e) {
      print_error(fmt::format("internal error: {} (rerun with --debug for details)", e.what()));
      return kFailed;
    }
  }
  return kUsage;
}
