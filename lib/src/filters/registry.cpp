#include "rmodel/filters/registry.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "rmodel/base/error.hpp"
#include "rmodel/filters.hpp"
#include "rmodel/base/suggest.hpp"

namespace rmodel::filters {

namespace {

using Vec = Eigen::VectorXd;
using Builder = std::unique_ptr<ArrayFilter> (*)(const FilterKind&, FilterParams, Eigen::Index);

// ---------------------------------------------------------------------------------------
// Adapters from the templates to the one-input, one-output ArrayFilter.

/// Filters with a variable-step form output(u, dt) / update(u, dt) / update(dt).
template <class F>
concept VariableStep = requires(F f, const Vec& u, Interval dt) {
  f.output(u, dt);
  f.update(u, dt);
  f.update(dt);
};

/// Filters whose input and start value are both joint arrays. `FromInput`: the natural
/// start takes the first input as the initial state (differentiators, transients,
/// transfer function); otherwise it is the constructor's zero state (integrators,
/// hysteresis).
template <class F, bool FromInput>
class Direct final : public ArrayFilter {
public:
  Direct(const FilterKind& kind, FilterParams params, Eigen::Index size, F filter)
      : ArrayFilter(kind, std::move(params), size), f_(std::move(filter)) {}

private:
  void do_prime(const Vec& u) noexcept override {
    if constexpr (FromInput) f_.start(u);  // same size: copies, no allocation
    else f_.start();
  }
  void do_restart() noexcept override { f_.start(); }
  void do_start(const Vec& x0) noexcept override { f_.start(x0); }
  // Kinds with no variable-step form have no time in their step (transfer function,
  // hysteresis): dt does not enter.
  const Vec& do_output(const Vec& u, double dt) noexcept override {
    if constexpr (VariableStep<F>) return f_.output(u, Interval{dt});
    else return f_.output(u);
  }
  const Vec& do_update(const Vec& u, double dt) noexcept override {
    if constexpr (VariableStep<F>) return f_.update(u, Interval{dt});
    else return f_.update(u);
  }
  void do_update(double dt) noexcept override {
    if constexpr (VariableStep<F>) f_.update(Interval{dt});
    else f_.update();
  }
  double natural_start(double ui) const noexcept override { return FromInput ? ui : 0.0; }
  void do_restart_element(Eigen::Index i, double x0, double ui) noexcept override {
    if constexpr (requires { f_.restart_element(i, x0, ui); }) f_.restart_element(i, x0, ui);
  }
  void do_after_restart(Eigen::Index i, double x0) noexcept override {
    if constexpr (requires { f_.offset_element(i, x0); }) f_.offset_element(i, x0 - y()[i]);
  }

  F f_;
};

/// Fusion from a held value (the first input, or x0) to the input, with one weight per
/// element so that elements restart independently. The laws are those of fusion.hpp
/// (see there for the variable step), computed here per element:
///     y[k] = u[k] + w[k]·(h − u[k]),  h the held value,
/// the weight advanced over the interval before each sample. While every weight is
/// equal (no restart(i) since start) the bounded law scales the step as fusion.hpp does,
/// for the whole vector; afterwards each element's step is scaled by one common factor.
template <FusionLaw Law>
class HeldFusion final : public ArrayFilter {
public:
  HeldFusion(const FilterKind& kind, FilterParams params, Eigen::Index size,
             const Fusion<Vec, Law>& validated, double speed)
      : ArrayFilter(kind, std::move(params), size),
        T_(validated.period()),
        tau_(validated.tau()),
        rate_(T_ / tau_),
        speed_(speed),
        step_bound_(speed * T_),
        from_(Vec::Zero(size)),
        w_(Vec::Ones(size)),
        w_next_(Vec::Ones(size)),
        d_(Vec::Zero(size)),
        d_next_(Vec::Zero(size)),
        y_(Vec::Zero(size)),
        u_last_(Vec::Zero(size)),
        fresh_(static_cast<std::size_t>(size), 1) {}

private:
  void do_prime(const Vec& u) noexcept override {
    from_ = u;
    do_restart();
  }
  void do_restart() noexcept override {
    w_.setOnes();
    d_.setZero();
    std::fill(fresh_.begin(), fresh_.end(), 1);
    any_fresh_ = true;
    uniform_ = true;
    pending_ = false;
  }
  void do_start(const Vec& x0) noexcept override {
    from_ = x0;
    do_restart();
  }
  const Vec& do_output(const Vec& u, double dt) noexcept override {
    u_last_ = u;
    pending_ = true;
    blend(u, dt);
    return y_;
  }
  const Vec& do_update(const Vec& u, double dt) noexcept override {
    blend(u, dt);
    w_.swap(w_next_);
    d_.swap(d_next_);
    if (any_fresh_) {
      std::fill(fresh_.begin(), fresh_.end(), 0);
      any_fresh_ = false;
    }
    pending_ = false;
    return y_;
  }
  void do_update(double dt) noexcept override {
    if (pending_) (void)do_update(u_last_, dt);
  }
  double natural_start(double ui) const noexcept override { return ui; }
  void do_restart_element(Eigen::Index i, double x0, double /*ui*/) noexcept override {
    from_[i] = x0;
    w_[i] = 1.0;
    d_[i] = 0.0;
    fresh_[static_cast<std::size_t>(i)] = 1;
    any_fresh_ = true;
    uniform_ = (w_.array() == w_[0]).all();
  }

  /// w_next_ = the weights at this sample (w_ advanced over dt), y_ the blend; d_next_
  /// the held-minus-input difference the bounded law reads at the next step.
  void blend(const Vec& u, double dt) noexcept {
    const bool fixed = dt == T_;
    if constexpr (Law == FusionLaw::Linear) {
      const double r = fixed ? rate_ : dt / tau_;
      w_next_ = (w_.array() - r).max(0.0).matrix();
    } else if constexpr (Law == FusionLaw::Exponential) {
      // Fixed step: the historical w·(1 − T/τ); variable step: the exact exp(−dt/τ).
      const double f = fixed ? 1.0 - rate_ : std::exp(-dt / tau_);
      w_next_ = f * w_;
    } else {
      const double r = fixed ? rate_ : -std::expm1(-dt / tau_);
      const double bound = fixed ? step_bound_ : speed_ * dt;
      if (uniform_) {
        // As fusion.hpp: lowering the weight by dw moves y by dw·|d|; cap that at v·dt.
        const double w = w_.size() > 0 ? w_[0] : 1.0;  // size 0: nothing to blend
        const double dw = Space<Vec>::scale_within(d_, bound, w * r);
        w_next_.setConstant(w - dw);
      } else {
        const double m = (w_.array() * d_.array().abs()).maxCoeff() * r;
        const double c = m > bound ? bound / m : 1.0;
        w_next_ = w_ - (c * r) * w_;
      }
    }
    if (any_fresh_)
      for (std::size_t i = 0; i < fresh_.size(); ++i)
        if (fresh_[i] != 0) w_next_[static_cast<Eigen::Index>(i)] = w_[static_cast<Eigen::Index>(i)];
    d_next_ = from_ - u;
    y_ = u + w_next_.cwiseProduct(d_next_);
  }

  double T_, tau_, rate_, speed_, step_bound_;
  Vec from_, w_, w_next_, d_, d_next_, y_, u_last_;
  std::vector<unsigned char> fresh_;  // elements whose next sample is their first
  bool any_fresh_ = true;
  bool uniform_ = true;
  bool pending_ = false;
};

/// Second-order transient following the input as position reference, optionally with
/// the reference velocity estimated by backward difference (feed-forward removes the lag
/// on ramps).
class SecondOrderFollower final : public ArrayFilter {
public:
  SecondOrderFollower(const FilterKind& kind, FilterParams params, Eigen::Index size,
                      SecondOrderTransient<Vec> filter, bool feed_forward)
      : ArrayFilter(kind, std::move(params), size),
        f_(std::move(filter)),
        ff_(feed_forward),
        T_(f_.period()),
        inv_T_(1.0 / f_.period()),
        x0_(Vec::Zero(size)),
        prev_(Vec::Zero(size)),
        vr_(Vec::Zero(size)),
        u_last_(Vec::Zero(size)) {}

private:
  void do_prime(const Vec& u) noexcept override {
    f_.start(u);
    prev_ = u;
    pending_ = false;
  }
  void do_restart() noexcept override {
    f_.start();
    prev_ = x0_;
    pending_ = false;
  }
  void do_start(const Vec& x0) noexcept override {
    x0_ = x0;
    do_restart();
  }
  const Vec& do_output(const Vec& u, double dt) noexcept override {
    u_last_ = u;
    pending_ = true;
    if (!ff_) return f_.output(u, Interval{dt});
    velocity(u, dt);
    return f_.output(u, vr_, Interval{dt});
  }
  const Vec& do_update(const Vec& u, double dt) noexcept override {
    pending_ = false;
    if (!ff_) return f_.update(u, Interval{dt});
    velocity(u, dt);
    prev_ = u;
    return f_.update(u, vr_, Interval{dt});
  }
  void do_update(double dt) noexcept override {
    if (pending_) (void)do_update(u_last_, dt);
  }
  double natural_start(double ui) const noexcept override { return ui; }
  void do_restart_element(Eigen::Index i, double x0, double /*ui*/) noexcept override {
    f_.restart_element(i, x0, 0.0);
    prev_[i] = x0;
  }

  void velocity(const Vec& u, double dt) noexcept {
    if (dt == T_) vr_ = inv_T_ * (u - prev_);
    else vr_ = (1.0 / dt) * (u - prev_);
  }

  SecondOrderTransient<Vec> f_;
  bool ff_;
  double T_, inv_T_;
  Vec x0_, prev_, vr_, u_last_;
  bool pending_ = false;
};

// ---------------------------------------------------------------------------------------
// Parameters.

double param(const FilterParams& p, std::string_view name) { return p.find(name)->second; }

ParamInfo period_param() {
  return {"T", "s", 0.01, "sample period (> 0)", false};
}
ParamInfo tau_param(const char* what) { return {"tau", "s", 0.1, what, false}; }
ParamInfo speed_param() {
  return {"v", "units/s", 1.0, "speed bound per joint (>= 0, inf = none)", false};
}
ParamInfo ff_param() {
  return {"ff", "-", 0.0,
          "1: feed the input's backward-difference velocity forward (no lag on ramps)", true};
}
std::vector<ParamInfo> second_order_params(bool acc, bool vel) {
  std::vector<ParamInfo> p{period_param(),
                           {"a0", "1/s^2", 100.0, "position gain (> 0; omega^2)", false},
                           {"a1", "1/s", 20.0, "velocity gain (> 0; 2*zeta*omega)", false}};
  if (acc) p.push_back({"amax", "units/s^2", 10.0, "acceleration bound per joint (>= 0)", false});
  if (vel) p.push_back({"vmax", "units/s", 1.0, "velocity bound per joint (>= 0)", false});
  p.push_back(ff_param());
  return p;
}

constexpr int kTransferTaps = 8;

std::vector<ParamInfo> transfer_params() {
  std::vector<ParamInfo> p;
  for (int i = 0; i < kTransferTaps; ++i)
    p.push_back({fmt::format("b{}", i), "-", i == 0 ? 1.0 : 0.0,
                 fmt::format("numerator coefficient of u[k-{}]", i), false});
  for (int i = 0; i < kTransferTaps; ++i)
    p.push_back({fmt::format("a{}", i), "-", i == 0 ? 1.0 : 0.0,
                 i == 0 ? std::string("denominator coefficient of y[k] (!= 0; all are divided by it)")
                        : fmt::format("denominator coefficient of y[k-{}]", i),
                 false});
  return p;
}

/// Coefficients name0..name7, trailing zeros dropped (at least one kept).
std::vector<double> taps(const FilterParams& p, char name) {
  std::vector<double> c;
  for (int i = 0; i < kTransferTaps; ++i) c.push_back(param(p, fmt::format("{}{}", name, i)));
  while (c.size() > 1 && c.back() == 0.0) c.pop_back();
  return c;
}

bool flag(const FilterParams& p, std::string_view name, std::string_view kind) {
  const double v = param(p, name);
  if (v != 0.0 && v != 1.0)
    throw InvalidArgument(fmt::format("filter '{}': {} must be 0 or 1, got {}", kind, name, v));
  return v == 1.0;
}

template <class F, bool FromInput>
std::unique_ptr<ArrayFilter> direct(const FilterKind& k, FilterParams p, Eigen::Index n, F f) {
  return std::make_unique<Direct<F, FromInput>>(k, std::move(p), n, std::move(f));
}

// ---------------------------------------------------------------------------------------
// The catalogue.

struct Entry {
  FilterKind kind;
  Builder build;
};

// Long (docs/CONTRIBUTING.md, "Rules"): the table of filter kinds, one entry per kind.
std::vector<Entry> make_entries() {
  const ParamInfo T = period_param();
  std::vector<Entry> e;
  auto add = [&e](FilterKind k, Builder b) { e.push_back({std::move(k), b}); };

  const char* integral = "initial integral (x0); the natural start is 0";
  add({"euler", "integrator", "Euler integrator (first order): y[k+1] = y[k] + T*u[k]",
       integral, {T}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) {
        return direct<EulerIntegrator<Vec>, false>(k, p, n, EulerIntegrator<Vec>(param(p, "T"), Vec::Zero(n)));
      });
  add({"trapezoid", "integrator", "trapezoid-rule integrator (second order)", integral, {T}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) {
        return direct<TrapezoidIntegrator<Vec>, false>(
            k, p, n, TrapezoidIntegrator<Vec>(param(p, "T"), Vec::Zero(n)));
      });
  add({"simpson", "integrator", "Simpson-rule integrator (fourth order)", integral, {T}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) {
        return direct<SimpsonIntegrator<Vec>, false>(
            k, p, n, SimpsonIntegrator<Vec>(param(p, "T"), Vec::Zero(n)));
      });

  const char* previous = "the input before the first sample; the natural start is the first input";
  add({"diff", "differentiator", "backward difference: y[k] = (u[k] - u[k-1])/T", previous, {T}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) {
        return direct<BackwardDifference<Vec>, true>(
            k, p, n, BackwardDifference<Vec>(param(p, "T"), Vec::Zero(n)));
      });
  add({"lag_diff", "differentiator",
       "lag differentiator s/(tau*s + 1): the derivative low-passed with time constant tau",
       "the low-passed input; the natural start is the first input",
       {T, tau_param("time constant (>= T)")}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) {
        return direct<LagDifferentiator<Vec>, true>(
            k, p, n, LagDifferentiator<Vec>(param(p, "T"), param(p, "tau"), Vec::Zero(n)));
      });
  add({"fir_diff", "differentiator",
       "FIR polynomial (Savitzky-Golay) derivative at the newest sample, exact up to order",
       "the value of every sample before the first; the natural start is the first input",
       {T,
        {"window", "samples", 5.0, "number of samples fitted (2..512)", true},
        {"order", "-", 2.0, "polynomial degree (1..min(window-1, 8))", true}}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) {
        return direct<FirDifferentiator<Vec>, true>(
            k, p, n,
            FirDifferentiator<Vec>(param(p, "T"), static_cast<int>(param(p, "window")),
                                   static_cast<int>(param(p, "order")), Vec::Zero(n)));
      });

  const char* current = "the current output; the natural start is the first input";
  add({"linear", "transient",
       "moves toward the input at constant speed v, along a straight line in joint space",
       current, {T, speed_param()}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) {
        return direct<TransientLinear<Vec>, true>(
            k, p, n, TransientLinear<Vec>(param(p, "T"), param(p, "v"), Vec::Zero(n)));
      });
  add({"exponential", "transient",
       "first-order low-pass: y[k] = y[k-1] + T/tau*(u[k] - y[k-1])", current,
       {T, tau_param("time constant (>= T)")}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) {
        return direct<TransientExp<Vec>, true>(
            k, p, n, TransientExp<Vec>(param(p, "T"), param(p, "tau"), Vec::Zero(n)));
      });
  add({"exp_limited", "transient", "first-order low-pass moving no joint faster than v",
       current, {T, tau_param("time constant (>= T)"), speed_param()}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) {
        return direct<TransientExpLimited<Vec>, true>(
            k, p, n,
            TransientExpLimited<Vec>(param(p, "T"), param(p, "tau"), param(p, "v"), Vec::Zero(n)));
      });

  const char* held = "the value handed over from; the natural start holds the first input";
  add({"fusion_linear", "fusion",
       "linear hand-over from a held value to the input, completed in tau", held,
       {T, tau_param("duration of the hand-over (> 0)")}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) -> std::unique_ptr<ArrayFilter> {
        const FusionLinear<Vec> validated(param(p, "T"), param(p, "tau"), Vec::Zero(0));
        return std::make_unique<HeldFusion<FusionLaw::Linear>>(k, p, n, validated, 0.0);
      });
  add({"fusion_exp", "fusion",
       "exponential hand-over from a held value to the input, time constant tau", held,
       {T, tau_param("time constant (>= T)")}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) -> std::unique_ptr<ArrayFilter> {
        const FusionExp<Vec> validated(param(p, "T"), param(p, "tau"), Vec::Zero(0));
        return std::make_unique<HeldFusion<FusionLaw::Exponential>>(k, p, n, validated, 0.0);
      });
  add({"fusion_exp_limited", "fusion",
       "exponential hand-over whose blend moves no joint faster than v", held,
       {T, tau_param("time constant (>= T)"), speed_param()}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) -> std::unique_ptr<ArrayFilter> {
        const FusionExpLimited<Vec> validated(param(p, "T"), param(p, "tau"), param(p, "v"), Vec::Zero(0));
        return std::make_unique<HeldFusion<FusionLaw::ExponentialLimited>>(k, p, n, validated, param(p, "v"));
      });

  const char* position = "the initial position (velocity 0); the natural start is the first input";
  auto second_order = [](const FilterKind& k, FilterParams p,
                         Eigen::Index n) -> std::unique_ptr<ArrayFilter> {
    SecondOrderParams sp;
    sp.a0 = param(p, "a0");
    sp.a1 = param(p, "a1");
    if (p.contains("amax")) sp.max_acceleration = param(p, "amax");
    if (p.contains("vmax")) sp.max_velocity = param(p, "vmax");
    const bool ff = flag(p, "ff", k.name);
    SecondOrderTransient<Vec> f(param(p, "T"), sp, Vec::Zero(n));
    return std::make_unique<SecondOrderFollower>(k, std::move(p), n, std::move(f), ff);
  };
  add({"second_order", "second_order",
       "second-order follower: v' = a0*(u - x) + a1*(v_u - v), exponential convergence",
       position, second_order_params(false, false)},
      second_order);
  add({"second_order_acc", "second_order",
       "second-order follower with bounded acceleration", position,
       second_order_params(true, false)},
      second_order);
  add({"second_order_acc_vel", "second_order",
       "second-order follower with bounded acceleration and velocity", position,
       second_order_params(true, true)},
      second_order);

  add({"transfer_function", "transfer_function",
       "y[k] = sum b_i*u[k-i] - sum_{i>=1} a_i*y[k-i], coefficients divided by a0",
       "the input assumed constant before start (steady state); the natural start is the "
       "first input",
       transfer_params()},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) {
        return direct<TransferFunction<Vec>, true>(
            k, p, n, TransferFunction<Vec>(taps(p, 'b'), taps(p, 'a'), Vec::Zero(n)));
      });
  add({"hysteresis", "hysteresis",
       "per-joint relay: 1 from u >= on until u <= off, then 0",
       "initial relay states (nonzero = on); the natural start is all off",
       {{"on", "units", 0.5, "threshold switching on", false},
        {"off", "units", -0.5, "threshold switching off (<= on)", false}}},
      [](const FilterKind& k, FilterParams p, Eigen::Index n) {
        return direct<Hysteresis<Vec>, false>(
            k, p, n, Hysteresis<Vec>(param(p, "on"), param(p, "off"), Vec::Zero(n)));
      });
  return e;
}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> all = make_entries();
  return all;
}

const Entry& entry(std::string_view name) {
  for (const Entry& e : entries())
    if (e.kind.name == name) return e;
  std::vector<std::string_view> names;
  for (const Entry& e : entries()) names.push_back(e.kind.name);
  throw InvalidArgument(
      fmt::format("unknown filter kind '{}'{} (valid: {})", name, did_you_mean(name, names), fmt::join(names, ", ")));
}

}  // namespace

const ParamInfo* FilterKind::find_param(std::string_view param_name) const noexcept {
  for (const ParamInfo& p : params)
    if (p.name == param_name) return &p;
  return nullptr;
}

const std::vector<FilterKind>& filter_kinds() {
  static const std::vector<FilterKind> kinds = [] {
    std::vector<FilterKind> k;
    for (const Entry& e : entries()) k.push_back(e.kind);
    return k;
  }();
  return kinds;
}

const FilterKind& filter_kind(std::string_view name) { return entry(name).kind; }

FilterParams resolve_params(const FilterKind& kind, const FilterParams& given) {
  for (const auto& [name, value] : given) {
    const ParamInfo* info = kind.find_param(name);
    if (info == nullptr) {
      std::vector<std::string_view> valid;
      for (const ParamInfo& p : kind.params) valid.push_back(p.name);
      throw InvalidArgument(fmt::format("filter '{}': unknown parameter '{}'{} (valid: {})", kind.name, name,
                                        did_you_mean(name, valid), fmt::join(valid, ", ")));
    }
    // Integer parameters go through int; outside int's range the conversion is undefined.
    if (info->integer && !(std::floor(value) == value && std::abs(value) <= 1e9))
      throw InvalidArgument(fmt::format("filter '{}': {} must be a whole number, got {}",
                                        kind.name, name, value));
  }
  FilterParams resolved;
  for (const ParamInfo& p : kind.params) {
    const auto it = given.find(p.name);
    resolved.emplace(p.name, it != given.end() ? it->second : p.default_value);
  }
  return resolved;
}

ArrayFilter::ArrayFilter(const FilterKind& kind, FilterParams params, Eigen::Index size)
    : kind_(&kind),
      params_(std::move(params)),
      size_(size),
      zeros_(Vec::Zero(size)),
      y_(&zeros_),
      restart_mode_(static_cast<std::size_t>(size), 0),
      restart_x0_(Vec::Zero(size)) {
  const auto t = params_.find("T");
  period_ = t != params_.end() ? t->second : 0.0;
}

void ArrayFilter::start() noexcept {
  if (use_x0_) {
    do_restart();
    need_prime_ = false;
  } else {
    need_prime_ = true;
  }
  if (restarts_pending_) {
    std::fill(restart_mode_.begin(), restart_mode_.end(), 0);
    restarts_pending_ = false;
  }
}

void ArrayFilter::start(const Vec& x0) {
  if (x0.size() != size_)
    throw SizeMismatch(fmt::format("filter '{}' initial state", kind_->name),
                       static_cast<std::size_t>(size_), static_cast<std::size_t>(x0.size()));
  do_start(x0);
  use_x0_ = true;
  need_prime_ = false;
  if (restarts_pending_) {
    std::fill(restart_mode_.begin(), restart_mode_.end(), 0);
    restarts_pending_ = false;
  }
}

void ArrayFilter::restart(Eigen::Index i) noexcept {
  if (i < 0 || i >= size_) return;
  restart_mode_[static_cast<std::size_t>(i)] = 1;
  restarts_pending_ = true;
}

void ArrayFilter::restart(Eigen::Index i, double x0) noexcept {
  if (i < 0 || i >= size_) return;
  restart_mode_[static_cast<std::size_t>(i)] = 2;
  restart_x0_[i] = x0;
  restarts_pending_ = true;
}

void ArrayFilter::prime_if_needed(const Vec& u) noexcept {
  if (need_prime_) {
    do_prime(u);
    need_prime_ = false;
  }
}

template <class Step>
const Vec& ArrayFilter::step(const Vec& u, Step&& s) noexcept {
  prime_if_needed(u);
  if (!restarts_pending_) return s();
  auto x0_of = [&](std::size_t i) {
    const auto e = static_cast<Eigen::Index>(i);
    return restart_mode_[i] == 1 ? natural_start(u[e]) : restart_x0_[e];
  };
  for (std::size_t i = 0; i < restart_mode_.size(); ++i)
    if (restart_mode_[i] != 0) do_restart_element(static_cast<Eigen::Index>(i), x0_of(i), u[static_cast<Eigen::Index>(i)]);
  const Vec& y = s();
  y_ = &y;
  for (std::size_t i = 0; i < restart_mode_.size(); ++i) {
    if (restart_mode_[i] == 0) continue;
    do_after_restart(static_cast<Eigen::Index>(i), x0_of(i));
    restart_mode_[i] = 0;
  }
  restarts_pending_ = false;
  return y;
}

namespace {
bool valid_dt(double dt) noexcept { return dt > 0.0 && std::isfinite(dt); }
}  // namespace

bool ArrayFilter::output(const Vec& u) noexcept {
  if (u.size() != size_) return false;
  y_ = &step(u, [&]() -> const Vec& { return do_output(u, period_); });
  return true;
}

bool ArrayFilter::update(const Vec& u) noexcept {
  if (u.size() != size_) return false;
  y_ = &step(u, [&]() -> const Vec& { return do_update(u, period_); });
  return true;
}

void ArrayFilter::update() noexcept {
  if (!need_prime_) do_update(period_);
}

bool ArrayFilter::output(const Vec& u, double dt) noexcept {
  if (u.size() != size_ || !valid_dt(dt)) return false;
  y_ = &step(u, [&]() -> const Vec& { return do_output(u, dt); });
  return true;
}

bool ArrayFilter::update(const Vec& u, double dt) noexcept {
  if (u.size() != size_ || !valid_dt(dt)) return false;
  y_ = &step(u, [&]() -> const Vec& { return do_update(u, dt); });
  return true;
}

void ArrayFilter::update(double dt) noexcept {
  if (!need_prime_ && valid_dt(dt)) do_update(dt);
}

std::unique_ptr<ArrayFilter> make_array_filter(std::string_view kind, Eigen::Index size,
                                               const FilterParams& params) {
  const Entry& e = entry(kind);
  if (size < 0)
    throw InvalidArgument(fmt::format("filter '{}': size must be >= 0, got {}", kind, size));
  FilterParams resolved = resolve_params(e.kind, params);
  try {
    return e.build(e.kind, std::move(resolved), size);
  } catch (const InvalidArgument& error) {
    // The filters name their C++ class; a tool's user knows the kind.
    throw InvalidArgument(fmt::format("filter '{}': {}", e.kind.name, error.what()));
  }
}

}  // namespace rmodel::filters
