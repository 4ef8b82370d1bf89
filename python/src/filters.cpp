// rmodel.filters' compiled part: the filter registry (every kind with its parameters), a
// filter run over arrays as `rmodel filter` runs it over a log, and the step response.
//
// A run is the library's StreamFilter (rmodel/stream/stream_filter.hpp), the very stage of
// `rmodel filter`, fed one message per row whose joints are the columns: each column has its
// own filter, advanced by the time since that column's previous sample (t given, T not given)
// or by T per sample; a non-finite value (NaN: a row that did not set the joint) passes
// through and does not advance its filter. So filtering read_log's arrays gives what `rmodel
// filter` writes for the log.

#include <cstdint>
#include <string>
#include <vector>

#include "common.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/filters/registry.hpp"
#include "rmodel/stream/stream_filter.hpp"
#include "rmodel/io/message.hpp"
#include "rmodel/stream/stream.hpp"

namespace rmodel::python {

namespace {

namespace rf = rmodel::filters;

rf::FilterParams params_of(const py::handle& params) {
  rf::FilterParams out;
  if (params.is_none()) return out;
  for (const auto item : params.cast<py::dict>()) out[item.first.cast<std::string>()] = item.second.cast<double>();
  return out;
}

py::list kinds() {
  py::list out;
  for (const rf::FilterKind& k : rf::filter_kinds()) {
    py::list params;
    for (const rf::ParamInfo& p : k.params) {
      py::dict d;
      d["name"] = p.name;
      d["unit"] = p.unit;
      d["default"] = p.default_value;
      d["description"] = p.description;
      d["integer"] = p.integer;
      params.append(d);
    }
    py::dict d;
    d["name"] = k.name;
    d["family"] = k.family;
    d["description"] = k.description;
    d["initial_state"] = k.initial_state;
    d["params"] = params;
    out.append(d);
  }
  return out;
}

/// The parameters a filter of `kind` uses, defaults included; the filter's own validation.
py::dict resolve(const std::string& kind, const py::handle& params) {
  const auto filter = rf::make_array_filter(kind, 1, params_of(params));
  py::dict out;
  for (const auto& [name, value] : filter->params()) out[py::str(name)] = value;
  return out;
}

/// Writes the positions of the messages the filter passes on into the output row.
class RowSink final : public stream::Sink {
public:
  void joint_state(const JointState& state, std::optional<std::int64_t> /*cycle*/) override {
    for (std::size_t j = 0; j < state.position.size(); ++j) row[j] = state.position[j];
  }
  void support_state(const SupportState& /*state*/, std::optional<std::int64_t> /*cycle*/) override {}
  double* row = nullptr;
};

py::array_t<double> run(const std::string& kind, const py::handle& params, const py::handle& t, const py::handle& x) {
  const auto in = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(x);
  if (!in || in.ndim() < 1 || in.ndim() > 2)
    throw InvalidArgument("x: expected samples (1-D, N) or samples × joints (2-D, N × J)");
  const py::ssize_t n = in.shape(0);
  const py::ssize_t width = in.ndim() == 2 ? in.shape(1) : 1;
  py::array_t<std::int64_t, py::array::c_style | py::array::forcecast> stamps;
  if (!t.is_none()) {
    stamps = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(t);
    if (!stamps || stamps.ndim() != 1) throw InvalidArgument("t: expected one stamp (int64 nanoseconds) per sample");
    if (stamps.shape(0) != n)
      throw SizeMismatch("t", static_cast<std::size_t>(n), static_cast<std::size_t>(stamps.shape(0)));
  }
  std::vector<std::string> names;
  for (py::ssize_t j = 0; j < width; ++j) names.push_back(std::to_string(j));
  rf::StreamFilter filter(kind, params_of(params), rf::JointField::position, {}, names);
  filter.add_joints(names);
  py::array_t<double> out(in.request().shape);
  {
    const double* u = in.data();
    const std::int64_t* stamp = stamps ? stamps.data() : nullptr;
    double* y = out.mutable_data();
    py::gil_scoped_release release;
    io::Message message;
    message.kind = io::MessageKind::Joint;
    message.joint.name = names;
    message.joint.position.resize(static_cast<std::size_t>(width));
    message.has_stamp = stamp != nullptr;
    RowSink sink;
    stream::Summary summary;
    stream::Output output(sink, summary);
    stream::Reporter quiet;
    for (py::ssize_t k = 0; k < n; ++k) {
      std::copy(u + k * width, u + (k + 1) * width, message.joint.position.begin());
      if (stamp != nullptr) message.joint.stamp = Time{stamp[k]};
      sink.row = y + k * width;
      filter.push(message, output, quiet);
    }
  }
  return out;
}

py::dict step(const std::string& kind, const py::handle& params, double duration, int lead) {
  const std::vector<rf::StepSample> samples = rf::step_response(kind, params_of(params), duration, lead);
  std::vector<double> t, u, y;
  for (const rf::StepSample& s : samples) {
    t.push_back(s.t);
    u.push_back(s.u);
    y.push_back(s.y);
  }
  const auto n = static_cast<py::ssize_t>(samples.size());
  py::dict out;
  out["t"] = take_array(std::move(t), {n});
  out["u"] = take_array(std::move(u), {n});
  out["y"] = take_array(std::move(y), {n});
  return out;
}

}  // namespace

void bind_filters(py::module_& m) {
  m.def("filter_kinds", &kinds);
  m.def("filter_params", &resolve, py::arg("kind"), py::arg("params"));
  m.def("filter_run", &run, py::arg("kind"), py::arg("params"), py::arg("t"), py::arg("x"));
  m.def("filter_step_response", &step, py::arg("kind"), py::arg("params"), py::arg("duration"), py::arg("lead"));
}

}  // namespace rmodel::python
