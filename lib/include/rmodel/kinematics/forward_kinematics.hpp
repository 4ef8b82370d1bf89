#pragma once
#include "rmodel/export.hpp"
/// @file forward_kinematics.hpp
/// Link frames at a pose, and the first and second partial derivatives of every link's
/// 4×4 homogeneous transform by the joint values.
///
/// Derivatives follow the substitution rule of the original design: X_body is the product
/// of its joints' transforms parent·M(q); ∂/∂q_i replaces the i-th factor by its derivative,
/// ∂²/∂q_i∂q_j replaces both factors (the i-th by its second derivative when i = j). They
/// are computed in the equivalent closed form ∂X/∂q_i = S_i·X and ∂²X/∂q_i∂q_j = S_i·S_j·X
/// (joint i nearer the base than, or equal to, joint j), where S_i is the 4×4 twist matrix
/// of joint i in the base frame: [[ω̂, −ω̂·p], [0, 0]] for a revolute joint with axis ω
/// through p, [[0, v], [0, 0]] for a prismatic joint along v (both scaled by the joint's
/// scale). Derivatives are with respect to q, in base-frame coordinates.

#include <array>
#include <cstddef>
#include <span>

#include <kdl/jntarray.hpp>

#include "rmodel/kinematics/kinematic_model.hpp"
#include "rmodel/kinematics/workspace.hpp"

namespace rmodel::kinematics {

/// Computes every link frame (Workspace::frame) and the joints' axes and origins in the
/// base frame at pose `q` (pose_size() values, rad or m). Allocates nothing.
/// @throws SizeMismatch when q.size() ≠ model.pose_size();
///         InvalidArgument when `ws` was built for another model.
RMODEL_API void forward_kinematics(const KinematicModel& model, Workspace& ws, std::span<const double> q);

/// The transform a body's joint makes at pose `q` (pose_size() values, rad or m): from the
/// parent's link frame to the body's, origin · M(scale · q[q_index] + offset) · Trans(tip),
/// what robot_state_publisher publishes for the joint (child frame in the parent frame).
/// Fixed joints: their origin; a movable joint outside the pose (q_index −1) reads 0. Read
/// from the body's origin and axis alone (not from forward_kinematics). Allocates nothing.
/// @throws SizeMismatch when q is shorter than the body's slot.
RMODEL_API Eigen::Isometry3d joint_transform(const Body& body, std::span<const double> q);

/// Same, from a KDL joint array (size pose_size()).
RMODEL_API void forward_kinematics(const KinematicModel& model, Workspace& ws, const KDL::JntArray& q);

/// Fills the first (and, for DerivativeOrder::second, the second) partial derivatives of
/// every body's transform, from the frames of the last forward_kinematics call.
/// Cost: Σ depth (first) and Σ depth·(depth+1)/2 (second) 4×4 products of a cross-product
/// form. Allocates nothing.
/// @throws InvalidArgument when `ws` belongs to another model or lacks the storage
///         (see the Workspace constructor).
RMODEL_API void frame_derivatives(const KinematicModel& model, Workspace& ws, DerivativeOrder order);

/// Same for one body only (the others keep whatever they held).
/// @throws InvalidArgument as above, or when body ≥ model.size().
RMODEL_API void frame_derivatives(const KinematicModel& model, Workspace& ws, std::size_t body,
                       DerivativeOrder order);

/// Roll, pitch and yaw (rad) of a rotation matrix, as KDL::Rotation::GetRPY computes them:
/// rotation = Rz(yaw)·Ry(pitch)·Rx(roll), pitch in [−π/2, π/2], roll 0 at gimbal lock.
RMODEL_API std::array<double, 3> roll_pitch_yaw(const Eigen::Matrix3d& rotation);

}  // namespace rmodel::kinematics
