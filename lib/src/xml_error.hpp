#pragma once
// Internal: a human description of a tinyxml2 parse failure.

#include <string>

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

}  // namespace rmodel::detail
