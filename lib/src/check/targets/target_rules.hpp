#pragma once
// Internal: the rules of the programs `check --target` names (rmodel/check/check.hpp, CheckTarget).
// Each file of this folder holds one program's rules, learnt from its source at the version
// Debian 12 ships and tested against that library (tests/oracle): mujoco_rules.cpp (MuJoCo's
// URDF reader and compiler), kdl_rules.cpp (kdl_parser), gazebo_rules.cpp (sdformat's URDF to
// SDF conversion). They read the loaded Model and the URDF's XML, for what the Model does not
// keep (geometry, a program's own elements such as <mujoco> and <gazebo>).

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <kdl/frames.hpp>

#include "rmodel/base/diagnostic.hpp"
#include "rmodel/model/model.hpp"

namespace tinyxml2 {
class XMLElement;
}

namespace rmodel::detail {

/// A URDF as the rules read it.
struct TargetInput {
  const Model& model;
  const tinyxml2::XMLElement& robot;  ///< the <robot> element of model.urdf_text()
  std::string source;                 ///< the URDF's name in messages
  std::filesystem::path urdf_dir;     ///< where meshes are looked up from; empty: nowhere

  /// The <link> element of a link of the model (the first of its name).
  [[nodiscard]] const tinyxml2::XMLElement* link_element(std::string_view name) const;
  /// The line of an element, or of the link's element when `element` is null.
  [[nodiscard]] SourceLocation at(const tinyxml2::XMLElement* element, const LinkInfo& link) const;

  std::unordered_map<std::string, const tinyxml2::XMLElement*> links_by_name;
};

/// Mass, centre of mass and inertia about it, in the axes of some frame.
struct MassProperties {
  double mass = 0.0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();

  /// A link's <inertial> in the link's frame.
  static MassProperties of(const Inertial& inertial);
  /// The same body seen from the parent of `frame` (the pose of this body's frame there).
  [[nodiscard]] MassProperties moved(const Eigen::Isometry3d& frame) const;
  /// Two bodies as one, about their common centre of mass; nullopt when their masses add up to
  /// zero, where the centre is undefined.
  [[nodiscard]] static std::optional<MassProperties> combined(const MassProperties& a, const MassProperties& b);
};

/// A KDL frame as Eigen's (KDL's own composition is not called by the library: base/lazy_kdl.cpp).
Eigen::Isometry3d to_isometry(const KDL::Frame& frame);

/// Eigenvalues of a symmetric 3×3 matrix, ascending.
Eigen::Vector3d principal_moments(const Eigen::Matrix3d& inertia);

/// A number for messages: up to six significant digits.
std::string short_number(double value);

/// "a, b and c", with at most `most` names and "and N more".
std::string name_list(const std::vector<std::string>& names, std::size_t most = 6);

void check_mujoco(const TargetInput& input, Diagnostics& out);
void check_kdl(const TargetInput& input, Diagnostics& out);
void check_gazebo(const TargetInput& input, Diagnostics& out);

}  // namespace rmodel::detail
