#include "rmodel/stream/log_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "rmodel/base/check_codes.hpp"
#include "rmodel/collision/collision.hpp"
#include "rmodel/stream/dynamics_stream.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kMaxUnknownNames = 1000;

enum Code : int {
  kRead,
  kSize,
  kDuplicate,
  kUnknown,
  kBackwards,
  kRepeated,
  kGap,
  kJointGap,
  kNonFinite,
  kPosition,
  kVelocity,
  kImplied,
  kAcceleration,
  kNoStamp,
  kAccelerationLimit,
  kJerkLimit,
  kNoModelJoint,
  kEffort,
  kSelfCollision,
  kCodeCount
};

constexpr const char* kCodeNames[kCodeCount] = {
    "read-error",   "array-size",     "duplicate-joint", "unknown-joint", "stamp-backwards",
    "stamp-repeated", "gap",          "joint-gap",       "non-finite",    "position-limit",
    "velocity-limit", "implied-velocity", "acceleration", "no-stamp",
    "acceleration-limit", "jerk-limit", "no-model-joint", "effort-limit", "self-collision"};

/// Every code a LogProblem carries is a log code of the catalogue (rmodel/base/check_codes.hpp).
consteval bool all_catalogued() {
  for (const char* name : kCodeNames)
    if (!is_check_code(name, CodeScope::log)) return false;
  return true;
}
static_assert(all_catalogued(), "a code of kCodeNames is not a log code of kCheckCodes (rmodel/base/check_codes.hpp)");

const char* velocity_unit(const JointInfo& j) { return j.type == JointType::prismatic ? "m/s" : "rad/s"; }
const char* acceleration_unit(const JointInfo& j) { return j.type == JointType::prismatic ? "m/s²" : "rad/s²"; }
const char* torque_unit(const JointInfo& j) { return j.type == JointType::prismatic ? "N" : "N·m"; }

/// The interval a derivative was taken over, as text: the stamps' difference, else the period.
std::string interval_text(Time before, bool both_stamped, Time now, Time period) {
  return to_string(both_stamped ? now - before : period);
}

double max_abs(double current, double value) {
  return std::isnan(current) ? std::abs(value) : std::max(current, std::abs(value));
}

}  // namespace

/// LogCheckOptions::dynamics: the full pose held from the joint states, the torque sink it
/// goes through, and the sums behind the effort residuals.
struct LogChecker::Dynamics {
  /// Keeps the torques of the last pose the torque sink wrote.
  class Capture final : public stream::Sink {
  public:
    void joint_state(const JointState& s, std::optional<std::int64_t>) override { effort = &s.effort; }
    void support_state(const SupportState&, std::optional<std::int64_t>) override {}
    const std::vector<double>* effort = nullptr;
  };

  Dynamics(const Model& model, const LogCheckOptions& o) : torques(capture, model, sink_options(o)) {
    const std::size_t n = model.pose_size();
    held.name = model.joint_names();
    held.position.assign(n, 0.0);
    held.velocity.assign(n, kNaN);  // not given: differentiated from the positions
    squares.assign(n, 0.0);
  }
  static dynamics::DynamicsStreamOptions sink_options(const LogCheckOptions& o) {
    dynamics::DynamicsStreamOptions d;
    d.floating_base = o.floating_base;
    if (o.period > Time{}) d.diff_params["T"] = o.period.seconds();  // the control period: a fixed step
    return d;
  }

  Capture capture;
  dynamics::TorqueSink torques;
  JointState held;
  std::vector<double> squares;  ///< per joint: Σ (recorded − required)²
};

/// LogCheckOptions::collisions: the held pose in the collision model's joints, where each
/// joint of the full pose goes in it, and a workspace.
struct LogChecker::Collisions {
  explicit Collisions(const Model& model, std::shared_ptr<const collision::SelfCollisionCheck> c)
      : check(std::move(c)),
        slots(collision::joint_slots(check->model, model.joint_names())),
        pose(check->model.joint_names().size(), 0.0),
        ws(check->model) {}
  std::shared_ptr<const collision::SelfCollisionCheck> check;
  std::vector<int> slots;  ///< per full-pose joint: its index in `pose`, or -1
  std::vector<double> pose;
  collision::CollisionWorkspace ws;
  std::vector<std::int64_t> stat_of_pair;  ///< pair (first·links + second) → index in collision_stats_, -1
};

LogChecker::~LogChecker() = default;
LogChecker::LogChecker(LogChecker&&) noexcept = default;
LogChecker& LogChecker::operator=(LogChecker&&) noexcept = default;

LogChecker::LogChecker(const Model& model, LogCheckOptions options)
    : model_(model),
      options_(options),
      mapper_(model_.joint_names()) {
  mapper_.set_repeats(stream::SlotMapper::Repeats::skip);
  for (double v : {options.max_acceleration, options.tolerance})
    if (!(v >= 0.0) || std::isinf(v))
      throw InvalidArgument(fmt::format("log check bounds must be finite numbers ≥ 0, got {}", v));
  for (Time t : {options.max_gap, options.period})
    if (t < Time{}) throw InvalidArgument(fmt::format("log check times must be ≥ 0 s, got {}", to_string(t)));
  if (options.max_reports == 0) throw InvalidArgument("log check: max_reports must be at least 1");
  const std::size_t n = model_.pose_size();
  stats_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    stats_[i].name = model_.joint_names()[i];
    stats_[i].index = i;
    stats_[i].min_position = stats_[i].max_position = kNaN;
    stats_[i].max_abs_velocity = stats_[i].max_abs_implied_velocity = stats_[i].max_abs_acceleration = kNaN;
    stats_[i].max_abs_required_torque = stats_[i].effort_residual_rms = stats_[i].effort_residual_max = kNaN;
  }
  if (options_.floating_base && !options_.dynamics)
    throw InvalidArgument("log check: floating_base applies with dynamics");
  if (options_.dynamics) dynamics_ = std::make_unique<Dynamics>(model_, options_);
  if (options_.collisions) {
    collisions_ = std::make_unique<Collisions>(model_, options_.collisions);
    const std::size_t links = options_.collisions->model.links().size();
    collisions_->stat_of_pair.assign(links * links, -1);
  }
  const Sample unknown{kNaN, Time{}, false};
  tracks_.assign(n, JointTrack{std::nullopt, unknown, unknown, unknown});
  budget_.assign(static_cast<std::size_t>(kCodeCount) * (n + 1), 0);
  code_counts_.assign(kCodeCount, 0);
}

bool LogChecker::count(Severity severity, int code, std::size_t slot) {
  if (outside_) return false;
  (severity == Severity::error ? errors_ : warnings_) += 1;
  ++code_counts_[static_cast<std::size_t>(code)];
  if (slot < stats_.size() && severity == Severity::error) ++stats_[slot].errors;
  auto& used = budget_[static_cast<std::size_t>(code) * (stats_.size() + 1) + std::min(slot, stats_.size())];
  if (used >= options_.max_reports) {
    ++unreported_;
    return false;
  }
  ++used;
  return true;
}

std::vector<LogCodeCount> LogChecker::problem_counts() const {
  std::vector<LogCodeCount> counts;
  for (const CheckCode& entry : check_codes()) {
    if (entry.scope != CodeScope::log) continue;
    for (int code = 0; code < kCodeCount; ++code)
      if (code_counts_[static_cast<std::size_t>(code)] > 0 && entry.code == kCodeNames[code])
        counts.push_back({kCodeNames[code], code_counts_[static_cast<std::size_t>(code)]});
  }
  return counts;
}

void LogChecker::keep(Severity severity, const io::Message* m, int code, std::size_t joint, std::string message) {
  problems_.push_back({severity, m ? m->line : 0, m ? m->item : 0, kCodeNames[code],
                       joint < stats_.size() ? stats_[joint].name : std::string(), std::move(message)});
}

void LogChecker::add_read_error(const io::ReadError& error) {
  ++read_errors_;
  if (count(Severity::error, kRead, stats_.size()))
    problems_.push_back(
        {Severity::error, error.line, error.item, kCodeNames[kRead], {}, error.reason, error.byte_offset});
}

void LogChecker::finish() {
  // The mapper noted, in its reporter, whether any joint state named a joint of the model;
  // the counts restart, so a second call finds nothing more to report.
  std::string text = stream::Reporter::unmatched_text(quiet_.matching());
  quiet_.reset_matching();
  if (!text.empty() && count(Severity::error, kNoModelJoint, stats_.size()))
    keep(Severity::error, nullptr, kNoModelJoint, stats_.size(), std::move(text));
}

void LogChecker::add(const io::Message& m) {
  ++messages_;
  if (m.kind == io::MessageKind::Joint) check_joint_state(m);
  if (m.kind == io::MessageKind::Support && dynamics_) dynamics_->torques.support_state(m.support, std::nullopt);
}

void LogChecker::add_outside(const io::Message& m) {
  // The same walk as add(), with counting, statistics and reports switched off.
  struct Outside {
    LogChecker& checker;
    explicit Outside(LogChecker& c) : checker(c) {
      checker.outside_ = true;
      checker.quiet_.set_muted(true);  // nor does it count for the matching of names
    }
    ~Outside() {
      checker.outside_ = false;
      checker.quiet_.set_muted(false);
    }
    Outside(const Outside&) = delete;
    Outside& operator=(const Outside&) = delete;
  } outside(*this);
  if (m.kind == io::MessageKind::Joint) check_joint_state(m);
  if (m.kind == io::MessageKind::Support && dynamics_) dynamics_->torques.support_state_outside(m.support, std::nullopt);
}

void LogChecker::unknown_joint(const io::Message& m, const std::string& name) {
  if (outside_) return;
  UnknownLogJoint* entry = nullptr;
  for (auto& u : unknown_)
    if (u.name == name) entry = &u;
  if (!entry && unknown_.size() < kMaxUnknownNames) {
    unknown_.push_back({name, 0, m.line});
    entry = &unknown_.back();
  }
  if (entry) ++entry->count;
  // One report per distinct name (the first time it appears), within the budget.
  const bool first = entry && entry->count == 1;
  if (!count(Severity::error, kUnknown, stats_.size()) || !first) return;
  const JointInfo* info = model_.find_urdf_joint(name);
  std::string why = !info             ? "is not a joint of the URDF"
                    : !info->movable() ? fmt::format("is {}, not part of the full pose", to_string(info->type))
                                       : "is in no chain or group, so not part of the full pose";
  keep(Severity::error, &m, kUnknown, stats_.size(), fmt::format("joint '{}' {}", name, why));
}

std::optional<double> LogChecker::interval(const Sample& before, bool stamped, Time now) const noexcept {
  if (std::isnan(before.value)) return std::nullopt;
  if (!stamped || !before.stamped) return options_.period.seconds();
  if (now <= before.stamp) return std::nullopt;  // time did not advance: nothing to divide by
  return (now - before.stamp).seconds();
}

/// The checks of one joint state, in steps: the stream's time, then each joint's sample (its
/// order and gaps, position, velocity, the derivatives the period implies, effort). The steps
/// run per joint of every message, so they are forced inline, as one function: left to itself,
/// GCC calls them, and a message took 40% longer to check.
struct LogChecker::JointStateCheck {
  /// One joint's sample: where the joint is in the full pose, and what is known of it.
  struct Joint {
    std::size_t j;  ///< in the full pose
    const JointInfo& info;
    JointTrack& track;
    JointLogStats& st;  ///< stats_[j], or the scratch record outside the part checked
  };

  LogChecker& c;
  const io::Message& m;
  const JointState& s = m.joint;
  const bool stamped = m.has_stamp;
  const double tol = c.options_.tolerance;
  const bool implied = c.options_.period > Time{};  ///< velocities and accelerations implied
  bool stream_gap = false;  ///< the stream has a gap before `m` (the joints' gaps are not told again)

  /// Time of the message and gaps in the stream.
  [[gnu::always_inline]] void stream_time() {
    if (!stamped && !c.warned_no_stamp_ && !c.outside_) {
      c.warned_no_stamp_ = true;
      if (c.count(Severity::warning, kNoStamp, c.stats_.size()))
        c.keep(Severity::warning, &m, kNoStamp, c.stats_.size(),
               "joint states without a time: their stamps, gaps and order are not checked");
    }
    if (!stamped) return;
    const Time max_gap = c.options_.max_gap;
    std::optional<Time>& stream_stamp = c.stream_stamp_;
    if (max_gap > Time{} && stream_stamp && s.stamp - *stream_stamp > max_gap) {
      stream_gap = true;
      if (c.count(Severity::error, kGap, c.stats_.size()))
        c.keep(Severity::error, &m, kGap, c.stats_.size(),
               fmt::format("no message for {} s (t = {} to {}), longer than {} s", to_string(s.stamp - *stream_stamp),
                           to_string(*stream_stamp), to_string(s.stamp), to_string(max_gap)));
    }
    if (!c.outside_) {
      if (!c.first_stamp_) c.first_stamp_ = s.stamp;
      c.last_stamp_ = s.stamp;
    }
    stream_stamp = stream_stamp ? std::max(*stream_stamp, s.stamp) : s.stamp;
  }

  /// The sample of the message's joint `i`, joint `j` of the full pose.
  [[gnu::always_inline]] void joint(std::size_t i, std::size_t j) {
    // Outside the part checked, the statistics go to a scratch record.
    const Joint x{j, c.model_.pose_joint(j), c.tracks_[j], c.outside_ ? c.scratch_ : c.stats_[j]};
    ++x.st.samples;
    order(x);
    const double implied_velocity = i < s.position.size() ? position(x, s.position[i]) : kNaN;
    const double v = i < s.velocity.size() ? velocity(x, s.velocity[i]) : implied_velocity;
    if (implied && !std::isnan(v)) acceleration(x, v);
    if (i < s.effort.size() && !std::isfinite(s.effort[i]) && c.count(Severity::error, kNonFinite, j))
      c.keep(Severity::error, &m, kNonFinite, j, fmt::format("joint '{}': effort is {}", x.info.name, s.effort[i]));
  }

  /// Order of the joint's samples, and gaps in them.
  [[gnu::always_inline]] void order(const Joint& x) {
    if (!stamped) return;
    if (x.track.last_stamp) {
      const Time last = *x.track.last_stamp;
      const Time max_gap = c.options_.max_gap;
      if (s.stamp < last) {
        if (c.count(Severity::error, kBackwards, x.j))
          c.keep(Severity::error, &m, kBackwards, x.j,
                 fmt::format("joint '{}': time goes back from {} to {}", x.info.name, to_string(last),
                             to_string(s.stamp)));
      } else if (s.stamp == last) {
        if (c.count(Severity::error, kRepeated, x.j))
          c.keep(Severity::error, &m, kRepeated, x.j,
                 fmt::format("joint '{}': a second sample at t = {}", x.info.name, to_string(s.stamp)));
      } else if (max_gap > Time{} && s.stamp - last > max_gap && !stream_gap) {
        if (c.count(Severity::error, kJointGap, x.j))
          c.keep(Severity::error, &m, kJointGap, x.j,
                 fmt::format("joint '{}': no sample for {} s (t = {} to {}), longer than {} s", x.info.name,
                             to_string(s.stamp - last), to_string(last), to_string(s.stamp), to_string(max_gap)));
      }
    }
    x.track.last_stamp = x.track.last_stamp ? std::max(*x.track.last_stamp, s.stamp) : s.stamp;
  }

  /// Checks the position `q`; the velocity it implies with the last one (NaN: none).
  [[gnu::always_inline]] double position(const Joint& x, double q) {
    const JointInfo& info = x.info;
    if (!std::isfinite(q)) {
      if (c.count(Severity::error, kNonFinite, x.j))
        c.keep(Severity::error, &m, kNonFinite, x.j, fmt::format("joint '{}': position is {}", info.name, q));
      return kNaN;
    }
    x.st.min_position = std::isnan(x.st.min_position) ? q : std::min(x.st.min_position, q);
    x.st.max_position = std::isnan(x.st.max_position) ? q : std::max(x.st.max_position, q);
    if (info.bounded() && (q < info.lower - tol || q > info.upper + tol) && c.count(Severity::error, kPosition, x.j))
      c.keep(Severity::error, &m, kPosition, x.j,
             fmt::format("joint '{}': position {} is outside its limits [{}, {}]", info.name, q, info.lower,
                         info.upper));
    double implied_velocity = kNaN;
    const Sample& before = x.track.position;
    const std::optional<double> dt = implied ? c.interval(before, stamped, s.stamp) : std::nullopt;
    if (dt) {
      implied_velocity = (q - before.value) / *dt;
      x.st.max_abs_implied_velocity = max_abs(x.st.max_abs_implied_velocity, implied_velocity);
      if (info.velocity_limit > 0 && std::abs(implied_velocity) > info.velocity_limit + tol &&
          c.count(Severity::error, kImplied, x.j))
        c.keep(Severity::error, &m, kImplied, x.j,
               fmt::format("joint '{}': moved from {} to {} in {} s{}, {:.6g} {} implied, its magnitude above the "
                           "velocity limit {}",
                           info.name, before.value, q,
                           interval_text(before.stamp, stamped && before.stamped, s.stamp, c.options_.period),
                           stamped && before.stamped ? "" : " (the period)", implied_velocity, velocity_unit(info),
                           info.velocity_limit));
    }
    x.track.position = {q, s.stamp, stamped};
    return implied_velocity;
  }

  /// Checks the given velocity `v`; `v`, or NaN when it is not finite.
  [[gnu::always_inline]] double velocity(const Joint& x, double v) {
    const JointInfo& info = x.info;
    if (!std::isfinite(v)) {
      if (c.count(Severity::error, kNonFinite, x.j))
        c.keep(Severity::error, &m, kNonFinite, x.j, fmt::format("joint '{}': velocity is {}", info.name, v));
      return kNaN;
    }
    x.st.max_abs_velocity = max_abs(x.st.max_abs_velocity, v);
    if (info.velocity_limit > 0 && std::abs(v) > info.velocity_limit + tol &&
        c.count(Severity::error, kVelocity, x.j))
      c.keep(Severity::error, &m, kVelocity, x.j,
             fmt::format("joint '{}': velocity {} {}, its magnitude above the limit {}", info.name, v,
                         velocity_unit(info), info.velocity_limit));
    return v;
  }

  /// The acceleration and jerk implied by `velocity` (given, else implied) and the last ones.
  [[gnu::always_inline]] void acceleration(const Joint& x, double velocity) {
    const JointInfo& info = x.info;
    if (const std::optional<double> dt_v = c.interval(x.track.velocity, stamped, s.stamp)) {
      const double a = (velocity - x.track.velocity.value) / *dt_v;
      x.st.max_abs_acceleration = max_abs(x.st.max_abs_acceleration, a);
      if (c.options_.max_acceleration > 0 && std::abs(a) > c.options_.max_acceleration &&
          c.count(Severity::error, kAcceleration, x.j))
        c.keep(Severity::error, &m, kAcceleration, x.j,
               fmt::format("joint '{}': acceleration {:.6g} {} implied, its magnitude above {}", info.name, a,
                           acceleration_unit(info), c.options_.max_acceleration));
      // Limits from a joint_limits.yaml (Model::load with limits): per joint.
      if (info.acceleration_limit > 0 && std::abs(a) > info.acceleration_limit + tol &&
          c.count(Severity::error, kAccelerationLimit, x.j))
        c.keep(Severity::error, &m, kAccelerationLimit, x.j,
               fmt::format("joint '{}': acceleration {:.6g} {} implied, its magnitude above the limit {}", info.name,
                           a, acceleration_unit(info), info.acceleration_limit));
      const std::optional<double> dt_a = c.interval(x.track.acceleration, stamped, s.stamp);
      if (dt_a && info.jerk_limit > 0) {
        const double jerk = (a - x.track.acceleration.value) / *dt_a;
        if (std::abs(jerk) > info.jerk_limit + tol && c.count(Severity::error, kJerkLimit, x.j))
          c.keep(Severity::error, &m, kJerkLimit, x.j,
                 fmt::format("joint '{}': jerk {:.6g} {}/s implied, its magnitude above the limit {}", info.name,
                             jerk, acceleration_unit(info), info.jerk_limit));
      }
      x.track.acceleration = {a, s.stamp, stamped};
    }
    x.track.velocity = {velocity, s.stamp, stamped};
  }
};

void LogChecker::check_joint_state(const io::Message& m) {
  if (!outside_) ++joint_states_;
  if (!mapper_.map(m, quiet_)) {  // sizes only: a joint named twice is marked, not refused
    if (count(Severity::error, kSize, stats_.size()))
      keep(Severity::error, &m, kSize, stats_.size(), fmt::format("{}; the message is skipped", mapper_.problem_text()));
    return;
  }
  const auto slots = mapper_.slots();
  JointStateCheck check{*this, m};
  check.stream_time();
  const JointState& s = m.joint;
  for (std::size_t i = 0; i < s.name.size(); ++i) {
    if (slots[i] == stream::SlotMapper::kUnknown) {
      unknown_joint(m, s.name[i]);
      continue;
    }
    if (slots[i] == stream::SlotMapper::kRepeated) {
      const std::size_t first = *mapper_.find(s.name[i]);
      if (count(Severity::error, kDuplicate, first))
        keep(Severity::error, &m, kDuplicate, first, fmt::format("{}; the second is skipped", mapper_.repeated_text(i)));
      continue;
    }
    check.joint(i, static_cast<std::size_t>(slots[i]));
  }
  if (dynamics_) check_dynamics(m);
  if (collisions_) check_collisions(m);
}

void LogChecker::check_collisions(const io::Message& m) {
  Collisions& c = *collisions_;
  const JointState& s = m.joint;
  const auto slots = mapper_.slots();
  for (std::size_t i = 0; i < s.name.size() && i < s.position.size(); ++i) {
    if (slots[i] < 0 || !std::isfinite(s.position[i])) continue;
    const int k = c.slots[static_cast<std::size_t>(slots[i])];
    if (k >= 0) c.pose[static_cast<std::size_t>(k)] = s.position[i];
  }
  const collision::CollisionModel& cm = c.check->model;
  collision::set_pose(cm, c.ws, c.pose);
  collision::check_self_collisions(cm, c.ws, c.check->allowed, c.check->options);
  const std::size_t links = cm.links().size();
  for (const collision::PairContact& contact : c.ws.contacts()) {
    const std::string& a = cm.links()[contact.pair.first];
    const std::string& b = cm.links()[contact.pair.second];
    std::int64_t& index = c.stat_of_pair[contact.pair.first * links + contact.pair.second];
    if (index < 0) {
      index = static_cast<std::int64_t>(collision_stats_.size());
      collision_stats_.push_back({a, b, 0, contact.depth, m.line, std::nullopt, std::nullopt});
    }
    CollisionLogStats& st = collision_stats_[static_cast<std::size_t>(index)];
    ++st.messages;
    st.max_depth = std::max(st.max_depth, contact.depth);
    if (m.has_stamp) {
      if (!st.first) st.first = s.stamp;
      st.last = s.stamp;
    }
    if (!count(Severity::error, kSelfCollision, stats_.size())) continue;
    const std::string when = m.has_stamp ? fmt::format(" at t = {}", to_string(s.stamp)) : std::string();
    keep(Severity::error, &m, kSelfCollision, stats_.size(),
         contact.intersecting()
             ? fmt::format("links '{}' and '{}' collide{} (depth {:.6g} m)", a, b, when, contact.depth)
             : fmt::format("links '{}' and '{}' are {:.6g} m apart{}, closer than the margin {} m", a, b,
                           -contact.depth, when, c.check->options.margin));
  }
}

void LogChecker::check_dynamics(const io::Message& m) {
  Dynamics& d = *dynamics_;
  const JointState& s = m.joint;
  const auto slots = mapper_.slots();
  for (std::size_t i = 0; i < s.name.size(); ++i) {
    if (slots[i] < 0) continue;
    const auto j = static_cast<std::size_t>(slots[i]);
    if (i < s.position.size() && std::isfinite(s.position[i])) d.held.position[j] = s.position[i];
    if (i < s.velocity.size()) d.held.velocity[j] = std::isfinite(s.velocity[i]) ? s.velocity[i] : kNaN;
  }
  const bool stamped = m.has_stamp;
  if (stamped) d.held.stamp = s.stamp;
  d.capture.effort = nullptr;
  if (outside_) return d.torques.joint_state_outside(d.held, std::nullopt);
  d.torques.joint_state(d.held, std::nullopt);
  if (d.capture.effort == nullptr || d.capture.effort->size() != stats_.size()) return;
  const std::vector<double>& required = *d.capture.effort;
  for (std::size_t i = 0; i < s.name.size(); ++i) {
    if (slots[i] < 0) continue;
    const auto j = static_cast<std::size_t>(slots[i]);
    const JointInfo& info = model_.pose_joint(j);
    JointLogStats& st = stats_[j];
    const double tau = required[j];
    st.max_abs_required_torque = max_abs(st.max_abs_required_torque, tau);
    if (info.effort_limit > 0 && std::abs(tau) > info.effort_limit && count(Severity::error, kEffort, j))
      keep(Severity::error, &m, kEffort, j,
           fmt::format("joint '{}': the motion needs {:.6g} {}{}, its magnitude above the effort limit {}",
                       info.name, tau, torque_unit(info),
                       stamped ? fmt::format(" at t = {}", to_string(s.stamp)) : std::string(), info.effort_limit));
    if (i < s.effort.size() && std::isfinite(s.effort[i])) {
      const double residual = s.effort[i] - tau;
      ++st.effort_samples;
      d.squares[j] += residual * residual;
      st.effort_residual_rms = std::sqrt(d.squares[j] / static_cast<double>(st.effort_samples));
      if (std::isnan(st.effort_residual_max) || std::abs(residual) > std::abs(st.effort_residual_max))
        st.effort_residual_max = residual;
    }
  }
}

}  // namespace rmodel
