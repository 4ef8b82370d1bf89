// Bounded resources (issue 40). A resource the system does not give is said as such, never
// as an "internal error": a run that runs out of memory ends with "rmodel: error: out of
// memory: ...", exit 1, and leaves its output file as it was. splice makes its transition as
// it writes it, in memory that does not grow with it, and refuses one longer than its limit
// before making any. The memory is bounded with RLIMIT_AS, as `ulimit -v` does.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace rmodel::resources_test {
namespace {

namespace fs = std::filesystem;
using test::read_file;

struct Limited {
  int exit_code = -1;  ///< or 128 + the signal
  std::string err;
};

/// Runs rmodel with its address space limited to `bytes` (stdout to /dev/null).
Limited run_limited(const std::vector<std::string>& args, rlim_t bytes, const fs::path& stderr_path) {
  std::vector<std::string> storage = {RMODEL_EXE};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec.
    const rlimit limit{bytes, bytes};
    const int out = ::open("/dev/null", O_WRONLY);
    const int err = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (::setrlimit(RLIMIT_AS, &limit) != 0 || out < 0 || err < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) _exit(125);
    ::execv(RMODEL_EXE, argv.data());
    _exit(126);
  }
  Limited result;
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.err = read_file(stderr_path);
  return result;
}

class Resources : public ::testing::Test {
protected:
  void SetUp() override {
#ifdef RMODEL_TEST_SANITIZED
    GTEST_SKIP() << "the sanitizers reserve terabytes of address space: no RLIMIT_AS under them";
#endif
    dir_ = test::make_temp_dir("rmodel-resources");
    std::ofstream(dir_ / "small.jsonl") << R"({"t":0,"name":["head_yaw"],"position":[0.1]})" "\n";
    // One message of 10 million positions: 80 MB of doubles, twice that while the array grows.
    std::ofstream big(dir_ / "big.jsonl");
    big << R"({"t":0,"name":["head_yaw"],"position":[0)";
    const std::string zeros = [] {
      std::string s;
      for (int i = 0; i < 100000; ++i) s += ",0";
      return s;
    }();
    for (int i = 0; i < 100; ++i) big << zeros;
    big << "]}\n";
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  /// Skips unless rmodel does its small run under the limit (the control).
  void require_small_run_fits() {
    const Limited control = run_limited({"aggregate", "--sample", (dir_ / "small.jsonl").string(), "-o",
                                         (dir_ / "control.jsonl").string()},
                                        kLimit, dir_ / "control.err");
    if (control.exit_code != 0)
      GTEST_SKIP() << "rmodel does not run a small log under a " << (kLimit >> 20)
                   << " MiB address-space limit on this machine: " << control.err;
  }

  static constexpr rlim_t kLimit = rlim_t{128} << 20;
  static constexpr rlim_t kSmallLimit = rlim_t{64} << 20;
  fs::path dir_;
};

TEST_F(Resources, OutOfMemoryIsSaidAsSuchAndTheOutputKept) {
  require_small_run_fits();
  const fs::path out = dir_ / "k.jsonl";
  std::ofstream(out) << "precious\n";
  for (const char* threads : {"1", "2"}) {
    SCOPED_TRACE(std::string("--threads ") + threads);
    const Limited r = run_limited({"aggregate", "--sample", "--threads", threads, (dir_ / "big.jsonl").string(), "-o",
                                   out.string()},
                                  kLimit, dir_ / "big.err");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("rmodel: error: out of memory: this run needs more memory than the system gives it"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(out), "precious\n");
  }
}

TEST_F(Resources, OutOfMemoryInOneInputOfABatchIsSaidAsSuch) {
  require_small_run_fits();
  const Limited r = run_limited({"aggregate", "--sample", (dir_ / "big.jsonl").string(), (dir_ / "small.jsonl").string(),
                                 "--output-dir", (dir_ / "out").string()},
                                kLimit, dir_ / "batch.err");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("rmodel: error: out of memory: "), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out" / "big.jsonl"));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "small.jsonl")) << r.err;
}

constexpr const char* kSpliceA = R"({"t":10,"name":["a","b"],"position":[0,0]})" "\n"
                                  R"({"t":10.5,"name":["a","b"],"position":[0.5,0.1]})" "\n"
                                  R"({"t":11,"name":["a","b"],"position":[1,0.2]})" "\n";
constexpr const char* kSpliceB = R"({"t":0,"name":["b","c"],"position":[2,-1]})" "\n"
                                  R"({"t":0.5,"name":["b","c"],"position":[2.5,-1.5]})" "\n"
                                  R"({"t":1,"name":["b","c"],"position":[3,-2]})" "\n";

TEST_F(Resources, SpliceRefusesARunawayTransitionBeforeMakingIt) {
  // `splice A B --law second-order --tau 1e9 --step 0.05` grew to 5.4 GB, then "internal
  // error: std::bad_alloc". Now refused at once, naming the limit (the memory limit here only
  // keeps the old behaviour from taking the machine's memory).
  require_small_run_fits();
  std::ofstream(dir_ / "a.jsonl") << kSpliceA;
  std::ofstream(dir_ / "b.jsonl") << kSpliceB;
  const fs::path out = dir_ / "k.jsonl";
  std::ofstream(out) << "precious\n";
  for (const char* law : {"second-order", "linear", "exp"}) {
    SCOPED_TRACE(law);
    const Limited r = run_limited({"splice", (dir_ / "a.jsonl").string(), (dir_ / "b.jsonl").string(), "--law", law,
                                   "--tau", "1e9", "--step", "0.05", "-o", out.string()},
                                  kLimit, dir_ / "splice.err");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("samples of its own"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("more than the 1000000 allowed; give a smaller tau or a larger step"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(out), "precious\n");
  }
}

TEST_F(Resources, SpliceWritesALongTransitionInBoundedMemory) {
  // 400 000 transition samples: held whole they needed more than the limit; made as they
  // are written, a few megabytes.
  require_small_run_fits();
  std::ofstream(dir_ / "a.jsonl") << kSpliceA;
  std::ofstream(dir_ / "b.jsonl") << kSpliceB;
  const Limited r = run_limited({"splice", (dir_ / "a.jsonl").string(), (dir_ / "b.jsonl").string(), "--tau", "20000",
                                 "--step", "0.05", "-o", (dir_ / "long.jsonl").string()},
                                kSmallLimit, dir_ / "long.err");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("transition of 20000 s (400000 samples)"), std::string::npos) << r.err;
  const std::string text = read_file(dir_ / "long.jsonl");
  const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  EXPECT_GT(lines, 400'000u);
  EXPECT_NE(r.err.find("wrote " + std::to_string(lines) + " messages"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rmodel::resources_test
