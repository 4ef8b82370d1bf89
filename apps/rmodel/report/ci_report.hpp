#pragma once
// The formats CI systems read a validator's findings in, for `check` and `check-log`:
// SARIF 2.1.0 (GitHub code scanning), JUnit XML (Jenkins, GitLab test reports), GitLab Code
// Quality JSON, GitHub Actions workflow commands and the job summary's Markdown table.
// docs/output.md describes each; docs/design.md says why they are laid out so.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rmodel/base/check_codes.hpp"
#include "rmodel/base/severity.hpp"

namespace rmodel::cli {

/// One problem of a report.
struct Finding {
  Severity severity = Severity::error;
  std::string file;  ///< as the report names it: a path (relative to the current directory) or "<stdin>"
  int line = 0;      ///< 1-based line of `file`; 0: no line (the whole file, or a message of a binary log)
  std::string code;
  std::string message;
  /// The place beyond file and line, as the text report words it: a binary log's "message 12",
  /// a text log's "item 2"; "" otherwise. Put before the message where a format has no field for it.
  std::string place;
};

/// A file the command read, and what it is to the catalogue (code_input bits; 0: a log).
struct CheckedFile {
  std::string file;
  unsigned inputs = 0;
};

/// What a command found, for the CI formats.
struct CiReport {
  std::string_view command;  ///< "check", "check-log"
  CodeScope scope = CodeScope::model;
  std::vector<CheckedFile> files;     ///< in the order given
  std::vector<Finding> findings;      ///< in report order
  std::vector<std::string> accepted;  ///< codes --ignore accepted (JUnit: their cases are skipped)
  bool strict = false;                ///< warnings fail the run (JUnit: they are failures)
  bool valid = true;                  ///< the verdict
};

/// The directory file names are given relative to in a CI report: the repository's root, the
/// nearest directory from `from` upwards that holds `.git` (a directory, or the file of a
/// worktree or submodule), else `from` itself (git rev-parse --show-toplevel, without git).
class SourceRoot {
public:
  static SourceRoot find(const std::filesystem::path& from);
  [[nodiscard]] const std::filesystem::path& path() const { return root_; }
  /// `file` (relative to the current directory, or absolute) relative to the root, with '/'
  /// separators; nullopt for a file outside the root or a name that is no file ("<stdin>").
  [[nodiscard]] std::optional<std::string> relative(const std::string& file) const;
  /// relative(file), else `file` as given.
  [[nodiscard]] std::string name(const std::string& file) const;

private:
  std::filesystem::path root_;
};

/// A stable identifier of each finding, the same in every run that finds the same problem:
/// a hash of the command's scope, the code, the file relative to the root and the message,
/// and of the number of earlier findings with all four equal (so that each is unique). The
/// line is not part of it: an edit above the problem does not make it a new one.
std::vector<std::string> fingerprints(const CiReport& report, const SourceRoot& root);

/// SARIF 2.1.0: one run of the tool `rmodel` (its version), a rule for every code of the
/// report's scope (id, name, descriptions, the catalogue's page as help, helpUri, level), a
/// result per finding with ruleId, level, message and its file relative to the root
/// (uriBaseId %SRCROOT%, whose absolute URI the run gives) or an absolute file: URI, and
/// startLine when there is a line; partialFingerprints carry fingerprints().
std::string sarif_report(const CiReport& report, const SourceRoot& root);

/// JUnit XML: a <testsuite> per checked file (and per other file a finding names, a file a
/// xacro includes), a <testcase> per code of the catalogue the file can have (classname the
/// file relative to the root, name the code); an error is a <failure> with its text in the
/// body (a warning too with `strict`); other warnings and notes go to the case's
/// <system-out>; a code --ignore accepted is <skipped>.
std::string junit_report(const CiReport& report, const SourceRoot& root);

/// GitLab Code Quality: a JSON array, an issue per finding with description, check_name (the
/// code), fingerprint, severity (error major, warning minor, note info) and location (path
/// relative to the root, lines.begin: the line, 1 for the whole file).
std::string codequality_report(const CiReport& report, const SourceRoot& root);

/// GitHub Actions workflow commands, one per finding: `::error file=F,line=L,title=CODE::MESSAGE`
/// (notice for a note), F relative to the root, values escaped as the runner expects.
std::string github_annotations(const CiReport& report, const SourceRoot& root);

/// A Markdown section for the job summary ($GITHUB_STEP_SUMMARY): a heading with the verdict
/// (`verdict`: the summary line of the text report) and a table of every finding, since GitHub
/// shows at most 10 annotations of a step.
std::string github_summary(const CiReport& report, const SourceRoot& root, std::string_view verdict);

/// Appends github_summary() to the file named by $GITHUB_STEP_SUMMARY when it is set; a file
/// that cannot be written is a warning on stderr (the report and the exit status stand).
void append_github_summary(const CiReport& report, const SourceRoot& root, std::string_view verdict);

}  // namespace rmodel::cli
