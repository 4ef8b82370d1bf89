#pragma once
// JSON strings: the bytes that need escaping (the JSON reader and writer scan 8 at a time),
// and a string as a JSON string literal for the readers that hand a message to the JSON code
// (ROS trajectories from CDR, echo YAML documents).
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace rmodel::io::detail {

/// Per byte of v (8 bytes of text), its high bit set when the byte is '"', '\\' or below
/// 0x20 ("has a zero byte" arithmetic on v - 0x20, v ^ '"' and v ^ '\\'). A borrow can flag
/// a byte above a flagged one, never below: the lowest flagged byte is the first special one.
inline std::uint64_t json_special_bytes8(std::uint64_t v) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  const std::uint64_t below = (v - ones * 0x20) & ~v;
  const std::uint64_t q = v ^ (ones * '"');
  const std::uint64_t bs = v ^ (ones * '\\');
  return (below | ((q - ones) & ~q) | ((bs - ones) & ~bs)) & highs;
}

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
