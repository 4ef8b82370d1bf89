// Indexing a semantic description against a URDF: the rules of the original
// robot_model service (SPEC §1). Every broken rule becomes a diagnostic naming the file,
// the line and the element, so `rmodel check` can list them all; Model::load throws the
// first error.
#include <algorithm>
#include <unordered_set>

#include <fmt/format.h>

#include "model_impl.hpp"

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
  void error(int line, std::string code, std::string message) {
    out.add(Severity::error, at(line), std::move(code), std::move(message));
  }
  void warning(int line, std::string code, std::string message) {
    out.add(Severity::warning, at(line), std::move(code), std::move(message));
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

  /// Links from `ancestor` (exclusive) down to `link` (inclusive) as the joints leading to
  /// them, root to tip; nullopt when `ancestor` is not above `link`.
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

  bool known_link(const ChainSpec& spec, const std::string& link, const char* property) {
    if (m.urdf.link_by_name.count(link)) return true;
    error(spec.line, "unknown-link",
          fmt::format("chain '{}': {} '{}' is not a link of the URDF", spec.name, property, link));
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

      auto real = joints_between(spec.first_link, spec.last_link);
      if (!real) {
        error(spec.line, "unreachable-link",
              fmt::format("chain '{}': last_link '{}' is not below first_link '{}' in the URDF tree",
                          spec.name, spec.last_link, spec.first_link));
        failed_chains.insert(spec.name);
        continue;
      }
      std::vector<std::size_t> virtual_joints;
      if (has_virtual) {
        auto tail = joints_between(spec.last_link, spec.last_link_virtual);
        if (!tail) {
          error(spec.line, "last-link-not-between",
                fmt::format("chain '{}': last_link '{}' is not between first_link '{}' and "
                            "last_link_virtual '{}'",
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
      for (std::size_t j : *real)
        if (m.urdf.joints[j].movable()) chain.joint_indices.push_back(add_to_pose(j));
      chain.real_size = chain.joint_indices.size();
      for (std::size_t j : virtual_joints)
        if (m.urdf.joints[j].movable()) chain.joint_indices.push_back(add_to_pose(j));
      if (chain.joint_indices.empty())
        warning(spec.line, "empty-chain", fmt::format("chain '{}' has no movable joints", spec.name));
      for (int j : chain.joint_indices) m.joint_owner_chains[static_cast<std::size_t>(j)].push_back(chain.index);

      KDL::Chain full, real_chain;
      m.urdf.tree->getChain(spec.first_link, has_virtual ? spec.last_link_virtual : spec.last_link, full);
      m.urdf.tree->getChain(spec.first_link, spec.last_link, real_chain);
      m.kdl_chains_full.push_back(std::move(full));
      m.kdl_chains_real.push_back(std::move(real_chain));
      m.chain_index.emplace(chain.name, chain.index);
      m.chains.push_back(std::move(chain));
    }
  }

  void groups() {
    // Which group a chain or joint has been given to, for "in two groups" messages.
    std::vector<std::string> chain_owner(m.chains.size());
    std::unordered_map<std::string, std::string> joint_owner;
    for (const auto& spec : m.semantics.groups) {
      if (m.group_index.count(spec.name)) {
        error(spec.line, "duplicate-group", fmt::format("duplicate group '{}'", spec.name));
        continue;
      }
      Group group;
      group.name = spec.name;
      group.index = static_cast<int>(m.groups.size());
      group.description = spec.description;
      auto claim_joint = [&](int pose_index) {
        const std::string& joint = m.pose_names[static_cast<std::size_t>(pose_index)];
        auto [it, inserted] = joint_owner.emplace(joint, spec.name);
        if (!inserted && it->second != spec.name) {
          error(spec.line, "joint-in-two-groups",
                fmt::format("joint '{}' is in groups '{}' and '{}'", joint, it->second, spec.name));
          return;
        }
        if (std::find(group.joint_indices.begin(), group.joint_indices.end(), pose_index) ==
            group.joint_indices.end())
          group.joint_indices.push_back(pose_index);
      };
      for (const auto& chain_name : spec.chains) {
        auto it = m.chain_index.find(chain_name);
        if (it == m.chain_index.end()) {
          if (failed_chains.count(chain_name)) continue;
          error(spec.line, "unknown-chain",
                fmt::format("group '{}': chain '{}' is not a declared chain", spec.name, chain_name));
          continue;
        }
        const auto c = static_cast<std::size_t>(it->second);
        if (!chain_owner[c].empty()) {
          error(spec.line, "chain-in-two-groups",
                fmt::format("chain '{}' is in groups '{}' and '{}'", chain_name, chain_owner[c], spec.name));
          continue;
        }
        chain_owner[c] = spec.name;
        group.chains.push_back(it->second);
        for (int j : m.chains[c].joint_indices) claim_joint(j);
      }
      for (const auto& joint_name : spec.joints) {
        auto uj = m.urdf.joint_by_name.find(joint_name);
        if (uj == m.urdf.joint_by_name.end()) {
          error(spec.line, "unknown-joint",
                fmt::format("group '{}': joint '{}' is not a joint of the URDF", spec.name, joint_name));
          continue;
        }
        const JointInfo& info = m.urdf.joints[uj->second];
        if (!info.movable()) {
          error(spec.line, "fixed-joint",
                fmt::format("group '{}': joint '{}' is {}, not movable", spec.name, joint_name, to_string(info.type)));
          continue;
        }
        if (auto pj = m.joint_index.find(joint_name); pj != m.joint_index.end()) {
          const auto& owners = m.joint_owner_chains[static_cast<std::size_t>(pj->second)];
          if (!owners.empty()) {
            error(spec.line, "group-joint-in-chain",
                  fmt::format("group '{}': joint '{}' belongs to chain '{}'; a group's joints must be "
                              "outside every chain",
                              spec.name, joint_name, m.chains[static_cast<std::size_t>(owners.front())].name));
            continue;
          }
        }
        const int index = add_to_pose(uj->second);
        group.extra_joints.push_back(index);
        claim_joint(index);
      }
      for (int c : group.chains) m.chains[static_cast<std::size_t>(c)].group = group.index;
      for (int j : group.joint_indices) m.joint_group[static_cast<std::size_t>(j)] = group.index;
      m.group_index.emplace(group.name, group.index);
      m.groups.push_back(std::move(group));
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
      if (m.has_semantics && info.movable() && !m.joint_index.count(info.name))
        out.add(Severity::warning, {m.urdf_source, info.line}, "joint-outside-pose",
                fmt::format("movable joint '{}' is in no chain or group: it is not part of the full pose", info.name));
    }
  }
};

}  // namespace

void Model::Impl::index(Diagnostics& diagnostics) {
  Indexer indexer{*this, diagnostics, semantics.source, {}};
  if (has_semantics) {
    indexer.contacts();
    indexer.chains();
    indexer.groups();
  } else {
    indexer.urdf_only_pose();
  }
  for (std::size_t i = 0; i < pose_names.size(); ++i)
    urdf.joints[pose_to_urdf[i]].index = static_cast<int>(i);
  indexer.pose_warnings();
}

}  // namespace rmodel
