// read_json_lines_columns (rmodel/io/columns.hpp): a JSON Lines log of plain joint states
// straight into columns, on every core.
//
// Why a second reader of JSON messages: through the pipeline each line becomes a Message (its
// names as strings, its values in vectors), crosses to the consuming thread and is mapped name
// by name; the parsing thread is the bottleneck and the second core mostly waits. Here the file
// is mapped, cut into one part per core at line ends, and each part is read on its own thread
// into its own table; the parts are joined at the end. A `name` array is recognised by its
// bytes (a log cycles through a handful of them), so names are neither copied nor looked up
// after their first appearance, and the values go straight to their columns.
//
// Why it cannot differ from the pipeline: it takes a line only when it is sure of what the
// pipeline would make of it, and declines the whole log otherwise (the caller then reads it
// through the pipeline). Numbers go through the native parser's own function
// (parse_json_double), `t` through parse_time, as there. A `name` array is read once, checked
// as SlotMapper checks (every name known, none twice, none empty) and then known by its exact
// bytes. Anything else (another key, escapes, non-ASCII names, `null`, sizes that differ from
// `name`) is declined rather than interpreted. tests/unit/columns_test.cpp compares both on
// every fixture log and on lines made to fall on each side of each rule.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <exception>
#include <limits>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "io/read/builder.hpp"
#include "io/text/numbers.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/columns.hpp"
#include "rmodel/io/format.hpp"
#include "rmodel/io/reader.hpp"

namespace rmodel::io {

namespace {

/// The file, mapped read-only (unmapped on destruction).
class MappedFile {
public:
  explicit MappedFile(const std::string& path) {
    // Looked at before it is opened: opening a named pipe would wait for its writer, and what
    // it wrote would then be lost to the pipeline, which reads a pipe as it comes.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return;  // declined
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw IoError(path, std::strerror(errno));
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
      ::close(fd);
      return;  // replaced in between: declined
    }
    size_ = static_cast<std::size_t>(st.st_size);
    // Not populated here: each part's thread faults its own pages in, at once.
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) {
      size_ = 0;
      return;  // declined: the pipeline reads it with read()
    }
    data_ = static_cast<const char*>(p);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
  }
  [[nodiscard]] const char* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return data_ ? size_ : 0; }

private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

inline bool is_json_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\r'; }
inline bool is_ascii_digit(char c) noexcept { return c >= '0' && c <= '9'; }
/// A byte a JSON string holds as itself, whatever the parser validates: printable ASCII but
/// the backslash (no escapes, no UTF-8 to check, no control character to reject).
inline bool is_plain_ascii(char c) noexcept { return c >= 0x20 && c < 0x7F && c != '\\'; }

/// End of the JSON number at p (RFC 8259 grammar), or nullptr.
const char* json_number_end(const char* p, const char* end) noexcept {
  if (p < end && *p == '-') ++p;
  if (p >= end || !is_ascii_digit(*p)) return nullptr;
  if (*p == '0') {
    ++p;
  } else {
    while (p < end && is_ascii_digit(*p)) ++p;
  }
  if (p < end && *p == '.') {
    ++p;
    if (p >= end || !is_ascii_digit(*p)) return nullptr;
    while (p < end && is_ascii_digit(*p)) ++p;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end && (*p == '+' || *p == '-')) ++p;
    if (p >= end || !is_ascii_digit(*p)) return nullptr;
    while (p < end && is_ascii_digit(*p)) ++p;
  }
  return p;
}

/// The number of '\n' in [begin, end).
std::size_t count_lines(const char* begin, const char* end) noexcept {
  std::size_t n = 0;
  for (const char* p = begin; p < end; ++p, ++n) {
    p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (p == nullptr) break;
  }
  return n;
}

/// A `name` array seen before: its bytes (from `[` to `]`) and the column of each element.
struct KnownNameList {
  std::string bytes;
  std::vector<std::int32_t> columns;
};

/// One part of the file (whole lines), read into its own table.
class PartReader {
public:
  static constexpr std::size_t kMaxNameLists = 256;  // more distinct lists: declined

  PartReader(const std::unordered_map<std::string_view, std::int32_t>* known, const char* mapping_end,
             std::size_t max_line)
      : known_(known), mapping_end_(mapping_end), max_line_(max_line) {}

  /// Rows go to `shared` from row `first_row` on (a model's columns: every part writes its
  /// own rows of one table, which then needs no joining).
  void write_in_place(ColumnTable& shared, std::size_t first_row) noexcept {
    shared_ = &shared;
    first_row_ = first_row;
  }

  /// Reads the lines of [begin, end); false as soon as one is declined (or `stop` is set).
  bool read(const char* begin, const char* end, const std::atomic<bool>& stop) {
    if (!shared_) table.reserve(count_lines(begin, end) + 1);  // memory taken once, never moved
    const char* p = begin;
    while (p < end) {
      if ((lines_ & 1023) == 0 && stop.load(std::memory_order_relaxed)) return false;
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      const char* line_end = nl ? nl : end;
      ++lines_;
      if (static_cast<std::size_t>(line_end - p) > max_line_) return false;
      if (!read_line(p, line_end)) return false;
      p = nl ? nl + 1 : end;
    }
    return true;
  }

  [[nodiscard]] std::size_t rows() const noexcept { return rows_; }
  /// In place: the first of this part's rows that carried field f (rows() when none did). The
  /// rows before it are not written in that field.
  [[nodiscard]] std::size_t first_row_with(int f) const noexcept { return std::min(first_with_[f], rows_); }
  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  ColumnTable table;

private:
  /// What one line holds (the keys MessageBuilder::finish() judges).
  struct Fields {
    unsigned seen = 0;
    Time t{};
    bool t_null = false;
    std::int64_t secs = 0, nsecs = 0;
    const KnownNameList* names = nullptr;
    std::size_t counts[kJointFields] = {0, 0, 0};
  };
  enum : unsigned { kT = 1, kName = 2, kHeader = 4, kSecs = 8, kNsecs = 16, kField = 32 };  // kField << f

  bool read_line(const char* p, const char* end) {
    while (p < end && is_json_blank(*p)) ++p;
    if (p == end) return true;  // a blank line: skipped, as the reader does
    Fields line;
    p = read_object(p, end, [&](std::string_view key, const char* v) { return read_field(key, v, end, line); });
    if (p == nullptr || skip_blanks(p, end) != end) return false;
    // MessageBuilder::finish() and SlotMapper::map(), for what this reader lets through.
    if (!(line.seen & kName)) return false;
    for (const std::size_t n : line.counts)
      if (n != 0 && n != line.names->columns.size()) return false;
    Time stamp{};
    bool stamped = true;
    if (line.seen & kT) {
      stamp = line.t;
      stamped = !line.t_null;
    } else if (line.seen & kSecs) {
      const std::optional<Time> t = Time::from_stamp(line.secs, line.nsecs);
      if (!t) return false;
      stamp = *t;
    } else if (line.seen & kNsecs) {
      return false;
    } else {
      stamped = false;
    }
    if (shared_) write_shared_row(stamp, stamped, line.names->columns, line.counts);
    else write_row(stamp, stamped, line.names->columns, line.counts);
    ++rows_;
    return true;
  }

  /// The object at p ('{'), `member(key, value)` called for each member with the value's
  /// first byte and returning its end (nullptr: declined). Keys without escapes only.
  template <class Member>
  static const char* read_object(const char* p, const char* end, Member&& member) {
    if (p == end || *p++ != '{') return nullptr;
    for (;;) {
      p = skip_blanks(p, end);
      if (p == end || *p != '"') return nullptr;
      const char* key = ++p;
      while (p < end && *p != '"' && is_plain_ascii(*p)) ++p;
      if (p == end || *p != '"') return nullptr;
      const std::string_view k(key, static_cast<std::size_t>(p - key));
      p = skip_blanks(p + 1, end);
      if (p == end || *p++ != ':') return nullptr;
      p = member(k, skip_blanks(p, end));
      if (p == nullptr) return nullptr;
      p = skip_blanks(p, end);
      if (p == end) return nullptr;
      if (*p == '}') return p + 1;
      if (*p++ != ',') return nullptr;
    }
  }

  /// One member of a message: the keys of a joint state, a header (its stamp), and keys the
  /// native parser skips; any other (support, sync, cycle, a trajectory) declines the log.
  const char* read_field(std::string_view key, const char* p, const char* end, Fields& line) {
    const auto once = [&](unsigned bit) {
      const bool first = !(line.seen & bit);
      line.seen |= bit;
      return first;
    };
    switch (detail::classify_key(key)) {
      case detail::Key::T:
        if (!once(kT)) return nullptr;
        if (end - p >= 4 && std::memcmp(p, "null", 4) == 0) {
          line.t_null = true;
          return p + 4;
        }
        return read_time(p, end, line.t);
      case detail::Key::Name: return once(kName) ? read_names(p, end, line.names) : nullptr;
      case detail::Key::Position:
      case detail::Key::Velocity:
      case detail::Key::Effort: {
        const int f = key[0] == 'p' ? 0 : key[0] == 'v' ? 1 : 2;
        return once(kField << f) ? read_numbers(p, end, values_[f], line.counts[f]) : nullptr;
      }
      case detail::Key::Header:
        if (!once(kHeader)) return nullptr;
        return read_object(p, end, [&](std::string_view k, const char* v) -> const char* {
          if (k != "stamp") return skip_plain_value(v, end, 2);
          return read_object(v, end, [&](std::string_view sk, const char* sv) -> const char* {
            switch (detail::classify_stamp_key(sk)) {
              case detail::StampKey::Secs: return once(kSecs) ? read_integer(sv, end, line.secs) : nullptr;
              case detail::StampKey::Nsecs: return once(kNsecs) ? read_integer(sv, end, line.nsecs) : nullptr;
              case detail::StampKey::Unknown: break;
            }
            return skip_plain_value(sv, end, 3);
          });
        });
      case detail::Key::Unknown: return skip_plain_value(p, end, 1);
      default: return nullptr;
    }
  }

  /// An integer (a JSON number without fraction or exponent) that fits in 64 bits.
  static const char* read_integer(const char* p, const char* end, std::int64_t& out) noexcept {
    const char* e = json_number_end(p, end);
    if (e == nullptr) return nullptr;
    for (const char* c = p; c < e; ++c)
      if (*c == '.' || *c == 'e' || *c == 'E') return nullptr;
    const auto r = std::from_chars(p, e, out);
    return r.ptr == e && r.ec == std::errc() ? e : nullptr;
  }

  /// Skips a value the native parser skips too, when it is one of those it surely accepts:
  /// strings of printable ASCII without escapes, numbers, literals, and arrays and objects of
  /// them a few levels deep.
  static const char* skip_plain_value(const char* p, const char* end, int depth) noexcept {
    if (p == end || depth > 8) return nullptr;
    switch (*p) {
      case '"':
        for (++p; p < end && *p != '"'; ++p)
          if (!is_plain_ascii(*p)) return nullptr;
        return p < end ? p + 1 : nullptr;
      case '{':
        return read_object(p, end, [&](std::string_view, const char* v) { return skip_plain_value(v, end, depth + 1); });
      case '[':
        p = skip_blanks(p + 1, end);
        if (p < end && *p == ']') return p + 1;
        for (;;) {
          p = skip_plain_value(p, end, depth + 1);
          if (p == nullptr) return nullptr;
          p = skip_blanks(p, end);
          if (p == end) return nullptr;
          if (*p == ']') return p + 1;
          if (*p++ != ',') return nullptr;
          p = skip_blanks(p, end);
        }
      case 't': return end - p >= 4 && std::memcmp(p, "true", 4) == 0 ? p + 4 : nullptr;
      case 'f': return end - p >= 5 && std::memcmp(p, "false", 5) == 0 ? p + 5 : nullptr;
      case 'n': return end - p >= 4 && std::memcmp(p, "null", 4) == 0 ? p + 4 : nullptr;
      default: return json_number_end(p, end);
    }
  }

  void write_row(Time stamp, bool stamped, const std::vector<std::int32_t>& columns,
                 const std::size_t (&counts)[kJointFields]) {
    table.add_row(stamp, stamped, lines_, -1, names_.size());
    for (int f = 0; f < kJointFields; ++f) {
      if (counts[f] == 0) continue;
      double* row = table.row(static_cast<JointField>(f));
      const double* values = values_[f].data();
      for (std::size_t i = 0; i < counts[f]; ++i) row[columns[i]] = values[i];
    }
  }

  /// A row of the shared table: NaN but for its values in the fields this part has carried so
  /// far (the rows of a field before its first are filled at the end, if any part carried it).
  void write_shared_row(Time stamp, bool stamped, const std::vector<std::int32_t>& columns,
                        const std::size_t (&counts)[kJointFields]) noexcept {
    ColumnTable& t = *shared_;
    const std::size_t r = first_row_ + rows_;
    t.t.data()[r] = stamp.ns;
    t.stamped.data()[r] = stamped ? 1 : 0;
    t.line.data()[r] = lines_;  // the part's own line: moved by the lines before it at the end
    t.cycle.data()[r] = -1;
    const std::size_t stride = t.stride();
    for (int f = 0; f < kJointFields; ++f) {
      if (counts[f] != 0 && first_with_[f] == kNever) first_with_[f] = rows_;
      if (first_with_[f] == kNever) continue;
      double* row = t.values(static_cast<JointField>(f)).data() + r * stride;
      std::fill_n(row, stride, std::numeric_limits<double>::quiet_NaN());
      const double* values = values_[f].data();
      for (std::size_t i = 0; i < counts[f]; ++i) row[columns[i]] = values[i];
    }
  }

  static const char* skip_blanks(const char* p, const char* end) noexcept {
    while (p < end && is_json_blank(*p)) ++p;
    return p;
  }

  static const char* read_time(const char* p, const char* end, Time& stamp) noexcept {
    const char* e = json_number_end(p, end);
    if (e == nullptr) return nullptr;
    if (parse_time(std::string_view(p, static_cast<std::size_t>(e - p)), stamp) != TimeParseStatus::ok)
      return nullptr;
    return e;
  }

  const char* read_numbers(const char* p, const char* end, std::vector<double>& out, std::size_t& count) {
    if (p == end || *p++ != '[') return nullptr;
    p = skip_blanks(p, end);
    count = 0;
    if (p < end && *p == ']') return p + 1;
    for (;;) {
      if (count == out.size()) out.resize(count * 2 + 8);
      if (end - p >= 4 && std::memcmp(p, "null", 4) == 0) {
        out[count] = std::numeric_limits<double>::quiet_NaN();  // as the native parser reads it
        p += 4;
      } else {
        detail::NumberStatus status{};
        p = detail::parse_json_double(p, end, mapping_end_, out[count], status);
        if (p == nullptr || status != detail::NumberStatus::Ok) return nullptr;
      }
      ++count;
      p = skip_blanks(p, end);
      if (p == end) return nullptr;
      if (*p == ']') return p + 1;
      if (*p++ != ',') return nullptr;
      p = skip_blanks(p, end);
    }
  }

  /// The `name` array at p, known by its bytes; read and checked on its first appearance.
  const char* read_names(const char* p, const char* end, const KnownNameList*& list) {
    const auto left = static_cast<std::size_t>(end - p);
    if (last_ < lists_.size() && matches(lists_[last_], p, left)) {
      list = &lists_[last_];
      return p + list->bytes.size();
    }
    for (std::size_t i = 0; i < lists_.size(); ++i)
      if (matches(lists_[i], p, left)) {
        last_ = i;
        list = &lists_[i];
        return p + list->bytes.size();
      }
    if (lists_.size() == kMaxNameLists) return nullptr;
    const char* e = new_name_list(p, end);
    if (e == nullptr) return nullptr;
    last_ = lists_.size() - 1;
    list = &lists_.back();
    return e;
  }

  static bool matches(const KnownNameList& list, const char* p, std::size_t left) noexcept {
    return list.bytes.size() <= left && std::memcmp(list.bytes.data(), p, list.bytes.size()) == 0;
  }

  /// Reads a `name` array not seen before: strings of printable ASCII without escapes (what
  /// the pipeline reads the same whatever it validates), none empty, each known (or given a
  /// new column without a model), none twice.
  const char* new_name_list(const char* begin, const char* end) {
    const char* p = begin;
    if (p == end || *p++ != '[') return nullptr;
    KnownNameList list;
    p = skip_blanks(p, end);
    // An empty list maps nothing, which the pipeline may judge at the end of the log.
    if (p == end || *p == ']') return nullptr;
    for (;;) {
      if (p == end || *p++ != '"') return nullptr;
      const char* s = p;
      while (p < end && *p != '"') {
        if (!is_plain_ascii(*p)) return nullptr;
        ++p;
      }
      if (p == end || p == s) return nullptr;
      const std::int32_t column = column_of(std::string_view(s, static_cast<std::size_t>(p - s)));
      if (column < 0) return nullptr;
      for (const std::int32_t c : list.columns)
        if (c == column) return nullptr;  // named twice
      list.columns.push_back(column);
      p = skip_blanks(p + 1, end);
      if (p == end) return nullptr;
      if (*p == ']') {
        ++p;
        break;
      }
      if (*p++ != ',') return nullptr;
      p = skip_blanks(p, end);
    }
    list.bytes.assign(begin, static_cast<std::size_t>(p - begin));
    lists_.push_back(std::move(list));
    return p;
  }

  /// The column of a name: the model's, or (without one) the next free one.
  std::int32_t column_of(std::string_view name) {
    if (known_) {
      const auto it = known_->find(name);
      return it == known_->end() ? -1 : it->second;
    }
    for (std::size_t c = 0; c < names_.size(); ++c)
      if (names_[c] == name) return static_cast<std::int32_t>(c);
    names_.emplace_back(name);
    return static_cast<std::int32_t>(names_.size() - 1);
  }

  static constexpr std::size_t kNever = static_cast<std::size_t>(-1);
  const std::unordered_map<std::string_view, std::int32_t>* known_;
  const char* mapping_end_;
  std::size_t max_line_;
  ColumnTable* shared_ = nullptr;
  std::size_t first_row_ = 0;
  std::size_t first_with_[kJointFields] = {kNever, kNever, kNever};
  std::size_t rows_ = 0;
  std::int64_t lines_ = 0;
  std::vector<std::string> names_;  // without a model: the names in order of appearance
  std::vector<KnownNameList> lists_;
  std::size_t last_ = 0;
  std::vector<double> values_[kJointFields];
};

/// Where the parts begin: `parts` + 1 offsets, each part but the last ending after a '\n'.
std::vector<std::size_t> part_bounds(const char* data, std::size_t size, std::size_t parts) {
  std::vector<std::size_t> bounds{0};
  for (std::size_t k = 1; k < parts; ++k) {
    std::size_t at = std::max(bounds.back(), size * k / parts);
    const void* nl = at < size ? std::memchr(data + at, '\n', size - at) : nullptr;
    at = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - data) + 1 : size;
    bounds.push_back(at);
  }
  bounds.push_back(size);
  return bounds;
}

/// The parts' rows of one table, made whole: lines numbered from the file's start, the rows a
/// part wrote before its first value of a field NaN there (when some part carried it, else the
/// field dropped), and the rows left over by blank lines removed.
void join_in_place(ColumnTable& table, const std::vector<PartReader>& readers, const std::vector<std::size_t>& first_row,
                   const std::vector<std::size_t>& newlines) {
  const std::size_t stride = table.stride();
  for (int f = 0; f < kJointFields; ++f) {
    bool carried = false;
    for (const PartReader& reader : readers) carried = carried || reader.first_row_with(f) < reader.rows();
    if (!carried) {
      table.drop(static_cast<JointField>(f));
      continue;
    }
    for (std::size_t k = 0; k < readers.size(); ++k)
      std::fill_n(table.values(static_cast<JointField>(f)).data() + first_row[k] * stride,
                  readers[k].first_row_with(f) * stride, std::numeric_limits<double>::quiet_NaN());
  }
  std::size_t rows = 0;
  std::int64_t line_offset = 0;
  for (std::size_t k = 0; k < readers.size(); ++k) {
    std::int64_t* line = table.line.data() + first_row[k];
    for (std::size_t r = 0; r < readers[k].rows(); ++r) line[r] += line_offset;
    table.move_rows(first_row[k], readers[k].rows(), rows);
    rows += readers[k].rows();
    line_offset += static_cast<std::int64_t>(newlines[k]);
  }
  table.truncate(rows);
}

/// Without a model each part has its own columns, in the order it met the names: the rows of
/// the later parts are appended to the first's, in the columns of the names met first.
void join_tables(JointColumns& out, std::vector<PartReader>& readers, const std::vector<std::size_t>& newlines) {
  out.names = readers[0].names();
  out.table = std::move(readers[0].table);
  auto line_offset = static_cast<std::int64_t>(newlines[0]);
  std::vector<std::int32_t> column_of;
  for (std::size_t k = 1; k < readers.size(); ++k) {
    column_of.clear();
    for (const std::string& name : readers[k].names()) {
      const auto it = std::find(out.names.begin(), out.names.end(), name);
      column_of.push_back(static_cast<std::int32_t>(it - out.names.begin()));
      if (it == out.names.end()) out.names.push_back(name);
    }
    out.table.append(std::move(readers[k].table), column_of, line_offset, out.names.size());
    line_offset += static_cast<std::int64_t>(newlines[k]);
  }
}

// Below this size per part a thread costs more than it saves.
constexpr std::size_t kMinPartBytes = std::size_t{4} << 20;

}  // namespace

std::optional<JointColumns> read_json_lines_columns(const std::string& path, const std::vector<std::string>* known,
                                                    bool format_is_json_lines, unsigned threads) {
  if (!format_is_json_lines && to_string(format_from_path(path)) != "jsonl") return std::nullopt;
  const MappedFile file(path);
  const char* data = file.data();
  const std::size_t size = file.size();
  if (size == 0) return std::nullopt;
  if (size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0) return std::nullopt;  // a byte order mark

  std::unordered_map<std::string_view, std::int32_t> columns;
  if (known)
    for (std::size_t c = 0; c < known->size(); ++c)
      columns.emplace((*known)[c], static_cast<std::int32_t>(c));  // a name twice: its first column, as SlotMapper
  // Told how many: as many parts (a test cuts small logs); else one per core, of some size.
  const std::size_t parts =
      threads > 0 ? std::min<std::size_t>(threads, size)
                  : std::clamp<std::size_t>(size / kMinPartBytes, 1, std::max(1U, std::thread::hardware_concurrency()));
  const std::vector<std::size_t> bounds = part_bounds(data, size, parts);

  const std::size_t max_line = ReaderOptions{}.max_line_bytes;
  std::vector<PartReader> readers;
  readers.reserve(parts);
  for (std::size_t k = 0; k < parts; ++k) readers.emplace_back(known ? &columns : nullptr, data + size, max_line);
  // Each part on its own thread, this one reading the first; what a thread throws (memory
  // running out) is thrown here once all have ended.
  std::atomic<bool> stop{false};
  const auto on_every_part = [&](const auto& work) {
    std::vector<std::exception_ptr> thrown(parts);
    const auto guarded = [&](std::size_t k) {
      try {
        work(k);
      } catch (...) {
        thrown[k] = std::current_exception();
        stop.store(true, std::memory_order_relaxed);
      }
    };
    {
      std::vector<std::jthread> helpers;
      for (std::size_t k = 1; k < parts; ++k) helpers.emplace_back(guarded, k);
      guarded(0);
    }
    for (const std::exception_ptr& e : thrown)
      if (e) std::rethrow_exception(e);
  };
  // Lines per part: where the lines of each begin (a row per line at most).
  std::vector<std::size_t> newlines(parts);
  on_every_part([&](std::size_t k) { newlines[k] = count_lines(data + bounds[k], data + bounds[k + 1]); });
  std::vector<std::size_t> first_row(parts + 1, 0);
  for (std::size_t k = 0; k < parts; ++k) first_row[k + 1] = first_row[k] + newlines[k] + 1;

  JointColumns out;
  if (known) {
    out.names = *known;
    out.table.resize_uninitialised(first_row[parts], known->size());
    for (std::size_t k = 0; k < parts; ++k) readers[k].write_in_place(out.table, first_row[k]);
  }
  std::vector<char> ok(parts, 0);
  on_every_part([&](std::size_t k) {
    ok[k] = readers[k].read(data + bounds[k], data + bounds[k + 1], stop) ? 1 : 0;
    if (!ok[k]) stop.store(true, std::memory_order_relaxed);
  });
  for (const char part_ok : ok)
    if (!part_ok) return std::nullopt;

  if (known) join_in_place(out.table, readers, first_row, newlines);
  else join_tables(out, readers, newlines);
  if (out.table.rows() == 0) return std::nullopt;  // only blank lines: the pipeline's "empty input"
  out.table.finish(out.names.size());
  return out;
}

}  // namespace rmodel::io
