#include "report/ci_report.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/code_pages.hpp"
#include "rmodel/base/xml_text.hpp"
#include "terminal.hpp"

#ifndef RMODEL_VERSION_STRING
#define RMODEL_VERSION_STRING "0"
#endif
// Where the catalogue's pages are published with an anchor per code (docs are generated from
// the same table); empty: the rules point at the manual page, which has a section per code.
#ifndef RMODEL_CODES_URL
#define RMODEL_CODES_URL ""
#endif

namespace rmodel::cli {
namespace {

using OrderedJson = nlohmann::ordered_json;

std::string json_dump(const OrderedJson& doc) {
  // Replaces bytes that are not UTF-8 (a log's damaged line quoted in a message) rather than fail.
  return doc.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

/// 64-bit FNV-1a.
std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 14695981039346656037ULL) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

/// Text for XML character data and attribute values (rmodel/base/xml_text.hpp).
std::string xml_text(std::string_view text) { return xml_escaped(text, XmlPlace::text); }
std::string xml_attribute(std::string_view text) { return xml_escaped(text, XmlPlace::attribute); }

/// The message with the place the text report gives beyond file and line (a binary log's
/// message number).
std::string full_message(const Finding& f) { return f.place.empty() ? f.message : f.place + ": " + f.message; }

/// The text of a finding as the text report prints it: "FILE:LINE: SEVERITY: MESSAGE [CODE]".
std::string finding_line(const Finding& f, const std::string& file) {
  const std::string where =
      file + (f.line > 0 ? fmt::format(":{}", f.line) : "") + (f.place.empty() ? "" : ": " + f.place);
  return fmt::format("{}: {}: {} [{}]", where, to_string(f.severity), f.message, f.code);
}

std::string_view sarif_level(Severity s) {
  return s == Severity::error ? "error" : s == Severity::warning ? "warning" : "note";
}

/// "unknown-link" → "UnknownLink": SARIF's rule name, an identifier people can read.
std::string rule_name(std::string_view code) {
  std::string out;
  bool upper = true;
  for (char c : code) {
    if (c == '-') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

std::string help_uri(const CheckCode& code) {
  const std::string_view base = RMODEL_CODES_URL;
  if (!base.empty())
    return fmt::format("{}#{}{}", base, code.scope == CodeScope::log ? "log-" : "", code.code);
  return code.scope == CodeScope::log ? "man:rmodel-check-log(1)" : "man:rmodel-check(1)";
}

/// A file URI of an absolute path: "file:///a/b%20c".
std::string file_uri(const std::filesystem::path& path, bool directory) {
  std::string out = "file://";
  for (unsigned char c : path.generic_string()) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  if (directory && !out.ends_with('/')) out += '/';
  return out;
}

/// A relative path as a URI reference: the characters URIs reserve, percent-encoded.
std::string relative_uri(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  return out;
}

std::string sentence(std::string text) {
  if (!text.empty() && text.back() != '.' && text.back() != '!' && text.back() != '?') text += '.';
  return text;
}

}  // namespace

SourceRoot SourceRoot::find(const std::filesystem::path& from) {
  std::error_code ec;
  std::filesystem::path start = std::filesystem::weakly_canonical(from, ec);
  if (ec) start = from;
  for (std::filesystem::path dir = start;; dir = dir.parent_path()) {
    if (std::filesystem::exists(dir / ".git", ec)) {
      SourceRoot root;
      root.root_ = dir;
      return root;
    }
    if (dir == dir.root_path() || dir.empty()) break;
  }
  SourceRoot root;
  root.root_ = start;
  return root;
}

std::optional<std::string> SourceRoot::relative(const std::string& file) const {
  if (file.empty() || file == "-" || (file.front() == '<' && file.back() == '>')) return std::nullopt;
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(file, ec), ec);
  if (ec) return std::nullopt;
  const std::filesystem::path rel = absolute.lexically_relative(root_);
  if (rel.empty() || rel.begin()->string() == "..") return std::nullopt;
  return rel.generic_string();
}

std::string SourceRoot::name(const std::string& file) const { return relative(file).value_or(file); }

std::vector<std::string> fingerprints(const CiReport& report, const SourceRoot& root) {
  std::vector<std::string> out;
  std::map<std::string, int> seen;
  for (const Finding& f : report.findings) {
    std::string key = fmt::format("{}\n{}\n{}\n{}", report.scope == CodeScope::log ? "log" : "model", f.code,
                                  root.name(f.file), full_message(f));
    const int occurrence = seen[key]++;
    key += fmt::format("\n{}", occurrence);
    // Two FNV-1a hashes of different offsets: 128 bits, as long as an MD5 hex digest.
    out.push_back(fmt::format("{:016x}{:016x}", fnv1a(key), fnv1a(key, 0x6c62272e07bb0142ULL)));
  }
  return out;
}

std::string sarif_report(const CiReport& report, const SourceRoot& root) {
  OrderedJson rules = OrderedJson::array();
  std::map<std::string, std::size_t, std::less<>> rule_index;
  for (const CheckCode& code : check_codes()) {
    if (code.scope != report.scope) continue;
    const CheckCodePage& page = check_code_page(code);
    rule_index.emplace(std::string(code.code), rules.size());
    OrderedJson rule = {{"id", std::string(code.code)}};
    // A readable identifier, left out where it would repeat the id ("axis": "Axis").
    if (const std::string name = rule_name(code.code); name.size() != code.code.size()) rule["name"] = name;
    rule.update(OrderedJson{{"shortDescription", {{"text", sentence(std::string(code.summary))}}},
                        {"fullDescription", {{"text", sentence(std::string(page.meaning))}}},
                        {"help",
                         {{"text", sentence(std::string(page.meaning)) + " " + std::string(page.fix)},
                          {"markdown", code_page_markdown(code)}}},
                        {"helpUri", help_uri(code)},
                        {"defaultConfiguration", {{"level", sarif_level(code.severity)}}},
                        {"properties", {{"tags", OrderedJson::array({std::string(report.command)})}}}});
    rules.push_back(std::move(rule));
  }
  const auto prints = fingerprints(report, root);
  OrderedJson results = OrderedJson::array();
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    const Finding& f = report.findings[i];
    OrderedJson result = {{"ruleId", f.code}};
    if (const auto it = rule_index.find(f.code); it != rule_index.end()) result["ruleIndex"] = it->second;
    result["level"] = sarif_level(f.severity);
    result["message"] = {{"text", sentence(full_message(f))}};
    OrderedJson artifact;
    if (const auto rel = root.relative(f.file)) {
      artifact = {{"uri", relative_uri(*rel)}, {"uriBaseId", "%SRCROOT%"}};
    } else {
      // A file URI has no '..' segment (SARIF's rule SARIF1002): the path without them.
      std::error_code ec;
      const auto absolute = std::filesystem::absolute(f.file, ec).lexically_normal();
      artifact = {{"uri", f.file.front() == '<' || ec ? relative_uri(f.file) : file_uri(absolute, false)}};
    }
    OrderedJson physical = {{"artifactLocation", artifact}};
    if (f.line > 0) physical["region"] = {{"startLine", f.line}};
    result["locations"] = OrderedJson::array({{{"physicalLocation", physical}}});
    result["partialFingerprints"] = {{"rmodelFingerprint/v1", prints[i]}};
    results.push_back(std::move(result));
  }
  OrderedJson run = {
      {"tool",
       {{"driver",
         {{"name", "rmodel"},
          {"fullName", fmt::format("rmodel {}", report.command)},
          {"version", RMODEL_VERSION_STRING},
          {"semanticVersion", RMODEL_VERSION_STRING},
          {"informationUri", "man:rmodel(1)"},
          {"rules", std::move(rules)}}}}},
      {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", file_uri(root.path(), true)}}}}},
      {"invocations", OrderedJson::array({{{"executionSuccessful", true}}})},
      {"results", std::move(results)},
      {"columnKind", "unicodeCodePoints"}};
  OrderedJson doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                     {"version", "2.1.0"},
                     {"runs", OrderedJson::array({std::move(run)})}};
  return json_dump(doc);
}

std::string junit_report(const CiReport& report, const SourceRoot& root) {
  // The files, checked ones first, then those only findings name (a xacro's includes).
  struct Suite {
    std::string name;  // relative to the root
    unsigned inputs = 0;
    bool checked = false;
  };
  std::vector<Suite> suites;
  auto suite_of = [&](const std::string& name) -> Suite& {
    for (Suite& s : suites)
      if (s.name == name) return s;
    suites.push_back({name, 0, false});
    return suites.back();
  };
  for (const CheckedFile& f : report.files) {
    Suite& s = suite_of(root.name(f.file));
    s.inputs |= f.inputs;
    s.checked = true;
  }
  for (const Finding& f : report.findings) (void)suite_of(root.name(f.file));

  const std::set<std::string> accepted(report.accepted.begin(), report.accepted.end());
  std::string body;
  std::size_t all_tests = 0, all_failures = 0, all_skipped = 0;
  for (const Suite& suite : suites) {
    // The cases: every code the file can have (by what it is), then codes found in it that
    // are not among those, in catalogue order.
    std::vector<const CheckCode*> codes;
    for (const CheckCode& code : check_codes()) {
      if (code.scope != report.scope) continue;
      bool wanted = suite.checked && (report.scope == CodeScope::log || (code.inputs & suite.inputs) != 0);
      for (const Finding& f : report.findings)
        wanted = wanted || (f.code == code.code && root.name(f.file) == suite.name);
      if (wanted) codes.push_back(&code);
    }
    std::string cases;
    std::size_t failures = 0, skipped = 0;
    for (const CheckCode* code : codes) {
      std::string failed, out;
      for (const Finding& f : report.findings) {
        if (f.code != code->code || root.name(f.file) != suite.name) continue;
        const std::string line = finding_line(f, suite.name);
        if (f.severity == Severity::error || (report.strict && f.severity == Severity::warning))
          failed += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n", to_string(f.severity),
                                xml_attribute(full_message(f)), xml_text(line));
        else
          out += line + "\n";
      }
      std::string inside = failed;
      if (failed.empty() && accepted.count(std::string(code->code))) {
        inside += "      <skipped message=\"accepted with --ignore\"/>\n";
        ++skipped;
      }
      if (!failed.empty()) ++failures;
      if (!out.empty()) inside += fmt::format("      <system-out>{}</system-out>\n", xml_text(out));
      cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\"", xml_attribute(suite.name), code->code);
      cases += inside.empty() ? "/>\n" : ">\n" + inside + "    </testcase>\n";
    }
    body += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
                        xml_attribute(fmt::format("rmodel {} {}", report.command, suite.name)), codes.size(), failures,
                        skipped);
    body += cases + "  </testsuite>\n";
    all_tests += codes.size();
    all_failures += failures;
    all_skipped += skipped;
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<testsuites name=\"rmodel {}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n{}"
                     "</testsuites>\n",
                     report.command, all_tests, all_failures, all_skipped, body);
}

std::string codequality_report(const CiReport& report, const SourceRoot& root) {
  const auto prints = fingerprints(report, root);
  OrderedJson issues = OrderedJson::array();
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    const Finding& f = report.findings[i];
    issues.push_back({{"description", full_message(f)},
                      {"check_name", f.code},
                      {"fingerprint", prints[i]},
                      {"severity", f.severity == Severity::error     ? "major"
                                   : f.severity == Severity::warning ? "minor"
                                                                     : "info"},
                      {"location", {{"path", root.name(f.file)}, {"lines", {{"begin", f.line > 0 ? f.line : 1}}}}}});
  }
  return json_dump(issues);
}

std::string github_annotations(const CiReport& report, const SourceRoot& root) {
  auto escape = [](std::string_view text, bool property) {
    std::string out;
    for (char c : text) {
      if (c == '%') out += "%25";
      else if (c == '\r') out += "%0D";
      else if (c == '\n') out += "%0A";
      else if (property && c == ':') out += "%3A";
      else if (property && c == ',') out += "%2C";
      else out += c;
    }
    return out;
  };
  std::string out;
  for (const Finding& f : report.findings) {
    const char* level = f.severity == Severity::error ? "error" : f.severity == Severity::warning ? "warning" : "notice";
    std::string properties = fmt::format("file={}", escape(root.name(f.file), true));
    if (f.line > 0) properties += fmt::format(",line={}", f.line);
    properties += fmt::format(",title={}", escape(f.code, true));
    out += fmt::format("::{} {}::{}\n", level, properties, escape(full_message(f), false));
  }
  return out;
}

std::string github_summary(const CiReport& report, const SourceRoot& root, std::string_view verdict) {
  auto cell = [](std::string_view text) {
    std::string out;
    for (char c : text) {
      if (c == '|') out += "\\|";
      else if (c == '\n' || c == '\r') out += ' ';
      else if (c == '<') out += "&lt;";
      else if (c == '>') out += "&gt;";
      else out += c;
    }
    return out;
  };
  std::string out = fmt::format("### rmodel {}: {}\n\n", report.command, cell(verdict));
  if (report.findings.empty()) return out + "No problem found.\n\n";
  out += "| Severity | File | Line | Code | Message |\n|---|---|---:|---|---|\n";
  for (const Finding& f : report.findings)
    out += fmt::format("| {} | {} | {} | `{}` | {} |\n", to_string(f.severity), cell(root.name(f.file)),
                       f.line > 0 ? std::to_string(f.line) : std::string(), f.code, cell(full_message(f)));
  return out + "\n";
}

void append_github_summary(const CiReport& report, const SourceRoot& root, std::string_view verdict) {
  const char* path = std::getenv("GITHUB_STEP_SUMMARY");
  if (path == nullptr || *path == '\0') return;
  std::ofstream file(path, std::ios::binary | std::ios::app);
  if (!(file << github_summary(report, root, verdict)) || !file.flush())
    terminal::warning(fmt::format("GITHUB_STEP_SUMMARY: cannot write to {}: the summary table is left out", path));
}

}  // namespace rmodel::cli
