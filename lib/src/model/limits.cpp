// MoveIt joint_limits.yaml, read as MoveIt reads it: a limit counts when its has_*_limits
// flag is true; everything else rmodel does not use is a warning with its line.
#include "rmodel/limits.hpp"

#include <cmath>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "rmodel/error.hpp"
#include "rmodel/file.hpp"

namespace rmodel {

const JointLimitsSpec* JointLimitsFile::find(std::string_view joint) const noexcept {
  for (const auto& j : joints)
    if (j.joint == joint) return &j;
  return nullptr;
}

namespace {

int line_of(const YAML::Node& node) { return node.Mark().line >= 0 ? node.Mark().line + 1 : 0; }

class LimitsReader {
public:
  explicit LimitsReader(const std::string& source) { out_.source = source; }

  JointLimitsFile read(std::string_view text) {
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
      fail(e.mark.line >= 0 ? e.mark.line + 1 : 0, fmt::format("malformed YAML: {}", e.msg));
    }
    if (!root.IsMap() || !root["joint_limits"])
      fail(1, "expected a map with a 'joint_limits' key (MoveIt joint_limits.yaml)");
    for (const auto& item : root) {
      const std::string key = item.first.as<std::string>();
      if (key != "joint_limits" && key != "default_velocity_scaling_factor" &&
          key != "default_acceleration_scaling_factor")
        warn(line_of(item.first), fmt::format("ignored key '{}'", key));
    }
    const YAML::Node limits = root["joint_limits"];
    if (!limits.IsMap()) fail(line_of(limits), "'joint_limits' must map joint names to their limits");
    for (const auto& item : limits) joint(item.first, item.second);
    return std::move(out_);
  }

private:
  [[noreturn]] void fail(int line, const std::string& message) const {
    throw ParseError({out_.source, line}, message);
  }
  void warn(int line, std::string message) {
    out_.warnings.push_back({Severity::warning, {out_.source, line}, "limits-ignored", std::move(message)});
  }

  double number(const YAML::Node& node, const std::string& owner, const std::string& key, bool positive) const {
    double v = 0;
    try {
      v = node.as<double>();
    } catch (const YAML::Exception&) {
      fail(line_of(node), fmt::format("{}: {} is not a number", owner, key));
    }
    if (!std::isfinite(v) || (positive && v <= 0))
      fail(line_of(node), fmt::format("{}: {} = {} must be a {}finite number", owner, key, v, positive ? "positive " : ""));
    return v;
  }

  bool flag(const YAML::Node& node, const std::string& owner, const std::string& key) const {
    try {
      return node.as<bool>();
    } catch (const YAML::Exception&) {
      fail(line_of(node), fmt::format("{}: {} must be true or false", owner, key));
    }
  }

  void joint(const YAML::Node& key, const YAML::Node& value) {
    JointLimitsSpec spec;
    spec.joint = key.as<std::string>();
    spec.line = line_of(key);
    const std::string owner = fmt::format("joint '{}'", spec.joint);
    if (out_.find(spec.joint)) fail(spec.line, fmt::format("{} is given twice", owner));
    if (!value.IsMap()) fail(spec.line, fmt::format("{}: expected a map of limits", owner));
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
    for (const auto& item : value) {
      const std::string k = item.first.as<std::string>();
      bool known = k == "has_soft_limits" || k == "k_position" || k == "k_velocity" || k == "soft_lower_limit" ||
                   k == "soft_upper_limit" || k == "angle_wraparound";
      for (const auto& kind : kinds) {
        known = known || k == kind.flag;
        for (const char* v : kind.values) known = known || k == v;
      }
      if (!known) warn(line_of(item.first), fmt::format("{}: ignored key '{}'", owner, k));
    }
    for (const auto& kind : kinds) {
      const YAML::Node f = value[kind.flag];
      const bool on = f && flag(f, owner, kind.flag);
      for (const char* v : kind.values) {
        const YAML::Node n = value[v];
        if (!n) continue;
        if (!on) {
          warn(line_of(n), fmt::format("{}: {} ignored, {} is {}", owner, v, kind.flag, f ? "false" : "not given"));
          continue;
        }
        const bool position = std::string_view(kind.flag) == "has_position_limits";
        const double x = number(n, owner, v, !position);
        const std::string_view name = v;
        if (name == "min_position") spec.min_position = x;
        else if (name == "max_position") spec.max_position = x;
        else if (name == "max_velocity") spec.max_velocity = x;
        else if (name == "max_acceleration") spec.max_acceleration = x;
        else if (name == "max_jerk") spec.max_jerk = x;
        else spec.max_effort = x;
      }
      if (on && !value[kind.values.front()] && kind.values.size() == 1)
        fail(line_of(f), fmt::format("{}: {} is true but {} is not given", owner, kind.flag, kind.values.front()));
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
