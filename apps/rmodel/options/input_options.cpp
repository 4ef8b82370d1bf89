#include "options/input_options.hpp"

#include <fmt/format.h>

#include "options/value_kind.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/format.hpp"

namespace rmodel::cli {

namespace {
/// Refuses a malformed --start/--end while the command line is parsed, before anything is read.
/// The parse error names the option and the value ("'--start': '-1' is ..."); CLI11 names the
/// option itself, so the text it gets starts at the value, as the other options' errors do.
CLI::Validator time_bound_check(const char* option) {
  return CLI::Validator(
      [option](const std::string& value) {
        try {
          (void)io::parse_time_bound(value, option);
          return std::string();
        } catch (const InvalidArgument& e) {
          std::string text = e.what();
          const std::string named = fmt::format("'{}': ", option);
          if (text.starts_with(named)) text.erase(0, named.size());
          return text;
        }
      },
      "");
}
}  // namespace

std::vector<std::string> input_format_names() {
  std::vector<std::string> names = {"auto"};
  for (io::Format format : io::formats()) names.emplace_back(format.name());
  return names;
}

std::string log_extensions_text(bool binary_only) {
  std::string text;
  for (io::Format format : io::formats()) {
    const io::FormatInfo& info = *format.info();
    if (!info.extensions.empty() && (info.binary || !binary_only))
      text += fmt::format("{}{}", text.empty() ? "" : ", ", info.extensions.front());
  }
  return text;
}

void LogInputOptions::add_to(CLI::App& app, const char* group, CLI::Option* needs) {
  std::vector<CLI::Option*> added;
  added.push_back(app.add_option("-i,--input-format", format,
                                 "Input format (auto: from the file's extension, then its first bytes, on stdin too)")
                      ->check(CLI::IsMember(input_format_names()))
                      ->default_str("auto"));
  added.push_back(with_kind(app.add_option("--topic", topics,
                                 "ROS logs: read this topic (one NAME per --topic, repeatable; default: every "
                                 "JointState topic); refused for a text log, which has none"), ValueKind::topic)
                      ->allow_extra_args(false)  // `--topic NAME FILE` reads FILE
                      ->type_name("NAME"));
  added.push_back(app.add_option("--time", time_source,
                                 "ROS logs and rostopic echo -p CSV: message time from the header stamp or the "
                                 "recorder's log time")
                      ->check(CLI::IsMember({"header", "log"}))
                      ->default_str("header"));
  added.push_back(with_kind(app.add_option("--time-column", time_column,
                                 "CSV: the column holding the time in seconds (default: t, time or __time)"),
                            ValueKind::text)
                      ->type_name("NAME"));
  added.push_back(with_kind(app.add_option("--column-prefix", column_prefix,
                                 "CSV: joint columns are PREFIX<joint>/<field>, e.g. /joint_states/ for PlotJuggler's "
                                 "/joint_states/neck_pitch/position (default: inferred when all such columns share one)"),
                            ValueKind::text)
                      ->type_name("PREFIX"));
  constexpr const char* kValues =
      "seconds after the log's first message (2.5), absolute seconds (1700000000.5, or @12.5 below 1e9) or RFC 3339 "
      "(2023-11-14T22:13:20.5Z); by the time --time chooses";
  added.push_back(with_kind(app.add_option("--start", start,
                                 window_primes
                                     ? fmt::format("Start the time window here; the log before it is read too, so "
                                                   "that the window starts from the state the log had reached: {}",
                                                   kValues)
                                     : fmt::format("Read messages from this time on: {}", kValues)),
                            ValueKind::time)
                      ->type_name("TIME")
                      ->check(time_bound_check("--start")));
  added.push_back(with_kind(app.add_option("--end", end,
                                 window_primes
                                     ? "End the time window before this time (the window is [start, end)); values as "
                                       "--start"
                                     : "Read messages before this time (the window is [start, end)); values as --start"),
                            ValueKind::time)
                      ->type_name("TIME")
                      ->check(time_bound_check("--end")));
  for (CLI::Option* option : added) {
    if (group != nullptr) option->group(group);
    if (needs != nullptr) option->needs(needs);
  }
}

std::string LogInputOptions::empty_window_text(const io::MessageReader& reader) const {
  if (start.empty() && end.empty()) return {};
  const io::ReaderStats stats = reader.stats();
  if (reader.message_count() > stats.outside_window) return {};
  std::string given;
  if (!start.empty()) given = fmt::format("--start {}", start);
  if (!end.empty()) given += fmt::format("{}--end {}", given.empty() ? "" : " ", end);
  std::string bounds;
  if (const std::optional<TimeWindow> w = reader.window()) {
    const char* by = !io::numbers_messages(reader.format()) ? ""
                     : time_source == "log"                  ? ", by log time"
                                                             : ", by header stamp";
    const std::string range = w->start && w->end ? fmt::format("[{}, {}) s", to_string(*w->start), to_string(*w->end))
                              : w->start         ? fmt::format("from {} s on", to_string(*w->start))
                                                 : fmt::format("before {} s", to_string(*w->end));
    bounds = fmt::format(" ({}{})", range, by);
  }
  std::string span;
  if (stats.earliest && stats.latest)
    span = fmt::format("its messages span {} to {} s", to_string(*stats.earliest), to_string(*stats.latest));
  else if (stats.chunks_skipped > 0)
    span = "each of its chunks begins at or after the window's end";
  else
    span = "it holds no message";
  return fmt::format("no message lies in the time window {}{}: {}", given, bounds, span);
}

io::ReaderOptions LogInputOptions::reader_options(const std::string& path) const {
  io::ReaderOptions options;
  options.format = io::parse_format(format);
  if (options.format.is_auto()) options.format = io::format_from_path(path);
  options.topics = topics;
  options.time = io::parse_time_source(time_source);
  options.time_column = time_column;
  options.column_prefix = column_prefix;
  if (!start.empty()) options.start = io::parse_time_bound(start, "--start");
  if (!end.empty()) options.end = io::parse_time_bound(end, "--end");
  if (options.start && options.end && options.start->relative == options.end->relative &&
      options.end->time <= options.start->time)
    throw InvalidArgument(fmt::format("'--end' {} is not after '--start' {}: the window [start, end) is empty", end,
                                      start));
  return options;
}

}  // namespace rmodel::cli
