#pragma once
// Internal: the per-body constants and buffers behind rmodel::dynamics::DynamicsWorkspace,
// the data of a SupportModel, and the passes shared by the dynamics files.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <Eigen/Core>

#include "kinematics/model_data.hpp"
#include "rmodel/kinematics/dynamics.hpp"

namespace rmodel::dynamics {

enum class JointKind : std::uint8_t { none, revolute, prismatic };

/// What the dynamics needs of a body, from KinematicModel's Body (link frame quantities).
struct DynamicBody {
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< about the COM, link axes (kg·m²)
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      ///< link frame (m)
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();    ///< unit joint axis, link frame
  Eigen::Vector3d tip = Eigen::Vector3d::Zero();      ///< joint frame → link frame (m)
  double mass = 0.0;
  double scale = 1.0;  ///< joint value = scale · q[q]
  int parent = -1;
  int q = -1;  ///< pose slot driving the joint; -1 when none (held at 0)
  JointKind joint = JointKind::none;
  bool has_tip = false;
  bool massive = false;  ///< any mass or inertia: the body's own force can be non-zero
};

/// Per-body results of a pass, all in the base frame. Spatial vectors are kept as pairs of
/// 3-vectors: a motion (angular, linear velocity of the body point at the base origin), a
/// force (moment about the base origin, force).
struct BodyState {
  Eigen::Vector3d w = Eigen::Vector3d::Zero();   ///< angular velocity
  Eigen::Vector3d v = Eigen::Vector3d::Zero();   ///< linear velocity (at the origin)
  Eigen::Vector3d al = Eigen::Vector3d::Zero();  ///< angular acceleration
  Eigen::Vector3d a = Eigen::Vector3d::Zero();   ///< spatial linear acceleration, gravity folded in
  Eigen::Vector3d u = Eigen::Vector3d::Zero();   ///< unit joint axis
  Eigen::Vector3d o = Eigen::Vector3d::Zero();   ///< a point of the joint axis
  Eigen::Vector3d n = Eigen::Vector3d::Zero();   ///< moment about the origin (then subtree sum)
  Eigen::Vector3d f = Eigen::Vector3d::Zero();   ///< force (then subtree sum)
};

/// A joint's spatial motion per unit q (scale included), base frame, at the base origin.
struct MotionVector {
  Eigen::Vector3d angular = Eigen::Vector3d::Zero();
  Eigen::Vector3d linear = Eigen::Vector3d::Zero();
};

/// Composite rigid-body inertia of a subtree about the base origin, base frame.
struct Composite {
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< rotational inertia about the origin
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();   ///< first moment of mass Σ m·c
  double mass = 0.0;
};

/// A body of the mass matrix's tree: a body whose joint moves (q ≥ 0), carrying the bodies
/// rigidly attached below it (fixed joints, joints held at 0) folded into one inertial, in its
/// link frame, as Pinocchio merges fixed joints when it reads a URDF. The composite rigid-body
/// pass then visits joints only.
struct CrbaBody {
  std::size_t body = 0;  ///< index in the model
  int parent = -1;       ///< index in State::crba of the nearest moving ancestor; -1: the root
  double mass = 0.0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      ///< link frame (m)
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< about the COM, link axes (kg·m²)
  bool massive = false;
};

struct DynamicsWorkspace::State {
  State(const KinematicModel& model, std::size_t max_points);

  std::shared_ptr<const KinematicModel::Data> model;
  kinematics::Workspace kin;
  std::vector<DynamicBody> bodies;
  std::vector<BodyState> states;
  std::vector<double> torque;  ///< per body, about its own joint axis
  std::vector<CrbaBody> crba;             ///< the moving bodies, in the model's (pre)order
  std::vector<Composite> crba_composites;  ///< per entry of crba
  std::vector<MotionVector> crba_axes;     ///< per entry of crba: its joint's motion per unit q
  std::vector<ContactForce> contacts;  ///< capacity max_points, `contact_count` used
  std::vector<double> weights;         ///< per contact point
  std::size_t contact_count = 0;
  Wrench base;
  Wrench unbalanced;
};

struct SupportModel::Data {
  std::vector<Chain> chains;
  std::vector<Contact> contacts;
  std::unordered_map<std::string, std::size_t, kinematics::StringHash, std::equal_to<>> chain_index;
  std::unordered_map<std::string, std::size_t, kinematics::StringHash, std::equal_to<>> contact_index;
  std::size_t max_points = 0;
};

/// Access to the opaque parts for the dynamics files.
struct DynamicsAccess {
  static DynamicsWorkspace::State& state(DynamicsWorkspace& ws) { return *ws.state_; }
  static const SupportModel::Data& data(const SupportModel& s) { return *s.data_; }
};

/// The checks every entry point makes: the workspace's model, the sizes of q and of tau.
void check_call(const KinematicModel& model, const DynamicsWorkspace::State& st, std::span<const double> q,
                std::span<double> tau);
/// Throws SizeMismatch naming `what` unless values has pose_size() entries.
void check_pose_sized(const KinematicModel& model, std::span<const double> values, const char* what);

/// Forward pass from body 0's motion (st.states[0], set by the caller): velocities,
/// accelerations, joint axes, and each body's own force; qd and qdd may be empty (zero).
/// Body 0's own force is computed too. Expects the kinematics to hold q's frames.
void forward_pass(DynamicsWorkspace::State& st, std::span<const double> qd, std::span<const double> qdd);

/// Backward pass: sums every body's force into its parent's, from the leaves, writing each
/// body's joint torque and tau (zeroed first) per pose slot.
void backward_pass(DynamicsWorkspace::State& st, std::span<double> tau);

}  // namespace rmodel::dynamics
