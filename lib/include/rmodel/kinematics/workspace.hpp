#pragma once
#include "rmodel/export.hpp"
/// @file workspace.hpp
/// Preallocated buffers for the per-pose kinematics of one KinematicModel (the "Data" of
/// the Model/Data split). Sized once; the per-pose functions write into it and allocate
/// nothing. One Workspace per thread.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "rmodel/kinematics/kinematic_model.hpp"

namespace rmodel::kinematics {

/// Highest order of link-transform derivatives a Workspace can hold.
enum class DerivativeOrder : int {
  none = 0,    ///< frames, Jacobians, centre of mass and contacts only
  first = 1,   ///< + ∂X/∂q_i: 128 bytes × Σ body depth
  second = 2,  ///< + ∂²X/∂q_i∂q_j: another 128 bytes × Σ depth·(depth+1)/2
};

/// Per-pose results and scratch space for one KinematicModel.
class RMODEL_API Workspace {
public:
  /// Allocates every buffer the per-pose functions need for `model`, including storage for
  /// link-transform derivatives up to `derivatives` (none by default: for a robot with
  /// bodies of depth d the second derivatives take 64·d² bytes per body).
  explicit Workspace(const KinematicModel& model,
                     DerivativeOrder derivatives = DerivativeOrder::none);

  /// True when this workspace was built for `model` (or a copy of it).
  [[nodiscard]] bool belongs_to(const KinematicModel& model) const noexcept {
    return model.shared_data().get() == model_.get();
  }
  [[nodiscard]] DerivativeOrder derivative_capacity() const noexcept { return capacity_; }
  [[nodiscard]] std::size_t size() const noexcept { return frames_.size(); }

  // ---- results of forward_kinematics ----

  /// Link frame of a body in the base frame (body → base transform) at the last pose.
  /// Precondition: body < size() (not checked).
  [[nodiscard]] const Eigen::Isometry3d& frame(std::size_t body) const noexcept {
    return frames_[body];
  }
  /// Every link frame, in body order.
  [[nodiscard]] std::span<const Eigen::Isometry3d> frames() const noexcept { return frames_; }
  /// Joint axis of a body in the base frame, multiplied by the joint's scale (so that it is
  /// the derivative of the motion by q); zero for fixed joints and the base.
  [[nodiscard]] const Eigen::Vector3d& joint_axis(std::size_t body) const noexcept {
    return axes_[body];
  }
  /// Origin of a body's joint frame in the base frame (a point on the joint axis).
  [[nodiscard]] const Eigen::Vector3d& joint_origin(std::size_t body) const noexcept {
    return joint_origins_[body];
  }

  // ---- results of frame_derivatives ----

  /// ∂X_body/∂q[q_index] (4×4, last row zero) as left by the last frame_derivatives call
  /// for this body; the zero matrix when that joint does not move the body. When mimic
  /// joints read the slot too, the sum over every joint of the body's path reading it.
  /// @throws InvalidArgument on an index out of range or when the workspace holds no first
  /// derivatives.
  [[nodiscard]] Eigen::Matrix4d frame_derivative(std::size_t body, std::size_t q_index) const;
  /// ∂²X_body/∂q[i]∂q[j] (4×4, last row zero, symmetric in i and j); zero when either joint
  /// does not move the body (sums over mimic joints as frame_derivative).
  /// @throws InvalidArgument on an index out of range or without second-derivative storage.
  [[nodiscard]] Eigen::Matrix4d frame_second_derivative(std::size_t body, std::size_t i,
                                                        std::size_t j) const;

  /// Raw first derivatives of a body: entry a is the derivative by the joint of the a-th
  /// body of KinematicModel::joint_path(body) (the a-th moving joint from the base).
  /// @throws InvalidArgument on a body out of range or without first-derivative storage.
  [[nodiscard]] std::span<const Eigen::Matrix4d> body_first_derivatives(std::size_t body) const;
  /// Raw second derivatives of a body, packed: entry (a, b) with a ≤ b at b·(b+1)/2 + a.
  /// @throws InvalidArgument on a body out of range or without second-derivative storage.
  [[nodiscard]] std::span<const Eigen::Matrix4d> body_second_derivatives(std::size_t body) const;

private:
  friend struct WorkspaceAccess;
  std::shared_ptr<const KinematicModel::Data> model_;
  DerivativeOrder capacity_ = DerivativeOrder::none;
  std::vector<Eigen::Isometry3d> frames_;
  std::vector<Eigen::Vector3d> axes_;
  std::vector<Eigen::Vector3d> joint_origins_;
  std::vector<Eigen::Matrix4d> d1_;  ///< per body, at Data::d1_offset
  std::vector<Eigen::Matrix4d> d2_;  ///< per body, at Data::d2_offset
  std::vector<double> subtree_mass_;
  std::vector<Eigen::Vector3d> subtree_moment_;  ///< Σ m·c over the subtree, base frame
};

}  // namespace rmodel::kinematics
