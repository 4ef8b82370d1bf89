#pragma once
#include "rmodel/export.hpp"
/// @file splice.hpp
/// Splicing two movements: from movement A into movement B at a time T, over a transition
/// given by one of the original design's fusion laws (SPEC §3, "fusion of two trajectories"
/// and "second-order transient"), or from a pose into a movement.
///
/// A movement is a stream of joint states and support states (rmodel/io/message.hpp) with
/// stamps, in time order. Each joint is a time series of its own (partial messages are fine);
/// its position at a time between two of its samples is the straight line between them, and
/// before its first / after its last sample it is held at that sample.
///
/// **Times.** T is given as `at`: nanoseconds after A's first message. B is shifted so that
/// its first message falls on T (or keeps its own stamps with `keep_time`, and its messages
/// before T are dropped). Output, in time order:
/// - A's messages (joint and support states) stamped before T, as they are (bit for bit);
/// - transition samples at B's joint-state stamps from T on (and, with `step`, also every
///   `step` from T; when B ends before the transition does, the samples go on at B's last
///   interval, B held): one joint state of every joint with
///       y = x·A(t) + (1 − x)·B(t)
///   (linear and exponential laws; x is the weight of A), or the second-order transient;
/// - from the first sample where the transition has ended, B's messages as they are.
///
/// **Laws** (t in seconds, τ = `tau`):
/// - Linear: x(t) = max(0, 1 − (t − T)/τ); the transition ends at T + τ.
/// - Exponential: x = 1 at T, then at every sample x ← x·max(0, 1 − dt/τ), dt the time since
///   the previous sample (or since T); ends at the first sample where x <= `settle`.
/// - SecondOrder: the design's second-order transient (rmodel/filters/second_order.hpp) on
///   the error e = y − B of each joint, with B's position, velocity and acceleration as the
///   reference: e'' = −a0·e − a1·e', a0 = 1/τ², a1 = 2/τ (critically damped, time constant
///   τ), from e = A(T) − B(T) and e' = A's slope into T minus B's slope out of T (slopes of
///   their samples); y = B + e. Position and velocity are continuous at T, and
///   y follows B exactly once e has died out, however B moves. Ends at the first sample
///   where max over joints of |e| + τ·|e'| is at most `settle` times its value at T (about
///   9τ for 0.001).
///
/// **Joints in one movement only.** A joint only in A is held at its position at T from T
/// on (added to every output joint state from T); a joint only in B takes B's values. Both
/// lists are returned so that the caller can report them.
///
/// **Support states** switch at T: A's before T, then B's support state in force at T
/// (stamped T when B's was earlier) and B's later ones.
///
/// **Bounded.** The transition is made sample by sample and handed on (the SpliceSink
/// forms hold none of it; the others collect the output). Before anything is made, a
/// transition that would make more than kMaxSpliceSamples samples of its own (every `step`,
/// or at B's last interval once B has ended), by the bound splice_transition_bound() gives
/// its duration, is refused, and so is one that would end beyond the range of times.
///
/// **Velocities.** A transition sample carries velocities when every joint of B has them in
/// B and every shared joint in A: dy/dt of the law (x·vA + (1 − x)·vB + ẋ·(A − B), ẋ = −1/τ
/// or −x/τ) or the transient's velocity; held joints 0. Efforts are not blended (left out).

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rmodel/io/message.hpp"
#include "rmodel/base/joint_state.hpp"
#include "rmodel/base/time.hpp"

namespace rmodel {

/// How the weight of A falls during a splice's transition.
enum class SpliceLaw {
  Linear,       ///< x falls from 1 to 0 in τ seconds
  Exponential,  ///< x ← x·(1 − dt/τ) per sample, time constant τ
  SecondOrder,  ///< second-order transient to B: position and velocity continuous
};

/// The most samples a transition makes besides B's own stamps: 1 000 000.
inline constexpr std::size_t kMaxSpliceSamples = 1'000'000;

/// Parses `linear`, `exp` (or `exponential`), `second-order`. @throws InvalidArgument
[[nodiscard]] RMODEL_API SpliceLaw parse_splice_law(const std::string& name);

/// Parameters of splice().
struct RMODEL_API SpliceOptions {
  /// T: nanoseconds after A's first message (0 <= at <= A's duration). Ignored by
  /// splice_from_pose (T is B's first stamp).
  Time at{};
  /// B keeps its own stamps (its messages before T are dropped) instead of being shifted
  /// to start at T.
  bool keep_time = false;
  SpliceLaw law = SpliceLaw::Linear;
  /// Duration (linear) or time constant (exponential, second order) of the transition, s (> 0).
  double tau = 0.5;
  /// Exponential and second order: the transition ends once what is left of the difference
  /// to B is at most this fraction of it at T (in (0, 1)).
  double settle = 1e-3;
  /// When set (> 0), transition samples also every `step` from T (for sparse movements such
  /// as trajectories of a few points).
  std::optional<Time> step;
};

/// What splice() made.
struct RMODEL_API SpliceResult {
  /// The spliced movement in time order (joint and support states).
  std::vector<io::Message> messages;
  std::vector<std::string> only_in_a;  ///< joints of A not in B: held at their position at T
  std::vector<std::string> only_in_b;  ///< joints of B not in A (or not in the pose)
  Time start{};                        ///< T, on the output's clock
  Time end{};                          ///< stamp of the first sample after the transition (B's values from there)
  std::size_t transition_samples = 0;  ///< blended samples written
};

/// Receives the spliced movement message by message, in time order.
using SpliceSink = std::function<void(const io::Message&)>;

/// Splices movement A into movement B (see the file comment). Sync ticks are ignored.
/// @throws InvalidArgument when A or B has no stamped joint state, a message has no stamp,
///         the messages are not in time order, `at` is outside A, B (kept at its own
///         times) ends before T, tau/settle/step are out of range, the transition is longer
///         than the bound allows (see "Bounded"); SizeMismatch for a joint state whose
///         position array does not match its names.
[[nodiscard]] RMODEL_API SpliceResult splice(const std::vector<io::Message>& a, const std::vector<io::Message>& b,
                                             const SpliceOptions& options);
/// splice(), handing each message to `sink` as it is made instead of collecting it (the
/// result's `messages` stay empty): memory does not grow with the transition. Nothing is
/// handed on when it throws for its arguments.
RMODEL_API SpliceResult splice(const std::vector<io::Message>& a, const std::vector<io::Message>& b,
                               const SpliceOptions& options, const SpliceSink& sink);

/// Splices from a pose (the positions of `pose`, velocity 0) into movement B, which keeps its
/// stamps: T is B's first stamp. Only B's joints are written (a joint of B the pose does not
/// name takes B's values and is listed in only_in_b); `options.at` and `keep_time` are not
/// used. @throws as splice()
[[nodiscard]] RMODEL_API SpliceResult splice_from_pose(const JointState& pose, const std::vector<io::Message>& b,
                                                       const SpliceOptions& options);
/// splice_from_pose(), handing each message to `sink` as it is made (see splice()).
RMODEL_API SpliceResult splice_from_pose(const JointState& pose, const std::vector<io::Message>& b,
                                         const SpliceOptions& options, const SpliceSink& sink);

/// An upper bound of how long a transition lasts after T, s: tau (linear); tau·ln(1/settle)
/// (exponential: the weight is at most e^(−t/tau) after t); second order: the time by which
/// the transient's envelope (1 + 2t/tau)·e^(−t/tau) falls to settle (about 9.9 tau for
/// 0.001), with a quarter more for its integration in steps. The transition ends at the
/// first sample at or after T plus the bound. @throws InvalidArgument for tau or settle out
/// of range.
[[nodiscard]] RMODEL_API double splice_transition_bound(const SpliceOptions& options);

/// A `control_msgs/FollowJointTrajectoryGoal` JSON document (ROS 1 time layout, as the
/// Sweetie Bot's movements are stored) holding `messages`: `trajectory.header.stamp` is the
/// first joint state's stamp, one point per joint-state stamp with `time_from_start` the
/// time since then (exact nanoseconds), `joint_names` every joint in order of appearance and
/// then `support/<chain>` pseudo-joints when there are support states (the support in force
/// at the point). A joint a message does not name keeps its previous value (its first one
/// before it appears). `velocities` when every joint has one at every point, else empty.
/// Reading the document back (io::MessageReader) gives the same stamps and positions.
/// @throws InvalidArgument when there is no stamped joint state.
[[nodiscard]] RMODEL_API std::string trajectory_goal_json(const std::vector<io::Message>& messages);

}  // namespace rmodel
