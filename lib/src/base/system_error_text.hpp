#pragma once
// Internal: what an errno says, in rmodel's words where a missing input is concerned, so
// that every command names the commonest failure alike ("no such file", as read_text_file
// and the format table say it) and not half of them in strerror's capitals.

#include <cerrno>
#include <cstring>
#include <string>

namespace rmodel::detail {

/// The reason an input could not be opened or read: "no such file" for ENOENT, "is a
/// directory, expected a file" for EISDIR, strerror's text otherwise.
inline std::string system_error_text(int error) {
  switch (error) {
    case ENOENT: return "no such file";
    case EISDIR: return "is a directory, expected a file";
    default: return std::strerror(error);
  }
}

}  // namespace rmodel::detail
