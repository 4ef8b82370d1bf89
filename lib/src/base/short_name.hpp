#pragma once
// Names of at most 15 bytes (every joint name of the robots we know) compared as two words
// instead of through memcmp: the streaming hot paths compare a message's names with those
// of messages before (SlotMapper's lists, the JSON writer's name cache).
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

namespace rmodel::detail {

inline constexpr std::size_t kShortName = 15;

// Per size n <= 15: masks keeping a name's bytes in its first and second 8 bytes.
struct ShortNameMasks {
  std::uint64_t first[16], second[16];
  constexpr ShortNameMasks() : first(), second() {
    for (std::size_t n = 0; n < 16; ++n) {
      for (std::size_t i = 0; i < n; ++i) {
        // byte i of the name: the i-th byte in memory, whatever the byte order
        const std::size_t shift = std::endian::native == std::endian::little ? 8 * (i % 8) : 56 - 8 * (i % 8);
        (i < 8 ? first[n] : second[n]) |= std::uint64_t{0xFF} << shift;
      }
    }
  }
};
inline constexpr ShortNameMasks kShortNameMasks;

/// The first 16 bytes of a name of at most 15 (std::string keeps at least 16 readable
/// bytes: its small buffer or a larger allocation), the bytes past its end zeroed.
inline void short_name_words(const std::string& s, std::uint64_t& a, std::uint64_t& b) noexcept {
  const std::size_t n = s.size();
  std::memcpy(&a, s.data(), 8);
  std::memcpy(&b, s.data() + 8, 8);
  a &= kShortNameMasks.first[n];
  b &= kShortNameMasks.second[n];
}

/// a == b, without a call for names of at most 15 bytes.
inline bool same_name(const std::string& a, const std::string& b) noexcept {
  if (a.size() != b.size()) return false;
  if (a.size() > kShortName) return std::memcmp(a.data(), b.data(), a.size()) == 0;
  std::uint64_t a0, a1, b0, b1;
  short_name_words(a, a0, a1);
  short_name_words(b, b0, b1);
  return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

}  // namespace rmodel::detail
