#pragma once
// Helpers of the dynamics tests: the fixture robots, random motions (callers seed the
// generator: random tests use fixed seeds), and the error measure of the oracles.

#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <kdl/jntarray.hpp>

#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rmodel::test {

/// A fixture robot with inertial data: its URDF and, when it has one, its semantics.
struct DynamicsFixture {
  const char* name;
  const char* urdf;       ///< relative to the fixtures directory
  const char* semantics;  ///< relative to the fixtures directory, or empty
};

/// Every fixture robot that carries masses and inertias. The first is a legged robot with
/// chains and contacts (the dynamics URDF of the Sweetie Bot lacks the virtual hoof links its
/// chains end in, so it comes without semantics).
inline std::vector<DynamicsFixture> dynamics_fixtures() {
  return {{"sweetie_bot", "sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/kinematic_chains.cpf"},
          {"sweetie_bot_dynamics", "sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf", ""},
          {"talos", "example_robot_data/talos_reduced.urdf", ""},
          {"panda", "example_robot_data/panda.urdf", ""},
          {"solo12", "example_robot_data/solo12.urdf", ""}};
}

inline Model load_fixture(const DynamicsFixture& f) {
  ModelSource source;
  source.urdf_path = fixture(f.urdf).string();
  if (*f.semantics) source.semantics_path = fixture(f.semantics).string();
  return Model::load(source);
}

/// n values drawn uniformly from [-range, range].
inline std::vector<double> random_values(std::mt19937& rng, std::size_t n, double range) {
  std::uniform_real_distribution<double> d(-range, range);
  std::vector<double> out(n);
  for (double& v : out) v = d(rng);
  return out;
}

inline KDL::JntArray to_jnt(std::span<const double> v) {
  KDL::JntArray out(static_cast<unsigned int>(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) out(static_cast<unsigned int>(i)) = v[i];
  return out;
}

/// max |a − b| / (1 + max |b|): the relative error of a against the oracle b, with torques
/// near zero compared absolutely.
inline double relative_error(std::span<const double> a, std::span<const double> b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return a.size() == b.size() ? diff / (1.0 + scale) : 1e300;
}

inline double relative_error(std::span<const double> a, const KDL::JntArray& b) {
  return relative_error(a, std::span<const double>(b.data.data(), static_cast<std::size_t>(b.rows())));
}

}  // namespace rmodel::test
