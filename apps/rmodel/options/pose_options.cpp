#include "options/pose_options.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/io/message.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/model/pose.hpp"
#include "rmodel/stream/stream.hpp"

namespace rmodel::cli {

void PoseOptions::add_to(CLI::App& app, bool positionals) {
  const char* group = "Pose";
  pose_option_ = app.add_option("--pose", pose,
                 "Joint positions (rad or m) as joint=value items separated by commas; a named pose may "
                 "come first ('stand,neck_pitch=0.2'); joints not given are 0")
      ->type_name("POSE")
      ->group(group);
  file_option_ = app.add_option("--pose-file", file,
                 "Take the pose from the first joint-state message of a JSON, JSON Lines or CSV file "
                 "(--pose items override it)")
      ->type_name("FILE")
      ->group(group);
  if (positionals)
    app.add_option("joint_values", items, "Joint positions as joint=value (rad or m), applied after --pose")
        ->type_name("JOINT=VALUE")
        ->group(group);
}

bool PoseOptions::given() const {
  return !items.empty() || (pose_option_ && pose_option_->count() > 0) ||
         (file_option_ && file_option_->count() > 0);
}

void apply_joint_state(const Model& model, const JointState& state, std::vector<double>& pose) {
  if (state.position.size() != state.name.size())
    throw SizeMismatch("joint state 'position'", state.name.size(), state.position.size());
  std::vector<int> given;
  for (std::size_t i = 0; i < state.name.size(); ++i) {
    const std::size_t index = model.joint_index(state.name[i]);
    pose[index] = state.position[i];
    given.push_back(static_cast<int>(index));
  }
  model.complete_mimic_joints(pose, given);
}

namespace {

/// Thrown by FirstPose to end the run at the first joint state: the rest of the file is
/// not needed (it may be a long log).
struct FirstPoseFound {};

/// The pipeline stage that keeps the first joint state of a stream as a sorted full pose.
class FirstPose final : public stream::Stage {
public:
  FirstPose(const Model& model, const std::string& source) : model_(&model), source_(&source) {}

  void push(const io::Message& message, stream::Output& /*out*/, stream::Reporter& /*report*/) override {
    if (message.kind != io::MessageKind::Joint) return;
    if (message.joint.position.empty())
      throw Error(fmt::format("{}:{}: the first joint state has no positions", *source_, message.line));
    pose_.name = model_->joint_names();
    pose_.position.assign(model_->pose_size(), 0.0);
    model_->complete_mimic_joints_except(pose_, {});  // the zero pose: mimic joints at their offsets
    apply_joint_state(*model_, message.joint, pose_.position);
    throw FirstPoseFound{};
  }
  [[nodiscard]] JointState take() { return std::move(pose_); }

private:
  const Model* model_;
  const std::string* source_;
  JointState pose_;
};

/// The first joint-state message of a file, as a sorted full pose. Read through the
/// library's pipeline (the one reader loop of the commands); a line the reader cannot
/// read ends it with a ParseError naming file and line.
JointState read_pose_file(const Model& model, const std::string& path) {
  io::MessageReader reader = io::MessageReader::open(path);
  FirstPose stage(model, reader.source());
  stream::CallbackSink sink({});
  stream::Pipeline pipeline(stage, sink, [&](const stream::Event& e) {
    if (e.severity == Severity::error)
      throw ParseError({reader.source(), static_cast<int>(e.line)}, std::string(e.text));
  });
  try {
    (void)pipeline.run(reader);
  } catch (const FirstPoseFound&) {
    return stage.take();
  }
  throw Error(fmt::format("{}: no joint state message", reader.source()));
}

}  // namespace

std::vector<double> PoseOptions::resolve(const Model& model) const {
  std::string spec = pose;
  for (const auto& item : items) {
    if (!spec.empty()) spec += ' ';
    spec += item;
  }
  JointState state;
  if (!file.empty()) {
    const JointState base = read_pose_file(model, file);
    state = resolve_pose(model, spec, &base);
  } else {
    state = resolve_pose(model, spec);
  }
  if (state.position.empty()) state.position.assign(model.pose_size(), 0.0);
  return std::move(state.position);
}

std::vector<double> resolve_pose_argument(const Model& model, const std::string& text) {
  PoseOptions options;
  std::error_code ec;
  if (std::filesystem::is_regular_file(text, ec)) options.file = text;
  else options.pose = text;
  return options.resolve(model);
}

}  // namespace rmodel::cli
