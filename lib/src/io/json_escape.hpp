#pragma once
// A string as a JSON string literal, for the readers that hand a message to the JSON code
// (ROS trajectories from CDR, echo YAML documents).
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace rmodel::io::detail {

/// Appends `s` quoted, with `"` and `\` escaped and control characters as \u00XX.
inline void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      out += fmt::format("\\u{:04x}", c);
    } else {
      out += ch;
    }
  }
  out += '"';
}

}  // namespace rmodel::io::detail
