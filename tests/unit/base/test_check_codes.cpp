// The catalogue of codes (rmodel/base/check_codes.hpp): every code the library can emit is in it.
// Diagnostics can only be made with a catalogued model code (DiagnosticCode refuses any other
// string while compiling) and LogProblems with a catalogued log code (a static_assert in
// log_check.cpp); these tests check the rest: the table's own rules, that no library source
// sets a code some other way, and that the severity the catalogue states is the one the library
// reports, on real robot descriptions and on broken ones.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "rmodel/check/check.hpp"
#include "rmodel/base/check_codes.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

bool kebab_case(std::string_view code) {
  if (code.empty() || code.front() == '-' || code.back() == '-') return false;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (!(std::islower(static_cast<unsigned char>(c)) || c == '-')) return false;
    if (c == '-' && code[i + 1] == '-') return false;
  }
  return true;
}

TEST(CheckCodes, EveryCodeIsKebabCaseUniqueInItsScopeAndHasAFullPage) {
  std::set<std::pair<int, std::string_view>> seen;
  std::size_t model = 0, log = 0;
  for (const CheckCode& code : check_codes()) {
    SCOPED_TRACE(std::string(code.code));
    EXPECT_TRUE(kebab_case(code.code));
    EXPECT_TRUE(seen.insert({static_cast<int>(code.scope), code.code}).second) << "declared twice";
    EXPECT_FALSE(code.summary.empty());
    EXPECT_NE(code.summary.back(), '.') << "one line without a full stop";
    EXPECT_TRUE(std::isupper(static_cast<unsigned char>(code.summary.front())) || code.summary.front() == '<' ||
                code.summary.front() == 'j')
        << code.summary;
    if (code.mistake) {
      EXPECT_EQ(code.scope, CodeScope::model);
      EXPECT_EQ(code.severity, Severity::error) << "check counts a mistake as an error";
    }
    if (code.scope == CodeScope::model) {
      EXPECT_NE(code.inputs, 0U) << "a model code is found in some input";
      ++model;
    } else {
      EXPECT_EQ(code.inputs, 0U);
      ++log;
    }
    const CheckCodePage& page = check_code_page(code);
    for (std::string_view text : {page.meaning, page.matters, page.consumers, page.example, page.fix})
      EXPECT_FALSE(text.empty());
    EXPECT_EQ(find_check_code(code.code, code.scope), &code);
    EXPECT_TRUE(is_check_code(code.code, code.scope));
  }
  EXPECT_GT(model, 80U);
  EXPECT_EQ(log, 19U);  // LogChecker's codes (lib/src/stream/log_check.cpp, kCodeNames)
  EXPECT_EQ(find_check_code("no-such-code", CodeScope::model), nullptr);
  EXPECT_FALSE(is_check_code("read-error", CodeScope::model));  // a log code only
}

TEST(CheckCodes, TheErrorsIgnoreAcceptsAreCatalogueErrorsNotMistakes) {
  // check --ignore accepts these errors of physical plausibility, and only these.
  std::set<std::string_view> plausibility;
  for (std::string_view code : plausibility_error_codes()) {
    plausibility.insert(code);
    const CheckCode* entry = find_check_code(code, CodeScope::model);
    ASSERT_NE(entry, nullptr) << code;
    EXPECT_EQ(entry->severity, Severity::error) << code;
    EXPECT_FALSE(entry->mistake) << code;
  }
  EXPECT_EQ(plausibility, (std::set<std::string_view>{"inertial-mass", "inertia-not-positive", "inertia-triangle"}));
  for (const CheckCode& code : check_codes())
    EXPECT_EQ(is_plausibility_error(code.code), plausibility.count(code.code) == 1) << code.code;
}

TEST(CheckCodes, MistakesAreTheCodesTheCatalogueMarks) {
  // The codes loading reports as warnings and check as errors, as rmodel/check/check.hpp lists them.
  const std::set<std::string_view> documented = {
      "unknown-link",     "unknown-joint",         "unknown-chain", "srdf-unknown-group", "unreachable-link",
      "last-link-not-between", "pose-unknown-joint", "group-copy",  "mimic-unknown-joint", "mimic-fixed-joint",
      "mimic-cycle"};
  std::set<std::string_view> marked;
  for (const CheckCode& code : check_codes())
    if (code.mistake) marked.insert(code.code);
  EXPECT_EQ(marked, documented);
  for (const CheckCode& code : check_codes())
    if (code.scope == CodeScope::model) {
      EXPECT_EQ(is_mistake(code.code), code.mistake) << code.code;
    }
}

// A code reaches a Diagnostic or a LogProblem only through the checked constructors: no
// library source assigns a code member afterwards.
/// Whether `text` assigns a member `code`: ".code", blanks, then "=" that is not "==".
bool assigns_code(std::string_view text) {
  for (std::size_t at = text.find(".code"); at != std::string_view::npos; at = text.find(".code", at + 1)) {
    std::size_t k = at + 5;
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n')) ++k;
    if (k + 1 < text.size() && text[k] == '=' && text[k + 1] != '=') return true;
  }
  return false;
}

TEST(CheckCodes, NoLibrarySourceSetsACodeOutsideTheCatalogue) {
  EXPECT_TRUE(assigns_code("d.code = \"x\";"));
  EXPECT_TRUE(assigns_code("problem.code\n    = name;"));
  EXPECT_FALSE(assigns_code("if (d.code == \"x\")"));
  EXPECT_FALSE(assigns_code("return d.code;"));
  std::size_t sources = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(test::source_dir() / "lib" / "src")) {
    if (!entry.is_regular_file()) continue;
    const auto ext = entry.path().extension();
    if (ext != ".cpp" && ext != ".hpp") continue;
    ++sources;
    const std::string text = test::read_file(entry.path());
    EXPECT_FALSE(assigns_code(text)) << entry.path() << " assigns a code";
  }
  EXPECT_GT(sources, 50U);
}

/// The severity of every diagnostic of `report` is the catalogue's for its code; returns the
/// codes seen.
std::set<std::string> expect_catalogue_severities(const Diagnostics& report, const std::string& what) {
  std::set<std::string> codes;
  for (const Diagnostic& d : report.items) {
    const CheckCode* code = find_check_code(d.code, CodeScope::model);
    EXPECT_NE(code, nullptr) << what << ": " << d.code << " is not in the catalogue";
    if (code != nullptr) {
      EXPECT_EQ(to_string(d.severity), to_string(code->severity))
          << what << ": " << d.where.to_string() << " [" << d.code << "] " << d.message;
    }
    codes.insert(d.code);
  }
  return codes;
}

ModelSource source(const std::filesystem::path& urdf, const std::filesystem::path& semantics = {},
                   const std::filesystem::path& limits = {}) {
  ModelSource s;
  s.urdf_path = urdf.string();
  s.semantics_path = semantics.string();
  s.limits_path = limits.string();
  return s;
}

TEST(CheckCodes, BrokenDescriptionsAreReportedWithTheCataloguesSeverities) {
  const auto models = test::source_dir() / "tests/data/models";
  const auto examples = test::source_dir() / "share/rmodel/examples";
  std::set<std::string> seen;
  auto check = [&](const ModelSource& s) {
    for (const auto& c : expect_catalogue_severities(check_model(s), s.urdf_path + " " + s.semantics_path)) seen.insert(c);
  };
  for (const auto& entry : std::filesystem::directory_iterator(models))
    if (entry.path().extension() == ".srdf") check(source(models / "humanoid.urdf", entry.path()));
  for (const char* urdf : {"floating.urdf", "gripper.urdf", "implausible_inertias.urdf", "mimic_mistakes.urdf"})
    check(source(models / urdf));
  check(source(examples / "robot.urdf", examples / "broken.json"));
  check(source(examples / "robot.urdf", examples / "robot.srdf", examples / "joint_limits.yaml"));
  // Crafted: the URDF's structure, and a joint_limits.yaml with problems.
  const auto dir = test::make_temp_dir("rmodel-codes-");
  std::ofstream(dir / "bad.urdf") << R"(<robot>
  <link name="a"/>
  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <joint name="j" type="hinge"><parent link="a"/><child link="b"/></joint>
  <joint name="k" type="revolute"><parent link="a"/><child link="nowhere"/><axis xyz="0 0 0"/></joint>
  <joint name="k" type="prismatic"><parent link="b"/><child link="b"/><axis xyz="1, 0, 0"/></joint>
</robot>
)";
  check(source(dir / "bad.urdf"));
  std::ofstream(dir / "limits.yaml") << "joint_limits:\n  wrist:\n    has_velocity_limits: true\n"
                                        "    max_velocty: 1.0\n  wrists:\n    has_velocity_limits: true\n"
                                        "  elbow:\n    has_acceleration_limits: maybe\n";
  check(source(examples / "robot.urdf", examples / "robot.json", dir / "limits.yaml"));
  std::filesystem::remove_all(dir);
  // Enough different codes were met for the comparison to mean something.
  EXPECT_GE(seen.size(), 25U) << ::testing::PrintToString(seen);
}

TEST(CheckCodes, RealRobotsAreReportedWithTheCataloguesSeverities) {
  RMODEL_REQUIRE_FIXTURES();
  const std::vector<ModelSource> robots = {
      source(test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf"),
             test::fixture("sweetie_bot_proto2/kinematic_chains.cpf")),
      source(test::fixture("sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf"),
             test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.srdf")),
      source(test::fixture("example_robot_data/panda.urdf"), test::fixture("example_robot_data/panda.srdf")),
      source(test::fixture("example_robot_data/talos_reduced.urdf"), test::fixture("example_robot_data/talos.srdf")),
      source(test::fixture("example_robot_data/solo12.urdf"))};
  std::set<std::string> seen;
  for (const auto& robot : robots)
    for (const auto& c : expect_catalogue_severities(check_model(robot), robot.urdf_path)) seen.insert(c);
  EXPECT_FALSE(seen.empty());
}

}  // namespace
}  // namespace rmodel
