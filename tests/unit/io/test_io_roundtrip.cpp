// Writing then reading gives back the same messages, to the last bit, in every format.

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "rmodel/base/error.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "test_support.hpp"

namespace io = rmodel::io;
using rmodel::Time;

namespace {

std::vector<io::Message> read_messages(const std::string& text, io::Format format) {
  std::istringstream in(text);
  io::ReaderOptions o;
  o.format = format;
  io::MessageReader reader(in, "<test>", o);
  std::vector<io::Message> out;
  io::Message m;
  for (;;) {
    const auto st = reader.next(m);
    if (st == io::ReadStatus::End) break;
    EXPECT_EQ(st, io::ReadStatus::Ok) << reader.error().to_string("<test>");
    if (st == io::ReadStatus::Ok) out.push_back(m);
  }
  return out;
}

using rmodel::test::same_bits;

void expect_same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_TRUE(same_bits(a[i], b[i])) << "element " << i << ": " << a[i] << " vs " << b[i];
}

const std::vector<double> kTricky = {
    0.1,
    0.2,
    0.3,
    1.0 / 3.0,
    1e-300,
    -0.0,
    0.0,
    5e-324,                          // smallest subnormal
    2.2250738585072014e-308,         // smallest normal
    -2.2250738585072009e-308,        // largest subnormal
    1.7976931348623157e308,          // largest
    -1.7976931348623157e308,
    9007199254740993.0,              // 2^53 + 1 (rounds to 2^53)
    9007199254740992.0,
    123456789012345680.0,
    1e21,
    1e22,
    1e23,
    1e-7,
    100.0,
    -1.0,
    3.141592653589793,
    2.718281828459045,
    0.30000000000000004,
    1563014597.503786407,
    -5.704430671372726e-60,
    6.1497562846180054e-65,
};

// Times that a double could not carry, and the ends of the range.
const std::vector<Time> kTrickyTimes = {
    Time{0},
    Time{1},                                      // 0.000000001 s
    Time{-1},
    Time{1563014597'503786407},                   // an epoch stamp with every nanosecond
    Time{1700000000'010000000},                   // 1700000000.01 (the double gives ...009999990)
    Time{1700000000'130000000},
    Time{300'000'000},                            // 0.3 (0.1 + 0.2 as doubles is not)
    Time{1'999'999'999},
    Time{-2'250'000'000},
    Time{std::numeric_limits<std::int64_t>::max()},
    Time{std::numeric_limits<std::int64_t>::min()},
};

io::Message joint_message(Time t, std::vector<std::string> names, std::vector<double> pos,
                          std::vector<double> vel = {}, std::vector<double> eff = {}) {
  io::Message m;
  m.kind = io::MessageKind::Joint;
  m.joint.stamp = t;
  m.joint.name = std::move(names);
  m.joint.position = std::move(pos);
  m.joint.velocity = std::move(vel);
  m.joint.effort = std::move(eff);
  return m;
}

std::vector<std::string> names_for(std::size_t n) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < n; ++i) names.push_back("j" + std::to_string(i));
  return names;
}

}  // namespace

TEST(IoRoundTrip, TrickyDoublesThroughJsonLines) {
  std::vector<double> reversed(kTricky.rbegin(), kTricky.rend());
  std::vector<double> negated;
  for (double x : kTricky) negated.push_back(-x);
  std::string text;
  io::MessageWriter writer(text);
  for (Time t : kTrickyTimes)
    writer.write(joint_message(t, names_for(kTricky.size()), kTricky, reversed, negated));
  const auto back = read_messages(text, io::parse_format("jsonl"));
  ASSERT_EQ(back.size(), kTrickyTimes.size());
  for (std::size_t k = 0; k < back.size(); ++k) {
    EXPECT_EQ(back[k].joint.stamp, kTrickyTimes[k]);
    expect_same_bits(back[k].joint.position, kTricky);
    expect_same_bits(back[k].joint.velocity, reversed);
    expect_same_bits(back[k].joint.effort, negated);
  }
}

TEST(IoRoundTrip, TrickyDoublesThroughCsv) {
  std::vector<double> reversed(kTricky.rbegin(), kTricky.rend());
  std::string text;
  io::WriterOptions o;
  o.format = io::parse_format("csv");
  io::MessageWriter writer(text, o);
  for (Time t : kTrickyTimes)
    EXPECT_EQ(writer.write(joint_message(t, names_for(kTricky.size()), kTricky, reversed, kTricky)),
              io::WriteStatus::Written);
  EXPECT_EQ(text.substr(0, 37), "t,j0.position,j0.velocity,j0.effort,j");
  const auto back = read_messages(text, io::parse_format("csv"));
  ASSERT_EQ(back.size(), kTrickyTimes.size());
  for (std::size_t k = 0; k < back.size(); ++k) {
    EXPECT_EQ(back[k].joint.stamp, kTrickyTimes[k]);
    EXPECT_EQ(back[k].joint.name, names_for(kTricky.size()));
    expect_same_bits(back[k].joint.position, kTricky);
    expect_same_bits(back[k].joint.velocity, reversed);
    expect_same_bits(back[k].joint.effort, kTricky);
  }
}

TEST(IoRoundTrip, RandomBitPatternsInEveryFormat) {
  std::mt19937_64 rng(42);
  std::vector<io::Message> sent;
  for (int k = 0; k < 200; ++k) {
    std::vector<double> pos, vel;
    for (int i = 0; i < 16; ++i) {
      for (auto* v : {&pos, &vel}) {
        double d;
        do {
          const std::uint64_t bits = rng();
          std::memcpy(&d, &bits, sizeof d);
        } while (!std::isfinite(d));
        v->push_back(d);
      }
    }
    sent.push_back(joint_message(Time{static_cast<std::int64_t>(rng())}, names_for(16), pos, vel));  // any time
  }
  for (io::Format f : {io::parse_format("jsonl"), io::parse_format("csv")}) {
    SCOPED_TRACE(std::string(io::to_string(f)));
    std::string text;
    io::WriterOptions o;
    o.format = f;
    {
      io::MessageWriter writer(text, o);
      for (const auto& m : sent) writer.write(m);
    }
    const auto back = read_messages(text, f);
    ASSERT_EQ(back.size(), sent.size());
    for (std::size_t k = 0; k < sent.size(); ++k) {
      EXPECT_EQ(back[k].joint.stamp, sent[k].joint.stamp);
      expect_same_bits(back[k].joint.position, sent[k].joint.position);
      expect_same_bits(back[k].joint.velocity, sent[k].joint.velocity);
    }
  }
}

TEST(IoRoundTrip, ExactJsonLineText) {
  io::Message m = joint_message(Time{1'500'000'000}, {"a", "b"}, {0.1, -0.0}, {}, {1e-300, 5e-324});
  m.cycle = 42;
  std::string s;
  io::append_json_line(s, m);
  EXPECT_EQ(s, R"({"t":1.5,"cycle":42,"name":["a","b"],"position":[0.1,-0],"effort":[1e-300,5e-324]})" "\n");
  s.clear();
  m.has_stamp = false;
  m.cycle.reset();
  m.joint.name = {"q\"\\\n\x01"};
  m.joint.position = {1};
  m.joint.effort.clear();
  io::append_json_line(s, m);
  EXPECT_EQ(s, R"({"name":["q\"\\\n\u0001"],"position":[1]})" "\n");
  std::string d;
  io::append_double(d, 0.1);
  io::append_double(d, std::numeric_limits<double>::infinity());
  EXPECT_EQ(d, "0.1inf");
}

TEST(IoRoundTrip, StampLayouts) {
  const std::vector<Time> stamps = {Time{0},          Time{1'500'000'000}, Time{1563014597'503786407},
                                    Time{1'999'999'999}, Time{-2'250'000'000}, Time{1}};
  for (io::StampLayout layout : {io::StampLayout::None, io::StampLayout::Ros1, io::StampLayout::Ros2}) {
    SCOPED_TRACE(std::string(io::to_string(layout)));
    std::string text;
    io::WriterOptions o;
    o.stamp = layout;
    {
      io::MessageWriter writer(text, o);
      for (Time t : stamps) writer.write(joint_message(t, {"a"}, {1}));
    }
    const bool ros1 = text.find("\"secs\":") != std::string::npos;
    const bool ros2 = text.find("\"sec\":") != std::string::npos;
    EXPECT_EQ(ros1, layout == io::StampLayout::Ros1);
    EXPECT_EQ(ros2, layout == io::StampLayout::Ros2);
    auto back = read_messages(text, io::parse_format("jsonl"));
    ASSERT_EQ(back.size(), stamps.size());
    for (std::size_t k = 0; k < stamps.size(); ++k) EXPECT_EQ(back[k].joint.stamp, stamps[k]);

    // Without `t`, the header stamp alone gives the same time.
    if (layout == io::StampLayout::None) continue;
    std::string no_t;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      const auto a = line.find("\"t\":");
      const auto b = line.find(',', a);
      no_t += line.substr(0, a) + line.substr(b + 1) + "\n";
    }
    back = read_messages(no_t, io::parse_format("jsonl"));
    ASSERT_EQ(back.size(), stamps.size());
    for (std::size_t k = 0; k < stamps.size(); ++k) EXPECT_EQ(back[k].joint.stamp, stamps[k]) << no_t;
  }
  // The split of a ROS stamp: sec = floor, nanosec in [0, 10⁹).
  std::string s;
  io::append_json_line(s, joint_message(Time{1'999'999'999}, {}, {}), io::StampLayout::Ros1);
  EXPECT_EQ(s, R"({"t":1.999999999,"header":{"stamp":{"secs":1,"nsecs":999999999}},"name":[]})" "\n");
  s.clear();
  io::append_json_line(s, joint_message(Time{-2'250'000'000}, {}, {}), io::StampLayout::Ros2);
  EXPECT_EQ(s, R"({"t":-2.25,"header":{"stamp":{"sec":-3,"nanosec":750000000}},"name":[]})" "\n");
}

TEST(IoRoundTrip, NonFiniteNumbers) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  io::Message m = joint_message(Time{}, {"a", "b", "c"}, {nan, inf, -inf});
  m.has_stamp = false;
  // JSON: null, read back as NaN.
  std::string json;
  io::append_json_line(json, m, io::StampLayout::Ros1);
  EXPECT_EQ(json, R"({"name":["a","b","c"],"position":[null,null,null]})" "\n");
  auto back = read_messages(json, io::parse_format("jsonl"));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_FALSE(back[0].has_stamp);
  for (double x : back[0].joint.position) EXPECT_TRUE(std::isnan(x));
  // CSV keeps infinities.
  std::string csv;
  io::WriterOptions o;
  o.format = io::parse_format("csv");
  {
    io::MessageWriter writer(csv, o);
    writer.write(m);
  }
  EXPECT_EQ(csv, "t,a.position,b.position,c.position\n,nan,inf,-inf\n");
  back = read_messages(csv, io::parse_format("csv"));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_FALSE(back[0].has_stamp);
  EXPECT_TRUE(std::isnan(back[0].joint.position[0]));
  EXPECT_EQ(back[0].joint.position[1], inf);
  EXPECT_EQ(back[0].joint.position[2], -inf);
}

TEST(IoRoundTrip, SupportSyncAndCyclesThroughJsonLines) {
  std::string text;
  {
    io::MessageWriter writer(text);
    rmodel::SupportState s;
    s.stamp = Time{500'000'000};
    s.name = {"leg1", "leg2"};
    s.support = {1.0, 0.25};
    s.contact = {"hoof", "edge"};
    writer.write(s, 3);
    s.contact.clear();
    s.support.clear();
    writer.write(s);
    writer.write_sync(Time{750'000'000}, 3);
    rmodel::JointState j;
    j.stamp = Time{800'000'000};
    j.name = {"a"};
    j.velocity = {2.0};
    writer.write(j, 4);
    io::Message tick;
    tick.kind = io::MessageKind::Sync;
    tick.has_stamp = false;
    writer.write(tick);
  }
  const auto back = read_messages(text, io::parse_format("jsonl"));
  ASSERT_EQ(back.size(), 5u);
  EXPECT_EQ(back[0].kind, io::MessageKind::Support);
  EXPECT_EQ(back[0].support.name, (std::vector<std::string>{"leg1", "leg2"}));
  EXPECT_EQ(back[0].support.support, (std::vector<double>{1.0, 0.25}));
  EXPECT_EQ(back[0].support.contact, (std::vector<std::string>{"hoof", "edge"}));
  EXPECT_EQ(back[0].cycle, 3);
  EXPECT_EQ(back[1].kind, io::MessageKind::Support);  // `"support":[]` keeps the kind
  EXPECT_TRUE(back[1].support.support.empty());
  EXPECT_EQ(back[2].kind, io::MessageKind::Sync);
  EXPECT_EQ(back[2].sync_stamp, Time{750'000'000});
  EXPECT_EQ(back[2].cycle, 3);
  EXPECT_EQ(back[3].kind, io::MessageKind::Joint);
  EXPECT_EQ(back[3].joint.velocity, (std::vector<double>{2.0}));
  EXPECT_TRUE(back[3].joint.position.empty());
  EXPECT_EQ(back[3].cycle, 4);
  EXPECT_EQ(back[4].kind, io::MessageKind::Sync);
  EXPECT_FALSE(back[4].has_stamp);
}

TEST(IoRoundTrip, NamesWithEscapesThroughJsonLinesAndCsv) {
  const std::vector<std::string> names = {"plain", "with \"quote\"", "back\\slash", "comma,name",
                                          "new\nline", "tab\t", "\xC3\xA9t\xC3\xA9", "dot.ted"};
  const io::Message m = joint_message(Time{1'000'000'000}, names, std::vector<double>(names.size(), 0.5));
  std::string text;
  io::append_json_line(text, m);
  auto back = read_messages(text, io::parse_format("jsonl"));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].joint.name, names);

  // CSV: quoted header cells (no newline inside a CSV cell, so leave that one out).
  std::vector<std::string> csv_names = names;
  csv_names.erase(csv_names.begin() + 4);
  std::string csv;
  io::WriterOptions o;
  o.format = io::parse_format("csv");
  {
    io::MessageWriter writer(csv, o);
    writer.write(joint_message(Time{1'000'000'000}, csv_names, std::vector<double>(csv_names.size(), 0.5)));
  }
  back = read_messages(csv, io::parse_format("csv"));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].joint.name, csv_names);
}

TEST(IoRoundTrip, PartialMessagesThroughCsv) {
  io::WriterOptions o;
  o.format = io::parse_format("csv");
  o.csv_joints = {"a", "b", "c", "d"};
  o.csv_fields = io::CsvPosition | io::CsvVelocity;
  o.csv_support = {"leg1", "leg2"};
  o.csv_cycle = true;
  std::string csv;
  std::vector<io::Message> sent;
  sent.push_back(joint_message(Time{100'000'000}, {"a", "c"}, {1, 3}, {10, 30}));
  sent.push_back(joint_message(Time{200'000'000}, {"b", "d"}, {2, 4}));
  sent.push_back(joint_message(Time{300'000'000}, {"d"}, {}, {40}));
  sent.back().cycle = 7;
  io::Message s;
  s.kind = io::MessageKind::Support;
  s.support.stamp = Time{400'000'000};
  s.support.name = {"leg2"};
  s.support.support = {0.5};
  sent.push_back(s);
  {
    io::MessageWriter writer(csv, o);
    for (const auto& m : sent) EXPECT_EQ(writer.write(m), io::WriteStatus::Written);
    EXPECT_EQ(writer.write_sync(Time{500'000'000}), io::WriteStatus::Skipped);
    EXPECT_EQ(writer.write(joint_message(Time{600'000'000}, {"a", "zz"}, {1, 2})), io::WriteStatus::Partial);
    EXPECT_EQ(writer.write(joint_message(Time{700'000'000}, {"a"}, {1}, {}, {5})), io::WriteStatus::Partial);
  }
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "t,cycle,a.position,a.velocity,b.position,b.velocity,c.position,c.velocity,"
            "d.position,d.velocity,support/leg1,support/leg2");
  const auto back = read_messages(csv, io::parse_format("csv"));
  ASSERT_EQ(back.size(), sent.size() + 2);
  for (std::size_t k = 0; k < sent.size(); ++k) {
    EXPECT_EQ(back[k].kind, sent[k].kind);
    EXPECT_EQ(back[k].cycle, sent[k].cycle);
    if (sent[k].kind == io::MessageKind::Joint) {
      EXPECT_EQ(back[k].joint, sent[k].joint);
    }
    if (sent[k].kind == io::MessageKind::Support) {
      EXPECT_EQ(back[k].support, sent[k].support);
    }
  }
  EXPECT_EQ(back[sent.size()].joint.name, (std::vector<std::string>{"a"}));
}

TEST(IoRoundTrip, FilesByExtension) {
  const auto dir = rmodel::test::make_temp_dir("rmodel_io_");
  const std::vector<io::Message> sent = {joint_message(Time{1'000'000'000}, {"a", "b"}, {0.1, 0.2}),
                                         joint_message(Time{2'000'000'000}, {"a", "b"}, {0.3, 0.4})};
  for (const char* file : {"out.jsonl", "out.ndjson", "out.json", "out.csv", "out.txt"}) {
    const std::string path = (dir / file).string();
    {
      auto writer = io::MessageWriter::open(path);
      EXPECT_EQ(writer.format().name(), std::string_view(file) == "out.csv" ? "csv" : "jsonl");
      for (const auto& m : sent) writer.write(m);
      writer.flush();
    }
    auto reader = io::MessageReader::open(path);
    io::Message m;
    for (const auto& want : sent) {
      ASSERT_EQ(reader.next(m), io::ReadStatus::Ok) << file << ": " << reader.error().reason;
      EXPECT_EQ(m.joint, want.joint);
    }
    EXPECT_EQ(reader.next(m), io::ReadStatus::End);
  }
  EXPECT_THROW((void)io::MessageWriter::open((dir / "no" / "such" / "dir.jsonl").string()), rmodel::IoError);
  EXPECT_THROW((void)io::MessageWriter::open(dir.string()), rmodel::IoError);
  std::filesystem::remove_all(dir);
}

TEST(IoRoundTrip, WriterToStreamAndFlushPolicy) {
  std::ostringstream out;
  io::WriterOptions o;
  o.flush_each_message = true;
  io::MessageWriter writer(out, "<ostream>", o);
  writer.write(joint_message(Time{1'000'000'000}, {"a"}, {1}));
  EXPECT_EQ(out.str(), R"({"t":1,"name":["a"],"position":[1]})" "\n");
  o.flush_each_message = false;
  std::ostringstream out2;
  {
    io::MessageWriter buffered(out2, "<ostream>", o);
    buffered.write(joint_message(Time{1'000'000'000}, {"a"}, {1}));
    EXPECT_EQ(out2.str(), "");
    buffered.flush();
    EXPECT_EQ(out2.str(), out.str());
    buffered.write(joint_message(Time{1'000'000'000}, {"a"}, {1}));
  }
  EXPECT_EQ(out2.str(), out.str() + out.str());  // flushed on destruction
}

TEST(IoRoundTrip, FormatNames) {
  EXPECT_EQ(io::format_from_path("a/b.jsonl").name(), "jsonl");
  EXPECT_EQ(io::format_from_path("B.NDJSON").name(), "jsonl");
  EXPECT_EQ(io::format_from_path("x.json").name(), "json");
  EXPECT_EQ(io::format_from_path("x.Csv").name(), "csv");
  EXPECT_EQ(io::format_from_path("-"), io::Format{});
  EXPECT_EQ(io::format_from_path("x.txt"), io::Format{});
  EXPECT_EQ(io::parse_format("jsonl").name(), "jsonl");
  EXPECT_EQ(io::parse_format("NDJSON").name(), "jsonl");
  EXPECT_EQ(io::parse_format("csv").name(), "csv");
  EXPECT_EQ(io::parse_format("json").name(), "json");
  EXPECT_EQ(io::parse_format("auto"), io::Format{});
  EXPECT_EQ(io::parse_format("yaml").name(), "yaml");  // ros2 / rostopic echo output
  EXPECT_THROW((void)io::parse_format("toml"), rmodel::InvalidArgument);
  EXPECT_EQ(io::parse_stamp_layout("ros2"), io::StampLayout::Ros2);
  EXPECT_THROW((void)io::parse_stamp_layout("ros3"), rmodel::InvalidArgument);
  for (io::Format f : {io::Format{}, io::parse_format("jsonl"), io::parse_format("json"), io::parse_format("csv")})
    EXPECT_EQ(io::parse_format(io::to_string(f)), f);
}

// Every text format of the table is read by its own source: one joint state written by hand
// in each (the layouts of rmodel/io/message.hpp), named with -f and told from the content.
TEST(IoFormats, EveryTextFormatOfTheTableReadsItsMessageNamedOrSniffed) {
  const std::map<io::Format, std::string> samples = {
      {io::parse_format("jsonl"), "{\"t\": 1.5, \"name\": [\"a\"], \"position\": [0.25]}\n"},
      {io::parse_format("json"), "{\n  \"t\": 1.5,\n  \"name\": [\"a\"],\n  \"position\": [0.25]\n}\n"},
      {io::parse_format("csv"), "t,a\n1.5,0.25\n"},
      {io::parse_format("yaml"), "header:\n  stamp:\n    sec: 1\n    nanosec: 500000000\n  frame_id: ''\n"
                         "name:\n- a\nposition:\n- 0.25\nvelocity: []\neffort: []\n---\n"},
  };
  std::size_t text_formats = 0;
  for (const io::Format format : io::formats()) {
    if (format.info()->binary) continue;  // a binary log (test_io_bags.cpp)
    ++text_formats;
    SCOPED_TRACE(std::string(format.name()));
    const auto sample = samples.find(format);
    ASSERT_NE(sample, samples.end()) << "no sample for the text format " << format.name();
    for (const io::Format requested : {format, io::Format{}}) {
      std::istringstream in(sample->second);
      io::ReaderOptions options;
      options.format = requested;
      io::MessageReader reader(in, "<sample>", options);
      io::Message m;
      ASSERT_EQ(reader.next(m), io::ReadStatus::Ok) << reader.error().reason;
      EXPECT_EQ(reader.format(), format);
      EXPECT_EQ(m.joint.name, (std::vector<std::string>{"a"}));
      EXPECT_EQ(m.joint.position, (std::vector<double>{0.25}));
      EXPECT_EQ(m.stamp(), Time{1'500'000'000});
      EXPECT_EQ(reader.next(m), io::ReadStatus::End) << reader.error().reason;
      EXPECT_EQ(reader.message_count(), 1u);
      EXPECT_EQ(reader.error_count(), 0u);
    }
  }
  EXPECT_EQ(text_formats, samples.size());
}

TEST(IoFormats, TableDrivesDetectionNamesAndWriters) {
  std::vector<std::string_view> names;
  for (const io::Format f : io::formats()) names.push_back(f.name());
  EXPECT_EQ(names, (std::vector<std::string_view>{"jsonl", "json", "csv", "yaml", "mcap", "db3", "bag"}));
  // The first bytes of the binary logs, from their specifications: MCAP (mcap.dev/spec), ROS 1
  // bag format 2.0 (wiki.ros.org/Bags/Format/2.0), SQLite 3 (sqlite.org/fileformat.html).
  const std::map<std::string_view, std::string> magic = {{"mcap", std::string("\x89MCAP0\r\n", 8)},
                                                          {"bag", "#ROSBAG V2.0\n"},
                                                          {"db3", std::string("SQLite format 3\0", 16)}};
  // Written by MessageWriter: the formats of the writer's documentation (rmodel/io/writer.hpp).
  const std::set<std::string_view> written = {"jsonl", "csv", "mcap"};
  // Storages of rosbag2 directories (bag.hpp).
  const std::set<std::string_view> rosbag2 = {"mcap", "db3"};
  for (const io::Format format : io::formats()) {
    const io::FormatInfo& f = *format.info();
    SCOPED_TRACE(std::string(f.name));
    EXPECT_EQ(format.name(), f.name);
    EXPECT_EQ(io::parse_format(f.name), format);
    EXPECT_EQ(io::to_string(format), f.name);
    std::string upper(f.name);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(io::parse_format(upper), format);
    for (std::string_view alias : f.aliases) EXPECT_EQ(io::parse_format(alias), format) << alias;
    EXPECT_FALSE(f.extensions.empty());
    for (std::string_view extension : f.extensions) {
      EXPECT_EQ(io::format_from_path("logs.d/run" + std::string(extension)), format) << extension;
      std::string shouted = "RUN" + std::string(extension);
      for (char& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      EXPECT_EQ(io::format_from_path(shouted), format) << shouted;
    }
    const auto m = magic.find(f.name);
    EXPECT_EQ(std::string(f.magic), m == magic.end() ? std::string() : m->second);
    EXPECT_EQ(f.binary, m != magic.end());
    EXPECT_EQ(io::numbers_messages(format), f.binary);
    EXPECT_EQ(f.written, written.count(f.name) == 1);
    EXPECT_EQ(f.rosbag2_storage, rosbag2.count(f.name) == 1);
    std::string out;
    io::WriterOptions options;
    options.format = format;
    const io::MessageWriter writer(out, options);
    EXPECT_EQ(writer.format().name(), f.written ? f.name : "jsonl");
  }
  EXPECT_EQ(io::Format{}.info(), nullptr);
  EXPECT_EQ(io::Format{}.name(), "auto");
  EXPECT_TRUE(io::Format{}.is_auto());
  try {
    (void)io::parse_format("toml");
    ADD_FAILURE() << "no exception";
  } catch (const rmodel::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("expected auto, jsonl, json, csv, yaml, mcap, db3 or bag"), std::string::npos)
        << e.what();
  }
}

// The enumerators of the enum io::Format was before issue 45 still name the same formats, for
// one release (deprecated: the warning is the point, silenced here).
TEST(IoFormats, TheOldEnumeratorsStillNameTheFormats) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  const std::pair<io::Format, std::string_view> old[] = {
      {io::Format::Auto, "auto"}, {io::Format::JsonLines, "jsonl"}, {io::Format::Json, "json"},
      {io::Format::Csv, "csv"},   {io::Format::Mcap, "mcap"},       {io::Format::Ros2Sqlite, "db3"},
      {io::Format::Ros1Bag, "bag"}, {io::Format::Yaml, "yaml"}};
  const std::vector<io::LogFormat>& listed = io::log_formats();
#pragma GCC diagnostic pop
  for (const auto& [format, name] : old) EXPECT_EQ(format, io::parse_format(name)) << name;
  ASSERT_EQ(listed.size(), io::formats().size());
  for (std::size_t i = 0; i < listed.size(); ++i) {
    EXPECT_EQ(listed[i].format, io::formats()[i]);
    EXPECT_EQ(listed[i].name, io::formats()[i].name());
  }
}

TEST(IoFormats, OnlyRosbag2DirectoriesAreLogs) {
  const std::filesystem::path dir = rmodel::test::make_temp_dir("rmodel_log_dir");
  const std::string bag = (dir / "bag").string();
  std::filesystem::create_directory(bag);
  EXPECT_NO_THROW(io::check_log_path("-"));
  try {
    io::check_log_path(bag);
    ADD_FAILURE() << "a directory without metadata.yaml passed";
  } catch (const rmodel::IoError& e) {
    EXPECT_NE(std::string(e.what()).find(bag), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)io::MessageReader::open(bag), rmodel::IoError);
  EXPECT_THROW(io::check_log_path((dir / "missing.mcap").string()), rmodel::IoError);
  { std::ofstream(std::filesystem::path(bag) / "metadata.yaml") << "rosbag2_bagfile_information: {}\n"; }
  EXPECT_NO_THROW(io::check_log_path(bag));
  EXPECT_NO_THROW(io::check_log_path((std::filesystem::path(bag) / "metadata.yaml").string()));
  std::filesystem::remove_all(dir);
}

TEST(IoRoundTrip, NumbersAreWrittenExactlyAsFmtDoes) {
  // The writer's number text is fmt's "{}" (shortest round trip), character for character.
  std::mt19937_64 rng(2024);
  std::vector<double> values = kTricky;
  for (double x : {1e15, 1e16, 1e-4, 1e-5, 0.00012, 123456789012345678.0, 1e100, 1e-100,
                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN()})
    values.push_back(x);
  for (int i = 0; i < 200000; ++i) {
    double d;
    const std::uint64_t bits = rng();
    std::memcpy(&d, &bits, sizeof d);
    values.push_back(d);
    values.push_back(std::ldexp(static_cast<double>(rng() % 100000), static_cast<int>(rng() % 120) - 60));
    values.push_back(static_cast<double>(static_cast<std::int64_t>(rng() % 2000001) - 1000000) / 1000.0);
  }
  // Shortest forms of every length (1 to 17 digits, whose first and last digits are the edges
  // of the 8-digit groups the writer converts at once), at every decimal exponent layout.
  for (int digits = 1; digits <= 17; ++digits) {
    std::uint64_t low = 1;
    for (int i = 1; i < digits; ++i) low *= 10;
    for (int e = -30; e <= 30; ++e) {
      for (std::uint64_t m : {low, 10 * low - 1, low + rng() % (9 * low)}) {
        values.push_back(std::stod(fmt::format("{}e{}", m, e)));
        values.push_back(-std::stod(fmt::format("{}e{}", m, e)));
      }
    }
  }
  // Every value of each 4-digit lane of the writer's 8-digit words, in both words.
  for (int v = 0; v < 10000; ++v) {
    values.push_back(v);
    values.push_back(v * 10000.0 + (9999 - v));
    values.push_back((v * 10000.0 + v) * 1e8 + (9999 - v) * 10000.0 + v);
  }
  std::string got;
  std::size_t wrong = 0;
  for (double x : values) {
    got.clear();
    io::append_double(got, x);
    const std::string want = fmt::format("{}", x);
    if (got != want && ++wrong < 10) ADD_FAILURE() << "got " << got << ", fmt gives " << want;
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(IoRoundTrip, EveryNameLengthWithASpecialCharacterAnywhere) {
  // Names of 1..20 bytes, plain or with one character JSON must escape at each position.
  // (An empty name is an error: see EmptyNameIsAnError.)
  std::vector<std::string> names;
  for (std::size_t len = 1; len <= 20; ++len) {
    names.emplace_back(len, 'x');
    for (std::size_t pos = 0; pos < len; ++pos) {
      for (char special : {'"', '\\', '\n', '\x01', '\x1f'}) {
        std::string n(len, 'y');
        n[pos] = special;
        names.push_back(n);
      }
      std::string high(len, 'z');
      high[pos] = '\xC3';  // bytes >= 0x80 pass through
      names.push_back(high);
    }
  }
  io::Message m = joint_message(Time{0}, names, std::vector<double>(names.size(), 1.0));
  std::string text;
  io::MessageWriter(text).write(m);
  const auto back = read_messages(text, io::parse_format("jsonl"));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].joint.name, names);
}

TEST(IoRoundTrip, EmptyNameIsAnError) {
  // An empty name matches no joint: the message is broken, not partial.
  std::istringstream in("{\"name\":[\"a\",\"\"],\"position\":[1,2]}\n{\"name\":[\"a\"],\"position\":[3]}\n");
  io::MessageReader reader(in, "log.jsonl", {.format = io::parse_format("jsonl")});
  io::Message m;
  ASSERT_EQ(reader.next(m), io::ReadStatus::Error);
  EXPECT_EQ(reader.error().to_string(reader.source()), "log.jsonl:1: 'name' holds an empty name");
  ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
  EXPECT_EQ(m.joint.position, std::vector<double>{3});
}

// The writer reuses the text of a name list it wrote before and of each number position's
// last value. Whatever the caller does to its vectors between messages, every line must be
// what the documented format says for that message: checked against the uncached
// append_json_line and against nlohmann_json's reading of the line.
TEST(IoRoundTrip, WriterCachesFollowChangingNamesAndValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  io::Message m = joint_message(Time{500'000'000}, {"a", "b", "joint_with_a_long_name"}, {0.0, 1.0, 2.0});
  std::vector<io::Message> sent;
  auto step = [&](auto change) {
    change(m);
    sent.push_back(m);
  };
  step([](io::Message&) {});
  step([](io::Message&) {});                                    // the same again
  step([](io::Message& x) { x.joint.name[1] = "c"; });          // in place, same size
  step([](io::Message& x) { x.joint.name[1] = "cc"; });         // in place, longer
  step([](io::Message& x) { x.joint.name[2][21] = 'E'; });      // last byte of a long name
  step([](io::Message& x) { x.joint.name[0] = "abcdefghijklmno"; });  // 15 bytes
  step([](io::Message& x) { x.joint.name[0] = "abcdefghijklmnp"; });  // its last byte
  step([](io::Message& x) { x.joint.name[0] = "abcdefgh"; });         // a prefix of it
  step([](io::Message& x) { x.joint.name[0] = "q\"\\\n"; });          // escaped
  step([](io::Message& x) { x.joint.name.pop_back(); x.joint.position.pop_back(); });
  step([](io::Message& x) { x.joint.name.push_back("d"); x.joint.position.push_back(3.0); });
  step([](io::Message& x) { x.joint.name = {"a", "b", "joint_with_a_long_name"}; });  // back
  step([&](io::Message& x) { x.joint.position = {-0.0, nan, inf}; });  // -0 after 0: other bits
  step([&](io::Message& x) { x.joint.position = {0.0, -inf, nan}; });
  step([&](io::Message& x) { x.joint.position = {0.1, 0.1, 1e-300}; });
  step([&](io::Message& x) { x.joint.velocity = {5e-324, 0.1, 0.0}; });
  step([&](io::Message& x) { x.joint.position.clear(); });
  step([&](io::Message& x) { x.joint.position = {1.0, 2.0, 3.0}; x.joint.velocity.clear(); });
  // Cycling through more name lists than the cache keeps.
  for (int k = 0; k < 20; ++k)
    step([&](io::Message& x) {
      x.joint.name = {"n" + std::to_string(k % 11), "b", "joint_with_a_long_name"};
      x.joint.position = {0.25 * (k % 3), 1.0, 2.0};
    });

  std::string text;
  {
    io::MessageWriter writer(text);
    for (const auto& s : sent) writer.write(s);
  }
  std::string expected;
  for (const auto& s : sent) io::append_json_line(expected, s);
  EXPECT_EQ(text, expected);

  const auto lines = rmodel::test::json_lines(text);
  ASSERT_EQ(lines.size(), sent.size());
  for (std::size_t k = 0; k < sent.size(); ++k) {
    SCOPED_TRACE(k);
    const rmodel::JointState& s = sent[k].joint;
    EXPECT_EQ(lines[k]["name"].get<std::vector<std::string>>(), s.name);
    auto same = [](const nlohmann::json& a, const std::vector<double>& want) {
      if (want.empty()) return a.is_null();
      if (!a.is_array() || a.size() != want.size()) return false;
      for (std::size_t i = 0; i < want.size(); ++i) {
        if (!std::isfinite(want[i])) {
          if (!a[i].is_null()) return false;
        } else if (!a[i].is_number()) {
          return false;
        } else if (want[i] == 0) {  // nlohmann_json reads -0 as the integer 0
          if (a[i].get<double>() != 0) return false;
        } else if (!same_bits(a[i].get<double>(), want[i])) {
          return false;
        }
      }
      return true;
    };
    EXPECT_TRUE(same(lines[k].value("position", nlohmann::json()), s.position)) << lines[k];
    EXPECT_TRUE(same(lines[k].value("velocity", nlohmann::json()), s.velocity)) << lines[k];
  }
  // -0 and 0 differ in bits: the cache must not write one for the other.
  EXPECT_NE(text.find(R"("position":[-0,null,null])"), std::string::npos);
  EXPECT_NE(text.find(R"("position":[0,null,null])"), std::string::npos);
}

// The same for CSV: cells of absent joints stay empty and a cell's cached text follows the
// value, read back exactly.
TEST(IoRoundTrip, CsvWriterCacheFollowsValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<io::Message> sent;
  sent.push_back(joint_message(Time{0}, {"a", "b"}, {0.0, 1.0}));
  sent.push_back(joint_message(Time{100'000'000}, {"a", "b"}, {-0.0, 1.0}));
  sent.push_back(joint_message(Time{200'000'000}, {"b"}, {1.0}));
  sent.push_back(joint_message(Time{300'000'000}, {"a", "b"}, {nan, inf}));
  sent.push_back(joint_message(Time{400'000'000}, {"b", "a"}, {-inf, 0.1}));
  sent.push_back(joint_message(Time{500'000'000}, {"a", "b"}, {0.1, 0.1}));
  std::string csv;
  io::WriterOptions o;
  o.format = io::parse_format("csv");
  o.csv_cycle = true;
  {
    io::MessageWriter writer(csv, o);
    std::int64_t cycle = 0;
    for (const auto& s : sent) writer.write(s.joint, cycle++);
  }
  EXPECT_EQ(csv,
            "t,cycle,a.position,b.position\n"
            "0,0,0,1\n"
            "0.1,1,-0,1\n"
            "0.2,2,,1\n"
            "0.3,3,nan,inf\n"
            "0.4,4,0.1,-inf\n"
            "0.5,5,0.1,0.1\n");
}
