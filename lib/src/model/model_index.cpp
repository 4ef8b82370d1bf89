// Indexing a semantic description against a URDF: the rules of the original
// robot_model service (SPEC §1). Every broken rule becomes a diagnostic naming the file,
// the line and the element, so `rmodel check` can list them all; Model::load throws the
// first error.
#include <algorithm>
#include <map>
#include <unordered_set>

#include <fmt/format.h>

#include "model/model_impl.hpp"
#include "rmodel/base/suggest.hpp"

namespace rmodel {
namespace {

struct Indexer {
  Model::Impl& m;
  Diagnostics& out;
  const std::string& src;
  /// Chains declared but not indexed because of an error already reported: groups naming
  /// them are not blamed a second time.
  std::unordered_set<std::string> failed_chains;

  SourceLocation at(int line) const { return {src, line}; }
  void error(int line, DiagnosticCode code, std::string message) {
    out.add(Severity::error, at(line), code, std::move(message));
  }
  void warning(int line, DiagnosticCode code, std::string message) {
    out.add(Severity::warning, at(line), code, std::move(message));
  }
  void note(int line, DiagnosticCode code, std::string message) {
    out.add(Severity::note, at(line), code, std::move(message));
  }
  /// A problem of the URDF found by the model rules, at a line of the URDF.
  void urdf_warning(int line, DiagnosticCode code, std::string message) {
    out.add(Severity::warning, {m.urdf_source, line}, code, std::move(message));
  }

  // ---- mimic joints ----

  JointInfo* master_of(const JointInfo& joint) {
    if (!joint.mimic) return nullptr;
    auto it = m.urdf.joint_by_name.find(joint.mimic->joint);
    return it == m.urdf.joint_by_name.end() ? nullptr : &m.urdf.joints[it->second];
  }

  /// URDF <mimic> elements, as robot_state_publisher and MoveIt use them. A mimic of a joint
  /// the URDF lacks or of a joint without one value (fixed, floating, planar), and a cycle of
  /// mimics, are mistakes (errors of `check`; the joint then moves on its own, as MoveIt
  /// ignores such mimics). Chained mimics are resolved to their root master.
  void mimics() {
    auto& joints = m.urdf.joints;
    for (auto& joint : joints) {
      if (!joint.mimic) continue;
      if (!joint.movable()) {
        out.add(Severity::note, {m.urdf_source, joint.line}, "mimic-ignored",
                     fmt::format("joint '{}' is {}: its <mimic> is ignored", joint.name, to_string(joint.type)));
        joint.mimic.reset();
        continue;
      }
      const JointInfo* master = master_of(joint);
      if (!master) {
        urdf_warning(joint.line, "mimic-unknown-joint",
                     fmt::format("joint '{}' mimics '{}', which is not a joint of the URDF: it moves on its own",
                                 joint.name, joint.mimic->joint));
        joint.mimic.reset();
      } else if (!master->movable()) {
        urdf_warning(joint.line, "mimic-fixed-joint",
                     fmt::format("joint '{}' mimics '{}', which is {} and has no value to follow: it moves on its own",
                                 joint.name, master->name, to_string(master->type)));
        joint.mimic.reset();
      }
    }
    // Cycles, reported once each (state: 0 unseen, 1 on the current walk, 2 done).
    std::vector<char> state(joints.size(), 0);
    for (std::size_t start = 0; start < joints.size(); ++start) {
      std::vector<std::size_t> walk;
      for (std::size_t k = start;;) {
        if (state[k] == 2) break;
        if (state[k] == 1) {
          const auto first = std::find(walk.begin(), walk.end(), k);
          std::string names;
          for (auto it = first; it != walk.end(); ++it) names += joints[*it].name + " -> ";
          urdf_warning(joints[k].line, "mimic-cycle",
                       fmt::format("mimic joints form a cycle ({}{}): they move on their own", names, joints[k].name));
          for (auto it = first; it != walk.end(); ++it) joints[*it].mimic.reset();
          break;
        }
        state[k] = 1;
        walk.push_back(k);
        const JointInfo* master = master_of(joints[k]);
        if (!master) break;
        k = static_cast<std::size_t>(master - joints.data());
      }
      for (std::size_t k : walk) state[k] = 2;
    }
    // q = multiplier·q_master + offset, composed up to the root master.
    for (auto& joint : joints) {
      if (!joint.mimic) continue;
      JointMimic& rule = *joint.mimic;
      rule.root = rule.joint;
      rule.root_multiplier = rule.multiplier;
      rule.root_offset = rule.offset;
      for (const JointInfo* master = master_of(joint); master && master->mimic; master = master_of(*master)) {
        rule.root_offset += rule.root_multiplier * master->mimic->offset;
        rule.root_multiplier *= master->mimic->multiplier;
        rule.root = master->mimic->joint;
      }
    }
  }

  /// The nearest joint up a mimic joint's chain of masters that is in the full pose, with
  /// the rule composed from it; nullopt when none is.
  std::optional<PoseMimic> pose_master(const JointInfo& joint) {
    double multiplier = 1.0, offset = 0.0;
    for (const JointInfo* cur = &joint; cur->mimic;) {
      offset += multiplier * cur->mimic->offset;
      multiplier *= cur->mimic->multiplier;
      cur = master_of(*cur);
      if (cur->index >= 0)
        return PoseMimic{0, static_cast<std::size_t>(cur->index), multiplier, offset};
    }
    return std::nullopt;
  }

  /// Model::pose_mimics: mimic joints of the pose following a joint of the pose, masters
  /// first (ordered by the length of the chain to the root master).
  void pose_mimics() {
    std::vector<std::pair<int, PoseMimic>> found;
    for (std::size_t slot = 0; slot < m.pose_to_urdf.size(); ++slot) {
      const JointInfo& joint = m.urdf.joints[m.pose_to_urdf[slot]];
      auto master = pose_master(joint);
      if (!master) continue;
      master->slot = slot;
      int depth = 0;
      for (const JointInfo* cur = &joint; cur->mimic; cur = master_of(*cur)) ++depth;
      found.emplace_back(depth, *master);
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [depth, mimic] : found) m.pose_mimics.push_back(mimic);
    for (auto& mimic : m.pose_mimics)
      for (std::size_t e = 0; e < m.pose_mimics.size(); ++e)
        if (m.pose_mimics[e].slot == mimic.master) mimic.master_entry = static_cast<int>(e);
  }

  int add_to_pose(std::size_t urdf_joint) {
    const std::string& name = m.urdf.joints[urdf_joint].name;
    if (auto it = m.joint_index.find(name); it != m.joint_index.end()) return it->second;
    const int index = static_cast<int>(m.pose_names.size());
    m.pose_names.push_back(name);
    m.pose_to_urdf.push_back(urdf_joint);
    m.joint_index.emplace(name, index);
    m.joint_owner_chains.emplace_back();
    m.joint_group.push_back(-1);
    return index;
  }

  /// Joints from `ancestor` (exclusive) down to `link` (inclusive), root to tip; nullopt
  /// when `ancestor` is not above `link`.
  std::optional<std::vector<std::size_t>> joints_between(const std::string& ancestor,
                                                         const std::string& link) const {
    std::vector<std::size_t> joints;
    std::string current = link;
    while (current != ancestor) {
      const LinkInfo& info = m.urdf.links[m.urdf.link_by_name.at(current)];
      if (info.parent_joint.empty()) return std::nullopt;
      const std::size_t j = m.urdf.joint_by_name.at(info.parent_joint);
      joints.push_back(j);
      current = m.urdf.joints[j].parent_link;
    }
    std::reverse(joints.begin(), joints.end());
    return joints;
  }

  /// Links from `link` up to the root, `link` first.
  std::vector<std::string> ancestry(const std::string& link) const {
    std::vector<std::string> out{link};
    for (;;) {
      const LinkInfo& info = m.urdf.links[m.urdf.link_by_name.at(out.back())];
      if (info.parent_joint.empty()) return out;
      out.push_back(m.urdf.joints[m.urdf.joint_by_name.at(info.parent_joint)].parent_link);
    }
  }

  /// The path of a chain as KDL::Tree::getChain walks it: up from `first` to the deepest
  /// common ancestor (the joints of `first` and of its ancestors below that one, in that
  /// order: they are traversed against their direction), then down to `last`. nullopt when
  /// the links have no common ancestor.
  struct Path {
    std::vector<std::size_t> up, down;
    std::string ancestor;
  };
  std::optional<Path> path_between(const std::string& first, const std::string& last) const {
    const auto from_first = ancestry(first);
    const auto from_last = ancestry(last);
    Path path;
    for (const auto& link : from_first)
      if (std::find(from_last.begin(), from_last.end(), link) != from_last.end()) {
        path.ancestor = link;
        break;
      }
    if (path.ancestor.empty()) return std::nullopt;
    for (const auto& link : from_first) {
      if (link == path.ancestor) break;
      path.up.push_back(m.urdf.joint_by_name.at(m.urdf.links[m.urdf.link_by_name.at(link)].parent_joint));
    }
    path.down = *joints_between(path.ancestor, last);
    return path;
  }

  /// A chain naming a link the URDF lacks is skipped, as srdfdom skips it (a mistake: an
  /// error of `check`).
  bool known_link(const ChainSpec& spec, const std::string& link, const char* property) {
    if (m.urdf.link_by_name.count(link)) return true;
    warning(spec.line, "unknown-link",
            fmt::format("chain '{}': {} '{}' is not a link of the URDF: the chain is skipped", spec.name, property,
                        link));
    return false;
  }

  void contacts() {
    for (const auto& spec : m.semantics.contacts) {
      if (m.contact_index.count(spec.name)) {
        error(spec.line, "duplicate-contact", fmt::format("duplicate contact '{}'", spec.name));
        continue;
      }
      if (spec.points.empty())
        warning(spec.line, "empty-contact", fmt::format("contact '{}' has no points", spec.name));
      const int index = static_cast<int>(m.contacts.size());
      m.contact_index.emplace(spec.name, index);
      m.contacts.push_back({spec.name, index, spec.description, spec.points});
    }
  }

  void chains() {
    for (const auto& spec : m.semantics.chains) {
      if (m.chain_index.count(spec.name)) {
        error(spec.line, "duplicate-chain", fmt::format("duplicate chain '{}'", spec.name));
        continue;
      }
      bool ok = known_link(spec, spec.first_link, "first_link");
      ok = known_link(spec, spec.last_link, "last_link") && ok;
      const bool has_virtual = !spec.last_link_virtual.empty();
      if (has_virtual) ok = known_link(spec, spec.last_link_virtual, "last_link_virtual") && ok;
      if (!spec.default_contact.empty() && !m.contact_index.count(spec.default_contact))
        error(spec.line, "unknown-contact",
              fmt::format("chain '{}': default_contact '{}' is not a declared contact", spec.name,
                          spec.default_contact));
      if (!ok) {
        failed_chains.insert(spec.name);
        continue;
      }

      auto path = path_between(spec.first_link, spec.last_link);
      if (!path) {
        warning(spec.line, "unreachable-link",
                fmt::format("chain '{}': first_link '{}' and last_link '{}' have no common ancestor in the URDF: "
                            "the chain is skipped",
                            spec.name, spec.first_link, spec.last_link));
        failed_chains.insert(spec.name);
        continue;
      }
      // Only the joints that move turn in reverse: fixed ones on the way up (a UR arm's
      // base_link-base_link_inertia) are not counted, and a way up through fixed joints only
      // changes nothing.
      const auto moving_up = static_cast<std::size_t>(std::count_if(
          path->up.begin(), path->up.end(), [&](std::size_t j) { return m.urdf.joints[j].movable(); }));
      if (moving_up > 0)
        warning(spec.line, "chain-through-ancestor",
                fmt::format("chain '{}': last_link '{}' is not below first_link '{}'; the chain goes up to their "
                            "common ancestor '{}' and down again, as KDL::Tree::getChain builds it (the {} on the "
                            "way up {} in reverse)",
                            spec.name, spec.last_link, spec.first_link, path->ancestor,
                            moving_up == 1 ? "movable joint" : fmt::format("{} movable joints", moving_up),
                            moving_up == 1 ? "moves" : "move"));
      std::vector<std::size_t> real = path->up;
      real.insert(real.end(), path->down.begin(), path->down.end());
      std::vector<std::size_t> virtual_joints;
      if (has_virtual) {
        auto tail = joints_between(spec.last_link, spec.last_link_virtual);
        if (!tail) {
          warning(spec.line, "last-link-not-between",
                  fmt::format("chain '{}': last_link '{}' is not between first_link '{}' and "
                              "last_link_virtual '{}': the chain is skipped",
                              spec.name, spec.last_link, spec.first_link, spec.last_link_virtual));
          failed_chains.insert(spec.name);
          continue;
        }
        virtual_joints = std::move(*tail);
      }

      Chain chain;
      chain.name = spec.name;
      chain.index = static_cast<int>(m.chains.size());
      chain.first_link = spec.first_link;
      chain.last_link = spec.last_link;
      chain.last_link_virtual = spec.last_link_virtual;
      chain.default_contact = spec.default_contact;
      chain.description = spec.description;
      chain.extra = spec.extra;
      for (std::size_t j : real)
        if (m.urdf.joints[j].movable()) chain.joint_indices.push_back(add_to_pose(j));
      chain.real_size = chain.joint_indices.size();
      for (std::size_t j : virtual_joints)
        if (m.urdf.joints[j].movable()) chain.joint_indices.push_back(add_to_pose(j));
      if (chain.joint_indices.empty())
        warning(spec.line, "empty-chain", fmt::format("chain '{}' has no movable joints", spec.name));
      for (int j : chain.joint_indices) m.joint_owner_chains[static_cast<std::size_t>(j)].push_back(chain.index);

      m.chain_index.emplace(chain.name, chain.index);
      m.chains.push_back(std::move(chain));
    }
  }

  /// MoveIt configurations build groups of groups (panda_arm_hand = panda_arm + hand, PR2's
  /// arms = left_arm + right_arm, arms_and_torso = arms + the torso joint, Talos' r_arm_torso
  /// and all_arms both holding r_arm), declared with subgroups or by listing the same joints,
  /// links and chains. What two such groups share is then a group of its own, or several, and
  /// each shared joint's own group, the first declared, is that smaller group when it comes
  /// first. Two groups overlap when they share joints that no group holding only shared joints
  /// holds (two legs both listing the torso joints with no torso group): the joints' own group
  /// is then an accident of declaration order, and `group-overlap` names them, with the earlier
  /// groups `group` (index `g`) shares them with. Nested and equal groups do not overlap.
  void report_overlap(const GroupSpec& spec, std::size_t g) {
    const auto has = [](const std::vector<int>& v, int j) { return std::find(v.begin(), v.end(), j) != v.end(); };
    const Group& group = m.groups[g];
    std::vector<std::string> with, shared_chains, shared_joints;
    // Per pose index: 1 when shared with the earlier group, 2 when also held by a group that
    // holds shared joints only.
    std::vector<char> mark(m.pose_names.size());
    for (std::size_t h = 0; h < g; ++h) {
      const Group& earlier = m.groups[h];
      std::fill(mark.begin(), mark.end(), 0);
      for (int j : group.joint_indices)
        if (has(earlier.joint_indices, j)) mark[static_cast<std::size_t>(j)] = 1;
      for (const Group& k : m.groups)
        if (std::all_of(k.joint_indices.begin(), k.joint_indices.end(),
                        [&](int i) { return mark[static_cast<std::size_t>(i)] != 0; }))
          for (int i : k.joint_indices) mark[static_cast<std::size_t>(i)] = 2;
      std::vector<int> loose;  // the shared joints no group inside the shared part holds
      for (int j : group.joint_indices)
        if (mark[static_cast<std::size_t>(j)] == 1) loose.push_back(j);
      if (loose.empty()) continue;
      with.push_back(earlier.name);
      for (int c : group.chains) {
        const auto& joints = m.chains[static_cast<std::size_t>(c)].joint_indices;
        if (has(earlier.chains, c) && std::any_of(joints.begin(), joints.end(), [&](int j) { return has(loose, j); }))
          add_unique(shared_chains, m.chains[static_cast<std::size_t>(c)].name);
      }
      for (int j : loose) add_unique(shared_joints, m.pose_names[static_cast<std::size_t>(j)]);
    }
    if (with.empty()) return;
    std::string what;
    if (!shared_chains.empty())
      what = fmt::format("chain{} {} and ", shared_chains.size() == 1 ? "" : "s", join(shared_chains));
    what += fmt::format("{} joint{} ({})", shared_joints.size(), shared_joints.size() == 1 ? "" : "s",
                        join(shared_joints, 6));
    warning(spec.line, "group-overlap",
            fmt::format("group '{}' shares {} with group{} {}, declared before it: the first declared keeps them as "
                        "their group, '{}' still lists them",
                        spec.name, what, with.size() == 1 ? "" : "s", join(with), spec.name));
  }

  static void add_unique(std::vector<std::string>& v, const std::string& x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  }

  /// Groups follow MoveIt: they may overlap (an arm group and an arm-and-torso group, a
  /// `whole_body` group listing joints of other groups' chains), and a joint or chain belongs
  /// (joint_group, chain.group) to the first group declared with it, each later group still
  /// listing it. A group's links bring their parent joints, as MoveIt builds groups. Fixed
  /// joints and the SRDF's virtual joints in a group are skipped with a warning; a joint,
  /// chain or link that does not exist is skipped too, as srdfdom skips it (a mistake:
  /// `check` counts it as an error).
  void groups() {
    std::unordered_set<std::string> virtual_joints;
    for (const auto& vj : m.semantics.virtual_joints) virtual_joints.insert(vj.name);
    std::vector<const GroupSpec*> kept;  // the spec of each group of m.groups
    for (const auto& spec : m.semantics.groups) {
      if (m.group_index.count(spec.name)) {
        error(spec.line, "duplicate-group", fmt::format("duplicate group '{}'", spec.name));
        continue;
      }
      kept.push_back(&spec);
      Group group;
      group.name = spec.name;
      group.index = static_cast<int>(m.groups.size());
      group.description = spec.description;
      std::vector<std::string> skipped_fixed, skipped_virtual;
      auto claim_joint = [&](int pose_index) {
        // A joint reached twice (a subgroup's joint that is also on one of its chains) is one joint.
        if (std::find(group.joint_indices.begin(), group.joint_indices.end(), pose_index) ==
            group.joint_indices.end())
          group.joint_indices.push_back(pose_index);
      };
      for (const auto& chain_name : spec.chains) {
        auto it = m.chain_index.find(chain_name);
        if (it == m.chain_index.end()) {
          if (failed_chains.count(chain_name)) continue;
          warning(spec.line, "unknown-chain",
                  fmt::format("group '{}': chain '{}' is not a declared chain: it is skipped", spec.name,
                              chain_name));
          continue;
        }
        const auto c = static_cast<std::size_t>(it->second);
        if (std::find(group.chains.begin(), group.chains.end(), it->second) != group.chains.end()) continue;
        group.chains.push_back(it->second);
        for (int j : m.chains[c].joint_indices) claim_joint(j);
      }
      auto on_own_chain = [&](int pose_index) {
        for (int c : m.joint_owner_chains[static_cast<std::size_t>(pose_index)])
          if (std::find(group.chains.begin(), group.chains.end(), c) != group.chains.end()) return true;
        return false;
      };
      // A joint of the group beside its chains: listed, or the parent joint of a listed link
      // (then a fixed one is simply not a variable, as in MoveIt).
      auto add_joint = [&](std::size_t urdf_joint, bool listed) {
        const JointInfo& info = m.urdf.joints[urdf_joint];
        if (!info.movable()) {
          if (listed) skipped_fixed.push_back(info.name);
          return;
        }
        // A joint on the group's own chains is the chain's (MoveIt files list them beside
        // the chain); one on another group's chain stays where that chain put it.
        if (auto pj = m.joint_index.find(info.name); pj != m.joint_index.end() && on_own_chain(pj->second)) return;
        const int index = add_to_pose(urdf_joint);
        if (std::find(group.extra_joints.begin(), group.extra_joints.end(), index) == group.extra_joints.end())
          group.extra_joints.push_back(index);
        claim_joint(index);
      };
      for (const auto& joint_name : spec.joints) {
        auto uj = m.urdf.joint_by_name.find(joint_name);
        if (uj != m.urdf.joint_by_name.end()) {
          add_joint(uj->second, true);
        } else if (virtual_joints.count(joint_name)) {
          skipped_virtual.push_back(joint_name);
        } else {
          warning(spec.line, "unknown-joint",
                  fmt::format("group '{}': joint '{}' is not a joint of the URDF: it is skipped", spec.name,
                              joint_name));
        }
      }
      for (const auto& link_name : spec.links) {
        auto link = m.urdf.link_by_name.find(link_name);
        if (link == m.urdf.link_by_name.end()) {
          warning(spec.line, "unknown-link",
                  fmt::format("group '{}': link '{}' is not a link of the URDF: it is skipped", spec.name, link_name));
          continue;
        }
        const std::string& parent = m.urdf.links[link->second].parent_joint;
        if (!parent.empty()) add_joint(m.urdf.joint_by_name.at(parent), false);  // the root has none
      }
      if (!skipped_fixed.empty())
        note(spec.line, "fixed-joint",
             fmt::format("group '{}': {} skipped, not movable: {}", spec.name,
                         skipped_fixed.size() == 1 ? "1 joint" : fmt::format("{} joints", skipped_fixed.size()),
                         join(skipped_fixed)));
      if (!skipped_virtual.empty())
        note(spec.line, "virtual-joint-in-group",
             fmt::format("group '{}': {} skipped: {} of the semantics, not of the URDF (outside the full pose)",
                         spec.name, join(skipped_virtual),
                         skipped_virtual.size() == 1 ? "a virtual joint" : "virtual joints"));
      for (int c : group.chains)
        if (auto& g = m.chains[static_cast<std::size_t>(c)].group; g < 0) g = group.index;
      for (int j : group.joint_indices)
        if (auto& g = m.joint_group[static_cast<std::size_t>(j)]; g < 0) g = group.index;
      if (group.joint_indices.empty())
        note(spec.line, "empty-group", fmt::format("group '{}' has no movable joints", spec.name));
      m.group_index.emplace(group.name, group.index);
      m.groups.push_back(std::move(group));
    }
    // Once every group is known: what two groups share may be a group declared after both.
    for (std::size_t g = 0; g < m.groups.size(); ++g) report_overlap(*kept[g], g);
  }

  /// End effectors and virtual joints name links and groups, which srdfdom looks up and, when
  /// one is missing, skips the element with an error in its log (dual-arm panda's MoveIt
  /// configuration names a group 'left_hand' it does not declare). rmodel keeps them as
  /// written (they are not part of the pose) and says so, as a warning: MoveIt loads the file.
  void end_effectors_and_virtual_joints() {
    std::unordered_set<std::string> groups;
    for (const auto& g : m.semantics.groups) groups.insert(g.name);
    const auto is_link = [&](const std::string& name) { return m.urdf.link_by_name.count(name) != 0; };
    for (const auto& eef : m.semantics.end_effectors) {
      if (!groups.count(eef.group))
        warning(eef.line, "eef-unknown-group",
                fmt::format("end_effector '{}': group '{}' is not a declared group (MoveIt skips this end effector)",
                            eef.name, eef.group));
      if (!eef.parent_group.empty() && !groups.count(eef.parent_group))
        warning(eef.line, "eef-unknown-group",
                fmt::format("end_effector '{}': parent_group '{}' is not a declared group", eef.name,
                            eef.parent_group));
      if (!is_link(eef.parent_link))
        warning(eef.line, "eef-unknown-link",
                fmt::format("end_effector '{}': parent_link '{}' is not a link of the URDF (MoveIt skips this end "
                            "effector)",
                            eef.name, eef.parent_link));
    }
    for (const auto& vj : m.semantics.virtual_joints)
      if (!is_link(vj.child_link))
        warning(vj.line, "virtual-joint-unknown-link",
                fmt::format("virtual_joint '{}': child_link '{}' is not a link of the URDF (MoveIt skips this "
                            "virtual joint)",
                            vj.name, vj.child_link));
  }

  /// The SRDF's collision matrix, as srdfdom and MoveIt read it (docs/design.md, "Interop and
  /// CI guards"): srdfdom drops an entry naming a link the URDF lacks, with a warning, and MoveIt
  /// loads the file, so the pair the author meant to leave out is checked for collision after
  /// all (`collision-unknown-link`). Entries that mean nothing or contradict each other are
  /// said too: a link paired with itself, a pair given twice (in either order), a pair both
  /// disabled and enabled (MoveIt applies the enabled pairs last: it is checked). All are
  /// warnings: rmodel computes nothing from the matrix.
  void collision_matrix() {
    const auto& matrix = m.semantics.collisions;
    const auto known = [&](const std::string& link) { return m.urdf.link_by_name.count(link) != 0; };
    const auto unknown_link = [&](int line, std::string_view element, const std::string& link) {
      std::vector<std::string> links;
      links.reserve(m.urdf.links.size());
      for (const auto& l : m.urdf.links) links.push_back(l.name);
      warning(line, "collision-unknown-link",
              fmt::format("<{}>: link '{}' is not a link of the URDF: MoveIt drops this entry{}", element, link,
                          did_you_mean(link, links)));
    };
    using Key = std::pair<std::string, std::string>;
    const auto key = [](const CollisionPair& p) { return p.link1 < p.link2 ? Key{p.link1, p.link2} : Key{p.link2, p.link1}; };
    // The first entry of each pair of known, distinct links.
    const auto pairs = [&](const std::vector<CollisionPair>& list, std::string_view element) {
      std::map<Key, const CollisionPair*> first;
      for (const auto& p : list) {
        const bool ok1 = known(p.link1), ok2 = known(p.link2);
        if (!ok1) unknown_link(p.line, element, p.link1);
        if (!ok2 && p.link2 != p.link1) unknown_link(p.line, element, p.link2);
        if (!ok1 || !ok2) continue;  // dropped, as srdfdom drops it
        if (p.link1 == p.link2) {
          warning(p.line, "collision-self-pair",
                  fmt::format("<{}>: link '{}' is paired with itself: the entry means nothing (a link is never "
                              "checked against itself)",
                              element, p.link1));
          continue;
        }
        if (auto [it, inserted] = first.emplace(key(p), &p); !inserted)
          warning(p.line, "collision-duplicate",
                  fmt::format("<{}>: links '{}' and '{}' are paired again (first at line {})", element, p.link1,
                              p.link2, it->second->line));
      }
      return first;
    };
    const auto disabled = pairs(matrix.disabled, "disable_collisions");
    const auto enabled = pairs(matrix.enabled, "enable_collisions");
    for (const auto& p : matrix.enabled) {
      const auto e = enabled.find(key(p));
      const auto d = disabled.find(key(p));
      if (e == enabled.end() || e->second != &p || d == disabled.end()) continue;
      warning(p.line, "collision-conflict",
              fmt::format("<enable_collisions>: links '{}' and '{}' are also disabled (line {}): MoveIt checks them, "
                          "as it applies enabled pairs last",
                          p.link1, p.link2, d->second->line));
    }
    std::map<std::string, int> defaults;
    for (const auto& d : matrix.disabled_default) {
      if (!known(d.link)) {
        unknown_link(d.line, "disable_default_collisions", d.link);
        continue;
      }
      if (auto [it, inserted] = defaults.emplace(d.link, d.line); !inserted)
        warning(d.line, "collision-duplicate",
                fmt::format("<disable_default_collisions>: link '{}' is given again (first at line {})", d.link,
                            it->second));
    }
  }

  static std::string join(const std::vector<std::string>& names, std::size_t max = 8) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < max; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > max) out += fmt::format(", ... ({} in all)", names.size());
    return out;
  }

  /// A joint_limits.yaml: limits of the joints it names replace or add to the URDF's.
  void limits() {
    if (!m.limits) return;
    for (const auto& w : m.limits->warnings) out.items.push_back(w);
    std::vector<std::string> urdf_joints;  // for "did you mean", filled when first needed
    for (const auto& spec : m.limits->joints) {
      auto it = m.urdf.joint_by_name.find(spec.joint);
      if (it == m.urdf.joint_by_name.end()) {
        // MoveIt looks up joint_limits.<name> for each joint of the model, so an entry for a
        // joint the URDF lacks is never read (TIAGo's one file serves several grippers).
        if (urdf_joints.empty())
          for (const auto& j : m.urdf.joints) urdf_joints.push_back(j.name);
        out.add(Severity::warning, {m.limits->source, spec.line}, "limits-unknown-joint",
                fmt::format("joint '{}' is not a joint of the URDF: its limits are not used{}", spec.joint,
                            did_you_mean(spec.joint, urdf_joints)));
        continue;
      }
      JointInfo& j = m.urdf.joints[it->second];
      if (!j.movable()) {
        out.add(Severity::warning, {m.limits->source, spec.line}, "limits-fixed-joint",
                fmt::format("joint '{}' is {}: its limits are not used", spec.joint, to_string(j.type)));
        continue;
      }
      j.limits_from_file = true;
      if (spec.max_velocity) j.velocity_limit = *spec.max_velocity;
      if (spec.max_effort) j.effort_limit = *spec.max_effort;
      if (spec.max_acceleration) j.acceleration_limit = *spec.max_acceleration;
      if (spec.max_jerk) j.jerk_limit = *spec.max_jerk;
      if (spec.min_position || spec.max_position) {
        if (j.type == JointType::continuous) {
          // MoveIt refuses position limits on a continuous joint (an error in its log) and
          // keeps the joint unbounded.
          out.add(Severity::warning, {m.limits->source, spec.line}, "limits-ignored",
                  fmt::format("joint '{}' is continuous: its min_position and max_position are not used, as MoveIt "
                              "does not use them",
                              spec.joint));
        } else {
          // Each bound given replaces the URDF's; the other stays.
          j.has_limits = true;
          if (spec.min_position) j.lower = *spec.min_position;
          if (spec.max_position) j.upper = *spec.max_position;
        }
      }
    }
  }

  void urdf_only_pose() {
    for (std::size_t j = 0; j < m.urdf.joints.size(); ++j)
      if (m.urdf.joints[j].movable()) add_to_pose(j);
  }

  void pose_warnings() {
    for (std::size_t j = 0; j < m.urdf.joints.size(); ++j) {
      const JointInfo& info = m.urdf.joints[j];
      if (info.type == JointType::floating || info.type == JointType::planar)
        out.add(Severity::warning, {m.urdf_source, info.line}, "unsupported-joint",
                fmt::format("joint '{}' is {}: treated as fixed", info.name, to_string(info.type)));
      if (info.bounded() && info.lower > info.upper)
        out.add(Severity::warning, {m.urdf_source, info.line}, "limits",
                fmt::format("joint '{}' has lower limit {} above upper limit {}", info.name, info.lower, info.upper));
      // A mimic joint following a joint of the pose is not a lost degree of freedom.
      if (m.has_semantics && info.movable() && !m.joint_index.count(info.name) && !pose_master(info))
        out.add(Severity::note, {m.urdf_source, info.line}, "joint-outside-pose",
                fmt::format("movable joint '{}' is in no chain or group: it is not part of the full pose", info.name));
    }
  }
};

}  // namespace

void Model::Impl::index(Diagnostics& diagnostics) {
  Indexer indexer{*this, diagnostics, semantics.source, {}};
  indexer.mimics();
  indexer.limits();
  if (has_semantics) {
    indexer.contacts();
    indexer.chains();
    indexer.groups();
    indexer.end_effectors_and_virtual_joints();
    indexer.collision_matrix();
    if (semantics.chains.empty() && semantics.groups.empty()) {
      // Nothing chooses the joints (an SRDF with a collision matrix only): the pose stays
      // what the URDF alone gives, not an empty one.
      indexer.urdf_only_pose();
      diagnostics.add(Severity::warning, {semantics.source, 0}, "no-groups",
                      "the semantics declare no chain and no group: the full pose is every movable joint of the "
                      "URDF, as without semantics");
    }
  } else {
    indexer.urdf_only_pose();
  }
  for (std::size_t i = 0; i < pose_names.size(); ++i)
    urdf.joints[pose_to_urdf[i]].index = static_cast<int>(i);
  indexer.pose_mimics();
  indexer.pose_warnings();
}

}  // namespace rmodel
