// MoveIt joint_limits.yaml, read as MoveIt reads it: a limit counts when its has_*_limits
// flag is true; everything else rmodel does not use is a warning with its line.
#include "rmodel/limits.hpp"

#include <cmath>

#include <fmt/format.h>

#include "rmodel/error.hpp"
#include "rmodel/file.hpp"
#include "base/yaml_tree.hpp"

namespace rmodel {

const JointLimitsSpec* JointLimitsFile::find(std::string_view joint) const noexcept {
  for (const auto& j : joints)
    if (j.joint == joint) return &j;
  return nullptr;
}

namespace {

using detail::YamlNode;

class LimitsReader {
public:
  explicit LimitsReader(const std::string& source) { out_.source = source; }

  JointLimitsFile read(std::string_view text) {
    YamlNode root;
    try {
      root = detail::load_yaml(text);
    } catch (const detail::YamlSyntaxError& e) {
      fail(e.line, fmt::format("malformed YAML: {}", e.message));
    }
    if (!root.is_map() || !root.find("joint_limits"))
      fail(1, "expected a map with a 'joint_limits' key (MoveIt joint_limits.yaml)");
    refuse_repeated_keys(root, "the file");
    for (const auto& [key, value] : root.entries) {
      const std::string name = key_name(key);
      if (name != "joint_limits" && name != "default_velocity_scaling_factor" &&
          name != "default_acceleration_scaling_factor")
        warn(key.line, fmt::format("ignored key '{}'", name));
    }
    const YamlNode& limits = *root.find("joint_limits");
    if (!limits.is_map()) fail(limits.line, "'joint_limits' must map joint names to their limits");
    for (const auto& [key, value] : limits.entries) joint(key, value);
    return std::move(out_);
  }

private:
  [[noreturn]] void fail(int line, const std::string& message) const {
    throw ParseError({out_.source, line}, message);
  }
  void warn(int line, std::string message) {
    out_.warnings.push_back({Severity::warning, {out_.source, line}, "limits-ignored", std::move(message)});
  }

  /// A key written twice in one map is refused, as a joint given twice is: MoveIt's loaders
  /// (PyYAML, ROS 2 launch and rosparam) keep the last value, yaml-cpp's lookup the first,
  /// so either reading would silently drop one of the two.
  void refuse_repeated_keys(const YamlNode& map, const std::string& owner) const {
    for (std::size_t k = 1; k < map.entries.size(); ++k) {
      const std::string name = key_name(map.entries[k].first);
      for (std::size_t j = 0; j < k; ++j)
        if (key_name(map.entries[j].first) == name)
          fail(map.entries[k].first.line, fmt::format("{}: {} is given twice (first at line {})", owner, name,
                                                      map.entries[j].first.line));
    }
  }

  /// A key as yaml-cpp's as<std::string>() reads it; a sequence or a map is no name.
  std::string key_name(const YamlNode& key) const {
    if (!key.as_string) fail(key.line, "a key must be a name, not a sequence or a map");
    return *key.as_string;
  }

  double number(const YamlNode& node, const std::string& owner, const std::string& key, bool positive) const {
    if (!node.as_double) fail(node.line, fmt::format("{}: {} is not a number", owner, key));
    const double v = *node.as_double;
    if (!std::isfinite(v) || (positive && v <= 0))
      fail(node.line, fmt::format("{}: {} = {} must be a {}finite number", owner, key, v, positive ? "positive " : ""));
    return v;
  }

  bool flag(const YamlNode& node, const std::string& owner, const std::string& key) const {
    if (!node.as_bool) fail(node.line, fmt::format("{}: {} must be true or false", owner, key));
    return *node.as_bool;
  }

  void joint(const YamlNode& key, const YamlNode& value) {
    JointLimitsSpec spec;
    spec.joint = key_name(key);
    spec.line = key.line;
    const std::string owner = fmt::format("joint '{}'", spec.joint);
    if (out_.find(spec.joint)) fail(spec.line, fmt::format("{} is given twice", owner));
    if (!value.is_map()) fail(spec.line, fmt::format("{}: expected a map of limits", owner));
    refuse_repeated_keys(value, owner);
    // kind → (flag, value keys); a value counts only when its flag is true.
    struct Kind {
      const char* flag;
      std::vector<const char*> values;
    };
    static const std::vector<Kind> kinds = {{"has_position_limits", {"min_position", "max_position"}},
                                            {"has_velocity_limits", {"max_velocity"}},
                                            {"has_acceleration_limits", {"max_acceleration"}},
                                            {"has_jerk_limits", {"max_jerk"}},
                                            {"has_effort_limits", {"max_effort"}}};
    for (const auto& [item_key, item_value] : value.entries) {
      const std::string k = key_name(item_key);
      bool known = k == "has_soft_limits" || k == "k_position" || k == "k_velocity" || k == "soft_lower_limit" ||
                   k == "soft_upper_limit" || k == "angle_wraparound";
      for (const auto& kind : kinds) {
        known = known || k == kind.flag;
        for (const char* v : kind.values) known = known || k == v;
      }
      if (!known) warn(item_key.line, fmt::format("{}: ignored key '{}'", owner, k));
    }
    for (const auto& kind : kinds) {
      const YamlNode* f = value.find(kind.flag);
      const bool on = f && flag(*f, owner, kind.flag);
      for (const char* v : kind.values) {
        const YamlNode* n = value.find(v);
        if (!n) continue;
        if (!on) {
          warn(n->line, fmt::format("{}: {} ignored, {} is {}", owner, v, kind.flag, f ? "false" : "not given"));
          continue;
        }
        const bool position = std::string_view(kind.flag) == "has_position_limits";
        const double x = number(*n, owner, v, !position);
        const std::string_view name = v;
        if (name == "min_position") spec.min_position = x;
        else if (name == "max_position") spec.max_position = x;
        else if (name == "max_velocity") spec.max_velocity = x;
        else if (name == "max_acceleration") spec.max_acceleration = x;
        else if (name == "max_jerk") spec.max_jerk = x;
        else spec.max_effort = x;
      }
      if (on && !value.find(kind.values.front()) && kind.values.size() == 1)
        fail(f->line, fmt::format("{}: {} is true but {} is not given", owner, kind.flag, kind.values.front()));
    }
    if (spec.min_position.has_value() != spec.max_position.has_value())
      fail(spec.line, fmt::format("{}: has_position_limits needs both min_position and max_position", owner));
    if (spec.min_position && *spec.min_position > *spec.max_position)
      fail(spec.line, fmt::format("{}: min_position {} is above max_position {}", owner, *spec.min_position,
                                  *spec.max_position));
    out_.joints.push_back(std::move(spec));
  }

  JointLimitsFile out_;
};

}  // namespace

JointLimitsFile parse_joint_limits(std::string_view text, const std::string& source_name) {
  return LimitsReader(source_name).read(text);
}

JointLimitsFile load_joint_limits(const std::string& path) {
  return parse_joint_limits(read_text_file(path), display_name(path));
}

}  // namespace rmodel
