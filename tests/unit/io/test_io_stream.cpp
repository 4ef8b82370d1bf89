// Streaming: messages come out as soon as their line is complete (pipes, non-blocking
// descriptors), and steady-state reading and writing allocate nothing.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alloc_counter.hpp"
#include "json_parsers.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "test_support.hpp"

namespace io = rmodel::io;
using rmodel::Time;

namespace {

void write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    ASSERT_GT(n, 0);
    done += static_cast<std::size_t>(n);
  }
}

struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() { EXPECT_EQ(::pipe(fds), 0); }
  ~Pipe() {
    close_write();
    if (fds[0] >= 0) ::close(fds[0]);
  }
  void close_write() {
    if (fds[1] >= 0) ::close(fds[1]);
    fds[1] = -1;
  }
  void non_blocking() { ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK); }
};

// A stream of partial joint states of a 32-joint robot with long (heap-allocated) names,
// support states and sync ticks, as a replay or a live robot would send them.
std::string make_stream(int messages, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> names;
  for (int i = 0; i < 32; ++i) names.push_back("sweetie_bot_leg_joint_number_" + std::to_string(i));
  std::string text;
  io::Message m;
  for (int k = 0; k < messages; ++k) {
    m.cycle.reset();
    m.set_stamp(Time{12'500'000 * static_cast<std::int64_t>(k)});
    const unsigned r = k == 0 ? 3 : k == 1 ? 1 : rng() % 10;  // the largest messages first
    if (r == 0) {
      m.kind = io::MessageKind::Sync;
      m.cycle = k;
    } else if (r == 1) {
      m.kind = io::MessageKind::Support;
      m.support.name = {"leg1", "leg2", "leg3", "leg4"};
      m.support.support = {1, 0, 0.5, 1};
      m.support.contact = {"hoof_front_long_contact_name", "", "", "x"};
    } else {
      m.kind = io::MessageKind::Joint;
      std::size_t first = rng() % 32, count = 1 + rng() % (32 - first);
      if (k == 0) first = 0, count = 32;
      m.joint.name.assign(names.begin() + static_cast<long>(first),
                          names.begin() + static_cast<long>(first + count));
      m.joint.position.clear();
      m.joint.velocity.clear();
      for (std::size_t i = 0; i < count; ++i) {
        m.joint.position.push_back(std::uniform_real_distribution<double>(-3, 3)(rng));
        if (r % 2) m.joint.velocity.push_back(std::uniform_real_distribution<double>(-1, 1)(rng));
      }
    }
    m.set_stamp(Time{12'500'000 * static_cast<std::int64_t>(k)});
    io::append_json_line(text, m, static_cast<io::StampLayout>(k % 3));
  }
  return text;
}

}  // namespace

TEST(IoStream, MessagesComeOutBeforeTheEndOfAPipe) {
  Pipe p;
  io::ReaderOptions o;
  o.format = io::parse_format("jsonl");
  io::MessageReader reader(p.fds[0], "<pipe>", o);
  io::Message m;
  // Blocking descriptor: one complete line is enough for next() to return.
  write_all(p.fds[1], "{\"name\":[\"a\"],\"position\":[1]}\n{\"name\":[\"b\"]");
  ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
  EXPECT_EQ(m.joint.name[0], "a");
  EXPECT_FALSE(reader.input_pending());
  write_all(p.fds[1], ",\"position\":[2]}\n");
  ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
  EXPECT_EQ(m.joint.name[0], "b");
  p.close_write();
  EXPECT_EQ(reader.next(m), io::ReadStatus::End);
}

TEST(IoStream, NonBlockingDescriptorSaysWouldBlock) {
  for (io::Format f : {io::parse_format("jsonl"), io::Format{}, io::parse_format("json"), io::parse_format("csv")}) {
    SCOPED_TRACE(std::string(io::to_string(f)));
    Pipe p;
    p.non_blocking();
    io::ReaderOptions o;
    o.format = f;
    io::MessageReader reader(p.fds[0], "<pipe>", o);
    io::Message m;
    EXPECT_EQ(reader.next(m), io::ReadStatus::WouldBlock);
    const bool csv = f == io::parse_format("csv");
    write_all(p.fds[1], csv ? "t,a\n1," : "{\"t\":1,\"name\":[\"a\"],");
    EXPECT_EQ(reader.next(m), io::ReadStatus::WouldBlock);
    EXPECT_EQ(reader.next(m), io::ReadStatus::WouldBlock);
    write_all(p.fds[1], csv ? "5\n2,6\r\n3" : "\"position\":[5]}\n{\"t\":2,\"name\":[\"a\"],\"position\":[6]}\r\n{");
    ASSERT_EQ(reader.next(m), io::ReadStatus::Ok) << reader.error().reason;
    EXPECT_EQ(m.joint.stamp, Time{1'000'000'000});
    EXPECT_EQ(m.joint.position[0], 5.0);
    EXPECT_TRUE(reader.input_pending());
    ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
    EXPECT_EQ(m.joint.position[0], 6.0);
    EXPECT_EQ(m.line, csv ? 3u : 2u);
    EXPECT_FALSE(reader.input_pending());
    EXPECT_EQ(reader.next(m), io::ReadStatus::WouldBlock);
    EXPECT_EQ(reader.format().name(), csv ? "csv" : "jsonl");
    write_all(p.fds[1], csv ? ",7" : "\"t\":3,\"name\":[\"a\"],\"position\":[7]}");
    EXPECT_EQ(reader.next(m), io::ReadStatus::WouldBlock);
    p.close_write();  // the last line has no newline: it is read at the end
    ASSERT_EQ(reader.next(m), io::ReadStatus::Ok) << reader.error().reason;
    EXPECT_EQ(m.joint.position[0], 7.0);
    EXPECT_EQ(reader.next(m), io::ReadStatus::End);
  }
}

TEST(IoStream, PrettyDocumentFromANonBlockingPipeIsReadWhole) {
  Pipe p;
  p.non_blocking();
  io::MessageReader reader(p.fds[0], "<pipe>");
  io::Message m;
  write_all(p.fds[1], "{\n  \"name\": [\"a\"],\n");
  EXPECT_EQ(reader.next(m), io::ReadStatus::WouldBlock);
  write_all(p.fds[1], "  \"position\": [1]\n}\n");
  EXPECT_EQ(reader.next(m), io::ReadStatus::WouldBlock);  // waits for the end of the document
  p.close_write();
  ASSERT_EQ(reader.next(m), io::ReadStatus::Ok) << reader.error().reason;
  EXPECT_EQ(reader.format().name(), "json");
  EXPECT_EQ(m.joint.position[0], 1.0);
  EXPECT_EQ(reader.next(m), io::ReadStatus::End);
}

TEST(IoStream, SameMessagesFromStreamDescriptorAndFile) {
  const std::string text = make_stream(500, 7);
  std::vector<io::Message> from_stream;
  {
    std::istringstream in(text);
    io::MessageReader reader(in, "<s>");
    io::Message m;
    while (reader.next(m) == io::ReadStatus::Ok) from_stream.push_back(m);
    EXPECT_EQ(reader.error_count(), 0u);
    EXPECT_EQ(reader.message_count(), 500u);
  }
  ASSERT_EQ(from_stream.size(), 500u);
  Pipe p;
  p.non_blocking();
  std::size_t i = 0;
  io::MessageReader reader(p.fds[0], "<pipe>");
  io::Message m;
  auto check = [&] {
    ASSERT_LT(i, from_stream.size());
    EXPECT_EQ(m.kind, from_stream[i].kind);
    EXPECT_EQ(m.line, i + 1);
    if (m.kind == io::MessageKind::Joint) {
      EXPECT_EQ(m.joint, from_stream[i].joint);
    }
    if (m.kind == io::MessageKind::Support) {
      EXPECT_EQ(m.support, from_stream[i].support);
    }
    EXPECT_EQ(m.stamp(), from_stream[i].stamp());
    ++i;
  };
  // Feed the pipe in odd-sized chunks, reading whatever is complete in between.
  for (std::size_t pos = 0; pos < text.size(); pos += 997) {
    write_all(p.fds[1], text.substr(pos, 997));
    io::ReadStatus st;
    while ((st = reader.next(m)) == io::ReadStatus::Ok) check();
    ASSERT_EQ(st, io::ReadStatus::WouldBlock) << reader.error().reason;
  }
  p.close_write();
  io::ReadStatus st;
  while ((st = reader.next(m)) == io::ReadStatus::Ok) check();
  EXPECT_EQ(st, io::ReadStatus::End);
  EXPECT_EQ(i, from_stream.size());
}

TEST(IoStream, ReadingJsonLinesAllocatesNothingPerMessage) {
  const std::string text = make_stream(3000, 11);
  using io::testing::JsonParser;  // the simdjson parsers are not in librmodel (tests/json_parsers)
  for (JsonParser parser : {JsonParser::Native, JsonParser::SimdjsonOndemand}) {
    if (parser != JsonParser::Native && !io::testing::have_simdjson()) continue;
    SCOPED_TRACE(static_cast<int>(parser));
    std::istringstream in(text);
    io::ReaderOptions o;
    o.format = io::parse_format("jsonl");
    io::MessageReader reader(in, "<s>", o);
    io::testing::use_parser(reader, parser);
    io::Message m;
    for (int k = 0; k < 500; ++k) ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);  // warm up
    rmodel::test::AllocationCounter counter;
    int n = 0;
    while (reader.next(m) == io::ReadStatus::Ok) ++n;
    EXPECT_EQ(counter.count(), 0u) << "allocations while reading " << n << " messages";
    EXPECT_EQ(n, 2500);
  }
}

TEST(IoStream, ReadingCsvAllocatesNothingPerMessage) {
  std::string text = "t,cycle";
  for (int j = 0; j < 32; ++j)
    text += ",a_long_joint_name_for_csv_" + std::to_string(j) + ".position,a_long_joint_name_for_csv_" +
            std::to_string(j) + ".velocity";
  text += ",support/leg1\n";
  std::mt19937 rng(3);
  for (int k = 0; k < 2000; ++k) {
    text += std::to_string(k * 0.01) + "," + std::to_string(k);
    // The first rows are full (the largest messages), then cells are missing at random.
    for (int j = 0; j < 64; ++j)
      text += k < 2 || rng() % 3 ? "," + std::to_string(rng() % 1000 * 0.001) : ",";
    text += rng() % 2 ? ",1\n" : ",\n";
  }
  std::istringstream in(text);
  io::MessageReader reader(in, "<csv>", {io::parse_format("csv")});
  io::Message m;
  for (int k = 0; k < 1000; ++k) ASSERT_EQ(reader.next(m), io::ReadStatus::Ok) << reader.error().reason;
  rmodel::test::AllocationCounter counter;
  int n = 0;
  while (reader.next(m) == io::ReadStatus::Ok) ++n;
  EXPECT_EQ(counter.count(), 0u) << "allocations while reading " << n << " messages";
  EXPECT_GT(n, 1000);
}

TEST(IoStream, WritingJsonLinesAndCsvAllocatesNothingPerMessage) {
  const std::string text = make_stream(2000, 5);
  std::vector<io::Message> messages;
  {
    std::istringstream in(text);
    io::MessageReader reader(in, "<s>");
    io::Message m;
    while (reader.next(m) == io::ReadStatus::Ok) messages.push_back(m);
  }
  ASSERT_EQ(messages.size(), 2000u);
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(null_fd, 0);
  for (io::Format f : {io::parse_format("jsonl"), io::parse_format("csv")}) {
    SCOPED_TRACE(std::string(io::to_string(f)));
    io::WriterOptions o;
    o.format = f;
    o.stamp = io::StampLayout::Ros1;
    o.csv_support = {"leg1", "leg2", "leg3", "leg4"};
    for (int j = 0; j < 32; ++j) o.csv_joints.push_back("sweetie_bot_leg_joint_number_" + std::to_string(j));
    io::MessageWriter writer(null_fd, "/dev/null", o);
    for (std::size_t k = 0; k < 300; ++k) writer.write(messages[k]);  // warm up
    rmodel::test::AllocationCounter counter;
    for (std::size_t k = 300; k < messages.size(); ++k) writer.write(messages[k]);
    writer.flush();
    EXPECT_EQ(counter.count(), 0u);
  }
  ::close(null_fd);
  // append_json_line into a reused string.
  std::string line;
  line.reserve(1 << 16);
  rmodel::test::AllocationCounter counter;
  for (const auto& m : messages) {
    line.clear();
    io::append_json_line(line, m, io::StampLayout::Ros2);
  }
  EXPECT_EQ(counter.count(), 0u);
}

TEST(IoStream, UnreadableFileThrows) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: permissions are not enforced";
  char path[] = "/tmp/rmodel_io_unreadableXXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  ::chmod(path, 0);
  EXPECT_THROW((void)io::MessageReader::open(path), rmodel::IoError);
  ::unlink(path);
}

// MessageWriter::open on an existing file (issue 21): the file is replaced only by a complete
// output; a writer destroyed by an exception leaves it as it was, and nothing beside it.
namespace {

std::size_t files_in_replace_dir(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

TEST(WriterReplace, ExceptionLeavesTheExistingFileAndCloseReplacesIt) {
  const std::filesystem::path dir = rmodel::test::make_temp_dir("rmodel-writer-replace");
  for (const char* name : {"out.jsonl", "out.csv", "out.mcap"}) {
    SCOPED_TRACE(name);
    const std::filesystem::path path = dir / name;
    std::ofstream(path) << "the good old file\n";
    rmodel::JointState state;
    state.name = {"a"};
    state.position = {0.5};
    state.stamp = rmodel::Time{1'700'000'000'010'000'000};
    try {
      io::MessageWriter writer = io::MessageWriter::open(path.string());
      for (int k = 0; k < 20000; ++k) (void)writer.write(state);  // past the flush threshold
      writer.flush();
      EXPECT_EQ(rmodel::test::read_file(path), "the good old file\n") << "replaced before the output was complete";
      throw std::runtime_error("the run fails");
    } catch (const std::runtime_error&) {
    }
    EXPECT_EQ(rmodel::test::read_file(path), "the good old file\n");
    EXPECT_EQ(files_in_replace_dir(dir), 1u) << "a temporary file was left behind";

    {
      io::MessageWriter writer = io::MessageWriter::open(path.string());
      (void)writer.write(state);
      writer.close();
    }
    EXPECT_NE(rmodel::test::read_file(path), "the good old file\n");
    EXPECT_EQ(files_in_replace_dir(dir), 1u);
    std::filesystem::remove(path);
  }
  std::filesystem::remove_all(dir);
}

// A new file too (issue 40): it appears at close(), never when an exception ends the run.
TEST(WriterReplace, NewFileAppearsOnlyAtClose) {
  const std::filesystem::path dir = rmodel::test::make_temp_dir("rmodel-writer-new");
  rmodel::JointState state;
  state.name = {"a"};
  state.position = {0.5};
  for (const char* name : {"new.jsonl", "new.mcap"}) {
    SCOPED_TRACE(name);
    const std::filesystem::path path = dir / name;
    try {
      io::MessageWriter writer = io::MessageWriter::open(path.string());
      (void)writer.write(state);
      writer.flush();
      EXPECT_FALSE(std::filesystem::exists(path)) << "the file appeared before the output was complete";
      throw std::runtime_error("the run fails");
    } catch (const std::runtime_error&) {
    }
    EXPECT_EQ(files_in_replace_dir(dir), 0u) << "a file was left behind";
    {
      io::MessageWriter writer = io::MessageWriter::open(path.string());
      (void)writer.write(state);
    }  // destroyed without an exception: closed
    EXPECT_TRUE(std::filesystem::exists(path));
    std::filesystem::remove(path);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
