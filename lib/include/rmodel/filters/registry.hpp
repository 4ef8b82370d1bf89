#pragma once
#include "rmodel/export.hpp"
/// @file registry.hpp
/// Runtime catalogue of the filters, for tools that pick a filter by name (`rmodel filter
/// --list`, `rmodel filter KIND --param VALUE`): every kind with its parameters (name,
/// unit, default, description), and a factory building a type-erased filter over joint
/// arrays (Eigen::VectorXd of a fixed size) from a name → value map.
///
/// Every registry filter has one input and one output of the same size:
/// - integrators: u is a rate, y its integral from 0;
/// - differentiators: y is the rate of u;
/// - transients and the second-order transient: y follows u (u is the reference);
/// - fusion: y hands over from a held value (the first input, or x0 of start(x0)) to u;
/// - transfer function and hysteresis: per-joint, as the templates.
/// The templates in the family headers offer more (other value types, two-input fusion,
/// reference velocities); this is the common subset a command line can drive.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

namespace rmodel::filters {

/// One parameter of a filter kind.
struct RMODEL_API ParamInfo {
  std::string name;          ///< stable name, e.g. "tau"
  std::string unit;          ///< "s", "1/s", "units/s" (units of the signal per second), ...
  double default_value = 0.0;
  std::string description;   ///< one line
  bool integer = false;      ///< value must be a whole number (window, order, flags)
};

/// A kind of filter the registry can build.
struct RMODEL_API FilterKind {
  std::string name;           ///< stable name, e.g. "exponential"
  std::string family;         ///< "integrator", "differentiator", "transient", "fusion",
                              ///< "second_order", "transfer_function", "hysteresis"
  std::string description;    ///< one line
  std::string initial_state;  ///< what start(x0) sets, and what start() begins from
  std::vector<ParamInfo> params;

  /// The parameter called `name`, or nullptr.
  [[nodiscard]] const ParamInfo* find_param(std::string_view name) const noexcept;
};

/// Parameter values by name.
using FilterParams = std::map<std::string, double, std::less<>>;

/// All kinds, in a stable order: integrators, differentiators, first-order transients,
/// fusion, second-order transients, transfer function, hysteresis.
[[nodiscard]] RMODEL_API const std::vector<FilterKind>& filter_kinds();

/// The kind called `name`.
/// @throws InvalidArgument naming the valid kinds when there is none
[[nodiscard]] RMODEL_API const FilterKind& filter_kind(std::string_view name);

/// `given` completed with the defaults of `kind`.
/// @throws InvalidArgument for a parameter `kind` does not have (naming the valid ones),
///         or a non-integer value for an integer parameter
[[nodiscard]] RMODEL_API FilterParams resolve_params(const FilterKind& kind, const FilterParams& given);

/// A filter over joint arrays of a fixed size, built by make_array_filter(). The
/// S-function interface of SPEC §3 with errors as values in the per-sample calls:
/// output/update return false, and do nothing, when the input has the wrong size or dt
/// is not finite and > 0. Neither allocates.
///
/// Time: the forms without dt take every sample T (the kind's parameter) after the
/// previous one — the fixed-step filter. The forms with dt take the actual interval, so a
/// log sampled irregularly is filtered as the continuous system would be; each family's
/// header says which discretisation it uses for a variable step. dt == T gives exactly
/// the fixed-step result. Kinds without T (transfer_function, hysteresis) ignore dt.
class RMODEL_API ArrayFilter {
public:
  virtual ~ArrayFilter() = default;
  ArrayFilter(const ArrayFilter&) = delete;
  ArrayFilter& operator=(const ArrayFilter&) = delete;

  [[nodiscard]] const FilterKind& kind() const noexcept { return *kind_; }
  /// Parameters in use, defaults included.
  [[nodiscard]] const FilterParams& params() const noexcept { return params_; }
  /// Number of joints of inputs and outputs.
  [[nodiscard]] Eigen::Index size() const noexcept { return size_; }
  /// The kind's T parameter (s); 0 for the kinds that have none (transfer_function,
  /// hysteresis: their steps do not depend on time).
  [[nodiscard]] double period() const noexcept { return period_; }

  /// Resets to the initial state: the x0 of the last start(x0) if there was one;
  /// otherwise the kind's natural start — integrals from 0, relays off, and every other
  /// kind from the first input it is given, as if that input had always been there (no
  /// derivative spike, no transient, a hand-over starting at that input). Cancels pending
  /// restart(i).
  void start() noexcept;
  /// Sets the initial state x0 (meaning per kind: FilterKind::initial_state).
  /// @throws SizeMismatch unless x0.size() == size()
  void start(const Eigen::VectorXd& x0);

  /// Per-element restart (no allocation): element i restarts from its next input (the
  /// kind's natural start: an integral from 0, a relay off, every other kind as if that
  /// input had always been there), the others carry on. Nothing if i is out of range.
  /// Fusion kinds keep one weight per element; Simpson restarts by offsetting the
  /// element's integral, so its first panel after a restart may span the restart.
  void restart(Eigen::Index i) noexcept;
  /// Per-element restart from x0 (meaning per kind as FilterKind::initial_state /
  /// start(x0)), taking effect at the next input. Nothing if i is out of range.
  void restart(Eigen::Index i, double x0) noexcept;

  /// Computes y[k] for u[k] without advancing; false if u.size() != size().
  [[nodiscard]] bool output(const Eigen::VectorXd& u) noexcept;
  /// Computes y[k] for u[k] and advances; false if u.size() != size().
  [[nodiscard]] bool update(const Eigen::VectorXd& u) noexcept;
  /// Advances with the input last given to output(); nothing if there was none.
  void update() noexcept;

  /// dt: seconds since the previous sample given to this filter (> 0, finite); the forms
  /// without dt use the kind's T. With dt == T every kind gives exactly its fixed-step
  /// result. False, and nothing done, for a wrong size or a dt not finite and > 0.
  [[nodiscard]] bool output(const Eigen::VectorXd& u, double dt) noexcept;
  /// As output(u, dt), and advances.
  [[nodiscard]] bool update(const Eigen::VectorXd& u, double dt) noexcept;
  /// Advances with the input last given to output(), over dt (nothing for an invalid dt).
  void update(double dt) noexcept;

  /// The output of the last successful output()/update(); zeros before the first.
  [[nodiscard]] const Eigen::VectorXd& y() const noexcept { return *y_; }

protected:
  ArrayFilter(const FilterKind& kind, FilterParams params, Eigen::Index size);

private:
  /// Starts the wrapped filter from its first input u (the kind's natural start).
  virtual void do_prime(const Eigen::VectorXd& u) noexcept = 0;
  /// Restarts the wrapped filter from the x0 last given to do_start.
  virtual void do_restart() noexcept = 0;
  virtual void do_start(const Eigen::VectorXd& x0) noexcept = 0;
  virtual const Eigen::VectorXd& do_output(const Eigen::VectorXd& u, double dt) noexcept = 0;
  virtual const Eigen::VectorXd& do_update(const Eigen::VectorXd& u, double dt) noexcept = 0;
  virtual void do_update(double dt) noexcept = 0;
  /// The state element i takes at the natural start from input ui.
  [[nodiscard]] virtual double natural_start(double ui) const noexcept = 0;
  /// Sets element i to restart from x0 at the coming sample, whose input is ui.
  virtual void do_restart_element(Eigen::Index i, double x0, double ui) noexcept = 0;
  /// Called after that sample's step (for filters that restart by an offset).
  virtual void do_after_restart(Eigen::Index /*i*/, double /*x0*/) noexcept {}

  void prime_if_needed(const Eigen::VectorXd& u) noexcept;
  /// Applies the pending per-element restarts around one step.
  template <class Step>
  const Eigen::VectorXd& step(const Eigen::VectorXd& u, Step&& s) noexcept;

  const FilterKind* kind_;
  FilterParams params_;
  Eigen::Index size_;
  double period_ = 0.0;
  Eigen::VectorXd zeros_;
  const Eigen::VectorXd* y_;
  bool use_x0_ = false;      // start() restarts from x0 rather than from the first input
  bool need_prime_ = true;   // the next input starts the filter
  // Pending per-element restarts: 0 none, 1 from the next input, 2 from restart_x0_.
  std::vector<unsigned char> restart_mode_;
  Eigen::VectorXd restart_x0_;
  bool restarts_pending_ = false;
};

/// Builds a filter of kind `kind` over joint arrays of `size` joints.
/// @param params parameter values by name; missing ones take their defaults
/// @throws InvalidArgument for an unknown kind or parameter, or an invalid value
///         (the filter's own validation: T <= 0, tau < T, ...), or a negative size
[[nodiscard]] RMODEL_API std::unique_ptr<ArrayFilter> make_array_filter(std::string_view kind,
                                                             Eigen::Index size,
                                                             const FilterParams& params = {});

}  // namespace rmodel::filters
