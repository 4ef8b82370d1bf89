// check --target: the targets, their verdicts, and what the rules of every target share (the
// URDF's elements by link, mass properties moved and combined).
#include "check/targets/target_rules.hpp"

#include <algorithm>
#include <array>
#include <iterator>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>
#include <tinyxml2.h>

#include "rmodel/check/check.hpp"

namespace rmodel {
namespace {

struct TargetName {
  CheckTarget target;
  std::string_view name;     // as --target takes it, and the prefix of its codes
  std::string_view display;  // in a sentence
};

constexpr TargetName kTargetNames[] = {{CheckTarget::mujoco, "mujoco", "MuJoCo"},
                                       {CheckTarget::kdl, "kdl", "KDL"},
                                       {CheckTarget::gazebo, "gazebo", "Gazebo"}};
constexpr CheckTarget kTargets[] = {CheckTarget::mujoco, CheckTarget::kdl, CheckTarget::gazebo};
/// The codes that say a rule could not look at what it needs: the verdict is then not known.
constexpr std::string_view kUncheckedCodes[] = {"mujoco-mesh-unchecked"};

const TargetName& target_name(CheckTarget target) {
  for (const TargetName& t : kTargetNames)
    if (t.target == target) return t;
  return kTargetNames[0];
}

}  // namespace

std::string_view to_string(CheckTarget target) { return target_name(target).name; }

std::string_view display_name(CheckTarget target) { return target_name(target).display; }

std::optional<CheckTarget> parse_check_target(std::string_view name) {
  for (const TargetName& t : kTargetNames)
    if (t.name == name) return t.target;
  return std::nullopt;
}

std::span<const CheckTarget> check_targets() { return kTargets; }

std::optional<CheckTarget> code_target(std::string_view code) {
  for (const TargetName& t : kTargetNames)
    if (code.size() > t.name.size() && code.starts_with(t.name) && code[t.name.size()] == '-') return t.target;
  return std::nullopt;
}

TargetVerdict target_verdict(const Diagnostics& problems, CheckTarget target, bool applied) {
  TargetVerdict verdict;
  verdict.target = target;
  verdict.applied = applied;
  for (const Diagnostic& d : problems.items) {
    if (code_target(d.code) != target) continue;
    if (d.severity == Severity::error) ++verdict.errors;
    if (d.severity == Severity::warning) ++verdict.warnings;
    if (std::find(std::begin(kUncheckedCodes), std::end(kUncheckedCodes), d.code) != std::end(kUncheckedCodes))
      ++verdict.unchecked;
  }
  verdict.loads = applied && verdict.errors == 0 && verdict.unchecked == 0;
  return verdict;
}

Diagnostics check_target(const Model& model, CheckTarget target, const std::filesystem::path& urdf_dir) {
  Diagnostics out;
  const std::string& text = model.urdf_text();
  tinyxml2::XMLDocument doc;
  // A Model was read from this text: it parses.
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS || !doc.RootElement()) return out;
  detail::TargetInput input{model, *doc.RootElement(), model.urdf_source(), urdf_dir, {}};
  for (const auto* link = input.robot.FirstChildElement("link"); link; link = link->NextSiblingElement("link"))
    if (const char* name = link->Attribute("name")) input.links_by_name.emplace(name, link);
  switch (target) {
    case CheckTarget::mujoco:
      detail::check_mujoco(input, out);
      break;
    case CheckTarget::kdl:
      detail::check_kdl(input, out);
      break;
    case CheckTarget::gazebo:
      detail::check_gazebo(input, out);
      break;
  }
  return out;
}

namespace detail {

const tinyxml2::XMLElement* TargetInput::link_element(std::string_view name) const {
  const auto found = links_by_name.find(std::string(name));
  return found == links_by_name.end() ? nullptr : found->second;
}

SourceLocation TargetInput::at(const tinyxml2::XMLElement* element, const LinkInfo& link) const {
  return {source, element ? element->GetLineNum() : link.line};
}

MassProperties MassProperties::of(const Inertial& inertial) {
  MassProperties m;
  m.mass = inertial.mass;
  m.com = Eigen::Vector3d(inertial.com.x(), inertial.com.y(), inertial.com.z());
  m.inertia = inertial.inertia;
  return m;
}

Eigen::Isometry3d to_isometry(const KDL::Frame& frame) {
  Eigen::Isometry3d out = Eigen::Isometry3d::Identity();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out.linear()(i, j) = frame.M(i, j);
  out.translation() = Eigen::Vector3d(frame.p.x(), frame.p.y(), frame.p.z());
  return out;
}

MassProperties MassProperties::moved(const Eigen::Isometry3d& frame) const {
  MassProperties m;
  m.mass = mass;
  m.com = frame * com;
  m.inertia = frame.linear() * inertia * frame.linear().transpose();
  return m;
}

std::optional<MassProperties> MassProperties::combined(const MassProperties& a, const MassProperties& b) {
  const double total = a.mass + b.mass;
  if (total == 0.0) return std::nullopt;
  MassProperties m;
  m.mass = total;
  m.com = (a.mass * a.com + b.mass * b.com) / total;
  m.inertia = a.inertia + b.inertia;
  for (const MassProperties* part : {&a, &b}) {
    const Eigen::Vector3d d = part->com - m.com;
    m.inertia += part->mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  }
  return m;
}

Eigen::Vector3d principal_moments(const Eigen::Matrix3d& inertia) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(inertia, Eigen::EigenvaluesOnly);
  return eigen.eigenvalues();
}

std::string short_number(double value) { return fmt::format("{:.6g}", value); }

std::string name_list(const std::vector<std::string>& names, std::size_t most) {
  std::string out;
  const std::size_t shown = std::min(names.size(), most);
  for (std::size_t k = 0; k < shown; ++k) {
    if (k > 0) out += (k + 1 == shown && shown == names.size()) ? " and " : ", ";
    out += "'" + names[k] + "'";
  }
  if (shown < names.size()) out += fmt::format(" and {} more", names.size() - shown);
  return out;
}

}  // namespace detail
}  // namespace rmodel
