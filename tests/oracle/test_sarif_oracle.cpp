// `check -f sarif` and `check-log -f sarif` read by Microsoft's SARIF validator (issue 41):
// `sarif-multitool validate` from npm's @microsoft/sarif-multitool, installed into the build tree
// at test time (the ctest fixture sarif_npm, tests/oracle/npm_install.sh); skips with a message
// when node or the package is absent. The validator checks the JSON schema and its own rules of
// good SARIF (paths, URIs, rule metadata, messages); none of its findings may be an error (nor a
// warning but the one for results without a line), on a
// model with errors and warnings, a valid one, a model checked through FILE arguments, a text
// log and a binary ROS log (no lines: results without a region).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path multitool() { return fs::path(RMODEL_NPM_SARIF_DIR) / "node_modules/@microsoft/sarif-multitool/bin.js"; }

bool have_multitool() { return std::system("node --version > /dev/null 2>&1") == 0 && fs::exists(multitool()); }

#define REQUIRE_MULTITOOL()                                                                                     \
  do {                                                                                                          \
    if (!have_multitool())                                                                                      \
      GTEST_SKIP() << "node or npm's @microsoft/sarif-multitool not found at " << multitool()                  \
                   << " (tests/oracle/npm_install.sh installs it; needs node, npm and the npm registry): "     \
                      "skipping the validation of -f sarif by Microsoft's SARIF validator";                    \
  } while (0)

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The validator's results on `sarif` (a file), every level; fails the test when it cannot run.
json validate(const fs::path& sarif) {
  const fs::path out = sarif.string() + ".validation.sarif";
  const std::string command = "node " + shell_quote(multitool().string()) + " validate " + shell_quote(sarif.string()) +
                              " -o " + shell_quote(out.string()) +
                              " --log ForceOverwrite --level Error Warning Note 2>&1";
  std::string text;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return json::array();
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
  const int status = pclose(pipe);
  EXPECT_EQ(status, 0) << text;
  if (!fs::exists(out)) {
    ADD_FAILURE() << "no validation output: " << text;
    return json::array();
  }
  return json::parse(test::read_file(out))["runs"][0]["results"];
}

/// Writes the output of rmodel `args` (exit 0 or 1) to DIR/name.sarif and validates it: no
/// error-level finding. Returns the SARIF written.
json expect_valid_sarif(const fs::path& dir, const std::string& name, const std::vector<std::string>& args) {
  const auto r = test::run_rmodel(args);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  const fs::path file = dir / (name + ".sarif");
  std::ofstream(file) << r.out;
  // Its warnings: only SARIF2017 (a location without a region), once for each result that has
  // no line: a problem of the whole file (no-groups) or at a message of a binary log. SARIF
  // leaves the region out for those; the validator would rather have one.
  const json sarif = json::parse(r.out);
  std::size_t without_region = 0;
  for (const json& result : sarif["runs"][0]["results"])
    without_region += result["locations"][0]["physicalLocation"].contains("region") ? 0 : 1;
  std::size_t missing_region = 0;
  for (const json& finding : validate(file)) {
    const std::string level = finding.value("level", "warning");
    EXPECT_NE(level, "error") << name << ": " << finding.dump();
    if (level == "warning" && finding["ruleId"] == "SARIF2017") ++missing_region;
    else EXPECT_NE(level, "warning") << name << ": " << finding.dump();
  }
  EXPECT_EQ(missing_region, without_region) << name;
  return sarif;
}

TEST(SarifValidator, CheckAndCheckLogWriteValidSarif) {
  REQUIRE_MULTITOOL();
  const fs::path dir = test::make_temp_dir("rmodel-sarif-");
  const fs::path examples = test::source_dir() / "share/rmodel/examples";
  const std::string urdf = (examples / "robot.urdf").string();
  const json broken = expect_valid_sarif(
      dir, "broken", {"check", "-u", urdf, "-s", (examples / "broken.json").string(), "-f", "sarif"});
  EXPECT_EQ(broken["runs"][0]["results"].size(), 3U);
  const json valid = expect_valid_sarif(dir, "valid", {"check", "--sample", "-f", "sarif"});
  EXPECT_TRUE(valid["runs"][0]["results"].empty());
  expect_valid_sarif(dir, "files",
                     {"check", "-u", urdf, urdf, (examples / "robot.srdf").string(),
                      (examples / "joint_limits.yaml").string(), "--strict", "-f", "sarif"});
  expect_valid_sarif(dir, "log", {"check-log", "--sample", (examples / "pony_log.jsonl").string(), "-f", "sarif"});
  // A file outside the repository (the temporary directory): an absolute file URI.
  std::ofstream(dir / "outside.urdf") << "<robot name=\"x\">\n  <link name=\"a\">\n</robot>\n";
  const json outside = expect_valid_sarif(dir, "outside", {"check", "-u", (dir / "outside.urdf").string(), "-f", "sarif"});
  EXPECT_EQ(outside["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file://" + fs::canonical(dir / "outside.urdf").string());
  if (test::have_fixtures()) {
    // A binary ROS log: problems at a message, not a line.
    fs::path bag;
    for (const auto& e : fs::directory_iterator(test::fixture("bags")))
      if (e.path().extension() == ".mcap") bag = e.path();
    if (!bag.empty())
      expect_valid_sarif(dir, "bag",
                         {"check-log", "-u", test::fixture("sweetie_bot_proto2/sweetie_bot_proto2.urdf").string(), "-s",
                          test::fixture("sweetie_bot_proto2/kinematic_chains.cpf").string(), bag.string(),
                          "--max-gap", "0.001", "-f", "sarif"});
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rmodel
