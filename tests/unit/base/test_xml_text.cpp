// Text escaped for XML (rmodel/base/xml_text.hpp): the rules as written, and every text read
// back as it was by two independent readers: expat (XML 1.0 to the letter) and tinyxml2 (what
// urdfdom and rmodel read with).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <tinyxml2.h>

#include "rmodel/base/xml_text.hpp"
#include "xml_oracle.hpp"

namespace rmodel::xml_text_test {
namespace {

using namespace std::string_literals;

const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

TEST(XmlText, TheRulesOfEachPlace) {
  EXPECT_EQ(xml_escaped("a&b<c>d\"e'f", XmlPlace::text), "a&amp;b&lt;c&gt;d\"e'f");
  EXPECT_EQ(xml_escaped("a&b<c>d\"e'f", XmlPlace::attribute), "a&amp;b&lt;c&gt;d&quot;e'f");
  EXPECT_EQ(xml_escaped("1\t2\n3\r4", XmlPlace::text), "1\t2\n3&#13;4");
  EXPECT_EQ(xml_escaped("1\t2\n3\r4", XmlPlace::attribute), "1&#9;2&#10;3&#13;4");
  EXPECT_EQ(xml_escaped("]]>", XmlPlace::text), "]]&gt;");
  // No form of these is XML 1.0: the replacement character stands for each.
  EXPECT_EQ(xml_escaped("a\0b\x01\x1f"s, XmlPlace::text), "a" + kReplacement + "b" + kReplacement + kReplacement);
  // Every other byte as it is: DEL, UTF-8, bytes of another encoding.
  EXPECT_EQ(xml_escaped("\x7f\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E\xE9", XmlPlace::attribute),
            "\x7f\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E\xE9");
  EXPECT_EQ(xml_escaped("", XmlPlace::text), "");
  std::string out = "x=";
  append_xml_escaped(out, "<", XmlPlace::attribute);
  EXPECT_EQ(out, "x=&lt;");
}

/// Texts with every character that XML treats specially, alone and together.
std::vector<std::string> awkward_texts() {
  return {"plain",
          "&<>\"'",
          "&amp; &lt; written out",
          "]]> and <![CDATA[",
          " leading and trailing blanks ",
          "tab\there",
          "lines\nand\r\nends\rof three kinds\n",
          "\t\n\r",
          "'single' \"double\"",
          "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9D\x84\x9E",
          "del \x7f",
          "nul \0 and \x01 to \x1f\x0b\x0c"s,
          ""};
}

/// `text` as a reader must give it back: the controls XML cannot carry replaced.
std::string expected(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') out += kReplacement;
    else out += c;
  }
  return out;
}

/// One element per text, the text as its attribute `v` and as its content.
std::string document(const std::vector<std::string>& texts) {
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<d>";
  for (const std::string& t : texts)
    xml += "<e v=\"" + xml_escaped(t, XmlPlace::attribute) + "\">" + xml_escaped(t, XmlPlace::text) + "</e>";
  return xml + "</d>\n";
}

TEST(XmlText, ExpatReadsBackWhatWasWritten) {
  RMODEL_REQUIRE_EXPAT_ORACLE();
  const auto texts = awkward_texts();
  const nlohmann::json read = test::expat_read(document(texts));
  ASSERT_TRUE(read.contains("elements")) << read.dump();
  const auto& elements = read["elements"];
  ASSERT_EQ(elements.size(), texts.size() + 1);
  for (std::size_t k = 0; k < texts.size(); ++k) {
    const auto& e = elements[k + 1];
    EXPECT_EQ(e["attributes"]["v"].get<std::string>(), expected(texts[k])) << k;
    EXPECT_EQ(e["text"].get<std::string>(), expected(texts[k])) << k;
  }
}

TEST(XmlText, Tinyxml2ReadsBackWhatWasWritten) {
  const auto texts = awkward_texts();
  const std::string xml = document(texts);
  tinyxml2::XMLDocument doc(true, tinyxml2::PRESERVE_WHITESPACE);
  ASSERT_EQ(doc.Parse(xml.data(), xml.size()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  std::size_t k = 0;
  for (const auto* e = doc.RootElement()->FirstChildElement("e"); e; e = e->NextSiblingElement("e"), ++k) {
    ASSERT_LT(k, texts.size());
    EXPECT_EQ(std::string(e->Attribute("v")), expected(texts[k])) << k;
    EXPECT_EQ(std::string(e->GetText() ? e->GetText() : ""), expected(texts[k])) << k;
  }
  EXPECT_EQ(k, texts.size());
}

}  // namespace
}  // namespace rmodel::xml_text_test
