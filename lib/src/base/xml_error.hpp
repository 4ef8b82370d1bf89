#pragma once
// Internal: a human description of a tinyxml2 parse failure.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <tinyxml2.h>

namespace rmodel::detail {

/// "malformed XML: mismatched closing tag (element 'link')" style text for a failed parse.
inline std::string describe_xml_error(const tinyxml2::XMLDocument& doc) {
  using namespace tinyxml2;
  const char* what = nullptr;
  switch (doc.ErrorID()) {
    case XML_ERROR_EMPTY_DOCUMENT: what = "empty document"; break;
    case XML_ERROR_MISMATCHED_ELEMENT: what = "mismatched closing tag"; break;
    case XML_ERROR_PARSING_ELEMENT: what = "malformed element"; break;
    case XML_ERROR_PARSING_ATTRIBUTE: what = "malformed attribute"; break;
    case XML_ERROR_PARSING_TEXT: what = "malformed text"; break;
    case XML_ERROR_PARSING_CDATA: what = "malformed CDATA"; break;
    case XML_ERROR_PARSING_COMMENT: what = "malformed comment"; break;
    case XML_ERROR_PARSING_DECLARATION: what = "malformed declaration"; break;
    case XML_ERROR_PARSING_UNKNOWN: what = "malformed markup"; break;
    case XML_ERROR_PARSING: what = "element not closed before the end of the input"; break;
    default: what = doc.ErrorName(); break;
  }
  std::string text = std::string("malformed XML: ") + what;
  // tinyxml2's ErrorStr() may end with ": detail" (e.g. "XMLElement name=link").
  const std::string full = doc.ErrorStr() ? doc.ErrorStr() : "";
  if (auto pos = full.find(": "); pos != std::string::npos) text += " (" + full.substr(pos + 2) + ")";
  return text;
}

/// Byte offset of the first byte that is not an XML 1.0 character in well-formed UTF-8
/// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF; no control
/// characters other than tab, LF and CR), or npos. tinyxml2 passes such bytes through, and
/// a name holding them could not be written as JSON later.
inline std::size_t invalid_xml_char_offset(std::string_view text) noexcept {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    // Fast path: eight printable ASCII bytes at once (no high bit, none below 0x20).
    if (i + 8 <= n) {
      std::uint64_t word;
      std::memcpy(&word, s + i, sizeof word);
      constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
      constexpr std::uint64_t kSpace = 0x2020202020202020ULL;
      if (((word | (word - kSpace)) & kHigh) == 0) {  // no byte >= 0x80, none < 0x20
        i += 8;
        continue;
      }
    }
    const unsigned c = s[i];
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return i;
      ++i;
      continue;
    }
    std::size_t length = 0;
    unsigned lowest = 0;  // smallest second byte allowed (overlongs, surrogates, > U+10FFFF)
    unsigned highest = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2, lowest = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3, lowest = c == 0xE0 ? 0xA0 : 0x80, highest = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4, lowest = c == 0xF0 ? 0x90 : 0x80, highest = c == 0xF4 ? 0x8F : 0xBF;
    } else {
      return i;
    }
    if (i + length > n || s[i + 1] < lowest || s[i + 1] > highest) return i;
    for (std::size_t k = 2; k < length; ++k)
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
    i += length;
  }
  return std::string_view::npos;
}

/// Where and why an XML text does not parse.
struct XmlProblem {
  int line = 0;
  std::string message;
};

/// Checks the characters, then parses `text` into `doc`. nullopt on success.
inline std::optional<XmlProblem> parse_xml(tinyxml2::XMLDocument& doc, std::string_view text) {
  if (const std::size_t bad = invalid_xml_char_offset(text); bad != std::string_view::npos) {
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n'));
    return XmlProblem{line, fmt::format("malformed XML: byte 0x{:02X} is not a character of UTF-8 XML",
                                        static_cast<unsigned char>(text[bad]))};
  }
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS)
    return XmlProblem{doc.ErrorLineNum(), describe_xml_error(doc)};
  return std::nullopt;
}

}  // namespace rmodel::detail
