// rmodel check: validate a URDF and its semantics for CI; every problem, with severity.
#include <fmt/format.h>

#include "command.hpp"
#include "model_options.hpp"
#include "output.hpp"
#include "rmodel/check.hpp"

namespace rmodel::cli {
namespace {

class CheckCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("Validate a URDF and its semantics; exit 0 valid, 1 invalid, 2 usage error");
    model_.add_to(app);
    add_format_option(app, format_, {OutputFormat::text, OutputFormat::json});
    app.add_flag("--strict", strict_, "Treat warnings as errors");
    app.add_flag("-q,--quiet", quiet_, "Print nothing; only the exit status tells");
  }

  int run() override {
    const ModelSource source = model_.resolve();
    const Diagnostics report = check_model(source);
    const std::size_t errors = report.count(Severity::error);
    const std::size_t warnings = report.count(Severity::warning);
    const bool valid = errors == 0 && (!strict_ || warnings == 0);
    if (quiet_) return valid ? kOk : kFailed;
    if (format_ == OutputFormat::json) {
      Json doc;
      doc["valid"] = valid;
      doc["errors"] = errors;
      doc["warnings"] = warnings;
      doc["diagnostics"] = Json::array();
      for (const auto& d : report.items)
        doc["diagnostics"].push_back({{"severity", to_string(d.severity)},
                                      {"file", d.where.file},
                                      {"line", d.where.line},
                                      {"code", d.code},
                                      {"message", d.message}});
      write_out(json_text(doc));
    } else {
      std::string out;
      for (const auto& d : report.items)
        out += fmt::format("{}: {}: {} [{}]\n", d.where.to_string(), to_string(d.severity), d.message, d.code);
      out += fmt::format("{}: {} error{}, {} warning{}\n", valid ? "valid" : "invalid", errors,
                         errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
      write_out(out);
    }
    return valid ? kOk : kFailed;
  }

private:
  ModelOptions model_;
  OutputFormat format_ = OutputFormat::text;
  bool strict_ = false;
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Command> make_check_command() { return std::make_unique<CheckCommand>(); }

}  // namespace rmodel::cli
