#pragma once
#include "rmodel/export.hpp"
/// @file support.hpp
/// Setting the support state of chains — the original plugin's setSupportState — for an
/// immutable Model: the model holds no support state; these functions build and edit a
/// SupportState value that belongs to the caller (an aggregator, a controller).

#include "rmodel/base/joint_state.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel {

/// The full support state of a model: every chain in chain order (Model::chains()), support
/// coefficient 0 (in the air) and the chain's default contact ("" when it has none).
[[nodiscard]] RMODEL_API SupportState make_support_state(const Model& model);

/// Sets the support of the chains `update` names in a full support state, as the original
/// setSupportState and the aggregator's support input do. `update.name`: chains, any subset in
/// any order; `update.support`: one coefficient per name in [0, 1], or empty to keep the
/// current ones; `update.contact`: one contact per name, or empty — a missing (empty) contact
/// is the chain's default contact. `full.stamp` becomes `update.stamp`. Everything is checked
/// before anything changes, so on a throw `full` is untouched.
/// @throws SizeMismatch when `full` does not have one entry per chain or `update`'s arrays do
///         not match its names; InvalidArgument when `full` is not in chain order or a
///         coefficient is outside [0, 1]; NotFound (with a suggestion) for an unknown chain or
///         contact.
RMODEL_API void set_support(const Model& model, SupportState& full, const SupportState& update);

}  // namespace rmodel
