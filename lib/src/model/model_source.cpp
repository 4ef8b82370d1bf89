#include "rmodel/model/model_source.hpp"

#include <algorithm>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "rmodel/base/error.hpp"
#include "rmodel/base/file.hpp"

namespace rmodel {
namespace {

std::string manifest_variable(const EnvironmentLookup& env, const char* name) {
  const char* value = env ? env(name) : std::getenv(name);
  return value ? value : "";
}

/// The text of a manifest argument value: strings as they are, numbers and booleans as
/// JSON writes them (`"xacro_args": {"scale": 2}` means `scale:=2`).
std::string manifest_argument_text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace

ModelSource read_model_manifest(const std::string& path) {
  const std::string text = read_text_file(path);
  const std::string name = display_name(path);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const auto offset = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const int line =
        1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    throw ParseError({name, line}, std::string("malformed model manifest: ") + e.what());
  } catch (const nlohmann::json::exception& e) {  // e.g. a number out of range
    throw ParseError({name, 1}, std::string("malformed model manifest: ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("urdf") || !doc["urdf"].is_string())
    throw ParseError({name, 0},
                     "a model manifest is a JSON object with a \"urdf\" path (and optional \"semantics\")");
  const std::filesystem::path base = std::filesystem::path(path).parent_path();
  auto resolve = [&](const std::string& p) { return std::filesystem::path(p).is_absolute() ? p : (base / p).string(); };
  auto path_member = [&](const char* key) -> std::string {
    if (!doc.contains(key)) return {};
    if (!doc[key].is_string()) throw ParseError({name, 0}, std::string("\"") + key + "\" must be a path string");
    return resolve(doc[key].get<std::string>());
  };
  ModelSource source;
  source.urdf_path = path_member("urdf");
  source.semantics_path = path_member("semantics");
  source.limits_path = path_member("limits");
  if (doc.contains("package_paths")) {
    const auto& dirs = doc["package_paths"];
    if (!dirs.is_array() || !std::all_of(dirs.begin(), dirs.end(), [](const auto& d) { return d.is_string(); }))
      throw ParseError({name, 0}, "\"package_paths\" must be an array of directory strings");
    for (const auto& d : dirs) source.package_paths.emplace_back(resolve(d.get<std::string>()));
  }
  if (doc.contains("xacro_args")) {
    const auto& args = doc["xacro_args"];
    if (!args.is_object()) throw ParseError({name, 0}, "\"xacro_args\" must be an object of argument values");
    for (const auto& [key, value] : args.items()) {
      if (!value.is_string() && !value.is_number() && !value.is_boolean())
        throw ParseError({name, 0}, "\"xacro_args\": '" + key + "' must be a string, a number or a boolean");
      source.xacro_args[key] = manifest_argument_text(value);
    }
  }
  return source;
}

ModelRequest apply_model_environment(ModelRequest request, const EnvironmentLookup& env) {
  const bool names_model =
      request.sample || !request.manifest.empty() || !request.urdf.empty() || !request.semantics.empty();
  if (request.limits.empty() && !names_model) request.limits = manifest_variable(env, "RMODEL_LIMITS");
  if (names_model) return request;
  request.manifest = manifest_variable(env, "RMODEL_MODEL");
  request.urdf = manifest_variable(env, "RMODEL_URDF");
  request.semantics = manifest_variable(env, "RMODEL_SEMANTICS");
  return request;
}

bool names_a_model(const ModelRequest& request, const EnvironmentLookup& env) {
  const ModelRequest r = apply_model_environment(request, env);
  return r.sample || !r.manifest.empty() || !r.urdf.empty();
}

ModelSource resolve_model_source(const ModelRequest& given, const EnvironmentLookup& env) {
  const ModelRequest request = apply_model_environment(given, env);
  std::string manifest = request.manifest;
  if (request.sample) {
    const std::string dir = sample_model_dir();
    if (dir.empty()) throw IoError("share/rmodel/sample", "the sample robot is not installed");
    manifest = dir + "/model.json";
  }
  ModelSource source;
  if (!manifest.empty()) source = read_model_manifest(manifest);
  if (!request.urdf.empty()) source.urdf_path = request.urdf;
  if (!request.semantics.empty()) source.semantics_path = request.semantics;
  if (!request.limits.empty()) source.limits_path = request.limits;
  if (source.urdf_path == "-" && source.semantics_path == "-")
    throw OptionError({"ModelRequest::urdf", "ModelRequest::semantics"},
                      "ModelRequest::urdf and ModelRequest::semantics are both \"-\": standard input can feed only "
                      "one of them; give the other as a file");
  if (source.urdf_path.empty())
    throw OptionError({"ModelRequest::urdf", "ModelRequest::semantics", "ModelRequest::manifest",
                       "ModelRequest::sample"},
                      "no model given: give ModelRequest::urdf [with ModelRequest::semantics], "
                      "ModelRequest::manifest or ModelRequest::sample");
  source.package_paths.insert(source.package_paths.begin(), request.package_paths.begin(),
                              request.package_paths.end());
  for (const auto& [key, value] : request.xacro_args) source.xacro_args[key] = value;
  if (request.semantics_format) source.semantics_format = request.semantics_format;
  return source;
}

}  // namespace rmodel
