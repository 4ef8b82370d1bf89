#pragma once
// Internal: the data of a CollisionModel and of a CollisionWorkspace, and the plugin.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "collision/plugin_api.hpp"
#include "rmodel/collision/collision.hpp"

namespace rmodel::collision::detail {

/// The collision plugin's functions, opened on the first call.
/// @throws IoError when the plugin cannot be opened or belongs to another librmodel.
const PluginApi& plugin();

/// A geometry the plugin made, freed by the plugin.
struct PluginGeometry {
  void* handle = nullptr;
  PluginGeometry() = default;
  explicit PluginGeometry(void* h) : handle(h) {}
  PluginGeometry(const PluginGeometry&) = delete;
  PluginGeometry& operator=(const PluginGeometry&) = delete;
  ~PluginGeometry() {
    if (handle != nullptr) plugin().free_geometry(handle);
  }
};

/// The geometry of a shape in the plugin; throws IoError naming the shape when it cannot be made.
std::unique_ptr<PluginGeometry> make_plugin_geometry(const Shape& shape);

}  // namespace rmodel::collision::detail

namespace rmodel::collision {

struct CollisionModel::Impl {
  Impl(Model m, kinematics::KinematicModel k) : model(std::move(m)), kin(std::move(k)) {}
  Model model;              ///< as given
  kinematics::KinematicModel kin;
  std::vector<std::string> joint_names;
  std::vector<double> defaults, lower, upper;
  std::vector<Shape> shapes;
  std::vector<std::string> links;   ///< with geometry
  std::vector<std::size_t> link_body;  ///< kinematic body of each link
  /// A usable shape, as checked: grouped by link, in link order.
  struct Checked {
    std::uint32_t shape = 0;  ///< index into shapes
    std::uint32_t link = 0;
    Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();
    LocalBox box;
    std::shared_ptr<const detail::PluginGeometry> geometry;
  };
  std::vector<Checked> checked;
  std::vector<std::uint32_t> link_first, link_end;  ///< each link's range of `checked`
  std::vector<LinkPair> adjacent;
};

struct CollisionWorkspace::State {
  void* scratch = nullptr;  ///< the plugin's
  std::vector<Eigen::Isometry3d> shape_pose;
  std::vector<Eigen::Vector3d> shape_min, shape_max;
  std::vector<Eigen::Vector3d> link_min, link_max;
  std::vector<std::uint32_t> order;  ///< links sorted by link_min.x (kept from pose to pose)
  ~State() {
    if (scratch != nullptr) detail::plugin().free_scratch(scratch);
  }
};

}  // namespace rmodel::collision
