// rmodel version: the version of rmodel, of the loaded librmodel and of the libraries they
// were built with; `--format json` for scripts (`rmodel --version` prints the text form).
#include "app.hpp"
#include "command.hpp"
#include "output.hpp"
#include "rmodel/version.hpp"

namespace rmodel::cli {
namespace {

class VersionCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("Print the version of rmodel, of the loaded librmodel, and of the libraries they were built with");
    add_format_option(app, format_, {OutputFormat::text, OutputFormat::json});
  }

  int run() override {
    if (format_ == OutputFormat::text) {
      write_out(version_text() + "\n");
      return kOk;
    }
    Json doc;
    doc["name"] = "rmodel";
    doc["version"] = RMODEL_VERSION_STRING;
    doc["library_version"] = std::string(rmodel::version());
    doc["built_with"] = Json::object();
    for (const auto& [name, version] : build_versions()) doc["built_with"][name] = version;
    write_out(json_text(doc));
    return kOk;
  }

private:
  OutputFormat format_ = OutputFormat::text;
};

}  // namespace

std::unique_ptr<Command> make_version_command() { return std::make_unique<VersionCommand>(); }

}  // namespace rmodel::cli
