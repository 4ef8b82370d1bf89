#include "options/stream_options.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/io/format.hpp"
#include "terminal.hpp"

namespace rmodel::cli {

void StreamOptions::add_to(CLI::App& app) {
  const char* group = "Streams";
  with_kind(app.add_option("logs", inputs,
                           fmt::format("Joint-state logs ({} or a rosbag2 directory; '-' or none: stdin)",
                                       log_extensions_text())),
            ValueKind::file)
      ->group(group);
  app.add_option("--stamp", stamp, "Stamp layout written besides t in JSON Lines")
      ->check(CLI::IsMember({"none", "ros1", "ros2"}))
      ->default_str("none")
      ->group(group);
  app.add_option("--max-errors", max_errors, "Stop after N rejected messages (0: never)")->group(group);
  add_max_reports_option(app, max_reports, group);
  app.add_flag("-q,--quiet", quiet, "Report only the summary, not each problem")->group(group);
  app.add_flag("--flush-each", flush_each, "Flush the output after every message")->group(group);
  add_threads_option(app, threads, group);
  app.add_flag("--merge", merge,
               "Interleave the logs by time (equal times: in the order given) instead of reading them one after "
               "another")
      ->group(group);
  input.window_primes = true;  // run_stream(): a stream::Pipeline
  input.add_to(app, group);
}

void add_log_input_options(CLI::App& app, StreamOptions& options, CLI::Option* log, const char* group,
                           const char* flush_help) {
  options.input.window_primes = true;  // run_stream(): a stream::Pipeline
  options.input.add_to(app, group, log);
  app.add_option("--max-errors", options.max_errors, "Stop after N rejected messages (0: never)")
      ->needs(log)
      ->group(group);
  add_max_reports_option(app, options.max_reports, group)->needs(log);
  app.add_flag("-q,--quiet", options.quiet, "Report only the summary, not each problem")->needs(log)->group(group);
  app.add_flag("--flush-each", options.flush_each, flush_help)->needs(log)->group(group);
  add_threads_option(app, options.threads, group)->needs(log);
}

CLI::Option* add_threads_option(CLI::App& app, unsigned& threads, const char* group) {
  auto* option = with_kind(app.add_option("--threads", threads,
                                "Threads for a log file: 2 parses it ahead of the processing and output, 1 does "
                                "all on one (stdin and pipes: always 1)"), ValueKind::count)
                     ->check(CLI::Range(1U, 2U))
                     ->default_val(2);
  if (group != nullptr) option->group(group);
  return option;
}

CLI::Option* add_max_reports_option(CLI::App& app, std::size_t& max_reports, const char* group) {
  auto* option = app.add_option("--max-reports", max_reports,
                                "Problems shown per kind and joint; later ones are only counted")
                     ->check(positive_number())
                     ->default_str(std::to_string(kDefaultMaxReports));
  if (group != nullptr) option->group(group);
  return option;
}

void StreamOptions::add_output_to(CLI::App& app, std::vector<OutputFormat> allowed, OutputFormat fallback,
                                  std::function<bool()> mode) {
  const auto written = written_log_formats();
  const bool writes_mcap = std::find(allowed.begin(), allowed.end(), OutputFormat::log) != allowed.end() &&
                           std::find(written.begin(), written.end(), io::parse_format("mcap")) != written.end();
  out.add_to(app, std::move(allowed), fallback,
             [this, mode = std::move(mode)] {
               const bool streams = mode ? mode() : true;
               out.resolve();
               check_output(streams);
             },
             "Streams");
  out.add_legacy_output_format(app);
  if (!writes_mcap) return;
  mcap_compression_option_ = add_enum_option(app, "--mcap-compression", mcap_compression,
                                             {{"zstd", io::ChunkCompression::Zstd},
                                              {"lz4", io::ChunkCompression::Lz4},
                                              {"none", io::ChunkCompression::None}},
                                             "MCAP output: chunk compression")
                                 ->group("Streams");
  mcap_chunk_size_option_ =
      with_kind(app.add_option("--mcap-chunk-size", mcap_chunk_size,
                               "MCAP output: close a chunk at this many uncompressed bytes"),
                ValueKind::count)
          ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30))
          ->type_name("BYTES")
          ->capture_default_str()
          ->group("Streams");
  tf_option_ = app.add_flag("--tf", tf,
                            "MCAP output: also the robot's frames as robot_state_publisher publishes them, for "
                            "Foxglove's 3D panel: every movable joint's transform on /tf at each joint state, the "
                            "fixed joints' on /tf_static, the URDF on /robot_description and the semantics (an SRDF "
                            "on /robot_description_semantic, else rmodel's JSON on /rmodel/semantics) (needs a "
                            "model: given, or the log's)")
                   ->group("Streams");
}

void StreamOptions::check_output(bool streams) const {
  if (stamp != "none" && !out.is_log("jsonl"))
    OutputOptions::refuse(fmt::format("--stamp {} applies to JSON Lines output (-f jsonl), not to {}", stamp,
                                      out.format_text()));
  if (flush_each && !streams) OutputOptions::refuse("--flush-each applies where messages are streamed out");
  for (const CLI::Option* mcap_only : {mcap_compression_option_, mcap_chunk_size_option_, tf_option_})
    if (mcap_only != nullptr && mcap_only->count() > 0 && !(streams && out.is_log("mcap")))
      OutputOptions::refuse(fmt::format("{} applies to MCAP output (-f mcap or -o FILE.mcap), not to {}",
                                        mcap_only->get_name(), streams ? out.format_text() : "this mode"));
  // A binary log on a terminal is noise and can upset the terminal's state.
  if (streams && out.is(OutputFormat::log) && out.log_format().info()->binary && out.to_stdout() &&
      ::isatty(STDOUT_FILENO) != 0) {
    const io::FormatInfo& log = *out.log_format().info();
    std::string title(log.name);
    for (char& c : title) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    OutputOptions::refuse(fmt::format("{} is binary and standard output is a terminal: give -o FILE{} or a pipe",
                                      title, log.extensions.empty() ? "" : log.extensions.front()));
  }
}

io::WriterOptions StreamOptions::writer_options() const {
  io::WriterOptions options;
  options.format = out.is(OutputFormat::log) ? out.log_format() : default_log_format();
  options.stamp = io::parse_stamp_layout(stamp);
  options.flush_each_message = flush_each;
  options.mcap_compression = mcap_compression;
  options.mcap_chunk_size = mcap_chunk_size;
  return options;
}

std::vector<std::string> StreamOptions::checked_inputs() const {
  std::vector<std::string> list = inputs.empty() ? std::vector<std::string>{"-"} : inputs;
  for (const auto& path : list) io::check_log_path(path);
  return list;
}

stream::Sink& TransformOutput::sink(stream::Sink& next, io::MessageWriter& writer, const Model* model) {
  if (model == nullptr) return next;
  transforms_.emplace(next, writer, *model);
  return *transforms_;
}

LogOutput::LogOutput(const std::string& path, io::WriterOptions options)
    : file_(io::OutputFile::open(path)),
      writer_(file_.fd(), path == "-" ? "<stdout>" : path, std::move(options), false) {}

bool LogOutput::finish(std::string_view command, const stream::Summary& summary, bool single, bool quiet) {
  if (!summary.output_closed) writer_.close();  // MCAP: the summary and footer
  if (summary.rejected == 0) {
    file_.commit();
    return true;
  }
  const bool aside = file_.aside();
  const bool replaced = file_.replaces();
  file_.discard();
  if (!quiet && aside)
    report_output_not_written(command, file_.path(),
                              replaced, rejected_messages_text(summary.rejected) + (single ? kStdoutHint : ""));
  return false;
}

void StreamStats::print_summary(const char* command, const std::string& label) const {
  terminal::diagnostic(fmt::format("rmodel {}: {}read {} message{}, wrote {}, rejected {}, {} warning{}{}", command,
                                   label.empty() ? std::string() : label + ": ", read, read == 1 ? "" : "s", written,
                                   rejected, warnings, warnings == 1 ? "" : "s",
                                   stopped_early ? " (stopped early)" : ""));
}

stream::Summary run_stream(const char* command, const StreamOptions& options, stream::Stage& stage,
                           stream::Sink& sink) {
  return run_stream(command, options, stage, sink, StreamRun{options.checked_inputs(), {}, true});
}

stream::Summary run_stream(const char* command, const StreamOptions& options, stream::Stage& stage,
                           stream::Sink& sink, const StreamRun& run) {
  const auto& inputs = run.inputs;
  // The input being read, for the messages; after it (the stage's finish()), the last one.
  const io::MessageReader* current = nullptr;
  std::string last_source;
  bool last_numbered = false;
  stream::EventHandler handler;
  // Quiet: no handler, so the stages format no text at all (stream::Reporter::warn).
  if (!options.quiet)
    handler = [&](const stream::Event& e) {
      const std::string where =
          current != nullptr ? io::location(current->source(), e.line, e.item, e.byte_offset,
                                            io::numbers_messages(current->format()))
                             : io::location(last_source, e.line, e.item, e.byte_offset, last_numbered);
      report_input(where, e.severity == Severity::warning ? fmt::format("warning: {}", e.text) : std::string(e.text));
    };
  Progress* progress = nullptr;
  stream::RunOptions run_options;
  run_options.max_errors = options.max_errors;
  run_options.max_reports = options.max_reports;
  // A file is parsed on a second thread while this one aggregates and writes; a stream
  // (stdin, a pipe) is read here, each result flushed as it comes.
  run_options.read_ahead = options.threads > 1;
  run_options.on_message = [&progress](std::uint64_t read) {
    if (progress) progress->tick(read);
  };
  stream::Pipeline pipeline(stage, sink, handler, run_options);
  if (options.merge && inputs.size() > 1) {  // --merge: one stream by time
    // No progress bar: the files advance at their own pace.
    std::vector<io::MessageReader> readers;
    readers.reserve(inputs.size());
    for (const auto& path : inputs) readers.push_back(io::MessageReader::open(path, options.input.reader_options(path)));
    io::MessageReader merged = io::MessageReader::merge(std::move(readers));
    current = &merged;
    (void)pipeline.run(merged);
    current = nullptr;
    if (const std::string text = options.input.empty_window_text(merged); !text.empty()) {
      std::string names;
      for (const auto& path : inputs) names += (names.empty() ? "" : " + ") + path;
      report_input(names, "warning: " + text);
    }
    last_source = merged.source();
    last_numbered = io::numbers_messages(merged.format());
  } else {
    for (const auto& path : inputs) {
      // Opened here rather than by MessageReader::open for the progress bar, which follows the
      // descriptor's offset; the reader's options are the same (the extension's format first).
      const int fd = path == "-" ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) throw IoError(path, "cannot open");
      io::MessageReader reader(fd, path == "-" ? "<stdin>" : path, options.input.reader_options(path), path != "-");
      current = &reader;
      Progress bar(run.progress ? fd : -1, path);
      progress = &bar;
      const bool go_on = pipeline.run(reader);
      progress = nullptr;
      current = nullptr;
      if (const std::string text = options.input.empty_window_text(reader); !text.empty())
        report_input(reader.source(), "warning: " + text);
      last_source = reader.source();
      last_numbered = io::numbers_messages(reader.format());
      if (!go_on) break;
    }
  }
  pipeline.finish();
  const stream::Summary& summary = pipeline.summary();
  if (summary.budget_exhausted)
    terminal::diagnostic(fmt::format("rmodel: stopping after {} rejected messages (--max-errors)", summary.rejected));
  StreamStats stats{summary.read, summary.written, summary.rejected, summary.warnings, summary.stopped_early()};
  stats.print_summary(command, run.label);
  print_held_back(command, run.label, pipeline.reporter().held_back(), options.max_reports);
  return summary;
}

void report_input(const std::string& location, std::string_view text) {
  terminal::diagnostic(fmt::format("rmodel: {}: {}", location, text));
}

void print_held_back(const char* command, const std::string& label,
                     const std::vector<stream::Reporter::HeldBack>& held, std::uint64_t max_reports) {
  for (const auto& h : held)
    terminal::diagnostic(fmt::format("rmodel {}: {}{} more {} warning{}{} not shown (--max-reports {})", command,
                                     label.empty() ? std::string() : label + ": ", h.count, h.kind,
                                     h.count == 1 ? "" : "s",
                                     h.subject.empty() ? std::string() : fmt::format(" for '{}'", h.subject),
                                     max_reports));
}

namespace {
std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

Progress::Progress(int fd, const std::string& path) : fd_(fd) {
  struct stat st {};
  enabled_ = path != "-" && fd >= 0 && terminal::stderr_is_terminal() && fstat(fd, &st) == 0 &&
             S_ISREG(st.st_mode) && st.st_size > 0;
  size_ = enabled_ ? static_cast<std::uint64_t>(st.st_size) : 0;
}

Progress::~Progress() {
  if (enabled_ && last_draw_ns_ != 0) terminal::clear_status();
}

void Progress::tick(std::uint64_t messages) {
  if (!enabled_ || (messages & 255) != 0) return;
  const std::int64_t now = now_ns();
  if (now - last_draw_ns_ < 100'000'000) return;
  last_draw_ns_ = now;
  const off_t pos = lseek(fd_, 0, SEEK_CUR);
  const double fraction = pos > 0 ? std::min(1.0, static_cast<double>(pos) / static_cast<double>(size_)) : 0.0;
  const int width = 30;
  const int filled = static_cast<int>(fraction * width);
  terminal::show_status(fmt::format("[{}{}] {:3.0f}% {} messages", std::string(static_cast<std::size_t>(filled), '#'),
                                    std::string(static_cast<std::size_t>(width - filled), ' '), fraction * 100.0,
                                    messages));
}

}  // namespace rmodel::cli
