#pragma once
// Helpers of the kinematics tests: comparing rmodel's frames with KDL's, random geometry
// (callers seed the generator: random tests use fixed seeds).

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include <Eigen/Geometry>
#include <kdl/frames.hpp>

namespace rmodel::test {

/// Largest absolute difference between the rotation matrices and translations of a and b.
inline double frame_error(const Eigen::Isometry3d& a, const KDL::Frame& b) {
  double e = 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) e = std::max(e, std::abs(a.linear()(i, j) - b.M(i, j)));
    e = std::max(e, std::abs(a.translation()(i) - b.p(i)));
  }
  return e;
}

/// A direction drawn uniformly on the unit sphere.
inline KDL::Vector random_unit(std::mt19937& rng) {
  std::normal_distribution<double> n(0, 1);
  KDL::Vector v(n(rng), n(rng), n(rng));
  v.Normalize();
  return v;
}

/// A frame with uniform roll, pitch, yaw and a translation in [-reach, reach]³ (m).
inline KDL::Frame random_frame(std::mt19937& rng, double reach = 0.3) {
  std::uniform_real_distribution<double> a(-std::numbers::pi, std::numbers::pi);
  std::uniform_real_distribution<double> l(-reach, reach);
  return KDL::Frame(KDL::Rotation::RPY(a(rng), a(rng), a(rng)), KDL::Vector(l(rng), l(rng), l(rng)));
}

}  // namespace rmodel::test
