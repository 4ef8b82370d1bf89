// rmodel check: validate a URDF and its semantics for CI; every problem, with severity.
#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "command.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "rmodel/check.hpp"
#include "rmodel/suggest.hpp"
#include "terminal.hpp"

namespace rmodel::cli {
namespace {

/// Errors of physical plausibility (rmodel::is_plausibility_error), which --ignore accepts: the
/// model loads with them and every other command uses it as written, and public robot
/// descriptions, which a user may not be able to edit, carry them (placeholder inertias;
/// PR2's, Romeo's, TIAGo's, iCub's). Every other error is a broken structure, a reference to
/// nothing or what MoveIt would skip, and cannot be ignored.
bool ignorable_error(std::string_view code) { return is_plausibility_error(code); }

class CheckCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("Validate a URDF and its semantics; exit 0 valid, 1 invalid, 2 usage error");
    model_.add_to(app);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv, OutputFormat::github},
                OutputFormat::text, [this] {
      if (quiet_ && (out_.format_given() || out_.path_given()))
        OutputOptions::refuse("-q prints nothing: -f and -o do not apply");
    });
    app.add_flag("--strict", strict_, "Treat warnings as errors");
    app.add_option("--ignore", ignored_,
                   "Accept the problems of these codes (CODE[,CODE...], repeatable): they are neither shown nor "
                   "counted, so --strict fails on every other warning. Warnings of any code; errors only of "
                   "inertial-mass, inertia-not-positive, inertia-triangle")
        ->delimiter(',')
        ->type_name("CODE")
        ->check(CLI::Validator(
            [](std::string& code) -> std::string {
              // A misspelt code would accept nothing and leave the run failing for no visible reason.
              const auto codes = check_codes();
              if (std::find(codes.begin(), codes.end(), code) != codes.end()) return {};
              if (code == "inertia-principal-triangle")  // a warning of its own until the one inertia rule
                return "'inertia-principal-triangle' is a code of check no more: principal moments that break the "
                       "triangle inequality are errors of inertia-triangle";
              const std::string suggestion = did_you_mean(code, codes);
              return fmt::format("'{}' is not a code of check{}", code,
                                 suggestion.empty() ? " (each problem shows its code in brackets)" : suggestion);
            },
            ""));
    app.add_flag("--meshes", meshes_,
                 "Also check that every <mesh> file exists: package:// through --package-path, "
                 "ROS_PACKAGE_PATH and AMENT_PREFIX_PATH, file:// and plain paths from the URDF's directory");
    app.add_flag("-q,--quiet", quiet_, "Print nothing; only the exit status tells");
  }

  int run() override {
    const ModelSource source = model_.resolve();
    Diagnostics report = check_model(source);
    if (meshes_)
      for (auto& d : check_mesh_files(source).items) report.items.push_back(std::move(d));
    const std::size_t ignored = drop_ignored(report);
    const std::size_t errors = report.count(Severity::error);
    const std::size_t warnings = report.count(Severity::warning);
    const bool valid = errors == 0 && (!strict_ || warnings == 0);
    if (quiet_) return valid ? kOk : kFailed;
    if (out_.is(OutputFormat::json)) {
      // Version 2: the list was called "diagnostics"; "problems" as in check-log and log-info.
      Json doc = json_document("rmodel.check", 2);
      doc["valid"] = valid;
      doc["errors"] = errors;
      doc["warnings"] = warnings;
      doc["ignored"] = ignored;  // problems --ignore dropped from the list and the counts
      doc["problems"] = Json::array();
      for (const auto& d : report.items)
        doc["problems"].push_back({{"severity", to_string(d.severity)},
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
        out += out_.is(OutputFormat::github) ? github_annotation(d)
                                              : fmt::format("{}: {}: {} [{}]\n", d.where.to_string(),
                                                            to_string(d.severity), d.message, d.code);
      out += fmt::format("{}: {} error{}, {} warning{}{}\n", valid ? "valid" : "invalid", errors,
                         errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s",
                         ignored ? fmt::format(" ({} ignored)", ignored) : "");
      out_.write(out);
    }
    out_.close();
    return valid ? kOk : kFailed;
  }

private:
  /// Removes the problems whose code --ignore names, errors only of ignorable codes; returns how
  /// many. An error --ignore names but cannot drop is said once per code (unless -q): the run
  /// fails, and the user should learn why the option did not apply.
  std::size_t drop_ignored(Diagnostics& report) const {
    const auto before = report.items.size();
    std::vector<std::string> refused;
    std::erase_if(report.items, [&](const Diagnostic& d) {
      if (std::find(ignored_.begin(), ignored_.end(), d.code) == ignored_.end()) return false;
      if (d.severity != Severity::error || ignorable_error(d.code)) return true;
      if (std::find(refused.begin(), refused.end(), d.code) == refused.end()) refused.push_back(d.code);
      return false;
    });
    if (!quiet_)
      for (const auto& code : refused)
        terminal::warning(fmt::format("--ignore {}: errors of this code cannot be ignored; of the errors, --ignore "
                                      "accepts only {}",
                                      code, fmt::join(plausibility_error_codes(), ", ")));
    return before - report.items.size();
  }

  /// A GitHub Actions workflow command (`::error file=F,line=L,title=CODE::MESSAGE`), which
  /// the runner shows as an annotation on the file's line. Values are escaped as the runner
  /// expects: %, CR and LF everywhere, also : and , in properties.
  static std::string github_annotation(const Diagnostic& d) {
    auto escape = [](std::string_view text, bool property) {
      std::string out;
      for (char c : text) {
        if (c == '%') out += "%25";
        else if (c == '\r') out += "%0D";
        else if (c == '\n') out += "%0A";
        else if (property && c == ':') out += "%3A";
        else if (property && c == ',') out += "%2C";
        else out += c;
      }
      return out;
    };
    const char* level = d.severity == Severity::error ? "error" : d.severity == Severity::warning ? "warning" : "notice";
    std::string properties = fmt::format("file={}", escape(d.where.file, true));
    if (d.where.line > 0) properties += fmt::format(",line={}", d.where.line);
    properties += fmt::format(",title={}", escape(d.code, true));
    return fmt::format("::{} {}::{}\n", level, properties, escape(d.message, false));
  }

  ModelOptions model_;
  OutputOptions out_;
  bool strict_ = false;
  bool quiet_ = false;
  bool meshes_ = false;
  std::vector<std::string> ignored_;
};

}  // namespace

std::unique_ptr<Command> make_check_command() { return std::make_unique<CheckCommand>(); }

}  // namespace rmodel::cli
