#pragma once
// Options shared by commands that read and write joint-state streams (aggregate, filter,
// fk): inputs, formats, output file, error budget, and the run summary on stderr.

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <CLI/CLI.hpp>

#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"

namespace rmodel::cli {

struct StreamOptions {
  std::vector<std::string> inputs;     ///< "-" (stdin) when empty
  std::string input_format = "auto";
  std::string output = "-";
  std::string output_format = "auto";
  std::string stamp = "none";
  std::uint64_t max_errors = 0;        ///< 0: no limit
  bool quiet = false;
  bool flush_each = false;
  std::vector<std::string> topics;     ///< ROS logs: --topic (empty: every JointState topic)
  std::string time_source = "header";  ///< ROS logs: --time header|log

  void add_to(CLI::App& app);
  [[nodiscard]] io::ReaderOptions reader_options() const;
  [[nodiscard]] io::WriterOptions writer_options() const;
  /// Inputs to read, "-" when none was given. @throws IoError for a missing input, before
  /// anything is read, so that a typo costs nothing.
  [[nodiscard]] std::vector<std::string> checked_inputs() const;
};

/// Counts of a streaming run and its report on stderr.
struct StreamStats {
  std::uint64_t read = 0;
  std::uint64_t written = 0;
  std::uint64_t rejected = 0;  ///< malformed lines and messages refused
  std::uint64_t warnings = 0;
  bool stopped_early = false;  ///< --max-errors reached or output closed

  /// "rmodel CMD: read N messages, wrote M, rejected R, W warnings".
  void print_summary(const char* command) const;
};

/// Reports a problem of an input message on stderr: "rmodel: SOURCE:LINE: TEXT".
void report_input(const std::string& source, std::size_t line, std::size_t item, const std::string& text);

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

/// One input of a streaming command, read message by message: opens PATH ("-": stdin),
/// reports and counts what the reader rejects, keeps the progress bar, and applies
/// --max-errors. The commands' loops differ only in what they do with a good message.
class StreamInput {
public:
  /// @throws IoError when the file cannot be opened
  StreamInput(const std::string& path, const StreamOptions& options);

  /// Reads the next good message into `message`. A bad line or message is reported on stderr
  /// (unless --quiet) and counted in stats.rejected. Returns false at the end of the input or
  /// when --max-errors stops the run. `idle()` runs whenever the reader is about to wait for
  /// input: flush the output there, so that a live stream sees each result at once. An
  /// `idle` returning bool stops the reading by returning false (the output went away).
  template <class Idle>
  bool next(io::Message& message, StreamStats& stats, Idle&& idle) {
    while (true) {
      if (!reader_.input_pending()) {
        if constexpr (std::is_same_v<decltype(idle()), bool>) {
          if (!idle()) return false;
        } else {
          idle();
        }
      }
      const io::ReadStatus status = reader_.next(message);
      if (status == io::ReadStatus::End) return false;
      if (status == io::ReadStatus::WouldBlock) continue;
      if (status == io::ReadStatus::Error) {
        if (!reject_read_error(stats)) return false;
        continue;
      }
      ++stats.read;
      progress_.tick(stats.read);
      return true;
    }
  }

  /// Reports a message the command refuses (`why`), counts it; false when --max-errors
  /// stops the run.
  bool reject(const io::Message& message, StreamStats& stats, const std::string& why);

  [[nodiscard]] const std::string& source() const noexcept { return reader_.source(); }

private:
  bool reject_read_error(StreamStats& stats);
  /// True (with a message) when --max-errors is reached.
  bool over_budget(StreamStats& stats) const;

  const StreamOptions& options_;
  int fd_;
  io::MessageReader reader_;
  Progress progress_;
};

}  // namespace rmodel::cli
