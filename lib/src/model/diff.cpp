#include "rmodel/model/diff.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "base/roll_pitch_yaw.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel {

std::string_view to_string(PoseVerdict verdict) {
  switch (verdict) {
    case PoseVerdict::identical: return "identical";
    case PoseVerdict::extended: return "extended";
    case PoseVerdict::incompatible: return "incompatible";
  }
  return "incompatible";
}

bool ModelDiff::has_changes() const noexcept {
  return pose.verdict != PoseVerdict::identical || !robot.empty() || !links.empty() || !joints.empty() ||
         !renamed.empty() || !chains.empty() || !groups.empty() || !contacts.empty() || !poses.empty();
}

bool ModelDiff::physical_changes() const noexcept { return !links.empty() || !joints.empty() || !renamed.empty(); }

namespace {

bool rotational(JointType t) { return t == JointType::revolute || t == JointType::continuous; }

class Differ {
public:
  Differ(const Model& a, const Model& b, double tolerance) : old_(a), new_(b), tol_(tolerance) {}

  ModelDiff run() {
    ModelDiff d;
    d.pose = pose();
    robot(d.robot);
    links(d.links);
    joints(d);
    chains(d.chains);
    groups(d.groups);
    contacts(d.contacts);
    poses(d.poses);
    return d;
  }

private:
  // ---- helpers ----

  bool near(double a, double b) const { return std::abs(a - b) <= tol_ || (std::isnan(a) && std::isnan(b)); }

  /// Equal within the tolerance relative to `scale` (a mass, the largest moment of inertia).
  bool near_relative(double a, double b, double scale) const { return a == b || std::abs(a - b) <= tol_ * scale; }

  bool near(const std::vector<double>& a, const std::vector<double>& b) const {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!near(a[i], b[i])) return false;
    return true;
  }

  static std::vector<double> xyz(const KDL::Vector& v) { return {v.x(), v.y(), v.z()}; }

  static std::vector<double> rpy(const KDL::Rotation& r) {
    const auto [roll, pitch, yaw] = detail::roll_pitch_yaw(r.data);
    return {roll, pitch, yaw};
  }

  bool same_rotation(const KDL::Rotation& a, const KDL::Rotation& b) const {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (!near(a(i, j), b(i, j))) return false;
    return true;
  }

  bool same_origin(const JointInfo& a, const JointInfo& b) const {
    return near(xyz(a.origin.p), xyz(b.origin.p)) && same_rotation(a.origin.M, b.origin.M);
  }

  static DiffValue text_or_null(const std::string& s) { return s.empty() ? DiffValue{} : DiffValue{s}; }

  template <class T>
  static void if_differs(std::vector<PropertyChange>& out, const char* property, const T& a, const T& b) {
    if (!(a == b)) out.push_back({property, DiffValue{a}, DiffValue{b}});
  }

  void if_differs_text(std::vector<PropertyChange>& out, const char* property, const std::string& a,
                       const std::string& b) const {
    if (a != b) out.push_back({property, text_or_null(a), text_or_null(b)});
  }

  void if_differs_number(std::vector<PropertyChange>& out, const char* property, double a, double b) const {
    if (!near(a, b)) out.push_back({property, a, b});
  }

  /// Added and removed names, the names in both (new order) left in `common`.
  template <class Entities>
  static void presence(const Entities& a, const Entities& b, EntityDiff& out, std::vector<std::string>* common) {
    std::map<std::string, bool> in_old, in_new;
    for (const auto& e : a) in_old[e.name] = true;
    for (const auto& e : b) in_new[e.name] = true;
    for (const auto& e : a)
      if (!in_new.count(e.name)) out.removed.push_back(e.name);
    for (const auto& e : b) {
      if (!in_old.count(e.name)) out.added.push_back(e.name);
      else if (common) common->push_back(e.name);
    }
  }

  // ---- full pose ----

  PoseDiff pose() const {
    PoseDiff p;
    const auto& a = old_.joint_names();
    const auto& b = new_.joint_names();
    p.old_size = a.size();
    p.new_size = b.size();
    for (std::size_t i = 0; i < a.size(); ++i) {
      const auto j = new_.find_joint_index(a[i]);
      if (!j) p.removed.push_back({a[i], static_cast<int>(i)});
      else if (*j != i) p.moved.push_back({a[i], static_cast<int>(i), static_cast<int>(*j)});
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
      const auto j = old_.find_joint_index(b[i]);
      if (!j) {
        p.added.push_back({b[i], static_cast<int>(i)});
        continue;
      }
      const JointType ta = old_.pose_joint(*j).type;
      const JointType tb = new_.pose_joint(i).type;
      if (rotational(ta) != rotational(tb)) p.unit_changes.push_back({b[i], static_cast<int>(i), ta, tb});
    }
    const bool prefix = a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
    if (!prefix || !p.unit_changes.empty()) p.verdict = PoseVerdict::incompatible;
    else if (a.size() < b.size()) p.verdict = PoseVerdict::extended;
    else p.verdict = PoseVerdict::identical;
    return p;
  }

  // ---- URDF ----

  void robot(std::vector<PropertyChange>& out) const {
    if_differs_text(out, "name", old_.robot_name(), new_.robot_name());
    if_differs_text(out, "root_link", old_.root_link(), new_.root_link());
  }

  void links(EntityDiff& out) const {
    std::vector<std::string> common;
    presence(old_.links(), new_.links(), out, &common);
    for (const auto& name : common) {
      auto changes = inertial_changes(old_.find_link(name)->inertial, new_.find_link(name)->inertial);
      if (!changes.empty()) out.changed.push_back({name, std::move(changes)});
    }
  }

  /// A link's mass properties as written. A side without <inertial> reads as urdfdom and KDL
  /// read it, mass 0 and no inertia, and shows as null.
  std::vector<PropertyChange> inertial_changes(const std::optional<Inertial>& a,
                                               const std::optional<Inertial>& b) const {
    const Inertial none;
    const Inertial& x = a ? *a : none;
    const Inertial& y = b ? *b : none;
    auto side = [](const std::optional<Inertial>& i, DiffValue value) { return i ? std::move(value) : DiffValue{}; };
    std::vector<PropertyChange> out;
    if (!near_relative(x.mass, y.mass, std::max(std::abs(x.mass), std::abs(y.mass))))
      out.push_back({"mass", side(a, x.mass), side(b, y.mass)});
    if (!near(xyz(x.com), xyz(y.com))) out.push_back({"inertial_xyz", side(a, xyz(x.com)), side(b, xyz(y.com))});
    if (!same_rotation(x.rotation, y.rotation))
      out.push_back({"inertial_rpy", side(a, rpy(x.rotation)), side(b, rpy(y.rotation))});
    // Moments relative to the largest of the link: 1e-20 beside 1e-3 is the 0 it stands for.
    double largest = 0.0;
    for (const auto* i : {&x, &y})
      for (double m : i->moments) largest = std::max(largest, std::abs(m));
    static constexpr const char* kMoments[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    for (std::size_t k = 0; k < 6; ++k)
      if (!near_relative(x.moments[k], y.moments[k], largest))
        out.push_back({kMoments[k], side(a, x.moments[k]), side(b, y.moments[k])});
    return out;
  }

  /// Differences of two joints other than their names.
  std::vector<PropertyChange> joint_changes(const JointInfo& a, const JointInfo& b) const {
    std::vector<PropertyChange> out;
    if (a.type != b.type)
      out.push_back({"type", std::string(to_string(a.type)), std::string(to_string(b.type))});
    if_differs_text(out, "parent_link", a.parent_link, b.parent_link);
    if_differs_text(out, "child_link", a.child_link, b.child_link);
    if (!near(xyz(a.origin.p), xyz(b.origin.p))) out.push_back({"origin_xyz", xyz(a.origin.p), xyz(b.origin.p)});
    if (!same_rotation(a.origin.M, b.origin.M)) out.push_back({"origin_rpy", rpy(a.origin.M), rpy(b.origin.M)});
    if (!near(xyz(a.axis), xyz(b.axis))) out.push_back({"axis", xyz(a.axis), xyz(b.axis)});
    auto limit = [](const JointInfo& j, double value) { return j.has_limits ? DiffValue{value} : DiffValue{}; };
    if (a.has_limits != b.has_limits) {
      out.push_back({"lower", limit(a, a.lower), limit(b, b.lower)});
      out.push_back({"upper", limit(a, a.upper), limit(b, b.upper)});
    } else if (a.has_limits) {
      if_differs_number(out, "lower", a.lower, b.lower);
      if_differs_number(out, "upper", a.upper, b.upper);
    }
    if_differs_number(out, "velocity", a.velocity_limit, b.velocity_limit);
    if_differs_number(out, "effort", a.effort_limit, b.effort_limit);
    // From a joint_limits.yaml: a limits change is a model change too. 0 means none and is
    // shown as null ("-"), as position limits are.
    auto optional_limit = [](double value) { return value != 0.0 ? DiffValue{value} : DiffValue{}; };
    if (!near(a.acceleration_limit, b.acceleration_limit))
      out.push_back({"acceleration", optional_limit(a.acceleration_limit), optional_limit(b.acceleration_limit)});
    if (!near(a.jerk_limit, b.jerk_limit))
      out.push_back({"jerk", optional_limit(a.jerk_limit), optional_limit(b.jerk_limit)});
    // <dynamics>: absent reads as no damping and no friction, shown as null.
    {
      const JointDynamics none;
      const JointDynamics& x = a.dynamics ? *a.dynamics : none;
      const JointDynamics& y = b.dynamics ? *b.dynamics : none;
      auto side = [](const JointInfo& j, double value) { return j.dynamics ? DiffValue{value} : DiffValue{}; };
      if (!near(x.damping, y.damping)) out.push_back({"damping", side(a, x.damping), side(b, y.damping)});
      if (!near(x.friction, y.friction)) out.push_back({"friction", side(a, x.friction), side(b, y.friction)});
    }
    // <mimic>: the joint followed and the rule; null on a side without one.
    if (a.mimic.has_value() != b.mimic.has_value()) {
      auto part = [](const JointInfo& j, auto field) { return j.mimic ? DiffValue{field(*j.mimic)} : DiffValue{}; };
      out.push_back({"mimic", part(a, [](const JointMimic& m) { return m.joint; }),
                     part(b, [](const JointMimic& m) { return m.joint; })});
      out.push_back({"mimic_multiplier", part(a, [](const JointMimic& m) { return m.multiplier; }),
                     part(b, [](const JointMimic& m) { return m.multiplier; })});
      out.push_back({"mimic_offset", part(a, [](const JointMimic& m) { return m.offset; }),
                     part(b, [](const JointMimic& m) { return m.offset; })});
    } else if (a.mimic) {
      if_differs_text(out, "mimic", a.mimic->joint, b.mimic->joint);
      if_differs_number(out, "mimic_multiplier", a.mimic->multiplier, b.mimic->multiplier);
      if_differs_number(out, "mimic_offset", a.mimic->offset, b.mimic->offset);
    }
    // <safety_controller>: all four on a side without one (null there), else those that differ.
    using Field = double JointSafetyController::*;
    static constexpr std::pair<const char*, Field> kSafety[] = {
        {"soft_lower_limit", &JointSafetyController::soft_lower_limit},
        {"soft_upper_limit", &JointSafetyController::soft_upper_limit},
        {"k_position", &JointSafetyController::k_position},
        {"k_velocity", &JointSafetyController::k_velocity}};
    const auto& sa = a.safety_controller;
    const auto& sb = b.safety_controller;
    for (const auto& [property, field] : kSafety) {
      if (sa.has_value() != sb.has_value())
        out.push_back({property, sa ? DiffValue{(*sa).*field} : DiffValue{}, sb ? DiffValue{(*sb).*field} : DiffValue{}});
      else if (sa)
        if_differs_number(out, property, (*sa).*field, (*sb).*field);
    }
    return out;
  }

  void joints(ModelDiff& d) const {
    std::vector<std::string> common;
    presence(old_.urdf_joints(), new_.urdf_joints(), d.joints, &common);
    // Renamed-looking: a removed and an added joint joining the same links the same way.
    std::vector<std::string> still_added;
    for (const auto& added : d.joints.added) {
      const JointInfo& b = *new_.find_urdf_joint(added);
      auto match = std::find_if(d.joints.removed.begin(), d.joints.removed.end(), [&](const std::string& removed) {
        const JointInfo& a = *old_.find_urdf_joint(removed);
        return a.type == b.type && a.parent_link == b.parent_link && a.child_link == b.child_link && same_origin(a, b);
      });
      if (match == d.joints.removed.end()) {
        still_added.push_back(added);
        continue;
      }
      d.renamed.push_back({*match, added, joint_changes(*old_.find_urdf_joint(*match), b)});
      d.joints.removed.erase(match);
    }
    d.joints.added = std::move(still_added);
    for (const auto& name : common) {
      auto changes = joint_changes(*old_.find_urdf_joint(name), *new_.find_urdf_joint(name));
      if (!changes.empty()) d.joints.changed.push_back({name, std::move(changes)});
    }
  }

  // ---- semantics ----

  static std::vector<std::string> names_at(const Model& m, std::span<const int> indices) {
    std::vector<std::string> out;
    for (int i : indices) out.push_back(m.joint_names()[static_cast<std::size_t>(i)]);
    return out;
  }

  static std::vector<std::string> virtual_names(const Model& m, const Chain& c) {
    std::vector<std::string> out;
    for (std::size_t k = c.real_size; k < c.joint_indices.size(); ++k)
      out.push_back(m.joint_names()[static_cast<std::size_t>(c.joint_indices[k])]);
    return out;
  }

  static std::string group_name(const Model& m, int group) {
    return group < 0 ? std::string() : m.groups()[static_cast<std::size_t>(group)].name;
  }

  void chains(EntityDiff& out) const {
    std::vector<std::string> common;
    presence(old_.chains(), new_.chains(), out, &common);
    for (const auto& name : common) {
      const Chain& a = old_.chain(name);
      const Chain& b = new_.chain(name);
      std::vector<PropertyChange> c;
      if_differs(c, "index", a.index, b.index);
      if_differs_text(c, "first_link", a.first_link, b.first_link);
      if_differs_text(c, "last_link", a.last_link, b.last_link);
      if_differs_text(c, "last_link_virtual", a.last_link_virtual, b.last_link_virtual);
      if_differs_text(c, "default_contact", a.default_contact, b.default_contact);
      if_differs(c, "joints", names_at(old_, a.indices(false)), names_at(new_, b.indices(false)));
      if_differs(c, "virtual_joints", virtual_names(old_, a), virtual_names(new_, b));
      if_differs_text(c, "group", group_name(old_, a.group), group_name(new_, b.group));
      if (!c.empty()) out.changed.push_back({name, std::move(c)});
    }
  }

  static std::vector<std::string> chain_names(const Model& m, const std::vector<int>& chains) {
    std::vector<std::string> out;
    for (int c : chains) out.push_back(m.chains()[static_cast<std::size_t>(c)].name);
    return out;
  }

  void groups(EntityDiff& out) const {
    std::vector<std::string> common;
    presence(old_.groups(), new_.groups(), out, &common);
    for (const auto& name : common) {
      const Group& a = old_.group(name);
      const Group& b = new_.group(name);
      std::vector<PropertyChange> c;
      if_differs(c, "index", a.index, b.index);
      if_differs(c, "chains", chain_names(old_, a.chains), chain_names(new_, b.chains));
      if_differs(c, "extra_joints", names_at(old_, a.extra_joints), names_at(new_, b.extra_joints));
      if_differs(c, "joints", names_at(old_, a.joint_indices), names_at(new_, b.joint_indices));
      if (!c.empty()) out.changed.push_back({name, std::move(c)});
    }
  }

  void contacts(EntityDiff& out) const {
    std::vector<std::string> common;
    presence(old_.contacts(), new_.contacts(), out, &common);
    auto flat = [](const Contact& c) {
      std::vector<double> v;
      for (const auto& p : c.points) v.insert(v.end(), {p.x(), p.y(), p.z()});
      return v;
    };
    for (const auto& name : common) {
      const auto a = flat(*old_.find_contact(name));
      const auto b = flat(*new_.find_contact(name));
      if (!near(a, b)) out.changed.push_back({name, {{"points", a, b}}});
    }
  }

  /// Named poses are keyed by "name" (or "group/name" when a name is declared for several
  /// groups, as MoveIt allows).
  struct PoseKey {
    std::string name;
    const NamedPose* pose;
  };

  static std::vector<PoseKey> pose_keys(const Model& m) {
    std::map<std::string, int> count;
    for (const auto& p : m.semantics().poses) ++count[p.name];
    std::vector<PoseKey> out;
    for (const auto& p : m.semantics().poses)
      out.push_back({count[p.name] > 1 ? p.group + "/" + p.name : p.name, &p});
    return out;
  }

  std::vector<std::string> assignments(const NamedPose& p) const {
    std::vector<std::string> out;
    for (const auto& [joint, value] : p.joints) out.push_back(fmt::format("{}={}", joint, value));
    return out;
  }

  bool same_values(const NamedPose& a, const NamedPose& b) const {
    if (a.joints.size() != b.joints.size()) return false;
    for (std::size_t i = 0; i < a.joints.size(); ++i)
      if (a.joints[i].first != b.joints[i].first || !near(a.joints[i].second, b.joints[i].second)) return false;
    return true;
  }

  void poses(EntityDiff& out) const {
    const auto a = pose_keys(old_);
    const auto b = pose_keys(new_);
    std::vector<std::string> common;
    presence(a, b, out, &common);
    auto find = [](const std::vector<PoseKey>& keys, const std::string& name) {
      return std::find_if(keys.begin(), keys.end(), [&](const PoseKey& k) { return k.name == name; })->pose;
    };
    for (const auto& name : common) {
      const NamedPose& pa = *find(a, name);
      const NamedPose& pb = *find(b, name);
      std::vector<PropertyChange> c;
      if_differs_text(c, "group", pa.group, pb.group);
      if (!same_values(pa, pb)) c.push_back({"joints", assignments(pa), assignments(pb)});
      if (!c.empty()) out.changed.push_back({name, std::move(c)});
    }
  }

  const Model& old_;
  const Model& new_;
  double tol_;
};

}  // namespace

ModelDiff diff_models(const Model& old_model, const Model& new_model, const DiffOptions& options) {
  if (!(options.tolerance >= 0.0))
    throw InvalidArgument(fmt::format("diff tolerance must be a number ≥ 0, got {}", options.tolerance));
  return Differ(old_model, new_model, options.tolerance).run();
}

}  // namespace rmodel
