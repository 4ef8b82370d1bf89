#pragma once
// Shared by the chains, groups and contacts commands: selecting entities by name.

#include <string>
#include <vector>

#include "rmodel/base/error.hpp"

namespace rmodel::cli {

/// The entities named in `wanted` (all when empty), in model order.
/// @throws rmodel::NotFound for a name the model does not have.
template <class Entity>
std::vector<const Entity*> select_entities(const std::vector<Entity>& all, const std::vector<std::string>& wanted,
                                           const char* kind) {
  std::vector<const Entity*> out;
  for (const auto& name : wanted) {
    bool found = false;
    for (const auto& e : all) found = found || e.name == name;
    if (!found) throw NotFound(kind, name);
  }
  for (const auto& e : all) {
    bool take = wanted.empty();
    for (const auto& name : wanted) take = take || e.name == name;
    if (take) out.push_back(&e);
  }
  return out;
}

}  // namespace rmodel::cli
