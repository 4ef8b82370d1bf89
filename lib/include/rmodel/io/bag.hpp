#pragma once
#include "rmodel/export.hpp"
/// @file io/bag.hpp
/// Robot logs as ROS records them, read by MessageReader like any other stream:
///
/// | Format | Detected by | Read |
/// |--------|-------------|------|
/// | `Mcap` (ROS 2, default storage since Iron) | magic `\x89MCAP0\r\n`, `.mcap` | in log-time order, as `ros2 bag play` plays it, also when chunks overlap (chunks uncompressed, zstd, lz4; no index needed); a pipe in file order |
/// | `Ros2Sqlite` (ROS 2 `.db3`) | `SQLite format 3\0`, `.db3`, or a directory with `metadata.yaml` | `ORDER BY timestamp, id`, as rosbag2 |
/// | `Ros1Bag` (ROS 1 bag 2.0) | `#ROSBAG V2.0\n`, `.bag` | records in file order, chunks uncompressed, bz2 or lz4 |
///
/// - **Types.** `sensor_msgs/JointState` (ROS 1 and ROS 2 `sensor_msgs/msg/JointState`) is decoded
///   into a JointState; `trajectory_msgs/JointTrajectory` is expanded as a JSON trajectory is
///   (message.hpp: one JointState per point, `support/<chain>` → SupportState). MCAP and ROS 1
///   files store the message definition: when its fields differ from the standard layout the
///   topic is not decoded (never misread) and reported once. A `.db3` stores none: the
///   standard layout is assumed.
/// - **Topics.** ReaderOptions::topics selects topics by name; empty = every JointState topic.
///   A selected topic of a type rmodel does not read is counted and reported once, as one
///   error at the end ("topic /rosout: type rcl_interfaces/msg/Log is not read: 3 messages
///   skipped"). A selected topic absent from the log is reported at the end as well.
/// - **Time.** ReaderOptions::time: `Header` uses `header.stamp` (sec + nanosec·1e-9 s, as a
///   JSON header stamp), `Log` the time the recorder received the message (MCAP `log_time`,
///   `.db3` `timestamp`, ROS 1 record time). Message::stamp_ns keeps the exact integer.
/// - **Order.** A replay delivers messages in the order the tools of each format play them:
///   an MCAP file by log time (equal times in file order), whatever the order of its chunks;
///   a `.db3` by timestamp; a ROS 1 bag and an MCAP on a pipe in file order. When a selected
///   topic's log time goes back in the delivered order, that is reported once per topic at
///   the end, with the place and the count ("topic /joint_states: log time goes back 2 times,
///   first at byte 1198: message 4: from … to …").
/// - **Numbering and errors.** Messages are numbered 1, 2, … in the order they are delivered,
///   over all topics; Message::line and ReadError::line hold that number. An error names the
///   byte offset of the record (ReadError::byte_offset): "greeting.bag: byte 70312: message
///   812: chunk: ...". A truncated file ends the reading with one error after every message
///   before the damage; a chunk (MCAP, ROS 1) that the end of the file cuts gives the records
///   that are whole in it (compressed: those its data decodes to, block by block), as `mcap
///   recover` does, and the error says where the file ends and how many messages came out of
///   that chunk. A damaged MCAP chunk in a file is reported and left out, the other chunks go
///   on; read in file order (a pipe, a ROS 1 bag), it ends the reading.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rmodel/io/format.hpp"

namespace rmodel::io {

/// One topic of a log.
struct RMODEL_API LogTopic {
  std::string name;
  std::string type;           ///< as stored (`sensor_msgs/msg/JointState`, `sensor_msgs/JointState`)
  std::uint64_t messages = 0;
  std::int64_t first_ns = 0;  ///< log time of its first message, ns since the epoch
  std::int64_t last_ns = 0;   ///< log time of its last message
  /// Publishers the log records for this topic, as `rosbag info` counts them: ROS 1
  /// connections, MCAP channels (two nodes publishing `/joint_states` are one topic with 2
  /// connections, their messages summed). A `.db3` has one row per topic: 1. In a rosbag2
  /// directory, the most any of its files has (each file declares its channels anew).
  std::uint32_t connections = 1;
  /// Messages per second over the topic's own span ((messages − 1) / span; 0 with < 2 messages).
  [[nodiscard]] double rate_hz() const noexcept {
    if (messages < 2 || last_ns <= first_ns) return 0.0;
    return static_cast<double>(messages - 1) / (static_cast<double>(last_ns - first_ns) * 1e-9);
  }
};

/// What `rmodel log-info` shows: topics, types, counts, time span.
struct RMODEL_API LogInfo {
  std::string path;
  Format format;                  ///< a rosbag2 directory: the storage of its files (`mcap`, `db3`)
  /// e.g. MCAP profile and compression, ROS 1 chunk compression; for a rosbag2 directory its
  /// files first ("2 files: run_0.db3, run_1.db3; sqlite3")
  std::string detail;
  std::uint64_t messages = 0;     ///< all topics
  std::int64_t start_ns = 0;      ///< earliest log time
  std::int64_t end_ns = 0;        ///< latest log time
  /// One per topic name and type, in order of first message; topics without messages last
  /// (in the order the log declares them). A rosbag2 directory's files are merged: counts
  /// summed, first/last times the earliest/latest.
  std::vector<LogTopic> topics;
  std::vector<std::string> problems;  ///< damage found while scanning (the scan stops there)
};

/// Scans a log (MCAP, .db3 / rosbag2 directory, ROS 1 bag) without decoding messages.
/// Throws IoError when the path cannot be opened, InvalidArgument when it is not a ROS log.
[[nodiscard]] RMODEL_API LogInfo read_log_info(const std::string& path);

/// What a log carries of a robot's semantics (rmodel/model/semantics.hpp: the chains, groups and
/// joint order of the full pose) beside its URDF, each a `std_msgs/msg/String` on its own
/// topic (semantics_topic()), offered transient local as the URDF is.
enum class SemanticsText : std::uint8_t {
  /// A MoveIt SRDF on `/robot_description_semantic`, as MoveIt's move_group publishes it.
  srdf,
  /// rmodel's JSON semantics (share/rmodel/schema/semantics.schema.json) on
  /// `/rmodel/semantics`: what a `.cpf` or JSON model holds, chains and contacts included,
  /// which SRDF has no form for; on a topic of its own, so that no SRDF reader meets JSON.
  rmodel_json,
};

/// The topic of each kind of semantics text: `/robot_description_semantic`, `/rmodel/semantics`.
[[nodiscard]] constexpr std::string_view semantics_topic(SemanticsText text) noexcept {
  return text == SemanticsText::srdf ? std::string_view("/robot_description_semantic")
                                     : std::string_view("/rmodel/semantics");
}

/// The semantics a log recorded beside its URDF (RecordedModel::semantics).
struct RMODEL_API RecordedSemantics {
  std::string text;             ///< the message's `data`, unchanged
  SemanticsText format = SemanticsText::srdf;  ///< what the topic holds
  std::string topic;            ///< semantics_topic(format)
  std::string type;             ///< as stored: `std_msgs/msg/String` or `std_msgs/String`
  std::uint64_t message = 0;    ///< its number among the log's messages (1-based, all topics, replay order)
  std::int64_t log_time_ns = 0; ///< when the recorder received it
};

/// The robot model a log recorded: what robot_state_publisher publishes on
/// `/robot_description` (latched in ROS 1, transient local in ROS 2), the URDF text, and the
/// semantics beside it, when the log has them.
struct RMODEL_API RecordedModel {
  std::string urdf;             ///< the message's `data`, unchanged
  std::string topic;            ///< `/robot_description`
  std::string type;             ///< as stored: `std_msgs/msg/String` (ROS 2) or `std_msgs/String` (ROS 1)
  std::uint64_t message = 0;    ///< its number among the log's messages (1-based, all topics, replay order)
  std::int64_t log_time_ns = 0; ///< when the recorder received it
  /// The first message on `/rmodel/semantics`, else on `/robot_description_semantic` (rmodel's
  /// own, when a log has both: it holds what SRDF cannot); nullopt when the log has neither.
  std::optional<RecordedSemantics> semantics = std::nullopt;
};

/// The robot description a ROS log carries: the first message on the topic
/// `/robot_description` of type `std_msgs/msg/String` (MCAP, `.db3`, a rosbag2 directory) or
/// `std_msgs/String` (a ROS 1 bag), in replay order, with the first message (a String too) on
/// each semantics topic (semantics_topic()). A recorder receives them first (they are
/// latched), so the log is read only up to the URDF and to the first message of each
/// semantics topic the log declares (an MCAP file's channels, a `.db3`'s topics, the
/// connections a ROS 1 bag has declared so far); a log without a URDF is read to its end.
/// nullopt when the log has none, when it is damaged before one (the reader reports the
/// damage when the log is replayed), when `path` is not a ROS log (JSON Lines, CSV and YAML
/// logs carry no model), and for standard input ("-", which cannot be read twice).
/// @throws IoError when the path cannot be opened; ParseError (the log and the message
///         number) when a message is not a string.
[[nodiscard]] RMODEL_API std::optional<RecordedModel> robot_description(const std::string& path);

}  // namespace rmodel::io
