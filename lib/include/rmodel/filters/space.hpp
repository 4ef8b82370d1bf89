#pragma once
#include "rmodel/export.hpp"
/// @file space.hpp
/// The value types the filters run on, described once so that every filter is written once.
///
/// Each supported value type `V` has a `Space<V>` describing it as a (Lie-group-like) space:
/// - `Tangent`: the type of differences and velocities (`V` itself for vector spaces; a
///   rotation vector for rotations; a twist for poses);
/// - `local(a, b)`: `b ⊖ a`, the tangent taking `a` to `b`;
/// - `retract(a, d)`: `a ⊕ d`, the value reached from `a` by the tangent `d`;
/// - `scale_within(d, bound, s_max)`: the largest `s <= s_max` with `|s·d| <= bound`;
/// - `Bound`: the type of a magnitude bound (`double`, or `LinearAngular` for poses/twists).
///
/// For vector spaces `local`/`retract` return Eigen expressions, so a filter step such as
/// `y = x ⊕ a·(u ⊖ x)` on a joint array compiles to one fused loop with no temporaries.
///
/// Supported types and their conventions (V: tangent; magnitude compared with bounds):
/// - `double`: double; the absolute value.
/// - `Eigen::VectorXd`, fixed-size `Eigen::Matrix<double, N, 1>`, `KDL::JntArray` (joint
///   arrays): the same type; the largest absolute component, so every joint obeys a bound.
/// - `KDL::Vector` (Vector3): KDL::Vector; the Euclidean length.
/// - `KDL::Twist`: KDL::Twist; the lengths of `vel` and `rot`, each against its own bound.
/// - `Eigen::Quaterniond`: Eigen::Vector3d; the rotation angle.
/// - `KDL::Rotation`: KDL::Vector; the rotation angle.
/// - `KDL::Frame` (Pose): KDL::Twist; the translation length and the rotation angle, each
///   against its own bound.
///
/// Rotation tangents are rotation vectors (axis·angle, rad) expressed in the reference
/// (world) frame, as KDL's `Twist::rot`: `b = exp(r)·a`, and an angular velocity ω (rad/s)
/// moves an orientation by `q' = ½ ω ⊗ q`. Pose tangents are `Twist(Δp, Δθ)` with the
/// translation and rotation treated separately (R³ × SO(3)), the velocity of the frame's
/// origin and the angular velocity, both in the reference frame.
/// Bounds never change the direction of a step: the step is scaled as a whole.

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>

namespace rmodel::filters {

/// A pair of bounds for values with a translational and a rotational part (poses,
/// twists): units are those of the quantity bounded, e.g. m/s and rad/s for speeds.
struct RMODEL_API LinearAngular {
  double linear = 0.0;   ///< bound on the translational part (m, m/s, m/s², ...)
  double angular = 0.0;  ///< bound on the rotational part (rad, rad/s, rad/s², ...)
};

template <class V>
struct Space;  // specialised below for every supported value type

namespace detail {

/// The linear-algebra object behind a value: `KDL::JntArray` is its `.data`; everything
/// else is itself. Lets one formula serve both.
template <class T>
constexpr T& lin(T& v) noexcept {
  return v;
}
inline Eigen::VectorXd& lin(KDL::JntArray& v) noexcept { return v.data; }
inline const Eigen::VectorXd& lin(const KDL::JntArray& v) noexcept { return v.data; }

/// `lin(dst) = lin(src)`; resizes arrays (so only for start/configuration).
template <class T>
void copy_value(T& dst, const T& src) {
  lin(dst) = lin(src);
}

/// Swaps two values; O(1) for dynamic-size arrays, which is why filters use it to rotate
/// buffers instead of copying.
template <class T>
void swap_values(T& a, T& b) noexcept {
  if constexpr (std::is_base_of_v<Eigen::PlainObjectBase<T>, T>) {
    a.swap(b);
  } else if constexpr (std::is_same_v<T, KDL::JntArray>) {
    a.data.swap(b.data);
  } else {
    std::swap(a, b);
  }
}

/// True for the array types whose size is set at run time.
template <class T>
inline constexpr bool is_dynamic_array_v = std::is_same_v<T, KDL::JntArray>;
template <int Options, int MaxRows>
inline constexpr bool is_dynamic_array_v<Eigen::Matrix<double, Eigen::Dynamic, 1, Options, MaxRows, 1>> =
    true;

/// Number of scalars in an array value; 1 for every other type (whose size never varies).
template <class T>
Eigen::Index value_size(const T& v) noexcept {
  if constexpr (std::is_base_of_v<Eigen::PlainObjectBase<T>, T>) {
    return v.size();
  } else if constexpr (std::is_same_v<T, KDL::JntArray>) {
    return v.data.size();
  } else {
    (void)v;
    return 1;
  }
}

/// `lin(dst) = e` for an expression or value `e` of the same size (no allocation).
template <class T, class E>
void assign(T& dst, const E& e) {
  lin(dst) = e;
}

/// Sets `dst` to zero with the size of `like` (tangent buffers); no allocation when the
/// size is unchanged, so a restart from a same-size value never allocates.
template <class T, class L>
void zero_like(T& dst, const L& like) {
  auto& d = lin(dst);
  using D = std::remove_reference_t<decltype(d)>;
  if constexpr (std::is_base_of_v<Eigen::PlainObjectBase<D>, D>) {
    if constexpr (D::SizeAtCompileTime == Eigen::Dynamic) d.setZero(value_size(like));
    else d.setZero();
  } else {
    d = D{};  // double, KDL::Vector and KDL::Twist value-initialise to zero
  }
}

/// Checks (in debug builds, through eigen_assert) that an input has the configured size;
/// release builds trust the caller, as Eigen does. The type-erased filters of registry.hpp
/// check sizes always.
template <class A, class B>
void assert_same_size([[maybe_unused]] const A& a, [[maybe_unused]] const B& b) noexcept {
  if constexpr (is_dynamic_array_v<A> && is_dynamic_array_v<B>) {
    eigen_assert(value_size(a) == value_size(b) && "filter input size differs from its state");
  }
}

/// The largest `s <= s_max` with `s·magnitude <= bound` (bound >= 0, may be +inf).
inline double limited_scale(double magnitude, double bound, double s_max) noexcept {
  // Written as a product so that magnitude 0 and bound +inf need no special case.
  return magnitude * s_max > bound ? bound / magnitude : s_max;
}

/// Rotation vector (rad, reference frame) of the shortest rotation r with b = exp(r)·a.
/// Scale-invariant, so slightly non-unit inputs do no harm.
inline Eigen::Vector3d quat_log_diff(const Eigen::Quaterniond& a,
                                     const Eigen::Quaterniond& b) noexcept {
  Eigen::Quaterniond r = b * a.conjugate();
  // q and -q are the same rotation; w >= 0 selects the shorter way round.
  if (r.w() < 0.0) r.coeffs() = -r.coeffs();
  const double n = r.vec().norm();
  // atan2 stays accurate for tiny and near-π angles alike; for tiny n the limit is 2/w.
  const double factor = n > 1e-9 ? 2.0 * std::atan2(n, r.w()) / n : 2.0 / r.w();
  return factor * r.vec();
}

/// Unit quaternion exp(r) of a rotation vector r (rad).
template <class D>
Eigen::Quaterniond quat_exp(const Eigen::MatrixBase<D>& r) noexcept {
  const double angle = r.norm();
  const double half = 0.5 * angle;
  // sin(θ/2)/θ → 1/2 as θ → 0; below 1e-9 the series' next term is under 1e-19.
  const double k = angle > 1e-9 ? std::sin(half) / angle : 0.5;
  return Eigen::Quaterniond(std::cos(half), k * r.x(), k * r.y(), k * r.z());
}

inline Eigen::Quaterniond to_quat(const KDL::Rotation& rot) noexcept {
  return Eigen::Quaterniond(
      Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(rot.data));
}

inline KDL::Rotation to_rotation(const Eigen::Quaterniond& q) noexcept {
  KDL::Rotation rot;
  Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(rot.data) = q.toRotationMatrix();
  return rot;
}

inline Eigen::Vector3d to_eigen(const KDL::Vector& v) noexcept {
  return {v.x(), v.y(), v.z()};
}
inline KDL::Vector to_kdl(const Eigen::Vector3d& v) noexcept { return {v.x(), v.y(), v.z()}; }

inline double norm(const KDL::Vector& v) noexcept {
  // KDL::Vector::Norm() returns 0 when every component is below KDL::epsilon (1e-6),
  // which would let small steps through unbounded.
  return std::sqrt(KDL::dot(v, v));
}

template <class Derived>
struct VectorSpaceBase {
  static constexpr bool linear = true;
  template <class A, class B>
  static auto local(const A& a, const B& b) noexcept {
    return lin(b) - lin(a);
  }
  template <class A, class D>
  static auto retract(const A& a, const D& d) noexcept {
    return lin(a) + d;
  }
};

template <class T>
inline constexpr bool is_eigen_vector_v = false;
template <int Rows, int Options, int MaxRows>
inline constexpr bool is_eigen_vector_v<Eigen::Matrix<double, Rows, 1, Options, MaxRows, 1>> =
    true;

}  // namespace detail

/// Scalars.
template <>
struct Space<double> : detail::VectorSpaceBase<Space<double>> {
  using Value = double;
  using Tangent = double;
  using Bound = double;
  static double identity() noexcept { return 0.0; }
  static double zero_tangent(double /*like*/) noexcept { return 0.0; }
  static double scale_within(double d, double bound, double s_max) noexcept {
    return detail::limited_scale(std::abs(d), bound, s_max);
  }
};

/// Joint arrays as Eigen column vectors (dynamic or fixed size).
template <int Rows, int Options, int MaxRows>
struct Space<Eigen::Matrix<double, Rows, 1, Options, MaxRows, 1>>
    : detail::VectorSpaceBase<Space<Eigen::Matrix<double, Rows, 1, Options, MaxRows, 1>>> {
  using Value = Eigen::Matrix<double, Rows, 1, Options, MaxRows, 1>;
  using Tangent = Value;
  using Bound = double;
  /// Zero; size 0 for dynamic arrays (pass a sized value to the filters instead).
  static Value identity() { return Rows == Eigen::Dynamic ? Value() : Value::Zero(); }
  static Value zero_tangent(const Value& like) { return Value::Zero(like.size()); }
  template <class D>
  static double scale_within(const Eigen::MatrixBase<D>& d, double bound, double s_max) noexcept {
    return detail::limited_scale(d.template lpNorm<Eigen::Infinity>(), bound, s_max);
  }
};

/// KDL joint arrays: arithmetic on `.data`.
template <>
struct Space<KDL::JntArray> : detail::VectorSpaceBase<Space<KDL::JntArray>> {
  using Value = KDL::JntArray;
  using Tangent = KDL::JntArray;
  using Bound = double;
  static KDL::JntArray identity() { return {}; }
  static KDL::JntArray zero_tangent(const KDL::JntArray& like) {
    KDL::JntArray z(like.rows());
    z.data.setZero();
    return z;
  }
  template <class D>
  static double scale_within(const Eigen::MatrixBase<D>& d, double bound, double s_max) noexcept {
    return detail::limited_scale(d.template lpNorm<Eigen::Infinity>(), bound, s_max);
  }
};

/// Cartesian vectors (Vector3), bounded by Euclidean length.
template <>
struct Space<KDL::Vector> : detail::VectorSpaceBase<Space<KDL::Vector>> {
  using Value = KDL::Vector;
  using Tangent = KDL::Vector;
  using Bound = double;
  static KDL::Vector identity() noexcept { return KDL::Vector::Zero(); }
  static KDL::Vector zero_tangent(const KDL::Vector& /*like*/) noexcept {
    return KDL::Vector::Zero();
  }
  static double scale_within(const KDL::Vector& d, double bound, double s_max) noexcept {
    return detail::limited_scale(detail::norm(d), bound, s_max);
  }
};

/// Twists as signals (e.g. velocity commands); linear and angular parts bounded apart
/// because their units differ.
template <>
struct Space<KDL::Twist> : detail::VectorSpaceBase<Space<KDL::Twist>> {
  using Value = KDL::Twist;
  using Tangent = KDL::Twist;
  using Bound = LinearAngular;
  static KDL::Twist identity() noexcept { return KDL::Twist::Zero(); }
  static KDL::Twist zero_tangent(const KDL::Twist& /*like*/) noexcept {
    return KDL::Twist::Zero();
  }
  static double scale_within(const KDL::Twist& d, const LinearAngular& bound,
                             double s_max) noexcept {
    return std::min(detail::limited_scale(detail::norm(d.vel), bound.linear, s_max),
                    detail::limited_scale(detail::norm(d.rot), bound.angular, s_max));
  }
};

/// Orientations as unit quaternions; tangent = rotation vector in the reference frame.
template <>
struct Space<Eigen::Quaterniond> {
  using Value = Eigen::Quaterniond;
  using Tangent = Eigen::Vector3d;
  using Bound = double;
  static constexpr bool linear = false;
  static Eigen::Quaterniond identity() noexcept { return Eigen::Quaterniond::Identity(); }
  static Eigen::Vector3d zero_tangent(const Eigen::Quaterniond& /*like*/) noexcept {
    return Eigen::Vector3d::Zero();
  }
  static Eigen::Vector3d local(const Eigen::Quaterniond& a,
                               const Eigen::Quaterniond& b) noexcept {
    return detail::quat_log_diff(a, b);
  }
  template <class D>
  static Eigen::Quaterniond retract(const Eigen::Quaterniond& a,
                                    const Eigen::MatrixBase<D>& d) noexcept {
    // Renormalising every step keeps long integrations on the unit sphere.
    return (detail::quat_exp(d) * a).normalized();
  }
  template <class D>
  static double scale_within(const Eigen::MatrixBase<D>& d, double bound,
                             double s_max) noexcept {
    return detail::limited_scale(d.norm(), bound, s_max);
  }
  /// Lie bracket of so(3) in the reference frame: a × b.
  template <class A, class B>
  static Eigen::Vector3d bracket(const Eigen::MatrixBase<A>& a,
                                 const Eigen::MatrixBase<B>& b) noexcept {
    return Eigen::Vector3d(a).cross(Eigen::Vector3d(b));
  }
};

/// Orientations as KDL rotation matrices; computed through quaternions so results stay
/// orthonormal to rounding.
template <>
struct Space<KDL::Rotation> {
  using Value = KDL::Rotation;
  using Tangent = KDL::Vector;
  using Bound = double;
  static constexpr bool linear = false;
  static KDL::Rotation identity() noexcept { return KDL::Rotation::Identity(); }
  static KDL::Vector zero_tangent(const KDL::Rotation& /*like*/) noexcept {
    return KDL::Vector::Zero();
  }
  static KDL::Vector local(const KDL::Rotation& a, const KDL::Rotation& b) noexcept {
    return detail::to_kdl(detail::quat_log_diff(detail::to_quat(a), detail::to_quat(b)));
  }
  static KDL::Rotation retract(const KDL::Rotation& a, const KDL::Vector& d) noexcept {
    return detail::to_rotation(
        (detail::quat_exp(detail::to_eigen(d)) * detail::to_quat(a)).normalized());
  }
  static double scale_within(const KDL::Vector& d, double bound, double s_max) noexcept {
    return detail::limited_scale(detail::norm(d), bound, s_max);
  }
  static KDL::Vector bracket(const KDL::Vector& a, const KDL::Vector& b) noexcept {
    return a * b;  // KDL's cross product
  }
};

/// Poses (KDL::Frame) as position × orientation; tangent = Twist(Δp, Δθ) in the reference
/// frame.
template <>
struct Space<KDL::Frame> {
  using Value = KDL::Frame;
  using Tangent = KDL::Twist;
  using Bound = LinearAngular;
  static constexpr bool linear = false;
  static KDL::Frame identity() noexcept { return KDL::Frame::Identity(); }
  static KDL::Twist zero_tangent(const KDL::Frame& /*like*/) noexcept {
    return KDL::Twist::Zero();
  }
  static KDL::Twist local(const KDL::Frame& a, const KDL::Frame& b) noexcept {
    return {b.p - a.p,
            detail::to_kdl(detail::quat_log_diff(detail::to_quat(a.M), detail::to_quat(b.M)))};
  }
  static KDL::Frame retract(const KDL::Frame& a, const KDL::Twist& d) noexcept {
    return {detail::to_rotation(
                (detail::quat_exp(detail::to_eigen(d.rot)) * detail::to_quat(a.M)).normalized()),
            a.p + d.vel};
  }
  static double scale_within(const KDL::Twist& d, const LinearAngular& bound,
                             double s_max) noexcept {
    return std::min(detail::limited_scale(detail::norm(d.vel), bound.linear, s_max),
                    detail::limited_scale(detail::norm(d.rot), bound.angular, s_max));
  }
  /// Only the rotations fail to commute.
  static KDL::Twist bracket(const KDL::Twist& a, const KDL::Twist& b) noexcept {
    return {KDL::Vector::Zero(), a.rot * b.rot};
  }
};

/// The time since the previous sample, s (> 0, finite), for the variable-step forms of
/// the filters: `update(u, Interval{dt})`. A type of its own so that it never collides
/// with a scalar input or a second scalar reference.
struct RMODEL_API Interval {
  double seconds;
};

/// A value type the filters accept.
template <class V>
concept FilterValue = requires { typename Space<V>::Tangent; };

/// A value type forming a vector space (scalars, joint arrays, Vector3, Twist): the
/// families defined only there (FIR differentiator, second-order transient, transfer
/// function) require it.
template <class V>
concept VectorValue = FilterValue<V> && Space<V>::linear;

namespace detail {

/// True for joint arrays (Eigen column vectors of any size, KDL::JntArray): the types
/// whose components can be restarted one by one (`restart_element`).
template <class T>
inline constexpr bool is_array_v = is_dynamic_array_v<T> || is_eigen_vector_v<T>;

/// `s·b` for either kind of bound (turns a speed bound into a per-step bound).
inline double scale_bound(double b, double s) noexcept { return b * s; }
inline LinearAngular scale_bound(const LinearAngular& b, double s) noexcept {
  return {b.linear * s, b.angular * s};
}

}  // namespace detail

}  // namespace rmodel::filters
