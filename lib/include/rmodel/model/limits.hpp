#pragma once
#include "rmodel/export.hpp"
/// @file limits.hpp
/// Joint limits beyond the URDF: MoveIt's `joint_limits.yaml` (`joint_limits: {joint:
/// {has_velocity_limits, max_velocity, has_acceleration_limits, max_acceleration,
/// has_jerk_limits, max_jerk, has_position_limits, min_position, max_position,
/// has_effort_limits, max_effort}}`). A value counts only when its `has_*_limits` flag is
/// true, as MoveIt reads the file; a value whose flag is absent or false is ignored with a
/// warning. Positions are the exception, as in MoveIt: min_position and max_position count
/// when given, and has_position_limits is not read. Units are those of the joint: rad or m, per s, s², s³; N·m or N.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rmodel/base/diagnostic.hpp"

namespace rmodel {

/// The limits a `joint_limits.yaml` gives one joint; nullopt when not given (or disabled).
struct RMODEL_API JointLimitsSpec {
  std::string joint;
  /// Each when given, whatever has_position_limits says: MoveIt does not read that flag.
  std::optional<double> min_position, max_position;
  std::optional<double> max_velocity;                ///< > 0
  std::optional<double> max_acceleration;            ///< > 0
  std::optional<double> max_jerk;                    ///< > 0
  std::optional<double> max_effort;                  ///< > 0
  int line = 0;                                      ///< 1-based line of the joint's key
  bool operator==(const JointLimitsSpec&) const = default;
};

/// A parsed limits file, joints in file order.
struct RMODEL_API JointLimitsFile {
  std::vector<JointLimitsSpec> joints;
  std::string source;  ///< file name for messages
  /// Keys and values ignored as MoveIt ignores them (flags false or missing, unknown keys).
  std::vector<Diagnostic> warnings;
  /// The entry of a joint, nullptr when the file does not name it.
  [[nodiscard]] const JointLimitsSpec* find(std::string_view joint) const noexcept;
};

/// Parses a MoveIt `joint_limits.yaml`.
/// @throws ParseError for the first error with file and line on malformed YAML, a missing `joint_limits` map, a
///         value that is not a positive finite number, or min_position above max_position.
RMODEL_API JointLimitsFile parse_joint_limits(std::string_view text, const std::string& source_name);

/// Parses a MoveIt `joint_limits.yaml`, reading on past errors so that all are found: each
/// goes to `errors` (code "limits-syntax", file and line), the values it concerns (a value, a
/// joint, the position pair) left out of the result. Throws no ParseError; used by `check`.
RMODEL_API JointLimitsFile parse_joint_limits(std::string_view text, const std::string& source_name,
                                              Diagnostics& errors);

/// Reads and parses a limits file ("-" reads stdin). @throws IoError, ParseError.
RMODEL_API JointLimitsFile load_joint_limits(const std::string& path);

}  // namespace rmodel
