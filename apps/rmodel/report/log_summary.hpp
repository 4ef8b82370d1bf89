#pragma once
// `check-log --reduce`: the reduce step of a batch checked in parts (--shard, a Slurm job
// array). Reads the JSON report (`rmodel.check_log`) each log got in --output-dir and sums them
// up into one verdict: per log its verdict, counts and problems by code, then the totals, as a
// JSON document (`rmodel.check_log_summary`) or text. A log whose report is absent, unreadable
// or another log's counts as failed: its check did not run to the end.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "options/batch.hpp"
#include "options/output.hpp"

namespace rmodel::cli {

/// What one log's report says.
struct LogReportSummary {
  enum class Verdict { valid, invalid, missing };
  std::string log;     ///< as given
  std::string report;  ///< DIR/<log name>.json
  Verdict verdict = Verdict::missing;
  std::string reason;  ///< why it is missing ("no such file", ...); empty otherwise
  std::uint64_t messages = 0, joint_states = 0, read_errors = 0, errors = 0, warnings = 0;
  Json first_stamp, last_stamp;  ///< as the report has them (seconds, or null)
  std::vector<std::pair<std::string, std::uint64_t>> problems_by_code;  ///< the catalogue's order
};

/// Every log's report and the totals.
struct LogSummary {
  std::vector<LogReportSummary> logs;  ///< in the order given
  std::size_t valid = 0, invalid = 0, missing = 0;
  std::uint64_t messages = 0, joint_states = 0, read_errors = 0, errors = 0, warnings = 0;
  std::vector<std::pair<std::string, std::uint64_t>> problems_by_code;  ///< summed, the catalogue's order

  /// Every log has its report, and no report has an error.
  [[nodiscard]] bool all_valid() const { return invalid == 0 && missing == 0; }
};

/// Reads the report of each item (item.output, written by `check-log -f json --output-dir`
/// for item.input). Throws nothing for a bad report: it is that log's reason.
[[nodiscard]] LogSummary summarize_log_reports(const std::vector<BatchItem>& items);

/// The summary as the JSON document `rmodel.check_log_summary` (docs/output.md).
[[nodiscard]] Json log_summary_json(const LogSummary& summary);

/// The summary for people: a line per log ("LOG: invalid: 3 errors, 0 warnings in 1383
/// messages (1383 joint states)"; "LOG: no report: WHY"), the problems by code, the count.
[[nodiscard]] std::string log_summary_text(const LogSummary& summary);

}  // namespace rmodel::cli
