// rmodel version: the version of rmodel, of the loaded librmodel and of the libraries they
// were built with; `--format json` for scripts (`rmodel --version` prints the text form).
#include "app.hpp"
#include "command.hpp"
#include "options/output.hpp"
#include "rmodel/base/version.hpp"

namespace rmodel::cli {
namespace {

class VersionCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("Print the version of rmodel, of the loaded librmodel, and of the libraries they were built with");
    out_.add_to(app, {OutputFormat::text, OutputFormat::json}, OutputFormat::text);
  }

  int run() override {
    if (out_.is(OutputFormat::text)) {
      out_.write(version_text() + "\n");
      out_.close();
      return kOk;
    }
    Json doc = json_document("rmodel.version");
    doc["name"] = "rmodel";
    doc["version"] = RMODEL_VERSION_STRING;
    doc["library_version"] = std::string(rmodel::version());
    doc["built_with"] = Json::object();
    for (const auto& [name, version] : build_versions()) doc["built_with"][name] = version;
    out_.write(json_text(doc));
    out_.close();
    return kOk;
  }

private:
  OutputOptions out_;
};

}  // namespace

std::unique_ptr<Command> make_version_command() { return std::make_unique<VersionCommand>(); }

}  // namespace rmodel::cli
