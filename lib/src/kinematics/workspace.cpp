// Workspace: buffers sized once from a KinematicModel.

#include "rmodel/kinematics/workspace.hpp"

#include <fmt/format.h>

#include "kinematics/model_data.hpp"
#include "rmodel/error.hpp"

namespace rmodel::kinematics {
namespace {

const Eigen::Matrix4d& zero4() {
  static const Eigen::Matrix4d zero = Eigen::Matrix4d::Zero();
  return zero;
}

}  // namespace

Workspace::Workspace(const KinematicModel& model, DerivativeOrder derivatives)
    : model_(model.shared_data()), capacity_(derivatives) {
  const auto& d = *model_;
  const std::size_t n = d.size();
  frames_.assign(n, Eigen::Isometry3d::Identity());
  axes_.assign(n, Eigen::Vector3d::Zero());
  joint_origins_.assign(n, Eigen::Vector3d::Zero());
  subtree_mass_.assign(n, 0.0);
  subtree_moment_.assign(n, Eigen::Vector3d::Zero());
  // Derivative matrices keep their last row zero forever: only the top 3×4 is written.
  if (derivatives >= DerivativeOrder::first) d1_.assign(d.d1_offset[n], Eigen::Matrix4d::Zero());
  if (derivatives >= DerivativeOrder::second) d2_.assign(d.d2_offset[n], Eigen::Matrix4d::Zero());
}

namespace {

void check_body_index(const KinematicModel::Data& d, std::size_t body) {
  if (body >= d.size())
    throw InvalidArgument(fmt::format("kinematics: body index {} out of range (model has {})",
                                      body, d.size()));
}

/// Position of the joint driving pose slot q among the joints moving `body` (0 at the
/// base), or -1 when that joint does not move the body.
int path_position(const KinematicModel::Data& d, std::size_t body, std::size_t q) {
  if (q >= d.pose_size)
    throw InvalidArgument(
        fmt::format("kinematics: pose slot {} out of range (pose has {})", q, d.pose_size));
  const int joint_body = d.q_to_body[q];
  if (joint_body < 0) return -1;
  const auto j = static_cast<std::size_t>(joint_body);
  if (body < j || body >= static_cast<std::size_t>(d.subtree_end[j])) return -1;
  return d.nodes[j].depth - 1;
}

}  // namespace

std::span<const Eigen::Matrix4d> Workspace::body_first_derivatives(std::size_t body) const {
  const auto& d = *model_;
  check_body_index(d, body);
  if (capacity_ < DerivativeOrder::first)
    throw InvalidArgument("kinematics: the workspace holds no first derivatives");
  return {d1_.data() + d.d1_offset[body], d.d1_offset[body + 1] - d.d1_offset[body]};
}

std::span<const Eigen::Matrix4d> Workspace::body_second_derivatives(std::size_t body) const {
  const auto& d = *model_;
  check_body_index(d, body);
  if (capacity_ < DerivativeOrder::second)
    throw InvalidArgument("kinematics: the workspace holds no second derivatives");
  return {d2_.data() + d.d2_offset[body], d.d2_offset[body + 1] - d.d2_offset[body]};
}

const Eigen::Matrix4d& Workspace::frame_derivative(std::size_t body, std::size_t q_index) const {
  const auto first = body_first_derivatives(body);
  const int a = path_position(*model_, body, q_index);
  return a < 0 ? zero4() : first[static_cast<std::size_t>(a)];
}

const Eigen::Matrix4d& Workspace::frame_second_derivative(std::size_t body, std::size_t i,
                                                          std::size_t j) const {
  const auto second = body_second_derivatives(body);
  int a = path_position(*model_, body, i);
  int b = path_position(*model_, body, j);
  if (a < 0 || b < 0) return zero4();
  if (a > b) std::swap(a, b);
  const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  return second[ub * (ub + 1) / 2 + ua];
}

}  // namespace rmodel::kinematics
