#pragma once
// Internal: the physical check of `check` that needs the dynamics: joints that cannot hold
// their own weight (docs/design.md, "Dynamics"). It lives in check/, above kinematics, so that
// model/ does not reach up (docs/architecture.md, "Layers").

#include "rmodel/base/diagnostic.hpp"

namespace rmodel {
class Model;
}

namespace rmodel::detail {

/// Warning `cannot-hold-weight` for a movable joint with an effort limit whose gravity
/// torque (root fixed, gravity −9.81 m/s² along the root's z) exceeds that limit at the
/// zero pose and at every named pose.
void check_holding_weight(const Model& model, Diagnostics& out);

}  // namespace rmodel::detail
