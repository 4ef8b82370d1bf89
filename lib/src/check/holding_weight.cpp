// Joints too weak for their own weight: gravity torques (kinematics' dynamics) at the zero
// pose and at every named pose, against the effort limits of the model.

#include "check/holding_weight.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "rmodel/kinematics/dynamics.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel::detail {
namespace {

std::string weight_number(double v) { return fmt::format("{:.6g}", v); }

}  // namespace

void check_holding_weight(const Model& model, Diagnostics& out) {
  namespace dyn = rmodel::dynamics;
  std::optional<dyn::KinematicModel> built;
  try {
    built.emplace(dyn::KinematicModel::from_model(model));
  } catch (const InvalidArgument& e) {
    // A joint KDL cannot move (an axis it takes for zero): a finding, not the end of `check`.
    out.add(Severity::error, {model.urdf_source(), 0}, "kinematics",
            fmt::format("the robot's kinematics cannot be built: {}", e.what()));
    return;
  }
  const dyn::KinematicModel& km = *built;
  if (km.total_mass() <= 0.0) return;
  dyn::DynamicsWorkspace ws(km);
  std::vector<double> pose(km.pose_size(), 0.0);
  std::vector<double> tau(km.pose_size(), 0.0);
  const auto bodies = km.bodies();
  // Per body: |torque| at the zero pose, then the least over the named poses.
  dyn::gravity_torques(km, ws, pose, tau);
  struct Candidate {
    std::size_t body;
    const JointInfo* joint;
    double at_zero;
    double least = std::numeric_limits<double>::infinity();
    std::string least_pose;
  };
  std::vector<Candidate> candidates;
  for (std::size_t k = 1; k < bodies.size(); ++k) {
    const JointInfo* joint = model.find_urdf_joint(bodies[k].joint);
    if (!joint || !joint->movable() || !(joint->effort_limit > 0.0)) continue;
    const double torque = std::abs(ws.joint_torque(k));
    if (torque > joint->effort_limit)
      candidates.push_back({k, joint, torque, std::numeric_limits<double>::infinity(), {}});
  }
  if (candidates.empty()) return;
  for (const NamedPose& named : model.semantics().poses) {
    std::fill(pose.begin(), pose.end(), 0.0);
    for (const auto& [joint, value] : named.joints)
      if (const auto index = model.find_joint_index(joint)) pose[*index] = value;
    dyn::gravity_torques(km, ws, pose, tau);
    for (Candidate& c : candidates) {
      const double torque = std::abs(ws.joint_torque(c.body));
      if (torque < c.least) {
        c.least = torque;
        c.least_pose = named.group.empty() ? named.name : named.group + "/" + named.name;
      }
    }
  }
  for (const Candidate& c : candidates) {
    if (c.least <= c.joint->effort_limit) continue;
    const char* unit = c.joint->type == JointType::prismatic ? "N" : "N·m";
    std::string poses = fmt::format("{} {} at the zero pose", weight_number(c.at_zero), unit);
    if (std::isfinite(c.least))
      poses += fmt::format(" and at least {} {} at every named pose ('{}')", weight_number(c.least), unit, c.least_pose);
    out.add(Severity::warning, {model.urdf_source(), c.joint->line}, "cannot-hold-weight",
            fmt::format("joint '{}' cannot hold its own weight: gravity needs {}, above its effort limit of {} {}",
                        c.joint->name, poses, weight_number(c.joint->effort_limit), unit));
  }
}

}  // namespace rmodel::detail
