// The compiled part of the Python package `rmodel` (README, "From Python"): rmodel/__init__.py
// imports it and adds the API's Python layer. Each part binds itself (common.hpp).

#include <cmath>
#include <string>

#include "common.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/format.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/base/version.hpp"

namespace rmodel::python {

std::string path_text(const py::handle& path) {
  const py::object text = py::module_::import("os").attr("fspath")(path);
  if (!py::isinstance<py::str>(text)) throw py::type_error("a path must be a str or an os.PathLike of str");
  return text.cast<std::string>();
}

std::vector<std::string> path_list(const py::handle& paths) {
  std::vector<std::string> out;
  if (paths.is_none()) return out;
  if (py::isinstance<py::str>(paths) || py::hasattr(paths, "__fspath__")) return {path_text(paths)};
  for (const auto item : paths) out.push_back(path_text(item));
  return out;
}

ModelSource model_source(const py::handle& path, const py::handle& semantics, const py::handle& package_path,
                         const py::handle& xacro_args, const py::handle& limits) {
  ModelSource source;
  source.urdf_path = path_text(path);
  if (!semantics.is_none()) source.semantics_path = path_text(semantics);
  if (!limits.is_none()) source.limits_path = path_text(limits);
  for (const auto& dir : path_list(package_path)) source.package_paths.emplace_back(dir);
  if (!xacro_args.is_none())
    for (const auto item : xacro_args.cast<py::dict>())
      source.xacro_args[py::str(item.first).cast<std::string>()] = py::str(item.second).cast<std::string>();
  return source;
}

std::optional<io::TimeBound> time_bound(const py::handle& value, const char* field) {
  if (value.is_none()) return std::nullopt;
  if (py::isinstance<py::bool_>(value)) throw InvalidArgument(std::string(field) + ": a time, not a bool");
  // An integer (Python's or numpy's: __index__): nanoseconds on the log's clock, as Log.t holds them.
  if (py::isinstance<py::int_>(value) || (py::hasattr(value, "__index__") && !py::isinstance<py::float_>(value)))
    return io::TimeBound{Time{value.attr("__index__")().cast<std::int64_t>()}, false};
  if (py::isinstance<py::float_>(value)) {
    // The float's shortest text (repr), read exactly as the command line reads it.
    const double seconds = value.cast<double>();
    if (!std::isfinite(seconds)) throw InvalidArgument(std::string(field) + ": the time must be finite");
    return io::parse_time_bound(py::repr(value).cast<std::string>(), field);
  }
  if (py::isinstance<py::str>(value)) return io::parse_time_bound(value.cast<std::string>(), field);
  throw py::type_error(std::string(field) + ": expected None, an int (nanoseconds), a float or a str (seconds)");
}

io::ReaderOptions reader_options(const std::string& path, const std::string& format, const py::handle& topic,
                                 const std::string& time, const py::handle& start, const py::handle& end,
                                 const std::string& time_column, const std::string& column_prefix) {
  io::ReaderOptions options;
  options.format = io::parse_format(format);
  if (options.format.is_auto()) options.format = io::format_from_path(path);
  if (py::isinstance<py::str>(topic))
    options.topics.push_back(topic.cast<std::string>());
  else if (!topic.is_none())
    for (const auto item : topic) options.topics.push_back(item.cast<std::string>());
  options.time = io::parse_time_source(time);
  options.time_column = time_column;
  options.column_prefix = column_prefix;
  options.start = time_bound(start, "start");
  options.end = time_bound(end, "end");
  if (options.start && options.end && options.start->relative == options.end->relative &&
      options.end->time <= options.start->time)
    throw InvalidArgument("end is not after start: the window [start, end) is empty");
  return options;
}

}  // namespace rmodel::python

PYBIND11_MODULE(_rmodel, m) {
  namespace rp = rmodel::python;
  m.doc() = "The compiled part of rmodel (use the package `rmodel`)";
  m.attr("__version__") = std::string(rmodel::version());
  m.def(
      "sample_dir", [] { return rmodel::sample_model_dir(); },
      "The directory of the sample robot shipped with rmodel (pony.urdf, pony.json); '' when not found");
  rp::bind_errors(m);
  rp::bind_model(m);
  rp::bind_logs(m);
  rp::bind_filters(m);
  rp::bind_check(m);
}
