// One joint's transform, parent link → child link, from the body's origin and axis.

#include "rmodel/base/error.hpp"
#include "rmodel/kinematics/forward_kinematics.hpp"

namespace rmodel::kinematics {

Eigen::Isometry3d joint_transform(const Body& body, std::span<const double> q) {
  Eigen::Isometry3d x = body.origin;
  if (body.motion == JointMotion::fixed) return x;
  double value = 0.0;
  if (body.q_index >= 0) {
    const auto slot = static_cast<std::size_t>(body.q_index);
    if (slot >= q.size()) throw SizeMismatch("kinematics: pose", slot + 1, q.size());
    value = q[slot];
  }
  const double theta = body.scale * value + body.offset;
  if (body.motion == JointMotion::revolute)
    x.linear() = body.origin.linear() * Eigen::AngleAxisd(theta, body.axis).toRotationMatrix();
  else
    x.translation() += body.origin.linear() * (theta * body.axis);
  x.translation() += x.linear() * body.tip;
  return x;
}

}  // namespace rmodel::kinematics
