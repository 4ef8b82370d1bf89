#include "rmodel/stream/fk_stream.hpp"

#include "rmodel/base/error.hpp"
#include "rmodel/kinematics/forward_kinematics.hpp"

namespace rmodel::stream {

FkStage::FkStage(const Model& model, const kinematics::KinematicModel& kinematics, std::vector<double> pose,
                 RecordCallback on_record)
    : model_(&model),
      kinematics_(&kinematics),
      frames_(kinematics),
      mapper_(model.joint_names()),
      pose_(std::move(pose)),
      on_record_(std::move(on_record)) {
  if (pose_.size() != model.pose_size()) throw SizeMismatch("FkStage: initial pose", model.pose_size(), pose_.size());
}

void FkStage::push(const io::Message& message, Output& out, Reporter& report) {
  if (message.kind != io::MessageKind::Joint) return;
  if (!mapper_.map(message, report)) return;
  const JointState& js = message.joint;
  const auto slots = mapper_.slots();
  for (std::size_t i = 0; i < js.position.size(); ++i)
    if (slots[i] != SlotMapper::kUnknown) pose_[static_cast<std::size_t>(slots[i])] = js.position[i];
  model_->complete_mimic_joints(pose_, slots);
  if (message.has_stamp && !out.in_window(message.stamp())) return;
  kinematics::forward_kinematics(*kinematics_, frames_, pose_);
  // A record is not a joint state written to the sink: counted here.
  ++report.summary().written;
  ++records_;
  if (on_record_) on_record_(FkRecord{message, pose_, *kinematics_, frames_, records_});
}

}  // namespace rmodel::stream
