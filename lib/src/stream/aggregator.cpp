#include "rmodel/stream/aggregator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/filters/registry.hpp"

namespace rmodel {

namespace {

/// The filter kind `name`, checked to be of `family` (`--diff` takes differentiators only,
/// `--quad` integrators only: any other kind would publish the wrong quantity).
const filters::FilterKind& checked_kind(const std::string& name, std::string_view family, const char* option) {
  const filters::FilterKind& kind = filters::filter_kind(name);
  if (kind.family != family) {
    std::string valid;
    for (const filters::FilterKind& k : filters::filter_kinds())
      if (k.family == family) valid += (valid.empty() ? "" : ", ") + k.name;
    throw OptionError({option}, fmt::format("{} '{}' is a {} filter; {} takes a {} ({})", option, name, kind.family,
                                            option, family, valid));
  }
  return kind;
}

filters::FilterParams filter_params(Time period, const std::vector<std::pair<std::string, double>>& extra) {
  filters::FilterParams params{{"T", period.seconds()}};
  for (const auto& [name, value] : extra) params[name] = value;
  return params;
}

}  // namespace

/// The differentiator (velocity from position) and the integrator (position from velocity)
/// of all pose joints: one ArrayFilter per kind over the n joints (the --diff and --quad
/// kinds are element-wise), with the last input of every joint. A message stages the
/// inputs of its joints and computes one output; a tick advances each kind once, over the
/// cycle's length, with every joint's last input.
///
/// Per joint the documented rules hold (docs/streaming.md): a filter restarted in the cycle
/// and given no input since keeps its restarted state through the tick, and a joint never
/// seen keeps its filters unstarted. Both come from keeping each joint's restart here until
/// its next input and handing it to the filter before each output of the cycle that carries
/// an input of the joint: the tick's step of a joint without input is then overwritten, and
/// an unstarted joint starts from its first sample.
class JointFilters {
public:
  enum Which { diff = 0, quad = 1 };

  JointFilters(std::size_t n, const AggregatorOptions& o) {
    const filters::FilterKind& dk = checked_kind(o.diff_method, "differentiator", "AggregatorOptions::diff_method");
    const filters::FilterKind& qk = checked_kind(o.quad_method, "integrator", "AggregatorOptions::quad_method");
    const auto size = static_cast<Eigen::Index>(n);
    bank_[diff].filter = filters::make_array_filter(dk.name, size, filter_params(o.period, o.diff_params));
    bank_[quad].filter = filters::make_array_filter(qk.name, size, filter_params(o.period, o.quad_params));
    // A T given explicitly keeps that filter fixed-step; otherwise it steps by the cycles'
    // actual lengths.
    const auto forced = [](const std::vector<std::pair<std::string, double>>& p) {
      return std::any_of(p.begin(), p.end(), [](const auto& kv) { return kv.first == "T"; });
    };
    bank_[diff].fixed = forced(o.diff_params);
    bank_[quad].fixed = forced(o.quad_params);
    for (Bank& b : bank_) {
      b.input = Eigen::VectorXd::Zero(size);
      b.x0.assign(n, 0.0);
      b.restart.assign(n, kNatural);  // unstarted: the first input starts the joint
      b.given.assign(n, 0);
    }
  }

  /// Sets joint j's input of the coming output() of `which`.
  void stage(Which which, std::size_t j, double u) {
    Bank& b = bank_[which];
    const auto e = static_cast<Eigen::Index>(j);
    if (b.restart[j] == kNatural) {
      // The natural start, fixed at the first input: a differentiator from it, an integral from 0.
      b.x0[j] = which == diff ? u : 0.0;
      b.restart[j] = kFrom;
    }
    // Handed again before every output of the cycle, so that each output starts from the
    // restarted state (as one filter restarted and given the cycle's inputs one by one).
    if (b.restart[j] == kFrom) b.filter->restart(e, b.x0[j]);
    b.given[j] = 1;
    b.input[e] = u;
    b.staged = true;
  }
  /// The output for the joints staged since the last call (their element of the result);
  /// `dt`: the length of the previous cycle (docs/streaming.md).
  const Eigen::VectorXd& output(Which which, double dt) {
    Bank& b = bank_[which];
    if (b.staged) {
      (void)(b.fixed ? b.filter->output(b.input) : b.filter->output(b.input, dt));
      b.staged = false;
      b.stepped = true;
    }
    return b.filter->y();
  }
  /// Joint j of `which` restarts from x at its next input.
  void restart(Which which, std::size_t j, double x) {
    bank_[which].restart[j] = kFrom;
    bank_[which].x0[j] = x;
    bank_[which].given[j] = 0;
  }

  /// Steps each kind that had an output in the cycle over the cycle's length dt. A joint
  /// given no input since its restart is stepped too, harmlessly: its restart, still
  /// pending, sets its state before its next output.
  void tick(double dt) {
    for (Bank& b : bank_) {
      if (b.stepped) b.fixed ? b.filter->update() : b.filter->update(dt);
      b.stepped = false;
      // A restart given its input in the cycle is done; one without input stays due.
      for (std::size_t j = 0; j < b.given.size(); ++j) {
        if (b.given[j]) b.restart[j] = kNone;
        b.given[j] = 0;
      }
    }
  }

private:
  enum : unsigned char { kNone = 0, kNatural = 1, kFrom = 2 };
  struct Bank {
    std::unique_ptr<filters::ArrayFilter> filter;
    Eigen::VectorXd input;               // last input per joint
    std::vector<double> x0;              // restart values
    std::vector<unsigned char> restart;  // per joint: restart due at its next input
    std::vector<unsigned char> given;    // per joint: an input since its restart, this cycle
    bool fixed = false;                  // steps by T, whatever the cycles' lengths
    bool staged = false;                 // inputs set since the last output
    bool stepped = false;                // an output since the last tick
  };
  Bank bank_[2];
};

struct Aggregator::State {
  Model model;
  AggregatorOptions options;
  std::size_t n = 0;
  bool sync = false;
  PublishPolicy publish = PublishPolicy::message;
  stream::SlotMapper mapper;

  JointState pose;
  SupportState support;
  bool has_velocity = false;
  bool has_effort = false;
  std::vector<double> lower, upper;
  std::vector<char> bounded;

  // Cycles and ticks.
  TickSource mode = TickSource::automatic;
  std::int64_t cycle = 0;
  bool open_cycle = false;             // a message arrived since the last tick
  std::optional<Time> last_tick_time;
  Time dt_prev;                      // length of the previous cycle (filters' dt in this one)
  std::optional<Time> last_time;     // stamp of the last message with one
  // Time ticks: cycle k ends at base_time + (k − base_cycle)·T, on an integer grid.
  bool clock_started = false;
  Time base_time{};
  std::int64_t base_cycle = 0;
  // Automatic tick source: messages held until the log decided.
  std::vector<io::Message> held;
  std::size_t held_count = 0;
  Time min_stamp{}, max_stamp{};
  bool any_stamp = false;

  // Sync aggregator.
  std::unique_ptr<JointFilters> filters;
  std::vector<char> fresh;  // got a message in the current cycle
  std::vector<char> seen;   // got a first sample (or the initial pose)

  State(const Model& m, AggregatorOptions o)
      : model(m), options(std::move(o)), n(m.pose_size()), mapper(m.joint_names()), dt_prev(options.period) {
    if (!(options.period > Time{}))
      throw InvalidArgument(fmt::format("aggregator period must be > 0 s, got {}", to_string(options.period)));
    if (!(options.brake_deceleration > 0) || !std::isfinite(options.brake_deceleration))
      throw InvalidArgument(fmt::format("brake deceleration must be > 0, got {}", options.brake_deceleration));
    if (!options.initial_positions.empty() && options.initial_positions.size() != n)
      throw SizeMismatch("initial pose positions", n, options.initial_positions.size());
    sync = options.kind == AggregatorKind::sync;
    publish = options.publish.value_or(sync ? PublishPolicy::tick : PublishPolicy::message);
    mode = options.ticks;
    // A simple aggregator publishing on messages does nothing at a tick: no need to hold
    // messages back to find where the ticks come from.
    if (!sync && publish == PublishPolicy::message && mode == TickSource::automatic) mode = TickSource::stream;
    pose.name = model.joint_names();
    pose.position.assign(n, 0.0);
    pose.velocity.reserve(n);
    pose.effort.reserve(n);
    for (const Chain& c : model.chains()) {
      support.name.push_back(c.name);
      support.support.push_back(0.0);
      support.contact.push_back(c.default_contact);
    }
    lower.resize(n);
    upper.resize(n);
    bounded.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const JointInfo& j = model.pose_joint(i);
      bounded[i] = j.bounded();
      lower[i] = j.lower;
      upper[i] = j.upper;
    }
    if (sync) {
      pose.velocity.assign(n, 0.0);
      has_velocity = true;
      filters = std::make_unique<JointFilters>(n, options);
      fresh.assign(n, 0);
      seen.assign(n, 0);
    }
    if (!options.initial_positions.empty()) {
      std::copy(options.initial_positions.begin(), options.initial_positions.end(), pose.position.begin());
      if (sync)
        for (std::size_t j = 0; j < n; ++j) {
          filters->restart(JointFilters::diff, j, pose.position[j]);
          filters->restart(JointFilters::quad, j, pose.position[j]);
          seen[j] = 1;
        }
    }
  }

  // ---- messages -------------------------------------------------------------------------

  double checked_position(const io::Message& m, std::size_t element, std::size_t j, double value,
                          stream::Reporter& report) {
    if (bounded[j] && (value < lower[j] || value > upper[j])) {
      report.warn(m, "position-limit", pose.name[j], [&] {
        return fmt::format("joint '{}' at {} is outside its limits [{}, {}]{}", pose.name[j], value, lower[j], upper[j],
                           options.clamp ? "; clamped" : "");
      });
      (void)element;
      if (options.clamp) value = std::clamp(value, lower[j], upper[j]);
    }
    return value;
  }

  void enable(std::vector<double>& field, bool& flag) {
    if (!flag) {
      field.assign(n, 0.0);
      flag = true;
    }
  }

  bool apply_joint(const io::Message& m, stream::Reporter& report) {
    const JointState& js = m.joint;
    if (!mapper.map(m, report)) return false;
    const auto slots = mapper.slots();
    const bool has_pos = !js.position.empty();
    const bool has_vel = !js.velocity.empty();
    const bool has_eff = !js.effort.empty();
    if (has_vel) enable(pose.velocity, has_velocity);
    if (has_eff) enable(pose.effort, has_effort);
    for (std::size_t i = 0; i < js.name.size(); ++i) {
      if (slots[i] == stream::SlotMapper::kUnknown) continue;
      const auto j = static_cast<std::size_t>(slots[i]);
      if (has_eff) pose.effort[j] = js.effort[i];
      if (!sync) {
        if (has_pos) pose.position[j] = checked_position(m, i, j, js.position[i], report);
        if (has_vel) pose.velocity[j] = js.velocity[i];
        continue;
      }
      if (has_pos) {
        const double x = checked_position(m, i, j, js.position[i], report);
        pose.position[j] = x;
        if (has_vel) {
          // Both measured: take them; both filters restart from the position.
          pose.velocity[j] = js.velocity[i];
          filters->restart(JointFilters::diff, j, x);
        } else {
          filters->stage(JointFilters::diff, j, x);  // velocity below, from one output
        }
        filters->restart(JointFilters::quad, j, x);
      } else if (has_vel) {
        pose.velocity[j] = js.velocity[i];
        filters->stage(JointFilters::quad, j, js.velocity[i]);  // position below
      } else {
        continue;  // names only: nothing measured
      }
      fresh[j] = 1;
      seen[j] = 1;
    }
    // One filter output per message for all its joints.
    if (sync && has_pos && !has_vel) {
      const Eigen::VectorXd& v = filters->output(JointFilters::diff, dt_prev.seconds());
      for (std::size_t i = 0; i < js.name.size(); ++i)
        if (slots[i] != stream::SlotMapper::kUnknown) {
          const auto j = static_cast<std::size_t>(slots[i]);
          pose.velocity[j] = v[static_cast<Eigen::Index>(j)];
        }
    } else if (sync && has_vel && !has_pos) {
      const Eigen::VectorXd& p = filters->output(JointFilters::quad, dt_prev.seconds());
      for (std::size_t i = 0; i < js.name.size(); ++i) {
        if (slots[i] == stream::SlotMapper::kUnknown) continue;
        const auto j = static_cast<std::size_t>(slots[i]);
        const double integrated = p[static_cast<Eigen::Index>(j)];
        const double x = checked_position(m, i, j, integrated, report);
        // A clamped integral restarts at the limit: no wind-up past it.
        if (x != integrated) filters->restart(JointFilters::quad, j, x);
        pose.position[j] = x;
        filters->restart(JointFilters::diff, j, x);
      }
    }
    // Mimic joints the message did not give follow the masters it gave (issue 22).
    model.complete_mimic_joints(pose, slots);
    pose.stamp = js.stamp;
    return true;
  }

  bool apply_support(const io::Message& m, stream::Reporter& report) {
    const SupportState& s = m.support;
    const std::size_t count = s.name.size();
    const auto size_problem = [&](std::string_view field, std::size_t got) {
      report.reject(m, fmt::format("message rejected: '{}' has {} values for {} names", field, got, count));
      return false;
    };
    if (!s.support.empty() && s.support.size() != count) return size_problem("support", s.support.size());
    if (!s.contact.empty() && s.contact.size() != count) return size_problem("contact", s.contact.size());
    for (std::size_t i = 0; i < count; ++i) {
      const auto chain = model.find_chain_index(s.name[i]);
      if (!chain) {
        report.warn_once(m, "\x01" + s.name[i],
                         [&] { return fmt::format("unknown chain '{}' skipped", s.name[i]); });
        continue;
      }
      if (!s.support.empty()) support.support[*chain] = s.support[i];
      const std::string& fallback = model.chains()[*chain].default_contact;
      if (!s.contact.empty() && !s.contact[i].empty()) {
        if (model.find_contact(s.contact[i])) {
          support.contact[*chain] = s.contact[i];
        } else {
          report.warn(m, "unknown-contact", s.name[i], [&] {
            return fmt::format("unknown contact '{}' for chain '{}'; default contact used", s.contact[i], s.name[i]);
          });
          support.contact[*chain] = fallback;
        }
      } else {
        support.contact[*chain] = fallback;
      }
    }
    support.stamp = s.stamp;
    return true;
  }

  /// Applies a joint or support state to the current cycle and publishes on messages.
  void apply(const io::Message& m, stream::Output& out, stream::Reporter& report) {
    const bool joint = m.kind == io::MessageKind::Joint;
    if (!(joint ? apply_joint(m, report) : apply_support(m, report))) return;
    open_cycle = true;
    if (publish == PublishPolicy::tick) return;
    // The sync aggregator's messages belong to its current cycle; a simple aggregator has
    // no cycles of its own and passes the message's on.
    const std::optional<std::int64_t> c = sync ? std::optional<std::int64_t>(cycle) : m.cycle;
    if (joint) out.joint_state(pose, c);
    else if (options.support) out.support_state(support, c);
  }

  // ---- ticks ----------------------------------------------------------------------------

  void predict(std::size_t j, double dt) {
    switch (options.update) {
      case UpdatePolicy::hold: break;
      case UpdatePolicy::hold_zero_velocity: pose.velocity[j] = 0.0; break;
      case UpdatePolicy::extrapolate: pose.position[j] += pose.velocity[j] * dt; break;
      case UpdatePolicy::brake: {
        const double v = pose.velocity[j];
        const double slowed = std::copysign(std::max(0.0, std::abs(v) - options.brake_deceleration * dt), v);
        pose.position[j] += 0.5 * (v + slowed) * dt;
        pose.velocity[j] = slowed;
        break;
      }
    }
    if (bounded[j] && options.clamp) pose.position[j] = std::clamp(pose.position[j], lower[j], upper[j]);
    filters->restart(JointFilters::diff, j, pose.position[j]);
    filters->restart(JointFilters::quad, j, pose.position[j]);
  }

  /// The stamp tolerance: 1e-6·T (docs/streaming.md), for periods that are not a whole
  /// number of nanoseconds (T = 1/3 s and stamps rounded to the nanosecond).
  [[nodiscard]] Time tolerance() const noexcept { return Time{options.period.ns / 1'000'000}; }

  /// Tick k: ends the current cycle at `time` (if known) and publishes it.
  void tick(std::optional<Time> time, stream::Output& out) {
    // The cycle's length: T with time ticks; else the time between ticks when both have one
    // (T when it is within the stamp tolerance of T).
    Time dt = options.period;
    if (mode != TickSource::time && time && last_tick_time && *time > *last_tick_time) {
      dt = *time - *last_tick_time;
      if (dt >= options.period - tolerance() && dt <= options.period + tolerance()) dt = options.period;
    }
    if (sync) {
      const double dt_s = dt.seconds();
      filters->tick(dt_s);
      for (std::size_t j = 0; j < n; ++j) {
        // A joint never seen keeps its filters unstarted, so its first sample starts them.
        if (!fresh[j] && seen[j]) predict(j, dt_s);
        fresh[j] = 0;
      }
      model.complete_mimic_joints_except(pose, seen);  // mimic joints never given follow predicted masters
    }
    const std::int64_t ended = cycle++;
    open_cycle = false;
    dt_prev = dt;
    if (time) {
      last_tick_time = time;
      pose.stamp = *time;
      support.stamp = *time;
    }
    if (publish == PublishPolicy::message) return;
    out.joint_state(pose, ended);
    if (options.support && !support.name.empty()) out.support_state(support, ended);
  }

  /// Time of the tick ending cycle `k` (time ticks): on the grid t0 + k·T, exactly.
  [[nodiscard]] Time tick_time(std::int64_t k) const { return base_time + options.period * (k - base_cycle); }

  /// Time ticks: fires every tick that ends before stamp `s`.
  void advance_time(Time s, stream::Output& out, stream::Reporter& report, const io::Message& m) {
    const Time T = options.period;
    if (!clock_started) {
      // t_k = t0 + k·T from the first stamp t0: cycle 0 holds what is stamped at or before t0.
      clock_started = true;
      base_time = s;
      base_cycle = cycle;
      return;
    }
    while (true) {
      const Time tk = tick_time(cycle);
      if (s <= tk + tolerance()) return;
      // (s − tk) / T > 10^6, without overflow: a stamp far away restarts the clock.
      std::int64_t ahead = 0;
      if (__builtin_sub_overflow(s.ns, tk.ns, &ahead) || ahead / T.ns > 1'000'000) {
        report.warn(m, "clock-restart", {}, [&] {
          return fmt::format("stamp {} s is {:.0f} periods after the current cycle; the tick clock restarts there",
                             to_string(s), (s - tk).seconds() / T.seconds());
        });
        if (open_cycle) tick(tk, out);
        base_time = s;
        base_cycle = cycle;
        return;
      }
      tick(tk, out);
    }
  }

  /// Stream ticks: fires the ticks of cycles cycle … c−1 (missing ticks), stamped `time`.
  void catch_up(std::int64_t c, std::optional<Time> time, stream::Output& out) {
    while (cycle < c) tick(time, out);
  }

  void process(const io::Message& m, stream::Output& out, stream::Reporter& report) {
    const std::optional<Time> time = m.has_stamp ? std::optional<Time>(m.stamp()) : std::nullopt;
    // A cycle number 0 means "absent" (as in the original design).
    const std::int64_t c = m.cycle.value_or(0);
    if (mode == TickSource::time) {
      if (m.kind == io::MessageKind::Sync) {
        report.warn_once(m, "\x02sync",
                         [] { return std::string("sync ticks of the log ignored (AggregatorOptions::ticks time)"); });
        return;
      }
      if (time) advance_time(*time, out, report, m);
      if (time) last_time = time;
      apply(m, out, report);
      return;
    }
    // Stream ticks.
    if (m.kind == io::MessageKind::Sync) {
      const std::optional<Time> tick_at = time ? time : last_time;
      if (c != 0 && c < cycle) {
        report.warn(m, "late-tick", {},
                    [&] { return fmt::format("tick of cycle {} arrived in cycle {}; ignored", c, cycle); });
        return;
      }
      if (c != 0) catch_up(c, tick_at, out);
      tick(tick_at, out);
      return;
    }
    if (c != 0 && c > cycle) catch_up(c, time ? time : last_time, out);
    else if (c != 0 && c < cycle && sync)
      report.warn(m, "late-message", {},
                  [&] { return fmt::format("message of cycle {} arrived in cycle {}", c, cycle); });
    if (time) last_time = time;
    apply(m, out, report);
  }

  // ---- automatic tick source -------------------------------------------------------------

  void decide(TickSource chosen, stream::Output& out, stream::Reporter& report) {
    mode = chosen;
    // A message held from outside the run's time window is not reported on, as it was not
    // when it was pushed (the reporter is muted then), whichever push decides.
    struct Restore {
      stream::Reporter& report;
      bool muted;
      ~Restore() { report.set_muted(muted); }
    } restore{report, report.muted()};
    for (std::size_t i = 0; i < held_count; ++i) {
      const io::Message& m = held[i];
      report.set_muted(restore.muted || (m.has_stamp && !out.in_window(m.stamp())));
      process(m, out, report);
    }
    held_count = 0;
  }

  void hold(const io::Message& m, stream::Output& out, stream::Reporter& report) {
    if (held_count == held.size()) held.emplace_back();
    held[held_count++] = m;
    if (m.kind == io::MessageKind::Sync || (m.cycle && *m.cycle != 0)) return decide(TickSource::stream, out, report);
    if (m.has_stamp) {
      const Time s = m.stamp();
      if (!any_stamp) min_stamp = max_stamp = s;
      any_stamp = true;
      min_stamp = std::min(min_stamp, s);
      max_stamp = std::max(max_stamp, s);
      if (max_stamp.seconds() - min_stamp.seconds() > 2 * options.period.seconds())
        return decide(TickSource::time, out, report);
    }
    if (held_count >= 1024) decide(any_stamp ? TickSource::time : TickSource::stream, out, report);
  }
};

Aggregator::Aggregator(const Model& model, AggregatorOptions options)
    : state_(std::make_unique<State>(model, std::move(options))) {}
Aggregator::~Aggregator() = default;
Aggregator::Aggregator(Aggregator&&) noexcept = default;
Aggregator& Aggregator::operator=(Aggregator&&) noexcept = default;

void Aggregator::push(const io::Message& message, stream::Output& out, stream::Reporter& report) {
  State& s = *state_;
  if (s.mode == TickSource::automatic) s.hold(message, out, report);
  else s.process(message, out, report);
}

void Aggregator::finish(stream::Output& out, stream::Reporter& report) {
  State& s = *state_;
  if (s.mode == TickSource::automatic) s.decide(s.any_stamp ? TickSource::time : TickSource::stream, out, report);
  if (!s.open_cycle) return;
  // End of input ends the open cycle: a replay never loses its last cycle.
  if (s.mode == TickSource::time && s.clock_started) s.tick(s.tick_time(s.cycle), out);
  else s.tick(s.last_time, out);
}

const JointState& Aggregator::pose() const noexcept { return state_->pose; }
const SupportState& Aggregator::support() const noexcept { return state_->support; }
std::int64_t Aggregator::cycle() const noexcept { return state_->cycle; }
TickSource Aggregator::ticks() const noexcept { return state_->mode; }
const AggregatorOptions& Aggregator::options() const noexcept { return state_->options; }
const Model& Aggregator::model() const noexcept { return state_->model; }

}  // namespace rmodel
