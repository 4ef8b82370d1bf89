// The torques a recorded motion needs, pose by pose (rmodel/stream/dynamics_stream.hpp).

#include <cmath>

#include <fmt/format.h>

#include "rmodel/stream/dynamics_stream.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel::dynamics {
namespace {

/// The differentiator kind of the options, refused when it is of another family.
const filters::FilterKind& differentiator_kind(const std::string& name) {
  const filters::FilterKind& kind = filters::filter_kind(name.empty() ? std::string("diff") : name);
  if (kind.family != "differentiator") {
    std::string valid;
    for (const filters::FilterKind& k : filters::filter_kinds())
      if (k.family == "differentiator") valid += (valid.empty() ? "" : ", ") + k.name;
    throw OptionError({"DynamicsStreamOptions::diff_method"},
                      fmt::format("DynamicsStreamOptions::diff_method '{}' is a {} filter; "
                                  "DynamicsStreamOptions::diff_method takes a differentiator ({})",
                                  name, kind.family, valid));
  }
  return kind;
}

/// A stamp difference within a millionth of T is T: the fixed step, exactly.
/// The difference is taken in integer nanoseconds and converted after: the step does not
/// depend on where the clock's zero is.
double stamp_step(Time dt, double period) {
  const double d = dt.seconds();
  return period > 0 && std::abs(d - period) <= 1e-6 * period ? period : d;
}

}  // namespace

TorqueSink::TorqueSink(stream::Sink& next, const Model& model, DynamicsStreamOptions options)
    : next_(&next),
      options_(std::move(options)),
      model_(KinematicModel::from_model(model)),
      supports_(options_.floating_base ? std::optional(SupportModel::from_model(model, model_)) : std::nullopt),
      ws_(model_, supports_ ? supports_->max_points() : 0) {
  const auto n = static_cast<Eigen::Index>(model_.pose_size());
  const filters::FilterKind& kind = differentiator_kind(options_.diff_method);
  position_diff_ = filters::make_array_filter(kind.name, n, options_.diff_params);
  velocity_diff_ = filters::make_array_filter(kind.name, n, options_.diff_params);
  fixed_step_ = options_.diff_params.count("T") != 0;
  log_velocities_ = options_.diff_method.empty();
  if (!options_.gravity.allFinite()) throw InvalidArgument("dynamics: gravity must be finite");
  u_ = Eigen::VectorXd::Zero(n);
  qd_.assign(model_.pose_size(), 0.0);
  qdd_.assign(model_.pose_size(), 0.0);
  if (supports_) {
    support_.resize(supports_->chains().size());
    for (std::size_t c = 0; c < support_.size(); ++c)
      if (supports_->chains()[c].default_contact) support_[c].coefficient = 1.0;
  }
}

TorqueSink::~TorqueSink() = default;

void TorqueSink::joint_state(const JointState& state, std::optional<std::int64_t> cycle) {
  ++(compute(state) ? poses_ : skipped_);
  next_->joint_state(out_, cycle);
}

void TorqueSink::joint_state_outside(const JointState& state, std::optional<std::int64_t> cycle) {
  (void)compute(state);
  next_->joint_state_outside(out_, cycle);
}

bool TorqueSink::compute(const JointState& state) {
  out_ = state;
  const std::size_t n = model_.pose_size();
  bool usable = state.position.size() == n;
  for (std::size_t i = 0; usable && i < n; ++i) usable = std::isfinite(state.position[i]);
  if (!usable) {
    out_.effort.clear();
    return false;
  }
  // Step by the stamps' differences unless T is given; the first pose starts the
  // differentiators; a pose of the same instant keeps the derivatives of the last one.
  const bool first = !last_stamp_;
  const bool later = !first && state.stamp > *last_stamp_;
  const auto step = [&](filters::ArrayFilter& f) {
    if (fixed_step_ || first || !later) return f.update(u_);
    return f.update(u_, stamp_step(state.stamp - *last_stamp_, f.period()));
  };
  const bool advance = first || later || fixed_step_;
  if (advance) {
    for (std::size_t i = 0; i < n; ++i) u_[static_cast<Eigen::Index>(i)] = state.position[i];
    if (step(*position_diff_))
      for (std::size_t i = 0; i < n; ++i) qd_[i] = position_diff_->y()[static_cast<Eigen::Index>(i)];
  }
  const bool has_velocity = log_velocities_ && state.velocity.size() == n;
  for (std::size_t i = 0; has_velocity && i < n; ++i)
    if (std::isfinite(state.velocity[i])) qd_[i] = state.velocity[i];
  if (advance) {
    for (std::size_t i = 0; i < n; ++i) u_[static_cast<Eigen::Index>(i)] = qd_[i];
    if (step(*velocity_diff_))
      for (std::size_t i = 0; i < n; ++i) qdd_[i] = velocity_diff_->y()[static_cast<Eigen::Index>(i)];
  }
  last_stamp_ = state.stamp;

  out_.effort.resize(n);
  if (supports_)
    floating_base_dynamics(model_, *supports_, ws_, state.position, qd_, qdd_, support_, out_.effort, {},
                           options_.gravity);
  else
    inverse_dynamics(model_, ws_, state.position, qd_, qdd_, out_.effort, options_.gravity);
  return true;
}

void TorqueSink::support_state(const SupportState& state, std::optional<std::int64_t> cycle) {
  (void)take_support(state, true);
  next_->support_state(state, cycle);
}

void TorqueSink::support_state_outside(const SupportState& state, std::optional<std::int64_t> cycle) {
  // Counted as rejected only inside the window: what lies outside is not the run's problem.
  (void)take_support(state, false);
  next_->support_state_outside(state, cycle);
}

bool TorqueSink::take_support(const SupportState& state, bool count) {
  if (!supports_) return true;
  // Parsed into a scratch copy first: a bad state leaves the support as it was.
  scratch_support_ = support_;
  try {
    support_from_state(*supports_, state, scratch_support_);
    support_.swap(scratch_support_);
    return true;
  } catch (const Error& e) {
    if (count && rejected_support_++ == 0) support_problem_ = e.what();
    return false;
  }
}

}  // namespace rmodel::dynamics
