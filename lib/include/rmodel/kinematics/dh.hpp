#pragma once
#include "rmodel/export.hpp"
/// @file dh.hpp
/// Denavit–Hartenberg robots for tests: a serial arm described by DH parameters, as a
/// KDL::Chain and as equivalent URDF text.
///
/// Naming (both forms): the base link is `link0`; joint i (1-based) is `joint{i}` and DH
/// frame i is the link `link{i}`. The URDF form has one extra link per joint,
/// `joint{i}_frame`, joined to `link{i}` (standard convention) or to `link{i-1}` (modified
/// convention) by the fixed joint `joint{i}_fixed`, because a URDF joint cannot carry the
/// part of a DH transform that follows the joint motion. Frames of `link{i}` agree between
/// the two forms; the KDL chain has the n segments `link1..link{n}`.

#include <numbers>
#include <span>
#include <string>
#include <string_view>

#include <Eigen/Core>
#include <kdl/chain.hpp>

#include "rmodel/kinematics/kinematic_model.hpp"

namespace rmodel::kinematics {

/// Which DH convention the parameters follow.
enum class DhConvention {
  /// Standard (distal): T_i = RotZ(θ_i + q_i)·TransZ(d_i)·TransX(a_i)·RotX(α_i).
  standard,
  /// Modified (Craig, proximal): T_i = RotX(α_{i-1})·TransX(a_{i-1})·RotZ(θ_i + q_i)·TransZ(d_i)
  /// with a and α of row i holding a_{i-1} and α_{i-1}.
  modified,
};

/// One joint of a DH arm; the link after it carries an optional inertial.
struct RMODEL_API DhJoint {
  double a = 0.0;      ///< link length (m)
  double alpha = 0.0;  ///< link twist (rad)
  double d = 0.0;      ///< link offset (m); plus q for a prismatic joint
  double theta = 0.0;  ///< joint angle offset (rad); plus q for a revolute joint
  JointMotion motion = JointMotion::revolute;  ///< revolute or prismatic (fixed: q ignored)
  double lower = -std::numbers::pi;  ///< URDF limits (rad or m)
  double upper = std::numbers::pi;
  double mass = 0.0;                                  ///< kg; no inertial when 0
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      ///< in DH frame i (m)
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< about the COM, frame i axes
};

/// The arm as a KDL chain of n segments `link{i}` (tip frame = DH frame i), joints
/// `joint{i}` about (or along) z. Pose: q_i is added to θ_i (revolute) or d_i (prismatic).
/// @throws InvalidArgument when a joint's motion is not revolute, prismatic or fixed.
RMODEL_API KDL::Chain dh_chain(std::span<const DhJoint> joints, DhConvention convention = DhConvention::standard);

/// The same arm as URDF text (see the file comment for link and joint names); numbers are
/// written with 17 significant digits.
RMODEL_API std::string dh_urdf(std::span<const DhJoint> joints, DhConvention convention = DhConvention::standard,
                    std::string_view robot_name = "dh_arm");

/// The transform of DH frame i-1 → frame i at joint value q (4×4 homogeneous).
RMODEL_API Eigen::Isometry3d dh_transform(const DhJoint& joint, double q,
                               DhConvention convention = DhConvention::standard);

}  // namespace rmodel::kinematics
