// An SRDF's allowed-collision matrix (`<disable_collisions>`): written, and replaced in the
// text of an SRDF with every other byte kept. Reading it is the semantics' (Semantics::collisions,
// model/semantics_srdf.cpp).
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "rmodel/collision/collision.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/base/xml_text.hpp"

namespace rmodel::collision {
namespace {

/// An attribute value of the SRDF (rmodel/base/xml_text.hpp).
std::string escaped(std::string_view text) { return xml_escaped(text, XmlPlace::attribute); }

bool starts(std::string_view text, std::size_t at, std::string_view with) { return text.substr(at, with.size()) == with; }

/// The element layout of an SRDF text, as far as the matrix needs it.
struct Layout {
  struct Span {
    std::size_t begin, end;  ///< [begin, end) of the element's text
  };
  std::vector<Span> entries;                 ///< <disable_collisions> children of the root
  std::size_t first_child = std::string::npos;  ///< start of the root's first child element
  std::size_t root_end = std::string::npos;     ///< start of the root's end tag
};

/// Scans the markup: comments, CDATA, processing instructions and declarations are skipped,
/// quoted attribute values are honoured.
Layout scan(std::string_view text) {
  Layout out;
  int depth = 0;
  std::size_t open_entry = std::string::npos;  // a <disable_collisions> with content, open
  std::size_t i = 0;
  const std::size_t n = text.size();
  auto skip_to = [&](std::string_view end) {
    const std::size_t at = text.find(end, i);
    i = at == std::string_view::npos ? n : at + end.size();
  };
  while (i < n) {
    if (text[i] != '<') {
      ++i;
      continue;
    }
    if (starts(text, i, "<!--")) {
      skip_to("-->");
    } else if (starts(text, i, "<![CDATA[")) {
      skip_to("]]>");
    } else if (starts(text, i, "<?")) {
      skip_to("?>");
    } else if (starts(text, i, "<!")) {
      skip_to(">");
    } else if (starts(text, i, "</")) {
      const std::size_t start = i;
      skip_to(">");
      --depth;
      if (depth == 1 && open_entry != std::string::npos) {
        out.entries.push_back({open_entry, i});
        open_entry = std::string::npos;
      }
      if (depth == 0 && out.root_end == std::string::npos) out.root_end = start;
    } else {
      const std::size_t start = i;
      std::size_t name_end = i + 1;
      while (name_end < n && text[name_end] != ' ' && text[name_end] != '\t' && text[name_end] != '\n' &&
             text[name_end] != '\r' && text[name_end] != '/' && text[name_end] != '>')
        ++name_end;
      const std::string_view name = text.substr(i + 1, name_end - i - 1);
      char quote = 0;
      i = name_end;
      while (i < n && (quote != 0 || text[i] != '>')) {
        if (quote != 0 && text[i] == quote) quote = 0;
        else if (quote == 0 && (text[i] == '"' || text[i] == '\'')) quote = text[i];
        ++i;
      }
      const bool empty = i > 0 && i < n && text[i - 1] == '/';
      i = std::min(n, i + 1);
      if (depth == 1 && out.first_child == std::string::npos) out.first_child = start;
      if (depth == 1 && name == "disable_collisions") {
        if (empty) out.entries.push_back({start, i});
        else open_entry = start;
      }
      if (!empty) ++depth;
    }
  }
  return out;
}

/// The white space before `at` on its line, when only white space precedes it there.
std::string_view indentation(std::string_view text, std::size_t at, bool* line_start) {
  std::size_t b = at;
  while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) --b;
  *line_start = b == 0 || text[b - 1] == '\n';
  return text.substr(b, at - b);
}

}  // namespace

std::string disable_collisions_xml(std::span<const DisabledPair> entries, std::string_view indent) {
  std::string out;
  for (const auto& e : entries)
    out += fmt::format("{}<disable_collisions link1=\"{}\" link2=\"{}\" reason=\"{}\"/>\n", indent, escaped(e.link1),
                       escaped(e.link2), escaped(e.reason));
  return out;
}

std::string replace_disabled_collisions(const std::string& srdf_text, std::span<const DisabledPair> entries) {
  const std::string_view text = srdf_text;
  const Layout layout = scan(text);
  if (layout.root_end == std::string::npos)
    throw ParseError({"<srdf>", 0}, "no end tag of the root element: not an SRDF document");
  // The new entries, written as the document writes its lines: indentation, line ends, and
  // " />" when its entries end so (MoveIt 1's writer) rather than "/>" (MoveIt 2's).
  std::size_t anchor = layout.entries.empty() ? layout.first_child : layout.entries.front().begin;
  if (anchor == std::string::npos) anchor = layout.root_end;
  bool line_start = false;
  std::string indent(indentation(text, anchor, &line_start));
  if (!line_start) indent = "  ";
  const std::size_t eol_at = text.find('\n', anchor);
  const std::string eol = eol_at != std::string::npos && eol_at > 0 && text[eol_at - 1] == '\r' ? "\r\n" : "\n";
  const bool spaced = !layout.entries.empty() && layout.entries.front().end >= 3 &&
                      text.substr(layout.entries.front().end - 3, 3) == " />";
  std::string block;
  for (const auto& e : entries)
    block += fmt::format("{}<disable_collisions link1=\"{}\" link2=\"{}\" reason=\"{}\"{}{}", indent,
                         escaped(e.link1), escaped(e.link2), escaped(e.reason), spaced ? " />" : "/>", eol);
  std::string out;
  if (layout.entries.empty()) {
    // Before the root's end tag, on lines of their own.
    bool end_at_line_start = false;
    const std::string_view before = indentation(text, layout.root_end, &end_at_line_start);
    const std::size_t at = end_at_line_start ? layout.root_end - before.size() : layout.root_end;
    out.append(text.substr(0, at));
    if (!end_at_line_start) out += eol;
    out += block;
    out.append(text.substr(at));
    return out;
  }
  // Each old entry goes with its line when it stands alone on it; the new ones go where the
  // first stood.
  std::size_t copied = 0;
  bool placed = false;
  for (const auto& e : layout.entries) {
    bool alone = false;
    const std::string_view lead = indentation(text, e.begin, &alone);
    std::size_t begin = e.begin, end = e.end;
    if (alone) {
      std::size_t after = end;
      while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
      if (after == text.size() || text[after] == '\n' || starts(text, after, "\r\n")) {
        begin -= lead.size();
        end = after == text.size() ? after : after + (text[after] == '\n' ? 1 : 2);
      } else {
        alone = false;
      }
    }
    out.append(text.substr(copied, begin - copied));
    if (!placed) {
      if (alone || block.empty()) {
        out += block;
      } else {  // in the middle of a line: the block without its first indentation and last line end
        std::string inline_block = block.substr(indent.size());
        inline_block.resize(inline_block.size() - eol.size());
        out += inline_block;
      }
      placed = true;
    }
    copied = end;
  }
  out.append(text.substr(copied));
  return out;
}

}  // namespace rmodel::collision
