// rmodel fk: link frames (position and orientation) at a pose given on the command line or
// in a file, or for every joint state of a log (a held full pose that partial messages
// update).

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <optional>
#include <set>
#include <span>

#include <Eigen/Geometry>
#include <fmt/format.h>

#include "command.hpp"
#include "options/collision_options.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "options/pose_options.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/stream/fk_stream.hpp"
#include "rmodel/io/message.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/kinematics.hpp"
#include "options/stream_options.hpp"

namespace rmodel::cli {
namespace {

namespace kin = rmodel::kinematics;

class FkCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Forward kinematics: link frames (position in m; orientation as quaternion x y z w or roll pitch yaw in "
        "rad) in the base (root link) frame, or in the chain's first_link frame with --chain; at one pose, or for "
        "every joint-state message of a log (--log)");
    model_.add_to(app);
    model_.add_from_log_to(app);
    pose_.add_to(app, true);
    // One pose: text, json, csv. --log: a record per joint state, text, jsonl or csv.
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv, OutputFormat::jsonl},
                OutputFormat::text, [this] {
                  if (log_.empty())
                    out_.restrict({OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text,
                                  "one pose");
                  else
                    out_.restrict({OutputFormat::text, OutputFormat::jsonl, OutputFormat::csv}, OutputFormat::text,
                                  "--log");
                });
    const char* select = "Selection";
    app.add_option("--links", links_, "Links to show, comma-separated (default: all)")
        ->delimiter(',')
        ->type_name("LINK,...")
        ->group(select);
    app.add_option("--chain", chain_, "Only the links of this chain, in its first_link frame")->group(select);
    app.add_flag("--with-virtual", with_virtual_,
                 "Include the chains' virtual links (past last_link), hidden by default")
        ->group(select);
    app.add_option("--orientation", orientation_, "Orientation as a quaternion (qx qy qz qw) or as roll pitch yaw")
        ->check(CLI::IsMember({"quat", "rpy"}))
        ->default_str("quat")
        ->group(select);
    collisions_.add_to(app,
                       "Instead of the frames, the pairs of links that collide (link1, link2, depth in m; the links' "
                       "<collision> geometry; pairs the SRDF's <disable_collisions> names, without a matrix the adjacent "
                       "ones, left out); with --log, at each joint state that has any",
                       select);
    const char* group = "Streams";
    auto* log = app.add_option("--log", log_,
                               fmt::format("Stream a joint-state log ({}; '-': stdin): one record per joint state; "
                                           "partial messages update the held pose, which starts at the given pose",
                                           log_extensions_text()))
                    ->type_name("FILE|-")
                    ->group(group);
    add_log_input_options(app, stream_, log, group, "Flush the output after every record");
  }

  int run() override {
    std::optional<std::vector<std::string>> inputs;
    if (!log_.empty()) {
      stream_.inputs = {log_};
      inputs = stream_.checked_inputs();
    }
    if (model_.from_log && log_.empty()) throw InvalidArgument("--model-from-log needs --log");
    const Model model =
        inputs ? *model_.load_for_logs(*inputs, "fk", stream_.quiet) : model_.load();
    // Mimic joints read their slot of the pose, which follows the master unless the input
    // gave the mimic joint's own value (robot_state_publisher keeps that one).
    kin::KinematicModel km = chain_.empty()
                                 ? kin::KinematicModel::from_model(model, kin::MimicJoints::from_pose)
                                 : kin::KinematicModel::from_chain(model, chain_, with_virtual_, kin::PoseLayout::full,
                                                                   kin::MimicJoints::from_pose);
    select_bodies(model, km);
    std::vector<double> pose = pose_.resolve(model);
    if (collisions_.enabled) {
      collision_check_ = collisions_.build(model_, model, "fk");
      collision_ws_ = std::make_unique<collision::CollisionWorkspace>(collision_check_->model);
      collision_slots_ = collision::joint_slots(collision_check_->model, model.joint_names());
      collision_pose_.assign(collision_check_->model.joint_names().size(), 0.0);
    }
    if (!inputs) {
      kin::Workspace ws(km);
      kin::forward_kinematics(km, ws, pose);
      if (collisions_.enabled)
        out_.write(collision_table(pose).render(out_.format(), "rmodel.fk_collisions", "collisions"));
      else
        out_.write(frames_table(km, ws).render(out_.format(), "rmodel.fk", "frames"));
      out_.close();
      return kOk;
    }
    return stream(model, km, std::move(pose));
  }

private:
  /// The bodies to show: --links in the given order, else every body of the model (minus
  /// the chains' virtual links unless --with-virtual, for a whole-robot model).
  void select_bodies(const Model& model, const kin::KinematicModel& km) {
    if (!links_.empty()) {
      for (const auto& link : links_) {
        const auto body = km.find_body(link);
        if (!body) {
          if (!chain_.empty() && model.find_link(link))
            throw Error(fmt::format("link '{}' is not in chain '{}'", link, chain_));
          throw NotFound("link", link);
        }
        bodies_.push_back(*body);
      }
      return;
    }
    std::vector<bool> hidden(km.size(), false);
    if (chain_.empty() && !with_virtual_) {
      for (const auto& chain : model.chains()) {
        if (chain.last_link_virtual.empty() || chain.last_link_virtual == chain.last_link) continue;
        const auto last = km.find_body(chain.last_link);
        const auto tip = km.find_body(chain.last_link_virtual);
        if (!last || !tip) continue;
        for (std::size_t b = 0; b < km.size(); ++b)
          if (b != *last && km.is_ancestor(*last, b) && km.is_ancestor(b, *tip)) hidden[b] = true;
      }
    }
    for (std::size_t b = 0; b < km.size(); ++b)
      if (!hidden[b]) bodies_.push_back(b);
  }

  [[nodiscard]] bool rpy() const { return orientation_ == "rpy"; }

  [[nodiscard]] std::vector<std::string> columns() const {
    if (rpy()) return {"link", "x", "y", "z", "roll", "pitch", "yaw"};
    return {"link", "x", "y", "z", "qx", "qy", "qz", "qw"};
  }

  /// Position then orientation values of a frame (3 + 4 or 3 + 3 numbers).
  [[nodiscard]] std::vector<double> frame_values(const Eigen::Isometry3d& frame) const {
    const Eigen::Vector3d p = frame.translation();
    const Eigen::Matrix3d r = frame.linear();
    std::vector<double> values{p.x(), p.y(), p.z()};
    if (rpy()) {
      const auto [roll, pitch, yaw] = kin::roll_pitch_yaw(r);
      values.insert(values.end(), {roll, pitch, yaw});
    } else {
      Eigen::Quaterniond q(r);
      q.normalize();
      if (q.w() < 0) q.coeffs() = -q.coeffs();  // one of the two equivalent signs: w ≥ 0
      values.insert(values.end(), {q.x(), q.y(), q.z(), q.w()});
    }
    return values;
  }

  [[nodiscard]] Table frames_table(const kin::KinematicModel& km, const kin::Workspace& ws) const {
    Table table(columns());
    for (std::size_t b : bodies_) {
      std::vector<Json> row{km.body(b).name};
      for (double v : frame_values(ws.frame(b)))
        row.push_back(out_.is(OutputFormat::text) ? Json(fixed_text(v)) : Json(v));
      table.add_row(std::move(row));
    }
    return table;
  }

  /// The pairs of links in collision (or within --margin) at the full pose `pose`.
  [[nodiscard]] Table collision_table(std::span<const double> pose) const {
    const collision::CollisionModel& cm = collision_check_->model;
    for (std::size_t i = 0; i < pose.size(); ++i)
      if (collision_slots_[i] >= 0) collision_pose_[static_cast<std::size_t>(collision_slots_[i])] = pose[i];
    collision::set_pose(cm, *collision_ws_, collision_pose_);
    collision::check_self_collisions(cm, *collision_ws_, collision_check_->allowed, collision_check_->options);
    Table table({"link1", "link2", "depth"});
    for (const auto& c : collision_ws_->contacts())
      table.add_row({cm.links()[c.pair.first], cm.links()[c.pair.second],
                     out_.is(OutputFormat::text) ? Json(fixed_text(c.depth)) : Json(c.depth)});
    return table;
  }

  // ---- streaming ----

  /// One record: a JSON line, a CSV row (wide: <link>.<column>), or a text block.
  [[nodiscard]] std::string record(const kin::KinematicModel& km, const kin::Workspace& ws, const io::Message& m,
                                   std::uint64_t number, std::span<const double> pose) const {
    if (collisions_.enabled) return collision_record(m, number, pose);
    if (out_.is(OutputFormat::jsonl)) {
      Json doc = Json::object();
      if (m.cycle) doc["cycle"] = *m.cycle;
      doc["frames"] = frames_table(km, ws).to_json();
      // `t` first, as the exact decimal of its nanoseconds (nlohmann_json would write a double).
      std::string line = doc.dump();
      if (m.has_stamp) line.insert(1, "\"t\":" + to_string(m.stamp()) + ",");
      return line + "\n";
    }
    if (out_.is(OutputFormat::csv)) {
      std::string out = m.has_stamp ? to_string(m.stamp()) : std::string();
      for (std::size_t b : bodies_)
        for (double v : frame_values(ws.frame(b))) out += "," + number_text(v);
      return out + "\n";
    }
    std::string head = fmt::format("# message {}", number);
    if (m.has_stamp) head += fmt::format(", t = {}", to_string(m.stamp()));
    if (m.cycle) head += fmt::format(", cycle {}", *m.cycle);
    return fmt::format("{}{}\n{}", number > 1 ? "\n" : "", head, frames_table(km, ws).render(OutputFormat::text));
  }

  /// fk --log --collisions: a JSON line per joint state (its collisions, maybe none); CSV rows
  /// and a text block only for the joint states that have any.
  [[nodiscard]] std::string collision_record(const io::Message& m, std::uint64_t number,
                                             std::span<const double> pose) const {
    const Table table = collision_table(pose);
    const std::size_t count = collision_ws_->contacts().size();
    if (out_.is(OutputFormat::jsonl)) {
      Json doc = Json::object();
      if (m.cycle) doc["cycle"] = *m.cycle;
      doc["collisions"] = table.to_json();
      std::string line = doc.dump();
      if (m.has_stamp) line.insert(1, "\"t\":" + to_string(m.stamp()) + ",");
      return line + "\n";
    }
    if (count == 0) return {};
    if (out_.is(OutputFormat::csv)) {
      std::string out;
      const std::string t = m.has_stamp ? to_string(m.stamp()) : std::string();
      for (const auto& c : collision_ws_->contacts())
        out += fmt::format("{},{},{},{}\n", t, collision_check_->model.links()[c.pair.first],
                           collision_check_->model.links()[c.pair.second], number_text(c.depth));
      return out;
    }
    std::string head = fmt::format("# message {}", number);
    if (m.has_stamp) head += fmt::format(", t = {}", to_string(m.stamp()));
    if (m.cycle) head += fmt::format(", cycle {}", *m.cycle);
    const std::string text = fmt::format("{}{}\n{}", texts_written_ > 0 ? "\n" : "", head, table.render(OutputFormat::text));
    ++texts_written_;
    return text;
  }

  [[nodiscard]] std::string csv_header(const kin::KinematicModel& km) const {
    if (collisions_.enabled) return "t,link1,link2,depth\n";
    std::string out = "t";
    const std::vector<std::string> cols = columns();
    for (std::size_t b : bodies_)
      for (std::size_t c = 1; c < cols.size(); ++c) out += fmt::format(",{}.{}", km.body(b).name, cols[c]);
    return out + "\n";
  }

  /// Writes `text` to the output; a failed write (the reader went away) ends the run as a
  /// closed output does in every streaming command.
  void emit(const std::string& text, bool flush) const {
    out_.write(text);
    if (flush) out_.flush();
    if (out_.to_stdout() && std::ferror(stdout)) throw BrokenPipe("<stdout>", "the output was closed");
  }

  /// Flushes the output when the reader is about to wait for input.
  class StdoutSink final : public stream::Sink {
  public:
    explicit StdoutSink(OutputOptions& out) : out_(out) {}
    void joint_state(const JointState&, std::optional<std::int64_t>) override {}
    void support_state(const SupportState&, std::optional<std::int64_t>) override {}
    void flush() override { out_.flush(); }

  private:
    OutputOptions& out_;
  };

  /// fk --log: the library's stage (rmodel/stream/fk_stream.hpp) holds the pose and computes the
  /// frames; each of its records is written here.
  int stream(const Model& model, const kin::KinematicModel& km, std::vector<double> pose) {
    if (out_.is(OutputFormat::csv)) emit(csv_header(km), false);
    stream::FkStage stage(model, km, std::move(pose), [this](const stream::FkRecord& r) {
      emit(record(r.kinematics, r.frames, r.message, r.number, r.pose), stream_.flush_each);
    });
    StdoutSink sink(out_);
    const stream::Summary summary = run_stream("fk", stream_, stage, sink);
    if (summary.rejected > 0) {
      out_.abandon("fk", rejected_messages_text(summary.rejected), false);
      return kFailed;
    }
    out_.close();
    return kOk;
  }

  ModelOptions model_;
  PoseOptions pose_;
  StreamOptions stream_;
  mutable OutputOptions out_;  // written from the const record path of the stage
  std::vector<std::string> links_;
  std::string chain_;
  bool with_virtual_ = false;
  std::string orientation_ = "quat";
  std::string log_;
  std::vector<std::size_t> bodies_;
  CollisionOptions collisions_;
  std::shared_ptr<const collision::SelfCollisionCheck> collision_check_;
  std::unique_ptr<collision::CollisionWorkspace> collision_ws_;  // written from the const record path
  std::vector<int> collision_slots_;                             // per full-pose joint: its collision slot
  mutable std::vector<double> collision_pose_;
  mutable std::uint64_t texts_written_ = 0;
};

}  // namespace

std::unique_ptr<Command> make_fk_command() { return std::make_unique<FkCommand>(); }

}  // namespace rmodel::cli
