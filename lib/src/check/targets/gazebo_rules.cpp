// The rules of sdformat's conversion of a URDF to SDF (sdformat 12, Debian 12's
// libsdformat-dev; parser_urdf.cc), by which Gazebo loads a URDF, and of the SDF checks that
// follow it (sdf::Root::Load). urdfdom reads the URDF first; then, in its order (children by
// joint name, as urdfdom lists them):
// - Fixed joints are lumped (ReduceFixedJoints): the child link's inertial, visuals and
//   collisions join its parent's, depth first, and the child is no link of the SDF. A parent
//   without <inertial> gets an empty one (mass 0) first. The mass properties are added as ODE
//   adds them (dMassAdd), dividing by the total mass: a total of 0 gives a centre of mass of
//   NaN, which stays in every link it is lumped into ("Pose values must be finite"). A fixed
//   joint to the link "world" is not lumped; `<gazebo reference="joint">` with
//   `<preserveFixedJoint>` or `<disableFixedJointLumping>` true keeps a joint.
// - Links are then created from the root down (CreateSDF), except "world": a link without
//   <inertial>, or with a mass within 1e-6 of 0 (lumped ones included), is left out with every
//   link below it, silently (a debug message: "urdf2sdf: link[X] has no inertia").
//   A model left without links is refused ("A model must have at least one link").
// - A floating or planar joint has no SDF type: the joint is left out, while its child's pose
//   refers to it, which the SDF checks refuse.
// - A link's inertia is checked by ignition-math (MassMatrix3::IsValid): a mass >= 0, a
//   positive semi-definite matrix and principal moments within the triangle inequality, to a
//   tolerance of 10 machine epsilons of half their sum; "A link named X has invalid inertia".
// - Links and joints share a namespace in SDF: a joint named as a link is refused.
// - <mimic> is not converted (sdformat 12): the joint moves on its own in Gazebo.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <tinyxml2.h>

#include "check/targets/target_rules.hpp"

namespace rmodel::detail {
namespace {

/// ignition::math::equal(mass, 0): the mass below which sdformat takes a link as massless.
constexpr double kGazeboMassless = 1e-6;

/// A link's mass properties as sdformat has them once its fixed children are lumped into it.
struct LumpedMass {
  std::optional<MassProperties> props;  ///< nullopt: no <inertial> (nor one lumped in)
  /// The inertia's frame in the link (the <inertial>'s orientation, kept when others join).
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
  bool nan = false;           ///< a lump of total mass 0 made the centre of mass NaN
  std::string nan_joint;      ///< the fixed joint of that lump
  std::string nan_child;      ///< its child link
  std::string nan_parent;     ///< its parent link
  bool lumped = false;        ///< another link's mass was lumped in
};

/// True for the values sdformat reads as true in <preserveFixedJoint>: "true", "yes", "1".
bool gazebo_true(std::string text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  text = first == std::string::npos ? std::string() : text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  if (text == "1") return true;
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text == "true" || text == "yes";
}

/// The fixed joints a <gazebo reference="joint"> keeps (preserveFixedJoint, or the older
/// disableFixedJointLumping, which makes the joint a revolute one of zero range).
std::set<std::string> kept_fixed_joints(const tinyxml2::XMLElement& robot) {
  std::set<std::string> kept;
  for (const auto* gazebo = robot.FirstChildElement("gazebo"); gazebo; gazebo = gazebo->NextSiblingElement("gazebo")) {
    const char* reference = gazebo->Attribute("reference");
    if (!reference) continue;
    for (const char* option : {"preserveFixedJoint", "disableFixedJointLumping"})
      for (const auto* e = gazebo->FirstChildElement(option); e; e = e->NextSiblingElement(option)) {
        const char* value = e->Attribute("value");
        if (!value) value = e->GetText();
        if (value && gazebo_true(value)) kept.insert(reference);
      }
  }
  return kept;
}

/// ignition-math's MassMatrix3::IsValid with its default tolerance, on the inertia as sdformat
/// writes it (in the axes of the link's <inertial>): the reason it fails, or nothing.
std::optional<std::string> invalid_inertia(double mass, const Eigen::Matrix3d& i) {
  const double eps = 10.0 * std::numeric_limits<double>::epsilon();
  const double diagonal_epsilon = eps * 0.5 * std::abs(i(0, 0) + i(1, 1) + i(2, 2));
  if (mass < 0) return fmt::format("a mass of {} kg", short_number(mass));
  // IsNearPositive: the leading minors, within the tolerance.
  if (!(i(0, 0) + diagonal_epsilon >= 0) || !(i(0, 0) * i(1, 1) - i(0, 1) * i(0, 1) + diagonal_epsilon >= 0) ||
      !(i.determinant() + diagonal_epsilon >= 0))
    return std::string("an inertia that is not positive semi-definite");
  // PrincipalMoments: the diagonal when the products of inertia are within 1e-6 of the
  // largest moment of it, else the eigenvalues.
  const double tol = 1e-6 * std::max({i(0, 0), i(1, 1), i(2, 2)});
  Eigen::Vector3d m;
  if (std::abs(i(0, 1)) <= tol && std::abs(i(0, 2)) <= tol && std::abs(i(1, 2)) <= tol)
    m = Eigen::Vector3d(i(0, 0), i(1, 1), i(2, 2));
  else
    m = principal_moments(i);
  const double moment_epsilon = eps * 0.5 * std::abs(m.sum());
  const std::string moments =
      fmt::format("principal moments {}, {}, {} kg·m²", short_number(m[0]), short_number(m[1]), short_number(m[2]));
  if (!(m[0] + moment_epsilon >= 0 && m[1] + moment_epsilon >= 0 && m[2] + moment_epsilon >= 0))
    return "negative " + moments;
  if (!(m[0] + m[1] + moment_epsilon >= m[2] && m[1] + m[2] + moment_epsilon >= m[0] &&
        m[2] + m[0] + moment_epsilon >= m[1]))
    return moments + " that break the triangle inequality";
  return std::nullopt;
}

class GazeboConversion {
public:
  GazeboConversion(const TargetInput& input, Diagnostics& out) : input_(input), model_(input.model), out_(out) {
    kept_ = kept_fixed_joints(input.robot);
    for (const JointInfo& joint : model_.urdf_joints()) children_[joint.parent_link].push_back(&joint);
    // urdfdom lists a link's children in the order of its joints' names (a std::map).
    for (auto& [link, joints] : children_)
      std::sort(joints.begin(), joints.end(), [](const JointInfo* a, const JointInfo* b) { return a->name < b->name; });
  }

  void run() {
    const std::string& root = model_.root_link();
    lump(root);
    if (root == "world") {
      for (const JointInfo* joint : children(root)) create(joint->child_link);
    } else {
      create(root);
    }
    if (emitted_.empty()) {
      const LinkInfo* link = model_.find_link(root);
      out_.add(Severity::error, {input_.source, link ? link->line : 0}, "gazebo-no-link",
               fmt::format("Gazebo keeps no link of the robot: {}, and sdformat refuses a model without links (add an "
                           "<inertial> to the root link)",
                           root == "world" ? "no link attached to 'world' has inertia"
                                           : fmt::format("root link '{}' has no inertia", root)));
    }
    for (const std::string& name : emitted_) check_emitted(name);
  }

private:
  const std::vector<const JointInfo*>& children(const std::string& link) const {
    static const std::vector<const JointInfo*> kNone;
    const auto found = children_.find(link);
    return found == children_.end() ? kNone : found->second;
  }

  /// Whether sdformat lumps a link into its parent through this joint.
  bool lumps(const JointInfo& joint) const {
    return joint.type == JointType::fixed && joint.parent_link != "world" && !kept_.count(joint.name);
  }

  /// ReduceFixedJoints: the link's fixed children are lumped into it, depth first (each after
  /// its own), then every other child is reduced in turn.
  void lump(const std::string& name) {
    LumpedMass& mass = mass_[name];
    if (const LinkInfo* link = model_.find_link(name); link && link->inertial) {
      mass.props = MassProperties::of(*link->inertial);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) mass.axes(r, c) = link->inertial->rotation(r, c);
    }
    for (const JointInfo* joint : children(name))
      if (lumps(*joint)) {
        lump(joint->child_link);
        add_lumped(name, *joint);
      }
    for (const JointInfo* joint : children(name))
      if (!lumps(*joint)) lump(joint->child_link);
  }

  /// ReduceInertialToParent: a child with an inertial joins its parent's.
  void add_lumped(const std::string& parent, const JointInfo& joint) {
    const LumpedMass child = mass_[joint.child_link];
    if (!child.props) return;
    LumpedMass& into = mass_[parent];
    if (!into.props) into.props = MassProperties{};  // a new urdf::Inertial: mass 0 at the origin
    const MassProperties moved = child.props->moved(to_isometry(joint.origin));
    if (const auto sum = MassProperties::combined(*into.props, moved)) {
      into.props = *sum;
    } else {
      into.props->mass = 0.0;
      if (!into.nan) {
        into.nan = true;
        into.nan_joint = joint.name;
        into.nan_child = joint.child_link;
        into.nan_parent = parent;
      }
    }
    into.lumped = true;
    if (child.nan && !into.nan) {
      into.nan = true;
      into.nan_joint = child.nan_joint;
      into.nan_child = child.nan_child;
      into.nan_parent = child.nan_parent;
    }
  }

  /// Whether the link would be a link of the SDF, when reached: a root, a child of "world",
  /// or the child of a joint that is not lumped.
  bool link_of_sdf(const LinkInfo& link) const {
    const JointInfo* joint = link.parent_joint.empty() ? nullptr : model_.find_urdf_joint(link.parent_joint);
    return !joint || joint->parent_link == "world" || !lumps(*joint);
  }

  /// The links of the SDF below a link (and the link itself), had nothing been left out.
  void links_of_sdf_below(const std::string& name, std::vector<std::string>& found) const {
    if (const LinkInfo* link = model_.find_link(name); link && link_of_sdf(*link)) found.push_back(name);
    for (const JointInfo* joint : children(name)) links_of_sdf_below(joint->child_link, found);
  }

  /// CreateSDF: the links from `name` down, unless one without inertia cuts the branch.
  void create(const std::string& name) {
    const LinkInfo* link = model_.find_link(name);
    if (!link) return;
    const LumpedMass& mass = mass_[name];
    if (name != "world" && (!mass.props || std::abs(mass.props->mass) <= kGazeboMassless)) {
      dropped(*link, mass);
      return;
    }
    if (link_of_sdf(*link)) emitted_.push_back(name);
    for (const JointInfo* joint : children(name)) create(joint->child_link);
  }

  void dropped(const LinkInfo& link, const LumpedMass& mass) {
    std::vector<std::string> lost;
    links_of_sdf_below(link.name, lost);
    if (lost.empty() || link.parent_joint.empty()) return;  // nothing lost; the root: gazebo-no-link
    const std::string why = mass.props ? fmt::format("a mass of {} kg{}", short_number(mass.props->mass),
                                                     mass.lumped ? " with the links fixed to it" : "")
                                       : std::string("no <inertial>");
    const bool self = lost.front() == link.name;
    if (self) lost.erase(lost.begin());
    std::string what;
    if (self)
      what = lost.empty() ? "Gazebo leaves it out, with its joint"
                          : fmt::format("Gazebo leaves it out, and {} below it ({}), with their joints",
                                        lost.size() == 1 ? "the link" : fmt::format("the {} links", lost.size()),
                                        name_list(lost));
    else
      what = fmt::format("it is lumped into its parent, but Gazebo leaves out {} below it ({}), with their joints",
                         lost.size() == 1 ? "the link" : fmt::format("the {} links", lost.size()), name_list(lost));
    out_.add(Severity::warning, {input_.source, link.line}, "gazebo-link-dropped",
             fmt::format("link '{}' has {}: sdformat takes a link of mass {} kg or less as having no inertia; {}", link.name,
                         why, short_number(kGazeboMassless), what));
  }

  void check_emitted(const std::string& name) {
    const LinkInfo* link = model_.find_link(name);
    const LumpedMass& mass = mass_[name];
    const JointInfo* joint = link->parent_joint.empty() ? nullptr : model_.find_urdf_joint(link->parent_joint);
    if (joint && (joint->type == JointType::floating || joint->type == JointType::planar))
      out_.add(Severity::error, {input_.source, joint->line}, "gazebo-joint-type",
               fmt::format("joint '{}' is {}: sdformat has no such joint in SDF and leaves it out, while link '{}' is "
                           "placed relative to it, which SDF refuses",
                           joint->name, to_string(joint->type), name));
    if (joint && joint->type != JointType::floating && joint->type != JointType::planar) {
      if (std::find(emitted_.begin(), emitted_.end(), joint->name) != emitted_.end())
        out_.add(Severity::error, {input_.source, joint->line}, "gazebo-name-clash",
                 fmt::format("joint '{}' has the name of a link: links and joints share one namespace in SDF, and "
                             "sdformat refuses the model",
                             joint->name));
      if (joint->mimic)
        out_.add(Severity::note, {input_.source, joint->line}, "gazebo-mimic-ignored",
                 fmt::format("joint '{}' mimics '{}': sdformat 12 does not convert <mimic>, and the joint moves on its "
                             "own in Gazebo",
                             joint->name, joint->mimic->joint));
    }
    if (mass.nan) {
      out_.add(Severity::error, {input_.source, line_of_joint(mass.nan_joint)}, "gazebo-lump-nan",
               fmt::format("fixed joint '{}' lumps link '{}' into '{}', of a total mass of 0: sdformat divides by it, "
                           "and link '{}' gets a centre of mass of NaN, which Gazebo refuses (\"Pose values must be "
                           "finite\")",
                           mass.nan_joint, mass.nan_child, mass.nan_parent, name));
      return;
    }
    if (!mass.props) return;  // "world"
    // The inertia as sdformat writes it: in the axes of the link's own <inertial>.
    const Eigen::Matrix3d written = mass.axes.transpose() * mass.props->inertia * mass.axes;
    if (const auto why = invalid_inertia(mass.props->mass, written)) {
      const auto* element = input_.link_element(name);
      const auto* inertial = element ? element->FirstChildElement("inertial") : nullptr;
      const auto* inertia = inertial ? inertial->FirstChildElement("inertia") : nullptr;
      out_.add(Severity::error, input_.at(inertia ? inertia : inertial, *link), "gazebo-inertia-invalid",
               fmt::format("link '{}'{}: {}, which sdformat refuses (\"A link named {} has invalid inertia\")", name,
                           mass.lumped ? " with the links fixed to it" : "", *why, name));
    }
  }

  int line_of_joint(const std::string& name) const {
    const JointInfo* joint = model_.find_urdf_joint(name);
    return joint ? joint->line : 0;
  }

  const TargetInput& input_;
  const Model& model_;
  Diagnostics& out_;
  std::set<std::string> kept_;
  std::map<std::string, std::vector<const JointInfo*>> children_;
  std::map<std::string, LumpedMass> mass_;
  std::vector<std::string> emitted_;
};

}  // namespace

void check_gazebo(const TargetInput& input, Diagnostics& out) { GazeboConversion(input, out).run(); }

}  // namespace rmodel::detail
