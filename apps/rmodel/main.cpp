// rmodel: build the command tree (app.cpp), parse, dispatch, map errors to exit codes
// (0 ok, 1 the command failed, 2 bad arguments or unreadable input).
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include <fmt/format.h>

#include "app.hpp"
#include "command.hpp"
#include "rmodel/error.hpp"

namespace {

using namespace rmodel::cli;

void print_error(const std::string& message) { fmt::print(stderr, "rmodel: error: {}\n", message); }

/// True when stdout is a pipe or socket whose reader has gone: the write end then polls
/// as an error. (A command that saw its output fail and stopped leaves errno behind.)
bool stdout_reader_gone() {
  pollfd out{STDOUT_FILENO, POLLOUT, 0};
  return ::poll(&out, 1, 0) == 1 && (out.revents & (POLLERR | POLLHUP)) != 0;
}

/// Runs `work` and maps what it throws to an exit code; with --debug, lets it through.
template <typename Work>
int guarded(bool debug, Work&& work) {
  if (debug) return work();
  try {
    const int code = work();
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      // The reader went away (`rmodel ... | head`): end quietly, as if it had read it all.
      if (errno == EPIPE || stdout_reader_gone()) return code;
      print_error(fmt::format("cannot write to stdout: {}", std::strerror(errno)));
      return kFailed;
    }
    return code;
  } catch (const rmodel::BrokenPipe&) {
    return kOk;
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
  // A closed stdout ends the program quietly with its usual status, as `head` users
  // expect: SIGPIPE is ignored, so the write fails with EPIPE and guarded() ends the run
  // (no death by signal, which scripts would see as status 141).
  std::signal(SIGPIPE, SIG_IGN);

  const auto tree = build_app(command_named(argc, argv));
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
