#include "options/output.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/base/suggest.hpp"
#include "terminal.hpp"

namespace rmodel::cli {

namespace {
/// The names -f takes for `formats`: each own format's, and for `log` each written log
/// format's; each name once, in order.
std::vector<std::string> choice_names(const std::vector<OutputFormat>& formats) {
  std::vector<std::string> names;
  const auto add = [&names](std::string_view name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
  };
  for (OutputFormat f : formats) {
    if (f != OutputFormat::log) {
      add(format_name(f));
      continue;
    }
    for (io::Format log : written_log_formats()) add(log.name());
  }
  return names;
}

std::string list_text(const std::vector<OutputFormat>& formats) {
  std::string out;
  for (const std::string& name : choice_names(formats)) out += fmt::format("{}{}", out.empty() ? "" : ", ", name);
  return out;
}

bool contains(const std::vector<OutputFormat>& formats, OutputFormat f) {
  return std::find(formats.begin(), formats.end(), f) != formats.end();
}

/// True when `formats` are written message by message (a log, or records as JSON Lines).
bool streams(const std::vector<OutputFormat>& formats) {
  return contains(formats, OutputFormat::log) || contains(formats, OutputFormat::jsonl);
}

/// The format of `formats` named `name` (and the log format, for `log`): an own format
/// first, then a written log format when `formats` has `log`.
std::optional<std::pair<OutputFormat, io::Format>> named_in(const std::vector<OutputFormat>& formats,
                                                            std::string_view name) {
  for (OutputFormat f : formats)
    if (f != OutputFormat::log && format_name(f) == name) return std::pair{f, io::Format{}};
  if (contains(formats, OutputFormat::log))
    for (io::Format log : written_log_formats())
      if (log.name() == name) return std::pair{OutputFormat::log, log};
  return std::nullopt;
}

}  // namespace

std::string_view format_name(OutputFormat format) {
  switch (format) {
    case OutputFormat::text: return "text";
    case OutputFormat::json: return "json";
    case OutputFormat::csv: return "csv";
    case OutputFormat::dot: return "dot";
    case OutputFormat::jsonl: return "jsonl";
    case OutputFormat::github: return "github";
    case OutputFormat::sarif: return "sarif";
    case OutputFormat::junit: return "junit";
    case OutputFormat::codequality: return "codequality";
    case OutputFormat::srdf: return "srdf";
    case OutputFormat::log: return "log";
  }
  return "text";
}

std::vector<io::Format> written_log_formats() {
  std::vector<io::Format> list;
  for (io::Format f : io::formats())
    if (f.info()->written) list.push_back(f);
  return list;
}

std::string written_log_formats_text() {
  const std::vector<io::Format> logs = written_log_formats();
  std::string text;
  for (std::size_t i = 0; i < logs.size(); ++i)
    text += fmt::format("{}{}", i == 0 ? "" : i + 1 == logs.size() ? " or " : ", ", logs[i].name());
  return text;
}

io::Format default_log_format() { return written_log_formats().front(); }

std::optional<std::string_view> format_of_path(std::string_view path) {
  const auto dot = path.rfind('.');
  const auto slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return std::nullopt;
  std::string ext(path.substr(dot));
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // The documents' endings are the app's; the logs' come from the format table (a written
  // format's endings name it: .jsonl and .ndjson, .csv, .mcap). `.json` names the document,
  // not the JSON array log, which rmodel reads but does not write.
  static const std::map<std::string, std::string_view, std::less<>> by_extension = [] {
    std::map<std::string, std::string_view, std::less<>> map = {
        {".txt", "text"}, {".json", "json"}, {".dot", "dot"}, {".gv", "dot"}, {".sarif", "sarif"},
        {".srdf", "srdf"}};
    for (io::Format log : written_log_formats())
      for (std::string_view extension : log.info()->extensions) map.emplace(extension, log.name());
    return map;
  }();
  const auto it = by_extension.find(ext);
  if (it == by_extension.end()) return std::nullopt;
  return it->second;
}

Json json_document(std::string_view name, int version) {
  Json doc = Json::object();
  doc["schema"] = std::string(name);
  doc["schema_version"] = version;
  return doc;
}

OutputOptions::~OutputOptions() {
  // Not closed: the run failed; the file it would have replaced stays as it was.
  if (stream_ != nullptr) std::fclose(stream_);
}

void OutputOptions::add_to(CLI::App& app, std::vector<OutputFormat> allowed, OutputFormat fallback,
                           std::function<void()> after_parse, const char* group) {
  allowed_ = std::move(allowed);
  fallback_ = fallback;
  mode_allowed_ = allowed_;
  mode_fallback_ = fallback;
  format_ = fallback;
  if (fallback == OutputFormat::log) log_ = default_log_format();
  after_parse_ = std::move(after_parse);
  const std::vector<std::string> words = choice_names(allowed_);
  std::string type;
  for (const std::string& word : words) type += (type.empty() ? "" : "|") + word;
  format_option_ =
      with_choices(app.add_option("-f,--format", format_text_,
                                  fmt::format("Output format (default: from -o's extension, else {})",
                                              fallback == OutputFormat::log ? default_log_format().name()
                                                                            : format_name(fallback))),
                   words)
          ->type_name("{" + type + "}");
  output_option_ = with_kind(app.add_option("-o,--output", path_, "Output file ('-': stdout; its extension names the format)"),
                             ValueKind::file)
                       ->type_name("FILE")
                       ->default_str("-");
  if (group != nullptr) {
    format_option_->group(group);
    output_option_->group(group);
  }
  app.final_callback([this, &app] {
    if (after_parse_) after_parse_();
    resolve();
    refuse_output_among_inputs(app, output_option_, path_);
  });
}

void OutputOptions::add_legacy_output_format(CLI::App& app) {
  std::vector<std::string> words = {"auto"};
  for (io::Format log : written_log_formats()) words.emplace_back(log.name());
  legacy_option_ = app.add_option("-O,--output-format", legacy_text_, "Old name of -f for streams (auto or a log format)")
                       ->check(one_of(words))
                       ->group("");
}

std::string_view OutputOptions::format_text() const {
  return format_ == OutputFormat::log ? log_.name() : format_name(format_);
}

bool OutputOptions::format_given() const {
  return (format_option_ != nullptr && format_option_->count() > 0) ||
         (legacy_option_ != nullptr && legacy_option_->count() > 0 && legacy_text_ != "auto");
}

bool OutputOptions::path_given() const { return output_option_ != nullptr && output_option_->count() > 0; }

void OutputOptions::restrict(std::vector<OutputFormat> allowed, OutputFormat fallback, std::string mode) {
  mode_allowed_ = std::move(allowed);
  mode_fallback_ = fallback;
  mode_ = std::move(mode);
}

void OutputOptions::refuse(const std::string& what) { throw CLI::ValidationError(what); }

void OutputOptions::resolve() {
  if (format_option_ != nullptr && format_option_->count() > 0 && legacy_option_ != nullptr &&
      legacy_option_->count() > 0)
    refuse("give -f only (-O,--output-format is its old name)");
  std::optional<std::string_view> chosen;
  std::string how;
  if (format_option_ != nullptr && format_option_->count() > 0) {
    chosen = format_text_;
    how = "-f " + format_text_;
  } else if (legacy_option_ != nullptr && legacy_option_->count() > 0 && legacy_text_ != "auto") {
    chosen = legacy_text_;
    how = "-O " + legacy_text_;
  } else if (!to_stdout()) {
    // No extension, or one that names no format (.out, .log): the command's default. One
    // that names a format the command does not write is a mistake worth saying.
    chosen = format_of_path(path_);
    const bool stream = streams(mode_allowed_);
    if (chosen && !named_in(mode_allowed_, *chosen))
      refuse(fmt::format("-o {} names {} output, which is not one of {}{}; {}", path_, *chosen,
                         list_text(mode_allowed_), mode_.empty() ? "" : " (" + mode_ + ")",
                         stream && *chosen == format_name(OutputFormat::json)
                             ? "streams are written as JSON Lines: name the file .jsonl, or give -f"
                             : "give -f to choose"));
  }
  if (!chosen) {
    format_ = mode_fallback_;
    log_ = mode_fallback_ == OutputFormat::log ? default_log_format() : io::Format{};
    return;
  }
  const auto named = named_in(mode_allowed_, *chosen);
  if (!named) {
    const bool stream = streams(mode_allowed_);
    refuse(fmt::format("{} does not apply{}: the formats are {}{}", how, mode_.empty() ? "" : " to " + mode_,
                       list_text(mode_allowed_),
                       stream && *chosen == format_name(OutputFormat::json)
                           ? " (streams are written as JSON Lines: -f jsonl)"
                           : ""));
  }
  format_ = named->first;
  log_ = named->second;
}

void OutputOptions::open() {
  if (stream_ != nullptr || to_stdout()) return;
  file_ = io::OutputFile::open(path_);
  stream_ = stdio_stream(*file_);
}

std::FILE* stdio_stream(const io::OutputFile& file) {
  const int fd = ::fcntl(file.fd(), F_DUPFD_CLOEXEC, 0);
  std::FILE* stream = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  if (stream == nullptr) {
    const int error = errno;
    if (fd >= 0) ::close(fd);
    throw WriteError(file.path(), fmt::format("cannot create: {}", std::strerror(error)));
  }
  return stream;
}

void OutputOptions::write(std::string_view text) {
  if (to_stdout()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (std::ferror(stdout) && errno == EPIPE) throw BrokenPipe("<stdout>", "the output was closed");
    return;
  }
  open();
  if (std::fwrite(text.data(), 1, text.size(), stream_) != text.size()) {
    if (errno == EPIPE) throw BrokenPipe(path_, "the output was closed");  // -o naming a pipe
    throw WriteError(path_, fmt::format("write failed: {}", std::strerror(errno)));
  }
}

void OutputOptions::flush() {
  if (to_stdout()) {
    if (std::fflush(stdout) != 0) throw BrokenPipe("<stdout>", "the output was closed");
    return;
  }
  if (stream_ != nullptr && std::fflush(stream_) != 0) {
    if (errno == EPIPE) throw BrokenPipe(path_, "the output was closed");
    throw WriteError(path_, fmt::format("write failed: {}", std::strerror(errno)));
  }
}

void OutputOptions::close() {
  if (to_stdout()) return;
  open();
  std::FILE* f = std::exchange(stream_, nullptr);
  const bool failed = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || failed) {
    file_.reset();
    throw WriteError(path_, fmt::format("write failed: {}", std::strerror(errno)));
  }
  file_->commit();
  file_.reset();
}

void OutputOptions::abandon(std::string_view command, std::string_view why, bool quiet) {
  if (to_stdout()) return;
  if (stream_ != nullptr) std::fclose(std::exchange(stream_, nullptr));
  // Never opened: whether a file of that name is there now.
  struct stat st {};
  const bool replaced = file_ ? file_->replaces() : ::stat(path_.c_str(), &st) == 0;
  const bool aside = file_ ? file_->aside() : true;
  file_.reset();
  if (!quiet && aside) report_output_not_written(command, path_, replaced, fmt::format("{}{}", why, kStdoutHint));
}

void report_output_not_written(std::string_view command, const std::string& file, bool replaced, std::string_view why) {
  terminal::diagnostic(
      fmt::format("rmodel {}: {} {}: {}", command, file, replaced ? "left as it was" : "not written", why));
}

const char* const kStdoutHint = " (-o - writes it anyway)";

std::string rejected_messages_text(std::uint64_t rejected) {
  return fmt::format("{} rejected message{} the output incomplete", rejected, rejected == 1 ? " makes" : "s make");
}

namespace {
std::string refusal(const std::string& value, const std::vector<std::string>& words) {
  std::string list;
  for (const auto& w : words) list += (list.empty() ? "" : ", ") + w;
  return fmt::format("'{}' is not one of {}{}", value, list, did_you_mean(value, words));
}
}  // namespace

CLI::Validator one_of(std::vector<std::string> words) {
  return CLI::Validator(
      [words = std::move(words)](std::string& value) -> std::string {
        if (std::find(words.begin(), words.end(), value) != words.end()) return {};
        return refusal(value, words);
      },
      "");
}

namespace {
std::map<const CLI::Option*, std::vector<std::string>>& choice_registry() {
  static std::map<const CLI::Option*, std::vector<std::string>> registry;
  return registry;
}
}  // namespace

CLI::Option* with_choices(CLI::Option* opt, std::vector<std::string> words) {
  opt->check(one_of(words));
  choice_registry()[opt] = std::move(words);
  return opt;
}

const std::vector<std::string>* recorded_choices(const CLI::Option* opt) {
  const auto it = choice_registry().find(opt);
  return it == choice_registry().end() ? nullptr : &it->second;
}

namespace {
/// `check` of the value read as a double, or why it is not one.
CLI::Validator number_check(std::string description, std::function<std::string(const std::string&, double)> check) {
  return CLI::Validator(
      [check = std::move(check)](std::string& text) -> std::string {
        double value = 0.0;
        if (!CLI::detail::lexical_cast(text, value)) return fmt::format("'{}' is not a number", text);
        return check(text, value);
      },
      std::move(description));
}
}  // namespace

CLI::Validator positive_number() {
  return number_check("POSITIVE", [](const std::string& text, double value) {
    return value > 0.0 ? std::string() : fmt::format("'{}' must be more than 0", text);
  });
}

CLI::Validator non_negative_number() {
  return number_check("NONNEGATIVE", [](const std::string& text, double value) {
    return value >= 0.0 ? std::string() : fmt::format("'{}' must be at least 0", text);
  });
}

CLI::Validator number_in(double lowest, double highest) {
  std::ostringstream type;  // as CLI::Range names it
  type << CLI::detail::type_name<double>() << " in [" << lowest << " - " << highest << "]";
  return number_check(type.str(), [lowest, highest](const std::string& text, double value) {
    return value >= lowest && value <= highest
               ? std::string()
               : fmt::format("'{}' is not in [{}, {}]", text, number_text(lowest), number_text(highest));
  });
}

CLI::Validator names_to_numbers(std::vector<std::string> names, std::vector<std::string> numbers) {
  return CLI::Validator(
      [names = std::move(names), numbers = std::move(numbers)](std::string& value) -> std::string {
        const auto it = std::find(names.begin(), names.end(), value);
        if (it == names.end()) return refusal(value, names);
        value = numbers[static_cast<std::size_t>(it - names.begin())];
        return {};
      },
      "");
}

void refuse_output_among_inputs(const CLI::App& app, const CLI::Option* output_option, const std::string& output) {
  namespace fs = std::filesystem;
  if (output.empty() || output == "-") return;
  std::error_code ec;
  const fs::path out(output);
  if (!fs::exists(out, ec)) return;  // a new file cannot be an input
  for (const CLI::Option* opt : app.get_options()) {
    if (opt == output_option) continue;
    for (const std::string& value : opt->results()) {
      if (value.empty() || value == "-" || value.find('\0') != std::string::npos) continue;
      std::error_code same_ec;
      if (fs::equivalent(fs::path(value), out, same_ec))
        OutputOptions::refuse(fmt::format("-o {} is the input {}{}: writing it would destroy the input; write to "
                                          "another file",
                                          output, value, value == output ? "" : " (the same file)"));
    }
  }
  // `rmodel aggregate -o log.jsonl < log.jsonl`: stdin is the file being written.
  struct stat in {}, target {};
  if (::fstat(0, &in) == 0 && S_ISREG(in.st_mode) && ::stat(output.c_str(), &target) == 0 &&
      in.st_dev == target.st_dev && in.st_ino == target.st_ino)
    OutputOptions::refuse(fmt::format("-o {} is the file standard input reads: writing it would destroy the input; "
                                      "write to another file",
                                      output));
}

std::string number_text(double value) { return fmt::format("{}", value); }

CLI::Option* add_time_option(CLI::App& app, const std::string& flags, Time& value, const std::string& description,
                             TimeRange range) {
  const CLI::Validator valid(
      [range](std::string& text) -> std::string {
        Time t;
        switch (parse_time(text, t)) {
          case TimeParseStatus::ok: break;
          case TimeParseStatus::invalid: return fmt::format("'{}' is not a time in seconds", text);
          case TimeParseStatus::out_of_range:
            return fmt::format("'{}' is beyond the range of times (±9223372036.854775807 s)", text);
        }
        if (range == TimeRange::positive && !(t > Time{})) return fmt::format("'{}' must be more than 0 s", text);
        if (range == TimeRange::non_negative && t < Time{}) return fmt::format("'{}' must be at least 0 s", text);
        return {};
      },
      "", "time");  // no description: the type name says SECONDS once, not SECONDS:SECONDS
  return with_kind(app.add_option_function<std::string>(
                       flags, [&value](const std::string& text) { (void)parse_time(text, value); }, description),
                   ValueKind::time)
      ->check(valid)
      ->type_name("SECONDS")
      ->default_str(to_string(value));
}

std::string cell_text(const Json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_number_float()) return number_text(value.get<double>());
  if (value.is_number()) return value.dump();
  if (value.is_array()) {
    std::string out;
    for (const auto& v : value) out += (out.empty() ? "" : ",") + cell_text(v);
    return out.empty() ? "-" : out;
  }
  return value.dump();
}

namespace {
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_cell(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_array()) {
    std::string out;
    for (const auto& v : value) out += (out.empty() ? "" : " ") + cell_text(v);
    return csv_field(out);
  }
  return csv_field(cell_text(value));
}
}  // namespace

Json Table::to_json() const {
  Json out = Json::array();
  for (const auto& row : rows_) {
    Json obj = Json::object();
    for (std::size_t i = 0; i < columns_.size(); ++i) obj[columns_[i]] = row[i];
    out.push_back(std::move(obj));
  }
  return out;
}

std::string Table::render(OutputFormat format, std::string_view schema, const std::string& key) const {
  if (format != OutputFormat::json) return render(format);
  Json doc = json_document(schema);
  doc[key] = to_json();
  return json_text(doc);
}

std::string Table::render(OutputFormat format) const {
  if (format == OutputFormat::json) return json_text(to_json());
  std::string out;
  if (format == OutputFormat::csv) {
    for (std::size_t i = 0; i < columns_.size(); ++i) out += (i ? "," : "") + csv_field(columns_[i]);
    out += '\n';
    for (const auto& row : rows_) {
      for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + csv_cell(row[i]);
      out += '\n';
    }
    return out;
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t i = 0; i < columns_.size(); ++i) width[i] = columns_[i].size();
  for (const auto& row : rows_) {
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < row.size(); ++i) {
      texts.push_back(cell_text(row[i]));
      width[i] = std::max(width[i], texts.back().size());
    }
    cells.push_back(std::move(texts));
  }
  auto line = [&](const std::vector<std::string>& texts) {
    std::string l;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      l += texts[i];
      if (i + 1 < texts.size()) l += std::string(width[i] - texts[i].size() + 2, ' ');
    }
    out += l + '\n';
  };
  line(columns_);
  for (const auto& texts : cells) line(texts);
  return out;
}

std::string json_text(const Json& doc) {
  // Text quoted from an input (a CSV header of noise) need not be UTF-8: its bad bytes become
  // U+FFFD rather than failing the whole document.
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

void write_out(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

std::string fixed_text(double v) {
  if (std::abs(v) < 5e-7) v = 0.0;
  return fmt::format("{:.6f}", v);
}

}  // namespace rmodel::cli
