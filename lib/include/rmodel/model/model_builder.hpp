#pragma once
#include "rmodel/export.hpp"
/// @file model_builder.hpp
/// Adding and removing chains, as the original service's addChain/removeChain did — but a
/// Model is immutable and shared between threads, so each operation returns a new model
/// built from the old one's URDF, semantics and limits; the old model is unchanged.

#include <string_view>

#include "rmodel/model/model.hpp"
#include "rmodel/model/semantics.hpp"

namespace rmodel {

/// A new model with `chain` appended to the chains (so its new joints go to the end of the
/// full pose). With a non-empty `group`, the chain is also added to that group (created at
/// the end of the groups when absent). A URDF-only model gains a semantic description with
/// this one chain.
/// @throws ModelError when the chain breaks a model rule (duplicate name, unknown link...).
RMODEL_API Model add_chain(const Model& model, ChainSpec chain, std::string_view group = {});

/// A new model without the chain: removed from the chains and from every group listing it
/// (a group left with no chain and no joint is removed too). Joints only that chain held
/// leave the full pose; the others keep their order.
/// @throws NotFound when the model has no such chain; ModelError when what remains breaks a
///         rule (a contact or group naming the chain in a way the rules forbid).
RMODEL_API Model remove_chain(const Model& model, std::string_view chain);

}  // namespace rmodel
