#include "test_support.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <new>
#include <random>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "alloc_counter.hpp"

extern char** environ;

namespace {
thread_local std::size_t g_allocations = 0;
}

// Replacement allocation functions: count, then allocate as usual.
void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t align) {
  ++g_allocations;
  std::size_t a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace rmodel::test {

std::size_t allocation_count() noexcept { return g_allocations; }

std::filesystem::path fixtures_dir() {
  if (const char* env = std::getenv("RMODEL_FIXTURES_DIR"); env && *env) return env;
  return RMODEL_FIXTURES_DIR;
}

bool have_fixtures() {
  std::error_code ec;
  return std::filesystem::is_directory(fixtures_dir() / "sweetie_bot_proto2", ec);
}

std::filesystem::path fixture(const std::string& relative) { return fixtures_dir() / relative; }

std::filesystem::path source_dir() { return RMODEL_SOURCE_DIR; }

std::filesystem::path sample(const std::string& file) {
  return source_dir() / "share" / "rmodel" / "sample" / file;
}

Model pony() { return Model::load({sample("pony.urdf").string(), sample("pony.json").string(), std::nullopt}); }

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::filesystem::path make_temp_dir(const std::string& prefix) {
  std::string templ = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
  return templ;
}

ReadResult read_log(const std::string& path, io::ReaderOptions options) {
  auto reader = io::MessageReader::open(path, options);
  return read_log(reader);
}

ReadResult read_log(io::MessageReader& reader) {
  ReadResult r;
  io::Message m;
  for (;;) {
    const auto st = reader.next(m);
    if (st == io::ReadStatus::End) break;
    if (st == io::ReadStatus::Ok) r.messages.push_back(m);
    if (st == io::ReadStatus::Error) r.errors.push_back(reader.error());
  }
  return r;
}

std::vector<ReadItem> read_items(const std::string& text, io::ReaderOptions options, const std::string& source) {
  std::istringstream in(text);
  io::MessageReader reader(in, source, std::move(options));
  return read_items(reader);
}

std::vector<ReadItem> read_items(io::MessageReader& reader) {
  std::vector<ReadItem> items;
  io::Message m;
  for (std::size_t guard = 0; guard < 100000; ++guard) {
    const io::ReadStatus st = reader.next(m);
    if (st == io::ReadStatus::End) return items;
    EXPECT_NE(st, io::ReadStatus::WouldBlock);
    items.push_back({st, m, st == io::ReadStatus::Error ? reader.error() : io::ReadError{}});
  }
  ADD_FAILURE() << reader.source() << ": the reader did not come to an end";
  return items;
}

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

RunResult run_rmodel(const std::vector<std::string>& args, const std::string& input, std::size_t chunk_bytes) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe(in_pipe) || pipe(out_pipe) || pipe(err_pipe)) throw std::runtime_error("pipe failed");

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
    posix_spawn_file_actions_addclose(&actions, fd);

  // The dummy-format tests (tests/format) run their own build of the command.
  const char* from_env = std::getenv("RMODEL_TEST_COMMAND");
  const std::string exe = from_env != nullptr && *from_env != '\0' ? from_env : RMODEL_EXE;
  std::vector<std::string> argv_storage;
  argv_storage.push_back(exe);
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = 0;
  int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) throw std::runtime_error("cannot start " + exe);

  // Feed stdin and drain stdout/stderr together so that neither side blocks.
  signal(SIGPIPE, SIG_IGN);
  RunResult result;
  std::size_t written = 0;
  int in_fd = in_pipe[1];
  if (input.empty()) {
    close(in_fd);
    in_fd = -1;
  }
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open || in_fd >= 0) {
    pollfd fds[3];
    int n = 0;
    int out_i = -1, err_i = -1, in_i = -1;
    if (out_open) { fds[n] = {out_pipe[0], POLLIN, 0}; out_i = n++; }
    if (err_open) { fds[n] = {err_pipe[0], POLLIN, 0}; err_i = n++; }
    if (in_fd >= 0) { fds[n] = {in_fd, POLLOUT, 0}; in_i = n++; }
    if (poll(fds, static_cast<nfds_t>(n), -1) < 0) break;
    auto drain = [&](int idx, int fd, std::string& dst, bool& open) {
      if (idx < 0 || !(fds[idx].revents & (POLLIN | POLLHUP | POLLERR))) return;
      ssize_t got = read(fd, buf, sizeof buf);
      if (got <= 0) open = false; else dst.append(buf, static_cast<std::size_t>(got));
    };
    drain(out_i, out_pipe[0], result.out, out_open);
    drain(err_i, err_pipe[0], result.err, err_open);
    if (in_i >= 0 && (fds[in_i].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const std::size_t remaining = input.size() - written;
      ssize_t put = write(in_fd, input.data() + written, chunk_bytes ? std::min(chunk_bytes, remaining) : remaining);
      if (chunk_bytes) usleep(200);
      if (put <= 0) { close(in_fd); in_fd = -1; }
      else if ((written += static_cast<std::size_t>(put)) == input.size()) { close(in_fd); in_fd = -1; }
    }
  }
  if (in_fd >= 0) close(in_fd);
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace rmodel::test
