#pragma once
#include "rmodel/export.hpp"
/// @file jacobian.hpp
/// Geometric Jacobians of a link or of a point fixed on it.
///
/// Convention (the same as KDL::Jacobian): 6 × pose_size(); rows 0–2 are the linear
/// velocity of the reference point, rows 3–5 the angular velocity of the link, both
/// expressed in the base frame; column k is the contribution of pose slot k (zero when that
/// joint does not move the link). The reference point is the link frame's origin, or the
/// given point. Units: m/rad (or 1 for prismatic joints) in the linear rows, 1 (or 0) in
/// the angular rows.

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#include <kdl/jacobian.hpp>
#include <kdl/jntarray.hpp>

#include "rmodel/kinematics/kinematic_model.hpp"
#include "rmodel/kinematics/workspace.hpp"

namespace rmodel::kinematics {

/// A 6 × n geometric Jacobian: linear part first, then angular.
using Jacobian = Eigen::Matrix<double, 6, Eigen::Dynamic>;

/// Jacobian of `body` with its link origin as reference point, from the frames of the last
/// forward_kinematics call. `J` is resized to 6 × pose_size() (no allocation when it
/// already has that size).
/// @throws InvalidArgument when `ws` belongs to another model or body ≥ model.size().
RMODEL_API void jacobian(const KinematicModel& model, const Workspace& ws, std::size_t body, Jacobian& J);

/// Jacobian of the point `point` (link frame of `body`, m) moving with the body.
RMODEL_API void jacobian(const KinematicModel& model, const Workspace& ws, std::size_t body,
              const Eigen::Vector3d& point, Jacobian& J);

/// Same, into a KDL::Jacobian (resized to pose_size() columns when needed).
RMODEL_API void jacobian(const KinematicModel& model, const Workspace& ws, std::size_t body,
              KDL::Jacobian& J);

/// forward_kinematics(model, ws, q) and jacobian(model, ws, body, J) in one call, with the
/// same results bit for bit (every frame of `ws` included); checks the arguments once.
/// The fast path for FK + Jacobian of one end of a chain. Allocates nothing once `J` has
/// its size.
/// @throws SizeMismatch when q.size() ≠ model.pose_size(); InvalidArgument when `ws`
///         belongs to another model or body ≥ model.size().
RMODEL_API void forward_kinematics_jacobian(const KinematicModel& model, Workspace& ws, std::span<const double> q,
                                            std::size_t body, Jacobian& J);

/// Same, from a KDL joint array (size pose_size()).
RMODEL_API void forward_kinematics_jacobian(const KinematicModel& model, Workspace& ws, const KDL::JntArray& q,
                                            std::size_t body, Jacobian& J);

/// The pose slots whose columns of a chain's Jacobian show its motion (`rmodel jacobian`'s
/// columns): the chain's movable joints root to tip (its virtual ones too with `with_virtual`),
/// except that a mimic joint, whose own slot no body reads, gives way to the slot it follows,
/// whose column includes its motion (even when that joint is not on the chain); each slot once.
/// `model` is the chain's model over the full pose:
/// KinematicModel::from_chain(robot, chain, with_virtual, PoseLayout::full).
/// @throws NotFound for an unknown chain.
RMODEL_API std::vector<int> chain_jacobian_columns(const Model& robot, const KinematicModel& model,
                                                   std::string_view chain, bool with_virtual = true);

}  // namespace rmodel::kinematics
