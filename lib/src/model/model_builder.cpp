// addChain / removeChain of the original service, as builders of new immutable models.
#include "rmodel/model_builder.hpp"

#include <algorithm>
#include <optional>

#include "rmodel/error.hpp"

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
  return Model::from_urdf_string(model.urdf_text(), model.urdf_source(), std::move(s), limits_of(model));
}

Model remove_chain(const Model& model, std::string_view chain) {
  if (!model.find_chain(chain)) throw NotFound("chain", std::string(chain));
  Semantics s = semantics_of(model);
  s.chains.erase(std::remove_if(s.chains.begin(), s.chains.end(), [&](const ChainSpec& c) { return c.name == chain; }),
                 s.chains.end());
  for (auto& g : s.groups) g.chains.erase(std::remove(g.chains.begin(), g.chains.end(), chain), g.chains.end());
  s.groups.erase(std::remove_if(s.groups.begin(), s.groups.end(),
                                [](const GroupSpec& g) { return g.chains.empty() && g.joints.empty(); }),
                 s.groups.end());
  return Model::from_urdf_string(model.urdf_text(), model.urdf_source(), std::move(s), limits_of(model));
}

}  // namespace rmodel
