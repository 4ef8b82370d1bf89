#pragma once
// Internal: the flattened arrays behind rmodel::kinematics::KinematicModel, and write access
// to a Workspace for the algorithms.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <Eigen/Core>

#include "rmodel/kinematics/kinematic_model.hpp"
#include "rmodel/kinematics/workspace.hpp"

namespace rmodel::kinematics {

/// How the per-pose loop moves a body (axis-aligned rotations get a cheaper update; the
/// sign of a negative axis is folded into the scale).
enum class MotionKind : std::uint8_t { fixed, rot_x, rot_y, rot_z, rot_axis, prismatic };

/// Hot per-body data, read in the per-pose loops.
struct Node {
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();  ///< origin rotation (parent → joint frame)
  Eigen::Vector3d p = Eigen::Vector3d::Zero();      ///< origin translation
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();  ///< unit axis (rot_axis, prismatic)
  Eigen::Vector3d tip = Eigen::Vector3d::Zero();    ///< joint frame → link frame
  double scale = 1.0;                               ///< signed, see MotionKind
  double offset = 0.0;                              ///< motion = scale·q + offset (mimic joints)
  int parent = -1;
  int q = -1;  ///< pose slot; -1 for kind fixed
  int depth = 0;  ///< moving joints from the base to this body, its own included
  MotionKind kind = MotionKind::fixed;
  bool has_tip = false;
  bool origin_rotated = false;    ///< R is not exactly the identity
  bool origin_translated = false;  ///< p is not exactly zero
  double mass = 0.0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
};

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>{}(s);
  }
};

struct KinematicModel::Data {
  std::vector<Body> bodies;
  std::vector<Node> nodes;
  std::size_t pose_size = 0;
  std::size_t joint_count = 0;
  double total_mass = 0.0;
  std::vector<int> q_to_body;  ///< per pose slot, -1 when no body reads it
  std::vector<char> q_shared;  ///< per pose slot: several bodies read it (mimic joints)
  /// Bodies are in depth-first preorder: the subtree of k is [k, subtree_end[k]).
  std::vector<int> subtree_end;
  /// Nearest body at or above k whose joint moves (q ≥ 0), -1 when none.
  std::vector<int> joint_up;
  /// For a moving body k, the nearest moving strict ancestor (-1 when none).
  std::vector<int> joint_above;
  std::vector<std::size_t> d1_offset;  ///< size()+1 entries: prefix sums of depth
  std::vector<std::size_t> d2_offset;  ///< size()+1 entries: prefix sums of depth·(depth+1)/2
  std::unordered_map<std::string, std::size_t, StringHash, std::equal_to<>> by_name;

  [[nodiscard]] std::size_t size() const noexcept { return bodies.size(); }
};

/// Write access to a Workspace's buffers for the algorithm files.
struct WorkspaceAccess {
  static std::vector<Eigen::Isometry3d>& frames(Workspace& ws) { return ws.frames_; }
  static std::vector<Eigen::Vector3d>& axes(Workspace& ws) { return ws.axes_; }
  static std::vector<Eigen::Vector3d>& origins(Workspace& ws) { return ws.joint_origins_; }
  static std::vector<Eigen::Matrix4d>& d1(Workspace& ws) { return ws.d1_; }
  static std::vector<Eigen::Matrix4d>& d2(Workspace& ws) { return ws.d2_; }
  static std::vector<double>& subtree_mass(Workspace& ws) { return ws.subtree_mass_; }
  static std::vector<Eigen::Vector3d>& subtree_moment(Workspace& ws) { return ws.subtree_moment_; }
};

/// Throws InvalidArgument unless `ws` was built for `model`.
void check_workspace(const KinematicModel& model, const Workspace& ws);
/// Throws InvalidArgument unless body < model.size().
void check_body(const KinematicModel& model, std::size_t body);

}  // namespace rmodel::kinematics
