// Fixed-root dynamics: recursive Newton–Euler, gravity and Coriolis torques, and the mass
// matrix by composite rigid bodies. Every per-pose function allocates nothing.
//
// The passes work in the base frame with spatial vectors split into 3-vectors taken at the
// base origin (Featherstone's "ground coordinates"): the link frames of forward_kinematics
// give every body's axis and inertia in that frame, and a force needs no transform on its
// way from a body to its parent. Gravity is folded into body 0's acceleration (−g).

#include <algorithm>

#include "kinematics/dynamics_data.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/kinematics/forward_kinematics.hpp"

namespace rmodel::dynamics {
namespace {

/// A body's joint as a spatial motion per unit q (scale included): angular, linear parts.
struct MotionAxis {
  Eigen::Vector3d angular;
  Eigen::Vector3d linear;
};

inline MotionAxis motion_axis(const DynamicBody& b, const BodyState& s) {
  if (b.joint == JointKind::prismatic) return {Eigen::Vector3d::Zero(), b.scale * s.u};
  const Eigen::Vector3d angular = b.scale * s.u;
  return {angular, s.o.cross(angular)};
}

/// Sets st.states[k].u and .o for every jointed body from the frames of the last FK.
void place_axes(DynamicsWorkspace::State& st) {
  const auto frames = st.kin.frames();
  for (std::size_t k = 1; k < st.bodies.size(); ++k) {
    const DynamicBody& b = st.bodies[k];
    if (b.joint == JointKind::none) continue;
    BodyState& s = st.states[k];
    const Eigen::Isometry3d& x = frames[k];
    s.u.noalias() = x.linear() * b.axis;
    s.o = x.translation();
    if (b.has_tip) s.o.noalias() -= x.linear() * b.tip;
  }
}

bool massive(const kinematics::LinkInertial& in) { return in.mass != 0.0 || !in.inertia.isZero(0.0); }

/// An inertial summed about one frame's origin: mass, first moment Σ m·c, and the rotational
/// inertia about the origin, all in that frame.
struct InertiaSum {
  double mass = 0.0;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();

  /// Adds a body of mass m, centre of mass c and inertia I about c, whose axes are `x`'s
  /// rotation of this frame's (c and I given in the body's frame, placed by `x`).
  void add(const Eigen::Isometry3d& x, double m, const Eigen::Vector3d& c, const Eigen::Matrix3d& I) {
    const Eigen::Vector3d at = x * c;
    mass += m;
    moment += m * at;
    inertia.noalias() += x.linear() * I * x.linear().transpose();
    inertia += m * (at.squaredNorm() * Eigen::Matrix3d::Identity() - at * at.transpose());
  }
};

/// The moving bodies of the model, each with the bodies rigidly attached below it folded into
/// its inertial (bodies rigid with the root are left out: the root does not move). The rigid
/// transforms come from the frames at q = 0: between a moving body and what hangs rigidly
/// from it no joint moves, so they hold at every pose.
std::vector<CrbaBody> crba_bodies(const KinematicModel& km, kinematics::Workspace& kin,
                                  const std::vector<DynamicBody>& bodies) {
  const auto& d = km.data();
  const std::size_t n = bodies.size();
  const std::vector<double> zeros(km.pose_size(), 0.0);
  kinematics::forward_kinematics(km, kin, zeros);
  const auto frames = kin.frames();
  std::vector<CrbaBody> out;
  std::vector<InertiaSum> sums;
  std::vector<int> owner(n, -1);  // per body: its entry of `out`, or the one it is folded into
  for (std::size_t k = 1; k < n; ++k) {
    const int up = owner[static_cast<std::size_t>(bodies[k].parent)];
    if (d.nodes[k].q >= 0) {
      CrbaBody c;
      c.body = k;
      c.parent = up;
      out.push_back(c);
      sums.emplace_back();
      owner[k] = static_cast<int>(out.size() - 1);
    } else {
      owner[k] = up;
    }
    if (owner[k] < 0 || !bodies[k].massive) continue;
    const auto o = static_cast<std::size_t>(owner[k]);
    const Eigen::Isometry3d relative = frames[out[o].body].inverse() * frames[k];
    sums[o].add(relative, bodies[k].mass, bodies[k].com, bodies[k].inertia);
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    const InertiaSum& sum = sums[i];
    CrbaBody& c = out[i];
    c.massive = sum.mass != 0.0 || !sum.inertia.isZero(0.0);
    c.mass = sum.mass;
    c.com = sum.mass != 0.0 ? Eigen::Vector3d(sum.moment / sum.mass) : Eigen::Vector3d::Zero();
    c.inertia = sum.inertia - c.mass * (c.com.squaredNorm() * Eigen::Matrix3d::Identity() - c.com * c.com.transpose());
  }
  return out;
}

}  // namespace

Eigen::Vector3d standard_gravity() noexcept { return {0.0, 0.0, -9.81}; }

// ---- workspace ----

DynamicsWorkspace::State::State(const KinematicModel& km, std::size_t max_points)
    : model(km.shared_data()), kin(km) {
  const auto& d = km.data();
  const std::size_t n = d.size();
  bodies.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const kinematics::Body& body = d.bodies[k];
    const kinematics::Node& node = d.nodes[k];
    DynamicBody& b = bodies[k];
    b.parent = body.parent;
    b.q = node.q;  // −1 for fixed joints and joints outside the pose
    b.scale = body.scale;
    b.axis = body.axis.normalized();
    b.tip = body.tip;
    b.has_tip = !body.tip.isZero(0.0);
    if (k > 0 && body.motion == kinematics::JointMotion::revolute) b.joint = JointKind::revolute;
    if (k > 0 && body.motion == kinematics::JointMotion::prismatic) b.joint = JointKind::prismatic;
    b.mass = body.inertial.mass;
    b.com = body.inertial.com;
    b.inertia = body.inertial.inertia;
    b.massive = massive(body.inertial);
  }
  states.resize(n);
  torque.assign(n, 0.0);
  crba = crba_bodies(km, kin, bodies);
  crba_composites.resize(crba.size());
  crba_axes.resize(crba.size());
  contacts.resize(max_points);
  weights.assign(max_points, 0.0);
}

DynamicsWorkspace::DynamicsWorkspace(const KinematicModel& model, std::size_t max_contact_points)
    : state_(std::make_unique<State>(model, max_contact_points)) {}
DynamicsWorkspace::~DynamicsWorkspace() = default;
DynamicsWorkspace::DynamicsWorkspace(DynamicsWorkspace&&) noexcept = default;
DynamicsWorkspace& DynamicsWorkspace::operator=(DynamicsWorkspace&&) noexcept = default;

bool DynamicsWorkspace::belongs_to(const KinematicModel& model) const noexcept {
  return state_->model.get() == model.shared_data().get();
}
const kinematics::Workspace& DynamicsWorkspace::kinematics() const noexcept { return state_->kin; }
double DynamicsWorkspace::joint_torque(std::size_t body) const noexcept { return state_->torque[body]; }
const Wrench& DynamicsWorkspace::base_wrench() const noexcept { return state_->base; }
const Wrench& DynamicsWorkspace::unbalanced_wrench() const noexcept { return state_->unbalanced; }
std::span<const DynamicsWorkspace::ContactForce> DynamicsWorkspace::contact_forces() const noexcept {
  return {state_->contacts.data(), state_->contact_count};
}

// ---- shared passes ----

void check_pose_sized(const KinematicModel& model, std::span<const double> values, const char* what) {
  if (values.size() != model.pose_size()) throw SizeMismatch(what, model.pose_size(), values.size());
}

void check_call(const KinematicModel& model, const DynamicsWorkspace::State& st, std::span<const double> q,
                std::span<double> tau) {
  if (st.model.get() != model.shared_data().get())
    throw InvalidArgument("dynamics: the workspace was built for another kinematic model");
  check_pose_sized(model, q, "dynamics: pose");
  check_pose_sized(model, tau, "dynamics: torques");
}

void forward_pass(DynamicsWorkspace::State& st, std::span<const double> qd, std::span<const double> qdd) {
  place_axes(st);
  const auto frames = st.kin.frames();
  const std::size_t n = st.bodies.size();
  const bool moving = !qd.empty();
  const bool accelerating = !qdd.empty();
  for (std::size_t k = 0; k < n; ++k) {
    const DynamicBody& b = st.bodies[k];
    BodyState& s = st.states[k];
    if (k > 0) {
      const BodyState& p = st.states[static_cast<std::size_t>(b.parent)];
      s.w = p.w;
      s.v = p.v;
      s.al = p.al;
      s.a = p.a;
      if (b.q >= 0) {
        const auto slot = static_cast<std::size_t>(b.q);
        const MotionAxis m = motion_axis(b, s);
        if (moving) {
          const double rate = qd[slot];
          const Eigen::Vector3d wj = m.angular * rate;
          const Eigen::Vector3d vj = m.linear * rate;
          // The velocity-product term v × (S q̇); the parent's velocity gives the same, as
          // S q̇ × S q̇ = 0.
          s.al.noalias() += p.w.cross(wj);
          s.a.noalias() += p.w.cross(vj) + p.v.cross(wj);
          s.w += wj;
          s.v += vj;
        }
        if (accelerating) {
          s.al.noalias() += m.angular * qdd[slot];
          s.a.noalias() += m.linear * qdd[slot];
        }
      }
    }
    if (!b.massive) {
      s.n.setZero();
      s.f.setZero();
      continue;
    }
    // Newton–Euler at the centre of mass c, the moment moved to the origin:
    //   f = m (a + α × c) + ω × m (v + ω × c),   n = I_c α + ω × I_c ω + c × f.
    const Eigen::Isometry3d& x = frames[k];
    const auto r = x.linear();
    const Eigen::Vector3d c = r * b.com + x.translation();
    const Eigen::Vector3d ac = s.a + s.al.cross(c);
    if (moving) {
      const Eigen::Vector3d vc = s.v + s.w.cross(c);
      s.f.noalias() = b.mass * ac + s.w.cross(b.mass * vc);
      const Eigen::Vector3d wl = r.transpose() * s.w;
      const Eigen::Vector3d al = r.transpose() * s.al;
      const Eigen::Vector3d local = b.inertia * al + wl.cross(b.inertia * wl);
      s.n.noalias() = r * local + c.cross(s.f);
    } else {
      s.f.noalias() = b.mass * ac;
      const Eigen::Vector3d al = r.transpose() * s.al;
      s.n.noalias() = r * (b.inertia * al) + c.cross(s.f);
    }
  }
}

void backward_pass(DynamicsWorkspace::State& st, std::span<double> tau) {
  std::fill(tau.begin(), tau.end(), 0.0);
  for (std::size_t k = st.bodies.size(); k-- > 1;) {
    const DynamicBody& b = st.bodies[k];
    const BodyState& s = st.states[k];
    double t = 0.0;
    if (b.joint == JointKind::revolute) t = s.u.dot(s.n - s.o.cross(s.f));
    else if (b.joint == JointKind::prismatic) t = s.u.dot(s.f);
    st.torque[k] = t;
    if (b.q >= 0) tau[static_cast<std::size_t>(b.q)] += b.scale * t;
    BodyState& p = st.states[static_cast<std::size_t>(b.parent)];
    p.n += s.n;
    p.f += s.f;
  }
}

// ---- fixed root ----

namespace {

/// RNEA with body 0 fixed; qd and qdd may be empty (zero).
void fixed_root_rnea(const KinematicModel& model, DynamicsWorkspace::State& st, std::span<const double> q,
                     std::span<const double> qd, std::span<const double> qdd, std::span<double> tau,
                     const Eigen::Vector3d& gravity) {
  kinematics::forward_kinematics(model, st.kin, q);
  BodyState& base = st.states[0];
  base.w.setZero();
  base.v.setZero();
  base.al.setZero();
  base.a = -gravity;
  forward_pass(st, qd, qdd);
  backward_pass(st, tau);
}

}  // namespace

void inverse_dynamics(const KinematicModel& model, DynamicsWorkspace& ws, std::span<const double> q,
                      std::span<const double> qd, std::span<const double> qdd, std::span<double> tau,
                      const Eigen::Vector3d& gravity) {
  auto& st = DynamicsAccess::state(ws);
  check_call(model, st, q, tau);
  check_pose_sized(model, qd, "dynamics: velocities");
  check_pose_sized(model, qdd, "dynamics: accelerations");
  fixed_root_rnea(model, st, q, qd, qdd, tau, gravity);
}

void gravity_torques(const KinematicModel& model, DynamicsWorkspace& ws, std::span<const double> q,
                     std::span<double> tau, const Eigen::Vector3d& gravity) {
  auto& st = DynamicsAccess::state(ws);
  check_call(model, st, q, tau);
  kinematics::forward_kinematics(model, st.kin, q);
  place_axes(st);
  // At rest with the root fixed every body's acceleration is −g: its force is its weight's
  // opposite at its centre of mass, so the forward pass reduces to that.
  const auto frames = st.kin.frames();
  for (std::size_t k = 0; k < st.bodies.size(); ++k) {
    const DynamicBody& b = st.bodies[k];
    BodyState& s = st.states[k];
    if (!b.massive) {
      s.n.setZero();
      s.f.setZero();
      continue;
    }
    const Eigen::Vector3d c = frames[k] * b.com;
    s.f = -b.mass * gravity;
    s.n = c.cross(s.f);
  }
  backward_pass(st, tau);
}

void coriolis_torques(const KinematicModel& model, DynamicsWorkspace& ws, std::span<const double> q,
                      std::span<const double> qd, std::span<double> tau) {
  auto& st = DynamicsAccess::state(ws);
  check_call(model, st, q, tau);
  check_pose_sized(model, qd, "dynamics: velocities");
  fixed_root_rnea(model, st, q, qd, {}, tau, Eigen::Vector3d::Zero());
}

void mass_matrix(const KinematicModel& model, DynamicsWorkspace& ws, std::span<const double> q,
                 Eigen::MatrixXd& M) {
  auto& st = DynamicsAccess::state(ws);
  if (st.model.get() != model.shared_data().get())
    throw InvalidArgument("dynamics: the workspace was built for another kinematic model");
  check_pose_sized(model, q, "dynamics: pose");
  const auto size = static_cast<Eigen::Index>(model.pose_size());
  if (M.rows() != size || M.cols() != size) M.resize(size, size);
  M.setZero();
  kinematics::forward_kinematics(model, st.kin, q);
  const auto frames = st.kin.frames();
  const std::size_t n = st.crba.size();
  // Each moving body's joint motion and inertia (its rigid attachments folded in) about the
  // base origin, then summed over subtrees from the leaves.
  for (std::size_t i = 0; i < n; ++i) {
    const CrbaBody& cb = st.crba[i];
    const DynamicBody& b = st.bodies[cb.body];
    const Eigen::Isometry3d& x = frames[cb.body];
    MotionVector& s = st.crba_axes[i];
    const Eigen::Vector3d u = x.linear() * b.axis;
    if (b.joint == JointKind::prismatic) {
      s.angular.setZero();
      s.linear = b.scale * u;
    } else {
      Eigen::Vector3d o = x.translation();
      if (b.has_tip) o.noalias() -= x.linear() * b.tip;
      s.angular = b.scale * u;
      s.linear = o.cross(s.angular);
    }
    Composite& c = st.crba_composites[i];
    if (!cb.massive) {
      c = Composite{};
      continue;
    }
    const Eigen::Vector3d com = x.linear() * cb.com + x.translation();
    c.mass = cb.mass;
    c.moment = cb.mass * com;
    c.inertia.noalias() = x.linear() * cb.inertia * x.linear().transpose();
    c.inertia += cb.mass * (com.squaredNorm() * Eigen::Matrix3d::Identity() - com * com.transpose());
  }
  for (std::size_t i = n; i-- > 0;) {
    const int parent = st.crba[i].parent;
    if (parent < 0) continue;
    const Composite& c = st.crba_composites[i];
    Composite& p = st.crba_composites[static_cast<std::size_t>(parent)];
    p.mass += c.mass;
    p.moment += c.moment;
    p.inertia += c.inertia;
  }
  // Column of body i: the force F = I_i^c S_i its subtree needs for a unit q̇ of its joint,
  // projected on the joints above it (their rows). Sums (+=) let several bodies share a slot.
  for (std::size_t i = 0; i < n; ++i) {
    const Composite& c = st.crba_composites[i];
    const MotionVector& si = st.crba_axes[i];
    // Spatial inertia times a motion (ω, v): momentum p = m v + ω × h, L = I_O ω + h × v.
    const Eigen::Vector3d p = c.mass * si.linear + si.angular.cross(c.moment);
    const Eigen::Vector3d l = c.inertia * si.angular + c.moment.cross(si.linear);
    const auto qi = static_cast<Eigen::Index>(st.bodies[st.crba[i].body].q);
    M(qi, qi) += si.angular.dot(l) + si.linear.dot(p);
    for (int j = st.crba[i].parent; j >= 0; j = st.crba[static_cast<std::size_t>(j)].parent) {
      const MotionVector& sj = st.crba_axes[static_cast<std::size_t>(j)];
      const double value = sj.angular.dot(l) + sj.linear.dot(p);
      const auto qj = static_cast<Eigen::Index>(st.bodies[st.crba[static_cast<std::size_t>(j)].body].q);
      M(qj, qi) += value;
      M(qi, qj) += value;
    }
  }
}

}  // namespace rmodel::dynamics
