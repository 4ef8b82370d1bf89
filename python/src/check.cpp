// rmodel.check: every problem of a model (rmodel/check/check.hpp), as `rmodel check` finds them.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/check/check.hpp"

namespace rmodel::python {

namespace {

/// The programs named by `targets`: a str or a sequence of them ("mujoco", "kdl", "gazebo").
CheckOptions check_options(const py::handle& targets) {
  CheckOptions options;
  std::vector<std::string> names;
  if (py::isinstance<py::str>(targets)) names.push_back(targets.cast<std::string>());
  else
    for (const auto item : targets) names.push_back(py::str(item).cast<std::string>());
  for (const std::string& name : names) {
    const std::optional<CheckTarget> target = parse_check_target(name);
    if (!target) {
      std::string valid;
      for (const CheckTarget t : check_targets()) valid += (valid.empty() ? "" : ", ") + std::string(to_string(t));
      throw InvalidArgument("targets: '" + name + "' is not one of " + valid);
    }
    if (std::find(options.targets.begin(), options.targets.end(), *target) == options.targets.end())
      options.targets.push_back(*target);
  }
  return options;
}

py::list check(const py::handle& path, const py::handle& semantics, const py::handle& package_path,
               const py::handle& xacro_args, const py::handle& limits, bool meshes, const py::handle& targets) {
  const ModelSource source = model_source(path, semantics, package_path, xacro_args, limits);
  const CheckOptions options = check_options(targets);
  Diagnostics report;
  {
    py::gil_scoped_release release;
    report = check_model(source, options).problems;
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
        py::arg("xacro_args") = py::none(), py::arg("limits") = py::none(), py::arg("meshes") = false,
        py::arg("targets") = py::tuple());
}

}  // namespace rmodel::python
