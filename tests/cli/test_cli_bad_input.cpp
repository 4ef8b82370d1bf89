// The bad-input suite: for every reader and every command that uses it, broken inputs
// (truncated, wrong types, NaN/Inf, huge numbers, empty names, duplicate keys, binary
// garbage, missing files, directories, unreadable files) each end with exit code 1 or 2,
// never a signal, and a message naming the file and the place. For streams, every valid
// message around the broken one is still written.
//
// `check` and `check-log` are validators: their report (stdout) is where the problem is
// named; every other command names it on stderr.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <random>
#include <string_view>

#include "test_support.hpp"
#include "text_scan.hpp"

namespace rmodel {
namespace {

using test::read_file;
using test::run_rmodel;
using test::sample;

/// Where the message must point: a given line, some line, or just the file.
constexpr int kAnyLine = -1;
constexpr int kFileOnly = -2;

int line_of(const std::string& text, const std::string& marker) {
  const auto at = text.find(marker);
  EXPECT_NE(at, std::string::npos) << "marker '" << marker << "' not in the test input";
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

std::string replace_first(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' not in the test input";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string garbage(std::size_t size, unsigned seed) {
  std::mt19937 random(seed);
  std::string bytes(size, '\0');
  for (auto& b : bytes) b = static_cast<char>(random() & 0xFF);
  return bytes;
}

/// One broken input: its text and where the error must be reported.
struct BrokenInput {
  std::string name;
  std::string text;
  int line = kAnyLine;
  /// A rule of the model rather than of the file's syntax (commands that do not build a
  /// model, such as convert, accept it).
  bool model_rule = false;
};

void PrintTo(const BrokenInput& input, std::ostream* os) { *os << input.name; }

/// Whether `err` has, on one line, the warning "rmodel: warning: FILE:LINE: ...is not a link of
/// the URDF: the chain is skipped [unknown-link]"; LINE is `line`, or any number when negative
/// (kAnyLine).
bool warns_of_missing_link(const std::string& err, const std::string& file, int line) {
  const std::string head = "rmodel: warning: " + file + ":";
  const std::string line_number = std::to_string(line);
  for (auto at = err.find(head); at != std::string::npos; at = err.find(head, at + 1)) {
    std::string_view rest = std::string_view(err).substr(at + head.size());
    std::size_t digits = test::leading_digits(rest);
    if (line >= 0) digits = rest.starts_with(line_number) ? line_number.size() : 0;
    if (digits == 0 || !rest.substr(digits).starts_with(": ")) continue;
    rest.remove_prefix(digits + 2);
    rest = rest.substr(0, rest.find_first_of("\n\r"));  // up to the line's end: '\n' or '\r'
    if (rest.find("is not a link of the URDF: the chain is skipped [unknown-link]") != std::string_view::npos)
      return true;
  }
  return false;
}

/// Asserts the outcome of one run: exit 1 or 2 and the file and place named.
void expect_clean_failure(const test::RunResult& r, const std::vector<std::string>& args, const std::string& path,
                          int line) {
  const std::string where = args.front() == "check" || args.front() == "check-log" ? r.out + r.err : r.err;
  std::string command;
  for (const auto& a : args) command += a + " ";
  SCOPED_TRACE("rmodel " + command);
  EXPECT_TRUE(r.exit_code == 1 || r.exit_code == 2) << "exit " << r.exit_code << "\nstderr: " << r.err;
  if (line >= 0) {
    EXPECT_NE(where.find(path + ":" + std::to_string(line) + ":"), std::string::npos) << where;
  } else if (line == kAnyLine) {
    EXPECT_TRUE(test::find_number_between(where, path + ":", ":")) << where;
  } else {
    EXPECT_NE(where.find(path), std::string::npos) << where;
  }
}

class BadInputTest : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-bad-"); }
  void TearDown() override {
    std::filesystem::permissions(dir_, std::filesystem::perms::owner_all, std::filesystem::perm_options::add);
    std::filesystem::remove_all(dir_);
  }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  std::filesystem::path dir_;
  const std::string urdf_ = sample("pony.urdf").string();
  const std::string semantics_ = sample("pony.json").string();
};

// ---- models: URDF and semantics in every command that loads a model ----

/// Every command that loads a model, with `--urdf U --semantics S` appended (diff takes
/// both models as positionals; the broken one is OLD).
std::vector<std::vector<std::string>> model_commands(const std::string& log) {
  return {{"check"},
          {"info"},
          {"tree"},
          {"joints"},
          {"chains"},
          {"groups"},
          {"contacts"},
          {"index", "head_yaw"},
          {"poses"},
          {"fk"},
          {"jacobian", "--chain", "head"},
          {"check-log", log},
          {"aggregate", log},
          {"diff"}};
}

/// Under the sanitizers (tests/CMakeLists.txt defines RMODEL_TEST_SANITIZED) a broken model goes
/// through the commands that take different paths after loading it (the whole check, a plain
/// load, a stream, two models): every other command fails in the same load, which the plain
/// build checks command by command.
#ifdef RMODEL_TEST_SANITIZED
constexpr bool kSanitizedRun = true;
#else
constexpr bool kSanitizedRun = false;
#endif

void run_model_commands(const std::string& urdf, const std::string& semantics, const std::string& log,
                        const std::string& broken_path, int line) {
  for (auto args : model_commands(log)) {
    if (kSanitizedRun && args.front() != "check" && args.front() != "info" && args.front() != "aggregate" &&
        args.front() != "diff")
      continue;
    if (args.front() == "diff") {
      const std::string manifest = (std::filesystem::path(log).parent_path() / "old.model.json").string();
      std::ofstream(manifest) << "{\"urdf\": \"" << urdf << "\", \"semantics\": \"" << semantics << "\"}";
      args.insert(args.end(), {manifest, sample("model.json").string()});
    } else {
      args.insert(args.end(), {"--urdf", urdf, "--semantics", semantics});
    }
    expect_clean_failure(run_rmodel(args), args, broken_path, line);
  }
}

std::vector<BrokenInput> broken_urdfs() {
  const std::string pony = read_file(sample("pony.urdf"));
  const std::string head = "<joint name=\"head_yaw\" type=\"revolute\">";
  std::vector<BrokenInput> cases = {
      {"empty", "", kFileOnly},
      {"blank", "  \n\n  \n", kFileOnly},
      {"truncated", pony.substr(0, pony.size() / 2), kAnyLine},
      {"binary_garbage", garbage(4096, 1), kAnyLine},
      {"nul_bytes", std::string("<robot name=\"r\">\0\0\0</robot>", 27), kAnyLine},
      {"not_xml", "this is not a robot\n", 1},
      {"wrong_root", "<?xml version=\"1.0\"?>\n<rob name=\"r\"><link name=\"a\"/></rob>\n", 2},
      {"no_links", "<robot name=\"r\">\n</robot>\n", 1},
      {"link_without_name", replace_first(pony, "<link name=\"neck\">", "<link>"), line_of(pony, "<link name=\"neck\">")},
      {"empty_link_name", replace_first(pony, "<link name=\"neck\">", "<link name=\"\">"), line_of(pony, "<link name=\"neck\">")},
      {"duplicate_link", replace_first(pony, "<link name=\"head\">", "<link name=\"neck\">"),
       line_of(pony, "<link name=\"head\">")},
      {"duplicate_joint", replace_first(pony, head, "<joint name=\"neck_pitch\" type=\"revolute\">"), line_of(pony, head)},
      {"empty_joint_name", replace_first(pony, head, "<joint name=\"\" type=\"revolute\">"), line_of(pony, head)},
      {"unknown_joint_type", replace_first(pony, head, "<joint name=\"head_yaw\" type=\"hinge\">"), line_of(pony, head)},
  };
  // Attribute values of the head_yaw joint, broken one at a time.
  const auto joint_at = pony.find(head);
  const auto joint_end = pony.find("</joint>", joint_at);
  const std::string joint = pony.substr(joint_at, joint_end - joint_at);
  auto in_joint = [&](const std::string& name, const std::string& from, const std::string& to) {
    std::string broken = pony;
    broken.replace(joint_at, joint.size(), replace_first(joint, from, to));
    cases.push_back({name, broken, kAnyLine});  // the joint's or the element's line
  };
  const auto origin_at = joint.find("xyz=\"") + 5;
  const std::string xyz = joint.substr(origin_at, joint.find('"', origin_at) - origin_at);
  in_joint("origin_nan", "xyz=\"" + xyz, "xyz=\"nan 0 0");
  in_joint("origin_inf", "xyz=\"" + xyz, "xyz=\"inf 0 0");
  in_joint("origin_huge", "xyz=\"" + xyz, "xyz=\"1e999 0 0");
  in_joint("origin_words", "xyz=\"" + xyz, "xyz=\"a b c");
  in_joint("origin_two_numbers", "xyz=\"" + xyz, "xyz=\"1 2");
  in_joint("axis_zero", "<axis xyz=\"", "<axis xyz=\"0 0 0\" was=\"");
  in_joint("limits_reversed", "lower=\"", "lower=\"5\" was=\"");
  in_joint("limit_nan", "upper=\"", "upper=\"nan\" was=\"");
  in_joint("velocity_negative", "velocity=\"", "velocity=\"-1\" was=\"");
  in_joint("unknown_parent", "<parent link=\"", "<parent link=\"nope\" was=\"");
  in_joint("unknown_child", "<child link=\"", "<child link=\"nope\" was=\"");
  in_joint("self_parent", "<child link=\"head\"/>", "<child link=\"neck\"/>");
  in_joint("no_limit", "<limit ", "<nolimit ");
  cases.push_back({"negative_mass", replace_first(pony, "<mass value=\"", "<mass value=\"-1\" was=\""), kAnyLine});
  cases.push_back({"mass_words", replace_first(pony, "<mass value=\"", "<mass value=\"heavy\" was=\""), kAnyLine});
  cases.push_back({"duplicate_attribute", replace_first(pony, "<link name=\"neck\">", "<link name=\"neck\" name=\"x\">"),
                   line_of(pony, "<link name=\"neck\">")});
  cases.push_back({"mismatched_tag", replace_first(pony, "</link>", "</lnk>"), kAnyLine});
  cases.push_back({"unclosed_comment", replace_first(pony, "<link name=\"neck\">", "<!-- <link name=\"neck\">"),
                   kAnyLine});
  cases.push_back({"kinematic_ring",
                   "<robot name=\"ring\">\n<link name=\"a\"/><link name=\"b\"/>\n"
                   "<joint name=\"ab\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
                   "<joint name=\"ba\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint>\n</robot>\n",
                   kAnyLine});
  cases.push_back({"two_parents",
                   "<robot name=\"r\">\n<link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n"
                   "<joint name=\"ab\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
                   "<joint name=\"cb\" type=\"fixed\"><parent link=\"c\"/><child link=\"b\"/></joint>\n</robot>\n",
                   4});
  cases.push_back({"two_roots", replace_first(pony, "<link name=\"neck\">", "<link name=\"island\"/>\n<link name=\"neck\">"),
                   kAnyLine});
  cases.push_back({"deep_xml_nesting", "<robot name=\"r\">\n" + std::string(20000, '<') + "\n</robot>\n", kAnyLine});
  return cases;
}

class BrokenUrdf : public BadInputTest, public ::testing::WithParamInterface<BrokenInput> {};

TEST_P(BrokenUrdf, EveryModelCommandFailsCleanlyNamingThePlace) {
  const auto& input = GetParam();
  const std::string urdf = write("robot.urdf", input.text);
  const std::string log = write("log.jsonl", "{\"t\":0,\"name\":[\"head_yaw\"],\"position\":[0.1]}\n");
  run_model_commands(urdf, semantics_, log, urdf, input.line);
}

INSTANTIATE_TEST_SUITE_P(Urdf, BrokenUrdf, ::testing::ValuesIn(broken_urdfs()),
                         [](const auto& info) { return info.param.name; });

std::vector<BrokenInput> broken_json_semantics() {
  const std::string pony = read_file(sample("pony.json"));
  const std::string head_chain = "\"name\": \"head\"";
  return {
      {"empty", "", kFileOnly},
      {"truncated", pony.substr(0, pony.size() / 2), kAnyLine},
      {"binary_garbage", garbage(2048, 2), kAnyLine},
      {"top_level_array", "[]\n", 1},
      {"chains_not_array", "{\n  \"chains\": 5\n}\n", kAnyLine},
      {"duplicate_top_level_key", replace_first(pony, "\"groups\"", "\"chains\": [],\n  \"groups\""), kAnyLine},
      {"duplicate_key_in_chain", replace_first(pony, head_chain, head_chain + ", \"name\": \"head2\""),
       line_of(pony, head_chain)},
      // Without a name the chain cannot be located: its section ("chains") is named.
      {"empty_chain_name", replace_first(pony, head_chain, "\"name\": \"\""), line_of(pony, "\"chains\"")},
      {"nan_literal", replace_first(pony, "\"chains\"", "\"x\": NaN, \"chains\""), kAnyLine},
      {"huge_number", "{\n  \"rmodel_semantics\": 1,\n  \"contacts\": [{\"name\": \"c\", \"points\": [[1e999, 0, 0]]}]\n}\n",
       kAnyLine},
      {"point_of_two", "{\n  \"rmodel_semantics\": 1,\n  \"contacts\": [{\"name\": \"c\", \"points\": [[1, 0]]}]\n}\n", 3},
      {"wrong_version", "{\n  \"rmodel_semantics\": 99\n}\n", kAnyLine},
      {"name_not_string", replace_first(pony, head_chain, "\"name\": 7"), line_of(pony, "\"chains\"")},
  };
}

std::vector<BrokenInput> broken_cpf_semantics() {
  const std::string pony = read_file(sample("pony.cpf"));
  const std::string head = "<struct name=\"head\"";
  return {
      {"empty", "", kFileOnly},
      {"truncated", pony.substr(0, pony.size() / 2), kAnyLine},
      {"binary_garbage", garbage(2048, 3), kAnyLine},
      {"wrong_root", "<?xml version=\"1.0\"?>\n<nothing/>\n", kAnyLine},
      {"duplicate_chain", replace_first(pony, head, "<struct name=\"neck\""), kAnyLine, true},
      {"empty_chain_name", replace_first(pony, head, "<struct name=\"\""), kAnyLine},
      {"mismatched_tag", replace_first(pony, "</struct>", "</strct>"), kAnyLine},
      {"point_words", replace_first(pony, "<value>0.02</value>", "<value>two</value>"), line_of(pony, "<value>0.02</value>")},
      {"point_nan", replace_first(pony, "<value>0.02</value>", "<value>nan</value>"), line_of(pony, "<value>0.02</value>")},
      {"point_huge", replace_first(pony, "<value>0.02</value>", "<value>1e999</value>"), line_of(pony, "<value>0.02</value>")},
      {"struct_without_name", replace_first(pony, head, "<struct"), kAnyLine},
      {"simple_without_value", replace_first(pony, "<simple name=\"first_link\" type=\"string\"><value>base_link</value>",
                                             "<simple name=\"first_link\" type=\"string\">"),
       kAnyLine},
      {"nul_byte", replace_first(pony, "<value>base_link</value>", std::string("<value>base\0link</value>", 24)),
       line_of(pony, "<value>base_link</value>")},
      {"invalid_utf8", replace_first(pony, "<value>base_link</value>", "<value>base\xC3\x28link</value>"),
       line_of(pony, "<value>base_link</value>")},
  };
}

std::vector<BrokenInput> broken_srdf_semantics() {
  const std::string good =
      "<?xml version=\"1.0\"?>\n<robot name=\"pony\">\n"
      "  <group name=\"head\"><chain base_link=\"base_link\" tip_link=\"head\"/></group>\n"
      "  <group_state name=\"rest\" group=\"head\"><joint name=\"head_yaw\" value=\"0.1\"/></group_state>\n"
      "</robot>\n";
  return {
      {"empty", "", kFileOnly},
      {"truncated", good.substr(0, good.size() / 2), kAnyLine},
      {"binary_garbage", "<robot name=\"pony\">" + garbage(512, 4), kAnyLine},
      {"pose_value_words", replace_first(good, "value=\"0.1\"", "value=\"high\""), 4},
      {"pose_value_nan", replace_first(good, "value=\"0.1\"", "value=\"nan\""), 4},
      {"empty_group_name", replace_first(good, "<group name=\"head\">", "<group name=\"\">"), 3},
      {"pose_value_huge", replace_first(good, "value=\"0.1\"", "value=\"1e999\""), 4},
      {"pose_without_value", replace_first(good, " value=\"0.1\"", ""), 4},
      {"wrong_root", "<?xml version=\"1.0\"?>\n<robt name=\"pony\"/>\n", 2},
      {"invalid_utf8", replace_first(good, "name=\"rest\"", "name=\"r\xE9st\""), 4},
  };
}

class BrokenSemantics : public BadInputTest,
                        public ::testing::WithParamInterface<std::pair<std::string, BrokenInput>> {};

TEST_P(BrokenSemantics, EveryModelCommandAndConvertFailCleanlyNamingThePlace) {
  const auto& [extension, input] = GetParam();
  const std::string semantics = write("robot." + extension, input.text);
  const std::string log = write("log.jsonl", "{\"t\":0,\"name\":[\"head_yaw\"],\"position\":[0.1]}\n");
  run_model_commands(urdf_, semantics, log, semantics, input.line);
  if (!input.model_rule) {
    const std::vector<std::string> convert = {"convert", semantics, "--to", "json"};
    expect_clean_failure(run_rmodel(convert), convert, semantics, input.line);
  }
}

std::vector<std::pair<std::string, BrokenInput>> all_broken_semantics() {
  std::vector<std::pair<std::string, BrokenInput>> all;
  for (auto& c : broken_json_semantics()) all.emplace_back("json", c);
  for (auto& c : broken_cpf_semantics()) all.emplace_back("cpf", c);
  for (auto& c : broken_srdf_semantics()) all.emplace_back("srdf", c);
  return all;
}

INSTANTIATE_TEST_SUITE_P(Semantics, BrokenSemantics, ::testing::ValuesIn(all_broken_semantics()),
                         [](const auto& info) { return info.param.first + "_" + info.param.second.name; });

// A chain to a link the URDF lacks: srdfdom skips the chain and MoveIt starts, so every
// command loads the model without it and says so on stderr with file and line; `check`
// counts the mistake as an error (exit 1).
TEST_F(BadInputTest, ChainToAMissingLinkIsSkippedWithAWarningAndFailsCheck) {
  const std::string srdf =
      "<?xml version=\"1.0\"?>\n<robot name=\"pony\">\n"
      "  <group name=\"head\"><chain base_link=\"base_link\" tip_link=\"nope\"/></group>\n"
      "  <group name=\"tail\"><joint name=\"tail_swing\"/></group>\n"
      "</robot>\n";
  const std::vector<std::pair<std::string, int>> cases = {
      {write("robot.srdf", srdf), 3},
      {write("robot.json", replace_first(read_file(sample("pony.json")), "\"last_link\": \"front_left_hoof\"",
                                         "\"last_link\": \"nope\"")),
       kAnyLine},
      {write("robot.cpf", replace_first(read_file(sample("pony.cpf")), "<value>front_left_hoof</value>",
                                        "<value>nope</value>")),
       kAnyLine},
  };
  const std::string log = write("log.jsonl", "{\"t\":0,\"name\":[\"tail_swing\"],\"position\":[0.1]}\n");
  for (const auto& [semantics, line] : cases) {
    SCOPED_TRACE(semantics);
    for (auto args : std::vector<std::vector<std::string>>{{"joints"}, {"chains"}, {"fk"}, {"aggregate", log}}) {
      args.insert(args.end(), {"--urdf", urdf_, "--semantics", semantics});
      const auto r = run_rmodel(args);
      EXPECT_EQ(r.exit_code, 0) << args.front() << ": " << r.err;
      EXPECT_TRUE(warns_of_missing_link(r.err, semantics, line)) << args.front() << ": " << r.err;
    }
    const std::vector<std::string> check = {"check", "--urdf", urdf_, "--semantics", semantics};
    expect_clean_failure(run_rmodel(check), check, semantics, line);
  }
}

// ---- files that cannot be read: every command that reads a file ----

/// Every command with a file argument, the file being `path`.
std::vector<std::vector<std::string>> commands_reading(const std::string& path, const std::string& urdf,
                                                       const std::string& semantics) {
  return {{"check", "--urdf", path},
          {"info", "--urdf", path},
          {"joints", "--urdf", urdf, "--semantics", path},
          {"tree", "--model", path},
          {"convert", path},
          {"diff", path, urdf},
          {"fk", "--urdf", urdf, "--semantics", semantics, "--pose-file", path},
          {"fk", "--urdf", urdf, "--semantics", semantics, "--log", path},
          {"aggregate", "--urdf", urdf, "--semantics", semantics, path},
          {"filter", "exponential", path},
          {"check-log", "--urdf", urdf, "--semantics", semantics, path},
          {"log-info", path},
          {"splice", path, path},
          {"dynamics", "--urdf", urdf, "--semantics", semantics, "--log", path},
          {"xacro", path}};
}

TEST_F(BadInputTest, MissingFilesDirectoriesAndUnreadableFilesAreNamed) {
  const std::string missing = (dir_ / "missing.urdf").string();
  const std::string directory = (dir_ / "adir.json").string();
  std::filesystem::create_directory(directory);
  std::vector<std::string> paths = {missing, directory};
  const std::string unreadable = write("secret.json", "{}\n");
  ::chmod(unreadable.c_str(), 0);
  if (::geteuid() != 0) paths.push_back(unreadable);  // root reads anything
  for (const auto& path : paths)
    for (const auto& args : commands_reading(path, urdf_, semantics_)) {
      const auto r = run_rmodel(args);
      SCOPED_TRACE(path);
      expect_clean_failure(r, args, path, kFileOnly);
      EXPECT_EQ(r.exit_code, 2) << "an unreadable input is a usage error";
      // One wording for the commonest failure, whichever command reads the file.
      if (path == missing) {
        EXPECT_NE(r.err.find(missing + ": no such file"), std::string::npos) << r.err;
      }
    }
  if (::geteuid() == 0) GTEST_LOG_(INFO) << "running as root: the unreadable-file case cannot be made, skipped";
}

// ---- streams: a broken message between valid ones ----

struct BrokenLine {
  std::string name;
  std::string line;
};
void PrintTo(const BrokenLine& b, std::ostream* os) { *os << b.name; }

std::vector<BrokenLine> broken_json_lines() {
  return {
      {"truncated", R"({"t":0.1,"name":["head_yaw"],"position":[0.)"},
      {"position_string", R"({"t":0.1,"name":["head_yaw"],"position":["x"]})"},
      {"name_not_array", R"({"t":0.1,"name":"head_yaw","position":[0.1]})"},
      {"name_number", R"({"t":0.1,"name":[7],"position":[0.1]})"},
      {"nan_literal", R"({"t":0.1,"name":["head_yaw"],"position":[NaN]})"},
      {"infinity_literal", R"({"t":0.1,"name":["head_yaw"],"position":[Infinity]})"},
      {"huge_number", R"({"t":0.1,"name":["head_yaw"],"position":[1e999]})"},
      {"huge_stamp", R"({"t":1e400,"name":["head_yaw"],"position":[0.1]})"},
      {"empty_name", R"({"t":0.1,"name":[""],"position":[0.1]})"},
      {"duplicate_key", R"({"t":0.1,"name":["head_yaw"],"position":[0.1],"position":[0.3]})"},
      {"duplicate_stamp_key", R"({"t":0.1,"t":0.2,"name":["head_yaw"],"position":[0.1]})"},
      {"joint_named_twice", R"({"t":0.1,"name":["head_yaw","head_yaw"],"position":[0.1,0.3]})"},
      {"size_mismatch", R"({"t":0.1,"name":["head_yaw","neck_pitch"],"position":[0.1]})"},
      {"no_name", R"({"t":0.1,"position":[0.1]})"},
      {"empty_object", "{}"},
      {"bare_array", "[1, 2, 3]"},
      {"stamp_string", R"({"t":"noon","name":["head_yaw"],"position":[0.1]})"},
      {"negative_cycle", R"({"t":0.1,"cycle":-3,"name":["head_yaw"],"position":[0.1]})"},
      {"sync_false", R"({"t":0.1,"sync":false})"},
      {"trailing_garbage", R"({"t":0.1,"name":["head_yaw"],"position":[0.1]} x)"},
      {"deep_nesting", R"({"t":0.1,"x":)" + std::string(100000, '[') + std::string(100000, ']') + "}"},
      {"binary_garbage", [] {
         std::string g = garbage(300, 5);
         std::replace(g.begin(), g.end(), '\n', ' ');
         return g;
       }()},
  };
}

/// Commands that stream a log, with the model; their output for the two valid messages
/// (t = 0 and t = 0.2) must be present.
std::vector<std::vector<std::string>> stream_commands(const std::string& log, const std::string& urdf,
                                                      const std::string& semantics) {
  return {{"aggregate", log, "--urdf", urdf, "--semantics", semantics},
          {"filter", "exponential", "-p", "tau=0.1", log},
          {"fk", "--log", log, "--links", "head", "-f", "jsonl", "--urdf", urdf, "--semantics", semantics},
          {"check-log", log, "--urdf", urdf, "--semantics", semantics}};
}

void expect_valid_neighbours_written(const test::RunResult& r, const std::vector<std::string>& args) {
  SCOPED_TRACE(args.front());
  if (args.front() == "check-log") {
    // The first and the last stamp are those of the valid messages around the broken one.
    EXPECT_NE(r.out.find("t = 0 to 0.2 s"), std::string::npos) << r.out;
    return;
  }
  EXPECT_NE(r.out.find("{\"t\":0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"t\":0.2"), std::string::npos) << r.out;
}

class BrokenJsonLine : public BadInputTest, public ::testing::WithParamInterface<BrokenLine> {};

TEST_P(BrokenJsonLine, IsReportedAndTheValidMessagesAroundItAreWritten) {
  const std::string log = write("log.jsonl", "{\"t\":0,\"name\":[\"head_yaw\"],\"position\":[0.1]}\n" + GetParam().line +
                                                 "\n{\"t\":0.2,\"name\":[\"head_yaw\"],\"position\":[0.2]}\n");
  for (const auto& args : stream_commands(log, urdf_, semantics_)) {
    const auto r = run_rmodel(args);
    expect_clean_failure(r, args, log, 2);
    expect_valid_neighbours_written(r, args);
  }
}

INSTANTIATE_TEST_SUITE_P(JsonLines, BrokenJsonLine, ::testing::ValuesIn(broken_json_lines()),
                         [](const auto& info) { return info.param.name; });

std::vector<BrokenLine> broken_csv_rows() {
  return {
      {"number_words", "0.1,high"},
      {"too_few_cells", "0.1"},
      {"too_many_cells", "0.1,0.3,7"},
      {"huge_number", "0.1,1e999"},
      {"unterminated_quote", "0.1,\"0.3"},
      {"stamp_words", "noon,0.3"},
      {"hexadecimal", "0.1,0x10"},
      {"double_sign", "0.1,--1"},
      {"two_points", "0.1,1..2"},
      {"two_numbers_in_a_cell", "0.1,1 2"},
      {"semicolon_separator", "0.1;0.3"},
      {"trailing_separators", "0.1,0.3,,,"},
      {"stray_quote", "0.1,0.3\"x"},
      {"nul_in_cell", std::string("0.1,0.\0" "3", 8)},
      {"only_text", "abc"},
      {"binary_garbage", [] {
         std::string g = garbage(200, 6);
         std::replace(g.begin(), g.end(), '\n', ' ');
         std::replace(g.begin(), g.end(), '\r', ' ');
         return g;
       }()},
  };
}

class BrokenCsvRow : public BadInputTest, public ::testing::WithParamInterface<BrokenLine> {};

TEST_P(BrokenCsvRow, IsReportedAndTheValidRowsAroundItAreWritten) {
  const std::string log = write("log.csv", "t,head_yaw\n0,0.1\n" + GetParam().line + "\n0.2,0.2\n");
  for (const auto& args : stream_commands(log, urdf_, semantics_)) {
    const auto r = run_rmodel(args);
    expect_clean_failure(r, args, log, 3);
    expect_valid_neighbours_written(r, args);
  }
}

INSTANTIATE_TEST_SUITE_P(Csv, BrokenCsvRow, ::testing::ValuesIn(broken_csv_rows()),
                         [](const auto& info) { return info.param.name; });

// A problem quotes the input's bytes; in a JSON report, those that are not UTF-8 become
// U+FFFD (the report was an "internal error" before: nlohmann_json refuses to write them).
TEST_F(BadInputTest, BytesThatAreNotUtf8QuotedInAJsonReportBecomeReplacementCharacters) {
  const std::string log = write("log.csv", "t,head\xff\xfe.yaw\n0,0.1\n");
  const auto r = run_rmodel({"check-log", "-u", urdf_, "-s", semantics_, log, "-f", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_FALSE(doc.at("problems").empty()) << r.out;
  const std::string message = doc.at("problems").at(0).at("message");
  EXPECT_NE(message.find("head\xEF\xBF\xBD\xEF\xBF\xBD.yaw"), std::string::npos) << message;
}

TEST_F(BadInputTest, BrokenElementOfAJsonArrayKeepsTheOthers) {
  const std::string log = write("log.json",
                                "[\n  {\"t\": 0, \"name\": [\"head_yaw\"], \"position\": [0.1]},\n"
                                "  {\"t\": 0.1, \"name\": [\"head_yaw\"], \"position\": [\"x\"]},\n"
                                "  {\"t\": 0.2, \"name\": [\"head_yaw\"], \"position\": [0.2]}\n]\n");
  for (const auto& args : stream_commands(log, urdf_, semantics_)) {
    const auto r = run_rmodel(args);
    expect_clean_failure(r, args, log, 3);
    expect_valid_neighbours_written(r, args);
  }
}

TEST_F(BadInputTest, BrokenTrajectoriesAreNamed) {
  const std::string good =
      "{\"joint_names\": [\"head_yaw\", \"neck_pitch\"],\n \"points\": [\n"
      "  {\"positions\": [0.1, 0], \"time_from_start\": {\"secs\": 0, \"nsecs\": 0}},\n"
      "  {\"positions\": [0.2, 0], \"time_from_start\": {\"secs\": 0, \"nsecs\": 200000000}}]}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"truncated", good.substr(0, good.size() - 10)},
      {"duplicate_key", replace_first(good, "\"points\"", "\"joint_names\": [\"a\"], \"points\"")},
      {"empty_joint_name", replace_first(good, "\"neck_pitch\"", "\"\"")},
      {"joint_named_twice", replace_first(good, "\"neck_pitch\"", "\"head_yaw\"")},
      {"names_not_strings", replace_first(good, "\"neck_pitch\"", "3")},
      {"points_not_array", replace_first(good, "\"points\": [", "\"points\": {\"p\": [") + "}"},
  };
  for (const auto& [name, text] : cases) {
    SCOPED_TRACE(name);
    const std::string log = write("trajectory.json", text);
    const std::vector<std::string> args = {"aggregate", log, "--urdf", urdf_, "--semantics", semantics_};
    expect_clean_failure(run_rmodel(args), args, log, kAnyLine);
  }
}

TEST_F(BadInputTest, AHundredMegabyteLineIsSkippedAndTheStreamGoesOn) {
  const std::string log = (dir_ / "huge.jsonl").string();
  {
    std::ofstream out(log, std::ios::binary);
    out << "{\"t\":0,\"name\":[\"head_yaw\"],\"position\":[0.1]}\n";
    out << "{\"t\":0.1,\"name\":[\"head_yaw\"],\"position\":[";
    const std::string block(1 << 20, ' ');
    for (int i = 0; i < 100; ++i) out << block;
    out << "0.3]}\n{\"t\":0.2,\"name\":[\"head_yaw\"],\"position\":[0.2]}\n";
  }
  for (const auto& args : stream_commands(log, urdf_, semantics_)) {
    const auto r = run_rmodel(args);
    expect_clean_failure(r, args, log, 2);
    expect_valid_neighbours_written(r, args);
    if (args.front() != "check-log") {
      EXPECT_NE(r.err.find("longer than"), std::string::npos) << r.err;
    }
  }
}

TEST_F(BadInputTest, AHundredMegabyteUrdfAttributeFailsCleanly) {
  std::string pony = read_file(sample("pony.urdf"));
  pony = replace_first(pony, "<link name=\"neck\">", "<link name=\"neck\" junk=\"" + std::string(100 << 20, 'x') + "\" >");
  const std::string urdf = write("huge.urdf", replace_first(pony, "<link name=\"head\">", "<link name=\"neck\">"));
  const std::vector<std::string> args = {"check", "--urdf", urdf};
  expect_clean_failure(run_rmodel(args), args, urdf, kAnyLine);
}

}  // namespace
}  // namespace rmodel
