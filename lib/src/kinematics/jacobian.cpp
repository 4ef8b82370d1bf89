// Geometric Jacobians from the frames of the last forward_kinematics call.

#include "rmodel/kinematics/jacobian.hpp"

#include <algorithm>

#include "kinematics/clones.hpp"
#include "kinematics/model_data.hpp"
#include "rmodel/kinematics/forward_kinematics.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel::kinematics {
namespace {

/// Column by column on J's storage (6 rows, column-major: ours and KDL's alike): a pose slot
/// read by one body only (no mimic joint shares it) is written once, not accumulated.
template <typename Matrix>
[[gnu::always_inline]] inline void fill(const KinematicModel::Data& d, const Workspace& ws, std::size_t body,
          const Eigen::Vector3d& point_base, Matrix& J) {
  static_assert(Matrix::RowsAtCompileTime == 6 && !Matrix::IsRowMajor);
  const Node* nodes = d.nodes.data();
  J.setZero();
  double* const out = J.data();
  const int* above = d.joint_above.data();
  const char* shared = d.q_shared.data();
  const Eigen::Vector3d* axes = &ws.joint_axis(0);
  const Eigen::Vector3d* origins = &ws.joint_origin(0);
  for (int jb = d.joint_up[body]; jb >= 0; jb = above[jb]) {
    const auto j = static_cast<std::size_t>(jb);
    const Node& nd = nodes[j];
    const Eigen::Vector3d& w = axes[j];
    Eigen::Map<Eigen::Vector3d> linear(out + 6 * nd.q);
    Eigen::Map<Eigen::Vector3d> angular(out + 6 * nd.q + 3);
    if (nd.kind == MotionKind::prismatic) {
      if (shared[nd.q]) linear += w;
      else linear = w;
    } else if (shared[nd.q]) {
      linear += w.cross(point_base - origins[j]);
      angular += w;
    } else {
      linear = w.cross(point_base - origins[j]);
      angular = w;
    }
  }
}

}  // namespace

RMODEL_KINEMATICS_CLONES void jacobian(const KinematicModel& model, const Workspace& ws, std::size_t body,
                                        const Eigen::Vector3d& point, Jacobian& J) {
  check_workspace(model, ws);
  check_body(model, body);
  const auto n = static_cast<Eigen::Index>(model.pose_size());
  if (J.cols() != n) J.resize(6, n);
  fill(model.data(), ws, body, ws.frame(body) * point, J);
}

RMODEL_KINEMATICS_CLONES void jacobian(const KinematicModel& model, const Workspace& ws, std::size_t body,
                                        Jacobian& J) {
  check_workspace(model, ws);
  check_body(model, body);
  const auto n = static_cast<Eigen::Index>(model.pose_size());
  if (J.cols() != n) J.resize(6, n);
  fill(model.data(), ws, body, ws.frame(body).translation(), J);
}

void jacobian(const KinematicModel& model, const Workspace& ws, std::size_t body,
              KDL::Jacobian& J) {
  check_workspace(model, ws);
  check_body(model, body);
  if (J.columns() != model.pose_size()) J.resize(static_cast<unsigned int>(model.pose_size()));
  fill(model.data(), ws, body, ws.frame(body).translation(), J.data);
}

RMODEL_KINEMATICS_CLONES void forward_kinematics_jacobian(const KinematicModel& model, Workspace& ws,
                                                           std::span<const double> q, std::size_t body, Jacobian& J) {
  check_body(model, body);
  forward_kinematics(model, ws, q);  // checks the workspace and the pose
  const auto n = static_cast<Eigen::Index>(model.pose_size());
  if (J.cols() != n) J.resize(6, n);
  fill(model.data(), ws, body, ws.frame(body).translation(), J);
}

void forward_kinematics_jacobian(const KinematicModel& model, Workspace& ws, const KDL::JntArray& q,
                                 std::size_t body, Jacobian& J) {
  forward_kinematics_jacobian(model, ws, std::span<const double>(q.data.data(), static_cast<std::size_t>(q.rows())),
                              body, J);
}

std::vector<int> chain_jacobian_columns(const Model& robot, const KinematicModel& model, std::string_view chain,
                                        bool with_virtual) {
  std::vector<int> out;
  const auto add = [&](int slot) {
    if (slot >= 0 && std::find(out.begin(), out.end(), slot) == out.end()) out.push_back(slot);
  };
  for (int index : robot.chain_joint_indices(chain, with_virtual)) {
    if (model.joint_body(static_cast<std::size_t>(index))) {
      add(index);
      continue;
    }
    const std::string& name = robot.joint_names()[static_cast<std::size_t>(index)];
    for (const Body& body : model.bodies())
      if (body.joint == name) add(body.q_index);  // the slot of the joint it follows
  }
  return out;
}

}  // namespace rmodel::kinematics
