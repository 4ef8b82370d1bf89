// Library errors name the option fields of the API, never a command-line flag (docs/design.md,
// "Errors name API fields"): a program embedding rmodel gets errors about the fields it set.
// Each case calls the API with a bad option and reads the message it gets.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "rmodel/stream/aggregator.hpp"
#include "rmodel/stream/dynamics_stream.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/model/model_source.hpp"
#include "rmodel/xacro/xacro.hpp"
#include "test_support.hpp"

namespace {

using rmodel::OptionError;

bool letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// A flag of a command line: "--" and a letter, or a lone "-" and a letter ("-u FILE").
void expect_no_flag(const std::string& text) {
  const auto is = [&](std::size_t i, std::string_view set) {
    return i >= text.size() || set.find(text[i]) != set.npos;
  };
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != '-') continue;
    const bool long_flag = text[i + 1] == '-' && i + 2 < text.size() && letter(text[i + 2]);
    const bool short_flag =
        letter(text[i + 1]) && (i == 0 || is(i - 1, " ([")) && is(i + 2, " ,)]");
    EXPECT_FALSE(long_flag || short_flag) << "a flag at " << i << ": " << text;
  }
}

const char* no_environment(const char*) { return nullptr; }

/// The OptionError `work` throws: its fields and its text, which names the first field.
template <class Work>
void expect_option_error(Work&& work, const std::vector<std::string>& fields) {
  try {
    work();
    ADD_FAILURE() << "no error for " << fields.front();
  } catch (const OptionError& e) {
    EXPECT_EQ(e.fields(), fields);
    EXPECT_NE(std::string(e.what()).find(fields.front()), std::string::npos) << e.what();
    expect_no_flag(e.what());
  }
}

/// The text of the ParseError `work` throws.
template <class Work>
std::string parse_error_text(Work&& work) {
  try {
    work();
  } catch (const rmodel::ParseError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ParseError";
  return {};
}

/// Every error the reader gives for `text` read as `options` (it reads to the end).
std::vector<std::string> read_errors(const std::string& text, const std::string& name,
                                     const rmodel::io::ReaderOptions& options) {
  std::istringstream in(text);
  rmodel::io::MessageReader reader(in, name, options);
  std::vector<std::string> errors;
  rmodel::io::Message m;
  for (rmodel::io::ReadStatus st; (st = reader.next(m)) != rmodel::io::ReadStatus::End;)
    if (st == rmodel::io::ReadStatus::Error) errors.push_back(reader.error().reason);
  return errors;
}

}  // namespace

TEST(OptionErrors, AModelRequestNamingNoModelNamesItsFields) {
  expect_option_error([] { (void)rmodel::resolve_model_source({}, no_environment); },
                      {"ModelRequest::urdf", "ModelRequest::semantics", "ModelRequest::manifest",
                       "ModelRequest::sample"});
  rmodel::ModelRequest stdin_twice;
  stdin_twice.urdf = "-";
  stdin_twice.semantics = "-";
  expect_option_error([&] { (void)rmodel::resolve_model_source(stdin_twice, no_environment); },
                      {"ModelRequest::urdf", "ModelRequest::semantics"});
}

TEST(OptionErrors, AFilterOfTheWrongFamilyNamesTheMethodField) {
  const rmodel::Model model = rmodel::test::pony();
  // The sync aggregator differentiates and integrates (the simple one filters nothing).
  rmodel::AggregatorOptions diff;
  diff.kind = rmodel::AggregatorKind::sync;
  diff.diff_method = "euler";  // an integrator
  expect_option_error([&] { rmodel::Aggregator(model, diff); }, {"AggregatorOptions::diff_method"});
  rmodel::AggregatorOptions quad;
  quad.kind = rmodel::AggregatorKind::sync;
  quad.quad_method = "diff";  // a differentiator
  expect_option_error([&] { rmodel::Aggregator(model, quad); }, {"AggregatorOptions::quad_method"});

  struct Dropping final : rmodel::stream::Sink {
    void joint_state(const rmodel::JointState&, std::optional<std::int64_t>) override {}
    void support_state(const rmodel::SupportState&, std::optional<std::int64_t>) override {}
  } drop;
  rmodel::dynamics::DynamicsStreamOptions torques;
  torques.diff_method = "exponential";  // a smoother
  expect_option_error([&] { rmodel::dynamics::TorqueSink(drop, model, torques); },
                      {"DynamicsStreamOptions::diff_method"});
}

TEST(OptionErrors, XacroNamesItsOptionsForAnArgumentOrAPackage) {
  rmodel::XacroOptions options;
  options.environment = no_environment;
  // The message of a robot with one link named by `name`.
  const auto error_of = [&](const std::string& name) {
    return parse_error_text([&] {
      (void)rmodel::expand_xacro_string(R"~(<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">)~"
                                        "<link name=\"" + name + "\"/></robot>",
                                        "r.urdf.xacro", options);
    });
  };
  const std::string arg = error_of("$(arg side)");
  EXPECT_NE(arg.find("give it a value with XacroOptions::args"), std::string::npos) << arg;
  expect_no_flag(arg);
  const std::string package = error_of("$(find nowhere_description)");
  EXPECT_NE(package.find("XacroOptions::package_paths"), std::string::npos) << package;
  expect_no_flag(package);
}

TEST(OptionErrors, ReaderErrorsNameTheReaderOptions) {
  namespace io = rmodel::io;
  // Joint columns of two topics: the column prefix chooses one.
  const auto topics = read_errors("t,/a/j1/position,/b/j2/position\n0,1,2\n", "pj.csv", {.format = io::parse_format("csv")});
  ASSERT_FALSE(topics.empty());
  EXPECT_NE(topics.front().find("(ReaderOptions::column_prefix)"), std::string::npos) << topics.front();
  expect_no_flag(topics.front());
  // A message without a time while a time window is set.
  io::ReaderOptions window{.format = io::parse_format("jsonl")};
  window.start = io::TimeBound{};
  const auto untimed = read_errors(R"({"name": ["j1"], "position": [1.0]})" "\n", "log.jsonl", window);
  ASSERT_EQ(untimed.size(), 1u);
  EXPECT_NE(untimed.front().find("(ReaderOptions::start, ReaderOptions::end)"), std::string::npos) << untimed.front();
  expect_no_flag(untimed.front());
}

namespace rmodel {
namespace {

std::string_view word_of_test_field(std::string_view field) {
  if (field == "ReaderOptions::topics") return "--topic";
  if (field == "A::b") return "b=";
  return {};
}

TEST(OptionErrors, TopicsOfATextLogAreRefusedNotIgnored) {
  namespace io = rmodel::io;
  // JSON Lines written from a bag keeps each line's topic; none of rmodel's readers reads it,
  // so a topic asked for cannot be honoured: refused, where it used to read every line.
  const std::string lines = R"({"topic": "/arm", "t": 1, "name": ["j1"], "position": [1.0]})" "\n"
                            R"({"topic": "/leg", "t": 2, "name": ["j2"], "position": [2.0]})" "\n";
  for (const char* format : {"jsonl", "csv", "yaml", "json"}) {
    std::istringstream in(lines);
    try {
      io::MessageReader reader(in, "log", {.format = io::parse_format(format), .topics = {"/arm"}});
      ADD_FAILURE() << format << ": no OptionError";
    } catch (const rmodel::OptionError& e) {
      EXPECT_EQ(e.fields(), std::vector<std::string>{"ReaderOptions::topics"});
      EXPECT_NE(std::string(e.what()).find("log: a " + std::string(format) + " log has no topics"), std::string::npos)
          << e.what();
    }
  }
  // Told from the content (standard input): the one error of the whole input, nothing read.
  io::ReaderOptions with_topic;
  with_topic.topics = {"/arm"};
  const auto errors = read_errors(lines, "<stdin>", with_topic);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors.front().find("a jsonl log has no topics to choose from (ReaderOptions::topics"), std::string::npos)
      << errors.front();
  // Without topics, both lines are read.
  EXPECT_TRUE(read_errors(lines, "<stdin>", {}).empty());
}

TEST(RenameFields, WholeQualifiedNamesOnlyAreReplaced) {
  EXPECT_EQ(rename_fields("no field here", word_of_test_field), "no field here");
  EXPECT_EQ(rename_fields("ReaderOptions::topics", word_of_test_field), "--topic");
  EXPECT_EQ(rename_fields("choose (ReaderOptions::topics), or A::b; A::b.", word_of_test_field),
            "choose (--topic), or b=; b=.");
  // A longer name around the same letters is another field, and one not in the table stays.
  EXPECT_EQ(rename_fields("MyReaderOptions::topics ReaderOptions::topics_x Other::field std::string",
                          word_of_test_field),
            "MyReaderOptions::topics ReaderOptions::topics_x Other::field std::string");
  EXPECT_EQ(rename_fields("::, A::, ::b, A::b::c", word_of_test_field), "::, A::, ::b, b=::c");
}

}  // namespace
}  // namespace rmodel
