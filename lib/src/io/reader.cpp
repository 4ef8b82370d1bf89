#include "rmodel/io/reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <chrono>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "io/builder.hpp"
#include "io/csv.hpp"
#include "io/line_source.hpp"
#include "io/parsers.hpp"
#include "io/ros_yaml.hpp"
#include "io/ros/bag_source.hpp"
#include "io/trajectory.hpp"
#include "rmodel/error.hpp"

namespace rmodel::io {

using detail::LineSplitter;

std::string location(const std::string& source, std::size_t line, std::size_t item,
                     std::optional<std::uint64_t> byte_offset, bool numbered_messages) {
  std::string s = source;
  if (byte_offset || numbered_messages) {
    if (byte_offset) s += fmt::format(": byte {}", *byte_offset);
    if (line > 0) s += fmt::format(": message {}", line);
  } else if (line > 0) {
    s += fmt::format(":{}", line);
  }
  if (item > 0) s += fmt::format(": item {}", item);
  return s;
}

bool numbers_messages(Format format) noexcept {
  return format == Format::Mcap || format == Format::Ros2Sqlite || format == Format::Ros1Bag;
}

std::string ReadError::to_string(const std::string& source) const {
  return location(source, line, item, byte_offset) + ": " + reason;
}

namespace {
inline bool is_json_ws(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
constexpr std::string_view kBom = "\xEF\xBB\xBF";
}  // namespace

class MessageReader::Impl {
public:
  Impl(std::unique_ptr<detail::ByteSource> source, std::string name, const ReaderOptions& options)
      : parser_(detail::make_native_parser()),
        source_(std::move(source)),
        name_(std::move(name)),
        max_line_(std::max<std::size_t>(options.max_line_bytes, 1)),
        lines_(*source_, max_line_),
        format_(options.format),
        start_(options.start),
        end_(options.end) {
    csv_.configure(detail::CsvOptions{options.time_column, options.column_prefix, options.time});
    window_ = start_ || end_;
    if (window_ && !(start_ && start_->relative) && !(end_ && end_->relative)) resolve_window(Time{});
  }

  /// Pulls the next message inside the time window (all of them without one).
  ReadStatus next(Message& out) {
    if (!window_) return next_message(out);
    for (;;) {
      const ReadStatus st = next_message(out);
      if (st != ReadStatus::Ok) return st;
      if (!out.has_stamp) {
        --messages_;
        error_.byte_offset.reset();
        return error(out.line, out.item, "no time: a message needs one to be placed in the time window (--start/--end)");
      }
      const Time t = out.stamp();
      if (!resolved_) resolve_window(t);
      if (t >= lo_ && (!has_hi_ || t < hi_)) return st;
      --messages_;
      ++outside_window_;
    }
  }

  /// The window's bounds in the log's time, relative ones counted from `origin` (the time of
  /// the first message); passed on to a log source, which may skip chunks by them.
  void resolve_window(Time origin) {
    resolved_ = true;
    const auto absolute = [origin](const TimeBound& b) {
      std::int64_t t = b.time.ns;
      if (b.relative && __builtin_add_overflow(origin.ns, b.time.ns, &t)) t = std::numeric_limits<std::int64_t>::max();
      return Time{t};
    };
    lo_ = start_ ? absolute(*start_) : Time{std::numeric_limits<std::int64_t>::min()};
    has_hi_ = end_.has_value();
    hi_ = end_ ? absolute(*end_) : Time{std::numeric_limits<std::int64_t>::max()};
    if (bag_) bag_->set_log_window(lo_.ns, hi_.ns);
  }

  [[nodiscard]] ReaderStats stats() const noexcept {
    ReaderStats s = bag_ ? bag_->stats() : ReaderStats{};
    s.outside_window = outside_window_;
    return s;
  }

  ReadStatus next_message(Message& out) {
    if (sniff_) take_stream();
    if (bag_) {
      const ReadStatus st = bag_->next(out, error_);
      if (st == ReadStatus::Ok) return ok();
      if (st == ReadStatus::Error) return error();
      return st;
    }
    for (;;) {
      if (pending_pos_ < pending_.size()) {
        detail::PendingItem& item = pending_[pending_pos_++];
        ReadStatus st;
        if (item.is_error) {
          error_ = std::move(item.error);
          st = error();
        } else {
          out = item.message;
          st = ok();
        }
        if (pending_pos_ == pending_.size()) {
          pending_.clear();
          pending_pos_ = 0;
        }
        return st;
      }
      if (csv_.pending()) {
        csv_.emit(out, csv_names_);
        return ok();
      }
      std::optional<ReadStatus> st;
      switch (mode_) {
        case Mode::Undecided: st = decide(); break;
        case Mode::Lines: st = next_json_line(out); break;
        case Mode::Csv: st = next_csv_row(out); break;
        case Mode::Document: st = next_document_value(out); break;
        case Mode::Yaml: st = next_yaml_document(out); break;
        case Mode::Done: return ReadStatus::End;
      }
      if (st) return *st;
    }
  }

  [[nodiscard]] bool input_pending() const noexcept {
    if (bag_) return true;  // a log file is read as fast as the disk gives it
    if (source_->holds_bytes()) return true;  // bytes taken while sniffing a pipe's format
    // A YAML message is complete only with its separator line: the next one is ready when a
    // separator is buffered (or the input has ended).
    if (mode_ == Mode::Yaml)
      return pending_pos_ < pending_.size() || lines_.buffered_contains("---");
    return pending_pos_ < pending_.size() || csv_.pending() || held_ || mode_ == Mode::Done ||
           (mode_ == Mode::Document && doc_loaded_) || lines_.line_ready();
  }

  [[nodiscard]] Format format() const noexcept { return format_; }

  std::unique_ptr<detail::JsonMessageParser> parser_;
  std::unique_ptr<detail::ByteSource> source_;
  std::string name_;
  std::size_t max_line_;
  LineSplitter lines_;
  Format format_;
  bool live_ = false;  // a pipe, socket, terminal or std::istream (MessageReader::may_read_ahead)
  ReadError error_;
  std::uint64_t messages_ = 0;
  std::uint64_t errors_ = 0;
  std::unique_ptr<detail::BagSource> bag_;  ///< set when the input is a ROS log (bag.hpp)

  // The time window (ReaderOptions::start, end): [lo_, hi_) once resolved.
  std::optional<TimeBound> start_, end_;
  bool window_ = false;
  bool resolved_ = false;
  bool has_hi_ = false;
  Time lo_{}, hi_{};
  std::uint64_t outside_window_ = 0;

  /// A stream (pipe, socket, terminal) whose first bytes decide at the first next() whether it
  /// is a ROS log or text.
  struct Sniff {
    int fd;
    detail::FdSource* source;
    ReaderOptions options;
  };
  std::optional<Sniff> sniff_;
  std::unique_ptr<detail::FdSource> spool_;  ///< owns the temporary file a log on a stream is held in

  /// A ROS log arriving on a stream is copied to a temporary file (the logs need random
  /// access) and read from there as its file would be; text is read as it comes, beginning
  /// with the bytes its format was told from.
  void take_stream() {
    const Sniff sniff = std::move(*sniff_);
    sniff_.reset();
    std::string head;
    const int spooled = detail::spool_log_from_stream(sniff.fd, sniff.options.format, name_, head);
    if (spooled < 0) {
      sniff.source->unread(std::move(head));
      return;
    }
    spool_ = std::make_unique<detail::FdSource>(spooled, name_, true);
    Format format = sniff.options.format;
    bag_ = detail::open_bag_source(spooled, name_, sniff.options, format);
    format_ = format;
    if (bag_ && resolved_) bag_->set_log_window(lo_.ns, hi_.ns);
  }

private:
  enum class Mode { Undecided, Lines, Csv, Document, Yaml, Done };
  Mode mode_ = Mode::Undecided;

  detail::MessageBuilder builder_;
  detail::ParseFailure failure_;
  detail::StringListSink csv_names_{builder_.spare()};
  detail::CsvTable csv_;
  std::string csv_error_;

  // The first line, read to choose the format, waiting to be processed.
  bool held_ = false;
  std::string_view held_line_;
  std::size_t held_no_ = 0;
  bool first_line_ = true;
  bool seen_content_ = false;

  // A whole JSON document (pretty message, array, trajectory), with kPadding spaces after.
  std::string doc_;
  std::size_t doc_size_ = 0;
  std::size_t doc_pos_ = 0;
  std::size_t doc_line_ = 1;
  bool doc_loaded_ = false;
  bool in_array_ = false;
  std::size_t array_items_ = 0;

  std::vector<detail::PendingItem> pending_;
  std::size_t pending_pos_ = 0;

  // ros2 / rostopic echo YAML: the document being collected; after an over-long document,
  // its remaining lines are skipped up to the next separator.
  detail::RosYamlDocument yaml_;
  bool yaml_skipping_ = false;

  ReadStatus ok() noexcept {
    ++messages_;
    return ReadStatus::Ok;
  }
  ReadStatus error() noexcept {
    ++errors_;
    seen_content_ = true;
    return ReadStatus::Error;
  }
  ReadStatus error(std::size_t line, std::size_t item, std::string reason) {
    error_.line = line;
    error_.item = item;
    error_.reason = std::move(reason);
    return error();
  }
  ReadStatus at_end() {
    mode_ = Mode::Done;
    if (!seen_content_) return error(0, 0, "empty input: no messages");
    return ReadStatus::End;
  }
  ReadStatus too_long(std::size_t line) {
    return error(line, 0, fmt::format("line longer than {} bytes (skipped)", max_line_));
  }

  // Next non-blank line (the held one first); strips a BOM at the start of the input.
  LineSplitter::Status get_line(std::string_view& line, std::size_t& no) {
    if (held_) {
      held_ = false;
      line = held_line_;
      no = held_no_;
      return LineSplitter::Status::Line;
    }
    for (;;) {
      const auto st = lines_.next(line, no);
      if (st == LineSplitter::Status::TooLong) {
        first_line_ = false;
        seen_content_ = true;
      }
      if (st != LineSplitter::Status::Line) return st;
      if (first_line_) {
        first_line_ = false;
        if (line.substr(0, 3) == kBom) line.remove_prefix(3);
      }
      std::size_t i = 0;
      while (i < line.size() && is_json_ws(line[i])) ++i;
      if (i == line.size()) continue;  // blank line
      seen_content_ = true;
      return st;
    }
  }

  std::optional<ReadStatus> decide() {
    if (format_ == Format::JsonLines) {
      mode_ = Mode::Lines;
      return std::nullopt;
    }
    if (format_ == Format::Csv) {
      mode_ = Mode::Csv;
      return std::nullopt;
    }
    if (format_ == Format::Yaml) {
      mode_ = Mode::Yaml;
      return std::nullopt;
    }
    std::string_view line;
    std::size_t no = 0;
    switch (get_line(line, no)) {
      case LineSplitter::Status::WouldBlock: return ReadStatus::WouldBlock;
      case LineSplitter::Status::End: return at_end();
      case LineSplitter::Status::TooLong:
        mode_ = Mode::Lines;
        format_ = Format::JsonLines;
        return too_long(no);
      case LineSplitter::Status::Line: break;
    }
    std::size_t i = 0;
    while (i < line.size() && is_json_ws(line[i])) ++i;
    const char c = line[i];
    if (format_ == Format::Auto && i == 0 && detail::looks_like_ros_yaml(line)) {
      mode_ = Mode::Yaml;
      format_ = Format::Yaml;
    } else if (c == '{' && detail::scan_value_end(line, i) != std::string_view::npos) {
      mode_ = Mode::Lines;
      format_ = Format::JsonLines;
    } else if (c == '{' || c == '[') {
      mode_ = Mode::Document;
      format_ = Format::Json;
      doc_.assign(line.data(), line.size());
      doc_ += '\n';
      doc_line_ = no;
      return std::nullopt;
    } else if (format_ == Format::Json) {
      mode_ = Mode::Lines;  // not JSON: every line will be reported
      format_ = Format::JsonLines;
    } else {
      mode_ = Mode::Csv;
      format_ = Format::Csv;
    }
    held_ = true;
    held_line_ = line;
    held_no_ = no;
    return std::nullopt;
  }

  // Parses one JSON value as a message; nullopt when it expanded into pending items.
  std::optional<ReadStatus> parse_json(std::string_view text, std::size_t capacity,
                                       std::size_t line, std::size_t item, Message& out) {
    builder_.begin(out);
    switch (parser_->parse(text, capacity, builder_, failure_)) {
      case detail::ParseStatus::Ok:
        out.line = line;
        out.item = item;
        return ok();
      case detail::ParseStatus::Error:
        return error(line + detail::count_newlines(text, failure_.offset), item,
                     std::move(failure_.reason));
      case detail::ParseStatus::Document: break;
    }
    std::size_t i = 0;
    while (i < text.size() && is_json_ws(text[i])) ++i;
    if (i < text.size() && text[i] == '[')
      return error(line, item,
                   "expected a JSON object, got an array (arrays of messages are read from "
                   "whole JSON documents: format json)");
    detail::expand_trajectory(text, line, pending_);
    return std::nullopt;
  }

  std::optional<ReadStatus> next_json_line(Message& out) {
    std::string_view line;
    std::size_t no = 0;
    switch (get_line(line, no)) {
      case LineSplitter::Status::WouldBlock: return ReadStatus::WouldBlock;
      case LineSplitter::Status::End: return at_end();
      case LineSplitter::Status::TooLong: return too_long(no);
      case LineSplitter::Status::Line: break;
    }
    return parse_json(line, lines_.readable(line.data()), no, 0, out);
  }

  std::optional<ReadStatus> next_csv_row(Message& out) {
    std::string_view line;
    std::size_t no = 0;
    switch (get_line(line, no)) {
      case LineSplitter::Status::WouldBlock: return ReadStatus::WouldBlock;
      case LineSplitter::Status::End: return at_end();
      case LineSplitter::Status::TooLong: return too_long(no);
      case LineSplitter::Status::Line: break;
    }
    if (!csv_.has_header()) {
      std::string problems = csv_.set_header(line);
      if (!problems.empty()) return error(no, 0, "CSV header: " + problems);
      return std::nullopt;
    }
    if (!csv_.parse_row(line, no, csv_error_)) return error(no, 0, csv_error_);
    if (csv_.pending()) {
      csv_.emit(out, csv_names_);
      return ok();
    }
    return std::nullopt;  // a row without data
  }

  // One `---`-separated document of echo output; a message is returned as soon as its
  // separator line arrives (ros2 and rostopic print it after each message).
  std::optional<ReadStatus> next_yaml_document(Message& out) {
    for (;;) {
      std::string_view line;
      std::size_t no = 0;
      const auto st = get_line(line, no);
      if (st == LineSplitter::Status::WouldBlock) return ReadStatus::WouldBlock;
      if (st == LineSplitter::Status::TooLong) {
        yaml_.clear();
        yaml_skipping_ = true;
        return too_long(no);
      }
      const bool end = st == LineSplitter::Status::End;
      if (!end && !detail::is_document_separator(line)) {
        if (yaml_skipping_) continue;
        if (!yaml_.add_line(line, no, max_line_)) {
          const std::size_t first = yaml_.first_line();
          yaml_.clear();
          yaml_skipping_ = true;
          return error(first, 0, fmt::format("YAML document longer than {} bytes (skipped up to the next '---')",
                                             max_line_));
        }
        continue;
      }
      yaml_skipping_ = false;
      if (yaml_.empty()) {
        if (end) return at_end();
        continue;
      }
      switch (yaml_.parse(builder_, out, pending_, error_)) {
        case detail::RosYamlDocument::Result::Message: return ok();
        case detail::RosYamlDocument::Result::Error: return error();
        case detail::RosYamlDocument::Result::Pending: return std::nullopt;
        case detail::RosYamlDocument::Result::Nothing: break;
      }
      if (end) return at_end();
    }
  }

  std::optional<ReadStatus> next_document_value(Message& out) {
    if (!doc_loaded_) {
      if (lines_.drain(doc_) == LineSplitter::Status::WouldBlock) return ReadStatus::WouldBlock;
      doc_size_ = doc_.size();
      doc_.append(detail::kPadding, ' ');
      doc_loaded_ = true;
    }
    const std::string_view doc(doc_.data(), doc_size_);
    auto skip_ws = [&] {
      while (doc_pos_ < doc_size_ && is_json_ws(doc[doc_pos_])) {
        if (doc[doc_pos_] == '\n') ++doc_line_;
        ++doc_pos_;
      }
    };
    for (;;) {
      skip_ws();
      if (in_array_) {
        if (doc_pos_ < doc_size_ && doc[doc_pos_] == ']') {
          ++doc_pos_;
          in_array_ = false;
          continue;
        }
        if (array_items_ > 0) {
          if (doc_pos_ < doc_size_ && doc[doc_pos_] == ',') {
            ++doc_pos_;
            skip_ws();
          } else if (doc_pos_ < doc_size_) {
            mode_ = Mode::Done;
            return error(doc_line_, 0,
                         fmt::format("expected ',' or ']' after array element {}", array_items_));
          }
        }
      }
      if (doc_pos_ >= doc_size_) {
        mode_ = Mode::Done;
        if (in_array_) return error(doc_line_, 0, "unterminated array (missing ']')");
        return ReadStatus::End;
      }
      const char c = doc[doc_pos_];
      if (!in_array_ && c == '[') {
        in_array_ = true;
        array_items_ = 0;
        ++doc_pos_;
        continue;
      }
      const std::size_t item = in_array_ ? ++array_items_ : 0;
      const std::size_t line = doc_line_;
      std::size_t end = detail::scan_value_end(doc, doc_pos_);
      if (end == std::string_view::npos) {
        mode_ = Mode::Done;
        return error(line, item, "unterminated JSON value (missing '}', ']' or '\"')");
      }
      if (end == doc_pos_) end = doc_pos_ + 1;
      const std::string_view text = doc.substr(doc_pos_, end - doc_pos_);
      doc_line_ += detail::count_newlines(text, text.size());
      doc_pos_ = end;
      if (c != '{') {
        return error(line, item,
                     fmt::format("expected a JSON object, got {}",
                                 detail::describe_token(text.data(), text.data() + text.size())));
      }
      const std::size_t capacity = doc_.size() - static_cast<std::size_t>(text.data() - doc_.data());
      if (auto st = parse_json(text, capacity, line, item, out)) return st;
      return std::nullopt;  // expanded: serve the pending items
    }
  }
};

// ---- merging by time ----

/// The inputs of a merged reader, each with its next message held.
class MessageReader::Merged {
public:
  explicit Merged(std::vector<MessageReader> inputs) : inputs_(std::move(inputs)), held_(inputs_.size()) {
    if (inputs_.empty()) throw InvalidArgument("merging needs at least one input");
  }

  ReadStatus next(Message& out) {
    // Refill the inputs whose message was taken (lazily: a reading does not wait for input it
    // does not need yet). An input's errors pass through at once, in the order they come.
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      Held& h = held_[i];
      while (h.state == State::Empty) {
        const ReadStatus st = inputs_[i].next(h.message);
        if (st == ReadStatus::Ok) {
          h.state = State::Full;
          // A message without a time has no place in time: it goes out as soon as it is read.
          if (!h.message.has_stamp) return take(i, out);
        } else if (st == ReadStatus::End) {
          h.state = State::Done;
        } else {
          last_ = i;
          if (st == ReadStatus::Error) ++errors_;
          return st;
        }
      }
    }
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < inputs_.size(); ++i)
      if (held_[i].state == State::Full && (!best || held_[i].message.stamp() < held_[*best].message.stamp())) best = i;
    if (!best) return ReadStatus::End;
    return take(*best, out);
  }

  [[nodiscard]] const MessageReader& last() const noexcept { return inputs_[last_]; }
  [[nodiscard]] bool input_pending() const noexcept {
    for (std::size_t i = 0; i < inputs_.size(); ++i)
      if (held_[i].state == State::Empty && !inputs_[i].input_pending()) return false;
    return true;
  }
  [[nodiscard]] ReaderStats stats() const noexcept {
    ReaderStats sum;
    for (const MessageReader& r : inputs_) {
      const ReaderStats s = r.stats();
      sum.chunks_read += s.chunks_read;
      sum.chunks_skipped += s.chunks_skipped;
      sum.bytes_read += s.bytes_read;
      sum.outside_window += s.outside_window;
    }
    return sum;
  }
  std::uint64_t messages_ = 0;
  std::uint64_t errors_ = 0;

private:
  enum class State : std::uint8_t { Empty, Full, Done };
  struct Held {
    Message message;
    State state = State::Empty;
  };

  /// Hands input i's message out; its buffers and out's are swapped, not copied.
  ReadStatus take(std::size_t i, Message& out) {
    std::swap(out, held_[i].message);
    held_[i].state = State::Empty;
    last_ = i;
    ++messages_;
    return ReadStatus::Ok;
  }

  std::vector<MessageReader> inputs_;
  std::vector<Held> held_;
  std::size_t last_ = 0;
};

// The internal entry points' access to a reader's parts (friend of MessageReader).
struct ReaderAccess {
  static MessageReader::Impl* impl(MessageReader& reader) noexcept { return reader.impl_.get(); }
};

void detail::use_json_parser(MessageReader& reader, std::unique_ptr<JsonMessageParser> parser) {
  if (!parser) throw InvalidArgument("use_json_parser: no parser");
  MessageReader::Impl* impl = ReaderAccess::impl(reader);
  if (!impl) throw InvalidArgument("use_json_parser: a merged reader has no parser of its own");
  impl->parser_ = std::move(parser);
}

MessageReader MessageReader::open(const std::string& path, ReaderOptions options) {
  if (options.format == Format::Auto) options.format = format_from_path(path);
  if (path == "-") return MessageReader(0, "<stdin>", options, false);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    throw IoError(path, std::strerror(e));
  }
  if (S_ISDIR(st.st_mode)) {
    try {
      check_log_path(path);  // a rosbag2 directory, or IoError
    } catch (...) {
      ::close(fd);
      throw;
    }
  }
  return MessageReader(fd, path, options, true);
}

MessageReader::MessageReader(int fd, std::string source_name, ReaderOptions options, bool owns_fd) {
  auto source = std::make_unique<detail::FdSource>(fd, source_name, owns_fd);
  detail::FdSource* fd_source = source.get();
  const bool may_be_log = options.format == Format::Auto || options.format == Format::Mcap ||
                          options.format == Format::Ros1Bag || options.format == Format::Ros2Sqlite;
  struct stat st {};
  const bool stream = ::fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode));
  Format bag_format = options.format;
  std::unique_ptr<detail::BagSource> bag;
  if (may_be_log && !stream) bag = detail::open_bag_source(fd, source_name, options, bag_format);
  impl_ = std::make_unique<Impl>(std::move(source), std::move(source_name), options);
  impl_->live_ = stream;
  if (bag) {
    impl_->bag_ = std::move(bag);
    impl_->format_ = bag_format;
    if (impl_->resolved_) impl_->bag_->set_log_window(impl_->lo_.ns, impl_->hi_.ns);
  }
  // A stream's first bytes are looked at by the first next(), not here: constructing a
  // reader on a pipe nothing has been written to yet must not wait.
  if (may_be_log && stream) impl_->sniff_ = Impl::Sniff{fd, fd_source, options};
}

MessageReader::MessageReader(std::istream& in, std::string source_name, ReaderOptions options) {
  auto source = std::make_unique<detail::StreamSource>(in, source_name);
  impl_ = std::make_unique<Impl>(std::move(source), std::move(source_name), options);
  impl_->live_ = true;  // what stands behind a std::istream is not known
}

MessageReader::MessageReader(MessageReader&&) noexcept = default;
MessageReader& MessageReader::operator=(MessageReader&&) noexcept = default;
MessageReader::~MessageReader() = default;

MessageReader MessageReader::merge(std::vector<MessageReader> inputs) {
  MessageReader merged;
  merged.merged_ = std::make_unique<Merged>(std::move(inputs));
  return merged;
}

ReadStatus MessageReader::next(Message& out) { return merged_ ? merged_->next(out) : impl_->next(out); }
const ReadError& MessageReader::error() const noexcept { return merged_ ? merged_->last().error() : impl_->error_; }
const std::string& MessageReader::source() const noexcept {
  return merged_ ? merged_->last().source() : impl_->name_;
}
Format MessageReader::format() const noexcept { return merged_ ? merged_->last().format() : impl_->format(); }
bool MessageReader::may_read_ahead() const noexcept { return !merged_ && !impl_->live_; }
bool MessageReader::input_pending() const noexcept {
  return merged_ ? merged_->input_pending() : impl_->input_pending();
}
std::uint64_t MessageReader::message_count() const noexcept {
  return merged_ ? merged_->messages_ : impl_->messages_;
}
std::uint64_t MessageReader::error_count() const noexcept { return merged_ ? merged_->errors_ : impl_->errors_; }
ReaderStats MessageReader::stats() const noexcept { return merged_ ? merged_->stats() : impl_->stats(); }

}  // namespace rmodel::io
