// rmodel help [COMMAND]: the command list, or a command's manual page. The page is built
// from the running program's own command tree, so it always matches its options: shown
// with man(1) when stdout is a terminal and man is installed, else printed as plain text.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app.hpp"
#include "doc/cli_doc.hpp"
#include "command.hpp"
#include "registry.hpp"
#include "doc/man_page.hpp"
#include "options/output.hpp"

extern char** environ;

namespace rmodel::cli {
namespace {

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::string dirs = path;
  for (std::size_t start = 0; start <= dirs.size();) {
    auto end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = dirs.substr(start, end - start);
    if (!dir.empty() && access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

/// Shows roff with `man -l`; false when that could not be done.
bool show_with_man(const std::string& roff, const std::string& name) {
  std::string tmpl = (std::filesystem::temp_directory_path() / (name + ".XXXXXX")).string();
  const int fd = mkstemp(tmpl.data());
  if (fd < 0) return false;
  close(fd);
  {
    std::ofstream out(tmpl, std::ios::binary);
    out << roff;
    if (!out.flush()) {
      std::remove(tmpl.c_str());
      return false;
    }
  }
  std::fflush(stdout);
  const char* argv[] = {"man", "-l", tmpl.c_str(), nullptr};
  pid_t pid = 0;
  bool shown = false;
  if (posix_spawnp(&pid, "man", nullptr, nullptr, const_cast<char* const*>(argv), environ) == 0) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    shown = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  std::remove(tmpl.c_str());
  return shown;
}

class HelpCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app_ = &app;
    app.description(
        "Without COMMAND, list the commands with their summaries. With COMMAND, show its manual page: through "
        "man(1) when standard output is a terminal, else as plain text");
    std::vector<std::string> names;
    for (const CommandEntry& entry : command_table()) names.emplace_back(entry.name);
    with_choices(app.add_option("command", topic_, "The command to show the manual of")->type_name("COMMAND"),
                 names);
  }

  int run() override {
    if (topic_.empty()) {
      std::string out = "Usage: rmodel COMMAND [OPTIONS]\n\n" + command_list_text();
      out +=
          "\n`rmodel help COMMAND` shows a command's manual, `rmodel COMMAND --help` its options, "
          "`rmodel --version` the version.\n";
      write_out(wrap_lines(out));
      return kOk;
    }
    const CLI::App* root = app_->get_parent();
    const CommandDoc tree = describe_app(*root);
    for (const CommandDoc& cmd : tree.subcommands) {
      if (cmd.name != topic_) continue;
      const ManPage page = build_man_page(cmd, tree);
      if (isatty(STDOUT_FILENO) && on_path("man") && show_with_man(render_roff(page, RMODEL_VERSION_STRING), page.name))
        return kOk;
      write_out(render_text(page));
      return kOk;
    }
    return kUsage;  // unreachable: the option accepts only command names
  }

private:
  CLI::App* app_ = nullptr;
  std::string topic_;
};

}  // namespace

std::unique_ptr<Command> make_help_command() { return std::make_unique<HelpCommand>(); }

}  // namespace rmodel::cli
