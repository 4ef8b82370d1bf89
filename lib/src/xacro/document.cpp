#include "xacro/document.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include <tinyxml2.h>

#include "base/xml_error.hpp"
#include "rmodel/base/xml_text.hpp"

namespace rmodel::xacro {
namespace {

// ---- blank texts
//
// tinyxml2 drops a text of blanks only between two tags; xacro (Python's minidom) keeps it,
// and what it holds decides which comments xacro drops before its tags and where it puts the
// blank text that stops that (remove_previous_comments). Such texts inside the root are given
// a mark tinyxml2 keeps (U+FDD0, a noncharacter that XML allows and no text begins with)
// and that the conversion takes off again.
constexpr std::string_view kBlankMark = "\xEF\xB7\x90";

/// What expat (Python's XML parser, which xacro reads with) refuses and tinyxml2 takes: a
/// '<' in an attribute value, a '&' that starts no reference to one of XML's five entities
/// or to a character. The offset of the first, with expat's words, or npos.
struct MarkupProblem {
  std::size_t at = std::string_view::npos;
  std::string message;
};

bool xml_char(unsigned long c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

/// Checks the references of `part` (text or an attribute value starting at `offset`).
void check_references(std::string_view part, std::size_t offset, bool attribute, bool has_dtd, MarkupProblem& problem) {
  if (problem.at != std::string_view::npos) return;
  for (std::size_t k = part.find_first_of(attribute ? "<&" : "&"); k < part.size();
       k = part.find_first_of(attribute ? "<&" : "&", k + 1)) {
    if (attribute && part[k] == '<') {
      problem = {offset + k, "not well-formed (invalid token): '<' in an attribute value (write &lt;)"};
      return;
    }
    if (part[k] != '&') continue;
    const std::size_t semicolon = part.find(';', k + 1);
    const std::string_view name =
        semicolon == std::string_view::npos ? std::string_view() : part.substr(k + 1, semicolon - k - 1);
    bool ok = false;
    if (name.size() > 1 && name[0] == '#') {
      const bool hex = name[1] == 'x';
      const std::string_view digits = name.substr(hex ? 2 : 1);
      unsigned long value = 0;
      ok = !digits.empty() && digits.size() <= 8;
      for (const char c : digits) {
        const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                      : hex && std::isxdigit(static_cast<unsigned char>(c))
                          ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                          : -1;
        if (d < 0) ok = false;
        else value = value * (hex ? 16 : 10) + static_cast<unsigned long>(d);
      }
      if (ok && !xml_char(value)) {
        problem = {offset + k, "reference to invalid character number"};
        return;
      }
    } else if (!name.empty()) {
      ok = name == "lt" || name == "gt" || name == "amp" || name == "apos" || name == "quot";
      const bool is_name = name.find_first_of(" \t\r\n<&\"'") == std::string_view::npos;
      if (!ok && is_name && has_dtd) ok = true;  // an entity a DOCTYPE may declare
      if (!ok && is_name) {
        problem = {offset + k, "undefined entity &" + std::string(name) + ";"};
        return;
      }
    }
    if (!ok) {
      problem = {offset + k, "not well-formed (invalid token): a '&' that starts no reference (write &amp;)"};
      return;
    }
  }
}

std::string mark_blank_texts(std::string_view t, MarkupProblem& problem) {
  std::string out;
  out.reserve(t.size() + t.size() / 8);
  constexpr auto npos = std::string_view::npos;
  auto past = [&](std::size_t at, std::string_view end) {
    const std::size_t e = t.find(end, at);
    return e == npos ? t.size() : e + end.size();
  };
  int depth = 0;
  bool has_dtd = false;
  std::size_t k = 0;
  while (k < t.size()) {
    if (t[k] != '<') {
      const std::size_t e = std::min(t.find('<', k), t.size());
      const std::string_view text = t.substr(k, e - k);
      if (depth > 0 && e < t.size() && text.find_first_not_of(" \t\r\n") == npos) out += kBlankMark;
      if (depth > 0) check_references(text, k, false, has_dtd, problem);
      out += text;
      k = e;
      continue;
    }
    std::size_t e = 0;
    if (t.substr(k, 4) == "<!--") {
      e = past(k + 4, "-->");
    } else if (t.substr(k, 9) == "<![CDATA[") {
      e = past(k + 9, "]]>");
    } else if (t.substr(k, 2) == "<?") {
      e = past(k + 2, "?>");
    } else {
      // a tag or a declaration (<!DOCTYPE ... [ ... ]>): to its '>', quotes and brackets aside
      const bool declaration = t.substr(k, 2) == "<!";
      if (declaration) has_dtd = true;
      char quote = 0;
      std::size_t value_start = 0;
      int brackets = 0;
      for (e = k + 1; e < t.size(); ++e) {
        const char c = t[e];
        if (quote) {
          if (c == quote) {
            quote = 0;
            if (!declaration) check_references(t.substr(value_start, e - value_start), value_start, true, has_dtd, problem);
          }
        } else if (c == '"' || c == '\'') {
          quote = c;
          value_start = e + 1;
        } else if (declaration && c == '[') {
          ++brackets;
        } else if (declaration && c == ']') {
          --brackets;
        } else if (c == '>' && brackets <= 0) {
          break;
        }
      }
      if (!declaration) {
        if (t.substr(k, 2) == "</") --depth;
        else if (e < t.size() && t[e - 1] != '/') ++depth;
      }
      e = std::min(e + 1, t.size());
    }
    out += t.substr(k, e - k);
    k = e;
  }
  return out;
}

void convert(const tinyxml2::XMLElement& in, int file, XmlNode& out) {
  out.kind = XmlNode::Kind::element;
  out.name = in.Name();
  out.origin = {file, in.GetLineNum(), 0};
  for (const tinyxml2::XMLAttribute* a = in.FirstAttribute(); a; a = a->Next())
    out.attributes.emplace_back(a->Name(), a->Value());
  for (const tinyxml2::XMLNode* child = in.FirstChild(); child; child = child->NextSibling()) {
    if (const auto* e = child->ToElement()) {
      out.children.emplace_back();
      convert(*e, file, out.children.back());
    } else if (const auto* t = child->ToText()) {
      XmlNode text;
      text.kind = XmlNode::Kind::text;
      text.name = t->Value();
      if (text.name.rfind(kBlankMark, 0) == 0) text.name.erase(0, kBlankMark.size());
      text.cdata = t->CData();
      text.origin = {file, t->GetLineNum(), 0};
      out.children.push_back(std::move(text));
    } else if (const auto* c = child->ToComment()) {
      XmlNode comment;
      comment.kind = XmlNode::Kind::comment;
      comment.name = c->Value();
      comment.origin = {file, c->GetLineNum(), 0};
      out.children.push_back(std::move(comment));
    }
    // declarations and unknown markup (<!DOCTYPE>) are not part of the result
  }
}

// ---- attribute-value normalisation (XML 1.0 section 3.3.3)
//
// An XML processor hands an attribute's value on with each literal tab, LF and CR replaced by
// a space (a CR LF pair, already one LF by line-end normalisation, gives one space), while a
// character reference (&#10;) gives its character as it is. Python's expat, which ROS's xacro
// reads with, does so; tinyxml2 keeps the literal characters. Descriptions write long vectors
// over several lines (HSR-B's base.urdf.xacro: xyz="0.1<LF> 0.2<LF> 0.3"), which xacro turns
// into one line of numbers and we turned into "&#10;" in the expansion, a bad number for URDF.

bool holds_tab_or_line_end(std::string_view s) { return s.find_first_of("\t\n\r") != std::string_view::npos; }

bool any_attribute_holds_tab_or_line_end(const XmlNode& node) {
  for (const auto& [k, v] : node.attributes)
    if (holds_tab_or_line_end(v)) return true;
  for (const auto& c : node.children)
    if (c.kind == XmlNode::Kind::element && any_attribute_holds_tab_or_line_end(c)) return true;
  return false;
}

void collect_attributes(const tinyxml2::XMLElement& in, std::vector<const tinyxml2::XMLAttribute*>& out) {
  for (const tinyxml2::XMLAttribute* a = in.FirstAttribute(); a; a = a->Next()) out.push_back(a);
  for (const tinyxml2::XMLElement* e = in.FirstChildElement(); e; e = e->NextSiblingElement())
    collect_attributes(*e, out);
}

/// The value of an attribute whose text, as written (entities not replaced, line ends already
/// one LF each), is `raw`: blanks made spaces, then references replaced by tinyxml2 itself, so
/// that what a reference gives (a tab, a newline, an unknown entity left as written) stays
/// exactly what tinyxml2 gives everywhere else.
std::string normalised_attribute(std::string raw) {
  for (char& c : raw)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  // The raw text cannot hold both quotes: the one that delimited it ends it.
  const char quote = raw.find('"') == std::string::npos ? '"' : '\'';
  const std::string element = std::string("<a v=") + quote + raw + quote + "/>";
  tinyxml2::XMLDocument doc(true, tinyxml2::PRESERVE_WHITESPACE);
  if (doc.Parse(element.data(), element.size()) != tinyxml2::XML_SUCCESS || !doc.RootElement()) return raw;
  const char* value = doc.RootElement()->Attribute("v");
  return value ? value : raw;
}

/// Replaces the values holding a tab, LF or CR by their normalised form, from the attributes
/// as written (`raw`, in document order, the order `node`'s attributes are walked in).
void normalise_attributes(XmlNode& node, const std::vector<const tinyxml2::XMLAttribute*>& raw, std::size_t& next) {
  for (auto& [k, v] : node.attributes) {
    const tinyxml2::XMLAttribute* written = next < raw.size() ? raw[next] : nullptr;
    ++next;
    if (written && holds_tab_or_line_end(v)) v = normalised_attribute(written->Value());
  }
  for (auto& c : node.children)
    if (c.kind == XmlNode::Kind::element) normalise_attributes(c, raw, next);
}

bool is_blank(std::string_view s) {
  return s.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

class Writer {
public:
  Writer(std::string& out, std::vector<Origin>& lines) : out_(out), lines_(lines) {}

  void text_lines(std::string_view s, const Origin& origin) {
    for (const char c : s)
      if (c == '\n') lines_.push_back(origin);
  }
  void newline(const Origin& origin) {
    out_ += '\n';
    lines_.push_back(origin);
  }

  void element(const XmlNode& e, int depth) {
    out_.append(static_cast<std::size_t>(depth) * 2, ' ');
    out_ += '<';
    out_ += e.name;
    for (const auto& [k, v] : e.attributes) {
      out_ += ' ';
      out_ += k;
      out_ += "=\"";
      append_xml_escaped(out_, v, XmlPlace::attribute);
      out_ += '"';
    }
    bool has_element = false, has_content = false;
    for (const auto& c : e.children) {
      if (c.kind != XmlNode::Kind::text || !is_blank(c.name) || c.cdata) has_content = true;
      if (c.kind != XmlNode::Kind::text) has_element = true;
    }
    if (!has_content) {
      out_ += "/>";
      newline(e.origin);
      return;
    }
    out_ += '>';
    if (!has_element) {
      // Text only: written as it is, on the element's line(s).
      const std::size_t start = out_.size();
      for (const auto& c : e.children) text(c);
      text_lines(std::string_view(out_).substr(start), e.origin);
      out_ += "</" + e.name + ">";
      newline(e.origin);
      return;
    }
    newline(e.origin);
    for (const auto& c : e.children) {
      if (c.kind == XmlNode::Kind::element) {
        element(c, depth + 1);
      } else if (c.kind == XmlNode::Kind::comment) {
        out_.append(static_cast<std::size_t>(depth + 1) * 2, ' ');
        out_ += "<!--";
        // "--" cannot appear inside a comment
        std::string body = c.name;
        for (std::size_t at = 0; (at = body.find("--", at)) != std::string::npos;) body.replace(at, 2, "- -");
        if (!body.empty() && body.back() == '-') body += ' ';
        out_ += body;
        text_lines(body, c.origin);
        out_ += "-->";
        newline(c.origin);
      } else if (!is_blank(c.name) || c.cdata) {
        out_.append(static_cast<std::size_t>(depth + 1) * 2, ' ');
        const std::size_t start = out_.size();
        text(c);
        text_lines(std::string_view(out_).substr(start), c.origin);
        newline(c.origin);
      }
    }
    out_.append(static_cast<std::size_t>(depth) * 2, ' ');
    out_ += "</" + e.name + ">";
    newline(e.origin);
  }

private:
  void text(const XmlNode& t) {
    if (!t.cdata) return append_xml_escaped(out_, t.name, XmlPlace::text);
    // "]]>" cannot stand in a CDATA section: it ends one and starts the next
    std::string body = t.name;
    for (std::size_t at = 0; (at = body.find("]]>", at)) != std::string::npos; at += 12) body.replace(at, 3, "]]]]><![CDATA[>");
    out_ += "<![CDATA[" + body + "]]>";
  }

  std::string& out_;
  std::vector<Origin>& lines_;
};

/// Python's minidom reads with namespaces, as expat does them: a prefix (`gazebo:` in
/// `<gazebo:plugin>` or `gazebo:reference=`) must be declared (`xmlns:gazebo=`) on the
/// element or above it. The line and message of the first undeclared one.
std::optional<std::pair<int, std::string>> unbound_prefix(const tinyxml2::XMLElement& e,
                                                          std::vector<std::string_view>& declared) {
  const std::size_t outer = declared.size();
  for (const tinyxml2::XMLAttribute* a = e.FirstAttribute(); a; a = a->Next())
    if (std::string_view(a->Name()).rfind("xmlns:", 0) == 0) declared.push_back(std::string_view(a->Name()).substr(6));
  auto bound = [&](std::string_view name) {
    const auto colon = name.find(':');
    return colon == std::string_view::npos ||
           std::find(declared.begin(), declared.end(), name.substr(0, colon)) != declared.end();
  };
  std::optional<std::pair<int, std::string>> problem;
  if (!bound(e.Name()))
    problem = std::pair{e.GetLineNum(), std::string("unbound prefix: <") + e.Name() + "> uses a prefix no xmlns: declares"};
  for (const tinyxml2::XMLAttribute* a = e.FirstAttribute(); a && !problem; a = a->Next())
    if (!bound(a->Name()))
      problem = std::pair{e.GetLineNum(), std::string("unbound prefix: the attribute ") + a->Name() + " of <" + e.Name() +
                                              "> uses a prefix no xmlns: declares"};
  for (const tinyxml2::XMLElement* c = e.FirstChildElement(); c && !problem; c = c->NextSiblingElement())
    problem = unbound_prefix(*c, declared);
  declared.resize(outer);
  return problem;
}

}  // namespace

bool parse_document(std::string_view written, int file, XmlNode& root, int& error_line, std::string& error) {
  MarkupProblem markup;
  const std::string marked = mark_blank_texts(written, markup);
  const std::string_view text = marked;
  tinyxml2::XMLDocument doc(true, tinyxml2::PRESERVE_WHITESPACE);
  if (const auto problem = detail::parse_xml(doc, text)) {
    error_line = problem->line;
    error = problem->message;
    return false;
  }
  const tinyxml2::XMLElement* element = doc.RootElement();
  if (!element) {
    error_line = 1;
    error = "malformed XML: no root element";
    return false;
  }
  if (markup.at != std::string_view::npos) {
    const auto before = written.substr(0, markup.at);
    error_line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
    error = "malformed XML: " + markup.message;
    return false;
  }
  std::vector<std::string_view> declared = {"xml", "xmlns"};
  if (const auto unbound = unbound_prefix(*element, declared)) {
    error_line = unbound->first;
    error = "malformed XML: " + unbound->second;
    return false;
  }
  convert(*element, file, root);
  // Most documents have no blank but spaces in their attributes: only those that do are read
  // again, entities left as written, to tell a literal newline from a reference to one.
  if (any_attribute_holds_tab_or_line_end(root)) {
    tinyxml2::XMLDocument raw(false, tinyxml2::PRESERVE_WHITESPACE);
    if (raw.Parse(text.data(), text.size()) == tinyxml2::XML_SUCCESS && raw.RootElement()) {
      std::vector<const tinyxml2::XMLAttribute*> attributes;
      collect_attributes(*raw.RootElement(), attributes);
      std::size_t next = 0;
      normalise_attributes(root, attributes, next);
    }
  }
  return true;
}

void write_document(const XmlNode& root, const std::string& banner, std::string& out,
                    std::vector<Origin>& line_origins) {
  Writer w(out, line_origins);
  out += "<?xml version=\"1.0\" encoding=\"utf-8\"?>";
  w.newline(root.origin);
  if (!banner.empty()) {
    out += "<!-- " + banner + " -->";
    w.newline(root.origin);
  }
  w.element(root, 0);
}

}  // namespace rmodel::xacro
