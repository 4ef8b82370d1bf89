#pragma once
// Internal: roll, pitch and yaw of a rotation matrix, with KDL::Rotation::GetRPY's formula
// and order of operations (the same bits, tested against KDL), so that printing a rotation
// as rpy does not open KDL (base/lazy_kdl.cpp).

#include <array>
#include <cmath>
#include <numbers>

namespace rmodel::detail {

/// `m` row-major (m[3 * row + column]): rotation = Rz(yaw)·Ry(pitch)·Rx(roll), pitch in
/// [−π/2, π/2]; within 1e-12 of ±π/2 (gimbal lock) roll is 0 and yaw takes the whole turn.
inline std::array<double, 3> roll_pitch_yaw(const double (&m)[9]) {
  constexpr double epsilon = 1e-12;
  const double pitch = std::atan2(-m[6], std::sqrt(m[0] * m[0] + m[3] * m[3]));
  if (std::fabs(pitch) > std::numbers::pi / 2.0 - epsilon) return {0.0, pitch, std::atan2(-m[1], m[4])};
  return {std::atan2(m[7], m[8]), pitch, std::atan2(m[3], m[0])};
}

}  // namespace rmodel::detail
