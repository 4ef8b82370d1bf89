// MoveIt joint_limits.yaml, read as MoveIt reads it: a limit counts when its has_*_limits
// flag is true (positions when given); everything else rmodel does not use is a warning with
// its line.
#include "rmodel/model/limits.hpp"

#include <cctype>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/base/file.hpp"
#include "base/yaml_tree.hpp"
#include "xacro/expression.hpp"
#include "xacro/value.hpp"

namespace rmodel {

const JointLimitsSpec* JointLimitsFile::find(std::string_view joint) const noexcept {
  for (const auto& j : joints)
    if (j.joint == joint) return &j;
  return nullptr;
}

namespace {

using detail::YamlNode;

/// What names mean in a `!radians` expression: Python's, as rosparam evaluates it with
/// `eval` in a module that imported `math` (`math.pi`, `math.sqrt`, ...); no file, argument
/// or property is reachable.
class RosparamHost final : public xacro::ExpressionHost {
public:
  std::optional<xacro::Value> lookup(const std::string&) override { return std::nullopt; }
  std::optional<xacro::Value> lookup_in(const xacro::Table&, const std::string&) override { return std::nullopt; }
  std::string unknown_name_message(const std::string& name) override { return fmt::format("unknown name '{}'", name); }
  xacro::Value load_yaml(const std::string&) override { throw xacro::EvalError{"load_yaml in a !radians value"}; }
  std::string arg(const std::string&) override { throw xacro::EvalError{"arg in a !radians value"}; }
  void report(Severity, const std::string&) override { throw xacro::EvalError{"a message in a !radians value"}; }
  std::string abs_filename(const std::string&) override { throw xacro::EvalError{"abs_filename in a !radians value"}; }
  void charge(std::size_t steps) override {
    steps_ += steps;
    if (steps_ > 100000) throw xacro::EvalError{"a !radians value too long to evaluate"};
  }
  std::size_t value_bytes_limit() const override { return 1u << 16; }

private:
  std::size_t steps_ = 0;
};

std::string_view without_spaces(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// Python 3's float(text): xacro's reading of it (spaces, sign, inf, nan), and a single '_'
/// between two digits, which Python 3.6 added.
std::optional<double> python_float(std::string_view text) {
  std::string digits;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '_') {
      digits += text[i];
      continue;
    }
    const bool between = i > 0 && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i - 1])) &&
                         std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (!between) return std::nullopt;
  }
  return xacro::parse_python_float(digits);
}

/// A value ROS 1 loads as an angle: tagged `!degrees` or `!radians`, or a plain scalar
/// `deg(...)` or `rad(...)` (rosparam's implicit resolvers), converted as rosparam's
/// constructors convert it (tools/rosparam/src/rosparam/__init__.py, which roslaunch's
/// `<rosparam load>` uses for MoveIt's joint_limits.yaml): `!degrees X` is float(X) * pi /
/// 180, X a number; `!radians E` is the Python expression E, `pi` written for math.pi.
/// nullopt for any other node; a value rosparam refuses is `problem`.
struct RosAngle {
  std::optional<double> value;
  std::string problem;
};

std::optional<RosAngle> ros_angle(const YamlNode& node) {
  if (node.type != YamlNode::Type::scalar) return std::nullopt;
  const std::string& text = node.scalar;
  const bool plain = node.tag == "?";
  const auto called = [&](std::string_view name) {  // ^name\([^)]*\)$
    return text.size() > name.size() + 1 && text.compare(0, name.size(), name) == 0 && text[name.size()] == '(' &&
           text.back() == ')' && text.find(')') == text.size() - 1;
  };
  if (node.tag == "!degrees" || (plain && called("deg"))) {
    std::string_view x = text;
    if (x.starts_with("deg(")) x = without_spaces(x).substr(4, without_spaces(x).size() - 5);
    const auto v = python_float(x);
    if (!v) return RosAngle{std::nullopt, fmt::format("'{}' is not a number of degrees", text)};
    return RosAngle{*v * std::numbers::pi / 180.0, {}};
  }
  if (node.tag == "!radians" || (plain && called("rad"))) {
    std::string expression(without_spaces(text));
    for (std::size_t at = expression.find("pi"); at != std::string::npos; at = expression.find("pi", at + 7))
      expression.replace(at, 2, "math.pi");
    if (expression.starts_with("rad(")) expression = expression.substr(4, expression.size() - 5);
    try {
      RosparamHost host;
      const xacro::Value v = xacro::evaluate(*xacro::parse_expression(expression), host);
      if (!v.is_number()) return RosAngle{std::nullopt, fmt::format("'{}' is not a number of radians", text)};
      return RosAngle{v.as_double(), {}};
    } catch (const xacro::EvalError& e) {
      return RosAngle{std::nullopt, fmt::format("'{}' is not an expression of radians: {}", text, e.message)};
    }
  }
  return std::nullopt;
}

/// Reads the whole file, an error leaving out only what it concerns (a value, a joint), so
/// that `check` lists every problem; parse_joint_limits throws the first.
class LimitsReader {
public:
  LimitsReader(const std::string& source, Diagnostics& errors) : errors_(errors) { out_.source = source; }

  JointLimitsFile read(std::string_view text) {
    YamlNode root;
    try {
      root = detail::load_yaml(text);
    } catch (const detail::YamlSyntaxError& e) {
      error(e.line, fmt::format("malformed YAML: {}", e.message));
      return std::move(out_);
    }
    // MoveIt loads a file with only the default scaling factors (the Setup Assistant writes
    // one for a robot without joint overrides): no joint limits, and nothing to refuse.
    if (!root.is_map() || (!root.find("joint_limits") && !root.find("default_velocity_scaling_factor") &&
                           !root.find("default_acceleration_scaling_factor"))) {
      error(1, "expected a map with a 'joint_limits' key (MoveIt joint_limits.yaml)");
      return std::move(out_);
    }
    refuse_repeated_keys(root, "the file");
    for (const auto& [key, value] : root.entries) {
      const auto name = key_name(key);
      if (name && *name != "joint_limits" && *name != "default_velocity_scaling_factor" &&
          *name != "default_acceleration_scaling_factor")
        warn(key.line, fmt::format("ignored key '{}'", *name));
    }
    const YamlNode* limits = root.find("joint_limits");
    // `joint_limits:` with nothing under it is null: MoveIt finds no joint in it.
    if (!limits || limits->type == YamlNode::Type::null) return std::move(out_);
    if (!limits->is_map()) {
      error(limits->line, "'joint_limits' must map joint names to their limits");
      return std::move(out_);
    }
    for (const auto& [key, value] : limits->entries) joint(key, value);
    return std::move(out_);
  }

private:
  void error(int line, std::string message) {
    errors_.add(Severity::error, {out_.source, line}, "limits-syntax", std::move(message));
  }
  void warn(int line, std::string message) {
    out_.warnings.push_back({Severity::warning, {out_.source, line}, "limits-ignored", std::move(message)});
  }

  /// A key written twice in one map is refused, as a joint given twice is: MoveIt's loaders
  /// (PyYAML, ROS 2 launch and rosparam) keep the last value, yaml-cpp's lookup the first,
  /// so either reading would silently drop one of the two.
  void refuse_repeated_keys(const YamlNode& map, const std::string& owner) {
    for (std::size_t k = 1; k < map.entries.size(); ++k) {
      const YamlNode& key = map.entries[k].key;
      if (!key.as_string) continue;  // key_name says so where the key is used
      for (std::size_t j = 0; j < k; ++j)
        if (map.entries[j].key.as_string == key.as_string) {
          error(key.line, fmt::format("{}: {} is given twice (first at line {})", owner, *key.as_string,
                                      map.entries[j].key.line));
          break;
        }
    }
  }

  /// A key as yaml-cpp's as<std::string>() reads it; a sequence or a map is no name.
  std::optional<std::string> key_name(const YamlNode& key) {
    if (!key.as_string) error(key.line, "a key must be a name, not a sequence or a map");
    return key.as_string;
  }

  std::optional<double> number(const YamlNode& node, const std::string& owner, const std::string& key,
                               bool positive) {
    const auto angle = ros_angle(node);
    if (angle && !angle->value) {
      error(node.line, fmt::format("{}: {}: {}", owner, key, angle->problem));
      return std::nullopt;
    }
    if (!angle && !node.as_double) {
      error(node.line, fmt::format("{}: {} is not a number", owner, key));
      return std::nullopt;
    }
    const double v = angle ? *angle->value : *node.as_double;
    if (!std::isfinite(v) || (positive && v <= 0)) {
      error(node.line,
            fmt::format("{}: {} = {} must be a {}finite number", owner, key, v, positive ? "positive " : ""));
      return std::nullopt;
    }
    return v;
  }

  /// A quoted scalar (or one tagged !!str) is a string, though yaml-cpp would convert "1.5"
  /// or "true": MoveIt 2 rejects a string where it asks for a number or a bool (a parameter
  /// of the wrong type), MoveIt 1 does not use it (getParam fails). So rmodel does not use it
  /// either, and says so.
  bool is_string(const YamlNode& node, const std::string& owner, const char* key, const char* wanted) {
    if (node.type != YamlNode::Type::scalar || (node.tag != "!" && node.tag != "tag:yaml.org,2002:str"))
      return false;
    warn(node.line, fmt::format("{}: {} is the string \"{}\", not {}: not used (MoveIt 2 rejects a string here, "
                                "MoveIt 1 ignores it)",
                                owner, key, node.scalar, wanted));
    return true;
  }

  enum class Flag { absent, off, on, string, invalid };
  Flag flag(const YamlNode* node, const std::string& owner, const char* key) {
    if (!node) return Flag::absent;
    if (is_string(*node, owner, key, "true or false")) return Flag::string;
    if (!node->as_bool) {
      error(node->line, fmt::format("{}: {} must be true or false", owner, key));
      return Flag::invalid;
    }
    return *node->as_bool ? Flag::on : Flag::off;
  }

  void joint(const YamlNode& key, const YamlNode& value) {
    const auto name = key_name(key);
    if (!name) return;
    JointLimitsSpec spec;
    spec.joint = *name;
    spec.line = key.line;
    const std::string owner = fmt::format("joint '{}'", spec.joint);
    if (const JointLimitsSpec* first = out_.find(spec.joint)) {
      error(spec.line, fmt::format("{} is given twice (first at line {})", owner, first->line));
      return;
    }
    if (!value.is_map()) {
      error(spec.line, fmt::format("{}: expected a map of limits", owner));
      return;
    }
    refuse_repeated_keys(value, owner);
    // kind → (flag, value key); a value counts only when its flag is true. Positions are read
    // apart (positions() says why).
    struct Kind {
      const char* flag;
      const char* value;
    };
    static const Kind kinds[] = {{"has_velocity_limits", "max_velocity"},
                                 {"has_acceleration_limits", "max_acceleration"},
                                 {"has_jerk_limits", "max_jerk"},
                                 {"has_effort_limits", "max_effort"}};
    for (const auto& [item_key, item_value] : value.entries) {
      const auto k = key_name(item_key);
      if (!k) continue;
      bool known = *k == "has_soft_limits" || *k == "k_position" || *k == "k_velocity" || *k == "soft_lower_limit" ||
                   *k == "soft_upper_limit" || *k == "angle_wraparound" || *k == "has_position_limits" ||
                   *k == "min_position" || *k == "max_position";
      for (const auto& kind : kinds) known = known || *k == kind.flag || *k == kind.value;
      if (!known) warn(item_key.line, fmt::format("{}: ignored key '{}'", owner, *k));
    }
    positions(value, owner, spec);
    for (const auto& kind : kinds) {
      const YamlNode* f = value.find(kind.flag);
      const Flag given = flag(f, owner, kind.flag);
      if (given == Flag::invalid) continue;  // reported; its value is neither used nor said to be ignored
      const YamlNode* n = value.find(kind.value);
      if (!n) {
        if (given == Flag::on)
          error(f->line, fmt::format("{}: {} is true but {} is not given", owner, kind.flag, kind.value));
        continue;
      }
      if (is_string(*n, owner, kind.value, "a number")) continue;
      if (given != Flag::on) {
        // The Setup Assistant writes `has_acceleration_limits: false` with `max_acceleration: 0`
        // for every joint: a placeholder, not a limit someone meant.
        if (given == Flag::off && n->as_double == 0.0) continue;
        std::string why = given == Flag::off ? "false" : given == Flag::string ? "a string" : "not given";
        // MoveIt 1 sets the flag itself for a velocity or acceleration given without it (it
        // reads no jerk); MoveIt 2 reads the flag alone, and rmodel follows MoveIt 2.
        const std::string_view v = kind.value;
        if (given == Flag::absent && (v == "max_velocity" || v == "max_acceleration"))
          why += " (as MoveIt 2 reads it; MoveIt 1 applies the value and sets the flag)";
        warn(n->line, fmt::format("{}: {} ignored, {} is {}", owner, kind.value, kind.flag, why));
        continue;
      }
      const std::optional<double> x = number(*n, owner, kind.value, true);
      if (!x) continue;
      const std::string_view which = kind.value;
      if (which == "max_velocity") spec.max_velocity = x;
      else if (which == "max_acceleration") spec.max_acceleration = x;
      else if (which == "max_jerk") spec.max_jerk = x;
      else spec.max_effort = x;
    }
    out_.joints.push_back(std::move(spec));
  }

  /// min_position and max_position as MoveIt (1 and 2) reads them: each, when given, replaces
  /// its bound and MoveIt sets has_position_limits itself; the has_position_limits written in
  /// the file is never read. Whether the joint can take them (not a continuous one) is for
  /// the model to say.
  void positions(const YamlNode& value, const std::string& owner, JointLimitsSpec& spec) {
    if (const YamlNode* n = value.find("min_position"); n && !is_string(*n, owner, "min_position", "a number"))
      spec.min_position = number(*n, owner, "min_position", false);
    if (const YamlNode* n = value.find("max_position"); n && !is_string(*n, owner, "max_position", "a number"))
      spec.max_position = number(*n, owner, "max_position", false);
    const YamlNode* f = value.find("has_position_limits");
    if (f && f->as_bool == false && (spec.min_position || spec.max_position))
      warn(f->line, fmt::format("{}: has_position_limits is false, but MoveIt does not read it: the min_position and "
                                "max_position given apply",
                                owner));
    if (spec.min_position && spec.max_position && *spec.min_position > *spec.max_position) {
      error(spec.line, fmt::format("{}: min_position {} is above max_position {}", owner, *spec.min_position,
                                   *spec.max_position));
      spec.min_position.reset();
      spec.max_position.reset();
    }
  }

  JointLimitsFile out_;
  Diagnostics& errors_;
};

}  // namespace

JointLimitsFile parse_joint_limits(std::string_view text, const std::string& source_name, Diagnostics& errors) {
  return LimitsReader(source_name, errors).read(text);
}

JointLimitsFile parse_joint_limits(std::string_view text, const std::string& source_name) {
  Diagnostics errors;
  JointLimitsFile file = parse_joint_limits(text, source_name, errors);
  if (const Diagnostic* first = errors.first_error()) throw ParseError(first->where, first->message);
  return file;
}

JointLimitsFile load_joint_limits(const std::string& path) {
  return parse_joint_limits(read_text_file(path), display_name(path));
}

}  // namespace rmodel
