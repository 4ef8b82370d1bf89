#pragma once
#include "rmodel/export.hpp"
/// @file aggregator.hpp
/// Buffers partial joint states and publishes the full sorted pose (SPEC §2).
///
/// Two kinds share one class:
/// - **simple**: each joint state is checked (unknown joints: warning, skipped; arrays whose
///   size disagrees with `name`: the message is rejected), its present fields are copied into
///   the sorted buffer (positions optionally clamped to the URDF limits), and the pose is
///   ready to publish after every message.
/// - **sync**: as simple, and in addition joints that report only a position get a velocity
///   from a differentiator, joints that report only a velocity get a position from an
///   integrator, and on each sync tick (end of a control cycle) the joints that got no news
///   in the cycle are predicted by an UpdatePolicy.
///
/// Per-message work allocates nothing after construction: the buffers are sized once and
/// names are resolved through precomputed tables (a per-position cache of the last message's
/// names, then a hash map). Problems are returned as values: on_joint_state() returns
/// Verdict::rejected for a message it refuses, and warnings() lists what it noticed.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rmodel/joint_state.hpp"
#include "rmodel/model.hpp"

namespace rmodel {

enum class AggregatorKind { simple, sync };

/// What a sync aggregator does on a tick for a joint that got no news in the cycle.
enum class UpdatePolicy {
  hold,                ///< keep position and velocity
  hold_zero_velocity,  ///< keep position, set velocity to 0
  extrapolate,         ///< position += velocity · period
  brake,               ///< velocity decays to 0 at `brake_deceleration`; position integrates it
};

/// When the pose is meant to be published (the aggregator only reports; callers publish).
enum class PublishPolicy {
  every_message,  ///< after every accepted joint or support state
  sync,           ///< on every sync tick only
};

struct RMODEL_API AggregatorOptions {
  AggregatorKind kind = AggregatorKind::simple;
  /// Clamp positions to the URDF limits of bounded joints (a warning is issued either way).
  bool clamp = false;
  PublishPolicy publish = PublishPolicy::every_message;
  /// Control period T (s) of the sync aggregator; also the step of its filters. > 0.
  double period = 0.01;
  UpdatePolicy update = UpdatePolicy::hold;
  /// Filter kinds (rmodel/filters/registry.hpp) for velocity from position and position
  /// from velocity; their parameter T is `period`, other parameters take their defaults
  /// unless given in `diff_params` / `quad_params`.
  std::string diff_method = "diff";
  std::string quad_method = "euler";
  std::vector<std::pair<std::string, double>> diff_params;
  std::vector<std::pair<std::string, double>> quad_params;
  /// Deceleration (rad/s² or m/s²) of the `brake` policy. > 0.
  double brake_deceleration = 10.0;
};

/// Outcome of one input message.
enum class Verdict { accepted, rejected };

/// Something the aggregator noticed about the last message.
struct RMODEL_API AggregatorWarning {
  enum class Kind {
    unknown_joint,   ///< `element` names a joint not in the full pose (skipped)
    unknown_chain,   ///< `element` names a chain the model does not have (skipped)
    unknown_contact, ///< `element` of `contact` names no contact (default contact used)
    limit_exceeded,  ///< joint `element` beyond its URDF limits (clamped if asked)
    cycle_mismatch,  ///< the message's cycle is neither the current one nor absent
  };
  Kind kind;
  std::size_t element = 0;  ///< index into the message's arrays (name/contact)
  double value = 0.0;       ///< the offending position (limit_exceeded) or cycle number
};

/// Why the last message was rejected.
/// A size mismatch: `field` has `got` values for `expected` names. Or, with field "name", a
/// joint named twice in one message: `expected` and `got` are the 1-based elements of its
/// first and second occurrence (which value to keep would be a guess).
struct RMODEL_API Rejection {
  std::string_view field;  ///< "position", "velocity", "effort", "support", "contact" or "name"
  std::size_t expected = 0;
  std::size_t got = 0;
};

class RMODEL_API Aggregator {
public:
  /// @throws InvalidArgument for a bad option (period ≤ 0, unknown filter kind, ...).
  Aggregator(const Model& model, AggregatorOptions options = {});
  ~Aggregator();
  Aggregator(Aggregator&&) noexcept;
  Aggregator& operator=(Aggregator&&) noexcept;

  /// Merges a (partial) joint state. `cycle`: the control cycle it belongs to, if known.
  Verdict on_joint_state(const JointState& message, std::optional<std::int64_t> cycle = std::nullopt);
  /// Merges a support state (name = chains, support coefficients, contact names).
  Verdict on_support_state(const SupportState& message);
  /// End of a control cycle at `stamp` seconds (sync aggregator; a simple one only records
  /// the time). Predicts the joints that got no news, steps the cycle counter.
  void on_sync(double stamp, std::optional<std::int64_t> cycle = std::nullopt);

  /// The full sorted pose. `position` always has pose_size() entries; `velocity` and
  /// `effort` are empty until some message carried them (sync: velocity always present).
  [[nodiscard]] const JointState& pose() const noexcept;
  /// Support state of every chain, in chain order; contact defaults to the chain's
  /// default contact.
  [[nodiscard]] const SupportState& support() const noexcept;
  /// Warnings about the last message (cleared by each on_* call).
  [[nodiscard]] std::span<const AggregatorWarning> warnings() const noexcept;
  /// Details of the last rejection.
  [[nodiscard]] const Rejection& rejection() const noexcept;
  /// Current control-cycle number (sync): starts at 0, +1 per tick.
  [[nodiscard]] std::int64_t cycle() const noexcept;
  [[nodiscard]] const AggregatorOptions& options() const noexcept;
  [[nodiscard]] const Model& model() const noexcept;

  /// Sets the whole pose (e.g. an initial or named pose; positions only). @throws SizeMismatch
  void set_positions(std::span<const double> positions);

private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Parses "simple"/"sync", "hold"/"hold-zero-velocity"/"extrapolate"/"brake",
/// "message"/"sync"; @throws InvalidArgument naming the valid values.
RMODEL_API AggregatorKind parse_aggregator_kind(std::string_view name);
RMODEL_API UpdatePolicy parse_update_policy(std::string_view name);
RMODEL_API PublishPolicy parse_publish_policy(std::string_view name);

}  // namespace rmodel
