// MoveIt SRDF import. The reader does not see the URDF (parse_semantics is URDF-free), so
// it maps what the SRDF itself says (a group's links are resolved to their parent joints
// where the semantics meets the URDF, model_index.cpp) and reports, with its line, every
// construct rmodel cannot express: passive joints, multi-DOF group-state values, unknown
// elements; and a group copied under another name. The collision matrix is kept as written
// (its names are checked against the URDF in model_index.cpp).
// The decisions are in docs/design.md, "Interop and CI guards".
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cctype>
#include <map>
#include <set>

#include <fmt/format.h>
#include <tinyxml2.h>

#include "rmodel/base/error.hpp"
#include "rmodel/xacro/xacro.hpp"
#include "rmodel/model/semantics.hpp"
#include "rmodel/base/suggest.hpp"
#include "base/xml_error.hpp"

namespace rmodel {
namespace {

using tinyxml2::XMLElement;

/// A name given in the SRDF, with the line it was given on.
struct Named {
  std::string name;
  int line = 0;
};

struct RawChain {
  std::string base_link;
  std::string tip_link;
  int line = 0;
};

/// A `<group>` as written.
struct RawGroup {
  std::string name;
  int line = 0;
  std::vector<RawChain> chains;
  std::vector<Named> joints;
  std::vector<Named> links;
  std::vector<Named> subgroups;
  bool duplicate = false;  ///< a group of that name was declared before
};

/// A group's content once its subgroups are merged in.
struct Content {
  std::vector<std::string> chains;           ///< names of the chains made from <chain> elements
  std::vector<std::string> extra_joints;     ///< joints of groups that have no <chain>
  std::vector<std::string> chain_companions; ///< joints listed beside a <chain>
  std::vector<std::string> links;
};

template <class T>
void add_unique(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

std::string join(const std::vector<std::string>& names, std::size_t max = 8) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < max; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > max) out += fmt::format(", ... ({} in all)", names.size());
  return out;
}

/// An SRDF element rmodel reads but does not keep, with its own code: a note, since MoveIt
/// reads the file the same and rmodel's results do not depend on it.
struct NotKept {
  std::string_view tag;
  DiagnosticCode code;
  std::string_view reason;
};

constexpr NotKept kNotKept[] = {
    {"passive_joint", "srdf-passive-joint",
     "rmodel has no passive joints; each is an ordinary joint (in the pose when a chain or group holds it)"},
    {"link_sphere_approximation", "srdf-sphere-approximation", "collision geometry is not part of rmodel"},
    {"joint_property", "srdf-joint-property", "joint properties are not part of rmodel"},
};

/// Every element srdfdom (MoveIt's reader) knows at the top of an SRDF.
constexpr std::string_view kSrdfElements[] = {
    "group",          "group_state",       "end_effector",  "virtual_joint",
    "passive_joint",  "joint_property",    "disable_collisions", "enable_collisions",
    "disable_default_collisions", "link_sphere_approximation"};

class SrdfReader {
public:
  explicit SrdfReader(const std::string& source) : source_(source) {}

  Semantics read(std::string_view text) {
    tinyxml2::XMLDocument doc;
    if (const auto problem = detail::parse_xml(doc, text)) fail(problem->line, problem->message);
    const XMLElement* root = doc.RootElement();
    if (!root || std::string_view(root->Name()) != "robot")
      fail(root ? root->GetLineNum() : 1,
           fmt::format("root element is <{}>, expected <robot> (SRDF)", root ? root->Name() : ""));
    out_.source = source_;

    for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string_view tag = e->Name();
      if (tag == "group") read_group(e);
      else if (tag == "group_state") read_group_state(e);
      else if (tag == "end_effector") read_end_effector(e);
      else if (tag == "virtual_joint") read_virtual_joint(e);
      else if (tag == "disable_collisions") out_.collisions.disabled.push_back(read_pair(e));
      else if (tag == "enable_collisions") out_.collisions.enabled.push_back(read_pair(e));
      else if (tag == "disable_default_collisions")
        out_.collisions.disabled_default.push_back({attribute(e, "link"), e->GetLineNum()});
      else note_ignored(e);
    }
    map_groups();
    check_pose_groups();
    report_ignored();
    std::stable_sort(out_.warnings.begin(), out_.warnings.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.where.line < b.where.line; });
    return std::move(out_);
  }

private:
  [[noreturn]] void fail(int line, const std::string& message) const { throw ParseError({source_, line}, message); }

  void warn(int line, DiagnosticCode code, std::string message) {
    out_.warnings.emplace_back(Severity::warning, SourceLocation{source_, line}, code, std::move(message));
  }

  void note(int line, DiagnosticCode code, std::string message) {
    out_.warnings.emplace_back(Severity::note, SourceLocation{source_, line}, code, std::move(message));
  }

  /// A required, non-empty attribute, without the spaces around it: srdfdom trims every name
  /// it reads, so `name=" panda_link0"` names the link panda_link0.
  std::string attribute(const XMLElement* e, const char* name, std::string_view owner = {}) const {
    const std::string value = optional_attribute(e, name);
    if (value.empty())
      fail(e->GetLineNum(), fmt::format("{}<{}> {} {} attribute", owner.empty() ? "" : fmt::format("{}: ", owner),
                                        e->Name(), e->Attribute(name) ? "with an empty" : "without a", name));
    return value;
  }

  static std::string optional_attribute(const XMLElement* e, const char* name) {
    const char* value = e->Attribute(name);
    std::string_view text = value ? value : "";
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    return std::string(text);
  }

  // ---- reading elements ----

  void read_group(const XMLElement* e) {
    RawGroup g;
    g.name = attribute(e, "name");
    g.line = e->GetLineNum();
    const std::string owner = fmt::format("group '{}'", g.name);
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view tag = c->Name();
      if (tag == "chain")
        g.chains.push_back({attribute(c, "base_link", owner), attribute(c, "tip_link", owner), c->GetLineNum()});
      else if (tag == "joint")
        g.joints.push_back({attribute(c, "name", owner), c->GetLineNum()});
      else if (tag == "link")
        g.links.push_back({attribute(c, "name", owner), c->GetLineNum()});
      else if (tag == "group")
        g.subgroups.push_back({attribute(c, "name", owner), c->GetLineNum()});
      else if (tag == "passive_joint")
        // srdfdom reads passive joints at the top of the file only: this joint stays active.
        warn(c->GetLineNum(), "srdf-passive-joint-in-group",
             fmt::format("group '{}': <passive_joint{}> inside a group is ignored, by MoveIt too: the joint stays "
                         "active; a passive joint is declared at the top of the SRDF, outside groups",
                         g.name, c->Attribute("name") ? fmt::format(" name=\"{}\"", c->Attribute("name")) : ""));
      else
        warn(c->GetLineNum(), "srdf-unknown-element",
             fmt::format("group '{}': ignored <{}>, by MoveIt too (an SRDF group holds <chain>, <joint>, <link> and "
                         "<group>)",
                         g.name, tag));
    }
    for (const auto& other : groups_)
      if (other.name == g.name && !other.duplicate) {
        warn(g.line, "srdf-duplicate-group",
             fmt::format("group '{}' is declared again (first at line {}): this declaration is not kept", g.name,
                         other.line));
        g.duplicate = true;
        break;
      }
    groups_.push_back(std::move(g));
  }

  double number(const XMLElement* e, std::string_view text, const std::string& owner) const {
    const char* begin = text.data();
    const char* end = begin + text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(*begin))) ++begin;
    while (end > begin && std::isspace(static_cast<unsigned char>(end[-1]))) --end;
    // srdfdom reads values with operator>>, which takes a leading '+' (from_chars does not).
    const char* digits = begin < end && *begin == '+' && end - begin > 1 && begin[1] != '-' ? begin + 1 : begin;
    double value = 0;
    auto [ptr, ec] = std::from_chars(digits, end, value);
    if (begin == end || ec != std::errc() || ptr != end || !std::isfinite(value))
      fail(e->GetLineNum(), fmt::format("{}: value '{}' is not a finite number", owner, text));
    return value;
  }

  static std::vector<std::string_view> words(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      std::size_t j = i;
      while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
      if (j > i) out.push_back(text.substr(i, j - i));
      i = j;
    }
    return out;
  }

  void read_group_state(const XMLElement* e) {
    NamedPose pose;
    pose.name = attribute(e, "name");
    pose.group = optional_attribute(e, "group");
    pose.line = e->GetLineNum();
    if (pose.group.empty())
      warn(pose.line, "srdf-pose-without-group",
           fmt::format("group_state '{}' has no group attribute: it is kept as a pose of its joints alone",
                       pose.name));
    const std::string owner = fmt::format("group_state '{}'", pose.name);
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (std::string_view(c->Name()) != "joint") {
        warn(c->GetLineNum(), "srdf-unknown-element",
             fmt::format("{}: ignored <{}>, by MoveIt too (a group_state holds <joint name= value=>)", owner,
                         c->Name()));
        continue;
      }
      const std::string joint = attribute(c, "name", owner);
      const std::string value = attribute(c, "value", fmt::format("{}, joint '{}'", owner, joint));
      const auto parts = words(value);
      if (parts.size() != 1) {
        for (auto p : parts) (void)number(c, p, fmt::format("{}, joint '{}'", owner, joint));
        note(c->GetLineNum(), "srdf-multi-dof-value",
             fmt::format("{}: joint '{}' has {} values (a multi-DOF joint); rmodel poses hold one value per "
                         "joint, so it is left out of the pose",
                         owner, joint, parts.size()));
        continue;
      }
      const double v = number(c, value, fmt::format("{}, joint '{}'", owner, joint));
      bool repeated = false;
      for (const auto& [name, _] : pose.joints) repeated = repeated || name == joint;
      if (repeated) {
        warn(c->GetLineNum(), "srdf-duplicate-joint",
             fmt::format("{}: joint '{}' is given twice; the first value is kept", owner, joint));
        continue;
      }
      pose.joints.emplace_back(joint, v);
      pose_joint_lines_.push_back({joint, c->GetLineNum()});
    }
    // MoveIt keeps a group's states by name, each one replacing the one before it.
    for (auto& other : out_.poses)
      if (other.name == pose.name && other.group == pose.group) {
        warn(pose.line, "srdf-duplicate-pose",
             fmt::format("group_state '{}' of group '{}' is declared again (first at line {}): this declaration "
                         "replaces the first, as in MoveIt",
                         pose.name, pose.group, other.line));
        other = std::move(pose);
        return;
      }
    out_.poses.push_back(std::move(pose));
  }

  void read_end_effector(const XMLElement* e) {
    EndEffector eef;
    eef.name = attribute(e, "name");
    const std::string owner = fmt::format("end_effector '{}'", eef.name);
    eef.parent_link = attribute(e, "parent_link", owner);
    eef.group = attribute(e, "group", owner);
    eef.parent_group = optional_attribute(e, "parent_group");
    eef.line = e->GetLineNum();
    out_.end_effectors.push_back(std::move(eef));
  }

  void read_virtual_joint(const XMLElement* e) {
    VirtualJoint vj;
    vj.name = attribute(e, "name");
    const std::string owner = fmt::format("virtual_joint '{}'", vj.name);
    vj.type = attribute(e, "type", owner);
    vj.parent_frame = attribute(e, "parent_frame", owner);
    vj.child_link = attribute(e, "child_link", owner);
    vj.line = e->GetLineNum();
    // srdfdom reads the type without case, and takes any other type as fixed.
    std::string type = vj.type;
    for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (type == "fixed" || type == "floating" || type == "planar") {
      vj.type = type;
    } else {
      warn(vj.line, "srdf-virtual-joint-type",
           fmt::format("{}: type '{}' is not one of fixed, floating, planar: it is fixed, as srdfdom and MoveIt take it",
                       owner, vj.type));
      vj.type = "fixed";
    }
    out_.virtual_joints.push_back(std::move(vj));
  }

  /// Elements rmodel does not keep: counted per tag and reported once per tag.
  void note_ignored(const XMLElement* e) {
    auto& entry = ignored_[e->Name()];
    if (entry.count++ == 0) entry.first_line = e->GetLineNum();
    if (const char* name = e->Attribute("name")) entry.names.push_back(name);
  }

  /// A `<disable_collisions>` or `<enable_collisions>` pair, its names trimmed as srdfdom
  /// trims them; the reason is kept as written.
  CollisionPair read_pair(const XMLElement* e) const {
    const char* reason = e->Attribute("reason");
    return {attribute(e, "link1"), attribute(e, "link2"), reason ? reason : "", e->GetLineNum()};
  }

  /// One diagnostic per tag: srdfdom's elements rmodel does not keep are notes; an element
  /// srdfdom does not know either is a warning when its name is close to one it knows (a typo
  /// MoveIt would ignore silently, `<disable_colisions>`), else a note (another tool's
  /// extension: Pinocchio's `<rotor_params>`, HPP's `<gripper>`).
  void report_ignored() {
    // In order of first appearance.
    std::vector<std::pair<std::string, const Ignored*>> tags;
    for (const auto& [tag, entry] : ignored_) tags.emplace_back(tag, &entry);
    std::sort(tags.begin(), tags.end(),
              [](const auto& a, const auto& b) { return a.second->first_line < b.second->first_line; });
    for (const auto& [tag, entry] : tags) {
      const std::string what = entry->count == 1 ? fmt::format("<{}>", tag)
                                                 : fmt::format("{} <{}> elements", entry->count, tag);
      const std::string names = entry->names.empty() ? "" : fmt::format(" ({})", join(entry->names));
      const std::string_view name = tag;  // a structured binding is not captured before C++20's clang 16
      const auto known = std::find_if(std::begin(kNotKept), std::end(kNotKept),
                                      [name](const NotKept& k) { return k.tag == name; });
      if (known != std::end(kNotKept)) {
        note(entry->first_line, known->code, fmt::format("ignored {}{}: {}", what, names, known->reason));
        continue;
      }
      const std::string typo = closest_match(tag, std::span<const std::string_view>(kSrdfElements));
      if (!typo.empty())
        warn(entry->first_line, "srdf-unknown-element",
             fmt::format("ignored {}{}, by MoveIt too: not an SRDF element; did you mean <{}>?", what, names, typo));
      else
        note(entry->first_line, "srdf-extension",
             fmt::format("ignored {}{}: not an element of MoveIt's SRDF (another tool's extension?)", what, names));
    }
  }

  // ---- groups → chains and groups ----

  const RawGroup* find_group(std::string_view name) const {
    for (const auto& g : groups_)
      if (g.name == name && !g.duplicate) return &g;
    return nullptr;
  }

  /// Names of the chains made from a group's own <chain> elements: the group's name for
  /// one chain, name_1, name_2, ... for several; unique among all chain names.
  const std::vector<std::string>& chain_names(const RawGroup& g) {
    auto it = chain_names_.find(g.name);
    if (it != chain_names_.end()) return it->second;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < g.chains.size(); ++i) {
      std::string name = g.chains.size() == 1 ? g.name : fmt::format("{}_{}", g.name, i + 1);
      while (used_chain_names_.count(name)) name += "_";
      used_chain_names_.insert(name);
      chain_specs_[name] = {name, g.chains[i].base_link, g.chains[i].tip_link, "", "", "", g.chains[i].line, {}};
      names.push_back(name);
    }
    return chain_names_.emplace(g.name, std::move(names)).first->second;
  }

  /// A group's own content plus its subgroups' (recursively). Problems with subgroup
  /// references are reported once, for the group that makes them.
  void expand(const RawGroup& g, Content& content, std::vector<std::string>& stack, bool report) {
    stack.push_back(g.name);
    for (const auto& name : chain_names(g)) add_unique(content.chains, name);
    auto& joints = g.chains.empty() ? content.extra_joints : content.chain_companions;
    for (const auto& j : g.joints) add_unique(joints, j.name);
    for (const auto& l : g.links) add_unique(content.links, l.name);
    for (const auto& sub : g.subgroups) {
      const RawGroup* s = find_group(sub.name);
      if (!s) {
        if (report)
          warn(sub.line, "srdf-unknown-group",
               fmt::format("group '{}': subgroup '{}' is not a declared group; the reference is ignored", g.name,
                           sub.name));
        continue;
      }
      if (std::find(stack.begin(), stack.end(), s->name) != stack.end()) {
        if (report)
          warn(sub.line, "srdf-group-cycle",
               fmt::format("group '{}': subgroup '{}' contains '{}' again (a cycle); the reference is ignored",
                           g.name, sub.name, g.name));
        continue;
      }
      expand(*s, content, stack, false);
    }
    stack.pop_back();
  }

  void map_groups() {
    for (const auto& vj : out_.virtual_joints) virtual_joint_names_.insert(vj.name);
    std::set<std::string> emitted_chains;
    for (const auto& g : groups_) {
      if (g.duplicate) continue;
      Content content;
      std::vector<std::string> stack;
      expand(g, content, stack, true);

      if (content.chains.empty() && content.extra_joints.empty() && content.links.empty()) {
        warn(g.line, "srdf-group-empty",
             fmt::format("group '{}' is not kept: it has no chain, joint or link rmodel can use", g.name));
        continue;
      }
      report_copy(g);

      GroupSpec spec;
      spec.name = g.name;
      spec.line = g.line;
      // Overlaps between groups, and joints listed beside a chain, are sorted out against
      // the URDF by the model rules (model_index.cpp): joints on the group's own chains are
      // the chain's, others are the group's extra joints.
      for (const auto& c : content.chains) {
        spec.chains.push_back(c);
        if (emitted_chains.insert(c).second) out_.chains.push_back(chain_specs_.at(c));
      }
      for (const auto* list : {&content.chain_companions, &content.extra_joints})
        for (const auto& j : *list)
          if (virtual_joint_names_.count(j)) {
            if (!reported_virtual_.count({g.name, j}))
              note(joint_line(g, j), "srdf-virtual-joint-in-group",
                   fmt::format("group '{}': joint '{}' is the SRDF's virtual joint, not a URDF joint: skipped (the "
                               "virtual joint is not part of the full pose)",
                               g.name, j));
            reported_virtual_.insert({g.name, j});
          } else {
            add_unique(spec.joints, j);
          }
      spec.links = content.links;
      out_.groups.push_back(std::move(spec));
    }
  }

  /// A group whose own elements are exactly an earlier group's (chains, joints, links and
  /// subgroups, in any order) under another name. When the two names differ only by a side
  /// (HyQ's `rh_leg` listing the `lh_` joints, `r_leg` and `l_leg`), it is a copy left
  /// unedited: a mistake (`group-copy`, an error of `check`). Otherwise it is an alias, which
  /// MoveIt accepts and configurations use on purpose, a second name for the same joints with
  /// another solver in kinematics.yaml (NAO's `left_arm_hand`, HSR's `whole_body_light`):
  /// `group-alias`, a warning.
  void report_copy(const RawGroup& g) {
    const auto own = own_elements(g);
    if (own.empty()) return;
    for (const auto& earlier : groups_) {
      if (&earlier == &g) return;
      if (earlier.duplicate || earlier.name == g.name || own_elements(earlier) != own) continue;
      if (mirrored_names(g.name, earlier.name))
        warn(g.line, "group-copy",
             fmt::format("group '{}' lists exactly what group '{}' (line {}) lists: a copy of the other side left "
                         "unedited? Both move the same joints",
                         g.name, earlier.name, earlier.line));
      else
        warn(g.line, "group-alias",
             fmt::format("group '{}' lists exactly what group '{}' (line {}) lists: a second name for the same "
                         "joints (MoveIt allows it, e.g. for another solver)",
                         g.name, earlier.name, earlier.line));
      return;
    }
  }

  /// Whether two names are the same but for words naming a side of the robot, compared word by
  /// word ('_', '-' and '.' separate words, letters compared without case): `rh_leg`/`lh_leg`,
  /// `left_arm`/`right_arm`, `arm_l`/`arm_r`.
  static bool mirrored_names(std::string_view a, std::string_view b) {
    static constexpr std::string_view kSides[] = {"l",  "r",  "left", "right", "lf",    "rf",   "lh",   "rh",
                                                  "fl", "fr", "hl",   "hr",    "rl",    "rr",   "front", "rear",
                                                  "hind", "back"};
    const auto words = [](std::string_view name) {
      std::vector<std::string> out(1);
      for (const char c : name) {
        if (c == '_' || c == '-' || c == '.') out.emplace_back();
        else out.back() += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      return out;
    };
    const auto is_side = [](const std::string& w) {
      return std::find(std::begin(kSides), std::end(kSides), w) != std::end(kSides);
    };
    const auto wa = words(a), wb = words(b);
    if (wa.size() != wb.size()) return false;
    bool differ = false;
    for (std::size_t k = 0; k < wa.size(); ++k) {
      if (wa[k] == wb[k]) continue;
      if (!is_side(wa[k]) || !is_side(wb[k])) return false;
      differ = true;
    }
    return differ;
  }

  static std::set<std::string> own_elements(const RawGroup& g) {
    std::set<std::string> out;
    for (const auto& c : g.chains) out.insert("chain " + c.base_link + " " + c.tip_link);
    for (const auto& j : g.joints) out.insert("joint " + j.name);
    for (const auto& l : g.links) out.insert("link " + l.name);
    for (const auto& sub : g.subgroups) out.insert("group " + sub.name);
    return out;
  }

  /// Line of a group's own `<joint name=...>`, else the group's line.
  static int joint_line(const RawGroup& g, const std::string& joint) {
    for (const auto& j : g.joints)
      if (j.name == joint) return j.line;
    return g.line;
  }

  void check_pose_groups() {
    for (auto& p : out_.poses)
      for (auto it = p.joints.begin(); it != p.joints.end();)
        if (virtual_joint_names_.count(it->first)) {
          int line = p.line;
          for (const auto& [name, l] : pose_joint_lines_)
            if (name == it->first && l > p.line) {
              line = l;
              break;
            }
          note(line, "srdf-virtual-joint-in-pose",
               fmt::format("group_state '{}': joint '{}' is the SRDF's virtual joint, not a URDF joint: its value is "
                           "left out of the pose",
                           p.name, it->first));
          it = p.joints.erase(it);
        } else {
          ++it;
        }
    for (const auto& p : out_.poses)
      if (!p.group.empty() && !find_group(p.group))
        warn(p.line, "srdf-unknown-group",
             fmt::format("group_state '{}': group '{}' is not a declared group (the pose is kept)", p.name, p.group));
  }

  struct Ignored {
    std::size_t count = 0;
    int first_line = 0;
    std::vector<std::string> names;
  };

  const std::string& source_;
  Semantics out_;
  std::vector<RawGroup> groups_;
  std::map<std::string, std::vector<std::string>> chain_names_;  // group → its chains
  std::map<std::string, ChainSpec> chain_specs_;
  std::set<std::string> used_chain_names_;
  std::map<std::string, Ignored> ignored_;
  std::set<std::string> virtual_joint_names_;
  std::set<std::pair<std::string, std::string>> reported_virtual_;  // (group, joint)
  std::vector<std::pair<std::string, int>> pose_joint_lines_;       // joint → line, in file order
};

}  // namespace

Semantics parse_srdf(std::string_view text, const std::string& source_name) {
  // Read as SRDF, a xacro would be a robot of ignored elements, with no group at all.
  if (is_xacro({}, text))
    throw ParseError({source_name, 0},
                     "this SRDF is xacro (it declares and uses the xacro namespace): give it as the model's "
                     "semantics (ModelRequest::semantics), which expands it, or expand it first");
  Semantics semantics = SrdfReader(source_name).read(text);
  semantics.srdf = std::string(text);
  return semantics;
}

}  // namespace rmodel
