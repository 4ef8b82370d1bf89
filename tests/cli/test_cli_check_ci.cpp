// `check` where CI lives (issue 41): the catalogue of codes (--list-codes, --explain, the CODES
// section of the man page), the CI formats of check and check-log (SARIF, JUnit XML, GitLab
// Code Quality, the GitHub job summary), each compared with the JSON report of the same run,
// and FILE arguments as a pre-commit hook passes them. Microsoft's SARIF validator checks the
// SARIF in tests/oracle/test_sarif_oracle.cpp; xmllint checks the JUnit XML against the schema
// of tests/data/junit/junit.xsd here.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <tinyxml2.h>

#include "rmodel/base/check_codes.hpp"
#include "test_support.hpp"
#include "xml_oracle.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_rmodel;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// A checkout: DIR/repo with a .git directory, the example robot's robot.urdf and broken.json
/// with a chain to the fixed camera (2 errors, 1 warning) and its SRDF and joint_limits.yaml in DIR/repo/robot, and the current
/// directory there for the test's lifetime.
class CheckoutTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = test::make_temp_dir("rmodel-ci-");
    repo_ = dir_ / "repo";
    fs::create_directories(repo_ / ".git");
    fs::create_directories(repo_ / "robot");
    const fs::path examples = test::source_dir() / "share/rmodel/examples";
    for (const char* file : {"robot.urdf", "broken.json", "robot.srdf", "robot.json", "joint_limits.yaml"})
      fs::copy_file(examples / file, repo_ / "robot" / file);
    // The warning: a chain to the camera, whose joint is fixed (empty-chain, line 5).
    std::string semantics = test::read_file(repo_ / "robot/broken.json");
    const std::string arm_end = "\"last_link_virtual\": \"finger\"}],";
    const std::size_t at = semantics.find(arm_end);
    ASSERT_NE(at, std::string::npos);
    semantics.replace(at, arm_end.size(),
                      "\"last_link_virtual\": \"finger\"},\n  {\"name\": \"camera\", \"first_link\": \"base_link\", "
                      "\"last_link\": \"camera\"}],");
    std::ofstream(repo_ / "robot/broken.json") << semantics;
    cwd_ = fs::current_path();
    fs::current_path(repo_ / "robot");
  }
  void TearDown() override {
    fs::current_path(cwd_);
    fs::remove_all(dir_);
  }
  /// check on robot.urdf with broken.json, in `format`, plus `more` arguments.
  static test::RunResult broken(const std::string& format, std::vector<std::string> more = {}) {
    std::vector<std::string> args = {"check", "-u", "robot.urdf", "-s", "broken.json", "-f", format};
    args.insert(args.end(), more.begin(), more.end());
    return run_rmodel(args);
  }
  static json json_report(std::vector<std::string> more = {}) { return json::parse(broken("json", more).out); }

  fs::path dir_, repo_, cwd_;
};

// ---- the catalogue ----

std::vector<const CheckCode*> codes_of(CodeScope scope) {
  std::vector<const CheckCode*> out;
  for (const CheckCode& c : check_codes())
    if (c.scope == scope) out.push_back(&c);
  return out;
}

TEST(CliCheckCodes, ListCodesIsTheCatalogue) {
  const auto r = run_rmodel({"check", "--list-codes", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["schema"], "rmodel.check_codes");
  const auto codes = codes_of(CodeScope::model);
  ASSERT_EQ(doc["codes"].size(), codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) {
    EXPECT_EQ(doc["codes"][i]["code"], std::string(codes[i]->code));
    EXPECT_EQ(doc["codes"][i]["severity"], std::string(to_string(codes[i]->severity)));
    EXPECT_EQ(doc["codes"][i]["mistake"], codes[i]->mistake);
    EXPECT_EQ(doc["codes"][i]["summary"], std::string(codes[i]->summary));
  }
  // The text: one line per code after the header, the code first.
  const auto text = run_rmodel({"check", "--list-codes"});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_TRUE(text.out.starts_with("code ")) << text.out;
  EXPECT_TRUE(contains(text.out, "\ngroup-copy                   error (a mistake)  A group copied from the other side"))
      << text.out;
  EXPECT_EQ(static_cast<std::size_t>(std::count(text.out.begin(), text.out.end(), '\n')), codes.size() + 1);
}

TEST(CliCheckCodes, ExplainShowsThePageAndAnUnknownCodeIsAUsageError) {
  const auto r = run_rmodel({"check", "--explain", "inertia-triangle"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("inertia-triangle\n")) << r.out;
  for (const char* part : {"Why it matters.", "Who cares.", "Example:", "Fix.", "MuJoCo",
                           "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.05\"/>"})
    EXPECT_TRUE(contains(r.out, part)) << part << "\n" << r.out;
  const auto bad = run_rmodel({"check", "--explain", "unknown-lnk"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(bad.out.empty());
  EXPECT_TRUE(contains(bad.err, "--explain: 'unknown-lnk' is not a code of rmodel check; did you mean 'unknown-link'?"))
      << bad.err;
  // A log code is not one of check's.
  EXPECT_EQ(run_rmodel({"check", "--explain", "stamp-backwards"}).exit_code, 2);
}

TEST(CliCheckCodes, TheCatalogueReadsNoModel) {
  const auto r = run_rmodel({"check", "--list-codes", "--sample"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--list-codes reads no model: --sample does not apply")) << r.err;
  EXPECT_EQ(run_rmodel({"check", "--explain", "axis", "-f", "json"}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"check", "--list-codes", "--explain", "axis"}).exit_code, 2);
  EXPECT_EQ(run_rmodel({"check", "--list-codes", "-f", "sarif"}).exit_code, 2);
}

/// The subsection titles (.SS) of a committed man page.
std::set<std::string> subsections(const std::string& page) {
  std::set<std::string> out;
  std::istringstream in(test::read_file(test::source_dir() / "man" / page));
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with(".SS ")) continue;
    std::string title;
    for (std::size_t i = 4; i < line.size(); ++i)
      if (line[i] != '\\') title += line[i];  // roff escapes "\-"
    out.insert(title);
  }
  return out;
}

TEST(CliCheckCodes, ManPagesHaveASectionPerCode) {
  const auto check = subsections("rmodel-check.1");
  for (const CheckCode* c : codes_of(CodeScope::model)) EXPECT_TRUE(check.count(std::string(c->code))) << c->code;
  const auto log = subsections("rmodel-check-log.1");
  for (const CheckCode* c : codes_of(CodeScope::log)) EXPECT_TRUE(log.count(std::string(c->code))) << c->code;
}

// ---- SARIF ----

TEST_F(CheckoutTest, SarifResultsAreTheJsonReportsProblems) {
  const auto r = broken("sarif");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json sarif = json::parse(r.out);
  const json report = json_report();
  EXPECT_EQ(sarif["version"], "2.1.0");
  const json& run = sarif["runs"][0];
  const json version = json::parse(run_rmodel({"version", "-f", "json"}).out);
  EXPECT_EQ(run["tool"]["driver"]["name"], "rmodel");
  EXPECT_EQ(run["tool"]["driver"]["version"], version["version"]);
  // One rule per code of the catalogue, whatever was found.
  const json& rules = run["tool"]["driver"]["rules"];
  const auto codes = codes_of(CodeScope::model);
  ASSERT_EQ(rules.size(), codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) {
    EXPECT_EQ(rules[i]["id"], std::string(codes[i]->code));
    EXPECT_EQ(rules[i]["shortDescription"]["text"], std::string(codes[i]->summary) + ".");
    EXPECT_FALSE(rules[i]["fullDescription"]["text"].get<std::string>().empty());
    EXPECT_TRUE(contains(rules[i]["help"]["markdown"].get<std::string>(), "**Fix.**"));
    EXPECT_EQ(rules[i]["helpUri"], "man:rmodel-check(1)");
  }
  // The root is the checkout, as an absolute directory URI.
  EXPECT_EQ(run["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file://" + fs::canonical(repo_).string() + "/");
  const json& results = run["results"];
  ASSERT_EQ(results.size(), report["problems"].size());
  ASSERT_EQ(results.size(), 4U);  // two errors, a warning, a note
  std::set<std::string> prints;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const json& p = report["problems"][i];
    const json& result = results[i];
    EXPECT_EQ(result["ruleId"], p["code"]);
    EXPECT_EQ(rules[result["ruleIndex"].get<std::size_t>()]["id"], p["code"]);
    EXPECT_EQ(result["level"], p["severity"]);
    EXPECT_EQ(result["message"]["text"], p["message"].get<std::string>() + ".");
    const json& location = result["locations"][0]["physicalLocation"];
    EXPECT_EQ(location["artifactLocation"]["uri"], "robot/" + p["file"].get<std::string>());
    EXPECT_EQ(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    EXPECT_EQ(location["region"]["startLine"], p["line"]);
    prints.insert(result["partialFingerprints"]["rmodelFingerprint/v1"].get<std::string>());
  }
  EXPECT_EQ(prints.size(), results.size()) << "fingerprints are unique";
}

TEST_F(CheckoutTest, FindingsKeepTheirPathsAndFingerprintsFromAnyDirectory) {
  const json here = json::parse(broken("sarif").out);
  fs::current_path(repo_);
  const json root = json::parse(
      run_rmodel({"check", "-u", "robot/robot.urdf", "-s", "robot/broken.json", "-f", "sarif"}).out);
  const json quality = json::parse(
      run_rmodel({"check", "-u", "robot/robot.urdf", "-s", "robot/broken.json", "-f", "codequality"}).out);
  fs::current_path(repo_ / "robot");
  const json again = json::parse(broken("codequality").out);
  ASSERT_EQ(here["runs"][0]["results"].size(), root["runs"][0]["results"].size());
  for (std::size_t i = 0; i < quality.size(); ++i) {
    EXPECT_EQ(here["runs"][0]["results"][i]["locations"], root["runs"][0]["results"][i]["locations"]);
    EXPECT_EQ(here["runs"][0]["results"][i]["partialFingerprints"]["rmodelFingerprint/v1"],
              root["runs"][0]["results"][i]["partialFingerprints"]["rmodelFingerprint/v1"]);
    EXPECT_EQ(quality[i]["fingerprint"], again[i]["fingerprint"]);
    EXPECT_EQ(quality[i]["location"], again[i]["location"]);
  }
  // A line moved by an edit above the problem: the same fingerprints.
  std::string semantics = test::read_file(repo_ / "robot/broken.json");
  std::ofstream(repo_ / "robot/broken.json") << "\n\n" << semantics;
  const json moved = json::parse(broken("codequality").out);
  ASSERT_EQ(moved.size(), again.size());
  for (std::size_t i = 0; i < moved.size(); ++i) {
    EXPECT_EQ(moved[i]["fingerprint"], again[i]["fingerprint"]);
    if (again[i]["location"]["path"] == "robot/broken.json") {
      EXPECT_EQ(moved[i]["location"]["lines"]["begin"].get<int>(), again[i]["location"]["lines"]["begin"].get<int>() + 2);
    }
  }
}

TEST(CliCheckSarif, CheckLogRulesAreTheLogCodes) {
  const auto r = run_rmodel({"check-log", "--sample", (test::source_dir() / "share/rmodel/examples/pony_log.jsonl").string(),
                             "-f", "sarif"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json run = json::parse(r.out)["runs"][0];
  const auto codes = codes_of(CodeScope::log);
  ASSERT_EQ(run["tool"]["driver"]["rules"].size(), codes.size());
  const json report = json::parse(run_rmodel({"check-log", "--sample",
                                              (test::source_dir() / "share/rmodel/examples/pony_log.jsonl").string(),
                                              "-f", "json"})
                                      .out);
  ASSERT_EQ(run["results"].size(), report["problems"].size());
  for (std::size_t i = 0; i < run["results"].size(); ++i) {
    EXPECT_EQ(run["results"][i]["ruleId"], report["problems"][i]["code"]);
    EXPECT_EQ(run["results"][i]["locations"][0]["physicalLocation"]["region"]["startLine"],
              report["problems"][i]["line"]);
    EXPECT_EQ(run["results"][i]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
              "share/rmodel/examples/pony_log.jsonl");
  }
}

// ---- JUnit XML ----

struct JunitCase {
  std::string suite, classname, name;
  std::vector<std::string> failures;  // bodies
  std::string out;
  bool skipped = false;
};

std::vector<JunitCase> junit_cases(const std::string& xml) {
  tinyxml2::XMLDocument doc;
  EXPECT_EQ(doc.Parse(xml.c_str(), xml.size()), tinyxml2::XML_SUCCESS) << xml;
  std::vector<JunitCase> out;
  const auto* root = doc.FirstChildElement("testsuites");
  if (root == nullptr) return out;
  std::size_t total = 0, total_failed = 0;
  for (const auto* suite = root->FirstChildElement("testsuite"); suite; suite = suite->NextSiblingElement("testsuite")) {
    std::size_t tests = 0, failed = 0, skipped = 0;
    for (const auto* c = suite->FirstChildElement("testcase"); c; c = c->NextSiblingElement("testcase")) {
      JunitCase jc{suite->Attribute("name"), c->Attribute("classname"), c->Attribute("name"), {}, {}, false};
      for (const auto* f = c->FirstChildElement("failure"); f; f = f->NextSiblingElement("failure"))
        jc.failures.push_back(f->GetText() ? f->GetText() : "");
      if (const auto* o = c->FirstChildElement("system-out")) jc.out = o->GetText() ? o->GetText() : "";
      jc.skipped = c->FirstChildElement("skipped") != nullptr;
      ++tests;
      failed += jc.failures.empty() ? 0 : 1;
      skipped += jc.skipped ? 1 : 0;
      out.push_back(std::move(jc));
    }
    EXPECT_EQ(suite->UnsignedAttribute("tests"), tests);
    EXPECT_EQ(suite->UnsignedAttribute("failures"), failed);
    EXPECT_EQ(suite->UnsignedAttribute("skipped"), skipped);
    total += tests;
    total_failed += failed;
  }
  EXPECT_EQ(root->UnsignedAttribute("tests"), total);
  EXPECT_EQ(root->UnsignedAttribute("failures"), total_failed);
  return out;
}

TEST_F(CheckoutTest, JunitHasACasePerFileAndCodeAndAFailurePerError) {
  const auto r = broken("junit");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto cases = junit_cases(r.out);
  std::set<std::pair<std::string, std::string>> ids;
  std::size_t urdf_cases = 0, semantics_cases = 0;
  for (const auto& c : cases) {
    EXPECT_TRUE(ids.insert({c.classname, c.name}).second) << "classname and name repeat: " << c.classname << " " << c.name;
    EXPECT_EQ(c.suite, "rmodel check " + c.classname);
    const CheckCode* code = find_check_code(c.name, CodeScope::model);
    ASSERT_NE(code, nullptr) << c.name;
    if (c.classname == "robot/robot.urdf") {
      EXPECT_TRUE(code->inputs & code_input::urdf) << c.name;
      ++urdf_cases;
    } else {
      EXPECT_EQ(c.classname, "robot/broken.json");
      EXPECT_TRUE(code->inputs & code_input::semantics) << c.name;
      ++semantics_cases;
    }
  }
  // Every code a URDF (semantics) can have is a case of it, passed or failed.
  std::size_t urdf_codes = 0, semantics_codes = 0;
  for (const CheckCode* c : codes_of(CodeScope::model)) {
    urdf_codes += (c->inputs & code_input::urdf) ? 1 : 0;
    semantics_codes += (c->inputs & code_input::semantics) ? 1 : 0;
  }
  EXPECT_EQ(urdf_cases, urdf_codes);
  EXPECT_EQ(semantics_cases, semantics_codes);
  // The errors of the JSON report, each a failure of its file's case of its code, with the text
  // report's line as its body; the warning in the case's output, not a failure.
  std::size_t failures = 0;
  for (const auto& c : cases) failures += c.failures.size();
  const json report = json_report();
  EXPECT_EQ(failures, report["errors"].get<std::size_t>());
  for (const auto& p : report["problems"]) {
    const std::string text = fmt::format("{}:{}: {}: {} [{}]", "robot/" + p["file"].get<std::string>(),
                                         p["line"].get<int>(), p["severity"].get<std::string>(),
                                         p["message"].get<std::string>(), p["code"].get<std::string>());
    const auto it = std::find_if(cases.begin(), cases.end(), [&](const JunitCase& c) {
      return c.classname == "robot/" + p["file"].get<std::string>() && c.name == p["code"];
    });
    ASSERT_NE(it, cases.end()) << text;
    if (p["severity"] == "error") {
      EXPECT_NE(std::find(it->failures.begin(), it->failures.end(), text), it->failures.end()) << text;
    } else {
      EXPECT_EQ(it->out, text + "\n");
    }
  }
}

TEST_F(CheckoutTest, JunitStrictFailsWarningsAndIgnoredCodesAreSkipped) {
  auto find = [](const std::vector<JunitCase>& cases, const std::string& name,
                 const std::string& file = "robot/robot.urdf") {
    return *std::find_if(cases.begin(), cases.end(),
                         [&](const JunitCase& c) { return c.classname == file && c.name == name; });
  };
  const auto strict = junit_cases(broken("junit", {"--strict"}).out);
  EXPECT_EQ(find(strict, "empty-chain", "robot/broken.json").failures.size(), 1U);
  EXPECT_TRUE(find(strict, "joint-outside-pose").failures.empty());  // a note fails nothing
  const auto ignored = junit_cases(broken("junit", {"--ignore", "empty-chain,robot-name"}).out);
  EXPECT_TRUE(find(ignored, "empty-chain", "robot/broken.json").skipped);
  EXPECT_TRUE(find(ignored, "empty-chain", "robot/broken.json").out.empty());
  EXPECT_TRUE(find(ignored, "robot-name").skipped);
  EXPECT_FALSE(find(ignored, "xml-syntax").skipped);
}

TEST_F(CheckoutTest, JunitValidatesAgainstTheSchemaJenkinsAndGitlabRead) {
  if (std::system("xmllint --version > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "xmllint not found (Debian package libxml2-utils): skipping the schema check of -f junit";
  const fs::path xsd = test::source_dir() / "tests/data/junit/junit.xsd";
  auto valid = [&](const std::string& xml, const std::string& name) {
    const fs::path file = dir_ / (name + ".xml");
    std::ofstream(file) << xml;
    const std::string command = "xmllint --noout --schema '" + xsd.string() + "' '" + file.string() + "' 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    std::string out;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    EXPECT_EQ(pclose(pipe), 0) << name << ": " << out;
  };
  valid(broken("junit").out, "broken");
  valid(broken("junit", {"--strict", "--ignore", "robot-name"}).out, "strict");
  valid(run_rmodel({"check", "--sample", "-f", "junit"}).out, "sample");
  valid(run_rmodel({"check-log", "--sample", (test::source_dir() / "share/rmodel/examples/pony_log.jsonl").string(),
                    "-f", "junit"})
            .out,
        "log");
  // The schema refuses what it should: a case twice (the first passed case, repeated).
  std::string twice = broken("junit").out;
  const auto at = twice.find("<testcase ");
  const auto end = twice.find("/>\n", at) + 3;
  twice.insert(end, twice.substr(at, end - at));
  const fs::path file = dir_ / "twice.xml";
  std::ofstream(file) << twice;
  EXPECT_NE(std::system(("xmllint --noout --schema '" + xsd.string() + "' '" + file.string() + "' > /dev/null 2>&1").c_str()),
            0);
}

TEST_F(CheckoutTest, JunitMessagesReadBackAsTheJsonReportGivesThem) {
  // A link named over two lines (a character reference): the failure's message attribute
  // keeps its line feed, which a reader would make a space if it were written raw (paths are
  // the checkout's).
  std::ofstream("two_lines.urdf") << "<robot name=\"r\">\n<link name=\"a&#10;b\"/>\n<link name=\"a&#10;b\"/>\n</robot>\n";
  const auto report = json::parse(run_rmodel({"check", "-f", "json", "two_lines.urdf"}).out);
  ASSERT_EQ(report["problems"].size(), 1U) << report.dump();
  const std::string message = report["problems"][0]["message"];
  ASSERT_NE(message.find("'a\nb'"), std::string::npos) << message;
  RMODEL_REQUIRE_EXPAT_ORACLE();
  const json read = test::expat_read(run_rmodel({"check", "-f", "junit", "two_lines.urdf"}).out);
  ASSERT_TRUE(read.contains("elements")) << read.dump();
  std::vector<json> failures;
  for (const json& e : read["elements"])
    if (e["name"] == "failure") failures.push_back(e);
  ASSERT_EQ(failures.size(), 1U);
  EXPECT_EQ(failures[0]["attributes"]["message"], message);
  EXPECT_EQ(failures[0]["text"], "robot/two_lines.urdf:3: error: " + message + " [duplicate-link]");
}

// ---- GitLab Code Quality ----

TEST_F(CheckoutTest, CodeQualityIssuesAreTheJsonReportsProblems) {
  const auto r = broken("codequality");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json issues = json::parse(r.out);
  const json report = json_report();
  ASSERT_TRUE(issues.is_array());
  ASSERT_EQ(issues.size(), report["problems"].size());
  std::set<std::string> prints;
  const std::map<std::string, std::string> severity = {{"error", "major"}, {"warning", "minor"}, {"note", "info"}};
  for (std::size_t i = 0; i < issues.size(); ++i) {
    const json& p = report["problems"][i];
    EXPECT_EQ(issues[i]["description"], p["message"]);
    EXPECT_EQ(issues[i]["check_name"], p["code"]);
    EXPECT_EQ(issues[i]["severity"], severity.at(p["severity"].get<std::string>()));
    EXPECT_EQ(issues[i]["location"]["path"], "robot/" + p["file"].get<std::string>());
    EXPECT_EQ(issues[i]["location"]["lines"]["begin"], p["line"]);
    EXPECT_EQ(issues[i]["fingerprint"].get<std::string>().size(), 32U);
    prints.insert(issues[i]["fingerprint"].get<std::string>());
  }
  EXPECT_EQ(prints.size(), issues.size());
  // A valid model: an empty array.
  EXPECT_EQ(json::parse(run_rmodel({"check", "--sample", "-f", "codequality"}).out), json::array());
}

// ---- GitHub ----

TEST_F(CheckoutTest, GithubAppendsATableOfEveryFindingToTheJobSummary) {
  const fs::path summary = dir_ / "summary.md";
  std::ofstream(summary) << "# an earlier step\n\n";
  setenv("GITHUB_STEP_SUMMARY", summary.string().c_str(), 1);
  const auto r = broken("github");
  const auto valid = run_rmodel({"check", "-u", "robot.urdf", "-s", "robot.json", "-f", "github"});
  unsetenv("GITHUB_STEP_SUMMARY");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.out, "::error file=robot/broken.json,line=2,title=unknown-link::")) << r.out;
  EXPECT_TRUE(r.out.ends_with("invalid: 2 errors, 1 warning\n")) << r.out;
  const std::string text = test::read_file(summary);
  EXPECT_TRUE(text.starts_with("# an earlier step\n\n### rmodel check: invalid: 2 errors, 1 warning\n\n")) << text;
  EXPECT_TRUE(contains(text, "| error | robot/broken.json | 2 | `unknown-link` | chain 'mast': last_link 'nowhere' is "
                             "not a link of the URDF: the chain is skipped |\n"))
      << text;
  EXPECT_TRUE(contains(text, "| warning | robot/broken.json | 5 | `empty-chain` |")) << text;
  EXPECT_TRUE(contains(text, "| note | robot/robot.urdf | 129 | `joint-outside-pose` |")) << text;
  const json report = json_report();
  std::size_t rows = 0;
  for (std::size_t at = 0; (at = text.find("\n| ", at)) != std::string::npos; ++at) ++rows;
  EXPECT_EQ(rows, report["problems"].size() + 1);  // and the header
  EXPECT_TRUE(text.ends_with("### rmodel check: valid: 0 errors, 0 warnings\n\nNo problem found.\n\n")) << text;
  // Without the variable, nothing but the annotations.
  EXPECT_EQ(broken("github").out, r.out);
}

// ---- FILE arguments (a pre-commit hook) ----

TEST_F(CheckoutTest, FilesAreCheckedEachWithItsModel) {
  std::ofstream("bad.urdf") << "<robot name=\"bad\">\n  <link name=\"a\">\n</robot>\n";
  const auto two = run_rmodel({"check", "robot.urdf", "bad.urdf"});
  EXPECT_EQ(two.exit_code, 1);
  EXPECT_TRUE(contains(two.out, "bad.urdf:2: error: malformed XML")) << two.out;
  EXPECT_TRUE(contains(two.out, "\nrobot.urdf: valid: 0 errors, 0 warnings\nbad.urdf: invalid: 1 error, 0 warnings\n"))
      << two.out;
  // Semantics and limits go with the model -u names; without one, a usage error naming the file.
  const auto alone = run_rmodel({"check", "robot.srdf"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_TRUE(contains(alone.err, "robot.srdf: a semantics file is checked with its robot's URDF: name it with -u"))
      << alone.err;
  const auto moveit = run_rmodel({"check", "-u", "robot.urdf", "robot.srdf", "joint_limits.yaml", "broken.json"});
  EXPECT_EQ(moveit.exit_code, 1);
  EXPECT_TRUE(contains(moveit.out, "\nrobot.srdf: ")) << moveit.out;
  EXPECT_TRUE(contains(moveit.out, "\njoint_limits.yaml: ")) << moveit.out;
  EXPECT_TRUE(contains(moveit.out, "\nbroken.json: invalid: 2 errors, 1 warning\n")) << moveit.out;
  // A hook's args end with an option of its own: the files follow it (--ignore takes one code).
  const auto hook = run_rmodel({"check", "-u", "robot.urdf", "--ignore", "empty-chain", "broken.json"});
  EXPECT_EQ(hook.exit_code, 1) << hook.err;
  EXPECT_TRUE(contains(hook.out, "\ninvalid: 2 errors, 0 warnings (1 ignored)\n")) << hook.out;
  // A problem of the URDF both models have is reported once.
  const json shared = json::parse(run_rmodel({"check", "-u", "robot.urdf", "robot.srdf", "broken.json", "-f", "json"}).out);
  EXPECT_EQ(std::count_if(shared["problems"].begin(), shared["problems"].end(),
                          [](const json& p) { return p["code"] == "joint-outside-pose"; }),
            1)
      << shared.dump();
  // One SARIF document for all of them.
  const json sarif = json::parse(run_rmodel({"check", "-u", "robot.urdf", "robot.urdf", "bad.urdf", "-f", "sarif"}).out);
  ASSERT_EQ(sarif["runs"].size(), 1U);
  EXPECT_EQ(sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "robot/bad.urdf");
}

}  // namespace
}  // namespace rmodel
