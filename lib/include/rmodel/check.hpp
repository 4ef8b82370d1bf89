#pragma once
#include "rmodel/export.hpp"
/// @file check.hpp
/// Validation of a URDF and its semantics that reports every problem, not only the first.

#include "rmodel/diagnostic.hpp"
#include "rmodel/model.hpp"

namespace rmodel {

/// Checks the model named by `source`: URDF structure (XML, duplicates, dangling links,
/// several parents, loops, roots, missing limits, zero axes, what urdfdom rejects), then
/// every rule of the semantic description against it, plus warnings (movable joints
/// outside the full pose, joint types treated as fixed, inverted limits, ignored input),
/// and physical plausibility: inertials (mass, positive definite inertia, triangle
/// inequalities) and joints that cannot hold their own weight (docs/design.md, "Dynamics").
/// @throws IoError only when a file cannot be read; problems in the content are returned.
RMODEL_API Diagnostics check_model(const ModelSource& source);

/// The same on texts already in memory; `limits`, when given, is a parsed joint_limits.yaml
/// checked against the URDF (its warnings are reported too).
RMODEL_API Diagnostics check_model_text(const std::string& urdf_text, const std::string& urdf_name,
                             const std::string* semantics_text, const std::string& semantics_name,
                             std::optional<SemanticsFormat> semantics_format = std::nullopt,
                             const JointLimitsFile* limits = nullptr);

}  // namespace rmodel
