#include "options/model_options.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "options/value_kind.hpp"
#include "rmodel/check/check.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/bag.hpp"
#include "rmodel/model/limits.hpp"
#include "rmodel/model/model_source.hpp"
#include "rmodel/model/semantics.hpp"
#include "terminal.hpp"

namespace rmodel::cli {

void ModelOptions::add_to(CLI::App& app) {
  auto* group = "Model";
  with_kind(app.add_option("-u,--urdf", urdf, "URDF or xacro file ('-' for stdin) [env: RMODEL_URDF]"),
            ValueKind::file)->group(group);
  with_kind(app.add_option("-s,--semantics", semantics,
                 "Semantics: .cpf (OROCOS), .srdf or .srdf.xacro (MoveIt), .json (rmodel) [env: "
                 "RMODEL_SEMANTICS]"), ValueKind::file)
      ->group(group);
  app.add_option("--semantics-format", semantics_format, "Semantics format when not evident")
      ->check(CLI::IsMember({"cpf", "json", "srdf"}))
      ->group(group);
  with_kind(app.add_option("--limits", limits,
                 "MoveIt joint_limits.yaml: acceleration and jerk limits; velocity, effort and position limits "
                 "replacing the URDF's "
                 "[env: RMODEL_LIMITS]"), ValueKind::file)
      ->group(group);
  with_kind(app.add_option("-m,--model", manifest,
                 "Model manifest JSON naming the URDF and semantics [env: RMODEL_MODEL]"), ValueKind::file)
      ->group(group);
  app.add_flag("--sample", sample, "Use the sample robot shipped with rmodel")->group(group);
  app.add_option("--package-path", package_paths,
                 "Directory holding ROS packages, for $(find PKG) and package://PKG/ (repeatable; searched before "
                 "ROS_PACKAGE_PATH and AMENT_PREFIX_PATH)")
      ->type_name("DIR")
      ->allow_extra_args(false)
      ->group(group);
  add_xacro_arg_option(app, xacro_args, group);
}

void ModelOptions::add_from_log_to(CLI::App& app) {
  auto* option = app.add_flag("--model-from-log", from_log,
                              "Use the URDF the log recorded on /robot_description (std_msgs String), with the "
                              "semantics it recorded unless -s is given, as when no model is given; an error when "
                              "the log has none")
                     ->group("Model");
  for (const char* name : {"--urdf", "--model", "--sample"})
    if (auto* other = app.get_option_no_throw(name)) option->excludes(other);
}

void add_xacro_arg_option(CLI::App& app, std::vector<std::string>& args, const char* group) {
  auto* option = with_kind(app.add_option("--xacro-arg", args,
                                          "Argument of a xacro URDF, replacing its <xacro:arg> default (repeatable)"),
                           ValueKind::text, "NAME:=VALUE")
                     ->allow_extra_args(false)
                     ->check([](const std::string& value) {
                       return value.find(":=") == std::string::npos ? std::string("expected NAME:=VALUE")
                                                                    : std::string();
                     });
  if (group) option->group(group);
}

std::map<std::string, std::string> parse_xacro_args(const std::vector<std::string>& args) {
  std::map<std::string, std::string> out;
  for (const auto& a : args) {
    const auto at = a.find(":=");
    if (at == std::string::npos || at == 0) throw InvalidArgument("xacro argument '" + a + "': expected NAME:=VALUE");
    out[a.substr(0, at)] = a.substr(at + 2);
  }
  return out;
}

ModelRequest ModelOptions::request() const {
  ModelRequest r;
  r.urdf = urdf;
  r.semantics = semantics;
  r.manifest = manifest;
  r.limits = limits;
  r.sample = sample;
  r.package_paths.assign(package_paths.begin(), package_paths.end());
  r.xacro_args = parse_xacro_args(xacro_args);
  if (semantics_format == "cpf") r.semantics_format = SemanticsFormat::cpf;
  if (semantics_format == "json") r.semantics_format = SemanticsFormat::json;
  if (semantics_format == "srdf") r.semantics_format = SemanticsFormat::srdf;
  return r;
}

ModelSource ModelOptions::resolve() const { return resolve_model_source(request()); }

bool ModelOptions::given() const { return names_a_model(request()); }

Model ModelOptions::load() const {
  Model model = Model::load(resolve());
  warn_mistakes(model);
  return model;
}

namespace {
bool urdf_named(const ModelRequest& named) { return !named.urdf.empty() || !named.manifest.empty() || named.sample; }
}  // namespace

bool ModelOptions::model_in_logs(LogModel use) const {
  return from_log || (use == LogModel::needed && !urdf_named(apply_model_environment(request())));
}

std::optional<Model> ModelOptions::load_for_logs(std::span<const std::string> logs, std::string_view command,
                                                 bool quiet, LogModel use) const {
  const ModelRequest named = apply_model_environment(request());
  if (!from_log && urdf_named(named)) return load();
  if (!from_log && use == LogModel::asked) {
    if (named.semantics.empty() && named.limits.empty()) return std::nullopt;
    return load();  // semantics without a URDF: the usual error
  }
  // The first log that carries a model; standard input is read once, by the replay.
  std::optional<io::RecordedModel> recorded;
  std::string log;
  std::vector<std::string> looked;
  for (const auto& path : logs) {
    if (path == "-") continue;
    looked.push_back(path);
    recorded = io::robot_description(path);
    if (recorded) {
      log = path;
      break;
    }
  }
  if (!recorded) {
    std::string where;
    for (std::size_t i = 0; i < looked.size(); ++i)
      where += (i == 0 ? "" : i + 1 == looked.size() ? " or " : ", ") + looked[i];
    if (from_log)
      throw InvalidArgument(looked.empty() ? std::string("--model-from-log: standard input is not looked in for a "
                                                         "model; give the log as a file")
                                           : fmt::format("--model-from-log: no /robot_description (std_msgs String) "
                                                         "in {}",
                                                         where));
    throw InvalidArgument(fmt::format("no model given: use --urdf FILE [--semantics FILE], --model MANIFEST or "
                                      "--sample{}",
                                      looked.empty() ? std::string()
                                                     : fmt::format(" (no /robot_description in {})", where)));
  }
  // The semantics given, else those the log carries beside its URDF (the full pose's order).
  std::optional<Semantics> semantics;
  std::string with;
  if (!named.semantics.empty()) {
    XacroOptions xacro;
    xacro.args = named.xacro_args;
    xacro.package_paths = named.package_paths;
    semantics = load_semantics(named.semantics, named.semantics_format, xacro);
  } else if (recorded->semantics) {
    const io::RecordedSemantics& s = *recorded->semantics;
    semantics = parse_semantics(s.text, log + ":" + s.topic,
                                s.format == io::SemanticsText::srdf ? SemanticsFormat::srdf : SemanticsFormat::json);
    with = fmt::format(", with the semantics on {}", s.topic);
  }
  std::optional<JointLimitsFile> limits;
  if (!named.limits.empty()) limits = load_joint_limits(named.limits);
  Model model = Model::from_urdf_string(std::move(recorded->urdf), log + ":" + recorded->topic, std::move(semantics),
                                        std::move(limits));
  if (!quiet)
    terminal::diagnostic(fmt::format("rmodel {}: the model is the URDF {} recorded on {} (robot '{}'){}", command, log,
                                     recorded->topic, model.robot_name(), with));
  warn_mistakes(model);
  return model;
}

void warn_mistakes(const Model& model) {
  // What loading skipped as srdfdom does is said where it is (`check` counts it as an error),
  // and so is what a xacro's own xacro.message(), warning() or error() said, and a limits
  // entry no joint reads (a misspelt joint is found there, with the joint meant).
  for (const auto& d : model.load_diagnostics().items)
    if (is_mistake(d.code) || d.code.rfind("xacro-", 0) == 0 || d.code == "limits-unknown-joint")
      print_diagnostic(d);
}

void print_diagnostic(const Diagnostic& d) {
  terminal::diagnostic(
      fmt::format("rmodel: {}: {}: {} [{}]", to_string(d.severity), d.where.to_string(), d.message, d.code));
}

}  // namespace rmodel::cli
