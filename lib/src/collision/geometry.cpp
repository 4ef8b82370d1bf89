// The collision geometry of a URDF's links: <collision> elements read with urdfdom's numbers
// and origins (model/urdf_loader.hpp), meshes found as `check --meshes` finds them
// (rmodel/base/package_path.hpp) and read by the collision plugin; and the volume and inertia of
// the shapes.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <tinyxml2.h>

#include "base/git_lfs.hpp"
#include "base/xml_error.hpp"
#include "collision/collision_impl.hpp"
#include "model/urdf_loader.hpp"
#include "rmodel/collision/collision.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/base/package_path.hpp"

namespace rmodel::collision {
namespace {

Eigen::Isometry3d to_isometry(const KDL::Frame& frame) {
  Eigen::Isometry3d out = Eigen::Isometry3d::Identity();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.linear()(r, c) = frame.M(r, c);
  out.translation() = Eigen::Vector3d(frame.p.x(), frame.p.y(), frame.p.z());
  return out;
}

/// A non-negative number attribute; nullopt when absent or malformed (check reports it).
std::optional<double> size_attribute(const tinyxml2::XMLElement& e, const char* name) {
  const char* text = e.Attribute(name);
  if (text == nullptr) return std::nullopt;
  const auto value = rmodel::detail::read_urdf_number(text);
  if (!value || !std::isfinite(*value) || *value < 0) return std::nullopt;
  return value;
}

std::optional<Eigen::Vector3d> vector_attribute(const tinyxml2::XMLElement& e, const char* name) {
  const char* text = e.Attribute(name);
  if (text == nullptr) return std::nullopt;
  const auto value = rmodel::detail::read_urdf_vector3(text);
  if (!value) return std::nullopt;
  const Eigen::Vector3d v((*value)[0], (*value)[1], (*value)[2]);
  if (!v.allFinite()) return std::nullopt;
  return v;
}

/// The shape of a <geometry> element; nullopt for what `check` reports as malformed.
std::optional<Shape> read_geometry(const tinyxml2::XMLElement* geometry) {
  const tinyxml2::XMLElement* g = geometry ? geometry->FirstChildElement() : nullptr;
  if (g == nullptr) return std::nullopt;
  const std::string_view type = g->Name();
  Shape shape;
  if (type == "box") {
    const auto size = vector_attribute(*g, "size");
    if (!size || (size->array() < 0).any()) return std::nullopt;
    shape.type = ShapeType::box;
    shape.size = *size;
  } else if (type == "sphere") {
    const auto r = size_attribute(*g, "radius");
    if (!r) return std::nullopt;
    shape.type = ShapeType::sphere;
    shape.size = Eigen::Vector3d(*r, 0, 0);
  } else if (type == "cylinder" || type == "capsule") {
    const auto r = size_attribute(*g, "radius");
    const auto l = size_attribute(*g, "length");
    if (!r || !l) return std::nullopt;
    shape.type = type == "cylinder" ? ShapeType::cylinder : ShapeType::capsule;
    shape.size = Eigen::Vector3d(*r, *l, 0);
  } else if (type == "mesh") {
    const char* filename = g->Attribute("filename");
    if (filename == nullptr || *filename == '\0') return std::nullopt;
    shape.type = ShapeType::mesh;
    shape.filename = filename;
    if (g->Attribute("scale")) {
      const auto scale = vector_attribute(*g, "scale");
      if (!scale) return std::nullopt;
      shape.scale = *scale;
    }
  } else {
    return std::nullopt;
  }
  return shape;
}

/// What to say of a mesh file that is a Git LFS pointer (nothing when it is not one).
std::optional<std::string> lfs_pointer_at(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(rmodel::detail::kGitLfsPointerHead, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return rmodel::detail::git_lfs_pointer(head);
}

/// Looks the mesh of `shape` up and reads it, once per file and scale (`cache`).
void load_shape_mesh(Shape& shape, const GeometryOptions& options,
                     std::map<std::pair<std::string, std::array<double, 3>>, Shape>& cache) {
  const auto path = resolve_resource_uri(shape.filename, options.base_dir, options.package_search);
  if (!path) {
    if (shape.filename.rfind("package://", 0) == 0) {
      const std::string package = shape.filename.substr(10, shape.filename.find('/', 10) - 10);
      const auto otherwise = package_named_otherwise(package, options.package_search);
      shape.error = fmt::format("package '{}' is not found{}", package, otherwise ? "; " + *otherwise : "");
    } else {
      shape.error = "only package://, file:// and plain paths are read";
    }
    return;
  }
  const std::filesystem::path file = path->lexically_normal();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    shape.error = fmt::format("{} is not a file", file.string());
    return;
  }
  shape.path = file;
  if (const auto pointer = lfs_pointer_at(file)) {
    shape.error = fmt::format("{} is {}", file.string(), *pointer);
    return;
  }
  if (!options.load_meshes) return;
  const auto key = std::make_pair(shape.path.string(), std::array<double, 3>{shape.scale.x(), shape.scale.y(), shape.scale.z()});
  if (const auto found = cache.find(key); found != cache.end()) {
    shape.mesh = found->second.mesh;
    shape.error = found->second.error;
    return;
  }
  try {
    shape.mesh = std::make_shared<const TriangleMesh>(load_mesh(shape.path, shape.scale));
  } catch (const IoError& e) {
    shape.error = e.what();
  }
  cache.emplace(key, shape);
}

}  // namespace

std::string_view to_string(ShapeType type) {
  switch (type) {
    case ShapeType::box: return "box";
    case ShapeType::sphere: return "sphere";
    case ShapeType::cylinder: return "cylinder";
    case ShapeType::capsule: return "capsule";
    case ShapeType::mesh: return "mesh";
  }
  return "?";
}

GeometryOptions geometry_options(const ModelSource& source) {
  GeometryOptions options;
  const std::filesystem::path base = std::filesystem::path(source.urdf_path).parent_path();
  options.base_dir = base.empty() || source.urdf_path == "-" ? "." : base;
  options.package_search = package_search_path(source.package_paths);
  return options;
}

namespace {

/// The shapes of every link's `kind` elements (<collision> or <visual>).
std::vector<Shape> read_shapes(const std::string& urdf_text, const GeometryOptions& options, const char* kind) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(urdf_text.data(), urdf_text.size()) != tinyxml2::XML_SUCCESS || doc.RootElement() == nullptr)
    throw ParseError({"<urdf>", doc.ErrorLineNum()}, rmodel::detail::describe_xml_error(doc));
  std::vector<Shape> shapes;
  std::map<std::pair<std::string, std::array<double, 3>>, Shape> cache;
  for (auto* link = doc.RootElement()->FirstChildElement("link"); link; link = link->NextSiblingElement("link")) {
    const char* name = link->Attribute("name");
    if (name == nullptr) continue;
    for (auto* c = link->FirstChildElement(kind); c; c = c->NextSiblingElement(kind)) {
      const auto origin = rmodel::detail::read_urdf_origin(c->FirstChildElement("origin"));
      auto shape = read_geometry(c->FirstChildElement("geometry"));
      if (!origin || !shape) continue;
      shape->link = name;
      shape->origin = to_isometry(*origin);
      shape->line = c->GetLineNum();
      if (shape->type == ShapeType::mesh) load_shape_mesh(*shape, options, cache);
      shapes.push_back(std::move(*shape));
    }
  }
  return shapes;
}

}  // namespace

std::vector<Shape> read_collision_shapes(const std::string& urdf_text, const GeometryOptions& options) {
  return read_shapes(urdf_text, options, "collision");
}

std::vector<Shape> read_visual_shapes(const std::string& urdf_text, const GeometryOptions& options) {
  return read_shapes(urdf_text, options, "visual");
}

TriangleMesh load_mesh(const std::filesystem::path& file, const Eigen::Vector3d& scale) {
  const double factors[3] = {scale.x(), scale.y(), scale.z()};
  detail::PluginMesh raw;
  std::string error;
  if (detail::plugin().load_mesh(file.c_str(), factors, &raw, &error) != 0) throw IoError(file.string(), error);
  TriangleMesh mesh;
  mesh.vertices.resize(raw.vertices.size() / 3);
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
    mesh.vertices[i] = Eigen::Vector3d(raw.vertices[3 * i], raw.vertices[3 * i + 1], raw.vertices[3 * i + 2]);
  mesh.triangles.resize(raw.triangles.size() / 3);
  for (std::size_t i = 0; i < mesh.triangles.size(); ++i)
    mesh.triangles[i] = {raw.triangles[3 * i], raw.triangles[3 * i + 1], raw.triangles[3 * i + 2]};
  return mesh;
}

namespace {

/// Properties of a closed triangle mesh of density 1, in its own frame: the signed volumes,
/// first and second moments of the tetrahedra from a reference point to each triangle.
VolumeProperties mesh_properties(const TriangleMesh& mesh) {
  VolumeProperties out;
  if (mesh.vertices.empty()) return out;
  Eigen::Vector3d lo = mesh.vertices.front(), hi = lo;
  for (const auto& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  const Eigen::Vector3d ref = (lo + hi) / 2;  // moments about the box's centre: less cancellation
  double volume = 0;
  Eigen::Vector3d first = Eigen::Vector3d::Zero();
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();
  for (const auto& t : mesh.triangles) {
    const Eigen::Vector3d a = mesh.vertices[t[0]] - ref, b = mesh.vertices[t[1]] - ref, c = mesh.vertices[t[2]] - ref;
    const double det = a.dot(b.cross(c));
    const Eigen::Vector3d s = a + b + c;
    volume += det / 6;
    first += det * s / 24;
    second += det / 120 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  if (volume < 0) {  // wound inwards
    volume = -volume;
    first = -first;
    second = -second;
  }
  out.volume = volume;
  if (volume <= 0) return out;
  const Eigen::Vector3d centroid = first / volume;
  const Eigen::Matrix3d central = second - volume * centroid * centroid.transpose();
  out.centroid = centroid + ref;
  out.inertia = central.trace() * Eigen::Matrix3d::Identity() - central;
  return out;
}

/// Properties of a primitive of density 1 centred on its frame's origin.
VolumeProperties primitive_properties(const Shape& shape) {
  VolumeProperties out;
  const double pi = std::numbers::pi;
  switch (shape.type) {
    case ShapeType::box: {
      const double x = shape.size.x(), y = shape.size.y(), z = shape.size.z();
      out.volume = x * y * z;
      out.inertia.diagonal() = out.volume / 12 * Eigen::Vector3d(y * y + z * z, x * x + z * z, x * x + y * y);
      break;
    }
    case ShapeType::sphere: {
      const double r = shape.size.x();
      out.volume = 4.0 / 3.0 * pi * r * r * r;
      out.inertia.diagonal().setConstant(0.4 * out.volume * r * r);
      break;
    }
    case ShapeType::cylinder: {
      const double r = shape.size.x(), l = shape.size.y();
      out.volume = pi * r * r * l;
      const double side = out.volume * (3 * r * r + l * l) / 12;
      out.inertia.diagonal() = Eigen::Vector3d(side, side, out.volume * r * r / 2);
      break;
    }
    case ShapeType::capsule: {
      // A cylinder of length l and two hemispheres (centroids 3r/8 beyond the cylinder's ends).
      const double r = shape.size.x(), l = shape.size.y();
      const double cylinder = pi * r * r * l, sphere = 4.0 / 3.0 * pi * r * r * r;
      out.volume = cylinder + sphere;
      const double side =
          cylinder * (l * l / 12 + r * r / 4) + sphere * (0.4 * r * r + l * l / 4 + 3 * l * r / 8);
      out.inertia.diagonal() = Eigen::Vector3d(side, side, cylinder * r * r / 2 + 0.4 * sphere * r * r);
      break;
    }
    case ShapeType::mesh: break;
  }
  return out;
}

}  // namespace

std::optional<VolumeProperties> volume_properties(const Shape& shape) {
  VolumeProperties own;
  if (shape.type == ShapeType::mesh) {
    if (!shape.mesh) return std::nullopt;
    own = mesh_properties(*shape.mesh);
  } else {
    own = primitive_properties(shape);
  }
  VolumeProperties out;
  out.volume = own.volume;
  out.centroid = shape.origin * own.centroid;
  const Eigen::Matrix3d r = shape.origin.linear();
  out.inertia = r * own.inertia * r.transpose();
  return out;
}

VolumeProperties combine(std::span<const VolumeProperties> parts) {
  VolumeProperties out;
  for (const auto& p : parts) {
    out.volume += p.volume;
    out.centroid += p.volume * p.centroid;
  }
  if (out.volume <= 0) return VolumeProperties{};
  out.centroid /= out.volume;
  for (const auto& p : parts) {
    const Eigen::Vector3d d = p.centroid - out.centroid;
    out.inertia += p.inertia + p.volume * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  }
  return out;
}

std::optional<LocalBox> local_box(const Shape& shape) {
  LocalBox box;
  const double r = shape.size.x();
  switch (shape.type) {
    case ShapeType::box: box.half = shape.size / 2; break;
    case ShapeType::sphere: box.half.setConstant(r); break;
    case ShapeType::cylinder: box.half = Eigen::Vector3d(r, r, shape.size.y() / 2); break;
    case ShapeType::capsule: box.half = Eigen::Vector3d(r, r, shape.size.y() / 2 + r); break;
    case ShapeType::mesh: {
      if (!shape.mesh || shape.mesh->vertices.empty()) return std::nullopt;
      Eigen::Vector3d lo = shape.mesh->vertices.front(), hi = lo;
      for (const auto& v : shape.mesh->vertices) {
        lo = lo.cwiseMin(v);
        hi = hi.cwiseMax(v);
      }
      box.centre = (lo + hi) / 2;
      box.half = (hi - lo) / 2;
      break;
    }
  }
  return box;
}

namespace detail {

std::unique_ptr<PluginGeometry> make_plugin_geometry(const Shape& shape) {
  PluginShapeSpec spec;
  PluginMesh mesh;
  switch (shape.type) {
    case ShapeType::box: spec = {PluginShape::box, shape.size.x(), shape.size.y(), shape.size.z(), nullptr}; break;
    case ShapeType::sphere: spec = {PluginShape::sphere, shape.size.x(), 0, 0, nullptr}; break;
    case ShapeType::cylinder: spec = {PluginShape::cylinder, shape.size.x(), shape.size.y(), 0, nullptr}; break;
    case ShapeType::capsule: spec = {PluginShape::capsule, shape.size.x(), shape.size.y(), 0, nullptr}; break;
    case ShapeType::mesh:
      for (const auto& v : shape.mesh->vertices) mesh.vertices.insert(mesh.vertices.end(), {v.x(), v.y(), v.z()});
      for (const auto& t : shape.mesh->triangles) mesh.triangles.insert(mesh.triangles.end(), t.begin(), t.end());
      spec = {PluginShape::mesh, 0, 0, 0, &mesh};
      break;
  }
  std::string error;
  void* handle = plugin().make_geometry(&spec, &error);
  if (handle == nullptr)
    throw IoError(shape.type == ShapeType::mesh ? shape.path.string() : shape.link,
                  fmt::format("cannot build its collision geometry: {}", error));
  return std::make_unique<PluginGeometry>(handle);
}

}  // namespace detail
}  // namespace rmodel::collision
