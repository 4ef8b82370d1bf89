#pragma once
// The model options every command shares: --urdf, --semantics, --limits, --model, --sample,
// --package-path.

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "rmodel/model.hpp"

namespace rmodel::cli {

/// Where the model comes from, as given on the command line or in the environment
/// (RMODEL_URDF, RMODEL_SEMANTICS, RMODEL_MODEL); command-line options win.
struct ModelOptions {
  std::string urdf;
  std::string semantics;
  std::string semantics_format;  ///< "", "cpf", "json", "srdf"
  std::string manifest;
  std::string limits;  ///< MoveIt joint_limits.yaml [env: RMODEL_LIMITS]
  std::vector<std::string> package_paths;  ///< --package-path, in order
  bool sample = false;

  /// Declares the options on a subcommand.
  void add_to(CLI::App& app);
  /// Resolves manifest, sample and environment into paths (no file is opened).
  /// @throws rmodel::InvalidArgument when no URDF is named, IoError for a bad manifest.
  [[nodiscard]] ModelSource resolve() const;
  /// Resolves and loads the model.
  [[nodiscard]] Model load() const;
  /// True when a semantic description will be loaded.
  [[nodiscard]] bool has_semantics() const { return !resolve().semantics_path.empty(); }
};

/// Prints on stderr the mistakes loading skipped (Model::load_diagnostics, is_mistake), each
/// with file and line, as "rmodel: warning: ...".
void warn_mistakes(const Model& model);

}  // namespace rmodel::cli
