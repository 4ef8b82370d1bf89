#pragma once
#include "rmodel/export.hpp"
/// @file stream_filter.hpp
/// Filtering a stream of partial joint states, joint by joint, with a registry filter
/// (`rmodel filter`), and the step response of a registry filter (filter tuning).
///
/// - **Per joint.** Every joint has its own one-element ArrayFilter, created the first time
///   the joint is seen (or up front with add_joints(), e.g. for every joint of a model), and
///   advanced once per message that carries the joint. A joint's filter therefore runs at the
///   rate at which that joint arrives; the filters assume that rate is uniform, with period
///   T (the `T` parameter of the kind), and ignore the message stamps.
/// - **Selection.** Only the selected joints are filtered (all when the selection is empty);
///   the others pass through unchanged.
/// - **Non-finite values** (NaN, ±inf: a missing reading) pass through unchanged and do not
///   advance the joint's filter.
/// - **No allocation** in apply() once every joint of the stream has been seen.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <Eigen/Core>

#include "rmodel/filters/registry.hpp"
#include "rmodel/base/joint_state.hpp"
#include "rmodel/stream/stream.hpp"

namespace rmodel::filters {

/// The field of a joint state a StreamFilter filters.
enum class JointField {
  position,  ///< rad or m
  velocity,  ///< rad/s or m/s
  effort,    ///< N·m or N
};

/// "position", "velocity", "effort".
[[nodiscard]] RMODEL_API std::string_view to_string(JointField field) noexcept;
/// Parses "position", "velocity", "effort".
/// @throws InvalidArgument naming the valid fields otherwise
[[nodiscard]] RMODEL_API JointField parse_joint_field(std::string_view text);

/// Parses "NAME=VALUE" (VALUE a decimal number, `inf` or `-inf`) into `params`.
/// @throws InvalidArgument for a missing '=', an empty name or a malformed value
RMODEL_API void parse_param_assignment(std::string_view text, FilterParams& params);

/// Result of StreamFilter::apply().
enum class StreamFilterStatus {
  filtered,      ///< the selected field was filtered (for the selected joints it carries)
  absent,        ///< the message does not carry the field; nothing changed
  size_mismatch, ///< an array's size differs from the number of names; nothing changed
  repeated_name, ///< a joint is named twice (see repeated_element()); nothing changed
};

/// Applies a filter kind to one field of a stream of (partial) joint states, per joint: a
/// pipeline Stage (`rmodel filter`). Time: a joint's filter steps by the time since that
/// joint's previous sample when the messages have stamps and `T` was not given (a joint's
/// first sample starts its filter; a repeated stamp repeats the last output); with `T` given,
/// or without stamps, it steps by T per sample (fixed step). Names are resolved by the one stream::SlotMapper:
/// open (every new name is a joint) or, with `known` joints (a model's), fixed (other
/// names: "unknown joint 'X' skipped", passed through unfiltered).
class RMODEL_API StreamFilter final : public stream::Stage {
public:
  /// @param kind a registry kind (filter_kinds())
  /// @param params parameter values; missing ones take the kind's defaults
  /// @param field the field filtered
  /// @param joints the joints filtered; empty: every joint
  /// @param known the joints of the stream when known up front (a model's full pose)
  /// @throws InvalidArgument for an unknown kind or parameter or an invalid value
  StreamFilter(std::string_view kind, const FilterParams& params, JointField field = JointField::position,
               std::vector<std::string> joints = {}, std::optional<std::vector<std::string>> known = std::nullopt);
  ~StreamFilter() override;

  /// Filters a joint state message and passes it on (other messages pass unchanged; a
  /// rejected one is reported and dropped).
  void push(const io::Message& message, stream::Output& out, stream::Reporter& report) override;
  /// End of input: with `T` forced on a log whose stamps are irregular, a warning.
  void finish(stream::Output& out, stream::Reporter& report) override;

  /// Creates the filters of the selected joints among `names` now rather than on first sight.
  void add_joints(const std::vector<std::string>& names);

  /// Filters state's field in place (names, stamps and other fields untouched), without
  /// reporting and by fixed step (see push() for time from stamps).
  [[nodiscard]] StreamFilterStatus apply(JointState& state);

  /// After apply() returned repeated_name: the 0-based element naming a joint a second time.
  [[nodiscard]] std::size_t repeated_element() const noexcept { return mapper_.repeated_element(); }

  /// True when `name` is filtered (it is selected, or the selection is empty).
  [[nodiscard]] bool selected(const std::string& name) const;
  /// The joints that have a filter, in the order they were first seen or added.
  [[nodiscard]] const std::vector<std::string>& filtered_joints() const noexcept { return order_; }
  /// Restarts every joint's filter: the next value of each joint starts it again.
  void restart() noexcept;

  [[nodiscard]] const FilterKind& kind() const noexcept { return *kind_; }
  /// Parameters in use, defaults included.
  [[nodiscard]] const FilterParams& params() const noexcept { return params_; }
  [[nodiscard]] JointField field() const noexcept { return field_; }

private:
  struct Slot {
    std::unique_ptr<ArrayFilter> filter;  ///< null until the joint's first value (or unselected)
    Eigen::VectorXd u;
    bool selected = false;
    std::optional<Time> last_stamp;  ///< of the last sample filtered
  };
  /// The data of mapper slot `s` (created on first sight).
  Slot& slot(std::size_t s);
  StreamFilterStatus filter(JointState& state, const io::Message& where, stream::Reporter& report);

  const FilterKind* kind_;
  FilterParams params_;
  JointField field_;
  std::vector<std::string> selection_;
  stream::SlotMapper mapper_;
  std::vector<Slot> slots_;
  std::vector<std::string> order_;
  io::Message buffer_;      ///< the message being filtered (keeps its capacity)
  io::Message no_message_;  ///< where apply() reports (nowhere)
  stream::Reporter silent_;
  bool fixed_step_ = false;  ///< T was given: fixed step whatever the stamps
  std::optional<Time> last_stamp_;
  std::optional<Time> min_dt_, max_dt_;  ///< between stamped messages
};

/// The output filter of a pipeline (`aggregate --filter`): filters the positions of every
/// joint state passing through (a full pose of `size` joints; other sizes pass unchanged),
/// then hands it to the next sink. Support states pass through. Non-finite positions pass
/// unchanged and do not advance the filter. No allocation per message.
class RMODEL_API FilterSink final : public stream::Sink {
public:
  /// @throws InvalidArgument for an unknown kind or parameter or an invalid value
  /// The filter steps by the time between the poses' stamps unless `params` gives T.
  FilterSink(stream::Sink& next, std::string_view kind, const FilterParams& params, std::size_t size);
  ~FilterSink() override;
  void joint_state(const JointState& state, std::optional<std::int64_t> cycle) override;
  void support_state(const SupportState& state, std::optional<std::int64_t> cycle) override {
    next_->support_state(state, cycle);
  }
  void flush() override { next_->flush(); }
  /// Outside the time window: filtered the same way (the filter's state goes on), handed on
  /// outside.
  void joint_state_outside(const JointState& state, std::optional<std::int64_t> cycle) override;
  void support_state_outside(const SupportState& state, std::optional<std::int64_t> cycle) override {
    next_->support_state_outside(state, cycle);
  }

private:
  /// Filters `state` into filtered_.
  void filter(const JointState& state);

  stream::Sink* next_;
  std::unique_ptr<ArrayFilter> filter_;
  Eigen::VectorXd u_;
  JointState filtered_;  ///< the copy that is filtered (keeps its capacity)
  bool fixed_step_ = false;
  std::optional<Time> last_stamp_;
};

/// One sample of a step response.
struct RMODEL_API StepSample {
  double t = 0.0;  ///< time, s (the step is at t = 0)
  double u = 0.0;  ///< input: 0 before the step, 1 from t = 0
  double y = 0.0;  ///< output of the filter
};

/// A duration long enough to see a kind settle: 5 tau for first-order kinds, max(10/a1,
/// 8/sqrt(a0)) for second-order ones, 1.5/v for the linear transient, 50 T otherwise (at least 10 T).
/// @param params the parameters in use, defaults included (resolve_params())
[[nodiscard]] RMODEL_API double default_step_duration(const FilterKind& kind, const FilterParams& params);

/// The response of a one-joint filter of `kind` to a unit step at t = 0: the filter starts
/// from the zero state (start(0)), gets 0 for `lead` samples before t = 0, then 1 at
/// t = 0, T, 2T, ... up to `duration` (0: default_step_duration()).
/// @throws InvalidArgument for an unknown kind or parameter, an invalid value, a negative
///         duration, or more than 10^6 samples
[[nodiscard]] RMODEL_API std::vector<StepSample> step_response(std::string_view kind, const FilterParams& params,
                                                    double duration = 0.0, int lead = 5);

}  // namespace rmodel::filters
