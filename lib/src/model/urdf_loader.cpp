#include "model/urdf_loader.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <locale>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <tinyxml2.h>

#include "rmodel/base/error.hpp"
#include "base/xml_error.hpp"
#include "model/inertial_check.hpp"

namespace rmodel::detail {
namespace {

// ---------------------------------------------------------------------------------------
// The raw pass: the XML as written, with line numbers and declaration order (urdfdom keeps
// links and joints in std::maps, losing both). urdfdom stops at the first problem; `rmodel
// check` must report every problem, so the structural checks run on this form, before the
// values are read (read_joint, read_inertial).

struct RawLink {
  const tinyxml2::XMLElement* element = nullptr;
  std::string name;
  int line = 0;
};

struct RawJoint {
  const tinyxml2::XMLElement* element = nullptr;
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

// ---------------------------------------------------------------------------------------
// Numbers as urdfdom reads them, so that rmodel accepts exactly the URDFs ROS tools accept
// and reads the same values. urdf::strToDouble streams the text into a double in the
// classic locale and demands that the stream end there: leading white space is skipped,
// trailing white space is an error, and the number is a sign, digits with at most one
// point, and an exponent (no "inf", "nan" or hexadecimal). Vectors (urdf::Vector3::init)
// split at spaces only (a tab between two numbers is an error) and skip empty pieces.

bool is_classic_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// One number as urdf::strToDouble reads it; nullopt where urdfdom throws.
std::optional<double> urdf_number(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n && is_classic_space(text[i])) ++i;
  const std::size_t start = i;
  if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
  bool mantissa = false;
  while (i < n && is_digit(text[i])) ++i, mantissa = true;
  if (i < n && text[i] == '.')
    for (++i; i < n && is_digit(text[i]); ++i) mantissa = true;
  if (!mantissa) return std::nullopt;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    bool exponent = false;
    while (i < n && is_digit(text[i])) ++i, exponent = true;
    if (!exponent) return std::nullopt;
  }
  if (i != n) return std::nullopt;
  std::string_view number = text.substr(start);
  if (number.front() == '+') number.remove_prefix(1);  // from_chars takes no '+'
  // The grammar is strtod's, which the stream calls, and both round correctly: the same bits.
  double value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec == std::errc() && end == number.data() + number.size()) return value;
  if (ec != std::errc::result_out_of_range) return std::nullopt;
  // Out of range: an overflow is an error for the stream, an underflow is not (it keeps
  // strtod's denormal or zero). Rare enough to ask the stream itself.
  std::istringstream stream{std::string(text)};
  stream.imbue(std::locale::classic());
  stream >> value;
  if (stream.fail() || !stream.eof()) return std::nullopt;
  return value;
}

/// Three numbers as urdf::Vector3::init reads them; nullopt where urdfdom throws.
std::optional<std::array<double, 3>> urdf_vector3(std::string_view text) {
  std::array<double, 3> values{};
  std::size_t count = 0;
  while (!text.empty()) {
    const std::size_t space = std::min(text.find(' '), text.size());
    const std::string_view piece = text.substr(0, space);
    text.remove_prefix(std::min(space + 1, text.size()));
    if (piece.empty()) continue;
    const auto value = urdf_number(piece);
    if (!value || count == values.size()) return std::nullopt;
    values[count++] = *value;
  }
  if (count != values.size()) return std::nullopt;
  return values;
}

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
    raw.links.push_back({el, attribute(el, "name"), el->GetLineNum()});
  for (auto* el = robot->FirstChildElement("joint"); el; el = el->NextSiblingElement("joint")) {
    RawJoint j;
    j.element = el;
    j.name = attribute(el, "name");
    j.type = attribute(el, "type");
    j.line = el->GetLineNum();
    j.parent = attribute(el->FirstChildElement("parent"), "link");
    j.child = attribute(el->FirstChildElement("child"), "link");
    j.has_limit = el->FirstChildElement("limit") != nullptr;
    if (auto* axis = el->FirstChildElement("axis")) {
      j.axis = urdf_vector3(attribute(axis, "xyz"));
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

/// The links by name (the first declared of a name), empty and repeated names reported.
std::unordered_map<std::string, std::size_t> index_raw_links(const RawUrdf& raw, const std::string& source,
                                                             Diagnostics& out) {
  std::unordered_map<std::string, std::size_t> link_index;
  for (std::size_t i = 0; i < raw.links.size(); ++i) {
    const auto& link = raw.links[i];
    if (link.name.empty()) {
      out.add(Severity::error, {source, link.line}, "empty-name", "<link> without a name");
      continue;
    }
    auto [it, inserted] = link_index.emplace(link.name, i);
    if (!inserted)
      out.add(Severity::error, {source, link.line}, "duplicate-link",
              fmt::format("duplicate link '{}' (first declared at line {})", link.name, raw.links[it->second].line));
  }
  return link_index;
}

/// The name and the type of joint `i`; `label` names it in the messages.
void check_joint_name_and_type(const RawUrdf& raw, std::size_t i, const std::string& label,
                               std::unordered_map<std::string, std::size_t>& joint_index, const std::string& source,
                               Diagnostics& out) {
  const RawJoint& j = raw.joints[i];
  if (j.name.empty()) {
    out.add(Severity::error, {source, j.line}, "empty-name", "<joint> without a name");
  } else if (auto [it, inserted] = joint_index.emplace(j.name, i); !inserted) {
    out.add(Severity::error, {source, j.line}, "duplicate-joint",
            fmt::format("duplicate joint '{}' (first declared at line {})", j.name, raw.joints[it->second].line));
  }
  if (j.type.empty())
    out.add(Severity::error, {source, j.line}, "joint-type", fmt::format("{} has no type", label));
  else if (!is_known_type(j.type))
    out.add(Severity::error, {source, j.line}, "joint-type", fmt::format("{} has unknown type '{}'", label, j.type));
}

/// The parent and child links of joint `i`; the joint becomes its child's parent joint in
/// `parent_joint` (per link, -1 while none) unless the child has one already.
void check_joint_links(const RawUrdf& raw, std::size_t i, const std::string& label,
                       const std::unordered_map<std::string, std::size_t>& link_index, std::vector<int>& parent_joint,
                       const std::string& source, Diagnostics& out) {
  const RawJoint& j = raw.joints[i];
  if (j.parent.empty())
    out.add(Severity::error, {source, j.line}, "joint-parent", fmt::format("{} has no <parent link=...>", label));
  else if (!link_index.count(j.parent))
    out.add(Severity::error, {source, j.line}, "unknown-link",
            fmt::format("{} names unknown parent link '{}'", label, j.parent));
  if (j.child.empty())
    out.add(Severity::error, {source, j.line}, "joint-child", fmt::format("{} has no <child link=...>", label));
  else if (!link_index.count(j.child))
    out.add(Severity::error, {source, j.line}, "unknown-link",
            fmt::format("{} names unknown child link '{}'", label, j.child));
  if (!j.parent.empty() && j.parent == j.child) {
    out.add(Severity::error, {source, j.line}, "self-parent",
            fmt::format("{} connects link '{}' to itself", label, j.parent));
  } else if (auto c = link_index.find(j.child); c != link_index.end()) {
    int& slot = parent_joint[c->second];
    if (slot >= 0)
      out.add(Severity::error, {source, j.line}, "several-parents",
              fmt::format("link '{}' has several parents: joints '{}' (line {}) and '{}'", j.child,
                          raw.joints[static_cast<std::size_t>(slot)].name,
                          raw.joints[static_cast<std::size_t>(slot)].line, j.name));
    else
      slot = static_cast<int>(i);
  }
}

/// The limit and the axis that joint `j`'s type needs.
void check_joint_motion(const RawJoint& j, const std::string& label, const std::string& source, Diagnostics& out) {
  const bool needs_limit = j.type == "revolute" || j.type == "prismatic";
  if (needs_limit && !j.has_limit)
    out.add(Severity::error, {source, j.line}, "missing-limit",
            fmt::format("{} of type {} needs a <limit> element", label, j.type));
  if (j.axis_malformed)
    out.add(Severity::error, {source, j.line}, "axis",
            fmt::format("{} has a malformed <axis xyz=...>, expected three numbers", label));
  const bool uses_axis = needs_limit || j.type == "continuous" || j.type == "planar";
  if (uses_axis && j.axis && (*j.axis)[0] == 0.0 && (*j.axis)[1] == 0.0 && (*j.axis)[2] == 0.0)
    out.add(Severity::error, {source, j.line}, "zero-axis", fmt::format("{} has a zero axis", label));
}

/// Each kinematic loop once, walking up from every link iteratively (a deep tree must not
/// blow the stack).
void check_kinematic_loops(const RawUrdf& raw, const std::unordered_map<std::string, std::size_t>& link_index,
                           const std::vector<int>& parent_joint, const std::string& source, Diagnostics& out) {
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
      out.add(Severity::error, {source, raw.links[link].line}, "kinematic-loop",
              fmt::format("kinematic loop through links {} <- {}", names, raw.links[link].name));
    }
    for (std::size_t l : walk) state[l] = 2;
  }
}

/// Exactly one root link: a link (the first of its name) that is no joint's child.
void check_root(const RawUrdf& raw, const std::unordered_map<std::string, std::size_t>& link_index,
                const std::vector<int>& parent_joint, const std::string& source, Diagnostics& out) {
  std::vector<std::string> roots;
  for (std::size_t i = 0; i < raw.links.size(); ++i)
    if (parent_joint[i] < 0 && !raw.links[i].name.empty() && link_index.at(raw.links[i].name) == i)
      roots.push_back(raw.links[i].name);
  if (roots.size() > 1) {
    std::string names;
    for (const auto& r : roots) names += (names.empty() ? "'" : ", '") + r + "'";
    out.add(Severity::error, {source, raw.robot_line}, "several-roots",
            fmt::format("the robot has {} root links ({}); a URDF tree has exactly one", roots.size(), names));
  } else if (roots.empty()) {
    out.add(Severity::error, {source, raw.robot_line}, "no-root",
            "no root link: every link has a parent (kinematic loop)");
  }
}

/// Every structural rule, all problems reported. Returns true when no error was added.
bool check_raw(const RawUrdf& raw, const std::string& source, Diagnostics& out) {
  const std::size_t errors_before = out.count(Severity::error);
  if (raw.robot_name.empty())
    out.add(Severity::warning, {source, raw.robot_line}, "robot-name", "<robot> has no name attribute");
  if (raw.links.empty()) {
    out.add(Severity::error, {source, raw.robot_line}, "no-links", "the robot has no <link>");
    return false;
  }
  const auto link_index = index_raw_links(raw, source, out);
  std::vector<int> parent_joint(raw.links.size(), -1);  // per link: the joint whose child it is
  std::unordered_map<std::string, std::size_t> joint_index;
  for (std::size_t i = 0; i < raw.joints.size(); ++i) {
    const auto& j = raw.joints[i];
    const std::string label = j.name.empty() ? std::string("<joint>") : fmt::format("joint '{}'", j.name);
    check_joint_name_and_type(raw, i, label, joint_index, source, out);
    check_joint_links(raw, i, label, link_index, parent_joint, source, out);
    check_joint_motion(j, label, source, out);
  }
  check_kinematic_loops(raw, link_index, parent_joint, source, out);
  check_root(raw, link_index, parent_joint, source, out);
  return out.count(Severity::error) == errors_before;
}

bool non_negative_vector3(const std::string& text) {
  const auto values = urdf_vector3(text);
  return values && std::all_of(values->begin(), values->end(), [](double v) { return v >= 0; });
}

bool non_negative_number(const std::string& text) {
  const auto value = urdf_number(text);
  return value && *value >= 0;
}

/// Checks the <visual>/<collision> geometry of every link. rmodel does not use geometry and
/// does not read it into the model; these checks keep `check` as strict as a full URDF parser.
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
            if (origin->Attribute(attr) && !urdf_vector3(attribute(origin, attr)))
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
          if (!non_negative_vector3(attribute(g, "size"))) bad(g, "box size must be three non-negative numbers");
        } else if (type == "cylinder") {
          if (!non_negative_number(attribute(g, "radius")) || !non_negative_number(attribute(g, "length")))
            bad(g, "cylinder needs non-negative radius and length");
        } else if (type == "sphere") {
          if (!non_negative_number(attribute(g, "radius"))) bad(g, "sphere needs a non-negative radius");
        } else if (type == "mesh") {
          if (attribute(g, "filename").empty()) bad(g, "mesh needs a filename");
          if (g->Attribute("scale") && !urdf_vector3(attribute(g, "scale"))) bad(g, "mesh scale must be three numbers");
        } else if (type != "capsule") {
          bad(g, fmt::format("has unknown geometry <{}>", type));
        }
      }
    }
  }
}

/// Checks every number urdfdom would read from joints and inertials, in urdfdom's grammar,
/// before the values are read (read_values): a bad one is reported with its line, and NaN
/// or infinity never reach the model: finite values, three per vector, limits in order,
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
    const auto value = urdf_number(text);
    if (!value || !finite(*value)) {
      // A number followed by white space is the one way of writing it that looks right.
      std::string_view trimmed = text;
      while (!trimmed.empty() && is_classic_space(trimmed.back())) trimmed.remove_suffix(1);
      const bool trailing_space = trimmed.size() != std::string_view(text).size() && urdf_number(trimmed);
      bad(element, owner,
          fmt::format("<{} {}=\"{}\"> is not a finite number{}", element->Name(), name, text,
                      trailing_space ? " (URDF readers refuse white space after it)" : ""));
      return std::nullopt;
    }
    return *value;
  };
  auto vector3 = [&](const tinyxml2::XMLElement* element, const char* name, const std::string& owner) {
    const char* text = element ? element->Attribute(name) : nullptr;
    if (!text) return;
    const auto value = urdf_vector3(text);
    if (!value || !std::all_of(value->begin(), value->end(), finite))
      bad(element, owner,
          fmt::format("<{} {}=\"{}\"> is not three finite numbers separated by spaces", element->Name(), name, text));
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

/// The attributes urdfdom requires of a joint's elements: without them it refuses the whole
/// URDF (ROS tools with it), so rmodel does too, naming the element and its line.
void check_required(const RawUrdf& raw, const std::string& source, Diagnostics& out) {
  for (auto* joint = raw.robot->FirstChildElement("joint"); joint; joint = joint->NextSiblingElement("joint")) {
    auto missing = [&](const tinyxml2::XMLElement* where, const std::string& what) {
      out.add(Severity::error, {source, where->GetLineNum()}, "missing-attribute",
              fmt::format("joint '{}': {}", attribute(joint, "name"), what));
    };
    if (auto* limit = joint->FirstChildElement("limit"))
      for (const auto& [name, phrase] : {std::pair{"effort", "an effort"}, std::pair{"velocity", "a velocity"}})
        if (!limit->Attribute(name)) missing(limit, fmt::format("<limit> needs {} attribute", phrase));
    if (auto* safety = joint->FirstChildElement("safety_controller"); safety && !safety->Attribute("k_velocity"))
      missing(safety, "<safety_controller> needs a k_velocity attribute");
    if (auto* dynamics = joint->FirstChildElement("dynamics");
        dynamics && !dynamics->Attribute("damping") && !dynamics->Attribute("friction"))
      missing(dynamics, "<dynamics> needs a damping or a friction attribute");
    if (auto* mimic = joint->FirstChildElement("mimic"); mimic && !mimic->Attribute("joint"))
      missing(mimic, "<mimic> needs a joint attribute");
  }
}

// ---------------------------------------------------------------------------------------
// The values, read as urdfdom reads them (the checks above have accepted every number):
// the same defaults, the same rotation from roll, pitch and yaw, the same bits.

/// urdf::Rotation::setFromRPY (the quaternion, normalised) as the matrix KDL makes of it.
KDL::Rotation rotation_from_rpy(double roll, double pitch, double yaw) {
  const double phi = roll / 2.0, the = pitch / 2.0, psi = yaw / 2.0;
  double x = std::sin(phi) * std::cos(the) * std::cos(psi) - std::cos(phi) * std::sin(the) * std::sin(psi);
  double y = std::cos(phi) * std::sin(the) * std::cos(psi) + std::sin(phi) * std::cos(the) * std::sin(psi);
  double z = std::cos(phi) * std::cos(the) * std::sin(psi) - std::sin(phi) * std::sin(the) * std::cos(psi);
  double w = std::cos(phi) * std::cos(the) * std::cos(psi) + std::sin(phi) * std::sin(the) * std::sin(psi);
  const double norm = std::sqrt(x * x + y * y + z * z + w * w);
  if (norm == 0.0) return rotation_from_quaternion(0.0, 0.0, 0.0, 1.0);
  x /= norm;
  y /= norm;
  z /= norm;
  w /= norm;
  return rotation_from_quaternion(x, y, z, w);
}

/// An <origin>: identity where it or an attribute is absent.
KDL::Frame read_origin(const tinyxml2::XMLElement* origin) {
  KDL::Vector position(0, 0, 0);
  KDL::Rotation rotation = rotation_from_quaternion(0.0, 0.0, 0.0, 1.0);
  if (origin != nullptr) {
    if (const char* xyz = origin->Attribute("xyz")) {
      const auto v = urdf_vector3(xyz).value();
      position = KDL::Vector(v[0], v[1], v[2]);
    }
    if (const char* rpy = origin->Attribute("rpy")) {
      const auto v = urdf_vector3(rpy).value();
      rotation = rotation_from_rpy(v[0], v[1], v[2]);
    }
  }
  return KDL::Frame(rotation, position);
}

/// Attribute `name` of `element` as urdfdom reads it, `fallback` when absent.
double read_number(const tinyxml2::XMLElement* element, const char* name, double fallback) {
  const char* text = element->Attribute(name);
  return text ? urdf_number(text).value() : fallback;
}

Eigen::Matrix3d to_matrix(const KDL::Rotation& r) {
  Eigen::Matrix3d m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = r(i, j);
  return m;
}

/// A link's <inertial> as urdfdom reads it. A missing <mass value> or <inertia> moment is an
/// error for urdfdom that it does not act on (parseLink's result is not checked): the link
/// keeps what was read by then, the origin, then the mass, then the six moments, zero until
/// read. rmodel reads the same values and warns.
Inertial read_inertial(const tinyxml2::XMLElement* inertial, const std::string& link, const std::string& source,
                       Diagnostics& out) {
  auto incomplete = [&](const tinyxml2::XMLElement* where, const std::string& what, const char* read_as) {
    out.add(Severity::warning, {source, where->GetLineNum()}, "inertial-incomplete",
            fmt::format("link '{}': {}; read as ROS reads it, with {}", link, what, read_as));
  };
  const KDL::Frame origin = read_origin(inertial->FirstChildElement("origin"));
  double mass = 0.0;
  Eigen::Matrix3d local = Eigen::Matrix3d::Zero();
  const auto* mass_element = inertial->FirstChildElement("mass");
  const auto* inertia = inertial->FirstChildElement("inertia");
  static constexpr std::array<const char*, 6> kMoments{"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
  const auto absent = inertia ? std::find_if(kMoments.begin(), kMoments.end(),
                                             [&](const char* name) { return !inertia->Attribute(name); })
                              : kMoments.begin();
  if (!mass_element || !mass_element->Attribute("value")) {
    incomplete(mass_element ? mass_element : inertial, "<inertial> has no <mass value=...>",
               "mass 0 and no moments of inertia");
  } else {
    mass = read_number(mass_element, "value", 0.0);
    if (!inertia) {
      incomplete(inertial, "<inertial> has no <inertia>", "no moments of inertia");
    } else if (absent != kMoments.end()) {
      incomplete(inertia, fmt::format("<inertia> has no {}", *absent), "no moments of inertia");
    } else {
      std::array<double, 6> i{};
      for (std::size_t k = 0; k < i.size(); ++k) i[k] = read_number(inertia, kMoments[k], 0.0);
      local << i[0], i[1], i[2], i[1], i[3], i[4], i[2], i[4], i[5];
    }
  }
  const Eigen::Matrix3d R = to_matrix(origin.M);
  Inertial read;
  read.mass = mass;
  read.com = origin.p;
  read.inertia = R * local * R.transpose();
  read.rotation = origin.M;
  read.moments = {local(0, 0), local(0, 1), local(0, 2), local(1, 1), local(1, 2), local(2, 2)};
  return read;
}

JointType to_joint_type(const std::string& type) {
  if (type == "revolute") return JointType::revolute;
  if (type == "continuous") return JointType::continuous;
  if (type == "prismatic") return JointType::prismatic;
  if (type == "fixed") return JointType::fixed;
  if (type == "floating") return JointType::floating;
  if (type == "planar") return JointType::planar;
  return JointType::unknown;
}

/// A <joint> as urdfdom reads it: the first <origin>, <limit> and <mimic>, with urdfdom's
/// defaults (limits 0, multiplier 1, offset 0).
JointInfo read_joint(const RawJoint& raw) {
  const tinyxml2::XMLElement* element = raw.element;
  JointInfo joint;
  joint.name = raw.name;
  joint.line = raw.line;
  joint.type = to_joint_type(raw.type);
  joint.parent_link = raw.parent;
  joint.child_link = raw.child;
  joint.origin = read_origin(element->FirstChildElement("origin"));
  // urdfdom reads <axis> only for movable joints (default 1 0 0) and leaves 0 0 0 on the
  // others; rmodel keeps what the file says on all, so that a joint turning fixed changes
  // no axis.
  joint.axis = raw.axis ? KDL::Vector((*raw.axis)[0], (*raw.axis)[1], (*raw.axis)[2]) : KDL::Vector(1, 0, 0);
  if (const auto* limit = element->FirstChildElement("limit")) {
    joint.has_limits = true;
    joint.lower = read_number(limit, "lower", 0.0);
    joint.upper = read_number(limit, "upper", 0.0);
    joint.velocity_limit = read_number(limit, "velocity", 0.0);
    joint.effort_limit = read_number(limit, "effort", 0.0);
  }
  if (const auto* dynamics = element->FirstChildElement("dynamics"))
    joint.dynamics = JointDynamics{read_number(dynamics, "damping", 0.0), read_number(dynamics, "friction", 0.0)};
  if (const auto* safety = element->FirstChildElement("safety_controller"))
    joint.safety_controller =
        JointSafetyController{read_number(safety, "soft_lower_limit", 0.0), read_number(safety, "soft_upper_limit", 0.0),
                              read_number(safety, "k_position", 0.0), read_number(safety, "k_velocity", 0.0)};
  // As written; the model rules check the master and resolve chained mimics.
  if (const auto* mimic = element->FirstChildElement("mimic")) {
    const std::string master = attribute(mimic, "joint");
    const double multiplier = read_number(mimic, "multiplier", 1.0);
    const double offset = read_number(mimic, "offset", 0.0);
    joint.mimic = JointMimic{master, multiplier, offset, master, multiplier, offset};
  }
  return joint;
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

std::optional<double> read_urdf_number(std::string_view text) { return urdf_number(text); }

std::optional<std::array<double, 3>> read_urdf_vector3(std::string_view text) { return urdf_vector3(text); }

std::optional<KDL::Frame> read_urdf_origin(const tinyxml2::XMLElement* origin) {
  if (origin != nullptr)
    for (const char* name : {"xyz", "rpy"})
      if (const char* text = origin->Attribute(name); text != nullptr && !urdf_vector3(text)) return std::nullopt;
  return read_origin(origin);
}

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
  check_required(*raw, source, out);
  if (out.count(Severity::error) != errors_before) return std::nullopt;

  UrdfModel model;
  model.robot_name = raw->robot_name;
  for (const auto& raw_link : raw->links) {
    LinkInfo link;
    link.name = raw_link.name;
    link.line = raw_link.line;
    if (const auto* inertial = raw_link.element->FirstChildElement("inertial"))
      link.inertial = read_inertial(inertial, link.name, source, out);
    model.link_by_name.emplace(link.name, model.links.size());
    model.links.push_back(std::move(link));
  }
  for (const auto& raw_joint : raw->joints) {
    JointInfo joint = read_joint(raw_joint);
    model.links[model.link_by_name.at(joint.child_link)].parent_joint = joint.name;
    model.links[model.link_by_name.at(joint.parent_link)].child_joints.push_back(joint.name);
    model.joint_by_name.emplace(joint.name, model.joints.size());
    model.joints.push_back(std::move(joint));
  }
  // check_raw found exactly one link without a parent.
  model.root_link = std::find_if(model.links.begin(), model.links.end(), [](const LinkInfo& link) {
                      return link.parent_joint.empty();
                    })->name;
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
    if (d->code == "xml-syntax" || d->code == "not-urdf") throw ParseError(d->where, d->message);
    throw ModelError(d->where, d->message);
  }
  return std::move(*model);
}

}  // namespace rmodel::detail
