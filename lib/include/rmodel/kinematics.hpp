#pragma once
/// @file kinematics.hpp
/// Umbrella header of rmodel's kinematics library: an immutable KinematicModel built from a
/// robot Model (tree or chain) or a KDL chain/tree, a preallocated Workspace, and the
/// allocation-free per-pose functions (frames, transform derivatives, Jacobians, centre of
/// mass, contact positions). See rmodel/kinematics/kinematic_model.hpp for the conventions.

#include "rmodel/kinematics/center_of_mass.hpp"
#include "rmodel/kinematics/contacts.hpp"
#include "rmodel/kinematics/dh.hpp"
#include "rmodel/kinematics/forward_kinematics.hpp"
#include "rmodel/kinematics/jacobian.hpp"
#include "rmodel/kinematics/kinematic_model.hpp"
#include "rmodel/kinematics/workspace.hpp"
