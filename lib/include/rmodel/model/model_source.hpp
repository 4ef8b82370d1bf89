#pragma once
#include "rmodel/export.hpp"
/// @file model_source.hpp
/// Where a model comes from: model manifests, and the rules by which the environment
/// (RMODEL_MODEL, RMODEL_URDF, RMODEL_SEMANTICS, RMODEL_LIMITS) completes what a caller names.

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rmodel/model/model.hpp"

namespace rmodel {

/// Reads a model manifest, a JSON object:
///
///     {"urdf": "robot.urdf.xacro", "semantics": "robot.srdf", "limits": "joint_limits.yaml",
///      "package_paths": ["../.."], "xacro_args": {"arm": "left"}}
///
/// Only "urdf" is required. Paths are relative to the manifest's directory; "package_paths"
/// are directories searched for ROS packages (`$(find pkg)`, `package://`), "xacro_args" the
/// arguments of a xacro URDF (string, number or boolean values).
/// @throws IoError when the file cannot be read, ParseError (file and line) when it is not
///         such an object.
RMODEL_API ModelSource read_model_manifest(const std::string& path);

/// What a caller (a command line, a program) names; any member may be empty.
struct RMODEL_API ModelRequest {
  std::string urdf;       ///< URDF or xacro file, "-" for stdin
  std::string semantics;  ///< .cpf, .srdf or .json, "-" for stdin
  std::optional<SemanticsFormat> semantics_format = std::nullopt;
  std::string manifest;   ///< model manifest (read_model_manifest)
  std::string limits;     ///< MoveIt joint_limits.yaml
  bool sample = false;    ///< the sample robot shipped with rmodel (sample_model_dir())
  std::vector<std::filesystem::path> package_paths = {};  ///< searched before the manifest's
  std::map<std::string, std::string> xacro_args = {};     ///< win over the manifest's
};

/// Reads an environment variable: nullptr when unset.
using EnvironmentLookup = std::function<const char*(const char*)>;

/// The environment rules, in one place: when `request` names no model (no sample, manifest,
/// URDF or semantics), RMODEL_MODEL, RMODEL_URDF and RMODEL_SEMANTICS supply them, so that a
/// stray RMODEL_SEMANTICS never pairs with a URDF given explicitly; RMODEL_LIMITS supplies
/// the limits when neither limits nor a model are named (it adds to the environment's model).
/// Empty variables count as unset. Nothing is read from disk.
/// @param env the environment; the process's (std::getenv) when empty.
RMODEL_API ModelRequest apply_model_environment(ModelRequest request, const EnvironmentLookup& env = {});

/// True when the request, completed by the environment, names a model at all.
RMODEL_API bool names_a_model(const ModelRequest& request, const EnvironmentLookup& env = {});

/// Resolves a request into the files to load: applies the environment rules, reads the
/// manifest (the sample's, when asked), then lets the request's own paths replace the
/// manifest's. Package paths: the request's, then the manifest's; xacro arguments: the
/// manifest's, replaced by the request's of the same name.
/// @throws InvalidArgument when no URDF is named or stdin is asked for twice; IoError when
///         the sample is not installed or the manifest cannot be read; ParseError for a bad
///         manifest.
RMODEL_API ModelSource resolve_model_source(const ModelRequest& request, const EnvironmentLookup& env = {});

}  // namespace rmodel
