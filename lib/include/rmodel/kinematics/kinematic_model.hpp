#pragma once
#include "rmodel/export.hpp"
/// @file kinematic_model.hpp
/// The immutable kinematic model: a robot's kinematic tree (or one chain of it) flattened
/// into arrays in topological order, built once and shared by any number of Workspaces.
///
/// Conventions used by every kinematics function:
/// - Lengths in metres, angles in radians, masses in kg, inertias in kg·m².
/// - The model is a list of **bodies** (links) in topological order: body 0 is the base
///   (the tree's root link, or the first link of a chain) and every other body's parent has
///   a smaller index. Each non-base body is attached to its parent by one joint.
/// - The **base frame** is the frame of body 0: for a tree model, the root link of the URDF;
///   for a chain model, the chain's `first_link`. Every world quantity (frames, Jacobians,
///   centre of mass, contact positions) is expressed in the base frame.
/// - A body's link frame at joint value q (the substitution rule of the original design):
///
///       X_body = X_parent · origin · M(scale · q + offset) · Trans(tip)
///
///   where M is the joint motion in the joint frame: R(axis, θ) for revolute/continuous
///   joints, Trans(axis · θ) for prismatic joints, identity for fixed ones. `tip` is zero for
///   every model built from URDF; it is only non-zero for hand-built KDL segments whose
///   joint axis does not pass through the segment's tip frame (e.g. Denavit–Hartenberg).
/// - The **pose** is a vector of `pose_size()` joint values; each movable body reads
///   `q[q_index]`. Movable joints outside the pose (q_index -1) are held at 0.
/// - **Mimic joints** (URDF `<mimic>`) of a model built from rmodel::Model follow their
///   master as robot_state_publisher moves them: the body reads the slot of the master (the
///   highest joint up the chain of masters that has a slot; the root master when it is in
///   the pose) with scale and offset composed from the mimic rules, q = multiplier ·
///   q_master + offset. Several bodies then read one slot: a Jacobian's column of a master
///   includes its mimic joints' motion, and the mimic joint's own slot is read by no body
///   (a zero column). MimicJoints::from_pose instead lets a mimic joint that has a slot read
///   its own value (Model::complete_mimic_joints fills it). A mimic joint whose masters have
///   no slot reads its own slot, or, outside the pose, sits where its masters at 0 put it.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <kdl/chain.hpp>
#include <kdl/tree.hpp>

namespace rmodel {
class Model;
}

namespace rmodel::kinematics {

/// How a joint moves.
enum class JointMotion : std::uint8_t {
  fixed,      ///< no motion (URDF fixed, or floating/planar joints converted to fixed)
  revolute,   ///< rotation about the axis (URDF revolute and continuous)
  prismatic,  ///< translation along the axis
};

/// Mass properties of a body, in its link frame.
struct RMODEL_API LinkInertial {
  double mass = 0.0;                                  ///< kg
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      ///< centre of mass in the link frame (m)
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< about the COM, link axes (kg·m²)
};

/// One body of the flattened tree: a link and the joint that attaches it to its parent.
struct RMODEL_API Body {
  std::string name;   ///< link (KDL segment) name
  std::string joint;  ///< joint from the parent; empty for the base
  int parent = -1;    ///< index of the parent body; -1 for the base (body 0)
  JointMotion motion = JointMotion::fixed;
  /// Slot of the pose driving this joint; -1 for fixed joints and joints outside the pose.
  int q_index = -1;
  /// Parent link frame → joint frame, at q = 0.
  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();  ///< unit joint axis in the joint frame
  double scale = 1.0;  ///< joint angle (rad) or displacement (m) = scale · q + offset
  double offset = 0.0;  ///< rad or m; non-zero for mimic joints with an offset
  /// Joint frame (after the motion) → link frame: a translation, zero for URDF models.
  Eigen::Vector3d tip = Eigen::Vector3d::Zero();
  LinkInertial inertial;
  /// Number of movable joints from the base down to this body, its own joint included.
  int depth = 0;
  /// For a mimic joint (models from rmodel::Model): the joint at the root of its chain of
  /// masters and the rule from it, value = mimic_multiplier · q_root + mimic_offset (the
  /// model's JointMimic, whatever slot the body reads); empty for other joints.
  std::string mimic_root;
  double mimic_multiplier = 1.0;
  double mimic_offset = 0.0;
};

/// How a mimic joint with a slot of its own reads the pose.
enum class MimicJoints {
  follow_master,  ///< from its master's slot (the pose's own value is not read): q is a pose of
                  ///< independent joints, and Jacobians are derivatives along the mimic rule
  from_pose,      ///< from its own slot, as any joint (complete the pose with
                  ///< Model::complete_mimic_joints; a value the input gave is kept, as
                  ///< robot_state_publisher keeps it); mimic joints without a slot still follow
};

/// Which slots the pose vector of a chain model has.
enum class PoseLayout {
  chain,  ///< q holds the chain's movable joints only, root to tip (size = chain size)
  full,   ///< q is the model's full sorted pose (size = Model::pose_size())
};

/// Immutable kinematic model. Copies are cheap (shared immutable data) and safe to share
/// between threads; a Workspace is needed per thread.
class RMODEL_API KinematicModel {
public:
  // ---- building (may allocate and throw; never in a hot path) ----

  /// The whole kinematic tree of a robot model; the pose is the model's full sorted pose
  /// (q_index = JointInfo::index; mimic joints as `mimic_joints` says). Inertials come from
  /// the model's links (the root link included, which KDL::Tree cannot carry).
  static KinematicModel from_model(const Model& model, MimicJoints mimic_joints = MimicJoints::follow_master);

  /// One chain of a robot model (`Model::kdl_chain(chain, with_virtual)`): body 0 is the
  /// chain's first_link, then every segment of the chain (fixed ones included).
  /// @param layout whether the pose is the chain's own q array or the full sorted pose.
  /// @throws NotFound when the chain does not exist.
  /// A mimic joint of the chain follows the highest joint up its chain of masters that has
  /// a slot in the layout (with PoseLayout::chain, one on the chain).
  static KinematicModel from_chain(const Model& model, std::string_view chain,
                                   bool with_virtual = true,
                                   PoseLayout layout = PoseLayout::chain,
                                   MimicJoints mimic_joints = MimicJoints::follow_master);

  /// A KDL chain: body 0 is the chain's base (named `base_name`), body i is segment i-1.
  /// The pose is KDL's joint array for the chain (size getNrOfJoints()).
  static KinematicModel from_kdl_chain(const KDL::Chain& chain, std::string base_name = "base");

  /// A KDL tree, depth-first from the root (children in insertion order). The pose is
  /// KDL's joint array for the tree (size getNrOfJoints(), slot = the segment's q_nr).
  /// Note: KDL's tree solvers work on a copy of the tree, and copying a KDL::Tree renumbers
  /// q_nr depth-first; for a tree built in another order, build from a copy
  /// (`KDL::Tree(tree)`) to share the solvers' joint order.
  static KinematicModel from_kdl_tree(const KDL::Tree& tree);

  // ---- queries ----

  /// Number of bodies (links), the base included.
  [[nodiscard]] std::size_t size() const noexcept;
  /// Number of movable joints (bodies whose q_index ≥ 0).
  [[nodiscard]] std::size_t joint_count() const noexcept;
  /// Size of the pose vector q (columns of every Jacobian).
  [[nodiscard]] std::size_t pose_size() const noexcept;
  [[nodiscard]] std::span<const Body> bodies() const noexcept;
  /// @throws InvalidArgument when index ≥ size().
  [[nodiscard]] const Body& body(std::size_t index) const;
  [[nodiscard]] std::optional<std::size_t> find_body(std::string_view link) const noexcept;
  /// @throws NotFound
  [[nodiscard]] std::size_t body_index(std::string_view link) const;
  /// Body driven by pose slot `q_index` (the slot's own joint when mimic joints read it too);
  /// nullopt when no body reads that slot.
  [[nodiscard]] std::optional<std::size_t> joint_body(std::size_t q_index) const noexcept;
  /// Index of the last body (the tip of a chain model).
  [[nodiscard]] std::size_t tip() const noexcept { return size() - 1; }
  /// Sum of the bodies' masses (kg).
  [[nodiscard]] double total_mass() const noexcept;
  /// True when `ancestor` lies on the path from the base to `body` (a body is its own
  /// ancestor).
  [[nodiscard]] bool is_ancestor(std::size_t ancestor, std::size_t body) const noexcept;
  /// Bodies whose joints move `body`, from the base down (body depth entries; allocates).
  /// Entry a is the joint of the a-th raw derivative (Workspace::body_first_derivatives).
  /// @throws InvalidArgument when body ≥ size().
  [[nodiscard]] std::vector<std::size_t> joint_path(std::size_t body) const;

  /// Implementation data (opaque).
  struct Data;
  [[nodiscard]] const Data& data() const noexcept { return *data_; }
  [[nodiscard]] const std::shared_ptr<const Data>& shared_data() const noexcept { return data_; }

private:
  explicit KinematicModel(std::shared_ptr<const Data> data);
  std::shared_ptr<const Data> data_;
};

}  // namespace rmodel::kinematics
