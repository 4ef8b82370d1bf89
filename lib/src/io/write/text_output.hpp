#pragma once
// Internal: the text output the JSON Lines and CSV writers share. Output goes into space
// reserved beforehand for the worst case, and repeated numbers are copied from a cache.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "io/text/numbers.hpp"
#include "rmodel/base/time.hpp"

namespace rmodel::io::detail {

// Output goes through a raw pointer into space reserved beforehand for the worst case
// (json_bound / csv_bound), so that appending a byte is a store, not a capacity check.
struct Out {
  char* p;
  void put(char c) noexcept { *p++ = c; }
  void put(const char* s, std::size_t n) noexcept {
    std::memcpy(p, s, n);
    p += n;
  }
  void put(std::string_view s) noexcept { put(s.data(), s.size()); }
  void number(double x) noexcept { p = write_shortest(p, x); }
  void integer(std::int64_t x) noexcept { p = write_int(p, x); }
  void time(Time t) noexcept { p = write_time(p, t); }
  // JSON has no NaN or infinities: null.
  void json_number(double x) noexcept {
    if (std::isfinite(x))
      number(x);
    else
      put("null", 4);
  }
};

/// The text of the last number written at one array position, followed by ',': consecutive
/// messages of a stream (a full pose after every update) repeat most values, and copying a
/// bitwise-equal value's text is several times cheaper than formatting it again.
struct NumberSlot {
  std::uint64_t bits = 0;
  std::uint8_t len = 0;  ///< with the ','; 0: empty
  char text[39] = {};
};
static_assert(kMaxDoubleChars + 1 <= 32 && 32 <= sizeof(NumberSlot::text));

/// Writes x (as JSON: null when not finite) and a ',' through a cache slot.
inline void cached_number(Out& o, double x, NumberSlot& slot, bool json) noexcept {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  if (slot.bits == bits && slot.len != 0) {
    std::memcpy(o.p, slot.text, 32);  // fixed-size copy; the room is in the bounds
    o.p += slot.len;
    return;
  }
  char* const start = o.p;
  if (json)
    o.json_number(x);
  else
    o.number(x);
  o.put(',');
  slot.bits = bits;
  slot.len = static_cast<std::uint8_t>(o.p - start);
  std::memcpy(slot.text, start, 32);
}

/// One cache per number array of a message (position, velocity, effort, support).
struct NumberCaches {
  std::vector<NumberSlot> field[4];
  /// Grows (allocating) only when an array is longer than any before.
  std::vector<NumberSlot>* fit(int f, std::size_t n) {
    if (field[f].size() < n) field[f].resize(n);
    return &field[f];
  }
};

// Formats into fmt::memory_buffer or std::string through reserved space (dropped again
// when formatting throws: only a cache's allocation can).
template <class Buffer, class F>
inline void append_bounded(Buffer& b, std::size_t bound, F&& f) {
  const std::size_t old = b.size();
  b.resize(old + bound);
  Out o{b.data() + old};
  try {
    f(o);
  } catch (...) {
    b.resize(old);
    throw;
  }
  b.resize(static_cast<std::size_t>(o.p - b.data()));
}

}  // namespace rmodel::io::detail
