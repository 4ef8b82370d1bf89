// An output file written whole or not at all (rmodel/io/output_file.hpp).
#include "rmodel/io/output_file.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <utility>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"

namespace rmodel::io {
namespace {

// ---- The hidden names a signal handler removes ----
//
// A fixed table, so that the handler reads it without allocating or locking. Each slot is a
// sequence lock: `version` is odd while its owner changes it; the handler copies the name,
// and removes that file only when the version read before and after the copy is the same
// even number with the slot armed (so a name half overwritten is never used).

constexpr std::size_t kSlots = 32;
constexpr std::size_t kNameRoom = PATH_MAX;

struct PendingName {
  std::atomic<bool> taken{false};
  std::atomic<unsigned> version{0};
  std::atomic<bool> armed{false};
  std::array<std::atomic<char>, kNameRoom> name{};
};

std::array<PendingName, kSlots>& pending_names() {
  static std::array<PendingName, kSlots> slots;
  return slots;
}

static_assert(std::atomic<unsigned>::is_always_lock_free && std::atomic<bool>::is_always_lock_free &&
                  std::atomic<char>::is_always_lock_free,
              "the signal handler reads the table without locks");

/// Records `name` for remove_temporaries(); the slot, or -1 when the table is full or the
/// name too long (the file is then left behind by a signal, and only then).
int remember_name(const std::string& name) {
  if (name.size() >= kNameRoom) return -1;
  auto& slots = pending_names();
  for (std::size_t i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!slots[i].taken.compare_exchange_strong(expected, true)) continue;
    PendingName& slot = slots[i];
    slot.version.fetch_add(1);  // odd: changing
    for (std::size_t k = 0; k < name.size(); ++k) slot.name[k].store(name[k], std::memory_order_relaxed);
    slot.name[name.size()].store('\0', std::memory_order_relaxed);
    slot.armed.store(true);
    slot.version.fetch_add(1);  // even: stable
    return static_cast<int>(i);
  }
  return -1;
}

void forget_name(int index) {
  if (index < 0) return;
  PendingName& slot = pending_names()[static_cast<std::size_t>(index)];
  slot.version.fetch_add(1);
  slot.armed.store(false);
  slot.version.fetch_add(1);
  slot.taken.store(false);
}

// ---- Names and places ----

/// `path` with the symbolic links of its last component followed (a dangling link: the file
/// it names); after 40 links, the path reached (open() then reports the loop).
std::string follow_links(const std::string& path) {
  std::string current = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return current;
    std::string target(PATH_MAX, '\0');
    const ssize_t n = ::readlink(current.c_str(), target.data(), target.size());
    if (n <= 0) return current;
    target.resize(static_cast<std::size_t>(n));
    if (target.front() == '/') {
      current = target;
    } else {
      const std::filesystem::path parent = std::filesystem::path(current).parent_path();
      current = (parent / target).string();
    }
  }
  return current;
}

std::string directory_of(const std::string& target) {
  const std::filesystem::path parent = std::filesystem::path(target).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

/// A hidden name beside `target`: `.NAME.rmodel-XXXXXX`, six letters or digits drawn from a
/// mix of the time, the process and a counter (a name taken is drawn again by the caller).
std::string hidden_name(const std::string& target) {
  static std::atomic<std::uint64_t> counter{0};
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  std::uint64_t x = (static_cast<std::uint64_t>(now.tv_nsec) ^ (static_cast<std::uint64_t>(now.tv_sec) << 30)) +
                    (static_cast<std::uint64_t>(::getpid()) << 40) + 0x9E3779B97F4A7C15ULL * ++counter;
  // splitmix64's finaliser
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  x ^= x >> 31;
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string suffix(6, 'x');
  for (char& c : suffix) {
    c = kLetters[x % 62];
    x /= 62;
  }
  const std::filesystem::path t(target);
  return (std::filesystem::path(directory_of(target)) / ("." + t.filename().string() + ".rmodel-" + suffix)).string();
}

/// True when a file open without a name can be given one (linkat through /proc/self/fd).
bool can_link_unnamed() {
  static const bool proc = ::access("/proc/self/fd", X_OK) == 0;
  return proc;
}

std::string system_error_text(int error) { return std::strerror(error); }

}  // namespace

OutputFile OutputFile::open(const std::string& path) {
  OutputFile file;
  file.path_ = path;
  if (path == "-") {
    file.fd_ = STDOUT_FILENO;
    return file;
  }
  file.target_ = follow_links(path);
  struct stat existing {};
  if (::stat(file.target_.c_str(), &existing) == 0) {
    if (S_ISDIR(existing.st_mode)) throw WriteError(path, "cannot create: " + system_error_text(EISDIR));
    if (!S_ISREG(existing.st_mode)) {
      // A device, a pipe or a socket: written as it is, for whoever reads it.
      file.fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
      if (file.fd_ < 0) throw WriteError(path, "cannot open: " + system_error_text(errno));
      file.owns_fd_ = true;
      return file;
    }
    // Refused as writing it in place would be (a rename would not ask).
    if (::access(file.target_.c_str(), W_OK) != 0) throw WriteError(path, "cannot write: " + system_error_text(errno));
    file.replaces_ = true;
  } else if (errno != ENOENT) {
    throw WriteError(path, "cannot create: " + system_error_text(errno));
  }

  const std::string dir = directory_of(file.target_);
  int fd = can_link_unnamed() ? ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666) : -1;
  if (fd < 0) {
    // No unnamed files here: a hidden name, recorded for a signal handler before it exists.
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
      file.named_ = hidden_name(file.target_);
      file.slot_ = remember_name(file.named_);
      fd = ::open(file.named_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd >= 0) break;
      const int error = errno;
      forget_name(file.slot_);
      file.slot_ = -1;
      file.named_.clear();
      if (error != EEXIST)
        throw WriteError(path, (file.replaces_ ? "cannot create a file beside it: " : "cannot create: ") +
                                   system_error_text(error));
    }
    if (fd < 0) throw WriteError(path, "cannot create a file beside it: " + system_error_text(EEXIST));
  }
  file.fd_ = fd;
  file.owns_fd_ = true;
  file.aside_ = true;
  if (file.replaces_) {
    (void)::fchmod(fd, existing.st_mode & 0777);
    if (existing.st_uid != ::geteuid() || existing.st_gid != ::getegid())
      (void)::fchown(fd, existing.st_uid, existing.st_gid);  // root only; others keep theirs
  }
  return file;
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      owns_fd_(std::exchange(other.owns_fd_, false)),
      aside_(std::exchange(other.aside_, false)),
      replaces_(other.replaces_),
      slot_(std::exchange(other.slot_, -1)),
      path_(std::move(other.path_)),
      target_(std::move(other.target_)),
      named_(std::move(other.named_)) {
  other.named_.clear();
}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    discard();
    fd_ = std::exchange(other.fd_, -1);
    owns_fd_ = std::exchange(other.owns_fd_, false);
    aside_ = std::exchange(other.aside_, false);
    replaces_ = other.replaces_;
    slot_ = std::exchange(other.slot_, -1);
    path_ = std::move(other.path_);
    target_ = std::move(other.target_);
    named_ = std::move(other.named_);
    other.named_.clear();
  }
  return *this;
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::close_fd() noexcept {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
  fd_ = -1;
  owns_fd_ = false;
}

void OutputFile::commit() {
  if (fd_ < 0) return;
  if (!aside_) {
    const int fd = fd_;
    const bool owned = owns_fd_;
    fd_ = -1;
    owns_fd_ = false;
    if (owned && ::close(fd) != 0) throw WriteError(path_, "write failed: " + system_error_text(errno));
    return;
  }
  if (named_.empty()) {
    // An unnamed file gets a hidden name first (linkat cannot replace a file), then the
    // rename puts it in place.
    const std::string proc = fmt::format("/proc/self/fd/{}", fd_);
    for (int attempt = 0; attempt < 100; ++attempt) {
      named_ = hidden_name(target_);
      slot_ = remember_name(named_);
      if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, named_.c_str(), AT_SYMLINK_FOLLOW) == 0) break;
      const int error = errno;
      forget_name(slot_);
      slot_ = -1;
      named_.clear();
      if (error != EEXIST) {
        discard();
        throw WriteError(path_, "cannot put the file in place: " + system_error_text(error));
      }
    }
    if (named_.empty()) {
      discard();
      throw WriteError(path_, "cannot put the file in place: " + system_error_text(EEXIST));
    }
  }
  const int fd = fd_;
  fd_ = -1;
  owns_fd_ = false;
  if (::close(fd) != 0) {
    const int error = errno;
    discard();
    throw WriteError(path_, "write failed: " + system_error_text(error));
  }
  if (::rename(named_.c_str(), target_.c_str()) != 0) {
    const int error = errno;
    discard();
    throw WriteError(path_, "cannot replace the file: " + system_error_text(error));
  }
  forget_name(slot_);
  slot_ = -1;
  named_.clear();
  aside_ = false;
}

void OutputFile::discard() noexcept {
  close_fd();
  if (!named_.empty()) {
    (void)::unlink(named_.c_str());
    named_.clear();
  }
  forget_name(slot_);
  slot_ = -1;
  aside_ = false;
}

void OutputFile::remove_temporaries() noexcept {
  for (PendingName& slot : pending_names()) {
    const unsigned before = slot.version.load();
    if ((before & 1U) != 0 || !slot.armed.load()) continue;
    char name[kNameRoom];
    std::size_t k = 0;
    for (; k + 1 < kNameRoom; ++k) {
      name[k] = slot.name[k].load(std::memory_order_relaxed);
      if (name[k] == '\0') break;
    }
    name[k] = '\0';
    std::atomic_thread_fence(std::memory_order_acquire);
    if (slot.version.load() != before) continue;  // changed while read: not a name of ours
    (void)::unlink(name);
  }
}

}  // namespace rmodel::io
