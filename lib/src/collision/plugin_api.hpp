#pragma once
// Internal: what librmodel asks of its collision plugin, rmodel-collision-<version>.so
// (lib/plugins/collision_plugin.cpp). The plugin links FCL and assimp, which cost every start
// of every program that links them (docs/design.md, "Start-up"); librmodel opens the plugin on
// the first collision geometry or mesh it needs (collision/plugin.cpp), so that commands that
// use neither load neither. The plugin belongs to exactly this version of librmodel (its file
// name says which) and is built by the same compiler from the same headers, so C++ types
// (std::string, std::vector, Eigen) cross the boundary; exceptions do not: every function
// reports failure by its result. The sanitizer build compiles the plugin into the library.

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Geometry>

namespace rmodel::collision::detail {

/// A triangle mesh as the plugin reads it from a file: vertices as x y z triples (m, scale
/// applied) and triangles as three vertex indices each.
struct PluginMesh {
  std::vector<double> vertices;
  std::vector<std::uint32_t> triangles;
};

enum class PluginShape : int { box, sphere, cylinder, capsule, mesh };

/// The geometry of one shape, in its own frame: a box of edges a b c centred on the origin; a
/// sphere of radius a; a cylinder or a capsule of radius a and length b along z, centred; a mesh.
struct PluginShapeSpec {
  PluginShape type = PluginShape::box;
  double a = 0.0, b = 0.0, c = 0.0;
  const PluginMesh* mesh = nullptr;  ///< for PluginShape::mesh; the plugin keeps its own copy
};

/// What a query computes: whether the two shapes intersect; also the penetration depth when
/// they do; also the distance between them when they do not.
enum class PluginQuery : int { intersect, depth, distance };

struct PluginResult {
  bool collide = false;
  double depth = 0.0;     ///< m, ≥ 0: the largest penetration depth of the contacts found
  double distance = 0.0;  ///< m, ≥ 0: separation of shapes that do not intersect (distance query)
};

/// The plugin's functions. `version` is kPluginApiVersion of the librmodel it was built with.
struct PluginApi {
  int version;
  /// Reads a mesh file (STL, COLLADA, OBJ, and whatever else assimp reads) as MoveIt's
  /// geometric_shapes does: triangulated, identical vertices joined, the scene's node
  /// transforms applied except the root's (assimp's up-axis and unit conversion of COLLADA
  /// files, which MoveIt and RViz drop), each vertex multiplied by `scale` (3 values).
  /// 0 on success; otherwise `error` says why (assimp's message).
  int (*load_mesh)(const char* path, const double* scale, PluginMesh* out, std::string* error);
  /// Immutable collision geometry, shareable between threads; null with `error` on failure.
  void* (*make_geometry)(const PluginShapeSpec* spec, std::string* error);
  void (*free_geometry)(void* geometry);
  /// Scratch space of one thread's queries (FCL's solver state, contact buffers).
  void* (*make_scratch)();
  void (*free_scratch)(void* scratch);
  /// Queries two geometries at their poses (shape frame → world). Allocates nothing.
  void (*query)(void* scratch, const void* geometry1, const Eigen::Isometry3d* pose1, const void* geometry2,
                const Eigen::Isometry3d* pose2, PluginQuery what, PluginResult* out);
};

inline constexpr int kPluginApiVersion = 1;

}  // namespace rmodel::collision::detail

/// The plugin's one exported function.
extern "C" const rmodel::collision::detail::PluginApi* rmodel_collision_plugin();
