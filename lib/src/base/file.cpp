#include "rmodel/base/file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "base/git_lfs.hpp"
#include "base/system_error_text.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel {

std::string display_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

std::string read_text_file(const std::string& path) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw IoError(path, "no such file");
  if (std::filesystem::is_directory(status)) throw IoError(path, "is a directory, expected a file");
  // read(2) in blocks: an istreambuf_iterator costs about 19 instructions a byte, as much
  // as the rest of `check` on a small URDF. The size is a hint only (a pipe or a /proc
  // file says 0): the loop reads to the end whatever it is.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path, detail::system_error_text(errno));
  struct stat info {};
  const std::size_t hint = ::fstat(fd, &info) == 0 && info.st_size > 0 ? static_cast<std::size_t>(info.st_size) : 0;
  std::string text(hint + 1, '\0');  // one more byte: the end shows as a read of 0 bytes
  std::size_t size = 0;
  for (;;) {
    if (size == text.size()) text.resize(text.size() * 2 + 4096);
    const ssize_t n = ::read(fd, text.data() + size, text.size() - size);
    if (n > 0) {
      size += static_cast<std::size_t>(n);
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      const int error = errno;
      ::close(fd);
      throw IoError(path, fmt::format("read error: {}", std::strerror(error)));
    }
  }
  ::close(fd);
  text.resize(size);
  if (const auto pointer = detail::git_lfs_pointer(text)) throw IoError(path, *pointer);
  return text;
}

}  // namespace rmodel
