#pragma once
#include "rmodel/export.hpp"
/// @file check.hpp
/// Validation of a URDF and its semantics that reports every problem, not only the first.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rmodel/base/diagnostic.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel {

/// True for the codes of problems that loading reports as warnings and skips, as srdfdom and
/// MoveIt load such files, but that are mistakes, which `check_model` counts as errors: a
/// name that does not exist (`unknown-link`, `unknown-joint`, `unknown-chain`,
/// `srdf-unknown-group`, `pose-unknown-joint`), a chain to nowhere (`unreachable-link`,
/// `last-link-not-between`), a copied group (`group-copy`), a mimic that cannot be followed
/// (`mimic-unknown-joint`, `mimic-fixed-joint`, `mimic-cycle`): the model codes the catalogue
/// marks CheckCode::mistake (rmodel/base/check_codes.hpp).
RMODEL_API bool is_mistake(std::string_view code);

/// True for the codes of physical plausibility (`inertial-mass`, `inertia-not-positive`,
/// `inertia-triangle`): errors of check_model that loading does not report, because every
/// other use of the model takes the inertias as written.
RMODEL_API bool is_plausibility_error(std::string_view code);

/// The codes of plausibility errors (is_plausibility_error), in that order.
RMODEL_API std::span<const std::string_view> plausibility_error_codes();

/// Checks the model named by `source`: URDF structure (XML, duplicates, dangling links,
/// several parents, loops, roots, missing limits, zero axes, what urdfdom rejects), then
/// every rule of the semantic description against it, plus warnings (movable joints
/// outside the full pose, joint types treated as fixed, inverted limits, ignored input),
/// and physical plausibility: inertials (mass, positive definite inertia, triangle
/// inequalities) and joints that cannot hold their own weight (docs/design.md, "Dynamics").
/// The mistakes loading skips (is_mistake) are errors here.
/// @throws IoError only when a file cannot be read; problems in the content are returned.
RMODEL_API Diagnostics check_model(const ModelSource& source);

/// The same on texts already in memory; `limits`, when given, is a parsed joint_limits.yaml
/// checked against the URDF (its warnings are reported too).
RMODEL_API Diagnostics check_model_text(const std::string& urdf_text, const std::string& urdf_name,
                             const std::string* semantics_text, const std::string& semantics_name,
                             std::optional<SemanticsFormat> semantics_format = std::nullopt,
                             const JointLimitsFile* limits = nullptr);

/// A program that reads URDFs with rules of its own, which `check_model` applies on request
/// (CheckOptions::targets): what the program refuses is an error, what it reads otherwise
/// than ROS a warning, what it leaves out a note. Each rule is the one of the version Debian 12
/// ships, and is tested against that library (tests/oracle).
enum class CheckTarget {
  mujoco,  ///< MuJoCo's compiler reading a URDF (mj_loadXML), MuJoCo 2.2: codes mujoco-*
  kdl,     ///< kdl_parser's KDL::Tree (robot_state_publisher, KDL solvers), 1.14: codes kdl-*
  gazebo,  ///< sdformat's conversion of a URDF to SDF (Gazebo), sdformat 12: codes gazebo-*
};

/// "mujoco", "kdl", "gazebo": the names `rmodel check --target` takes.
RMODEL_API std::string_view to_string(CheckTarget target);

/// "MuJoCo", "KDL", "Gazebo": the program's name in a sentence.
RMODEL_API std::string_view display_name(CheckTarget target);

/// The target of a name to_string gives, nullopt for any other.
RMODEL_API std::optional<CheckTarget> parse_check_target(std::string_view name);

/// Every target, in the order above.
RMODEL_API std::span<const CheckTarget> check_targets();

/// The target whose rule a code is (its name starts with "mujoco-", "kdl-" or "gazebo-"),
/// nullopt for every other code.
RMODEL_API std::optional<CheckTarget> code_target(std::string_view code);

/// What check_model checks besides the rules every model is held to.
struct RMODEL_API CheckOptions {
  /// Programs whose own rules apply too (check_target), each once, reported in this order.
  std::vector<CheckTarget> targets = {};
};

/// Whether a target reads the URDF, as the problems of a report say.
struct RMODEL_API TargetVerdict {
  CheckTarget target = CheckTarget::mujoco;
  /// False when the URDF has errors of its own (what ROS's reader refuses): no target reads
  /// it, and the target's rules, which need the robot's tree, were not applied.
  bool applied = false;
  /// The target reads the URDF: its rules were applied, none of them is an error and none
  /// could not look (`unchecked`).
  bool loads = false;
  std::size_t errors = 0;    ///< of the target's codes
  std::size_t warnings = 0;  ///< of the target's codes
  /// Of the target's warnings, those that say a rule could not look at what it needs
  /// (mujoco-mesh-unchecked: a URDF without a directory, whose meshes cannot be looked for).
  /// With no error, whether the target loads the URDF is then not known, and `loads` is false.
  std::size_t unchecked = 0;
};

/// The verdict of `target` from the problems of a report whose target rules were `applied`
/// (TargetVerdict::applied): counts of the target's codes in `problems`, as they stand (after
/// the caller dropped any); a problem the caller dropped is not counted as unchecked either.
RMODEL_API TargetVerdict target_verdict(const Diagnostics& problems, CheckTarget target, bool applied);

/// A report of check_model with options: the problems, then one verdict per target asked for.
struct RMODEL_API CheckReport {
  Diagnostics problems;
  std::vector<TargetVerdict> targets;  ///< in the order of CheckOptions::targets
};

/// check_model, plus the rules of `options.targets` on the URDF (after the other problems,
/// target by target), when the URDF has no error of its own. Mesh files are looked up from
/// the URDF's directory, as each program would look them up.
/// @throws IoError only when a file cannot be read.
RMODEL_API CheckReport check_model(const ModelSource& source, const CheckOptions& options);

/// The rules of one target on a loaded model (its URDF text, Model::urdf_text()): the problems
/// that program has with it, named at the URDF's lines. `urdf_dir` is where mesh files are
/// looked up from (MuJoCo: a file name of the URDF's directory, or of its <compiler meshdir>);
/// empty, meshes are not looked up, and a warning mujoco-mesh-unchecked says so.
RMODEL_API Diagnostics check_target(const Model& model, CheckTarget target,
                                    const std::filesystem::path& urdf_dir = {});

/// Mesh references of a URDF (`<mesh filename>` in visuals and collisions) that name no
/// file: `package://pkg/...` is looked up in `search` (rmodel/base/package_path.hpp), `file://`
/// and plain paths relative to `base_dir` (the URDF's directory). Each is an error
/// `mesh-missing` naming `urdf_name` and the line of the <mesh> element; another scheme
/// (`http://`) is a warning `mesh-unchecked`. Nothing is reported for a URDF that is not
/// well-formed XML (check_model reports that).
RMODEL_API Diagnostics check_mesh_files(const std::string& urdf_text, const std::string& urdf_name,
                                        const std::filesystem::path& base_dir,
                                        std::span<const std::filesystem::path> search);

/// check_mesh_files on the URDF of `source`, searching `source.package_paths` then
/// ROS_PACKAGE_PATH. @throws IoError when the URDF cannot be read.
RMODEL_API Diagnostics check_mesh_files(const ModelSource& source);

}  // namespace rmodel
