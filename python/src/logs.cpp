// rmodel.read_log and rmodel.aggregate: a log read (any format rmodel reads) through the
// library's pipeline (rmodel/stream/stream.hpp), with the GIL released, into numpy arrays:
// one row per joint-state message (read_log) or per published pose (aggregate), stamps as
// int64 nanoseconds exactly as read, values bit for bit, NaN where a row did not set a joint.
// The rows are written into the very memory the arrays are made of (no copy).

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "rmodel/stream/aggregator.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/filters/registry.hpp"
#include "rmodel/stream/stream_filter.hpp"
#include "rmodel/io/columns.hpp"
#include "rmodel/io/format.hpp"
#include "rmodel/io/message.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/stream/column_stage.hpp"
#include "rmodel/stream/stream.hpp"

namespace rmodel::python {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// `array`'s elements as a numpy array of `shape` (of `dtype`, same item size), which frees
/// them: no copy.
template <class T>
py::array take(io::ColumnArray<T>& array, std::vector<py::ssize_t> shape, const py::dtype& dtype = py::dtype::of<T>()) {
  T* data = array.release();
  if (data == nullptr) return py::array(dtype, shape);
  py::capsule free_when_done(data, [](void* p) { io::ColumnArray<T>::free(p); });
  return py::array(dtype, std::move(shape), {}, data, free_when_done);
}

/// The arrays t, stamped, line, cycle, position, velocity, effort of `table` (finished to
/// `names`' columns). A field no row carries gets no memory at all: a read-only all-NaN view.
py::dict arrays_of(io::ColumnTable& table, const std::vector<std::string>& names) {
  {
    py::gil_scoped_release release;
    table.finish(names.size());
  }
  const auto n = static_cast<py::ssize_t>(table.rows());
  const auto w = static_cast<py::ssize_t>(names.size());
  py::dict out;
  out["t"] = take(table.t, {n});
  out["stamped"] = take(table.stamped, {n}, py::dtype::of<bool>());
  out["line"] = take(table.line, {n});
  out["cycle"] = take(table.cycle, {n});
  out["names"] = names;
  const char* field_names[io::kJointFields] = {"position", "velocity", "effort"};
  for (int f = 0; f < io::kJointFields; ++f) {
    const auto field = static_cast<io::JointField>(f);
    out[field_names[f]] = table.present(field)
                              ? take(table.values(field), {n, w})
                              : py::module_::import("numpy").attr("broadcast_to")(kNaN, py::make_tuple(n, w));
  }
  return out;
}

/// aggregate's sink: one row per published pose (a full sorted pose).
class PoseSink final : public stream::Sink {
public:
  PoseSink(io::ColumnTable& rows, std::size_t size) : rows_(rows) {
    for (std::size_t i = 0; i < size; ++i) identity_.push_back(static_cast<std::int32_t>(i));
  }
  void joint_state(const JointState& state, std::optional<std::int64_t> cycle) override {
    rows_.add(state.stamp, true, 0, cycle ? *cycle : -1, identity_, identity_.size(), state);
  }
  void support_state(const SupportState& /*state*/, std::optional<std::int64_t> /*cycle*/) override {}

private:
  io::ColumnTable& rows_;
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
    d["message"] = in_argument_words(p.text);
    d["location"] = io::location(source, p.line, p.item, p.byte_offset, io::numbers_messages(format));
    list.append(d);
  }
  py::dict out;
  out["problems"] = list;
  out["source"] = source;
  out["format"] = std::string(io::to_string(format));
  return out;
}

/// The log read straight into columns (rmodel/io/columns.hpp) when it is JSON Lines of plain
/// joint states read whole: no topic, no time window (the options the pipeline would apply).
/// nullopt: the pipeline reads it.
std::optional<io::JointColumns> read_plain(const std::string& file, const io::ReaderOptions& options,
                                           const std::string& format, const py::handle& topic,
                                           const std::optional<std::vector<std::string>>& known) {
  if (!topic.is_none() || options.start || options.end) return std::nullopt;
  if (format != "auto" && io::to_string(options.format) != "jsonl") return std::nullopt;
  // A path that is missing or no regular file is declined: run() then says why, as for any log.
  py::gil_scoped_release release;
  return io::read_json_lines_columns(file, known ? &*known : nullptr, format != "auto");
}

py::dict read_log(const py::handle& path, const py::handle& model, const py::handle& topic, const py::handle& start,
                  const py::handle& end, const std::string& time, const std::string& format,
                  const std::string& time_column, const std::string& column_prefix, std::uint64_t max_errors) {
  const std::string file = path_text(path);
  const io::ReaderOptions options = reader_options(file, format, topic, time, start, end, time_column, column_prefix);
  std::optional<std::vector<std::string>> known;
  if (!model.is_none()) known = model_of(model).joint_names();
  if (auto columns = read_plain(file, options, format, topic, known)) {
    py::dict out;
    out["problems"] = py::list();
    out["source"] = file;
    out["format"] = "jsonl";
    py::dict arrays = arrays_of(columns->table, columns->names);
    for (const auto item : arrays) out[item.first] = item.second;
    return out;
  }
  io::ColumnTable rows;
  stream::ColumnStage stage(rows, std::move(known));
  stream::CallbackSink nowhere({});
  py::dict out = run(file, options, stage, nowhere, max_errors);
  py::dict arrays = arrays_of(rows, stage.names());
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
  io::ColumnTable rows;
  PoseSink poses(rows, m.pose_size());
  std::optional<filters::FilterSink> filtered;
  if (!filter_kind.is_none()) {
    filters::FilterParams params;
    for (const auto& [name, value] : param_list(filter_params)) params[name] = value;
    filtered.emplace(poses, filter_kind.cast<std::string>(), params, m.pose_size());
  }
  py::dict out = run(file, reader, aggregator, filtered ? static_cast<stream::Sink&>(*filtered) : poses, max_errors);
  py::dict arrays = arrays_of(rows, m.joint_names());
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
