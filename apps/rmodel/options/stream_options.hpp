#pragma once
// Options shared by commands that read and write joint-state streams (aggregate, filter,
// fk): inputs, formats, output file, error budget, and the run summary on stderr.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "rmodel/stream/stream.hpp"
#include "rmodel/stream/transform_stream.hpp"
#include "options/input_options.hpp"
#include "options/output.hpp"

namespace rmodel::cli {

/// --max-reports when not given (check-log, aggregate, filter, fk --log, dynamics --log).
inline constexpr std::size_t kDefaultMaxReports = 10;

/// Adds --max-reports (problems shown per kind and joint; later ones are counted, and the
/// summary says how many were not shown), in `group` (nullptr: the default one).
CLI::Option* add_max_reports_option(CLI::App& app, std::size_t& max_reports, const char* group);
/// --threads (1 or 2, default 2; stream::RunOptions::read_ahead), in `group` (nullptr: the
/// default one).
CLI::Option* add_threads_option(CLI::App& app, unsigned& threads, const char* group);

struct StreamOptions {
  std::vector<std::string> inputs;     ///< "-" (stdin) when empty
  LogInputOptions input;               ///< -i, --topic, --time, CSV columns
  OutputOptions out;                   ///< -f/-o (add_output_to)
  std::string stamp = "none";
  std::uint64_t max_errors = 0;        ///< 0: no limit
  std::size_t max_reports = kDefaultMaxReports;  ///< --max-reports: warnings shown per kind and joint
  bool quiet = false;
  bool flush_each = false;
  unsigned threads = 2;                ///< --threads: 2 reads a log file on a second thread
  bool merge = false;                  ///< --merge: the inputs interleaved by time (MessageReader::merge)
  bool tf = false;                     ///< --tf: the robot's transforms in the MCAP output
  io::ChunkCompression mcap_compression = io::WriterOptions{}.mcap_compression;  ///< --mcap-compression
  std::size_t mcap_chunk_size = io::WriterOptions{}.mcap_chunk_size;           ///< --mcap-chunk-size

  void add_to(CLI::App& app);
  /// Adds -f/-o (with `allowed` formats, default `fallback`) and the hidden old -O. After
  /// parsing, `mode` runs first (it may narrow the formats with out.restrict(); it returns
  /// whether the run streams messages out), then the options that apply to some formats or
  /// modes only are checked (check_output()).
  void add_output_to(CLI::App& app, std::vector<OutputFormat> allowed, OutputFormat fallback,
                     std::function<bool()> mode = {});
  /// Refuses --stamp ros1|ros2 unless the output is JSON Lines, the --mcap-* options unless it
  /// is MCAP, and --flush-each unless `streams` (something is written message by message).
  /// Call after out is resolved.
  void check_output(bool streams) const;
  [[nodiscard]] io::WriterOptions writer_options() const;
  /// Inputs to read, "-" when none was given. @throws IoError for a missing input, before
  /// anything is read, so that a typo costs nothing.
  [[nodiscard]] std::vector<std::string> checked_inputs() const;

private:
  CLI::Option* mcap_compression_option_ = nullptr;  ///< set when MCAP is among the outputs
  CLI::Option* mcap_chunk_size_option_ = nullptr;
  CLI::Option* tf_option_ = nullptr;
};

/// The sink of a run that writes `--tf`: the joint states to `next`, the robot's transforms
/// beside them (stream::TransformSink) when there is a model.
class TransformOutput {
public:
  /// `next` alone when `model` is nullptr (no --tf), else a TransformSink in front of it.
  stream::Sink& sink(stream::Sink& next, io::MessageWriter& writer, const Model* model);

private:
  std::optional<stream::TransformSink> transforms_;
};

/// The log a command writes with io::MessageWriter (aggregate, filter, dynamics --log,
/// splice): to -o's file, an io::OutputFile put in place only when the run is complete, or to
/// stdout ("-"), written as it comes.
class LogOutput {
public:
  /// Opens `path` (`options.format` set). @throws WriteError when it cannot be created.
  LogOutput(const std::string& path, io::WriterOptions options);
  LogOutput(const LogOutput&) = delete;
  LogOutput& operator=(const LogOutput&) = delete;

  [[nodiscard]] io::MessageWriter& writer() { return writer_; }

  /// Ends the output after a run of `command`. With no rejected message the log is ended
  /// (MCAP: its summary and footer; nothing more when `summary.output_closed`) and the file
  /// put in place; else the file is dropped, an existing one stays as it was, and unless
  /// `quiet` stderr says so, as part of the run's summary (`single`: a run of -o, told how to
  /// keep the output anyway; else one input of a batch). Returns true when the output is
  /// complete. @throws WriteError.
  bool finish(std::string_view command, const stream::Summary& summary, bool single = true, bool quiet = false);

private:
  io::OutputFile file_;
  io::MessageWriter writer_;
};

/// The input options of a command that streams the one log of an option such as `--log
/// FILE|-` (`log`), instead of add_to()'s positional logs: -i, --topic, --time, the CSV
/// columns, --max-errors, -q and --flush-each (`flush_help`: its help text), all in `group`.
void add_log_input_options(CLI::App& app, StreamOptions& options, CLI::Option* log, const char* group,
                           const char* flush_help);

/// Counts of a streaming run and its report on stderr.
struct StreamStats {
  std::uint64_t read = 0;
  std::uint64_t written = 0;
  std::uint64_t rejected = 0;  ///< malformed lines and messages refused
  std::uint64_t warnings = 0;
  bool stopped_early = false;  ///< --max-errors reached or output closed

  /// "rmodel CMD: read N messages, wrote M, rejected R, W warnings"; with a label (a batch's
  /// input), "rmodel CMD: LABEL: read ...".
  void print_summary(const char* command, const std::string& label = {}) const;
};

/// Runs every input of `options` through `stage` into `sink` (one library Pipeline, so one
/// count, one error budget, one closed-pipe ending), printing each problem as
/// "rmodel: SOURCE:LINE: TEXT" unless --quiet and keeping a progress bar. Then prints the
/// summary "rmodel COMMAND: read N messages, ...". Returns the summary.
stream::Summary run_stream(const char* command, const StreamOptions& options, stream::Stage& stage,
                           stream::Sink& sink);

/// What one run_stream() call reads, when not every input of the options (batch.hpp: one
/// input per run).
struct StreamRun {
  std::vector<std::string> inputs;  ///< read in turn as one stream
  std::string label;                ///< named by the summary line
  bool progress = true;             ///< per-file progress bar (off in batches: threads)
};

/// run_stream() over `run.inputs` instead of the options' inputs (which are not checked).
stream::Summary run_stream(const char* command, const StreamOptions& options, stream::Stage& stage,
                           stream::Sink& sink, const StreamRun& run);

/// Reports a problem of an input message on stderr: "rmodel: LOCATION: TEXT", LOCATION as
/// io::location() words it ("SOURCE:LINE", "SOURCE: byte B: message N", ...).
void report_input(const std::string& location, std::string_view text);

/// Lines of the run's summary for the warnings --max-reports held back, one per kind and
/// subject (after "LABEL: " in a batch): "rmodel COMMAND: 38 more position-limit warnings
/// for 'neck_pitch' not shown (--max-reports 10)".
void print_held_back(const char* command, const std::string& label,
                     const std::vector<stream::Reporter::HeldBack>& held, std::uint64_t max_reports);

/// A progress bar on stderr for long file replays; silent unless stderr is a terminal and
/// the input a regular file.
class Progress {
public:
  Progress(int fd, const std::string& path);
  ~Progress();
  /// Call per message; redraws at most every 100 ms.
  void tick(std::uint64_t messages);

private:
  int fd_ = -1;
  std::uint64_t size_ = 0;
  bool enabled_ = false;
  std::int64_t last_draw_ns_ = 0;
};

}  // namespace rmodel::cli
