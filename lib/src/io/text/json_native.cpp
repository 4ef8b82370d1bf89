// rmodel's own JSON message parser: one pass over the text, strict RFC 8259 grammar,
// values written straight into the Message through MessageBuilder. Chosen for the hot path
// by measurement (tests/bench/bench_io.cpp).

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "io/read/builder.hpp"
#include "io/text/json_escape.hpp"
#include "io/text/numbers.hpp"
#include "io/read/parsers.hpp"

namespace rmodel::io::detail {

const char* describe_token(const char* p, const char* end) noexcept {
  if (p >= end) return "end of input";
  switch (*p) {
    case '"': return "a string";
    case '{': return "an object";
    case '[': return "an array";
    case 't':
    case 'f':
      if ((end - p >= 4 && std::memcmp(p, "true", 4) == 0) ||
          (end - p >= 5 && std::memcmp(p, "false", 5) == 0))
        return "a boolean";
      return "an unexpected character";
    case 'n': return end - p >= 4 && std::memcmp(p, "null", 4) == 0 ? "null" : "an unexpected character";
    case '-': return "a number";
    case ']': return "']'";
    case '}': return "'}'";
    case ',': return "','";
    case ':': return "':'";
    default: break;
  }
  if (is_digit(*p)) return "a number";
  return "an unexpected character";
}

std::size_t scan_value_end(std::string_view text, std::size_t pos) noexcept {
  const std::size_t n = text.size();
  if (pos >= n) return std::string_view::npos;
  const char c0 = text[pos];
  if (c0 != '{' && c0 != '[' && c0 != '"') {
    std::size_t i = pos;
    while (i < n) {
      const char c = text[i];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}')
        break;
      ++i;
    }
    return i;
  }
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = pos; i < n; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
        if (depth == 0) return i + 1;
      }
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '{':
      case '[': ++depth; break;
      case '}':
      case ']':
        if (depth == 0) return std::string_view::npos;
        if (--depth == 0) return i + 1;
        break;
      default: break;
    }
  }
  return std::string_view::npos;
}

namespace {

constexpr int kMaxDepth = 64;

inline bool is_ws(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }



void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class NativeParser final : public JsonMessageParser {
public:
  ParseStatus parse(std::string_view text, std::size_t capacity, MessageBuilder& b,
                    ParseFailure& failure) override {
    begin_ = p_ = text.data();
    end_ = text.data() + text.size();
    readable_end_ = text.data() + std::max(capacity, text.size());
    failure_ = &failure;
    skip_ws();
    if (p_ < end_ && *p_ == '[') return ParseStatus::Document;
    if (p_ >= end_ || *p_ != '{') {
      fail(fmt::format("expected a JSON object, got {}", describe_token(p_, end_)));
      return ParseStatus::Error;
    }
    ParseStatus st = parse_fields(b);
    if (st != ParseStatus::Ok) return st;
    skip_ws();
    if (p_ != end_) {
      fail("unexpected text after the message");
      return ParseStatus::Error;
    }
    if (const char* why = b.finish()) {
      failure.offset = 0;
      failure.reason = why;
      return ParseStatus::Error;
    }
    return ParseStatus::Ok;
  }

private:
  const char* begin_ = nullptr;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  const char* readable_end_ = nullptr;  // bytes past end_ that may be read (padding)
  ParseFailure* failure_ = nullptr;
  std::string scratch_;

  // Forced inline with a one-compare exit: compact JSON has no blanks, and the call
  // itself cost more than the test on the per-message path.
  [[gnu::always_inline]] void skip_ws() noexcept {
    if (p_ < end_ && static_cast<unsigned char>(*p_) > ' ') return;
    while (p_ < end_ && is_ws(*p_)) ++p_;
  }
  bool fail(std::string reason) {
    failure_->offset = static_cast<std::size_t>(p_ - begin_);
    failure_->reason = std::move(reason);
    return false;
  }
  bool fail_at(const char* at, std::string reason) {
    p_ = at;
    return fail(std::move(reason));
  }
  bool expect(char c, const char* what) {
    skip_ws();
    if (p_ < end_ && *p_ == c) {
      ++p_;
      return true;
    }
    return fail(fmt::format("expected {}, got {}", what, describe_token(p_, end_)));
  }

  // Reads a string at p_ (which must be '"'); `out` views the text or scratch_.
  bool parse_string(std::string_view& out) {
    const char* s = ++p_;
    if constexpr (std::endian::native == std::endian::little) {
      // 8 bytes at a time up to the first that needs a look ('"', '\\' or a control
      // character); the loop below then handles it.
      while (end_ - p_ >= 8) {
        std::uint64_t v;
        std::memcpy(&v, p_, 8);
        const std::uint64_t special = json_special_bytes8(v);
        if (special != 0) {
          p_ += __builtin_ctzll(special) / 8;
          break;
        }
        p_ += 8;
      }
    }
    while (p_ < end_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        out = std::string_view(s, static_cast<std::size_t>(p_ - s));
        ++p_;
        return true;
      }
      if (c == '\\') return parse_string_slow(s, out);
      if (c < 0x20) return fail("control character in a string (must be escaped)");
      ++p_;
    }
    return fail_at(s - 1, "unterminated string");
  }

  bool parse_string_slow(const char* s, std::string_view& out) {
    scratch_.assign(s, p_);
    while (p_ < end_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        out = scratch_;
        return true;
      }
      if (c < 0x20) return fail("control character in a string (must be escaped)");
      if (c != '\\') {
        scratch_.push_back(static_cast<char>(c));
        ++p_;
        continue;
      }
      if (++p_ >= end_) break;
      switch (*p_) {
        case '"': scratch_.push_back('"'); break;
        case '\\': scratch_.push_back('\\'); break;
        case '/': scratch_.push_back('/'); break;
        case 'b': scratch_.push_back('\b'); break;
        case 'f': scratch_.push_back('\f'); break;
        case 'n': scratch_.push_back('\n'); break;
        case 'r': scratch_.push_back('\r'); break;
        case 't': scratch_.push_back('\t'); break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!read_hex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            std::uint32_t lo = 0;
            if (end_ - p_ < 3 || p_[1] != '\\' || p_[2] != 'u')
              return fail("unpaired UTF-16 surrogate in \\u escape");
            p_ += 2;
            if (!read_hex4(lo)) return false;
            if (lo < 0xDC00 || lo > 0xDFFF) return fail("unpaired UTF-16 surrogate in \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return fail("unpaired UTF-16 surrogate in \\u escape");
          }
          append_utf8(scratch_, cp);
          break;
        }
        default: return fail("invalid escape in a string");
      }
      ++p_;
    }
    return fail_at(s - 1, "unterminated string");
  }

  // p_ at 'u'; reads 4 hex digits, leaves p_ on the last one.
  bool read_hex4(std::uint32_t& cp) {
    if (end_ - p_ < 5) return fail("truncated \\u escape");
    cp = 0;
    for (int i = 1; i <= 4; ++i) {
      const int h = hex_digit_value(p_[i]);
      if (h < 0) return fail("invalid \\u escape");
      cp = cp * 16 + static_cast<std::uint32_t>(h);
    }
    p_ += 4;
    return true;
  }

  // Reads a number (or null → NaN when allowed) at p_.
  bool parse_double(double& out, std::string_view key, std::size_t index, bool in_array) {
    if (p_ < end_ && *p_ == 'n') {
      if (end_ - p_ >= 4 && std::memcmp(p_, "null", 4) == 0) {
        p_ += 4;
        out = std::numeric_limits<double>::quiet_NaN();
        return true;
      }
    }
    NumberStatus st;
    if (const char* e = parse_json_double(p_, end_, readable_end_, out, st)) {
      p_ = e;
      return true;
    }
    const std::string where = in_array ? fmt::format("'{}' element {}", key, index + 1)
                                       : fmt::format("'{}'", key);
    if (st == NumberStatus::Overflow)
      return fail(where + ": number out of the range of double");
    if (p_ < end_ && (*p_ == '-' || is_digit(*p_))) return fail(where + ": invalid number");
    return fail(element_error(key, index, in_array, "a number"));
  }

  std::string element_error(std::string_view key, std::size_t index, bool in_array,
                            const char* expected) {
    if (in_array)
      return fmt::format("'{}' element {}: expected {}, got {}", key, index + 1, expected,
                         describe_token(p_, end_));
    return fmt::format("'{}': expected {}, got {}", key, expected, describe_token(p_, end_));
  }

  bool parse_int(std::int64_t& out, std::string_view key) {
    bool integral = false;
    const char* e = scan_json_number(p_, end_, integral);
    if (!e) return fail(element_error(key, 0, false, "an integer"));
    if (!integral) return fail(fmt::format("'{}': expected an integer, got a fraction", key));
    if (!to_int64(p_, e, out)) return fail(fmt::format("'{}': integer out of range", key));
    p_ = e;
    return true;
  }

  // Walks the array at p_ ('['), calling read_element(i) with p_ on element i, which must
  // consume it. `what` names the expected array ("numbers", "strings") in errors. Forced
  // inline: on the per-message path, an out-of-line copy cost ~70 instructions a message.
  template <class ReadElement>
  [[gnu::always_inline]] bool parse_array(std::string_view key, std::string_view what, ReadElement&& read_element) {
    if (p_ >= end_ || *p_ != '[')
      return fail(fmt::format("'{}': expected an array of {}, got {}", key, what, describe_token(p_, end_)));
    ++p_;
    skip_ws();
    if (p_ < end_ && *p_ == ']') {
      ++p_;
      return true;
    }
    for (std::size_t i = 0;; ++i) {
      if (!read_element(i)) return false;
      skip_ws();
      if (p_ < end_ && *p_ == ',') {
        ++p_;
        skip_ws();
        continue;
      }
      if (p_ < end_ && *p_ == ']') {
        ++p_;
        return true;
      }
      return fail(fmt::format("'{}': expected ',' or ']' after element {}, got {}", key, i + 1,
                              describe_token(p_, end_)));
    }
  }

  bool parse_number_array(std::vector<double>& v, std::string_view key) {
    return parse_array(key, "numbers", [&](std::size_t i) {
      double x;
      if (!parse_double(x, key, i, true)) return false;
      v.push_back(x);
      return true;
    });
  }

  bool parse_string_array(StringListSink& sink, std::string_view key) {
    return parse_array(key, "strings", [&](std::size_t i) {
      if (p_ >= end_ || *p_ != '"') return fail(element_error(key, i, true, "a string"));
      std::string_view s;
      if (!parse_string(s)) return false;
      sink.push(s);
      return true;
    });
  }

  // Iterates the members of an object at p_ ('{'); calls f(key) with p_ on the value, which
  // must consume it. The key view stays valid until the value is read.
  template <class F>
  bool for_each_member(std::string_view what, F&& f) {
    if (p_ >= end_ || *p_ != '{')
      return fail(fmt::format("'{}': expected an object, got {}", what, describe_token(p_, end_)));
    ++p_;
    skip_ws();
    if (p_ < end_ && *p_ == '}') {
      ++p_;
      return true;
    }
    for (;;) {
      if (p_ >= end_ || *p_ != '"')
        return fail(fmt::format("expected a member name (a string), got {}",
                                describe_token(p_, end_)));
      std::string_view key;
      if (!parse_string(key)) return false;
      if (!expect(':', "':' after a member name")) return false;
      skip_ws();
      if (!f(key)) return false;
      skip_ws();
      if (p_ < end_ && *p_ == ',') {
        ++p_;
        skip_ws();
        continue;
      }
      if (p_ < end_ && *p_ == '}') {
        ++p_;
        return true;
      }
      return fail(fmt::format("expected ',' or '}}' after a member, got {}",
                              describe_token(p_, end_)));
    }
  }

  bool skip_value(int depth) {
    if (depth > kMaxDepth) return fail("nesting too deep");
    if (p_ >= end_) return fail("expected a value, got end of input");
    switch (*p_) {
      case '"': {
        std::string_view s;
        return parse_string(s);
      }
      case '{':
        return for_each_member("value", [&](std::string_view) { return skip_value(depth + 1); });
      case '[':
        return parse_array("value", "values", [&](std::size_t) { return skip_value(depth + 1); });
      case 't': return literal("true");
      case 'f': return literal("false");
      case 'n': return literal("null");
      default: {
        bool integral = false;
        const char* e = scan_json_number(p_, end_, integral);
        if (!e) return fail(fmt::format("expected a value, got {}", describe_token(p_, end_)));
        p_ = e;
        return true;
      }
    }
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) >= word.size() &&
        std::memcmp(p_, word.data(), word.size()) == 0) {
      p_ += word.size();
      return true;
    }
    return fail("invalid literal (expected true, false or null)");
  }

  // `t`: decimal seconds read exactly into nanoseconds (never through a double), or null.
  bool parse_time_value(MessageBuilder& b) {
    if (end_ - p_ >= 4 && std::memcmp(p_, "null", 4) == 0) {
      p_ += 4;
      b.set_t_null();
      return true;
    }
    bool integral = false;
    const char* e = scan_json_number(p_, end_, integral);
    if (!e) return fail(element_error("t", 0, false, "a number"));
    Time t;
    switch (parse_time(std::string_view(p_, static_cast<std::size_t>(e - p_)), t)) {
      case TimeParseStatus::ok: break;
      case TimeParseStatus::invalid: return fail("'t': invalid number");
      case TimeParseStatus::out_of_range:
        return fail("'t': beyond the range of times (±9223372036.854775807 s)");
    }
    p_ = e;
    b.set_t(t);
    return true;
  }

  bool parse_header(MessageBuilder& b) {
    return for_each_member("header", [&](std::string_view key) {
      if (key != "stamp") return skip_value(2);
      return for_each_member("header.stamp", [&](std::string_view k) {
        std::int64_t v = 0;
        switch (classify_stamp_key(k)) {
          case StampKey::Secs:
            if (!parse_int(v, "header.stamp.secs")) return false;
            b.set_secs(v);
            return true;
          case StampKey::Nsecs:
            if (!parse_int(v, "header.stamp.nsecs")) return false;
            b.set_nsecs(v);
            return true;
          case StampKey::Unknown: break;
        }
        return skip_value(3);
      });
    });
  }

  ParseStatus parse_fields(MessageBuilder& b) {
    bool document = false;
    const bool ok = for_each_member("message", [&](std::string_view key) {
      switch (classify_key(key)) {
        case Key::Name: return parse_string_array(b.begin_names(), "name");
        case Key::Contact: return parse_string_array(b.begin_contacts(), "contact");
        case Key::Position: return parse_number_array(b.begin_numbers(Key::Position), "position");
        case Key::Velocity: return parse_number_array(b.begin_numbers(Key::Velocity), "velocity");
        case Key::Effort: return parse_number_array(b.begin_numbers(Key::Effort), "effort");
        case Key::Support: return parse_number_array(b.begin_numbers(Key::Support), "support");
        case Key::T: return parse_time_value(b);
        case Key::Cycle: {
          std::int64_t c;
          if (!parse_int(c, "cycle")) return false;
          b.set_cycle(c);
          return true;
        }
        case Key::Sync:
          if (end_ - p_ >= 4 && std::memcmp(p_, "true", 4) == 0) {
            p_ += 4;
            b.set_sync(true);
            return true;
          }
          if (end_ - p_ >= 5 && std::memcmp(p_, "false", 5) == 0) {
            p_ += 5;
            b.set_sync(false);
            return true;
          }
          return fail(fmt::format("'sync': expected true, got {}", describe_token(p_, end_)));
        case Key::Header: return parse_header(b);
        case Key::Trajectory: document = true; return false;
        case Key::Unknown: break;
      }
      return skip_value(1);
    });
    if (document) return ParseStatus::Document;
    return ok ? ParseStatus::Ok : ParseStatus::Error;
  }
};

}  // namespace

std::unique_ptr<JsonMessageParser> make_native_parser() { return std::make_unique<NativeParser>(); }

}  // namespace rmodel::io::detail
