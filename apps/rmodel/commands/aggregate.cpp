// rmodel aggregate: replay joint-state logs (or stream stdin) through the aggregator and
// write full sorted poses and support states. One code path for files and live streams.

#include <cmath>
#include <set>

#include <fmt/format.h>

#include "command.hpp"
#include "model_options.hpp"
#include "rmodel/aggregator.hpp"
#include "rmodel/error.hpp"
#include "rmodel/filters/registry.hpp"
#include "rmodel/filters/stream_filter.hpp"
#include "rmodel/io/message.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "stream_options.hpp"

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
    stream_.add_to(app);
    const char* group = "Aggregator";
    app.add_option("-k,--kind", kind_, "simple: copy what arrives; sync: also differentiate, integrate, predict")
        ->check(CLI::IsMember({"simple", "sync"}))
        ->default_str("simple")
        ->group(group);
    app.add_option("--period", period_, "Control period T (s): sync ticks every T of message time, filter step")
        ->check(CLI::PositiveNumber)
        ->group(group);
    app.add_option("--ticks", ticks_, "Sync tick source: time (every --period; default for sync) or stream (sync messages and cycle numbers only)")
        ->check(CLI::IsMember({"time", "stream"}))
        ->group(group);
    app.add_option("--update", update_, "Sync: joints without news at a tick")
        ->check(CLI::IsMember({"hold", "hold-zero-velocity", "extrapolate", "brake"}))
        ->default_str("hold")
        ->group(group);
    app.add_option("--brake-deceleration", brake_, "Deceleration of --update brake (rad/s² or m/s²)")
        ->check(CLI::PositiveNumber)
        ->default_str("10")
        ->group(group);
    app.add_option("--diff", diff_, "Sync: filter kind giving velocity from position (see rmodel filter --list)")
        ->default_str("diff")
        ->group(group);
    app.add_option("--quad", quad_, "Sync: filter kind giving position from velocity")->default_str("euler")->group(group);
    app.add_flag("--clamp", clamp_, "Clamp positions to the URDF limits")->group(group);
    app.add_option("--publish", publish_, "Write the pose after every message or on sync ticks only")
        ->check(CLI::IsMember({"message", "sync"}))
        ->group(group);
    app.add_flag("--no-support", no_support_, "Do not write support states")->group(group);
    app.add_option("--filter", filter_kind_,
                   "Filter the full pose positions before writing (a kind of rmodel filter --list; period T from "
                   "--filter-param T=..., assumes one pose per T)")
        ->group(group);
    app.add_option("--filter-param", filter_param_args_, "Parameter NAME=VALUE of --filter (repeatable)")
        ->allow_extra_args(false)
        ->group(group);
  }

  int run() override {
    const auto inputs = stream_.checked_inputs();
    const Model model = model_.load();
    AggregatorOptions options;
    options.kind = parse_aggregator_kind(kind_);
    options.clamp = clamp_;
    options.update = parse_update_policy(update_);
    options.brake_deceleration = brake_;
    options.diff_method = diff_;
    options.quad_method = quad_;
    if (period_ > 0) options.period = period_;
    options.publish = publish_.empty() ? (options.kind == AggregatorKind::sync ? PublishPolicy::sync
                                                                              : PublishPolicy::every_message)
                                       : parse_publish_policy(publish_);
    time_ticks_ = ticks_.empty() ? (options.kind == AggregatorKind::sync || period_ > 0) : ticks_ == "time";
    Aggregator aggregator(model, options);
    if (!filter_kind_.empty()) {
      filters::FilterParams params;
      for (const auto& a : filter_param_args_) filters::parse_param_assignment(a, params);
      pose_filter_ = filters::make_array_filter(filter_kind_, static_cast<Eigen::Index>(model.pose_size()), params);
      filter_in_ = Eigen::VectorXd::Zero(pose_filter_->size());
    } else if (!filter_param_args_.empty()) {
      throw InvalidArgument("--filter-param needs --filter KIND");
    }

    io::WriterOptions writer_options = stream_.writer_options();
    writer_options.csv_joints = model.joint_names();
    // Velocity and effort may appear only later in a stream: give them columns from the
    // start (empty cells while absent).
    writer_options.csv_fields = io::CsvPosition | io::CsvVelocity | io::CsvEffort;
    if (!no_support_) writer_options.csv_support = model.chain_names();
    io::MessageWriter writer = io::MessageWriter::open(stream_.output, writer_options);

    StreamStats stats;
    try {
      for (const auto& path : inputs) {
        if (!replay(path, aggregator, writer, stats)) break;
      }
      writer.flush();
    } catch (const BrokenPipe&) {
      // The reader of our output went away (`| head`): a normal end for a stream.
      stats.stopped_early = true;
    }
    stats.print_summary("aggregate");
    return stats.rejected > 0 ? kFailed : kOk;
  }

private:
  /// Replays one input; false when the run must stop (--max-errors).
  bool replay(const std::string& path, Aggregator& aggregator, io::MessageWriter& writer, StreamStats& stats) {
    StreamInput input(path, stream_);
    io::Message message;
    const bool every_message = aggregator.options().publish == PublishPolicy::every_message;
    while (input.next(message, stats, [&] { writer.flush(); })) {
      if (message.kind == io::MessageKind::Sync) {
        tick(aggregator, writer, stats, message.sync_stamp, message.cycle);
        continue;
      }
      advance_clock(aggregator, writer, stats, message);
      Verdict verdict;
      if (message.kind == io::MessageKind::Joint)
        verdict = aggregator.on_joint_state(message.joint, message.cycle);
      else
        verdict = aggregator.on_support_state(message.support);
      if (verdict == Verdict::rejected) {
        const Rejection& r = aggregator.rejection();
        if (!input.reject(message, stats,
                          r.field == "name"
                              ? fmt::format("message rejected: joint '{}' is named twice (elements {} and {})",
                                            message.joint.name[r.got - 1], r.expected, r.got)
                              : fmt::format("message rejected: '{}' has {} values for {} names", r.field, r.got,
                                            r.expected)))
          return false;
        continue;
      }
      report_warnings(input.source(), message, aggregator, stats);
      if (!every_message) continue;
      if (message.kind == io::MessageKind::Joint) {
        write_pose(aggregator, writer, stats, message.cycle);
      } else if (!no_support_) {
        writer.write(aggregator.support(), message.cycle);
        ++stats.written;
      }
    }
    return !stats.stopped_early;
  }

  /// Time ticks: every --period of message time, starting at the first stamp seen.
  void advance_clock(Aggregator& aggregator, io::MessageWriter& writer, StreamStats& stats, const io::Message& m) {
    if (m.cycle && aggregator.options().kind == AggregatorKind::sync) {
      while (*m.cycle > aggregator.cycle()) tick(aggregator, writer, stats, m.stamp(), std::nullopt);
    }
    if (!time_ticks_ || !m.has_stamp || !std::isfinite(m.stamp())) return;
    const double period = aggregator.options().period;
    if (!clock_started_) {
      next_tick_ = m.stamp() + period;
      clock_started_ = true;
      return;
    }
    // A stamp far ahead (a gap in the log) would tick many times; bound it so a bad stamp
    // cannot stall the stream.
    for (int n = 0; m.stamp() >= next_tick_ - 1e-12 && n < 100000; ++n) {
      tick(aggregator, writer, stats, next_tick_, std::nullopt);
      next_tick_ += period;
    }
    if (m.stamp() >= next_tick_) next_tick_ = m.stamp() + period;
  }

  void tick(Aggregator& aggregator, io::MessageWriter& writer, StreamStats& stats, double stamp,
            std::optional<std::int64_t> cycle) {
    aggregator.on_sync(stamp, cycle);
    if (aggregator.options().publish != PublishPolicy::sync) return;
    write_pose(aggregator, writer, stats, aggregator.cycle());
    if (!no_support_ && !aggregator.support().name.empty()) {
      writer.write(aggregator.support(), aggregator.cycle());
      ++stats.written;
    }
  }

  void write_pose(Aggregator& aggregator, io::MessageWriter& writer, StreamStats& stats,
                  std::optional<std::int64_t> cycle) {
    if (pose_filter_) {
      // One filter over the whole pose; the copy keeps its capacity between poses.
      filtered_pose_ = aggregator.pose();
      const auto n = static_cast<std::size_t>(pose_filter_->size());
      if (filtered_pose_.position.size() == n) {
        for (std::size_t i = 0; i < n; ++i) filter_in_[static_cast<Eigen::Index>(i)] = filtered_pose_.position[i];
        if (pose_filter_->update(filter_in_))
          for (std::size_t i = 0; i < n; ++i) filtered_pose_.position[i] = pose_filter_->y()[static_cast<Eigen::Index>(i)];
      }
      writer.write(filtered_pose_, cycle);
      ++stats.written;
      return;
    }
    writer.write(aggregator.pose(), cycle);
    ++stats.written;
  }

  void report_warnings(const std::string& source, const io::Message& m, const Aggregator& aggregator,
                       StreamStats& stats) {
    for (const AggregatorWarning& w : aggregator.warnings()) {
      ++stats.warnings;
      if (stream_.quiet) continue;
      std::string text;
      switch (w.kind) {
        case AggregatorWarning::Kind::unknown_joint: {
          const std::string& name = m.joint.name[w.element];
          if (!reported_unknown_.insert("joint " + name).second) continue;
          text = fmt::format("warning: unknown joint '{}' skipped (not reported again)", name);
          break;
        }
        case AggregatorWarning::Kind::unknown_chain: {
          const std::string& name = m.support.name[w.element];
          if (!reported_unknown_.insert("chain " + name).second) continue;
          text = fmt::format("warning: unknown chain '{}' skipped (not reported again)", name);
          break;
        }
        case AggregatorWarning::Kind::unknown_contact:
          text = fmt::format("warning: unknown contact '{}' for chain '{}'; default contact used",
                             m.support.contact[w.element], m.support.name[w.element]);
          break;
        case AggregatorWarning::Kind::limit_exceeded: {
          const std::string& name = m.joint.name[w.element];
          const JointInfo* j = aggregator.model().find_urdf_joint(name);
          text = fmt::format("warning: joint '{}' at {} is outside its limits [{}, {}]{}", name, w.value, j->lower,
                             j->upper, aggregator.options().clamp ? "; clamped" : "");
          break;
        }
        case AggregatorWarning::Kind::cycle_mismatch:
          text = fmt::format("warning: message of cycle {} arrived in cycle {}", w.value, aggregator.cycle());
          break;
      }
      report_input(source, m.line, m.item, text);
    }
  }


  ModelOptions model_;
  StreamOptions stream_;
  std::string kind_ = "simple";
  double period_ = 0;
  std::string ticks_;
  std::string update_ = "hold";
  double brake_ = 10.0;
  std::string diff_ = "diff";
  std::string quad_ = "euler";
  bool clamp_ = false;
  std::string publish_;
  bool no_support_ = false;
  std::string filter_kind_;
  std::vector<std::string> filter_param_args_;
  std::unique_ptr<filters::ArrayFilter> pose_filter_;
  Eigen::VectorXd filter_in_;
  JointState filtered_pose_;

  bool time_ticks_ = false;
  bool clock_started_ = false;
  double next_tick_ = 0;
  std::set<std::string> reported_unknown_;
};

}  // namespace

std::unique_ptr<Command> make_aggregate_command() { return std::make_unique<AggregateCommand>(); }

}  // namespace rmodel::cli
