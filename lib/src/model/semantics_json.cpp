// rmodel's native JSON form of the semantic description. Arrays (not objects) hold the
// chains, groups and contacts because their order defines the indices of the full pose.
// Schema: share/rmodel/schema/semantics.schema.json.
#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rmodel/base/error.hpp"
#include "base/json_unique_keys.hpp"
#include "rmodel/model/semantics.hpp"

namespace rmodel {
namespace {

using ordered_json = nlohmann::ordered_json;

constexpr int kFormatVersion = 1;

std::size_t skip_space(std::string_view text, std::size_t i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r' ||
                             text[i] == '\f' || text[i] == '\v'))
    ++i;
  return i;
}

int line_at_offset(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

/// nlohmann_json keeps no positions, so entity lines come from a scan of the text for
/// `"name": "X"`: the k-th entity named X takes the k-th such occurrence.
class NameLines {
public:
  explicit NameLines(std::string_view text) {
    // A scan, not a std::regex: compiling the pattern cost more than reading the whole
    // file at every start of the program.
    constexpr std::string_view key = "\"name\"";
    int line = 1;
    std::size_t counted = 0;
    for (std::size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
      std::size_t i = skip_space(text, at + key.size());
      if (i >= text.size() || text[i] != ':') continue;
      i = skip_space(text, i + 1);
      if (i >= text.size() || text[i] != '"') continue;
      const std::size_t value = ++i;
      while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
      if (i >= text.size()) break;
      line += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                                          text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
      counted = at;
      lines_[std::string(text.substr(value, i - value))].push_back(line);
      at = i;
    }
  }
  int take(const std::string& name) {
    auto it = lines_.find(name);
    if (it == lines_.end() || it->second.empty()) return 0;
    int line = it->second.front();
    it->second.erase(it->second.begin());
    return line;
  }

private:
  std::map<std::string, std::vector<int>> lines_;
};

class JsonReader {
public:
  JsonReader(std::string_view text, const std::string& source) : text_(text), source_(source), lines_(text) {}

  Semantics read() {
    ordered_json doc;
    try {
      if (const auto duplicate = detail::parse_json_unique_keys(text_, doc))
        throw ParseError({source_, line_at_offset(text_, duplicate->offset)},
                         fmt::format("duplicate key '{}' in one object", duplicate->key));
    } catch (const nlohmann::json::parse_error& e) {
      throw ParseError({source_, line_at_offset(text_, e.byte > 0 ? e.byte - 1 : 0)},
                       fmt::format("malformed JSON: {}", clean(e.what())));
    }
    catch (const nlohmann::json::exception& e) {
      // A number beyond double's range ("number overflow parsing '1e999'"): no offset is
      // given, so find the number it quotes.
      const std::string what = e.what();
      const auto open = what.find('\'');
      const auto close = what.rfind('\'');
      std::size_t at = 0;
      if (open != std::string::npos && close > open) at = text_.find(what.substr(open + 1, close - open - 1));
      throw ParseError({source_, line_at_offset(text_, at == std::string_view::npos ? 0 : at)},
                       fmt::format("malformed JSON: {}", clean(what)));
    }
    if (!doc.is_object()) fail(1, "the semantics document must be a JSON object");
    Semantics out;
    out.source = source_;
    if (doc.contains("rmodel_semantics")) {
      const auto& v = doc["rmodel_semantics"];
      if (!v.is_number_integer() || v.get<int>() != kFormatVersion)
        fail(1, fmt::format("unsupported rmodel_semantics version {} (this rmodel reads {})", v.dump(), kFormatVersion));
    }
    for (const auto& [key, value] : doc.items()) {
      section_line_ = key_line(key);
      if (key == "chains") for (const auto& e : array(value, key)) out.chains.push_back(chain(e));
      else if (key == "groups") for (const auto& e : array(value, key)) out.groups.push_back(group(e));
      else if (key == "contacts") for (const auto& e : array(value, key)) out.contacts.push_back(contact(e));
      else if (key == "poses") for (const auto& e : array(value, key)) out.poses.push_back(pose(e));
      else if (key == "end_effectors") for (const auto& e : array(value, key)) out.end_effectors.push_back(end_effector(e));
      else if (key == "virtual_joints") for (const auto& e : array(value, key)) out.virtual_joints.push_back(virtual_joint(e));
      else if (key == "collisions") out.collisions = collisions(value);
      else if (key != "rmodel_semantics" && key != "$schema" && key != "description")
        out.warnings.push_back({Severity::warning, {source_, section_line_}, "ignored", fmt::format("ignored top-level key '{}'", key)});
    }
    return out;
  }

private:
  static std::string clean(const std::string& what) {
    // "[json.exception.parse_error.101] parse error at line 1, column 2: reason"
    auto pos = what.find(": ");
    return pos == std::string::npos ? what : what.substr(pos + 2);
  }

  [[noreturn]] void fail(int line, const std::string& message) const { throw ParseError({source_, line}, message); }

  int section_line_ = 1;  ///< line of the top-level key being read

  /// Line of the first `"key":` in the text (1 when not found). nlohmann_json keeps no
  /// positions; entities are found by name (lines_), sections by their key.
  int key_line(const std::string& key) const {
    const std::string quoted = "\"" + key + "\"";
    for (std::size_t at = text_.find(quoted); at != std::string_view::npos; at = text_.find(quoted, at + 1)) {
      std::size_t after = at + quoted.size();
      while (after < text_.size() && std::isspace(static_cast<unsigned char>(text_[after]))) ++after;
      if (after < text_.size() && text_[after] == ':') return line_at_offset(text_, at);
    }
    return 1;
  }

  const ordered_json& array(const ordered_json& value, const std::string& key) const {
    if (!value.is_array()) fail(section_line_, fmt::format("'{}' must be an array", key));
    return value;
  }

  /// Reads the entity's name and line; rejects non-objects and unknown keys.
  std::pair<std::string, int> head(const ordered_json& e, const char* kind,
                                   std::initializer_list<std::string_view> allowed) {
    // Without a usable name the entity cannot be found in the text: the line of its section.
    if (!e.is_object()) fail(section_line_, fmt::format("each {} must be an object, got {}", kind, e.dump()));
    if (!e.contains("name") || !e["name"].is_string() || e["name"].get<std::string>().empty())
      fail(section_line_, fmt::format("a {} without a \"name\" string: {}", kind, e.dump()));
    std::string name = e["name"];
    int line = lines_.take(name);
    for (const auto& [key, _] : e.items())
      if (key != "name" && std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(line, fmt::format("{} '{}': unknown key '{}'", kind, name, key));
    return {name, line};
  }

  std::string text(const ordered_json& e, const char* key, const std::string& owner, int line,
                   bool required) const {
    if (!e.contains(key)) {
      if (required) fail(line, fmt::format("{}: missing \"{}\"", owner, key));
      return {};
    }
    if (!e[key].is_string()) fail(line, fmt::format("{}: \"{}\" must be a string", owner, key));
    return e[key];
  }

  std::vector<std::string> strings(const ordered_json& e, const char* key, const std::string& owner, int line) const {
    std::vector<std::string> out;
    if (!e.contains(key)) return out;
    if (!e[key].is_array()) fail(line, fmt::format("{}: \"{}\" must be an array of strings", owner, key));
    for (const auto& s : e[key]) {
      if (!s.is_string()) fail(line, fmt::format("{}: \"{}\" must be an array of strings", owner, key));
      out.push_back(s);
    }
    return out;
  }

  ChainSpec chain(const ordered_json& e) {
    auto [name, line] = head(e, "chain", {"first_link", "last_link", "last_link_virtual", "default_contact", "description", "extra"});
    const std::string owner = fmt::format("chain '{}'", name);
    ChainSpec c{name,
                text(e, "first_link", owner, line, true),
                text(e, "last_link", owner, line, true),
                text(e, "last_link_virtual", owner, line, false),
                text(e, "default_contact", owner, line, false),
                text(e, "description", owner, line, false),
                line,
                {}};
    if (e.contains("extra")) {
      // [{"name": ..., "type": ..., "value": ...}]: the chain's further .cpf parameters.
      if (!e["extra"].is_array()) fail(line, fmt::format("{}: \"extra\" must be an array", owner));
      for (const auto& x : e["extra"]) {
        if (!x.is_object()) fail(line, fmt::format("{}: \"extra\" items are objects", owner));
        c.extra.push_back({text(x, "name", owner + " extra", line, true), text(x, "type", owner + " extra", line, true),
                           text(x, "value", owner + " extra", line, true)});
      }
    }
    return c;
  }

  GroupSpec group(const ordered_json& e) {
    auto [name, line] = head(e, "group", {"chains", "joints", "links", "description"});
    const std::string owner = fmt::format("group '{}'", name);
    return {name, strings(e, "chains", owner, line), strings(e, "joints", owner, line),
            text(e, "description", owner, line, false), line, strings(e, "links", owner, line)};
  }

  ContactSpec contact(const ordered_json& e) {
    auto [name, line] = head(e, "contact", {"points", "description"});
    ContactSpec c;
    c.name = name;
    c.line = line;
    c.description = text(e, "description", "contact '" + name + "'", line, false);
    if (!e.contains("points") || !e["points"].is_array())
      fail(line, fmt::format("contact '{}': \"points\" must be an array of [x, y, z]", name));
    for (const auto& p : e["points"]) {
      if (!p.is_array() || p.size() != 3 || !p[0].is_number() || !p[1].is_number() || !p[2].is_number())
        fail(line, fmt::format("contact '{}': point {} is not [x, y, z] numbers", name, p.dump()));
      c.points.emplace_back(p[0].get<double>(), p[1].get<double>(), p[2].get<double>());
    }
    return c;
  }

  NamedPose pose(const ordered_json& e) {
    auto [name, line] = head(e, "pose", {"group", "joints"});
    NamedPose p;
    p.name = name;
    p.line = line;
    p.group = text(e, "group", "pose '" + name + "'", line, false);
    if (!e.contains("joints") || !e["joints"].is_object())
      fail(line, fmt::format("pose '{}': \"joints\" must be an object of joint: value", name));
    for (const auto& [joint, value] : e["joints"].items()) {
      if (!value.is_number()) fail(line, fmt::format("pose '{}': joint '{}' value must be a number", name, joint));
      p.joints.emplace_back(joint, value.get<double>());
    }
    return p;
  }

  EndEffector end_effector(const ordered_json& e) {
    auto [name, line] = head(e, "end effector", {"parent_link", "group", "parent_group"});
    const std::string owner = fmt::format("end effector '{}'", name);
    return {name, text(e, "parent_link", owner, line, true), text(e, "group", owner, line, true),
            text(e, "parent_group", owner, line, false), line};
  }

  VirtualJoint virtual_joint(const ordered_json& e) {
    auto [name, line] = head(e, "virtual joint", {"type", "parent_frame", "child_link"});
    const std::string owner = fmt::format("virtual joint '{}'", name);
    return {name, text(e, "type", owner, line, true), text(e, "parent_frame", owner, line, true),
            text(e, "child_link", owner, line, true), line};
  }

  /// `{"disabled": [pair...], "enabled": [pair...], "disabled_default": [{"link": L}...]}`, a
  /// pair being `{"link1": A, "link2": B, "reason": R}`. Each pair or link is at the line of
  /// its `"link1"` or `"link"` key (the n-th such key of the text is the n-th read).
  CollisionMatrix collisions(const ordered_json& value) {
    if (!value.is_object())
      fail(section_line_, "'collisions' must be an object of \"disabled\", \"enabled\" and \"disabled_default\"");
    std::vector<int> pair_lines = key_lines("link1"), link_lines = key_lines("link");
    std::size_t pairs = 0, links = 0;
    const auto next = [](const std::vector<int>& lines, std::size_t& n) { return n < lines.size() ? lines[n++] : 0; };
    const auto pair = [&](const ordered_json& e, const std::string& list) {
      const std::string owner = fmt::format("collisions: a pair of \"{}\"", list);
      if (!e.is_object()) fail(section_line_, fmt::format("{} must be an object, got {}", owner, e.dump()));
      const int line = next(pair_lines, pairs);
      for (const auto& [k, _] : e.items())
        if (k != "link1" && k != "link2" && k != "reason") fail(line, fmt::format("{}: unknown key '{}'", owner, k));
      return CollisionPair{text(e, "link1", owner, line, true), text(e, "link2", owner, line, true),
                           text(e, "reason", owner, line, false), line};
    };
    CollisionMatrix out;
    for (const auto& [key, list] : value.items()) {
      if (!list.is_array()) fail(section_line_, fmt::format("collisions: \"{}\" must be an array", key));
      if (key == "disabled") {
        for (const auto& e : list) out.disabled.push_back(pair(e, key));
      } else if (key == "enabled") {
        for (const auto& e : list) out.enabled.push_back(pair(e, key));
      } else if (key == "disabled_default") {
        for (const auto& e : list) {
          const std::string owner = "collisions: a link of \"disabled_default\"";
          if (!e.is_object()) fail(section_line_, fmt::format("{} must be an object, got {}", owner, e.dump()));
          const int line = next(link_lines, links);
          for (const auto& [k, _] : e.items())
            if (k != "link") fail(line, fmt::format("{}: unknown key '{}'", owner, k));
          out.disabled_default.push_back({text(e, "link", owner, line, true), line});
        }
      } else {
        fail(section_line_, fmt::format("collisions: unknown key '{}'", key));
      }
    }
    return out;
  }

  /// Lines of every `"key":` of the text, in order (counted on, once through the text).
  std::vector<int> key_lines(std::string_view key) const {
    std::vector<int> out;
    const std::string quoted = fmt::format("\"{}\"", key);
    int line = 1;
    std::size_t counted = 0;
    for (std::size_t at = text_.find(quoted); at != std::string_view::npos; at = text_.find(quoted, at + 1)) {
      const std::size_t after = skip_space(text_, at + quoted.size());
      if (after >= text_.size() || text_[after] != ':') continue;
      line += static_cast<int>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(counted),
                                          text_.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
      counted = at;
      out.push_back(line);
    }
    return out;
  }

  std::string_view text_;
  const std::string& source_;
  NameLines lines_;
};

}  // namespace

Semantics parse_semantics_json(std::string_view text, const std::string& source_name) {
  return JsonReader(text, source_name).read();
}

std::string to_semantics_json(const Semantics& s) {
  ordered_json doc;
  doc["rmodel_semantics"] = kFormatVersion;
  doc["chains"] = ordered_json::array();
  for (const auto& c : s.chains) {
    ordered_json e;
    e["name"] = c.name;
    e["first_link"] = c.first_link;
    e["last_link"] = c.last_link;
    if (!c.last_link_virtual.empty()) e["last_link_virtual"] = c.last_link_virtual;
    if (!c.default_contact.empty()) e["default_contact"] = c.default_contact;
    if (!c.description.empty()) e["description"] = c.description;
    if (!c.extra.empty()) {
      e["extra"] = ordered_json::array();
      for (const auto& x : c.extra) e["extra"].push_back({{"name", x.name}, {"type", x.type}, {"value", x.value}});
    }
    doc["chains"].push_back(std::move(e));
  }
  doc["groups"] = ordered_json::array();
  for (const auto& g : s.groups) {
    ordered_json e;
    e["name"] = g.name;
    if (!g.chains.empty()) e["chains"] = g.chains;
    if (!g.joints.empty()) e["joints"] = g.joints;
    if (!g.links.empty()) e["links"] = g.links;
    if (!g.description.empty()) e["description"] = g.description;
    doc["groups"].push_back(std::move(e));
  }
  doc["contacts"] = ordered_json::array();
  for (const auto& c : s.contacts) {
    ordered_json e;
    e["name"] = c.name;
    e["points"] = ordered_json::array();
    for (const auto& p : c.points) e["points"].push_back({p.x(), p.y(), p.z()});
    if (!c.description.empty()) e["description"] = c.description;
    doc["contacts"].push_back(std::move(e));
  }
  if (!s.poses.empty()) {
    doc["poses"] = ordered_json::array();
    for (const auto& p : s.poses) {
      ordered_json e;
      e["name"] = p.name;
      if (!p.group.empty()) e["group"] = p.group;
      e["joints"] = ordered_json::object();
      for (const auto& [joint, value] : p.joints) e["joints"][joint] = value;
      doc["poses"].push_back(std::move(e));
    }
  }
  if (!s.end_effectors.empty()) {
    doc["end_effectors"] = ordered_json::array();
    for (const auto& x : s.end_effectors) {
      ordered_json e;
      e["name"] = x.name;
      e["parent_link"] = x.parent_link;
      e["group"] = x.group;
      if (!x.parent_group.empty()) e["parent_group"] = x.parent_group;
      doc["end_effectors"].push_back(std::move(e));
    }
  }
  if (!s.virtual_joints.empty()) {
    doc["virtual_joints"] = ordered_json::array();
    for (const auto& x : s.virtual_joints)
      doc["virtual_joints"].push_back(
          {{"name", x.name}, {"type", x.type}, {"parent_frame", x.parent_frame}, {"child_link", x.child_link}});
  }
  if (!s.collisions.empty()) {
    ordered_json matrix = ordered_json::object();
    const auto pairs = [](const std::vector<CollisionPair>& list) {
      ordered_json out = ordered_json::array();
      for (const auto& p : list) {
        ordered_json e = {{"link1", p.link1}, {"link2", p.link2}};
        if (!p.reason.empty()) e["reason"] = p.reason;
        out.push_back(std::move(e));
      }
      return out;
    };
    if (!s.collisions.disabled.empty()) matrix["disabled"] = pairs(s.collisions.disabled);
    if (!s.collisions.enabled.empty()) matrix["enabled"] = pairs(s.collisions.enabled);
    if (!s.collisions.disabled_default.empty()) {
      matrix["disabled_default"] = ordered_json::array();
      for (const auto& d : s.collisions.disabled_default) matrix["disabled_default"].push_back({{"link", d.link}});
    }
    doc["collisions"] = std::move(matrix);
  }
  return doc.dump(2) + "\n";
}

}  // namespace rmodel
