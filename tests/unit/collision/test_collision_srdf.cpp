// An SRDF's matrix read, written and replaced: every byte outside the <disable_collisions>
// entries is kept, the entries read back as written.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rmodel/collision/collision.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/semantics.hpp"
#include "xml_oracle.hpp"

namespace rmodel {
namespace {

namespace col = rmodel::collision;

/// `text` without its <disable_collisions .../> lines: what replacing must keep.
std::string without_entries(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size() - 1) + 1;
    const std::string line = text.substr(start, end - start);
    if (line.find("<disable_collisions") == std::string::npos) out += line;
    start = end;
  }
  return out;
}

/// The <disable_collisions> of an SRDF text, as the semantics read them.
std::vector<col::DisabledPair> read_entries(const std::string& text, const std::string& name) {
  return parse_srdf(text, name).collisions.disabled;
}

const std::vector<col::DisabledPair> kNew = {{"a", "b", "Adjacent", 0}, {"a", "c", "Never", 0}, {"b", "c", "Default", 0}};

TEST(CollisionSrdf, ReplacingKeepsEveryOtherByte) {
  const std::string srdf =
      "<?xml version=\"1.0\" ?>\n<!-- a comment with <disable_collisions link1=\"x\"/> inside -->\n"
      "<robot name=\"r\">\n    <group name=\"arm\">\n        <chain base_link=\"a\" tip_link=\"c\" />\n    </group>\n"
      "    <!--DISABLE COLLISIONS: the matrix -->\n"
      "    <disable_collisions link1=\"a\" link2=\"b\" reason=\"Adjacent\" />\n"
      "    <disable_collisions link1=\"x\" link2=\"y\" reason=\"Never\" />\n"
      "    <disable_default_collisions link=\"z\"/>\n"
      "    <disable_collisions link1=\"q\" link2=\"y\"\n        reason=\"Never\" />\n"
      "</robot>\n";
  const std::string out = col::replace_disabled_collisions(srdf, kNew);
  // The new entries in the first one's place, written as the file writes them (" />").
  EXPECT_NE(out.find("    <!--DISABLE COLLISIONS: the matrix -->\n"
                     "    <disable_collisions link1=\"a\" link2=\"b\" reason=\"Adjacent\" />\n"
                     "    <disable_collisions link1=\"a\" link2=\"c\" reason=\"Never\" />\n"
                     "    <disable_collisions link1=\"b\" link2=\"c\" reason=\"Default\" />\n"
                     "    <disable_default_collisions link=\"z\"/>\n</robot>\n"),
            std::string::npos)
      << out;
  // The entry over two lines went with both (its second line holds no '<disable_collisions').
  EXPECT_EQ(out.find("reason=\"Never\" />\n</robot>"), std::string::npos) << out;
  // The comment that mentions the element, and everything else, stays.
  const auto again = read_entries(out, "r.srdf");
  ASSERT_EQ(again.size(), 3u);
  EXPECT_EQ(again[2].reason, "Default");
  EXPECT_EQ(out.rfind("<?xml version=\"1.0\" ?>\n<!-- a comment with <disable_collisions link1=\"x\"/> inside -->\n", 0),
            0u);
  std::string expected_rest = without_entries(srdf);
  const std::string second_line = "        reason=\"Never\" />\n";
  expected_rest.replace(expected_rest.find(second_line), second_line.size(), "");
  EXPECT_EQ(without_entries(out), expected_rest);
  // Replacing with the same entries changes nothing the second time.
  EXPECT_EQ(col::replace_disabled_collisions(out, kNew), out);
}

TEST(CollisionSrdf, WithoutEntriesTheyGoBeforeTheEndTagIndentedAsTheChildren) {
  const std::string srdf = "<robot name=\"r\">\r\n  <group name=\"g\"/>\r\n</robot>\r\n";
  const std::string out = col::replace_disabled_collisions(srdf, kNew);
  EXPECT_EQ(out, "<robot name=\"r\">\r\n  <group name=\"g\"/>\r\n"
                 "  <disable_collisions link1=\"a\" link2=\"b\" reason=\"Adjacent\"/>\r\n"
                 "  <disable_collisions link1=\"a\" link2=\"c\" reason=\"Never\"/>\r\n"
                 "  <disable_collisions link1=\"b\" link2=\"c\" reason=\"Default\"/>\r\n</robot>\r\n");
  // An end tag that does not start its line: the entries on lines of their own before it.
  const std::string inline_end = col::replace_disabled_collisions("<robot name=\"r\"><group name=\"g\"/></robot>", kNew);
  EXPECT_EQ(read_entries(inline_end, "r").size(), 3u);
  EXPECT_EQ(inline_end.rfind("<robot name=\"r\"><group name=\"g\"/>\n", 0), 0u) << inline_end;
  EXPECT_THROW((void)col::replace_disabled_collisions("<robot name=\"r\">", kNew), ParseError);
}

TEST(CollisionSrdf, NoEntriesRemovesTheMatrix) {
  const std::string srdf = "<robot name=\"r\">\n  <disable_collisions link1=\"a\" link2=\"b\" reason=\"Never\"/>\n"
                           "  <group name=\"g\"/>\n</robot>\n";
  EXPECT_EQ(col::replace_disabled_collisions(srdf, {}), "<robot name=\"r\">\n  <group name=\"g\"/>\n</robot>\n");
}

TEST(CollisionSrdf, LinesAreSrdfElements) {
  EXPECT_EQ(col::disable_collisions_xml(kNew, ""),
            "<disable_collisions link1=\"a\" link2=\"b\" reason=\"Adjacent\"/>\n"
            "<disable_collisions link1=\"a\" link2=\"c\" reason=\"Never\"/>\n"
            "<disable_collisions link1=\"b\" link2=\"c\" reason=\"Default\"/>\n");
  const std::vector<col::DisabledPair> odd = {{"a&b", "c\"d", "User", 0}};
  const auto back = read_entries("<robot name=\"r\">" + col::disable_collisions_xml(odd) + "</robot>", "r");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].link1, "a&b");
  EXPECT_EQ(back[0].link2, "c\"d");
}

TEST(CollisionSrdf, TabsAndLineEndsInAttributesSurvive) {
  // A reader turns an attribute's raw tab or line end into a space, and a raw carriage return
  // into a line feed: they are written as character references.
  const std::vector<col::DisabledPair> odd = {{"left\tarm", "a\nb", "User\r\nnote 'x' <&>", 0}};
  const std::string srdf = "<robot name=\"r\">\n" + col::disable_collisions_xml(odd) + "</robot>\n";
  const auto back = read_entries(srdf, "r");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].link1, odd[0].link1);
  EXPECT_EQ(back[0].link2, odd[0].link2);
  EXPECT_EQ(back[0].reason, odd[0].reason);
  const auto replaced = read_entries(col::replace_disabled_collisions("<robot name=\"r\">\n</robot>\n", odd), "r");
  ASSERT_EQ(replaced.size(), 1u);
  EXPECT_EQ(replaced[0].reason, odd[0].reason);
  RMODEL_REQUIRE_EXPAT_ORACLE();
  const nlohmann::json read = test::expat_read(srdf);
  ASSERT_TRUE(read.contains("elements")) << read.dump();
  ASSERT_EQ(read["elements"].size(), 2u);
  EXPECT_EQ(read["elements"][1]["attributes"],
            (nlohmann::json{{"link1", "left\tarm"}, {"link2", "a\nb"}, {"reason", "User\r\nnote 'x' <&>"}}));
}

TEST(CollisionSrdf, ReasonsAreMoveItsWords) {
  for (auto r : {col::Reason::adjacent, col::Reason::default_pose, col::Reason::always, col::Reason::never})
    EXPECT_EQ(col::parse_reason(col::to_string(r)), r);
  EXPECT_EQ(col::to_string(col::Reason::default_pose), "Default");
  EXPECT_EQ(col::parse_reason("never"), col::Reason::user);  // words are case-sensitive, as MoveIt's
}

}  // namespace
}  // namespace rmodel
