#pragma once
#include "rmodel/export.hpp"
/// @file log_check.hpp
/// Validating a recorded joint-state log against a model, one message at a time: unknown
/// joints, array sizes, stamps going backwards or repeated, gaps, NaN and infinities,
/// positions outside the URDF limits, velocities above the URDF velocity limit and, given
/// the control period, the velocities and accelerations the samples imply. Memory stays
/// bounded whatever the length of the log (per-joint state sized by the model, problems
/// kept up to a budget, later ones only counted), so a live stream can be checked too.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rmodel/base/diagnostic.hpp"
#include "rmodel/io/message.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/stream/stream.hpp"
#include "rmodel/base/time.hpp"

namespace rmodel::collision {
struct SelfCollisionCheck;
}

namespace rmodel {

/// Options of a LogChecker. Zero disables the bound it names.
struct RMODEL_API LogCheckOptions {
  /// Longest allowed time between two messages of the log, and between two samples of a
  /// joint (a joint missing while others are published). 0: no gap check.
  Time max_gap{};
  /// Control period. When > 0, velocities are also implied from consecutive positions
  /// (Δq / Δt, checked against the URDF velocity limit), accelerations from consecutive
  /// velocities (given, else implied) and jerks from consecutive accelerations. Δt is the
  /// interval between the stamps of the two samples (so the period given does not change the
  /// result of a stamped log); for samples without stamps it is the period. 0: no implied
  /// values.
  Time period{};
  /// Largest allowed |acceleration| implied with `period` (rad/s² or m/s²). 0: reported in
  /// the statistics only. Independently, the per-joint acceleration and jerk limits of a
  /// limits file (JointInfo::acceleration_limit, jerk_limit) are checked with `period`
  /// (codes acceleration-limit, jerk-limit).
  double max_acceleration = 0.0;
  /// Allowed excursion beyond position limits (rad or m) and above velocity limits (rad/s or
  /// m/s) before it is an error (encoders and filters overshoot a little).
  double tolerance = 0.0;
  /// Problems kept per code and joint; later ones are only counted. At least 1.
  std::size_t max_reports = 10;
  /// Also judge the torques the log's motion needs (rmodel/stream/dynamics_stream.hpp: the held
  /// full pose after each joint state, velocities from the log where given, else and for
  /// accelerations differentiated over the stamps): a joint of the message whose required
  /// |torque| exceeds its effort limit is an error (code effort-limit); where the message
  /// records an effort, recorded − required enters JointLogStats' effort residuals.
  bool dynamics = false;
  /// With `dynamics`: the root floats, carried by the chains of the log's support states
  /// (before the first: every chain with a default contact). Otherwise the root is fixed.
  bool floating_base = false;
  /// Also check the held full pose for self-collision after each joint state
  /// (rmodel/collision/collision.hpp): each pair of links found is an error (code self-collision), and
  /// LogChecker::collisions() sums them up per pair. Joints the log has not given yet are at 0.
  std::shared_ptr<const collision::SelfCollisionCheck> collisions = nullptr;
};

/// What a log says about one pair of links found colliding (or within the margin).
struct RMODEL_API CollisionLogStats {
  std::string link1, link2;
  std::uint64_t messages = 0;  ///< joint states at which the pair was found
  /// m: the largest penetration depth found (negative: never intersecting, minus the
  /// smallest distance within the margin).
  double max_depth = 0.0;
  std::size_t first_line = 0;         ///< line (message number) of the first
  std::optional<Time> first, last;    ///< stamps of the first and the last, when stamped
};

/// One problem of the log.
struct RMODEL_API LogProblem {
  Severity severity = Severity::error;
  std::size_t line = 0;  ///< 1-based line of the message in the log (0 when unknown)
  std::size_t item = 0;  ///< element of an enclosing array or trajectory point (0: none)
  std::string code;      ///< e.g. "unknown-joint", "position-limit", "stamp-backwards"
  std::string joint;     ///< the joint concerned, empty for the whole message or stream
  std::string message;   ///< human text naming the joint and the values
  /// A damaged record of a binary ROS log: its byte offset (`line` is the message number).
  std::optional<std::uint64_t> byte_offset{};
};

/// What a log says about one joint of the full pose.
struct RMODEL_API JointLogStats {
  std::string name;
  std::size_t index = 0;           ///< in the full pose
  std::uint64_t samples = 0;       ///< messages carrying the joint
  std::uint64_t errors = 0;        ///< errors about the joint (reported or not)
  double min_position = 0.0;       ///< over finite positions; NaN when none
  double max_position = 0.0;
  double max_abs_velocity = 0.0;   ///< over finite given velocities; NaN when none
  double max_abs_implied_velocity = 0.0;  ///< |Δq| / Δt; NaN without period or pairs
  double max_abs_acceleration = 0.0;      ///< |Δv| / Δt; NaN without period or pairs
  /// With LogCheckOptions::dynamics: the largest |required torque| (N·m or N) at the
  /// messages carrying the joint; NaN without dynamics or samples.
  double max_abs_required_torque = 0.0;
  std::uint64_t effort_samples = 0;  ///< recorded efforts compared with the required torque
  double effort_residual_rms = 0.0;  ///< RMS of recorded − required; NaN when none compared
  double effort_residual_max = 0.0;  ///< recorded − required of the largest magnitude; NaN when none
};

/// A name found in the log that is not a joint of the full pose.
struct RMODEL_API UnknownLogJoint {
  std::string name;
  std::uint64_t count = 0;
  std::size_t first_line = 0;
};

/// How many problems of one code a log had.
struct RMODEL_API LogCodeCount {
  std::string code;         ///< a log code of the catalogue (rmodel/base/check_codes.hpp)
  std::uint64_t count = 0;  ///< problems of the code, kept in problems() or not
};

/// Checks the messages of one log against a model. Feed it with add() (messages) and
/// add_read_error() (lines the reader rejected), then read the results. After the first
/// messages it allocates nothing for a well-formed log.
class RMODEL_API LogChecker {
public:
  /// @throws InvalidArgument when an option is negative or not a number, max_reports is 0,
  ///         or floating_base is set without dynamics.
  explicit LogChecker(const Model& model, LogCheckOptions options = {});
  ~LogChecker();
  LogChecker(LogChecker&&) noexcept;
  LogChecker& operator=(LogChecker&&) noexcept;

  /// Checks one message. Support states and sync ticks are counted and otherwise skipped
  /// (with LogCheckOptions::floating_base, support states set the supporting chains).
  void add(const io::Message& message);
  /// A message outside the part of the log being checked (a time window): taken into what the
  /// checks of the next messages compare with (each joint's last sample and stamp, the
  /// stream's last stamp, the held pose and the differentiators of `dynamics`), so that the
  /// messages checked are judged as in the check of the whole log; nothing of it is counted,
  /// kept in the statistics or reported.
  void add_outside(const io::Message& message);
  /// Records a line or message the reader could not read (an error).
  void add_read_error(const io::ReadError& error);
  /// Ends the log. When it had joint states and none of them named a joint of the full pose
  /// (a log of another robot, or CSV columns that need a prefix), reports the error
  /// `no-model-joint` for the whole log (line 0), worded as the streaming commands word it.
  /// Call after the last message; calling it again adds nothing.
  void finish();

  /// Problems kept so far, in log order (at most max_reports per code and joint).
  [[nodiscard]] const std::vector<LogProblem>& problems() const noexcept { return problems_; }
  /// Problems counted but not kept.
  [[nodiscard]] std::uint64_t unreported() const noexcept { return unreported_; }
  /// The problems of each code found, kept or not (they add up to error_count() +
  /// warning_count()), in the order of the catalogue (check_codes()).
  [[nodiscard]] std::vector<LogCodeCount> problem_counts() const;
  [[nodiscard]] std::uint64_t error_count() const noexcept { return errors_; }
  [[nodiscard]] std::uint64_t warning_count() const noexcept { return warnings_; }
  /// Messages given to add() (every kind), joint states among them, and read errors.
  [[nodiscard]] std::uint64_t message_count() const noexcept { return messages_; }
  [[nodiscard]] std::uint64_t joint_state_count() const noexcept { return joint_states_; }
  [[nodiscard]] std::uint64_t read_error_count() const noexcept { return read_errors_; }
  /// Stamps of the first and the last stamped joint state; nothing when none had a stamp.
  [[nodiscard]] std::optional<Time> first_stamp() const noexcept { return first_stamp_; }
  [[nodiscard]] std::optional<Time> last_stamp() const noexcept { return last_stamp_; }
  /// Per joint of the full pose, in pose order.
  [[nodiscard]] const std::vector<JointLogStats>& joints() const noexcept { return stats_; }
  /// Names that are not joints of the full pose (at most 1000 distinct ones are tracked).
  [[nodiscard]] const std::vector<UnknownLogJoint>& unknown_joints() const noexcept { return unknown_; }
  [[nodiscard]] bool valid() const noexcept { return errors_ == 0; }
  /// With LogCheckOptions::collisions: the pairs found, in the order first found.
  [[nodiscard]] const std::vector<CollisionLogStats>& collisions() const noexcept { return collision_stats_; }

private:
  /// A value of a joint and when it was sampled.
  struct Sample {
    double value;      ///< NaN until known
    Time stamp;        ///< valid when `stamped`
    bool stamped;
  };
  struct JointTrack {
    std::optional<Time> last_stamp;  ///< latest stamp of the joint's samples
    Sample position;      ///< the last finite position
    Sample velocity;      ///< the last velocity, given or implied
    Sample acceleration;  ///< the last implied acceleration
  };
  /// The interval Δt of a derivative from `before` to a sample at `now` (stamped or not):
  /// the stamps' difference when both are stamped (nothing when time did not advance), else
  /// the period.
  [[nodiscard]] std::optional<double> interval(const Sample& before, bool stamped, Time now) const noexcept;

  /// Counts a problem; true when it is to be kept (within the budget of its code and slot).
  bool count(Severity severity, int code, std::size_t slot);
  void keep(Severity severity, const io::Message* m, int code, std::size_t joint, std::string message);
  void check_joint_state(const io::Message& m);
  struct JointStateCheck;  ///< the steps of check_joint_state() (log_check.cpp)
  void unknown_joint(const io::Message& m, const std::string& name);

  Model model_;
  LogCheckOptions options_;
  /// Names → joints of the full pose (the streaming commands' one mapper), keeping the
  /// first of a joint named twice; its reporter has no handler: the problems are kept here.
  stream::SlotMapper mapper_;
  stream::Reporter quiet_;
  std::vector<JointLogStats> stats_;
  JointLogStats scratch_;  ///< where add_outside() puts the statistics it does not keep
  std::vector<JointTrack> tracks_;
  std::vector<std::uint32_t> budget_;  ///< problems kept per (code, slot)
  std::vector<std::uint64_t> code_counts_;  ///< problems per code, kept or not
  std::vector<LogProblem> problems_;
  std::vector<UnknownLogJoint> unknown_;
  std::uint64_t unreported_ = 0, errors_ = 0, warnings_ = 0;
  std::uint64_t messages_ = 0, joint_states_ = 0, read_errors_ = 0;
  std::optional<Time> first_stamp_, last_stamp_;
  std::optional<Time> stream_stamp_;  ///< latest stamp of the stream
  bool warned_no_stamp_ = false;
  bool outside_ = false;  ///< add_outside() is at work: nothing is counted or reported
  struct Dynamics;  ///< the held pose and the torque sink of LogCheckOptions::dynamics
  std::unique_ptr<Dynamics> dynamics_;
  void check_dynamics(const io::Message& m);
  struct Collisions;  ///< the held pose and the workspace of LogCheckOptions::collisions
  std::unique_ptr<Collisions> collisions_;
  std::vector<CollisionLogStats> collision_stats_;
  void check_collisions(const io::Message& m);
};

/// The stage of `rmodel check-log`: feeds a LogChecker from a stream::Pipeline (messages
/// outside the run's time window go to LogChecker::add_outside()) and hands each problem the
/// checker keeps to a callback as soon as it is found, in log order (a live log is judged as
/// it arrives). The pipeline's read errors reach the checker through read_error().
class RMODEL_API LogCheckStage final : public stream::Stage {
public:
  using ProblemCallback = std::function<void(const LogProblem&)>;
  /// `checker` must outlive the stage. The checks per joint state are the checker's (its
  /// options: dynamics, ...); `on_problem` may be empty.
  explicit LogCheckStage(LogChecker& checker, ProblemCallback on_problem = {});
  void push(const io::Message& message, stream::Output& out, stream::Reporter& report) override;
  /// Ends the checker (LogChecker::finish()) and hands on its last problems.
  void finish(stream::Output& out, stream::Reporter& report) override;
  /// An event of the pipeline: an error (a line or message the reader rejected) goes to
  /// LogChecker::add_read_error(); a warning is left to the caller.
  void read_error(const stream::Event& event);

private:
  void hand_on();

  LogChecker* checker_;
  ProblemCallback on_problem_;
  std::size_t handed_ = 0;
};

/// How check_log() runs.
struct RMODEL_API LogCheckRun {
  LogCheckStage::ProblemCallback on_problem = {};  ///< each problem as soon as it is found
  /// The reader is about to wait for input, or the log has ended: make visible what
  /// on_problem wrote (flush it).
  std::function<void()> on_wait = {};
  stream::RunOptions run = {};  ///< e.g. RunOptions::read_ahead: the log parsed on a second thread
};

/// Checks the log `reader` reads, as `rmodel check-log` does: to its end through a
/// stream::Pipeline with a LogCheckStage, read errors into the checker, then
/// LogChecker::finish(). The results are the checker's.
/// @return the pipeline's counts.
RMODEL_API stream::Summary check_log(LogChecker& checker, io::MessageReader& reader, LogCheckRun run = {});

}  // namespace rmodel
