#include "ros_log_builders.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <bit>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string_view>

namespace rmodel::test {
namespace {

// Little-endian integers, as every one of these formats stores them.
template <class T>
void put_le(std::string& out, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i) out += static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xFF);
}

// ---- ROS 1 bag 2.0 (http://wiki.ros.org/Bags/Format/2.0) ----

/// A header field: `u32 length | name=value`.
void put_field(std::string& header, std::string_view name, std::string_view value) {
  put_le(header, static_cast<std::uint32_t>(name.size() + 1 + value.size()));
  header += name;
  header += '=';
  header += value;
}
template <class T>
void put_field_le(std::string& header, std::string_view name, T value) {
  std::string v;
  put_le(v, value);
  put_field(header, name, v);
}

/// A record: `u32 header length | header | u32 data length | data`.
std::string bag_record(const std::string& header, const std::string& data) {
  std::string r;
  put_le(r, static_cast<std::uint32_t>(header.size()));
  r += header;
  put_le(r, static_cast<std::uint32_t>(data.size()));
  r += data;
  return r;
}

std::string op(std::uint8_t code) { return std::string(1, static_cast<char>(code)); }

/// ROS 1 time: u32 seconds then u32 nanoseconds.
std::uint64_t ros1_time(std::int64_t ns) {
  const auto sec = static_cast<std::uint64_t>(ns / 1'000'000'000);
  const auto nsec = static_cast<std::uint64_t>(ns % 1'000'000'000);
  return sec | (nsec << 32);
}

std::string connection_record(const Ros1Connection& c) {
  std::string header;
  put_field(header, "op", op(0x07));
  put_field_le(header, "conn", c.id);
  put_field(header, "topic", c.topic);
  // The connection header rosbag stores (its fields in the order ros_comm writes them).
  std::string data;
  put_field(data, "callerid", c.callerid);
  put_field(data, "latching", "0");
  put_field(data, "md5sum", c.type == "sensor_msgs/JointState" ? "3066dcd76a6cfaef579bd0f34173e9fd" : "*");
  put_field(data, "message_definition",
            c.type == "sensor_msgs/JointState"
                ? "Header header\nstring[] name\nfloat64[] position\nfloat64[] velocity\nfloat64[] effort\n"
                  "\n================================================================================\n"
                  "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n"
                : "");
  put_field(data, "topic", c.topic);
  put_field(data, "type", c.type);
  return bag_record(header, data);
}

// ---- MCAP (https://mcap.dev/spec) ----

void put_str(std::string& out, std::string_view s) {
  put_le(out, static_cast<std::uint32_t>(s.size()));
  out += s;
}
void put_mcap_record(std::string& out, std::uint8_t code, const std::string& body) {
  put_le(out, code);
  put_le(out, static_cast<std::uint64_t>(body.size()));
  out += body;
}

}  // namespace

void write_db3(const std::filesystem::path& path, const std::vector<Db3Topic>& topics,
               const std::vector<Db3Message>& messages) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    sqlite3_close(db);
    throw std::runtime_error("sqlite3_open " + path.string());
  }
  const auto check = [&](int rc, const char* what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE) {
      const std::string why = sqlite3_errmsg(db);
      sqlite3_close(db);
      throw std::runtime_error(std::string(what) + ": " + why);
    }
  };
  // rosbag2_storage_default_plugins (Humble), sqlite_storage.cpp.
  check(sqlite3_exec(db,
                     "PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF;"
                     "CREATE TABLE schema(schema_version INTEGER PRIMARY KEY, ros_distro TEXT NOT NULL);"
                     "INSERT INTO schema VALUES (3, 'humble');"
                     "CREATE TABLE metadata(id INTEGER PRIMARY KEY, metadata_version INTEGER NOT NULL,"
                     " metadata TEXT NOT NULL);"
                     "CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL,"
                     " serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL);"
                     "CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL,"
                     " timestamp INTEGER NOT NULL, data BLOB NOT NULL);"
                     "CREATE INDEX timestamp_idx ON messages (timestamp ASC);",
                     nullptr, nullptr, nullptr),
        "schema");
  sqlite3_stmt* stmt = nullptr;
  check(sqlite3_prepare_v2(db, "INSERT INTO topics VALUES (?, ?, ?, 'cdr', '')", -1, &stmt, nullptr), "topics");
  for (const auto& t : topics) {
    sqlite3_bind_int64(stmt, 1, t.id);
    sqlite3_bind_text(stmt, 2, t.name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 3, t.type.c_str(), -1, SQLITE_TRANSIENT);
    check(sqlite3_step(stmt), "insert topic");
    sqlite3_reset(stmt);
  }
  sqlite3_finalize(stmt);
  check(sqlite3_prepare_v2(db, "INSERT INTO messages(topic_id, timestamp, data) VALUES (?, ?, ?)", -1, &stmt, nullptr),
        "messages");
  for (const auto& m : messages) {
    sqlite3_bind_int64(stmt, 1, m.topic_id);
    sqlite3_bind_int64(stmt, 2, m.timestamp_ns);
    sqlite3_bind_blob(stmt, 3, m.data.data(), static_cast<int>(m.data.size()), SQLITE_TRANSIENT);
    check(sqlite3_step(stmt), "insert message");
    sqlite3_reset(stmt);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
}

void write_rosbag2_metadata(const std::filesystem::path& dir, const std::string& storage,
                            const std::vector<std::string>& files) {
  std::ofstream out(dir / "metadata.yaml");
  out << "rosbag2_bagfile_information:\n  version: 5\n  storage_identifier: " << storage
      << "\n  compression_format: \"\"\n  compression_mode: \"\"\n  relative_file_paths:\n";
  for (const auto& f : files) out << "    - " << f << "\n";
  out << "  files:\n";
  for (const auto& f : files) out << "    - path: " << f << "\n";
  if (!out) throw std::runtime_error("cannot write " + (dir / "metadata.yaml").string());
}

std::string ros1_joint_state(std::uint32_t seq, std::uint32_t sec, std::uint32_t nsec,
                             const std::vector<std::string>& names, const std::vector<double>& positions) {
  std::string b;
  put_le(b, seq);
  put_le(b, sec);
  put_le(b, nsec);
  put_le(b, std::uint32_t{0});  // frame_id ""
  put_le(b, static_cast<std::uint32_t>(names.size()));
  for (const auto& n : names) {
    put_le(b, static_cast<std::uint32_t>(n.size()));
    b += n;
  }
  put_le(b, static_cast<std::uint32_t>(positions.size()));
  for (double p : positions) put_le(b, std::bit_cast<std::uint64_t>(p));
  put_le(b, std::uint32_t{0});  // velocity
  put_le(b, std::uint32_t{0});  // effort
  return b;
}

std::string ros1_bag(const std::vector<Ros1Connection>& connections, const std::vector<Ros1Message>& messages) {
  const auto conn = [&](std::uint32_t id) -> const Ros1Connection& {
    for (const auto& c : connections)
      if (c.id == id) return c;
    throw std::invalid_argument("ros1_bag: message on an undeclared connection");
  };
  // The chunk: each connection record before its first message.
  std::string chunk;
  std::vector<std::uint32_t> declared;
  std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, std::uint32_t>>> index;  // conn → (time, offset)
  std::int64_t start = 0, end = 0;
  for (const auto& m : messages) {
    if (std::find(declared.begin(), declared.end(), m.connection) == declared.end()) {
      declared.push_back(m.connection);
      chunk += connection_record(conn(m.connection));
    }
    if (index.empty() || m.time_ns < start) start = m.time_ns;
    if (index.empty() || m.time_ns > end) end = m.time_ns;
    index[m.connection].emplace_back(ros1_time(m.time_ns), static_cast<std::uint32_t>(chunk.size()));
    std::string header;
    put_field(header, "op", op(0x02));
    put_field_le(header, "conn", m.connection);
    put_field_le(header, "time", ros1_time(m.time_ns));
    chunk += bag_record(header, m.data);
  }

  std::string body;  // everything after the bag header record
  const std::uint64_t chunk_pos = 13 + 4096;
  if (!messages.empty()) {
    std::string header;
    put_field(header, "op", op(0x05));
    put_field(header, "compression", "none");
    put_field_le(header, "size", static_cast<std::uint32_t>(chunk.size()));
    body += bag_record(header, chunk);
    for (const auto& [id, entries] : index) {
      std::string ih, data;
      put_field(ih, "op", op(0x04));
      put_field_le(ih, "ver", std::uint32_t{1});
      put_field_le(ih, "conn", id);
      put_field_le(ih, "count", static_cast<std::uint32_t>(entries.size()));
      for (const auto& [time, offset] : entries) {
        put_le(data, time);
        put_le(data, offset);
      }
      body += bag_record(ih, data);
    }
  }
  const std::uint64_t index_pos = chunk_pos + body.size();
  for (const auto& c : connections) body += connection_record(c);
  if (!messages.empty()) {
    std::string header, data;
    put_field(header, "op", op(0x06));
    put_field_le(header, "ver", std::uint32_t{1});
    put_field_le(header, "chunk_pos", chunk_pos);
    put_field_le(header, "start_time", ros1_time(start));
    put_field_le(header, "end_time", ros1_time(end));
    put_field_le(header, "count", static_cast<std::uint32_t>(index.size()));
    for (const auto& [id, entries] : index) {
      put_le(data, id);
      put_le(data, static_cast<std::uint32_t>(entries.size()));
    }
    body += bag_record(header, data);
  }

  std::string header;
  put_field(header, "op", op(0x03));
  put_field_le(header, "index_pos", index_pos);
  put_field_le(header, "conn_count", static_cast<std::uint32_t>(connections.size()));
  put_field_le(header, "chunk_count", static_cast<std::uint32_t>(messages.empty() ? 0 : 1));
  // The bag header record fills 4096 bytes: its data is padding of spaces.
  const std::size_t padding = 4096 - 4 - header.size() - 4;
  std::string bag = "#ROSBAG V2.0\n" + bag_record(header, std::string(padding, ' '));
  return bag + body;
}

std::string mcap_with_channels(const std::vector<McapChannel>& channels, const std::vector<McapMessage>& messages) {
  std::string f("\x89MCAP0\r\n", 8);
  std::string h;
  put_str(h, "ros2");
  put_str(h, "rmodel tests");
  put_mcap_record(f, 0x01, h);
  std::vector<std::string> types;
  for (const auto& c : channels)
    if (std::find(types.begin(), types.end(), c.type) == types.end()) {
      types.push_back(c.type);
      std::string s;
      put_le(s, static_cast<std::uint16_t>(types.size()));
      put_str(s, c.type);
      put_str(s, "ros2msg");
      put_str(s, "");
      put_mcap_record(f, 0x03, s);
    }
  for (const auto& c : channels) {
    std::string s;
    put_le(s, c.id);
    const auto schema = std::find(types.begin(), types.end(), c.type) - types.begin() + 1;
    put_le(s, static_cast<std::uint16_t>(schema));
    put_str(s, c.topic);
    put_str(s, "cdr");
    put_le(s, std::uint32_t{0});  // metadata: empty map
    put_mcap_record(f, 0x04, s);
  }
  std::uint32_t sequence = 0;
  for (const auto& m : messages) {
    std::string s;
    put_le(s, m.channel);
    put_le(s, sequence++);
    put_le(s, m.log_time_ns);
    put_le(s, m.log_time_ns);  // publish time
    s += m.data;
    put_mcap_record(f, 0x05, s);
  }
  std::string data_end;
  put_le(data_end, std::uint32_t{0});  // data section CRC not computed
  put_mcap_record(f, 0x0F, data_end);
  std::string footer;
  put_le(footer, std::uint64_t{0});
  put_le(footer, std::uint64_t{0});
  put_le(footer, std::uint32_t{0});
  put_mcap_record(f, 0x02, footer);
  f += std::string("\x89MCAP0\r\n", 8);
  return f;
}

std::string mcap_joint_state_declarations() {
  LeBytes records, schema, channel;
  schema.le(std::uint16_t{1});
  schema.str("sensor_msgs/msg/JointState");
  schema.str("ros2msg");
  schema.str("std_msgs/Header header\nstring[] name\nfloat64[] position\nfloat64[] velocity\nfloat64[] effort\n");
  records.record(0x03, schema.s);
  channel.le(std::uint16_t{1});
  channel.le(std::uint16_t{1});
  channel.str("/joint_states");
  channel.str("cdr");
  channel.le(std::uint32_t{0});  // metadata: empty map
  records.record(0x04, channel.s);
  return records.s;
}

}  // namespace rmodel::test
