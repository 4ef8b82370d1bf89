// The one output convention of every command that writes data (docs/output.md): -f/--format
// with the formats the command writes, -o/--output with the format taken from its
// extension, a schema name and version in every JSON document, CSV with a header and one
// column count, and a usage error (exit 2) for a format or an option that does not apply.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel {
namespace {

using nlohmann::json;
using test::read_file;
using test::run_rmodel;

std::string example(const std::string& file) {
  return (test::source_dir() / "share" / "rmodel" / "examples" / file).string();
}

/// Rows of RFC 4180 CSV (quoted fields may hold commas, quotes and line breaks).
std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
    } else {
      field += c;
    }
  }
  EXPECT_FALSE(quoted) << "unterminated quoted field";
  EXPECT_TRUE(field.empty() && row.empty()) << "last line has no line break";
  return rows;
}

/// A command line, the formats it writes (the first is its default) and the schema of its
/// JSON document. `codes` are the exit codes the run may have (check-log, diff: 1 is a
/// verdict, not a failure).
struct Case {
  std::string name;
  std::vector<std::string> args;
  std::vector<std::string> formats;
  std::string schema;
  std::vector<int> codes = {0};
};

std::vector<Case> cases() {
  const std::string log = example("fl.jsonl");  // clean: the stream commands exit 0
  return {
      {"joints", {"joints", "--sample"}, {"text", "json", "csv"}, "rmodel.joints"},
      {"chains", {"chains", "--sample"}, {"text", "json", "csv"}, "rmodel.chains"},
      {"groups", {"groups", "--sample"}, {"text", "json", "csv"}, "rmodel.groups"},
      {"contacts", {"contacts", "--sample"}, {"text", "json", "csv"}, "rmodel.contacts"},
      {"contacts_posed", {"contacts", "--sample", "--pose", ""}, {"text", "json", "csv"}, "rmodel.contact_points"},
      {"poses",
       {"poses", "--urdf", example("robot.urdf"), "--semantics", example("robot.srdf")},
       {"text", "json", "csv"},
       "rmodel.poses"},
      {"poses_full",
       {"poses", "--urdf", example("robot.urdf"), "--semantics", example("robot.srdf"), "--full", "home"},
       {"text", "json", "csv"},
       "rmodel.pose"},
      {"index", {"index", "--sample", "neck_pitch", "head_yaw"}, {"text", "json", "csv"}, "rmodel.index"},
      {"tree", {"tree", "--sample"}, {"text", "json", "csv", "dot"}, "rmodel.tree"},
      {"info", {"info", "--sample"}, {"text", "json", "csv"}, "rmodel.info"},
      {"check", {"check", "--sample"}, {"text", "json", "csv"}, "rmodel.check"},
      {"check_log", {"check-log", "--sample", example("pony_log.jsonl")}, {"text", "json", "csv"}, "rmodel.check_log", {1}},
      {"diff",
       {"diff", example("robot.urdf"), example("robot_v2.urdf")},
       {"text", "json", "csv"},
       "rmodel.diff",
       {0, 1}},
      {"fk", {"fk", "--sample", "--pose", "neck_pitch=0.3"}, {"text", "json", "csv"}, "rmodel.fk"},
      {"fk_log", {"fk", "--sample", "--links", "head", "--log", log}, {"text", "jsonl", "csv"}, ""},
      {"jacobian", {"jacobian", "--sample", "--chain", "head"}, {"text", "json", "csv"}, "rmodel.jacobian"},
      {"version", {"version"}, {"text", "json"}, "rmodel.version"},
      {"aggregate", {"aggregate", "--sample", log}, {"jsonl", "csv"}, ""},
      {"filter", {"filter", "exponential", "-p", "tau=0.05", log}, {"jsonl", "csv"}, ""},
      {"filter_list", {"filter", "--list"}, {"text", "json"}, "rmodel.filter_kinds"},
      {"filter_step", {"filter", "exponential", "--step", "--duration", "0.05"}, {"csv", "jsonl"}, ""},
  };
}

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

std::string extension(const std::string& format) { return format == "text" ? "txt" : format; }

/// Checks that `out` is well-formed `format` output; JSON documents carry `schema`.
void expect_well_formed(const std::string& format, const std::string& out, const std::string& schema,
                        const std::string& what) {
  ASSERT_FALSE(out.empty()) << what;
  if (format == "json") {
    const json doc = json::parse(out);
    ASSERT_TRUE(doc.is_object()) << what;
    EXPECT_EQ(doc.value("schema", ""), schema) << what;
    // rmodel.check is at 2 since its list was renamed "problems" (docs/output.md).
    EXPECT_EQ(doc.value("schema_version", 0), schema == "rmodel.check" ? 2 : 1) << what;
    // The schema keys come first, so that `head -3` tells what a file is.
    EXPECT_EQ(nlohmann::ordered_json::parse(out).begin().key(), "schema") << what;
  } else if (format == "jsonl") {
    for (const auto& line : test::json_lines(out)) EXPECT_TRUE(line.is_object()) << what;
  } else if (format == "csv") {
    const auto rows = csv_rows(out);
    ASSERT_GE(rows.size(), 1U) << what;
    for (const auto& h : rows.front()) EXPECT_FALSE(h.empty()) << what << ": an empty header cell";
    for (std::size_t i = 1; i < rows.size(); ++i)
      EXPECT_EQ(rows[i].size(), rows.front().size()) << what << ": row " << i << " of\n" << out;
  } else if (format == "dot") {
    EXPECT_EQ(out.rfind("digraph ", 0), 0U) << what;
  } else {
    EXPECT_NE(out.front(), '{') << what << ": text output looks like JSON";
  }
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class OutputConvention : public ::testing::TestWithParam<Case> {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-outconv-"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

bool expected_code(const Case& c, int code) {
  return std::find(c.codes.begin(), c.codes.end(), code) != c.codes.end();
}

TEST_P(OutputConvention, EveryFormatIsWellFormedAndTheFileHoldsWhatStdoutShows) {
  const Case& c = GetParam();
  for (const auto& format : c.formats) {
    const std::string what = c.name + " -f " + format;
    const auto r = run_rmodel(with(c.args, {"-f", format}));
    ASSERT_TRUE(expected_code(c, r.exit_code)) << what << ": exit " << r.exit_code << "\n" << r.err;
    expect_well_formed(format, r.out, c.schema, what);

    // -o FILE -f FORMAT: the same bytes in the file, nothing on stdout.
    const auto file = dir_ / ("given." + std::string(format == "text" ? "out" : extension(format)));
    const auto to_file = run_rmodel(with(c.args, {"-f", format, "-o", file.string()}));
    EXPECT_EQ(to_file.exit_code, r.exit_code) << what << to_file.err;
    EXPECT_EQ(to_file.out, "") << what;
    EXPECT_EQ(read_file(file), r.out) << what << " -o " << file;

    // -o x.EXT alone: the format from the extension.
    const auto inferred = dir_ / ("inferred." + extension(format));
    const auto by_name = run_rmodel(with(c.args, {"-o", inferred.string()}));
    EXPECT_EQ(by_name.exit_code, r.exit_code) << what << by_name.err;
    EXPECT_EQ(read_file(inferred), r.out) << c.name << " -o " << inferred << " is not " << format;
  }
  // No -f: the first format is the default, also for a file whose extension names none.
  const auto plain = run_rmodel(c.args);
  EXPECT_EQ(plain.out, run_rmodel(with(c.args, {"-f", c.formats.front()})).out) << c.name;
  const auto other = dir_ / "output.data";
  (void)run_rmodel(with(c.args, {"-o", other.string()}));
  EXPECT_EQ(read_file(other), plain.out) << c.name << ": an unknown extension takes the default format";
}

TEST_P(OutputConvention, AFormatTheCommandDoesNotWriteIsAUsageError) {
  const Case& c = GetParam();
  const auto r = run_rmodel(with(c.args, {"-f", "yaml"}));
  EXPECT_EQ(r.exit_code, 2) << c.name;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("rmodel: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'yaml' is not one of"), std::string::npos) << r.err;
}

TEST_P(OutputConvention, AnExtensionNamingAFormatTheCommandDoesNotWriteIsAUsageError) {
  const Case& c = GetParam();
  for (const std::string format : {"json", "jsonl", "csv", "dot", "text"}) {
    if (std::find(c.formats.begin(), c.formats.end(), format) != c.formats.end()) continue;
    const auto file = dir_ / ("x." + extension(format));
    const auto r = run_rmodel(with(c.args, {"-o", file.string()}));
    EXPECT_EQ(r.exit_code, 2) << c.name << " -o " << file << "\n" << r.err;
    EXPECT_NE(r.err.find("names " + format + " output"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(file)) << c.name << ": a refused run created " << file;
  }
}

INSTANTIATE_TEST_SUITE_P(Commands, OutputConvention, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// ---- the formats of one mode of a command -----------------------------------------------

struct Refusal {
  std::vector<std::string> args;
  std::string message;  ///< part of stderr
};

void PrintTo(const Refusal& c, std::ostream* os) {
  // Files by their names: ctest takes this into the test's name.
  for (const auto& arg : c.args) *os << std::filesystem::path(arg).filename().string() << ' ';
}

class Refused : public ::testing::TestWithParam<Refusal> {};

TEST_P(Refused, ExitsTwoWithTheReason) {
  const auto& c = GetParam();
  const auto r = run_rmodel(c.args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("rmodel: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << "stderr:\n" << r.err << "\nexpected: " << c.message;
}

std::vector<Refusal> refusals() {
  const std::string log = example("fl.jsonl");
  return {
      // A stream is JSON Lines, never one JSON document.
      {{"aggregate", "--sample", log, "-f", "json"}, "'json' is not one of jsonl, csv, mcap; did you mean 'jsonl'?"},
      {{"aggregate", "--sample", log, "-o", "/tmp/rmodel-outconv-never.json"},
       "streams are written as JSON Lines: name the file .jsonl"},
      {{"filter", "exponential", log, "-f", "json"}, "streams are written as JSON Lines: -f jsonl"},
      {{"fk", "--sample", "--log", log, "-f", "json"}, "-f json does not apply to --log"},
      {{"fk", "--sample", "-f", "jsonl"}, "-f jsonl does not apply to one pose"},
      // A format of another mode.
      {{"filter", "--list", "-f", "csv"}, "-f csv does not apply to --list: the formats are text, json"},
      {{"filter", "exponential", "--step", "-f", "text"}, "-f text does not apply to --step: the formats are csv, jsonl"},
      {{"filter", "exponential", log, "-f", "text"}, "-f text does not apply to a filtered stream"},
      {{"joints", "--sample", "-f", "dot"}, "'dot' is not one of text, json, csv"},
      // Options that apply to some formats only.
      {{"aggregate", "--sample", log, "-f", "csv", "--stamp", "ros1"},
       "--stamp ros1 applies to JSON Lines output (-f jsonl), not to csv"},
      {{"aggregate", "--sample", log, "-o", "/tmp/rmodel-outconv-never.csv", "--stamp", "ros2"},
       "--stamp ros2 applies to JSON Lines output (-f jsonl), not to csv"},
      {{"aggregate", "--sample", log, "-f", "mcap", "--stamp", "ros2"}, "not to mcap"},
      {{"filter", "exponential", log, "-O", "csv", "--stamp", "ros1"}, "not to csv"},
      {{"aggregate", "--sample", log, "--mcap-compression", "lz4"},
       "--mcap-compression applies to MCAP output (-f mcap or -o FILE.mcap), not to jsonl"},
      {{"filter", "exponential", log, "-f", "csv", "--mcap-chunk-size", "4096"}, "--mcap-chunk-size applies to MCAP"},
      {{"filter", "--list", "--mcap-compression", "none"}, "--mcap-compression applies to MCAP output"},
      {{"aggregate", "--sample", log, "-f", "mcap", "--mcap-compression", "brotli"}, "'brotli' is not one of"},
      {{"aggregate", "--sample", log, "-f", "mcap", "--mcap-chunk-size", "0"}, "--mcap-chunk-size: Value 0 not in range"},
      {{"filter", "--list", "--stamp", "ros1"}, "--stamp does not apply to --list"},
      {{"filter", "exponential", "--step", "-f", "jsonl", "--stamp", "ros1"}, "--stamp does not apply to --step"},
      {{"filter", "--list", "--flush-each"}, "--flush-each applies where messages are streamed out"},
      {{"filter", "exponential", "--step", "--flush-each"}, "--flush-each applies where messages are streamed out"},
      {{"filter", "exponential", "--step", "--plot", "/tmp/rmodel-outconv-never.png", "-f", "csv"},
       "--step --plot draws a plot: -f and -o do not apply"},
      {{"check", "--sample", "-q", "-f", "json"}, "-q prints nothing: -f and -o do not apply"},
      {{"check-log", "--sample", log, "-q", "-o", "/tmp/rmodel-outconv-never.json"},
       "-q prints nothing: -f and -o do not apply"},
      {{"diff", example("robot.urdf"), example("robot_v2.urdf"), "-q", "-f", "csv"},
       "-q prints nothing: -f and -o do not apply"},
      // -O is the old name of -f; both at once is ambiguous.
      {{"aggregate", "--sample", log, "-O", "csv", "-f", "jsonl"}, "give -f only"},
      {{"aggregate", "--sample", log, "-O", "json"}, "'json' is not one of auto, jsonl, csv"},
      // convert: -f names the target format, -t,--to is its old name.
      {{"convert", example("robot.cpf"), "-f", "yaml"}, "'yaml' is not one of cpf, json"},
      {{"convert", example("robot.cpf"), "-f", "json", "--to", "cpf"}, "give -f only"},
  };
}

// Named by position and command ("7_filter"): ctest and CI logs then show a readable name
// instead of gtest's bytes of the parameter.
INSTANTIATE_TEST_SUITE_P(Options, Refused, ::testing::ValuesIn(refusals()),
                         [](const ::testing::TestParamInfo<Refusal>& info) {
                           std::string command = info.param.args.front();
                           std::replace(command.begin(), command.end(), '-', '_');
                           return std::to_string(info.index) + "_" + command;
                         });

// ---- the rest of the convention ----------------------------------------------------------

TEST(OutputConventionMore, TheOldOutputFormatOptionStillWorks) {
  const std::string log = example("fl.jsonl");
  const auto old = run_rmodel({"aggregate", "--sample", log, "-O", "csv"});
  const auto now = run_rmodel({"aggregate", "--sample", log, "-f", "csv"});
  EXPECT_EQ(old.exit_code, 0) << old.err;
  EXPECT_EQ(old.out, now.out);
  EXPECT_EQ(old.out.rfind("t,", 0), 0U) << old.out;
  // -O is hidden: the help shows -f only.
  const auto help = run_rmodel({"aggregate", "--help"});
  EXPECT_EQ(help.out.find("--output-format"), std::string::npos);
  EXPECT_NE(help.out.find("-f,--format"), std::string::npos) << help.out;
}

TEST(OutputConventionMore, EveryEndingOfAWrittenLogNamesItsFormatInAnyCase) {
  // docs/output.md's table: .jsonl and .ndjson are JSON Lines, .csv CSV, .mcap MCAP, in any
  // case; .yaml is a log rmodel reads but does not write, so it gets the default (JSON Lines).
  const auto dir = test::make_temp_dir("rmodel-endings-");
  const std::string log = example("fl.jsonl");
  const auto by_flag = [&](const std::string& format) {
    const auto file = dir / ("flag." + format);
    const auto r = run_rmodel({"aggregate", "--sample", log, "-f", format, "-o", file.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_file(file);
  };
  const std::string jsonl = by_flag("jsonl"), csv = by_flag("csv"), mcap = by_flag("mcap");
  ASSERT_EQ(mcap.rfind("\x89MCAP0\r\n", 0), 0U);
  for (const auto& [name, expected] : std::vector<std::pair<std::string, std::string>>{
           {"a.ndjson", jsonl}, {"b.NDJSON", jsonl}, {"c.JsonL", jsonl}, {"d.CSV", csv}, {"e.Mcap", mcap},
           {"f.yaml", jsonl}}) {
    const auto file = dir / name;
    const auto r = run_rmodel({"aggregate", "--sample", log, "-o", file.string()});
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_EQ(read_file(file), expected) << name;
  }
  std::filesystem::remove_all(dir);
}

TEST(OutputConventionMore, LogHelpListsTheEndingOfEveryFormatRmodelReads) {
  // The logs rmodel reads (README, check-log: JSON Lines, JSON, CSV, echo YAML, then the ROS
  // logs MCAP, rosbag2 SQLite and ROS 1 bags), by their usual file ending, in that order.
  const std::string endings = ".jsonl, .json, .csv, .yaml, .mcap, .db3, .bag";
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"aggregate", "--help"}, {"filter", "--help"}, {"check-log", "--help"}, {"fk", "--help"},
           {"dynamics", "--help"}}) {
    const auto r = run_rmodel(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string flat;  // help wraps long descriptions: compare with the line breaks removed
    for (std::size_t i = 0; i < r.out.size(); ++i) {
      if (r.out[i] != '\n') {
        flat += r.out[i];
        continue;
      }
      while (i + 1 < r.out.size() && r.out[i + 1] == ' ') ++i;
      flat += ' ';
    }
    EXPECT_NE(flat.find(endings), std::string::npos) << args.front() << ":\n" << r.out;
  }
}

TEST(OutputConventionMore, ConvertTakesTheTargetFormatAsF) {
  const auto cpf = run_rmodel({"convert", example("robot.json"), "-f", "cpf"});
  ASSERT_EQ(cpf.exit_code, 0) << cpf.err;
  EXPECT_EQ(cpf.out, run_rmodel({"convert", example("robot.json"), "--to", "cpf"}).out);
  EXPECT_EQ(cpf.out.rfind("<?xml", 0), 0U) << cpf.out;
  const auto json = run_rmodel({"convert", example("robot.cpf"), "-f", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_TRUE(nlohmann::json::accept(json.out)) << json.out;
}

TEST(OutputConventionMore, StampStillAppliesToJsonLines) {
  const auto r = run_rmodel({"aggregate", "--sample", example("fl.jsonl"), "--stamp", "ros2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = test::json_lines(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(lines.front().contains("header")) << lines.front();
}

TEST(OutputConventionMore, AnOutputFileThatCannotBeCreatedIsExitOneWithItsPath) {
  const std::string path = "/nonexistent-rmodel-dir/out.json";
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"joints", "--sample", "-o", path},
           {"check", "--sample", "-o", path},
           {"fk", "--sample", "--log", example("pony_log.jsonl"), "-o", "/nonexistent-rmodel-dir/out.csv"},
           {"filter", "--list", "-o", path}}) {
    const auto r = run_rmodel(args);
    EXPECT_EQ(r.exit_code, 1) << args.front() << ": " << r.err;
    EXPECT_NE(r.err.find("/nonexistent-rmodel-dir/out."), std::string::npos) << r.err;
  }
}

TEST(OutputConventionMore, AFailedRunLeavesAnExistingOutputFileAlone) {
  const auto dir = test::make_temp_dir("rmodel-outconv-");
  const auto file = dir / "joints.json";
  std::ofstream(file) << "keep\n";
  const auto r = run_rmodel({"joints", "--urdf", "/nonexistent.urdf", "-o", file.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(read_file(file), "keep\n");
  std::filesystem::remove_all(dir);
}

TEST(OutputConventionMore, CsvShapesOfTheReportCommands) {
  // check: one row per diagnostic, the file and line of each.
  const auto dir = test::make_temp_dir("rmodel-outconv-");
  const auto sem = dir / "bad.json";
  std::ofstream(sem) << R"({"chains": [{"name": "a", "first_link": "base_link", "last_link": "nowhere"}]})";
  const auto check =
      run_rmodel({"check", "--urdf", test::sample("pony.urdf").string(), "--semantics", sem.string(), "-f", "csv"});
  EXPECT_EQ(check.exit_code, 1);
  const auto rows = csv_rows(check.out);
  const auto check_json = json::parse(run_rmodel({"check", "--urdf", test::sample("pony.urdf").string(),
                                                  "--semantics", sem.string(), "-f", "json"}).out);
  ASSERT_EQ(rows.size(), check_json["problems"].size() + 1) << check.out;
  EXPECT_EQ(rows[0], (std::vector<std::string>{"severity", "file", "line", "code", "message"}));
  EXPECT_EQ(rows[1][0], "error");
  EXPECT_EQ(rows[1][1], sem.string());
  EXPECT_EQ(rows[1][2], "1");
  EXPECT_EQ(rows[1][3], "unknown-link");

  // check-log: one row per problem, as many as the JSON document lists.
  const std::string log = example("fl.jsonl");
  const auto csv = run_rmodel({"check-log", "--sample", log, "--period", "0.01", "-f", "csv"});
  const auto js = run_rmodel({"check-log", "--sample", log, "--period", "0.01", "-f", "json"});
  const auto problems = json::parse(js.out)["problems"];
  ASSERT_FALSE(problems.empty()) << "the log should break the velocity limits";
  const auto log_rows = csv_rows(csv.out);
  ASSERT_EQ(log_rows.size(), problems.size() + 1) << csv.out;
  EXPECT_EQ(log_rows[0], (std::vector<std::string>{"severity", "line", "item", "code", "joint", "message"}));
  for (std::size_t i = 0; i < problems.size(); ++i) {
    EXPECT_EQ(log_rows[i + 1][3], problems[i]["code"]);
    EXPECT_EQ(log_rows[i + 1][5], problems[i]["message"]);
  }

  // info: key,value rows with the keys of the JSON document.
  const auto info_csv = csv_rows(run_rmodel({"info", "--sample", "-f", "csv"}).out);
  const auto info_json = json::parse(run_rmodel({"info", "--sample", "-f", "json"}).out);
  ASSERT_EQ(info_csv[0], (std::vector<std::string>{"key", "value"}));
  ASSERT_EQ(info_csv.size(), info_json.size() - 2 + 1);  // less schema, schema_version; plus the header
  for (std::size_t i = 1; i < info_csv.size(); ++i) {
    const std::string& key = info_csv[i][0];
    const std::string& value = info_csv[i][1];
    ASSERT_TRUE(info_json.contains(key)) << key;
    if (key == "robot" || key == "links" || key == "pose_size") {
      EXPECT_EQ(value, info_json[key].is_string() ? info_json[key].get<std::string>() : info_json[key].dump());
    }
  }

  // diff: one row per change; the pose changes of the README's robot_v2.
  const auto diff_csv = csv_rows(run_rmodel({"diff", example("robot.urdf"), example("robot_v2.urdf"), "-f", "csv"}).out);
  const auto diff_json = json::parse(run_rmodel({"diff", example("robot.urdf"), example("robot_v2.urdf"), "-f", "json"}).out);
  ASSERT_EQ(diff_csv[0], (std::vector<std::string>{"section", "change", "name", "property", "old", "new"}));
  std::size_t pose_rows = 0;
  for (const auto& row : diff_csv)
    if (row[0] == "pose") ++pose_rows;
  const auto& pose = diff_json["pose"];
  EXPECT_EQ(pose_rows, pose["removed"].size() + pose["added"].size() + pose["moved"].size() +
                           pose["unit_changes"].size());
  std::filesystem::remove_all(dir);
}

TEST(OutputConventionMore, EveryReportCallsItsListProblems) {
  RMODEL_REQUIRE_FIXTURES();
  // check (a chain to a link that does not exist), check-log (the example log has errors) and
  // log-info (a bag cut short has a problem): the one key "problems", never "diagnostics".
  const auto dir = test::make_temp_dir("rmodel-outconv-");
  const auto sem = dir / "bad.json";
  std::ofstream(sem) << R"({"chains": [{"name": "a", "first_link": "base_link", "last_link": "nowhere"}]})";
  const std::string bag = test::fixture("bags/hoof_wave.lz4.bag").string();
  const std::string bytes = read_file(bag);
  const auto cut = dir / "cut.bag";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() * 2 / 3);
  struct Report {
    std::vector<std::string> args;
    std::string schema;
    int version;
  };
  const std::vector<Report> reports = {
      {{"check", "--urdf", test::sample("pony.urdf").string(), "--semantics", sem.string(), "-f", "json"},
       "rmodel.check", 2},
      {{"check-log", "--sample", example("pony_log.jsonl"), "-f", "json"}, "rmodel.check_log", 1},
      {{"log-info", cut.string(), "-f", "json"}, "rmodel.log_info", 1},
  };
  for (const auto& r : reports) {
    const auto run = run_rmodel(r.args);
    EXPECT_EQ(run.exit_code, 1) << r.schema << run.err;
    const auto doc = json::parse(run.out);
    EXPECT_EQ(doc["schema"], r.schema);
    EXPECT_EQ(doc["schema_version"], r.version) << r.schema;
    ASSERT_TRUE(doc.contains("problems")) << run.out;
    EXPECT_TRUE(doc["problems"].is_array()) << r.schema;
    EXPECT_FALSE(doc["problems"].empty()) << r.schema;
    EXPECT_FALSE(doc.contains("diagnostics")) << r.schema;
  }
  std::filesystem::remove_all(dir);
}

TEST(OutputConventionMore, LogInfoWritesEveryFormat) {
  RMODEL_REQUIRE_FIXTURES();
  const std::string bag = test::fixture("bags/hoof_wave.lz4.bag").string();
  const auto js = run_rmodel({"log-info", bag, "-f", "json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const auto doc = json::parse(js.out);
  EXPECT_EQ(doc["schema"], "rmodel.log_info");
  EXPECT_EQ(doc["schema_version"], 1);
  const auto rows = csv_rows(run_rmodel({"log-info", bag, "-f", "csv"}).out);
  ASSERT_EQ(rows.size(), doc["topics"].size() + 1);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][0], doc["topics"][i - 1]["name"]);
    EXPECT_EQ(rows[i][2], doc["topics"][i - 1]["messages"].dump());
  }
  const auto dir = test::make_temp_dir("rmodel-outconv-");
  (void)run_rmodel({"log-info", bag, "-o", (dir / "info.json").string()});
  EXPECT_EQ(read_file(dir / "info.json"), js.out);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rmodel
