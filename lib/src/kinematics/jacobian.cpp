// Geometric Jacobians from the frames of the last forward_kinematics call.

#include "rmodel/kinematics/jacobian.hpp"

#include "kinematics/model_data.hpp"
#include "rmodel/kinematics/forward_kinematics.hpp"

namespace rmodel::kinematics {
namespace {

template <typename Matrix>
void fill(const KinematicModel::Data& d, const Workspace& ws, std::size_t body,
          const Eigen::Vector3d& point_base, Matrix& J) {
  J.setZero();
  for (int jb = d.joint_up[body]; jb >= 0; jb = d.joint_above[static_cast<std::size_t>(jb)]) {
    const auto j = static_cast<std::size_t>(jb);
    const Node& nd = d.nodes[j];
    const Eigen::Vector3d& w = ws.joint_axis(j);
    const auto col = static_cast<Eigen::Index>(nd.q);
    if (nd.kind == MotionKind::prismatic) {
      J.template block<3, 1>(0, col) += w;
    } else {
      J.template block<3, 1>(0, col) += w.cross(point_base - ws.joint_origin(j));
      J.template block<3, 1>(3, col) += w;
    }
  }
}

}  // namespace

void jacobian(const KinematicModel& model, const Workspace& ws, std::size_t body,
              const Eigen::Vector3d& point, Jacobian& J) {
  check_workspace(model, ws);
  check_body(model, body);
  const auto n = static_cast<Eigen::Index>(model.pose_size());
  if (J.cols() != n) J.resize(6, n);
  fill(model.data(), ws, body, ws.frame(body) * point, J);
}

void jacobian(const KinematicModel& model, const Workspace& ws, std::size_t body, Jacobian& J) {
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

void forward_kinematics_jacobian(const KinematicModel& model, Workspace& ws, std::span<const double> q,
                                 std::size_t body, Jacobian& J) {
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

}  // namespace rmodel::kinematics
