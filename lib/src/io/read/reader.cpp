#include "rmodel/io/reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "base/system_error_text.hpp"
#include "io/read/builder.hpp"
#include "io/formats/format_table.hpp"
#include "io/read/line_source.hpp"
#include "io/read/parsers.hpp"
#include "io/read/reader_window.hpp"
#include "io/ros/bag_source.hpp"
#include "io/read/text_source.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::io {

namespace {

/// Topics choose among the channels of a ROS log. A text log has none to choose from, and
/// reading it whole where one topic was asked for would mix what the user meant to keep apart
/// (JSON Lines converted from a bag keeps each line's "topic", which no reader of rmodel's
/// reads). Refused: by an OptionError when the format is known before reading (named, or by
/// the file's extension), else as the one error of the whole input when its first line tells.
std::string topics_of_text_log(Format text_format) {
  std::string ros_logs;
  for (const Format format : formats())
    if (numbers_messages(format)) ros_logs += (ros_logs.empty() ? "" : ", ") + std::string(to_string(format));
  return fmt::format("a {} log has no topics to choose from (ReaderOptions::topics chooses among the channels of a "
                     "ROS log: {}); leave it out to read the whole log",
                     to_string(text_format), ros_logs);
}

void refuse_topics_of_text_log(const ReaderOptions& options, const std::string& source_name) {
  if (options.topics.empty() || options.format.is_auto() || numbers_messages(options.format)) return;
  throw OptionError({"ReaderOptions::topics"}, source_name + ": " + topics_of_text_log(options.format));
}

}  // namespace

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
  const detail::FormatDescriptor* f = detail::descriptor_of(format);
  return f != nullptr && f->open_log != nullptr;
}

std::string ReadError::to_string(const std::string& source) const {
  return location(source, line, item, byte_offset) + ": " + reason;
}

class MessageReader::Impl {
public:
  Impl(std::unique_ptr<detail::ByteSource> source, std::string name, const ReaderOptions& options)
      : source_(std::move(source)),
        name_(std::move(name)),
        options_(options),
        text_(*source_, std::max<std::size_t>(options.max_line_bytes, 1), error_),
        format_(options.format) {
    const std::optional<TimeBound>& start = options_.start;
    const std::optional<TimeBound>& end = options_.end;
    window_ = start || end;
    if (window_ && !(start && start->relative) && !(end && end->relative)) resolve_window(Time{});
  }

  /// Pulls the next message inside the time window (all of them without one; with
  /// pass_outside_, the ones outside it as well).
  ReadStatus next(Message& out) {
    if (!window_) return next_message(out);
    for (;;) {
      const ReadStatus st = next_message(out);
      if (st != ReadStatus::Ok) return st;
      if (!out.has_stamp) {
        --messages_;
        ++errors_;
        error_.byte_offset.reset();
        error_.line = out.line;
        error_.item = out.item;
        error_.reason =
            "no time: a message needs one to be placed in the time window (ReaderOptions::start, "
            "ReaderOptions::end)";
        return ReadStatus::Error;
      }
      const Time t = out.stamp();
      if (!resolved_) resolve_window(t);
      earliest_ = earliest_ ? std::min(*earliest_, t) : t;
      latest_ = latest_ ? std::max(*latest_, t) : t;
      if (t >= lo_ && (!has_hi_ || t < hi_)) return st;
      ++outside_window_;
      if (pass_outside_) return st;
      --messages_;
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
    const std::optional<TimeBound>& start = options_.start;
    const std::optional<TimeBound>& end = options_.end;
    lo_ = start ? absolute(*start) : Time{std::numeric_limits<std::int64_t>::min()};
    has_hi_ = end.has_value();
    hi_ = end ? absolute(*end) : Time{std::numeric_limits<std::int64_t>::max()};
    apply_log_window();
  }

  /// Hands the resolved window to a log source, which skips the chunks outside it; when the
  /// messages before the window are passed on, only the chunks after its end.
  void apply_log_window() {
    if (bag_ && resolved_)
      bag_->set_log_window(pass_outside_ ? std::numeric_limits<std::int64_t>::min() : lo_.ns, hi_.ns);
  }

  [[nodiscard]] std::optional<TimeWindow> window() const noexcept {
    if (!window_ || !resolved_) return std::nullopt;
    TimeWindow w;
    if (options_.start) w.start = lo_;
    if (has_hi_) w.end = hi_;
    return w;
  }

  [[nodiscard]] ReaderStats stats() const noexcept {
    ReaderStats s = bag_ ? bag_->stats() : ReaderStats{};
    s.outside_window = outside_window_;
    s.earliest = earliest_;
    s.latest = latest_;
    return s;
  }

  /// The next message of the input, counted (message_count(), error_count()).
  ReadStatus next_message(Message& out) {
    const ReadStatus st = next_uncounted(out);
    if (st == ReadStatus::Ok) ++messages_;
    if (st == ReadStatus::Error) ++errors_;
    return st;
  }

  [[nodiscard]] bool input_pending() const noexcept {
    if (bag_) return true;  // a log file is read as fast as the disk gives it
    if (source_->holds_bytes()) return true;  // bytes taken while sniffing a pipe's format
    if (!text_.pending.empty()) return true;
    return source_text_ ? source_text_->input_pending() : text_.line_waiting();
  }

  [[nodiscard]] Format format() const noexcept { return format_; }

  std::unique_ptr<detail::ByteSource> source_;
  std::string name_;
  ReaderOptions options_;
  ReadError error_;
  detail::TextContext text_;  ///< a text input's lines, parser and builder
  Format format_;
  bool live_ = false;  // a pipe, socket, terminal or std::istream (MessageReader::may_read_ahead)
  std::uint64_t messages_ = 0;
  std::uint64_t errors_ = 0;
  std::unique_ptr<detail::BagSource> bag_;  ///< set when the input is a ROS log (bag.hpp)

  // The time window (ReaderOptions::start, end): [lo_, hi_) once resolved.
  bool window_ = false;
  bool resolved_ = false;
  bool has_hi_ = false;
  Time lo_{}, hi_{};
  std::uint64_t outside_window_ = 0;
  bool pass_outside_ = false;  ///< messages outside the window are returned (detail::pass_outside_window)
  std::optional<Time> earliest_, latest_;

  /// A stream (pipe, socket, terminal) whose first bytes decide at the first next() whether it
  /// is a ROS log or text.
  struct Sniff {
    int fd;
    detail::FdSource* source;
  };
  std::optional<Sniff> sniff_;
  std::unique_ptr<detail::FdSource> spool_;  ///< owns the temporary file a log on a stream is held in

  /// A ROS log arriving on a stream is copied to a temporary file (the logs need random
  /// access) and read from there as its file would be; text is read as it comes, beginning
  /// with the bytes its format was told from.
  void take_stream() {
    const Sniff sniff = *sniff_;
    sniff_.reset();
    std::string head;
    const int spooled = detail::spool_log_from_stream(sniff.fd, options_.format, name_, head);
    if (spooled < 0) {
      sniff.source->unread(std::move(head));
      return;
    }
    spool_ = std::make_unique<detail::FdSource>(spooled, name_, true);
    Format format = options_.format;
    bag_ = detail::open_bag_source(spooled, name_, options_, format);
    format_ = format;
    apply_log_window();
  }

private:
  std::unique_ptr<detail::TextSource> source_text_;  ///< the text format's reader, once known

  ReadStatus next_uncounted(Message& out) {
    if (sniff_) take_stream();
    if (bag_) return bag_->next(out, error_);
    for (;;) {
      if (!text_.pending.empty()) return text_.pending.take(out, error_);
      if (text_.done) return ReadStatus::End;
      if (!source_text_) {
        if (auto st = choose_text_source()) return *st;
        continue;
      }
      if (auto st = source_text_->next(out)) return *st;
    }
  }

  /// Makes the text format's source: the text format named, or the one the first line tells
  /// (auto, a format that may be another, a binary log's format given text).
  std::optional<ReadStatus> choose_text_source() {
    const detail::FormatDescriptor* f = detail::descriptor_of(format_);
    if (f == nullptr || f->read_text == nullptr || !f->may_be.empty()) {
      std::optional<Format> decided;
      const std::optional<ReadStatus> st = detail::sniff_text_format(text_, format_, decided);
      if (!decided) return st;
      format_ = *decided;
      if (!options_.topics.empty()) {  // known only now (standard input): the whole input is refused
        text_.done = true;
        return text_.fail(0, 0, topics_of_text_log(format_));
      }
      source_text_ = detail::descriptor_of(format_)->read_text(text_, options_);
      return st;
    }
    source_text_ = f->read_text(text_, options_);
    return std::nullopt;
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
      if (s.earliest) sum.earliest = sum.earliest ? std::min(*sum.earliest, *s.earliest) : s.earliest;
      if (s.latest) sum.latest = sum.latest ? std::max(*sum.latest, *s.latest) : s.latest;
    }
    return sum;
  }
  [[nodiscard]] std::vector<MessageReader>& inputs() noexcept { return inputs_; }
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
  static MessageReader::Merged* merged(MessageReader& reader) noexcept { return reader.merged_.get(); }
};

void detail::pass_outside_window(MessageReader& reader) noexcept {
  if (MessageReader::Merged* merged = ReaderAccess::merged(reader)) {
    for (MessageReader& input : merged->inputs()) pass_outside_window(input);
    return;
  }
  MessageReader::Impl* impl = ReaderAccess::impl(reader);
  if (impl == nullptr || impl->pass_outside_ || impl->messages_ != 0 || impl->errors_ != 0) return;
  impl->pass_outside_ = true;
  impl->apply_log_window();
}

void detail::use_json_parser(MessageReader& reader, std::unique_ptr<JsonMessageParser> parser) {
  if (!parser) throw InvalidArgument("use_json_parser: no parser");
  MessageReader::Impl* impl = ReaderAccess::impl(reader);
  if (!impl) throw InvalidArgument("use_json_parser: a merged reader has no parser of its own");
  impl->text_.parser = std::move(parser);
}

MessageReader MessageReader::open(const std::string& path, ReaderOptions options) {
  if (options.format.is_auto()) options.format = format_from_path(path);
  if (path == "-") return MessageReader(0, "<stdin>", options, false);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path, rmodel::detail::system_error_text(errno));
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
  refuse_topics_of_text_log(options, source_name);
  detail::FdSource* fd_source = source.get();
  const bool may_be_log = options.format.is_auto() || numbers_messages(options.format);
  struct stat st {};
  const bool stream = ::fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode));
  if (!stream && S_ISREG(st.st_mode)) detail::refuse_git_lfs_pointer(fd, source_name);
  Format bag_format = options.format;
  std::unique_ptr<detail::BagSource> bag;
  if (may_be_log && !stream) bag = detail::open_bag_source(fd, source_name, options, bag_format);
  impl_ = std::make_unique<Impl>(std::move(source), std::move(source_name), options);
  impl_->live_ = stream;
  if (bag) {
    impl_->bag_ = std::move(bag);
    impl_->format_ = bag_format;
    impl_->apply_log_window();
  }
  // A stream's first bytes are looked at by the first next(), not here: constructing a
  // reader on a pipe nothing has been written to yet must not wait.
  if (may_be_log && stream) impl_->sniff_ = Impl::Sniff{fd, fd_source};
}

MessageReader::MessageReader(std::istream& in, std::string source_name, ReaderOptions options) {
  refuse_topics_of_text_log(options, source_name);
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
std::optional<TimeWindow> MessageReader::window() const noexcept {
  return merged_ ? merged_->last().window() : impl_->window();
}

}  // namespace rmodel::io
