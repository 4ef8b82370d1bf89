// ROS 2 sqlite3 bags (rosbag2's storage before Iron): tables `topics(id, name, type,
// serialization_format, ...)` and `messages(id, topic_id, timestamp, data)`, read
// `ORDER BY timestamp, id` as rosbag2 does. A rosbag2 directory (metadata.yaml +
// `relative_file_paths`) is read file after file, each a .db3 or an .mcap.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <sqlite3.h>

#include "base/system_error_text.hpp"
#include "io/formats/format_table.hpp"
#include "io/ros/bag_source.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::io::detail {
namespace {

class SqliteSource final : public BagSource {
public:
  SqliteSource(const std::string& path, std::string name, BagOptions options)
      : BagSource(std::move(name), std::move(options)), path_(path) {
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
    if (rc != SQLITE_ROW) return stop(sqlite_error());
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
      return stop(damaged() ? sqlite_error()
                            : fmt::format("not a rosbag2 database (no topics table): {}", sqlite3_errmsg(db_)));
    int rc = 0;
    while ((rc = sqlite3_step(t)) == SQLITE_ROW) {
      const auto* name = reinterpret_cast<const char*>(sqlite3_column_text(t, 1));
      const auto* type = reinterpret_cast<const char*>(sqlite3_column_text(t, 2));
      ids_.emplace_back(sqlite3_column_int64(t, 0), add_topic(name ? name : "", type ? type : "", {}, false));
    }
    if (rc != SQLITE_DONE) {
      const std::string why = sqlite_error();
      sqlite3_finalize(t);
      return stop(why);
    }
    sqlite3_finalize(t);
    if (sqlite3_prepare_v2(db_, "SELECT topic_id, timestamp, data FROM messages ORDER BY timestamp, id", -1, &stmt_,
                           nullptr) != SQLITE_OK)
      return stop(damaged() ? sqlite_error()
                            : fmt::format("not a rosbag2 database (no messages table): {}", sqlite3_errmsg(db_)));
    set_profile("sqlite3");
    return Step::Message;
  }

  /// True when SQLite found the database damaged, or the file is shorter than its header says.
  bool damaged() {
    const int code = sqlite3_errcode(db_);
    return code == SQLITE_CORRUPT || code == SQLITE_NOTADB || truncation().has_value();
  }

  /// SQLite's words for what went wrong ("sqlite3: database disk image is malformed"), and when
  /// the file is shorter than its header says, by how much: a recording cut short.
  std::string sqlite_error() {
    std::string why = fmt::format("sqlite3: {}", sqlite3_errmsg(db_));
    if (const auto cut = truncation()) why += "; " + *cut;
    return why;
  }

  /// "the file is truncated: ..." when the database header (its first 100 bytes: page size at
  /// byte 16, big endian, 1 meaning 65536; the page count at byte 28, valid when the version
  /// at byte 92 equals the change counter at byte 24) says more bytes than the file holds.
  std::optional<std::string> truncation() const {
    std::ifstream in(path_, std::ios::binary);
    unsigned char h[100] = {};
    if (!in) return std::nullopt;
    if (!in.read(reinterpret_cast<char*>(h), sizeof h))
      return fmt::format("the file is truncated: {} bytes, less than SQLite's 100-byte header", in.gcount());
    const auto be = [&](std::size_t at, std::size_t n) {
      std::uint64_t v = 0;
      for (std::size_t i = 0; i < n; ++i) v = (v << 8) | h[at + i];
      return v;
    };
    std::uint64_t page = be(16, 2);
    if (page == 1) page = 65536;
    const std::uint64_t pages = be(28, 4);
    if (pages == 0 || be(92, 4) != be(24, 4)) return std::nullopt;
    std::error_code ec;
    const std::uint64_t size = std::filesystem::file_size(path_, ec);
    if (ec || size >= page * pages) return std::nullopt;
    return fmt::format("the file is truncated: its header says {} pages of {} bytes ({} bytes), the file has {}",
                       pages, page, page * pages, size);
  }

  std::string path_;
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

// SQLite opens databases by name.
std::unique_ptr<BagSource> open_sqlite(int /*fd*/, const std::string& path, const BagOptions& options) {
  return std::make_unique<SqliteSource>(path, path, options);
}

constexpr std::array<std::string_view, 1> kSqliteAliases = {"sqlite3"};
constexpr std::array<std::string_view, 1> kSqliteExtensions = {".db3"};

}  // namespace

// ROS 2's sqlite3 storage (rosbag2's default before Iron): a file, or the files of a rosbag2
// directory.
extern const FormatDescriptor sqlite_format = {
    .name = "db3",
    .aliases = kSqliteAliases,
    .extensions = kSqliteExtensions,
    .magic = std::string_view("SQLite format 3\0", 16),
    .rosbag2_storage = true,
    .open_log = open_sqlite,
    .pipe_refusal = "a ROS 2 .db3 cannot be read from a pipe (SQLite reads files only)",
};

class Rosbag2DirSource final : public BagSource {
public:
  Rosbag2DirSource(const std::string& dir, std::string name, BagOptions options)
      : BagSource(std::move(name), std::move(options)), dir_(dir), files_(bag_files(dir)), profiles_(files_.size()) {
    if (files_.empty()) throw IoError(dir + "/metadata.yaml", "no relative_file_paths: no bag files listed");
    describe();
  }
  ~Rosbag2DirSource() override {
    sub_.reset();
    if (fd_ >= 0) ::close(fd_);
  }
  Rosbag2DirSource(const Rosbag2DirSource&) = delete;
  Rosbag2DirSource& operator=(const Rosbag2DirSource&) = delete;

  /// The storage of its files, as rosbag2 names them (`NAME_0.mcap`, `NAME_0.db3`): each file is
  /// read by its suffix, so the first one's tells the directory's format.
  [[nodiscard]] Format storage() const { return format_of(storage_of(files_.front())); }

protected:
  [[nodiscard]] RosWire wire() const noexcept override { return sub_ ? sub_->wire() : RosWire::Cdr; }

  [[nodiscard]] bool declares_string_topic(std::string_view name) const override {
    return BagSource::declares_string_topic(name) || (sub_ && sub_->declares_string_topic(name));
  }

  Step read_raw(Raw& raw) override {
    for (;;) {
      if (!sub_) {
        if (next_file_ >= files_.size()) return Step::End;
        open_next();
      }
      const Step st = sub_->read_raw(raw);
      number_ = base_ + sub_->number_;
      if (st == Step::End) {
        close_file();
        continue;
      }
      if (st == Step::Error) {
        declare_topics();  // what the file declared before the damage still shows in log-info
        error_ = sub_->error_;
        error_.reason = fmt::format("{}: {}", current_, error_.reason);
        return st;
      }
      raw.topic = map_topic(raw.topic);
      if (!profile_taken_) take_profile();  // at a file's first message: not once warm
      return st;
    }
  }

private:
  /// The rosbag2 storage a file of the directory is, by its ending; sqlite3 for another ending
  /// (rosbag2's storage before Iron).
  static const FormatDescriptor& storage_of(const std::string& file) {
    const FormatDescriptor* f = descriptor_of(format_from_path(file));
    return f != nullptr && f->rosbag2_storage && f->open_log != nullptr ? *f : sqlite_format;
  }

  void open_next() {
    const std::string rel = files_[next_file_++];
    const std::string path = (std::filesystem::path(dir_) / rel).string();
    current_ = rel;
    BagOptions all;  // the sub-source selects nothing itself: this source does
    all.time = options_.time;
    const FormatDescriptor& storage = storage_of(rel);
    if (storage.pipe_refusal.empty()) {  // read from its descriptor (a log read by its path opens it itself)
      fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd_ < 0) throw IoError(path, rmodel::detail::system_error_text(errno));
    }
    sub_ = storage.open_log(fd_, path, all);
    map_.clear();
    profile_taken_ = false;
  }

  void close_file() {
    declare_topics();
    base_ = number_;
    sub_.reset();
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  /// Takes every topic the current file declares, also those without messages (rosbag2
  /// records `/parameter_events` and `/rosout` with none): the directory lists what its files
  /// list.
  void declare_topics() {
    for (std::size_t k = 0; k < sub_->topics_.size(); ++k) (void)map_topic(k);
    take_profile();
  }

  /// Adds the current file's detail (its sub-source's profile, known from its first message
  /// on) to the directory's.
  void take_profile() {
    profile_taken_ = true;
    std::string& mine = profiles_[next_file_ - 1];
    if (mine == sub_->profile_) return;  // unchanged (an MCAP's later chunks may add a compression)
    mine = sub_->profile_;
    describe();
  }

  /// "2 files: run_0.db3, run_1.db3; sqlite3": the files first, then what they are.
  void describe() {
    std::string d = fmt::format("{} file{}: ", files_.size(), files_.size() == 1 ? "" : "s");
    for (std::size_t k = 0; k < files_.size(); ++k) d += (k > 0 ? ", " : "") + files_[k];
    for (auto p = profiles_.begin(); p != profiles_.end(); ++p)
      if (!p->empty() && std::find(profiles_.begin(), p, *p) == p) d += "; " + *p;  // each once
    set_profile(std::move(d));
  }

  std::size_t map_topic(std::size_t sub_index) {
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    while (map_.size() <= sub_index) map_.push_back(kNone);
    std::size_t& m = map_[sub_index];
    if (m != kNone) return m;
    const std::vector<TopicState>& sub = sub_->topics_;
    const TopicState& t = sub[sub_index];
    // The n-th connection of a name and type in this file is the n-th of the directory: each
    // file declares its topics anew, so one publisher over two files stays one connection.
    std::size_t rank = 0;
    for (std::size_t j = 0; j < sub_index; ++j)
      if (sub[j].name == t.name && sub[j].type == t.type) ++rank;
    for (std::size_t k = 0; k < topics_.size() && m == kNone; ++k)
      if (topics_[k].name == t.name && topics_[k].type == t.type && rank-- == 0) m = k;
    if (m == kNone) {
      m = add_topic(t.name, t.type, {}, false);
      topics_[m].layout_ok = t.layout_ok;
      topics_[m].layout_problem = t.layout_problem;
    }
    return m;
  }

  std::string dir_;
  std::vector<std::string> files_;
  std::vector<std::string> profiles_;  ///< each file's own detail, once read
  std::size_t next_file_ = 0;
  std::string current_;
  int fd_ = -1;
  std::unique_ptr<BagSource> sub_;
  std::uint64_t base_ = 0;
  std::vector<std::size_t> map_;
  bool profile_taken_ = false;
};

std::unique_ptr<BagSource> make_rosbag2_dir_source(const std::string& dir, std::string name, BagOptions options,
                                                   Format& storage) {
  auto source = std::make_unique<Rosbag2DirSource>(dir, std::move(name), std::move(options));
  storage = source->storage();
  return source;
}

}  // namespace rmodel::io::detail
