#pragma once
#include "rmodel/export.hpp"
/// @file joint_state.hpp
/// A joint state message in the layout of `sensor_msgs/JointState`.

#include <string>
#include <vector>

#include "rmodel/base/time.hpp"

namespace rmodel {

/// Names with positions (rad or m), velocities (rad/s or m/s) and efforts (N·m or N).
/// Each value array is either empty (field absent) or as long as `name`.
struct RMODEL_API JointState {
  Time stamp{};  ///< time of the state (rmodel/base/time.hpp: integer nanoseconds)
  std::vector<std::string> name;
  std::vector<double> position;
  std::vector<double> velocity;
  std::vector<double> effort;

  bool operator==(const JointState&) const = default;
};

/// Support state of the robot's chains (`sweetie_bot_kinematics_msgs/SupportState`):
/// chain names, support coefficients in [0, 1] and contact names.
struct RMODEL_API SupportState {
  Time stamp{};  ///< time of the state
  std::vector<std::string> name;
  std::vector<double> support;
  std::vector<std::string> contact;

  bool operator==(const SupportState&) const = default;
};

}  // namespace rmodel
