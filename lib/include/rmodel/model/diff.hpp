#pragma once
#include "rmodel/export.hpp"
/// @file diff.hpp
/// Comparing two models. The first question is the one CI asks: will joint-state logs
/// recorded with the old model be read correctly with the new one, i.e. is the full pose
/// compatible? Then everything else that changed: URDF links (their mass, centre of mass and
/// inertia) and joints (with renames detected; types, origins, axes, limits, dynamics, mimic,
/// safety controller), chains, groups, contacts, named poses.

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rmodel/model/model.hpp"

namespace rmodel {

/// Options of diff_models.
struct RMODEL_API DiffOptions {
  /// Absolute tolerance below which numbers are equal: origin translations and centres of
  /// mass (m), entries of rotation matrices, axis components, limits (rad, m, rad/s, m/s,
  /// N·m, N), damping and friction, the safety controller's values, mimic rules, contact
  /// points (m) and named-pose values. Masses are equal within it relative to the larger,
  /// moments of inertia relative to the largest moment of the link on either side. 0
  /// compares the values bit for bit as read. Must be ≥ 0.
  double tolerance = 1e-9;
};

/// Whether the old full pose can be read with the new model.
enum class PoseVerdict {
  identical,     ///< same joints at the same indices, same units
  extended,      ///< the old pose is a strict prefix of the new one (joints appended)
  incompatible,  ///< a joint removed, renamed, moved, inserted or changed unit
};

/// "identical", "extended", "incompatible".
RMODEL_API std::string_view to_string(PoseVerdict verdict);

/// A joint at an index of one of the full poses.
struct RMODEL_API PoseEntry {
  std::string name;
  int index = -1;
};

/// A joint present in both poses at different indices.
struct RMODEL_API PoseMove {
  std::string name;
  int old_index = -1;
  int new_index = -1;
};

/// A joint of both poses whose positions change unit (revolute or continuous, in rad, to
/// prismatic, in m, or back): its logged values would be misread.
struct RMODEL_API PoseUnitChange {
  std::string name;
  int index = -1;  ///< new index
  JointType old_type = JointType::unknown;
  JointType new_type = JointType::unknown;
};

/// The full pose comparison.
struct RMODEL_API PoseDiff {
  PoseVerdict verdict = PoseVerdict::identical;
  std::size_t old_size = 0;
  std::size_t new_size = 0;
  std::vector<PoseEntry> removed;  ///< in the old pose only (old index)
  std::vector<PoseEntry> added;    ///< in the new pose only (new index)
  std::vector<PoseMove> moved;     ///< in both, at another index
  std::vector<PoseUnitChange> unit_changes;

  /// True when old logs are read correctly: identical, or extended when `allow_extension`.
  [[nodiscard]] bool compatible(bool allow_extension = true) const noexcept {
    return verdict == PoseVerdict::identical || (allow_extension && verdict == PoseVerdict::extended);
  }
};

/// A value on one side of a change; std::monostate when absent on that side.
using DiffValue =
    std::variant<std::monostate, bool, int, double, std::string, std::vector<double>, std::vector<std::string>>;

/// One property that differs.
struct RMODEL_API PropertyChange {
  std::string property;  ///< e.g. "origin_xyz", "upper", "joints"
  DiffValue old_value;
  DiffValue new_value;
};

/// An entity (by name) present in both models whose properties differ.
struct RMODEL_API EntityChange {
  std::string name;
  std::vector<PropertyChange> changes;
};

/// Entities of one kind added, removed and changed (names in model order: removed in the
/// old model's order, added and changed in the new one's).
struct RMODEL_API EntityDiff {
  std::vector<std::string> added;
  std::vector<std::string> removed;
  std::vector<EntityChange> changed;
  [[nodiscard]] bool empty() const noexcept { return added.empty() && removed.empty() && changed.empty(); }
};

/// A joint that looks renamed: only in the old URDF under `old_name`, only in the new one
/// under `new_name`, with the same parent link, child link, type and origin (within the
/// tolerance). `changes` lists its other differences (axis, limits).
struct RMODEL_API JointRename {
  std::string old_name;
  std::string new_name;
  std::vector<PropertyChange> changes;
};

/// Everything that differs between two models.
struct RMODEL_API ModelDiff {
  PoseDiff pose;
  std::vector<PropertyChange> robot;  ///< "name", "root_link"
  EntityDiff links;                   ///< added, removed, and changed in mass and inertia
  EntityDiff joints;                  ///< URDF joints; renamed ones are in `renamed` only
  std::vector<JointRename> renamed;
  EntityDiff chains;
  EntityDiff groups;
  EntityDiff contacts;
  EntityDiff poses;  ///< named poses

  /// True when anything at all differs (the pose included).
  [[nodiscard]] bool has_changes() const noexcept;

  /// True when the robot the URDF (and limits file) describes differs: a link or joint added,
  /// removed or renamed, or any property of one (what `rmodel diff --strict` fails on, beside
  /// the pose). The semantics (chains, groups, contacts, named poses) are not the robot.
  [[nodiscard]] bool physical_changes() const noexcept;
};

/// Compares `old_model` with `new_model`.
/// Link properties, as the URDF writes them (null on a side without <inertial>, which reads
/// as mass 0 and no inertia, so that a massless <inertial> written out is no change): mass
/// (kg), inertial_xyz (the centre of mass, m), inertial_rpy (the inertia's axes, rad, compared
/// as a matrix), ixx, ixy, ixz, iyy, iyz, izz (kg·m², in those axes).
/// Joint properties: type, parent_link, child_link, origin_xyz (m), origin_rpy (rad; the
/// rotation is compared as a matrix), axis, lower, upper (null without limits), velocity,
/// effort, acceleration, jerk (null when not given; these come from a limits file), damping,
/// friction (null without <dynamics>, which reads as 0), mimic (the joint followed),
/// mimic_multiplier, mimic_offset (null without <mimic>), soft_lower_limit, soft_upper_limit,
/// k_position, k_velocity (null without <safety_controller>). Chain
/// properties: index, first_link, last_link, last_link_virtual,
/// default_contact, joints (real), virtual_joints, group. Group properties: index, chains,
/// extra_joints, joints. Contacts: points (x y z flattened). Poses: group, joints
/// ("joint=value").
/// @throws InvalidArgument when the tolerance is negative or not a number.
RMODEL_API ModelDiff diff_models(const Model& old_model, const Model& new_model, const DiffOptions& options = {});

}  // namespace rmodel
