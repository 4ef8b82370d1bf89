#pragma once
#include "rmodel/export.hpp"
/// @file spherical.hpp
/// Points in spherical coordinates about a centre, as a value type the filters run on:
/// a limb end's position relative to, say, the shoulder, as a direction on the unit sphere
/// and a distance. With `Space<Spherical>` below, the existing filters work on it unchanged
/// (Fusion, Transient, GroupSecondOrderTransient, the integrators):
/// - the direction moves along great circles (the shortest arc between two directions,
///   as slerp does), the distance linearly; so a fusion hands a limb end over from one
///   trajectory to another by turning it about the centre and stretching or shrinking its
///   reach, instead of cutting the chord between the two points as a Cartesian blend does
///   (which pulls the limb end toward the centre half way, by up to 29 % at 90°);
/// - bounds are per coordinate, `LinearAngular{linear: distance (m, m/s, m/s²), angular:
///   great-arc angle of the direction (rad, rad/s, rad/s²)}`; the angular bound limits the
///   turn of the direction, not the Cartesian speed of the point (which is angle rate ×
///   distance).
///
/// Conventions:
/// - `direction` is a unit vector in the frame of the centre (the frame the positions were
///   given in, translated to the centre); `distance` (m) is >= 0.
/// - Tangent (`SphericalTangent`): `turn`, a rotation vector (axis·angle, rad, same frame)
///   applied to the direction (`d' = exp(turn)·d`), and `stretch`, the change of distance
///   (m). `local(a, b)` gives the shortest turn, perpendicular to both directions, with
///   angle `atan2(|a×b|, a·b)` in [0, π].
/// - At the centre (distance 0) the direction is undefined; the value keeps whatever
///   direction it carries, so a filter passing through the centre turns through it
///   without a jump. `from_cartesian` of a point at the centre takes the direction given
///   as `direction_at_centre` (default +z). A step that would make the distance negative
///   stops at the centre (distance 0) with the direction unchanged; only the second-order
///   transient can overshoot like that.
/// - Opposite directions (a·b = −1 exactly) have no unique shortest arc; the arc taken is
///   the one about `a × e`, where e is the frame axis least aligned with a (the first of
///   x, y, z on a tie), so it is deterministic: from +z to −z the direction passes +x.
///   Nearly opposite directions take their true (well-conditioned) great circle.

#include <algorithm>
#include <cmath>
#include <numbers>

#include <kdl/frames.hpp>

#include "rmodel/filters/space.hpp"

namespace rmodel::filters {

/// A point as direction and distance from a centre; see the file comment.
struct RMODEL_API Spherical {
  KDL::Vector direction{0.0, 0.0, 1.0};  ///< unit vector, frame of the centre
  double distance = 0.0;                 ///< m, >= 0

  /// The point `p` seen from `centre` (both in the same frame, m). At the centre, the
  /// direction is `direction_at_centre` (normalised; must not be zero).
  static Spherical from_cartesian(const KDL::Vector& p, const KDL::Vector& centre = KDL::Vector::Zero(),
                                  const KDL::Vector& direction_at_centre = KDL::Vector(0.0, 0.0, 1.0)) noexcept {
    const KDL::Vector offset = p - centre;
    const double r = detail::norm(offset);
    if (r == 0.0) return {direction_at_centre / detail::norm(direction_at_centre), 0.0};
    return {offset / r, r};
  }
  /// The point in Cartesian coordinates, `centre + distance·direction` (m).
  [[nodiscard]] KDL::Vector to_cartesian(const KDL::Vector& centre = KDL::Vector::Zero()) const noexcept {
    return centre + distance * direction;
  }
};

/// A change of a Spherical value, or its rate: see the file comment.
struct RMODEL_API SphericalTangent {
  KDL::Vector turn;      ///< rotation vector of the direction, rad (rate: rad/s)
  double stretch = 0.0;  ///< change of distance, m (rate: m/s)

  friend SphericalTangent operator+(const SphericalTangent& a, const SphericalTangent& b) noexcept {
    return {a.turn + b.turn, a.stretch + b.stretch};
  }
  friend SphericalTangent operator-(const SphericalTangent& a, const SphericalTangent& b) noexcept {
    return {a.turn - b.turn, a.stretch - b.stretch};
  }
  friend SphericalTangent operator-(const SphericalTangent& a) noexcept { return {-a.turn, -a.stretch}; }
  friend SphericalTangent operator*(double s, const SphericalTangent& a) noexcept {
    return {s * a.turn, s * a.stretch};
  }
  friend SphericalTangent operator*(const SphericalTangent& a, double s) noexcept { return s * a; }
};

namespace detail {

/// Shortest rotation vector (rad) turning unit vector a onto unit vector b.
inline KDL::Vector great_arc(const KDL::Vector& a, const KDL::Vector& b) noexcept {
  const KDL::Vector axis = a * b;  // KDL's cross product: |a×b| = sin θ
  const double n = norm(axis);
  const double c = KDL::dot(a, b);
  // atan2(n, c)/n is accurate for every n > 0, tiny or near π alike.
  if (n > 0.0) return (std::atan2(n, c) / n) * axis;
  if (c >= 0.0) return KDL::Vector::Zero();
  // Exactly opposite: turn by π about the axis perpendicular to a and to the frame axis
  // least aligned with a.
  const double ax = std::abs(a.x()), ay = std::abs(a.y()), az = std::abs(a.z());
  const KDL::Vector e = ax <= ay && ax <= az ? KDL::Vector(1, 0, 0)
                        : ay <= az           ? KDL::Vector(0, 1, 0)
                                             : KDL::Vector(0, 0, 1);
  const KDL::Vector perpendicular = a * e;
  return (std::numbers::pi / norm(perpendicular)) * perpendicular;
}

/// exp(r)·d for a rotation vector r (rad), renormalised so long integrations stay unit.
inline KDL::Vector turn_direction(const KDL::Vector& d, const KDL::Vector& r) noexcept {
  const Eigen::Vector3d turned = quat_exp(to_eigen(r)) * to_eigen(d);
  return to_kdl(turned.normalized());
}

}  // namespace detail

/// Spherical coordinates: direction on S², distance on [0, ∞).
template <>
struct Space<Spherical> {
  using Value = Spherical;
  using Tangent = SphericalTangent;
  using Bound = LinearAngular;
  static constexpr bool linear = false;
  /// Distance 0 looking along +z.
  static Spherical identity() noexcept { return {}; }
  static SphericalTangent zero_tangent(const Spherical& /*like*/) noexcept { return {}; }
  static SphericalTangent local(const Spherical& a, const Spherical& b) noexcept {
    return {detail::great_arc(a.direction, b.direction), b.distance - a.distance};
  }
  static Spherical retract(const Spherical& a, const SphericalTangent& d) noexcept {
    return {detail::turn_direction(a.direction, d.turn), std::max(0.0, a.distance + d.stretch)};
  }
  static double scale_within(const SphericalTangent& d, const LinearAngular& bound, double s_max) noexcept {
    return std::min(detail::limited_scale(std::abs(d.stretch), bound.linear, s_max),
                    detail::limited_scale(detail::norm(d.turn), bound.angular, s_max));
  }
  /// Turns fail to commute as rotations do (a × b); stretches commute.
  static SphericalTangent bracket(const SphericalTangent& a, const SphericalTangent& b) noexcept {
    return {a.turn * b.turn, 0.0};
  }
};

}  // namespace rmodel::filters
