// rmodel: build the command tree (app.cpp), parse, dispatch, map errors to exit codes
// (0 ok, 1 the command failed, 2 bad arguments or unreadable input).
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app.hpp"
#include "command.hpp"
#include "registry.hpp"
#include "doc/completion.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/output_file.hpp"
#include "rmodel/base/suggest.hpp"
#include "terminal.hpp"

namespace {

using namespace rmodel::cli;

void print_error(const std::string& message) { terminal::error(message); }

/// True when stdout is a pipe or socket whose reader has gone: the write end then polls
/// as an error. (A command that saw its output fail and stopped leaves errno behind.)
bool stdout_reader_gone() {
  pollfd out{STDOUT_FILENO, POLLOUT, 0};
  return ::poll(&out, 1, 0) == 1 && (out.revents & (POLLERR | POLLHUP)) != 0;
}

/// Runs `work` and maps what it throws to an exit code; with --debug, lets it through.
/// A failed write (stdout or an output file: full disk, device error) is exit 1, for every
/// command; an input that cannot be read is exit 2, like any other bad argument.
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
  } catch (const rmodel::WriteError& e) {
    print_error(e.what());
    return kFailed;
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
    print_error(unexpected_error_text(e));
    return kFailed;
  }
}

/// The deepest subcommand the command line reached (the root when none).
const CLI::App* parsed_app(const CLI::App& root) {
  const CLI::App* app = &root;
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) {
      if (sub->parsed() && !sub->get_name().empty()) {
        app = sub;
        deeper = true;
        break;
      }
    }
  }
  return app;
}

std::string command_path(const CLI::App* app) {
  std::string path;
  for (; app != nullptr && app->get_parent() != nullptr; app = app->get_parent())
    path = app->get_name() + (path.empty() ? "" : " ") + path;
  return path;
}

/// Every option name of `app` and of its parents (options fall through to the root).
std::vector<std::string> option_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (; app != nullptr; app = app->get_parent())
    for (const CLI::Option* opt : app->get_options()) {
      for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
      for (const auto& s : opt->get_snames()) names.push_back("-" + s);
    }
  return names;
}

/// Names users bring from other tools for one of rmodel's options, which spelling alone would
/// match to another (`--srdf` is one letter from `--urdf`).
std::string suggest_option(const std::string& name, const std::vector<std::string>& names) {
  static constexpr std::pair<std::string_view, std::string_view> kNamesFromElsewhere[] = {
      {"--srdf", "--semantics"},  // MoveIt's semantic description
      {"--cpf", "--semantics"},   // OROCOS's
  };
  for (const auto& [theirs, ours] : kNamesFromElsewhere)
    if (name == theirs && std::find(names.begin(), names.end(), ours) != names.end())
      return fmt::format("; did you mean '{}'?", ours);
  return rmodel::did_you_mean(name, names);
}

/// The first word of the command line that is neither an option nor an option's value: what
/// should have been a command.
std::string first_word(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--color") {
      ++i;
      continue;
    }
    if (!word.empty() && word.front() != '-') return std::string(word);
  }
  return {};
}

/// CLI::IsMember's refusal, "--field: exponentail not in {position,velocity,effort}", cut
/// into its parts.
struct NotInRefusal {
  std::string option;
  std::string value;
  std::string choices;  ///< between the braces, comma-separated
};

/// The parts of a refusal, or nothing for another message. Cut as the pattern
/// "^(.*): (.*) not in \{(.*)\}$" cuts it (a scan: std::regex warns in the sanitizer build):
/// one line that ends with '}', at its last " not in {" and at the last ": " before that.
std::optional<NotInRefusal> parse_not_in(const std::string& what) {
  if (what.empty() || what.back() != '}' || what.find_first_of("\n\r") != std::string::npos) return std::nullopt;
  constexpr std::string_view kNotIn = " not in {";
  // Any " not in {" ends before the final '}' (its own last character is '{').
  const auto not_in = what.rfind(kNotIn);
  if (not_in == std::string::npos || not_in < 2) return std::nullopt;
  const auto colon = what.rfind(": ", not_in - 2);
  if (colon == std::string::npos) return std::nullopt;
  const auto choices = not_in + kNotIn.size();
  return NotInRefusal{what.substr(0, colon), what.substr(colon + 2, not_in - colon - 2),
                      what.substr(choices, what.size() - 1 - choices)};
}

/// CLI11's parse error, said the rmodel way: "unknown command 'jonits'; did you mean
/// 'joints'?", "unknown option '--sampel'; did you mean '--sample'?", a value that is not
/// one of a list with the closest one.
std::string usage_message(const CLI::ParseError& e, const CLI::App& root, int argc, const char* const* argv) {
  const CLI::App* app = parsed_app(root);
  const std::string where = command_path(app);
  const std::string prefix = where.empty() ? "" : where + ": ";
  std::string what = e.what();
  if (app == &root) {
    const std::string word = first_word(argc, argv);
    std::vector<std::string> commands;
    for (const CommandEntry& entry : command_table()) commands.emplace_back(entry.name);
    if (!word.empty() && std::find(commands.begin(), commands.end(), word) == commands.end())
      return fmt::format("unknown command '{}'{} (see 'rmodel help')", word, rmodel::did_you_mean(word, commands));
    if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr)
      return "a command is required (see 'rmodel help')";
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    const auto colon = what.find(": ");
    std::string extras = colon == std::string::npos ? "" : what.substr(colon + 2);
    std::vector<std::string> parts;
    for (std::size_t start = 0; start < extras.size();) {
      auto end = extras.find(' ', start);
      if (end == std::string::npos) end = extras.size();
      parts.push_back(extras.substr(start, end - start));
      start = end + 1;
    }
    if (!parts.empty()) {
      // An unknown option given a value (`--srdf robot.srdf`) leaves both unexpected, the
      // value listed first: the option is the mistake to name.
      auto is_option = [](const std::string& word) {
        return word.size() > 1 && word.front() == '-' && !std::isdigit(static_cast<unsigned char>(word[1])) &&
               word[1] != '.';
      };
      const auto option = std::find_if(parts.begin(), parts.end(), is_option);
      if (option != parts.end()) {
        const std::string name = option->substr(0, option->find('='));
        return fmt::format("{}unknown option '{}'{}", prefix, name, suggest_option(name, option_names(app)));
      }
      return fmt::format("{}unexpected argument '{}'", prefix, parts.front());
    }
  }
  if (const auto refusal = parse_not_in(what)) {
    std::vector<std::string> words;
    const std::string& list = refusal->choices;
    for (std::size_t start = 0; start <= list.size();) {
      auto end = list.find(',', start);
      if (end == std::string::npos) end = list.size();
      words.push_back(list.substr(start, end - start));
      start = end + 1;
    }
    std::string shown;
    for (const auto& w : words) shown += (shown.empty() ? "" : ", ") + w;
    return fmt::format("{}{}: '{}' is not one of {}{}", prefix, refusal->option, refusal->value, shown,
                       rmodel::did_you_mean(refusal->value, words));
  }
  return prefix + what;
}

/// SIGINT, SIGTERM, SIGHUP: the outputs not yet complete are dropped (io::OutputFile: the
/// files they would have replaced stay as they were), then the signal ends the process as it
/// would have (the shell sees 128 + the signal: 130 for Ctrl-C, 143 for SIGTERM).
extern "C" void end_on_signal(int signal) {
  rmodel::io::OutputFile::remove_temporaries();
  // SA_RESETHAND restored the default action; the signal, blocked while this handler runs,
  // is delivered when it returns.
  (void)::raise(signal);
}

void drop_outputs_on_signals() {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current {};
    // Ignored by whoever started us (nohup, a background job of a script): stays ignored.
    if (::sigaction(signal, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = end_on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    (void)::sigaction(signal, &action, nullptr);
  }
}

int usage_error(const CLI::ParseError& e, const CLI::App& root, int argc, const char* const* argv) {
  print_error(usage_message(e, root, argc, argv));
  const std::string where = command_path(parsed_app(root));
  if (!where.empty()) terminal::diagnostic(fmt::format("rmodel: see 'rmodel {} --help'", where));
  return kUsage;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed stdout ends the program quietly with its usual status, as `head` users
  // expect: SIGPIPE is ignored, so the write fails with EPIPE and guarded() ends the run
  // (no death by signal, which scripts would see as status 141).
  std::signal(SIGPIPE, SIG_IGN);
  drop_outputs_on_signals();
  // Before parsing, so that a usage error is coloured as asked too.
  terminal::color_mode_from_args(argc, argv);

  // The shell completions ask for names read from the model: `rmodel __complete KIND WORDS...`.
  if (argc >= 3 && std::string_view(argv[1]) == "__complete")
    return complete_names(argv[2], std::vector<std::string>(argv + 3, argv + argc));

  // The kind of every option's value, for the test that holds them to their table
  // (CliOptionKinds.*): `rmodel __option-kinds` prints "COMMAND OPTION KIND VALUE-NAME" lines.
  if (argc == 2 && std::string_view(argv[1]) == "__option-kinds") {
    const auto tree = build_app();
    const CommandDoc root = describe_app(*tree->app);
    for (const CommandDoc* command : all_commands(root)) {
      const std::string path = command->path.empty() ? "rmodel" : fmt::format("{}", fmt::join(command->path, "/"));
      for (const auto* list : {&command->options, &command->positionals})
        for (const OptionDoc& o : *list)
          fmt::print("{} {} {} {}\n", path, o.positional.empty() ? o.names().back() : o.positional, kind_name(o.kind),
                     o.value_name.empty() ? "-" : o.value_name);
    }
    return 0;
  }

  // `rmodel --version` alone, which scripts run to learn what they run, is answered before
  // the command tree is built: building it and CLI11's parse are most of the command's own
  // start-up (docs/design.md, "Start-up"). Any other use of the flag goes through CLI11,
  // which prints the same text (CliShipping.VersionFlagAloneIsTheParsersAnswer).
  if (argc == 2 && (std::string_view(argv[1]) == "--version" || std::string_view(argv[1]) == "-V")) {
    std::fputs(version_text().c_str(), stdout);
    std::fputc('\n', stdout);
    return guarded(false, [] { return kOk; });
  }

  const auto tree = build_app(tree_scope(argc, argv));
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
    return usage_error(e, app, argc, argv);
  }

  // Dispatch outside the parse try, so that library errors are not taken for usage errors.
  Command* command = tree->parsed_command();
  if (command == nullptr) return kUsage;
  return guarded(tree->debug, [&] { return command->run(); });
}
