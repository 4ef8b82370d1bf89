// Text escaped for XML 1.0 (rmodel/base/xml_text.hpp): written once, for every XML rmodel writes.
#include "rmodel/base/xml_text.hpp"

namespace rmodel {

void append_xml_escaped(std::string& out, std::string_view text, XmlPlace place) {
  const bool attribute = place == XmlPlace::attribute;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '\r': out += "&#13;"; break;
      case '"':
        if (attribute) out += "&quot;";
        else out += c;
        break;
      case '\t':
        if (attribute) out += "&#9;";
        else out += c;
        break;
      case '\n':
        if (attribute) out += "&#10;";
        else out += c;
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += "\xEF\xBF\xBD";  // U+FFFD
        else out += c;
    }
  }
}

std::string xml_escaped(std::string_view text, XmlPlace place) {
  std::string out;
  out.reserve(text.size());
  append_xml_escaped(out, text, place);
  return out;
}

}  // namespace rmodel
