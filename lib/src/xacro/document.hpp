#pragma once
// Internal: the XML tree the xacro processor reads and builds. Every node remembers the file,
// line and macro-call context it came from, so that the written URDF can be mapped back.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rmodel::xacro {

/// Where a node came from: indices into the processor's file and context lists.
struct Origin {
  int file = 0;
  int line = 0;
  int context = 0;
};

struct XmlNode {
  enum class Kind : std::uint8_t { element, text, comment };
  Kind kind = Kind::element;
  std::string name;  ///< element: the tag; text and comment: the content
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<XmlNode> children;
  Origin origin;
  /// text: a CDATA section (xacro leaves it unevaluated; it is written back as one).
  bool cdata = false;
  /// text: the blank text ("\n\n") xacro moves to after each directive it handles, so that a
  /// later directive does not take the comments before this one (remove_previous_comments);
  /// 0 for any other node. xacro has one such node, moved each time: the processor tells
  /// which of these marks is that node (the others are gone).
  std::uint32_t barrier = 0;

  [[nodiscard]] const std::string* attribute(std::string_view key) const {
    for (const auto& [k, v] : attributes)
      if (k == key) return &v;
    return nullptr;
  }
  void set_attribute(std::string key, std::string value) {
    for (auto& [k, v] : attributes)
      if (k == key) {
        v = std::move(value);
        return;
      }
    attributes.emplace_back(std::move(key), std::move(value));
  }
};

/// Parses XML text into the root element; `file` is the origin file index given to nodes.
/// @returns false with `error_line` and `error` set when the text is not well-formed XML.
bool parse_document(std::string_view text, int file, XmlNode& root, int& error_line, std::string& error);

/// Writes `root` as an XML document, one element per line, indented by two spaces; each
/// line's origin is appended to `line_origins` (the declaration line gets the root's).
void write_document(const XmlNode& root, const std::string& banner, std::string& out,
                    std::vector<Origin>& line_origins);

}  // namespace rmodel::xacro
