#include "options/collision_options.hpp"

#include <fmt/format.h>

#include "options/output.hpp"
#include "rmodel/base/package_path.hpp"
#include "terminal.hpp"

namespace rmodel::cli {

void CollisionOptions::add_to(CLI::App& app, const std::string& what, const char* group) {
  auto* flag = app.add_flag("--collisions", enabled, what);
  auto* margin_option =
      app.add_option("--margin", margin,
                     "With --collisions: also report links closer than this distance (m), with minus their distance "
                     "as depth")
          ->check(non_negative_number())
          ->needs(flag);
  if (group != nullptr) {
    flag->group(group);
    margin_option->group(group);
  }
}

std::shared_ptr<const collision::SelfCollisionCheck> CollisionOptions::build(const ModelOptions& options,
                                                                            const Model& model,
                                                                            std::string_view command) const {
  ModelSource source;
  if (options.given() && !options.from_log) {
    source = options.resolve();
  } else {  // a model from a log: no file of its own
    for (const auto& p : options.package_paths) source.package_paths.emplace_back(p);
  }
  collision::GeometryOptions geometry = collision::geometry_options(source);
  auto cm = collision::CollisionModel::build(model, geometry);
  warn_unusable_meshes(cm, command);
  auto allowed = collision::pairs_left_out(cm);
  collision::CheckOptions check;
  check.margin = margin;
  return std::make_shared<const collision::SelfCollisionCheck>(
      collision::SelfCollisionCheck{std::move(cm), std::move(allowed), check});
}

void warn_unusable_meshes(const collision::CollisionModel& model, std::string_view command) {
  for (const collision::Shape* s : model.unusable_shapes())
    terminal::warning(fmt::format("{}: {}:{}: link '{}': its collision mesh '{}' is left out: {}", command,
                                  model.model().urdf_source(), s->line, s->link, s->filename, s->error));
}

}  // namespace rmodel::cli
