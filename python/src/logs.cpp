// rmodel.read_log and rmodel.aggregate: a log read (any format rmodel reads) through the
// library's pipeline (rmodel/stream/stream.hpp), with the GIL released, into numpy arrays:
// one row per joint-state message (read_log) or per published pose (aggregate), stamps as
// int64 nanoseconds exactly as read, values bit for bit, NaN where a row did not set a joint.
// The rows are written into the very memory the arrays are made of (no copy).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "rmodel/stream/aggregator.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/filters/registry.hpp"
#include "rmodel/stream/stream_filter.hpp"
#include "rmodel/io/format.hpp"
#include "rmodel/io/message.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/stream/stream.hpp"

namespace rmodel::python {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A growable array in malloc'd memory, handed to numpy as it is (no copy). It grows with
/// realloc, which moves a large block by remapping its pages: neither copied nor touched again.
template <class T>
class Buffer {
public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { std::free(data_); }

  [[nodiscard]] T* data() noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// Grows (or shrinks) to n elements; new elements are uninitialised.
  void resize(std::size_t n) {
    if (n > capacity_) reallocate(std::max({n, capacity_ * 2, std::size_t{1024}}));
    size_ = n;
  }
  void push_back(T value) {
    resize(size_ + 1);
    data_[size_ - 1] = value;
  }
  /// The elements as a numpy array of `shape` (of `dtype`, same item size), which frees them.
  py::array take(std::vector<py::ssize_t> shape, const py::dtype& dtype = py::dtype::of<T>()) {
    if (size_ == 0) return py::array(dtype, shape);
    reallocate(size_);  // what was reserved beyond the end goes back (in place)
    T* data = std::exchange(data_, nullptr);
    size_ = capacity_ = 0;
    py::capsule free_when_done(data, [](void* p) { std::free(p); });
    return py::array(dtype, std::move(shape), {}, data, free_when_done);
  }

private:
  void reallocate(std::size_t capacity) {
    void* p = std::realloc(data_, capacity * sizeof(T));
    if (p == nullptr) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
    capacity_ = capacity;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

/// Rows of joint values, written in place into the N × J arrays being built: a row is NaN but
/// for the joints it sets. The columns are the slots of the names met so far (an open mapper
/// adds some as the log goes on): a row holds `stride_` of them, doubled when a new name does
/// not fit, and compacted to the names' count at the end. A field no row carries gets no
/// memory at all: a read-only all-NaN view.
class Rows {
public:
  /// One row: `slots[i]` is the column of element i (negative: skipped), `columns` the number
  /// of slots known; a field is absent when its vector is empty.
  void add(Time stamp, bool stamped, std::size_t line, std::optional<std::int64_t> cycle,
           std::span<const std::int32_t> slots, std::size_t columns, const JointState& state) {
    if (columns > stride_) widen(columns);
    t_.push_back(stamp.ns);
    stamped_.push_back(stamped ? 1 : 0);
    line_.push_back(static_cast<std::int64_t>(line));
    cycle_.push_back(cycle ? *cycle : -1);
    const std::vector<double>* fields[3] = {&state.position, &state.velocity, &state.effort};
    for (int f = 0; f < 3; ++f) {
      const std::vector<double>& values = *fields[f];
      if (!present_[f]) {
        if (values.empty()) continue;
        present_[f] = true;  // the rows before did not carry it
        field_[f].resize(rows_ * stride_);
        std::fill_n(field_[f].data(), rows_ * stride_, kNaN);
      }
      Buffer<double>& field = field_[f];
      field.resize((rows_ + 1) * stride_);
      double* row = field.data() + rows_ * stride_;
      std::fill_n(row, stride_, kNaN);
      const std::size_t n = std::min(values.size(), slots.size());
      for (std::size_t i = 0; i < n; ++i)
        if (slots[i] >= 0) row[slots[i]] = values[i];
    }
    ++rows_;
  }

  /// The arrays t, stamped, line, cycle, position, velocity, effort (J = names.size()).
  py::dict finish(const std::vector<std::string>& names) {
    const std::size_t width = names.size();
    {
      py::gil_scoped_release release;
      if (width != stride_) relayout(width);
    }
    const auto n = static_cast<py::ssize_t>(rows_);
    const auto w = static_cast<py::ssize_t>(width);
    py::dict out;
    out["t"] = t_.take({n});
    out["stamped"] = stamped_.take({n}, py::dtype::of<bool>());
    out["line"] = line_.take({n});
    out["cycle"] = cycle_.take({n});
    out["names"] = names;
    const char* field_names[3] = {"position", "velocity", "effort"};
    for (int f = 0; f < 3; ++f)
      out[field_names[f]] = present_[f] ? field_[f].take({n, w})
                                        : py::module_::import("numpy").attr("broadcast_to")(kNaN, py::make_tuple(n, w));
    return out;
  }

private:
  /// Room for at least `columns` columns per row.
  void widen(std::size_t columns) { relayout(std::max({columns, stride_ * 2, std::size_t{8}})); }

  /// Rows of `stride` columns (the new ones NaN, the dropped ones unused).
  void relayout(std::size_t stride) {
    for (int f = 0; f < 3; ++f) {
      if (!present_[f]) continue;
      Buffer<double>& field = field_[f];
      const std::size_t keep = std::min(stride, stride_);
      if (stride > stride_) {  // from the last row back: each row moves to a later place
        field.resize(rows_ * stride);
        for (std::size_t r = rows_; r-- > 0;) {
          double* to = field.data() + r * stride;
          std::memmove(to, field.data() + r * stride_, keep * sizeof(double));
          std::fill_n(to + keep, stride - keep, kNaN);
        }
      } else {  // from the first row on: each row moves to an earlier place
        for (std::size_t r = 0; r < rows_; ++r)
          std::memmove(field.data() + r * stride, field.data() + r * stride_, keep * sizeof(double));
        field.resize(rows_ * stride);
      }
    }
    stride_ = stride;
  }

  std::size_t rows_ = 0;
  std::size_t stride_ = 0;  ///< columns a row holds (at least the slots known)
  Buffer<std::int64_t> t_;
  Buffer<std::uint8_t> stamped_;
  Buffer<std::int64_t> line_;
  Buffer<std::int64_t> cycle_;
  bool present_[3] = {false, false, false};  ///< a row carried the field
  Buffer<double> field_[3];                  ///< rows_ × stride_ values, once the field is present
};

/// read_log's stage: one row per joint-state message, its names resolved by the one slot
/// mapper of the streaming commands (fixed to a model's pose, or open).
class RowStage final : public stream::Stage {
public:
  RowStage(Rows& rows, std::optional<std::vector<std::string>> known)
      : rows_(rows), mapper_(known ? std::move(*known) : std::vector<std::string>{}, !known.has_value()) {}
  void push(const io::Message& message, stream::Output& out, stream::Reporter& report) override {
    // A message outside the time window primes the stages that keep a state (docs/streaming.md);
    // a row is the message itself, so there is nothing to prime.
    if (message.has_stamp && !out.in_window(message.stamp())) return;
    if (message.kind != io::MessageKind::Joint) return;  // support states and sync ticks
    if (!mapper_.map(message, report)) return;           // rejected, reported
    rows_.add(message.stamp(), message.has_stamp, message.line, message.cycle, mapper_.slots(), mapper_.size(),
              message.joint);
  }
  [[nodiscard]] const std::vector<std::string>& names() const { return mapper_.names(); }

private:
  Rows& rows_;
  stream::SlotMapper mapper_;
};

/// aggregate's sink: one row per published pose (a full sorted pose).
class PoseSink final : public stream::Sink {
public:
  PoseSink(Rows& rows, std::size_t size) : rows_(rows) {
    for (std::size_t i = 0; i < size; ++i) identity_.push_back(static_cast<std::int32_t>(i));
  }
  void joint_state(const JointState& state, std::optional<std::int64_t> cycle) override {
    rows_.add(state.stamp, true, 0, cycle, identity_, identity_.size(), state);
  }
  void support_state(const SupportState& /*state*/, std::optional<std::int64_t> /*cycle*/) override {}

private:
  Rows& rows_;
  std::vector<std::int32_t> identity_;
};

struct Problem {
  Severity severity = Severity::warning;
  std::size_t line = 0;
  std::size_t item = 0;
  std::optional<std::uint64_t> byte_offset;
  std::string text;
};

/// Reads `path` through `stage` into `sink`, collecting the problems; the GIL is released
/// while the log is read. Returns the problems as dicts, the source and the format read.
py::dict run(const std::string& path, const io::ReaderOptions& options, stream::Stage& stage, stream::Sink& sink,
             std::uint64_t max_errors) {
  io::check_log_path(path);
  std::vector<Problem> problems;
  std::string source = path;
  io::Format format = options.format;
  {
    py::gil_scoped_release release;
    io::MessageReader reader = io::MessageReader::open(path, options);
    stream::RunOptions run_options;
    run_options.max_errors = max_errors;
    run_options.read_ahead = true;  // parsing on a second thread, as the commands read files
    stream::Pipeline pipeline(
        stage, sink,
        [&](const stream::Event& e) {
          problems.push_back({e.severity, e.line, e.item, e.byte_offset, std::string(e.text)});
        },
        run_options);
    (void)pipeline.run(reader);
    pipeline.finish();
    source = reader.source();
    format = reader.format();
  }
  py::list list;
  for (const Problem& p : problems) {
    py::dict d;
    d["severity"] = std::string(to_string(p.severity));
    d["file"] = source;
    d["line"] = p.line > 0 ? py::object(py::int_(p.line)) : py::object(py::none());
    d["item"] = p.item > 0 ? py::object(py::int_(p.item)) : py::object(py::none());
    d["message"] = p.text;
    d["location"] = io::location(source, p.line, p.item, p.byte_offset, io::numbers_messages(format));
    list.append(d);
  }
  py::dict out;
  out["problems"] = list;
  out["source"] = source;
  out["format"] = std::string(io::to_string(format));
  return out;
}

py::dict read_log(const py::handle& path, const py::handle& model, const py::handle& topic, const py::handle& start,
                  const py::handle& end, const std::string& time, const std::string& format,
                  const std::string& time_column, const std::string& column_prefix, std::uint64_t max_errors) {
  const std::string file = path_text(path);
  const io::ReaderOptions options = reader_options(file, format, topic, time, start, end, time_column, column_prefix);
  std::optional<std::vector<std::string>> known;
  if (!model.is_none()) known = model_of(model).joint_names();
  Rows rows;
  RowStage stage(rows, std::move(known));
  stream::CallbackSink nowhere({});
  py::dict out = run(file, options, stage, nowhere, max_errors);
  py::dict arrays = rows.finish(stage.names());
  for (const auto item : arrays) out[item.first] = item.second;
  return out;
}

template <class Enum>
Enum choice(const std::string& value, const char* field, std::initializer_list<std::pair<const char*, Enum>> choices) {
  std::string valid;
  for (const auto& [name, e] : choices) {
    if (value == name) return e;
    valid += valid.empty() ? name : std::string(", ") + name;
  }
  throw InvalidArgument(std::string(field) + ": '" + value + "' is not one of " + valid);
}

std::vector<std::pair<std::string, double>> param_list(const py::handle& params) {
  std::vector<std::pair<std::string, double>> out;
  if (params.is_none()) return out;
  for (const auto item : params.cast<py::dict>())
    out.emplace_back(item.first.cast<std::string>(), item.second.cast<double>());
  return out;
}

/// A span of time given in seconds: a float or int (its shortest text), or a str, read
/// exactly as the command line reads it (parse_time).
Time seconds_of(const py::handle& value, const char* field) {
  const std::string text =
      py::isinstance<py::str>(value) ? value.cast<std::string>() : py::repr(value).cast<std::string>();
  return parse_time(text, field);
}

py::dict aggregate(const py::handle& path, const py::handle& model, const std::string& kind, const py::handle& period,
                   const std::string& ticks, const std::string& update, const py::handle& publish,
                   const std::string& diff, const py::handle& diff_params, const std::string& quad,
                   const py::handle& quad_params, bool clamp, double brake_deceleration, const py::handle& initial_pose,
                   const py::handle& filter_kind, const py::handle& filter_params, const py::handle& topic,
                   const py::handle& start, const py::handle& end, const std::string& time, const std::string& format,
                   const std::string& time_column, const std::string& column_prefix, std::uint64_t max_errors) {
  const std::string file = path_text(path);
  const io::ReaderOptions reader = reader_options(file, format, topic, time, start, end, time_column, column_prefix);
  const Model& m = model_of(model);
  AggregatorOptions options;
  options.kind =
      choice<AggregatorKind>(kind, "kind", {{"simple", AggregatorKind::simple}, {"sync", AggregatorKind::sync}});
  options.period = seconds_of(period, "period");
  options.ticks = choice<TickSource>(
      ticks, "ticks", {{"auto", TickSource::automatic}, {"time", TickSource::time}, {"stream", TickSource::stream}});
  options.update = choice<UpdatePolicy>(update, "update",
                                        {{"hold", UpdatePolicy::hold},
                                         {"hold-zero-velocity", UpdatePolicy::hold_zero_velocity},
                                         {"extrapolate", UpdatePolicy::extrapolate},
                                         {"brake", UpdatePolicy::brake}});
  if (!publish.is_none())
    options.publish = choice<PublishPolicy>(
        publish.cast<std::string>(), "publish",
        {{"message", PublishPolicy::message}, {"tick", PublishPolicy::tick}, {"both", PublishPolicy::both}});
  options.diff_method = diff;
  options.diff_params = param_list(diff_params);
  options.quad_method = quad;
  options.quad_params = param_list(quad_params);
  options.clamp = clamp;
  options.brake_deceleration = brake_deceleration;
  if (!initial_pose.is_none()) options.initial_positions = pose_of(model, initial_pose, "initial_pose");
  options.support = false;  // poses only
  Aggregator aggregator(m, options);
  Rows rows;
  PoseSink poses(rows, m.pose_size());
  std::optional<filters::FilterSink> filtered;
  if (!filter_kind.is_none()) {
    filters::FilterParams params;
    for (const auto& [name, value] : param_list(filter_params)) params[name] = value;
    filtered.emplace(poses, filter_kind.cast<std::string>(), params, m.pose_size());
  }
  py::dict out = run(file, reader, aggregator, filtered ? static_cast<stream::Sink&>(*filtered) : poses, max_errors);
  py::dict arrays = rows.finish(m.joint_names());
  for (const auto item : arrays) out[item.first] = item.second;
  return out;
}

}  // namespace

void bind_logs(py::module_& m) {
  m.def("read_log", &read_log, py::arg("path"), py::arg("model"), py::arg("topic"), py::arg("start"), py::arg("end"),
        py::arg("time"), py::arg("format"), py::arg("time_column"), py::arg("column_prefix"), py::arg("max_errors"));
  m.def("aggregate", &aggregate, py::arg("path"), py::arg("model"), py::arg("kind"), py::arg("period"),
        py::arg("ticks"), py::arg("update"), py::arg("publish"), py::arg("diff"), py::arg("diff_params"),
        py::arg("quad"), py::arg("quad_params"), py::arg("clamp"), py::arg("brake_deceleration"),
        py::arg("initial_pose"), py::arg("filter"), py::arg("filter_params"), py::arg("topic"), py::arg("start"),
        py::arg("end"), py::arg("time"), py::arg("format"), py::arg("time_column"), py::arg("column_prefix"),
        py::arg("max_errors"));
}

}  // namespace rmodel::python
