// rmodel-yaml-<version>.so: yaml-cpp behind one C function, so that librmodel does not link
// yaml-cpp (lib/src/base/yaml_tree.hpp says why). Built as a module beside librmodel; the
// sanitizer build compiles it into the static library.
#include <new>
#include <optional>
#include <string>

#include <yaml-cpp/yaml.h>

#include "base/yaml_tree.hpp"

namespace {

using rmodel::detail::YamlEntry;
using rmodel::detail::YamlNode;

int line_of(const YAML::Mark& mark) { return mark.line >= 0 ? mark.line + 1 : 0; }

/// node.as<T>() without its exception: as<T>() is YAML::convert<T>::decode, throwing where
/// decode fails (an exception per string scalar asked for a number costs more than the parse).
template <typename T>
std::optional<T> converted(const YAML::Node& node) {
  T value{};
  if (YAML::convert<T>::decode(node, value)) return value;
  return std::nullopt;
}

/// The tree of `node`. Recursive: yaml-cpp refuses documents nested deeper than it can
/// parse (YAML::DeepRecursion), so the depth here is bounded by its own.
YamlNode tree(const YAML::Node& node) {
  YamlNode out;
  out.line = line_of(node.Mark());
  out.tag = node.Tag();
  switch (node.Type()) {
    case YAML::NodeType::Undefined: out.type = YamlNode::Type::undefined; break;
    case YAML::NodeType::Null: out.type = YamlNode::Type::null; break;
    case YAML::NodeType::Scalar: out.type = YamlNode::Type::scalar; break;
    case YAML::NodeType::Sequence: out.type = YamlNode::Type::sequence; break;
    case YAML::NodeType::Map: out.type = YamlNode::Type::map; break;
  }
  if (node.IsScalar()) {
    out.scalar = node.Scalar();
    out.as_double = converted<double>(node);
    out.as_bool = converted<bool>(node);
  }
  // as<std::string>() reads a null as "null" before decoding.
  out.as_string = node.IsNull() ? std::optional<std::string>("null") : converted<std::string>(node);
  if (node.IsSequence())
    for (const auto& item : node) out.items.push_back(tree(item));
  if (node.IsMap())
    for (const auto& entry : node) out.entries.push_back(YamlEntry{tree(entry.first), tree(entry.second)});
  return out;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int rmodel_yaml_load(const char* text, std::size_t size,
                                                                         YamlNode* root,
                                                                         rmodel::detail::YamlSyntaxError* error) {
  try {
    *root = tree(YAML::Load(std::string(text, size)));
    return 0;
  } catch (const YAML::Exception& e) {
    *error = {line_of(e.mark), e.msg};
  } catch (const std::bad_alloc&) {
    *error = {0, "out of memory"};
  }
  return 1;
}
