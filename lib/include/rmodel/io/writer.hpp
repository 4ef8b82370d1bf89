#pragma once
#include "rmodel/export.hpp"
/// @file io/writer.hpp
/// Writes joint-state messages as JSON Lines, wide CSV or MCAP, to a file, stdout, a file
/// descriptor, a std::ostream or a string.
///
/// - **Exact numbers.** Doubles are written in the shortest form that parses back to the
///   same double (`0.1`, `1e-300`, `-0`, `5e-324`, `1.7976931348623157e+308`), character for
///   character what fmt's `"{}"` writes (fmt's Dragonbox digits; fixed notation for decimal
///   exponents -4..15, else `1.5e+300`).
/// - **Repeated content is copied, not formatted again.** A full pose written after each
///   partial update repeats most values and all names: the writer remembers the text of
///   the last value at each array position (re-formatting only a double whose bits
///   changed) and the text of the last few name lists (reused when the names are equal,
///   compared by content every time, so a caller may change its vectors freely).
/// - **Exact times.** A time (integer nanoseconds, rmodel/base/time.hpp) is written as the
///   shortest decimal seconds that read back as the same nanoseconds (`1700000000.01`,
///   `0.000000001`, `12`; write_time()), in JSON `t` and the CSV time column alike; a ROS
///   header stamp is its {sec, nanosec} split (sec = floor, nanosec in [0, 10⁹)).
/// - **Non-finite numbers.** JSON: NaN, +Inf, −Inf are written as `null` (read back as
///   NaN). CSV: `nan`, `inf`, `-inf` (read back exactly).
/// - **JSON Lines.** One object per line, keys in this order: `t` (when Message::has_stamp),
///   `header.stamp` (StampLayout), `cycle` (when
///   set), then `name`, `position`, `velocity`, `effort` (a joint state; empty arrays are
///   left out) or `name`, `support`, `contact` (a support state; empty `contact` left out) or
///   `sync: true` (a tick). Names are escaped as JSON requires.
/// - **CSV.** Header `t`, `cycle` (only with WriterOptions::csv_cycle), then
///   `<joint>.<field>` for each joint in order and each selected field, then `support/<chain>`
///   per configured chain. Each joint state or support state is one row; cells of joints not
///   in the message are empty (so a partial message reads back as the same partial message;
///   names come back in header order). Sync ticks are not representable (WriteStatus::Skipped).
/// - **MCAP** (format `mcap`, or a `.mcap` path with auto). A ROS 2 log that Foxglove,
///   PlotJuggler and `ros2 bag play` open: profile `ros2`, one channel (WriterOptions::topic,
///   message encoding `cdr`) of `sensor_msgs/msg/JointState` (schema encoding `ros2msg`, the
///   standard definition with its dependencies), chunks of about
///   WriterOptions::mcap_chunk_size uncompressed bytes (WriterOptions::mcap_compression), a
///   message index per chunk, and a summary (schema, channel, statistics, chunk indexes,
///   summary offsets) with every CRC filled in. Written sequentially (stdout and pipes work).
///   Each joint state is one message: `header.stamp` is its time in nanoseconds, exactly;
///   the record's `log_time` and `publish_time` are that time too, except that they never go
///   back (a time earlier than the message before gets the previous log time; none or a
///   negative time gets 0, or the previous one), so MCAP players, which replay by log time,
///   replay the messages in the order they were written. `frame_id` is empty, the sequence
///   numbers count from 1. Positions, velocities and efforts are stored bit for bit (NaN,
///   infinities and −0 included), so MessageReader gives back the same joint states.
///   Support states, sync ticks and times outside the int32 seconds of a ROS 2 stamp
///   (before 1901, after 2038) are WriteStatus::Skipped. cycle is not
///   stored.
///   A robot's frames and model, as robot_state_publisher publishes them, go beside the joint
///   states on channels declared when first written: write_transforms() on `/tf` and
///   `/tf_static` (`tf2_msgs/msg/TFMessage`), write_robot_description() on
///   `/robot_description` (`std_msgs/msg/String`; `/tf_static` and `/robot_description`
///   offered transient local, as robot_state_publisher latches them), write_semantics() on
///   `/robot_description_semantic` (an SRDF, as MoveIt publishes it) or `/rmodel/semantics`
///   (rmodel's JSON semantics), transient local too. Their log time follows
///   the same rule as the joint states'. The file is complete only after close() (or destruction): the last chunk,
///   the summary and the footer are written then.
/// - **Buffering.** Output collects in a memory buffer that is written out when it exceeds
///   64 KiB, on flush(), after every message with WriterOptions::flush_each_message, and on
///   destruction. A streaming command calls flush() before each MessageReader::next() when
///   MessageReader::input_pending() is false.
///   MCAP: flush() writes out the chunks completed so far and keeps the open chunk open (a
///   streaming command flushes whenever its input waits, which would otherwise cut the log
///   into tiny chunks); with flush_each_message every message closes its chunk.
/// - **Errors.** Per-message problems are returned as WriteStatus; a failing write of the
///   operating system (disk full, closed pipe) throws rmodel::IoError from write() or flush().
///   The destructor flushes and swallows such errors: call flush() to see them.
/// - No allocation per message once the buffer and the caches have grown to the message
///   size.

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rmodel/io/bag.hpp"
#include "rmodel/io/format.hpp"
#include "rmodel/io/message.hpp"

namespace rmodel::io {

/// Fields of a joint written as CSV columns (bit mask).
enum CsvFields : unsigned {
  CsvAuto = 0,      ///< the non-empty fields of the first joint state written
  CsvPosition = 1,  ///< `<joint>.position`
  CsvVelocity = 2,  ///< `<joint>.velocity`
  CsvEffort = 4,    ///< `<joint>.effort`
};

/// Compression of MCAP chunks.
enum class ChunkCompression {
  None,  ///< records stored as they are (`compression` "")
  Lz4,   ///< an LZ4 frame per chunk (`lz4`)
  Zstd,  ///< a Zstandard frame per chunk (`zstd`, level 1)
};

/// Options of a MessageWriter.
struct RMODEL_API WriterOptions {
  /// Output format: auto (`Format{}`) = from the path's extension; JSON Lines (`jsonl`) for
  /// "-", unknown endings and the formats rmodel reads but does not write (FormatInfo::written).
  Format format;
  /// Stamp layout written besides `t` in JSON Lines.
  StampLayout stamp = StampLayout::None;
  /// Write out after every message (lowest latency, one system call per message).
  bool flush_each_message = false;
  /// CSV: the joints, in column order. Empty: the names of the first joint state written
  /// (support states written before it are then skipped).
  std::vector<std::string> csv_joints;
  /// CSV: fields per joint (CsvFields bits).
  unsigned csv_fields = CsvAuto;
  /// CSV: chains given `support/<chain>` columns (none: support states are skipped).
  std::vector<std::string> csv_support;
  /// CSV: add a `cycle` column after `t`.
  bool csv_cycle = false;
  /// MCAP: the topic of the joint states.
  std::string topic = "/joint_states";
  /// MCAP: chunk compression.
  ChunkCompression mcap_compression = ChunkCompression::Zstd;
  /// MCAP: a chunk is closed once its records reach this many uncompressed bytes (1 MiB).
  std::size_t mcap_chunk_size = std::size_t{1} << 20;
};

/// Result of MessageWriter::write().
enum class WriteStatus {
  Written,  ///< the whole message was written
  Partial,  ///< CSV: joints or chains not among the columns were left out
  Skipped,  ///< not representable in this format (a sync tick or, without support
            ///< columns, a support state in CSV; a support state, a sync tick or a time
            ///< beyond a ROS 2 stamp in MCAP); nothing was written
};

/// One frame relative to another (a `geometry_msgs/msg/TransformStamped` without its stamp):
/// the child frame's origin and axes in the parent frame.
struct RMODEL_API FrameTransform {
  std::string parent;                            ///< `header.frame_id`: a link
  std::string child;                             ///< `child_frame_id`: a link below it
  std::array<double, 3> translation{};           ///< the child's origin in the parent frame (m)
  std::array<double, 4> rotation{0, 0, 0, 1};    ///< unit quaternion x, y, z, w: child axes in the parent frame
};

/// Writes messages. Move-only.
class RMODEL_API MessageWriter {
public:
  /// Writes a file (an io::OutputFile: aside, put in place whole), or stdout for "-". The file
  /// appears, or replaces the one of its name (through a symbolic link: the link's target),
  /// at close() or when the writer is destroyed, not when it is destroyed by an exception: a
  /// failed run leaves it as it was (absent when it was absent). A device or a pipe is
  /// written directly. Throws WriteError when the file cannot be created.
  [[nodiscard]] static MessageWriter open(const std::string& path, WriterOptions options = {});

  /// Writes to a file descriptor; closes it on destruction when `owns_fd`.
  MessageWriter(int fd, std::string target_name, WriterOptions options = {}, bool owns_fd = false);
  /// Writes to a stream (kept by reference; it must outlive the writer).
  MessageWriter(std::ostream& out, std::string target_name, WriterOptions options = {});
  /// Appends to a string (kept by reference; it must outlive the writer). Every message is
  /// appended immediately (no flush needed).
  MessageWriter(std::string& out, WriterOptions options = {});

  MessageWriter(MessageWriter&&) noexcept;
  MessageWriter& operator=(MessageWriter&&) noexcept;
  ~MessageWriter();

  /// Writes one message (its kind, time, cycle; line and item are not written).
  WriteStatus write(const Message& message);
  /// Writes a joint state with its stamp, and a cycle number when given.
  WriteStatus write(const JointState& state, std::optional<std::int64_t> cycle = std::nullopt);
  /// Writes a support state with its stamp, and a cycle number when given.
  WriteStatus write(const SupportState& state, std::optional<std::int64_t> cycle = std::nullopt);
  /// Writes a sync tick at `stamp`, with a cycle number when given.
  WriteStatus write_sync(Time stamp, std::optional<std::int64_t> cycle = std::nullopt);
  /// MCAP: writes `transforms` as one `tf2_msgs/msg/TFMessage`, each stamped `stamp`, on
  /// `/tf` (`fixed`: on `/tf_static`, for transforms that never change). Other formats, and a
  /// stamp beyond a ROS 2 stamp: WriteStatus::Skipped. Allocates nothing once warm.
  WriteStatus write_transforms(std::span<const FrameTransform> transforms, Time stamp, bool fixed = false);
  /// MCAP: writes `urdf` as a `std_msgs/msg/String` on `/robot_description`, logged at
  /// `stamp`. Other formats: WriteStatus::Skipped.
  WriteStatus write_robot_description(std::string_view urdf, Time stamp);
  /// MCAP: writes a robot's semantics `text` (an SRDF, or rmodel's JSON semantics) as a
  /// `std_msgs/msg/String` on semantics_topic(kind) (rmodel/io/bag.hpp), logged at `stamp`.
  /// Other formats: WriteStatus::Skipped.
  WriteStatus write_semantics(std::string_view text, SemanticsText kind, Time stamp);

  /// Writes out everything buffered (MCAP: the completed chunks). Throws IoError when the
  /// system write fails.
  void flush();

  /// Ends the output and writes it out: MCAP writes its last chunk, the summary and the
  /// footer; the other formats flush. Throws IoError when the system write fails. Writing
  /// after close() throws InvalidArgument; close() again does nothing. The destructor
  /// closes too, but swallows errors: call close() to see them.
  void close();

  /// The format in use: one that is written (FormatInfo::written: `jsonl`, `csv`, `mcap`).
  [[nodiscard]] Format format() const noexcept;

  class Impl;

private:
  std::unique_ptr<Impl> impl_;
};

/// Appends one JSON Lines message (with its trailing '\n') to `out`; the format of
/// MessageWriter. `out` keeps its capacity, so a reused string does not reallocate.
RMODEL_API void append_json_line(std::string& out, const Message& message,
                      StampLayout stamp = StampLayout::None);

/// Appends the shortest decimal form of `value` that parses back to the same double
/// (`nan`, `inf`, `-inf` for non-finite values).
RMODEL_API void append_double(std::string& out, double value);

}  // namespace rmodel::io
