#pragma once
#include "rmodel/export.hpp"
/// @file center_of_mass.hpp
/// Centre of mass of the model's bodies at a pose. For a tree model this is the robot's
/// centre of mass; for a chain model, that of the chain's links (body 0, the chain's
/// first link, carries no mass in a chain model).

#include <Eigen/Core>

#include "rmodel/kinematics/kinematic_model.hpp"
#include "rmodel/kinematics/workspace.hpp"

namespace rmodel::kinematics {

/// Centre of mass in the base frame (m), from the frames of the last forward_kinematics
/// call; zero when the model has no mass. Allocates nothing.
/// @throws InvalidArgument when `ws` belongs to another model.
RMODEL_API Eigen::Vector3d center_of_mass(const KinematicModel& model, Workspace& ws);

/// 3 × pose_size() Jacobian of the centre of mass (base frame), so that ċ = Jc·q̇; zero when
/// the model has no mass. `Jc` is resized when its size differs.
/// @throws InvalidArgument when `ws` belongs to another model.
RMODEL_API void center_of_mass_jacobian(const KinematicModel& model, Workspace& ws,
                             Eigen::Matrix<double, 3, Eigen::Dynamic>& Jc);

}  // namespace rmodel::kinematics
