// The rules of MuJoCo's compiler on a URDF (MuJoCo 2.2, Debian 12's libmujoco-dev:
// xml_urdf.cc reads the URDF, user_model.cc and user_objects.cc compile it). MuJoCo has a URDF
// reader of its own; with the compiler options a URDF may carry in <mujoco><compiler .../>
// (defaults for a URDF: fusestatic, discardvisual and strippath true):
// - Every link but "world" is a body; a link's parent joint, unless fixed, gives it joints
//   (floating: a free joint; planar: two slides and a hinge). The root link hangs from the
//   world without a joint.
// - <inertial> needs <mass value> and <inertia> with its six moments ("required attribute
//   missing"). A body's principal moments (its own eigen solver, mju_eig3, on the moments as
//   written; negative ones raised to `boundinertia`, 0) must satisfy A + B >= C, compared
//   exactly, unless `balanceinertia`. A link without <inertial> takes its mass from its geoms
//   (`inertiafromgeom` auto): density 1000 for <collision> shapes, 0 for visual ones.
// - With `fusestatic`, bodies without joints are merged into their parent (their mass only
//   when it is at least mjMINVAL, 1e-15; the world keeps none). Then a body with joints whose
//   mass or a principal moment is below mjMINVAL is refused ("mass and inertia of moving bodies
//   must be larger than mjMINVAL").
// - A free joint must hang from the world: below fixed joints only (which fusestatic merges).
// - Geoms: a box, cylinder or sphere size must be positive; there is no capsule. A mesh must be
//   STL, OBJ or MSH (by its name's last three letters), found by its file name (strippath) in
//   the URDF's directory or `meshdir`; meshes of the same name and scale are one. A URDF
//   without a directory (read from standard input) has its meshes unchecked, and says so.
// - Limits: a joint is limited when lower < upper, whatever its type; <mimic> is not read.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>
#include <tinyxml2.h>

#include "check/targets/target_rules.hpp"

namespace rmodel::detail {
namespace {

/// mjMINVAL: the least mass and principal moment of a moving body.
constexpr double kMinVal = 1e-15;
/// mjEPS: the least largest principal moment of bodies merged into one.
constexpr double kMujocoEps = 1e-14;
/// mju_eig3 stops when every product of inertia is below this: the moments are then the
/// diagonal as written.
constexpr double kEigenStop = 1e-12;
/// Where mju_eig3's eigenvalues and Eigen's may fall on either side of A + B = C: relative to
/// the largest moment, plus the products of inertia mju_eig3 may leave (kEigenStop).
constexpr double kOnBoundRelative = 1e-9;

enum class FromGeom { no, yes, automatic };

/// The compiler options a URDF's <mujoco><compiler> sets, with a URDF's defaults.
struct Compiler {
  bool fusestatic = true;
  bool discardvisual = true;
  bool strippath = true;
  bool balanceinertia = false;
  double boundmass = 0.0;
  double boundinertia = 0.0;
  FromGeom inertiafromgeom = FromGeom::automatic;
  std::string meshdir;
};

void read_bool(const tinyxml2::XMLElement& e, const char* name, bool& value) {
  if (const char* text = e.Attribute(name)) {
    if (std::string_view(text) == "true") value = true;
    if (std::string_view(text) == "false") value = false;
  }
}

Compiler read_compiler(const tinyxml2::XMLElement& robot) {
  Compiler c;
  const auto* mujoco = robot.FirstChildElement("mujoco");
  const auto* e = mujoco ? mujoco->FirstChildElement("compiler") : nullptr;
  if (!e) return c;
  read_bool(*e, "fusestatic", c.fusestatic);
  read_bool(*e, "discardvisual", c.discardvisual);
  read_bool(*e, "strippath", c.strippath);
  read_bool(*e, "balanceinertia", c.balanceinertia);
  (void)e->QueryDoubleAttribute("boundmass", &c.boundmass);
  (void)e->QueryDoubleAttribute("boundinertia", &c.boundinertia);
  if (const char* from = e->Attribute("inertiafromgeom")) {
    if (std::string_view(from) == "false") c.inertiafromgeom = FromGeom::no;
    if (std::string_view(from) == "true") c.inertiafromgeom = FromGeom::yes;
    if (std::string_view(from) == "auto") c.inertiafromgeom = FromGeom::automatic;
  }
  if (const char* dir = e->Attribute("meshdir")) c.meshdir = dir;
  return c;
}

/// Numbers of an attribute, as many as it has.
std::vector<double> numbers(const tinyxml2::XMLElement* e, const char* name) {
  std::vector<double> out;
  const char* text = e ? e->Attribute(name) : nullptr;
  if (!text) return out;
  const char* p = text;
  while (*p) {
    char* end = nullptr;
    const double v = std::strtod(p, &end);
    if (end == p) break;
    out.push_back(v);
    p = end;
  }
  return out;
}

/// The rotation of a URDF rpy: Rz(yaw) Ry(pitch) Rx(roll).
Eigen::Matrix3d rpy_matrix(const std::vector<double>& rpy) {
  if (rpy.size() != 3) return Eigen::Matrix3d::Identity();
  return (Eigen::AngleAxisd(rpy[2], Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy[1], Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(rpy[0], Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

/// A body's mass properties as MuJoCo compiles them; `unknown` when a mesh's volume, which
/// rmodel does not read, makes them up (positive, for a mesh MuJoCo reads).
struct BodyMass {
  MassProperties props;
  bool unknown = false;
  bool merged = false;  ///< links fixed to it were merged in (fusestatic)
};

/// The mass properties of one <visual> or <collision> shape, in the link's frame.
std::optional<BodyMass> geom_mass(const tinyxml2::XMLElement& geom, bool collision) {
  const auto* geometry = geom.FirstChildElement("geometry");
  if (!geometry) return std::nullopt;
  const double density = collision ? 1000.0 : 0.0;
  BodyMass m;
  Eigen::Vector3d moments = Eigen::Vector3d::Zero();
  if (const auto* box = geometry->FirstChildElement("box")) {
    const auto s = numbers(box, "size");
    if (s.size() != 3) return std::nullopt;
    m.props.mass = density * s[0] * s[1] * s[2];
    moments = m.props.mass / 12.0 * Eigen::Vector3d(s[1] * s[1] + s[2] * s[2], s[0] * s[0] + s[2] * s[2], s[0] * s[0] + s[1] * s[1]);
  } else if (const auto* cylinder = geometry->FirstChildElement("cylinder")) {
    const auto r = numbers(cylinder, "radius"), l = numbers(cylinder, "length");
    if (r.size() != 1 || l.size() != 1) return std::nullopt;
    m.props.mass = density * std::numbers::pi * r[0] * r[0] * l[0];
    const double side = m.props.mass * (3 * r[0] * r[0] + l[0] * l[0]) / 12.0;
    moments = Eigen::Vector3d(side, side, m.props.mass * r[0] * r[0] / 2.0);
  } else if (const auto* sphere = geometry->FirstChildElement("sphere")) {
    const auto r = numbers(sphere, "radius");
    if (r.size() != 1) return std::nullopt;
    m.props.mass = density * 4.0 * std::numbers::pi * r[0] * r[0] * r[0] / 3.0;
    moments = Eigen::Vector3d::Constant(2.0 * m.props.mass * r[0] * r[0] / 5.0);
  } else if (geometry->FirstChildElement("mesh")) {
    m.unknown = collision;
  } else {
    return std::nullopt;
  }
  const auto* origin = geom.FirstChildElement("origin");
  const auto xyz = numbers(origin, "xyz");
  const Eigen::Matrix3d r = rpy_matrix(numbers(origin, "rpy"));
  if (xyz.size() == 3) m.props.com = Eigen::Vector3d(xyz[0], xyz[1], xyz[2]);
  m.props.inertia = r * moments.asDiagonal() * r.transpose();
  return m;
}

/// The tensor with its principal moments raised to at least `bound` (MuJoCo's boundinertia).
Eigen::Matrix3d bounded(const Eigen::Matrix3d& inertia, double bound) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(inertia);
  const Eigen::Vector3d moments = eigen.eigenvalues().cwiseMax(bound);
  return eigen.eigenvectors() * moments.asDiagonal() * eigen.eigenvectors().transpose();
}

bool moves(const JointInfo* joint) { return joint != nullptr && joint->type != JointType::fixed; }

class MujocoCompile {
public:
  MujocoCompile(const TargetInput& input, Diagnostics& out)
      : input_(input), model_(input.model), out_(out), compiler_(read_compiler(input.robot)) {
    for (const JointInfo& joint : model_.urdf_joints()) children_[joint.parent_link].push_back(&joint);
  }

  void run() {
    for (const LinkInfo& link : model_.links()) {
      const auto* element = input_.link_element(link.name);
      if (!element) continue;
      check_inertial_complete(link, *element);
      check_geoms(link, *element);
      if (link.name != "world") body_mass(link, *element);
    }
    for (const JointInfo& joint : model_.urdf_joints()) check_joint(joint);
    if (compiler_.fusestatic)
      for (const LinkInfo& link : model_.links())
        if (link.name != "world" && moves(parent_joint(link))) fuse_below(link.name, link.name);
    for (const LinkInfo& link : model_.links())
      if (link.name != "world" && moves(parent_joint(link))) check_moving_mass(link);
    if (unchecked_meshes_ > 0) {
      std::string& message = out_.items[unchecked_at_].message;
      const std::size_t more = unchecked_meshes_ - 1;
      message += more == 0 ? " was" : fmt::format(" and {} more mesh{} were", more, more == 1 ? "" : "es");
      message += " not looked for: MuJoCo reads meshes from the URDF's directory, and this URDF has none (read "
                 "from standard input, or given as text), so whether MuJoCo finds them is not known; check the URDF "
                 "from its file";
    }
  }

private:
  const JointInfo* parent_joint(const LinkInfo& link) const {
    return link.parent_joint.empty() ? nullptr : model_.find_urdf_joint(link.parent_joint);
  }

  const std::vector<const JointInfo*>& children(const std::string& link) const {
    static const std::vector<const JointInfo*> kNone;
    const auto found = children_.find(link);
    return found == children_.end() ? kNone : found->second;
  }

  void check_inertial_complete(const LinkInfo& link, const tinyxml2::XMLElement& element) {
    const auto* inertial = element.FirstChildElement("inertial");
    if (!inertial) return;
    const auto* mass = inertial->FirstChildElement("mass");
    const auto* inertia = inertial->FirstChildElement("inertia");
    std::string missing;
    const tinyxml2::XMLElement* where = inertial;
    if (!mass) {
      missing = "<mass>";
    } else if (!mass->Attribute("value")) {
      missing = "<mass value>";
      where = mass;
    } else if (!inertia) {
      missing = "<inertia>";
    } else {
      for (const char* name : {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"})
        if (!inertia->Attribute(name)) {
          missing = fmt::format("<inertia {}>", name);
          where = inertia;
          break;
        }
    }
    if (!missing.empty())
      out_.add(Severity::error, input_.at(where, link), "mujoco-inertial-incomplete",
               fmt::format("link '{}': <inertial> has no {}, which MuJoCo requires: it refuses the URDF", link.name,
                           missing));
  }

  /// The <visual> (unless discarded) and <collision> elements MuJoCo makes geoms of, in order.
  std::vector<std::pair<const tinyxml2::XMLElement*, bool>> geoms(const tinyxml2::XMLElement& element) const {
    std::vector<std::pair<const tinyxml2::XMLElement*, bool>> out;
    for (const auto* e = element.FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string_view name = e->Name();
      if (name == "collision" || (name == "visual" && !compiler_.discardvisual)) out.emplace_back(e, name == "collision");
    }
    return out;
  }

  void check_geoms(const LinkInfo& link, const tinyxml2::XMLElement& element) {
    for (const auto& [geom, collision] : geoms(element)) {
      const char* kind = collision ? "collision" : "visual";
      const auto* geometry = geom->FirstChildElement("geometry");
      if (!geometry) continue;  // the URDF's own rules refuse it
      auto refuse = [&, kind = kind](const tinyxml2::XMLElement* where, const std::string& what) {
        out_.add(Severity::error, {input_.source, where->GetLineNum()}, "mujoco-geometry",
                 fmt::format("link '{}': {} {}: MuJoCo refuses it", link.name, kind, what));
      };
      auto positive = [&](const tinyxml2::XMLElement* shape, const char* attribute, std::size_t count) {
        const auto values = numbers(shape, attribute);
        if (values.size() == count && std::all_of(values.begin(), values.end(), [](double v) { return v > 0; }))
          return;
        refuse(shape, fmt::format("<{} {}=\"{}\"> is not positive (MuJoCo: \"sizes must be positive\")", shape->Name(),
                                  attribute, shape->Attribute(attribute) ? shape->Attribute(attribute) : ""));
      };
      if (const auto* box = geometry->FirstChildElement("box")) {
        positive(box, "size", 3);
      } else if (const auto* cylinder = geometry->FirstChildElement("cylinder")) {
        positive(cylinder, "radius", 1);
        positive(cylinder, "length", 1);
      } else if (const auto* sphere = geometry->FirstChildElement("sphere")) {
        positive(sphere, "radius", 1);
      } else if (const auto* mesh = geometry->FirstChildElement("mesh")) {
        check_mesh(link, *mesh, kind);
      } else if (const auto* shape = geometry->FirstChildElement()) {
        refuse(shape, fmt::format("<{}> is a shape MuJoCo's URDF reader does not have (box, cylinder, sphere, mesh)",
                                  shape->Name()));
      }
    }
  }

  void check_mesh(const LinkInfo& link, const tinyxml2::XMLElement& mesh, const char* kind) {
    const char* attribute = mesh.Attribute("filename");
    if (!attribute || !*attribute) return;  // the URDF's own rules refuse it
    const std::string uri = attribute;
    auto strip = [](const std::string& path) {
      const auto slash = path.find_last_of("/\\");
      return slash == std::string::npos ? path : path.substr(slash + 1);
    };
    const std::string file = compiler_.strippath ? strip(uri) : uri;
    std::string name = strip(uri);
    if (const auto dot = name.find_last_of('.'); dot != std::string::npos) name.resize(dot);
    std::vector<double> scale = numbers(&mesh, "scale");
    if (scale.size() != 3) scale = {1, 1, 1};
    // Meshes are found by name: one of the same name and scale is the first one again.
    if (const auto seen = meshes_.find(name); seen != meshes_.end() && seen->second == scale) return;
    meshes_.emplace(name, scale);
    const SourceLocation where{input_.source, mesh.GetLineNum()};
    std::string extension = file.size() >= 3 ? file.substr(file.size() - 3) : file;
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension != "stl" && extension != "obj" && extension != "msh") {
      out_.add(Severity::error, where, "mujoco-mesh-format",
               fmt::format("link '{}': {} mesh '{}' is not STL, OBJ or MSH, the formats MuJoCo reads (\"Unknown mesh "
                           "file type\"): convert it, or give the collision an STL copy",
                           link.name, kind, uri));
      return;
    }
    namespace fs = std::filesystem;
    const fs::path meshdir = compiler_.meshdir;
    if (input_.urdf_dir.empty() && !fs::path(file).is_absolute() && !meshdir.is_absolute()) {
      // Nowhere to look from: whether MuJoCo finds the mesh is not known, and the verdict says
      // so (one warning for all of them, at the first; run() completes its message).
      if (unchecked_meshes_++ == 0) {
        unchecked_at_ = out_.items.size();
        out_.add(Severity::warning, where, "mujoco-mesh-unchecked",
                 fmt::format("link '{}': {} mesh '{}'", link.name, kind, uri));
      }
      return;
    }
    const fs::path path = fs::path(file).is_absolute() ? fs::path(file)
                          : meshdir.is_absolute()     ? meshdir / file
                                                      : input_.urdf_dir / meshdir / file;
    std::error_code ec;
    const bool found = fs::is_regular_file(path, ec);
    const bool empty = found && fs::file_size(path, ec) == 0;
    if (found && !empty) return;
    out_.add(Severity::error, where, "mujoco-mesh-missing",
             fmt::format("link '{}': {} mesh '{}': MuJoCo reads {}, which {}{}", link.name, kind, uri,
                         path.lexically_normal().string(), empty ? "is empty" : "does not exist",
                         compiler_.strippath && file != uri
                             ? " (it takes a mesh's file name alone, from the URDF's directory or <compiler meshdir>)"
                             : ""));
  }

  /// The body's own mass properties, as MuJoCo compiles them (before merging), and the
  /// triangle inequality on its principal moments.
  void body_mass(const LinkInfo& link, const tinyxml2::XMLElement& element) {
    BodyMass body;
    const auto found = geoms(element);
    const bool has_inertial = element.FirstChildElement("inertial") != nullptr;
    const bool from_geoms = !found.empty() && (compiler_.inertiafromgeom == FromGeom::yes ||
                                               (compiler_.inertiafromgeom == FromGeom::automatic && !has_inertial));
    if (from_geoms) {
      std::vector<BodyMass> parts;
      for (const auto& [geom, collision] : found)
        if (auto part = geom_mass(*geom, collision)) parts.push_back(*part);
      if (parts.size() == 1) {
        body = parts.front();
      } else if (!parts.empty()) {
        double total = 0;
        bool unknown = false;
        for (const BodyMass& part : parts) {
          total += part.props.mass;
          unknown = unknown || part.unknown;
        }
        if (total < kMinVal && !unknown) {
          out_.add(Severity::error, {input_.source, link.line}, "mujoco-geom-mass",
                   fmt::format("link '{}' has no <inertial>, and its {} geoms weigh {} kg together (visual ones weigh "
                               "nothing): MuJoCo cannot place its centre of mass (\"body mass is too small\")",
                               link.name, parts.size(), short_number(total)));
        } else {
          body = parts.front();
          for (std::size_t k = 1; k < parts.size(); ++k) {
            if (const auto sum = MassProperties::combined(body.props, parts[k].props)) body.props = *sum;
            body.unknown = body.unknown || parts[k].unknown;
          }
        }
      }
    } else if (has_inertial && link.inertial) {
      body.props = MassProperties::of(*link.inertial);
      check_triangle(link, element);
    }
    body.props.mass = std::max(body.props.mass, compiler_.boundmass);
    body.props.inertia = bounded(body.props.inertia, compiler_.boundinertia);
    bodies_[link.name] = body;
  }

  /// A + B >= C on the principal moments of an <inertial>, as MuJoCo compares them.
  void check_triangle(const LinkInfo& link, const tinyxml2::XMLElement& element) {
    if (compiler_.balanceinertia) return;
    const auto& w = link.inertial->moments;  // ixx, ixy, ixz, iyy, iyz, izz as written
    Eigen::Vector3d m;
    const bool diagonal = std::abs(w[1]) < kEigenStop && std::abs(w[2]) < kEigenStop && std::abs(w[4]) < kEigenStop;
    if (diagonal) {
      m = Eigen::Vector3d(w[0], w[3], w[5]);
    } else {
      Eigen::Matrix3d tensor;
      tensor << w[0], w[1], w[2], w[1], w[3], w[4], w[2], w[4], w[5];
      m = principal_moments(tensor);
    }
    m = m.cwiseMax(compiler_.boundinertia);
    double margin = std::numeric_limits<double>::infinity();
    int broken = 0;
    for (int k = 0; k < 3; ++k) {
      const double other = m[(k + 1) % 3] + m[(k + 2) % 3];
      if (other - m[k] < margin) {
        margin = other - m[k];
        broken = k;
      }
    }
    const auto* inertial = element.FirstChildElement("inertial");
    const auto* inertia = inertial ? inertial->FirstChildElement("inertia") : nullptr;
    const SourceLocation where = input_.at(inertia ? inertia : inertial, link);
    const double band = diagonal ? 0.0 : kOnBoundRelative * m.cwiseAbs().maxCoeff() + 2 * kEigenStop;
    const std::string shown =
        fmt::format("{} + {} {} {}", short_number(m[(broken + 1) % 3]), short_number(m[(broken + 2) % 3]),
                    margin < -band ? "<" : "≈", short_number(m[broken]));
    if (margin < -band) {
      out_.add(Severity::error, where, "mujoco-inertia-triangle",
               fmt::format("link '{}': its principal moments of inertia break A + B >= C ({} kg·m²), which MuJoCo "
                           "compares exactly: it refuses the URDF (<compiler balanceinertia=\"true\"/> would even "
                           "them out)",
                           link.name, shown));
    } else if (margin <= band && !diagonal) {
      out_.add(Severity::warning, where, "mujoco-inertia-on-bound",
               fmt::format("link '{}': its principal moments of inertia are on the bound of A + B >= C ({} kg·m², "
                           "within rounding): MuJoCo's eigen solver may find them across it and refuse the URDF",
                           link.name, shown));
    }
  }

  /// fusestatic: the links below `name` through fixed joints join the moving body `into`.
  void fuse_below(const std::string& name, const std::string& into) {
    for (const JointInfo* joint : children(name)) {
      if (joint->type != JointType::fixed || joint->child_link == "world") continue;
      // The child's frame in the moving body's: the fixed joints' origins, composed.
      const Eigen::Isometry3d frame = frame_of(name, into) * to_isometry(joint->origin);
      frames_[joint->child_link] = frame;
      const BodyMass& child = bodies_[joint->child_link];
      BodyMass& body = bodies_[into];
      if (child.props.mass >= kMinVal || child.unknown) {
        if (const auto sum = MassProperties::combined(body.props, child.props.moved(frame))) body.props = *sum;
        body.unknown = body.unknown || child.unknown;
        body.merged = true;
        if (!body.unknown && principal_moments(body.props.inertia).maxCoeff() < kMujocoEps) fuse_failed_.insert(into);
      }
      fuse_below(joint->child_link, into);
    }
  }

  Eigen::Isometry3d frame_of(const std::string& link, const std::string& body) const {
    if (link == body) return Eigen::Isometry3d::Identity();
    const auto found = frames_.find(link);
    return found == frames_.end() ? Eigen::Isometry3d::Identity() : found->second;
  }

  void check_moving_mass(const LinkInfo& link) {
    const BodyMass& body = bodies_[link.name];
    const JointInfo* joint = parent_joint(link);
    if (fuse_failed_.count(link.name)) {
      out_.add(Severity::error, {input_.source, link.line}, "mujoco-moving-body-mass",
               fmt::format("link '{}' and the links fixed to it are point masses at one point: merging them "
                           "(fusestatic), MuJoCo finds no positive moment of inertia and refuses the URDF",
                           link.name));
      return;
    }
    if (body.unknown) return;
    const Eigen::Vector3d moments = principal_moments(body.props.inertia);
    if (body.props.mass >= kMinVal && moments.minCoeff() >= kMinVal) return;
    if (!compiler_.fusestatic)
      for (const JointInfo* child : children(link.name)) {
        if (child->type != JointType::fixed) continue;
        const BodyMass& fixed = bodies_[child->child_link];
        if (fixed.unknown ||
            (fixed.props.mass >= kMinVal && principal_moments(fixed.props.inertia).minCoeff() >= kMinVal))
          return;
      }
    const bool has_inertial = link.inertial.has_value();
    out_.add(Severity::error, {input_.source, link.line}, "mujoco-moving-body-mass",
             fmt::format("link '{}' moves (joint '{}') with a mass of {} kg and principal moments {}, {}, {} kg·m²{}"
                         "{}: MuJoCo refuses a moving body below 1e-15 in either (\"mass and inertia of moving bodies "
                         "must be larger than mjMINVAL\")",
                         link.name, joint->name, short_number(body.props.mass), short_number(moments[0]),
                         short_number(moments[1]), short_number(moments[2]),
                         body.merged ? " with the links fixed to it" : "",
                         has_inertial ? "" : " (it has no <inertial>)"));
  }

  void check_joint(const JointInfo& joint) {
    if (joint.type == JointType::floating && !top_level(joint.parent_link))
      out_.add(Severity::error, {input_.source, joint.line}, "mujoco-free-joint",
               fmt::format("joint '{}' is floating below link '{}', which {}: MuJoCo makes it a free joint, which "
                           "only a body hanging from the world may have (\"free joint can only be used on top level\")",
                           joint.name, joint.parent_link,
                           compiler_.fusestatic ? "moves" : "is a body of its own (fusestatic is off)"));
    if (joint.mimic && joint.movable())
      out_.add(Severity::note, {input_.source, joint.line}, "mujoco-mimic-ignored",
               fmt::format("joint '{}' mimics '{}': MuJoCo's URDF reader ignores <mimic>, and the joint moves on its "
                           "own (an <equality><joint> in MJCF would couple them)",
                           joint.name, joint.mimic->joint));
    if (!joint.has_limits) return;
    if (joint.type == JointType::continuous && joint.lower < joint.upper)
      out_.add(Severity::warning, {input_.source, joint.line}, "mujoco-limits",
               fmt::format("continuous joint '{}' has <limit lower=\"{}\" upper=\"{}\">, which ROS ignores: MuJoCo "
                           "limits the joint to them",
                           joint.name, short_number(joint.lower), short_number(joint.upper)));
    if ((joint.type == JointType::revolute || joint.type == JointType::prismatic) && !(joint.lower < joint.upper))
      out_.add(Severity::warning, {input_.source, joint.line}, "mujoco-limits",
               fmt::format("joint '{}' has lower = upper = {}, which holds it still in ROS: MuJoCo limits a joint "
                           "only when lower < upper, and leaves this one free",
                           joint.name, short_number(joint.lower)));
  }

  /// Whether a body below `link` hangs from the world once static bodies are merged.
  bool top_level(const std::string& link) const {
    if (link == "world") return true;
    if (!compiler_.fusestatic) return false;
    for (const LinkInfo* l = model_.find_link(link); l; l = model_.find_link(parent_joint(*l)->parent_link)) {
      if (l->name == "world" || l->parent_joint.empty()) return true;
      if (parent_joint(*l)->type != JointType::fixed) return false;
    }
    return true;
  }

  const TargetInput& input_;
  const Model& model_;
  Diagnostics& out_;
  Compiler compiler_;
  std::map<std::string, std::vector<const JointInfo*>> children_;
  std::map<std::string, BodyMass> bodies_;
  std::map<std::string, Eigen::Isometry3d> frames_;  ///< of links merged into a moving body, in its frame
  std::map<std::string, std::vector<double>> meshes_;
  std::size_t unchecked_meshes_ = 0;  ///< meshes not looked for: no directory to look from
  std::size_t unchecked_at_ = 0;      ///< the place of their warning in out_
  std::set<std::string> fuse_failed_;
};

}  // namespace

void check_mujoco(const TargetInput& input, Diagnostics& out) { MujocoCompile(input, out).run(); }

}  // namespace rmodel::detail
