// rmodel splice: from movement A into movement B (or from a pose into B) over a transition
// given by one of the design's fusion laws. The splicing lives in the library
// (rmodel/stream/splice.hpp); this file reads the movements, reports and writes.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include <fmt/format.h>

#include "command.hpp"
#include "options/input_options.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "options/pose_options.hpp"
#include "options/stream_options.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "rmodel/stream/splice.hpp"
#include "terminal.hpp"

namespace rmodel::cli {
namespace {

/// A movement read whole, with the count of what could not be read.
struct ReadMovement {
  std::vector<io::Message> messages;
  std::string source;
  std::size_t rejected = 0;
  bool has_joint = false;
  Time first{}, last_joint{};
};

ReadMovement read_movement(const std::string& path, const LogInputOptions& input) {
  ReadMovement out;
  io::MessageReader reader = io::MessageReader::open(path, input.reader_options(path));
  out.source = reader.source();
  io::Message m;
  bool any = false;
  while (true) {
    const io::ReadStatus status = reader.next(m);
    if (status == io::ReadStatus::End) break;
    if (status == io::ReadStatus::Error) {
      terminal::diagnostic(fmt::format("rmodel: {}", reader.error().to_string(out.source)));
      ++out.rejected;
      continue;
    }
    if (status != io::ReadStatus::Ok || m.kind == io::MessageKind::Sync) continue;
    if (!m.has_stamp) {
      terminal::diagnostic(fmt::format("rmodel: {}: a message without a time (a movement needs stamps); skipped",
                                       io::location(out.source, m.line, m.item)));
      ++out.rejected;
      continue;
    }
    if (m.kind == io::MessageKind::Joint) {
      if (m.joint.position.size() != m.joint.name.size()) {
        terminal::diagnostic(fmt::format("rmodel: {}: a joint state without one position per name; skipped",
                                         io::location(out.source, m.line, m.item)));
        ++out.rejected;
        continue;
      }
      if (!out.has_joint || m.joint.stamp > out.last_joint) out.last_joint = m.joint.stamp;
      out.has_joint = true;
    }
    if (!any || m.stamp() < out.first) out.first = m.stamp();
    any = true;
    out.messages.push_back(m);
  }
  if (!out.has_joint) throw Error(fmt::format("{}: no joint state with a time: nothing to splice", out.source));
  return out;
}

/// True for a JSON file holding a JointTrajectory or a FollowJointTrajectoryGoal.
bool is_trajectory_file(const std::string& path) {
  if (path == "-" || io::format_from_path(path) != io::parse_format("json")) return false;
  std::ifstream in(path, std::ios::binary);
  std::string head(1 << 16, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head.find("\"joint_names\"") != std::string::npos;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

class SpliceCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Splice two movements: A until time T, then a transition into B by a fusion law (linear, exponential or "
        "second-order), then B. B is shifted to start at T (or keeps its times with --keep-time). With "
        "--from-pose, from a pose into B. Movements are joint-state logs in any format rmodel reads, or "
        "FollowJointTrajectoryGoal / JointTrajectory JSON; the output is a log, or (-f json) a "
        "FollowJointTrajectoryGoal that the robot can play");
    app.add_option("movements", inputs_, "Movement A then movement B (one file, B, with --from-pose; '-' for stdin)")
        ->type_name("FILE")
        ->required()
        ->expected(1, 2);
    const char* group = "Splice";
    at_option_ = add_time_option(app, "--at", at_, "T: when the transition starts, in seconds after A's first message",
                                 TimeRange::non_negative)
                     ->default_str("A's last joint state")
                     ->group(group);
    add_enum_option(
        app, "--law", options_.law,
        {{"linear", SpliceLaw::Linear}, {"exp", SpliceLaw::Exponential}, {"second-order", SpliceLaw::SecondOrder}},
        "Fusion law: linear (A's weight falls from 1 to 0 in tau), exp (weight x(1 - dt/tau) per "
        "sample), second-order (transient from A's position and velocity to B, time constant tau)")
        ->group(group);
    with_kind(app.add_option("--tau", options_.tau,
                             "Duration (linear) or time constant (exp, second-order) of the transition, s"),
              ValueKind::time, "SECONDS")
        ->check(positive_number())
        ->capture_default_str()
        ->group(group);
    app.add_option("--settle", options_.settle,
                   "exp and second-order: the transition ends when what is left of the difference to B is at most "
                   "this fraction of it at T")
        ->check(number_in(1e-12, 0.999999))
        ->capture_default_str()
        ->group(group);
    step_option_ = add_time_option(app, "--step", step_,
                                   "Also sample the transition every SECONDS from T (for sparse movements such as "
                                   "trajectories of a few points)",
                                   TimeRange::positive)
                       ->group(group);
    app.add_flag("--keep-time", options_.keep_time,
                 "B keeps its own times (its messages before T are dropped) instead of starting at T")
        ->group(group);
    // A file is one of the pose's forms: completed as a file name.
    with_kind(app.add_option("--from-pose", from_pose_,
                             "Start from this pose instead of a movement A: a joint-state file (its first joint "
                             "state), or, with the model, a named pose and/or joint=value items"),
              ValueKind::file, "POSE")
        ->group(group);
    app.add_flag("-q,--quiet", quiet_, "Print no warnings and no summary on stderr")->group(group);
    input_.add_to(app, "Input");
    out_.add_to(app, {OutputFormat::log, OutputFormat::json}, OutputFormat::log, [this] {
                  if (!from_pose_.empty() && inputs_.size() != 1)
                    OutputOptions::refuse("--from-pose splices into one movement: give B only");
                  if (from_pose_.empty() && inputs_.size() != 2)
                    OutputOptions::refuse("give two movements, A and B (or --from-pose POSE and B)");
                  if (!from_pose_.empty() && (at_option_->count() > 0 || options_.keep_time))
                    OutputOptions::refuse("--at and --keep-time do not apply to --from-pose (T is B's start)");
                });
    out_.format_option()->description(
        fmt::format("Output format: a log ({}) or json, a FollowJointTrajectoryGoal document (default: from -o's "
                    "extension, else json when the movements are trajectories, else {})",
                    written_log_formats_text(), default_log_format().name()));
    model_.add_to(app);
  }

  int run() override {
    if (step_option_->count() > 0) options_.step = step_;
    // The movements, read whole (the inputs); the splice is made as it is written.
    std::optional<JointState> pose;
    std::optional<ReadMovement> a;
    if (!from_pose_.empty()) pose = resolve_from_pose();
    else a = read_movement(inputs_[0], input_);
    const ReadMovement b = read_movement(inputs_[pose ? 0 : 1], input_);
    const std::size_t rejected = b.rejected + (a ? a->rejected : 0);
    const Time a_first = a ? a->first : b.first;  // the switching time is on A's clock, as --at gives it
    if (a) {
      const Time span = a->last_joint - a->first;
      options_.at = at_option_->count() > 0 ? at_ : span;
      if (options_.at > span)
        throw InvalidArgument(fmt::format("--at {}: after the end of {} ({} s after its first message)",
                                          to_string(options_.at), a->source, to_string(span)));
    }
    const auto splice_into = [&](const SpliceSink& sink) {
      if (pose) return splice_from_pose(*pose, b.messages, options_, sink);
      try {
        return splice(a->messages, b.messages, options_, sink);
      } catch (const InvalidArgument& e) {
        throw InvalidArgument(fmt::format("splicing {} into {}: {}", a->source, b.source, e.what()));
      }
    };

    std::size_t written = 0;
    SpliceResult result;
    std::optional<LogOutput> log;
    const OutputFormat format = output_format();
    if (format == OutputFormat::json) {
      std::vector<io::Message> messages;
      result = splice_into([&messages](const io::Message& m) { messages.push_back(m); });
      written = messages.size();
      out_.write(trajectory_goal_json(messages));
    } else {
      io::WriterOptions options;
      options.format = out_.log_format();
      // CSV: columns for every joint and chain of the splice, known before its first row: a
      // first pass collects them (the first message may not name them all).
      if (out_.is_log("csv"))
        (void)splice_into([&options](const io::Message& m) {
          const auto& names = m.kind == io::MessageKind::Joint ? m.joint.name : m.support.name;
          auto& columns = m.kind == io::MessageKind::Joint ? options.csv_joints : options.csv_support;
          for (const auto& n : names)
            if (std::find(columns.begin(), columns.end(), n) == columns.end()) columns.push_back(n);
        });
      // Opened at the first message, once the splice has passed its checks.
      result = splice_into([&](const io::Message& m) {
        if (!log) log.emplace(out_.path(), options);
        (void)log->writer().write(m);
        ++written;
      });
      if (!log) log.emplace(out_.path(), options);
    }
    if (!quiet_ && !result.only_in_a.empty())
      terminal::diagnostic(fmt::format("rmodel: warning: joints only in {} are held at their position at T from T on: {}",
                                       a->source, joined(result.only_in_a)));
    if (!quiet_ && !result.only_in_b.empty())
      terminal::diagnostic(fmt::format("rmodel: warning: joints only in {} follow it without a transition: {}",
                                       b.source, joined(result.only_in_b)));
    if (!quiet_)
      terminal::diagnostic(fmt::format(
          "rmodel splice: switched at {} s, transition of {} s ({} sample{}), wrote {} messages{}",
          to_string(result.start - a_first), to_string(result.end - result.start), result.transition_samples,
          result.transition_samples == 1 ? "" : "s", written,
          rejected > 0 ? fmt::format(", {} rejected", rejected) : std::string()));
    // With rejected messages of the movements, the output is incomplete: a file is not written.
    if (log) {
      stream::Summary summary;
      summary.rejected = rejected;
      (void)log->finish("splice", summary, true, quiet_);
    } else if (rejected > 0) {
      out_.abandon("splice", rejected_messages_text(rejected), quiet_);
    } else {
      out_.close();
    }
    return rejected > 0 ? kFailed : kOk;
  }

private:
  JointState resolve_from_pose() const {
    if (!model_.given() && std::filesystem::is_regular_file(from_pose_)) {
      io::MessageReader reader = io::MessageReader::open(from_pose_, input_.reader_options(from_pose_));
      io::Message m;
      while (true) {
        const io::ReadStatus status = reader.next(m);
        if (status == io::ReadStatus::End) break;
        if (status == io::ReadStatus::Ok && m.kind == io::MessageKind::Joint &&
            m.joint.position.size() == m.joint.name.size() && !m.joint.name.empty())
          return m.joint;
      }
      throw Error(fmt::format("--from-pose {}: no joint state with positions in the file", from_pose_));
    }
    if (!model_.given())
      throw InvalidArgument(fmt::format(
          "--from-pose '{}': not a file; a named pose or joint=value items need the model (-u URDF [-s SEMANTICS])",
          from_pose_));
    const Model model = model_.load();
    warn_mistakes(model);
    JointState pose;
    pose.name = model.joint_names();
    pose.position = resolve_pose_argument(model, from_pose_);
    return pose;
  }

  /// The format written: -f, else -o's extension, else json when every movement is a
  /// trajectory, else jsonl.
  [[nodiscard]] OutputFormat output_format() const {
    if (out_.format_given() || out_.path_given()) return out_.format();
    bool trajectories = true;
    for (const auto& path : inputs_) trajectories = trajectories && is_trajectory_file(path);
    return trajectories ? OutputFormat::json : out_.format();
  }

  std::vector<std::string> inputs_;
  Time at_{};
  Time step_{};
  CLI::Option* at_option_ = nullptr;
  CLI::Option* step_option_ = nullptr;
  SpliceOptions options_;
  std::string from_pose_;
  bool quiet_ = false;
  LogInputOptions input_;
  OutputOptions out_;
  ModelOptions model_;
};

}  // namespace

std::unique_ptr<Command> make_splice_command() { return std::make_unique<SpliceCommand>(); }

}  // namespace rmodel::cli
