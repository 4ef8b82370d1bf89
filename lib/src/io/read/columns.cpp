// ColumnTable and the array it is made of (rmodel/io/columns.hpp).
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

#include "rmodel/io/columns.hpp"

namespace rmodel::io {

namespace {

constexpr double kColumnNaN = std::numeric_limits<double>::quiet_NaN();

// Every block starts with this header (kHeaderBytes, so that the elements are aligned for any
// type): how many bytes were mapped, 0 for a block from malloc.
struct BlockHeader {
  std::size_t mapped;
};
constexpr std::size_t kHeaderBytes = 64;

// From this size on a block is mapped from the kernel, at a 2 MiB boundary, with the advice to
// use huge pages: glibc would serve it from its heap once it has freed a block as large (its
// mmap threshold moves up to 32 MiB), where realloc copies and where huge pages never come
// (Debian's kernels give them only to memory advised so, "madvise" mode). With 4 KiB pages,
// faulting the rows of a large log in, and copying them as they grew, took half the CPU time
// of rmodel.read_log (perf).
constexpr std::size_t kMappedBlock = std::size_t{4} << 20;
constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t round_up(std::size_t n, std::size_t to) noexcept { return (n + to - 1) / to * to; }

/// A new mapping of `bytes` (a multiple of kHugePage) at a kHugePage boundary.
void* map_block(std::size_t bytes) {
  void* p = ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const auto begin = round_up(at, kHugePage);
  if (begin > at) ::munmap(p, begin - at);  // the unaligned head and the tail beyond `bytes`
  if (const std::size_t tail = at + bytes + kHugePage - (begin + bytes); tail > 0)
    ::munmap(reinterpret_cast<void*>(begin + bytes), tail);
#ifdef MADV_HUGEPAGE
  (void)::madvise(reinterpret_cast<void*>(begin), bytes, MADV_HUGEPAGE);  // advice: may be ignored
#endif
  return reinterpret_cast<void*>(begin);
}

BlockHeader* header_of(void* data) noexcept {
  return reinterpret_cast<BlockHeader*>(static_cast<char*>(data) - kHeaderBytes);
}

/// A block of at least `bytes` (header included) holding the first `keep` bytes of `data`'s
/// elements (data may be null); `data`'s block is given back or reused.
void* reallocate_block(void* data, std::size_t keep, std::size_t bytes) {
  BlockHeader* old = data ? header_of(data) : nullptr;
  if (bytes < kMappedBlock && (!old || old->mapped == 0)) {
    void* p = std::realloc(old, bytes);
    if (p == nullptr) throw std::bad_alloc();
    static_cast<BlockHeader*>(p)->mapped = 0;
    return static_cast<char*>(p) + kHeaderBytes;
  }
  bytes = round_up(bytes, kHugePage);
  void* block = nullptr;
  if (old && old->mapped != 0) {
    block = ::mremap(old, old->mapped, bytes, MREMAP_MAYMOVE);  // pages move, nothing copied
    if (block == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    (void)::madvise(block, bytes, MADV_HUGEPAGE);
#endif
  } else {
    block = map_block(bytes);
    if (old) {
      std::memcpy(static_cast<char*>(block) + kHeaderBytes, data, keep);
      std::free(old);
    }
  }
  static_cast<BlockHeader*>(block)->mapped = bytes;
  return static_cast<char*>(block) + kHeaderBytes;
}

}  // namespace

template <class T>
void ColumnArray<T>::reallocate(std::size_t capacity) {
  data_ = static_cast<T*>(reallocate_block(data_, size_ * sizeof(T), kHeaderBytes + capacity * sizeof(T)));
  capacity_ = capacity;
}

template <class T>
void ColumnArray<T>::free(void* data) noexcept {
  if (data == nullptr) return;
  BlockHeader* block = header_of(data);
  if (block->mapped != 0) ::munmap(block, block->mapped);
  else std::free(block);
}

template class ColumnArray<double>;
template class ColumnArray<std::int64_t>;
template class ColumnArray<std::uint8_t>;

void ColumnTable::add_row(Time stamp, bool is_stamped, std::int64_t line_number, std::int64_t cycle_number,
                          std::size_t columns) {
  if (columns > stride_) relayout(std::max({columns, stride_ * 2, std::size_t{8}}));
  t.push_back(stamp.ns);
  stamped.push_back(is_stamped ? 1 : 0);
  line.push_back(line_number);
  cycle.push_back(cycle_number);
  ++rows_;
  for (int f = 0; f < kJointFields; ++f) {
    if (!present_[f]) continue;
    ColumnArray<double>& field = values_[f];
    field.resize(rows_ * stride_);
    std::fill_n(field.data() + (rows_ - 1) * stride_, stride_, kColumnNaN);
  }
}

double* ColumnTable::row(JointField field) {
  const int f = static_cast<int>(field);
  if (!present_[f]) make_present(f);
  return values_[f].data() + (rows_ - 1) * stride_;
}

void ColumnTable::add(Time stamp, bool is_stamped, std::int64_t line_number, std::int64_t cycle_number,
                      std::span<const std::int32_t> slots, std::size_t columns, const JointState& state) {
  add_row(stamp, is_stamped, line_number, cycle_number, columns);
  const std::vector<double>* fields[kJointFields] = {&state.position, &state.velocity, &state.effort};
  for (int f = 0; f < kJointFields; ++f) {
    const std::vector<double>& values = *fields[f];
    if (values.empty()) continue;
    double* to = row(static_cast<JointField>(f));
    const std::size_t n = std::min(values.size(), slots.size());
    for (std::size_t i = 0; i < n; ++i)
      if (slots[i] >= 0) to[slots[i]] = values[i];
  }
}

template <class Apply>
void ColumnTable::each_array(Apply&& apply) {
  apply(t, 1);
  apply(stamped, 1);
  apply(line, 1);
  apply(cycle, 1);
  for (int f = 0; f < kJointFields; ++f)
    if (present_[f]) apply(values_[f], stride_);
}

void ColumnTable::reserve(std::size_t rows) {
  reserved_ = rows;
  each_array([&](auto& array, std::size_t width) { array.reserve(rows * width); });
}

void ColumnTable::make_present(int f) {
  present_[f] = true;  // the rows before did not carry it
  values_[f].reserve(std::max(reserved_, rows_) * stride_);
  values_[f].resize(rows_ * stride_);
  std::fill_n(values_[f].data(), rows_ * stride_, kColumnNaN);
}

void ColumnTable::append(ColumnTable&& other, std::span<const std::int32_t> column_of, std::int64_t line_offset,
                         std::size_t columns) {
  if (columns > stride_) relayout(columns);
  const std::size_t before = rows_;
  const std::size_t added = other.rows_;
  const auto copy_rows = [&](auto& to, auto& from) {
    to.resize(before + added);
    std::memcpy(to.data() + before, from.data(), added * sizeof(*from.data()));
  };
  copy_rows(t, other.t);
  copy_rows(stamped, other.stamped);
  copy_rows(cycle, other.cycle);
  line.resize(before + added);
  for (std::size_t r = 0; r < added; ++r) line.data()[before + r] = other.line.data()[r] + line_offset;
  rows_ = before + added;
  bool identity = other.stride_ == stride_;
  for (std::size_t c = 0; c < column_of.size() && identity; ++c)
    identity = column_of[c] == static_cast<std::int32_t>(c);
  for (int f = 0; f < kJointFields; ++f) {
    if (!other.present_[f]) {
      if (!present_[f]) continue;
      values_[f].resize(rows_ * stride_);
      std::fill_n(values_[f].data() + before * stride_, added * stride_, kColumnNaN);
      continue;
    }
    if (!present_[f]) {
      present_[f] = true;
      values_[f].resize(before * stride_);
      std::fill_n(values_[f].data(), before * stride_, kColumnNaN);
    }
    values_[f].resize(rows_ * stride_);
    double* to = values_[f].data() + before * stride_;
    const double* from = other.values_[f].data();
    if (identity) {
      std::memcpy(to, from, added * stride_ * sizeof(double));
      continue;
    }
    for (std::size_t r = 0; r < added; ++r, to += stride_, from += other.stride_) {
      std::fill_n(to, stride_, kColumnNaN);
      for (std::size_t c = 0; c < column_of.size(); ++c) to[column_of[c]] = from[c];
    }
  }
  other = ColumnTable{};
}

void ColumnTable::resize_uninitialised(std::size_t rows, std::size_t columns) {
  t.resize(rows);
  stamped.resize(rows);
  line.resize(rows);
  cycle.resize(rows);
  for (int f = 0; f < kJointFields; ++f) {
    present_[f] = true;
    values_[f].resize(rows * columns);  // pages not written stay unmapped
  }
  rows_ = reserved_ = rows;
  stride_ = columns;
}

void ColumnTable::drop(JointField field) noexcept {
  const int f = static_cast<int>(field);
  present_[f] = false;
  values_[f] = ColumnArray<double>{};
}

void ColumnTable::move_rows(std::size_t from, std::size_t count, std::size_t to) noexcept {
  if (from == to || count == 0) return;
  each_array([&](auto& array, std::size_t width) {
    std::memmove(array.data() + to * width, array.data() + from * width, count * width * sizeof(*array.data()));
  });
}

void ColumnTable::truncate(std::size_t rows) {
  if (rows >= rows_) return;
  rows_ = rows;
  each_array([&](auto& array, std::size_t width) { array.resize(rows * width); });
}

void ColumnTable::finish(std::size_t columns) {
  if (columns != stride_) relayout(columns);
}

void ColumnTable::relayout(std::size_t stride) {
  for (int f = 0; f < kJointFields; ++f) {
    if (!present_[f]) continue;
    ColumnArray<double>& field = values_[f];
    const std::size_t keep = std::min(stride, stride_);
    if (stride > stride_) {  // from the last row back: each row moves to a later place
      field.reserve(std::max(reserved_, rows_) * stride);
      field.resize(rows_ * stride);
      for (std::size_t r = rows_; r-- > 0;) {
        double* to = field.data() + r * stride;
        std::memmove(to, field.data() + r * stride_, keep * sizeof(double));
        std::fill_n(to + keep, stride - keep, kColumnNaN);
      }
    } else {  // from the first row on: each row moves to an earlier place
      for (std::size_t r = 0; r < rows_; ++r)
        std::memmove(field.data() + r * stride, field.data() + r * stride_, keep * sizeof(double));
      field.resize(rows_ * stride);
    }
  }
  stride_ = stride;
}

}  // namespace rmodel::io
