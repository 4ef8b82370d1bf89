// An output is replaced only by a complete output, on every path (issue 40): every command
// with -o or --output-dir, run on a missing, garbage, truncated or unreadable input of each
// log format, on a bad model, or interrupted by SIGINT or SIGTERM, leaves the file it would
// have written as it was (absent when it was absent) and no file beside it. The oracle is the
// documented promise (man rmodel, "OUTPUT"; README "Bad input and reliability"): a validator's
// report that lists the problems (check, check-log, log-info) is a complete output, byte for
// byte what the same command prints on stdout.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "rmodel/io/writer.hpp"
#include "ros_log_builders.hpp"
#include "test_support.hpp"

extern char** environ;

namespace rmodel::output_kept_test {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_rmodel;
using test::RunResult;

constexpr const char* kPrecious = "precious\n";

/// The sample robot's joints, moving: the contents of every good log.
constexpr int kKeptMessages = 40;
std::vector<double> kept_positions(int k) { return {0.01 * k, -0.02 * k}; }
const std::vector<std::string> kKeptJoints = {"neck_pitch", "head_yaw"};
constexpr std::int64_t kKeptEpoch = 1'700'000'000'000'000'000;
std::int64_t kept_stamp(int k) { return kKeptEpoch + k * 10'000'000LL; }

std::string kept_jsonl() {
  std::string out;
  for (int k = 0; k < kKeptMessages; ++k) {
    const auto p = kept_positions(k);
    out += fmt::format(R"({{"t":{},"name":["neck_pitch","head_yaw"],"position":[{},{}]}})" "\n",
                       0.01 * k, p[0], p[1]);
  }
  return out;
}

std::string kept_csv() {
  std::string out = "t,neck_pitch,head_yaw\n";
  for (int k = 0; k < kKeptMessages; ++k) {
    const auto p = kept_positions(k);
    out += fmt::format("{},{},{}\n", 0.01 * k, p[0], p[1]);
  }
  return out;
}

/// As `ros2 topic echo /joint_states` prints it.
std::string kept_ros_yaml() {
  std::string out;
  for (int k = 0; k < kKeptMessages; ++k) {
    const auto p = kept_positions(k);
    const std::int64_t t = kept_stamp(k);
    out += fmt::format("header:\n  stamp:\n    sec: {}\n    nanosec: {}\n  frame_id: ''\nname:\n- neck_pitch\n- "
                       "head_yaw\nposition:\n- {}\n- {}\nvelocity: []\neffort: []\n---\n",
                       t / 1'000'000'000, t % 1'000'000'000, p[0], p[1]);
  }
  return out;
}

/// An MCAP as rmodel writes it, in small chunks (a cut leaves whole chunks before it).
std::string kept_mcap() {
  std::string out;
  io::WriterOptions options;
  options.format = io::parse_format("mcap");
  options.mcap_chunk_size = 512;
  io::MessageWriter writer(out, options);
  for (int k = 0; k < kKeptMessages; ++k) {
    JointState state;
    state.name = kKeptJoints;
    state.position = kept_positions(k);
    state.stamp = Time{kept_stamp(k)};
    (void)writer.write(state);
  }
  writer.close();
  return out;
}

std::string kept_bag() {
  std::vector<test::Ros1Message> messages;
  for (int k = 0; k < kKeptMessages; ++k) {
    const std::int64_t t = kept_stamp(k);
    messages.push_back({0, t,
                        test::ros1_joint_state(static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(t / 1'000'000'000),
                                               static_cast<std::uint32_t>(t % 1'000'000'000), kKeptJoints,
                                               kept_positions(k))});
  }
  return test::ros1_bag({{0, "/joint_states", "sensor_msgs/JointState", "/driver"}}, messages);
}

/// sensor_msgs/msg/JointState in CDR (4-byte encapsulation header; alignment counted from its end).
std::string kept_cdr_joint_state(std::int64_t t, const std::vector<double>& positions) {
  test::LeBytes b;
  b.s = std::string("\x00\x01\x00\x00", 4);
  const auto align = [&b](std::size_t n) {
    while ((b.s.size() - 4) % n != 0) b.s += '\0';
  };
  b.le(static_cast<std::int32_t>(t / 1'000'000'000));
  b.le(static_cast<std::uint32_t>(t % 1'000'000'000));
  b.le(std::uint32_t{1});  // frame_id: "" with its NUL
  b.s += '\0';
  align(4);
  b.le(static_cast<std::uint32_t>(kKeptJoints.size()));
  for (const auto& name : kKeptJoints) {
    align(4);
    b.le(static_cast<std::uint32_t>(name.size() + 1));
    b.s += name;
    b.s += '\0';
  }
  align(4);
  b.le(static_cast<std::uint32_t>(positions.size()));
  align(8);
  for (const double v : positions) b.f64(v);
  align(4);
  b.le(std::uint32_t{0});  // velocity
  b.le(std::uint32_t{0});  // effort
  return b.s;
}

void write_kept_db3(const fs::path& path) {
  std::vector<test::Db3Message> messages;
  for (int k = 0; k < kKeptMessages; ++k)
    messages.push_back({1, kept_stamp(k), kept_cdr_joint_state(kept_stamp(k), kept_positions(k))});
  test::write_db3(path, {{1, "/joint_states", "sensor_msgs/msg/JointState"}}, messages);
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

/// What is wrong with an input.
enum class Fault { missing, garbage, truncated, directory, unreadable };

std::string fault_name(Fault f) {
  switch (f) {
    case Fault::missing: return "missing";
    case Fault::garbage: return "garbage";
    case Fault::truncated: return "truncated";
    case Fault::directory: return "a directory";
    case Fault::unreadable: return "unreadable";
  }
  return "?";
}

/// 4096 bytes of a fixed noise.
std::string noise() {
  std::mt19937 random(40);
  std::string out(4096, '\0');
  for (char& c : out) c = static_cast<char>(random() & 0xFF);
  return out;
}

class OutputKept : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = test::make_temp_dir("rmodel-output-kept");
    fs::create_directories(dir_ / "in");
    fs::create_directories(dir_ / "out");
    const fs::path good = dir_ / "good";
    fs::create_directories(good);
    write_bytes(good / "log.jsonl", kept_jsonl());
    write_bytes(good / "log.csv", kept_csv());
    write_bytes(good / "log.yaml", kept_ros_yaml());
    write_bytes(good / "log.mcap", kept_mcap());
    write_bytes(good / "log.bag", kept_bag());
    write_kept_db3(good / "log.db3");
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// The good log of format `extension`.
  [[nodiscard]] fs::path good(const std::string& extension) const { return dir_ / "good" / ("log." + extension); }

  /// An input of format `extension` with `fault`, under a name of its own.
  fs::path faulty(const std::string& extension, Fault fault) {
    const fs::path path = dir_ / "in" / fmt::format("input{}.{}", ++inputs_, extension);
    switch (fault) {
      case Fault::missing: break;
      case Fault::garbage: write_bytes(path, noise()); break;
      case Fault::truncated: {
        const std::string whole = read_file(good(extension));
        write_bytes(path, whole.substr(0, whole.size() / 2));
        break;
      }
      case Fault::directory: fs::create_directory(path); break;
      case Fault::unreadable:
        fs::copy_file(good(extension), path);
        fs::permissions(path, fs::perms::none);
        break;
    }
    return path;
  }

  /// The files in out/.
  [[nodiscard]] std::set<std::string> outputs() const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_ / "out")) names.insert(entry.path().filename().string());
    return names;
  }

  /// Checks that out/`name` is as it was (`existed`: "precious", else absent) and that out/
  /// holds nothing else.
  void expect_kept(const std::string& name, bool existed, const RunResult& r) const {
    if (existed) {
      ASSERT_TRUE(fs::exists(dir_ / "out" / name)) << r.err;
      EXPECT_EQ(read_file(dir_ / "out" / name), kPrecious) << r.err;
      EXPECT_EQ(outputs(), std::set<std::string>{name}) << "a file was left beside it\n" << r.err;
    } else {
      EXPECT_EQ(outputs(), std::set<std::string>{}) << r.err;
    }
  }

  fs::path dir_;
  int inputs_ = 0;
};

const std::vector<std::string> kLogFormats = {"jsonl", "csv", "yaml", "mcap", "db3", "bag"};

/// A command that reads one log and writes out/`output`.
struct LogCommand {
  std::string name;
  std::function<std::vector<std::string>(const std::string& log, const std::string& out)> args;
  std::string output;   ///< the file in out/
  bool report = false;  ///< a report on the log: written when it lists the log's problems
};

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

std::vector<LogCommand> log_commands(const std::string& good_jsonl) {
  return {
      {"aggregate", [](const auto& log, const auto& out) { return with({"aggregate", "--sample", log}, {"-o", out}); },
       "k.jsonl"},
      {"aggregate mcap",
       [](const auto& log, const auto& out) { return with({"aggregate", "--sample", log}, {"-o", out}); }, "k.mcap"},
      {"aggregate csv",
       [](const auto& log, const auto& out) { return with({"aggregate", "--sample", log}, {"-o", out}); }, "k.csv"},
      {"filter",
       [](const auto& log, const auto& out) {
         return with({"filter", "exponential", "-p", "tau=0.05", "--sample", log}, {"-o", out});
       },
       "k.jsonl"},
      {"fk --log",
       [](const auto& log, const auto& out) { return with({"fk", "--sample", "--log", log}, {"-f", "jsonl", "-o", out}); },
       "k.jsonl"},
      {"dynamics --log",
       [](const auto& log, const auto& out) { return with({"dynamics", "--sample", "--log", log}, {"-o", out}); },
       "k.jsonl"},
      {"splice (A)", [good_jsonl](const auto& log, const auto& out) { return with({"splice", log, good_jsonl}, {"-o", out}); },
       "k.jsonl"},
      {"splice (B)", [good_jsonl](const auto& log, const auto& out) { return with({"splice", good_jsonl, log}, {"-o", out}); },
       "k.jsonl"},
      {"check-log",
       [](const auto& log, const auto& out) { return with({"check-log", "--sample", log}, {"-o", out}); }, "k.txt",
       true},
      {"check-log json",
       [](const auto& log, const auto& out) { return with({"check-log", "--sample", log}, {"-f", "json", "-o", out}); },
       "k.json", true},
      {"log-info", [](const auto& log, const auto& out) { return with({"log-info", log}, {"-o", out}); }, "k.txt", true},
  };
}

/// The args with `-o FILE` made `-o -`.
std::vector<std::string> to_stdout(std::vector<std::string> args) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "-o") args[i + 1] = "-";
  return args;
}

TEST_F(OutputKept, EveryLogCommandOnEveryFaultyInputOfEveryFormat) {
  const bool root = ::geteuid() == 0;
  for (const LogCommand& command : log_commands(good("jsonl").string())) {
    for (const std::string& format : kLogFormats) {
      for (const Fault fault : {Fault::missing, Fault::garbage, Fault::truncated, Fault::directory, Fault::unreadable}) {
        if (fault == Fault::unreadable && root) continue;  // permissions are not enforced for root
        for (const bool existed : {true, false}) {
          SCOPED_TRACE(fmt::format("{} on a {} .{} input, {} output", command.name, fault_name(fault), format,
                                   existed ? "an existing" : "a new"));
          const fs::path input = faulty(format, fault);
          const fs::path target = dir_ / "out" / command.output;
          if (existed) write_bytes(target, kPrecious);
          const std::vector<std::string> args = command.args(input.string(), target.string());
          const RunResult r = run_rmodel(args);
          EXPECT_NE(r.exit_code, 0) << r.err;
          EXPECT_LT(r.exit_code, 128) << "ended by a signal\n" << r.err;
          EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
          if (command.report && r.exit_code == 1) {
            // The report of a log that could be opened: complete, it is written.
            const RunResult printed = run_rmodel(to_stdout(args));
            EXPECT_EQ(printed.exit_code, 1);
            ASSERT_TRUE(fs::exists(target)) << r.err;
            EXPECT_TRUE(read_file(target) == printed.out) << "the file is not the report printed on stdout\n" << r.err;
            EXPECT_EQ(outputs(), std::set<std::string>{command.output});
          } else {
            expect_kept(command.output, existed, r);
          }
          fs::remove(target);
        }
      }
    }
  }
}

TEST_F(OutputKept, EveryBatchOnEveryFaultyInputOfEveryFormat) {
  // --output-dir: the file of the faulty input stays as it was; the good input's is written.
  struct Batch {
    std::vector<std::string> args;
    std::string extension;
    bool report;
  };
  const std::vector<Batch> batches = {{{"aggregate", "--sample"}, "jsonl", false},
                                      {{"filter", "exponential", "-p", "tau=0.05", "--sample"}, "jsonl", false},
                                      {{"check-log", "--sample"}, "txt", true}};
  for (const Batch& batch : batches) {
    for (const std::string& format : kLogFormats) {
      for (const Fault fault : {Fault::garbage, Fault::truncated}) {
        SCOPED_TRACE(fmt::format("{} --output-dir on a {} .{} input", batch.args.front(), fault_name(fault), format));
        const fs::path input = faulty(format, fault);
        const std::string name = input.stem().string() + "." + batch.extension;
        write_bytes(dir_ / "out" / name, kPrecious);
        std::vector<std::string> args = batch.args;
        args.insert(args.end(), {input.string(), good("jsonl").string(), "--output-dir", (dir_ / "out").string()});
        const RunResult r = run_rmodel(args);
        EXPECT_EQ(r.exit_code, 1) << r.err;
        EXPECT_TRUE(fs::exists(dir_ / "out" / ("log." + batch.extension))) << r.err;
        fs::remove(dir_ / "out" / ("log." + batch.extension));
        if (batch.report) {
          std::vector<std::string> alone = batch.args;
          alone.push_back(input.string());
          EXPECT_EQ(read_file(dir_ / "out" / name), run_rmodel(alone).out);
        } else {
          expect_kept(name, true, r);
        }
        fs::remove(dir_ / "out" / name);
      }
    }
  }
}

TEST_F(OutputKept, EveryModelCommandOnABadModel) {
  const std::string pony = test::sample("pony.urdf").string();
  const std::string semantics = test::sample("pony.json").string();
  const std::string whole = read_file(pony);
  const fs::path half = dir_ / "in" / "half.urdf", junk = dir_ / "in" / "junk.urdf";
  write_bytes(half, whole.substr(0, whole.size() / 2));
  write_bytes(junk, noise());
  const fs::path half_json = dir_ / "in" / "half.json";
  const std::string semantics_text = read_file(semantics);
  write_bytes(half_json, semantics_text.substr(0, semantics_text.size() / 2));
  const std::vector<std::string> models = {half.string(), junk.string(), (dir_ / "in" / "missing.urdf").string(),
                                           (dir_ / "in").string()};
  struct ModelCommand {
    std::function<std::vector<std::string>(const std::string& model)> args;
    std::string output;
    bool report = false;  // check: a report listing the model's errors
  };
  const std::vector<ModelCommand> commands = {
      {[](const auto& m) { return std::vector<std::string>{"joints", "-u", m}; }, "k.txt"},
      {[](const auto& m) { return std::vector<std::string>{"chains", "-u", m}; }, "k.csv"},
      {[](const auto& m) { return std::vector<std::string>{"groups", "-u", m}; }, "k.json"},
      {[](const auto& m) { return std::vector<std::string>{"contacts", "-u", m}; }, "k.txt"},
      {[](const auto& m) { return std::vector<std::string>{"poses", "-u", m}; }, "k.txt"},
      {[](const auto& m) { return std::vector<std::string>{"index", "-u", m, "head_yaw"}; }, "k.txt"},
      {[](const auto& m) { return std::vector<std::string>{"tree", "-u", m}; }, "k.dot"},
      {[](const auto& m) { return std::vector<std::string>{"info", "-u", m}; }, "k.json"},
      {[](const auto& m) { return std::vector<std::string>{"fk", "-u", m}; }, "k.txt"},
      {[](const auto& m) { return std::vector<std::string>{"jacobian", "-u", m, "--chain", "neck"}; }, "k.txt"},
      {[](const auto& m) { return std::vector<std::string>{"dynamics", "-u", m}; }, "k.txt"},
      {[&](const auto& m) { return std::vector<std::string>{"diff", m, pony}; }, "k.txt"},
      {[&](const auto& m) { return std::vector<std::string>{"diff", pony, m}; }, "k.json"},
      {[](const auto& m) { return std::vector<std::string>{"xacro", m}; }, "k.urdf"},
      {[&](const auto& m) { return std::vector<std::string>{"aggregate", "-u", m, "-s", semantics}; }, "k.jsonl"},
      {[](const auto& m) { return std::vector<std::string>{"check", "-u", m}; }, "k.txt", true},
  };
  for (const ModelCommand& command : commands) {
    for (const std::string& model : models) {
      for (const bool existed : {true, false}) {
        std::vector<std::string> args = command.args(model);
        SCOPED_TRACE(fmt::format("{} on {}, {} output", args.front(), model, existed ? "an existing" : "a new"));
        const fs::path target = dir_ / "out" / command.output;
        if (existed) write_bytes(target, kPrecious);
        args.insert(args.end(), {"-o", target.string()});
        // aggregate reads a log from stdin: a good one.
        const RunResult r = run_rmodel(args, kept_jsonl());
        EXPECT_NE(r.exit_code, 0) << r.err;
        if (command.report && r.exit_code == 1) {
          EXPECT_EQ(read_file(target), run_rmodel(to_stdout(args)).out);
        } else {
          expect_kept(command.output, existed, r);
        }
        fs::remove(target);
      }
    }
  }
  // convert: a bad semantics file.
  for (const std::string& input : {half_json.string(), (dir_ / "in" / "missing.json").string()}) {
    write_bytes(dir_ / "out" / "k.cpf", kPrecious);
    const RunResult r = run_rmodel({"convert", input, "-o", (dir_ / "out" / "k.cpf").string()});
    EXPECT_NE(r.exit_code, 0) << r.err;
    expect_kept("k.cpf", true, r);
  }
}

// ---- Interrupted runs ----

/// rmodel started with its stdout and stderr in files, stdin /dev/null.
class Started {
public:
  Started(const std::vector<std::string>& args, const fs::path& stderr_path) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> storage = {RMODEL_EXE};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : storage) argv.push_back(a.data());
    argv.push_back(nullptr);
    started_ = posix_spawn(&pid_, RMODEL_EXE, &actions, nullptr, argv.data(), environ) == 0;
    posix_spawn_file_actions_destroy(&actions);
  }
  ~Started() {
    if (started_ && !waited_) {
      ::kill(pid_, SIGKILL);
      (void)wait();
    }
  }
  Started(const Started&) = delete;
  Started& operator=(const Started&) = delete;

  [[nodiscard]] bool started() const { return started_; }
  [[nodiscard]] pid_t pid() const { return pid_; }
  /// True while the process runs.
  [[nodiscard]] bool running() {
    if (waited_) return false;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return true;
    waited_ = true;
    status_ = status;
    return false;
  }
  /// Waits for the end; the wait status.
  int wait() {
    if (!waited_) {
      while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
      }
      waited_ = true;
    }
    return status_;
  }

private:
  pid_t pid_ = 0;
  bool started_ = false;
  bool waited_ = false;
  int status_ = 0;
};

/// Opens the FIFO for writing once `reader` has opened it for reading (O_NONBLOCK fails with
/// ENXIO until then); -1 when the process ended first.
int open_when_read(const fs::path& fifo, Started& reader) {
  for (;;) {
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      return fd;
    }
    if (errno != ENXIO || !reader.running()) return -1;
    ::usleep(1000);
  }
}

/// Waits until the reader has taken every byte written to the FIFO (its unread count is 0),
/// or has ended.
void wait_until_drained(int fd, Started& reader) {
  int unread = 1;
  while (reader.running() && ::ioctl(fd, FIONREAD, &unread) == 0 && unread > 0) ::usleep(1000);
}

TEST_F(OutputKept, InterruptedRunsLeaveTheOutputAsItWas) {
  // Each command reads a log from a FIFO that is held open: it runs until the signal comes.
  struct Interrupted {
    std::string name;
    std::function<std::vector<std::string>(const std::string& fifo, const std::string& out)> args;
    std::string output;
  };
  const std::string good_jsonl = good("jsonl").string();
  const std::vector<Interrupted> commands = {
      {"aggregate", [](const auto& f, const auto& o) { return std::vector<std::string>{"aggregate", "--sample", f, "-o", o}; },
       "k.jsonl"},
      {"aggregate mcap",
       [](const auto& f, const auto& o) { return std::vector<std::string>{"aggregate", "--sample", f, "-o", o}; },
       "k.mcap"},
      {"aggregate --threads 1",
       [](const auto& f, const auto& o) {
         return std::vector<std::string>{"aggregate", "--sample", "--threads", "1", f, "-o", o};
       },
       "k.csv"},
      {"filter",
       [](const auto& f, const auto& o) {
         return std::vector<std::string>{"filter", "exponential", "-p", "tau=0.05", "--sample", f, "-o", o};
       },
       "k.jsonl"},
      {"fk --log",
       [](const auto& f, const auto& o) {
         return std::vector<std::string>{"fk", "--sample", "--log", f, "-f", "jsonl", "-o", o};
       },
       "k.jsonl"},
      {"dynamics --log",
       [](const auto& f, const auto& o) { return std::vector<std::string>{"dynamics", "--sample", "--log", f, "-o", o}; },
       "k.jsonl"},
      {"check-log",
       [](const auto& f, const auto& o) { return std::vector<std::string>{"check-log", "--sample", f, "-o", o}; },
       "k.txt"},
      {"splice",
       [&](const auto& f, const auto& o) { return std::vector<std::string>{"splice", good_jsonl, f, "-o", o}; },
       "k.jsonl"},
      {"aggregate --output-dir",
       [](const auto& f, const auto& o) {
         return std::vector<std::string>{"aggregate", "--sample", f, "--output-dir", fs::path(o).parent_path().string()};
       },
       "live.jsonl"},
  };
  const std::string lines = kept_jsonl();
  for (const Interrupted& command : commands) {
    for (const int signal : {SIGINT, SIGTERM}) {
      for (const bool existed : {true, false}) {
        SCOPED_TRACE(fmt::format("{} interrupted by {}, {} output", command.name, signal == SIGINT ? "SIGINT" : "SIGTERM",
                                 existed ? "an existing" : "a new"));
        const fs::path fifo = dir_ / "in" / "live.jsonl";
        ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
        const fs::path target = dir_ / "out" / command.output;
        if (existed) write_bytes(target, kPrecious);
        Started run(command.args(fifo.string(), target.string()), dir_ / "stderr.txt");
        ASSERT_TRUE(run.started());
        const int fd = open_when_read(fifo, run);
        ASSERT_GE(fd, 0) << "rmodel ended before reading its input:\n" << read_file(dir_ / "stderr.txt");
        // Messages in, and taken: the run is under way, its output open.
        ASSERT_EQ(::write(fd, lines.data(), lines.size()), static_cast<ssize_t>(lines.size()));
        wait_until_drained(fd, run);
        ASSERT_TRUE(run.running()) << read_file(dir_ / "stderr.txt");
        ASSERT_EQ(::kill(run.pid(), signal), 0);
        const int status = run.wait();
        ::close(fd);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal)
            << "expected the end by the signal (shell status " << 128 + signal << "), got "
            << (WIFEXITED(status) ? fmt::format("exit {}", WEXITSTATUS(status)) : fmt::format("signal {}", WTERMSIG(status)))
            << "\n" << read_file(dir_ / "stderr.txt");
        expect_kept(command.output, existed, RunResult{-1, "", read_file(dir_ / "stderr.txt")});
        fs::remove(target);
        fs::remove(fifo);
      }
    }
  }
}

TEST_F(OutputKept, AnOutputIsNeverAnInput) {
  // Kept from issue 21: naming an input as the output is refused before anything is opened.
  const fs::path log = dir_ / "out" / "log.jsonl";
  write_bytes(log, kept_jsonl());
  const RunResult r = run_rmodel({"aggregate", "--sample", log.string(), "-o", log.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(read_file(log), kept_jsonl());
  EXPECT_EQ(outputs(), std::set<std::string>{"log.jsonl"});
}

TEST_F(OutputKept, AStreamOnStdoutIsWrittenAsItComes) {
  // The way to keep what a failing stream wrote: stdout, which is not replaced but written.
  const fs::path input = faulty("jsonl", Fault::truncated);
  const std::string cut = read_file(input);
  ASSERT_NE(cut.back(), '\n') << "the cut should fall inside a line";
  const auto complete = static_cast<std::size_t>(std::count(cut.begin(), cut.end(), '\n'));
  const RunResult r = run_rmodel({"aggregate", "--sample", input.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(test::json_lines(r.out).size(), complete);
  const RunResult file = run_rmodel({"aggregate", "--sample", input.string(), "-o", (dir_ / "out" / "k.jsonl").string()});
  EXPECT_EQ(file.exit_code, 1);
  EXPECT_NE(file.err.find("k.jsonl not written: 1 rejected message makes the output incomplete (-o - writes it anyway)"),
            std::string::npos)
      << file.err;
  EXPECT_EQ(outputs(), std::set<std::string>{});
}

}  // namespace
}  // namespace rmodel::output_kept_test
