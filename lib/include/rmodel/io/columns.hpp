#pragma once
#include "rmodel/export.hpp"
/// @file io/columns.hpp
/// Joint states as columns: one row per message, one column per joint, NaN where a message
/// did not set a joint. What a notebook wants from a log (rmodel.read_log in Python builds
/// its numpy arrays here, in the very memory it hands to numpy).
///
/// - ColumnTable collects rows from any source: the streaming pipeline (a stage adds each
///   mapped joint state) or read_json_lines_columns() below.
/// - read_json_lines_columns() reads a JSON Lines log of plain joint states straight into a
///   ColumnTable on every core, without building a Message per line. It takes only what it
///   can read exactly as MessageReader and stream::SlotMapper would and declines the rest
///   (nullopt): the caller then reads the log through the pipeline, which reports what is
///   wrong. So its result, when there is one, is the pipeline's, byte for byte
///   (docs/design.md, "Logs into columns").

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "rmodel/base/joint_state.hpp"
#include "rmodel/base/time.hpp"

namespace rmodel::io {

/// A growable array that can be handed over (release()) to a program that frees it later
/// with ColumnArray::free(), such as a numpy array's owner. Large arrays are mapped from the
/// kernel directly, in huge pages where the kernel allows them, and grow by remapping their
/// pages (neither copied nor touched again): the rows of a large log otherwise spent more time
/// faulting in and copying 4 KiB pages than parsing (docs/design.md, "Logs into columns").
/// Move-only.
template <class T>
class ColumnArray {
public:
  ColumnArray() = default;
  ColumnArray(const ColumnArray&) = delete;
  ColumnArray& operator=(const ColumnArray&) = delete;
  ColumnArray(ColumnArray&& other) noexcept { swap(other); }
  ColumnArray& operator=(ColumnArray&& other) noexcept {
    ColumnArray(std::move(other)).swap(*this);
    return *this;
  }
  ~ColumnArray() { free(data_); }

  [[nodiscard]] T* data() noexcept { return data_; }
  [[nodiscard]] const T* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  /// Room for n elements without moving.
  void reserve(std::size_t n) {
    if (n > capacity_) reallocate(n);
  }
  /// Grows (or shrinks) to n elements; new elements are uninitialised.
  void resize(std::size_t n) {
    if (n > capacity_) reallocate(std::max({n, capacity_ * 2, std::size_t{1024}}));
    size_ = n;
  }
  void push_back(T value) {
    if (size_ == capacity_) reallocate(std::max(capacity_ * 2, std::size_t{1024}));
    data_[size_++] = value;
  }
  /// Hands the elements over (nullptr when empty): the caller frees them with free(). The
  /// array is empty afterwards.
  [[nodiscard]] T* release() noexcept {
    if (size_ == 0) return nullptr;
    T* out = data_;
    data_ = nullptr;
    size_ = capacity_ = 0;
    return out;
  }
  /// Frees what release() handed over (nothing for nullptr).
  static void free(void* data) noexcept;
  void swap(ColumnArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

private:
  void reallocate(std::size_t capacity);
  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

extern template class RMODEL_API ColumnArray<double>;
extern template class RMODEL_API ColumnArray<std::int64_t>;
extern template class RMODEL_API ColumnArray<std::uint8_t>;

/// The three joint fields a row may carry.
enum class JointField : int { position = 0, velocity = 1, effort = 2 };
inline constexpr int kJointFields = 3;

/// Rows of joint values: per row its time, whether the message had one, its line (or message
/// number) and its cycle (-1: none); per field, `rows() × stride()` values, NaN but for the
/// columns the row set. A field no row carried holds no memory at all (present() is false).
/// Columns are slots (stream::SlotMapper); an open mapper adds some as a log goes on, so a
/// row holds stride() of them, doubled when a new slot does not fit; finish() compacts the
/// rows to the final number of columns.
class RMODEL_API ColumnTable {
public:
  /// Appends a row of `columns` known slots (all NaN); its values are set with row().
  void add_row(Time stamp, bool stamped, std::int64_t line, std::int64_t cycle, std::size_t columns);
  /// The values of the last row in field `f` (stride() of them, NaN unless set), the field
  /// made present when no row had carried it.
  [[nodiscard]] double* row(JointField f);
  /// add_row() and the values of `state`: element i goes to column `slots[i]` (skipped when
  /// negative); an empty field is not carried.
  void add(Time stamp, bool stamped, std::int64_t line, std::int64_t cycle, std::span<const std::int32_t> slots,
           std::size_t columns, const JointState& state);
  /// Appends the rows of `other`, whose column c is this table's column `column_of[c]`, its
  /// lines moved by `line_offset` (rows read from the middle of a file). Columns this table
  /// has and `other` does not are NaN in its rows.
  void append(ColumnTable&& other, std::span<const std::int32_t> column_of, std::int64_t line_offset,
              std::size_t columns);
  /// Rows of exactly `columns` values from now on (the number of names).
  void finish(std::size_t columns);
  /// Room for `rows` rows in all (of the present stride; fields are given it when they become
  /// present), so that adding them does not move memory.
  void reserve(std::size_t rows);

  // --- For writers that fill rows in place, several at once (each its own rows).
  /// `rows` rows of `columns` columns, every field present, all uninitialised.
  void resize_uninitialised(std::size_t rows, std::size_t columns);
  /// Field `f` no longer present (no row carried it).
  void drop(JointField f) noexcept;
  /// Moves rows [from, from + count) to row `to` (to <= from), in every array.
  void move_rows(std::size_t from, std::size_t count, std::size_t to) noexcept;
  /// Keeps the first `rows` rows.
  void truncate(std::size_t rows);

  [[nodiscard]] std::size_t rows() const noexcept { return rows_; }
  [[nodiscard]] std::size_t stride() const noexcept { return stride_; }
  [[nodiscard]] bool present(JointField f) const noexcept { return present_[static_cast<int>(f)]; }

  ColumnArray<std::int64_t> t;       ///< nanoseconds (Time::ns), 0 when not stamped
  ColumnArray<std::uint8_t> stamped; ///< 1 when the message had a time
  ColumnArray<std::int64_t> line;    ///< 1-based line, or message number of a binary log
  ColumnArray<std::int64_t> cycle;   ///< the message's cycle, -1 when it had none
  /// rows() × stride() values per field, while present().
  [[nodiscard]] ColumnArray<double>& values(JointField f) noexcept { return values_[static_cast<int>(f)]; }

private:
  /// apply(array, values per row) for each array of the table (the fields present).
  template <class Apply>
  void each_array(Apply&& apply);
  void make_present(int f);
  void relayout(std::size_t stride);
  std::size_t rows_ = 0;
  std::size_t reserved_ = 0;
  std::size_t stride_ = 0;
  bool present_[kJointFields] = {false, false, false};
  ColumnArray<double> values_[kJointFields];
};

/// A log read into columns: `names[c]` is column c.
struct RMODEL_API JointColumns {
  std::vector<std::string> names;
  ColumnTable table;  ///< finished: stride() == names.size()
};

/// Reads the JSON Lines log at `path` into columns, cut into `threads` parts read at once (0:
/// one per core, for logs of some megabytes), when every line is a plain joint state: an object with a number `t`, a `name` array
/// of strings without escapes and `position`, `velocity` or `effort` arrays of numbers, each
/// as long as `name` or empty, and no other key. Columns are `known`'s names when given (a
/// model's full pose; every name must be one of them), else the names in the order the log
/// first names them. Returns nullopt, having changed nothing, when the log is anything else:
/// missing or not a regular file (a named pipe is not opened), not JSON Lines (its extension `.jsonl`/`.ndjson`, or `format_is_json_lines`),
/// empty, or a line the pipeline would treat otherwise or report a problem with (another
/// key, a header stamp, `null`, an unknown or repeated joint, arrays of other sizes, a
/// syntax error, a byte order mark). Throws IoError when a regular file cannot be opened.
[[nodiscard]] RMODEL_API std::optional<JointColumns> read_json_lines_columns(
    const std::string& path, const std::vector<std::string>* known, bool format_is_json_lines = false,
    unsigned threads = 0);

}  // namespace rmodel::io
