// Per-pose link frames and transform derivatives. Nothing here allocates.

#include "rmodel/kinematics/forward_kinematics.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "base/roll_pitch_yaw.hpp"
#include "kinematics/clones.hpp"
#include "kinematics/model_data.hpp"
#include "kinematics/sin_cos.hpp"
#include "rmodel/base/error.hpp"

// GCC notes that a 32-byte vector passed by value changes the ABI without AVX: the
// functions that do so here are internal and always inlined. (Not popped: GCC issues the
// note at the end of the translation unit, which a unity build shares with other files.)
#pragma GCC diagnostic ignored "-Wpsabi"

namespace rmodel::kinematics {
namespace {

/// One column of a frame's 4×4 matrix, all four rows in one vector (one AVX register; two
/// SSE2 registers in the baseline build). Rotation columns end in 0 and the translation in
/// 1, so sums of scaled columns keep the last row, and the loop below keeps a frame's four
/// columns in registers.
using FrameColumn = double __attribute__((vector_size(32)));

[[gnu::always_inline]] inline FrameColumn load_column(const Eigen::Matrix4d& m, int c) {
  FrameColumn out;
  std::memcpy(&out, m.data() + 4 * c, sizeof out);
  return out;
}

[[gnu::always_inline]] inline void store_column(Eigen::Matrix4d& m, int c, const FrameColumn& v) {
  std::memcpy(m.data() + 4 * c, &v, sizeof v);
}

/// The first three rows of a column.
[[gnu::always_inline]] inline Eigen::Vector3d head3(const FrameColumn& v) { return {v[0], v[1], v[2]}; }

/// A frame's four columns while a body's joint moves them.
struct FrameColumns {
  FrameColumn c0, c1, c2, t;

  /// The rotation part applied to v, as a column ending in 0.
  [[nodiscard]] [[gnu::always_inline]] FrameColumn rotate(const Eigen::Vector3d& v) const {
    return c0 * v.x() + c1 * v.y() + c2 * v.z();
  }
};

/// (a, b) ← (c·a + s·b, c·b − s·a): rotation columns a and b turned by θ about the third
/// axis, with c = cos θ, s = sin θ.
[[gnu::always_inline]] inline void rotate_pair(FrameColumn& a, FrameColumn& b, double c, double s) {
  const FrameColumn a0 = a;
  a = a0 * c + b * s;
  b = b * c - a0 * s;
}

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

// Compiled for AVX and for the baseline (kinematics/clones.hpp): a frame column is one
// register, and a fifth fewer instructions than SSE2's two-operand forms.
RMODEL_KINEMATICS_CLONES void forward_kinematics(const KinematicModel& model, Workspace& ws, std::span<const double> q) {
  check_workspace(model, ws);
  const auto& d = model.data();
  if (q.size() != d.pose_size) throw SizeMismatch("kinematics: pose", d.pose_size, q.size());
  Eigen::Isometry3d* frames = WorkspaceAccess::frames(ws).data();
  Eigen::Vector3d* axes = WorkspaceAccess::axes(ws).data();
  Eigen::Vector3d* origins = WorkspaceAccess::origins(ws).data();
  const Node* nodes = d.nodes.data();
  const std::size_t n = d.size();
  // Bodies go in batches: first the angles of the batch's revolute joints and all their
  // sines and cosines in one pass (independent of each other, four per vector operation),
  // then the frames down the batch, each from its parent's.
  constexpr std::size_t kBatch = 32;
  constexpr std::size_t kPadded = kBatch + detail::kSinCosLanes - 1;  // padding to whole passes
  double angle[kPadded], sine[kPadded], cosine[kPadded];
  // Body 0 is the base: identity frame, no joint (left as constructed).
  for (std::size_t first = 1; first < n; first += kBatch) {
    const std::size_t end = std::min(n, first + kBatch);
    std::size_t turning = 0;
    double poison = 0.0;  // 0·θ summed: NaN once an angle or a travel is NaN or infinite
    for (std::size_t k = first; k < end; ++k) {
      const Node& nd = nodes[k];
      if (nd.kind == MotionKind::fixed) continue;
      const double theta = nd.scale * q[static_cast<std::size_t>(nd.q)] + nd.offset;
      poison += 0.0 * theta;
      if (nd.kind != MotionKind::prismatic) angle[turning++] = theta;
    }
    for (std::size_t i = turning; i % detail::kSinCosLanes != 0; ++i) angle[i] = 0.0;
    detail::sin_cos(angle, sine, cosine, turning);
    turning = 0;
    // In a chain a body's parent is the body before it: its frame stays in registers, and
    // the next frame does not wait for a store and a load. Loaded from memory at each
    // batch's start, where the last-row repair below may have changed it.
    const Eigen::Matrix4d& before_batch = frames[first - 1].matrix();
    FrameColumns previous{load_column(before_batch, 0), load_column(before_batch, 1),
                          load_column(before_batch, 2), load_column(before_batch, 3)};
    for (std::size_t k = first; k < end; ++k) {
      const Node& nd = nodes[k];
      const Eigen::Matrix4d& parent = frames[nd.parent].matrix();
      const FrameColumns p = static_cast<std::size_t>(nd.parent) + 1 == k
                                 ? previous
                                 : FrameColumns{load_column(parent, 0), load_column(parent, 1),
                                                load_column(parent, 2), load_column(parent, 3)};
      // Most joint origins of real models have no rotation, many no offset either: skip
      // the products that would multiply by the identity or by zero.
      FrameColumns x = p;
      if (nd.origin_rotated) {
        x.c0 = p.rotate(nd.R.col(0));
        x.c1 = p.rotate(nd.R.col(1));
        x.c2 = p.rotate(nd.R.col(2));
      }
      if (nd.origin_translated) x.t = p.rotate(nd.p) + p.t;
      if (nd.kind != MotionKind::fixed) {
        origins[k] = head3(x.t);
        switch (nd.kind) {
          case MotionKind::rot_x:
            axes[k] = nd.scale * head3(x.c0);
            rotate_pair(x.c1, x.c2, cosine[turning], sine[turning]);
            ++turning;
            break;
          case MotionKind::rot_y:
            axes[k] = nd.scale * head3(x.c1);
            rotate_pair(x.c2, x.c0, cosine[turning], sine[turning]);
            ++turning;
            break;
          case MotionKind::rot_z:
            axes[k] = nd.scale * head3(x.c2);
            rotate_pair(x.c0, x.c1, cosine[turning], sine[turning]);
            ++turning;
            break;
          case MotionKind::rot_axis: {
            axes[k] = nd.scale * head3(x.rotate(nd.axis));
            const double c = cosine[turning];
            const double s = sine[turning];
            ++turning;
            const double v = 1.0 - c;
            const Eigen::Vector3d& u = nd.axis;
            Eigen::Matrix3d rot;
            rot << c + u.x() * u.x() * v, u.x() * u.y() * v - u.z() * s, u.x() * u.z() * v + u.y() * s,
                u.y() * u.x() * v + u.z() * s, c + u.y() * u.y() * v, u.y() * u.z() * v - u.x() * s,
                u.z() * u.x() * v - u.y() * s, u.z() * u.y() * v + u.x() * s, c + u.z() * u.z() * v;
            const FrameColumns before = x;
            x.c0 = before.rotate(rot.col(0));
            x.c1 = before.rotate(rot.col(1));
            x.c2 = before.rotate(rot.col(2));
            break;
          }
          case MotionKind::prismatic: {
            const double theta = nd.scale * q[static_cast<std::size_t>(nd.q)] + nd.offset;
            const FrameColumn u = x.rotate(nd.axis);
            axes[k] = nd.scale * head3(u);
            x.t = x.t + u * theta;
            break;
          }
          case MotionKind::fixed:
            break;
        }
        if (nd.has_tip) x.t = x.t + x.rotate(nd.tip);
      }
      Eigen::Matrix4d& out = frames[k].matrix();
      store_column(out, 0, x.c0);
      store_column(out, 1, x.c1);
      store_column(out, 2, x.c2);
      store_column(out, 3, x.t);
      previous = x;
    }
    // A NaN or infinite angle made 0·NaN in the last rows below it: keep them (0 0 0 1).
    if (poison != 0.0) [[unlikely]] {
      for (std::size_t k = first; k < end; ++k) frames[k].matrix().row(3) << 0.0, 0.0, 0.0, 1.0;
    }
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

std::array<double, 3> roll_pitch_yaw(const Eigen::Matrix3d& r) {
  const double m[9] = {r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0), r(2, 1), r(2, 2)};
  return rmodel::detail::roll_pitch_yaw(m);
}

}  // namespace rmodel::kinematics
