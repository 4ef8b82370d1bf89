// Semantics readers and writers: the real .cpf loads unchanged, conversions are lossless
// both ways, malformed input is reported with file and line.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/model/semantics.hpp"
#include "test_support.hpp"
#include "xml_oracle.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;
using test::sample;

TEST(SemanticsCpf, RealRobotFileLoadsUnchanged) {
  RMODEL_REQUIRE_FIXTURES();
  const Semantics s = load_semantics(fixture("sweetie_bot_proto2/kinematic_chains.cpf").string());
  ASSERT_EQ(s.chains.size(), 6U);
  EXPECT_EQ(s.chains[0].name, "leg1");
  EXPECT_EQ(s.chains[0].last_link_virtual, "bone16");
  EXPECT_EQ(s.chains[0].description, "Leg1 kinematics chain.");
  EXPECT_EQ(s.chains[4].last_link_virtual, "");
  EXPECT_EQ(s.chains[4].default_contact, "");
  ASSERT_EQ(s.groups.size(), 6U);
  EXPECT_EQ(s.groups[4].chains, (std::vector<std::string>{"head", "nose"}));
  EXPECT_EQ(s.groups[5].joints, (std::vector<std::string>{"eyes_pitch", "eyes_yaw"}));
  ASSERT_EQ(s.contacts.size(), 3U);
  EXPECT_EQ(s.contacts[0].points.size(), 2U);
  EXPECT_DOUBLE_EQ(s.contacts[0].points[1].z(), -0.05);
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_GT(s.chains[1].line, s.chains[0].line);
}

TEST(SemanticsConvert, CpfToJsonToCpfIsLossless) {
  RMODEL_REQUIRE_FIXTURES();
  const std::string path = fixture("sweetie_bot_proto2/kinematic_chains.cpf").string();
  const Semantics original = load_semantics(path);
  const std::string json = to_semantics_json(original);
  const Semantics via_json = parse_semantics_json(json, "x.json");
  EXPECT_TRUE(via_json.same_content(original));
  const Semantics back = parse_cpf(to_cpf(via_json), "x.cpf");
  EXPECT_TRUE(back.same_content(original));
  // And text-stable: writing again gives byte-identical output.
  EXPECT_EQ(to_semantics_json(back), json);
}

TEST(SemanticsConvert, JsonToCpfToJsonIsByteIdentical) {
  const std::string json = read_file(sample("pony.json"));
  const Semantics s = parse_semantics_json(json, "pony.json");
  EXPECT_EQ(to_semantics_json(parse_cpf(to_cpf(s), "pony.cpf")), json);
  EXPECT_TRUE(parse_cpf(read_file(sample("pony.cpf")), "pony.cpf").same_content(s));
}

TEST(SemanticsConvert, TrickyDoublesAndTextSurvive) {
  Semantics s;
  s.chains.push_back({"c<&>\"", "a", "b", "", "", "desc with <xml> & \"quotes\"", 0});
  s.contacts.push_back({"p", {KDL::Vector(0.1, -1e-300, 1.0 / 3.0), KDL::Vector(5e-324, 1e300, -0.0)}, "", 0});
  EXPECT_TRUE(parse_cpf(to_cpf(s), "x.cpf").same_content(s));
  EXPECT_TRUE(parse_semantics_json(to_semantics_json(s), "x.json").same_content(s));
}

TEST(SemanticsConvert, TabsAndLineEndsSurviveTheCpf) {
  // A reader turns an attribute's raw tab or line end into a space, and any raw carriage
  // return into a line feed: the .cpf writes them as character references.
  Semantics s;
  s.chains.push_back({"c\td", "a", "b", "", "", "line one\r\nline two\rthree\tand 'four'", 0});
  s.chains.back().extra.push_back({"p\nq", "string", "v\r\n"});
  s.groups.push_back({"g\r1", {"c\td"}, {}, "", 0});
  EXPECT_TRUE(parse_cpf(to_cpf(s), "x.cpf").same_content(s));
  RMODEL_REQUIRE_EXPAT_ORACLE();
  const nlohmann::json read = test::expat_read(to_cpf(s));
  ASSERT_TRUE(read.contains("elements")) << read.dump();
  std::vector<std::string> names, texts;
  for (const auto& e : read["elements"]) {
    if (e["attributes"].contains("name")) names.push_back(e["attributes"]["name"]);
    if (e["name"] == "description" || e["name"] == "value") texts.push_back(e["text"]);
  }
  for (const std::string name : {"c\td", "p\nq", "g\r1"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  for (const std::string text : {"line one\r\nline two\rthree\tand 'four'", "v\r\n"})
    EXPECT_NE(std::find(texts.begin(), texts.end(), text), texts.end()) << text;
}

TEST(SemanticsDetect, ByContentThenExtension) {
  EXPECT_EQ(detect_semantics_format("  {}", "a.cpf"), SemanticsFormat::json);
  EXPECT_EQ(detect_semantics_format("<?xml?><properties/>", "a.json"), SemanticsFormat::cpf);
  EXPECT_EQ(detect_semantics_format("<robot name='x'/>", "a"), SemanticsFormat::srdf);
  EXPECT_EQ(detect_semantics_format("", "a.cpf"), SemanticsFormat::cpf);
  EXPECT_FALSE(detect_semantics_format("", "a.txt").has_value());
}

struct BadInput {
  const char* name;
  const char* text;
  const char* expected;
  int line;
};

void PrintTo(const BadInput& c, std::ostream* os) { *os << c.name; }
class SemanticsBadCpf : public ::testing::TestWithParam<BadInput> {};

TEST_P(SemanticsBadCpf, NamesFileAndLine) {
  const BadInput& c = GetParam();
  try {
    (void)parse_cpf(c.text, "bad.cpf");
    FAIL() << "expected ParseError: " << c.expected;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.where().file, "bad.cpf");
    EXPECT_EQ(e.where().line, c.line) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, SemanticsBadCpf,
    ::testing::Values(
        BadInput{"truncated", "<properties>\n<struct name=\"chains\" type=\"PropertyBag\">\n", "malformed XML", 2},
        BadInput{"wrong_root", "<robot/>", "expected <properties>", 1},
        BadInput{"no_first_link",
                 "<properties><struct name=\"chains\" type=\"PropertyBag\">\n<struct name=\"a\" type=\"PropertyBag\">"
                 "<simple name=\"last_link\" type=\"string\"><value>b</value></simple></struct></struct></properties>",
                 "chain 'a' has no first_link", 2},
        BadInput{"bad_number",
                 "<properties><struct name=\"contacts\" type=\"PropertyBag\"><struct name=\"c\" type=\"PropertyBag\">"
                 "<struct name=\"points\" type=\"KDL.Vector[]\"><struct name=\"Element0\" type=\"KDL.Vector\">\n"
                 "<simple name=\"X\" type=\"double\"><value>1.5x</value></simple></struct></struct></struct>"
                 "</struct></properties>",
                 "coordinate 'X' is not a finite number", 2},
        BadInput{"missing_coordinate",
                 "<properties><struct name=\"contacts\" type=\"PropertyBag\"><struct name=\"c\" type=\"PropertyBag\">"
                 "<struct name=\"points\" type=\"KDL.Vector[]\">\n<struct name=\"Element0\" type=\"KDL.Vector\">"
                 "<simple name=\"X\" type=\"double\"><value>1</value></simple></struct></struct></struct>"
                 "</struct></properties>",
                 "needs X, Y and Z", 2},
        BadInput{"string_array_type",
                 "<properties><struct name=\"groups\" type=\"PropertyBag\"><struct name=\"g\" type=\"PropertyBag\">\n"
                 "<struct name=\"chains\" type=\"PropertyBag\"/></struct></struct></properties>",
                 "must be <struct type=\"string[]\">", 2},
        BadInput{"no_name", "<properties>\n<struct type=\"PropertyBag\"/></properties>", "without a name", 2}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

class SemanticsBadJson : public ::testing::TestWithParam<BadInput> {};

TEST_P(SemanticsBadJson, NamesFileAndLine) {
  const BadInput& c = GetParam();
  try {
    (void)parse_semantics_json(c.text, "bad.json");
    FAIL() << "expected ParseError: " << c.expected;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.where().file, "bad.json");
    EXPECT_EQ(e.where().line, c.line) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, SemanticsBadJson,
    ::testing::Values(
        BadInput{"syntax", "{\n\"chains\": [\n,]}", "malformed JSON", 3},
        BadInput{"not_object", "[1]", "must be a JSON object", 1},
        BadInput{"chains_not_array", "{\"chains\": {}}", "'chains' must be an array", 1},
        BadInput{"missing_last_link", "{\"chains\": [\n{\"name\": \"a\", \"first_link\": \"b\"}]}",
                 "chain 'a': missing \"last_link\"", 2},
        BadInput{"unknown_key", "{\"chains\": [\n\n{\"name\": \"a\", \"first\": \"b\"}]}", "unknown key 'first'", 3},
        BadInput{"bad_point", "{\"contacts\": [{\"name\": \"c\", \"points\": [[1, 2]]}]}", "is not [x, y, z]", 1},
        BadInput{"wrong_type", "{\"groups\": [{\"name\": \"g\", \"joints\": \"j\"}]}", "must be an array of strings", 1},
        BadInput{"version", "{\"rmodel_semantics\": 7}", "unsupported rmodel_semantics version", 1}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

TEST(SemanticsLoad, MissingFileAndDirectoryAreIoErrors) {
  EXPECT_THROW((void)load_semantics("/nonexistent/x.cpf"), IoError);
  EXPECT_THROW((void)load_semantics(test::source_dir().string()), IoError);
}

TEST(SemanticsCpf, ExtraChainParametersAreKeptAndRoundTrip) {
  // The original service let a chain carry any PropertyBag member beyond the four it knew.
  const Semantics s = parse_cpf(
      "<properties><struct name=\"chains\" type=\"PropertyBag\"><struct name=\"a\" type=\"PropertyBag\">"
      "<simple name=\"first_link\" type=\"string\"><value>x</value></simple>"
      "<simple name=\"last_link\" type=\"string\"><value>y</value></simple>\n"
      "<simple name=\"parameter1\" type=\"string\"><value>z &amp; w</value></simple>"
      "<simple name=\"stiffness\" type=\"double\"><value>0.25</value></simple>\n"
      "<struct name=\"nested\" type=\"PropertyBag\"/></struct></struct></properties>",
      "w.cpf");
  ASSERT_EQ(s.chains.size(), 1U);
  EXPECT_EQ(s.chains[0].extra, (std::vector<ChainExtra>{{"parameter1", "string", "z & w"}, {"stiffness", "double", "0.25"}}));
  // Only a nested struct is not kept, with a warning on its line.
  ASSERT_EQ(s.warnings.size(), 1U);
  EXPECT_EQ(s.warnings[0].where.line, 3);
  EXPECT_NE(s.warnings[0].message.find("nested"), std::string::npos);
  // Through .cpf and JSON (what `rmodel convert` writes) and back.
  EXPECT_TRUE(parse_cpf(to_cpf(s), "r.cpf").same_content(s));
  EXPECT_TRUE(parse_semantics_json(to_semantics_json(s), "r.json").same_content(s));
  EXPECT_EQ(parse_semantics_json(to_semantics_json(s), "r.json").chains[0].extra, s.chains[0].extra);
}

TEST(SemanticsCpf, ExtraChainParametersAreQueryableOnTheModel) {
  const char* urdf = R"(<robot name="r"><link name="x"/><link name="y"/>
<joint name="j" type="continuous"><parent link="x"/><child link="y"/><axis xyz="0 0 1"/></joint></robot>)";
  const Semantics s = parse_cpf(
      "<properties><struct name=\"chains\" type=\"PropertyBag\"><struct name=\"a\" type=\"PropertyBag\">"
      "<simple name=\"first_link\" type=\"string\"><value>x</value></simple>"
      "<simple name=\"last_link\" type=\"string\"><value>y</value></simple>"
      "<simple name=\"gain\" type=\"double\"><value>3</value></simple></struct></struct></properties>",
      "w.cpf");
  const Model model = Model::from_urdf_string(urdf, "r.urdf", s);
  ASSERT_NE(model.chain_extra("a", "gain"), nullptr);
  EXPECT_EQ(model.chain_extra("a", "gain")->value, "3");
  EXPECT_EQ(model.chain_extra("a", "gain")->type, "double");
  EXPECT_EQ(model.chain_extra("a", "nope"), nullptr);
  EXPECT_THROW((void)model.chain_extra("b", "gain"), NotFound);
  // getChainProperty(last_link_virtual) of a chain without virtual joints: last_link.
  EXPECT_EQ(model.chain_property("a", ChainProperty::last_link_virtual), "y");
}

}  // namespace
}  // namespace rmodel
