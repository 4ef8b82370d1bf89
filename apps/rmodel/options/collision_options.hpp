#pragma once
// --collisions and --margin of the commands that check poses for self-collision (check-log,
// fk), and the check they build: the model's collision geometry, the pairs its SRDF disables.

#include <memory>
#include <string_view>

#include <CLI/CLI.hpp>

#include "options/model_options.hpp"
#include "rmodel/collision/collision.hpp"

namespace rmodel::cli {

struct CollisionOptions {
  bool enabled = false;  ///< --collisions
  double margin = 0.0;   ///< --margin (m)

  /// Declares --collisions (with `what` as its description) and --margin, in `group`.
  void add_to(CLI::App& app, const std::string& what, const char* group = nullptr);
  /// The check of `model`: meshes looked up as the model options say (a model read from a log
  /// looks in --package-path and the environment only), the pairs the semantics' SRDF disables
  /// left out (without a collision matrix, the adjacent pairs). Meshes that cannot be read are said on
  /// stderr ("rmodel: warning: COMMAND: ...").
  [[nodiscard]] std::shared_ptr<const collision::SelfCollisionCheck> build(const ModelOptions& options,
                                                                           const Model& model,
                                                                           std::string_view command) const;
};

/// Says on stderr which meshes of `model` were not read (their links lose those shapes).
void warn_unusable_meshes(const collision::CollisionModel& model, std::string_view command);

}  // namespace rmodel::cli
