// Meshes that are what they claim: `check --meshes` (files assimp cannot read, meshes far too
// large for their links) and `info --mass-properties` (the inertia a uniform body of the
// collision geometry and the declared mass has, beside the declared one).
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "collision/collision_impl.hpp"
#include "rmodel/collision/collision.hpp"

namespace rmodel::collision {
namespace {

/// Above this ratio of a mesh's size to its link's joint offsets, the mesh is reported.
constexpr double kScaleRatio = 50;

double offset(const JointInfo& j) {
  return std::sqrt(j.origin.p.x() * j.origin.p.x() + j.origin.p.y() * j.origin.p.y() + j.origin.p.z() * j.origin.p.z());
}

/// How far apart a link's joints are: the largest offset of its parent joint and its child joints.
double link_span(const Model& model, const std::string& link) {
  double span = 0;
  for (const JointInfo& j : model.urdf_joints())
    if (j.parent_link == link || j.child_link == link) span = std::max(span, offset(j));
  return span;
}

std::string number(double v) { return fmt::format("{:.3g}", v); }

}  // namespace

Diagnostics check_mesh_contents(const Model& model, const std::string& urdf_name, const GeometryOptions& options) {
  Diagnostics out;
  std::vector<Shape> shapes;
  try {
    shapes = read_visual_shapes(model.urdf_text(), options);
    auto collision = read_collision_shapes(model.urdf_text(), options);
    shapes.insert(shapes.end(), std::make_move_iterator(collision.begin()), std::make_move_iterator(collision.end()));
  } catch (const ParseError&) {
    return out;  // check_model reports it
  }
  std::sort(shapes.begin(), shapes.end(), [](const Shape& a, const Shape& b) { return a.line < b.line; });
  double robot = 0;
  for (const JointInfo& j : model.urdf_joints()) robot = std::max(robot, offset(j));
  std::set<std::string> unreadable;  // each file once
  for (const Shape& s : shapes) {
    // Missing files and Git LFS pointers: check_mesh_files says so.
    if (s.type != ShapeType::mesh || s.path.empty() || s.error.find("Git LFS pointer") != std::string::npos) continue;
    const SourceLocation where{urdf_name, s.line};
    if (!s.mesh) {
      if (!s.error.empty() && unreadable.insert(s.path.string()).second)
        out.add(Severity::error, where, "mesh-unreadable",
                fmt::format("link '{}': mesh '{}' cannot be read: {}", s.link, s.filename, s.error));
      continue;
    }
    const auto box = local_box(s);
    if (!box) continue;
    const double size = 2 * box->half.maxCoeff();
    const double reference = std::max(link_span(model, s.link), robot / 10);
    if (reference <= 0 || size <= kScaleRatio * reference) continue;
    const double factor = std::pow(10.0, std::round(std::log10(size / reference / 2)));
    out.add(Severity::warning, where, "mesh-scale",
            fmt::format("link '{}': mesh '{}' is {} m across, {} times as large as its link's joints are apart "
                        "({} m): a mesh in millimetres read as metres?{}",
                        s.link, s.filename, number(size), number(size / reference), number(reference),
                        factor >= 100 ? fmt::format(" (scale {} would make it {} m)", number(1 / factor),
                                                    number(size / factor))
                                      : std::string()));
  }
  return out;
}

std::vector<LinkMassProperties> mass_properties(const Model& model, std::span<const Shape> shapes) {
  std::vector<LinkMassProperties> out;
  for (const LinkInfo& link : model.links()) {
    std::vector<VolumeProperties> parts;
    bool any = false, missing = false;
    for (const Shape& s : shapes) {
      if (s.link != link.name) continue;
      any = true;
      if (const auto p = volume_properties(s)) parts.push_back(*p);
      else missing = true;
    }
    if (!any && !link.inertial) continue;
    LinkMassProperties m;
    m.link = link.name;
    m.meshes_missing = missing;
    const VolumeProperties whole = combine(parts);
    m.volume = whole.volume;
    m.centroid = whole.centroid;
    if (link.inertial) {
      m.mass = link.inertial->mass;
      m.declared_inertia = link.inertial->inertia;
      if (whole.volume > 0) m.shape_inertia = whole.inertia * (link.inertial->mass / whole.volume);
    }
    const double shape = m.shape_inertia.trace(), declared = m.declared_inertia.trace();
    if (shape > 0 && declared > 0) {
      m.ratio = declared / shape;
      m.implausible = *m.ratio >= 10 || *m.ratio <= 0.1;
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace rmodel::collision
