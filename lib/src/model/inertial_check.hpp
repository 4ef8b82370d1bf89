#pragma once
// Internal: the physical checks of `check` — inertial plausibility of the URDF's links and
// the joints that cannot hold their own weight (docs/design.md, "Dynamics").

#include <string>
#include <string_view>

#include "rmodel/diagnostic.hpp"

namespace rmodel {
class Model;
}
namespace tinyxml2 {
class XMLElement;
}

namespace rmodel::detail {

/// Every <inertial> of the links of a URDF's <robot> element (read by analyse_urdf, which
/// calls this on the document it parsed): a mass > 0 (error
/// `inertial-mass`), an inertia that is positive definite (error `inertia-not-positive`)
/// and whose written moments satisfy the triangle inequalities ixx + iyy ≥ izz and the
/// other two (error `inertia-triangle`), and principal moments that satisfy them too
/// (warning `inertia-principal-triangle`). An <inertial> of zero mass and zero inertia (a
/// massless frame) and a point mass (zero inertia) pass. Each names the element's line.
void check_inertials(const tinyxml2::XMLElement& robot, const std::string& source, Diagnostics& out);

/// Warning `cannot-hold-weight` for a movable joint with an effort limit whose gravity
/// torque (root fixed, gravity −9.81 m/s² along the root's z) exceeds that limit at the
/// zero pose and at every named pose.
void check_holding_weight(const Model& model, Diagnostics& out);

}  // namespace rmodel::detail
