#pragma once
#include "rmodel/export.hpp"
/// @file io/message.hpp
/// One item of a joint-state stream — a joint state, a support state or a sync tick — and
/// the wire formats that carry it.
///
/// ## JSON messages (JSON Lines, pretty files, arrays)
/// Every message is a JSON object. Known keys (any order; unknown keys such as
/// `header.frame_id` or `header.seq` are ignored; a repeated key: the last one wins):
///
/// | key | type | meaning |
/// |-----|------|---------|
/// | `name` | array of strings | joint names (joint state) or chain names (support state) |
/// | `position`, `velocity`, `effort` | array of numbers | rad or m, rad/s or m/s, N·m or N |
/// | `support` | array of numbers | support coefficients in [0, 1] of the chains in `name` |
/// | `contact` | array of strings | contact names of the chains in `name` |
/// | `t` | number | time, seconds (read exactly into nanoseconds, time.hpp) |
/// | `header.stamp.secs` + `nsecs` | integers | ROS 1 time: secs·10⁹ + nsecs nanoseconds |
/// | `header.stamp.sec` + `nanosec` | integers | ROS 2 time: sec·10⁹ + nanosec nanoseconds |
/// | `cycle` | integer | control-cycle number (for the sync aggregator) |
/// | `sync` | `true` | marks a sync tick |
///
/// - **Kind.** An object with `sync` is a sync tick (`"sync": true`; `false` is an error; a
///   tick must not carry `name`/`position`/`velocity`/`effort`/`support`/`contact`). Else an
///   object with `support` or `contact` is a SupportState (`name` required; it must not carry
///   `position`/`velocity`/`effort`). Else it is a JointState (`name` required).
/// - **Absent arrays.** A missing or empty array means "field absent". The reader does not
///   compare array sizes with `name`: it carries them faithfully, and the consumer (the
///   aggregator) rejects a message whose check_sizes() fails.
/// - **Time.** Integer nanoseconds (rmodel/base/time.hpp). `t` is decimal seconds, read exactly
///   (never through a double; more than nine decimals are rounded to the nearest nanosecond,
///   ties to even; beyond ±9223372036.854775807 s is an error). `t` wins over `header.stamp`
///   when both are present (the writer emits both when asked for a stamp layout; they are the
///   same nanoseconds). Without either, or with `"t": null`, Message::has_stamp is false.
/// - **NaN and infinities.** JSON has no NaN: the writer writes `null` for NaN, +Inf and
///   −Inf, and the reader reads `null` in a number array as NaN. Infinities
///   therefore come back as NaN from JSON; CSV keeps them (`nan`, `inf`, `-inf`). Numbers
///   beyond the range of double (`1e999`) are an error; numbers below it (`1e-400`) read as 0.
/// - **Sync tick.** `{"sync": true, "t": 12.34, "cycle": 57}`: the end of control cycle 57
///   at 12.34 s (both optional). A sync aggregator advances its cycle, steps its filters and
///   predicts the joints that got no message in the cycle. Messages of a cycle may carry
///   `"cycle": 57`; a message without `cycle` belongs to the current one. `cycle` is a
///   non-negative integer (`3.0` and `-1` are errors).
/// - **Grammar.** Strict RFC 8259 (no `NaN` token, no leading zeros, no trailing commas, one
///   value per JSON line); `\u` escapes are decoded to UTF-8, other bytes pass through
///   unchecked; unknown values may nest 64 levels deep.
///
/// ## Trajectories
/// `control_msgs/FollowJointTrajectoryGoal` (`{"trajectory": {...}, ...}`) and
/// `trajectory_msgs/JointTrajectory` (`{"joint_names": [...], "points": [...]}`), ROS 1 or
/// ROS 2 time layout. Each point becomes a JointState at `header.stamp + time_from_start`
/// with the point's `positions`, `velocities` and `effort` (or `efforts`); `accelerations`
/// are ignored. Pseudo-joints `support/<chain>` are removed from the joint state and become
/// a SupportState (name = the chains, support = their positions) at the same time, emitted
/// right after the point's JointState (none when the point has no positions). A missing
/// `header` means stamp 0; `time_from_start` is required (`{secs, nsecs}`, `{sec, nanosec}`
/// or seconds). A point whose non-empty arrays do not match `joint_names` in size, or whose
/// fields are malformed, yields an error record (ReadError::item = point number) and the
/// other points still come out.
///
/// ## CSV (wide)
/// A header row, then one row per time. Columns (cells trimmed of blanks; RFC 4180 quotes
/// allowed, but not newlines inside quotes):
/// - `t` or `time`: the time in seconds, read exactly as JSON's `t` (optional column; an
///   empty or `nan` cell: no time);
/// - `cycle`: the control-cycle number (optional);
/// - `<joint>` or `<joint>.position`, `<joint>.velocity`, `<joint>.effort`; the suffix is
///   what follows the last `.`, so a joint whose name holds a `.` must use an explicit suffix;
///   any other suffix is an error reported on the header line, and that column is ignored
///   (as are duplicate and empty column names);
/// - `support/<chain>`: the support coefficient of a chain.
///
/// **Partial rows.** An empty cell means "absent". A row is split without loss into
/// messages of uniform shape: its joints that have at least one non-empty cell are grouped
/// by the set of fields they have (position / velocity / effort), and each group becomes one
/// JointState listing its joints in header order with exactly those arrays. The groups come
/// out in the order of their first joint in the header; they all carry the row's time, cycle
/// and line. A row with support cells then yields one SupportState of the chains whose cell
/// is non-empty. A row whose data cells are all empty yields nothing. So a row where every
/// joint has position and velocity gives one message; a row where j1 has position and
/// velocity and j2 only position gives {j1: position+velocity} then {j2: position}. Numbers
/// are decimal (`1.5`, `-2e-3`, `+1`), or `nan`, `inf`, `-inf` (case-insensitive). A row
/// with a cell count other than the header's, or with a bad number, is an error record.
///
/// **Time column.** ReaderOptions::time_column names it; else `t`, `time` or PlotJuggler's
/// `__time` (seconds). A named column missing from the header is reported on the header line.
///
/// **Columns named by topic** (PlotJuggler's CSV export: `/joint_states/neck_pitch/position`).
/// With a column prefix P (ReaderOptions::column_prefix) the joint columns are
/// `P<joint>/<field>`, `P<joint>.<field>` or `P<joint>` (a position); every other column — other
/// topics, `P header/stamp` — is ignored. Without one, a prefix is inferred when every column
/// of the form `/.../<joint>/position|velocity|effort` shares the part before `<joint>/`; when
/// they do not (two topics), the header line reports it and names the candidates. A joint
/// name holding `/` needs the prefix given explicitly.
///
/// ## `rostopic echo -p` CSV
/// A header whose first cell is `%time` (ROS 1 `rostopic echo -p /joint_states`):
/// `%time,field.header.seq,field.header.stamp,field.header.frame_id,field.name0,...,
/// field.position0,...,field.velocity0,...,field.effort0,...`. Each row is one JointState:
/// names from the row's `field.nameK` cells (they may differ from row to row), the arrays from
/// the `field.<array>K` cells (all of an array's cells empty: the array is absent; some
/// empty: an error). `%time` and `field.header.stamp` are integer nanoseconds; the time is the
/// header stamp (TimeSource::Header, the default) or `%time` (TimeSource::Log), the other one
/// when the chosen column is missing, kept exactly. Other `field.` columns are ignored.
///
/// ## YAML (`ros2 topic echo`, `rostopic echo`)
/// The text both echo commands print: one YAML document per message, each followed by a
/// `---` line (a last document without it is read at the end of input; `...` also ends a
/// document; empty documents are skipped). A document is a mapping with the keys of a JSON
/// message (above): `sensor_msgs/JointState` as ROS 2 prints it (`header.stamp.sec` /
/// `nanosec`, block lists `- 0.1`, `velocity: []`), with `--flow-style` (`[0.1, 0.2]` lists or
/// the whole message in `{...}`, over several lines), or as ROS 1 prints it (`secs`/`nsecs`,
/// `seq`, inline lists); `trajectory_msgs/JointTrajectory` documents are expanded as JSON
/// trajectories are. Numbers: decimal, YAML's `.nan`, `.inf`, `-.inf` and `nan`, `inf`, `-inf`.
/// Strings: plain, `'single'` (`''` for a quote) or `"double"` (backslash escapes). The time
/// is `sec·10⁹ + nanosec` nanoseconds, exactly as a ROS log gives it. Supported is the YAML these tools print — block and flow mappings and
/// sequences, comments — not anchors, tags or multi-line plain scalars. A list cut short by
/// ros2's `--truncate-length` (a last element `'...'`) or elided by `--no-arr` is an error that
/// says so. Errors carry the input line of the bad element. A document is read as soon as its
/// `---` arrives, so `ros2 topic echo /joint_states | rmodel aggregate ... -` works live.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "rmodel/base/joint_state.hpp"

namespace rmodel::io {

/// What a Message holds.
enum class MessageKind {
  Joint,    ///< Message::joint
  Support,  ///< Message::support
  Sync,     ///< a sync tick: end of a control cycle (time in Message::sync_stamp)
};

/// One item of a stream. Only the member selected by `kind` is meaningful; the others keep
/// their buffers (capacity) so that a reused Message reads without allocating.
struct RMODEL_API Message {
  MessageKind kind = MessageKind::Joint;
  JointState joint;       ///< the joint state (kind == Joint); time in joint.stamp
  SupportState support;   ///< the support state (kind == Support); time in support.stamp
  Time sync_stamp{};      ///< time of a sync tick (kind == Sync)
  /// False when the input gave no time (`t`, header stamp, CSV time cell, log stamp); the
  /// stamp is 0 then and writers omit it.
  bool has_stamp = true;
  std::optional<std::int64_t> cycle;  ///< control-cycle number, when given
  /// 1-based line of the input where the message starts (0 when unknown or not from a file).
  std::size_t line = 0;
  /// 1-based element number inside an enclosing JSON array or trajectory (the point
  /// number); 0 for a message that stands alone (a JSON line, a CSV row, a single object).
  std::size_t item = 0;

  /// The time of the message, whatever its kind.
  [[nodiscard]] Time stamp() const noexcept {
    switch (kind) {
      case MessageKind::Joint: return joint.stamp;
      case MessageKind::Support: return support.stamp;
      case MessageKind::Sync: return sync_stamp;
    }
    return Time{};
  }
  /// Sets the time of the message's current kind, and has_stamp.
  void set_stamp(Time t) noexcept {
    has_stamp = true;
    switch (kind) {
      case MessageKind::Joint: joint.stamp = t; break;
      case MessageKind::Support: support.stamp = t; break;
      case MessageKind::Sync: sync_stamp = t; break;
    }
  }
};

/// An array whose size disagrees with `name`: field name ("position", "velocity", "effort",
/// "support" or "contact"), expected size (that of `name`) and actual size.
struct RMODEL_API SizeProblem {
  std::string_view field;
  std::size_t expected = 0;
  std::size_t got = 0;
};

/// Checks that each of position, velocity, effort is empty or as long as `name`.
/// Returns the first offending array, or nothing when the state is consistent.
[[nodiscard]] RMODEL_API std::optional<SizeProblem> check_sizes(const JointState& state) noexcept;
/// Checks that each of support, contact is empty or as long as `name`.
[[nodiscard]] RMODEL_API std::optional<SizeProblem> check_sizes(const SupportState& state) noexcept;
/// check_sizes() of the member selected by `kind` (a sync tick is always consistent).
[[nodiscard]] RMODEL_API std::optional<SizeProblem> check_sizes(const Message& message) noexcept;

}  // namespace rmodel::io
