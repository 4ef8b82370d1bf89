// rmodel check: validate a URDF and its semantics for CI; every problem, with severity.
#include <fmt/format.h>

#include "command.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "rmodel/check.hpp"

namespace rmodel::cli {
namespace {

class CheckCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("Validate a URDF and its semantics; exit 0 valid, 1 invalid, 2 usage error");
    model_.add_to(app);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text, [this] {
      if (quiet_ && (out_.format_given() || out_.path_given()))
        OutputOptions::refuse("-q prints nothing: -f and -o do not apply");
    });
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
    if (out_.is(OutputFormat::json)) {
      Json doc = json_document("rmodel.check");
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
      out_.write(json_text(doc));
    } else if (out_.is(OutputFormat::csv)) {
      // One row per diagnostic; the verdict is the exit status.
      Table table({"severity", "file", "line", "code", "message"});
      for (const auto& d : report.items)
        table.add_row({std::string(to_string(d.severity)), d.where.file, d.where.line, d.code, d.message});
      out_.write(table.render(OutputFormat::csv));
    } else {
      std::string out;
      for (const auto& d : report.items)
        out += fmt::format("{}: {}: {} [{}]\n", d.where.to_string(), to_string(d.severity), d.message, d.code);
      out += fmt::format("{}: {} error{}, {} warning{}\n", valid ? "valid" : "invalid", errors,
                         errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
      out_.write(out);
    }
    out_.close();
    return valid ? kOk : kFailed;
  }

private:
  ModelOptions model_;
  OutputOptions out_;
  bool strict_ = false;
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Command> make_check_command() { return std::make_unique<CheckCommand>(); }

}  // namespace rmodel::cli
