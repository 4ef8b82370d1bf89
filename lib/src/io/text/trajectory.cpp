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

/// A trajectory's joint_names, split into joints and support chains (`support/<chain>`).
struct TrajectoryColumns {
  std::vector<std::string> joints, chains;
  std::vector<std::size_t> joint_cols, chain_cols;  ///< where each is in joint_names
  std::size_t width = 0;                            ///< names in joint_names
};

/// One point's arrays (empty when not given) and its time.
struct TrajectoryPoint {
  std::vector<double> pos, vel, eff;
  Time stamp{};
};

/// Parses `text` into `doc`; false, with the error appended to `out`, when `text` is not JSON or
/// an object of it names a key twice (nlohmann would keep the last value silently).
bool parse_trajectory_json(std::string_view text, std::size_t line, json& doc, std::vector<PendingItem>& out) {
  try {
    if (const auto duplicate = rmodel::detail::parse_json_unique_keys(text, doc)) {
      push_error(out, line + count_newlines(text, duplicate->offset), 0,
                 fmt::format("duplicate key '{}' in one object", duplicate->key));
      return false;
    }
  } catch (const json::parse_error& e) {
    push_error(out, line + count_newlines(text, e.byte > 0 ? e.byte - 1 : 0), 0,
               fmt::format("invalid JSON: {}", e.what()));
    return false;
  } catch (const json::exception& e) {
    push_error(out, line, 0, fmt::format("invalid JSON: {}", e.what()));
    return false;
  }
  return true;
}

/// Reads the array `names` (joint_names) into `columns`; false with `why` at the first bad name.
bool read_trajectory_columns(const json& names, TrajectoryColumns& columns, std::string& why) {
  std::size_t col = 0;
  for (const auto& n : names) {
    if (!n.is_string()) {
      why = fmt::format("'joint_names' element {}: expected a string", col + 1);
      return false;
    }
    const std::string& s = n.get_ref<const std::string&>();
    if (s.empty() || s == kSupportPrefix) {
      why = fmt::format("'joint_names' element {}: empty name", col + 1);
      return false;
    }
    if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(col), n) !=
        names.begin() + static_cast<std::ptrdiff_t>(col)) {
      why = fmt::format("'joint_names' element {}: '{}' is named twice", col + 1, s);
      return false;
    }
    if (s.rfind(kSupportPrefix, 0) == 0) {
      columns.chains.push_back(s.substr(kSupportPrefix.size()));
      columns.chain_cols.push_back(col);
    } else {
      columns.joints.push_back(s);
      columns.joint_cols.push_back(col);
    }
    ++col;
  }
  columns.width = col;
  return true;
}

/// The trajectory's header.stamp in `base` (left as it is when there is none); false with `why`
/// when it is not a time.
bool read_header_stamp(const json& traj, Time& base, std::string& why) {
  const auto h = traj.find("header");
  if (h == traj.end() || !h->is_object()) return true;
  const auto st = h->find("stamp");
  return st == h->end() || read_time(*st, base, why);
}

/// Reads `point` of a trajectory of `width` joint_names starting at `base` into `p`; false with
/// `why` (the whole message) when the point is not one.
bool read_trajectory_point(const json& point, std::size_t width, Time base, TrajectoryPoint& p, std::string& why) {
  if (!point.is_object()) {
    why = "trajectory point: expected an object";
    return false;
  }
  if (!read_numbers(point, "positions", p.pos, why) || !read_numbers(point, "velocities", p.vel, why) ||
      !read_numbers(point, point.contains("efforts") ? "efforts" : "effort", p.eff, why)) {
    why = "trajectory point: " + why;
    return false;
  }
  for (auto [arr, key] : {std::pair{&p.pos, "positions"}, std::pair{&p.vel, "velocities"},
                          std::pair{&p.eff, "effort"}}) {
    if (!arr->empty() && arr->size() != width) {
      why = fmt::format("trajectory point: '{}' has {} values for {} joint_names", key, arr->size(), width);
      return false;
    }
  }
  const auto t_it = point.find("time_from_start");
  if (t_it == point.end()) {
    why = "trajectory point without 'time_from_start'";
    return false;
  }
  Time tfs{};
  if (!read_time(*t_it, tfs, why)) {
    why = "trajectory point: 'time_from_start': " + why;
    return false;
  }
  if (__builtin_add_overflow(base.ns, tfs.ns, &p.stamp.ns)) {
    why = "trajectory point: header.stamp + time_from_start is beyond the range of times";
    return false;
  }
  return true;
}

/// Appends the joint state of point `k` (when the trajectory has joints) and its support state
/// (when it has chains and the point positions).
void push_point_messages(const TrajectoryColumns& columns, const TrajectoryPoint& p, std::size_t line, std::size_t k,
                         std::vector<PendingItem>& out) {
  if (!columns.joints.empty()) {
    PendingItem item;
    Message& m = item.message;
    m.kind = MessageKind::Joint;
    m.joint.stamp = p.stamp;
    m.joint.name = columns.joints;
    for (std::size_t c : columns.joint_cols) {
      if (!p.pos.empty()) m.joint.position.push_back(p.pos[c]);
      if (!p.vel.empty()) m.joint.velocity.push_back(p.vel[c]);
      if (!p.eff.empty()) m.joint.effort.push_back(p.eff[c]);
    }
    m.line = line;
    m.item = k;
    out.push_back(std::move(item));
  }
  if (!columns.chains.empty() && !p.pos.empty()) {
    PendingItem item;
    Message& m = item.message;
    m.kind = MessageKind::Support;
    m.support.stamp = p.stamp;
    m.support.name = columns.chains;
    for (std::size_t c : columns.chain_cols) m.support.support.push_back(p.pos[c]);
    m.line = line;
    m.item = k;
    out.push_back(std::move(item));
  }
}

}  // namespace

std::size_t count_newlines(std::string_view text, std::size_t n) noexcept {
  n = std::min(n, text.size());
  return static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(n), '\n'));
}

void expand_trajectory(std::string_view text, std::size_t line, std::vector<PendingItem>& out) {
  json doc;
  if (!parse_trajectory_json(text, line, doc, out)) return;
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
  TrajectoryColumns columns;
  if (std::string why; !read_trajectory_columns(*names_it, columns, why)) {
    push_error(out, line, 0, std::move(why));
    return;
  }
  const auto points_it = traj->find("points");
  if (points_it == traj->end() || !points_it->is_array()) {
    push_error(out, line, 0, "trajectory without 'points' (an array)");
    return;
  }
  Time base{};
  if (std::string why; !read_header_stamp(*traj, base, why)) {
    push_error(out, line, 0, "'header.stamp': " + why);
    return;
  }

  // Each point at the line where it starts (a pretty-printed trajectory spans many lines).
  const std::vector<std::size_t> offsets = point_offsets(text, traj != &doc);
  TrajectoryPoint p;
  std::size_t k = 0;
  for (const auto& point : *points_it) {
    ++k;
    const std::size_t at = k <= offsets.size() ? line + count_newlines(text, offsets[k - 1]) : line;
    if (std::string why; !read_trajectory_point(point, columns.width, base, p, why)) {
      push_error(out, at, k, std::move(why));
      continue;
    }
    push_point_messages(columns, p, at, k, out);
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
