#pragma once
#include "rmodel/export.hpp"
/// @file collision.hpp
/// Self-collision of a robot: the collision geometry of its links (URDF `<collision>`:
/// boxes, spheres, cylinders and capsules exactly, meshes as triangles read by assimp), checked
/// pair by pair in FCL on an immutable CollisionModel and a per-thread CollisionWorkspace (a
/// pose's checks allocate nothing); the allowed-collision matrix as MoveIt's Setup Assistant
/// computes it (Adjacent, Default, Always, Never); the matrix of an SRDF
/// (`<disable_collisions>`), read, compared and rewritten; and the volume and inertia of the
/// geometry. FCL and assimp live in rmodel's collision plugin, opened on first use
/// (docs/design.md, "Self-collision").
///
/// Frames and units: lengths in m, each shape placed in its link's frame by its URDF
/// `<origin>`, every link placed by forward kinematics in the frame of the URDF's root link.

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "rmodel/base/diagnostic.hpp"
#include "rmodel/kinematics/kinematic_model.hpp"
#include "rmodel/kinematics/workspace.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel::collision {

// ---- geometry ----

enum class ShapeType : std::uint8_t { box, sphere, cylinder, capsule, mesh };

/// "box", "sphere", "cylinder", "capsule", "mesh".
RMODEL_API std::string_view to_string(ShapeType type);

/// A triangle mesh in its shape's frame (m, the URDF's scale applied).
struct RMODEL_API TriangleMesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;
};

/// One `<collision>` element of a link.
struct RMODEL_API Shape {
  ShapeType type = ShapeType::box;
  std::string link;
  /// Link frame → shape frame (the `<collision><origin>`).
  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();
  /// box: the edges x, y, z; sphere: the radius; cylinder and capsule: radius, length (along z).
  Eigen::Vector3d size = Eigen::Vector3d::Zero();
  std::string filename;                        ///< mesh: as written in the URDF
  std::filesystem::path path;                  ///< mesh: the file it names; empty when not found
  Eigen::Vector3d scale = Eigen::Vector3d::Ones();  ///< mesh: the URDF's scale
  std::shared_ptr<const TriangleMesh> mesh;    ///< mesh: the triangles; null when not loaded
  std::string error;                           ///< mesh: why it was not loaded (empty when it was)
  int line = 0;                                ///< line of the `<collision>` element in the URDF
  /// Whether the shape takes part in collision checks: a primitive, or a mesh that loaded.
  [[nodiscard]] bool usable() const noexcept { return type != ShapeType::mesh || mesh != nullptr; }
};

/// Where mesh files are looked up, and whether they are read.
struct RMODEL_API GeometryOptions {
  /// Directory of the URDF: relative and `file://` mesh paths start there.
  std::filesystem::path base_dir = ".";
  /// Directories searched for `package://` (rmodel/base/package_path.hpp, package_search_path()).
  std::vector<std::filesystem::path> package_search = {};
  /// Read the meshes (through the collision plugin); otherwise Shape::mesh stays null.
  bool load_meshes = true;
};

/// The options of a model's source: its URDF's directory, its package paths, then
/// ROS_PACKAGE_PATH and AMENT_PREFIX_PATH (as `check --meshes` looks meshes up).
RMODEL_API GeometryOptions geometry_options(const ModelSource& source);

/// The `<collision>` shapes of every link of a URDF, in document order (links without any are
/// absent). Meshes are looked up and read as `options` says: a mesh that is not found or not
/// read keeps its `error`. Elements `check` reports as malformed are skipped.
/// @throws ParseError when the text is not XML.
RMODEL_API std::vector<Shape> read_collision_shapes(const std::string& urdf_text, const GeometryOptions& options);

/// The `<visual>` shapes, read as read_collision_shapes reads the `<collision>` ones.
RMODEL_API std::vector<Shape> read_visual_shapes(const std::string& urdf_text, const GeometryOptions& options);

/// Reads a mesh file (STL, COLLADA, OBJ and every format assimp reads) as MoveIt reads it:
/// triangulated, the scene's node transforms applied except the root's (which MoveIt and
/// RViz drop: assimp's Y-up turn and COLLADA's unit), each vertex multiplied by `scale`.
/// @throws IoError when the file cannot be read or assimp cannot read it (its message).
RMODEL_API TriangleMesh load_mesh(const std::filesystem::path& file,
                                  const Eigen::Vector3d& scale = Eigen::Vector3d::Ones());

/// Volume, centroid and inertia of a solid of density 1 kg/m³ filling a shape.
struct RMODEL_API VolumeProperties {
  double volume = 0.0;                                     ///< m³
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();      ///< m, in the link frame
  /// kg·m² per kg/m³ of density, about the centroid, link axes.
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

/// The shape's properties in its link frame. A mesh's volume is that its triangles enclose
/// (divergence theorem): exact for a closed, consistently wound mesh. nullopt for a mesh
/// that did not load.
RMODEL_API std::optional<VolumeProperties> volume_properties(const Shape& shape);

/// The union of several shapes' properties (overlaps counted twice), in the link frame.
RMODEL_API VolumeProperties combine(std::span<const VolumeProperties> parts);

/// The bounding box of a shape in its own frame: half extents about `centre`.
struct RMODEL_API LocalBox {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  Eigen::Vector3d half = Eigen::Vector3d::Zero();
};
/// nullopt for a mesh that did not load.
RMODEL_API std::optional<LocalBox> local_box(const Shape& shape);

/// What `check --meshes` says of the meshes' contents, beyond whether their files exist
/// (check_mesh_files): every `<mesh>` of the URDF's visuals and collisions that names a file
/// is read, and
/// - a file assimp cannot read, or that holds no triangles, is an error `mesh-unreadable` with
///   assimp's message;
/// - a mesh far too large for its link is a warning `mesh-scale`: more than 50 times as large
///   across as the link's joints are apart (the largest offset of its parent and child joints,
///   at least a tenth of the robot's largest joint offset), as a mesh in millimetres read as
///   metres is (1000 times);
/// each at the line of the `<mesh>`'s `<visual>` or `<collision>` in `urdf_name`. Nothing is
/// said of a file that is missing. A URDF that is not XML gives nothing (check_model reports it).
RMODEL_API Diagnostics check_mesh_contents(const Model& model, const std::string& urdf_name,
                                           const GeometryOptions& options);

/// A link's collision geometry as a uniform body of its declared mass, beside its declared
/// inertia (`info --mass-properties`).
struct RMODEL_API LinkMassProperties {
  std::string link;
  std::optional<double> mass;           ///< kg, declared (`<inertial>`); nullopt without one
  double volume = 0.0;                  ///< m³ of its collision shapes (overlaps counted twice)
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();  ///< m, link frame
  /// kg·m², about the centroid, link axes: the geometry filled uniformly with the declared mass
  /// (zero without a mass or a volume).
  Eigen::Matrix3d shape_inertia = Eigen::Matrix3d::Zero();
  Eigen::Matrix3d declared_inertia = Eigen::Matrix3d::Zero();  ///< about the COM, link axes
  /// trace(declared) / trace(shape); nullopt when either is zero.
  std::optional<double> ratio;
  /// The ratio is 10 or more, or 0.1 or less: the declared inertia is an order of magnitude
  /// (or more) away from what a body of that shape and mass has.
  bool implausible = false;
  bool meshes_missing = false;  ///< some of its meshes did not load: the volume is a part
};

/// Per link with collision geometry or an inertial, in URDF order.
RMODEL_API std::vector<LinkMassProperties> mass_properties(const Model& model, std::span<const Shape> shapes);

// ---- the collision model ----

/// Two links of a CollisionModel, by index into links(), first < second.
struct RMODEL_API LinkPair {
  std::uint32_t first = 0;
  std::uint32_t second = 0;
  friend bool operator==(const LinkPair&, const LinkPair&) = default;
};

/// Pairs of links that are not checked: an allowed-collision matrix over a model's links.
class RMODEL_API AllowedPairs {
public:
  AllowedPairs() = default;
  explicit AllowedPairs(std::size_t links) : links_(links), allowed_(links * links, 0) {}
  [[nodiscard]] std::size_t links() const noexcept { return links_; }
  void allow(std::size_t a, std::size_t b) noexcept { allowed_[a * links_ + b] = allowed_[b * links_ + a] = 1; }
  void forbid(std::size_t a, std::size_t b) noexcept { allowed_[a * links_ + b] = allowed_[b * links_ + a] = 0; }
  [[nodiscard]] bool allowed(std::size_t a, std::size_t b) const noexcept { return allowed_[a * links_ + b] != 0; }

private:
  std::size_t links_ = 0;
  std::vector<std::uint8_t> allowed_;
};

/// Immutable collision model of a robot: the usable shapes of its links in FCL, and the whole
/// kinematic tree with every movable joint of the URDF in its pose, in URDF declaration order,
/// as MoveIt's robot state holds them (a semantics' full pose may leave some out). Mimic
/// joints follow their masters. Copies share the data; safe to share between threads.
class RMODEL_API CollisionModel {
public:
  /// Reads the collision shapes of `model`'s URDF (read_collision_shapes) and builds them.
  /// Meshes that cannot be read are left out of the checks (as MoveIt leaves them out);
  /// unusable_shapes() lists them. A link with no usable shape has no geometry.
  /// @throws IoError when the collision plugin cannot be opened, ParseError for bad XML.
  static CollisionModel build(const Model& model, const GeometryOptions& options);

  /// Links with geometry (at least one usable shape), in URDF declaration order.
  [[nodiscard]] const std::vector<std::string>& links() const noexcept;
  [[nodiscard]] std::optional<std::size_t> find_link(std::string_view name) const noexcept;
  /// Every shape read, usable or not, in document order.
  [[nodiscard]] std::span<const Shape> shapes() const noexcept;
  /// Shapes whose mesh was not found or not read.
  [[nodiscard]] std::vector<const Shape*> unusable_shapes() const;
  /// The kinematic tree (pose: joint_names()).
  [[nodiscard]] const kinematics::KinematicModel& kinematics() const noexcept;
  /// Every movable joint of the URDF, in declaration order: the pose of set_pose().
  [[nodiscard]] const std::vector<std::string>& joint_names() const noexcept;
  /// MoveIt's default pose: 0, or the middle of the limits when 0 is outside them.
  [[nodiscard]] std::span<const double> default_pose() const noexcept;
  /// Bounds of the random poses, per joint: the limits, [-π, π] for continuous joints.
  [[nodiscard]] std::span<const double> lower() const noexcept;
  [[nodiscard]] std::span<const double> upper() const noexcept;
  /// Pairs of links that a joint joins, directly or through links without geometry
  /// (MoveIt's "Adjacent"), sorted.
  [[nodiscard]] const std::vector<LinkPair>& adjacent_pairs() const noexcept;
  /// The model the geometry belongs to.
  [[nodiscard]] const Model& model() const noexcept;

  struct Impl;
  [[nodiscard]] const Impl& impl() const noexcept { return *impl_; }

private:
  explicit CollisionModel(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

/// One colliding (or, with a margin, too close) pair of links at a pose.
struct RMODEL_API PairContact {
  LinkPair pair;
  /// m: the penetration depth (> 0 or 0 for touching) when the links intersect, else minus
  /// their distance (within the margin). With CheckOptions::depth false, 0 for intersecting links.
  double depth = 0.0;
  [[nodiscard]] bool intersecting() const noexcept { return depth >= 0.0; }
};

struct RMODEL_API CheckOptions {
  /// Also report links closer than this (m), with minus their distance as depth. 0: only
  /// intersecting links.
  double margin = 0.0;
  /// Compute penetration depths (otherwise intersection alone, which is faster).
  bool depth = true;
};

/// Per-thread state of a CollisionModel: link frames, shape poses, bounding boxes, FCL's
/// scratch space and the contacts of the last check. Sized once.
class RMODEL_API CollisionWorkspace {
public:
  /// @throws IoError when the collision plugin cannot be opened.
  explicit CollisionWorkspace(const CollisionModel& model);
  ~CollisionWorkspace();
  CollisionWorkspace(CollisionWorkspace&&) noexcept;
  CollisionWorkspace& operator=(CollisionWorkspace&&) noexcept;
  CollisionWorkspace(const CollisionWorkspace&) = delete;
  CollisionWorkspace& operator=(const CollisionWorkspace&) = delete;

  /// Pairs found by the last check_self_collisions, sorted by pair.
  [[nodiscard]] std::span<const PairContact> contacts() const noexcept { return {contacts_.data(), count_}; }
  /// The link frames of the last set_pose.
  [[nodiscard]] const kinematics::Workspace& kinematics() const noexcept { return kin_; }

  struct State;

private:
  friend struct WorkspaceAccess;
  const CollisionModel::Impl* model_ = nullptr;
  kinematics::Workspace kin_;
  std::unique_ptr<State> state_;
  std::vector<PairContact> contacts_;
  std::size_t count_ = 0;
};

/// Places every link at pose `q` (CollisionModel::joint_names(), rad or m). Allocates nothing.
/// @throws SizeMismatch when q has not one value per joint.
RMODEL_API void set_pose(const CollisionModel& model, CollisionWorkspace& ws, std::span<const double> q);

/// Checks every pair of links at the last pose, except the pairs `allowed` holds (sized by
/// the model's links; empty: none), broad phase first (bounding boxes of the links, then of
/// their shapes). The pairs found are in ws.contacts(); returns how many. Allocates nothing.
RMODEL_API std::size_t check_self_collisions(const CollisionModel& model, CollisionWorkspace& ws,
                                             const AllowedPairs& allowed, const CheckOptions& options = {});

/// Signed distance between two links at the last pose (m): the smallest distance between
/// their shapes, or minus the largest penetration depth when they intersect. Allocates nothing.
RMODEL_API double link_distance(const CollisionModel& model, CollisionWorkspace& ws, std::size_t a, std::size_t b);

/// For each of `names`, its index in model.joint_names(); −1 for a name that is none of them.
RMODEL_API std::vector<int> joint_slots(const CollisionModel& model, std::span<const std::string> names);

/// What to check of a robot at each pose: its collision model, the pairs not checked (an SRDF's
/// matrix) and the options (margin). Shared read-only by the checkers of logs and poses.
struct RMODEL_API SelfCollisionCheck {
  CollisionModel model;
  AllowedPairs allowed;
  CheckOptions options;
};

// ---- the allowed-collision matrix ----

/// Why a pair of links is not checked, as MoveIt's Setup Assistant writes it.
enum class Reason : std::uint8_t {
  adjacent,      ///< "Adjacent": a joint joins them (through links without geometry)
  default_pose,  ///< "Default": they collide at the default pose
  always,        ///< "Always": they collide in nearly every random pose
  never,         ///< "Never": they collide in no random pose
  user,          ///< "User", or any other word an SRDF gives
};

/// "Adjacent", "Default", "Always", "Never", "User".
RMODEL_API std::string_view to_string(Reason reason);
/// The reason an SRDF's word names (Reason::user for any other word).
RMODEL_API Reason parse_reason(std::string_view word);

/// One `<disable_collisions>` entry: the semantics' own (rmodel/model/semantics.hpp), which keeps an
/// SRDF's matrix as written. In a computed matrix link1 < link2 (byte order) and line is 0.
using DisabledPair = rmodel::CollisionPair;

struct RMODEL_API MatrixOptions {
  /// Random poses sampled for "Never" (the Setup Assistant's default sampling density).
  std::size_t samples = 10000;
  /// Seed of the random poses; the result depends only on it and on `samples`, not on the
  /// number of threads.
  std::uint64_t seed = 0;
  /// Threads sampling; 0: one per core.
  unsigned threads = 0;
  /// A pair colliding in more than this fraction of a round of 200 random poses is "Always"
  /// (the Setup Assistant's 95 %).
  double always_fraction = 0.95;
  /// Compute "Never" (sampling); otherwise only Adjacent, Default and Always.
  bool include_never = true;
};

/// The matrix of a model, and what the sampling saw.
struct RMODEL_API ComputedMatrix {
  /// The disabled pairs, sorted by (link1, link2) with link1 < link2.
  std::vector<DisabledPair> disabled;
  std::size_t links = 0;         ///< links with geometry
  std::size_t pairs = 0;         ///< links·(links−1)/2
  std::size_t samples = 0;       ///< random poses checked for Never
  std::size_t always_rounds = 0; ///< rounds of 200 poses for Always
  /// For every pair (index first·links + second, first < second): the first random pose of the
  /// Never sampling (0-based) in which it collided; -1 when it never did (or was not checked,
  /// being disabled before the sampling).
  std::vector<std::int64_t> first_collision;
  [[nodiscard]] std::size_t count(Reason reason) const;
};

/// Computes the matrix as MoveIt's Setup Assistant does (compute_default_collisions.cpp):
/// Adjacent pairs; pairs colliding at the default pose (Default); rounds of 200 random poses,
/// each making the pairs colliding in more than 95 % of them Always, until a round finds none;
/// then `samples` random poses: a pair not yet disabled that collides in none is Never. Random
/// poses are uniform within each joint's bounds (CollisionModel::lower/upper), as MoveIt's
/// setToRandomPositions. Unlike MoveIt, every pair is checked in every pose (MoveIt's
/// collision request stops at a number of contacts, so that pairs can go unseen in crowded
/// poses and be called Never).
/// @throws InvalidArgument when always_fraction is not in (0, 1].
RMODEL_API ComputedMatrix compute_collision_matrix(const CollisionModel& model, const MatrixOptions& options = {});

/// The pose of random sample `index` of the Never sampling with `seed` (joint_names() order),
/// to look at a pair's collision again (fk --collisions).
RMODEL_API std::vector<double> sample_pose(const CollisionModel& model, std::uint64_t seed, std::uint64_t index);

/// The pairs a check of `model` leaves out, as MoveIt's allowed-collision matrix: those the
/// semantics' collision matrix disables, every pair of its disabled_default links, except its
/// enabled pairs; without a matrix (no SRDF, or none in it), the adjacent pairs (links a joint
/// joins touch where it joins them).
RMODEL_API AllowedPairs pairs_left_out(const CollisionModel& model);

/// The allowed pairs of `entries` over the model's links; entries naming links without geometry
/// (or no link) are ignored.
RMODEL_API AllowedPairs allowed_pairs(const CollisionModel& model, std::span<const DisabledPair> entries);

/// `<disable_collisions link1="A" link2="B" reason="R"/>` lines, each indented by `indent`.
RMODEL_API std::string disable_collisions_xml(std::span<const DisabledPair> entries, std::string_view indent = "    ");

/// The SRDF text with its matrix replaced by `entries`: the `<disable_collisions>` elements
/// (and the comments and white space between them) are replaced where the first of them
/// stood, every other byte is kept; without any, the entries go before `</robot>`, indented
/// as the document's first child element.
/// @throws ParseError when the text has no `</robot>` end tag.
RMODEL_API std::string replace_disabled_collisions(const std::string& srdf_text,
                                                   std::span<const DisabledPair> entries);

/// check --collisions: the matrix of the model `source` names computed afresh and compared
/// with its semantics' (compare_collision_matrix); a note `collision-matrix-none` when the
/// semantics have no collision matrix. Meshes that cannot be read are left out, with a warning
/// `collision-mesh-left-out`.
/// @throws IoError, ParseError as Model::load.
RMODEL_API Diagnostics check_collision_matrix(const ModelSource& source, const MatrixOptions& options = {});

/// What `check` says of an SRDF's matrix against a computed one (codes collision-*):
/// - `collision-matrix-stale`: an entry that hides collisions: a pair disabled as Never that
///   collided in a random pose, or disabled as Adjacent, Default or Always while it collides
///   in a random pose and is no longer adjacent, colliding at the default pose, or always
///   colliding (entries of other reasons, a user's, are not judged);
/// - `collision-matrix-missing`: a pair the computed matrix disables that the SRDF does not.
/// Entries naming links without geometry are skipped (loading reports those the URDF lacks,
/// `collision-unknown-link`). All warnings, at the entry's line of `srdf_name` (line 0 for missing pairs), the reasons
/// in the message. A stale entry's message names the pose it collided in as "random pose I of N
/// (sample_pose with seed S and index I gives it)".
RMODEL_API Diagnostics compare_collision_matrix(const CollisionModel& model, const ComputedMatrix& computed,
                                                std::span<const DisabledPair> declared, const std::string& srdf_name,
                                                const MatrixOptions& options);

}  // namespace rmodel::collision
