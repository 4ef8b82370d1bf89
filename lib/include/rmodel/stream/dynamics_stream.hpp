#pragma once
#include "rmodel/export.hpp"
/// @file dynamics_stream.hpp
/// The torques a recorded motion needs, along a stream of full poses: a stream::Sink that
/// replaces each pose's `effort` by the joint torques of rmodel/kinematics/dynamics.hpp and hands it on
/// (`rmodel dynamics --log`, after the aggregator that turns a log into full poses).
///
/// - **Poses.** A joint state whose position has the model's pose_size() entries, in the
///   full-pose order (what the Aggregator publishes). Other joint states, and poses with a
///   non-finite position, pass unchanged except that their effort is cleared (no torque can
///   be given for them). Stamps, names, positions and velocities pass unchanged.
/// - **Velocities** (rad/s, m/s): the pose's own velocity where it is finite, unless a
///   differentiator is named (DynamicsStreamOptions::diff_method): then, and for joints
///   without a finite velocity, the derivative of the positions by that differentiator
///   (default "diff", the backward difference).
/// - **Accelerations** (rad/s², m/s²): the derivative of those velocities by the same
///   differentiator. Time: the differences of the stamps (a `T` parameter given makes the
///   step fixed). A pose with the stamp of the previous one keeps the previous derivatives
///   (poses of one instant, published message by message); the first pose starts the
///   differentiators (derivatives 0: the kind's natural start).
/// - **Torques** (N·m, N): inverse_dynamics with the root fixed, or with `floating_base`
///   floating_base_dynamics with the support of the last support state (before the first:
///   every chain with a default contact supports with 1; chains not named: in the air).
///   Support states pass on unchanged.
/// - **Outside a time window** (Sink::joint_state_outside): the same work, so that the
///   differentiators and the support start the window where the whole replay has them; what
///   it hands on goes to the next sink's *_outside calls, and nothing is counted.
/// - No allocation per pose once the first pose has been handled.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "rmodel/kinematics/dynamics.hpp"
#include "rmodel/filters/registry.hpp"
#include "rmodel/stream/stream.hpp"
#include "rmodel/base/time.hpp"

namespace rmodel::dynamics {

/// Options of a TorqueSink.
struct RMODEL_API DynamicsStreamOptions {
  /// Differentiator kind (family "differentiator" of filters::filter_kinds()). Empty: the
  /// log's velocities where given, "diff" for the rest and for the accelerations.
  std::string diff_method;
  /// Parameters of the differentiator; `T` given: a fixed step of T seconds, else the
  /// stamps' differences.
  filters::FilterParams diff_params;
  /// The root floats, carried by the supporting chains of the support states.
  bool floating_base = false;
  /// Gravity in the root link's frame (m/s²).
  Eigen::Vector3d gravity = standard_gravity();
};

/// Writes each pose with `effort` = the torques its motion needs, to `next`.
class RMODEL_API TorqueSink final : public stream::Sink {
public:
  /// @throws InvalidArgument for a diff_method that is not a differentiator or bad
  ///         parameters; the errors of SupportModel::from_model with floating_base.
  TorqueSink(stream::Sink& next, const Model& model, DynamicsStreamOptions options = {});
  ~TorqueSink() override;
  TorqueSink(const TorqueSink&) = delete;
  TorqueSink& operator=(const TorqueSink&) = delete;

  void joint_state(const JointState& state, std::optional<std::int64_t> cycle) override;
  /// Updates the support (floating_base) and passes the state on. A support state naming an
  /// unknown chain or contact, or a coefficient outside [0, 1], leaves the support as it was
  /// and is counted (rejected_support_states()).
  void support_state(const SupportState& state, std::optional<std::int64_t> cycle) override;
  void flush() override { next_->flush(); }
  void joint_state_outside(const JointState& state, std::optional<std::int64_t> cycle) override;
  void support_state_outside(const SupportState& state, std::optional<std::int64_t> cycle) override;

  /// Poses given a torque so far.
  [[nodiscard]] std::uint64_t poses() const noexcept { return poses_; }
  /// Joint states passed on without a torque (wrong size, non-finite position).
  [[nodiscard]] std::uint64_t skipped() const noexcept { return skipped_; }
  /// Support states that could not be used, and the reason of the first one.
  [[nodiscard]] std::uint64_t rejected_support_states() const noexcept { return rejected_support_; }
  [[nodiscard]] const std::string& first_support_problem() const noexcept { return support_problem_; }
  /// The velocities and accelerations used for the last pose (pose order).
  [[nodiscard]] const std::vector<double>& velocities() const noexcept { return qd_; }
  [[nodiscard]] const std::vector<double>& accelerations() const noexcept { return qdd_; }

private:
  /// Gives out_ the torques of `state`; false when it has none (wrong size, a non-finite position).
  bool compute(const JointState& state);
  /// Takes a support state in; false when it cannot be used (the support stays as it was;
  /// counted in rejected_support_states() when `count`).
  bool take_support(const SupportState& state, bool count);

  stream::Sink* next_;
  DynamicsStreamOptions options_;
  KinematicModel model_;
  std::optional<SupportModel> supports_;
  DynamicsWorkspace ws_;
  std::vector<ChainSupport> support_, scratch_support_;
  std::unique_ptr<filters::ArrayFilter> position_diff_;
  std::unique_ptr<filters::ArrayFilter> velocity_diff_;
  bool fixed_step_ = false;
  bool log_velocities_ = true;
  Eigen::VectorXd u_;
  std::vector<double> qd_, qdd_;
  JointState out_;  ///< the copy that is written (keeps its capacity)
  std::optional<Time> last_stamp_;  ///< the stamp of the last pose; none before the first
  std::uint64_t poses_ = 0, skipped_ = 0, rejected_support_ = 0;
  std::string support_problem_;
};

}  // namespace rmodel::dynamics
