// rmodel's typed errors (rmodel/base/error.hpp) as the Python exceptions of rmodel/_errors.py:
// each C++ type raises the class of its name, its text is str(e), and where the error names a
// place, e.file and e.line say it (None when unknown); NotFound also carries kind and name.

#include <exception>

#include "common.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::python {

namespace {

/// Sets the Python error: an instance of rmodel._errors.<name> with message `what`.
void raise_as(const char* name, const char* what, const py::object& file, const py::object& line,
              const py::dict& more = {}) {
  const py::object cls = py::module_::import("rmodel._errors").attr(name);
  py::object error = cls(py::str(what));
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

void bind_errors(py::module_& /*m*/) { py::register_exception_translator(&translate); }

}  // namespace rmodel::python
