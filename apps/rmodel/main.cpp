// rmodel: build the command tree (app.cpp), parse, dispatch, map errors to exit codes
// (0 ok, 1 the command failed, 2 bad arguments or unreadable input).
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>

#include <fmt/format.h>

#include "app.hpp"
#include "command.hpp"
#include "rmodel/error.hpp"

namespace {

using namespace rmodel::cli;

void print_error(const std::string& message) { fmt::print(stderr, "rmodel: error: {}\n", message); }

/// Runs `work` and maps what it throws to an exit code; with --debug, lets it through.
template <typename Work>
int guarded(bool debug, Work&& work) {
  if (debug) return work();
  try {
    const int code = work();
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

}  // namespace

int main(int argc, char** argv) {
  // A closed stdout ends the program quietly, as `head` users expect.
  std::signal(SIGPIPE, SIG_DFL);

  const auto tree = build_app();
  CLI::App& app = *tree->app;
  try {
    app.parse(argc, argv);
  } catch (const GenerateRequest& request) {
    return guarded(tree->debug, [&] { return generate(*tree, request); });
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
  Command* command = tree->parsed_command();
  if (command == nullptr) return kUsage;
  return guarded(tree->debug, [&] { return command->run(); });
}
