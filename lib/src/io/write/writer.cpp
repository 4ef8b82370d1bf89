#include "rmodel/io/writer.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include "io/formats/format_table.hpp"
#include "io/write/format_writer.hpp"
#include "io/write/text_output.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/output_file.hpp"

namespace rmodel::io {
namespace {

constexpr std::size_t kFlushThreshold = std::size_t{64} << 10;

// `format` is writer_format()'s: a format with a writer.
std::unique_ptr<detail::FormatWriter> make_format_writer(Format format, const WriterOptions& options) {
  return detail::descriptor_of(format)->make_writer(options);
}

}  // namespace

void append_double(std::string& out, double value) {
  detail::append_bounded(out, detail::kDoubleRoom, [&](detail::Out& o) { o.number(value); });
}

class MessageWriter::Impl {
public:
  Impl(std::string name, WriterOptions options, Format format)
      : name_(std::move(name)), opt_(std::move(options)), format_(format),
        writer_(make_format_writer(format, opt_)) {
    buf_.reserve(2 * kFlushThreshold);  // flushed past the threshold: no growth after this
  }
  ~Impl() {
    if (file_ && std::uncaught_exceptions() > exceptions_at_start_) {
      file_->discard();  // a failed run: the file it would have replaced stays as it was
      return;
    }
    try {
      close();
    } catch (...) {  // NOLINT(bugprone-empty-catch): documented; call flush() to see errors
    }
    if (owns_fd_ && fd_ >= 0) ::close(fd_);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  int fd_ = -1;
  bool owns_fd_ = false;
  // A file opened by MessageWriter::open: written aside, put in place by a successful close()
  // (so a failed run never leaves a truncated file in its place).
  std::optional<OutputFile> file_;
  int exceptions_at_start_ = std::uncaught_exceptions();
  std::ostream* stream_ = nullptr;
  std::string* string_ = nullptr;
  std::string name_;
  WriterOptions opt_;
  Format format_;

  WriteStatus write(const detail::LineParts& m) {
    if (closed_) throw InvalidArgument(name_ + ": write after the writer was closed");
    const WriteStatus st = writer_->write(m, buf_);
    if (string_) {
      string_->append(buf_.data(), buf_.size());
      buf_.clear();
    } else if (opt_.flush_each_message || buf_.size() >= kFlushThreshold) {
      flush();
    }
    return st;
  }

  /// A message beside the joint states (MCAP only): `add` writes it through the format's
  /// writer.
  template <class Add>
  WriteStatus write_beside(Add&& add) {
    if (closed_) throw InvalidArgument(name_ + ": write after the writer was closed");
    if (add(*writer_, buf_) == WriteStatus::Skipped) return WriteStatus::Skipped;
    if (string_) {
      string_->append(buf_.data(), buf_.size());
      buf_.clear();
    } else if (opt_.flush_each_message || buf_.size() >= kFlushThreshold) {
      flush();
    }
    return WriteStatus::Written;
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    writer_->end(buf_);
    flush();
    if (file_) {
      fd_ = -1;
      file_->commit();
    }
  }

  void flush() {
    if (buf_.size() == 0) return;
    if (string_) {
      string_->append(buf_.data(), buf_.size());
    } else if (stream_) {
      stream_->write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
      stream_->flush();
      if (!*stream_) {
        buf_.clear();
        throw WriteError(name_, "write failed");
      }
    } else {
      const char* p = buf_.data();
      std::size_t left = buf_.size();
      while (left > 0) {
        const ssize_t n = ::write(fd_, p, left);
        if (n < 0) {
          if (errno == EINTR) continue;
          const int e = errno;
          buf_.clear();
          if (e == EPIPE) throw BrokenPipe(name_, std::strerror(e));
          throw WriteError(name_, std::strerror(e));
        }
        p += n;
        left -= static_cast<std::size_t>(n);
      }
    }
    buf_.clear();
  }

private:
  std::unique_ptr<detail::FormatWriter> writer_;
  fmt::memory_buffer buf_;
  bool closed_ = false;
};

namespace {
// The format written: the one asked for (auto: the path's) when it has a writer, else the
// first written format of the table, JSON Lines.
Format writer_format(Format requested, std::string_view path) {
  if (requested.is_auto()) requested = format_from_path(path);
  const detail::FormatDescriptor* f = detail::descriptor_of(requested);
  if (f != nullptr && f->make_writer != nullptr) return requested;
  for (const detail::FormatDescriptor* written : detail::format_descriptors())
    if (written->make_writer != nullptr) return detail::format_of(*written);
  return requested;  // unreachable: the table has writers
}
}  // namespace

MessageWriter MessageWriter::open(const std::string& path, WriterOptions options) {
  options.format = writer_format(options.format, path);
  if (path == "-") return MessageWriter(1, "<stdout>", std::move(options), false);
  OutputFile file = OutputFile::open(path);
  MessageWriter writer(file.fd(), path, std::move(options), false);
  writer.impl_->file_.emplace(std::move(file));
  return writer;
}

MessageWriter::MessageWriter(int fd, std::string target_name, WriterOptions options, bool owns_fd) {
  const Format f = writer_format(options.format, "");
  impl_ = std::make_unique<Impl>(std::move(target_name), std::move(options), f);
  impl_->fd_ = fd;
  impl_->owns_fd_ = owns_fd;
}

MessageWriter::MessageWriter(std::ostream& out, std::string target_name, WriterOptions options) {
  const Format f = writer_format(options.format, "");
  impl_ = std::make_unique<Impl>(std::move(target_name), std::move(options), f);
  impl_->stream_ = &out;
}

MessageWriter::MessageWriter(std::string& out, WriterOptions options) {
  const Format f = writer_format(options.format, "");
  impl_ = std::make_unique<Impl>("<string>", std::move(options), f);
  impl_->string_ = &out;
}

MessageWriter::MessageWriter(MessageWriter&&) noexcept = default;
MessageWriter& MessageWriter::operator=(MessageWriter&&) noexcept = default;
MessageWriter::~MessageWriter() = default;

WriteStatus MessageWriter::write(const Message& message) { return impl_->write(detail::parts_of(message)); }

WriteStatus MessageWriter::write(const JointState& state, std::optional<std::int64_t> cycle) {
  detail::LineParts p;
  p.kind = MessageKind::Joint;
  p.joint = &state;
  p.stamp = state.stamp;
  p.cycle = cycle;
  return impl_->write(p);
}

WriteStatus MessageWriter::write(const SupportState& state, std::optional<std::int64_t> cycle) {
  detail::LineParts p;
  p.kind = MessageKind::Support;
  p.support = &state;
  p.stamp = state.stamp;
  p.cycle = cycle;
  return impl_->write(p);
}

WriteStatus MessageWriter::write_sync(Time stamp, std::optional<std::int64_t> cycle) {
  detail::LineParts p;
  p.kind = MessageKind::Sync;
  p.stamp = stamp;
  p.cycle = cycle;
  return impl_->write(p);
}

WriteStatus MessageWriter::write_transforms(std::span<const FrameTransform> transforms, Time stamp, bool fixed) {
  return impl_->write_beside([&](detail::FormatWriter& writer, fmt::memory_buffer& out) {
    return writer.write_transforms(transforms, stamp, fixed, out);
  });
}

WriteStatus MessageWriter::write_robot_description(std::string_view urdf, Time stamp) {
  return impl_->write_beside([&](detail::FormatWriter& writer, fmt::memory_buffer& out) {
    return writer.write_robot_description(urdf, stamp, out);
  });
}

WriteStatus MessageWriter::write_semantics(std::string_view text, SemanticsText kind, Time stamp) {
  return impl_->write_beside([&](detail::FormatWriter& writer, fmt::memory_buffer& out) {
    return writer.write_semantics(text, kind, stamp, out);
  });
}

void MessageWriter::flush() { impl_->flush(); }
void MessageWriter::close() { impl_->close(); }
Format MessageWriter::format() const noexcept { return impl_->format_; }

}  // namespace rmodel::io
