#include "xacro/params.hpp"

#include "xacro/value.hpp"

namespace rmodel::xacro {

std::size_t python_space(std::string_view s, std::size_t k) noexcept {
  if (k >= s.size()) return 0;
  const auto c = static_cast<unsigned char>(s[k]);
  if (c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f)) return 1;
  auto at = [&](std::size_t i) { return k + i < s.size() ? static_cast<unsigned char>(s[k + i]) : 0; };
  if (c == 0xc2 && (at(1) == 0x85 || at(1) == 0xa0)) return 2;                       // U+0085, U+00A0
  if (c == 0xe1 && at(1) == 0x9a && at(2) == 0x80) return 3;                         // U+1680
  if (c == 0xe2 && at(1) == 0x80 && ((at(2) >= 0x80 && at(2) <= 0x8a) || at(2) == 0xa8 || at(2) == 0xa9 ||
                                     at(2) == 0xaf))
    return 3;                                                                        // U+2000-200A, 2028, 2029, 202F
  if (c == 0xe2 && at(1) == 0x81 && at(2) == 0x9f) return 3;                         // U+205F
  if (c == 0xe3 && at(1) == 0x80 && at(2) == 0x80) return 3;                         // U+3000
  return 0;
}

namespace {

constexpr std::size_t kNone = std::string_view::npos;

/// The matcher of xacro's re_macro_arg over one params text:
///   ^\s*([^\s:=]+?)\s*:?=\s*(\^\|?)?(DEFAULT)(?:\s+|$)(.*)
///   DEFAULT = \$\{.*?\}|\$\(.*?\)|(?:'.*?'|".*?"|[^\s'"]+)+|(empty)
/// Python tries the alternatives in order and backtracks; what it finds first is computed
/// here from tables built once, right to left:
/// - after the default there must be a blank or the end (`(?:\s+|$)`; `(.*)` always matches);
/// - `\$\{.*?\}` ends at the first '}' of the line that a blank or the end follows;
/// - in the run of quoted and unquoted pieces, an unquoted piece ending inside a run of
///   unquoted text can only lead back into that run, so a piece takes the whole run; a quoted
///   piece ends at the first closing quote of the line from which the rest of the run
///   succeeds (`.*?` is lazy, and `.` stops at a newline).
class ParamsMatcher {
public:
  explicit ParamsMatcher(std::string_view s) : s_(s), run_(s.size() + 1, kNone), brace_(s.size() + 1, kNone),
                                               paren_(s.size() + 1, kNone) {
    const std::size_t n = s.size();
    run_[n] = n;
    std::size_t after_single = kNone, after_double = kNone;  // first usable closing quote to the right
    for (std::size_t p = n; p-- > 0;) {
      const char c = s[p];
      if (c == '\n') after_single = after_double = kNone;
      if (python_space(s, p) > 0) {
        run_[p] = p;
      } else if (c == '\'' || c == '"') {
        const std::size_t close = c == '\'' ? after_single : after_double;
        run_[p] = close == kNone ? kNone : run_[close + 1];
      } else {
        run_[p] = run_[p + 1];
      }
      // this quote, as the closing quote of a piece opened further left
      if (c == '\'' && run_[p + 1] != kNone) after_single = p;
      if (c == '"' && run_[p + 1] != kNone) after_double = p;
      brace_[p] = c == '\n' ? kNone : (c == '}' && ends(p + 1)) ? p + 1 : brace_[p + 1];
      paren_[p] = c == '\n' ? kNone : (c == ')' && ends(p + 1)) ? p + 1 : paren_[p + 1];
    }
  }

  /// A blank or the end at `q`: the default may end there.
  [[nodiscard]] bool ends(std::size_t q) const { return q >= s_.size() || python_space(s_, q) > 0; }

  /// Where the default starting at `p` ends, or kNone.
  [[nodiscard]] std::size_t default_end(std::size_t p) const {
    if (s_.substr(p, 2) == "${" && brace_[p + 2] != kNone) return brace_[p + 2];
    if (s_.substr(p, 2) == "$(" && paren_[p + 2] != kNone) return paren_[p + 2];
    if (p < s_.size() && python_space(s_, p) == 0 && run_[p] != kNone) return run_[p];  // at least one piece
    return ends(p) ? p : kNone;
  }

  std::size_t skip_space(std::size_t k, std::size_t limit) const {
    while (k < limit) {
      const std::size_t w = python_space(s_, k);
      if (w == 0) break;
      k += w;
    }
    return k;
  }

private:
  std::string_view s_;
  std::vector<std::size_t> run_;    ///< where a run of pieces starting here ends (kNone: cannot end)
  std::vector<std::size_t> brace_;  ///< the end of `.*?\}` from here, when a blank or the end follows
  std::vector<std::size_t> paren_;  ///< the same for `.*?\)`
};

}  // namespace

std::vector<MacroParam> parse_macro_params(std::string_view s) {
  std::vector<MacroParam> out;
  const ParamsMatcher m(s);
  std::size_t at = 0, limit = s.size();  // the text still to read is s[at, limit)
  while (at < limit) {
    MacroParam p;
    const std::size_t start = m.skip_space(at, limit);
    std::size_t k = start;
    while (k < limit && python_space(s, k) == 0 && s[k] != ':' && s[k] != '=') ++k;
    const std::size_t name_end = k;
    k = m.skip_space(k, limit);
    if (k < limit && s[k] == ':') ++k;
    bool matched = false;
    if (name_end > start && k < limit && s[k] == '=') {
      const std::size_t blank_from = k + 1;
      const std::size_t w = m.skip_space(blank_from, limit);
      // (\^\|?)? is greedy: "^|", then "^", then nothing
      std::size_t options[3] = {kNone, kNone, w};
      if (s.substr(w, 2) == "^|" && w + 2 <= limit) options[0] = w + 2;
      if (w < limit && s[w] == '^') options[1] = w + 1;
      for (const std::size_t d : options) {
        if (d == kNone) continue;
        const std::size_t q = m.default_end(d);
        if (q == kNone || q > limit) continue;
        p.forward = d != w;
        if (q > d) p.default_text = std::string(s.substr(d, q - d));
        at = m.skip_space(q, limit);
        matched = true;
        break;
      }
      if (!matched && w > blank_from) {
        // \s* gives back its last blank: an empty default, which that blank ends
        at = w;
        matched = true;
      }
      if (matched) {
        // (.*) stops at a newline: what follows it is not read, as in xacro
        const std::size_t newline = s.find('\n', at);
        if (newline != std::string_view::npos && newline < limit) limit = newline;
      }
    }
    if (matched) {
      p.name = std::string(s.substr(start, name_end - start));
    } else {
      // no default at all: s.lstrip().split(None, 1)
      if (start >= limit) throw EvalError{"a macro's params holds blanks only (xacro fails on it)"};
      std::size_t word_end = start;
      while (word_end < limit && python_space(s, word_end) == 0) ++word_end;
      p.name = std::string(s.substr(start, word_end - start));
      at = m.skip_space(word_end, limit);
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace rmodel::xacro
