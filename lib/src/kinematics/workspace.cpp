// Workspace: buffers sized once from a KinematicModel.

#include "rmodel/kinematics/workspace.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "kinematics/model_data.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::kinematics {

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

void check_slot(const KinematicModel::Data& d, std::size_t q) {
  if (q >= d.pose_size)
    throw InvalidArgument(
        fmt::format("kinematics: pose slot {} out of range (pose has {})", q, d.pose_size));
}

/// Calls f(a) for the position a (0 at the base) of every joint moving `body` that reads
/// pose slot q: at most one, unless mimic joints share the slot (then each one's motion is
/// part of the derivative by q).
template <class F>
void for_path_positions(const KinematicModel::Data& d, std::size_t body, std::size_t q, F f) {
  if (!d.q_shared[q]) {
    const int joint_body = d.q_to_body[q];
    if (joint_body < 0) return;
    const auto j = static_cast<std::size_t>(joint_body);
    if (body < j || body >= static_cast<std::size_t>(d.subtree_end[j])) return;
    f(static_cast<std::size_t>(d.nodes[j].depth - 1));
    return;
  }
  for (int j = d.joint_up[body]; j >= 0; j = d.joint_above[static_cast<std::size_t>(j)])
    if (d.nodes[static_cast<std::size_t>(j)].q == static_cast<int>(q))
      f(static_cast<std::size_t>(d.nodes[static_cast<std::size_t>(j)].depth - 1));
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

Eigen::Matrix4d Workspace::frame_derivative(std::size_t body, std::size_t q_index) const {
  const auto first = body_first_derivatives(body);
  check_slot(*model_, q_index);
  Eigen::Matrix4d sum = Eigen::Matrix4d::Zero();
  for_path_positions(*model_, body, q_index, [&](std::size_t a) { sum += first[a]; });
  return sum;
}

Eigen::Matrix4d Workspace::frame_second_derivative(std::size_t body, std::size_t i, std::size_t j) const {
  const auto second = body_second_derivatives(body);
  check_slot(*model_, i);
  check_slot(*model_, j);
  // Mixed partials commute: the entry of a pair of joints is stored once, the lower first.
  Eigen::Matrix4d sum = Eigen::Matrix4d::Zero();
  for_path_positions(*model_, body, i, [&](std::size_t a) {
    for_path_positions(*model_, body, j, [&](std::size_t b) {
      const std::size_t lo = std::min(a, b), hi = std::max(a, b);
      sum += second[hi * (hi + 1) / 2 + lo];
    });
  });
  return sum;
}

}  // namespace rmodel::kinematics
