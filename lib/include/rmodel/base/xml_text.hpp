#pragma once
#include "rmodel/export.hpp"
/// @file xml_text.hpp
/// Text written into an XML 1.0 document, escaped so that a reader gets back what was written:
/// the one set of rules of every XML rmodel writes (SRDF collision matrices, .cpf semantics,
/// xacro's output, JUnit reports).

#include <string>
#include <string_view>

namespace rmodel {

/// Where a text goes in an XML document.
enum class XmlPlace {
  text,       ///< character data of an element
  attribute,  ///< an attribute value written between double quotes
};

/// `text` as it is written at `place` (the rules of Canonical XML, and `>` escaped everywhere):
/// - everywhere: `&` as `&amp;`, `<` as `&lt;`, `>` as `&gt;`, carriage return as `&#13;` (a
///   reader turns a raw one into a line feed);
/// - in an attribute also: `"` as `&quot;`, tab as `&#9;`, line feed as `&#10;` (a reader turns
///   raw ones into spaces);
/// - `'` as it is (attributes are written between double quotes), and so are a text's `"`, tab
///   and line feed.
/// The controls XML 1.0 cannot carry in any form, raw or as a reference (U+0000 to U+001F but
/// tab, line feed and carriage return), are written as U+FFFD, the replacement character (in
/// UTF-8): the one change made to a text, which keeps the document well-formed. Every other
/// byte is written as it is: the encoding is the document's.
[[nodiscard]] RMODEL_API std::string xml_escaped(std::string_view text, XmlPlace place);

/// xml_escaped(text, place), appended to `out`.
RMODEL_API void append_xml_escaped(std::string& out, std::string_view text, XmlPlace place);

}  // namespace rmodel
