#include "rmodel/io/writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <exception>
#include <filesystem>
#include <ostream>
#include <unordered_map>

#include <fmt/format.h>

#include "io/numbers.hpp"
#include "io/ros/mcap_writer.hpp"
#include "rmodel/error.hpp"

namespace rmodel::io {
namespace {

constexpr std::size_t kFlushThreshold = std::size_t{64} << 10;

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
  void number(double x) noexcept { p = detail::write_shortest(p, x); }
  void integer(std::int64_t x) noexcept { p = detail::write_int(p, x); }
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
static_assert(detail::kMaxDoubleChars + 1 <= 32 && 32 <= sizeof(NumberSlot::text));

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

// True when one of the 8 bytes is below 0x20, '"' or '\\' (JSON must escape it). Exact, by
// the usual "has a zero byte" arithmetic on v, v ^ '"'·8 and v ^ '\\'·8.
inline bool needs_escape8(std::uint64_t v) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  const std::uint64_t below = (v - ones * 0x20) & ~v & highs;
  const std::uint64_t q = v ^ (ones * '"');
  const std::uint64_t bs = v ^ (ones * '\\');
  return (below | ((q - ones) & ~q & highs) | ((bs - ones) & ~bs & highs)) != 0;
}

void put_json_string(Out& o, const std::string& s) noexcept {
  const std::size_t n = s.size();
  if (std::endian::native == std::endian::little && n <= 15) {
    // A short name: check its bytes 8 at a time and copy a fixed 16 bytes (std::string keeps
    // at least 16 readable bytes: its small buffer or a larger allocation; the room for the
    // copy is in json_bound). Bytes past the end are masked to 'A' before the check.
    std::uint64_t a, b;
    std::memcpy(&a, s.data(), 8);
    std::memcpy(&b, s.data() + 8, 8);
    constexpr std::uint64_t filler = 0x4141414141414141ULL;
    const std::uint64_t ma = n >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * n)) - 1;
    const std::uint64_t mb = n > 8 ? (std::uint64_t{1} << (8 * (n - 8))) - 1 : 0;
    a = (a & ma) | (filler & ~ma);
    b = (b & mb) | (filler & ~mb);
    if (!needs_escape8(a) && !needs_escape8(b)) {
      o.put('"');
      std::memcpy(o.p, s.data(), 16);
      o.p += n;
      o.put('"');
      return;
    }
  }
  o.put('"');
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    o.put(s.data() + start, i - start);
    start = i + 1;
    switch (c) {
      case '"': o.put("\\\"", 2); break;
      case '\\': o.put("\\\\", 2); break;
      case '\n': o.put("\\n", 2); break;
      case '\r': o.put("\\r", 2); break;
      case '\t': o.put("\\t", 2); break;
      case '\b': o.put("\\b", 2); break;
      case '\f': o.put("\\f", 2); break;
      default: {
        static constexpr char hex[] = "0123456789abcdef";
        const char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        o.put(esc, 6);
      }
    }
  }
  o.put(s.data() + start, s.size() - start);
  o.put('"');
}

void put_number_array(Out& o, std::string_view key, const std::vector<double>& v,
                      std::vector<NumberSlot>* cache) noexcept {
  o.put(key);
  o.put('[');
  const std::size_t n = v.size();
  if (n == 0) {
    o.put(']');
    return;
  }
  const double* x = v.data();
  if (cache) {
    NumberSlot* slot = cache->data();
    for (std::size_t i = 0; i < n; ++i) cached_number(o, x[i], slot[i], true);
    o.p[-1] = ']';  // over the last ','
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    o.json_number(x[i]);
    o.put(',');
  }
  o.p[-1] = ']';
}

void put_string_array(Out& o, const std::vector<std::string>& v) noexcept {
  o.put('[');
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) o.put(',');
    put_json_string(o, v[i]);
  }
  o.put(']');
}

/// The first 16 bytes of a name of at most 15 (std::string keeps at least 16 readable
/// bytes: its small buffer or a larger allocation), the bytes past its end zeroed.
inline void short_name_words(const std::string& s, std::uint64_t& a, std::uint64_t& b) noexcept {
  const std::size_t n = s.size();
  std::memcpy(&a, s.data(), 8);
  std::memcpy(&b, s.data() + 8, 8);
  if (std::endian::native == std::endian::little) {
    a &= n >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * n)) - 1;
    b &= n > 8 ? (std::uint64_t{1} << (8 * (n - 8))) - 1 : 0;
  } else {
    a &= n >= 8 ? ~std::uint64_t{0} : ~(~std::uint64_t{0} >> (8 * n));
    b &= n > 8 ? ~(~std::uint64_t{0} >> (8 * (n - 8))) : 0;
  }
}

/// The text of recently written string arrays (`["a","b"]`), reused while a list repeats:
/// a full pose carries the same 32 names in every message, and comparing a name with the
/// one stored (two words for a short name) is cheaper than escaping and copying it again.
/// A few lists are kept, so that a stream cycling through the chains of a robot also
/// hits. Correct whatever the caller does with its vector: the names are compared by
/// content every time.
class StringArrayCache {
public:
  /// Writes `v` as a JSON array (from a stored text when the same list was written).
  void put(Out& o, const std::vector<std::string>& v) {
    for (Entry& e : entries_) {
      if (e.matches(v)) {
        o.put(e.text);
        return;
      }
    }
    char* const start = o.p;
    put_string_array(o, v);
    const std::string_view text(start, static_cast<std::size_t>(o.p - start));
    grow(v, text.size());
    Entry& e = entries_[next_];
    next_ = (next_ + 1) % kEntries;
    e.store(v, text);
  }

private:
  static constexpr std::size_t kEntries = 8;
  struct Entry {
    bool valid = false;
    std::string text;  ///< `["a","b"]`
    /// Per name: its size, and its bytes (a short name) or its offset in `long_names`.
    struct Name {
      std::uint64_t a, b;
      std::size_t size;
    };
    std::vector<Name> names;
    std::string long_names;  ///< names longer than 15 bytes, one after the other

    bool matches(const std::vector<std::string>& v) const noexcept {
      if (!valid || v.size() != names.size()) return false;
      for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string& s = v[i];
        const Name& n = names[i];
        if (s.size() != n.size) return false;
        if (s.size() <= 15) {
          std::uint64_t a, b;
          short_name_words(s, a, b);
          if (a != n.a || b != n.b) return false;
        } else if (std::memcmp(long_names.data() + n.a, s.data(), s.size()) != 0) {
          return false;
        }
      }
      return true;
    }
    // Allocates only while the lists grow beyond those seen before.
    void store(const std::vector<std::string>& v, std::string_view array_text) {
      valid = false;  // until complete (an allocation may throw)
      text.assign(array_text);
      names.resize(v.size());
      long_names.clear();
      for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string& s = v[i];
        Name& n = names[i];
        n.size = s.size();
        if (s.size() <= 15) {
          short_name_words(s, n.a, n.b);
        } else {
          n.a = long_names.size();
          n.b = 0;
          long_names.append(s);
        }
      }
      valid = true;
    }
  };
  Entry entries_[kEntries];
  std::size_t next_ = 0;
  std::size_t max_text_ = 0, max_names_ = 0, max_long_ = 0;

  // Gives every entry room for the largest list seen, so that storing allocates only when
  // a list is larger than any before (not when a large list first lands in some entry).
  void grow(const std::vector<std::string>& v, std::size_t text_size) {
    std::size_t long_size = 0;
    for (const std::string& s : v)
      if (s.size() > 15) long_size += s.size();
    if (text_size <= max_text_ && v.size() <= max_names_ && long_size <= max_long_) return;
    max_text_ = std::max(max_text_, text_size);
    max_names_ = std::max(max_names_, v.size());
    max_long_ = std::max(max_long_, long_size);
    for (Entry& e : entries_) {  // (reserving keeps the content: a throw leaves it valid)
      e.text.reserve(max_text_);
      e.names.reserve(max_names_);
      e.long_names.reserve(max_long_);
    }
  }
};

/// What one JSON line holds (pointers avoid copying a state into a Message).
struct LineParts {
  MessageKind kind = MessageKind::Joint;
  const JointState* joint = nullptr;
  const SupportState* support = nullptr;
  Time stamp{};
  bool has_stamp = true;
  std::optional<std::int64_t> cycle;
};

/// Upper bound of the size of a JSON line.
std::size_t json_bound(const LineParts& m) noexcept {
  constexpr std::size_t kNumber = detail::kDoubleRoom + 1;
  std::size_t b = 160 + 3 * kNumber;  // braces, keys, t, header stamp, cycle
  auto names = [&](const std::vector<std::string>& v) {
    for (const std::string& s : v) b += 6 * s.size() + 3 + 16;  // all \u00XX; a 16-byte copy
  };
  auto numbers = [&](const std::vector<double>& v) { b += kNumber * v.size() + 16; };
  if (m.kind == MessageKind::Joint) {
    names(m.joint->name);
    numbers(m.joint->position);
    numbers(m.joint->velocity);
    numbers(m.joint->effort);
  } else if (m.kind == MessageKind::Support) {
    names(m.support->name);
    names(m.support->contact);
    numbers(m.support->support);
  }
  return b;
}

/// Makes the caches as long as the arrays of `m` (before formatting, which cannot allocate).
void fit_caches(NumberCaches& c, const LineParts& m) {
  if (m.kind == MessageKind::Joint) {
    c.fit(0, m.joint->position.size());
    c.fit(1, m.joint->velocity.size());
    c.fit(2, m.joint->effort.size());
  } else if (m.kind == MessageKind::Support) {
    c.fit(3, m.support->support.size());
  }
}

/// The caches of a MessageWriter (none for append_json_line).
struct LineCaches {
  NumberCaches numbers;
  StringArrayCache names;
};

void put_names(Out& o, std::string_view key, const std::vector<std::string>& v,
               LineCaches* caches) {
  o.put(key);
  if (caches)
    caches->names.put(o, v);
  else
    put_string_array(o, v);
}

// Not noexcept: storing a new name list in the cache may allocate.
void format_json_line(Out& o, const LineParts& m, StampLayout layout, LineCaches* caches) {
  auto cache = [&](int f) { return caches ? &caches->numbers.field[f] : nullptr; };
  o.put('{');
  bool first = true;
  auto sep = [&] {
    if (!first) o.put(',');
    first = false;
  };
  if (m.has_stamp) {
    sep();
    o.put("\"t\":", 4);
    o.time(m.stamp);
    if (layout != StampLayout::None) {
      o.put(layout == StampLayout::Ros1 ? std::string_view(",\"header\":{\"stamp\":{\"secs\":")
                                        : std::string_view(",\"header\":{\"stamp\":{\"sec\":"));
      o.integer(m.stamp.sec());
      o.put(layout == StampLayout::Ros1 ? std::string_view(",\"nsecs\":")
                                        : std::string_view(",\"nanosec\":"));
      o.integer(m.stamp.nanosec());
      o.put("}}", 2);
    }
  }
  if (m.cycle) {
    sep();
    o.put("\"cycle\":", 8);
    o.integer(*m.cycle);
  }
  sep();
  switch (m.kind) {
    case MessageKind::Joint: {
      const JointState& s = *m.joint;
      put_names(o, "\"name\":", s.name, caches);
      if (!s.position.empty()) put_number_array(o, ",\"position\":", s.position, cache(0));
      if (!s.velocity.empty()) put_number_array(o, ",\"velocity\":", s.velocity, cache(1));
      if (!s.effort.empty()) put_number_array(o, ",\"effort\":", s.effort, cache(2));
      break;
    }
    case MessageKind::Support: {
      const SupportState& s = *m.support;
      put_names(o, "\"name\":", s.name, caches);
      // always, even empty: it marks a support state
      put_number_array(o, ",\"support\":", s.support, cache(3));
      if (!s.contact.empty()) put_names(o, ",\"contact\":", s.contact, caches);
      break;
    }
    case MessageKind::Sync: o.put("\"sync\":true", 11); break;
  }
  o.put("}\n", 2);
}

// Formats into fmt::memory_buffer or std::string through reserved space (dropped again
// when formatting throws: only a cache's allocation can).
template <class Buffer, class F>
void append_bounded(Buffer& b, std::size_t bound, F&& f) {
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

LineParts parts_of(const Message& m) {
  LineParts p;
  p.kind = m.kind;
  p.joint = &m.joint;
  p.support = &m.support;
  p.stamp = m.stamp();
  p.has_stamp = m.has_stamp;
  p.cycle = m.cycle;
  return p;
}

// A CSV header cell: quoted when it holds a comma, a quote or blanks at the ends.
void put_csv_name(fmt::memory_buffer& b, std::string_view s) {
  const bool quote = s.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!s.empty() && (s.front() == ' ' || s.back() == ' ' || s.front() == '\t' ||
                                     s.back() == '\t'));
  if (!quote) {
    b.append(s.data(), s.data() + s.size());
    return;
  }
  b.push_back('"');
  for (char c : s) {
    if (c == '"') b.push_back('"');
    b.push_back(c);
  }
  b.push_back('"');
}

constexpr std::string_view kFieldSuffix[3] = {".position", ".velocity", ".effort"};

}  // namespace

void append_json_line(std::string& out, const Message& message, StampLayout stamp) {
  const LineParts parts = parts_of(message);
  append_bounded(out, json_bound(parts),
                 [&](Out& o) { format_json_line(o, parts, stamp, nullptr); });
}

void append_double(std::string& out, double value) {
  append_bounded(out, detail::kDoubleRoom, [&](Out& o) { o.number(value); });
}

class MessageWriter::Impl {
public:
  Impl(std::string name, WriterOptions options, Format format)
      : name_(std::move(name)), opt_(std::move(options)), format_(format) {
    fields_ = opt_.csv_fields & (CsvPosition | CsvVelocity | CsvEffort);
    buf_.reserve(2 * kFlushThreshold);  // flushed past the threshold: no growth after this
    if (format_ == Format::Mcap) mcap_ = std::make_unique<detail::McapEncoder>(opt_);
  }
  ~Impl() {
    if (!replacing_.empty() && std::uncaught_exceptions() > exceptions_at_start_) {
      // A failed run: the file it would have replaced stays as it was.
      if (fd_ >= 0) ::close(fd_);
      ::unlink(temporary_.c_str());
      return;
    }
    try {
      close();
    } catch (...) {  // NOLINT(bugprone-empty-catch): documented; call flush() to see errors
    }
    if (owns_fd_ && fd_ >= 0) ::close(fd_);
    if (!temporary_.empty()) ::unlink(temporary_.c_str());  // close() failed before the rename
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  int fd_ = -1;
  bool owns_fd_ = false;
  // Replacing an existing file: written to `temporary_` beside it, renamed over `replacing_`
  // by a successful close() (so a failed run never leaves a truncated file in its place).
  std::string replacing_;
  std::string temporary_;
  int exceptions_at_start_ = std::uncaught_exceptions();
  std::ostream* stream_ = nullptr;
  std::string* string_ = nullptr;
  std::string name_;
  WriterOptions opt_;
  Format format_;

  WriteStatus write(const LineParts& m) {
    if (closed_) throw InvalidArgument(name_ + ": write after the writer was closed");
    WriteStatus st = WriteStatus::Written;
    if (format_ == Format::Mcap) {
      st = write_mcap(m);
    } else if (format_ == Format::Csv) {
      st = write_csv(m);
    } else {
      fit_caches(caches_.numbers, m);
      append_bounded(buf_, json_bound(m),
                     [&](Out& o) { format_json_line(o, m, opt_.stamp, &caches_); });
    }
    if (string_) {
      string_->append(buf_.data(), buf_.size());
      buf_.clear();
    } else if (opt_.flush_each_message || buf_.size() >= kFlushThreshold) {
      flush();
    }
    return st;
  }

  /// A message beside the joint states (MCAP only): `add` writes it into the encoder.
  template <class Add>
  WriteStatus write_beside(Add&& add) {
    if (closed_) throw InvalidArgument(name_ + ": write after the writer was closed");
    if (format_ != Format::Mcap) return WriteStatus::Skipped;
    if (!add(*mcap_, buf_)) return WriteStatus::Skipped;
    if (opt_.flush_each_message) mcap_->close_chunk(buf_);
    if (string_) {
      string_->append(buf_.data(), buf_.size());
      buf_.clear();
    } else if (opt_.flush_each_message || buf_.size() >= kFlushThreshold) {
      flush();
    }
    return WriteStatus::Written;
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    if (mcap_) mcap_->end(buf_);
    flush();
    if (!temporary_.empty()) {
      const int fd = fd_;
      fd_ = -1;
      if (::close(fd) != 0) throw WriteError(name_, std::strerror(errno));
      if (::rename(temporary_.c_str(), replacing_.c_str()) != 0)
        throw WriteError(name_, fmt::format("cannot replace the file: {}", std::strerror(errno)));
      temporary_.clear();
    }
  }

  void flush() {
    if (buf_.size() == 0) return;
    if (string_) {
      string_->append(buf_.data(), buf_.size());
    } else if (stream_) {
      stream_->write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
      stream_->flush();
      if (!*stream_) {
        buf_.clear();
        throw WriteError(name_, "write failed");
      }
    } else {
      const char* p = buf_.data();
      std::size_t left = buf_.size();
      while (left > 0) {
        const ssize_t n = ::write(fd_, p, left);
        if (n < 0) {
          if (errno == EINTR) continue;
          const int e = errno;
          buf_.clear();
          if (e == EPIPE) throw BrokenPipe(name_, std::strerror(e));
          throw WriteError(name_, std::strerror(e));
        }
        p += n;
        left -= static_cast<std::size_t>(n);
      }
    }
    buf_.clear();
  }

private:
  fmt::memory_buffer buf_;
  bool closed_ = false;
  std::unique_ptr<detail::McapEncoder> mcap_;
  LineCaches caches_;  // numbers: JSON per array position, CSV field[0] per column

  // CSV state.
  bool header_written_ = false;
  unsigned fields_ = 0;
  std::vector<std::string> joints_;
  std::unordered_map<std::string, int> joint_index_;
  std::unordered_map<std::string, int> chain_index_;
  std::vector<std::string> last_names_;  // name → column cache for repeated name lists
  std::size_t last_count_ = 0;           // names of last_names_ in use
  std::vector<int> last_cols_;
  std::vector<double> values_;  // joints × 3, then chains
  std::vector<std::uint8_t> have_;

  void write_header(const JointState* first) {
    joints_ = opt_.csv_joints;
    if (joints_.empty() && first) joints_ = first->name;
    if (fields_ == 0) {
      if (first) {
        if (!first->position.empty()) fields_ |= CsvPosition;
        if (!first->velocity.empty()) fields_ |= CsvVelocity;
        if (!first->effort.empty()) fields_ |= CsvEffort;
      }
      if (fields_ == 0) fields_ = CsvPosition;
    }
    for (std::size_t j = 0; j < joints_.size(); ++j)
      joint_index_.emplace(joints_[j], static_cast<int>(j));
    for (std::size_t c = 0; c < opt_.csv_support.size(); ++c)
      chain_index_.emplace(opt_.csv_support[c], static_cast<int>(c));
    values_.assign(joints_.size() * 3 + opt_.csv_support.size(), 0.0);
    have_.assign(values_.size(), 0);
    buf_.append(std::string_view("t"));
    if (opt_.csv_cycle) buf_.append(std::string_view(",cycle"));
    for (const std::string& j : joints_) {
      for (int f = 0; f < 3; ++f) {
        if (!(fields_ & (1u << f))) continue;
        buf_.push_back(',');
        put_csv_name(buf_, j + std::string(kFieldSuffix[f]));
      }
    }
    for (const std::string& c : opt_.csv_support) {
      buf_.push_back(',');
      put_csv_name(buf_, "support/" + c);
    }
    buf_.push_back('\n');
    header_written_ = true;
  }

  // Columns of a name list (cached while the list repeats); -1 = not a column.
  const std::vector<int>& columns_of(const std::vector<std::string>& names,
                                     const std::unordered_map<std::string, int>& index) {
    if (&index == last_index_ && names.size() == last_count_ &&
        std::equal(names.begin(), names.end(), last_names_.begin()))
      return last_cols_;
    // Remember the list without freeing strings (a shorter list keeps the surplus ones).
    last_index_ = &index;
    last_count_ = names.size();
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i < last_names_.size())
        last_names_[i].assign(names[i]);
      else
        last_names_.push_back(names[i]);
    }
    last_cols_.resize(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
      const auto it = index.find(names[i]);
      last_cols_[i] = it == index.end() ? -1 : it->second;
    }
    return last_cols_;
  }
  const std::unordered_map<std::string, int>* last_index_ = nullptr;

  // One JointState message at its time in nanoseconds.
  WriteStatus write_mcap(const LineParts& m) {
    if (m.kind != MessageKind::Joint) return WriteStatus::Skipped;
    std::optional<Time> t;
    if (m.has_stamp) t = m.stamp;
    if (!mcap_->add(*m.joint, t, buf_)) return WriteStatus::Skipped;
    if (opt_.flush_each_message) mcap_->close_chunk(buf_);
    return WriteStatus::Written;
  }

  WriteStatus write_csv(const LineParts& m) {
    if (m.kind == MessageKind::Sync) return WriteStatus::Skipped;
    if (!header_written_) {
      if (m.kind != MessageKind::Joint && opt_.csv_joints.empty()) return WriteStatus::Skipped;
      write_header(m.kind == MessageKind::Joint ? m.joint : nullptr);
    }
    bool partial = false;
    std::fill(have_.begin(), have_.end(), std::uint8_t{0});
    if (m.kind == MessageKind::Joint) {
      const JointState& s = *m.joint;
      const std::vector<int>& cols = columns_of(s.name, joint_index_);
      const std::vector<double>* arrays[3] = {&s.position, &s.velocity, &s.effort};
      for (std::size_t i = 0; i < cols.size(); ++i) {
        if (cols[i] < 0) {
          partial = true;
          continue;
        }
        for (int f = 0; f < 3; ++f) {
          const std::vector<double>& a = *arrays[f];
          if (i >= a.size()) continue;
          if (!(fields_ & (1u << f))) {
            partial = true;
            continue;
          }
          const auto k = static_cast<std::size_t>(cols[i]) * 3 + static_cast<std::size_t>(f);
          values_[k] = a[i];
          have_[k] = 1;
        }
      }
    } else {
      const SupportState& s = *m.support;
      if (opt_.csv_support.empty()) return WriteStatus::Skipped;
      const std::vector<int>& cols = columns_of(s.name, chain_index_);
      const std::size_t base = joints_.size() * 3;
      for (std::size_t i = 0; i < cols.size(); ++i) {
        if (cols[i] < 0 || i >= s.support.size()) {
          partial = true;
          continue;
        }
        values_[base + static_cast<std::size_t>(cols[i])] = s.support[i];
        have_[base + static_cast<std::size_t>(cols[i])] = 1;
      }
    }
    const std::size_t bound = (detail::kDoubleRoom + 1) * (values_.size() + 2) + 2;
    std::vector<NumberSlot>& csv_cache = *caches_.numbers.fit(0, values_.size());
    append_bounded(buf_, bound, [&](Out& o) {
      // Each cell followed by ','; the last ',' becomes the newline.
      if (m.has_stamp) o.time(m.stamp);
      o.put(',');
      if (opt_.csv_cycle) {
        if (m.cycle) o.integer(*m.cycle);
        o.put(',');
      }
      for (std::size_t j = 0; j < joints_.size(); ++j) {
        for (std::size_t f = 0; f < 3; ++f) {
          if (!(fields_ & (1u << f))) continue;
          if (have_[j * 3 + f])
            cached_number(o, values_[j * 3 + f], csv_cache[j * 3 + f], false);
          else
            o.put(',');
        }
      }
      for (std::size_t c = 0; c < opt_.csv_support.size(); ++c) {
        const std::size_t k = joints_.size() * 3 + c;
        if (have_[k])
          cached_number(o, values_[k], csv_cache[k], false);
        else
          o.put(',');
      }
      o.p[-1] = '\n';
    });
    return partial ? WriteStatus::Partial : WriteStatus::Written;
  }
};

namespace {
Format writer_format(Format requested, std::string_view path) {
  if (requested == Format::Auto) requested = format_from_path(path);
  if (requested == Format::Mcap) return Format::Mcap;
  return requested == Format::Csv ? Format::Csv : Format::JsonLines;
}
}  // namespace

MessageWriter MessageWriter::open(const std::string& path, WriterOptions options) {
  options.format = writer_format(options.format, path);
  if (path == "-") return MessageWriter(1, "<stdout>", std::move(options), false);
  // An existing regular file (through a symbolic link: its target) is replaced only when the
  // output is complete; a new file, a device or a pipe is written directly (a new file grows
  // as the stream goes, for whoever follows it).
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)) {
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::canonical(path, ec);
    if (!ec) {
      std::string temporary =
          (target.parent_path() / ("." + target.filename().string() + ".rmodel-XXXXXX")).string();
      const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
      if (fd < 0) throw WriteError(path, fmt::format("cannot create a file beside it: {}", std::strerror(errno)));
      (void)::fchmod(fd, existing.st_mode & 07777);
      MessageWriter writer(fd, path, std::move(options), true);
      writer.impl_->replacing_ = target.string();
      writer.impl_->temporary_ = std::move(temporary);
      return writer;
    }
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw WriteError(path, std::strerror(errno));
  return MessageWriter(fd, path, std::move(options), true);
}

MessageWriter::MessageWriter(int fd, std::string target_name, WriterOptions options, bool owns_fd) {
  const Format f = writer_format(options.format, "");
  impl_ = std::make_unique<Impl>(std::move(target_name), std::move(options), f);
  impl_->fd_ = fd;
  impl_->owns_fd_ = owns_fd;
}

MessageWriter::MessageWriter(std::ostream& out, std::string target_name, WriterOptions options) {
  const Format f = writer_format(options.format, "");
  impl_ = std::make_unique<Impl>(std::move(target_name), std::move(options), f);
  impl_->stream_ = &out;
}

MessageWriter::MessageWriter(std::string& out, WriterOptions options) {
  const Format f = writer_format(options.format, "");
  impl_ = std::make_unique<Impl>("<string>", std::move(options), f);
  impl_->string_ = &out;
}

MessageWriter::MessageWriter(MessageWriter&&) noexcept = default;
MessageWriter& MessageWriter::operator=(MessageWriter&&) noexcept = default;
MessageWriter::~MessageWriter() = default;

WriteStatus MessageWriter::write(const Message& message) { return impl_->write(parts_of(message)); }

WriteStatus MessageWriter::write(const JointState& state, std::optional<std::int64_t> cycle) {
  LineParts p;
  p.kind = MessageKind::Joint;
  p.joint = &state;
  p.stamp = state.stamp;
  p.cycle = cycle;
  return impl_->write(p);
}

WriteStatus MessageWriter::write(const SupportState& state, std::optional<std::int64_t> cycle) {
  LineParts p;
  p.kind = MessageKind::Support;
  p.support = &state;
  p.stamp = state.stamp;
  p.cycle = cycle;
  return impl_->write(p);
}

WriteStatus MessageWriter::write_sync(Time stamp, std::optional<std::int64_t> cycle) {
  LineParts p;
  p.kind = MessageKind::Sync;
  p.stamp = stamp;
  p.cycle = cycle;
  return impl_->write(p);
}

WriteStatus MessageWriter::write_transforms(std::span<const FrameTransform> transforms, Time stamp, bool fixed) {
  return impl_->write_beside([&](detail::McapEncoder& mcap, fmt::memory_buffer& out) {
    return mcap.add_transforms(transforms, stamp, fixed, out);
  });
}

WriteStatus MessageWriter::write_robot_description(std::string_view urdf, Time stamp) {
  return impl_->write_beside([&](detail::McapEncoder& mcap, fmt::memory_buffer& out) {
    return mcap.add_robot_description(urdf, stamp, out);
  });
}

void MessageWriter::flush() { impl_->flush(); }
void MessageWriter::close() { impl_->close(); }
Format MessageWriter::format() const noexcept { return impl_->format_; }

}  // namespace rmodel::io
