#pragma once
#include "rmodel/export.hpp"
/// @file pose.hpp
/// Poses as users name them: the named poses of the semantics (SRDF group states) and
/// `joint=value` assignments from a command line, turned into full sorted joint states.
/// Values are positions in rad (revolute, continuous) or m (prismatic).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rmodel/base/diagnostic.hpp"
#include "rmodel/base/joint_state.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/model/semantics.hpp"

namespace rmodel {

/// One `joint=value` item of a command-line pose.
struct RMODEL_API JointAssignment {
  std::string joint;
  double value = 0.0;  ///< rad or m
  bool operator==(const JointAssignment&) const = default;
};

/// Parses `joint=value` items separated by blanks or commas, e.g.
/// "neck_pitch=0.3 head_yaw=-0.1". An empty or blank text gives no items.
/// @throws InvalidArgument naming the item: no '=', empty joint name, a value that is not
/// a finite number, or a joint given twice.
RMODEL_API std::vector<JointAssignment> parse_pose_assignments(std::string_view text);

/// The same over several arguments (each may hold several items), as argv gives them.
/// A joint given twice across arguments is an error too.
RMODEL_API std::vector<JointAssignment> parse_pose_assignments(std::span<const std::string> args);

/// The named pose called `name`, or `group/name` when poses of several groups share a name
/// (MoveIt names group states per group).
/// @throws NotFound("pose", name) when there is none, InvalidArgument when `name` matches
/// poses of several groups (the message lists the `group/name` forms).
RMODEL_API const NamedPose& find_named_pose(const Semantics& semantics, std::string_view name);

/// Writes assignments into a sorted full pose. An empty `state.position` is first sized to
/// the pose (zeros) and an empty `state.name` set to the pose order. Mimic joints the
/// assignments do not give follow the masters they give (Model::complete_mimic_joints).
/// @throws NotFound("joint", j) for a joint outside the full pose; SizeMismatch when
/// `state.position` is neither empty nor pose-sized.
RMODEL_API void apply_pose_assignments(const Model& model, std::span<const JointAssignment> assignments,
                            JointState& state);

/// A named pose as a sorted full pose: `name` in pose order, `position` pose-sized (rad or
/// m); joints the pose does not name are 0, and mimic joints it does not name follow their
/// masters. As srdfdom, a value for a joint the URDF lacks is dropped (check_named_poses
/// reports it), and so is one for a mimic joint outside the pose.
/// @throws NotFound (no such pose), InvalidArgument (ambiguous name), ModelError naming the
/// semantics file and the pose's line when the pose gives a joint outside the full pose.
RMODEL_API JointState named_pose(const Model& model, std::string_view name);

/// The same, with the joints the pose does not name taken from `base` (a sorted full pose:
/// `base.position` pose-sized; velocity, effort and stamp are copied as they are).
/// @throws as above, and SizeMismatch when `base.position` is not pose-sized.
RMODEL_API JointState named_pose(const Model& model, std::string_view name, const JointState& base);

/// A pose as a command line gives it: a named pose, `joint=value` items, or a named pose
/// followed by items that override it ("stand neck_pitch=0.2"). Joints not given are taken
/// from `base` when given (a sorted full pose), else 0.
/// @throws as named_pose and parse_pose_assignments; NotFound for an unknown joint.
RMODEL_API JointState resolve_pose(const Model& model, std::string_view spec, const JointState* base = nullptr);

/// Problems with the model's named poses, each naming the semantics file and the pose's
/// line: a joint the URDF does not have (warning `pose-unknown-joint`: the value is
/// dropped; `check` counts it as an error), a joint outside the full pose (error
/// `pose-joint-outside-pose`; a mimic joint following the pose is not one), a position
/// outside the joint's limits (warning `pose-out-of-limits`).
RMODEL_API Diagnostics check_named_poses(const Model& model);

}  // namespace rmodel
