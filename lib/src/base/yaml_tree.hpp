#pragma once
// Internal: a YAML document as yaml-cpp reads it, without linking yaml-cpp. yaml-cpp cannot
// be opened on first use through forwarders as KDL is (rmodel would refer to its exception
// types and vtables), and loading it costs every start of every program using librmodel
// about a fifth of a millisecond (docs/design.md, "Start-up"). So a plugin of rmodel's own,
// rmodel-yaml-<version>.so beside librmodel (lib/plugins/yaml_plugin.cpp), links yaml-cpp
// and turns a document into this tree, with yaml-cpp's own conversions of each scalar. Used
// by the joint limits (model/limits.cpp) and xacro's load_yaml (xacro/processor.cpp).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rmodel::detail {

struct YamlEntry;

/// One node of a YAML document, as yaml-cpp's YAML::Node gives it.
struct YamlNode {
  enum class Type { undefined, null, scalar, sequence, map };
  Type type = Type::undefined;
  std::string scalar;  ///< Scalar(): the text of a scalar
  std::string tag;     ///< Tag(): "!" for a quoted scalar, "?" for a plain one, or the tag written
  int line = 0;        ///< 1-based line of the node; 0 when yaml-cpp does not know it
  /// as<std::string>(), as<double>(), as<bool>(): nullopt where yaml-cpp throws.
  std::optional<std::string> as_string;
  std::optional<double> as_double;
  std::optional<bool> as_bool;
  std::vector<YamlNode> items;                         ///< a sequence's items
  // A vector of a type declared but not yet defined: std::vector allows it (C++17), where
  // std::pair<YamlNode, YamlNode> would need YamlNode complete here (clang's check).
  std::vector<YamlEntry> entries;  ///< a map's keys and values, in order

  [[nodiscard]] bool is_map() const noexcept { return type == Type::map; }
  /// The value of the first entry whose key is the scalar `key` (yaml-cpp's const
  /// operator[]), or nullptr (an undefined node).
  [[nodiscard]] const YamlNode* find(std::string_view key) const noexcept;
};

/// One entry of a map: its key and its value, in the order written.
struct YamlEntry {
  YamlNode key;
  YamlNode value;
};

inline const YamlNode* YamlNode::find(std::string_view name) const noexcept {
  for (const auto& [k, v] : entries)
    if (k.type == Type::scalar && k.scalar == name) return &v;
  return nullptr;
}

/// What YAML::Load threw: the line (1-based, 0 when unknown) and yaml-cpp's message.
struct YamlSyntaxError {
  int line = 0;
  std::string message;
};

/// YAML::Load(text) as a tree, with merge keys (`<<: *anchor`) merged as PyYAML merges them
/// (yaml_tree.cpp). @throws YamlSyntaxError for a malformed document or a merge key whose
/// value is not a map or a list of maps;
/// rmodel::IoError when the plugin cannot be loaded (a broken installation).
YamlNode load_yaml(std::string_view text);

}  // namespace rmodel::detail

/// The plugin's one function (lib/plugins/yaml_plugin.cpp): fills `root`, or `error` and
/// returns non-zero. Not exported by librmodel.
extern "C" int rmodel_yaml_load(const char* text, std::size_t size, rmodel::detail::YamlNode* root,
                                rmodel::detail::YamlSyntaxError* error);
