#pragma once
// Shared by the sources of the Python module `_rmodel`: the binding functions of each part,
// and the conversions between numpy arrays, Python values and rmodel's types.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "rmodel/io/reader.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel::python {

namespace py = pybind11;

void bind_errors(py::module_& m);
void bind_model(py::module_& m);
void bind_logs(py::module_& m);
void bind_filters(py::module_& m);
void bind_check(py::module_& m);

/// The rmodel::Model of an rmodel.Model object. @throws py::cast_error for another object
const Model& model_of(const py::handle& model);

/// A full pose given as rmodel.Model's functions take q: an array of pose_size() values, a dict
/// joint → value or a str (a named pose and/or joint=value items). `what` names it in errors.
std::vector<double> pose_of(const py::handle& model, const py::handle& q, const char* what);

/// A numpy array that takes over `data`'s storage (no copy): the vector moves to the heap and
/// a capsule frees it with the array. `shape` must multiply to data.size().
template <class T>
py::array_t<T> take_array(std::vector<T>&& data, std::vector<py::ssize_t> shape) {
  auto* owned = new std::vector<T>(std::move(data));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(std::move(shape), owned->data(), free_when_done);
}

/// A file path given as str or os.PathLike.
std::string path_text(const py::handle& path);

/// The file paths of a sequence of str or os.PathLike.
std::vector<std::string> path_list(const py::handle& paths);

/// Where a model comes from, as rmodel.Model and rmodel.check take it: a URDF or xacro path,
/// optional semantics (.cpf, .srdf, .json; detected from the content) and joint_limits.yaml,
/// the folders searched for ROS packages (a path or a sequence), the xacro arguments (a dict;
/// values as str() writes them).
ModelSource model_source(const py::handle& path, const py::handle& semantics, const py::handle& package_path,
                         const py::handle& xacro_args, const py::handle& limits);

/// One end of a time window from Python: None, an int (absolute nanoseconds on the log's
/// clock, as Log.t holds them), or a str or float read as the command line reads --start
/// (io::parse_time_bound: seconds after the first message below 1e9, absolute from 1e9 on,
/// `@seconds`, RFC 3339). `field` names the argument in errors.
std::optional<io::TimeBound> time_bound(const py::handle& value, const char* field);

/// The reader options of a log read: format, topics (None, a str or a sequence), time source
/// ("header" or "log"), CSV time column and column prefix, time window.
io::ReaderOptions reader_options(const std::string& path, const std::string& format, const py::handle& topic,
                                 const std::string& time, const py::handle& start, const py::handle& end,
                                 const std::string& time_column, const std::string& column_prefix);

/// `text` (an error's, a problem's) with the API fields the library names in it
/// ("ReaderOptions::column_prefix") as the keyword arguments that set them ("column_prefix="),
/// as the command shows its flags (docs/design.md, "Errors name API fields").
std::string in_argument_words(std::string_view text);

}  // namespace rmodel::python
