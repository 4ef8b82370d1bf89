#pragma once
#include "rmodel/export.hpp"
/// @file model.hpp
/// The robot model: a URDF plus its semantic description, indexed once at load time.
/// A Model is immutable after construction and safe to share between threads.

#include <array>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#include <kdl/chain.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/tree.hpp>

#include "rmodel/base/joint_state.hpp"
#include "rmodel/model/limits.hpp"
#include "rmodel/model/semantics.hpp"

namespace rmodel {

/// URDF joint types.
enum class JointType { revolute, continuous, prismatic, fixed, floating, planar, unknown };

/// "revolute", "continuous", ...
RMODEL_API std::string_view to_string(JointType type);

/// A URDF `<mimic>` element: the joint follows another one, as robot_state_publisher and
/// MoveIt move it: q = multiplier · q_master + offset (rad or m).
struct RMODEL_API JointMimic {
  std::string joint;         ///< the joint followed (its master), as written
  double multiplier = 1.0;
  double offset = 0.0;       ///< rad or m, in the mimic joint's unit
  /// Resolved at load through chained mimics: the joint at the root of the chain (the one
  /// that is not a mimic itself) and the rule from it, q = root_multiplier · q_root +
  /// root_offset. Equal to joint, multiplier and offset when the master is not a mimic.
  std::string root;
  double root_multiplier = 1.0;
  double root_offset = 0.0;
};

/// A URDF `<dynamics>` element, as urdfdom reads it (0 where an attribute is absent).
struct RMODEL_API JointDynamics {
  double damping = 0.0;   ///< N·m·s/rad or N·s/m
  double friction = 0.0;  ///< N·m or N
};

/// A URDF `<safety_controller>` element, as urdfdom reads it (0 where an attribute is absent).
struct RMODEL_API JointSafetyController {
  double soft_lower_limit = 0.0;  ///< rad or m
  double soft_upper_limit = 0.0;  ///< rad or m
  double k_position = 0.0;        ///< 1/s
  double k_velocity = 0.0;        ///< N·m·s/rad or N·s/m
};

/// A URDF joint, with its place in the full pose (if any).
struct RMODEL_API JointInfo {
  std::string name;
  JointType type = JointType::unknown;
  std::string parent_link;
  std::string child_link;
  KDL::Frame origin;               ///< parent link frame → joint frame
  KDL::Vector axis{1, 0, 0};       ///< in the joint frame, as written in the URDF
  bool has_limits = false;         ///< a <limit> element was given
  double lower = 0.0, upper = 0.0; ///< position limits (rad or m); meaningful if has_limits
  double velocity_limit = 0.0;     ///< rad/s or m/s; 0 when not given
  double effort_limit = 0.0;       ///< N·m or N; 0 when not given
  /// rad/s² or m/s², from a limits file (joint_limits.yaml); 0 when not given.
  double acceleration_limit = 0.0;
  /// rad/s³ or m/s³, from a limits file; 0 when not given.
  double jerk_limit = 0.0;
  /// True when a limits file gave this joint any limit (then velocity, effort and position
  /// limits it gives replace the URDF's, as MoveIt does).
  bool limits_from_file = false;
  int line = 0;                    ///< line of the <joint> element in the URDF, 0 if unknown
  /// Index in the full sorted pose, or -1 for fixed joints and joints outside the pose.
  int index = -1;
  /// The `<mimic>` element of a movable joint; nullopt when it has none, or when it names an
  /// unknown or fixed joint or closes a cycle of mimics (then the joint moves on its own and
  /// `check` reports the mistake).
  std::optional<JointMimic> mimic = std::nullopt;
  /// The `<dynamics>` element; nullopt when the joint has none (no damping, no friction).
  std::optional<JointDynamics> dynamics = std::nullopt;
  /// The `<safety_controller>` element; nullopt when the joint has none.
  std::optional<JointSafetyController> safety_controller = std::nullopt;

  [[nodiscard]] bool movable() const noexcept {
    return type == JointType::revolute || type == JointType::continuous ||
           type == JointType::prismatic;
  }
  /// True when positions are bounded (revolute and prismatic with limits).
  [[nodiscard]] bool bounded() const noexcept {
    return has_limits && (type == JointType::revolute || type == JointType::prismatic);
  }
};

/// Mass properties of a link, expressed in the link frame.
struct RMODEL_API Inertial {
  double mass = 0.0;                                    ///< kg
  KDL::Vector com;                                      ///< centre of mass (m)
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();    ///< about the COM, link axes (kg·m²)
  /// As the URDF writes them: the orientation of the inertia's axes in the link frame (the
  /// `<origin rpy>` of the `<inertial>`; identity when not written), and the moments ixx, ixy,
  /// ixz, iyy, iyz, izz of the `<inertia>` in those axes (kg·m²). `inertia` is the same turned
  /// into the link axes.
  KDL::Rotation rotation;  // identity

  std::array<double, 6> moments{};
};

/// A URDF link.
struct RMODEL_API LinkInfo {
  std::string name;
  std::string parent_joint;               ///< empty for the root
  std::vector<std::string> child_joints;  ///< in URDF declaration order
  std::optional<Inertial> inertial;
  int line = 0;
};

/// A kinematic chain after indexing.
struct RMODEL_API Chain {
  std::string name;
  int index = -1;  ///< declaration order
  std::string first_link;
  std::string last_link;
  std::string last_link_virtual;  ///< empty when the chain has no virtual joints
  std::string default_contact;    ///< empty when none
  std::string description;
  std::vector<ChainExtra> extra = {};  ///< further parameters of the chain (.cpf), as declared
  /// Full-pose indices of the chain's movable joints from first_link down to the end
  /// (last_link_virtual if given), root to tip. The first `real_size` are the real joints,
  /// the rest are virtual.
  std::vector<int> joint_indices;
  std::size_t real_size = 0;
  int group = -1;  ///< index of the owning group, -1 if none

  [[nodiscard]] std::size_t size(bool with_virtual) const noexcept {
    return with_virtual ? joint_indices.size() : real_size;
  }
  /// Joint indices with or without the virtual joints.
  [[nodiscard]] std::span<const int> indices(bool with_virtual) const noexcept {
    return {joint_indices.data(), size(with_virtual)};
  }
  /// True when the joints occupy consecutive ascending slots of the full pose, so that a
  /// chain can be mapped onto a pose without copying.
  [[nodiscard]] bool contiguous() const noexcept;
};

/// A joint group after indexing.
struct RMODEL_API Group {
  std::string name;
  int index = -1;
  std::string description;
  std::vector<int> chains;         ///< chain indices, declaration order
  std::vector<int> extra_joints;   ///< full-pose indices of joints given directly
  /// Every joint of the group: joints of its chains (first occurrence, with virtual ones),
  /// then the extra joints.
  std::vector<int> joint_indices;
};

/// A contact: a named set of points in the frame of a chain's last link.
struct RMODEL_API Contact {
  std::string name;
  int index = -1;
  std::string description;
  std::vector<KDL::Vector> points;
};

/// A chain property name, as the original `getChainProperty` takes it.
enum class ChainProperty { first_link, last_link, last_link_virtual, default_contact };

/// Parses "first_link" etc.; nullopt for anything else.
RMODEL_API std::optional<ChainProperty> chain_property_from_string(std::string_view name);

/// Mutable views of one chain's slots in a sorted full pose (no copies). A view is empty
/// (size 0) when the corresponding field of the pose is absent.
struct RMODEL_API ChainView {
  Eigen::Map<Eigen::VectorXd> position{nullptr, 0};
  Eigen::Map<Eigen::VectorXd> velocity{nullptr, 0};
  Eigen::Map<Eigen::VectorXd> effort{nullptr, 0};
};

/// Where a model comes from.
struct RMODEL_API ModelSource {
  std::string urdf_path;        ///< "-" for stdin
  std::string semantics_path;   ///< empty: URDF only
  std::optional<SemanticsFormat> semantics_format;
  std::string limits_path = {};  ///< empty: no joint_limits.yaml (initialised: 3-member braces stay valid)
  /// Directories searched for ROS packages (`$(find pkg)`, `package://pkg/...`) before
  /// ROS_PACKAGE_PATH's (rmodel/base/package_path.hpp).
  std::vector<std::filesystem::path> package_paths = {};
  /// Arguments of a xacro URDF (`$(arg name)`), replacing its `<xacro:arg>` defaults.
  std::map<std::string, std::string> xacro_args = {};
};

/// A mimic joint of the full pose and the joint of the pose it follows: the nearest joint up
/// its chain of masters that is in the pose (the rule composed through masters outside the
/// pose). position[slot] = multiplier · position[master] + offset.
struct RMODEL_API PoseMimic {
  std::size_t slot = 0;    ///< full-pose index of the mimic joint
  std::size_t master = 0;  ///< full-pose index of the joint it follows
  double multiplier = 1.0;
  double offset = 0.0;     ///< rad or m
  /// Index in Model::pose_mimics() of the master's own entry when the master is itself a
  /// mimic joint following the pose, else -1.
  int master_entry = -1;
};

/// Kinds of joint limit a bound can default to.
enum class LimitKind { velocity, acceleration, jerk };

/// The robot model. Construct with Model::load or Model::from_urdf_string.
class RMODEL_API Model {
public:
  /// Builds a model from URDF text and an optional semantic description.
  /// @param urdf_name file name used in messages.
  /// @throws ParseError on malformed URDF, ModelError on a broken rule of the semantics.
  /// `limits` (MoveIt joint_limits.yaml) adds acceleration and jerk limits and replaces the
  /// URDF's velocity, effort and position limits of the joints it names.
  /// @throws ParseError on malformed URDF, ModelError on a broken rule of the semantics or a
  ///         limits file naming a joint the URDF lacks.
  static Model from_urdf_string(std::string urdf_text, const std::string& urdf_name,
                                std::optional<Semantics> semantics = std::nullopt,
                                std::optional<JointLimitsFile> limits = std::nullopt);

  /// Reads the files named by `source` and builds the model.
  /// @throws IoError, ParseError, ModelError.
  static Model load(const ModelSource& source);

  // ---- whole model ----
  [[nodiscard]] const std::string& robot_name() const noexcept;
  [[nodiscard]] const std::string& urdf_text() const noexcept;
  [[nodiscard]] const std::string& urdf_source() const noexcept;
  /// True when a semantic description was given (otherwise the pose is every movable
  /// joint in URDF declaration order and there are no chains, groups or contacts).
  [[nodiscard]] bool has_semantics() const noexcept;
  [[nodiscard]] const Semantics& semantics() const noexcept;
  [[nodiscard]] const std::string& root_link() const noexcept;
  /// The limits file given at load, nullptr when none.
  [[nodiscard]] const JointLimitsFile* limits() const noexcept;
  /// Warnings and notes of the model rules found while building the model, each with file
  /// and line: what was skipped or reinterpreted (the semantics reader's own warnings are
  /// in semantics().warnings). Those whose code is_mistake() names are what `check` counts
  /// as errors. Errors are never here: they stop loading. For a xacro, at the xacro's lines,
  /// followed by what its own xacro.message(), warning() and error() said (codes xacro-*,
  /// an error() as a warning: XacroResult::messages()).
  [[nodiscard]] const Diagnostics& load_diagnostics() const noexcept;
  /// The tightest (smallest non-zero) limit of a kind among the named pose joints (every
  /// pose joint when `joints` is empty): a default bound for filters (`v`, `amax`). nullopt
  /// when none of them has one. Velocity limits come from the URDF or the limits file,
  /// acceleration and jerk limits from the limits file only. @throws NotFound
  [[nodiscard]] std::optional<double> tightest_limit(LimitKind kind,
                                                     std::span<const std::string> joints = {}) const;

  // ---- URDF links and joints (declaration order) ----
  [[nodiscard]] const std::vector<LinkInfo>& links() const noexcept;
  [[nodiscard]] const std::vector<JointInfo>& urdf_joints() const noexcept;
  [[nodiscard]] const LinkInfo* find_link(std::string_view name) const noexcept;
  [[nodiscard]] const JointInfo* find_urdf_joint(std::string_view name) const noexcept;
  /// Total mass of the links with inertials (kg), and whether any link has one.
  [[nodiscard]] std::optional<double> total_mass() const noexcept;

  // ---- the full sorted pose ----
  /// Joint names in full-pose order.
  [[nodiscard]] const std::vector<std::string>& joint_names() const noexcept;
  [[nodiscard]] std::size_t pose_size() const noexcept { return joint_names().size(); }
  /// The URDF joint at a pose index (0 ≤ index < pose_size()).
  [[nodiscard]] const JointInfo& pose_joint(std::size_t index) const;
  [[nodiscard]] std::optional<std::size_t> find_joint_index(std::string_view joint) const noexcept;
  /// @throws NotFound; for a joint of the URDF outside the pose (fixed, floating, planar, or
  /// in no chain or group) the message says which, as outside_pose_reason does.
  [[nodiscard]] std::size_t joint_index(std::string_view joint) const;
  /// Why a joint of the URDF is not in the full pose ("is floating: ..."), to complete "joint
  /// 'x' ..."; nullopt when it is in the pose or the URDF has no such joint.
  [[nodiscard]] std::optional<std::string> outside_pose_reason(std::string_view joint) const;

  // ---- mimic joints (URDF <mimic>) ----
  /// The mimic joints of the full pose that follow another joint of the pose, each listed
  /// after the joint it follows (so chained mimics resolve in one pass). A mimic joint whose
  /// masters are all outside the pose is not listed: nothing in the pose moves it.
  [[nodiscard]] std::span<const PoseMimic> pose_mimics() const noexcept;
  /// Completes a sorted full pose after an input (a message, a command line) wrote the pose
  /// slots `given_slots` into it, as robot_state_publisher completes a joint state: a mimic
  /// joint of pose_mimics() that the input did not give follows its master when the input
  /// gave the master (or, for chained mimics, the nearest joint up the chain that it gave):
  /// position = multiplier · master + offset, and velocity = multiplier · master's velocity
  /// when `full.velocity` is pose-sized. A mimic joint the input gave keeps its value, and
  /// one whose masters the input did not give is left as it was. Negative slots are ignored
  /// (SlotMapper's unknown names). Allocates nothing.
  /// @throws SizeMismatch when `full.position` is not pose-sized.
  void complete_mimic_joints(JointState& full, std::span<const int> given_slots) const;
  /// The same on positions alone (pose_size() values, rad or m).
  void complete_mimic_joints(std::span<double> position, std::span<const int> given_slots) const;
  /// Sets every mimic joint of pose_mimics() from its master, whatever was given, except
  /// those whose flag in `keep` is set (one flag per pose slot; empty: none kept): for a pose
  /// built from scratch (zeros, where a mimic with an offset is not 0) or one whose masters
  /// moved on their own (a prediction). Position and, when pose-sized, velocity.
  /// @throws SizeMismatch when `full.position` or a non-empty `keep` is not pose-sized.
  void complete_mimic_joints_except(JointState& full, std::span<const char> keep) const;

  // ---- chains ----
  [[nodiscard]] const std::vector<Chain>& chains() const noexcept;
  [[nodiscard]] std::vector<std::string> chain_names() const;
  [[nodiscard]] const Chain* find_chain(std::string_view name) const noexcept;
  /// @throws NotFound
  [[nodiscard]] const Chain& chain(std::string_view name) const;
  [[nodiscard]] std::optional<std::size_t> find_chain_index(std::string_view name) const noexcept;
  [[nodiscard]] std::size_t chain_index(std::string_view name) const;
  [[nodiscard]] std::vector<std::string> chain_joints(std::string_view chain,
                                                      bool with_virtual = true) const;
  [[nodiscard]] std::span<const int> chain_joint_indices(std::string_view chain,
                                                         bool with_virtual = true) const;
  /// A chain's text property; empty string when the optional property is not set, except
  /// last_link_virtual, which is last_link for a chain without virtual joints (as the
  /// original getChainProperty answers).
  [[nodiscard]] const std::string& chain_property(std::string_view chain,
                                                  ChainProperty property) const;
  [[nodiscard]] const std::string& chain_default_contact(std::string_view chain) const;
  /// A chain parameter beyond the four known ones (`.cpf` PropertyBag member), as written;
  /// nullptr when the chain has none of that name. @throws NotFound for an unknown chain.
  [[nodiscard]] const ChainExtra* chain_extra(std::string_view chain, std::string_view parameter) const;
  /// Group of a chain; nullopt when the chain is in no group. @throws NotFound
  [[nodiscard]] std::optional<std::string> chain_group(std::string_view chain) const;
  /// Distinct groups of the given chains, in the order the chains first meet them (chains
  /// without a group skipped), as the original getChainsGroups. @throws NotFound
  [[nodiscard]] std::vector<std::string> chains_groups(std::span<const std::string> chains) const;
  /// Chains owning a joint (a joint may be shared), in chain order. @throws NotFound
  [[nodiscard]] std::vector<std::string> joint_chains(std::string_view joint) const;
  /// Distinct owning chains of several joints, in chain order.
  [[nodiscard]] std::vector<std::string> joints_chains(std::span<const std::string> joints) const;

  // ---- groups ----
  [[nodiscard]] const std::vector<Group>& groups() const noexcept;
  [[nodiscard]] std::vector<std::string> group_names() const;
  [[nodiscard]] const Group* find_group(std::string_view name) const noexcept;
  [[nodiscard]] const Group& group(std::string_view name) const;
  [[nodiscard]] std::optional<std::size_t> find_group_index(std::string_view name) const noexcept;
  [[nodiscard]] std::size_t group_index(std::string_view name) const;
  /// A group's joints: its chains' joints in the group's chain order (root to tip, first
  /// occurrence), then its extra joints — Group::joint_indices. (The original answered in
  /// full-pose order; see docs/design.md.) @throws NotFound
  [[nodiscard]] std::vector<std::string> group_joints(std::string_view group) const;
  [[nodiscard]] std::vector<std::string> group_chains(std::string_view group) const;
  /// Chains of several groups: the groups in the given order, each group's chains in its
  /// order; a group given twice gives its chains twice (as the original getGroupsChains).
  /// @throws NotFound
  [[nodiscard]] std::vector<std::string> groups_chains(std::span<const std::string> groups) const;
  /// Group of a joint (through its chains or directly); nullopt when none. @throws NotFound
  [[nodiscard]] std::optional<std::string> joint_group(std::string_view joint) const;
  /// Every group that holds any of the joints (overlapping groups included), in group
  /// declaration order, as the original getJointsGroups. @throws NotFound
  [[nodiscard]] std::vector<std::string> joints_groups(std::span<const std::string> joints) const;

  // ---- contacts ----
  [[nodiscard]] const std::vector<Contact>& contacts() const noexcept;
  [[nodiscard]] std::vector<std::string> contact_names() const;
  [[nodiscard]] const Contact* find_contact(std::string_view name) const noexcept;
  /// Points of a contact in the link frame. @throws NotFound
  [[nodiscard]] std::span<const KDL::Vector> contact_points(std::string_view contact) const;
  /// Appends a contact's points to `buffer`; false (buffer untouched) if unknown.
  bool append_contact_points(std::string_view contact, std::vector<KDL::Vector>& buffer) const;

  // ---- KDL ----
  /// The model as a KDL::Tree. Built, with every chain's KDL::Chain, on the first call of
  /// kdl_tree() or kdl_chain() (thread-safe), which also opens liborocos-kdl if the program
  /// has not loaded it: loading a model does not.
  /// @throws IoError when liborocos-kdl cannot be opened (a broken installation).
  [[nodiscard]] const KDL::Tree& kdl_tree() const;
  /// The chain as KDL::Chain (fixed segments included), with or without virtual joints.
  /// @throws NotFound; IoError as kdl_tree()
  [[nodiscard]] const KDL::Chain& kdl_chain(std::string_view chain, bool with_virtual = true) const;

  // ---- moving data between a full sorted pose and a chain ----
  /// Copies a chain's slots of a sorted full pose into arrays (resized to the chain size;
  /// an absent field gives a size-0 array).
  /// @throws NotFound, SizeMismatch when `full` is not pose-sized.
  void extract_chain(std::string_view chain, const JointState& full, KDL::JntArray& position,
                     KDL::JntArray& velocity, KDL::JntArray& effort,
                     bool with_virtual = true) const;
  /// Copies a chain's joints out of any JointState — partial, unsorted, with other joints —
  /// by name, as the original extractChain does (the plugin design keeps this apart from
  /// map_chain, which needs a sorted full pose). Arrays are resized to the chain size; a
  /// field absent from `state` (empty) gives a size-0 array. A chain joint the state does not
  /// name reads 0. No allocation when the arrays already have the chain's size.
  /// @returns true when the state names every joint of the chain.
  /// @throws NotFound for an unknown chain, SizeMismatch when a non-empty field of `state`
  ///         is not the size of its names.
  bool extract_chain_by_name(std::string_view chain, const JointState& state, KDL::JntArray& position,
                             KDL::JntArray& velocity, KDL::JntArray& effort, bool with_virtual = true) const;
  /// Writes chain arrays into their slots of a sorted full pose. Empty arrays leave that
  /// field alone; a field of `full` that is empty is first sized to the pose (zeros).
  /// `full.name` is set to the pose order when empty.
  /// @throws NotFound, SizeMismatch.
  void pack_chain(std::string_view chain, const KDL::JntArray& position,
                  const KDL::JntArray& velocity, const KDL::JntArray& effort, JointState& full,
                  bool with_virtual = true) const;
  /// Views of a chain's slots inside a sorted full pose, without copying.
  /// @throws NotFound, SizeMismatch, InvalidArgument when the chain is not contiguous().
  [[nodiscard]] ChainView map_chain(std::string_view chain, JointState& full,
                                    bool with_virtual = true) const;
  /// A sorted full pose: names in pose order and `position` zero-filled (velocity and
  /// effort too when asked).
  [[nodiscard]] JointState make_full_state(bool with_velocity = false, bool with_effort = false) const;

  Model(const Model&);
  Model(Model&&) noexcept;
  Model& operator=(const Model&);
  Model& operator=(Model&&) noexcept;
  ~Model();

  /// Implementation detail (shared with rmodel's own checker); not part of the API.
  struct Impl;

private:
  explicit Model(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

/// Where the sample robot shipped with rmodel lives (share/rmodel/sample): next to the
/// installed binary's prefix or in the source tree. Empty when not found.
RMODEL_API std::string sample_model_dir();

}  // namespace rmodel
