#include "model/urdf_loader.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <mutex>
#include <optional>
#include <sstream>

#include <console_bridge/console.h>
#include <fmt/format.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include "rmodel/error.hpp"
#include "base/xml_error.hpp"
#include "model/inertial_check.hpp"

namespace rmodel::detail {
namespace {

// ---------------------------------------------------------------------------------------
// The raw pass: the XML as written, with line numbers and declaration order. urdfdom keeps
// links and joints in std::maps, losing both, and stops at the first problem; `rmodel check`
// must report every problem, so the structural checks run on this form.

struct RawLink {
  std::string name;
  int line = 0;
};

struct RawJoint {
  std::string name;
  std::string type;
  std::string parent;
  std::string child;
  int line = 0;
  bool has_limit = false;
  std::optional<std::array<double, 3>> axis;
  bool axis_malformed = false;
};

struct RawUrdf {
  const tinyxml2::XMLElement* robot = nullptr;
  std::string robot_name;
  int robot_line = 0;
  std::vector<RawLink> links;
  std::vector<RawJoint> joints;
};

std::string attribute(const tinyxml2::XMLElement* element, const char* name) {
  const char* value = element ? element->Attribute(name) : nullptr;
  return value ? value : "";
}

/// Reads exactly `count` whitespace-separated numbers (std::from_chars: no locale, no
/// stream construction, which dominated the cost of reading large URDFs).
template <std::size_t N>
std::optional<std::array<double, N>> parse_numbers(std::string_view text) {
  std::array<double, N> values{};
  const char* p = text.data();
  const char* end = p + text.size();
  auto skip_space = [&] { while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p; };
  for (double& v : values) {
    skip_space();
    if (p < end && *p == '+') ++p;
    auto [next, ec] = std::from_chars(p, end, v);
    if (ec != std::errc() || next == p) return std::nullopt;
    p = next;
  }
  skip_space();
  if (p != end) return std::nullopt;
  return values;
}

std::optional<std::array<double, 3>> parse_xyz(const std::string& text) { return parse_numbers<3>(text); }

/// Parses the XML and collects the raw tables. Returns nullopt (with a diagnostic) when the
/// text is not XML with a <robot> root.
std::optional<RawUrdf> read_raw(tinyxml2::XMLDocument& doc, std::string_view text, const std::string& source,
                                Diagnostics& out) {
  if (const auto problem = parse_xml(doc, text)) {
    out.add(Severity::error, {source, problem->line}, "xml-syntax", problem->message);
    return std::nullopt;
  }
  const tinyxml2::XMLElement* robot = doc.RootElement();
  if (!robot || std::string_view(robot->Name()) != "robot") {
    out.add(Severity::error, {source, robot ? robot->GetLineNum() : 1}, "not-urdf",
            fmt::format("root element is <{}>, expected <robot>", robot ? robot->Name() : ""));
    return std::nullopt;
  }
  RawUrdf raw;
  raw.robot = robot;
  raw.robot_name = attribute(robot, "name");
  raw.robot_line = robot->GetLineNum();
  for (auto* el = robot->FirstChildElement("link"); el; el = el->NextSiblingElement("link"))
    raw.links.push_back({attribute(el, "name"), el->GetLineNum()});
  for (auto* el = robot->FirstChildElement("joint"); el; el = el->NextSiblingElement("joint")) {
    RawJoint j;
    j.name = attribute(el, "name");
    j.type = attribute(el, "type");
    j.line = el->GetLineNum();
    j.parent = attribute(el->FirstChildElement("parent"), "link");
    j.child = attribute(el->FirstChildElement("child"), "link");
    j.has_limit = el->FirstChildElement("limit") != nullptr;
    if (auto* axis = el->FirstChildElement("axis")) {
      j.axis = parse_xyz(attribute(axis, "xyz"));
      j.axis_malformed = !j.axis.has_value();
    }
    raw.joints.push_back(std::move(j));
  }
  return raw;
}

bool is_known_type(const std::string& type) {
  return type == "revolute" || type == "continuous" || type == "prismatic" || type == "fixed" ||
         type == "floating" || type == "planar";
}

/// Every structural rule, all problems reported. Returns true when no error was added.
bool check_raw(const RawUrdf& raw, const std::string& source, Diagnostics& out) {
  const std::size_t errors_before = out.count(Severity::error);
  auto at = [&](int line) { return SourceLocation{source, line}; };

  if (raw.robot_name.empty())
    out.add(Severity::warning, at(raw.robot_line), "robot-name", "<robot> has no name attribute");
  if (raw.links.empty()) {
    out.add(Severity::error, at(raw.robot_line), "no-links", "the robot has no <link>");
    return false;
  }

  std::unordered_map<std::string, std::size_t> link_index;
  for (std::size_t i = 0; i < raw.links.size(); ++i) {
    const auto& link = raw.links[i];
    if (link.name.empty()) {
      out.add(Severity::error, at(link.line), "empty-name", "<link> without a name");
      continue;
    }
    auto [it, inserted] = link_index.emplace(link.name, i);
    if (!inserted)
      out.add(Severity::error, at(link.line), "duplicate-link",
              fmt::format("duplicate link '{}' (first declared at line {})", link.name,
                          raw.links[it->second].line));
  }

  // parent_of[link] = index of the joint whose child it is
  std::vector<int> parent_joint(raw.links.size(), -1);
  std::unordered_map<std::string, std::size_t> joint_index;
  for (std::size_t i = 0; i < raw.joints.size(); ++i) {
    const auto& j = raw.joints[i];
    const std::string label = j.name.empty() ? std::string("<joint>") : fmt::format("joint '{}'", j.name);
    if (j.name.empty()) {
      out.add(Severity::error, at(j.line), "empty-name", "<joint> without a name");
    } else if (auto [it, inserted] = joint_index.emplace(j.name, i); !inserted) {
      out.add(Severity::error, at(j.line), "duplicate-joint",
              fmt::format("duplicate joint '{}' (first declared at line {})", j.name,
                          raw.joints[it->second].line));
    }
    if (j.type.empty())
      out.add(Severity::error, at(j.line), "joint-type", fmt::format("{} has no type", label));
    else if (!is_known_type(j.type))
      out.add(Severity::error, at(j.line), "joint-type",
              fmt::format("{} has unknown type '{}'", label, j.type));
    if (j.parent.empty())
      out.add(Severity::error, at(j.line), "joint-parent",
              fmt::format("{} has no <parent link=...>", label));
    else if (!link_index.count(j.parent))
      out.add(Severity::error, at(j.line), "unknown-link",
              fmt::format("{} names unknown parent link '{}'", label, j.parent));
    if (j.child.empty())
      out.add(Severity::error, at(j.line), "joint-child",
              fmt::format("{} has no <child link=...>", label));
    else if (!link_index.count(j.child))
      out.add(Severity::error, at(j.line), "unknown-link",
              fmt::format("{} names unknown child link '{}'", label, j.child));
    if (!j.parent.empty() && j.parent == j.child)
      out.add(Severity::error, at(j.line), "self-parent",
              fmt::format("{} connects link '{}' to itself", label, j.parent));
    else if (auto c = link_index.find(j.child); c != link_index.end()) {
      int& slot = parent_joint[c->second];
      if (slot >= 0)
        out.add(Severity::error, at(j.line), "several-parents",
                fmt::format("link '{}' has several parents: joints '{}' (line {}) and '{}'", j.child,
                            raw.joints[static_cast<std::size_t>(slot)].name,
                            raw.joints[static_cast<std::size_t>(slot)].line, j.name));
      else
        slot = static_cast<int>(i);
    }
    const bool needs_limit = j.type == "revolute" || j.type == "prismatic";
    if (needs_limit && !j.has_limit)
      out.add(Severity::error, at(j.line), "missing-limit",
              fmt::format("{} of type {} needs a <limit> element", label, j.type));
    if (j.axis_malformed)
      out.add(Severity::error, at(j.line), "axis",
              fmt::format("{} has a malformed <axis xyz=...>, expected three numbers", label));
    const bool uses_axis = needs_limit || j.type == "continuous" || j.type == "planar";
    if (uses_axis && j.axis && (*j.axis)[0] == 0.0 && (*j.axis)[1] == 0.0 && (*j.axis)[2] == 0.0)
      out.add(Severity::error, at(j.line), "zero-axis", fmt::format("{} has a zero axis", label));
  }

  // Roots and loops, iteratively (deep trees must not blow the stack).
  std::vector<std::string> roots;
  for (std::size_t i = 0; i < raw.links.size(); ++i)
    if (parent_joint[i] < 0 && !raw.links[i].name.empty() &&
        link_index.at(raw.links[i].name) == i)
      roots.push_back(raw.links[i].name);
  // state: 0 unvisited, 1 on the current walk, 2 known to reach a root
  std::vector<char> state(raw.links.size(), 0);
  for (std::size_t start = 0; start < raw.links.size(); ++start) {
    if (state[start]) continue;
    std::vector<std::size_t> walk;
    std::size_t link = start;
    bool loop = false;
    while (true) {
      if (state[link] == 2) break;
      if (state[link] == 1) { loop = true; break; }
      state[link] = 1;
      walk.push_back(link);
      int pj = parent_joint[link];
      if (pj < 0) break;
      auto p = link_index.find(raw.joints[static_cast<std::size_t>(pj)].parent);
      if (p == link_index.end()) break;
      link = p->second;
    }
    if (loop) {
      // Report the cycle once: the links from the first repeat onwards.
      auto first = std::find(walk.begin(), walk.end(), link);
      std::string names;
      for (auto it = first; it != walk.end(); ++it)
        names += (names.empty() ? "" : " <- ") + raw.links[*it].name;
      out.add(Severity::error, at(raw.links[link].line), "kinematic-loop",
              fmt::format("kinematic loop through links {} <- {}", names, raw.links[link].name));
    }
    for (std::size_t l : walk) state[l] = 2;
  }
  if (roots.size() > 1) {
    std::string names;
    for (const auto& r : roots) names += (names.empty() ? "'" : ", '") + r + "'";
    out.add(Severity::error, at(raw.robot_line), "several-roots",
            fmt::format("the robot has {} root links ({}); a URDF tree has exactly one", roots.size(), names));
  } else if (roots.empty()) {
    out.add(Severity::error, at(raw.robot_line), "no-root",
            "no root link: every link has a parent (kinematic loop)");
  }
  return out.count(Severity::error) == errors_before;
}

template <std::size_t N>
bool non_negative_numbers(const std::string& text) {
  auto values = parse_numbers<N>(text);
  return values && std::all_of(values->begin(), values->end(), [](double v) { return v >= 0; });
}

/// Checks the <visual>/<collision> geometry of every link. rmodel does not use geometry, so
/// urdfdom never sees it (see reduced_document); these checks keep `check` as strict.
void check_geometry(const RawUrdf& raw, const std::string& source, Diagnostics& out) {
  for (auto* link = raw.robot->FirstChildElement("link"); link; link = link->NextSiblingElement("link")) {
    for (const char* kind : {"visual", "collision"}) {
      for (auto* shape = link->FirstChildElement(kind); shape; shape = shape->NextSiblingElement(kind)) {
        auto bad = [&](const tinyxml2::XMLElement* where, const std::string& what) {
          out.add(Severity::error, {source, where->GetLineNum()}, "geometry",
                  fmt::format("link '{}': {} {}", attribute(link, "name"), kind, what));
        };
        if (auto* origin = shape->FirstChildElement("origin")) {
          for (const char* attr : {"xyz", "rpy"})
            if (origin->Attribute(attr) && !parse_xyz(attribute(origin, attr)))
              bad(origin, fmt::format("origin {}=\"{}\" is not three numbers", attr, attribute(origin, attr)));
        }
        const tinyxml2::XMLElement* geometry = shape->FirstChildElement("geometry");
        const tinyxml2::XMLElement* g = geometry ? geometry->FirstChildElement() : nullptr;
        if (!g) {
          bad(shape, "has no <geometry> shape");
          continue;
        }
        const std::string_view type = g->Name();
        if (type == "box") {
          if (!non_negative_numbers<3>(attribute(g, "size"))) bad(g, "box size must be three non-negative numbers");
        } else if (type == "cylinder") {
          if (!non_negative_numbers<1>(attribute(g, "radius")) || !non_negative_numbers<1>(attribute(g, "length")))
            bad(g, "cylinder needs non-negative radius and length");
        } else if (type == "sphere") {
          if (!non_negative_numbers<1>(attribute(g, "radius"))) bad(g, "sphere needs a non-negative radius");
        } else if (type == "mesh") {
          if (attribute(g, "filename").empty()) bad(g, "mesh needs a filename");
          if (g->Attribute("scale") && !parse_xyz(attribute(g, "scale"))) bad(g, "mesh scale must be three numbers");
        } else if (type != "capsule") {
          bad(g, fmt::format("has unknown geometry <{}>", type));
        }
      }
    }
  }
}

/// Checks every number rmodel reads from joints and inertials before urdfdom sees them, so
/// that a bad one is reported with its line (urdfdom's messages have none) and NaN or
/// infinity never reach the model: finite values, three per vector, limits in order,
/// velocity and effort limits and masses not negative.
void check_numbers(const RawUrdf& raw, const std::string& source, Diagnostics& out) {
  auto bad = [&](const tinyxml2::XMLElement* where, const std::string& owner, const std::string& what) {
    out.add(Severity::error, {source, where->GetLineNum()}, "bad-number", fmt::format("{}: {}", owner, what));
  };
  auto finite = [](double v) { return std::isfinite(v); };
  // Optional attribute `name` of `element`: nullopt when absent, else one finite number.
  auto number = [&](const tinyxml2::XMLElement* element, const char* name,
                    const std::string& owner) -> std::optional<double> {
    const char* text = element->Attribute(name);
    if (!text) return std::nullopt;
    const auto value = parse_numbers<1>(text);
    if (!value || !finite((*value)[0])) {
      bad(element, owner, fmt::format("<{} {}=\"{}\"> is not a finite number", element->Name(), name, text));
      return std::nullopt;
    }
    return (*value)[0];
  };
  auto vector3 = [&](const tinyxml2::XMLElement* element, const char* name, const std::string& owner) {
    const char* text = element ? element->Attribute(name) : nullptr;
    if (!text) return;
    const auto value = parse_xyz(text);
    if (!value || !std::all_of(value->begin(), value->end(), finite))
      bad(element, owner, fmt::format("<{} {}=\"{}\"> is not three finite numbers", element->Name(), name, text));
  };
  for (auto* joint = raw.robot->FirstChildElement("joint"); joint; joint = joint->NextSiblingElement("joint")) {
    const std::string owner = fmt::format("joint '{}'", attribute(joint, "name"));
    for (auto* origin = joint->FirstChildElement("origin"); origin; origin = origin->NextSiblingElement("origin")) {
      vector3(origin, "xyz", owner);
      vector3(origin, "rpy", owner);
    }
    if (auto* limit = joint->FirstChildElement("limit")) {
      const auto lower = number(limit, "lower", owner);
      const auto upper = number(limit, "upper", owner);
      for (const char* name : {"velocity", "effort"})
        if (const auto v = number(limit, name, owner); v && *v < 0)
          bad(limit, owner, fmt::format("<limit {}=\"{}\"> must not be negative", name, *v));
      if (lower && upper && *lower > *upper)
        bad(limit, owner, fmt::format("<limit lower=\"{}\"> is above upper=\"{}\"", *lower, *upper));
    }
    struct Scalars {
      const char* element;
      std::array<const char*, 4> names;  // unused slots are null
    };
    static constexpr Scalars kScalars[] = {
        {"dynamics", {"damping", "friction", nullptr, nullptr}},
        {"mimic", {"multiplier", "offset", nullptr, nullptr}},
        {"calibration", {"rising", "falling", nullptr, nullptr}},
        {"safety_controller", {"soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity"}}};
    for (const Scalars& scalars : kScalars)
      if (auto* e = joint->FirstChildElement(scalars.element))
        for (const char* name : scalars.names)
          if (name != nullptr) (void)number(e, name, owner);
  }
  for (auto* link = raw.robot->FirstChildElement("link"); link; link = link->NextSiblingElement("link")) {
    const auto* inertial = link->FirstChildElement("inertial");
    if (!inertial) continue;
    const std::string owner = fmt::format("link '{}'", attribute(link, "name"));
    vector3(inertial->FirstChildElement("origin"), "xyz", owner);
    vector3(inertial->FirstChildElement("origin"), "rpy", owner);
    if (auto* mass = inertial->FirstChildElement("mass"))
      if (const auto m = number(mass, "value", owner); m && *m < 0)
        bad(mass, owner, fmt::format("<mass value=\"{}\"> must not be negative", *m));
    if (auto* inertia = inertial->FirstChildElement("inertia"))
      for (const char* name : {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}) (void)number(inertia, name, owner);
  }
}

/// The part of the URDF urdfdom needs for rmodel: links with their <inertial>, and joints.
/// Visuals, collisions, materials, transmissions and gazebo extensions are left out, which
/// makes urdfdom's (TinyXML) parse several times cheaper on real robots.
std::string reduced_document(const RawUrdf& raw) {
  tinyxml2::XMLPrinter printer(nullptr, true);
  printer.OpenElement("robot", true);
  printer.PushAttribute("name", raw.robot_name.c_str());
  for (auto* link = raw.robot->FirstChildElement("link"); link; link = link->NextSiblingElement("link")) {
    printer.OpenElement("link", true);
    printer.PushAttribute("name", attribute(link, "name").c_str());
    if (auto* inertial = link->FirstChildElement("inertial")) inertial->Accept(&printer);
    printer.CloseElement(true);
  }
  for (auto* joint = raw.robot->FirstChildElement("joint"); joint; joint = joint->NextSiblingElement("joint"))
    joint->Accept(&printer);
  printer.CloseElement(true);
  return printer.CStr();
}

// ---------------------------------------------------------------------------------------
// urdfdom reports problems through console_bridge, which prints by default. The library
// never prints, so its messages are captured while it parses.

class CapturingHandler : public console_bridge::OutputHandler {
public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR)
      errors.push_back(text);
    else if (level >= console_bridge::CONSOLE_BRIDGE_LOG_WARN)
      warnings.push_back(text);
  }
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};

std::mutex& console_mutex() {
  static std::mutex m;
  return m;
}

struct UrdfdomResult {
  urdf::ModelInterfaceSharedPtr model;
  std::vector<std::string> errors;
};

UrdfdomResult parse_with_urdfdom(std::string_view text) {
  std::lock_guard lock(console_mutex());
  CapturingHandler handler;
  console_bridge::OutputHandler* previous = console_bridge::getOutputHandler();
  console_bridge::useOutputHandler(&handler);
  UrdfdomResult result;
  try {
    result.model = urdf::parseURDF(std::string(text));
  } catch (const std::exception& e) {
    handler.errors.push_back(e.what());
  }
  console_bridge::useOutputHandler(previous);
  result.errors = std::move(handler.errors);
  return result;
}

/// Line of the element a urdfdom message is about ("... [name] ..."), or 0.
int line_of_message(const std::string& message, const RawUrdf& raw) {
  // Each "[...]" with something inside, left to right (a scan: std::regex costs more to
  // compile than the whole message, and warns under the sanitizer build).
  for (std::size_t open = message.find('['); open != std::string::npos; open = message.find('[', open + 1)) {
    const std::size_t close = message.find(']', open + 1);
    if (close == std::string::npos) break;
    if (close == open + 1) continue;
    const std::string name = message.substr(open + 1, close - open - 1);
    for (const auto& j : raw.joints)
      if (j.name == name) return j.line;
    for (const auto& l : raw.links)
      if (l.name == name) return l.line;
    open = close;
  }
  return 0;
}

KDL::Vector to_kdl(const urdf::Vector3& v) { return {v.x, v.y, v.z}; }

KDL::Frame to_kdl(const urdf::Pose& pose) {
  const auto& r = pose.rotation;
  return KDL::Frame(rotation_from_quaternion(r.x, r.y, r.z, r.w), to_kdl(pose.position));
}

JointType to_joint_type(int urdf_type) {
  switch (urdf_type) {
    case urdf::Joint::REVOLUTE: return JointType::revolute;
    case urdf::Joint::CONTINUOUS: return JointType::continuous;
    case urdf::Joint::PRISMATIC: return JointType::prismatic;
    case urdf::Joint::FIXED: return JointType::fixed;
    case urdf::Joint::FLOATING: return JointType::floating;
    case urdf::Joint::PLANAR: return JointType::planar;
    default: return JointType::unknown;
  }
}

Eigen::Matrix3d to_matrix(const KDL::Rotation& r) {
  Eigen::Matrix3d m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = r(i, j);
  return m;
}

/// A URDF joint as a KDL joint. Floating and planar joints have no KDL equivalent; like
/// the common converters, they become fixed (rmodel check warns about them).
KDL::Joint to_kdl_joint(const JointInfo& joint) {
  const KDL::Vector axis = joint.origin.M * joint.axis;
  switch (joint.type) {
    case JointType::revolute:
    case JointType::continuous:
      return KDL::Joint(joint.name, joint.origin.p, axis, KDL::Joint::RotAxis);
    case JointType::prismatic:
      return KDL::Joint(joint.name, joint.origin.p, axis, KDL::Joint::TransAxis);
    default:
      return KDL::Joint(joint.name, KDL::Joint::None);
  }
}

KDL::RigidBodyInertia to_kdl(const std::optional<Inertial>& inertial) {
  if (!inertial) return KDL::RigidBodyInertia::Zero();
  const auto& I = inertial->inertia;
  return KDL::RigidBodyInertia(
      inertial->mass, inertial->com,
      KDL::RotationalInertia(I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)));
}

}  // namespace

std::optional<UrdfModel> analyse_urdf(std::string_view text, const std::string& source, Diagnostics& out,
                                      Diagnostics* inertials) {
  tinyxml2::XMLDocument doc;
  auto raw = read_raw(doc, text, source, out);
  if (!raw) return std::nullopt;
  if (inertials != nullptr) check_inertials(*raw->robot, source, *inertials);
  if (!check_raw(*raw, source, out)) return std::nullopt;
  const std::size_t errors_before = out.count(Severity::error);
  check_geometry(*raw, source, out);
  check_numbers(*raw, source, out);
  if (out.count(Severity::error) != errors_before) return std::nullopt;
  auto parsed = parse_with_urdfdom(reduced_document(*raw));
  if (!parsed.model) {
    for (const auto& e : parsed.errors)
      out.add(Severity::error, {source, line_of_message(e, *raw)}, "urdfdom", e);
    if (parsed.errors.empty()) out.add(Severity::error, {source, 0}, "urdfdom", "urdfdom rejected the URDF");
    return std::nullopt;
  }
  const urdf::ModelInterface& urdf_model = *parsed.model;

  UrdfModel model;
  model.robot_name = urdf_model.getName();
  for (const auto& raw_link : raw->links) {
    LinkInfo link;
    link.name = raw_link.name;
    link.line = raw_link.line;
    auto it = urdf_model.links_.find(link.name);
    if (it != urdf_model.links_.end() && it->second->inertial) {
      const urdf::Inertial& in = *it->second->inertial;
      const KDL::Frame frame = to_kdl(in.origin);
      Eigen::Matrix3d local;
      local << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
      const Eigen::Matrix3d R = to_matrix(frame.M);
      link.inertial = Inertial{in.mass, frame.p, R * local * R.transpose()};
    }
    model.link_by_name.emplace(link.name, model.links.size());
    model.links.push_back(std::move(link));
  }
  for (const auto& raw_joint : raw->joints) {
    const urdf::Joint& uj = *urdf_model.joints_.at(raw_joint.name);
    JointInfo joint;
    joint.name = raw_joint.name;
    joint.line = raw_joint.line;
    joint.type = to_joint_type(uj.type);
    joint.parent_link = uj.parent_link_name;
    joint.child_link = uj.child_link_name;
    joint.origin = to_kdl(uj.parent_to_joint_origin_transform);
    // urdfdom reads <axis> only for movable joints and leaves (0 0 0) on the others; keep
    // what the file says (URDF default 1 0 0), so that a joint turning fixed changes no axis.
    joint.axis = to_kdl(uj.axis);
    if (!joint.movable())
      joint.axis = raw_joint.axis ? KDL::Vector((*raw_joint.axis)[0], (*raw_joint.axis)[1], (*raw_joint.axis)[2])
                                  : KDL::Vector(1, 0, 0);
    if (uj.limits) {
      joint.has_limits = true;
      joint.lower = uj.limits->lower;
      joint.upper = uj.limits->upper;
      joint.velocity_limit = uj.limits->velocity;
      joint.effort_limit = uj.limits->effort;
    }
    // As written; the model rules check the master and resolve chained mimics.
    if (uj.mimic)
      joint.mimic = JointMimic{uj.mimic->joint_name, uj.mimic->multiplier, uj.mimic->offset,
                               uj.mimic->joint_name, uj.mimic->multiplier, uj.mimic->offset};
    model.links[model.link_by_name.at(joint.child_link)].parent_joint = joint.name;
    model.links[model.link_by_name.at(joint.parent_link)].child_joints.push_back(joint.name);
    model.joint_by_name.emplace(joint.name, model.joints.size());
    model.joints.push_back(std::move(joint));
  }
  model.root_link = urdf_model.getRoot()->name;
  (void)text;
  return model;
}

KDL::Rotation rotation_from_quaternion(double x, double y, double z, double w) {
  const double x2 = x * x, y2 = y * y, z2 = z * z, w2 = w * w;
  return KDL::Rotation(w2 + x2 - y2 - z2, 2 * x * y - 2 * w * z, 2 * x * z + 2 * w * y,  //
                       2 * x * y + 2 * w * z, w2 - x2 + y2 - z2, 2 * y * z - 2 * w * x,  //
                       2 * x * z - 2 * w * y, 2 * y * z + 2 * w * x, w2 - x2 - y2 + z2);
}

std::unique_ptr<KDL::Tree> build_kdl_tree(const UrdfModel& model) {
  // Breadth-first from the root, children in declaration order; no recursion, so a
  // 10 000-link line does not exhaust the stack.
  auto tree = std::make_unique<KDL::Tree>(model.root_link);
  std::vector<std::size_t> queue{model.link_by_name.at(model.root_link)};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const LinkInfo& parent = model.links[queue[head]];
    for (const auto& joint_name : parent.child_joints) {
      const JointInfo& joint = model.joints[model.joint_by_name.at(joint_name)];
      const std::size_t child = model.link_by_name.at(joint.child_link);
      KDL::Segment segment(joint.child_link, to_kdl_joint(joint), joint.origin,
                           to_kdl(model.links[child].inertial));
      tree->addSegment(segment, parent.name);
      queue.push_back(child);
    }
  }
  return tree;
}

UrdfModel load_urdf(std::string_view text, const std::string& source) {
  Diagnostics diagnostics;
  auto model = analyse_urdf(text, source, diagnostics);
  if (const Diagnostic* d = diagnostics.first_error()) {
    if (d->code == "xml-syntax" || d->code == "not-urdf" || d->code == "urdfdom") throw ParseError(d->where, d->message);
    throw ModelError(d->where, d->message);
  }
  return std::move(*model);
}

}  // namespace rmodel::detail
