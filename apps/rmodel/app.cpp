#include "app.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "doc/cli_doc.hpp"
#include "registry.hpp"
#include "doc/completion.hpp"
#include "doc/man_page.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/base/version.hpp"
#include "options/output.hpp"
#include "terminal.hpp"

namespace rmodel::cli {

Command* AppTree::parsed_command() const {
  for (const auto& [sub, command] : commands)
    if (sub->parsed()) return command.get();
  return nullptr;
}

std::optional<TreeScope> tree_scope(int argc, const char* const* argv) {
  TreeScope scope;
  bool named = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    scope.words.push_back(word);
    if (named || word == "--debug") continue;
    if (word == "-V" || word == "--version" || word == "-h" || word == "--help") {
      named = true;
      continue;
    }
    if (word.empty() || word.front() == '-' || word == "help") return std::nullopt;
    scope.set_up = word;
    named = true;
  }
  if (!named) return std::nullopt;
  return scope;
}

namespace {

/// Display width of UTF-8 text: code points, not bytes (help has "·" and "→").
std::size_t columns(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

std::string wrap_line(const std::string& line, std::size_t width) {
  if (columns(line) <= width) return line + "\n";
  const std::size_t lead = line.find_first_not_of(' ');
  std::size_t indent = lead == std::string::npos ? 0 : lead;
  if (lead != std::string::npos) {
    const std::size_t gap = line.find("  ", lead);
    if (gap != std::string::npos) {
      const std::size_t column = line.find_first_not_of(' ', gap);
      if (column != std::string::npos && column < width / 2) indent = column;
    }
  }
  std::string out;
  std::string rest = line;
  bool first = true;
  while (true) {
    std::string current = first ? rest : std::string(indent, ' ') + rest;
    if (columns(current) <= width) {
      out += current + "\n";
      break;
    }
    // The last space within the width, past the indentation; a word longer than the line
    // stays whole.
    std::size_t cut = std::string::npos;
    std::size_t col = 0;
    for (std::size_t i = 0; i < current.size() && col <= width; ++i) {
      if ((static_cast<unsigned char>(current[i]) & 0xC0) != 0x80) ++col;
      if (current[i] == ' ' && i > indent && col <= width + 1) cut = i;
    }
    if (cut == std::string::npos) cut = current.find(' ', indent + 1);
    if (cut == std::string::npos) {
      out += current + "\n";
      break;
    }
    out += current.substr(0, cut) + "\n";
    const std::size_t next = current.find_first_not_of(' ', cut);
    if (next == std::string::npos) break;
    rest = current.substr(next);
    first = false;
  }
  return out;
}

std::string root_help(const CLI::App& app) {
  std::string out = "Usage: rmodel [--color WHEN] [--debug] COMMAND [OPTIONS]\n\n" + app.get_description() + "\n\n";
  out += command_list_text();
  out +=
      "\nOptions:\n"
      "  -h, --help          This list\n"
      "  -V, --version       The version of rmodel and of the libraries it was built with\n"
      "  --color WHEN        Colour errors and warnings: auto (when stderr is a terminal and NO_COLOR\n"
      "                      is unset), always, never\n"
      "  --debug             Let internal exceptions through (for bug reports)\n"
      "\n'rmodel help COMMAND' shows a command's manual, 'rmodel COMMAND --help' its options.\n";
  return out;
}

/// CLI11's help, but short for the root (the command list, as `git --help`) and never wider
/// than 100 columns.
class HelpFormatter : public CLI::Formatter {
public:
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    if (app->get_parent() == nullptr && mode == CLI::AppFormatMode::Normal) return wrap_lines(root_help(*app));
    return wrap_lines(CLI::Formatter::make_help(app, std::move(name), mode));
  }
};

}  // namespace

std::string wrap_lines(const std::string& text, std::size_t width) {
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += wrap_line(text.substr(start, end - start), width);
    start = end + 1;
  }
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

std::string command_list_text() {
  std::size_t width = 0;
  for (const CommandEntry& entry : command_table()) width = std::max(width, entry.name.size());
  std::string out = "Commands:\n";
  for (const CommandEntry& entry : command_table())
    out += fmt::format("  {:<{}}  {}\n", entry.name, width, entry.summary);
  return wrap_lines(out);
}

std::unique_ptr<AppTree> build_app(const std::optional<TreeScope>& scope) {
  auto tree = std::make_unique<AppTree>();
  tree->app = std::make_unique<CLI::App>("rmodel: robot model inspection and joint-state processing", "rmodel");
  CLI::App& app = *tree->app;
  app.require_subcommand(1);
  app.set_version_flag("-V,--version", version_text());
  app.add_flag("--debug", tree->debug, "Let internal exceptions through (for bug reports)");
  app.formatter(std::make_shared<HelpFormatter>());
  // Read before parsing too (main), so that parse errors are coloured as asked; declared
  // here for --help, the man page and the completions.
  app.add_option_function<std::string>(
         "--color",
         [](const std::string& when) {
           terminal::set_color_mode(when == "always"  ? terminal::ColorMode::always
                                    : when == "never" ? terminal::ColorMode::never
                                                      : terminal::ColorMode::automatic);
         },
         "Colour errors and warnings: auto (stderr is a terminal, NO_COLOR unset), always, never")
      ->check(one_of({"auto", "always", "never"}))
      ->type_name("{auto|always|never}");
  // Hidden: `rmodel --generate man|completions DIR` writes the man pages or the shell
  // completions generated from this very tree (see docs/CONTRIBUTING.md).
  app.add_option_function<std::vector<std::string>>(
         "--generate",
         [](const std::vector<std::string>& args) {
           throw GenerateRequest{args.at(0), args.at(1)};
         },
         "Write man pages or shell completions: --generate man|completions DIR")
      ->expected(2)
      ->group("");
  app.fallthrough();

  for (const CommandEntry& entry : command_table()) {
    if (scope && std::find(scope->words.begin(), scope->words.end(), entry.name) == scope->words.end()) continue;
    CLI::App* sub = app.add_subcommand(std::string(entry.name), std::string(entry.summary));
    auto command = entry.make();
    if (!scope || scope->set_up == entry.name) command->setup(*sub);
    tree->commands.push_back({sub, std::move(command)});
  }
  return tree;
}

std::vector<std::pair<std::string, std::string>> build_versions() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const DependencyVersion& d : dependency_versions())
    out.emplace_back(std::string(d.name), std::string(d.version));
  out.emplace_back("CLI11", CLI11_VERSION);
  return out;
}

std::string version_text() {
  std::string built_with;
  for (const auto& [name, version] : build_versions())
    built_with += fmt::format("{}{} {}", built_with.empty() ? "" : ", ", name, version);
  return fmt::format("rmodel {}\nlibrary: librmodel {}\nbuilt with: {}", RMODEL_VERSION_STRING,
                     rmodel::version(), built_with);
}

int generate(const AppTree& tree, const GenerateRequest& request) {
  const CommandDoc root = describe_app(*tree.app);
  std::vector<std::filesystem::path> files;
  if (request.kind == "man")
    files = write_man_pages(root, request.dir, RMODEL_VERSION_STRING);
  else if (request.kind == "completions")
    files = write_completions(root, request.dir);
  else
    throw InvalidArgument("--generate: unknown kind '" + request.kind + "' (man, completions)");
  for (const auto& file : files) fmt::print("{}\n", file.string());
  return 0;
}

}  // namespace rmodel::cli
