#pragma once
#include "rmodel/export.hpp"
/// @file io/output_file.hpp
/// An output file written whole or not at all.
///
/// OutputFile::open() creates the file's contents aside: an unnamed file in the target's
/// directory (Linux O_TMPFILE), or where the file system has none a hidden
/// `.NAME.rmodel-XXXXXX` beside it. commit() puts it in place with one rename, over the file
/// of that name if there is one; until then the target is what it was (absent when it was
/// absent). Destroyed or discard()ed before commit(), it leaves the target as it was and no
/// file of its own. A process killed outright (SIGKILL, a crash) leaves nothing behind with
/// O_TMPFILE; a program that ends on SIGINT or SIGTERM calls remove_temporaries() from its
/// handler for the hidden names.
///
/// - **Through a symbolic link**, the link's target is written (the link stays a link); a
///   dangling link is followed to the file it names.
/// - **Replacing a file** keeps its permission bits (not set-user-ID, set-group-ID or sticky,
///   as writing into it would clear them), and its owner and group where the system allows
///   (only root may give a file away); a file the process may not write is refused, as
///   writing it in place would be. Other hard links to the replaced file keep the old
///   contents (as an editor's save does). A new file gets 0666 less the umask.
/// - **Standard output** ("-") and a path naming a character device (`/dev/null`), a pipe
///   (FIFO) or a socket are written directly, as they are: there is nothing to replace, and
///   a reader may be waiting on them. commit() then only closes them.

#include <string>

namespace rmodel::io {

class RMODEL_API OutputFile {
public:
  /// Opens `path` ("-": standard output) for writing. @throws WriteError naming `path` when
  /// it cannot be created (no such directory, a directory there, no permission, ...).
  [[nodiscard]] static OutputFile open(const std::string& path);

  OutputFile() = default;  ///< no file: fd() is -1, commit() and discard() do nothing
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  /// discard() unless committed.
  ~OutputFile();

  /// The descriptor to write to (-1 after commit() or discard()). Owned by the OutputFile.
  [[nodiscard]] int fd() const noexcept { return fd_; }
  /// The path as given to open().
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  /// True when the output is written aside and put in place by commit(); false for standard
  /// output, devices, pipes and sockets.
  [[nodiscard]] bool aside() const noexcept { return aside_; }
  /// True when a file of that name existed when it was opened (commit() replaces it).
  [[nodiscard]] bool replaces() const noexcept { return replaces_; }

  /// The output is complete: puts it in place (renamed over the target) and closes it.
  /// @throws WriteError when it cannot be put in place or closing reports a write error; the
  /// target is then as it was.
  void commit();
  /// The output is not wanted: closes it and removes what was written aside. Never throws.
  void discard() noexcept;

  /// Removes the hidden files of every OutputFile of the process not yet committed or
  /// discarded. Async-signal-safe: for a handler of SIGINT, SIGTERM or SIGHUP that then ends
  /// the process.
  static void remove_temporaries() noexcept;

private:
  void close_fd() noexcept;

  int fd_ = -1;
  bool owns_fd_ = false;
  bool aside_ = false;
  bool replaces_ = false;
  int slot_ = -1;          // remove_temporaries()' record of named_, or -1
  std::string path_;       // as given
  std::string target_;     // where commit() puts it: the path with its symbolic links followed
  std::string named_;      // the hidden name written to, when not an unnamed file
};

}  // namespace rmodel::io
