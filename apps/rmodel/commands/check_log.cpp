// rmodel check-log: validate a recorded joint-state log against a model, streaming with
// bounded memory; problems as they are found, then a summary per joint. Exit 0 when the log
// has no error, 1 when it has, 2 on usage errors.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>

#include <fmt/format.h>

#include "options/batch.hpp"
#include "options/collision_options.hpp"
#include "command.hpp"
#include "option_fields.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "options/stream_options.hpp"
#include "report/ci_report.hpp"
#include "report/log_summary.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/format.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/stream/log_check.hpp"
#include "rmodel/stream/stream.hpp"
#include "terminal.hpp"

namespace rmodel::cli {
namespace {

Json number_or_null(double v) { return std::isnan(v) ? Json(nullptr) : Json(v); }

std::string where(const io::MessageReader& reader, const LogProblem& p) {
  return io::location(reader.source(), p.line, p.item, p.byte_offset, io::numbers_messages(reader.format()));
}

void write_to(std::FILE* out, const std::string& text) { std::fwrite(text.data(), 1, text.size(), out); }

/// A problem's text in the command's words (the flags for the library's option fields).
std::string said(const LogProblem& p) { return in_flag_words(p.message); }

class CheckLogCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Validate a recorded joint-state log against a model: unknown joints, array sizes, stamps going back or "
        "repeated, gaps, NaN and infinities, positions outside the URDF limits, velocities above the URDF velocity "
        "limit, with --period implied velocities and accelerations, with --dynamics the torques the motion needs "
        "against the effort limits. Streams with bounded memory. Exit 0 when "
        "the log has no error, 1 when it has, 2 on usage errors");
    model_.add_to(app);
    model_.add_from_log_to(app);
    with_kind(app.add_option("log", logs_,
                             fmt::format("Joint-state log ({}; '-' for stdin); several with --output-dir",
                                         log_extensions_text())),
              ValueKind::file)
        ->required()
        ->type_name("LOG");
    input_.window_primes = true;  // the checks run in a stream::Pipeline
    input_.add_to(app, nullptr);
    add_threads_option(app, threads_, nullptr);
    add_time_option(app, "--max-gap", options_.max_gap,
                    "Longest time without a message, or without a sample of a joint, in seconds (0: no check)",
                    TimeRange::non_negative);
    add_time_option(app, "--period", options_.period,
                    "Control period in seconds: also check velocities implied by consecutive positions and report "
                    "implied accelerations (over the interval between their stamps; the period for samples "
                    "without stamps)",
                    TimeRange::non_negative);
    app.add_option("--max-acceleration", options_.max_acceleration,
                   "With --period: largest allowed implied |acceleration| (rad/s², m/s²; 0: report only)")
        ->check(non_negative_number());
    app.add_option("--tolerance", options_.tolerance,
                   "Allowed excursion beyond position limits (rad, m) and velocity limits (rad/s, m/s)")
        ->check(non_negative_number());
    auto* dynamics =
        app.add_flag("--dynamics", options_.dynamics,
                     "Also judge the torques the motion needs (velocities from the log, else and for accelerations "
                     "differentiated over the stamps, or over --period): above a joint's effort limit is an error "
                     "(effort-limit); where the log records efforts, their RMS and largest difference from the "
                     "required torque per joint");
    app.add_flag("--floating-base", options_.floating_base,
                 "With --dynamics: the root floats, carried by the chains of the log's support states (root fixed "
                 "otherwise)")
        ->needs(dynamics);
    collisions_.add_to(app,
                       "Also check the held full pose after each joint state for self-collision (the links' "
                       "<collision> geometry; pairs the SRDF's <disable_collisions> names are not checked, without an "
                       "SRDF the adjacent ones): each pair found is an error (self-collision), summed up per pair");
    add_max_reports_option(app, options_.max_reports, nullptr);
    out_.add_to(app,
                {OutputFormat::text, OutputFormat::json, OutputFormat::csv, OutputFormat::sarif, OutputFormat::junit,
                 OutputFormat::codequality},
                OutputFormat::text, [this, &app] {
      if (reduce_) return reduce_mode(app);
      if (batch_.output_dir.empty() && quiet_ && (out_.format_given() || out_.path_given()))
        OutputOptions::refuse("-q prints nothing: -f and -o do not apply");
      if (!batch_.output_dir.empty() && out_.path_given())
        OutputOptions::refuse("-o and --output-dir exclude each other: with --output-dir, each log's report is "
                              "DIR/<log name>.<format>");
    });
    app.add_flag("-q,--quiet", quiet_, "Print nothing; only the exit status tells (--output-dir: the reports are still written)");
    batch_.add_to(app);
    app.add_flag("--reduce", reduce_,
                 "Check nothing: read the JSON reports that runs with these logs, --output-dir DIR and -f json "
                 "wrote (all --shard parts), and write one summary: per log its verdict, counts and problems by "
                 "code, then the totals (-f text or json); exit 1 when a log is invalid or has no report")
        ->group("Whole archives");
  }

  int run() override {
    if (reduce_) return reduce();
    batch_.check();
    std::vector<BatchItem> items;
    if (batch_.active())
      items = batch_.take_shard(plan_batch(logs_, batch_.output_dir, report_extension(out_.format())));
    else if (logs_.size() > 1)
      throw InvalidArgument("check-log checks one log; for one report per log, give --output-dir DIR");
    if (!batch_.active()) {
      const Model model = *model_.load_for_logs(logs_, "check-log", quiet_);
      return check(model, logs_.front(), stdout, quiet_, nullptr, out_.to_stdout() ? nullptr : &out_.path());
    }
    // A model from the logs is each log's own, as `check-log LOG` would take it: logs of
    // different robots are each checked against their robot.
    const bool own_models = model_.model_in_logs();
    // With own models, the first log's is loaded quietly all the same, as aggregate and filter
    // do: no log with a model is one usage error (exit 2), not a failure per log.
    const std::optional<Model> named_model = model_.load_for_logs(logs_, "check-log", quiet_ || own_models);

    // One report per log, DIR/<log name>.txt or .json, byte for byte what `check-log LOG`
    // prints; on stderr one verdict line per log (in log order) and the count.
    std::vector<int> valid(items.size(), -1);  // per log: 1 valid, 0 invalid, -1 failed
    const auto codes = run_batch(items.size(), batch_.workers(items.size()), [&](std::size_t i) {
      std::string verdict_line;
      const std::optional<Model> own_model =
          own_models ? model_.load_for_logs(std::span(&items[i].input, 1), "check-log", quiet_) : std::nullopt;
      const Model& model = own_models ? *own_model : *named_model;
      const int code = check(model, items[i].input, nullptr, false, &verdict_line, &items[i].output);
      valid[i] = code == kOk ? 1 : 0;
      if (!quiet_) terminal::diagnostic(fmt::format("rmodel check-log: {}: {}", items[i].input, verdict_line));
      return code;
    });
    if (!quiet_) {
      const auto count = [&](int v) { return std::count(valid.begin(), valid.end(), v); };
      std::string failed = count(-1) > 0 ? fmt::format(", {} failed", count(-1)) : "";
      terminal::diagnostic(fmt::format("rmodel check-log: {}: {} valid, {} invalid{}", batch_.count_text(items.size(), "log"),
                                       count(1), count(0), failed));
    }
    return worst_exit_code(codes);
  }

private:
  /// --reduce reads reports and writes a summary (text or json, to -o): of the options, it
  /// takes --output-dir (where the reports are), the logs, -f, -o and -q.
  void reduce_mode(const CLI::App& app) {
    out_.restrict({OutputFormat::text, OutputFormat::json}, OutputFormat::text, "--reduce");
    for (const CLI::Option* opt : app.get_options())
      if (opt->count() > 0 && opt != out_.format_option() && !opt->check_name("--output") &&
          !opt->check_name("--output-dir") && !opt->check_name("--reduce") && !opt->check_name("--quiet") &&
          !opt->check_name("log"))
        OutputOptions::refuse(fmt::format("--reduce reads the reports of the logs: {} does not apply",
                                          opt->get_name()));
    if (batch_.output_dir.empty())
      OutputOptions::refuse("--reduce needs --output-dir DIR, the directory of the logs' JSON reports");
    if (quiet_ && (out_.format_given() || out_.path_given()))
      OutputOptions::refuse("-q prints nothing: -f and -o do not apply");
  }

  /// --reduce: the summary of the logs' reports in --output-dir; exit 1 unless every log has
  /// a report and is valid.
  int reduce() {
    const LogSummary summary = summarize_log_reports(name_batch(logs_, batch_.output_dir, "json", false));
    if (!quiet_) {
      out_.write(out_.is(OutputFormat::json) ? json_text(log_summary_json(summary)) : log_summary_text(summary));
      out_.close();
    }
    return summary.all_valid() ? kOk : kFailed;
  }

  /// Checks one log and writes its report to `out`, or to the file `path` when given (an
  /// io::OutputFile, put in place once the report is complete: a log that cannot be opened,
  /// or a run that fails, leaves the file of that name as it was).
  /// `verdict_line`: the last line of the text report, without its newline. Returns the
  /// exit code: kOk when the log is valid.
  int check(const Model& model, const std::string& log, std::FILE* out, bool quiet, std::string* verdict_line,
            const std::string* path = nullptr) const {
    LogCheckOptions options = options_;
    if (collisions_.enabled) options.collisions = collisions_.build(model_, model, "check-log");
    LogChecker checker(model, options);
    io::MessageReader reader = io::MessageReader::open(log, input_.reader_options(log));
    io::OutputFile report;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(nullptr, &std::fclose);
    if (path != nullptr) {
      report = io::OutputFile::open(*path);
      file.reset(stdio_stream(report));
      out = file.get();
    }
    const bool stream_text = out_.is(OutputFormat::text) && !quiet;
    // The library's run (rmodel/stream/log_check.hpp) reads the log through its stage into the
    // checker, read errors included; in text, each problem is printed as it is found, and
    // flushed when the reader is about to wait (a live log). With --threads 2 a log file is
    // parsed on a second thread; the stage and the callbacks stay on this one, so the report
    // is the one-thread run's byte for byte.
    LogCheckRun run;
    if (stream_text) {
      run.on_problem = [&](const LogProblem& p) {
        write_to(out, fmt::format("{}: {}: {} [{}]\n", where(reader, p), to_string(p.severity), said(p), p.code));
      };
      run.on_wait = [out] { std::fflush(out); };
    }
    run.run.read_ahead = threads_ > 1;
    (void)check_log(checker, reader, std::move(run));
    if (const std::string text = input_.empty_window_text(reader); !text.empty() && !quiet)
      report_input(reader.source(), "warning: " + text);
    if (verdict_line != nullptr) {
      *verdict_line = verdict(checker);
      verdict_line->pop_back();
    }
    if (!quiet) {
      if (out_.is(OutputFormat::json)) write_to(out, json_text(to_json(model, checker, reader.source())));
      else if (out_.is(OutputFormat::csv)) write_to(out, problems_csv(checker));
      else if (out_.is(OutputFormat::text)) write_to(out, summary(model, checker));
      else write_to(out, ci_text(checker, reader, log));
    }
    if (file) {
      const bool failed = std::ferror(file.get()) != 0;
      if (std::fclose(file.release()) != 0 || failed) throw WriteError(*path, "write failed");
      report.commit();
    }
    return checker.valid() ? kOk : kFailed;
  }

  /// The file name ending of a report of `format` in --output-dir.
  static std::string report_extension(OutputFormat format) {
    switch (format) {
      case OutputFormat::text: return "txt";
      case OutputFormat::junit: return "xml";
      case OutputFormat::codequality: return "json";
      default: return std::string(format_name(format));
    }
  }

  /// The report in a CI format (sarif, junit, codequality): the log is the one file checked; a
  /// problem of a text log is at its line (and item), one of a binary ROS log at its message.
  std::string ci_text(const LogChecker& c, const io::MessageReader& reader, const std::string& log) const {
    CiReport report{"check-log", CodeScope::log, {{log, 0}}, {}, {}, false, c.valid()};
    const bool numbered = io::numbers_messages(reader.format());
    for (const LogProblem& p : c.problems()) {
      Finding f{p.severity, log, numbered ? 0 : static_cast<int>(p.line), p.code, said(p), {}};
      if (numbered || p.byte_offset) {
        // "source: message N...": the place without the file's name, which the format gives.
        f.line = 0;
        f.place = where(reader, p);
        if (f.place.starts_with(reader.source() + ": ")) f.place.erase(0, reader.source().size() + 2);
      } else if (p.item > 0) {
        f.place = fmt::format("item {}", p.item);
      }
      report.findings.push_back(std::move(f));
    }
    const SourceRoot root = SourceRoot::find(std::filesystem::current_path());
    if (out_.is(OutputFormat::sarif)) return sarif_report(report, root);
    if (out_.is(OutputFormat::junit)) return junit_report(report, root);
    return codequality_report(report, root);
  }

  /// Values computed from differences: 6 significant digits in text (no 43.00000000000001).
  static Json computed(double v, bool text) {
    if (std::isnan(v)) return nullptr;
    return text ? Json(std::stod(fmt::format("{:.6g}", v))) : Json(v);
  }

  Table joint_table(const Model& model, const LogChecker& checker, bool text) const {
    std::vector<std::string> columns = {"index", "joint", "samples", "min", "max", "lower", "upper", "max_velocity",
                                        "velocity_limit"};
    if (options_.period > Time{}) columns.insert(columns.end(), {"max_implied_velocity", "max_acceleration"});
    if (options_.dynamics)
      columns.insert(columns.end(), {"max_torque", "effort_limit", "effort_samples", "effort_rms", "effort_max"});
    columns.push_back("errors");
    Table table(columns);
    for (const auto& st : checker.joints()) {
      const JointInfo* info = &model.pose_joint(st.index);
      std::vector<Json> row = {st.index,
                               st.name,
                               st.samples,
                               number_or_null(st.min_position),
                               number_or_null(st.max_position),
                               info->bounded() ? Json(info->lower) : Json(nullptr),
                               info->bounded() ? Json(info->upper) : Json(nullptr),
                               number_or_null(st.max_abs_velocity),
                               info->velocity_limit > 0 ? Json(info->velocity_limit) : Json(nullptr)};
      if (options_.period > Time{}) {
        row.push_back(computed(st.max_abs_implied_velocity, text));
        row.push_back(computed(st.max_abs_acceleration, text));
      }
      if (options_.dynamics) {
        row.push_back(computed(st.max_abs_required_torque, text));
        row.push_back(info->effort_limit > 0 ? Json(info->effort_limit) : Json(nullptr));
        row.push_back(st.effort_samples);
        row.push_back(computed(st.effort_residual_rms, text));
        row.push_back(computed(st.effort_residual_max, text));
      }
      row.push_back(st.errors);
      table.add_row(std::move(row));
    }
    return table;
  }

  std::string verdict(const LogChecker& c) const {
    std::string span;
    if (c.first_stamp())
      span = fmt::format(", t = {} to {} s", to_string(*c.first_stamp()), to_string(*c.last_stamp()));
    return fmt::format("{}: {} error{}, {} warning{} in {} message{} ({} joint state{}{})\n",
                       c.valid() ? "valid" : "invalid", c.error_count(), c.error_count() == 1 ? "" : "s",
                       c.warning_count(), c.warning_count() == 1 ? "" : "s", c.message_count(),
                       c.message_count() == 1 ? "" : "s", c.joint_state_count(), c.joint_state_count() == 1 ? "" : "s",
                       span);
  }

  std::string summary(const Model& model, const LogChecker& c) const {
    std::string out;
    if (c.unreported() > 0)
      out += fmt::format("... {} more problem{} not shown (--max-reports {})\n", c.unreported(),
                         c.unreported() == 1 ? "" : "s", options_.max_reports);
    out += "\n" + joint_table(model, c, true).render(OutputFormat::text);
    for (const auto& u : c.unknown_joints())
      out += fmt::format("unknown joint {}: in {} message{}, first at line {}\n", u.name, u.count,
                         u.count == 1 ? "" : "s", u.first_line);
    for (const auto& p : c.collisions())
      out += fmt::format("self-collision {} and {}: in {} joint state{}, {} {:.6g} m, first at line {}{}\n", p.link1,
                         p.link2, p.messages, p.messages == 1 ? "" : "s", p.max_depth >= 0 ? "depth up to" : "distance",
                         std::abs(p.max_depth), p.first_line,
                         p.first ? fmt::format(", t = {} to {}", to_string(*p.first), to_string(*p.last)) : "");
    return out + verdict(c);
  }

  /// One row per problem found (those shown; --max-reports bounds them); the verdict is
  /// the exit status, the per-joint summary is in the text and JSON output.
  static std::string problems_csv(const LogChecker& c) {
    Table table({"severity", "line", "item", "code", "joint", "message"});
    for (const auto& p : c.problems())
      table.add_row({std::string(to_string(p.severity)), p.line, p.item, p.code,
                     p.joint.empty() ? Json(nullptr) : Json(p.joint), said(p)});
    return table.render(OutputFormat::csv);
  }

  Json to_json(const Model& model, const LogChecker& c, const std::string& source) const {
    Json doc = json_document("rmodel.check_log");
    doc["valid"] = c.valid();
    doc["log"] = source;
    doc["messages"] = c.message_count();
    doc["joint_states"] = c.joint_state_count();
    doc["read_errors"] = c.read_error_count();
    doc["errors"] = c.error_count();
    doc["warnings"] = c.warning_count();
    // Seconds as JSON numbers (the nearest double: exact up to ~16 significant digits).
    doc["first_stamp"] = c.first_stamp() ? Json(c.first_stamp()->seconds()) : Json(nullptr);
    doc["last_stamp"] = c.last_stamp() ? Json(c.last_stamp()->seconds()) : Json(nullptr);
    doc["problems"] = Json::array();
    for (const auto& p : c.problems())
      doc["problems"].push_back({{"severity", to_string(p.severity)},
                                 {"line", p.line},
                                 {"item", p.item},
                                 {"code", p.code},
                                 {"joint", p.joint.empty() ? Json(nullptr) : Json(p.joint)},
                                 {"message", said(p)},
                                 {"byte_offset", p.byte_offset ? Json(*p.byte_offset) : Json(nullptr)}});
    doc["unreported"] = c.unreported();
    // Every problem, kept or not, counted by code (a summary over many reports adds them).
    doc["problems_by_code"] = Json::object();
    for (const LogCodeCount& n : c.problem_counts()) doc["problems_by_code"][n.code] = n.count;
    doc["unknown_joints"] = Json::array();
    for (const auto& u : c.unknown_joints())
      doc["unknown_joints"].push_back({{"name", u.name}, {"count", u.count}, {"first_line", u.first_line}});
    doc["joints"] = joint_table(model, c, false).to_json();
    if (collisions_.enabled) {
      doc["collisions"] = Json::array();
      for (const auto& p : c.collisions())
        doc["collisions"].push_back({{"link1", p.link1},
                                     {"link2", p.link2},
                                     {"joint_states", p.messages},
                                     {"max_depth", p.max_depth},
                                     {"first_line", p.first_line},
                                     {"first_stamp", p.first ? Json(p.first->seconds()) : Json(nullptr)},
                                     {"last_stamp", p.last ? Json(p.last->seconds()) : Json(nullptr)}});
    }
    return doc;
  }

  ModelOptions model_;
  BatchOptions batch_;
  std::vector<std::string> logs_;
  LogInputOptions input_;
  LogCheckOptions options_;
  CollisionOptions collisions_;
  OutputOptions out_;
  bool quiet_ = false;
  bool reduce_ = false;  ///< --reduce: summarize the reports of an earlier run
  unsigned threads_ = 2;  ///< --threads
};

}  // namespace

std::unique_ptr<Command> make_check_log_command() { return std::make_unique<CheckLogCommand>(); }

}  // namespace rmodel::cli
