// JSON Lines (see rmodel/io/writer.hpp): one object per message, keys in a fixed order;
// names and numbers repeated from the message before are copied from caches.
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "base/short_name.hpp"
#include "io/write/format_writer.hpp"
#include "io/text/json_escape.hpp"
#include "io/write/text_output.hpp"

namespace rmodel::io {
namespace detail {
namespace {

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
    const std::uint64_t ma = rmodel::detail::kShortNameMasks.first[n];
    const std::uint64_t mb = rmodel::detail::kShortNameMasks.second[n];
    a = (a & ma) | (filler & ~ma);
    b = (b & mb) | (filler & ~mb);
    if ((json_special_bytes8(a) | json_special_bytes8(b)) == 0) {
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

using rmodel::detail::short_name_words;

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
    // The list matched last first (a pose repeats its names), then the ones after it (a
    // stream cycling through chains sends them in turn).
    for (std::size_t step = 0; step < kEntries; ++step) {
      const std::size_t i = (hit_ + step) % kEntries;
      if (entries_[i].matches(v)) {
        hit_ = i;
        o.put(entries_[i].text);
        return;
      }
    }
    char* const start = o.p;
    put_string_array(o, v);
    const std::string_view text(start, static_cast<std::size_t>(o.p - start));
    grow(v, text.size());
    Entry& e = entries_[next_];
    hit_ = next_;
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
        if (s.size() <= rmodel::detail::kShortName) {
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
        if (s.size() <= rmodel::detail::kShortName) {
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
  std::size_t hit_ = 0;
  std::size_t max_text_ = 0, max_names_ = 0, max_long_ = 0;

  // Gives every entry room for the largest list seen, so that storing allocates only when
  // a list is larger than any before (not when a large list first lands in some entry).
  void grow(const std::vector<std::string>& v, std::size_t text_size) {
    std::size_t long_size = 0;
    for (const std::string& s : v)
      if (s.size() > rmodel::detail::kShortName) long_size += s.size();
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

class JsonLinesWriter final : public FormatWriter {
public:
  explicit JsonLinesWriter(const WriterOptions& options) : stamp_(options.stamp) {}

  WriteStatus write(const LineParts& m, fmt::memory_buffer& out) override {
    fit_caches(caches_.numbers, m);
    append_bounded(out, json_bound(m), [&](Out& o) { format_json_line(o, m, stamp_, &caches_); });
    return WriteStatus::Written;
  }

private:
  StampLayout stamp_;
  LineCaches caches_;
};

}  // namespace

std::unique_ptr<FormatWriter> make_json_lines_writer(const WriterOptions& options) {
  return std::make_unique<JsonLinesWriter>(options);
}

}  // namespace detail

void append_json_line(std::string& out, const Message& message, StampLayout stamp) {
  const detail::LineParts parts = detail::parts_of(message);
  detail::append_bounded(out, detail::json_bound(parts),
                         [&](detail::Out& o) { detail::format_json_line(o, parts, stamp, nullptr); });
}

}  // namespace rmodel::io
