#pragma once
#include "rmodel/export.hpp"
/// @file dynamics.hpp
/// Rigid-body dynamics on the immutable kinematic model: the joint torques a motion needs
/// (recursive Newton–Euler), the gravity torques alone, the joint-space mass matrix
/// (composite rigid bodies), the Coriolis/centrifugal term, and, for legged robots, the
/// contact forces of the supporting chains that carry a floating body.
///
/// Conventions (those of rmodel/kinematics/kinematic_model.hpp, plus):
/// - Every vector quantity is expressed in the **base frame** (the frame of body 0, the
///   URDF's root link for a tree model). Gravity is a vector in that frame, m/s²; the
///   default is (0, 0, −9.81): −9.81 m/s² along the base's z axis.
/// - Joint velocities in rad/s or m/s, accelerations in rad/s² or m/s², one per pose slot
///   (the same slots as the pose q); torques in N·m (revolute) or N (prismatic), one per
///   pose slot, the generalised force conjugate to q: τ = M(q)q̈ + C(q, q̇)q̇ + g(q).
/// - A body reads its joint value as `scale · q[q_index]`, so the torque of a pose slot is
///   the sum, over every body reading that slot, of `scale` × the torque about that body's
///   joint axis (its **joint torque**, DynamicsWorkspace::joint_torque). For ordinary
///   joints (scale 1, one body per slot) the two are the same; a joint that follows another
///   (a mimic joint: multiplier · q_master) adds its torque times the multiplier to its
///   master's.
/// - With a **fixed root** body 0 does not move: its mass never enters a joint torque.
///   With a **floating root** body 0 moves as BaseMotion says (at rest by default) and the
///   wrench that motion needs is carried by the contact points of the supporting chains.
/// - Allocation: building a DynamicsWorkspace or a SupportModel allocates; the per-pose
///   functions allocate nothing (they may resize an output matrix on its first use).

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "rmodel/base/joint_state.hpp"
#include "rmodel/kinematics/kinematic_model.hpp"
#include "rmodel/kinematics/workspace.hpp"

namespace rmodel {
class Model;
}

namespace rmodel::dynamics {

using kinematics::KinematicModel;

/// (0, 0, −9.81) m/s²: standard gravity along the base frame's −z.
[[nodiscard]] RMODEL_API Eigen::Vector3d standard_gravity() noexcept;

/// A force and a moment, in the base frame: N and N·m about the base frame's origin.
struct RMODEL_API Wrench {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
};

/// Buffers for the dynamics of one KinematicModel: its own kinematics Workspace (the frames
/// of the last call), per-body velocities, accelerations and forces, composite inertias and
/// the contact problem. One per thread.
class RMODEL_API DynamicsWorkspace {
public:
  /// Sizes every buffer for `model`; `max_contact_points` is the largest number of contact
  /// points a floating-base call may use (a SupportModel's max_points()).
  explicit DynamicsWorkspace(const KinematicModel& model, std::size_t max_contact_points = 0);
  ~DynamicsWorkspace();
  DynamicsWorkspace(DynamicsWorkspace&&) noexcept;
  DynamicsWorkspace& operator=(DynamicsWorkspace&&) noexcept;
  DynamicsWorkspace(const DynamicsWorkspace&) = delete;
  DynamicsWorkspace& operator=(const DynamicsWorkspace&) = delete;

  /// True when this workspace was built for `model` (or a copy of it).
  [[nodiscard]] bool belongs_to(const KinematicModel& model) const noexcept;
  /// The kinematics of the last call: link frames at its pose.
  [[nodiscard]] const kinematics::Workspace& kinematics() const noexcept;
  /// Torque (N·m) or force (N) about or along the joint axis of `body` at the last call,
  /// per unit of the joint's own angle or displacement (not multiplied by the scale); 0 for
  /// the base and fixed joints. Joints outside the pose (held at 0) get theirs too.
  /// Precondition: body < model size (not checked).
  [[nodiscard]] double joint_torque(std::size_t body) const noexcept;
  /// Wrench that the whole robot's motion needs from outside (base frame, about the base
  /// origin): gravity and inertia of every body, base included. Set by floating_base_dynamics.
  [[nodiscard]] const Wrench& base_wrench() const noexcept;
  /// The part of base_wrench() the contact forces do not carry (zero when the supporting
  /// chains balance the body). Set by floating_base_dynamics.
  [[nodiscard]] const Wrench& unbalanced_wrench() const noexcept;

  /// One contact point of a supporting chain and the force on the robot there.
  struct ContactForce {
    std::size_t chain = 0;    ///< index in SupportModel's chains
    std::size_t contact = 0;  ///< index in SupportModel's contacts
    std::size_t point = 0;    ///< index of the point in that contact
    Eigen::Vector3d position = Eigen::Vector3d::Zero();  ///< base frame (m)
    Eigen::Vector3d force = Eigen::Vector3d::Zero();     ///< from the ground on the robot (N)
  };
  /// The contact forces of the last floating_base_dynamics call, supporting chains in chain
  /// order, points in contact order.
  [[nodiscard]] std::span<const ContactForce> contact_forces() const noexcept;

  struct State;  ///< implementation (opaque)

private:
  friend struct DynamicsAccess;
  std::unique_ptr<State> state_;
};

/// Inverse dynamics with the root fixed: τ = M(q)q̈ + C(q, q̇)q̇ + g(q), by recursive
/// Newton–Euler over the whole model. q, qd, qdd and tau have pose_size() entries.
/// @throws SizeMismatch on a span of another size; InvalidArgument when `ws` belongs to
///         another model.
RMODEL_API void inverse_dynamics(const KinematicModel& model, DynamicsWorkspace& ws,
                                 std::span<const double> q, std::span<const double> qd,
                                 std::span<const double> qdd, std::span<double> tau,
                                 const Eigen::Vector3d& gravity = standard_gravity());

/// The gravity torques g(q) alone: the torques that hold the pose still (root fixed).
/// @throws as inverse_dynamics
RMODEL_API void gravity_torques(const KinematicModel& model, DynamicsWorkspace& ws,
                                std::span<const double> q, std::span<double> tau,
                                const Eigen::Vector3d& gravity = standard_gravity());

/// The Coriolis and centrifugal torques C(q, q̇)q̇ (no gravity, no acceleration).
/// @throws as inverse_dynamics
RMODEL_API void coriolis_torques(const KinematicModel& model, DynamicsWorkspace& ws,
                                 std::span<const double> q, std::span<const double> qd,
                                 std::span<double> tau);

/// The joint-space mass matrix M(q) (pose_size() square, symmetric positive definite for
/// the joints that move a mass), by composite rigid bodies; kinetic energy ½q̇ᵀMq̇. Rows and
/// columns of slots no body reads are zero. `M` is resized when its size differs.
/// @throws as inverse_dynamics
RMODEL_API void mass_matrix(const KinematicModel& model, DynamicsWorkspace& ws,
                            std::span<const double> q, Eigen::MatrixXd& M);

// ---- legged robots: a floating root carried by supporting chains ----

/// The chains that can support the body and the contacts they can touch the ground with:
/// each chain's end link (last_link_virtual when the chain has one, else last_link) in a
/// KinematicModel holding it, and every contact's points in that link's frame (m).
class RMODEL_API SupportModel {
public:
  /// Every chain and contact of `model`, placed in `kinematic_model` (normally
  /// KinematicModel::from_model(model)).
  /// @throws InvalidArgument when a chain's end link is not a body of `kinematic_model`.
  static SupportModel from_model(const Model& model, const KinematicModel& kinematic_model);

  /// One chain: its name, its end body, its default contact (index, or nullopt).
  struct Chain {
    std::string name;
    std::size_t body = 0;
    std::optional<std::size_t> default_contact;
  };
  /// One contact: its name and points (m, in the end link frame of the chain it is used on).
  struct Contact {
    std::string name;
    std::vector<Eigen::Vector3d> points;
  };

  /// Builds one from parts. @throws InvalidArgument on a default contact out of range.
  SupportModel(std::vector<Chain> chains, std::vector<Contact> contacts);

  [[nodiscard]] std::span<const Chain> chains() const noexcept;
  [[nodiscard]] std::span<const Contact> contacts() const noexcept;
  [[nodiscard]] std::optional<std::size_t> find_chain(std::string_view name) const noexcept;
  [[nodiscard]] std::optional<std::size_t> find_contact(std::string_view name) const noexcept;
  /// Most contact points a floating_base_dynamics call can use: every chain supporting
  /// with the largest contact. Give it to DynamicsWorkspace.
  [[nodiscard]] std::size_t max_points() const noexcept;

  struct Data;  ///< implementation (opaque)

private:
  friend struct DynamicsAccess;
  std::shared_ptr<const Data> data_;
};

/// How one chain supports the body.
struct RMODEL_API ChainSupport {
  double coefficient = 0.0;  ///< in [0, 1]; 0: in the air, carries nothing
  /// Contact index in SupportModel::contacts(); nullopt: the chain's default contact.
  std::optional<std::size_t> contact;
};

/// The support of every chain (one entry per SupportModel chain, chain order) from a support
/// state naming any subset of chains (the others are in the air): `state.support` one
/// coefficient per name (empty: every named chain supports with 1), `state.contact` one
/// contact per name or empty (an empty name: the default contact).
/// @throws NotFound for an unknown chain or contact; SizeMismatch when `out` has not one entry
///         per chain or the state's arrays do not match its names; InvalidArgument for a
///         coefficient outside [0, 1].
RMODEL_API void support_from_state(const SupportModel& supports, const SupportState& state,
                                   std::span<ChainSupport> out);

/// Motion of a floating base, in the base frame at this instant.
struct RMODEL_API BaseMotion {
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();      ///< rad/s
  Eigen::Vector3d linear_velocity = Eigen::Vector3d::Zero();       ///< of the base origin, m/s
  Eigen::Vector3d angular_acceleration = Eigen::Vector3d::Zero();  ///< rad/s²
  Eigen::Vector3d linear_acceleration = Eigen::Vector3d::Zero();   ///< of the base origin, m/s²
};

/// Inverse dynamics of a legged robot whose root floats: the base moves as `base` says
/// (at rest by default) and the joints as q, qd, qdd; the wrench this needs (base_wrench())
/// is shared among the contact points of the supporting chains by weighted least squares
/// (docs/design.md, "Dynamics": per point weight = coefficient / points of its contact,
/// least-norm forces that balance the wrench, or come closest), and `tau` receives each
/// joint's torque with the contact forces acting: τ = τ_floating − Σ Jᵢᵀfᵢ. The forces are
/// in ws.contact_forces(), what they cannot carry in ws.unbalanced_wrench().
/// @throws SizeMismatch when `support` has not one entry per chain or a span is not
///         pose-sized; InvalidArgument when the workspace holds too few contact points, a
///         coefficient is outside [0, 1], a chain without a default contact supports without
///         naming one, or a contact index is out of range.
RMODEL_API void floating_base_dynamics(const KinematicModel& model, const SupportModel& supports,
                                       DynamicsWorkspace& ws, std::span<const double> q,
                                       std::span<const double> qd, std::span<const double> qdd,
                                       std::span<const ChainSupport> support, std::span<double> tau,
                                       const BaseMotion& base = {},
                                       const Eigen::Vector3d& gravity = standard_gravity());

}  // namespace rmodel::dynamics
