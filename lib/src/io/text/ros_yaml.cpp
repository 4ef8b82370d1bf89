#include "io/text/ros_yaml.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "io/text/json_escape.hpp"
#include "io/text/numbers.hpp"

namespace rmodel::io::detail {

namespace {
constexpr int kMaxYamlDepth = 64;
inline bool is_space(char c) noexcept { return c == ' ' || c == '\t'; }
inline bool is_ident(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// A YAML scalar as a double: YAML's `.nan`, `.inf`, `-.inf` (any of its three spellings),
/// and what a CSV cell accepts (decimal, `nan`, `inf`, `infinity`, any case, signed).
NumberStatus yaml_double(std::string_view s, double& out) noexcept {
  if (s.empty()) return NumberStatus::Invalid;
  std::string_view body = s;
  const bool negative = body.front() == '-';
  if (body.front() == '+' || body.front() == '-') body.remove_prefix(1);
  if (body == ".nan" || body == ".NaN" || body == ".NAN") {
    out = std::numeric_limits<double>::quiet_NaN();
    return NumberStatus::Ok;
  }
  if (body == ".inf" || body == ".Inf" || body == ".INF") {
    out = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return NumberStatus::Ok;
  }
  return parse_csv_double(s, out);
}


/// Writes code point `cp` as UTF-8 at `w`; returns the byte count (0: not a code point).
std::size_t put_utf8(char* w, std::uint32_t cp) noexcept {
  if (cp < 0x80) {
    w[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    w[0] = static_cast<char>(0xC0 | (cp >> 6));
    w[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    w[0] = static_cast<char>(0xE0 | (cp >> 12));
    w[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    w[2] = static_cast<char>(0x80 | (cp & 0x3F));
    return 3;
  }
  if (cp < 0x110000) {
    w[0] = static_cast<char>(0xF0 | (cp >> 18));
    w[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    w[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    w[3] = static_cast<char>(0x80 | (cp & 0x3F));
    return 4;
  }
  return 0;
}
}  // namespace

bool looks_like_ros_yaml(std::string_view line) noexcept {
  if (is_document_separator(line) || (!line.empty() && line[0] == '#')) return true;
  std::size_t i = 0;
  if (!line.empty() && line[0] == '{') {
    i = 1;
    while (i < line.size() && is_space(line[i])) ++i;
    return i < line.size() && line[i] != '"' && line[i] != '}';
  }
  while (i < line.size() && is_ident(line[i])) ++i;
  if (i == 0 || i >= line.size() || line[i] != ':') return false;
  return i + 1 == line.size() || is_space(line[i + 1]);
}

bool is_document_separator(std::string_view line) noexcept {
  if (line.size() < 3 || !(line.substr(0, 3) == "---" || line.substr(0, 3) == "...")) return false;
  for (std::size_t i = 3; i < line.size(); ++i)
    if (!is_space(line[i])) return false;
  return true;
}

bool RosYamlDocument::add_line(std::string_view line, std::size_t number, std::size_t max_bytes) {
  if (text_.size() + line.size() + 1 > max_bytes) return false;
  starts_.push_back(text_.size());
  numbers_.push_back(number);
  text_.append(line.data(), line.size());
  text_ += '\n';
  return true;
}

void RosYamlDocument::clear() noexcept {
  text_.clear();
  starts_.clear();
  numbers_.clear();
}

// ---- positions ----

std::size_t RosYamlDocument::line_index(std::size_t pos) const noexcept {
  const auto it = std::upper_bound(starts_.begin(), starts_.end(), pos);
  return it == starts_.begin() ? 0 : static_cast<std::size_t>(it - starts_.begin()) - 1;
}
std::size_t RosYamlDocument::column(std::size_t pos) const noexcept { return pos - starts_[line_index(pos)]; }
std::size_t RosYamlDocument::line_of(std::size_t pos) const noexcept {
  return numbers_.empty() ? 0 : numbers_[line_index(pos)];
}

// ---- parsing ----

std::uint32_t RosYamlDocument::new_node(int kind, std::size_t pos) {
  Node n;
  n.kind = static_cast<Node::Kind>(kind);
  n.pos = pos;
  nodes_.push_back(n);
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

void RosYamlDocument::append_child(std::uint32_t parent, std::uint32_t child) {
  Node& p = nodes_[parent];
  if (p.last == kNone) p.first = child;
  else nodes_[p.last].next = child;
  p.last = child;
  ++p.count;
}

void RosYamlDocument::enter(std::size_t pos) {
  if (++depth_ > kMaxYamlDepth) throw Failure{pos, fmt::format("nested more than {} levels deep", kMaxYamlDepth)};
}

void RosYamlDocument::skip_spaces() noexcept {
  while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
}

// Moves to the next content character, skipping blanks, line ends and comments.
bool RosYamlDocument::next_content() noexcept {
  for (;;) {
    skip_spaces();
    if (pos_ >= text_.size()) return false;
    if (text_[pos_] == '#') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    }
    if (pos_ < text_.size() && text_[pos_] == '\n') {
      ++pos_;
      continue;
    }
    return pos_ < text_.size();
  }
}

void RosYamlDocument::end_of_line(const char* what) {
  skip_spaces();
  if (pos_ < text_.size() && text_[pos_] == '#')
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  if (pos_ < text_.size() && text_[pos_] != '\n') throw Failure{pos_, fmt::format("unexpected text after {}", what)};
  if (pos_ < text_.size()) ++pos_;
}

// True when the content at pos_ is `key:` followed by a blank or the end of the line.
bool RosYamlDocument::at_map_key() const noexcept {
  std::size_t i = pos_;
  const std::size_t n = text_.size();
  if (i < n && (text_[i] == '\'' || text_[i] == '"')) {
    const char q = text_[i++];
    while (i < n) {
      if (q == '"' && text_[i] == '\\') {
        i += 2;
        continue;
      }
      if (text_[i] == q) {
        if (q == '\'' && i + 1 < n && text_[i + 1] == '\'') {
          i += 2;
          continue;
        }
        break;
      }
      ++i;
    }
    if (i >= n) return false;
    ++i;
    while (i < n && is_space(text_[i])) ++i;
    return i < n && text_[i] == ':' && (i + 1 == n || is_space(text_[i + 1]) || text_[i + 1] == '\n');
  }
  for (; i < n && text_[i] != '\n'; ++i) {
    if (text_[i] == '#' && i > pos_ && is_space(text_[i - 1])) return false;
    if (text_[i] == ':' && (i + 1 == n || is_space(text_[i + 1]) || text_[i + 1] == '\n')) return true;
  }
  return false;
}

std::uint32_t RosYamlDocument::parse_block() {
  enter(pos_);
  const std::size_t col = column(pos_);
  const char c = text_[pos_];
  const char after = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\n';
  std::uint32_t r;
  if (c == '-' && (is_space(after) || after == '\n')) {
    r = parse_block_seq(col);
  } else if (c == '[' || c == '{') {
    r = parse_flow();
    end_of_line(c == '[' ? "the closing ']'" : "the closing '}'");
  } else if (at_map_key()) {
    r = parse_block_map(col);
  } else {
    r = parse_scalar(false);
    end_of_line("a value");
  }
  --depth_;
  return r;
}

std::uint32_t RosYamlDocument::parse_block_map(std::size_t col) {
  const std::uint32_t map = new_node(Node::Map, pos_);
  for (;;) {
    const std::size_t key_pos = pos_;
    std::string_view key;
    if (text_[pos_] == '\'' || text_[pos_] == '"') {
      key = parse_quoted();
      skip_spaces();
    } else {
      const std::size_t start = pos_;
      while (!(text_[pos_] == ':' && (pos_ + 1 == text_.size() || is_space(text_[pos_ + 1]) || text_[pos_ + 1] == '\n')))
        ++pos_;  // at_map_key() found the ':'
      std::size_t end = pos_;
      while (end > start && is_space(text_[end - 1])) --end;
      key = std::string_view(text_.data() + start, end - start);
    }
    ++pos_;  // ':'
    skip_spaces();
    std::uint32_t value;
    if (pos_ >= text_.size() || text_[pos_] == '\n' || text_[pos_] == '#') {
      end_of_line("a key");
      const bool nested = next_content() && (column(pos_) > col || (column(pos_) == col && text_[pos_] == '-' &&
                                                                    (pos_ + 1 == text_.size() || is_space(text_[pos_ + 1]) ||
                                                                     text_[pos_ + 1] == '\n')));
      value = nested ? parse_block() : new_node(Node::Null, key_pos);
    } else if (text_[pos_] == '[' || text_[pos_] == '{') {
      const char open = text_[pos_];
      value = parse_flow();
      end_of_line(open == '[' ? "the closing ']'" : "the closing '}'");
    } else {
      value = parse_scalar(false);
      end_of_line("a value");
    }
    nodes_[value].key = key;
    append_child(map, value);
    if (!next_content()) break;
    const std::size_t c = column(pos_);
    if (c < col) break;
    if (c > col) throw Failure{pos_, "unexpected indentation"};
    if (!at_map_key()) {
      if (text_[pos_] == '-') break;  // a sequence at this column: the parent's
      throw Failure{pos_, "expected 'key: value'"};
    }
  }
  return map;
}

std::uint32_t RosYamlDocument::parse_block_seq(std::size_t col) {
  const std::uint32_t seq = new_node(Node::Seq, pos_);
  for (;;) {
    const std::size_t item_pos = pos_;
    ++pos_;  // '-'
    skip_spaces();
    std::uint32_t value;
    if (pos_ >= text_.size() || text_[pos_] == '\n' || text_[pos_] == '#') {
      end_of_line("'-'");
      value = next_content() && column(pos_) > col ? parse_block() : new_node(Node::Null, item_pos);
    } else {
      value = parse_block();
    }
    append_child(seq, value);
    if (!next_content()) break;
    const std::size_t c = column(pos_);
    if (c < col) break;
    if (c > col) throw Failure{pos_, "unexpected indentation"};
    const char after = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\n';
    if (!(text_[pos_] == '-' && (is_space(after) || after == '\n'))) break;  // the parent's next key
  }
  return seq;
}

std::uint32_t RosYamlDocument::parse_flow() {
  enter(pos_);
  const char open = text_[pos_];
  const char close = open == '[' ? ']' : '}';
  const std::uint32_t node = new_node(open == '[' ? Node::Seq : Node::Map, pos_);
  ++pos_;
  auto skip_ws = [&] {
    for (;;) {
      while (pos_ < text_.size() && (is_space(text_[pos_]) || text_[pos_] == '\n')) ++pos_;
      if (pos_ < text_.size() && text_[pos_] == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
        continue;
      }
      return;
    }
  };
  const std::size_t start = pos_ - 1;
  for (;;) {
    skip_ws();
    if (pos_ >= text_.size()) throw Failure{start, fmt::format("'{}' is never closed (missing '{}')", open, close)};
    if (text_[pos_] == close) {
      ++pos_;
      break;
    }
    std::string_view key;
    if (open == '{') {
      if (text_[pos_] == '\'' || text_[pos_] == '"') {
        key = parse_quoted();
      } else {
        const std::size_t k = pos_;
        while (pos_ < text_.size() && !(text_[pos_] == ':' && (pos_ + 1 == text_.size() || is_space(text_[pos_ + 1]) ||
                                                               text_[pos_ + 1] == '\n' || text_[pos_ + 1] == ',' ||
                                                               text_[pos_ + 1] == '}'))) {
          if (text_[pos_] == ',' || text_[pos_] == '}' || text_[pos_] == ']' || text_[pos_] == '\n')
            throw Failure{k, "expected 'key: value' in '{...}'"};
          ++pos_;
        }
        if (pos_ >= text_.size()) throw Failure{k, "expected 'key: value' in '{...}'"};
        std::size_t end = pos_;
        while (end > k && is_space(text_[end - 1])) --end;
        key = std::string_view(text_.data() + k, end - k);
      }
      skip_ws();
      if (pos_ >= text_.size() || text_[pos_] != ':') throw Failure{pos_, "expected ':' after a key in '{...}'"};
      ++pos_;
      skip_ws();
    }
    std::uint32_t value;
    if (pos_ < text_.size() && (text_[pos_] == '[' || text_[pos_] == '{')) {
      value = parse_flow();
    } else if (open == '{' && pos_ < text_.size() && (text_[pos_] == ',' || text_[pos_] == '}')) {
      value = new_node(Node::Null, pos_);
    } else {
      value = parse_scalar(true);
    }
    nodes_[value].key = key;
    append_child(node, value);
    skip_ws();
    if (pos_ < text_.size() && text_[pos_] == ',') {
      ++pos_;
      continue;
    }
    if (pos_ < text_.size() && text_[pos_] == close) {
      ++pos_;
      break;
    }
    if (pos_ >= text_.size()) throw Failure{start, fmt::format("'{}' is never closed (missing '{}')", open, close)};
    throw Failure{pos_, fmt::format("expected ',' or '{}'", close)};
  }
  --depth_;
  return node;
}

std::uint32_t RosYamlDocument::parse_scalar(bool flow) {
  const std::size_t start = pos_;
  if (pos_ < text_.size() && (text_[pos_] == '\'' || text_[pos_] == '"')) {
    const std::string_view text = parse_quoted();
    const std::uint32_t n = new_node(Node::Scalar, start);
    nodes_[n].quoted = true;
    nodes_[n].text = text;
    return n;
  }
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '\n') break;
    if (flow && (c == ',' || c == ']' || c == '}')) break;
    if (c == '#' && pos_ > start && is_space(text_[pos_ - 1])) break;
    ++pos_;
  }
  std::size_t end = pos_;
  while (end > start && is_space(text_[end - 1])) --end;
  const std::string_view text(text_.data() + start, end - start);
  if (text.empty()) throw Failure{start, "empty element"};
  if (text == "~" || text == "null" || text == "Null" || text == "NULL") return new_node(Node::Null, start);
  const std::uint32_t n = new_node(Node::Scalar, start);
  nodes_[n].text = text;
  return n;
}

// Reads a quoted scalar at pos_, decoding it in place (the decoded text is never longer).
std::string_view RosYamlDocument::parse_quoted() {
  const std::size_t open = pos_;
  const char q = text_[pos_];
  std::size_t r = pos_ + 1;
  std::size_t w = pos_;
  const std::size_t w0 = w;
  const std::size_t n = text_.size();
  auto fold = [&] {  // a line break inside quotes: one space, leading blanks dropped
    while (w > w0 && is_space(text_[w - 1])) --w;
    text_[w++] = ' ';
    ++r;
    while (r < n && is_space(text_[r])) ++r;
  };
  for (;;) {
    if (r >= n) throw Failure{open, "unterminated quoted string"};
    const char c = text_[r];
    if (c == q) {
      if (q == '\'' && r + 1 < n && text_[r + 1] == '\'') {
        text_[w++] = '\'';
        r += 2;
        continue;
      }
      ++r;
      break;
    }
    if (c == '\n') {
      fold();
      continue;
    }
    if (q == '"' && c == '\\') {
      if (r + 1 >= n) throw Failure{open, "unterminated quoted string"};
      const char e = text_[r + 1];
      char plain = 0;
      switch (e) {
        case 'n': plain = '\n'; break;
        case 't': case '\t': plain = '\t'; break;
        case 'r': plain = '\r'; break;
        case '0': plain = '\0'; break;
        case 'a': plain = '\a'; break;
        case 'b': plain = '\b'; break;
        case 'e': plain = '\x1b'; break;
        case 'f': plain = '\f'; break;
        case 'v': plain = '\v'; break;
        case '"': case '\\': case '/': case ' ': plain = e; break;
        case '\n':  // an escaped line break: nothing
          r += 2;
          while (r < n && is_space(text_[r])) ++r;
          continue;
        case 'x': case 'u': case 'U': {
          const std::size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          std::uint32_t cp = 0;
          for (std::size_t k = 0; k < digits; ++k) {
            const int h = r + 2 + k < n ? hex_digit_value(text_[r + 2 + k]) : -1;
            if (h < 0) throw Failure{r, fmt::format("bad escape '\\{}' in a quoted string", e)};
            cp = cp * 16 + static_cast<std::uint32_t>(h);
          }
          char buf[4];
          const std::size_t len = put_utf8(buf, cp);
          if (len == 0) throw Failure{r, "escape beyond the last Unicode code point"};
          for (std::size_t k = 0; k < len; ++k) text_[w++] = buf[k];
          r += 2 + digits;
          continue;
        }
        default: throw Failure{r, fmt::format("bad escape '\\{}' in a quoted string", e)};
      }
      text_[w++] = plain;
      r += 2;
      continue;
    }
    text_[w++] = c;
    ++r;
  }
  pos_ = r;
  return std::string_view(text_.data() + w0, w - w0);
}

// ---- interpretation ----

namespace {
std::string describe(std::string_view kind_text, bool scalar) {
  if (!scalar) return std::string(kind_text);
  if (kind_text.size() > 40) return fmt::format("'{}...'", kind_text.substr(0, 40));
  return fmt::format("'{}'", kind_text);
}
}  // namespace

std::int64_t RosYamlDocument::integer(std::uint32_t id, std::string_view prefix, std::string_view field) {
  const Node& n = nodes_[id];
  std::int64_t v = 0;
  if (n.kind == Node::Scalar && !n.quoted && to_int64(n.text.data(), n.text.data() + n.text.size(), v)) return v;
  const char* what = n.kind == Node::Seq ? "a list" : n.kind == Node::Map ? "a mapping" : "nothing";
  throw Failure{n.pos, fmt::format("'{}{}': expected an integer, got {}", prefix, field,
                                   describe(n.kind == Node::Scalar ? n.text : what, n.kind == Node::Scalar))};
}

double RosYamlDocument::number(std::uint32_t id, std::string_view field, std::size_t element) {
  const Node& n = nodes_[id];
  double v = 0;
  NumberStatus st = NumberStatus::Invalid;
  if (n.kind == Node::Scalar && !n.quoted) {
    st = yaml_double(n.text, v);
    if (st == NumberStatus::Ok) return v;
  }
  const std::string where = element > 0 ? fmt::format("'{}' element {}", field, element) : fmt::format("'{}'", field);
  if (st == NumberStatus::Overflow)
    throw Failure{n.pos, fmt::format("{}: number out of the range of double '{}'", where, n.text)};
  const char* what = n.kind == Node::Seq ? "a list" : n.kind == Node::Map ? "a mapping" : "nothing";
  throw Failure{n.pos, fmt::format("{}: expected a number, got {}", where,
                                   describe(n.kind == Node::Scalar ? n.text : what, n.kind == Node::Scalar))};
}

void RosYamlDocument::fill_numbers(std::uint32_t id, std::string_view field, std::vector<double>& out) {
  const Node& n = nodes_[id];
  if (n.kind == Node::Null) return;
  if (n.kind != Node::Seq) {
    const bool elided = n.kind == Node::Scalar && !n.text.empty() && n.text.front() == '<';
    throw Failure{n.pos, fmt::format("'{}': expected a list of numbers, got {}{}", field,
                                     n.kind == Node::Scalar ? describe(n.text, true) : std::string("a mapping"),
                                     elided ? " (ros2 topic echo --no-arr prints no values)" : "")};
  }
  std::size_t element = 0;
  for (std::uint32_t c = n.first; c != kNone; c = nodes_[c].next) {
    ++element;
    const Node& e = nodes_[c];
    if (e.kind == Node::Scalar && e.quoted && e.text == "...")
      throw Failure{e.pos, fmt::format("'{}' element {}: the list was cut short by ros2 topic echo (run it with "
                                       "--full-length)",
                                       field, element)};
    out.push_back(number(c, field, element));
  }
}

void RosYamlDocument::fill_strings(std::uint32_t id, std::string_view field, StringListSink& out) {
  const Node& n = nodes_[id];
  if (n.kind == Node::Null) return;
  if (n.kind != Node::Seq)
    throw Failure{n.pos, fmt::format("'{}': expected a list of names, got {}", field,
                                     n.kind == Node::Scalar ? describe(n.text, true) : std::string("a mapping"))};
  std::size_t element = 0;
  for (std::uint32_t c = n.first; c != kNone; c = nodes_[c].next) {
    ++element;
    const Node& e = nodes_[c];
    if (e.kind != Node::Scalar)
      throw Failure{e.pos, fmt::format("'{}' element {}: expected a name, got {}", field, element,
                                       e.kind == Node::Null ? "nothing" : e.kind == Node::Seq ? "a list" : "a mapping")};
    if (e.quoted && e.text == "..." && element > 1 && e.next == kNone)
      throw Failure{e.pos, fmt::format("'{}' element {}: the list was cut short by ros2 topic echo (run it with "
                                       "--full-length)",
                                       field, element)};
    out.push(e.text);
  }
}

void RosYamlDocument::fill_header(std::uint32_t id, MessageBuilder& builder) {
  const Node& h = nodes_[id];
  if (h.kind == Node::Null) return;
  if (h.kind != Node::Map) throw Failure{h.pos, "'header': expected a mapping"};
  for (std::uint32_t c = h.first; c != kNone; c = nodes_[c].next) {
    if (nodes_[c].key != "stamp") continue;
    const Node& s = nodes_[c];
    if (s.kind == Node::Null) continue;
    if (s.kind != Node::Map) throw Failure{s.pos, "'header.stamp': expected a mapping (sec, nanosec)"};
    for (std::uint32_t k = s.first; k != kNone; k = nodes_[k].next) {
      switch (classify_stamp_key(nodes_[k].key)) {
        case StampKey::Secs: builder.set_secs(integer(k, "header.stamp.", nodes_[k].key)); break;
        case StampKey::Nsecs: builder.set_nsecs(integer(k, "header.stamp.", nodes_[k].key)); break;
        case StampKey::Unknown: break;
      }
    }
  }
}

void RosYamlDocument::fill_time(std::uint32_t id, MessageBuilder& builder) {
  const Node& n = nodes_[id];
  Time t;
  if (n.kind == Node::Null || (n.kind == Node::Scalar && !n.quoted && (n.text == "null" || n.text == "~"))) {
    builder.set_t_null();
    return;
  }
  if (n.kind == Node::Scalar && !n.quoted) {
    switch (parse_time(n.text, t)) {
      case TimeParseStatus::ok: builder.set_t(t); return;
      case TimeParseStatus::out_of_range:
        throw Failure{n.pos, fmt::format("'t': '{}' is beyond the range of times (±9223372036.854775807 s)", n.text)};
      case TimeParseStatus::invalid: break;
    }
    double v = 0;
    if (yaml_double(n.text, v) == NumberStatus::Ok && std::isnan(v)) {
      builder.set_t_null();  // a NaN time is no time
      return;
    }
  }
  (void)number(id, "t", 0);  // throws the number's error
  throw Failure{n.pos, fmt::format("'t': '{}' is not a time in seconds", n.text)};
}

void RosYamlDocument::fill_message(std::uint32_t root, MessageBuilder& builder) {
  for (std::uint32_t c = nodes_[root].first; c != kNone; c = nodes_[c].next) {
    const Node& e = nodes_[c];
    switch (classify_key(e.key)) {
      case Key::Name: fill_strings(c, "name", builder.begin_names()); break;
      case Key::Contact: fill_strings(c, "contact", builder.begin_contacts()); break;
      case Key::Position: fill_numbers(c, "position", builder.begin_numbers(Key::Position)); break;
      case Key::Velocity: fill_numbers(c, "velocity", builder.begin_numbers(Key::Velocity)); break;
      case Key::Effort: fill_numbers(c, "effort", builder.begin_numbers(Key::Effort)); break;
      case Key::Support: fill_numbers(c, "support", builder.begin_numbers(Key::Support)); break;
      case Key::T: fill_time(c, builder); break;
      case Key::Cycle: builder.set_cycle(integer(c, "", "cycle")); break;
      case Key::Sync:
        if (e.kind != Node::Scalar || e.quoted || (e.text != "true" && e.text != "false"))
          throw Failure{e.pos, "'sync': expected true"};
        builder.set_sync(e.text == "true");
        break;
      case Key::Header: fill_header(c, builder); break;
      case Key::Trajectory:
      case Key::Unknown: break;
    }
  }
  if (const char* why = builder.finish()) throw Failure{nodes_[root].pos, why};
}

void RosYamlDocument::to_json(std::uint32_t id, std::string& out) const {
  const Node& n = nodes_[id];
  switch (n.kind) {
    case Node::Null: out += "null"; return;
    case Node::Scalar: {
      if (n.quoted) {
        append_json_string(out, n.text);
        return;
      }
      if (n.text == "true" || n.text == "false") {
        out += n.text;
        return;
      }
      bool integral = false;
      const char* b = n.text.data();
      const char* e = b + n.text.size();
      if (scan_json_number(b, e, integral) == e) {
        out += n.text;
        return;
      }
      double v = 0;
      if (yaml_double(n.text, v) == NumberStatus::Ok) {
        if (std::isfinite(v)) fmt::format_to(std::back_inserter(out), "{}", v);
        else out += "null";  // JSON has no NaN or infinity: read back as NaN
        return;
      }
      append_json_string(out, n.text);
      return;
    }
    case Node::Seq:
    case Node::Map: {
      const bool map = n.kind == Node::Map;
      out += map ? '{' : '[';
      for (std::uint32_t c = n.first; c != kNone; c = nodes_[c].next) {
        if (c != n.first) out += ',';
        if (map) {
          append_json_string(out, nodes_[c].key);
          out += ':';
        }
        to_json(c, out);
      }
      out += map ? '}' : ']';
      return;
    }
  }
}

RosYamlDocument::Result RosYamlDocument::parse(MessageBuilder& builder, Message& out, std::vector<PendingItem>& pending,
                                               ReadError& error) {
  nodes_.clear();
  pos_ = 0;
  depth_ = 0;
  Result result = Result::Nothing;
  const std::size_t first = first_line();
  try {
    if (next_content()) {
      const std::uint32_t root = parse_block();
      if (next_content()) throw Failure{pos_, "unexpected text after the message (a missing '---'?)"};
      const Node& r = nodes_[root];
      if (r.kind != Node::Map)
        throw Failure{r.pos, fmt::format("expected a message ('key: value' lines), got {}",
                                         r.kind == Node::Seq ? "a list" : r.kind == Node::Scalar ? describe(r.text, true)
                                                                                                : "nothing")};
      bool trajectory = false;
      for (std::uint32_t c = r.first; c != kNone; c = nodes_[c].next)
        trajectory = trajectory || classify_key(nodes_[c].key) == Key::Trajectory;
      if (trajectory) {
        std::string json;
        to_json(root, json);
        expand_trajectory(json, first, pending);
        result = Result::Pending;
      } else {
        builder.begin(out);
        fill_message(root, builder);
        out.line = first;
        out.item = 0;
        result = Result::Message;
      }
    }
  } catch (Failure& f) {
    error.line = line_of(f.pos);
    error.item = 0;
    error.byte_offset.reset();
    error.reason = std::move(f.reason);
    result = Result::Error;
  }
  clear();
  return result;
}

}  // namespace rmodel::io::detail
