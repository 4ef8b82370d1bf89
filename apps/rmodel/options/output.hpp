#pragma once
// Output formats and tables. stdout carries data only; diagnostics go to stderr.

#include <cstdint>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <optional>

#include "options/value_kind.hpp"
#include "rmodel/io/format.hpp"
#include "rmodel/io/output_file.hpp"
#include "rmodel/base/time.hpp"

namespace rmodel::cli {

using Json = nlohmann::ordered_json;

/// What a command writes: formats of its own, and joint-state logs.
/// - Its own: text, json, csv and dot are documents written at the end of a run; jsonl is a
///   record per input message (fk --log, filter --step), written as they come. For validators
///   in CI (report/ci_report.hpp): `github` GitHub Actions workflow commands (annotations),
///   `sarif` SARIF 2.1.0, `junit` JUnit XML, `codequality` GitLab Code Quality. `srdf`:
///   MoveIt's semantic description (the collision matrix of `collisions`).
/// - `log`: a joint-state log written by io::MessageWriter, in any format it writes (the
///   format table's written formats, io::formats(): jsonl, csv, mcap, ...), each a choice of
///   -f by its own name; OutputOptions::log_format() says which. A new log format of the
///   library is a new choice of every command that lists `log`, with no edit here.
/// A mode of a command lists either its own csv or jsonl, or `log`, never both: -f resolves a
/// name among the mode's formats.
enum class OutputFormat { text, json, csv, dot, jsonl, github, sarif, junit, codequality, srdf, log };

/// The name of a format of the command's own as -f takes it ("text", "json", ...); "log" for
/// `log` (whose choices are the log formats' names).
std::string_view format_name(OutputFormat format);

/// The log formats -f offers for `log`: the written formats of the format table, in its order.
std::vector<io::Format> written_log_formats();

/// The names of written_log_formats() for help texts: "jsonl, csv or mcap".
std::string written_log_formats_text();

/// The log format written when a command writes a log and none is named: the table's first
/// written format (JSON Lines), as io::MessageWriter writes for auto.
io::Format default_log_format();

/// The name of the format an output file's extension names (case-insensitive): .txt text,
/// .json json, .dot/.gv dot, .sarif sarif, .srdf srdf, and a written log format's endings from the
/// format table (.jsonl/.ndjson jsonl, .csv csv, .mcap mcap, ...); none for any other name.
/// The name is resolved among the formats of the command's mode (OutputOptions).
std::optional<std::string_view> format_of_path(std::string_view path);

/// A JSON document of rmodel: an object whose first keys are "schema" (`name`, e.g.
/// "rmodel.joints") and "schema_version" (`version`); the caller adds the data. Every JSON
/// document a command writes (not JSON Lines messages) starts so; docs/output.md lists them.
Json json_document(std::string_view name, int version = 1);

/// -f,--format and -o,--output of a command: the one output convention (docs/output.md).
/// The format is -f when given, else the one -o's extension names, else the command's
/// default; a format the command (or the mode it runs in) does not write is a usage error,
/// found while parsing. Documents go to stdout ("-") or to the file (an io::OutputFile,
/// opened at the first write): it appears, or replaces the file of that name, only at close(),
/// so that a run that fails, throws or is interrupted leaves it as it was. An output that is
/// one of the inputs is refused while parsing.
class OutputOptions {
public:
  OutputOptions() = default;
  OutputOptions(const OutputOptions&) = delete;
  OutputOptions& operator=(const OutputOptions&) = delete;
  ~OutputOptions();

  /// Adds -f (choices: `allowed`, default `fallback`) and -o to `app`, and a check after
  /// parsing that resolves the format. `after_parse`, when given, runs first: the place
  /// for restrict() and for refusing options that do not apply to the format (throw
  /// CLI::ValidationError, or call refuse()).
  void add_to(CLI::App& app, std::vector<OutputFormat> allowed, OutputFormat fallback,
              std::function<void()> after_parse = {}, const char* group = nullptr);

  /// In a mode of the command (`mode`, e.g. "--list"), only `allowed` apply and `fallback`
  /// is the default. Call from `after_parse`.
  void restrict(std::vector<OutputFormat> allowed, OutputFormat fallback, std::string mode);

  /// Also accept the old `-O,--output-format` (hidden; values auto and the written log
  /// formats): streaming commands took it before -f, and scripts still pass it.
  void add_legacy_output_format(CLI::App& app);

  /// The -f option (for a description that tells the modes apart).
  [[nodiscard]] CLI::Option* format_option() const { return format_option_; }

  /// The format resolved after parsing.
  [[nodiscard]] OutputFormat format() const { return format_; }
  [[nodiscard]] bool is(OutputFormat f) const { return format_ == f; }
  /// The log format to write when format() is `log`.
  [[nodiscard]] io::Format log_format() const { return log_; }
  /// True when a log is written in the log format named `name` (`jsonl`, `mcap`).
  [[nodiscard]] bool is_log(std::string_view name) const { return format_ == OutputFormat::log && log_.name() == name; }
  /// The resolved format's name as -f takes it ("json", "mcap").
  [[nodiscard]] std::string_view format_text() const;
  /// True when -f (or -O) was given on the command line.
  [[nodiscard]] bool format_given() const;
  /// The output path ("-": stdout).
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] bool to_stdout() const { return path_ == "-" || path_.empty(); }
  /// True when -o was given.
  [[nodiscard]] bool path_given() const;

  /// Writes `text` to the output. @throws WriteError naming the file when it cannot be
  /// created or written; BrokenPipe when stdout's reader went away (streams end quietly).
  void write(std::string_view text);
  /// Flushes (streams: after each record, or before waiting for input).
  void flush();
  /// The output is complete: creates the file when nothing was written, and puts it in
  /// place (replacing the file of that name). @throws WriteError.
  void close();
  /// The output is not complete (`why`: "1 rejected message makes the output incomplete"):
  /// nothing is put in place, an existing file stays as it was, and unless `quiet` stderr
  /// says so ("rmodel COMMAND: FILE left as it was: WHY ..."). Nothing to undo on stdout.
  void abandon(std::string_view command, std::string_view why, bool quiet);

  /// A usage error ("rmodel: error: CMD: WHAT"), thrown while parsing.
  [[noreturn]] static void refuse(const std::string& what);

  /// Resolves the format (-f, else -o's extension, else the default) and refuses one that
  /// does not apply; idempotent. Runs after parsing; call it from `after_parse` to check
  /// other options against the format.
  void resolve();

private:
  void open();

  CLI::Option* format_option_ = nullptr;
  CLI::Option* output_option_ = nullptr;
  CLI::Option* legacy_option_ = nullptr;
  std::string format_text_;
  std::string legacy_text_ = "auto";
  std::string path_ = "-";
  std::vector<OutputFormat> allowed_;
  OutputFormat fallback_ = OutputFormat::text;
  std::vector<OutputFormat> mode_allowed_;
  OutputFormat mode_fallback_ = OutputFormat::text;
  std::string mode_;
  std::function<void()> after_parse_;
  OutputFormat format_ = OutputFormat::text;
  io::Format log_;  ///< the log format, when format_ is `log`
  std::optional<io::OutputFile> file_;
  std::FILE* stream_ = nullptr;  // writes to file_ (a descriptor of its own)
};

/// A stdio stream writing to `file` (on a descriptor of its own: fclose() it before
/// file.commit()). @throws WriteError.
std::FILE* stdio_stream(const io::OutputFile& file);

/// Says on stderr that `file`, the output of a run that did not complete (`why`), was not
/// written: "rmodel COMMAND: FILE left as it was: WHY", or "FILE not written: WHY" when there
/// was no file of that name (`replaced`: there was).
void report_output_not_written(std::string_view command, const std::string& file, bool replaced, std::string_view why);

/// What a single run adds to `why`: " (-o - writes it anyway)".
extern const char* const kStdoutHint;

/// Why a stream's output is incomplete: "1 rejected message makes the output incomplete".
std::string rejected_messages_text(std::uint64_t rejected);

/// Refuses a value that is not one of `words`: "'jsn' is not one of text, json; did you mean
/// 'json'?". Keeps the value as given (a check, not a transform).
CLI::Validator one_of(std::vector<std::string> words);

/// Checks `opt`'s value with one_of(words) and records the words for help, man pages and
/// completions, while the type name stays short (for long lists such as command names).
CLI::Option* with_choices(CLI::Option* opt, std::vector<std::string> words);

/// The words recorded by with_choices() for `opt`, or nullptr.
const std::vector<std::string>* recorded_choices(const CLI::Option* opt);

/// Checks of a number option, refusing with the numbers as they are written ("'0' must be
/// more than 0", "'2' is not in [1e-12, 0.999999]", "'x' is not a number") where CLI11's
/// PositiveNumber, NonNegativeNumber and Range print doubles with std::to_string (a 309-digit
/// upper bound); help, man pages and completions show the same type names as CLI11's.
CLI::Validator positive_number();
CLI::Validator non_negative_number();
CLI::Validator number_in(double lowest, double highest);

/// A transform for an option whose value is an enum: accepts the names only (never the
/// enum's numbers), turning each into `numbers[i]` for CLI11's conversion; refuses others as
/// one_of() does.
CLI::Validator names_to_numbers(std::vector<std::string> names, std::vector<std::string> numbers);

/// Adds an option holding an enum, accepted by name only, shown as "{a|b|c}" in help and
/// completed with those words.
template <class E>
CLI::Option* add_enum_option(CLI::App& app, const std::string& flags, E& value,
                             const std::vector<std::pair<std::string, E>>& names, const std::string& description) {
  std::vector<std::string> words, numbers;
  std::string list, current;
  for (const auto& [name, e] : names) {
    words.push_back(name);
    numbers.push_back(std::to_string(static_cast<long long>(e)));
    list += (list.empty() ? "" : "|") + name;
    if (e == value) current = name;
  }
  return app.add_option(flags, value, description)
      ->transform(names_to_numbers(std::move(words), std::move(numbers)))
      ->type_name("{" + list + "}")
      ->default_str(current);
}

/// Refuses (a usage error, before anything is opened for writing) an output file `output`
/// that is also one of the command's inputs: the value of any other option or argument of
/// `app` naming the same file (the same path, a symbolic or hard link, another path to it),
/// or standard input redirected from it. Writing would truncate the input before it is read
/// (or replace what was just read). Does nothing for stdout ("-", empty) and for an output
/// that does not exist yet.
void refuse_output_among_inputs(const CLI::App& app, const CLI::Option* output_option, const std::string& output);

/// Which times an option built by add_time_option() accepts.
enum class TimeRange { positive, non_negative };

/// Adds an option holding a Time, given in decimal seconds and read exactly (parse_time: no
/// double in between, so `--period 0.01` is 10000000 ns); shown as SECONDS, its default the
/// current value.
CLI::Option* add_time_option(CLI::App& app, const std::string& flags, Time& value, const std::string& description,
                             TimeRange range);

/// A table: named columns, rows of JSON values (strings, numbers, arrays, null).
/// Text: aligned columns, arrays joined by ',' and null as '-'. CSV: RFC 4180.
/// JSON: an array of objects keyed by column name (to_json), written as the member `key`
/// of a document (document()).
/// A number as aligned tables print it: six decimals, and 0.000000 for what would print as
/// -0.000000 or round to zero.
std::string fixed_text(double v);

class Table {
public:
  explicit Table(std::vector<std::string> columns) : columns_(std::move(columns)) {}
  void add_row(std::vector<Json> row) { rows_.push_back(std::move(row)); }
  /// Text or CSV (json: the bare array, for embedding).
  [[nodiscard]] std::string render(OutputFormat format) const;
  /// Text, CSV, or the JSON document `{"schema": schema, "schema_version": 1, key: [...]}`.
  [[nodiscard]] std::string render(OutputFormat format, std::string_view schema, const std::string& key) const;
  [[nodiscard]] Json to_json() const;

private:
  std::vector<std::string> columns_;
  std::vector<std::vector<Json>> rows_;
};

/// A JSON value as one text cell.
std::string cell_text(const Json& value);

/// Writes to stdout; output errors (closed pipe) surface at exit via the stream state.
void write_out(const std::string& text);

/// Pretty JSON document followed by a newline; bytes of its strings that are not UTF-8 are
/// written as U+FFFD.
std::string json_text(const Json& doc);

/// Shortest text that reads back as the same double.
std::string number_text(double value);

}  // namespace rmodel::cli
