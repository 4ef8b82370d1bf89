// Decoding of the two ROS message types rmodel reads, in both wire formats:
// - ROS 2 CDR (XCDR1, little endian): a 4-byte encapsulation header (00 01 00 00), then each
//   primitive aligned to its size counted from the end of that header; strings are a uint32
//   length including the terminating NUL, then the bytes; sequences a uint32 count.
// - ROS 1: the same fields packed without alignment; strings without NUL; Header has `seq`.
#include <cmath>

#include <fmt/format.h>

#include "io/text/json_escape.hpp"
#include "io/ros/bag_source.hpp"

namespace rmodel::io::detail {
namespace {

constexpr std::size_t kCdrOrigin = 4;

class Decoder {
public:
  Decoder(RosWire wire, std::span<const std::uint8_t> data) : wire_(wire), c_(data.data(), data.size()) {}

  bool start(std::string& why) {
    if (wire_ == RosWire::Ros1) return true;
    std::uint8_t h[4] = {};
    c_.get_array(h, 4);
    if (!c_.ok()) {
      why = "CDR payload shorter than its 4-byte encapsulation header";
      return false;
    }
    if (h[0] != 0 || h[1] != 1) {
      why = fmt::format("CDR encapsulation {:02x} {:02x} is not plain little-endian CDR (00 01)", h[0], h[1]);
      return false;
    }
    return true;
  }
  bool u32(std::uint32_t& v) {
    if (wire_ == RosWire::Cdr) c_.align(4, kCdrOrigin);
    return c_.get(v);
  }
  bool i32(std::int32_t& v) {
    if (wire_ == RosWire::Cdr) c_.align(4, kCdrOrigin);
    return c_.get(v);
  }
  bool str(std::string_view& s) {
    std::uint32_t n = 0;
    if (!u32(n)) return false;
    if (!c_.bytes(n, s)) return false;
    if (wire_ == RosWire::Cdr && !s.empty()) {
      if (s.back() != '\0') return c_.fail();
      s.remove_suffix(1);
    }
    return true;
  }
  /// A count that cannot exceed the bytes left (each element takes >= `min_size` bytes).
  bool count(std::uint32_t& n, std::size_t min_size) {
    if (!u32(n)) return false;
    if (min_size > 0 && n > c_.left() / min_size) return c_.fail();
    return true;
  }
  bool doubles(std::vector<double>& out) {
    std::uint32_t n = 0;
    if (!count(n, 8)) return false;
    if (wire_ == RosWire::Cdr && n > 0) c_.align(8, kCdrOrigin);
    if (!c_.ok() || c_.left() < std::size_t{n} * 8) return c_.fail();
    out.resize(n);
    return c_.get_array(out.data(), n);
  }
  /// Header → stamp sec, nanosec.
  bool header(std::int64_t& sec, std::int64_t& nsec) {
    if (wire_ == RosWire::Ros1) {
      std::uint32_t seq = 0, s = 0, ns = 0;
      u32(seq);
      u32(s);
      u32(ns);
      sec = s;  // ROS 1 time: unsigned seconds
      nsec = ns;
    } else {
      std::int32_t s = 0;
      std::uint32_t ns = 0;
      i32(s);
      u32(ns);
      sec = s;
      nsec = ns;
    }
    std::string_view frame;
    return str(frame);
  }
  /// duration / builtin_interfaces/Duration
  bool duration(std::int64_t& sec, std::int64_t& nsec) {
    std::int32_t s = 0;
    if (!i32(s)) return false;
    sec = s;
    if (wire_ == RosWire::Ros1) {
      std::int32_t ns = 0;
      if (!i32(ns)) return false;
      nsec = ns;
    } else {
      std::uint32_t ns = 0;
      if (!u32(ns)) return false;
      nsec = ns;
    }
    return true;
  }
  [[nodiscard]] bool ok() const { return c_.ok(); }
  [[nodiscard]] std::size_t pos() const { return c_.pos(); }

private:
  RosWire wire_;
  ByteCursor c_;
};

void set_time(Message& out, std::int64_t sec, std::int64_t nsec) {
  // sec is an int32 (ROS 2) or uint32 (ROS 1), nsec a uint32: the sum cannot overflow.
  out.joint.stamp = Time{sec * 1'000'000'000 + nsec};
  out.has_stamp = true;
}


void json_numbers(std::string& out, const std::vector<double>& v) {
  out += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    if (std::isfinite(v[i])) fmt::format_to(std::back_inserter(out), "{}", v[i]);
    else out += "null";
  }
  out += ']';
}

}  // namespace

RosType classify_type(std::string_view type) noexcept {
  if (type == "sensor_msgs/msg/JointState" || type == "sensor_msgs/JointState") return RosType::JointState;
  if (type == "trajectory_msgs/msg/JointTrajectory" || type == "trajectory_msgs/JointTrajectory")
    return RosType::Trajectory;
  return RosType::Other;
}

bool decode_joint_state(RosWire wire, std::span<const std::uint8_t> data, Message& out, StringListSink& names,
                        std::string& why) {
  Decoder d(wire, data);
  if (!d.start(why)) return false;
  out.kind = MessageKind::Joint;
  out.item = 0;
  out.cycle.reset();
  std::int64_t sec = 0, nsec = 0;
  d.header(sec, nsec);
  set_time(out, sec, nsec);
  std::uint32_t n = 0;
  d.count(n, wire == RosWire::Cdr ? 5 : 4);
  names.begin(out.joint.name);
  std::uint32_t first_empty = 0;  // 1-based; an empty name cannot match a joint: the message is broken
  for (std::uint32_t i = 0; i < n && d.ok(); ++i) {
    std::string_view s;
    if (d.str(s)) names.push(s);
    if (s.empty() && first_empty == 0) first_empty = i + 1;
  }
  names.end();
  d.doubles(out.joint.position);
  d.doubles(out.joint.velocity);
  d.doubles(out.joint.effort);
  if (!d.ok()) {
    why = fmt::format("JointState payload malformed or truncated ({} bytes)", data.size());
    return false;
  }
  if (first_empty != 0) {
    // The same rule and wording as the JSON readers (builder.hpp).
    why = fmt::format("'name' element {} is empty", first_empty);
    return false;
  }
  return true;
}

bool decode_trajectory(RosWire wire, std::span<const std::uint8_t> data, std::size_t number,
                       std::optional<std::int64_t> base_ns, std::vector<PendingItem>& pending, std::string& why) {
  Decoder d(wire, data);
  if (!d.start(why)) return false;
  std::int64_t sec = 0, nsec = 0;
  d.header(sec, nsec);
  if (base_ns) {
    sec = *base_ns / 1'000'000'000;
    nsec = *base_ns % 1'000'000'000;
  }
  std::string json = fmt::format(R"({{"header":{{"stamp":{{"sec":{},"nanosec":{}}}}},"joint_names":[)", sec, nsec);
  std::uint32_t n = 0;
  d.count(n, 4);
  for (std::uint32_t i = 0; i < n && d.ok(); ++i) {
    std::string_view s;
    if (!d.str(s)) break;
    if (i) json += ',';
    append_json_string(json, s);
  }
  json += R"(],"points":[)";
  std::uint32_t points = 0;
  d.count(points, 16);
  std::vector<double> v;
  for (std::uint32_t k = 0; k < points && d.ok(); ++k) {
    if (k) json += ',';
    static constexpr const char* kArrays[] = {"positions", "velocities", "accelerations", "effort"};
    json += '{';
    for (const char* key : kArrays) {
      if (!d.doubles(v)) break;
      fmt::format_to(std::back_inserter(json), R"("{}":)", key);
      json_numbers(json, v);
      json += ',';
    }
    std::int64_t ts = 0, tns = 0;
    d.duration(ts, tns);
    fmt::format_to(std::back_inserter(json), R"("time_from_start":{{"sec":{},"nanosec":{}}}}})", ts, tns);
  }
  json += "]}";
  if (!d.ok()) {
    why = fmt::format("JointTrajectory payload malformed or truncated ({} bytes)", data.size());
    return false;
  }
  expand_trajectory(json, number, pending);
  return true;
}

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}
/// "std_msgs/msg/Header", "std_msgs/Header", "Header" → "Header"; keeps `[]`.
std::string_view base_type(std::string_view t) {
  const auto slash = t.rfind('/');
  return slash == std::string_view::npos ? t : t.substr(slash + 1);
}
}  // namespace

bool definition_matches(RosType type, std::string_view definition, std::string& why) {
  using Field = std::pair<std::string_view, std::string_view>;
  static constexpr Field kJointState[] = {
      {"Header", "header"}, {"string[]", "name"}, {"float64[]", "position"}, {"float64[]", "velocity"},
      {"float64[]", "effort"}};
  static constexpr Field kTrajectory[] = {
      {"Header", "header"}, {"string[]", "joint_names"}, {"JointTrajectoryPoint[]", "points"}};
  std::span<const Field> want;
  if (type == RosType::JointState) want = kJointState;
  else if (type == RosType::Trajectory) want = kTrajectory;
  else return false;
  std::size_t k = 0;
  std::size_t pos = 0;
  while (pos < definition.size()) {
    std::size_t eol = definition.find('\n', pos);
    if (eol == std::string_view::npos) eol = definition.size();
    std::string_view line = definition.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.substr(0, 3) == "===") break;  // dependencies follow
    if (auto h = line.find('#'); h != std::string_view::npos) line = line.substr(0, h);
    line = trim(line);
    if (line.empty()) continue;
    const auto sp = line.find_first_of(" \t");
    if (sp == std::string_view::npos) continue;
    const std::string_view ftype = base_type(line.substr(0, sp));
    std::string_view rest = trim(line.substr(sp));
    if (rest.find('=') != std::string_view::npos) continue;  // a constant
    const auto sp2 = rest.find_first_of(" \t");
    const std::string_view fname = sp2 == std::string_view::npos ? rest : rest.substr(0, sp2);
    if (k >= want.size() || want[k].first != ftype || want[k].second != fname) {
      why = fmt::format("field {} is '{} {}', rmodel reads '{} {}'", k + 1, ftype, fname,
                        k < want.size() ? want[k].first : "(none)", k < want.size() ? want[k].second : "");
      return false;
    }
    ++k;
  }
  if (k != want.size()) {
    why = fmt::format("definition has {} fields, rmodel reads {}", k, want.size());
    return false;
  }
  return true;
}

}  // namespace rmodel::io::detail
