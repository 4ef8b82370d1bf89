// io::read_json_lines_columns, the straight way from JSON Lines to columns, against the
// pipeline it stands in for (MessageReader → Pipeline → ColumnStage): for every log it either
// declines or gives the pipeline's table bit for bit, and it declines wherever the pipeline
// reports a problem. Logs: the examples, ROS bags recorded by the reference libraries (written
// as JSON Lines by rmodel and as the reference tools' own JSON), lines made to fall on each
// side of each rule, and randomly damaged logs.

#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rmodel/io/columns.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "rmodel/stream/column_stage.hpp"
#include "rmodel/stream/stream.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

namespace fs = std::filesystem;

/// What the pipeline makes of a log: its table and how many problems it reported.
struct PipelineColumns {
  io::ColumnTable table;
  std::vector<std::string> names;
  std::size_t problems = 0;
};

PipelineColumns through_pipeline(const std::string& path, const std::vector<std::string>* known) {
  PipelineColumns out;
  io::MessageReader reader = io::MessageReader::open(path);
  stream::ColumnStage stage(out.table, known ? std::optional(*known) : std::nullopt);
  stream::CallbackSink nowhere({});
  stream::Pipeline pipeline(stage, nowhere, [&](const stream::Event&) { ++out.problems; });
  (void)pipeline.run(reader);
  pipeline.finish();
  out.names = stage.names();
  out.table.finish(out.names.size());
  return out;
}

/// The two tables are the same, bit for bit.
void expect_same(io::JointColumns& fast, PipelineColumns& slow, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(fast.names, slow.names);
  io::ColumnTable& a = fast.table;
  io::ColumnTable& b = slow.table;
  ASSERT_EQ(a.rows(), b.rows());
  const std::size_t rows = a.rows();
  EXPECT_EQ(0, std::memcmp(a.t.data(), b.t.data(), rows * sizeof(std::int64_t)));
  EXPECT_EQ(0, std::memcmp(a.stamped.data(), b.stamped.data(), rows));
  EXPECT_EQ(0, std::memcmp(a.line.data(), b.line.data(), rows * sizeof(std::int64_t)));
  EXPECT_EQ(0, std::memcmp(a.cycle.data(), b.cycle.data(), rows * sizeof(std::int64_t)));
  for (int f = 0; f < io::kJointFields; ++f) {
    const auto field = static_cast<io::JointField>(f);
    ASSERT_EQ(a.present(field), b.present(field)) << "field " << f;
    if (!a.present(field)) continue;
    const std::size_t n = rows * fast.names.size();
    ASSERT_EQ(a.values(field).size(), n);
    ASSERT_EQ(b.values(field).size(), n);
    for (std::size_t i = 0; i < n; ++i)
      if (!test::same_bits(a.values(field).data()[i], b.values(field).data()[i]))
        FAIL() << "field " << f << " row " << i / fast.names.size() << " column " << i % fast.names.size();
  }
}

/// Reads `path` both ways with `threads` parts; true when the straight way took the log.
bool compare(const std::string& path, const std::vector<std::string>* known, unsigned threads) {
  const std::string what = path + (known ? " with a model" : "") + ", " + std::to_string(threads) + " parts";
  PipelineColumns slow = through_pipeline(path, known);
  std::optional<io::JointColumns> fast = io::read_json_lines_columns(path, known, true, threads);
  if (!fast) return false;
  EXPECT_EQ(slow.problems, 0U) << what << ": taken though the pipeline reports a problem";
  expect_same(*fast, slow, what);
  return true;
}

/// Every name the log's joint states carry, sorted, and one more: a model's pose.
std::vector<std::string> pose_of(const std::string& path) {
  std::vector<std::string> names{"a_joint_no_message_names"};
  for (const io::Message& m : test::read_log(path).messages)
    for (const std::string& name : m.joint.name)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

class ColumnsOfJsonLines : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-columns"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  fs::path dir_;
};

TEST_F(ColumnsOfJsonLines, ExampleLogsAsThePipelineReadsThem) {
  std::vector<std::string> taken;
  for (const auto& entry : fs::directory_iterator(test::source_dir() / "share/rmodel/examples")) {
    if (entry.path().extension() != ".jsonl") continue;
    const std::string path = entry.path().string();
    const std::vector<std::string> pose = pose_of(path);
    bool all = true;
    for (const unsigned threads : {1U, 2U, 3U, 5U}) {
      all = compare(path, nullptr, threads) && all;
      all = compare(path, &pose, threads) && all;
    }
    if (all) taken.push_back(entry.path().filename().string());
  }
  // The plain ones are taken; not those with support states or a rejected message.
  for (const char* name : {"walk.jsonl", "arm_wave.jsonl", "swing.jsonl", "crouch.jsonl", "kick.jsonl"})
    EXPECT_NE(std::find(taken.begin(), taken.end(), name), taken.end()) << name;
  for (const char* name : {"pony_log.jsonl", "fl.jsonl"})
    EXPECT_EQ(std::find(taken.begin(), taken.end(), name), taken.end()) << name;
}

TEST_F(ColumnsOfJsonLines, RecordedBagsWrittenAsJsonLines) {
  RMODEL_REQUIRE_FIXTURES();
  // As the reference tools wrote them: ROS 2 header stamps, topic and log time.
  for (const char* truth : {"bags/greeting.truth.jsonl", "bags/hoof_wave.truth.jsonl"}) {
    const std::string path = test::fixture(truth).string();
    const std::vector<std::string> pose = pose_of(path);
    for (const unsigned threads : {1U, 3U}) {
      EXPECT_TRUE(compare(path, nullptr, threads)) << truth;
      EXPECT_TRUE(compare(path, &pose, threads)) << truth;
    }
  }
  // As rmodel writes them.
  for (const char* bag : {"bags/greeting.bag", "bags/hoof_wave.mcap", "bags/greeting_db3"}) {
    const std::string path = write(fs::path(bag).stem().string() + ".jsonl", "");
    {
      io::MessageWriter writer = io::MessageWriter::open(path);
      for (const io::Message& m : test::read_log(test::fixture(bag).string()).messages) writer.write(m);
      writer.flush();
    }
    const std::vector<std::string> pose = pose_of(path);
    for (const unsigned threads : {1U, 2U, 4U, 7U}) {
      EXPECT_TRUE(compare(path, nullptr, threads)) << bag;
      EXPECT_TRUE(compare(path, &pose, threads)) << bag;
    }
  }
}

// A small log whose third line is `line`; whether it is taken, and if so that it equals.
struct LineCase {
  const char* line;
  bool taken;
};

TEST_F(ColumnsOfJsonLines, EachRuleTakesOrDeclines) {
  const std::vector<LineCase> cases = {
      {R"({"t":0.03,"name":["a","b"],"position":[1.5,-2e-3]})", true},
      {R"(  { "t" : 0.03 , "name" : [ "a" , "b" ] , "position" : [ 1.5 , -2E-3 ] }  )", true},
      {"\t{\"t\":0.03,\"name\":[\"a\",\"b\"],\"position\":[1.5,2]}\r", true},
      {R"({"position":[1,2],"name":["b","a"],"t":3})", true},
      {R"({"t":-0,"name":["a"],"velocity":[-0],"effort":[]})", true},
      {R"({"t":0.03,"name":["c"]})", true},
      {R"({"t":1e-9,"name":["a","b"],"position":[123456789012345678901234567890,1e-400]})", true},
      {"", true},
      {"   ", true},
      {R"({"t":0.03,"name":["a","b"],"position":[1,2],"extra":1})", true},
      {R"({"header":{"stamp":{"sec":1,"nanosec":2}},"name":["a"],"position":[1]})", true},
      {R"({"topic":"/js","log_time_ns":17,"header":{"seq":3,"stamp":{"secs":-1,"nsecs":5},"frame_id":""},"name":["a"]})",
       true},
      {R"({"t":2,"header":{"stamp":{"sec":1}},"name":["a"],"x":[{"y":[true,false,null,"z",-1.5e3]}],"position":[1]})",
       true},
      {R"({"t":null,"name":["a"],"position":[1]})", true},
      {R"({"name":["a"],"position":[1]})", true},
      {R"({"header":{"stamp":{"nanosec":2}},"name":["a"],"position":[1]})", false},
      {R"({"header":{"stamp":{"sec":1,"secs":1}},"name":["a"],"position":[1]})", false},
      {R"({"header":{"stamp":{"sec":1.5}},"name":["a"],"position":[1]})", false},
      {R"({"header":{"stamp":{"sec":1e3}},"name":["a"],"position":[1]})", false},
      {R"({"header":{"stamp":{"sec":99999999999999999999}},"name":["a"],"position":[1]})", false},
      {R"({"header":{"stamp":{"sec":9223372037}},"name":["a"],"position":[1]})", false},
      {R"({"header":5,"name":["a"],"position":[1]})", false},
      {R"({"header":{},"header":{},"name":["a"],"position":[1]})", false},
      {R"({"t":1,"name":["a"],"x":[[[[[[[[[[1]]]]]]]]]]})", false},
      {R"({"t":1,"name":["a"],"x":"\n"})", false},
      {R"({"t":1,"name":["a"],"x":tru})", false},
      {"{\"t\":1,\"name\":[\"a\"],\"\xC3\xA9\":1}", false},
      {"{\"t\":1,\"name\":[\"a\"],\"x\":\"\xFF\"}", false},
      {R"({"t":1,"position":[1]})", false},
      {R"({"t":1,"name":["a\u0062"],"position":[1]})", false},
      {R"({"t":1,"name":["\u00e9"],"position":[1]})", false},
      {"{\"t\":1,\"name\":[\"\xC3\xA9\"],\"position\":[1]}", false},
      {R"({"t":1,"name":[""],"position":[1]})", false},
      {R"({"t":1,"name":["a","a"],"position":[1,2]})", false},
      {R"({"t":1,"name":["a","b"],"position":[1]})", false},
      {R"({"t":1,"name":["a","b"],"position":[null,1],"velocity":[2,null]})", true},
      {R"({"t":1,"name":["a"],"position":[nul]})", false},
      {R"({"t":1,"name":["a"],"position":[nullx]})", false},
      {R"({"t":1,"name":["a"],"position":[1],})", false},
      {R"({"t":1,"name":["a"],"position":[1]} x)", false},
      {R"({"t":1,"name":["a"],"position":[1],"position":[2]})", false},
      {R"({"t":1,"name":[],"position":[]})", false},
      {R"({"t":1,"name":["a"],"position":[01]})", false},
      {R"({"t":1,"name":["a"],"position":[.5]})", false},
      {R"({"t":1,"name":["a"],"position":[1.]})", false},
      {R"({"t":1,"name":["a"],"position":[NaN]})", false},
      {R"({"t":1,"name":["a"],"position":[1e999]})", false},
      {R"({"t":1e999,"name":["a"],"position":[1]})", false},
      {R"({"t":"1","name":["a"],"position":[1]})", false},
      {R"({"t":1,"name":["a"],"position":[1])", false},
      {R"({"t":1,"name":["a"],"support":[1]})", false},
      {R"({"t":1,"name":["a"],"position":[1],"cycle":3})", false},
      {R"({"sync":true,"t":1})", false},
      {R"([{"t":1,"name":["a"],"position":[1]}])", false},
  };
  const std::string before = "{\"t\":0.01,\"name\":[\"a\",\"b\"],\"position\":[0.25,0.5]}\n"
                             "{\"t\":0.02,\"name\":[\"b\",\"a\"],\"velocity\":[1,2]}\n";
  const std::string after = "\n{\"t\":0.04,\"name\":[\"a\"],\"position\":[0.125]}\n";
  const std::vector<std::string> pose = {"a", "b", "c", "d"};
  for (const LineCase& c : cases) {
    SCOPED_TRACE(c.line);
    const std::string path = write("case.jsonl", before + c.line + after);
    for (const unsigned threads : {1U, 2U, 3U}) {
      EXPECT_EQ(compare(path, nullptr, threads), c.taken);
      EXPECT_EQ(compare(path, &pose, threads), c.taken);
    }
  }
  // With a model, a joint it does not have: the pipeline warns, so the log is declined.
  const std::string path = write("unknown.jsonl", before + after);
  const std::vector<std::string> without_b = {"a"};
  EXPECT_FALSE(compare(path, &without_b, 1));
  // A last line without its newline, and a byte order mark.
  EXPECT_TRUE(compare(write("last.jsonl", before + "{\"t\":5,\"name\":[\"a\"],\"position\":[1]}"), nullptr, 2));
  EXPECT_FALSE(compare(write("bom.jsonl", "\xEF\xBB\xBF" + before), nullptr, 1));
  EXPECT_FALSE(compare(write("blank.jsonl", "\n \n"), nullptr, 2));
}

TEST_F(ColumnsOfJsonLines, PartsMeetingNamesInAnotherOrderJoinAsOneRead) {
  std::string text;
  const char* lists[] = {R"(["a","b"])", R"(["c","a"])", R"(["d"])", R"(["b","e","c"])"};
  for (int k = 0; k < 40; ++k) {
    // The later lines name joints the earlier ones did not, in orders of their own.
    const char* names = lists[k < 10 ? k % 2 : 2 + k % 2];
    const int n = names == lists[2] ? 1 : names == lists[3] ? 3 : 2;
    text += "{\"t\":" + std::to_string(k) + ",\"name\":" + names + ",\"position\":[";
    for (int i = 0; i < n; ++i) text += (i ? "," : "") + std::to_string(k * 10 + i);
    text += k % 7 == 3 ? "],\"effort\":[" + std::string(n == 1 ? "1" : n == 2 ? "1,2" : "1,2,3") + "]}\n" : "]}\n";
  }
  const std::string path = write("orders.jsonl", text);
  for (unsigned threads = 1; threads <= 8; ++threads) EXPECT_TRUE(compare(path, nullptr, threads));
}

TEST_F(ColumnsOfJsonLines, DamagedLogsAreDeclinedOrReadAsThePipelineReadsThem) {
  std::string text;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> value(-3, 3);
  const char* lists[] = {R"(["a","b","c"])", R"(["d","e"])", R"(["c","a"])"};
  const int sizes[] = {3, 2, 2};
  for (int k = 0; k < 60; ++k) {
    const int l = k % 3;
    // Both ways of stamping a message: `t`, and a ROS header beside other keys.
    text += k % 4 == 1 ? "{\"topic\":\"/js\",\"header\":{\"stamp\":{\"sec\":" + std::to_string(k) +
                             ",\"nanosec\":" + std::to_string(k * 7) + "},\"frame_id\":\"\"},\"name\":" + lists[l] +
                             ",\"position\":["
                       : "{\"t\":" + std::to_string(k * 0.01) + ",\"name\":" + lists[l] + ",\"position\":[";
    for (int i = 0; i < sizes[l]; ++i) text += (i ? "," : "") + std::to_string(value(rng));
    text += "]}\n";
  }
  const std::vector<std::string> pose = {"a", "b", "c", "d", "e"};
  const std::string alphabet = "{}[]\",:0123456789.-+eEtnamepositvlcyhdrsu \\\n\rx\x80";
  std::size_t taken = 0;
  for (int iteration = 0; iteration < 400; ++iteration) {
    std::string damaged = text;
    const int changes = 1 + iteration % 3;
    for (int c = 0; c < changes; ++c) {
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, damaged.size() - 1)(rng);
      const char by = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
      switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
        case 0: damaged[at] = by; break;
        case 1: damaged.insert(at, 1, by); break;
        default: damaged.erase(at, 1); break;
      }
    }
    const std::string path = write("damaged.jsonl", damaged);
    const unsigned threads = 1 + static_cast<unsigned>(iteration % 4);
    taken += compare(path, iteration % 2 ? &pose : nullptr, threads) ? 1 : 0;
    if (HasFailure()) {
      ADD_FAILURE() << "damaged log:\n" << damaged;
      break;
    }
  }
  // Some damage leaves a valid log (a digit for a digit): both sides are exercised.
  EXPECT_GT(taken, 20U);
  EXPECT_LT(taken, 400U);
}

TEST_F(ColumnsOfJsonLines, DeclinesWhatIsNotARegularJsonLinesFile) {
  const std::string line = "{\"t\":1,\"name\":[\"a\"],\"position\":[1]}\n";
  // By its name: another format, unless told it is JSON Lines.
  const std::string csvish = write("log.txt", line);
  EXPECT_FALSE(io::read_json_lines_columns(csvish, nullptr));
  EXPECT_TRUE(io::read_json_lines_columns(csvish, nullptr, true));
  EXPECT_TRUE(io::read_json_lines_columns(write("log.ndjson", line), nullptr));
  EXPECT_FALSE(io::read_json_lines_columns(write("empty.jsonl", ""), nullptr));
  // A named pipe is not opened (that would wait for a writer): the pipeline reads it.
  const fs::path fifo = dir_ / "live.jsonl";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(io::read_json_lines_columns(fifo.string(), nullptr));
  EXPECT_FALSE(io::read_json_lines_columns((dir_ / "missing.jsonl").string(), nullptr));  // the pipeline says why
}

}  // namespace
}  // namespace rmodel
