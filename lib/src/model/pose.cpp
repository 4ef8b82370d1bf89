#include "rmodel/model/pose.hpp"

#include <charconv>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/base/suggest.hpp"

namespace rmodel {
namespace {

bool separator(char c) { return c == ',' || std::isspace(static_cast<unsigned char>(c)); }

/// Splits on blanks and commas.
std::vector<std::string_view> items_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && separator(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && !separator(text[j])) ++j;
    if (j > i) out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

JointAssignment parse_item(std::string_view item) {
  const auto eq = item.find('=');
  if (eq == std::string_view::npos)
    throw InvalidArgument(fmt::format("pose item '{}': expected joint=value", item));
  const std::string_view joint = item.substr(0, eq);
  std::string_view value = item.substr(eq + 1);
  if (joint.empty()) throw InvalidArgument(fmt::format("pose item '{}': no joint name before '='", item));
  if (!value.empty() && value.front() == '+') value.remove_prefix(1);
  double v = 0;
  const char* end = value.data() + value.size();
  auto [ptr, ec] = std::from_chars(value.data(), end, v);
  if (value.empty() || ec != std::errc() || ptr != end)
    throw InvalidArgument(fmt::format("pose item '{}': '{}' is not a number", item, item.substr(eq + 1)));
  if (!std::isfinite(v))
    throw InvalidArgument(fmt::format("pose item '{}': the value must be finite", item));
  return {std::string(joint), v};
}

void append_items(std::string_view text, std::vector<JointAssignment>& out) {
  for (std::string_view item : items_of(text)) {
    JointAssignment a = parse_item(item);
    for (const auto& seen : out)
      if (seen.joint == a.joint) throw InvalidArgument(fmt::format("pose: joint '{}' is given twice", a.joint));
    out.push_back(std::move(a));
  }
}

/// `state` as a sorted full pose ready for writing positions.
void prepare(const Model& model, JointState& state) {
  if (state.position.empty()) state.position.assign(model.pose_size(), 0.0);
  if (state.position.size() != model.pose_size())
    throw SizeMismatch("pose position", model.pose_size(), state.position.size());
  if (state.name.empty()) state.name = model.joint_names();
}

std::string pose_label(const NamedPose& pose) {
  return pose.group.empty() ? fmt::format("pose '{}'", pose.name)
                            : fmt::format("pose '{}' (group '{}')", pose.name, pose.group);
}

/// Why a joint named by a pose is not in the full pose.
std::string outside_reason(const Model& model, const std::string& joint) {
  if (auto reason = model.outside_pose_reason(joint)) return *reason;
  return "is not a joint of the URDF";
}

}  // namespace

std::vector<JointAssignment> parse_pose_assignments(std::string_view text) {
  std::vector<JointAssignment> out;
  append_items(text, out);
  return out;
}

std::vector<JointAssignment> parse_pose_assignments(std::span<const std::string> args) {
  std::vector<JointAssignment> out;
  for (const auto& arg : args) append_items(arg, out);
  return out;
}

const NamedPose& find_named_pose(const Semantics& semantics, std::string_view name) {
  std::vector<const NamedPose*> matches;
  for (const auto& p : semantics.poses)
    if (p.name == name) matches.push_back(&p);
  if (matches.empty()) {
    // "group/name"
    if (auto slash = name.find('/'); slash != std::string_view::npos)
      for (const auto& p : semantics.poses)
        if (p.group == name.substr(0, slash) && p.name == name.substr(slash + 1)) return p;
    std::vector<std::string> names;
    for (const auto& p : semantics.poses) names.push_back(p.name);
    throw NotFound("pose", std::string(name), did_you_mean(name, names));
  }
  if (matches.size() > 1) {
    std::string forms;
    for (const NamedPose* p : matches) forms += fmt::format("{}'{}/{}'", forms.empty() ? "" : ", ", p->group, p->name);
    throw InvalidArgument(
        fmt::format("pose '{}' is declared for {} groups; name one of {}", name, matches.size(), forms));
  }
  return *matches.front();
}

void apply_pose_assignments(const Model& model, std::span<const JointAssignment> assignments, JointState& state) {
  prepare(model, state);
  std::vector<int> given;
  for (const auto& a : assignments) {
    const std::size_t index = model.joint_index(a.joint);
    state.position[index] = a.value;
    given.push_back(static_cast<int>(index));
  }
  model.complete_mimic_joints(state, given);
}

/// The zero pose, with mimic joints where their masters at 0 put them (their offsets).
JointState zero_pose(const Model& model) {
  JointState state;
  state.name = model.joint_names();
  state.position.assign(model.pose_size(), 0.0);
  model.complete_mimic_joints_except(state, {});
  return state;
}

JointState named_pose(const Model& model, std::string_view name) { return named_pose(model, name, zero_pose(model)); }

JointState named_pose(const Model& model, std::string_view name, const JointState& base) {
  const NamedPose& pose = find_named_pose(model.semantics(), name);
  if (base.position.size() != model.pose_size())
    throw SizeMismatch("base pose position", model.pose_size(), base.position.size());
  JointState state = base;
  state.name = model.joint_names();
  std::vector<int> given;
  for (const auto& [joint, value] : pose.joints) {
    const auto index = model.find_joint_index(joint);
    if (!index) {
      // As srdfdom and MoveIt: a value for a joint the URDF lacks is dropped, and a mimic
      // joint outside the pose follows its master (check_named_poses reports the first).
      const JointInfo* info = model.find_urdf_joint(joint);
      if (!info || info->mimic) continue;
      throw ModelError({model.semantics().source, pose.line},
                       fmt::format("{}: joint '{}' {}", pose_label(pose), joint, outside_reason(model, joint)));
    }
    state.position[*index] = value;
    given.push_back(static_cast<int>(*index));
  }
  model.complete_mimic_joints(state, given);
  return state;
}

JointState resolve_pose(const Model& model, std::string_view spec, const JointState* base) {
  const auto items = items_of(spec);
  JointState state;
  if (base) {
    state = *base;
    state.name.clear();
  } else {
    state = zero_pose(model);
  }
  std::size_t first_assignment = 0;
  if (!items.empty() && items.front().find('=') == std::string_view::npos) {
    state = named_pose(model, items.front(), state);
    first_assignment = 1;
  }
  std::vector<JointAssignment> assignments;
  for (std::size_t i = first_assignment; i < items.size(); ++i) append_items(items[i], assignments);
  apply_pose_assignments(model, assignments, state);
  return state;
}

Diagnostics check_named_poses(const Model& model) {
  Diagnostics out;
  const std::string& source = model.semantics().source;
  for (const auto& pose : model.semantics().poses) {
    for (const auto& [joint, value] : pose.joints) {
      const JointInfo* info = model.find_urdf_joint(joint);
      if (!info) {
        // A mistake, but srdfdom loads the pose without the value: a warning that `check`
        // turns into an error.
        out.add(Severity::warning, {source, pose.line}, "pose-unknown-joint",
                fmt::format("{}: joint '{}' is not a joint of the URDF: the value is dropped", pose_label(pose), joint));
        continue;
      }
      if (!model.find_joint_index(joint) && info->mimic) continue;  // it follows its master
      if (!model.find_joint_index(joint)) {
        out.add(Severity::error, {source, pose.line}, "pose-joint-outside-pose",
                fmt::format("{}: joint '{}' {}", pose_label(pose), joint, outside_reason(model, joint)));
        continue;
      }
      if (info->bounded() && (value < info->lower || value > info->upper))
        out.add(Severity::warning, {source, pose.line}, "pose-out-of-limits",
                fmt::format("{}: joint '{}' = {} is outside its limits [{}, {}]", pose_label(pose), joint, value,
                            info->lower, info->upper));
    }
  }
  return out;
}

}  // namespace rmodel
