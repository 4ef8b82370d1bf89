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
/// calls this on the document it parsed), by one rule, with rounding taken as 1e-5 of the
/// largest moment (a moment within it of zero is zero): a mass > 0 (error `inertial-mass`),
/// no negative principal moment (error `inertia-not-positive`), the triangle inequalities
/// ixx + iyy ≥ izz and the other two, on the moments as written and on the principal
/// moments (which the written ones may hide; error `inertia-triangle`), and a warning
/// `inertia-zero-moment` for a zero principal moment (a thin rod) or a zero inertia with a
/// mass (a point mass). An <inertial> of zero mass and zero inertia (a massless frame)
/// passes. Each names the element's line.
void check_inertials(const tinyxml2::XMLElement& robot, const std::string& source, Diagnostics& out);

/// Warning `cannot-hold-weight` for a movable joint with an effort limit whose gravity
/// torque (root fixed, gravity −9.81 m/s² along the root's z) exceeds that limit at the
/// zero pose and at every named pose.
void check_holding_weight(const Model& model, Diagnostics& out);

}  // namespace rmodel::detail
