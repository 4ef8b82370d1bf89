// Per-pose link frames and transform derivatives. Nothing here allocates.

#include "rmodel/kinematics/forward_kinematics.hpp"

#include <cmath>

#include <fmt/format.h>

#include "kinematics/model_data.hpp"
#include "kinematics/sin_cos.hpp"
#include "rmodel/error.hpp"

namespace rmodel::kinematics {
namespace {

/// Columns (I, J) of r ← (c·col_I + s·col_J, c·col_J − s·col_I): r times a rotation by θ
/// about the remaining axis, with c = cos θ, s = sin θ.
template <int I, int J>
inline void rotate_pair(Eigen::Isometry3d::LinearPart r, double c, double s) {
  const Eigen::Vector3d ci = r.col(I);
  const Eigen::Vector3d cj = r.col(J);
  r.col(I) = c * ci + s * cj;
  r.col(J) = c * cj - s * ci;
}

using detail::sin_cos;

void derivatives_of(const KinematicModel::Data& d, Workspace& ws, std::size_t body, int order) {
  const Node* nodes = d.nodes.data();
  if (nodes[body].depth == 0) return;
  const Eigen::Vector3d* axes = WorkspaceAccess::axes(ws).data();
  const Eigen::Vector3d* origins = WorkspaceAccess::origins(ws).data();
  const int* above = d.joint_above.data();
  const Eigen::Isometry3d& x = WorkspaceAccess::frames(ws)[body];
  // Entry a belongs to the joint at depth a + 1 on the way up from the body.
  Eigen::Matrix4d* first = WorkspaceAccess::d1(ws).data() + d.d1_offset[body];
  for (int jb = d.joint_up[body]; jb >= 0; jb = above[jb]) {
    const auto j = static_cast<std::size_t>(jb);
    const Eigen::Vector3d& w = axes[j];
    Eigen::Matrix4d& out = first[nodes[j].depth - 1];
    if (nodes[j].kind == MotionKind::prismatic) {
      out.topLeftCorner<3, 3>().setZero();
      out.block<3, 1>(0, 3) = w;
    } else {
      for (int c = 0; c < 3; ++c) out.col(c).head<3>() = w.cross(x.linear().col(c));
      out.block<3, 1>(0, 3) = w.cross(x.translation() - origins[j]);
    }
  }
  if (order < 2) return;
  Eigen::Matrix4d* second = WorkspaceAccess::d2(ws).data() + d.d2_offset[body];
  for (int jb = d.joint_up[body]; jb >= 0; jb = above[jb]) {
    const auto b = static_cast<std::size_t>(nodes[jb].depth - 1);
    const Eigen::Matrix4d& db = first[b];
    Eigen::Matrix4d* row = second + b * (b + 1) / 2;
    for (int ja = jb; ja >= 0; ja = above[ja]) {
      const auto j = static_cast<std::size_t>(ja);
      Eigen::Matrix4d& out = row[nodes[j].depth - 1];
      if (nodes[j].kind == MotionKind::prismatic) {
        out.topRows<3>().setZero();
      } else {
        const Eigen::Vector3d& w = axes[j];
        for (int c = 0; c < 4; ++c) out.col(c).head<3>() = w.cross(db.col(c).head<3>());
      }
    }
  }
}

void check_derivative_storage(const Workspace& ws, DerivativeOrder order) {
  if (ws.derivative_capacity() < order)
    throw InvalidArgument(fmt::format(
        "kinematics: the workspace holds derivatives up to order {}, {} asked (build the "
        "Workspace with a higher DerivativeOrder)",
        static_cast<int>(ws.derivative_capacity()), static_cast<int>(order)));
}

}  // namespace

void forward_kinematics(const KinematicModel& model, Workspace& ws, std::span<const double> q) {
  check_workspace(model, ws);
  const auto& d = model.data();
  if (q.size() != d.pose_size) throw SizeMismatch("kinematics: pose", d.pose_size, q.size());
  Eigen::Isometry3d* frames = WorkspaceAccess::frames(ws).data();
  Eigen::Vector3d* axes = WorkspaceAccess::axes(ws).data();
  Eigen::Vector3d* origins = WorkspaceAccess::origins(ws).data();
  const Node* nodes = d.nodes.data();
  const std::size_t n = d.size();
  // Body 0 is the base: identity frame, no joint (left as constructed).
  for (std::size_t k = 1; k < n; ++k) {
    const Node& nd = nodes[k];
    const Eigen::Isometry3d& parent = frames[nd.parent];
    Eigen::Isometry3d& x = frames[k];
    auto r = x.linear();
    auto p = x.translation();
    // Most joint origins of real models have no rotation, many no offset either: skip
    // the products that would multiply by the identity or by zero.
    if (nd.origin_rotated) r.noalias() = parent.linear() * nd.R;
    else r = parent.linear();
    if (nd.origin_translated) {
      p.noalias() = parent.linear() * nd.p;
      p += parent.translation();
    } else {
      p = parent.translation();
    }
    if (nd.kind == MotionKind::fixed) continue;
    const double theta = nd.scale * q[static_cast<std::size_t>(nd.q)] + nd.offset;
    origins[k] = p;
    switch (nd.kind) {
      case MotionKind::rot_x: {
        axes[k] = nd.scale * r.col(0);
        double s, c;
        sin_cos(theta, s, c);
        rotate_pair<1, 2>(r, c, s);
        break;
      }
      case MotionKind::rot_y: {
        axes[k] = nd.scale * r.col(1);
        double s, c;
        sin_cos(theta, s, c);
        rotate_pair<2, 0>(r, c, s);
        break;
      }
      case MotionKind::rot_z: {
        axes[k] = nd.scale * r.col(2);
        double s, c;
        sin_cos(theta, s, c);
        rotate_pair<0, 1>(r, c, s);
        break;
      }
      case MotionKind::rot_axis: {
        axes[k].noalias() = nd.scale * (r * nd.axis);
        double s, c;
        sin_cos(theta, s, c);
        const double v = 1.0 - c;
        const Eigen::Vector3d& u = nd.axis;
        Eigen::Matrix3d rot;
        rot << c + u.x() * u.x() * v, u.x() * u.y() * v - u.z() * s, u.x() * u.z() * v + u.y() * s,
            u.y() * u.x() * v + u.z() * s, c + u.y() * u.y() * v, u.y() * u.z() * v - u.x() * s,
            u.z() * u.x() * v - u.y() * s, u.z() * u.y() * v + u.x() * s, c + u.z() * u.z() * v;
        const Eigen::Matrix3d before = r;
        r.noalias() = before * rot;
        break;
      }
      case MotionKind::prismatic: {
        const Eigen::Vector3d u = r * nd.axis;
        axes[k].noalias() = nd.scale * u;
        p += theta * u;
        break;
      }
      case MotionKind::fixed:
        break;
    }
    if (nd.has_tip) p += r * nd.tip;
  }
}

void forward_kinematics(const KinematicModel& model, Workspace& ws, const KDL::JntArray& q) {
  forward_kinematics(model, ws,
                     std::span<const double>(q.data.data(), static_cast<std::size_t>(q.rows())));
}

void frame_derivatives(const KinematicModel& model, Workspace& ws, DerivativeOrder order) {
  check_workspace(model, ws);
  check_derivative_storage(ws, order);
  if (order == DerivativeOrder::none) return;
  const auto& d = model.data();
  for (std::size_t k = 0; k < d.size(); ++k) derivatives_of(d, ws, k, static_cast<int>(order));
}

void frame_derivatives(const KinematicModel& model, Workspace& ws, std::size_t body,
                       DerivativeOrder order) {
  check_workspace(model, ws);
  check_body(model, body);
  check_derivative_storage(ws, order);
  if (order == DerivativeOrder::none) return;
  derivatives_of(model.data(), ws, body, static_cast<int>(order));
}

}  // namespace rmodel::kinematics
