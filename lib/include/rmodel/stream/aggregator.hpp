#pragma once
#include "rmodel/export.hpp"
/// @file aggregator.hpp
/// Buffers partial joint states and publishes the full sorted pose (SPEC §2,
/// docs/streaming.md): a Stage of the streaming pipeline (rmodel/stream/stream.hpp).
///
/// - **simple**: each accepted joint state copies its present fields into the sorted
///   buffer (positions optionally clamped to the URDF limits; a warning either way) and the
///   pose is published, stamped with the message's stamp.
/// - **sync**: control cycles end at ticks (the log's `{"sync": true}` messages and cycle
///   numbers, or every `period` of message time; TickSource). Position-only joints get a
///   velocity from a differentiator, velocity-only joints a position from an integrator;
///   the filters step once per tick; joints without a message in a cycle are predicted by
///   the UpdatePolicy. The pose is published at each tick, stamped with the tick's time and
///   carrying its cycle number. End of input publishes the last cycle.
///
/// The exact semantics (which cycle a message belongs to, the tolerance on stamps, what a
/// restart means) are in docs/streaming.md. Per-message work allocates nothing once warm.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rmodel/base/joint_state.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/stream/stream.hpp"
#include "rmodel/base/time.hpp"

namespace rmodel {

enum class AggregatorKind { simple, sync };

/// What a sync aggregator does on a tick for a joint that got no message in the cycle.
enum class UpdatePolicy {
  hold,                ///< keep position and velocity
  hold_zero_velocity,  ///< keep position, set velocity to 0
  extrapolate,         ///< position += velocity · dt
  brake,               ///< |velocity| decreases at `brake_deceleration`; position integrates it
};

/// When the pose is published.
enum class PublishPolicy {
  message,  ///< after every accepted joint or support state
  tick,     ///< once per tick (end of a control cycle)
  both,     ///< after every message and at every tick
};

/// Where the ticks (ends of control cycles) come from.
enum class TickSource {
  automatic,  ///< the log decides: its own ticks or cycle numbers → stream, else stamps → time
  time,       ///< every `period` of message time from the first stamp
  stream,     ///< the log's `{"sync": true}` messages and cycle numbers
};

struct RMODEL_API AggregatorOptions {
  AggregatorKind kind = AggregatorKind::simple;
  /// Clamp positions to the URDF limits of bounded joints (a warning is issued either way).
  bool clamp = false;
  /// Publishing; nothing = message for simple, tick for sync.
  std::optional<PublishPolicy> publish;
  /// Control period T: time-tick spacing (ticks fall on the integer grid t0 + k·T), length
  /// of a cycle without stamps. > 0. Default 10 ms.
  Time period{10'000'000};
  TickSource ticks = TickSource::automatic;
  UpdatePolicy update = UpdatePolicy::hold;
  /// Differentiator kind (velocity from position): diff, lag_diff or fir_diff.
  std::string diff_method = "diff";
  /// Integrator kind (position from velocity): euler, trapezoid or simpson.
  std::string quad_method = "euler";
  /// Parameters of the two filters; `T` defaults to `period`.
  std::vector<std::pair<std::string, double>> diff_params;
  std::vector<std::pair<std::string, double>> quad_params;
  /// Deceleration (rad/s² or m/s²) of the `brake` policy. > 0.
  double brake_deceleration = 10.0;
  /// Initial pose (pose_size() positions): the buffer and the filters start there.
  /// Empty: every joint starts at 0 and its filters at its first sample.
  std::vector<double> initial_positions;
  /// Publish support states (on their messages, and at ticks).
  bool support = true;
};

/// The aggregator: a pipeline Stage (push messages, get poses).
class RMODEL_API Aggregator final : public stream::Stage {
public:
  /// @throws InvalidArgument for a bad option (period ≤ 0, bad parameters, an initial pose of
  ///         the wrong size, ...); an OptionError (fields() names the option) for a diff_method
  ///         that is not a differentiator or a quad_method that is not an integrator.
  Aggregator(const Model& model, AggregatorOptions options = {});
  ~Aggregator() override;
  Aggregator(Aggregator&&) noexcept;
  Aggregator& operator=(Aggregator&&) noexcept;

  void push(const io::Message& message, stream::Output& out, stream::Reporter& report) override;
  /// End of input: a held-back decision is taken, and the open cycle is ended by a tick.
  void finish(stream::Output& out, stream::Reporter& report) override;

  /// The full sorted pose. `position` always has pose_size() entries; `velocity` and
  /// `effort` are empty until some message carried them (sync: velocity always present).
  [[nodiscard]] const JointState& pose() const noexcept;
  /// Support state of every chain, in chain order.
  [[nodiscard]] const SupportState& support() const noexcept;
  /// Current control-cycle number: 0 at the start, +1 per tick.
  [[nodiscard]] std::int64_t cycle() const noexcept;
  /// The tick source in use: automatic until the log decided it.
  [[nodiscard]] TickSource ticks() const noexcept;
  [[nodiscard]] const AggregatorOptions& options() const noexcept;
  [[nodiscard]] const Model& model() const noexcept;

private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rmodel
