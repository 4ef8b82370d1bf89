#include "rmodel/stream/stream_filter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"

namespace rmodel::filters {

namespace {
/// The interval between two stamps as a filter step in seconds: the integer difference,
/// converted after the subtraction (so the step does not depend on where the clock's zero
/// is), and T itself when within 1e-6·T of it (a period that is not a whole number of
/// nanoseconds, stamps rounded to the nanosecond).
double step_dt(Time dt, double T) {
  const double d = dt.seconds();
  return T > 0 && std::abs(d - T) <= 1e-6 * T ? T : d;
}
}  // namespace

std::string_view to_string(JointField field) noexcept {
  switch (field) {
    case JointField::position: return "position";
    case JointField::velocity: return "velocity";
    case JointField::effort: return "effort";
  }
  return "position";
}

JointField parse_joint_field(std::string_view text) {
  if (text == "position") return JointField::position;
  if (text == "velocity") return JointField::velocity;
  if (text == "effort") return JointField::effort;
  throw InvalidArgument(fmt::format("unknown joint field '{}' (valid: position, velocity, effort)", text));
}

void parse_param_assignment(std::string_view text, FilterParams& params) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw InvalidArgument(fmt::format("filter parameter '{}': expected NAME=VALUE, e.g. tau=0.05", text));
  const std::string name(text.substr(0, eq));
  const std::string value(text.substr(eq + 1));
  char* end = nullptr;
  const double v = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || std::isnan(v))
    throw InvalidArgument(fmt::format("filter parameter '{}': '{}' is not a number", name, value));
  params[name] = v;
}

StreamFilter::StreamFilter(std::string_view kind, const FilterParams& params, JointField field,
                           std::vector<std::string> joints, std::optional<std::vector<std::string>> known)
    : kind_(&filter_kind(kind)),
      field_(field),
      selection_(std::move(joints)),
      mapper_(known ? std::move(*known) : std::vector<std::string>{}, !known.has_value()) {
  // Validates everything (unknown parameters, invalid values) before any joint is seen.
  params_ = make_array_filter(kind, 1, params)->params();
  fixed_step_ = params.count("T") != 0;
  no_message_.has_stamp = false;  // apply() filters by fixed step
  std::sort(selection_.begin(), selection_.end());
  selection_.erase(std::unique(selection_.begin(), selection_.end()), selection_.end());
}

StreamFilter::~StreamFilter() = default;

bool StreamFilter::selected(const std::string& name) const {
  return selection_.empty() || std::binary_search(selection_.begin(), selection_.end(), name);
}

StreamFilter::Slot& StreamFilter::slot(std::size_t s) {
  while (slots_.size() <= s) {
    const std::string& name = mapper_.names()[slots_.size()];
    slots_.push_back({nullptr, Eigen::VectorXd::Zero(1), selected(name), std::nullopt});
  }
  Slot& data = slots_[s];
  if (data.selected && !data.filter) {
    data.filter = make_array_filter(kind_->name, 1, params_);
    order_.push_back(mapper_.names()[s]);
  }
  return data;
}

void StreamFilter::add_joints(const std::vector<std::string>& names) {
  for (const std::string& name : names) (void)slot(mapper_.add(name));
}

StreamFilterStatus StreamFilter::filter(JointState& state, const io::Message& where, stream::Reporter& report) {
  if (!mapper_.map(state, where, report))
    return mapper_.problem() == stream::SlotMapper::Problem::repeated ? StreamFilterStatus::repeated_name
                                                                       : StreamFilterStatus::size_mismatch;
  std::vector<double>* values = &state.position;
  if (field_ == JointField::velocity) values = &state.velocity;
  if (field_ == JointField::effort) values = &state.effort;
  if (values->empty()) return StreamFilterStatus::absent;
  const bool stamped = where.has_stamp;
  if (stamped) {
    if (last_stamp_ && state.stamp > *last_stamp_) {
      const Time dt = state.stamp - *last_stamp_;
      min_dt_ = min_dt_ ? std::min(*min_dt_, dt) : dt;
      max_dt_ = max_dt_ ? std::max(*max_dt_, dt) : dt;
    }
    last_stamp_ = state.stamp;
  }
  const bool by_stamps = stamped && !fixed_step_;
  const auto slots = mapper_.slots();
  for (std::size_t i = 0; i < state.name.size(); ++i) {
    if (slots[i] == stream::SlotMapper::kUnknown) continue;
    Slot& s = slot(static_cast<std::size_t>(slots[i]));
    double& value = (*values)[i];
    if (!s.selected || !std::isfinite(value)) continue;
    s.u[0] = value;
    if (!by_stamps || !s.last_stamp) {
      // Fixed step, or the joint's first stamped sample (it starts the filter).
      if (s.filter->update(s.u)) value = s.filter->y()[0];
    } else if (state.stamp > *s.last_stamp) {
      if (s.filter->update(s.u, step_dt(state.stamp - *s.last_stamp, s.filter->period()))) value = s.filter->y()[0];
    } else {
      value = s.filter->y()[0];  // same (or an earlier) stamp: no time has passed
      continue;
    }
    if (by_stamps) s.last_stamp = state.stamp;
  }
  return StreamFilterStatus::filtered;
}

StreamFilterStatus StreamFilter::apply(JointState& state) { return filter(state, no_message_, silent_); }

void StreamFilter::push(const io::Message& message, stream::Output& out, stream::Reporter& report) {
  if (message.kind != io::MessageKind::Joint) {
    out.message(message);
    return;
  }
  buffer_ = message;
  const StreamFilterStatus status = filter(buffer_.joint, message, report);
  if (status == StreamFilterStatus::size_mismatch || status == StreamFilterStatus::repeated_name) return;
  out.message(buffer_);
}

void StreamFilter::finish(stream::Output& /*out*/, stream::Reporter& report) {
  const double T = params_.count("T") != 0 ? params_.at("T") : 0.0;
  if (!fixed_step_ || !max_dt_ || !(T > 0)) return;
  // Irregular: the intervals between stamps differ by more than 10 % of T.
  if ((*max_dt_ - *min_dt_).seconds() > 0.1 * T)
    report.warn(no_message_, "irregular-stamps", {}, [&] {
      return fmt::format("the log's stamps are {} to {} s apart, but T = {} s was given: every sample was filtered "
                         "as T after the previous one (leave T out to use the stamps)",
                         to_string(*min_dt_), to_string(*max_dt_), T);
    });
}

void StreamFilter::restart() noexcept {
  for (Slot& s : slots_)
    if (s.filter) s.filter->start();
}

FilterSink::FilterSink(stream::Sink& next, std::string_view kind, const FilterParams& params, std::size_t size)
    : next_(&next),
      filter_(make_array_filter(kind, static_cast<Eigen::Index>(size), params)),
      u_(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(size))),
      fixed_step_(params.count("T") != 0) {}

FilterSink::~FilterSink() = default;

void FilterSink::joint_state(const JointState& state, std::optional<std::int64_t> cycle) {
  filter(state);
  next_->joint_state(filtered_, cycle);
}

void FilterSink::joint_state_outside(const JointState& state, std::optional<std::int64_t> cycle) {
  filter(state);
  next_->joint_state_outside(filtered_, cycle);
}

void FilterSink::filter(const JointState& state) {
  filtered_ = state;
  const auto n = static_cast<std::size_t>(filter_->size());
  if (filtered_.position.size() == n) {
    bool finite = true;
    for (std::size_t i = 0; i < n; ++i) {
      u_[static_cast<Eigen::Index>(i)] = filtered_.position[i];
      finite = finite && std::isfinite(filtered_.position[i]);
    }
    // Step by the time between the poses' stamps (unless T was given); the first pose, a
    // pose without a later stamp, or a fixed step: by T.
    const bool by_stamps = !fixed_step_ && last_stamp_.has_value();
    // (Poses of a log without stamps all carry 0: those step by T.)
    bool ok = false;
    if (finite && by_stamps && state.stamp > *last_stamp_)
      ok = filter_->update(u_, step_dt(state.stamp - *last_stamp_, filter_->period()));
    else if (finite)
      ok = filter_->update(u_);
    if (ok)
      for (std::size_t i = 0; i < n; ++i) filtered_.position[i] = filter_->y()[static_cast<Eigen::Index>(i)];
    if (finite) last_stamp_ = state.stamp;
  }
}

double default_step_duration(const FilterKind& kind, const FilterParams& params) {
  const auto get = [&params](const char* name, double fallback) {
    const auto it = params.find(name);
    return it != params.end() ? it->second : fallback;
  };
  const double T = get("T", 0.01);
  double duration = 50.0 * T;
  if (kind.family == "second_order") {
    const double a0 = get("a0", 0.0);
    const double a1 = get("a1", 0.0);
    if (a1 > 0 && a0 > 0) duration = std::max(10.0 / a1, 8.0 / std::sqrt(a0));
  } else if (kind.find_param("tau") != nullptr) {
    duration = 5.0 * get("tau", 0.0);
  } else if (kind.name == "linear") {
    const double v = get("v", 0.0);
    if (v > 0 && std::isfinite(v)) duration = 1.5 / v;
  }
  return std::max(duration, 10.0 * T);
}

std::vector<StepSample> step_response(std::string_view kind, const FilterParams& params, double duration,
                                      int lead) {
  auto filter = make_array_filter(kind, 1, params);
  const double T = filter->params().count("T") != 0 ? filter->params().at("T") : 0.01;
  if (!(duration >= 0.0) || !std::isfinite(duration))
    throw InvalidArgument(fmt::format("step response: duration must be >= 0 s, got {}", duration));
  if (duration == 0.0) duration = default_step_duration(filter->kind(), filter->params());
  const double samples = std::floor(duration / T + 1e-9) + 1.0 + std::max(lead, 0);
  if (samples > 1e6)
    throw InvalidArgument(fmt::format("step response: {} s at T = {} s is more than 10^6 samples", duration, T));
  std::vector<StepSample> out;
  out.reserve(static_cast<std::size_t>(samples));
  filter->start(Eigen::VectorXd::Zero(1));
  Eigen::VectorXd u(1);
  const long first = -static_cast<long>(std::max(lead, 0));
  const long last = static_cast<long>(std::floor(duration / T + 1e-9));
  for (long k = first; k <= last; ++k) {
    u[0] = k < 0 ? 0.0 : 1.0;
    (void)filter->update(u);
    out.push_back({static_cast<double>(k) * T, u[0], filter->y()[0]});
  }
  return out;
}

}  // namespace rmodel::filters
