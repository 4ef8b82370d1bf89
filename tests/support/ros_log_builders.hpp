#pragma once
// Robot logs built by the tests themselves, from the formats' specifications (not from rmodel's
// readers): a rosbag2 sqlite3 database through sqlite3, a ROS 1 bag 2.0 and an MCAP file byte
// by byte. Each lets a test choose what the ROS tools' own files hold (several connections or
// channels on one topic, topics without messages, files of a split rosbag2 directory) and
// know the truth because it wrote it.

#include <bit>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rmodel::test {

/// A row of a rosbag2 `topics` table.
struct Db3Topic {
  std::int64_t id = 0;
  std::string name;
  std::string type;  ///< ROS 2 spelling, `sensor_msgs/msg/JointState`
};

/// A row of a rosbag2 `messages` table.
struct Db3Message {
  std::int64_t topic_id = 0;
  std::int64_t timestamp_ns = 0;  ///< the recorder's receive time
  std::string data;               ///< CDR bytes (log-info does not decode them)
};

/// Writes a rosbag2 sqlite3 database with rosbag2's tables (Humble's SQL). Throws
/// std::runtime_error when sqlite3 fails.
void write_db3(const std::filesystem::path& path, const std::vector<Db3Topic>& topics,
               const std::vector<Db3Message>& messages);

/// Writes a rosbag2 directory's metadata.yaml (version 5, as rosbag2 writes it with yaml-cpp)
/// naming `files` in `relative_file_paths`; `storage` is `sqlite3` or `mcap`.
void write_rosbag2_metadata(const std::filesystem::path& dir, const std::string& storage,
                            const std::vector<std::string>& files);

/// A connection of a ROS 1 bag: one publisher of a topic.
struct Ros1Connection {
  std::uint32_t id = 0;
  std::string topic;
  std::string type;      ///< ROS 1 spelling, `sensor_msgs/JointState`
  std::string callerid;  ///< the publishing node
};

/// A message of a ROS 1 bag.
struct Ros1Message {
  std::uint32_t connection = 0;
  std::int64_t time_ns = 0;  ///< record time
  std::string data;          ///< ROS 1 serialization
};

/// A ROS 1 bag 2.0 laid out as `rosbag record` writes it: the bag header record padded to 4096
/// bytes, one uncompressed chunk (each connection record before its first message), index
/// data records per connection, then every connection record and the chunk info record.
/// Connections without messages appear only after the chunk, as in a bag whose publisher sent
/// nothing.
std::string ros1_bag(const std::vector<Ros1Connection>& connections, const std::vector<Ros1Message>& messages);

/// `sensor_msgs/JointState` in ROS 1 serialization (position only; velocity, effort empty).
std::string ros1_joint_state(std::uint32_t seq, std::uint32_t sec, std::uint32_t nsec,
                             const std::vector<std::string>& names, const std::vector<double>& positions);

/// An MCAP channel.
struct McapChannel {
  std::uint16_t id = 0;
  std::string topic;
  std::string type;  ///< its schema's name; one schema is written per distinct type
};

/// An MCAP message.
struct McapMessage {
  std::uint16_t channel = 0;
  std::uint64_t log_time_ns = 0;
  std::string data;
};

/// An MCAP file (profile `ros2`): header, schemas, channels, the messages outside chunks (the
/// specification allows it), data end, footer without a summary.
std::string mcap_with_channels(const std::vector<McapChannel>& channels, const std::vector<McapMessage>& messages);

/// Little-endian bytes as the MCAP records, CDR and ROS 1 bags lay them out.
struct LeBytes {
  std::string s;
  template <class T>
  void le(T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i) s += static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xFF);
  }
  void f64(double d) { le(std::bit_cast<std::uint64_t>(d)); }
  /// A uint32 length, then the bytes (MCAP strings).
  void str(std::string_view v) {
    le(static_cast<std::uint32_t>(v.size()));
    s += v;
  }
  /// An MCAP record: opcode, uint64 length, body.
  void record(std::uint8_t op, const std::string& body) {
    le(op);
    le(static_cast<std::uint64_t>(body.size()));
    s += body;
  }
};

/// The MCAP schema record (id 1: sensor_msgs/msg/JointState, ros2msg) and channel record (id 1
/// on /joint_states, cdr) that declare a joint-state topic.
std::string mcap_joint_state_declarations();

}  // namespace rmodel::test
