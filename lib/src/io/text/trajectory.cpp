#include "io/text/trajectory.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_unique_keys.hpp"

namespace rmodel::io::detail {
namespace {

using json = nlohmann::json;

constexpr std::string_view kSupportPrefix = "support/";

/// A ROS time or duration: {secs, nsecs}, {sec, nanosec} or a number of seconds. A number
/// with a fraction reaches us as nlohmann_json's double: it becomes the nearest nanosecond,
/// which is the decimal's own for up to nine decimals below 104 days (a time from start).
bool read_time(const json& v, Time& out, std::string& why) {
  if (v.is_number_integer()) {
    const auto t = Time::from_stamp(v.get<std::int64_t>(), 0);
    if (!t) {
      why = "beyond the range of times";
      return false;
    }
    out = *t;
    return true;
  }
  if (v.is_number()) {
    const auto t = time_from_seconds(v.get<double>());
    if (!t) {
      why = "beyond the range of times";
      return false;
    }
    out = *t;
    return true;
  }
  if (!v.is_object()) {
    why = "expected {secs, nsecs}, {sec, nanosec} or a number of seconds";
    return false;
  }
  std::int64_t secs = 0, nsecs = 0;
  bool have_secs = false;
  for (const auto& [k, x] : v.items()) {
    const bool is_secs = k == "secs" || k == "sec";
    const bool is_nsecs = k == "nsecs" || k == "nanosec";
    if (!is_secs && !is_nsecs) continue;
    if (!x.is_number_integer()) {
      why = fmt::format("'{}': expected an integer", k);
      return false;
    }
    (is_secs ? secs : nsecs) = x.get<std::int64_t>();
    have_secs = have_secs || is_secs;
  }
  if (!have_secs) {
    why = "expected {secs, nsecs} or {sec, nanosec}";
    return false;
  }
  const auto t = Time::from_stamp(secs, nsecs);
  if (!t) {
    why = "beyond the range of times";
    return false;
  }
  out = *t;
  return true;
}

bool read_numbers(const json& point, const char* key, std::vector<double>& out, std::string& why) {
  out.clear();
  const auto it = point.find(key);
  if (it == point.end() || it->is_null()) return true;
  if (!it->is_array()) {
    why = fmt::format("'{}': expected an array of numbers", key);
    return false;
  }
  for (const auto& x : *it) {
    if (x.is_null()) {
      out.push_back(std::numeric_limits<double>::quiet_NaN());
    } else if (x.is_number()) {
      out.push_back(x.get<double>());
    } else {
      why = fmt::format("'{}' element {}: expected a number", key, out.size() + 1);
      return false;
    }
  }
  return true;
}

void push_error(std::vector<PendingItem>& out, std::size_t line, std::size_t item, std::string why) {
  PendingItem p;
  p.is_error = true;
  p.error = ReadError{line, item, std::move(why), std::nullopt};
  out.push_back(std::move(p));
}

/// Offsets in `text` (valid JSON) of the elements of the trajectory's "points" array, in
/// order: the document's own member, or that of its "trajectory" member (`nested`). nlohmann
/// keeps no positions, so the text is scanned: strings skipped, keys tracked per object.
std::vector<std::size_t> point_offsets(std::string_view text, bool nested) {
  struct Level {
    char open;             // '{' or '['
    std::string_view key;  // objects: the last key read
    bool key_next;         // objects: a string here is a key
  };
  std::vector<Level> stack;
  std::vector<std::size_t> offsets;
  const std::size_t depth = nested ? 2 : 1;  // objects above the points array
  bool in_points = false;                    // the array on top of the stack is the points
  bool element_next = false;                 // in it, the next value starts an element
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (in_points && element_next && stack.size() == depth + 1 && c != ']') {
      offsets.push_back(i);
      element_next = false;
    }
    switch (c) {
      case '"': {
        const std::size_t start = ++i;
        while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
        if (!stack.empty() && stack.back().open == '{' && stack.back().key_next)
          stack.back().key = text.substr(start, i - start);
        break;
      }
      case ':':
        if (!stack.empty()) stack.back().key_next = false;
        break;
      case ',':
        if (stack.empty()) break;
        if (stack.back().open == '{') stack.back().key_next = true;
        else if (in_points && stack.size() == depth + 1) element_next = true;
        break;
      case '{':
      case '[': {
        const bool points = c == '[' && stack.size() == depth && stack.back().open == '{' &&
                            stack.back().key == "points" && (!nested || stack.front().key == "trajectory");
        stack.push_back({c, {}, c == '{'});
        if (points) {
          in_points = true;
          element_next = true;
        }
        break;
      }
      case '}':
      case ']':
        if (in_points && stack.size() == depth + 1) return offsets;
        if (!stack.empty()) stack.pop_back();
        break;
      default: break;
    }
  }
  return offsets;
}

}  // namespace

std::size_t count_newlines(std::string_view text, std::size_t n) noexcept {
  n = std::min(n, text.size());
  return static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(n), '\n'));
}

void expand_trajectory(std::string_view text, std::size_t line, std::vector<PendingItem>& out) {
  json doc;
  try {
    if (const auto duplicate = rmodel::detail::parse_json_unique_keys(text, doc)) {
      push_error(out, line + count_newlines(text, duplicate->offset), 0,
                 fmt::format("duplicate key '{}' in one object", duplicate->key));
      return;
    }
  } catch (const json::parse_error& e) {
    push_error(out, line + count_newlines(text, e.byte > 0 ? e.byte - 1 : 0), 0,
               fmt::format("invalid JSON: {}", e.what()));
    return;
  } catch (const json::exception& e) {
    push_error(out, line, 0, fmt::format("invalid JSON: {}", e.what()));
    return;
  }
  const json* traj = &doc;
  if (doc.is_object() && doc.contains("trajectory")) traj = &doc["trajectory"];
  if (!traj->is_object()) {
    push_error(out, line, 0, "'trajectory': expected an object");
    return;
  }
  const auto names_it = traj->find("joint_names");
  if (names_it == traj->end() || !names_it->is_array()) {
    push_error(out, line, 0, "trajectory without 'joint_names' (an array of strings)");
    return;
  }
  std::vector<std::string> joints, chains;
  std::vector<std::size_t> joint_cols, chain_cols;
  std::size_t col = 0;
  for (const auto& n : *names_it) {
    if (!n.is_string()) {
      push_error(out, line, 0, fmt::format("'joint_names' element {}: expected a string", col + 1));
      return;
    }
    const std::string& s = n.get_ref<const std::string&>();
    if (s.empty() || s == kSupportPrefix) {
      push_error(out, line, 0, fmt::format("'joint_names' element {}: empty name", col + 1));
      return;
    }
    if (std::find(names_it->begin(), names_it->begin() + static_cast<std::ptrdiff_t>(col), n) !=
        names_it->begin() + static_cast<std::ptrdiff_t>(col)) {
      push_error(out, line, 0, fmt::format("'joint_names' element {}: '{}' is named twice", col + 1, s));
      return;
    }
    if (s.rfind(kSupportPrefix, 0) == 0) {
      chains.push_back(s.substr(kSupportPrefix.size()));
      chain_cols.push_back(col);
    } else {
      joints.push_back(s);
      joint_cols.push_back(col);
    }
    ++col;
  }
  const std::size_t width = col;
  const auto points_it = traj->find("points");
  if (points_it == traj->end() || !points_it->is_array()) {
    push_error(out, line, 0, "trajectory without 'points' (an array)");
    return;
  }

  Time base{};
  if (const auto h = traj->find("header"); h != traj->end() && h->is_object()) {
    if (const auto st = h->find("stamp"); st != h->end()) {
      std::string why;
      if (!read_time(*st, base, why)) {
        push_error(out, line, 0, "'header.stamp': " + why);
        return;
      }
    }
  }

  // Each point at the line where it starts (a pretty-printed trajectory spans many lines).
  const std::vector<std::size_t> offsets = point_offsets(text, traj != &doc);
  std::vector<double> pos, vel, eff;
  std::size_t k = 0;
  const std::size_t document_line = line;
  for (const auto& point : *points_it) {
    ++k;
    line = k <= offsets.size() ? document_line + count_newlines(text, offsets[k - 1]) : document_line;
    std::string why;
    if (!point.is_object()) {
      push_error(out, line, k, "trajectory point: expected an object");
      continue;
    }
    if (!read_numbers(point, "positions", pos, why) || !read_numbers(point, "velocities", vel, why) ||
        !read_numbers(point, point.contains("efforts") ? "efforts" : "effort", eff, why)) {
      push_error(out, line, k, "trajectory point: " + why);
      continue;
    }
    bool sizes_ok = true;
    for (auto [arr, key] : {std::pair{&pos, "positions"}, std::pair{&vel, "velocities"},
                            std::pair{&eff, "effort"}}) {
      if (!arr->empty() && arr->size() != width) {
        push_error(out, line, k,
                   fmt::format("trajectory point: '{}' has {} values for {} joint_names", key,
                               arr->size(), width));
        sizes_ok = false;
        break;
      }
    }
    if (!sizes_ok) continue;
    Time tfs{};
    const auto t_it = point.find("time_from_start");
    if (t_it == point.end()) {
      push_error(out, line, k, "trajectory point without 'time_from_start'");
      continue;
    }
    if (!read_time(*t_it, tfs, why)) {
      push_error(out, line, k, "trajectory point: 'time_from_start': " + why);
      continue;
    }
    Time stamp{};
    if (__builtin_add_overflow(base.ns, tfs.ns, &stamp.ns)) {
      push_error(out, line, k, "trajectory point: header.stamp + time_from_start is beyond the range of times");
      continue;
    }
    if (!joints.empty()) {
      PendingItem p;
      Message& m = p.message;
      m.kind = MessageKind::Joint;
      m.joint.stamp = stamp;
      m.joint.name = joints;
      for (std::size_t c : joint_cols) {
        if (!pos.empty()) m.joint.position.push_back(pos[c]);
        if (!vel.empty()) m.joint.velocity.push_back(vel[c]);
        if (!eff.empty()) m.joint.effort.push_back(eff[c]);
      }
      m.line = line;
      m.item = k;
      out.push_back(std::move(p));
    }
    if (!chains.empty() && !pos.empty()) {
      PendingItem p;
      Message& m = p.message;
      m.kind = MessageKind::Support;
      m.support.stamp = stamp;
      m.support.name = chains;
      for (std::size_t c : chain_cols) m.support.support.push_back(pos[c]);
      m.line = line;
      m.item = k;
      out.push_back(std::move(p));
    }
  }
}

ReadStatus PendingQueue::take(Message& out, ReadError& error) {
  PendingItem& item = items_[taken_++];
  ReadStatus status = ReadStatus::Ok;
  if (item.is_error) {
    error = std::move(item.error);
    status = ReadStatus::Error;
  } else {
    out = item.message;
  }
  if (taken_ == items_.size()) {
    items_.clear();
    taken_ = 0;
  }
  return status;
}

}  // namespace rmodel::io::detail
