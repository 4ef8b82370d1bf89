// rmodel's typed errors (rmodel/base/error.hpp) as the Python exceptions of rmodel/_errors.py:
// each C++ type raises the class of its name, its text is str(e), and where the error names a
// place, e.file and e.line say it (None when unknown); NotFound also carries kind and name.

#include <array>
#include <exception>
#include <string_view>
#include <utility>

#include "common.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::python {

namespace {

// Every field the library names in a text, with the keyword argument that sets it; the
// command's table of flags (apps/rmodel/option_fields.cpp) lists the same fields.
constexpr std::array<std::pair<std::string_view, std::string_view>, 17> kFieldArguments{{
    {"ModelRequest::urdf", "path="},
    {"ModelRequest::semantics", "semantics="},
    {"ModelRequest::manifest", "path="},
    {"ModelRequest::sample", "path="},
    {"ModelRequest::package_paths", "package_path="},
    {"ModelRequest::xacro_args", "xacro_args="},
    {"ModelSource::package_paths", "package_path="},
    {"XacroOptions::package_paths", "package_path="},
    {"XacroOptions::args", "xacro_args="},
    {"ReaderOptions::topics", "topic="},
    {"ReaderOptions::column_prefix", "column_prefix="},
    {"ReaderOptions::time_column", "time_column="},
    {"ReaderOptions::start", "start="},
    {"ReaderOptions::end", "end="},
    {"AggregatorOptions::diff_method", "diff="},
    {"AggregatorOptions::quad_method", "quad="},
    {"AggregatorOptions::ticks", "ticks="},
}};

std::string_view argument_of_field(std::string_view field) {
  for (const auto& [name, argument] : kFieldArguments)
    if (name == field) return argument;
  return {};
}

/// Sets the Python error: an instance of rmodel._errors.<name> with message `what`.
void raise_as(const char* name, const char* what, const py::object& file, const py::object& line,
              const py::dict& more = {}) {
  const py::object cls = py::module_::import("rmodel._errors").attr(name);
  py::object error = cls(py::str(in_argument_words(what)));
  error.attr("file") = file;
  error.attr("line") = line;
  for (const auto item : more) error.attr(item.first) = item.second;
  PyErr_SetObject(cls.ptr(), error.ptr());
}

py::object line_or_none(int line) { return line > 0 ? py::object(py::int_(line)) : py::object(py::none()); }

void translate(std::exception_ptr p) {
  if (!p) return;
  try {
    std::rethrow_exception(p);
  } catch (const ModelError& e) {
    raise_as("ModelError", e.what(), py::str(e.where().file), line_or_none(e.where().line));
  } catch (const ParseError& e) {
    raise_as("ParseError", e.what(), py::str(e.where().file), line_or_none(e.where().line));
  } catch (const IoError& e) {
    raise_as("IoError", e.what(), py::str(e.path()), py::none());
  } catch (const NotFound& e) {
    py::dict more;
    more["kind"] = e.kind();
    more["name"] = e.name();
    raise_as("NotFound", e.what(), py::none(), py::none(), more);
  } catch (const SizeMismatch& e) {
    raise_as("SizeMismatch", e.what(), py::none(), py::none());
  } catch (const InvalidArgument& e) {
    raise_as("InvalidArgument", e.what(), py::none(), py::none());
  } catch (const Error& e) {
    raise_as("Error", e.what(), py::none(), py::none());
  }
}

}  // namespace

std::string in_argument_words(std::string_view text) { return rename_fields(text, argument_of_field); }

void bind_errors(py::module_& /*m*/) { py::register_exception_translator(&translate); }

}  // namespace rmodel::python
