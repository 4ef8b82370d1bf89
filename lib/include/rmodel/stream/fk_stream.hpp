#pragma once
#include "rmodel/export.hpp"
/// @file fk_stream.hpp
/// Forward kinematics along a stream of joint states, what `rmodel fk --log` computes: a
/// pipeline stage holding the full pose, which each joint state updates (the names it gives;
/// mimic joints follow their masters unless the state names them, Model::complete_mimic_joints),
/// then the frames of every body at that pose, handed with the pose to a callback. The
/// callback writes the record its program wants, and may run checks of its own on the pose
/// (self-collision, a workspace bound, ...).
///
/// - **Names** go through the one stream::SlotMapper of the streaming commands: a message with
///   arrays of the wrong size or a joint named twice is rejected through the reporter, an
///   unknown name is a warning.
/// - **Outside a time window** (a reader with one, stream::Pipeline::run): the pose is updated,
///   no record is made.
/// - Each record counts in stream::Summary::written.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "rmodel/kinematics/kinematic_model.hpp"
#include "rmodel/kinematics/workspace.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/stream/stream.hpp"

namespace rmodel::stream {

/// One joint state of the stream at which the frames were computed.
struct RMODEL_API FkRecord {
  const io::Message& message;           ///< the joint state that set the pose
  std::span<const double> pose;         ///< the held full pose, Model::joint_names() order
  const kinematics::KinematicModel& kinematics;
  const kinematics::Workspace& frames;  ///< frames.frame(body): in the model's base frame
  std::uint64_t number;                 ///< 1, 2, ...: the records made so far, this one included
};

/// The stage of `rmodel fk --log`.
class RMODEL_API FkStage final : public Stage {
public:
  using RecordCallback = std::function<void(const FkRecord&)>;
  /// `kinematics`: built from `model` with kinematics::PoseLayout::full (the whole robot, or a
  /// chain reading the full pose). `pose`: the full pose to start from (pose_size() values).
  /// `model` and `kinematics` must outlive the stage.
  /// @throws SizeMismatch when `pose` is not pose-sized.
  FkStage(const Model& model, const kinematics::KinematicModel& kinematics, std::vector<double> pose,
          RecordCallback on_record);
  void push(const io::Message& message, Output& out, Reporter& report) override;
  /// The held full pose.
  [[nodiscard]] const std::vector<double>& pose() const noexcept { return pose_; }

private:
  const Model* model_;
  const kinematics::KinematicModel* kinematics_;
  kinematics::Workspace frames_;
  SlotMapper mapper_;
  std::vector<double> pose_;
  RecordCallback on_record_;
  std::uint64_t records_ = 0;
};

}  // namespace rmodel::stream
