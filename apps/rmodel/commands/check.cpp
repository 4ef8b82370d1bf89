// rmodel check: validate a URDF and its semantics for CI; every problem, with severity.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "command.hpp"
#include "option_fields.hpp"
#include "options/batch.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "report/ci_report.hpp"
#include "report/code_pages.hpp"
#include "rmodel/check/check.hpp"
#include "rmodel/collision/collision.hpp"
#include "rmodel/base/file.hpp"
#include "rmodel/base/suggest.hpp"
#include "rmodel/model/model_source.hpp"
#include "terminal.hpp"

namespace rmodel::cli {
namespace {

/// Errors of physical plausibility (rmodel::is_plausibility_error), which --ignore accepts: the
/// model loads with them and every other command uses it as written, and public robot
/// descriptions, which a user may not be able to edit, carry them (placeholder inertias;
/// PR2's, Romeo's, TIAGo's, iCub's). Every other error is a broken structure, a reference to
/// nothing or what MoveIt would skip, and cannot be ignored.
bool ignorable_error(std::string_view code) { return is_plausibility_error(code); }

/// Codes check had and has no more, with what took their place: a CI's --ignore line that
/// names one is told what to write instead.
constexpr std::pair<std::string_view, std::string_view> kRetiredCodes[] = {
    {"inertia-principal-triangle",
     "principal moments that break the triangle inequality are errors of inertia-triangle"},
    {"srdf-ignored",
     "each SRDF element rmodel does not keep has a code of its own: srdf-passive-joint-in-group, "
     "srdf-unknown-element, srdf-extension, srdf-passive-joint, srdf-sphere-approximation, srdf-joint-property; the "
     "collision matrix is checked (collision-unknown-link, collision-self-pair, collision-duplicate, "
     "collision-conflict)"},
};

/// What a FILE given to check is, by its name: an SRDF (.srdf, .srdf.xacro), a .cpf or an
/// rmodel JSON is semantics, a .yaml or .yml a MoveIt joint_limits.yaml, anything else a URDF or
/// its xacro.
unsigned input_of_name(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view end : {".srdf", ".srdf.xacro", ".cpf", ".json"})
    if (name.ends_with(end)) return code_input::semantics;
  for (std::string_view end : {".yaml", ".yml"})
    if (name.ends_with(end)) return code_input::limits;
  return code_input::urdf;
}

/// One model to check: its files, and the name its summary line carries when there are several.
struct Unit {
  ModelSource source;
  std::string label;
};

class CheckCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("Validate a URDF and its semantics; exit 0 valid, 1 invalid, 2 usage error");
    model_.add_to(app);
    app.add_option("files", files_,
                   "Files to check, as a pre-commit hook passes them: each URDF or xacro on its own; each SRDF "
                   "(.srdf, .srdf.xacro, .cpf, .json) and each joint_limits.yaml (.yaml) with the model "
                   "-u/-m names")
        ->type_name("FILE");
    add_shard_option(app, shard_,
                     "Check only the K-th of N parts of the arguments (K from 1; sorted by name, every N-th from the "
                     "K-th), so that N runs, e.g. a Slurm job array, share them; the report is of those",
                     nullptr);
    out_.add_to(app,
                {OutputFormat::text, OutputFormat::json, OutputFormat::csv, OutputFormat::github, OutputFormat::sarif,
                 OutputFormat::junit, OutputFormat::codequality},
                OutputFormat::text, [this, &app] {
                  if (quiet_ && (out_.format_given() || out_.path_given()))
                    OutputOptions::refuse("-q prints nothing: -f and -o do not apply");
                  catalogue_mode(app);
                });
    app.add_flag("--strict", strict_, "Treat warnings as errors");
    app.add_option("--ignore", ignored_,
                   "Accept the problems of these codes (CODE[,CODE...], repeatable): they are neither shown nor "
                   "counted, so --strict fails on every other warning. Warnings of any code; errors only of "
                   "inertial-mass, inertia-not-positive, inertia-triangle")
        ->delimiter(',')
        ->allow_extra_args(false)  // `--ignore CODE FILE` checks FILE
        ->type_name("CODE")
        ->check(CLI::Validator(
            [](std::string& code) -> std::string {
              // A misspelt code would accept nothing and leave the run failing for no visible reason.
              if (find_check_code(code, CodeScope::model) != nullptr) return {};
              std::vector<std::string_view> codes;
              for (const CheckCode& c : check_codes())
                if (c.scope == CodeScope::model) codes.push_back(c.code);
              for (const auto& [retired, why] : kRetiredCodes)
                if (code == retired) return fmt::format("'{}' is a code of check no more: {}", retired, why);
              const std::string suggestion = did_you_mean(code, codes);
              return fmt::format("'{}' is not a code of check{}", code,
                                 suggestion.empty() ? " (each problem shows its code in brackets)" : suggestion);
            },
            ""));
    app.add_flag("--meshes", meshes_,
                 "Also check that every <mesh> file exists: package:// through --package-path, "
                 "ROS_PACKAGE_PATH and AMENT_PREFIX_PATH, file:// and plain paths from the URDF's directory");
    app.add_flag("--collisions", collisions_,
                 "Also compare the SRDF's collision matrix (<disable_collisions>) with the one `rmodel collisions` "
                 "computes: entries that hide collisions (collision-matrix-stale) and pairs it lacks "
                 "(collision-matrix-missing), as warnings");
    std::vector<std::string> target_names;
    for (const CheckTarget target : check_targets()) target_names.emplace_back(to_string(target));
    app.add_option("--target", target_names_,
                   "Also apply the rules of a program that reads the URDF (repeatable): mujoco (MuJoCo's compiler), "
                   "kdl (kdl_parser's KDL tree), gazebo (sdformat's URDF import); a line per program says whether "
                   "it loads the robot")
        ->delimiter(',')
        ->allow_extra_args(false)  // `--target mujoco FILE` checks FILE
        ->type_name("PROGRAM")
        ->check(CLI::IsMember(target_names));
    app.add_flag("-q,--quiet", quiet_, "Print nothing; only the exit status tells");
    auto* list = app.add_flag("--list-codes", list_codes_,
                              "List every code check reports: code, severity, one line (no model is read)")
                     ->group("Codes");
    app.add_option("--explain", explain_,
                   "Show the page of a code: what it means, why it matters, who cares, an example, the fix")
        ->type_name("CODE")
        ->group("Codes")
        ->excludes(list)
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
              return code_named(text, CodeScope::model) ? std::string() : unknown_code_text(text, CodeScope::model);
            },
            ""));
  }

  int run() override {
    if (list_codes_ || !explain_.empty()) {
      out_.write(list_codes_ ? list_codes(CodeScope::model, out_.format())
                             : explain_code(*code_named(explain_, CodeScope::model)));
      out_.close();
      return kOk;
    }
    Diagnostics report;
    std::vector<std::string> summaries;  // per unit, when there are several
    std::vector<CheckedFile> checked;
    std::size_t ignored = 0;
    const std::vector<Unit> units = plan();
    refuse_second_reads(units);
    std::vector<std::pair<std::string, TargetVerdict>> verdicts;  // per unit's label
    CheckOptions options;
    for (const std::string& name : target_names_) options.targets.push_back(*parse_check_target(name));
    for (const Unit& unit : units) {
      CheckReport result = check_model(unit.source, options);
      Diagnostics& found = result.problems;
      if (meshes_) {
        for (auto& d : check_mesh_files(unit.source).items) found.items.push_back(std::move(d));
        // What the files hold: unreadable meshes, meshes far too large (when the model loads).
        if (const auto model = loaded(unit.source))
          for (auto& d : collision::check_mesh_contents(*model, display_name(unit.source.urdf_path),
                                                        collision::geometry_options(unit.source)).items)
            found.items.push_back(std::move(d));
      }
      if (collisions_ && loaded(unit.source))
        for (auto& d : collision::check_collision_matrix(unit.source).items) found.items.push_back(std::move(d));
      for (auto& d : found.items) d.message = in_flag_words(d.message);
      const std::size_t dropped = drop_ignored(found);
      ignored += dropped;
      summaries.push_back(unit.label + ": " + summary_line(found, dropped));
      for (const TargetVerdict& v : result.targets)
        verdicts.emplace_back(unit.label, target_verdict(found, v.target, v.applied));
      // A problem of the URDF that several models share is reported once.
      for (auto& d : found.items)
        if (std::none_of(report.items.begin(), report.items.end(), [&](const Diagnostic& seen) {
              return seen.severity == d.severity && seen.code == d.code && seen.where.line == d.where.line &&
                     seen.where.file == d.where.file && seen.message == d.message;
            }))
          report.items.push_back(std::move(d));
      add_checked(checked, unit.source.urdf_path, code_input::urdf);
      add_checked(checked, unit.source.semantics_path, code_input::semantics);
      add_checked(checked, unit.source.limits_path, code_input::limits);
    }
    const std::size_t errors = report.count(Severity::error);
    const std::size_t warnings = report.count(Severity::warning);
    const bool valid = errors == 0 && (!strict_ || warnings == 0);
    if (quiet_) return valid ? kOk : kFailed;
    const std::string verdict = summary_line(report, ignored);
    const SourceRoot root = SourceRoot::find(std::filesystem::current_path());
    CiReport ci{"check", CodeScope::model, checked, {}, accepted_codes(), strict_, valid};
    for (const auto& d : report.items) ci.findings.push_back({d.severity, d.where.file, d.where.line, d.code, d.message, {}});
    if (out_.is(OutputFormat::json)) {
      // Version 2: the list was called "diagnostics"; "problems" as in check-log and log-info.
      Json doc = json_document("rmodel.check", 2);
      doc["valid"] = valid;
      doc["errors"] = errors;
      doc["warnings"] = warnings;
      doc["ignored"] = ignored;  // problems --ignore dropped from the list and the counts
      if (!verdicts.empty()) {
        doc["targets"] = Json::array();
        for (const auto& [label, v] : verdicts)
          doc["targets"].push_back({{"file", label},
                                    {"target", to_string(v.target)},
                                    {"loads", v.loads},
                                    {"checked", v.applied},
                                    {"errors", v.errors},
                                    {"warnings", v.warnings},
                                    {"unchecked", v.unchecked}});
      }
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
    } else if (out_.is(OutputFormat::sarif)) {
      out_.write(sarif_report(ci, root));
    } else if (out_.is(OutputFormat::junit)) {
      out_.write(junit_report(ci, root));
    } else if (out_.is(OutputFormat::codequality)) {
      out_.write(codequality_report(ci, root));
    } else {
      std::string out;
      if (out_.is(OutputFormat::github)) {
        out += github_annotations(ci, root);
        append_github_summary(ci, root, verdict);
      } else {
        for (const auto& d : report.items)
          out += fmt::format("{}: {}: {} [{}]\n", d.where.to_string(), to_string(d.severity), d.message, d.code);
      }
      if (units.size() > 1 || shard_)  // a shard's lines name its files
        for (const auto& line : summaries) out += line + "\n";
      else
        out += verdict + "\n";
      for (const auto& [label, v] : verdicts) out += (units.size() > 1 || shard_ ? label + ": " : "") + target_line(v) + "\n";
      out_.write(out);
    }
    out_.close();
    return valid ? kOk : kFailed;
  }

private:
  /// --list-codes and --explain read no model: they take -f and -o only (--explain: text).
  void catalogue_mode(const CLI::App& app) {
    if (!list_codes_ && explain_.empty()) return;
    const char* mode = list_codes_ ? "--list-codes" : "--explain";
    for (const CLI::Option* opt : app.get_options())
      if (opt->count() > 0 && opt != out_.format_option() && !opt->check_name("--output") &&
          !opt->check_name("--list-codes") && !opt->check_name("--explain") && !opt->check_name("--help"))
        OutputOptions::refuse(fmt::format("{} reads no model: {} does not apply", mode, opt->get_name()));
    if (list_codes_)
      out_.restrict({OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text, mode);
    else
      out_.restrict({OutputFormat::text}, OutputFormat::text, mode);
  }

  /// The models to check: the one the options name; with FILEs, one per URDF given, and the
  /// model the options name with each SRDF and each joint_limits.yaml given.
  std::vector<Unit> plan() const {
    if (shard_ && files_.empty()) throw InvalidArgument("--shard divides the FILE arguments: give the files to check");
    if (files_.empty()) {
      ModelSource source = model_.resolve();
      return {{source, display_name(source.urdf_path)}};
    }
    std::vector<std::string> files = files_;
    if (shard_) {
      files.clear();
      for (const std::size_t i : shard_positions(files_, *shard_)) files.push_back(files_[i]);
    }
    std::vector<Unit> units;
    for (const std::string& file : files) {
      const unsigned input = input_of_name(file);
      if (input == code_input::urdf) {
        ModelRequest alone = model_.request();
        alone.urdf = file;
        alone.semantics.clear();
        alone.semantics_format.reset();
        alone.limits.clear();
        alone.manifest.clear();
        alone.sample = false;
        units.push_back({resolve_model_source(alone), display_name(file)});
        continue;
      }
      if (!model_.given())
        throw InvalidArgument(fmt::format("{}: {} is checked with its robot's URDF: name it with -u URDF (or -m "
                                          "MANIFEST), in a pre-commit hook's args",
                                          file, input == code_input::semantics ? "a semantics file" : "a joint_limits.yaml"));
      ModelSource source = model_.resolve();
      if (input == code_input::semantics) {
        source.semantics_path = file;
        if (model_.semantics_format.empty()) source.semantics_format.reset();
      } else {
        source.limits_path = file;
      }
      units.push_back({std::move(source), display_name(file)});
    }
    return units;
  }

  /// --meshes and --collisions read the model's files again, after check has read them:
  /// standard input is empty by then, and they would find nothing to say (a robot "valid" with
  /// every mesh missing). A usage error instead.
  void refuse_second_reads(const std::vector<Unit>& units) const {
    if (!meshes_ && !collisions_) return;
    for (const Unit& unit : units) {
      const ModelSource& s = unit.source;
      const char* what = s.urdf_path == "-"        ? "the URDF"
                         : s.semantics_path == "-" ? "the semantics"
                         : s.limits_path == "-"    ? "the joint limits"
                                                   : nullptr;
      if (what == nullptr) continue;
      throw InvalidArgument(fmt::format("{} reads the model a second time, and standard input can be read once: give "
                                        "{} as a file, not '-'",
                                        meshes_ ? "--meshes" : "--collisions", what));
    }
  }

  static void add_checked(std::vector<CheckedFile>& files, const std::string& path, unsigned input) {
    if (path.empty()) return;
    const std::string name = display_name(path);
    for (CheckedFile& f : files)
      if (f.file == name) {
        f.inputs |= input;
        return;
      }
    files.push_back({name, input});
  }

  /// "valid: 0 errors, 1 warning (2 ignored)".
  std::string summary_line(const Diagnostics& report, std::size_t ignored) const {
    const std::size_t errors = report.count(Severity::error);
    const std::size_t warnings = report.count(Severity::warning);
    const bool valid = errors == 0 && (!strict_ || warnings == 0);
    return fmt::format("{}: {} error{}, {} warning{}{}", valid ? "valid" : "invalid", errors, errors == 1 ? "" : "s",
                       warnings, warnings == 1 ? "" : "s", ignored ? fmt::format(" ({} ignored)", ignored) : "");
  }

  /// "loads in MuJoCo: no (2 errors)", "loads in KDL: yes (1 warning)", "loads in Gazebo: no (the URDF has
  /// errors)", "loads in MuJoCo: not known (1 warning)" (a rule could not look: meshes unchecked).
  static std::string target_line(const TargetVerdict& v) {
    const bool known = v.loads || !v.applied || v.errors > 0 || v.unchecked == 0;
    std::string line =
        fmt::format("loads in {}: {}", display_name(v.target), v.loads ? "yes" : known ? "no" : "not known");
    if (!v.applied) return line + " (the URDF has errors)";
    std::vector<std::string> counts;
    if (v.errors) counts.push_back(fmt::format("{} error{}", v.errors, v.errors == 1 ? "" : "s"));
    if (v.warnings) counts.push_back(fmt::format("{} warning{}", v.warnings, v.warnings == 1 ? "" : "s"));
    return counts.empty() ? line : fmt::format("{} ({})", line, fmt::join(counts, ", "));
  }

  /// The codes --ignore accepts as a whole (warnings of any code; errors of the ignorable ones).
  std::vector<std::string> accepted_codes() const {
    std::vector<std::string> out;
    for (const auto& code : ignored_) {
      const CheckCode* entry = code_named(code, CodeScope::model);
      if (entry && (entry->severity != Severity::error || ignorable_error(code))) out.push_back(code);
    }
    return out;
  }

  /// The model, when it loads (its problems are in the report already).
  static std::optional<Model> loaded(const ModelSource& source) {
    try {
      return Model::load(source);
    } catch (const ParseError&) {
      return std::nullopt;
    }
  }

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

  ModelOptions model_;
  OutputOptions out_;
  std::vector<std::string> files_;
  std::optional<Shard> shard_;  ///< --shard: check that part of files_
  bool strict_ = false;
  bool quiet_ = false;
  bool meshes_ = false;
  bool list_codes_ = false;
  std::string explain_;
  bool collisions_ = false;
  std::vector<std::string> ignored_;
  std::vector<std::string> target_names_;
};

}  // namespace

std::unique_ptr<Command> make_check_command() { return std::make_unique<CheckCommand>(); }

}  // namespace rmodel::cli
