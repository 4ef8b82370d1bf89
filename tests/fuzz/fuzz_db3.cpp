// Fuzz target: ROS 2 sqlite3 bags (see log_file_target.hpp). Fuzzing the database file's
// bytes would mostly exercise sqlite3's own page checks, so the input describes a rosbag2
// database instead and the target builds it with sqlite3: the input is split at "\n====\n";
// the first part is the topic's type, each further part one message (CDR bytes) at
// timestamps 1, 2, 3... A first part starting with '!' leaves the topics table empty, so
// that messages of an unknown topic are reached as well.
#include <sqlite3.h>

#include "log_file_target.hpp"

namespace {

void build_bag(const std::string& path, std::string_view input) {
  std::vector<std::string_view> parts;
  constexpr std::string_view separator = "\n====\n";
  for (std::size_t start = 0;;) {
    const std::size_t end = input.find(separator, start);
    parts.push_back(input.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + separator.size();
  }
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) rmodel::fuzz::fail("sqlite3_open", path);
  const char* schema =
      "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
      "CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL,"
      " serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL);"
      "CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL,"
      " timestamp INTEGER NOT NULL, data BLOB NOT NULL);";
  if (sqlite3_exec(db, schema, nullptr, nullptr, nullptr) != SQLITE_OK) rmodel::fuzz::fail("schema", sqlite3_errmsg(db));
  sqlite3_stmt* stmt = nullptr;
  if (parts[0].empty() || parts[0][0] != '!') {
    sqlite3_prepare_v2(db, "INSERT INTO topics VALUES (1, '/joint_states', ?, 'cdr', '')", -1, &stmt, nullptr);
    sqlite3_bind_text(stmt, 1, parts[0].data(), static_cast<int>(parts[0].size()), SQLITE_STATIC);
    sqlite3_step(stmt);
    sqlite3_finalize(stmt);
  }
  sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
  sqlite3_prepare_v2(db, "INSERT INTO messages(topic_id, timestamp, data) VALUES (1, ?, ?)", -1, &stmt, nullptr);
  for (std::size_t i = 1; i < parts.size(); ++i) {
    sqlite3_bind_int64(stmt, 1, static_cast<sqlite3_int64>(i));
    sqlite3_bind_blob(stmt, 2, parts[i].data(), static_cast<int>(parts[i].size()), SQLITE_STATIC);
    sqlite3_step(stmt);
    sqlite3_reset(stmt);
  }
  sqlite3_finalize(stmt);
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_close(db);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static rmodel::fuzz::ScratchFile file(".db3");
  const std::string& path = file.write({});
  build_bag(path, rmodel::fuzz::as_text(data, size));
  rmodel::fuzz::read_log_to_end(path, rmodel::io::parse_format("db3"));
  return 0;
}
