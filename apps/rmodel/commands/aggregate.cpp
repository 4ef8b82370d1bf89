// rmodel aggregate: replay joint-state logs (or stream stdin) through the aggregator and
// write full sorted poses and support states. Configure, run, report: the per-message work
// (clock, publishing, output filter) is the library's pipeline (rmodel/stream/stream.hpp).

#include <filesystem>
#include <map>
#include <optional>
#include <span>

#include "options/batch.hpp"
#include "command.hpp"
#include "options/limit_defaults.hpp"
#include "options/model_options.hpp"
#include "options/pose_options.hpp"
#include "rmodel/stream/aggregator.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/stream/stream_filter.hpp"
#include "rmodel/io/writer.hpp"
#include "options/stream_options.hpp"

namespace rmodel::cli {
namespace {

class AggregateCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Replay joint-state logs (or stdin, as it arrives) through the aggregator; write full sorted poses and "
        "support states. Bad lines and rejected messages are reported on stderr, counted and skipped; exit 1 if "
        "anything was rejected");
    model_.add_to(app);
    model_.add_from_log_to(app);
    stream_.add_to(app);
    batch_.add_to(app);
    stream_.add_output_to(app, {OutputFormat::log}, OutputFormat::log);
    const char* group = "Aggregator";
    add_enum_option(app, "-k,--kind", options_.kind,
                    {{"simple", AggregatorKind::simple}, {"sync", AggregatorKind::sync}},
                    "simple: copy what arrives; sync: control cycles with differentiation, integration, prediction")
        ->default_str("simple")
        ->group(group);
    add_time_option(app, "--period", options_.period, "Control period T (s): time-tick spacing, filter step",
                    TimeRange::positive)
        ->group(group);
    add_enum_option(app, "--ticks", options_.ticks,
                    {{"auto", TickSource::automatic}, {"time", TickSource::time}, {"stream", TickSource::stream}},
                    "Where cycles end: the log's own sync ticks and cycle numbers (stream), every --period of "
                    "message time (time), or whichever the log shows (auto)")
        ->default_str("auto")
        ->group(group);
    add_enum_option(app, "--update", options_.update,
                    {{"hold", UpdatePolicy::hold},
                     {"hold-zero-velocity", UpdatePolicy::hold_zero_velocity},
                     {"extrapolate", UpdatePolicy::extrapolate},
                     {"brake", UpdatePolicy::brake}},
                    "Sync: prediction at a tick for joints without a message in the cycle")
        ->default_str("hold")
        ->group(group);
    app.add_option("--brake-deceleration", options_.brake_deceleration,
                   "Deceleration of --update brake (rad/s² or m/s²)")
        ->check(positive_number())
        ->default_str("10")
        ->group(group);
    publish_option_ = add_enum_option(app, "--publish", publish_,
                    {{"message", PublishPolicy::message}, {"tick", PublishPolicy::tick}, {"both", PublishPolicy::both}},
                    "Write the pose after every message, at every tick, or both (default: message for simple, "
                    "tick for sync)")
        ->group(group);
    with_kind(app.add_option("--diff", options_.diff_method,
                             "Sync: differentiator giving velocity from position (diff, lag_diff, fir_diff)"),
              ValueKind::text, "KIND")
        ->default_str("diff")
        ->group(group);
    app.add_option("--diff-param", diff_param_args_, "Parameter NAME=VALUE of --diff (repeatable; T defaults to --period)")
        ->allow_extra_args(false)
        ->group(group);
    app.add_option("--quad", options_.quad_method,
                   "Sync: integrator giving position from velocity (euler, trapezoid, simpson)")
        ->default_str("euler")
        ->group(group);
    app.add_option("--quad-param", quad_param_args_, "Parameter NAME=VALUE of --quad (repeatable; T defaults to --period)")
        ->allow_extra_args(false)
        ->group(group);
    app.add_flag("--clamp", options_.clamp, "Clamp positions to the URDF limits (integrators restart at the limit)")
        ->group(group);
    // A file is one of the pose's forms: completed as a file name.
    with_kind(app.add_option("--initial-pose", initial_pose_,
                             "Start the buffer and the filters at this pose: a named pose, joint=value items, or a "
                             "joint-state file"),
              ValueKind::file, "POSE")
        ->group(group);
    app.add_flag("--no-support", no_support_, "Do not write support states")->group(group);
    app.add_option("--filter", filter_kind_,
                   "Filter the published poses' positions before writing (a kind of rmodel filter --list; dt from the "
                   "poses' stamps unless --filter-param T=... is given)")
        ->group(group);
    app.add_option("--filter-param", filter_param_args_, "Parameter NAME=VALUE of --filter (repeatable)")
        ->allow_extra_args(false)
        ->group(group);
  }

  int run() override {
    batch_.check();
    // Every input is checked (and a batch's names and directory) before the model is loaded.
    const std::vector<BatchItem> items =
        batch_.active() ? plan_stream_batch(stream_, batch_) : std::vector<BatchItem>{};
    if (!batch_.active()) (void)stream_.checked_inputs();
    if (publish_option_->count() > 0) options_.publish = publish_;
    options_.support = !no_support_;
    options_.diff_params = parse_params(diff_param_args_);
    options_.quad_params = parse_params(quad_param_args_);
    if (filter_kind_.empty() && !filter_param_args_.empty()) throw InvalidArgument("--filter-param needs --filter KIND");
    // A batch whose model comes from the logs takes each input's own (as `aggregate LOG`
    // would): the first log's model is loaded here only to refuse bad options before any
    // output file is made.
    const bool own_models = batch_.active() && model_.model_in_logs();
    const Model model = *model_.load_for_logs(stream_.checked_inputs(), "aggregate", stream_.quiet || own_models);
    const RunSetup setup = setup_for(model, stream_.quiet || own_models);

    // One run: a fresh aggregator and output filter (batch inputs run this in threads; it
    // only reads what was set up above).
    const auto run_one = [&](const Model& run_model, const RunSetup& run_setup, const std::string& output,
                             const StreamRun& run) {
      Aggregator aggregator(run_model, run_setup.options);
      LogOutput log(output, run_setup.writer_options);
      io::MessageWriter& writer = log.writer();
      stream::WriterSink writer_sink(writer);
      TransformOutput transforms;
      stream::Sink& sink = transforms.sink(writer_sink, writer, stream_.tf ? &run_model : nullptr);
      std::optional<filters::FilterSink> filtered;
      if (!filter_kind_.empty()) filtered.emplace(sink, filter_kind_, run_setup.filter_params, run_model.pose_size());
      const stream::Summary summary =
          run_stream("aggregate", stream_, aggregator, filtered ? static_cast<stream::Sink&>(*filtered) : sink, run);
      (void)log.finish("aggregate", summary, !batch_.active());
      return summary;
    };
    if (batch_.active())
      return run_stream_batch("aggregate", batch_, items, [&](const BatchItem& item) {
        if (!own_models) return run_one(model, setup, item.output, batch_stream_run(item));
        const Model own = *model_.load_for_logs(std::span(&item.input, 1), "aggregate", stream_.quiet);
        return run_one(own, setup_for(own, stream_.quiet), item.output, batch_stream_run(item));
      });
    const stream::Summary summary =
        run_one(model, setup, stream_.out.path(), StreamRun{stream_.checked_inputs(), {}, true});
    return summary.rejected > 0 ? kFailed : kOk;
  }

private:
  /// What a run takes from the model: the aggregator's options with the initial pose, the
  /// writer's columns, the output filter's bounds from the limits.
  struct RunSetup {
    AggregatorOptions options;
    io::WriterOptions writer_options;
    filters::FilterParams filter_params;
  };

  /// @throws InvalidArgument for options the model refuses (an unknown joint in
  /// --initial-pose, bad aggregator options).
  RunSetup setup_for(const Model& model, bool quiet) const {
    RunSetup setup{options_, stream_.writer_options(), {}};
    if (!initial_pose_.empty()) setup.options.initial_positions = resolve_pose_argument(model, initial_pose_);
    (void)Aggregator(model, setup.options);  // refuses bad options before any output file is made
    setup.writer_options.csv_joints = model.joint_names();
    // Velocity and effort may appear only later in a stream: give them columns from the
    // start (empty cells while absent).
    setup.writer_options.csv_fields = io::CsvPosition | io::CsvVelocity | io::CsvEffort;
    if (!no_support_) setup.writer_options.csv_support = model.chain_names();
    if (!filter_kind_.empty()) {
      for (const auto& a : filter_param_args_) filters::parse_param_assignment(a, setup.filter_params);
      default_bounds_from_limits("aggregate", filters::filter_kind(filter_kind_), setup.filter_params, model, {},
                                 quiet);
    }
    return setup;
  }

  static std::vector<std::pair<std::string, double>> parse_params(const std::vector<std::string>& args) {
    filters::FilterParams params;
    for (const auto& a : args) filters::parse_param_assignment(a, params);
    return {params.begin(), params.end()};
  }

  ModelOptions model_;
  StreamOptions stream_;
  BatchOptions batch_;
  AggregatorOptions options_;
  PublishPolicy publish_ = PublishPolicy::message;
  CLI::Option* publish_option_ = nullptr;
  std::vector<std::string> diff_param_args_, quad_param_args_;
  std::string initial_pose_;
  bool no_support_ = false;
  std::string filter_kind_;
  std::vector<std::string> filter_param_args_;
};

}  // namespace

std::unique_ptr<Command> make_aggregate_command() { return std::make_unique<AggregateCommand>(); }

}  // namespace rmodel::cli
