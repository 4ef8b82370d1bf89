#pragma once
// Comparing XML documents as XML: same elements in the same order, same attributes (in any
// order), same text; whitespace between elements, comments and the declaration aside.
// Optionally, numbers (attribute values or texts made of numbers) compare within a tolerance.

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <tinyxml2.h>

namespace rmodel::test {

/// The words of a text, whitespace collapsed.
inline std::vector<std::string> xml_words(std::string_view text) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

/// True when two texts are equal word by word, numbers within `tolerance` (relative) when >= 0.
inline bool same_xml_text(std::string_view a, std::string_view b, double tolerance) {
  const auto wa = xml_words(a), wb = xml_words(b);
  if (wa.size() != wb.size()) return false;
  for (std::size_t k = 0; k < wa.size(); ++k) {
    if (wa[k] == wb[k]) continue;
    if (tolerance < 0) return false;
    char* ea = nullptr;
    char* eb = nullptr;
    const double x = std::strtod(wa[k].c_str(), &ea), y = std::strtod(wb[k].c_str(), &eb);
    if (*ea != '\0' || *eb != '\0' || wa[k].empty() || wb[k].empty()) return false;
    if (!(std::fabs(x - y) <= tolerance * std::max({1.0, std::fabs(x), std::fabs(y)}))) return false;
  }
  return true;
}

/// Empty when `a` and `b` are the same XML; otherwise the first difference, with its path.
inline std::string xml_difference(const tinyxml2::XMLElement* a, const tinyxml2::XMLElement* b, double tolerance,
                                  const std::string& path = "") {
  if (!a || !b) return path + ": element missing on the " + (a ? "right" : "left");
  const std::string here = path + "/" + a->Name();
  if (std::string_view(a->Name()) != b->Name()) return here + ": element <" + a->Name() + "> vs <" + b->Name() + ">";
  int count_a = 0, count_b = 0;
  for (auto* x = a->FirstAttribute(); x; x = x->Next()) {
    ++count_a;
    const char* other = b->Attribute(x->Name());
    if (!other) return here + ": attribute " + x->Name() + " missing on the right";
    if (!same_xml_text(x->Value(), other, tolerance))
      return here + ": attribute " + x->Name() + "=\"" + x->Value() + "\" vs \"" + other + "\"";
  }
  for (auto* x = b->FirstAttribute(); x; x = x->Next()) ++count_b;
  if (count_a != count_b) return here + ": attributes differ in number";
  auto text_of = [](const tinyxml2::XMLElement* e) {
    std::string t;
    for (auto* n = e->FirstChild(); n; n = n->NextSibling())
      if (n->ToText()) t += std::string(" ") + n->Value();
    return t;
  };
  if (!same_xml_text(text_of(a), text_of(b), tolerance))
    return here + ": text \"" + text_of(a) + "\" vs \"" + text_of(b) + "\"";
  const tinyxml2::XMLElement* ca = a->FirstChildElement();
  const tinyxml2::XMLElement* cb = b->FirstChildElement();
  for (int index = 0; ca || cb; ++index, ca = ca ? ca->NextSiblingElement() : nullptr,
           cb = cb ? cb->NextSiblingElement() : nullptr) {
    if (!ca || !cb) return here + ": child " + std::to_string(index) + " missing on the " + (ca ? "right" : "left");
    if (auto d = xml_difference(ca, cb, tolerance, here + "[" + std::to_string(index) + "]"); !d.empty()) return d;
  }
  return {};
}

/// Empty when the two documents are the same XML, else what differs (or what does not parse).
inline std::string xml_difference(const std::string& a, const std::string& b, double tolerance = -1) {
  tinyxml2::XMLDocument da, db;
  if (da.Parse(a.c_str()) != tinyxml2::XML_SUCCESS) return "left does not parse: " + std::string(da.ErrorStr());
  if (db.Parse(b.c_str()) != tinyxml2::XML_SUCCESS) return "right does not parse: " + std::string(db.ErrorStr());
  return xml_difference(da.RootElement(), db.RootElement(), tolerance);
}

}  // namespace rmodel::test
