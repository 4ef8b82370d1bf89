#include "rmodel/aggregator.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "rmodel/error.hpp"
#include "rmodel/filters/registry.hpp"

namespace rmodel {

namespace {

/// Lengths of position/velocity/effort that disagree with name, or nothing.
std::optional<Rejection> size_problem(const JointState& m) {
  const std::size_t n = m.name.size();
  if (!m.position.empty() && m.position.size() != n) return Rejection{"position", n, m.position.size()};
  if (!m.velocity.empty() && m.velocity.size() != n) return Rejection{"velocity", n, m.velocity.size()};
  if (!m.effort.empty() && m.effort.size() != n) return Rejection{"effort", n, m.effort.size()};
  return std::nullopt;
}

std::optional<Rejection> size_problem(const SupportState& m) {
  const std::size_t n = m.name.size();
  if (!m.support.empty() && m.support.size() != n) return Rejection{"support", n, m.support.size()};
  if (!m.contact.empty() && m.contact.size() != n) return Rejection{"contact", n, m.contact.size()};
  return std::nullopt;
}

std::unique_ptr<filters::ArrayFilter> make_scalar_filter(const std::string& kind, double period,
                                                        const std::vector<std::pair<std::string, double>>& extra) {
  filters::FilterParams params{{"T", period}};
  for (const auto& [name, value] : extra) params[name] = value;
  return filters::make_array_filter(kind, 1, params);
}

}  // namespace

struct Aggregator::State {
  Model model;
  AggregatorOptions options;
  std::size_t n = 0;

  JointState pose;
  SupportState support;
  bool has_velocity = false;
  bool has_effort = false;

  std::vector<double> lower, upper;
  std::vector<char> bounded;

  // Resolution of the last message's names: position i of the message → pose index.
  std::vector<std::string> cache_names;
  std::vector<int> cache_index;
  std::vector<int> resolved;  // per message element, -1 = unknown
  // Joints named twice in one message: pose slot j was named in message `named_in[j]`
  // (a counter, so nothing is cleared per message), at element `named_at[j]`.
  std::uint64_t generation = 0;
  std::vector<std::uint64_t> named_in;
  std::vector<std::size_t> named_at;

  std::vector<AggregatorWarning> warnings;
  Rejection rejection;
  std::int64_t cycle = 0;

  // sync aggregator
  std::vector<std::unique_ptr<filters::ArrayFilter>> differentiators;
  std::vector<std::unique_ptr<filters::ArrayFilter>> integrators;
  std::vector<char> fresh;  // got news in the current cycle
  Eigen::VectorXd scalar = Eigen::VectorXd::Zero(1);

  State(const Model& m, AggregatorOptions o) : model(m), options(std::move(o)), n(m.pose_size()) {
    if (!(options.period > 0) || !std::isfinite(options.period))
      throw InvalidArgument(fmt::format("aggregator period must be a finite value > 0 (s), got {}", options.period));
    if (!(options.brake_deceleration > 0))
      throw InvalidArgument(fmt::format("brake deceleration must be > 0, got {}", options.brake_deceleration));
    pose.name = model.joint_names();
    pose.position.assign(n, 0.0);
    // Capacity reserved now, so that the first velocity or effort allocates nothing.
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
    named_in.assign(n, 0);
    named_at.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const JointInfo& j = model.pose_joint(i);
      bounded[i] = j.bounded();
      lower[i] = j.lower;
      upper[i] = j.upper;
    }
    warnings.reserve(64);
    resolved.reserve(n);
    if (options.kind == AggregatorKind::sync) {
      pose.velocity.assign(n, 0.0);
      has_velocity = true;
      fresh.assign(n, 0);
      for (std::size_t i = 0; i < n; ++i) {
        differentiators.push_back(make_scalar_filter(options.diff_method, options.period, options.diff_params));
        integrators.push_back(make_scalar_filter(options.quad_method, options.period, options.quad_params));
      }
    }
  }

  void warn(AggregatorWarning::Kind kind, std::size_t element, double value = 0.0) {
    warnings.push_back({kind, element, value});
  }

  int resolve(std::size_t i, const std::string& name) {
    if (i < cache_names.size() && cache_names[i] == name) return cache_index[i];
    const auto found = model.find_joint_index(name);
    const int index = found ? static_cast<int>(*found) : -1;
    if (i >= cache_names.size()) {
      cache_names.resize(i + 1);
      cache_index.resize(i + 1, -1);
    }
    cache_names[i] = name;
    cache_index[i] = index;
    return index;
  }

  double checked_position(std::size_t element, int index, double value) {
    const auto j = static_cast<std::size_t>(index);
    if (bounded[j] && (value < lower[j] || value > upper[j])) {
      warn(AggregatorWarning::Kind::limit_exceeded, element, value);
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

  void apply_simple(const JointState& m) {
    if (!m.velocity.empty()) enable(pose.velocity, has_velocity);
    if (!m.effort.empty()) enable(pose.effort, has_effort);
    for (std::size_t i = 0; i < m.name.size(); ++i) {
      const int index = resolved[i];
      if (index < 0) continue;
      const auto j = static_cast<std::size_t>(index);
      if (!m.position.empty()) pose.position[j] = checked_position(i, index, m.position[i]);
      if (!m.velocity.empty()) pose.velocity[j] = m.velocity[i];
      if (!m.effort.empty()) pose.effort[j] = m.effort[i];
    }
  }

  double step(filters::ArrayFilter& f, double u) {
    scalar[0] = u;
    (void)f.update(scalar);
    return f.y()[0];
  }

  void restart(filters::ArrayFilter& f, double x0) {
    scalar[0] = x0;
    f.start(scalar);
  }

  void apply_sync(const JointState& m) {
    if (!m.effort.empty()) enable(pose.effort, has_effort);
    const bool has_pos = !m.position.empty();
    const bool has_vel = !m.velocity.empty();
    for (std::size_t i = 0; i < m.name.size(); ++i) {
      const int index = resolved[i];
      if (index < 0) continue;
      const auto j = static_cast<std::size_t>(index);
      if (has_pos && has_vel) {
        // Both measured: take them and restart the filters from here.
        pose.position[j] = checked_position(i, index, m.position[i]);
        pose.velocity[j] = m.velocity[i];
        differentiators[j]->start();
        (void)step(*differentiators[j], pose.position[j]);
        restart(*integrators[j], pose.position[j]);
      } else if (has_pos) {
        pose.position[j] = checked_position(i, index, m.position[i]);
        pose.velocity[j] = step(*differentiators[j], pose.position[j]);
        restart(*integrators[j], pose.position[j]);
      } else if (has_vel) {
        pose.velocity[j] = m.velocity[i];
        pose.position[j] = checked_position(i, index, step(*integrators[j], m.velocity[i]));
        differentiators[j]->start();
        (void)step(*differentiators[j], pose.position[j]);
      }
      if (!m.effort.empty()) pose.effort[j] = m.effort[i];
      fresh[j] = 1;
    }
  }

  void predict(std::size_t j) {
    const double T = options.period;
    switch (options.update) {
      case UpdatePolicy::hold: break;
      case UpdatePolicy::hold_zero_velocity: pose.velocity[j] = 0.0; break;
      case UpdatePolicy::extrapolate: pose.position[j] += pose.velocity[j] * T; break;
      case UpdatePolicy::brake: {
        const double v = pose.velocity[j];
        const double slowed = std::copysign(std::max(0.0, std::abs(v) - options.brake_deceleration * T), v);
        pose.position[j] += 0.5 * (v + slowed) * T;
        pose.velocity[j] = slowed;
        break;
      }
    }
    if (bounded[j] && options.clamp) pose.position[j] = std::clamp(pose.position[j], lower[j], upper[j]);
    // Keep the filters consistent with the predicted state.
    restart(*integrators[j], pose.position[j]);
    differentiators[j]->start();
    (void)step(*differentiators[j], pose.position[j]);
  }
};

Aggregator::Aggregator(const Model& model, AggregatorOptions options)
    : state_(std::make_unique<State>(model, std::move(options))) {}
Aggregator::~Aggregator() = default;
Aggregator::Aggregator(Aggregator&&) noexcept = default;
Aggregator& Aggregator::operator=(Aggregator&&) noexcept = default;

Verdict Aggregator::on_joint_state(const JointState& message, std::optional<std::int64_t> cycle) {
  State& s = *state_;
  s.warnings.clear();
  if (auto problem = size_problem(message)) {
    s.rejection = *problem;
    return Verdict::rejected;
  }
  if (cycle && *cycle != s.cycle && s.options.kind == AggregatorKind::sync)
    s.warn(AggregatorWarning::Kind::cycle_mismatch, 0, static_cast<double>(*cycle));
  s.resolved.resize(message.name.size());
  ++s.generation;
  for (std::size_t i = 0; i < message.name.size(); ++i) {
    const int index = s.resolve(i, message.name[i]);
    s.resolved[i] = index;
    if (index < 0) {
      s.warn(AggregatorWarning::Kind::unknown_joint, i);
      continue;
    }
    const auto j = static_cast<std::size_t>(index);
    if (s.named_in[j] == s.generation) {
      s.warnings.clear();
      s.rejection = Rejection{"name", s.named_at[j] + 1, i + 1};
      return Verdict::rejected;
    }
    s.named_in[j] = s.generation;
    s.named_at[j] = i;
  }
  if (s.options.kind == AggregatorKind::sync)
    s.apply_sync(message);
  else
    s.apply_simple(message);
  s.pose.stamp = message.stamp;
  return Verdict::accepted;
}

Verdict Aggregator::on_support_state(const SupportState& message) {
  State& s = *state_;
  s.warnings.clear();
  if (auto problem = size_problem(message)) {
    s.rejection = *problem;
    return Verdict::rejected;
  }
  for (std::size_t i = 0; i < message.name.size(); ++i) {
    const auto chain = s.model.find_chain_index(message.name[i]);
    if (!chain) {
      s.warn(AggregatorWarning::Kind::unknown_chain, i);
      continue;
    }
    if (!message.support.empty()) s.support.support[*chain] = message.support[i];
    if (!message.contact.empty() && !message.contact[i].empty()) {
      if (s.model.find_contact(message.contact[i]))
        s.support.contact[*chain] = message.contact[i];
      else {
        s.warn(AggregatorWarning::Kind::unknown_contact, i);
        s.support.contact[*chain] = s.model.chains()[*chain].default_contact;
      }
    } else {
      s.support.contact[*chain] = s.model.chains()[*chain].default_contact;
    }
  }
  s.support.stamp = message.stamp;
  return Verdict::accepted;
}

void Aggregator::on_sync(double stamp, std::optional<std::int64_t> cycle) {
  State& s = *state_;
  s.warnings.clear();
  if (s.options.kind == AggregatorKind::sync) {
    for (std::size_t j = 0; j < s.n; ++j) {
      if (!s.fresh[j]) s.predict(j);
      s.fresh[j] = 0;
    }
  }
  s.cycle = cycle ? *cycle + 1 : s.cycle + 1;
  s.pose.stamp = stamp;
  s.support.stamp = stamp;
}

const JointState& Aggregator::pose() const noexcept { return state_->pose; }
const SupportState& Aggregator::support() const noexcept { return state_->support; }
std::span<const AggregatorWarning> Aggregator::warnings() const noexcept { return state_->warnings; }
const Rejection& Aggregator::rejection() const noexcept { return state_->rejection; }
std::int64_t Aggregator::cycle() const noexcept { return state_->cycle; }
const AggregatorOptions& Aggregator::options() const noexcept { return state_->options; }
const Model& Aggregator::model() const noexcept { return state_->model; }

void Aggregator::set_positions(std::span<const double> positions) {
  State& s = *state_;
  if (positions.size() != s.n) throw SizeMismatch("pose positions", s.n, positions.size());
  std::copy(positions.begin(), positions.end(), s.pose.position.begin());
  if (s.options.kind == AggregatorKind::sync)
    for (std::size_t j = 0; j < s.n; ++j) {
      s.restart(*s.integrators[j], positions[j]);
      s.differentiators[j]->start();
      (void)s.step(*s.differentiators[j], positions[j]);
    }
}

namespace {
template <class T, std::size_t N>
T parse_choice(std::string_view name, const std::pair<std::string_view, T> (&choices)[N], const char* what) {
  std::string valid;
  for (const auto& [text, value] : choices) {
    if (text == name) return value;
    valid += (valid.empty() ? "" : ", ") + std::string(text);
  }
  throw InvalidArgument(fmt::format("unknown {} '{}' (valid: {})", what, name, valid));
}
}  // namespace

AggregatorKind parse_aggregator_kind(std::string_view name) {
  static constexpr std::pair<std::string_view, AggregatorKind> choices[] = {
      {"simple", AggregatorKind::simple}, {"sync", AggregatorKind::sync}};
  return parse_choice(name, choices, "aggregator kind");
}

UpdatePolicy parse_update_policy(std::string_view name) {
  static constexpr std::pair<std::string_view, UpdatePolicy> choices[] = {
      {"hold", UpdatePolicy::hold},
      {"hold-zero-velocity", UpdatePolicy::hold_zero_velocity},
      {"extrapolate", UpdatePolicy::extrapolate},
      {"brake", UpdatePolicy::brake}};
  return parse_choice(name, choices, "update policy");
}

PublishPolicy parse_publish_policy(std::string_view name) {
  static constexpr std::pair<std::string_view, PublishPolicy> choices[] = {
      {"message", PublishPolicy::every_message}, {"sync", PublishPolicy::sync}};
  return parse_choice(name, choices, "publish policy");
}

}  // namespace rmodel
