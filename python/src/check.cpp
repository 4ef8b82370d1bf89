// rmodel.check: every problem of a model (rmodel/check/check.hpp), as `rmodel check` finds them.

#include <string>

#include "common.hpp"
#include "rmodel/check/check.hpp"

namespace rmodel::python {

namespace {

py::list check(const py::handle& path, const py::handle& semantics, const py::handle& package_path,
               const py::handle& xacro_args, const py::handle& limits, bool meshes) {
  const ModelSource source = model_source(path, semantics, package_path, xacro_args, limits);
  Diagnostics report;
  {
    py::gil_scoped_release release;
    report = check_model(source);
    if (meshes)
      for (auto& d : check_mesh_files(source).items) report.items.push_back(std::move(d));
  }
  py::list out;
  for (const Diagnostic& d : report.items) {
    py::dict item;
    item["code"] = d.code;
    item["severity"] = std::string(to_string(d.severity));
    item["file"] = d.where.file.empty() ? py::object(py::none()) : py::object(py::str(d.where.file));
    item["line"] = d.where.line > 0 ? py::object(py::int_(d.where.line)) : py::object(py::none());
    item["message"] = in_argument_words(d.message);
    out.append(item);
  }
  return out;
}

}  // namespace

void bind_check(py::module_& m) {
  m.def("check", &check, py::arg("path"), py::arg("semantics") = py::none(), py::arg("package_path") = py::tuple(),
        py::arg("xacro_args") = py::none(), py::arg("limits") = py::none(), py::arg("meshes") = false);
}

}  // namespace rmodel::python
