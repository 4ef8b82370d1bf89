#include "options/model_options.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rmodel/check.hpp"
#include "rmodel/error.hpp"
#include "rmodel/file.hpp"

namespace rmodel::cli {
namespace {

std::string from_env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

/// Reads a model manifest: {"urdf": "robot.urdf", "semantics": "robot.cpf", "limits":
/// "joint_limits.yaml"}, paths relative to the manifest's directory.
ModelSource read_manifest(const std::string& path) {
  const std::string text = read_text_file(path);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const auto offset = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    throw ParseError({path, line}, std::string("malformed model manifest: ") + e.what());
  } catch (const nlohmann::json::exception& e) {  // e.g. a number out of range
    throw ParseError({path, 1}, std::string("malformed model manifest: ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("urdf") || !doc["urdf"].is_string())
    throw ParseError({path, 0}, "a model manifest is a JSON object with a \"urdf\" path (and optional \"semantics\")");
  const std::filesystem::path base = std::filesystem::path(path).parent_path();
  auto resolve = [&](const std::string& p) {
    return std::filesystem::path(p).is_absolute() ? p : (base / p).string();
  };
  ModelSource source;
  source.urdf_path = resolve(doc["urdf"]);
  if (doc.contains("semantics")) {
    if (!doc["semantics"].is_string()) throw ParseError({path, 0}, "\"semantics\" must be a path string");
    source.semantics_path = resolve(doc["semantics"]);
  }
  if (doc.contains("limits")) {
    if (!doc["limits"].is_string()) throw ParseError({path, 0}, "\"limits\" must be a path string");
    source.limits_path = resolve(doc["limits"]);
  }
  return source;
}

}  // namespace

void ModelOptions::add_to(CLI::App& app) {
  auto* group = "Model";
  app.add_option("-u,--urdf", urdf, "URDF file ('-' for stdin) [env: RMODEL_URDF]")->group(group);
  app.add_option("-s,--semantics", semantics,
                 "Semantics: .cpf (OROCOS), .srdf (MoveIt), .json (rmodel) [env: RMODEL_SEMANTICS]")
      ->group(group);
  app.add_option("--semantics-format", semantics_format, "Semantics format when not evident")
      ->check(CLI::IsMember({"cpf", "json", "srdf"}))
      ->group(group);
  app.add_option("--limits", limits,
                 "MoveIt joint_limits.yaml: acceleration and jerk limits, velocity limits replacing the URDF's "
                 "[env: RMODEL_LIMITS]")
      ->group(group);
  app.add_option("-m,--model", manifest,
                 "Model manifest JSON naming the URDF and semantics [env: RMODEL_MODEL]")
      ->group(group);
  app.add_flag("--sample", sample, "Use the sample robot shipped with rmodel")->group(group);
  app.add_option("--package-path", package_paths,
                 "Directory holding ROS packages, for $(find PKG) and package://PKG/ (repeatable; searched before "
                 "ROS_PACKAGE_PATH)")
      ->type_name("DIR")
      ->allow_extra_args(false)
      ->group(group);
}

ModelSource ModelOptions::resolve() const {
  // The environment supplies a model only when the command line names none, so that a
  // stray RMODEL_SEMANTICS never pairs with a URDF given explicitly.
  const bool from_command_line = sample || !manifest.empty() || !urdf.empty() || !semantics.empty();
  std::string manifest_path = from_command_line ? manifest : from_env("RMODEL_MODEL");
  std::string urdf_path = from_command_line ? urdf : from_env("RMODEL_URDF");
  std::string semantics_path = from_command_line ? semantics : from_env("RMODEL_SEMANTICS");
  // --limits adds to whichever model is named, the environment's included.
  std::string limits_path = !limits.empty() || from_command_line ? limits : from_env("RMODEL_LIMITS");
  if (sample) {
    const std::string dir = sample_model_dir();
    if (dir.empty()) throw IoError("share/rmodel/sample", "the sample robot is not installed");
    manifest_path = dir + "/model.json";
  }
  ModelSource source;
  if (!manifest_path.empty()) source = read_manifest(manifest_path);
  if (!urdf_path.empty()) source.urdf_path = urdf_path;
  if (!semantics_path.empty()) source.semantics_path = semantics_path;
  if (!limits_path.empty()) source.limits_path = limits_path;
  if (source.urdf_path == "-" && source.semantics_path == "-")
    throw InvalidArgument("-u - and -s -: standard input can feed only one of them; give the other as a file");
  if (source.urdf_path.empty())
    throw InvalidArgument("no model given: use --urdf FILE [--semantics FILE], --model MANIFEST or --sample");
  source.package_paths.assign(package_paths.begin(), package_paths.end());
  if (semantics_format == "cpf") source.semantics_format = SemanticsFormat::cpf;
  if (semantics_format == "json") source.semantics_format = SemanticsFormat::json;
  if (semantics_format == "srdf") source.semantics_format = SemanticsFormat::srdf;
  return source;
}

Model ModelOptions::load() const {
  Model model = Model::load(resolve());
  warn_mistakes(model);
  return model;
}

void warn_mistakes(const Model& model) {
  // What loading skipped as srdfdom does is said where it is (`check` counts it as an error).
  for (const auto& d : model.load_diagnostics().items)
    if (is_mistake(d.code))
      fmt::print(stderr, "rmodel: warning: {}: {} [{}]\n", d.where.to_string(), d.message, d.code);
}

}  // namespace rmodel::cli
