// addChain / removeChain of the original service, as builders of new immutable models.
#include "rmodel/model/model_builder.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"

namespace rmodel {
namespace {

/// Semantics and limits of `model`, ready to be edited and indexed again.
Semantics semantics_of(const Model& model) {
  Semantics s = model.semantics();
  s.warnings.clear();  // reported when the model was loaded
  return s;
}

std::optional<JointLimitsFile> limits_of(const Model& model) {
  if (const JointLimitsFile* l = model.limits()) return *l;
  return std::nullopt;
}

}  // namespace

Model add_chain(const Model& model, ChainSpec chain, std::string_view group) {
  Semantics s = semantics_of(model);
  if (s.source.empty()) s.source = "(added chains)";
  const std::string name = chain.name;
  const ChainSpec added = chain;
  s.chains.push_back(std::move(chain));
  if (!group.empty()) {
    auto it = std::find_if(s.groups.begin(), s.groups.end(), [&](const GroupSpec& g) { return g.name == group; });
    if (it == s.groups.end()) {
      GroupSpec g;
      g.name = std::string(group);
      s.groups.push_back(std::move(g));
      it = s.groups.end() - 1;
    }
    it->chains.push_back(name);
  }
  const std::string source = s.source;
  Model result = Model::from_urdf_string(model.urdf_text(), model.urdf_source(), std::move(s), limits_of(model));
  // Loading skips a chain to a link the URDF lacks (as srdfdom does); a chain added on
  // purpose must be there.
  if (!result.find_chain(name)) {
    for (const auto& [property, link] : {std::pair<const char*, const std::string&>{"first_link", added.first_link},
                                         {"last_link", added.last_link},
                                         {"last_link_virtual", added.last_link_virtual}})
      if (!link.empty() && !model.find_link(link))
        throw ModelError({source, added.line},
                         fmt::format("chain '{}': {} '{}' is not a link of the URDF", name, property, link));
    throw ModelError({source, added.line},
                     fmt::format("chain '{}': last_link '{}' is not between first_link '{}' and last_link_virtual '{}'",
                                 name, added.last_link, added.first_link, added.last_link_virtual));
  }
  return result;
}

Model remove_chain(const Model& model, std::string_view chain) {
  if (!model.find_chain(chain)) throw NotFound("chain", std::string(chain));
  Semantics s = semantics_of(model);
  s.chains.erase(std::remove_if(s.chains.begin(), s.chains.end(), [&](const ChainSpec& c) { return c.name == chain; }),
                 s.chains.end());
  for (auto& g : s.groups) g.chains.erase(std::remove(g.chains.begin(), g.chains.end(), chain), g.chains.end());
  s.groups.erase(std::remove_if(s.groups.begin(), s.groups.end(),
                                [](const GroupSpec& g) { return g.chains.empty() && g.joints.empty() && g.links.empty(); }),
                 s.groups.end());
  return Model::from_urdf_string(model.urdf_text(), model.urdf_source(), std::move(s), limits_of(model));
}

}  // namespace rmodel
