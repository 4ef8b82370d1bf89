#pragma once
#include "rmodel/export.hpp"
/// @file check.hpp
/// Validation of a URDF and its semantics that reports every problem, not only the first.

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "rmodel/diagnostic.hpp"
#include "rmodel/model.hpp"

namespace rmodel {

/// True for the codes of problems that loading reports as warnings and skips, as srdfdom and
/// MoveIt load such files, but that are mistakes, which `check_model` counts as errors: a
/// name that does not exist (`unknown-link`, `unknown-joint`, `unknown-chain`,
/// `srdf-unknown-group`, `pose-unknown-joint`), a chain to nowhere (`unreachable-link`,
/// `last-link-not-between`), a copied group (`group-copy`), a mimic that cannot be followed
/// (`mimic-unknown-joint`, `mimic-fixed-joint`, `mimic-cycle`): the model codes the catalogue
/// marks CheckCode::mistake (rmodel/check_codes.hpp).
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

/// Mesh references of a URDF (`<mesh filename>` in visuals and collisions) that name no
/// file: `package://pkg/...` is looked up in `search` (rmodel/package_path.hpp), `file://`
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
