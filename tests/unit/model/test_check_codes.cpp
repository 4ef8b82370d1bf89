// rmodel::check_codes() is the list `rmodel check --ignore` accepts: every code the checks
// can report, and no other. The codes are found where they are written, in the sources of
// the model and xacro layers (check_model reads the URDF, the semantics, the limits file and
// expands xacro): every kebab-case string there is a code, and so is the string that follows
// a severity and a place (`add(Severity::error, {source, line}, "axis", ...)`).
#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "rmodel/check.hpp"
#include "test_support.hpp"

namespace {

std::set<std::string> codes_in_sources() {
  namespace fs = std::filesystem;
  static const std::regex kebab("\"([a-z][a-z0-9]*(-[a-z0-9]+)+)\"");
  static const std::regex after_severity(R"(Severity::(error|warning|note)\s*,\s*(\{[^{}]*\}|[^,]+)\s*,\s*"([a-z][a-z0-9-]*)\")");
  std::set<std::string> out;
  for (const char* folder : {"lib/src/model", "lib/src/xacro"})
    for (const auto& entry : fs::directory_iterator(rmodel::test::source_dir() / folder)) {
      const std::string text = rmodel::test::read_file(entry.path());
      for (auto it = std::sregex_iterator(text.begin(), text.end(), kebab); it != std::sregex_iterator(); ++it)
        out.insert((*it)[1]);
      for (auto it = std::sregex_iterator(text.begin(), text.end(), after_severity); it != std::sregex_iterator();
           ++it)
        out.insert((*it)[3]);
    }
  return out;
}

}  // namespace

TEST(CheckCodes, AreTheCodesTheSourcesReport) {
  const std::set<std::string> found = codes_in_sources();
  ASSERT_GT(found.size(), 50u);  // the scan works
  std::set<std::string> listed;
  for (std::string_view code : rmodel::check_codes()) listed.insert(std::string(code));
  for (const auto& code : found)
    EXPECT_TRUE(listed.count(code)) << "'" << code << "' is reported but not in check_codes() (lib/src/model/check.cpp)";
  for (const auto& code : listed)
    EXPECT_TRUE(found.count(code)) << "'" << code << "' is in check_codes() but no source reports it";
  const auto codes = rmodel::check_codes();
  EXPECT_TRUE(std::is_sorted(codes.begin(), codes.end()));
  for (std::string_view code : rmodel::plausibility_error_codes()) {
    EXPECT_TRUE(listed.count(std::string(code))) << code;
    EXPECT_TRUE(rmodel::is_plausibility_error(code)) << code;
    EXPECT_FALSE(rmodel::is_mistake(code)) << code;
  }
  EXPECT_FALSE(rmodel::is_plausibility_error("inertia-zero-moment"));  // a warning
  EXPECT_FALSE(rmodel::is_plausibility_error("missing-limit"));
}

// The codes the checks report are in the list: every problem of the models under tests/data.
TEST(CheckCodes, EveryReportedCodeIsListed) {
  namespace fs = std::filesystem;
  const auto codes = rmodel::check_codes();
  std::size_t reported = 0;
  for (const auto& entry : fs::directory_iterator(rmodel::test::source_dir() / "tests" / "data" / "models")) {
    if (entry.path().extension() != ".urdf") continue;
    const auto d = rmodel::check_model_text(rmodel::test::read_file(entry.path()), entry.path().filename().string(),
                                            nullptr, "");
    for (const auto& item : d.items) {
      ++reported;
      EXPECT_NE(std::find(codes.begin(), codes.end(), item.code), codes.end()) << item.code << ": " << item.message;
    }
  }
  EXPECT_GT(reported, 0u);
}
