// rmodel filter: apply a registry filter to every joint of joint-state logs (or stdin, as it
// arrives), list the filter kinds, and draw input/output or step-response plots with gnuplot
// for tuning. The per-joint filtering lives in the library (rmodel/stream/stream_filter.hpp).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "options/batch.hpp"
#include "command.hpp"
#include "options/limit_defaults.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "plot.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/filters/registry.hpp"
#include "rmodel/stream/stream_filter.hpp"
#include "rmodel/io/format.hpp"
#include "rmodel/io/message.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "options/stream_options.hpp"

namespace rmodel::cli {
namespace {

namespace rf = rmodel::filters;

using plot::Trace;

std::string params_text(const rf::FilterKind& kind, const rf::FilterParams& params) {
  std::string out;
  for (const rf::ParamInfo& p : kind.params) {
    const auto it = params.find(p.name);
    if (it == params.end()) continue;
    if (!out.empty()) out += ", ";
    out += fmt::format("{}={}", p.name, it->second);
    if (p.unit != "-" && !p.unit.empty()) out += " " + p.unit;
  }
  return out;
}

/// The y-axis label of a plot of `field`. With a model, the unit follows the plotted joints'
/// type (rad for revolute and continuous, m for prismatic); mixed or unknown joints get both.
std::string field_unit(rf::JointField field, const Model* model, const std::vector<std::string>& joints) {
  bool angular = false, linear = false;
  for (const auto& name : joints) {
    const JointInfo* joint = model ? model->find_urdf_joint(name) : nullptr;
    const JointType type = joint ? joint->type : JointType::unknown;
    angular = angular || type != JointType::prismatic;
    linear = linear || type == JointType::prismatic || type == JointType::unknown;
  }
  const auto unit = [&](const char* rotary, const char* prismatic) {
    if (angular && !linear) return std::string(rotary);
    if (linear && !angular) return std::string(prismatic);
    return fmt::format("{} or {}", rotary, prismatic);
  };
  switch (field) {
    case rf::JointField::position: return "position [" + unit("rad", "m") + "]";
    case rf::JointField::velocity: return "velocity [" + unit("rad/s", "m/s") + "]";
    case rf::JointField::effort: return "effort [" + unit("N·m", "N") + "]";
  }
  return {};
}

// ---------------------------------------------------------------------------------------

class FilterCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Apply a filter to every joint of joint-state logs (or stdin, as it arrives), one filter per joint; "
        "write the filtered log. A joint's filter advances once per message that carries it, by the time since "
        "its previous sample when the log has stamps, or by T when --param T=... is given. Bad lines are reported, counted and "
        "skipped; exit 1 if anything was rejected. Also: --list the kinds, --step response, --plot for tuning");
    app.add_option("kind", kind_, "Filter kind (rmodel filter --list)");
    stream_.add_to(app);
    batch_.add_to(app);
    // -f: the list's format with --list, the table's with --step, the stream's otherwise.
    stream_.add_output_to(
        app, {OutputFormat::log, OutputFormat::text, OutputFormat::json, OutputFormat::csv, OutputFormat::jsonl},
        OutputFormat::log, [this] {
          OutputOptions& out = stream_.out;
          if (list_) {
            out.restrict({OutputFormat::text, OutputFormat::json}, OutputFormat::text, "--list");
            if (stream_.stamp != "none") OutputOptions::refuse("--stamp does not apply to --list");
            return false;
          }
          if (step_) {
            if (!plot_.empty() && (out.format_given() || out.path_given()))
              OutputOptions::refuse("--step --plot draws a plot: -f and -o do not apply");
            out.restrict({OutputFormat::csv, OutputFormat::jsonl}, OutputFormat::csv, "--step");
            if (stream_.stamp != "none") OutputOptions::refuse("--stamp does not apply to --step");
            return false;
          }
          out.restrict({OutputFormat::log}, OutputFormat::log, "a filtered stream");
          return true;
        });
    stream_.out.format_option()->description(
        fmt::format("Output format: the stream's {}; with --list text or json; with --step csv or jsonl (default: "
                    "from -o's extension, else {}, text with --list, csv with --step)",
                    written_log_formats_text(), default_log_format().name()));
    model_.add_to(app);
    model_.add_from_log_to(app);
    const char* group = "Filter";
    app.add_option("-p,--param", param_args_, "Filter parameter NAME=VALUE (repeatable; see --list)")
        ->allow_extra_args(false)
        ->group(group);
    // (rf::JointField has an ADL to_string() that CLI11 mistakes for its own conversion, so
    // the name is parsed once in run() with rf::parse_joint_field.)
    app.add_option("--field", field_text_, "Field filtered")
        ->check(CLI::IsMember({"position", "velocity", "effort"}))
        ->default_str("position")
        ->group(group);
    app.add_option("--joints", joints_, "Joints filtered (comma-separated; default: all); the others pass through")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->group(group);
    app.add_flag("--list", list_, "List the filter kinds with their parameters, units and defaults")->group(group);
    app.add_flag("--step", step_,
                 "Step response of the filter (unit step at t=0) instead of filtering a log: a plot with --plot, "
                 "else a table t,input,output on -o (CSV; JSON Lines with -f jsonl)")
        ->group(group);
    with_kind(app.add_option("--duration", duration_, "Length of the --step response (s; default: a few time constants)"),
              ValueKind::time, "SECONDS")
        ->check(non_negative_number())
        ->group(group);
    with_kind(app.add_option("--plot", plot_, "Draw input and output over time into FILE.png or FILE.svg (needs gnuplot)"),
              ValueKind::file)
        ->group(group);
    with_kind(app.add_option("--from", window_.from, "Start of the time window drawn by --plot (s from the first stamp)"),
              ValueKind::time, "SECONDS")
        ->group(group);
    with_kind(app.add_option("--to", window_.to, "End of the time window drawn by --plot (s from the first stamp)"),
              ValueKind::time, "SECONDS")
        ->group(group);
    app.add_option("--plot-joints", plot_joints_, "Joints drawn by --plot (comma-separated; default: first 4 filtered)")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->group(group);
  }

  int run() override {
    if (list_) {
      list_kinds();
      return kOk;
    }
    if (kind_.empty()) throw InvalidArgument("filter: a filter kind is required (see rmodel filter --list)");
    batch_.check();
    if (batch_.active() && (step_ || !plot_.empty()))
      throw InvalidArgument("--output-dir filters logs; --step and --plot draw one response or log at a time");
    const rf::FilterKind& kind = rf::filter_kind(kind_);
    rf::FilterParams given;
    for (const auto& a : param_args_) rf::parse_param_assignment(a, given);
    given_params_ = given;
    const rf::FilterParams params = rf::resolve_params(kind, given);
    std::string gnuplot;
    if (!plot_.empty()) {
      if (window_.from > window_.to) throw InvalidArgument("--from must not be after --to");
      gnuplot = plot::preflight(plot_);
      if (gnuplot.empty()) return kFailed;
    }
    if (step_) return run_step(kind, params, gnuplot);
    return run_stream(kind, params, gnuplot);
  }

private:
  /// What a stream run takes from the model (none: the filter runs without one): the joints
  /// selected (--joints, else the model's), the joints known, the parameters as given with
  /// the position bounds left out taken from the joint limits, the writer's columns.
  struct RunSetup {
    std::vector<std::string> selection;
    std::optional<std::vector<std::string>> known;
    rf::FilterParams params;
    io::WriterOptions writer_options;
  };

  /// @throws InvalidArgument for a --joints name the model does not have.
  RunSetup setup_for(const rf::FilterKind& kind, const Model* model, bool quiet) const {
    RunSetup setup{joints_, std::nullopt, given_params_, stream_.writer_options()};
    if (model == nullptr) return setup;
    const auto& names = model->joint_names();
    for (const auto& j : joints_)
      if (std::find(names.begin(), names.end(), j) == names.end())
        throw InvalidArgument(fmt::format("--joints: the model has no joint '{}'", j));
    if (setup.selection.empty()) setup.selection = names;
    setup.known = names;
    // Position bounds the user left out default to the joint limits (with a limits file).
    if (field_ == rf::JointField::position)
      default_bounds_from_limits("filter", kind, setup.params, *model, setup.selection, quiet);
    setup.writer_options.csv_joints = names;
    setup.writer_options.csv_fields = io::CsvPosition | io::CsvVelocity | io::CsvEffort;
    return setup;
  }

  void list_kinds() {
    const auto& kinds = rf::filter_kinds();
    OutputOptions& out_file = stream_.out;
    if (out_file.is(OutputFormat::json)) {
      Json doc = json_document("rmodel.filter_kinds");
      doc["kinds"] = Json::array();
      for (const rf::FilterKind& k : kinds) {
        Json params = Json::array();
        for (const rf::ParamInfo& p : k.params)
          params.push_back({{"name", p.name},
                            {"unit", p.unit},
                            {"default", p.default_value},
                            {"integer", p.integer},
                            {"description", p.description}});
        doc["kinds"].push_back({{"name", k.name},
                                {"family", k.family},
                                {"description", k.description},
                                {"initial_state", k.initial_state},
                                {"params", params}});
      }
      out_file.write(json_text(doc));
      out_file.close();
      return;
    }
    std::string out;
    for (const rf::FilterKind& k : kinds) {
      out += fmt::format("{} ({}): {}\n", k.name, k.family, k.description);
      std::size_t name_w = 4, unit_w = 4, def_w = 7;
      for (const rf::ParamInfo& p : k.params) {
        name_w = std::max(name_w, p.name.size());
        unit_w = std::max(unit_w, p.unit.size());
        def_w = std::max(def_w, number_text(p.default_value).size());
      }
      for (const rf::ParamInfo& p : k.params)
        out += fmt::format("    {:<{}}  {:<{}}  default {:<{}}  {}{}\n", p.name, name_w, p.unit, unit_w,
                           number_text(p.default_value), def_w, p.description, p.integer ? " (integer)" : "");
    }
    out_file.write(out);
    out_file.close();
  }

  std::string title(const rf::FilterKind& kind, const rf::FilterParams& params, std::string_view what) const {
    return fmt::format("{} filter ({}): {}", kind.name, params_text(kind, params), what);
  }

  int run_step(const rf::FilterKind& kind, const rf::FilterParams& params, const std::string& gnuplot) {
    const auto samples = rf::step_response(kind.name, params, duration_);
    if (!plot_.empty()) {
      Trace tr;
      tr.title = "unit step at t = 0";
      for (const rf::StepSample& s : samples) {
        tr.t.push_back(s.t);
        tr.in.push_back(s.u);
        tr.out.push_back(s.y);
      }
      const bool ok =
          plot::draw(gnuplot, {plot_, title(kind, params, "step response"), "output [units of the input]", true, window_},
                     {tr});
      return ok ? kOk : kFailed;
    }
    const bool jsonl = stream_.out.is(OutputFormat::jsonl);
    std::string text = jsonl ? "" : "t,input,output\n";
    for (const rf::StepSample& s : samples) {
      if (jsonl)
        text += fmt::format("{{\"t\":{},\"input\":{},\"output\":{}}}\n", number_text(s.t), number_text(s.u),
                            std::isfinite(s.y) ? number_text(s.y) : "null");
      else
        text += fmt::format("{},{},{}\n", number_text(s.t), number_text(s.u), number_text(s.y));
    }
    stream_.out.write(text);
    stream_.out.close();
    return kOk;
  }

  /// Remembers the message being filtered, so that the plot sees input and output.
  class RecordingStage final : public stream::Stage {
  public:
    explicit RecordingStage(rf::StreamFilter& filter) : filter_(filter) {}
    void push(const io::Message& message, stream::Output& out, stream::Reporter& report) override {
      input = &message;
      filter_.push(message, out, report);
      input = nullptr;
    }
    void finish(stream::Output& out, stream::Reporter& report) override { filter_.finish(out, report); }
    const io::Message* input = nullptr;

  private:
    rf::StreamFilter& filter_;
  };

  /// Passes everything to the writer and records the plotted joints.
  class PlotSink final : public stream::Sink {
  public:
    PlotSink(FilterCommand& command, stream::Sink& next, const RecordingStage& stage, const rf::StreamFilter& filter)
        : command_(command), next_(next), stage_(stage), filter_(filter) {}
    void joint_state(const JointState& state, std::optional<std::int64_t> cycle) override {
      next_.joint_state(state, cycle);
    }
    void support_state(const SupportState& state, std::optional<std::int64_t> cycle) override {
      next_.support_state(state, cycle);
    }
    void message(const io::Message& message) override {
      next_.message(message);
      if (message.kind != io::MessageKind::Joint || stage_.input == nullptr) return;
      const std::vector<double>* in = command_.values(stage_.input->joint);
      const std::vector<double>* out = command_.values(message.joint);
      if (in != nullptr && out != nullptr) command_.record(message, *in, *out, filter_);
    }
    void flush() override { next_.flush(); }
    // Outside the time window: handed on, not plotted.
    void joint_state_outside(const JointState& state, std::optional<std::int64_t> cycle) override {
      next_.joint_state_outside(state, cycle);
    }
    void support_state_outside(const SupportState& state, std::optional<std::int64_t> cycle) override {
      next_.support_state_outside(state, cycle);
    }
    void message_outside(const io::Message& message) override { next_.message_outside(message); }

  private:
    FilterCommand& command_;
    stream::Sink& next_;
    const RecordingStage& stage_;
    const rf::StreamFilter& filter_;
  };

  int run_stream(const rf::FilterKind& kind, const rf::FilterParams& params, const std::string& gnuplot) {
    const std::vector<BatchItem> items =
        batch_.active() ? plan_stream_batch(stream_, batch_) : std::vector<BatchItem>{};
    if (!batch_.active()) (void)stream_.checked_inputs();
    field_ = rf::parse_joint_field(field_text_);
    const auto log_model = stream_.tf ? ModelOptions::LogModel::needed : ModelOptions::LogModel::asked;
    // A batch whose model comes from the logs takes each input's own (as `filter LOG` would);
    // the first log's is loaded here only to refuse bad options before any output is made.
    const bool own_models = batch_.active() && model_.model_in_logs(log_model);
    std::optional<Model> model =
        model_.load_for_logs(stream_.checked_inputs(), "filter", stream_.quiet || own_models, log_model);
    const RunSetup setup = setup_for(kind, model ? &*model : nullptr, stream_.quiet || own_models);
    if (model) model_joints_.insert(model->joint_names().begin(), model->joint_names().end());
    const std::vector<std::string>& selection = setup.selection;
    const std::optional<std::vector<std::string>>& known = setup.known;
    const Model* transforms_model = stream_.tf ? &*model : nullptr;
    const auto add_model_joints = [&](rf::StreamFilter& filter) {
      if (model) filter.add_joints(model->joint_names());
    };
    const io::WriterOptions& writer_options = setup.writer_options;

    if (batch_.active()) {
      // Refuses bad parameters before any output file is made.
      (void)rf::StreamFilter(kind.name, setup.params, field_, selection, known);
      // One run per input: fresh filters (threads; they only read the setup above).
      return run_stream_batch("filter", batch_, items, [&](const BatchItem& item) {
        std::optional<Model> own;
        if (own_models) own = model_.load_for_logs(std::span(&item.input, 1), "filter", stream_.quiet, log_model);
        const RunSetup own_setup = own ? setup_for(kind, &*own, stream_.quiet) : RunSetup{};
        const RunSetup& run = own ? own_setup : setup;
        rf::StreamFilter filter(kind.name, run.params, field_, run.selection, run.known);
        if (own) filter.add_joints(own->joint_names());
        else add_model_joints(filter);
        LogOutput log(item.output, run.writer_options);
        io::MessageWriter& writer = log.writer();
        stream::WriterSink writer_sink(writer);
        TransformOutput transforms;
        stream::Sink& sink = transforms.sink(writer_sink, writer, own && stream_.tf ? &*own : transforms_model);
        RecordingStage stage(filter);
        const stream::Summary summary = rmodel::cli::run_stream("filter", stream_, stage, sink, batch_stream_run(item));
        (void)log.finish("filter", summary, false);
        return summary;
      });
    }

    rf::StreamFilter filter(kind.name, setup.params, field_, selection, known);
    add_model_joints(filter);
    for (const auto& j : plot_joints_) plot_index_.emplace(j, plot_index_.size());
    traces_.resize(plot_joints_.size());
    for (std::size_t i = 0; i < plot_joints_.size(); ++i) traces_[i].title = plot_joints_[i];
    period_ = filter.params().count("T") != 0 ? filter.params().at("T") : 0.01;

    LogOutput log(stream_.out.path(), writer_options);
    io::MessageWriter& writer = log.writer();
    stream::WriterSink writer_sink(writer);
    TransformOutput transforms;
    stream::Sink& sink = transforms.sink(writer_sink, writer, transforms_model);
    RecordingStage stage(filter);
    PlotSink plot_sink(*this, sink, stage, filter);
    const stream::Summary summary =
        rmodel::cli::run_stream("filter", stream_, stage, plot_.empty() ? static_cast<stream::Sink&>(sink) : plot_sink);
    (void)log.finish("filter", summary);
    int code = summary.rejected > 0 ? kFailed : kOk;
    const std::string field_name(rf::to_string(field_));
    if (!plot_.empty()) {
      std::vector<Trace> drawn;
      for (auto& tr : traces_) {
        if (tr.t.empty()) {
          fmt::print(stderr, "rmodel: --plot: joint '{}' never had a {}; not drawn\n", tr.title, field_name);
          continue;
        }
        drawn.push_back(std::move(tr));
      }
      if (drawn.empty()) {
        fmt::print(stderr, "rmodel: --plot: nothing to draw\n");
        return kFailed;
      }
      std::string what = fmt::format("{} of {} joint{}", field_name, drawn.size(), drawn.size() == 1 ? "" : "s");
      std::vector<std::string> drawn_joints;
      for (const auto& tr : drawn) drawn_joints.push_back(tr.title);
      const std::string ylabel = field_unit(field_, model ? &*model : nullptr, drawn_joints);
      if (!plot::draw(gnuplot, {plot_, title(kind, params, what), ylabel, false, window_}, drawn)) code = kFailed;
    }
    return code;
  }

  /// The field's values of `state`, or nullptr when absent.
  const std::vector<double>* values(const JointState& state) const {
    const std::vector<double>* v = &state.position;
    if (field_ == rf::JointField::velocity) v = &state.velocity;
    if (field_ == rf::JointField::effort) v = &state.effort;
    return v->empty() || v->size() != state.name.size() ? nullptr : v;
  }

  /// Records the plotted joints of `state` (before and after filtering).
  void record(const io::Message& m, const std::vector<double>& in, const std::vector<double>& out,
              const rf::StreamFilter& filter) {
    for (std::size_t i = 0; i < m.joint.name.size(); ++i) {
      const std::string& name = m.joint.name[i];
      auto it = plot_index_.find(name);
      if (it == plot_index_.end()) {
        // Default: the first 4 filtered joints, in the order they appear.
        if (!plot_joints_.empty() || traces_.size() >= 4 || !filter.selected(name)) continue;
        if (!model_joints_.empty() && model_joints_.count(name) == 0) continue;
        it = plot_index_.emplace(name, traces_.size()).first;
        traces_.push_back({name, {}, {}, {}});
      }
      Trace& tr = traces_[it->second];
      double t = static_cast<double>(tr.t.size()) * period_;
      if (m.has_stamp) {
        if (!t0_) t0_ = m.stamp();
        t = (m.stamp() - *t0_).seconds();  // seconds after the subtraction: exact on epoch stamps
      }
      tr.t.push_back(t);
      tr.in.push_back(in[i]);
      tr.out.push_back(out[i]);
    }
  }

  ModelOptions model_;
  StreamOptions stream_;
  BatchOptions batch_;
  std::string kind_;
  std::vector<std::string> param_args_;
  std::string field_text_ = "position";
  rf::FilterParams given_params_;
  rf::JointField field_ = rf::JointField::position;
  std::vector<std::string> joints_;
  bool list_ = false;
  bool step_ = false;
  double duration_ = 0.0;
  std::string plot_;
  std::vector<std::string> plot_joints_;
  plot::Window window_;

  std::unordered_set<std::string> model_joints_;
  std::unordered_map<std::string, std::size_t> plot_index_;
  std::vector<Trace> traces_;
  std::optional<Time> t0_;
  double period_ = 0.01;
};

}  // namespace

std::unique_ptr<Command> make_filter_command() { return std::make_unique<FilterCommand>(); }

}  // namespace rmodel::cli
