// rmodel-collision-<version>.so: FCL and assimp behind the functions of
// lib/src/collision/plugin_api.hpp, so that librmodel links neither (that header says why).
// Built as a module beside librmodel; the sanitizer build compiles it into the static library.
//
// FCL is used below its collide() and distance(): rmodel does its own broad phase (per link,
// collision/collision_model.cpp) and asks here about one pair of shapes at a time, and the
// queries must not allocate (docs/design.md, "Self-collision"). FCL's narrow phase allocates in
// three places, each avoided here:
// - its EPA (penetration depth of convex shapes) allocates its polytope store at every call,
//   and in FCL 0.7 it is wrong besides (cylinders 2 cm deep into each other come out 1.3 cm,
//   capsules 3 cm deep 1.2 cm; its libccd twin, which MoveIt uses, is right but allocates per
//   vertex): the depth comes from rmodel's own EPA below, on fixed arrays, from FCL's GJK;
// - box–box (boxBoxIntersect) copies its contacts through a local vector, and its depth can
//   exceed the shortest one by 5 %: box–box is the separating-axis test below, exact;
// - the shape–shape traversal node collects contacts in a local vector: primitive pairs are
//   asked of the solver directly, with the scratch's vector.
// - the mesh–shape traversals bound the shape with an OBBRSS through a vector of its vertices:
//   the bounding volume is made here from the shape's OBB (which FCL computes in closed form)
//   and the traversal nodes are set up here as FCL's initialize() sets them up.
// The mesh traversals (FCL's own, on OBBRSS trees, as MoveIt builds them) then only append to
// the result, whose capacity the scratch reserves once.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <array>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/geometry/shape/triangle_p.h>
#include <fcl/geometry/shape/utility.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/narrowphase/detail/convexity_based_algorithm/gjk.h>
#include <fcl/narrowphase/detail/convexity_based_algorithm/minkowski_diff.h>
#include <fcl/narrowphase/detail/gjk_solver_indep.h>
#include <fcl/narrowphase/detail/traversal/collision/mesh_collision_traversal_node.h>
#include <fcl/narrowphase/detail/traversal/collision/mesh_shape_collision_traversal_node.h>
#include <fcl/narrowphase/detail/traversal/collision_node.h>
#include <fcl/narrowphase/detail/traversal/distance/mesh_distance_traversal_node.h>
#include <fcl/narrowphase/detail/traversal/distance/mesh_shape_distance_traversal_node.h>

#include "collision/plugin_api.hpp"

namespace {

using rmodel::collision::detail::PluginApi;
using rmodel::collision::detail::PluginMesh;
using rmodel::collision::detail::PluginQuery;
using rmodel::collision::detail::PluginResult;
using rmodel::collision::detail::PluginShape;
using rmodel::collision::detail::PluginShapeSpec;

using Transform = fcl::Transform3d;
using Vector = fcl::Vector3d;
using MeshModel = fcl::BVHModel<fcl::OBBRSSd>;
using Geometry = std::variant<fcl::Boxd, fcl::Sphered, fcl::Cylinderd, fcl::Capsuled, MeshModel>;

/// Contacts kept of a mesh pair when its depth is asked (the deepest of them is the answer).
constexpr int kMeshContacts = 64;

// ---- meshes ----

void collect(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent, const double* scale,
             PluginMesh& out) {
  const aiMatrix4x4 transform = parent * node.mTransformation;
  for (unsigned m = 0; m < node.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[node.mMeshes[m]];
    const auto offset = static_cast<std::uint32_t>(out.vertices.size() / 3);
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D p = transform * mesh.mVertices[v];
      out.vertices.insert(out.vertices.end(), {p.x * scale[0], p.y * scale[1], p.z * scale[2]});
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines left by the triangulation
      out.triangles.insert(out.triangles.end(),
                           {offset + face.mIndices[0], offset + face.mIndices[1], offset + face.mIndices[2]});
    }
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c) collect(scene, *node.mChildren[c], transform, scale, out);
}

/// One vertex per position, as geometric_shapes joins them (assimp's own joining keeps
/// vertices that differ in their normals, such as an STL's corners).
void join_identical(PluginMesh& mesh) {
  std::map<std::array<double, 3>, std::uint32_t> index;
  std::vector<double> vertices;
  std::vector<std::uint32_t> map(mesh.vertices.size() / 3);
  for (std::size_t i = 0; i < map.size(); ++i) {
    const std::array<double, 3> p = {mesh.vertices[3 * i], mesh.vertices[3 * i + 1], mesh.vertices[3 * i + 2]};
    const auto [it, added] = index.emplace(p, static_cast<std::uint32_t>(vertices.size() / 3));
    if (added) vertices.insert(vertices.end(), p.begin(), p.end());
    map[i] = it->second;
  }
  for (auto& t : mesh.triangles) t = map[t];
  mesh.vertices = std::move(vertices);
}

int load_mesh(const char* path, const double* scale, PluginMesh* out, std::string* error) {
  try {
    Assimp::Importer importer;
    const aiScene* scene =
        importer.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
    if (scene == nullptr || scene->mRootNode == nullptr) {
      *error = importer.GetErrorString();
      if (error->empty()) *error = "assimp read no scene";
      return 1;
    }
    // As geometric_shapes (MoveIt) and RViz: the root's transform is assimp's conversion to
    // its Y-up convention (and COLLADA's unit), which ROS does not want; it is dropped before
    // the graph is flattened into the meshes.
    const_cast<aiScene*>(scene)->mRootNode->mTransformation = aiMatrix4x4();
    scene = importer.ApplyPostProcessing(aiProcess_OptimizeMeshes | aiProcess_OptimizeGraph);
    if (scene == nullptr) {
      *error = importer.GetErrorString();
      return 1;
    }
    PluginMesh mesh;
    collect(*scene, *scene->mRootNode, aiMatrix4x4(), scale, mesh);
    join_identical(mesh);
    if (mesh.triangles.empty()) {
      *error = "the file holds no triangles";
      return 1;
    }
    *out = std::move(mesh);
    return 0;
  } catch (const std::exception& e) {
    *error = e.what();
  }
  return 1;
}

// ---- geometry ----

void* make_geometry(const PluginShapeSpec* spec, std::string* error) {
  try {
    switch (spec->type) {
      case PluginShape::box: return new Geometry(std::in_place_type<fcl::Boxd>, spec->a, spec->b, spec->c);
      case PluginShape::sphere: return new Geometry(std::in_place_type<fcl::Sphered>, spec->a);
      case PluginShape::cylinder: return new Geometry(std::in_place_type<fcl::Cylinderd>, spec->a, spec->b);
      case PluginShape::capsule: return new Geometry(std::in_place_type<fcl::Capsuled>, spec->a, spec->b);
      case PluginShape::mesh: {
        const PluginMesh& mesh = *spec->mesh;
        std::vector<Vector> points(mesh.vertices.size() / 3);
        for (std::size_t i = 0; i < points.size(); ++i)
          points[i] = Vector(mesh.vertices[3 * i], mesh.vertices[3 * i + 1], mesh.vertices[3 * i + 2]);
        std::vector<fcl::Triangle> triangles(mesh.triangles.size() / 3);
        for (std::size_t i = 0; i < triangles.size(); ++i)
          triangles[i] = fcl::Triangle(mesh.triangles[3 * i], mesh.triangles[3 * i + 1], mesh.triangles[3 * i + 2]);
        auto geometry = std::make_unique<Geometry>(std::in_place_type<MeshModel>);
        MeshModel& model = std::get<MeshModel>(*geometry);
        if (model.beginModel(static_cast<int>(triangles.size()), static_cast<int>(points.size())) != fcl::BVH_OK ||
            model.addSubModel(points, triangles) != fcl::BVH_OK || model.endModel() != fcl::BVH_OK) {
          *error = "FCL could not build the mesh's bounding volume tree";
          return nullptr;
        }
        return geometry.release();
      }
    }
    *error = "unknown shape type";
  } catch (const std::exception& e) {
    *error = e.what();
  }
  return nullptr;
}

void free_geometry(void* geometry) { delete static_cast<Geometry*>(geometry); }

// ---- the narrow phase ----

template <typename T>
constexpr bool is_mesh = std::is_same_v<T, MeshModel>;
template <typename T>
constexpr bool is_sphere = std::is_same_v<T, fcl::Sphered>;

/// The smallest overlap of two boxes over the 15 axes that can separate them (their face
/// normals and the cross products of their edges): positive when they intersect, and then their
/// penetration depth exactly (the shortest translation that separates two convex polyhedra is
/// along one of these axes). FCL's boxBox2 (ODE's) prefers face axes by 5 % and can report a
/// deeper penetration than the shortest; it also fills a vector of contacts.
double box_box_overlap(const fcl::Boxd& a, const Transform& ta, const fcl::Boxd& b, const Transform& tb) {
  const Vector ha = a.side / 2, hb = b.side / 2;
  const auto& ra = ta.linear();
  const auto& rb = tb.linear();
  const Vector centres = tb.translation() - ta.translation();
  double smallest = std::numeric_limits<double>::infinity();
  auto axis = [&](const Vector& n) {
    double reach = 0;
    for (int i = 0; i < 3; ++i) reach += ha[i] * std::abs(n.dot(ra.col(i))) + hb[i] * std::abs(n.dot(rb.col(i)));
    smallest = std::min(smallest, reach - std::abs(n.dot(centres)));
  };
  for (int i = 0; i < 3; ++i) {
    axis(ra.col(i));
    axis(rb.col(i));
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Vector n = ra.col(i).cross(rb.col(j));
      const double norm = n.norm();
      if (norm > 1e-9) axis(n / norm);  // parallel edges: the face axes cover them
    }
  return smallest;
}

/// The expanding polytope algorithm: the penetration depth of two convex shapes that GJK found
/// overlapping, the distance from the origin to the boundary of their Minkowski difference,
/// grown from GJK's final simplex by support points until the nearest face is on the boundary
/// (to 1e-9 m), or the arrays are full (then the nearest face's distance: a lower bound of
/// the depth, within a few micrometres for the curved shapes of robots). Fixed arrays: nothing
/// is allocated.
class Epa {
public:
  /// The depth, or 0 when GJK's simplex cannot be grown into a tetrahedron around the origin
  /// (the shapes touch).
  double depth(const fcl::detail::MinkowskiDiff<double>& diff, fcl::detail::GJK<double>& gjk) {
    if (!gjk.encloseOrigin()) return 0;
    const auto& simplex = *gjk.getSimplex();
    if (simplex.rank != 4) return 0;
    vertices_ = 0;
    faces_ = 0;
    for (int i = 0; i < 4; ++i) v_[vertices_++] = simplex.c[i]->w;
    const Vector centre = (v_[0] + v_[1] + v_[2] + v_[3]) / 4;
    const int tetra[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (const auto& t : tetra)
      if (!add_face(t[0], t[1], t[2], &centre)) return 0;
    double best = 0;
    for (int iteration = 0; iteration < kMaxVertices; ++iteration) {
      int nearest = -1;
      for (int f = 0; f < faces_; ++f)
        if (f_[f].alive && (nearest < 0 || f_[f].d < f_[nearest].d)) nearest = f;
      if (nearest < 0) return best;
      const Face& face = f_[nearest];
      best = std::max(0.0, face.d);
      const Vector w = diff.support(face.n);
      if (face.n.dot(w) - face.d < kTolerance || vertices_ == kMaxVertices) return best;
      const int added = vertices_;
      v_[vertices_++] = w;
      // Remove the faces w sees; their edges seen once make the horizon.
      edges_ = 0;
      for (int f = 0; f < faces_; ++f) {
        if (!f_[f].alive || f_[f].n.dot(w - v_[f_[f].a]) <= 1e-12) continue;
        f_[f].alive = false;
        if (!toggle(f_[f].a, f_[f].b) || !toggle(f_[f].b, f_[f].c) || !toggle(f_[f].c, f_[f].a)) return best;
      }
      if (edges_ == 0) return best;
      for (int e = 0; e < edges_; ++e)
        if (!add_face(edge_[e][0], edge_[e][1], added, nullptr)) return best;
    }
    return best;
  }

private:
  static constexpr int kMaxVertices = 128;
  static constexpr int kMaxFaces = 2 * kMaxVertices + 8;
  static constexpr double kTolerance = 1e-9;
  struct Face {
    int a = 0, b = 0, c = 0;
    Vector n = Vector::Zero();
    double d = 0;  ///< distance of the face's plane from the origin
    bool alive = false;
  };

  /// Adds the face a b c, outward (away from `centre` when given, else as wound), in a free slot.
  bool add_face(int a, int b, int c, const Vector* centre) {
    Vector n = (v_[b] - v_[a]).cross(v_[c] - v_[a]);
    const double norm = n.norm();
    if (!(norm > 1e-14)) return false;
    n /= norm;
    if (centre != nullptr && n.dot(v_[a] - *centre) < 0) {
      std::swap(b, c);
      n = -n;
    }
    int slot = 0;
    while (slot < faces_ && f_[slot].alive) ++slot;
    if (slot == faces_) {
      if (faces_ == kMaxFaces) return false;
      ++faces_;
    }
    f_[slot] = Face{a, b, c, n, n.dot(v_[a]), true};
    return true;
  }
  /// Adds the edge a→b to the horizon, or removes b→a when a face seen before has it.
  bool toggle(int a, int b) {
    for (int e = 0; e < edges_; ++e)
      if (edge_[e][0] == b && edge_[e][1] == a) {
        edge_[e][0] = edge_[edges_ - 1][0];
        edge_[e][1] = edge_[edges_ - 1][1];
        --edges_;
        return true;
      }
    if (edges_ == kMaxFaces) return false;
    edge_[edges_][0] = a;
    edge_[edges_][1] = b;
    ++edges_;
    return true;
  }

  std::array<Vector, kMaxVertices> v_;
  std::array<Face, kMaxFaces> f_;
  std::array<std::array<int, 2>, kMaxFaces> edge_{};
  int vertices_ = 0, faces_ = 0, edges_ = 0;
};

/// FCL's own GJK solver, with the convex cases that need GJK answered by FCL's GJK and the
/// depth by the EPA above. Box with box is box_box_overlap(); the pairs FCL answers in closed
/// form (sphere with sphere, box, capsule, cylinder or triangle) go to FCL's code. A pair GJK
/// finds overlapping intersects even when the EPA gives no depth.
class Solver : public fcl::detail::GJKSolver_indep<double> {
public:
  Solver() = default;

  /// Whether two primitive shapes intersect; their deepest penetration into `depth` when asked.
  template <typename S1, typename S2>
  bool primitives(const S1& s1, const Transform& tf1, const S2& s2, const Transform& tf2, double* depth) const {
    using Base = fcl::detail::GJKSolver_indep<double>;
    if constexpr (std::is_same_v<S1, fcl::Boxd> && std::is_same_v<S2, fcl::Boxd>) {
      const double overlap = box_box_overlap(s1, tf1, s2, tf2);
      if (depth) *depth = std::max(0.0, overlap);
      return overlap > 0;
    } else if constexpr (is_sphere<S1> || is_sphere<S2>) {
      contacts_.clear();
      const bool hit = Base::shapeIntersect(s1, tf1, s2, tf2, depth ? &contacts_ : nullptr);
      if (depth) *depth = deepest();
      return hit;
    } else {
      fcl::detail::MinkowskiDiff<double> diff;
      diff.shapes[0] = &s1;
      diff.shapes[1] = &s2;
      diff.toshape1.noalias() = tf2.linear().transpose() * tf1.linear();
      diff.toshape0 = tf1.inverse(Eigen::Isometry) * tf2;
      return convex(diff, depth);
    }
  }

  // What FCL's mesh–shape traversal asks (the oriented form, triangle vertices in the mesh's
  // frame tf2, and the plain form), with depth when the request wants contacts.
  template <typename Shape>
  bool shapeTriangleIntersect(const Shape& s, const Transform& tf1, const Vector& p1, const Vector& p2,
                              const Vector& p3, const Transform& tf2, Vector* point = nullptr,
                              double* depth = nullptr, Vector* normal = nullptr) const {
    if constexpr (is_sphere<Shape>) {
      return fcl::detail::GJKSolver_indep<double>::shapeTriangleIntersect(s, tf1, p1, p2, p3, tf2, point, depth,
                                                                            normal);
    } else {
      const fcl::TriangleP<double> triangle(p1, p2, p3);
      fcl::detail::MinkowskiDiff<double> diff;
      diff.shapes[0] = &s;
      diff.shapes[1] = &triangle;
      diff.toshape1.noalias() = tf2.linear().transpose() * tf1.linear();
      diff.toshape0 = tf1.inverse(Eigen::Isometry) * tf2;
      const bool hit = convex(diff, depth);
      if (hit && point) *point = tf1.translation();
      if (hit && normal) *normal = Vector::UnitZ();
      return hit;
    }
  }
  template <typename Shape>
  bool shapeTriangleIntersect(const Shape& s, const Transform& tf, const Vector& p1, const Vector& p2,
                              const Vector& p3, Vector* point = nullptr, double* depth = nullptr,
                              Vector* normal = nullptr) const {
    return shapeTriangleIntersect(s, tf, p1, p2, p3, Transform::Identity(), point, depth, normal);
  }

  /// Reserves what the queries append to, once.
  void reserve() { contacts_.reserve(16); }

private:
  bool convex(const fcl::detail::MinkowskiDiff<double>& diff, double* depth) const {
    const Vector guess(1, 0, 0);
    fcl::detail::GJK<double> gjk(static_cast<unsigned>(gjk_max_iterations), gjk_tolerance);
    if (gjk.evaluate(diff, -guess) != fcl::detail::GJK<double>::Inside) return false;
    if (depth) *depth = epa_.depth(diff, gjk);
    return true;
  }
  [[nodiscard]] double deepest() const {
    double d = 0;
    for (const auto& c : contacts_) d = std::max(d, std::abs(c.penetration_depth));
    return d;
  }

  mutable Epa epa_;
  mutable std::vector<fcl::ContactPoint<double>> contacts_;
};

/// One thread's query state.
struct Scratch {
  Solver solver;
  fcl::CollisionResultd result;
  Scratch() {
    solver.reserve();
    // The result's contacts keep their capacity across clear().
    for (int i = 0; i < kMeshContacts; ++i) result.addContact(fcl::Contactd());
    result.clear();
  }
  [[nodiscard]] double deepest() const {
    double d = 0;
    for (std::size_t i = 0; i < result.numContacts(); ++i) d = std::max(d, std::abs(result.getContact(i).penetration_depth));
    return d;
  }
};

void* make_scratch() {
  try {
    return new Scratch();
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void free_scratch(void* scratch) { delete static_cast<Scratch*>(scratch); }

fcl::CollisionRequestd collision_request(bool depth) {
  fcl::CollisionRequestd request(depth ? kMeshContacts : 1, depth);
  return request;
}

/// An OBBRSS around a primitive at `tf`, without FCL's computeBV for OBBRSS (which fits it to a
/// vector of the shape's vertices): the shape's OBB, which FCL gives in closed form, and an
/// RSS around that box, its rectangle across the box's two largest extents and its radius the
/// smallest.
template <typename Shape>
fcl::OBBRSSd shape_volume(const Shape& shape, const Transform& tf) {
  fcl::OBBRSSd bv;
  fcl::computeBV(shape, tf, bv.obb);
  const Vector& e = bv.obb.extent;
  int k = 0;  // the axis of the smallest extent: the rectangle's normal
  for (int i = 1; i < 3; ++i)
    if (e[i] < e[k]) k = i;
  const int i = (k + 1) % 3, j = (k + 2) % 3;  // a cyclic order keeps the frame right-handed
  bv.rss.axis.col(0) = bv.obb.axis.col(i);
  bv.rss.axis.col(1) = bv.obb.axis.col(j);
  bv.rss.axis.col(2) = bv.obb.axis.col(k);
  bv.rss.l[0] = 2 * e[i];
  bv.rss.l[1] = 2 * e[j];
  bv.rss.r = e[k];
  bv.rss.To = bv.obb.To - e[i] * bv.obb.axis.col(i) - e[j] * bv.obb.axis.col(j);
  return bv;
}

/// FCL's initialize() of a mesh–shape traversal node (collision or distance), with the shape's
/// bounding volume from shape_volume().
template <typename Node, typename Shape>
void set_up(Node& node, const MeshModel& mesh, const Transform& tf1, const Shape& shape, const Transform& tf2,
            const Solver& solver) {
  node.model1 = &mesh;
  node.tf1 = tf1;
  node.model2 = &shape;
  node.tf2 = tf2;
  node.nsolver = &solver;
  node.model2_bv = shape_volume(shape, tf2);
  node.vertices = mesh.vertices;
  node.tri_indices = mesh.tri_indices;
}

/// Mesh `m` against `other` (a mesh or a primitive).
template <typename Other>
void mesh_query(Scratch& scratch, const MeshModel& m, const Transform& tf1, const Other& other, const Transform& tf2,
                PluginQuery what, PluginResult& out) {
  scratch.result.clear();
  const auto request = collision_request(what != PluginQuery::intersect);
  if constexpr (is_mesh<Other>) {
    fcl::detail::MeshCollisionTraversalNodeOBBRSS<double> node;
    fcl::detail::initialize(node, m, tf1, other, tf2, request, scratch.result);
    fcl::detail::collide(&node);
  } else {
    fcl::detail::MeshShapeCollisionTraversalNodeOBBRSS<Other, Solver> node;
    set_up(node, m, tf1, other, tf2, scratch.solver);
    node.request = request;
    node.result = &scratch.result;
    node.cost_density = m.cost_density * other.cost_density;
    fcl::detail::collide(&node);
  }
  out.collide = scratch.result.isCollision();
  if (out.collide && what != PluginQuery::intersect) out.depth = scratch.deepest();
  if (out.collide || what != PluginQuery::distance) return;
  fcl::DistanceRequestd drequest(false);
  fcl::DistanceResultd dresult;
  if constexpr (is_mesh<Other>) {
    fcl::detail::MeshDistanceTraversalNodeOBBRSS<double> node;
    fcl::detail::initialize(node, m, tf1, other, tf2, drequest, dresult);
    fcl::detail::distance(&node);
  } else {
    fcl::detail::MeshShapeDistanceTraversalNodeOBBRSS<Other, Solver> node;
    set_up(node, m, tf1, other, tf2, scratch.solver);
    node.request = drequest;
    node.result = &dresult;
    fcl::detail::distance(&node);
  }
  out.distance = std::max(0.0, dresult.min_distance);
}

void query(void* scratch_ptr, const void* g1, const Eigen::Isometry3d* pose1, const void* g2,
           const Eigen::Isometry3d* pose2, PluginQuery what, PluginResult* out) {
  Scratch& scratch = *static_cast<Scratch*>(scratch_ptr);
  *out = PluginResult{};
  const Transform& tf1 = *pose1;
  const Transform& tf2 = *pose2;
  std::visit(
      [&](const auto& a, const auto& b) {
        using A = std::decay_t<decltype(a)>;
        using B = std::decay_t<decltype(b)>;
        if constexpr (is_mesh<A>) {
          mesh_query(scratch, a, tf1, b, tf2, what, *out);
        } else if constexpr (is_mesh<B>) {
          mesh_query(scratch, b, tf2, a, tf1, what, *out);
        } else {
          double depth = 0;
          out->collide = scratch.solver.primitives(a, tf1, b, tf2, what == PluginQuery::intersect ? nullptr : &depth);
          if (out->collide) {
            out->depth = depth;
          } else if (what == PluginQuery::distance) {
            double d = 0;
            Vector p1, p2;  // FCL's capsule–capsule distance needs them
            scratch.solver.shapeDistance(a, tf1, b, tf2, &d, &p1, &p2);
            out->distance = std::max(0.0, d);
          }
        }
      },
      *static_cast<const Geometry*>(g1), *static_cast<const Geometry*>(g2));
}

constexpr PluginApi kApi{rmodel::collision::detail::kPluginApiVersion,
                         &load_mesh,
                         &make_geometry,
                         &free_geometry,
                         &make_scratch,
                         &free_scratch,
                         &query};

}  // namespace

extern "C" __attribute__((visibility("default"))) const PluginApi* rmodel_collision_plugin() { return &kApi; }
