// Splicing two movements (rmodel/stream/splice.hpp). A batch job over movements held in memory, not
// a per-message hot path: plain vectors and binary searches.
#include "rmodel/stream/splice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/filters/second_order.hpp"
#include "rmodel/io/writer.hpp"

namespace rmodel {
namespace {

/// The integrated transient (substeps of at most τ/20) lags its continuous law by well under
/// this factor in time; the bound of splice_transition_bound takes it.
constexpr double kSecondOrderMargin = 1.25;

/// One joint's samples in time order (a later sample at the same stamp replaces the earlier).
struct SpliceSeries {
  std::vector<std::int64_t> t;
  std::vector<double> p;
  std::vector<double> v;  // parallel to p while has_velocity
  bool has_velocity = true;
};

/// A movement as one time series per joint, plus its messages sorted by time.
struct SampledMovement {
  std::vector<std::string> names;  // order of first appearance
  std::unordered_map<std::string, std::size_t> index;
  std::vector<SpliceSeries> series;
  std::vector<io::Message> messages;  // joint and support states, stably sorted by stamp
  Time first{}, first_joint{}, last_joint{};
  bool has_joint = false;

  [[nodiscard]] const SpliceSeries* find(const std::string& name) const {
    const auto it = index.find(name);
    return it == index.end() ? nullptr : &series[it->second];
  }
};

std::string splice_line_text(const io::Message& m) {
  return m.line > 0 ? fmt::format(" (line {})", m.line) : std::string();
}

SampledMovement sample_movement(const std::vector<io::Message>& in, const char* label) {
  SampledMovement out;
  for (const io::Message& m : in) {
    if (m.kind == io::MessageKind::Sync) continue;
    if (!m.has_stamp)
      throw InvalidArgument(fmt::format("movement {}: a message{} has no time", label, splice_line_text(m)));
    out.messages.push_back(m);
  }
  std::stable_sort(out.messages.begin(), out.messages.end(),
                   [](const io::Message& x, const io::Message& y) { return x.stamp() < y.stamp(); });
  if (!out.messages.empty()) out.first = out.messages.front().stamp();
  for (const io::Message& m : out.messages) {
    if (m.kind != io::MessageKind::Joint) continue;
    const JointState& js = m.joint;
    if (js.position.size() != js.name.size())
      throw SizeMismatch(fmt::format("movement {}: positions of a joint state{}", label, splice_line_text(m)),
                         js.name.size(), js.position.size());
    const bool with_velocity = js.velocity.size() == js.name.size();
    if (!out.has_joint) out.first_joint = js.stamp;
    out.has_joint = true;
    out.last_joint = js.stamp;
    for (std::size_t i = 0; i < js.name.size(); ++i) {
      auto [it, added] = out.index.emplace(js.name[i], out.series.size());
      if (added) {
        out.names.push_back(js.name[i]);
        out.series.emplace_back();
      }
      SpliceSeries& s = out.series[it->second];
      if (!with_velocity) s.has_velocity = false;
      const double v = with_velocity ? js.velocity[i] : 0.0;
      if (!s.t.empty() && s.t.back() == js.stamp.ns) {
        s.p.back() = js.position[i];
        s.v.back() = v;
      } else {
        s.t.push_back(js.stamp.ns);
        s.p.push_back(js.position[i]);
        s.v.push_back(v);
      }
    }
  }
  if (!out.has_joint) throw InvalidArgument(fmt::format("movement {} has no joint state", label));
  return out;
}

/// Index i with t[i] <= t < t[i+1], for t strictly inside the series.
std::size_t segment_of(const std::vector<std::int64_t>& ts, std::int64_t t) {
  return static_cast<std::size_t>(std::upper_bound(ts.begin(), ts.end(), t) - ts.begin()) - 1;
}

/// Straight line between samples; held before the first and after the last.
double interpolate_series(const std::vector<std::int64_t>& ts, const std::vector<double>& values, std::int64_t t) {
  if (t <= ts.front()) return values.front();
  if (t >= ts.back()) return values.back();
  const std::size_t i = segment_of(ts, t);
  if (ts[i] == t) return values[i];
  const double f = static_cast<double>(t - ts[i]) / static_cast<double>(ts[i + 1] - ts[i]);
  return values[i] + f * (values[i + 1] - values[i]);
}

/// The slope of the segment (t[i], t[i+1]] holding t, unit/s; 0 outside the samples.
double slope_from_left(const SpliceSeries& s, std::int64_t t) {
  if (t <= s.t.front() || t > s.t.back()) return 0.0;
  const auto i = static_cast<std::size_t>(std::lower_bound(s.t.begin(), s.t.end(), t) - s.t.begin()) - 1;
  return (s.p[i + 1] - s.p[i]) / (Time{s.t[i + 1] - s.t[i]}.seconds());
}

/// The slope of the segment [t[i], t[i+1]) holding t, unit/s; 0 outside the samples.
double slope_from_right(const SpliceSeries& s, std::int64_t t) {
  if (t < s.t.front() || t >= s.t.back()) return 0.0;
  const std::size_t i = segment_of(s.t, t);
  return (s.p[i + 1] - s.p[i]) / (Time{s.t[i + 1] - s.t[i]}.seconds());
}

void validate_splice_options(const SpliceOptions& o) {
  if (!(o.tau > 0.0) || !std::isfinite(o.tau))
    throw InvalidArgument(fmt::format("splice: tau must be a positive number of seconds, not {:g}", o.tau));
  if (!(o.settle > 0.0 && o.settle < 1.0))
    throw InvalidArgument(fmt::format("splice: settle must be in (0, 1), not {:g}", o.settle));
  if (o.step && o.step->ns <= 0) throw InvalidArgument("splice: the step must be positive");
}

/// T and B's shift on the output clock (A's).
struct SpliceClock {
  Time start{};
  Time shift{};
};

SpliceClock splice_clock(const SampledMovement* a, const SampledMovement& b, const SpliceOptions& o) {
  SpliceClock clock;
  if (a == nullptr) {  // from a pose: T is B's start
    clock.start = b.first;
    return clock;
  }
  const Time span = a->last_joint - a->first;
  if (o.at.ns < 0 || o.at > span)
    throw InvalidArgument(fmt::format("splice: T = {} s is outside movement A (0 to {} s after its first message)",
                                      to_string(o.at), to_string(span)));
  clock.start = a->first + o.at;
  if (o.keep_time) {
    if (b.last_joint < clock.start)
      throw InvalidArgument(fmt::format("splice: movement B, kept at its own times, ends ({}) before T ({})",
                                        to_string(b.last_joint), to_string(clock.start)));
  } else {
    clock.shift = clock.start - b.first;
  }
  return clock;
}

/// One joint of the output: where its values come from.
struct SpliceColumn {
  const SpliceSeries* in_b = nullptr;
  const SpliceSeries* in_a = nullptr;
  std::optional<double> from_pose;
  double held = 0.0;  // only in A: position at T

  [[nodiscard]] bool shared() const { return in_b != nullptr && (in_a != nullptr || from_pose); }
};

/// The joints of a splice, B's in its order then A's that B lacks (held), and how A and B
/// move on the output clock.
struct SpliceJoints {
  std::vector<std::string> names;
  std::vector<SpliceColumn> cols;
  std::vector<std::size_t> held_columns;
  std::int64_t shift = 0;  // B's shift, ns
  bool with_velocity = true;

  [[nodiscard]] double a_pos(const SpliceColumn& c, std::int64_t t) const {
    return c.from_pose ? *c.from_pose : interpolate_series(c.in_a->t, c.in_a->p, t);
  }
  [[nodiscard]] double a_vel(const SpliceColumn& c, std::int64_t t) const {
    return c.from_pose ? 0.0 : interpolate_series(c.in_a->t, c.in_a->v, t);
  }
  [[nodiscard]] double a_slope(const SpliceColumn& c, std::int64_t t) const {
    return c.from_pose ? 0.0 : slope_from_left(*c.in_a, t);
  }
  [[nodiscard]] double b_pos(const SpliceColumn& c, std::int64_t t) const {
    return interpolate_series(c.in_b->t, c.in_b->p, t - shift);
  }
  [[nodiscard]] double b_vel(const SpliceColumn& c, std::int64_t t) const {
    return interpolate_series(c.in_b->t, c.in_b->v, t - shift);
  }
  /// B's slope at T is where B goes from there (its first sample has nothing to its left).
  [[nodiscard]] double b_slope_after(const SpliceColumn& c, std::int64_t t) const {
    return slope_from_right(*c.in_b, t - shift);
  }
};

SpliceJoints splice_joints(const SampledMovement* a, const JointState* pose, const SampledMovement& b,
                           std::int64_t t0, std::int64_t shift, SpliceResult& result) {
  SpliceJoints j;
  j.shift = shift;
  std::unordered_map<std::string, double> pose_value;
  if (pose != nullptr) {
    if (pose->position.size() != pose->name.size())
      throw SizeMismatch("splice: positions of the pose", pose->name.size(), pose->position.size());
    for (std::size_t i = 0; i < pose->name.size(); ++i) pose_value[pose->name[i]] = pose->position[i];
  }
  j.names = b.names;
  for (std::size_t k = 0; k < b.names.size(); ++k) {
    SpliceColumn c;
    c.in_b = &b.series[k];
    if (pose != nullptr) {
      const auto it = pose_value.find(b.names[k]);
      if (it != pose_value.end()) c.from_pose = it->second;
    } else {
      c.in_a = a->find(b.names[k]);
    }
    if (!c.in_a && !c.from_pose) result.only_in_b.push_back(b.names[k]);
    j.cols.push_back(c);
  }
  if (a != nullptr) {
    for (std::size_t k = 0; k < a->names.size(); ++k) {
      if (b.find(a->names[k])) continue;
      SpliceColumn c;
      c.in_a = &a->series[k];
      c.held = interpolate_series(c.in_a->t, c.in_a->p, t0);
      j.held_columns.push_back(j.cols.size());
      j.names.push_back(a->names[k]);
      result.only_in_a.push_back(a->names[k]);
      j.cols.push_back(c);
    }
  }
  for (const SpliceColumn& c : j.cols)
    if ((c.in_b && !c.in_b->has_velocity) || (c.in_b && c.in_a && !c.in_a->has_velocity)) j.with_velocity = false;
  return j;
}

/// Where the transition's samples fall: at B's joint-state stamps from T on, and with a step
/// also every step from T; once B has ended, every `tail_step` (the step, else B's last
/// interval, else tau/10).
class SpliceTimes {
public:
  SpliceTimes(std::vector<std::int64_t> b_stamps, std::int64_t t0, std::optional<Time> step, std::int64_t tail_step)
      : b_stamps_(std::move(b_stamps)), t0_(t0), step_(step), tail_step_(tail_step) {}

  /// The next sample after `prev`; `from_b` when it is one of B's stamps.
  std::int64_t next(std::int64_t prev, bool& from_b) {
    const bool have_b = bi_ < b_stamps_.size();
    from_b = false;
    if (!step_ && have_b) {
      from_b = true;
      return b_stamps_[bi_];
    }
    std::int64_t grid = 0;
    if (step_) {
      grid = t0_ + grid_k_ * step_->ns;
      while (grid <= prev && grid_k_ > 0) grid = t0_ + (++grid_k_) * step_->ns;
    } else {
      grid = prev + tail_step_;
    }
    if (have_b && b_stamps_[bi_] <= grid) {
      from_b = true;
      if (b_stamps_[bi_] == grid) ++grid_k_;
      return b_stamps_[bi_];
    }
    if (step_) ++grid_k_;
    return grid;
  }
  /// The sample `next` gave was taken (B's stamp consumed).
  void taken(bool from_b) {
    if (from_b) ++bi_;
  }

  /// An upper bound of the samples of the transition that are not B's stamps, when it lasts
  /// at most `seconds` after T (the first sample at or after T + seconds ends it).
  [[nodiscard]] double own_samples_within(double seconds) const {
    const double span = seconds * 1e9;
    if (step_) return std::floor(span / static_cast<double>(step_->ns)) + 2.0;
    // After B's last stamp from T (or from T when B has none there): every tail step.
    const std::int64_t from = b_stamps_.empty() ? t0_ : std::max(t0_, b_stamps_.back());
    const double left = static_cast<double>(t0_ - from) + span;
    return left <= 0.0 ? 1.0 : std::floor(left / static_cast<double>(tail_step_)) + 2.0;
  }

private:
  std::vector<std::int64_t> b_stamps_;
  std::int64_t t0_;
  std::optional<Time> step_;
  std::int64_t tail_step_;
  std::size_t bi_ = 0;
  std::int64_t grid_k_ = 0;
};

/// The weight of A (linear, exponential) or the error to B (second order) as the transition
/// goes, and when it ends.
class SpliceLawState {
public:
  SpliceLawState(const SpliceOptions& o, const SpliceJoints& j, std::int64_t t0)
      : law_(o.law), tau_(o.tau), settle_(o.settle), y_(j.cols.size(), 0.0), v_(j.cols.size(), 0.0) {
    if (law_ != SpliceLaw::SecondOrder) return;
    // The transient runs on the error e = y − B with the design's error dynamics
    // e'' = −a0·e − a1·e' (law (4)–(5) with B's position, velocity and acceleration as the
    // reference), so y = B + e follows B exactly once e has died out, however B moves.
    filters::SecondOrderParams params;
    params.a0 = 1.0 / (tau_ * tau_);
    params.a1 = 2.0 / tau_;
    transients_.reserve(j.cols.size());
    for (std::size_t k = 0; k < j.cols.size(); ++k) {
      const SpliceColumn& c = j.cols[k];
      const double e = c.shared() ? j.a_pos(c, t0) - j.b_pos(c, t0) : 0.0;
      const double de = c.shared() ? j.a_slope(c, t0) - j.b_slope_after(c, t0) : 0.0;
      transients_.emplace_back(tau_ / 20.0, params, e);
      transients_.back().start(e, de);
      y_[k] = e;
      v_[k] = de;
      e0_ = std::max(e0_, std::abs(e) + tau_ * std::abs(de));
    }
  }

  /// An upper bound of how long the transition lasts after T, s (splice_transition_bound; 0
  /// for a second-order transition with nothing to correct).
  [[nodiscard]] double duration_bound(const SpliceOptions& o) const {
    return law_ == SpliceLaw::SecondOrder && e0_ == 0.0 ? 0.0 : splice_transition_bound(o);
  }

  /// Advances to the sample at `t` (`prev`: the one before, or T); true when the transition
  /// has ended there.
  bool advance(const SpliceJoints& j, std::int64_t t, std::int64_t prev, std::int64_t t0) {
    const double dt = Time{t - prev}.seconds();
    switch (law_) {
      case SpliceLaw::Linear:
        x_ = std::max(0.0, 1.0 - Time{t - t0}.seconds() / tau_);
        return x_ <= 0.0;
      case SpliceLaw::Exponential:
        if (t > prev) x_ *= std::max(0.0, 1.0 - dt / tau_);
        return x_ <= settle_;
      case SpliceLaw::SecondOrder: {
        double e = 0.0;
        for (std::size_t k = 0; k < j.cols.size(); ++k) {
          if (!j.cols[k].shared()) continue;
          if (t > prev) {
            y_[k] = transients_[k].update(0.0, filters::Interval{dt});
            v_[k] = transients_[k].velocity();
          }
          e = std::max(e, std::abs(y_[k]) + tau_ * std::abs(v_[k]));
        }
        return e <= settle_ * e0_;
      }
    }
    return true;
  }

  /// The weight of A at the last sample (linear, exponential).
  [[nodiscard]] double weight() const { return x_; }
  /// The error to B at the last sample, position and velocity (second order).
  [[nodiscard]] double error(std::size_t k) const { return y_[k]; }
  [[nodiscard]] double error_rate(std::size_t k) const { return v_[k]; }

private:
  SpliceLaw law_;
  double tau_;
  double settle_;
  double x_ = 1.0;
  double e0_ = 0.0;
  std::vector<filters::SecondOrderTransient<double>> transients_;
  std::vector<double> y_, v_;
};

/// Hands the output to the sink in time order: joint states as they come, each after the
/// support states stamped before it.
class SpliceOutput {
public:
  SpliceOutput(const SpliceSink& sink, std::vector<io::Message> supports) : sink_(sink), supports_(std::move(supports)) {}
  void plain(const io::Message& m) const { sink_(m); }
  void joint(const io::Message& m) {
    while (next_ < supports_.size() && supports_[next_].stamp() < m.stamp()) sink_(supports_[next_++]);
    sink_(m);
  }
  void finish() {
    while (next_ < supports_.size()) sink_(supports_[next_++]);
  }

private:
  const SpliceSink& sink_;
  std::vector<io::Message> supports_;
  std::size_t next_ = 0;
};

/// B's messages on the output clock (shifted by `shift`): its joint states and its support
/// states apart.
struct ShiftedMovement {
  std::vector<io::Message> joint;
  std::vector<io::Message> support;
};

ShiftedMovement shifted_movement(const SampledMovement& b, Time shift) {
  ShiftedMovement out;
  for (const io::Message& m : b.messages) {
    io::Message copy = m;
    copy.set_stamp(m.stamp() + shift);
    (copy.kind == io::MessageKind::Joint ? out.joint : out.support).push_back(std::move(copy));
  }
  return out;
}

/// The distinct stamps of B's joint states from T on: where transition samples fall.
std::vector<std::int64_t> b_stamps_from(const std::vector<io::Message>& b_joint, std::int64_t t0) {
  std::vector<std::int64_t> b_stamps;
  for (const io::Message& m : b_joint)
    if (m.joint.stamp.ns >= t0 && (b_stamps.empty() || b_stamps.back() != m.joint.stamp.ns))
      b_stamps.push_back(m.joint.stamp.ns);
  return b_stamps;
}

/// Spacing of the samples that go on when B ends before the transition does: the step, else
/// B's last interval, else τ/10.
std::int64_t splice_tail_step(const std::vector<io::Message>& b_joint, const SpliceOptions& o) {
  std::int64_t tail_step = o.step ? o.step->ns : 0;
  if (tail_step > 0) return tail_step;
  std::vector<std::int64_t> all;
  for (const io::Message& m : b_joint)
    if (all.empty() || all.back() != m.joint.stamp.ns) all.push_back(m.joint.stamp.ns);
  tail_step = all.size() >= 2 ? all.back() - all[all.size() - 2] : 0;
  if (tail_step <= 0) tail_step = std::max<std::int64_t>(1, std::llround(o.tau * 1e8));  // τ/10
  return tail_step;
}

/// Refuses, before anything is made, a transition that would make more samples of its own
/// than the limit, or would not end within the range of times. Returns the bound on its own
/// samples.
double refuse_unbounded_transition(const SpliceTimes& times, const SpliceLawState& law, const SpliceOptions& o,
                                   Time start, std::int64_t tail_step) {
  const double lasts = law.duration_bound(o);
  const double own_samples = times.own_samples_within(lasts);
  if (own_samples > static_cast<double>(kMaxSpliceSamples))
    throw InvalidArgument(fmt::format(
        "splice: the transition would make up to {:g} samples of its own (up to {:g} s at steps of {:g} s), more "
        "than the {} allowed; give a smaller tau or a larger step",
        own_samples, lasts, Time{o.step ? o.step->ns : tail_step}.seconds(), kMaxSpliceSamples));
  if (static_cast<double>(start.ns) + lasts * 1e9 >= 9.2e18)
    throw InvalidArgument(fmt::format("splice: a transition of up to {:g} s from T = {} would end beyond the range of "
                                      "times; give a smaller tau",
                                      lasts, to_string(start)));
  return own_samples;
}

/// Support states switch at T: B's in force at T (stamped T), then B's later ones.
std::vector<io::Message> supports_from(const std::vector<io::Message>& b_support, std::int64_t t0) {
  std::vector<io::Message> supports;
  const io::Message* in_force = nullptr;
  for (const io::Message& m : b_support) {
    if (m.support.stamp.ns <= t0) {
      in_force = &m;
    } else {
      supports.push_back(m);
    }
  }
  if (in_force) {
    io::Message s = *in_force;
    s.set_stamp(Time{t0});
    supports.insert(supports.begin(), std::move(s));
  }
  return supports;
}

/// The samples of the transition: one joint state of every joint, reused from sample to sample.
class TransitionSample {
public:
  TransitionSample(const SpliceJoints& j, const SpliceLawState& law, const SpliceOptions& o, std::int64_t t0)
      : j_(j), law_(law), o_(o), t0_(t0) {
    sample_.kind = io::MessageKind::Joint;
    sample_.joint.name = j.names;
    sample_.joint.position.resize(j.cols.size());
    if (j.with_velocity) sample_.joint.velocity.resize(j.cols.size());
  }

  /// The sample at `t` with A's weight `weight` (the linear and exponential laws), or B's
  /// values alone (`pure_b`, the transition over).
  const io::Message& at(std::int64_t t, double weight, bool pure_b) {
    sample_.joint.stamp = Time{t};
    const double weight_rate = o_.law == SpliceLaw::Linear ? (weight > 0.0 ? -1.0 / o_.tau : 0.0) : -weight / o_.tau;
    for (std::size_t k = 0; k < j_.cols.size(); ++k) {
      const SpliceColumn& c = j_.cols[k];
      double p = 0.0, v = 0.0;
      if (!c.in_b) {
        p = c.held;
      } else if (!c.shared() || pure_b) {
        p = j_.b_pos(c, t);
        if (j_.with_velocity) v = j_.b_vel(c, t);
      } else if (o_.law == SpliceLaw::SecondOrder) {
        if (t == t0_) {  // A's own values at T (B + (A − B) need not round back to A)
          p = j_.a_pos(c, t);
          if (j_.with_velocity) v = j_.a_vel(c, t);
        } else {
          p = j_.b_pos(c, t) + law_.error(k);
          if (j_.with_velocity) v = j_.b_vel(c, t) + law_.error_rate(k);
        }
      } else {
        const double pa = j_.a_pos(c, t), pb = j_.b_pos(c, t);
        p = weight * pa + (1.0 - weight) * pb;
        if (j_.with_velocity) v = weight * j_.a_vel(c, t) + (1.0 - weight) * j_.b_vel(c, t) + weight_rate * (pa - pb);
      }
      sample_.joint.position[k] = p;
      if (j_.with_velocity) sample_.joint.velocity[k] = v;
    }
    return sample_;
  }

private:
  const SpliceJoints& j_;
  const SpliceLawState& law_;
  const SpliceOptions& o_;
  std::int64_t t0_;
  io::Message sample_;
};

/// B as it is from the end of the transition; joints only in A get a joint state of their
/// own there, after B's joint states at that stamp (alone when the transition outlasted B).
void write_b_after(SpliceOutput& out, const std::vector<io::Message>& b_joint, const SpliceJoints& j,
                   std::int64_t end) {
  io::Message held;
  if (!j.held_columns.empty()) {
    held.kind = io::MessageKind::Joint;
    held.joint.stamp = Time{end};
    for (const std::size_t k : j.held_columns) {
      held.joint.name.push_back(j.names[k]);
      held.joint.position.push_back(j.cols[k].held);
    }
  }
  bool held_written = j.held_columns.empty();
  for (const io::Message& m : b_joint) {
    if (m.joint.stamp.ns < end) continue;
    if (!held_written && m.joint.stamp.ns > end) {
      out.joint(held);
      held_written = true;
    }
    out.joint(m);
  }
  if (!held_written) out.joint(held);
}

/// The splice proper; `pose` set: from that pose (A is then null) into B. The messages go to
/// `sink` as they are made: A before T, the transition, then B.
SpliceResult splice_impl(const SampledMovement* a, const JointState* pose, const SampledMovement& b,
                         const SpliceOptions& o, const SpliceSink& sink) {
  validate_splice_options(o);
  SpliceResult result;
  const SpliceClock clock = splice_clock(a, b, o);
  result.start = clock.start;
  const std::int64_t t0 = clock.start.ns;
  const SpliceJoints j = splice_joints(a, pose, b, t0, clock.shift.ns, result);
  const ShiftedMovement shifted = shifted_movement(b, clock.shift);
  const std::int64_t tail_step = splice_tail_step(shifted.joint, o);
  SpliceTimes times(b_stamps_from(shifted.joint, t0), t0, o.step, tail_step);
  SpliceLawState law(o, j, t0);
  const double own_samples = refuse_unbounded_transition(times, law, o, clock.start, tail_step);

  // A before T, as it is.
  SpliceOutput out(sink, supports_from(shifted.support, t0));
  if (a != nullptr)
    for (const io::Message& m : a->messages)
      if (m.stamp().ns < t0) out.plain(m);

  // The transition: one joint state of every joint per sample, until the law ends.
  TransitionSample sample(j, law, o, t0);
  std::int64_t prev = t0;
  std::int64_t end = t0;
  // The bound above holds by construction; this only stops a mistake in it from running away.
  const double most = own_samples + static_cast<double>(shifted.joint.size()) + 2.0;
  for (double made = 0.0;; ++made) {
    if (made > most) throw Error("splice: the transition outran its bound (a bug in rmodel)");
    bool from_b = false;
    const std::int64_t t = times.next(prev, from_b);
    if (law.advance(j, t, prev, t0)) {
      end = t;
      if (!from_b) out.joint(sample.at(t, 0.0, true));
      break;
    }
    out.joint(sample.at(t, law.weight(), false));
    ++result.transition_samples;
    times.taken(from_b);
    prev = t;
  }
  result.end = Time{end};
  write_b_after(out, shifted.joint, j, end);
  out.finish();
  return result;
}

void append_ros1_time(std::string& out, Time t) {
  out += fmt::format("{{\"secs\": {}, \"nsecs\": {}}}", t.sec(), t.nanosec());
}

void append_number_array(std::string& out, const std::vector<double>& values) {
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    if (std::isfinite(values[i])) {
      io::append_double(out, values[i]);
    } else {
      out += "null";  // JSON has no NaN or infinities (as the JSON Lines writer)
    }
  }
  out += ']';
}

}  // namespace

SpliceLaw parse_splice_law(const std::string& name) {
  if (name == "linear") return SpliceLaw::Linear;
  if (name == "exp" || name == "exponential") return SpliceLaw::Exponential;
  if (name == "second-order") return SpliceLaw::SecondOrder;
  throw InvalidArgument(fmt::format("unknown splice law '{}' (linear, exp, second-order)", name));
}

SpliceResult splice(const std::vector<io::Message>& a, const std::vector<io::Message>& b, const SpliceOptions& options,
                    const SpliceSink& sink) {
  const SampledMovement sa = sample_movement(a, "A");
  const SampledMovement sb = sample_movement(b, "B");
  return splice_impl(&sa, nullptr, sb, options, sink);
}

SpliceResult splice_from_pose(const JointState& pose, const std::vector<io::Message>& b, const SpliceOptions& options,
                              const SpliceSink& sink) {
  const SampledMovement sb = sample_movement(b, "B");
  return splice_impl(nullptr, &pose, sb, options, sink);
}

SpliceResult splice(const std::vector<io::Message>& a, const std::vector<io::Message>& b,
                    const SpliceOptions& options) {
  std::vector<io::Message> messages;
  SpliceResult result = splice(a, b, options, [&messages](const io::Message& m) { messages.push_back(m); });
  result.messages = std::move(messages);
  return result;
}

SpliceResult splice_from_pose(const JointState& pose, const std::vector<io::Message>& b, const SpliceOptions& options) {
  std::vector<io::Message> messages;
  SpliceResult result =
      splice_from_pose(pose, b, options, [&messages](const io::Message& m) { messages.push_back(m); });
  result.messages = std::move(messages);
  return result;
}

double splice_transition_bound(const SpliceOptions& options) {
  validate_splice_options(options);
  switch (options.law) {
    case SpliceLaw::Linear: return options.tau;
    // x is a product of factors 1 − dt/τ <= e^(−dt/τ): at most e^(−t/τ) after t.
    case SpliceLaw::Exponential: return options.tau * std::log(1.0 / options.settle);
    case SpliceLaw::SecondOrder: {
      // Critically damped, e(s) = (e0 + (τe0' + e0)s)e^(−s) at s = t/τ, so |e| + τ|e'| is at
      // most (|e0| + τ|e0'|)(1 + 2s)e^(−s): the first s where that envelope reaches settle
      // (it falls from s = 1/2 on), found by bisection.
      double lo = 0.5, hi = 2000.0;
      for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        ((1.0 + 2.0 * mid) * std::exp(-mid) > options.settle ? lo : hi) = mid;
      }
      return kSecondOrderMargin * options.tau * hi;
    }
  }
  return options.tau;
}

std::string trajectory_goal_json(const std::vector<io::Message>& messages) {
  std::vector<const io::Message*> sorted;
  for (const io::Message& m : messages)
    if (m.kind != io::MessageKind::Sync && m.has_stamp) sorted.push_back(&m);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const io::Message* x, const io::Message* y) { return x->stamp() < y->stamp(); });

  // Columns: joints in order of appearance, then the support chains; each starts at its
  // first value so that a point before it appears holds that value.
  std::vector<std::string> joints, chains;
  std::unordered_map<std::string, std::size_t> joint_index, chain_index;
  std::vector<double> position, velocity, support;
  bool all_velocities = true, any_joint = false;
  for (const io::Message* m : sorted) {
    if (m->kind == io::MessageKind::Joint) {
      any_joint = true;
      const JointState& js = m->joint;
      if (js.position.size() != js.name.size())
        throw SizeMismatch("trajectory: positions of a joint state", js.name.size(), js.position.size());
      if (js.velocity.size() != js.name.size()) all_velocities = false;
      for (std::size_t i = 0; i < js.name.size(); ++i)
        if (joint_index.emplace(js.name[i], joints.size()).second) {
          joints.push_back(js.name[i]);
          position.push_back(js.position[i]);
          velocity.push_back(all_velocities ? js.velocity[i] : 0.0);
        }
    } else if (m->support.support.size() == m->support.name.size()) {
      for (std::size_t i = 0; i < m->support.name.size(); ++i)
        if (chain_index.emplace(m->support.name[i], chains.size()).second) {
          chains.push_back(m->support.name[i]);
          support.push_back(m->support.support[i]);
        }
    }
  }
  if (!any_joint) throw InvalidArgument("trajectory: no joint state with a time");

  std::string out;
  out += "{\n  \"trajectory\": {\n    \"header\": {\"seq\": 0, \"stamp\": ";
  const Time first = [&] {
    for (const io::Message* m : sorted)
      if (m->kind == io::MessageKind::Joint) return m->joint.stamp;
    return Time{};
  }();
  append_ros1_time(out, first);
  out += ", \"frame_id\": \"\"},\n    \"joint_names\": [";
  bool comma = false;
  const auto name = [&](const std::string& s) {
    if (comma) out += ", ";
    comma = true;
    out += '"';
    for (const char ch : s) {
      if (ch == '"' || ch == '\\') out += '\\';
      if (static_cast<unsigned char>(ch) < 0x20) {
        out += fmt::format("\\u{:04x}", static_cast<unsigned>(ch));
        continue;
      }
      out += ch;
    }
    out += '"';
  };
  for (const auto& j : joints) name(j);
  for (const auto& c : chains) name("support/" + c);
  out += "],\n    \"points\": [";

  std::vector<double> values;
  std::vector<double> velocities;
  bool first_point = true;
  for (std::size_t k = 0; k < sorted.size();) {
    const Time t = sorted[k]->stamp();
    bool has_joint = false;
    for (; k < sorted.size() && sorted[k]->stamp() == t; ++k) {
      const io::Message* m = sorted[k];
      if (m->kind == io::MessageKind::Joint) {
        has_joint = true;
        for (std::size_t i = 0; i < m->joint.name.size(); ++i) {
          const std::size_t j = joint_index.at(m->joint.name[i]);
          position[j] = m->joint.position[i];
          if (all_velocities) velocity[j] = m->joint.velocity[i];
        }
      } else if (m->support.support.size() == m->support.name.size()) {
        for (std::size_t i = 0; i < m->support.name.size(); ++i)
          support[chain_index.at(m->support.name[i])] = m->support.support[i];
      }
    }
    if (!has_joint) continue;
    values = position;
    values.insert(values.end(), support.begin(), support.end());
    out += first_point ? "\n      {" : ",\n      {";
    first_point = false;
    out += "\"positions\": ";
    append_number_array(out, values);
    out += ", \"velocities\": ";
    velocities.clear();
    if (all_velocities) {
      velocities = velocity;
      velocities.insert(velocities.end(), support.size(), 0.0);
    }
    append_number_array(out, velocities);
    out += ", \"accelerations\": [], \"effort\": [], \"time_from_start\": ";
    append_ros1_time(out, t - first);
    out += '}';
  }
  out += "\n    ]\n  },\n  \"path_tolerance\": [],\n  \"goal_tolerance\": [],\n  \"goal_time_tolerance\": ";
  append_ros1_time(out, Time{});
  out += "\n}\n";
  return out;
}

}  // namespace rmodel
