// The robot description a ROS log recorded (rmodel/io/bag.hpp: robot_description). Kept apart
// from the replay: it reads raw messages of three topics (the URDF, the semantics) and decodes
// strings, nothing more.

#include <algorithm>

#include <fmt/format.h>

#include "io/ros/bag_source.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::io {
namespace detail {
namespace {

constexpr std::string_view kDescriptionTopic = "/robot_description";

bool is_string_type(std::string_view type) { return type == "std_msgs/msg/String" || type == "std_msgs/String"; }

/// The `data` of a std_msgs String: ROS 1 `u32 length | bytes`; CDR the 4-byte encapsulation
/// header (its second byte 1: little endian, 0: big endian), then `u32 length | bytes | NUL`
/// (the length counts the NUL). False with `why` when the bytes are not such a string.
bool decode_string(RosWire wire, std::span<const std::uint8_t> data, std::string& out, std::string& why) {
  std::size_t at = wire == RosWire::Cdr ? 4 : 0;
  bool big_endian = false;
  if (wire == RosWire::Cdr) {
    if (data.size() < 4 || data[0] != 0 || data[1] > 1) {
      why = "no CDR encapsulation header";
      return false;
    }
    big_endian = data[1] == 0;
  }
  if (data.size() < at + 4) {
    why = "the string's length is missing";
    return false;
  }
  std::uint32_t n = 0;
  for (std::size_t i = 0; i < 4; ++i)
    n |= static_cast<std::uint32_t>(data[at + i]) << (8 * (big_endian ? 3 - i : i));
  at += 4;
  if (n > data.size() - at) {
    why = fmt::format("the string's length {} runs past the message's {} bytes", n, data.size());
    return false;
  }
  std::size_t size = n;
  if (wire == RosWire::Cdr) {
    if (n == 0 || data[at + n - 1] != 0) {
      why = "the CDR string does not end with a NUL";
      return false;
    }
    --size;
  }
  out.assign(reinterpret_cast<const char*>(data.data() + at), size);
  return true;
}

}  // namespace

std::optional<RecordedModel> BagSource::find_robot_description() {
  const RosWire wire = this->wire();
  constexpr SemanticsText kinds[] = {SemanticsText::rmodel_json, SemanticsText::srdf};
  std::optional<RecordedModel> found;
  std::optional<RecordedSemantics> semantics[2];  // in the order of `kinds`
  // Still to be read: a semantics topic the log declares and whose first message is not met.
  const auto awaited = [&] {
    for (std::size_t k = 0; k < 2; ++k)
      if (!semantics[k] && declares_string_topic(semantics_topic(kinds[k]))) return true;
    return false;
  };
  const auto decode = [&](const TopicState& t, const Raw& raw, std::uint64_t number, std::string& out) {
    std::string why;
    if (!decode_string(wire, raw.data, out, why))
      throw ParseError(SourceLocation{name_, 0},
                       fmt::format("message {} on {} ({}): {}", number, t.name, t.type, why));
  };
  while (!found || awaited()) {
    Raw raw;
    if (read_raw(raw) != Step::Message) break;
    const std::uint64_t number = number_;  // read_raw counts every message it reads
    const TopicState& t = topics_[raw.topic];
    if (!is_string_type(t.type)) continue;
    if (t.name == kDescriptionTopic) {
      if (found) continue;
      found = RecordedModel{std::string(), t.name, t.type, number, raw.log_time_ns};
      decode(t, raw, number, found->urdf);
      continue;
    }
    for (std::size_t k = 0; k < 2; ++k) {
      if (semantics[k] || t.name != semantics_topic(kinds[k])) continue;
      semantics[k] = RecordedSemantics{std::string(), kinds[k], t.name, t.type, number, raw.log_time_ns};
      decode(t, raw, number, semantics[k]->text);
    }
  }
  if (!found) return std::nullopt;
  found->semantics = semantics[0] ? std::move(semantics[0]) : std::move(semantics[1]);
  return found;
}

bool BagSource::declares_string_topic(std::string_view name) const {
  return std::any_of(topics_.begin(), topics_.end(),
                     [&](const TopicState& t) { return t.name == name && is_string_type(t.type); });
}

}  // namespace detail

std::optional<RecordedModel> robot_description(const std::string& path) {
  if (path == "-" || path.empty()) return std::nullopt;
  detail::OpenedLog log(path);
  if (!log.source) return std::nullopt;
  return log.source->find_robot_description();
}

}  // namespace rmodel::io
