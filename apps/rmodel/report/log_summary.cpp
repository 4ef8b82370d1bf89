#include "report/log_summary.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "rmodel/base/check_codes.hpp"

namespace rmodel::cli {
namespace {

using Counts = std::vector<std::pair<std::string, std::uint64_t>>;

/// Adds `n` problems of `code` to `counts`.
void add_count(Counts& counts, const std::string& code, std::uint64_t n) {
  for (auto& [c, count] : counts)
    if (c == code) {
      count += n;
      return;
    }
  counts.emplace_back(code, n);
}

/// The counts in the catalogue's order (codes it does not know, from another version of
/// rmodel, after them in the order met).
Counts in_catalogue_order(const Counts& counts) {
  Counts out;
  for (const CheckCode& entry : check_codes())
    if (entry.scope == CodeScope::log)
      for (const auto& [code, n] : counts)
        if (code == entry.code) out.emplace_back(code, n);
  for (const auto& [code, n] : counts)
    if (!is_check_code(code, CodeScope::log)) out.emplace_back(code, n);
  return out;
}

std::uint64_t count_of(const Json& report, const char* key) {
  const auto it = report.find(key);
  if (it == report.end() || !it->is_number_unsigned())
    throw std::runtime_error(fmt::format("no count '{}'", key));
  return it->get<std::uint64_t>();
}

/// Fills `entry` from its report file, or says in entry.reason why it cannot.
void read_report(LogReportSummary& entry) {
  std::ifstream in(entry.report, std::ios::binary);
  if (!in) {
    const int err = errno;
    std::error_code ec;
    entry.reason = std::filesystem::exists(entry.report, ec)
                       ? fmt::format("{}: cannot be read ({})", entry.report, std::strerror(err))
                       : fmt::format("{}: no such report: the check of this log failed or did not run (its "
                                     "task's standard error says why)",
                                     entry.report);
    return;
  }
  std::ostringstream text;
  text << in.rdbuf();
  Json report;
  try {
    report = Json::parse(text.str());
  } catch (const Json::parse_error& e) {
    entry.reason = fmt::format("{}: not JSON ({})", entry.report, e.what());
    return;
  }
  if (!report.is_object() || report.value("schema", Json()) != "rmodel.check_log") {
    entry.reason = fmt::format("{}: not a report of check-log -f json", entry.report);
    return;
  }
  if (report.value("log", Json()) != entry.log) {
    entry.reason = fmt::format("{}: the report of '{}', not of this log", entry.report,
                               report.value("log", Json()).is_string() ? report["log"].get<std::string>() : "?");
    return;
  }
  try {
    entry.messages = count_of(report, "messages");
    entry.joint_states = count_of(report, "joint_states");
    entry.read_errors = count_of(report, "read_errors");
    entry.errors = count_of(report, "errors");
    entry.warnings = count_of(report, "warnings");
    if (!report.value("valid", Json()).is_boolean()) throw std::runtime_error("no verdict 'valid'");
    Counts counts;
    if (const auto by_code = report.find("problems_by_code"); by_code != report.end() && by_code->is_object()) {
      for (const auto& [code, n] : by_code->items()) {
        if (!n.is_number_unsigned()) throw std::runtime_error(fmt::format("a count of '{}' that is not one", code));
        add_count(counts, code, n.get<std::uint64_t>());
      }
    } else if (const auto problems = report.find("problems"); problems != report.end() && problems->is_array()) {
      // A report of an rmodel before problems_by_code: the problems it lists.
      for (const auto& p : *problems)
        if (p.is_object() && p.value("code", Json()).is_string()) add_count(counts, p["code"].get<std::string>(), 1);
    }
    entry.problems_by_code = in_catalogue_order(counts);
    entry.first_stamp = report.value("first_stamp", Json());
    entry.last_stamp = report.value("last_stamp", Json());
    entry.verdict = report["valid"].get<bool>() ? LogReportSummary::Verdict::valid : LogReportSummary::Verdict::invalid;
  } catch (const std::exception& e) {
    LogReportSummary blank;
    blank.log = entry.log;
    blank.report = entry.report;
    entry = std::move(blank);
    entry.reason = fmt::format("{}: not a report of check-log -f json ({})", entry.report, e.what());
  }
}

const char* verdict_name(LogReportSummary::Verdict v) {
  switch (v) {
    case LogReportSummary::Verdict::valid: return "valid";
    case LogReportSummary::Verdict::invalid: return "invalid";
    case LogReportSummary::Verdict::missing: return "missing";
  }
  return "missing";
}

Json counts_json(const Counts& counts) {
  Json out = Json::object();
  for (const auto& [code, n] : counts) out[code] = n;
  return out;
}

std::string counts_text(const Counts& counts) {
  std::string out;
  for (const auto& [code, n] : counts) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", code, n);
  return out;
}

const char* plural(std::uint64_t n) { return n == 1 ? "" : "s"; }

}  // namespace

LogSummary summarize_log_reports(const std::vector<BatchItem>& items) {
  LogSummary summary;
  Counts total;
  for (const BatchItem& item : items) {
    LogReportSummary entry;
    entry.log = item.input;
    entry.report = item.output;
    read_report(entry);
    switch (entry.verdict) {
      case LogReportSummary::Verdict::valid: ++summary.valid; break;
      case LogReportSummary::Verdict::invalid: ++summary.invalid; break;
      case LogReportSummary::Verdict::missing: ++summary.missing; break;
    }
    summary.messages += entry.messages;
    summary.joint_states += entry.joint_states;
    summary.read_errors += entry.read_errors;
    summary.errors += entry.errors;
    summary.warnings += entry.warnings;
    for (const auto& [code, n] : entry.problems_by_code) add_count(total, code, n);
    summary.logs.push_back(std::move(entry));
  }
  summary.problems_by_code = in_catalogue_order(total);
  return summary;
}

Json log_summary_json(const LogSummary& s) {
  Json doc = json_document("rmodel.check_log_summary");
  doc["valid"] = s.all_valid();
  doc["counts"] = {{"logs", s.logs.size()}, {"valid", s.valid}, {"invalid", s.invalid}, {"missing", s.missing}};
  doc["totals"] = {{"messages", s.messages},   {"joint_states", s.joint_states},
                   {"read_errors", s.read_errors}, {"errors", s.errors},
                   {"warnings", s.warnings},   {"problems_by_code", counts_json(s.problems_by_code)}};
  doc["logs"] = Json::array();
  for (const LogReportSummary& e : s.logs) {
    const bool read = e.verdict != LogReportSummary::Verdict::missing;
    const auto number = [read](std::uint64_t n) { return read ? Json(n) : Json(nullptr); };
    doc["logs"].push_back({{"log", e.log},
                           {"report", e.report},
                           {"verdict", verdict_name(e.verdict)},
                           {"reason", read ? Json(nullptr) : Json(e.reason)},
                           {"messages", number(e.messages)},
                           {"joint_states", number(e.joint_states)},
                           {"read_errors", number(e.read_errors)},
                           {"errors", number(e.errors)},
                           {"warnings", number(e.warnings)},
                           {"first_stamp", e.first_stamp},
                           {"last_stamp", e.last_stamp},
                           {"problems_by_code", read ? counts_json(e.problems_by_code) : Json(nullptr)}});
  }
  return doc;
}

std::string log_summary_text(const LogSummary& s) {
  std::string out;
  for (const LogReportSummary& e : s.logs) {
    if (e.verdict == LogReportSummary::Verdict::missing) {
      out += fmt::format("{}: missing: {}\n", e.log, e.reason);
      continue;
    }
    out += fmt::format("{}: {}: {} error{}, {} warning{} in {} message{} ({} joint state{}){}\n", e.log,
                       verdict_name(e.verdict), e.errors, plural(e.errors), e.warnings, plural(e.warnings), e.messages,
                       plural(e.messages), e.joint_states, plural(e.joint_states),
                       e.problems_by_code.empty() ? "" : ": " + counts_text(e.problems_by_code));
  }
  if (!s.problems_by_code.empty()) out += fmt::format("problems by code: {}\n", counts_text(s.problems_by_code));
  out += fmt::format("{} log{}: {} valid, {} invalid{}\n", s.logs.size(), plural(s.logs.size()), s.valid, s.invalid,
                     s.missing > 0 ? fmt::format(", {} without a report", s.missing) : "");
  return out;
}

}  // namespace rmodel::cli
