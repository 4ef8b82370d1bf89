#include "io/read/line_source.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <istream>

#include "io/read/builder.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::io::detail {

FdSource::~FdSource() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

long FdSource::read(char* buf, std::size_t n) {
  if (pending_at_ < pending_.size()) {
    const std::size_t k = std::min(n, pending_.size() - pending_at_);
    std::memcpy(buf, pending_.data() + pending_at_, k);
    pending_at_ += k;
    return static_cast<long>(k);
  }
  for (;;) {
    const ssize_t r = ::read(fd_, buf, n);
    if (r >= 0) return static_cast<long>(r);
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return -1;
    throw IoError(name_, std::strerror(errno));
  }
}

long StreamSource::read(char* buf, std::size_t n) {
  std::streambuf* sb = in_->rdbuf();
  if (!sb) return 0;
  std::streamsize avail = sb->in_avail();
  if (avail < 0) return 0;  // the buffer knows the input has ended
  if (avail == 0) {
    // Blocks until at least one byte is there (one underlying read), then takes what came.
    if (std::istream::traits_type::eq_int_type(sb->sgetc(), std::istream::traits_type::eof()))
      return 0;
    avail = std::max<std::streamsize>(sb->in_avail(), 1);
  }
  const std::streamsize want = std::min<std::streamsize>(avail, static_cast<std::streamsize>(n));
  return static_cast<long>(sb->sgetn(buf, want));
}

namespace {
constexpr std::size_t kInitialBuffer = std::size_t{64} << 10;
}

LineSplitter::LineSplitter(ByteSource& source, std::size_t max_line)
    : source_(&source), max_line_(std::max<std::size_t>(max_line, 1)) {
  cap_ = kInitialBuffer;
  buf_.assign(cap_ + kPadding, '\0');
}

LineSplitter::Status LineSplitter::next(std::string_view& line, std::size_t& number) {
  for (;;) {
    if (scan_ < end_) {
      const void* nl = std::memchr(buf_.data() + scan_, '\n', end_ - scan_);
      if (nl) {
        const std::size_t pos = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data());
        const std::size_t b = begin_;
        begin_ = scan_ = pos + 1;
        number = ++line_no_;
        if (skipping_) {
          skipping_ = false;
          return Status::TooLong;
        }
        std::size_t len = pos - b;
        if (len > 0 && buf_[b + len - 1] == '\r') --len;
        if (len > max_line_) return Status::TooLong;
        line = std::string_view(buf_.data() + b, len);
        return Status::Line;
      }
      scan_ = end_;
    }
    if (eof_) {
      if (skipping_) {
        skipping_ = false;
        begin_ = scan_ = end_;
        number = ++line_no_;
        return Status::TooLong;
      }
      if (begin_ < end_) {
        const std::size_t b = begin_;
        std::size_t len = end_ - begin_;
        begin_ = scan_ = end_;
        number = ++line_no_;
        if (buf_[b + len - 1] == '\r') --len;
        if (len > max_line_) return Status::TooLong;
        line = std::string_view(buf_.data() + b, len);
        return Status::Line;
      }
      return Status::End;
    }
    // No complete line buffered: drop an overlong one, then read more.
    if (!skipping_ && end_ - begin_ > max_line_ + 1) skipping_ = true;  // +1: a '\r'
    if (skipping_) begin_ = scan_ = end_ = 0;
    if (!fill()) return Status::WouldBlock;
  }
}

bool LineSplitter::fill() {
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    scan_ -= begin_;
    begin_ = 0;
  }
  if (end_ == cap_) {
    // A line longer than the buffer (but within max_line_): grow, once per new maximum.
    std::size_t new_cap = std::min(cap_ * 2, max_line_ + 2);
    new_cap = std::max(new_cap, cap_ + 1);
    buf_.resize(new_cap + kPadding, '\0');
    cap_ = new_cap;
  }
  const long n = source_->read(buf_.data() + end_, cap_ - end_);
  if (n < 0) return false;
  if (n == 0)
    eof_ = true;
  else
    end_ += static_cast<std::size_t>(n);
  return true;
}

bool LineSplitter::line_ready() const noexcept {
  if (eof_) return true;
  return scan_ < end_ && std::memchr(buf_.data() + scan_, '\n', end_ - scan_) != nullptr;
}

bool LineSplitter::buffered_contains(std::string_view needle) const noexcept {
  if (eof_) return true;
  const std::string_view rest(buf_.data() + begin_, end_ - begin_);
  return rest.find(needle) != std::string_view::npos;
}

LineSplitter::Status LineSplitter::drain(std::string& out) {
  for (;;) {
    out.append(buf_.data() + begin_, end_ - begin_);
    begin_ = scan_ = end_ = 0;
    if (eof_) return Status::End;
    const long n = source_->read(buf_.data(), cap_);
    if (n < 0) return Status::WouldBlock;
    if (n == 0)
      eof_ = true;
    else
      end_ = static_cast<std::size_t>(n);
  }
}

}  // namespace rmodel::io::detail
