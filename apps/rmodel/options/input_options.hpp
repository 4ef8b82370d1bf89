#pragma once
// How a command takes a joint-state log in: the options that choose and decode its messages,
// declared once for every command that reads logs (aggregate, filter, fk --log, dynamics
// --log, check-log), so that they read the same way and say the same in --help.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "rmodel/io/reader.hpp"

namespace rmodel::cli {

/// Names accepted by -i/--input-format: `auto`, then the format table's (io::formats()).
std::vector<std::string> input_format_names();

/// The file endings of the log formats (with `binary_only`, of the binary logs), one per
/// format in the format table's order, as help texts list them: ".jsonl, .json, .csv, .yaml,
/// .mcap, .db3, .bag" (".mcap, .db3, .bag").
std::string log_extensions_text(bool binary_only = false);

/// -i/--input-format, --topic, --time, --time-column, --column-prefix, --start and --end.
struct LogInputOptions {
  std::string format = "auto";         ///< -i: an input_format_names() entry
  std::vector<std::string> topics;     ///< ROS logs: --topic (empty: every JointState topic)
  std::string time_source = "header";  ///< ROS logs, rostopic CSV: --time header|log
  std::string time_column;             ///< CSV: --time-column NAME
  std::string column_prefix;           ///< CSV: --column-prefix PREFIX
  std::string start;                   ///< --start TIME (io::parse_time_bound), empty: none
  std::string end;                     ///< --end TIME, empty: none
  /// The command replays the log through a stream::Pipeline, which reads what lies outside
  /// the window too (the window starts from the state the log had reached): --start and
  /// --end say so in their help. Set before add_to().
  bool window_primes = false;

  /// Declares the options in `group` (nullptr: the default group). With `needs` (the option
  /// naming the log, as fk's --log), each of them needs it.
  void add_to(CLI::App& app, const char* group, CLI::Option* needs = nullptr);
  /// The reader's options for `path`: -i, or with auto the path's extension (format_from_path;
  /// the content decides what the extension does not). @throws InvalidArgument for a
  /// malformed --start/--end, or an --end not after --start.
  [[nodiscard]] io::ReaderOptions reader_options(const std::string& path = "-") const;
  /// After a reader of reader_options() was read: when --start/--end were given and no message
  /// lay inside the window, what to warn of ("no message lies in the time window --start 100
  /// (from 1700000100 s on, by header stamp): its messages span 1700000000 to 1700000004.6 s");
  /// else an empty string. An empty window is a warning, not a failure (docs/design.md).
  [[nodiscard]] std::string empty_window_text(const io::MessageReader& reader) const;
};

}  // namespace rmodel::cli
