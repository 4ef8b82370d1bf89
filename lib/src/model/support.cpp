#include "rmodel/model/support.hpp"

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/base/suggest.hpp"

namespace rmodel {

SupportState make_support_state(const Model& model) {
  SupportState state;
  for (const Chain& c : model.chains()) {
    state.name.push_back(c.name);
    state.support.push_back(0.0);
    state.contact.push_back(c.default_contact);
  }
  return state;
}

void set_support(const Model& model, SupportState& full, const SupportState& update) {
  const auto& chains = model.chains();
  if (full.name.size() != chains.size()) throw SizeMismatch("support state: chains", chains.size(), full.name.size());
  if (full.support.size() != chains.size())
    throw SizeMismatch("support state: 'support'", chains.size(), full.support.size());
  if (full.contact.size() != chains.size())
    throw SizeMismatch("support state: 'contact'", chains.size(), full.contact.size());
  for (std::size_t i = 0; i < chains.size(); ++i)
    if (full.name[i] != chains[i].name)
      throw InvalidArgument(fmt::format("support state: entry {} is '{}', expected chain '{}' (chain order)", i,
                                        full.name[i], chains[i].name));
  const std::size_t count = update.name.size();
  if (!update.support.empty() && update.support.size() != count)
    throw SizeMismatch("support update: 'support' values for the names", count, update.support.size());
  if (!update.contact.empty() && update.contact.size() != count)
    throw SizeMismatch("support update: 'contact' values for the names", count, update.contact.size());
  // Check every name first: a bad update must not leave a half-applied state.
  std::vector<std::size_t> index(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto c = model.find_chain_index(update.name[i]);
    if (!c) {
      const auto names = model.chain_names();
      throw NotFound("chain", update.name[i], did_you_mean(update.name[i], names));
    }
    index[i] = *c;
    if (!update.support.empty() && !(update.support[i] >= 0.0 && update.support[i] <= 1.0))
      throw InvalidArgument(
          fmt::format("support of chain '{}' is {}: a coefficient is in [0, 1]", update.name[i], update.support[i]));
    if (!update.contact.empty() && !update.contact[i].empty() && model.find_contact(update.contact[i]) == nullptr) {
      const auto names = model.contact_names();
      throw NotFound("contact", update.contact[i], did_you_mean(update.contact[i], names));
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t c = index[i];
    if (!update.support.empty()) full.support[c] = update.support[i];
    const bool given = !update.contact.empty() && !update.contact[i].empty();
    full.contact[c] = given ? update.contact[i] : chains[c].default_contact;
  }
  full.stamp = update.stamp;
}

}  // namespace rmodel
