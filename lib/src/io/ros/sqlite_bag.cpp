// ROS 2 sqlite3 bags (rosbag2's storage before Iron): tables `topics(id, name, type,
// serialization_format, ...)` and `messages(id, topic_id, timestamp, data)`, read
// `ORDER BY timestamp, id` as rosbag2 does. A rosbag2 directory (metadata.yaml +
// `relative_file_paths`) is read file after file, each a .db3 or an .mcap.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <sqlite3.h>

#include "io/ros/bag_source.hpp"
#include "rmodel/error.hpp"

namespace rmodel::io::detail {
namespace {

class SqliteSource final : public BagSource {
public:
  SqliteSource(const std::string& path, std::string name, BagOptions options)
      : BagSource(std::move(name), std::move(options)) {
    // Read-only, and without creating journal files next to a bag that may sit on a read-only disk.
    const std::string uri = "file:" + path + "?mode=ro&immutable=1";
    if (sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
      const std::string why = db_ != nullptr ? sqlite3_errmsg(db_) : "cannot open";
      sqlite3_close(db_);
      db_ = nullptr;
      throw IoError(path, "sqlite3: " + why);
    }
  }
  ~SqliteSource() override {
    sqlite3_finalize(stmt_);
    sqlite3_close(db_);
  }
  SqliteSource(const SqliteSource&) = delete;
  SqliteSource& operator=(const SqliteSource&) = delete;

protected:
  [[nodiscard]] std::string format_name() const override { return "db3"; }

  Step read_raw(Raw& raw) override {
    if (stopped_) return Step::End;
    if (stmt_ == nullptr) {
      const Step st = start();
      if (st != Step::Message) return st;
    }
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_DONE) {
      stopped_ = true;
      return Step::End;
    }
    ++number_;
    if (rc != SQLITE_ROW) return stop(fmt::format("sqlite3: {}", sqlite3_errmsg(db_)));
    const std::int64_t topic_id = sqlite3_column_int64(stmt_, 0);
    raw.log_time_ns = sqlite3_column_int64(stmt_, 1);
    const void* blob = sqlite3_column_blob(stmt_, 2);
    const int n = sqlite3_column_bytes(stmt_, 2);
    raw.data = std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(blob), blob ? static_cast<std::size_t>(n) : 0);
    raw.offset.reset();
    const auto it = std::find_if(ids_.begin(), ids_.end(), [&](const auto& p) { return p.first == topic_id; });
    if (it == ids_.end()) {
      error_.line = static_cast<std::size_t>(number_);
      return fail(std::nullopt, fmt::format("message of unknown topic id {}", topic_id));
    }
    raw.topic = it->second;
    return Step::Message;
  }

private:
  Step stop(std::string why) {
    stopped_ = true;
    return fail(std::nullopt, std::move(why));
  }

  Step start() {
    sqlite3_stmt* t = nullptr;
    if (sqlite3_prepare_v2(db_, "SELECT id, name, type FROM topics ORDER BY id", -1, &t, nullptr) != SQLITE_OK)
      return stop(fmt::format("not a rosbag2 database (no topics table): {}", sqlite3_errmsg(db_)));
    int rc = 0;
    while ((rc = sqlite3_step(t)) == SQLITE_ROW) {
      const auto* name = reinterpret_cast<const char*>(sqlite3_column_text(t, 1));
      const auto* type = reinterpret_cast<const char*>(sqlite3_column_text(t, 2));
      ids_.emplace_back(sqlite3_column_int64(t, 0), add_topic(name ? name : "", type ? type : "", {}, false));
    }
    sqlite3_finalize(t);
    if (rc != SQLITE_DONE) return stop(fmt::format("sqlite3: {}", sqlite3_errmsg(db_)));
    if (sqlite3_prepare_v2(db_, "SELECT topic_id, timestamp, data FROM messages ORDER BY timestamp, id", -1, &stmt_,
                           nullptr) != SQLITE_OK)
      return stop(fmt::format("not a rosbag2 database (no messages table): {}", sqlite3_errmsg(db_)));
    set_profile("sqlite3");
    return Step::Message;
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
  bool stopped_ = false;
  std::vector<std::pair<std::int64_t, std::size_t>> ids_;
};

/// The `relative_file_paths` of a rosbag2 metadata.yaml (a YAML block list of plain or quoted
/// scalars, as rosbag2 / yaml-cpp write it).
std::vector<std::string> bag_files(const std::string& dir) {
  std::ifstream in(std::filesystem::path(dir) / "metadata.yaml");
  if (!in) throw IoError(dir + "/metadata.yaml", "cannot open");
  std::vector<std::string> files;
  std::string line;
  bool in_list = false;
  std::size_t indent = 0;
  while (std::getline(in, line)) {
    const std::size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    std::string_view v(line);
    v.remove_prefix(first);
    if (v.rfind("relative_file_paths:", 0) == 0) {
      in_list = true;
      indent = first;
      continue;
    }
    if (!in_list) continue;
    if (first < indent || (first == indent && v.rfind("- ", 0) != 0)) break;
    if (v.rfind("- ", 0) != 0) break;
    v.remove_prefix(2);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\r')) v.remove_suffix(1);
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
    files.emplace_back(v);
  }
  return files;
}

}  // namespace

class Rosbag2DirSource final : public BagSource {
public:
  Rosbag2DirSource(const std::string& dir, std::string name, BagOptions options)
      : BagSource(std::move(name), std::move(options)), dir_(dir), files_(bag_files(dir)) {
    if (files_.empty()) throw IoError(dir + "/metadata.yaml", "no relative_file_paths: no bag files listed");
  }
  ~Rosbag2DirSource() override {
    sub_.reset();
    if (fd_ >= 0) ::close(fd_);
  }
  Rosbag2DirSource(const Rosbag2DirSource&) = delete;
  Rosbag2DirSource& operator=(const Rosbag2DirSource&) = delete;

protected:
  [[nodiscard]] std::string format_name() const override { return "db3"; }

  Step read_raw(Raw& raw) override {
    for (;;) {
      if (!sub_) {
        if (next_file_ >= files_.size()) return Step::End;
        open_next();
      }
      const Step st = sub_->read_raw(raw);
      number_ = base_ + sub_->number_;
      if (st == Step::End) {
        base_ = number_;
        sub_.reset();
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
        continue;
      }
      if (st == Step::Error) {
        error_ = sub_->error_;
        error_.reason = fmt::format("{}: {}", current_, error_.reason);
        return st;
      }
      raw.topic = map_topic(raw.topic);
      return st;
    }
  }

private:
  void open_next() {
    const std::string rel = files_[next_file_++];
    const std::string path = (std::filesystem::path(dir_) / rel).string();
    current_ = rel;
    BagOptions all;  // the sub-source selects nothing itself: this source does
    all.time = options_.time;
    if (path.size() >= 5 && path.substr(path.size() - 5) == ".mcap") {
      fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd_ < 0) throw IoError(path, "cannot open");
      sub_ = make_mcap_source(fd_, path, all);
    } else {
      sub_ = make_sqlite_source(path, path, all);
    }
    map_.clear();
  }

  std::size_t map_topic(std::size_t sub_index) {
    while (map_.size() <= sub_index) map_.push_back(static_cast<std::size_t>(-1));
    std::size_t& m = map_[sub_index];
    if (m == static_cast<std::size_t>(-1)) {
      const TopicState& t = sub_->topics_[sub_index];
      for (std::size_t k = 0; k < topics_.size(); ++k)
        if (topics_[k].name == t.name && topics_[k].type == t.type) m = k;
      if (m == static_cast<std::size_t>(-1)) {
        m = add_topic(t.name, t.type, {}, false);
        topics_[m].layout_ok = t.layout_ok;
        topics_[m].layout_problem = t.layout_problem;
      }
    }
    return m;
  }

  std::string dir_;
  std::vector<std::string> files_;
  std::size_t next_file_ = 0;
  std::string current_;
  int fd_ = -1;
  std::unique_ptr<BagSource> sub_;
  std::uint64_t base_ = 0;
  std::vector<std::size_t> map_;
};

std::unique_ptr<BagSource> make_sqlite_source(const std::string& path, std::string name, BagOptions options) {
  return std::make_unique<SqliteSource>(path, std::move(name), std::move(options));
}

std::unique_ptr<BagSource> make_rosbag2_dir_source(const std::string& dir, std::string name, BagOptions options) {
  return std::make_unique<Rosbag2DirSource>(dir, std::move(name), std::move(options));
}

}  // namespace rmodel::io::detail
