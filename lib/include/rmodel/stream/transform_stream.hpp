#pragma once
#include "rmodel/export.hpp"
/// @file transform_stream.hpp
/// A robot's link frames beside a stream of joint states, as robot_state_publisher publishes
/// them, so that a viewer (Foxglove's 3D panel with its URDF layer) shows the robot move in
/// the file written (`--tf` of the commands that write MCAP):
///
/// - **Per joint state written:** one `/tf` message of every movable joint's transform,
///   parent link → child link (kinematics::joint_transform: the joint's origin composed with
///   its motion; rotation as a unit quaternion), each stamped with the joint state's stamp,
///   `header.frame_id` the parent link, `child_frame_id` the child link.
/// - **Once, before the first /tf:** the URDF on `/robot_description`, the model's semantics
///   when it has some (an SRDF as it was read, on `/robot_description_semantic`; else
///   rmodel's JSON semantics, to_semantics_json(), on `/rmodel/semantics`: see
///   io::SemanticsText) and every fixed joint's transform on `/tf_static`, at the first joint
///   state's stamp (so that a player's time line starts where the motion does).
/// - **The pose:** held, starting at 0 for every joint (mimic joints where their masters at
///   0 put them), as `rmodel fk --log` starts without --pose; each
///   joint state's positions update the joints it names (names the model lacks are ignored,
///   as robot_state_publisher ignores them); mimic joints follow their masters unless the
///   state names them (Model::complete_mimic_joints), as in `rmodel fk --log`.
/// - Joint states, support states and every other message pass on to the next sink unchanged,
///   each before its transforms.
/// - **Outside a time window** (Sink::joint_state_outside): the pose is updated, nothing is
///   written; the URDF and the fixed transforms go out with the first joint state written.
/// - No allocation per joint state once the first has been handled.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rmodel/io/writer.hpp"
#include "rmodel/kinematics/kinematic_model.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/stream/stream.hpp"

namespace rmodel::stream {

/// Writes each joint state to `next` and the robot's transforms to `writer` (usually the MCAP
/// writer `next` writes to; other formats skip them, see MessageWriter::write_transforms).
class RMODEL_API TransformSink final : public Sink {
public:
  /// `model`, `next` and `writer` must outlive the sink.
  TransformSink(Sink& next, io::MessageWriter& writer, const Model& model);
  void joint_state(const JointState& state, std::optional<std::int64_t> cycle) override;
  void support_state(const SupportState& state, std::optional<std::int64_t> cycle) override;
  void message(const io::Message& message) override;
  void flush() override;
  void joint_state_outside(const JointState& state, std::optional<std::int64_t> cycle) override;
  void support_state_outside(const SupportState& state, std::optional<std::int64_t> cycle) override;
  void message_outside(const io::Message& message) override;

private:
  /// Updates the held pose from `state`.
  void hold(const JointState& state);
  void publish(const JointState& state, Time stamp);

  Sink* next_;
  io::MessageWriter* writer_;
  const Model* model_;
  kinematics::KinematicModel kinematic_;
  std::vector<std::size_t> moving_bodies_;      ///< bodies of movable joints, in body order
  std::vector<io::FrameTransform> moving_;      ///< their transforms, names set once
  std::vector<io::FrameTransform> fixed_;       ///< the fixed joints' transforms
  std::vector<double> pose_;                    ///< the held full pose
  std::vector<int> slots_;                      ///< per element of the last state: its slot or -1
  bool started_ = false;
};

}  // namespace rmodel::stream
