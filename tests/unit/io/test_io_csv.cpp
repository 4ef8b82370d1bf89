// Reading wide CSV: columns, partial rows split into uniform messages, bad rows as errors.

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rmodel/io/reader.hpp"
#include "test_support.hpp"

namespace io = rmodel::io;
using rmodel::Time;

namespace {

using Item = rmodel::test::ReadItem;

std::vector<Item> read_csv(const std::string& text) {
  return rmodel::test::read_items(text, {.format = io::parse_format("csv")}, "<csv>");
}

using Names = std::vector<std::string>;
using Values = std::vector<double>;

}  // namespace

TEST(IoCsv, PlainJointColumnsArePositions) {
  const auto items = read_csv("t,a,b\n0.5,1,2\n1.5,3,4\n");
  ASSERT_EQ(items.size(), 2u);
  for (const auto& it : items) ASSERT_EQ(it.status, io::ReadStatus::Ok) << it.error.reason;
  EXPECT_EQ(items[0].message.kind, io::MessageKind::Joint);
  EXPECT_EQ(items[0].message.joint.stamp, Time{500'000'000});
  EXPECT_EQ(items[0].message.joint.name, (Names{"a", "b"}));
  EXPECT_EQ(items[0].message.joint.position, (Values{1, 2}));
  EXPECT_TRUE(items[0].message.joint.velocity.empty());
  EXPECT_EQ(items[0].message.line, 2u);
  EXPECT_EQ(items[1].message.joint.position, (Values{3, 4}));
  EXPECT_EQ(items[1].message.line, 3u);
}

TEST(IoCsv, PartialRowsSplitIntoUniformMessages) {
  const std::string text =
      "time,j1.position,j1.velocity,j2.position,j2.velocity,j3.effort,j2.effort\n"
      "1,10,11,20,21,,\n"        // j1, j2: position+velocity → one message
      "2,10,11,20,,,\n"          // j1 pos+vel, then j2 pos
      "3,,11,20,,5,\n"           // j1 vel, j2 pos, j3 effort: three messages
      "4,,,,,,\n"                // nothing but time: no message
      "5,1,,2,,3,4\n";           // j1 pos; j2 pos+effort; j3 effort
  const auto items = read_csv(text);
  ASSERT_EQ(items.size(), 1u + 2u + 3u + 3u);
  for (const auto& it : items) ASSERT_EQ(it.status, io::ReadStatus::Ok) << it.error.reason;
  auto js = [&](std::size_t i) -> const rmodel::JointState& { return items[i].message.joint; };
  EXPECT_EQ(js(0).name, (Names{"j1", "j2"}));
  EXPECT_EQ(js(0).position, (Values{10, 20}));
  EXPECT_EQ(js(0).velocity, (Values{11, 21}));
  EXPECT_TRUE(js(0).effort.empty());

  EXPECT_EQ(js(1).name, (Names{"j1"}));
  EXPECT_EQ(js(1).velocity, (Values{11}));
  EXPECT_EQ(js(2).name, (Names{"j2"}));
  EXPECT_EQ(js(2).position, (Values{20}));
  EXPECT_TRUE(js(2).velocity.empty());
  EXPECT_EQ(js(2).stamp, Time{2'000'000'000});
  EXPECT_EQ(items[2].message.line, 3u);

  EXPECT_EQ(js(3).name, (Names{"j1"}));
  EXPECT_TRUE(js(3).position.empty());
  EXPECT_EQ(js(3).velocity, (Values{11}));
  EXPECT_EQ(js(4).name, (Names{"j2"}));
  EXPECT_EQ(js(5).name, (Names{"j3"}));
  EXPECT_EQ(js(5).effort, (Values{5}));
  EXPECT_TRUE(js(5).position.empty());

  EXPECT_EQ(js(6).name, (Names{"j1"}));
  EXPECT_EQ(js(7).name, (Names{"j2"}));
  EXPECT_EQ(js(7).position, (Values{2}));
  EXPECT_EQ(js(7).effort, (Values{4}));
  EXPECT_EQ(js(8).name, (Names{"j3"}));
  EXPECT_EQ(js(8).effort, (Values{3}));
  EXPECT_EQ(items[8].message.line, 6u);
}

TEST(IoCsv, SupportCycleAndNoTimeColumns) {
  const auto items = read_csv("cycle,a,support/leg1,support/leg2\n3,1,1,0.5\n4,,,0\n5,2,,\n");
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].message.kind, io::MessageKind::Joint);
  EXPECT_FALSE(items[0].message.has_stamp);
  EXPECT_EQ(items[0].message.cycle, 3);
  EXPECT_EQ(items[1].message.kind, io::MessageKind::Support);
  EXPECT_EQ(items[1].message.support.name, (Names{"leg1", "leg2"}));
  EXPECT_EQ(items[1].message.support.support, (Values{1, 0.5}));
  EXPECT_TRUE(items[1].message.support.contact.empty());
  EXPECT_EQ(items[1].message.cycle, 3);
  EXPECT_EQ(items[2].message.kind, io::MessageKind::Support);
  EXPECT_EQ(items[2].message.support.name, (Names{"leg2"}));
  EXPECT_EQ(items[2].message.cycle, 4);
  EXPECT_EQ(items[3].message.joint.position, (Values{2}));
}

TEST(IoCsv, NumbersBlanksQuotesAndNonFinite) {
  const auto items = read_csv(
      " t , \"a\" ,\"b,c\", \"d\"\"q\"\n"
      " 1e-3 , +2 , -0 , nan\n"
      "2,inf,-INF,Infinity\n");
  ASSERT_EQ(items.size(), 2u);
  for (const auto& it : items) ASSERT_EQ(it.status, io::ReadStatus::Ok) << it.error.reason;
  EXPECT_EQ(items[0].message.joint.name, (Names{"a", "b,c", "d\"q"}));
  EXPECT_EQ(items[0].message.joint.stamp, Time{1'000'000});  // " 1e-3 ": exponent, blanks trimmed
  EXPECT_EQ(items[0].message.joint.position[0], 2.0);
  EXPECT_TRUE(std::signbit(items[0].message.joint.position[1]));
  EXPECT_TRUE(std::isnan(items[0].message.joint.position[2]));
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(items[1].message.joint.position, (Values{inf, -inf, inf}));
}

TEST(IoCsv, BadRowsAreErrorRecordsWithTheirLines) {
  const std::string text =
      "t,a,b\n"         // 1
      "1,1,1\n"         // 2 ok
      "2,1\n"           // 3 too few cells
      "3,1,1,1\n"       // 4 too many
      "4,x,1\n"         // 5 bad number
      "5,1.2.3,1\n"     // 6 bad number
      "6,1e999,1\n"     // 7 out of range
      "7,\"1,1\n"       // 8 unterminated quote
      "\n"              // 9 blank: skipped
      "8,1,0x10\n"      // 10 bad number
      "9,2,2\r\n"       // 11 ok (CRLF)
      "10,3,3";         // 12 ok, no final newline
  const auto items = read_csv(text);
  ASSERT_EQ(items.size(), 10u);
  const std::vector<std::pair<std::size_t, std::string>> errors = {
      {3, "expected 3 cells as in the header, got 2"},
      {4, "got 4"},
      {5, "column 2: bad number 'x'"},
      {6, "bad number '1.2.3'"},
      {7, "out of the range of double"},
      {8, "unterminated quoted cell"},
      {10, "column 3: bad number '0x10'"},
  };
  EXPECT_EQ(items[0].status, io::ReadStatus::Ok);
  for (std::size_t i = 0; i < errors.size(); ++i) {
    const Item& it = items[1 + i];
    ASSERT_EQ(it.status, io::ReadStatus::Error) << i;
    EXPECT_EQ(it.error.line, errors[i].first);
    EXPECT_NE(it.error.reason.find(errors[i].second), std::string::npos) << it.error.reason;
  }
  EXPECT_EQ(items[8].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[8].message.line, 11u);
  EXPECT_EQ(items[8].message.joint.position, (Values{2, 2}));
  EXPECT_EQ(items[9].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[9].message.line, 12u);
  EXPECT_EQ(items[9].message.joint.position, (Values{3, 3}));
}

TEST(IoCsv, BadHeaderColumnsAreReportedAndIgnored) {
  const auto items = read_csv(
      "t,a.position,a.speed,b,,a.position,time,support/,c.velocity\n"
      "1,1,99,2,7,8,9,1,3\n");
  ASSERT_EQ(items.size(), 3u);
  ASSERT_EQ(items[0].status, io::ReadStatus::Error);
  EXPECT_EQ(items[0].error.line, 1u);
  const std::string& why = items[0].error.reason;
  EXPECT_NE(why.find("column 3 'a.speed': unknown column suffix '.speed'"), std::string::npos) << why;
  EXPECT_NE(why.find("column 5 '': empty column name"), std::string::npos) << why;
  EXPECT_NE(why.find("column 6 'a.position': duplicate column"), std::string::npos) << why;
  EXPECT_NE(why.find("column 7 'time': second time column"), std::string::npos) << why;
  EXPECT_NE(why.find("column 8 'support/'"), std::string::npos) << why;
  // The rest of the table is read.
  ASSERT_EQ(items[1].status, io::ReadStatus::Ok);
  EXPECT_EQ(items[1].message.joint.name, (Names{"a", "b"}));
  EXPECT_EQ(items[1].message.joint.position, (Values{1, 2}));
  EXPECT_EQ(items[1].message.joint.stamp, Time{1'000'000'000});
  EXPECT_EQ(items[2].message.joint.name, (Names{"c"}));
  EXPECT_EQ(items[2].message.joint.velocity, (Values{3}));
}

TEST(IoCsv, HeaderOnlyIsNotAnError) {
  EXPECT_TRUE(read_csv("t,a,b\n").empty());
  EXPECT_TRUE(read_csv("t,a,b").empty());
}
