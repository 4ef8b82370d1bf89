// A robot's transforms beside the joint states written (rmodel/stream/transform_stream.hpp).

#include <Eigen/Geometry>

#include "rmodel/kinematics/forward_kinematics.hpp"
#include "rmodel/stream/transform_stream.hpp"

namespace rmodel::stream {
namespace {

void set_frame(io::FrameTransform& out, const Eigen::Isometry3d& x) {
  const Eigen::Vector3d p = x.translation();
  const Eigen::Quaterniond q(x.linear());
  out.translation = {p.x(), p.y(), p.z()};
  out.rotation = {q.x(), q.y(), q.z(), q.w()};
}

}  // namespace

TransformSink::TransformSink(Sink& next, io::MessageWriter& writer, const Model& model)
    : next_(&next),
      writer_(&writer),
      model_(&model),
      kinematic_(kinematics::KinematicModel::from_model(model, kinematics::MimicJoints::from_pose)),
      pose_(model.pose_size(), 0.0) {
  const auto bodies = kinematic_.bodies();
  const std::vector<double> zeros(kinematic_.pose_size(), 0.0);
  for (std::size_t b = 1; b < bodies.size(); ++b) {
    const kinematics::Body& body = bodies[b];
    io::FrameTransform t;
    t.parent = bodies[static_cast<std::size_t>(body.parent)].name;
    t.child = body.name;
    if (body.motion == kinematics::JointMotion::fixed) {
      set_frame(t, kinematics::joint_transform(body, zeros));
      fixed_.push_back(std::move(t));
    } else {
      moving_bodies_.push_back(b);
      moving_.push_back(std::move(t));
    }
  }
  slots_.reserve(pose_.size());
  // The zero pose as `rmodel fk` starts from it: mimic joints where their masters at 0 put them.
  JointState zero;
  zero.position = pose_;
  model.complete_mimic_joints_except(zero, {});
  pose_ = std::move(zero.position);
}

void TransformSink::hold(const JointState& state) {
  slots_.resize(state.name.size());
  for (std::size_t i = 0; i < state.name.size(); ++i) {
    const std::optional<std::size_t> slot = i < state.position.size() ? model_->find_joint_index(state.name[i])
                                                                      : std::nullopt;
    slots_[i] = slot ? static_cast<int>(*slot) : -1;
    if (slot) pose_[*slot] = state.position[i];
  }
  model_->complete_mimic_joints(pose_, slots_);
}

void TransformSink::publish(const JointState& state, Time stamp) {
  if (!started_) {
    started_ = true;
    (void)writer_->write_robot_description(model_->urdf_text(), stamp);
    // The semantics fix the full pose's order: a model read back from the file keeps it.
    if (model_->has_semantics()) {
      const Semantics& semantics = model_->semantics();
      if (!semantics.srdf.empty())
        (void)writer_->write_semantics(semantics.srdf, io::SemanticsText::srdf, stamp);
      else
        (void)writer_->write_semantics(to_semantics_json(semantics), io::SemanticsText::rmodel_json, stamp);
    }
    if (!fixed_.empty()) (void)writer_->write_transforms(fixed_, stamp, true);
  }
  hold(state);
  const auto bodies = kinematic_.bodies();
  for (std::size_t k = 0; k < moving_bodies_.size(); ++k)
    set_frame(moving_[k], kinematics::joint_transform(bodies[moving_bodies_[k]], pose_));
  if (!moving_.empty()) (void)writer_->write_transforms(moving_, stamp, false);
}

void TransformSink::joint_state(const JointState& state, std::optional<std::int64_t> cycle) {
  next_->joint_state(state, cycle);
  publish(state, state.stamp);
}

void TransformSink::support_state(const SupportState& state, std::optional<std::int64_t> cycle) {
  next_->support_state(state, cycle);
}

void TransformSink::message(const io::Message& message) {
  next_->message(message);
  if (message.kind == io::MessageKind::Joint) publish(message.joint, message.has_stamp ? message.stamp() : Time{});
}

void TransformSink::flush() { next_->flush(); }

void TransformSink::joint_state_outside(const JointState& state, std::optional<std::int64_t> cycle) {
  next_->joint_state_outside(state, cycle);
  hold(state);
}

void TransformSink::support_state_outside(const SupportState& state, std::optional<std::int64_t> cycle) {
  next_->support_state_outside(state, cycle);
}

void TransformSink::message_outside(const io::Message& message) {
  next_->message_outside(message);
  if (message.kind == io::MessageKind::Joint) hold(message.joint);
}

}  // namespace rmodel::stream
