// Centre of mass and its Jacobian from the frames of the last forward_kinematics call.

#include "rmodel/kinematics/center_of_mass.hpp"

#include "kinematics/model_data.hpp"

namespace rmodel::kinematics {
namespace {

/// Subtree masses and first moments Σ m·c (base frame), leaves to root.
void accumulate(const KinematicModel::Data& d, Workspace& ws) {
  auto& mass = WorkspaceAccess::subtree_mass(ws);
  auto& moment = WorkspaceAccess::subtree_moment(ws);
  const std::size_t n = d.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Node& nd = d.nodes[k];
    mass[k] = nd.mass;
    moment[k].noalias() = nd.mass * (ws.frame(k) * nd.com);
  }
  for (std::size_t k = n; k-- > 1;) {
    const auto p = static_cast<std::size_t>(d.nodes[k].parent);
    mass[p] += mass[k];
    moment[p] += moment[k];
  }
}

}  // namespace

Eigen::Vector3d center_of_mass(const KinematicModel& model, Workspace& ws) {
  check_workspace(model, ws);
  const auto& d = model.data();
  if (!(d.total_mass > 0.0)) return Eigen::Vector3d::Zero();
  accumulate(d, ws);
  return WorkspaceAccess::subtree_moment(ws)[0] / WorkspaceAccess::subtree_mass(ws)[0];
}

void center_of_mass_jacobian(const KinematicModel& model, Workspace& ws,
                             Eigen::Matrix<double, 3, Eigen::Dynamic>& Jc) {
  check_workspace(model, ws);
  const auto& d = model.data();
  const auto n = static_cast<Eigen::Index>(d.pose_size);
  if (Jc.cols() != n) Jc.resize(3, n);
  Jc.setZero();
  if (!(d.total_mass > 0.0)) return;
  accumulate(d, ws);
  const auto& mass = WorkspaceAccess::subtree_mass(ws);
  const auto& moment = WorkspaceAccess::subtree_moment(ws);
  const double inv_total = 1.0 / mass[0];
  for (std::size_t k = 1; k < d.size(); ++k) {
    const Node& nd = d.nodes[k];
    if (nd.q < 0) continue;
    const Eigen::Vector3d& w = ws.joint_axis(k);
    if (nd.kind == MotionKind::prismatic)
      Jc.col(nd.q) += (mass[k] * inv_total) * w;
    else
      Jc.col(nd.q) += inv_total * w.cross(moment[k] - mass[k] * ws.joint_origin(k));
  }
}

}  // namespace rmodel::kinematics
