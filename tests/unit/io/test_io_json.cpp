// Reading JSON messages: JSON Lines, stamps, kinds, bad input as error records, parsers.

#include <dlfcn.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "json_parsers.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/reader.hpp"
#include "test_support.hpp"
#include "rmodel/io/writer.hpp"

namespace io = rmodel::io;
using rmodel::Time;

namespace {

using Item = rmodel::test::ReadItem;

using rmodel::test::read_items;

using io::testing::JsonParser;

io::ReaderOptions jsonl() {
  io::ReaderOptions o;
  o.format = io::parse_format("jsonl");
  return o;
}

// `text` read as JSON Lines with `parser` (tests/json_parsers: the cross-check parsers are
// not in librmodel).
std::vector<Item> read_with(JsonParser parser, const std::string& text) {
  std::istringstream in(text);
  io::MessageReader reader(in, "<test>", jsonl());
  io::testing::use_parser(reader, parser);
  return read_items(reader);
}

std::vector<JsonParser> all_parsers() {
  std::vector<JsonParser> p{JsonParser::Native, JsonParser::Nlohmann};
  if (io::testing::have_simdjson()) {
    p.push_back(JsonParser::SimdjsonOndemand);
    p.push_back(JsonParser::SimdjsonDom);
  }
  return p;
}

using rmodel::test::same_bits;

}  // namespace

TEST(IoJsonLines, ReadsAJointStateLine) {
  auto items = read_items(
      R"({"t": 1.5, "name": ["a", "b"], "position": [1, -2.5e-3], "velocity": [3, 4]})" "\n");
  ASSERT_EQ(items.size(), 1u);
  ASSERT_EQ(items[0].status, io::ReadStatus::Ok);
  const io::Message& m = items[0].message;
  EXPECT_EQ(m.kind, io::MessageKind::Joint);
  EXPECT_TRUE(m.has_stamp);
  EXPECT_EQ(m.joint.stamp, Time{1'500'000'000});
  EXPECT_EQ(m.joint.name, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(m.joint.position, (std::vector<double>{1.0, -2.5e-3}));
  EXPECT_EQ(m.joint.velocity, (std::vector<double>{3.0, 4.0}));
  EXPECT_TRUE(m.joint.effort.empty());
  EXPECT_FALSE(m.cycle.has_value());
  EXPECT_EQ(m.line, 1u);
  EXPECT_EQ(m.item, 0u);
}

TEST(IoJsonLines, EmptyArraysMeanAbsentAndSizesAreCarriedFaithfully) {
  auto items = read_items(R"({"name":["a","b"],"position":[1,2,3],"velocity":[],"effort":[]})");
  ASSERT_EQ(items.size(), 1u);
  ASSERT_EQ(items[0].status, io::ReadStatus::Ok);
  const auto& js = items[0].message.joint;
  EXPECT_EQ(js.position.size(), 3u);
  EXPECT_TRUE(js.velocity.empty());
  auto problem = io::check_sizes(items[0].message);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->field, "position");
  EXPECT_EQ(problem->expected, 2u);
  EXPECT_EQ(problem->got, 3u);
}

TEST(IoJsonLines, StampLayouts) {
  auto items = read_items(
      R"({"header":{"stamp":{"secs":1563014597,"nsecs":503786407},"frame_id":"","seq":6358},"name":[]})" "\n"
      R"({"header":{"stamp":{"sec":12,"nanosec":5}},"name":[]})" "\n"
      R"({"t":7.25,"header":{"stamp":{"secs":1,"nsecs":0}},"name":[]})" "\n"
      R"({"name":[]})" "\n"
      R"({"t":null,"name":[]})" "\n");
  ASSERT_EQ(items.size(), 5u);
  for (const auto& it : items) ASSERT_EQ(it.status, io::ReadStatus::Ok) << it.error.reason;
  // Integer nanoseconds, exactly: sec·10⁹ + nanosec.
  EXPECT_EQ(items[0].message.joint.stamp, Time{1563014597'503786407});
  EXPECT_EQ(items[1].message.joint.stamp, Time{12'000'000'005});
  EXPECT_EQ(items[2].message.joint.stamp, Time{7'250'000'000});  // t wins over the header
  EXPECT_FALSE(items[3].message.has_stamp);
  EXPECT_EQ(items[3].message.joint.stamp, Time{});
  EXPECT_FALSE(items[4].message.has_stamp);  // "t": null is no time
  EXPECT_EQ(items[4].message.joint.stamp, Time{});
}

TEST(IoJsonLines, SupportStatesSyncTicksAndCycles) {
  auto items = read_items(
      R"({"t":2,"name":["leg1","leg2"],"support":[1,0.5],"contact":["hoof","tip"]})" "\n"
      R"({"t":2.5,"name":["leg3"],"support":[0]})" "\n"
      R"({"name":["leg4"],"contact":["edge"]})" "\n"
      R"({"sync":true,"t":3,"cycle":7})" "\n"
      R"({"sync":true})" "\n"
      R"({"cycle":8,"name":["j"],"position":[0.5]})" "\n");
  ASSERT_EQ(items.size(), 6u);
  for (const auto& it : items) ASSERT_EQ(it.status, io::ReadStatus::Ok) << it.error.reason;
  const auto& s0 = items[0].message;
  EXPECT_EQ(s0.kind, io::MessageKind::Support);
  EXPECT_EQ(s0.support.stamp, Time{2'000'000'000});
  EXPECT_EQ(s0.support.name, (std::vector<std::string>{"leg1", "leg2"}));
  EXPECT_EQ(s0.support.support, (std::vector<double>{1.0, 0.5}));
  EXPECT_EQ(s0.support.contact, (std::vector<std::string>{"hoof", "tip"}));
  EXPECT_EQ(items[1].message.kind, io::MessageKind::Support);
  EXPECT_TRUE(items[1].message.support.contact.empty());  // default contact
  EXPECT_EQ(items[2].message.kind, io::MessageKind::Support);
  EXPECT_TRUE(items[2].message.support.support.empty());
  EXPECT_EQ(items[2].message.support.contact, (std::vector<std::string>{"edge"}));
  EXPECT_EQ(items[3].message.kind, io::MessageKind::Sync);
  EXPECT_EQ(items[3].message.sync_stamp, Time{3'000'000'000});
  EXPECT_EQ(items[3].message.stamp(), Time{3'000'000'000});
  EXPECT_EQ(items[3].message.cycle, 7);
  EXPECT_EQ(items[4].message.kind, io::MessageKind::Sync);
  EXPECT_FALSE(items[4].message.has_stamp);
  EXPECT_FALSE(items[4].message.cycle.has_value());
  EXPECT_EQ(items[5].message.kind, io::MessageKind::Joint);
  EXPECT_EQ(items[5].message.cycle, 8);
  EXPECT_EQ(items[5].message.joint.name, (std::vector<std::string>{"j"}));
}

TEST(IoJsonLines, NullInNumberArraysReadsAsNaN) {
  auto items = read_items(R"({"name":["a","b"],"position":[null,1]})");
  ASSERT_EQ(items.size(), 1u);
  ASSERT_EQ(items[0].status, io::ReadStatus::Ok);
  EXPECT_TRUE(std::isnan(items[0].message.joint.position[0]));
  EXPECT_EQ(items[0].message.joint.position[1], 1.0);
}

TEST(IoJsonLines, UnknownKeysAreIgnoredAndEscapesDecoded) {
  auto items = read_items(
      R"({"extra":{"deep":[1,{"x":[true,false,null,"s\"]"]}],"e":-1.5e+3},"name":["a\"b","c\\d","\u00e9","\ud83d\ude00","tab\there"],"position":[1,2,3,4,5],"seq":3})");
  ASSERT_EQ(items.size(), 1u);
  ASSERT_EQ(items[0].status, io::ReadStatus::Ok) << items[0].error.reason;
  EXPECT_EQ(items[0].message.joint.name,
            (std::vector<std::string>{"a\"b", "c\\d", "\xC3\xA9", "\xF0\x9F\x98\x80", "tab\there"}));
}

TEST(IoJsonLines, BadLinesAreErrorRecordsAndGoodLinesStillComeOut) {
  // Each bad line sits between good ones; every error names its own line.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"name":["a"],"position":[1,)", "position"},                   // truncated JSON
      {R"({"name":"a","position":[1]})", "'name': expected an array of strings"},  // wrong type
      {R"({"name":["a"],"position":[true]})", "'position' element 1: expected a number"},
      {R"({"name":["a"],"position":["1.0"]})", "expected a number, got a string"},
      {R"({"position":[1]})", "missing 'name'"},
      {std::string("\x01\xff\xfe garbage \x7f\x80\0", 15), "expected a JSON object"},
      {R"({"t":"1.0","name":["a"]})", "'t': expected a number"},
      {R"({"name":[1],"position":[1]})", "'name' element 1: expected a string"},
      {R"({"name":["a"],"cycle":1.5})", "'cycle': expected an integer"},
      {R"({"name":["a"],"cycle":-1})", "non-negative"},
      {R"({"sync":false})", "'sync' must be true"},
      {R"({"sync":true,"name":["a"]})", "sync tick must not carry"},
      {R"({"name":["leg1"],"support":[1],"position":[1]})", "support state must not carry"},
      {R"({"support":[1]})", "without 'name'"},
      {R"({"name":[]} x)", "unexpected text after the message"},
      {R"({"name":["a"],"position":[1e999]})", "out of the range of double"},
      {R"({"name":["a"],"position":[NaN]})", "'position' element 1: expected a number"},
      {R"({"name":["a"],"position":[01]})", "expected ',' or ']'"},
      {R"({"name":["a],"position":[1]})", "'name': expected ',' or ']'"},  // quote missing
      {R"({"name":["a"],"position":[1] "velocity":[2]})", "expected ',' or '}'"},
      {R"({"name":["a\q"]})", "invalid escape"},
      {R"({"name":["\ud800"]})", "unpaired UTF-16 surrogate"},
      {R"({"header":{"stamp":{"nsecs":5}},"name":[]})", "no seconds"},
      {R"({"header":{"stamp":{"secs":1.5}},"name":[]})", "'header.stamp.secs': expected an integer"},
      {R"({"header":5,"name":[]})", "'header': expected an object"},
      {R"(["a",1])", "expected a JSON object, got an array"},
      {R"(42)", "expected a JSON object, got a number"},
      {R"({"name":["a"],"x":tru})", "invalid literal"},
      {std::string("{\"name\":[\"a\x01\"]}"), "control character"},
      {std::string(200, '[') , "expected a JSON object, got an array"},
      {R"({"x":)" + std::string(100, '[') + std::string(100, ']') + R"(,"name":[]})", "nesting too deep"},
  };
  std::string text;
  for (const auto& [line, reason] : bad) {
    text += R"({"name":["ok"],"position":[1]})" "\n";
    text += line + "\n";
  }
  text += R"({"name":["last"],"position":[2]})" "\n";
  const auto items = read_items(text, jsonl());
  ASSERT_EQ(items.size(), 2 * bad.size() + 1);
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const Item& good = items[2 * i];
    ASSERT_EQ(good.status, io::ReadStatus::Ok) << "line " << 2 * i + 1 << ": " << good.error.reason;
    EXPECT_EQ(good.message.joint.name[0], "ok");
    EXPECT_EQ(good.message.line, 2 * i + 1);
    const Item& err = items[2 * i + 1];
    ASSERT_EQ(err.status, io::ReadStatus::Error) << "case " << i << ": " << bad[i].first;
    EXPECT_EQ(err.error.line, 2 * i + 2) << bad[i].first;
    EXPECT_NE(err.error.reason.find(bad[i].second), std::string::npos)
        << "case " << i << " reason: " << err.error.reason << "\nwanted: " << bad[i].second;
  }
  EXPECT_EQ(items.back().status, io::ReadStatus::Ok);
  EXPECT_EQ(items.back().message.joint.name[0], "last");
}

TEST(IoJsonLines, StringsOfEveryLengthEndAtTheirQuoteAndRejectRawControlCharacters) {
  // The parser scans strings 8 bytes at a time: names of 1 to 24 bytes, plain, with an escaped
  // quote at every position, and with a raw control character (an error) at every position.
  std::string text;
  std::vector<std::string> want;  // per line: the name, or "" for an error
  for (std::size_t len = 1; len <= 24; ++len) {
    const std::string plain(len, 'n');
    text += R"({"name":[")" + plain + R"("],"position":[1]})" "\n";
    want.push_back(plain);
    for (std::size_t pos = 0; pos < len; ++pos) {
      std::string quoted = plain, raw = plain;
      quoted[pos] = '"';
      raw[pos] = '\x1f';
      text += R"({"name":[")" + plain.substr(0, pos) + "\\\"" + plain.substr(pos + 1) + R"("],"position":[1]})" "\n";
      want.push_back(quoted);
      text += R"({"name":[")" + raw + R"("],"position":[1]})" "\n";
      want.emplace_back();
    }
  }
  const auto items = read_items(text, jsonl());
  ASSERT_EQ(items.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i].empty()) {
      ASSERT_EQ(items[i].status, io::ReadStatus::Error) << "line " << i + 1;
      EXPECT_NE(items[i].error.reason.find("control character"), std::string::npos) << items[i].error.reason;
    } else {
      ASSERT_EQ(items[i].status, io::ReadStatus::Ok) << "line " << i + 1 << ": " << items[i].error.reason;
      ASSERT_EQ(items[i].message.joint.name.size(), 1U);
      EXPECT_EQ(items[i].message.joint.name[0], want[i]) << "line " << i + 1;
    }
  }
}

TEST(IoJsonLines, EveryParserRejectsBadMessagesAndReadsGoodOnesAlike) {
  const std::vector<std::string> bad = {
      R"({"name":["a"],"position":[1,)", R"({"name":"a"})", R"({"name":["a"],"position":[true]})",
      R"({"name":["a"],"position":["1.0"]})", R"({"position":[1]})", R"({"t":"1","name":[]})",
      R"({"name":["a"],"cycle":1.5})", R"({"sync":false})", R"({"name":[]} x)", "\x01\xff garbage",
  };
  std::string text;
  for (const auto& b : bad) text += R"({"name":["ok"],"position":[0.1]})" "\n" + b + "\n";
  for (JsonParser parser : all_parsers()) {
    SCOPED_TRACE(static_cast<int>(parser));
    const auto items = read_with(parser, text);
    ASSERT_EQ(items.size(), 2 * bad.size());
    for (std::size_t i = 0; i < bad.size(); ++i) {
      EXPECT_EQ(items[2 * i].status, io::ReadStatus::Ok);
      EXPECT_EQ(items[2 * i].message.joint.position[0], 0.1);
      EXPECT_EQ(items[2 * i + 1].status, io::ReadStatus::Error) << bad[i];
      EXPECT_EQ(items[2 * i + 1].error.line, 2 * i + 2);
    }
  }
}

TEST(IoJsonLines, ParsersAgreeOnRandomMessages) {
  // Messages with random bit patterns, written by the writer, read by every parser: the
  // native parser must agree with nlohmann_json and simdjson to the last bit.
  std::mt19937_64 rng(20240611);
  std::string text;
  for (int k = 0; k < 300; ++k) {
    io::Message m;
    const int kind = static_cast<int>(rng() % 5);
    m.kind = kind == 0 ? io::MessageKind::Support : kind == 1 ? io::MessageKind::Sync
                                                              : io::MessageKind::Joint;
    auto rnd = [&] {
      double d;
      do {
        const std::uint64_t bits = rng();
        std::memcpy(&d, &bits, sizeof d);
      } while (!std::isfinite(d));
      return d;
    };
    m.has_stamp = rng() % 4 != 0;
    m.set_stamp(Time{static_cast<std::int64_t>(rng() % 100'000'000'000)});  // up to 100 s, any nanosecond
    m.has_stamp = rng() % 4 != 0;
    if (rng() % 3 == 0) m.cycle = static_cast<std::int64_t>(rng() % 1000000);
    const int n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      const std::string name = "joint_" + std::to_string(rng() % 100) + (rng() % 5 == 0 ? "_\"\\\n" : "");
      if (m.kind == io::MessageKind::Joint) {
        m.joint.name.push_back(name);
      } else if (m.kind == io::MessageKind::Support) {
        m.support.name.push_back(name);
        m.support.support.push_back(rnd());
      }
    }
    if (m.kind == io::MessageKind::Joint) {
      if (rng() % 2) for (int i = 0; i < n; ++i) m.joint.position.push_back(rnd());
      if (rng() % 2) for (int i = 0; i < n; ++i) m.joint.velocity.push_back(rnd());
      if (rng() % 2) for (int i = 0; i < n; ++i) m.joint.effort.push_back(rnd());
    }
    io::append_json_line(text, m, static_cast<io::StampLayout>(rng() % 3));
  }
  const auto reference = read_with(JsonParser::Nlohmann, text);
  ASSERT_EQ(reference.size(), 300u);
  for (JsonParser parser : all_parsers()) {
    SCOPED_TRACE(static_cast<int>(parser));
    const auto items = read_with(parser, text);
    ASSERT_EQ(items.size(), reference.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      ASSERT_EQ(items[i].status, io::ReadStatus::Ok) << items[i].error.reason;
      const io::Message& a = items[i].message;
      const io::Message& b = reference[i].message;
      ASSERT_EQ(a.kind, b.kind);
      EXPECT_EQ(a.has_stamp, b.has_stamp);
      EXPECT_EQ(a.stamp(), b.stamp());
      EXPECT_EQ(a.cycle, b.cycle);
      if (a.kind == io::MessageKind::Joint) {
        EXPECT_EQ(a.joint, b.joint);
      }
      if (a.kind == io::MessageKind::Support) {
        EXPECT_EQ(a.support, b.support);
      }
    }
  }
}

TEST(IoJsonLines, CrlfBlankLinesAndPartialLastLine) {
  const std::string text = "{\"name\":[\"a\"],\"position\":[1]}\r\n"
                           "\r\n"
                           "   \n"
                           "{\"name\":[\"b\"],\"position\":[2]}\r\n"
                           "{\"name\":[\"c\"],\"position\":[3 x]}\r\n"
                           "{\"name\":[\"d\"],\"position\":[4]}";  // no newline at the end
  const auto items = read_items(text);
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].message.line, 1u);
  EXPECT_EQ(items[1].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[1].message.line, 4u);
  EXPECT_EQ(items[1].message.joint.name[0], "b");
  EXPECT_EQ(items[2].status, io::ReadStatus::Error);
  EXPECT_EQ(items[2].error.line, 5u);
  EXPECT_EQ(items[3].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[3].message.line, 6u);
  EXPECT_EQ(items[3].message.joint.position[0], 4.0);
}

TEST(IoJsonLines, ByteOrderMarkIsSkipped) {
  const auto items = read_items("\xEF\xBB\xBF{\"name\":[\"a\"]}\n");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].status, io::ReadStatus::Ok);
}

TEST(IoJsonLines, HugeLineIsReadWhole) {
  // ~1 MB on one line: 30000 joints with long names, positions and velocities.
  io::Message m;
  for (int i = 0; i < 30000; ++i) {
    m.joint.name.push_back("a_rather_long_joint_name_" + std::to_string(i));
    m.joint.position.push_back(i * 0.001);
    m.joint.velocity.push_back(-i * 1e-7);
  }
  m.joint.stamp = Time{1'250'000'000};
  std::string text = R"({"name":["x"]})" "\n";
  io::append_json_line(text, m);
  text += R"({"name":["y"]})" "\n";
  ASSERT_GT(text.size(), 1000000u);
  const auto items = read_items(text);
  ASSERT_EQ(items.size(), 3u);
  ASSERT_EQ(items[1].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[1].message.joint, m.joint);
  EXPECT_EQ(items[1].message.line, 2u);
  EXPECT_EQ(items[2].message.joint.name[0], "y");
}

TEST(IoJsonLines, LineOverTheLimitIsSkippedAsAnError) {
  io::ReaderOptions o = jsonl();
  o.max_line_bytes = 1000;
  std::string huge = R"({"name":[")" + std::string(5000, 'x') + R"("]})";
  std::string text = R"({"name":["a"]})" "\n" + huge + "\n" R"({"name":["b"]})" "\n" + huge;
  const auto items = read_items(text, o);
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[1].status, io::ReadStatus::Error);
  EXPECT_EQ(items[1].error.line, 2u);
  EXPECT_NE(items[1].error.reason.find("longer than 1000 bytes"), std::string::npos);
  EXPECT_EQ(items[2].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[2].message.joint.name[0], "b");
  EXPECT_EQ(items[2].message.line, 3u);
  EXPECT_EQ(items[3].status, io::ReadStatus::Error);  // the last one, without newline
  EXPECT_EQ(items[3].error.line, 4u);
}

TEST(IoJsonLines, EmptyInputIsOneError) {
  for (const char* text : {"", "\n\n  \r\n"}) {
    for (io::Format f : {io::parse_format("jsonl"), io::parse_format("json"), io::Format{}, io::parse_format("csv")}) {
      io::ReaderOptions o;
      o.format = f;
      const auto items = read_items(text, o);
      ASSERT_EQ(items.size(), 1u);
      EXPECT_EQ(items[0].status, io::ReadStatus::Error);
      EXPECT_EQ(items[0].error.line, 0u);
      EXPECT_NE(items[0].error.reason.find("empty input"), std::string::npos);
    }
  }
}

TEST(IoJsonDocument, PrettyMessageArrayAndConcatenatedValues) {
  const std::string text =
      "\n"
      "[\n"
      "  {\"name\": [\"a\"],\n"
      "   \"position\": [1]},\n"
      "  {\"name\": [\"b\"], \"position\": [\"bad\"]},\n"
      "  5,\n"
      "  {\"name\": [\"c\"],\n"
      "   \"t\": 2}\n"
      "]\n"
      "{\n"
      "  \"name\": [\"d\"],\n"
      "  \"position\": [4]\n"
      "}\n";
  for (io::Format f : {io::parse_format("json"), io::Format{}}) {
    io::ReaderOptions o;
    o.format = f;
    std::istringstream in(text);
    io::MessageReader reader(in, "<t>", o);
    io::Message m;
    ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
    EXPECT_EQ(reader.format().name(), "json");
    EXPECT_EQ(m.joint.name[0], "a");
    EXPECT_EQ(m.line, 3u);
    EXPECT_EQ(m.item, 1u);
    ASSERT_EQ(reader.next(m), io::ReadStatus::Error);
    EXPECT_EQ(reader.error().line, 5u);
    EXPECT_EQ(reader.error().item, 2u);
    ASSERT_EQ(reader.next(m), io::ReadStatus::Error);
    EXPECT_EQ(reader.error().line, 6u);
    EXPECT_EQ(reader.error().item, 3u);
    ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
    EXPECT_EQ(m.joint.name[0], "c");
    EXPECT_EQ(m.joint.stamp, Time{2'000'000'000});
    EXPECT_EQ(m.line, 7u);
    EXPECT_EQ(m.item, 4u);
    ASSERT_EQ(reader.next(m), io::ReadStatus::Ok);
    EXPECT_EQ(m.joint.name[0], "d");
    EXPECT_EQ(m.line, 10u);
    EXPECT_EQ(m.item, 0u);
    EXPECT_EQ(reader.next(m), io::ReadStatus::End);
    EXPECT_EQ(reader.next(m), io::ReadStatus::End);
  }
}

TEST(IoJsonDocument, ErrorLineInsideAPrettyMessage) {
  const std::string text = "{\n  \"name\": [\"a\"],\n  \"position\": [1, true]\n}\n";
  const auto items = read_items(text);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].status, io::ReadStatus::Error);
  EXPECT_EQ(items[0].error.line, 3u);
}

TEST(IoJsonDocument, TruncatedDocumentIsOneError) {
  const auto items = read_items("[\n {\"name\":[\"a\"]},\n {\"name\":[\"b\"]\n");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[1].status, io::ReadStatus::Error);
  EXPECT_EQ(items[1].error.line, 3u);
  EXPECT_NE(items[1].error.reason.find("unterminated"), std::string::npos);
}

TEST(IoJsonDocument, DetectionByContent) {
  struct Case {
    std::string text;
    io::Format requested;
    io::Format resolved;
  };
  const std::vector<Case> cases = {
      {"{\"name\":[\"a\"]}\n{\"name\":[\"b\"]}\n", io::parse_format("json"), io::parse_format("jsonl")},
      {"{\"name\":[\"a\"]}\n", io::Format{}, io::parse_format("jsonl")},
      {"{\n\"name\":[\"a\"]}\n", io::parse_format("json"), io::parse_format("json")},
      {"[{\"name\":[\"a\"]}]", io::Format{}, io::parse_format("json")},
      {"t,a\n1,2\n", io::Format{}, io::parse_format("csv")},
  };
  for (const auto& c : cases) {
    std::istringstream in(c.text);
    io::ReaderOptions o;
    o.format = c.requested;
    io::MessageReader reader(in, "<t>", o);
    EXPECT_EQ(reader.format(), c.requested);
    io::Message m;
    ASSERT_EQ(reader.next(m), io::ReadStatus::Ok) << c.text << reader.error().reason;
    EXPECT_EQ(reader.format(), c.resolved) << c.text;
  }
}

TEST(IoJsonDocument, TrajectoryOnOneJsonLine) {
  const std::string text =
      R"({"name":["x"],"position":[0]})" "\n"
      R"({"joint_names":["j1","support/leg1"],"header":{"stamp":{"sec":10,"nanosec":0}},)"
      R"("points":[{"positions":[1,0.5],"time_from_start":{"sec":1,"nanosec":500000000}},)"
      R"({"positions":[2],"time_from_start":{"sec":2,"nanosec":0}},)"
      R"({"positions":[3,1],"velocities":[0.1,0],"time_from_start":{"sec":3,"nanosec":0}}]})" "\n"
      R"({"name":["y"],"position":[0]})" "\n";
  const auto items = read_items(text, jsonl());
  ASSERT_EQ(items.size(), 7u);
  EXPECT_EQ(items[0].message.joint.name[0], "x");
  ASSERT_EQ(items[1].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[1].message.kind, io::MessageKind::Joint);
  EXPECT_EQ(items[1].message.joint.name, (std::vector<std::string>{"j1"}));
  EXPECT_EQ(items[1].message.joint.position, (std::vector<double>{1.0}));
  EXPECT_EQ(items[1].message.joint.stamp, Time{11'500'000'000});
  EXPECT_EQ(items[1].message.line, 2u);
  EXPECT_EQ(items[1].message.item, 1u);
  EXPECT_EQ(items[2].message.kind, io::MessageKind::Support);
  EXPECT_EQ(items[2].message.support.name, (std::vector<std::string>{"leg1"}));
  EXPECT_EQ(items[2].message.support.support, (std::vector<double>{0.5}));
  EXPECT_EQ(items[2].message.support.stamp, Time{11'500'000'000});
  EXPECT_EQ(items[3].status, io::ReadStatus::Error);  // point 2 has one position for two names
  EXPECT_EQ(items[3].error.line, 2u);
  EXPECT_EQ(items[3].error.item, 2u);
  EXPECT_EQ(items[4].message.joint.velocity, (std::vector<double>{0.1}));
  EXPECT_EQ(items[5].message.support.support, (std::vector<double>{1.0}));
  EXPECT_EQ(items[6].message.joint.name[0], "y");
}

// A header stamp is the same nanoseconds in a trajectory as in a joint state.
TEST(IoJsonDocument, TrajectoryStampsAreConvertedAsJointStateStamps) {
  const std::string text =
      R"({"header":{"stamp":{"sec":0,"nanosec":300000000}},"name":["x"],"position":[0]})" "\n"
      R"({"joint_names":["j1"],"header":{"stamp":{"sec":0,"nanosec":300000000}},)"
      R"("points":[{"positions":[1],"time_from_start":{"sec":0,"nanosec":0}}]})" "\n";
  const auto items = read_items(text, jsonl());
  ASSERT_EQ(items.size(), 2u);
  ASSERT_EQ(items[0].status, io::ReadStatus::Ok);
  ASSERT_EQ(items[1].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[0].message.joint.stamp, Time{300'000'000});
  EXPECT_EQ(items[1].message.joint.stamp, Time{300'000'000});
}

TEST(IoJsonDocument, PrettyTrajectoryPointsAtTheirOwnLines) {
  // A pretty-printed trajectory (and one inside a FollowJointTrajectoryGoal): each point's
  // messages and errors at the line where the point starts, its number as item.
  for (const bool nested : {false, true}) {
    const std::string open = nested ? "{\"trajectory\": {\n" : "{\n";      // line 1
    const std::string close = nested ? "}}\n" : "}\n";
    const std::string text = open +
                             "  \"joint_names\": [\"j1\", \"j2\"],\n"      // 2
                             "  \"header\": {\"stamp\": {\"sec\": 1, \"nanosec\": 0},\n"  // 3
                             "             \"frame_id\": \"points\"},\n"      // 4: a value named like the key
                             "  \"points\": [\n"                             // 5
                             "    {\"positions\": [1, 2], \"time_from_start\": 0},\n"  // 6
                             "    {\n"                                       // 7
                             "      \"positions\": [3, \"x\"],\n"            // 8
                             "      \"time_from_start\": 0.5\n"               // 9
                             "    },\n"                                      // 10
                             "\n"                                            // 11
                             "    {\"positions\": [5, 6],\n"                 // 12
                             "     \"time_from_start\": {\"sec\": 1, \"nanosec\": 0}}\n"  // 13
                             "  ]\n" +                                       // 14
                             close;
    io::ReaderOptions options;
    options.format = io::parse_format("json");
    const auto items = read_items(text, options);
    ASSERT_EQ(items.size(), 3u) << text;
    ASSERT_EQ(items[0].status, io::ReadStatus::Ok);
    EXPECT_EQ(items[0].message.line, 6u);
    EXPECT_EQ(items[0].message.item, 1u);
    ASSERT_EQ(items[1].status, io::ReadStatus::Error);
    EXPECT_EQ(items[1].error.line, 7u);
    EXPECT_EQ(items[1].error.item, 2u);
    ASSERT_EQ(items[2].status, io::ReadStatus::Ok);
    EXPECT_EQ(items[2].message.line, 12u);
    EXPECT_EQ(items[2].message.item, 3u);
    EXPECT_EQ(items[2].message.joint.stamp, Time{2'000'000'000});
  }
}

TEST(IoJsonLines, LocationWordsEveryPlaceAlike) {
  EXPECT_EQ(io::location("f.json", 12, 3), "f.json:12: item 3");
  EXPECT_EQ(io::location("f.json", 12, 0), "f.json:12");
  EXPECT_EQ(io::location("f.json", 0, 0), "f.json");
  // Binary logs number their messages; a damaged record has its byte.
  EXPECT_EQ(io::location("b.mcap", 7, 0, std::nullopt, true), "b.mcap: message 7");
  EXPECT_EQ(io::location("b.bag", 7, 0, 4096), "b.bag: byte 4096: message 7");
  EXPECT_EQ(io::location("b.bag", 7, 2, std::nullopt, true), "b.bag: message 7: item 2");
  EXPECT_EQ(io::location("b.bag", 0, 0, 4096), "b.bag: byte 4096");
  EXPECT_TRUE(io::numbers_messages(io::parse_format("mcap")));
  EXPECT_TRUE(io::numbers_messages(io::parse_format("db3")));
  EXPECT_TRUE(io::numbers_messages(io::parse_format("bag")));
  EXPECT_FALSE(io::numbers_messages(io::parse_format("json")));
  EXPECT_FALSE(io::numbers_messages(io::parse_format("yaml")));
  EXPECT_EQ((io::ReadError{7, 0, "cut", 4096}).to_string("b.bag"), "b.bag: byte 4096: message 7: cut");
}

TEST(IoJsonLines, ReadErrorToString) {
  io::ReadError e{12, 0, "bad"};
  EXPECT_EQ(e.to_string("f.jsonl"), "f.jsonl:12: bad");
  e.item = 3;
  EXPECT_EQ(e.to_string("f.json"), "f.json:12: item 3: bad");
  e.line = 0;
  e.item = 0;
  EXPECT_EQ(e.to_string("f.json"), "f.json: bad");
}

TEST(IoJsonLines, NumbersAreCorrectlyRounded) {
  // Decimal texts of every kind, read through the reader, must give exactly the double of
  // std::from_chars (correct rounding): shortest forms of random doubles, random 1-19 digit
  // mantissas with exponents, long mantissas, and exact midpoints between two doubles (and
  // their neighbours), where a double rounding would go wrong.
  std::mt19937_64 rng(77);
  std::vector<std::string> texts = {"0", "-0", "0.0", "1", "-1", "0.5", "1e0", "1E+2", "1e-2",
                                    "123456789012345678", "1234567890123456789",
                                    "12345678901234567890", "0.000000000000000000000123",
                                    "9007199254740993", "9007199254740992.5", "4.9e-324",
                                    "2.4703282292062328e-324", "1.7976931348623157e308",
                                    "0.1e-400", "1e-400", "-1e-400", "123.456e-5",
                                    "0.30000000000000004", "100000000000000000000000"};
  for (int i = 0; i < 20000; ++i) {
    double d;
    do {
      const std::uint64_t bits = rng();
      std::memcpy(&d, &bits, sizeof d);
    } while (!std::isfinite(d));
    char buf[64];
    texts.emplace_back(buf, std::to_chars(buf, buf + sizeof buf, d).ptr);
    // random mantissa of 1..19 digits, a decimal point somewhere, an exponent
    std::string m = std::to_string(1 + rng() % 9);
    const int len = static_cast<int>(rng() % 19);
    for (int k = 0; k < len; ++k) m += static_cast<char>('0' + rng() % 10);
    const std::size_t dot = rng() % (m.size() + 1);
    if (dot < m.size()) m.insert(dot, dot == 0 ? "0." : ".");
    if (rng() % 2) m += "e" + std::to_string(static_cast<int>(rng() % 70) - 35);
    texts.push_back(m);
    // midpoints of large integer-valued doubles: 19 digits, exactly halfway
    const std::uint64_t big = (std::uint64_t{1} << 54) + (rng() >> 11);
    const double lo = static_cast<double>(big);
    const auto ulo = static_cast<std::uint64_t>(lo);
    const auto uhi = static_cast<std::uint64_t>(std::nextafter(lo, 1e300));
    const std::uint64_t mid = ulo + (uhi - ulo) / 2;
    // half-integers around 2^52..2^53, where doubles are 1 apart: .5 is a midpoint
    const std::uint64_t h = (std::uint64_t{1} << 52) + (rng() >> 12);
    for (const char* frac : {".5", ".25", ".75", ".49", ".51", ".5000000", ".4999"})
      texts.push_back(std::to_string(h) + frac);
    for (std::uint64_t x : {mid - 1, mid, mid + 1}) {
      texts.push_back(std::to_string(x));
      texts.push_back(std::to_string(x / 10) + "." + std::to_string(x % 10) + "e1");
    }
  }
  std::string line = R"({"name":[],"position":[)";
  for (std::size_t i = 0; i < texts.size(); ++i) line += (i ? "," : "") + texts[i];
  line += "]}\n";
  // nlohmann_json reads "-0" as the integer 0 and simdjson DOM refuses integers beyond 64
  // bits and underflows: only the native parser and simdjson On Demand are held to this.
  std::vector<JsonParser> parsers{JsonParser::Native};
  if (io::testing::have_simdjson()) parsers.push_back(JsonParser::SimdjsonOndemand);
  for (JsonParser parser : parsers) {
    SCOPED_TRACE(static_cast<int>(parser));
    const auto items = read_with(parser, line);
    ASSERT_EQ(items.size(), 1u);
    ASSERT_EQ(items[0].status, io::ReadStatus::Ok) << items[0].error.reason;
    const auto& got = items[0].message.joint.position;
    ASSERT_EQ(got.size(), texts.size());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      double want = 0;
      const auto r = std::from_chars(texts[i].data(), texts[i].data() + texts[i].size(), want);
      if (r.ec == std::errc::result_out_of_range) want = texts[i][0] == '-' ? -0.0 : 0.0;
      if (!same_bits(got[i], want) && ++wrong < 10)
        ADD_FAILURE() << texts[i] << ": got " << got[i] << ", want " << want;
    }
    EXPECT_EQ(wrong, 0u);
  }
}

// The cross-checks above compare parsers only if use_parser() really swaps the reader's
// parser: a broken line is reported in each parser's own words, nlohmann_json's being its
// exceptions' documented "[json.exception.parse_error.N] ..." text.
TEST(IoJson, UseParserReplacesTheNativeParser) {
  const std::string text = "{\"name\":[\"a\"],\"position\":[1,}\n";
  const auto native = read_with(JsonParser::Native, text);
  const auto other = read_with(JsonParser::Nlohmann, text);
  ASSERT_EQ(native.size(), 1u);
  ASSERT_EQ(other.size(), 1u);
  ASSERT_EQ(native[0].status, io::ReadStatus::Error);
  ASSERT_EQ(other[0].status, io::ReadStatus::Error);
  EXPECT_EQ(native[0].error.reason.find("json.exception"), std::string::npos) << native[0].error.reason;
  EXPECT_NE(other[0].error.reason.find("[json.exception.parse_error."), std::string::npos) << other[0].error.reason;
  EXPECT_EQ(native[0].error.line, 1u);
  EXPECT_EQ(other[0].error.line, 1u);
}

// A merged reader reads through its inputs' parsers: it has none to replace.
TEST(IoJson, UseParserRefusesAMergedReader) {
  std::istringstream a("{\"name\":[\"a\"]}\n"), b("{\"name\":[\"b\"]}\n");
  std::vector<io::MessageReader> inputs;
  inputs.emplace_back(a, "a", jsonl());
  inputs.emplace_back(b, "b", jsonl());
  auto merged = io::MessageReader::merge(std::move(inputs));
  EXPECT_THROW(io::testing::use_parser(merged, JsonParser::Nlohmann), rmodel::InvalidArgument);
}

// The simdjson and nlohmann_json parsers are test code (tests/json_parsers): the shipped
// library must not need libsimdjson. The loaded librmodel file (found through one of its
// functions) names no such library among the ones it needs (ELF DT_NEEDED strings).
TEST(IoJson, LibraryDoesNotNeedSimdjson) {
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&io::append_double), &info), 0);
  ASSERT_NE(info.dli_fname, nullptr);
  if (std::string_view(info.dli_fname).find("librmodel") == std::string_view::npos)
    GTEST_SKIP() << "the library is linked into " << info.dli_fname
                 << " (static in the sanitizer build): the plain build checks the shared library";
  std::ifstream in(info.dli_fname, std::ios::binary);
  ASSERT_TRUE(in) << info.dli_fname;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_NE(bytes.find("libtinyxml2.so"), std::string::npos) << info.dli_fname << " (not librmodel?)";
  EXPECT_EQ(bytes.find("libsimdjson"), std::string::npos) << info.dli_fname;
}
