#pragma once
// Internal: the inertial plausibility checks of `check` on the URDF's links (docs/design.md,
// "Dynamics"); the joints that cannot hold their own weight are check/holding_weight.hpp.

#include <string>
#include <string_view>

#include "rmodel/base/diagnostic.hpp"

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

}  // namespace rmodel::detail
