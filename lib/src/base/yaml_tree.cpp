// load_yaml: the plugin, opened on the first YAML document read (base/yaml_tree.hpp says
// why). It lies beside the librmodel that is running, or in the libdir of a program that has
// librmodel's code linked in, in the build tree as once installed; it belongs to that version
// of librmodel (its name says which). The sanitizer build has the plugin's code compiled in.
// The merge keys yaml-cpp leaves as they are written are merged here, for both builds.
#include "base/yaml_tree.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "base/lazy_library.hpp"
#include "base/library_file.hpp"

namespace rmodel::detail {
namespace {

#ifndef RMODEL_YAML_LINKED
const std::string& yaml_plugin_path() {
  static const std::string path = plugin_path(RMODEL_YAML_PLUGIN);
  return path;
}
#endif

/// `<<` as a merge key: plain, or tagged !!merge. A quoted '<<' is an ordinary key.
bool is_merge_key(const YamlNode& key) {
  return key.type == YamlNode::Type::scalar && key.scalar == "<<" &&
         (key.tag == "?" || key.tag == "tag:yaml.org,2002:merge");
}

bool same_key(const YamlNode& a, const YamlNode& b) {
  return a.type == YamlNode::Type::scalar && b.type == YamlNode::Type::scalar && a.scalar == b.scalar;
}

/// Merges the `<<: *anchor` entries of every map in `node` as PyYAML does (flatten_mapping):
/// the maps named by `<<` come in, a key written in the map itself wins over a merged one, a
/// later `<<` over an earlier, and in a list of maps an earlier one over a later. yaml-cpp
/// keeps `<<` as an ordinary key, but the files ROS loads with PyYAML (rosparam, ROS 2
/// launch, xacro's load_yaml) mean the merge. Each merged key is given once, at the place
/// of its first merged entry with the value that wins, and not at all when the map writes it
/// itself: so a merged key is no key written twice, which the readers refuse or resolve
/// (a key written twice in the map itself stays as written). Children first: a merged map
/// is merged already.
void merge_keys(YamlNode& node) {
  for (auto& item : node.items) merge_keys(item);
  for (auto& [key, value] : node.entries) {
    merge_keys(key);
    merge_keys(value);
  }
  if (!node.is_map()) return;
  bool has_merge = false;
  for (const auto& entry : node.entries) has_merge = has_merge || is_merge_key(entry.key);
  if (!has_merge) return;
  // PyYAML's order: the `<<` values in turn (a list's maps last first), later winning.
  std::vector<YamlEntry> merged, written;
  const auto refuse = [](const YamlNode& n) {
    throw YamlSyntaxError{n.line, "a merge key '<<' takes a map or a list of maps"};
  };
  for (auto& entry : node.entries) {
    if (!is_merge_key(entry.key)) {
      written.push_back(std::move(entry));
      continue;
    }
    YamlNode& value = entry.value;
    if (value.is_map()) {
      for (auto& e : value.entries) merged.push_back(std::move(e));
    } else if (value.type == YamlNode::Type::sequence) {
      for (const auto& item : value.items)
        if (!item.is_map()) refuse(item);
      for (auto item = value.items.rbegin(); item != value.items.rend(); ++item)
        for (auto& e : item->entries) merged.push_back(std::move(e));
    } else {
      refuse(value);
    }
  }
  // Each merged key not written in the map: its first place, and the entry that wins.
  std::vector<std::pair<std::size_t, std::size_t>> picks;
  for (std::size_t i = 0; i < merged.size(); ++i) {
    const YamlNode& key = merged[i].key;
    if (std::any_of(written.begin(), written.end(), [&key](const auto& e) { return same_key(e.key, key); }))
      continue;
    const auto placed = std::find_if(picks.begin(), picks.end(),
                                     [&](const auto& p) { return same_key(merged[p.first].key, key); });
    if (placed != picks.end()) placed->second = i;
    else picks.emplace_back(i, i);
  }
  std::vector<YamlEntry> entries;
  for (const auto& [place, winner] : picks)
    entries.push_back(YamlEntry{std::move(merged[place].key), std::move(merged[winner].value)});
  for (auto& e : written) entries.push_back(std::move(e));
  node.entries = std::move(entries);
}

}  // namespace

YamlNode load_yaml(std::string_view text) {
  using Load = int(const char*, std::size_t, YamlNode*, YamlSyntaxError*);
#ifdef RMODEL_YAML_LINKED
  Load* load = &rmodel_yaml_load;
#else
  static LazyLibrary plugin(yaml_plugin_path().c_str(), "read YAML files");
  static std::atomic<Load*> cache{nullptr};
  Load* load = resolve_lazily(plugin, cache, "rmodel_yaml_load");
#endif
  YamlNode root;
  YamlSyntaxError error;
  if (load(text.data(), text.size(), &root, &error) != 0) throw error;
  merge_keys(root);
  return root;
}

}  // namespace rmodel::detail
