#include "app.hpp"

#include <fmt/format.h>

#include "cli_doc.hpp"
#include "commands/registry.hpp"
#include "completion.hpp"
#include "man_page.hpp"
#include "rmodel/error.hpp"
#include "rmodel/version.hpp"

namespace rmodel::cli {

Command* AppTree::parsed_command() const {
  for (const auto& [sub, command] : commands)
    if (sub->parsed()) return command.get();
  return nullptr;
}

std::string_view command_named(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--debug") continue;
    if (word.empty() || word.front() == '-' || word == "help") return {};
    return word;
  }
  return {};
}

std::unique_ptr<AppTree> build_app(std::string_view only) {
  auto tree = std::make_unique<AppTree>();
  tree->app = std::make_unique<CLI::App>("rmodel: robot model inspection and joint-state processing", "rmodel");
  CLI::App& app = *tree->app;
  app.require_subcommand(1);
  app.set_version_flag("-V,--version", version_text());
  app.add_flag("--debug", tree->debug, "Let internal exceptions through (for bug reports)");
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
    CLI::App* sub = app.add_subcommand(std::string(entry.name), std::string(entry.summary));
    auto command = entry.make();
    if (only.empty() || only == entry.name) command->setup(*sub);
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
