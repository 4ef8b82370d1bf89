// rmodel.Model's compiled part: loading (URDF or xacro, with .cpf, SRDF or JSON semantics and
// a joint_limits.yaml), the full sorted pose, and the kinematics and dynamics of the whole
// robot on numpy arrays.
//
// Poses: a full pose is a float array of pose_size() values (rad or m) in full-pose order, a
// dict joint name → value (the others 0), or a str as the command line's --pose (a named pose
// and/or joint=value items). An array of shape (N, pose_size()) is N poses: the functions
// return N results stacked, computed with the GIL released. Mimic joints follow their masters
// (kinematics::MimicJoints::follow_master, as `rmodel jacobian` and `rmodel dynamics`): the
// value in a mimic joint's own slot is not read.

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "common.hpp"
#include "rmodel/kinematics/dynamics.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/model/pose.hpp"

namespace rmodel::python {

namespace {

namespace kin = rmodel::kinematics;
namespace dyn = rmodel::dynamics;

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A chain's kinematic model for Jacobians (full-pose layout), its workspace, and the pose
/// slots of its columns (`rmodel jacobian`'s: kinematics::chain_jacobian_columns).
struct ChainKinematics {
  kin::KinematicModel km;
  kin::Workspace ws;
  std::vector<int> columns;
  ChainKinematics(const Model& model, const std::string& chain, bool with_virtual)
      : km(kin::KinematicModel::from_chain(model, chain, with_virtual, kin::PoseLayout::full)),
        ws(km),
        columns(kin::chain_jacobian_columns(model, km, chain, with_virtual)) {}
};

/// Poses given from Python: one (count 1, not batch) or N rows of n values, row-major.
struct Poses {
  py::array_t<double> array;  ///< keeps the caller's array (or its converted copy) alive
  std::vector<double> owned;  ///< a pose built from a dict or str
  const double* data = nullptr;
  py::ssize_t count = 1;
  bool batch = false;
  std::size_t n = 0;
  [[nodiscard]] std::span<const double> row(py::ssize_t k) const {
    return {data + (batch ? static_cast<std::size_t>(k) * n : 0), n};
  }
};

class PyModel {
public:
  PyModel(const py::handle& path, const py::handle& semantics, const py::handle& package_path,
          const py::handle& xacro_args, const py::handle& limits)
      : model_(load(path, semantics, package_path, xacro_args, limits)),
        km_(kin::KinematicModel::from_model(model_)),
        ws_(km_),
        dws_(km_) {}

  [[nodiscard]] const Model& model() const { return model_; }
  [[nodiscard]] std::size_t n() const { return model_.pose_size(); }

  /// q as full poses (see the file comment). `what` names the argument in errors.
  Poses poses(const py::handle& q, const char* what, bool assignments_as_pose = true) const {
    Poses p;
    p.n = n();
    if (py::isinstance<py::dict>(q)) {
      std::vector<JointAssignment> items;
      for (const auto item : q.cast<py::dict>())
        items.push_back({item.first.cast<std::string>(), item.second.cast<double>()});
      if (assignments_as_pose) {
        JointState state;
        apply_pose_assignments(model_, items, state);
        if (state.position.empty()) state.position.assign(n(), 0.0);
        p.owned = std::move(state.position);
      } else {
        p.owned.assign(n(), 0.0);  // rates: joints not given are 0, nothing follows
        for (const auto& item : items) p.owned[model_.joint_index(item.joint)] = item.value;
      }
      p.data = p.owned.data();
      return p;
    }
    if (py::isinstance<py::str>(q)) {
      JointState state = resolve_pose(model_, q.cast<std::string>());
      if (state.position.empty()) state.position.assign(n(), 0.0);
      p.owned = std::move(state.position);
      p.data = p.owned.data();
      return p;
    }
    p.array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(q);
    if (!p.array) throw py::type_error(std::string(what) + ": expected an array of joint values, a dict or a str");
    if (p.array.ndim() == 1) {
      if (static_cast<std::size_t>(p.array.shape(0)) != n()) throw SizeMismatch(what, n(), p.array.shape(0));
    } else if (p.array.ndim() == 2) {
      if (static_cast<std::size_t>(p.array.shape(1)) != n())
        throw SizeMismatch(std::string(what) + " (columns)", n(), p.array.shape(1));
      p.batch = true;
      p.count = p.array.shape(0);
    } else {
      throw InvalidArgument(std::string(what) + ": expected one pose (1-D) or N poses (2-D, N × " +
                            std::to_string(n()) + "), got " + std::to_string(p.array.ndim()) + " dimensions");
    }
    p.data = p.array.data();
    return p;
  }

  /// The bodies of the whole-robot model named by `links` (None: every link, in body order).
  std::vector<std::size_t> bodies(const py::handle& links) const {
    std::vector<std::size_t> out;
    if (links.is_none()) {
      for (std::size_t b = 0; b < km_.size(); ++b) out.push_back(b);
      return out;
    }
    if (py::isinstance<py::str>(links)) throw py::type_error("links: a list of link names, not a str");
    for (const auto item : links) out.push_back(km_.body_index(item.cast<std::string>()));
    return out;
  }

  py::dict fk(const py::handle& q, const py::handle& links) {
    const Poses p = poses(q, "q");
    const std::vector<std::size_t> selected = bodies(links);
    const auto L = static_cast<py::ssize_t>(selected.size());
    // One array holds every frame, link-major: out[l] is link l's (4, 4) or (N, 4, 4).
    std::vector<py::ssize_t> shape{L};
    if (p.batch) shape.push_back(p.count);
    shape.insert(shape.end(), {4, 4});
    py::array_t<double> out(shape);
    double* o = out.mutable_data();
    const auto write = [&](const kin::Workspace& ws, py::ssize_t k) {
      for (py::ssize_t l = 0; l < L; ++l) {
        const Eigen::Matrix4d& m = ws.frame(selected[static_cast<std::size_t>(l)]).matrix();
        double* f = o + (l * p.count + k) * 16;
        for (int r = 0; r < 4; ++r)
          for (int c = 0; c < 4; ++c) f[r * 4 + c] = m(r, c);
      }
    };
    if (!p.batch) {
      kin::forward_kinematics(km_, ws_, p.row(0));
      write(ws_, 0);
    } else {
      py::gil_scoped_release release;
      kin::Workspace ws(km_);
      for (py::ssize_t k = 0; k < p.count; ++k) {
        kin::forward_kinematics(km_, ws, p.row(k));
        write(ws, k);
      }
    }
    // Each link's frames: a view of its part of `out` (which the views keep alive).
    std::vector<py::ssize_t> view_shape(shape.begin() + 1, shape.end());
    const py::ssize_t block = p.count * 16;
    py::dict frames;
    for (py::ssize_t l = 0; l < L; ++l)
      frames[py::str(km_.body(selected[static_cast<std::size_t>(l)]).name)] =
          py::array_t<double>(view_shape, o + l * block, out);
    return frames;
  }

  ChainKinematics& chain(const std::string& name, bool with_virtual) {
    auto& entry = chains_[{name, with_virtual}];
    if (!entry) entry = std::make_unique<ChainKinematics>(model_, name, with_virtual);
    return *entry;
  }

  std::vector<std::string> jacobian_columns(const std::string& name, bool with_virtual) {
    std::vector<std::string> out;
    for (int slot : chain(name, with_virtual).columns)
      out.push_back(model_.joint_names()[static_cast<std::size_t>(slot)]);
    return out;
  }

  py::array_t<double> jacobian(const std::string& name, const py::handle& q, const py::handle& link_name,
                               const py::handle& point, bool with_virtual) {
    ChainKinematics& ck = chain(name, with_virtual);
    std::size_t body = ck.km.tip();
    if (!link_name.is_none()) {
      const auto link = link_name.cast<std::string>();
      const auto found = ck.km.find_body(link);
      if (!found) {
        if (!model_.find_link(link)) throw NotFound("link", link);
        throw Error("link '" + link + "' is not in chain '" + name + "'");
      }
      body = *found;
    }
    Eigen::Vector3d at = Eigen::Vector3d::Zero();
    if (!point.is_none()) {
      const auto v = point.cast<std::vector<double>>();
      if (v.size() != 3) throw SizeMismatch("point", 3, v.size());
      at = Eigen::Vector3d(v[0], v[1], v[2]);
      if (!at.allFinite()) throw InvalidArgument("point: the coordinates must be finite");
    }
    const Poses p = poses(q, "q");
    const auto k_cols = static_cast<py::ssize_t>(ck.columns.size());
    std::vector<py::ssize_t> shape;
    if (p.batch) shape.push_back(p.count);
    shape.insert(shape.end(), {6, k_cols});
    py::array_t<double> out(shape);
    double* o = out.mutable_data();
    const auto one = [&](kin::Workspace& ws, kin::Jacobian& J, py::ssize_t k) {
      kin::forward_kinematics(ck.km, ws, p.row(k));
      kin::jacobian(ck.km, ws, body, at, J);
      double* row = o + k * 6 * k_cols;
      for (int r = 0; r < 6; ++r)
        for (py::ssize_t c = 0; c < k_cols; ++c) row[r * k_cols + c] = J(r, ck.columns[static_cast<std::size_t>(c)]);
    };
    if (!p.batch) {
      one(ck.ws, jacobian_, 0);
    } else {
      py::gil_scoped_release release;
      kin::Workspace ws(ck.km);
      kin::Jacobian J;
      for (py::ssize_t k = 0; k < p.count; ++k) one(ws, J, k);
    }
    return out;
  }

  static Eigen::Vector3d gravity_vector(const py::handle& g) {
    if (g.is_none()) return dyn::standard_gravity();
    const auto v = g.cast<std::vector<double>>();
    if (v.size() != 3) throw SizeMismatch("g", 3, v.size());
    Eigen::Vector3d out(v[0], v[1], v[2]);
    if (!out.allFinite()) throw InvalidArgument("g: the components must be finite");
    return out;
  }

  /// An (n) or (N, n) result of a per-pose function `f(ws, k, out_row)`.
  template <class F>
  py::array_t<double> per_pose(const Poses& p, std::size_t width, F&& f) {
    std::vector<py::ssize_t> shape;
    if (p.batch) shape.push_back(p.count);
    shape.push_back(static_cast<py::ssize_t>(width));
    py::array_t<double> out(shape);
    double* o = out.mutable_data();
    if (!p.batch) {
      f(dws_, ws_, 0, std::span<double>(o, width));
    } else {
      py::gil_scoped_release release;
      dyn::DynamicsWorkspace dws(km_);
      kin::Workspace ws(km_);
      for (py::ssize_t k = 0; k < p.count; ++k)
        f(dws, ws, k, std::span<double>(o + k * static_cast<py::ssize_t>(width), width));
    }
    return out;
  }

  /// Rates (v, a) for the poses `q`: one row for all, or one per pose.
  Poses rates(const Poses& q, const py::handle& value, const char* what) const {
    Poses r = poses(value, what, false);
    if (r.batch && (!q.batch || r.count != q.count))
      throw SizeMismatch(std::string(what) + " (rows, one per pose of q)", static_cast<std::size_t>(q.count),
                         static_cast<std::size_t>(r.count));
    return r;
  }

  py::array_t<double> rnea(const py::handle& q, const py::handle& v, const py::handle& a, const py::handle& g) {
    const Poses p = poses(q, "q");
    const Poses pv = rates(p, v, "v");
    const Poses pa = rates(p, a, "a");
    const Eigen::Vector3d gravity = gravity_vector(g);
    return per_pose(p, n(), [&](dyn::DynamicsWorkspace& dws, kin::Workspace&, py::ssize_t k, std::span<double> tau) {
      dyn::inverse_dynamics(km_, dws, p.row(k), pv.row(k), pa.row(k), tau, gravity);
    });
  }

  py::array_t<double> gravity(const py::handle& q, const py::handle& g) {
    const Poses p = poses(q, "q");
    const Eigen::Vector3d gravity = gravity_vector(g);
    return per_pose(p, n(), [&](dyn::DynamicsWorkspace& dws, kin::Workspace&, py::ssize_t k, std::span<double> tau) {
      dyn::gravity_torques(km_, dws, p.row(k), tau, gravity);
    });
  }

  py::array_t<double> center_of_mass(const py::handle& q) {
    const Poses p = poses(q, "q");
    return per_pose(p, 3, [&](dyn::DynamicsWorkspace&, kin::Workspace& ws, py::ssize_t k, std::span<double> c) {
      kin::forward_kinematics(km_, ws, p.row(k));
      const Eigen::Vector3d com = kin::center_of_mass(km_, ws);
      std::copy(com.data(), com.data() + 3, c.begin());
    });
  }

  py::array_t<double> mass_matrix(const py::handle& q) {
    const Poses p = poses(q, "q");
    const std::size_t size = n();
    Eigen::MatrixXd M;  // sized by the first pose, reused by the others
    py::array_t<double> out =
        per_pose(p, size * size, [&](dyn::DynamicsWorkspace& dws, kin::Workspace&, py::ssize_t k, std::span<double> m) {
          dyn::mass_matrix(km_, dws, p.row(k), M);
          for (std::size_t r = 0; r < size; ++r)
            for (std::size_t c = 0; c < size; ++c)
              m[r * size + c] = M(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
        });
    std::vector<py::ssize_t> shape;
    if (p.batch) shape.push_back(p.count);
    shape.insert(shape.end(), {static_cast<py::ssize_t>(size), static_cast<py::ssize_t>(size)});
    return out.reshape(shape);
  }

private:
  static Model load(const py::handle& path, const py::handle& semantics, const py::handle& package_path,
                    const py::handle& xacro_args, const py::handle& limits) {
    const ModelSource source = model_source(path, semantics, package_path, xacro_args, limits);
    py::gil_scoped_release release;  // reading, xacro, indexing
    return Model::load(source);
  }

  Model model_;
  kin::KinematicModel km_;
  kin::Workspace ws_;
  dyn::DynamicsWorkspace dws_;
  kin::Jacobian jacobian_;
  std::map<std::pair<std::string, bool>, std::unique_ptr<ChainKinematics>> chains_;
};

py::object text_or_none(const std::string& text) {
  return text.empty() ? py::object(py::none()) : py::object(py::str(text));
}

py::list diagnostics_list(const Diagnostics& diagnostics) {
  py::list out;
  for (const Diagnostic& d : diagnostics.items) {
    py::dict item;
    item["severity"] = std::string(to_string(d.severity));
    item["code"] = d.code;
    item["message"] = d.message;
    item["file"] = text_or_none(d.where.file);
    item["line"] = d.where.line > 0 ? py::object(py::int_(d.where.line)) : py::object(py::none());
    out.append(item);
  }
  return out;
}

py::list chain_list(const Model& model) {
  py::list out;
  for (const Chain& c : model.chains()) {
    py::dict d;
    d["name"] = c.name;
    d["first_link"] = c.first_link;
    d["last_link"] = c.last_link;
    d["last_link_virtual"] = text_or_none(c.last_link_virtual);
    d["default_contact"] = text_or_none(c.default_contact);
    d["description"] = c.description;
    d["joints"] = model.chain_joints(c.name, false);
    d["virtual_joints"] = [&] {
      std::vector<std::string> all = model.chain_joints(c.name, true);
      return std::vector<std::string>(all.begin() + static_cast<std::ptrdiff_t>(c.real_size), all.end());
    }();
    d["indices"] =
        std::vector<int>(c.joint_indices.begin(), c.joint_indices.begin() + static_cast<std::ptrdiff_t>(c.real_size));
    d["group"] = c.group >= 0 ? py::object(py::str(model.groups()[static_cast<std::size_t>(c.group)].name))
                              : py::object(py::none());
    out.append(d);
  }
  return out;
}

py::list group_list(const Model& model) {
  py::list out;
  for (const Group& g : model.groups()) {
    py::dict d;
    d["name"] = g.name;
    d["description"] = g.description;
    d["chains"] = model.group_chains(g.name);
    d["joints"] = model.group_joints(g.name);
    d["indices"] = g.joint_indices;
    out.append(d);
  }
  return out;
}

/// The named poses as full poses, by name; `group/name` for names several groups share.
py::list pose_list(const Model& model) {
  py::list out;
  const auto& poses = model.semantics().poses;
  for (const NamedPose& pose : poses) {
    const auto same =
        std::count_if(poses.begin(), poses.end(), [&](const NamedPose& p) { return p.name == pose.name; });
    const std::string key = same > 1 ? pose.group + "/" + pose.name : pose.name;
    JointState state = named_pose(model, key);
    out.append(
        py::make_tuple(key, take_array(std::move(state.position), {static_cast<py::ssize_t>(model.pose_size())})));
  }
  return out;
}

py::dict limits_dict(const Model& model) {
  const std::size_t n = model.pose_size();
  std::vector<double> lower(n), upper(n), velocity(n), effort(n), acceleration(n), jerk(n);
  const auto or_inf = [](double v) { return v > 0 ? v : kInf; };
  for (std::size_t i = 0; i < n; ++i) {
    const JointInfo& j = model.pose_joint(i);
    lower[i] = j.bounded() ? j.lower : -kInf;
    upper[i] = j.bounded() ? j.upper : kInf;
    velocity[i] = or_inf(j.velocity_limit);
    effort[i] = or_inf(j.effort_limit);
    acceleration[i] = or_inf(j.acceleration_limit);
    jerk[i] = or_inf(j.jerk_limit);
  }
  const auto size = static_cast<py::ssize_t>(n);
  py::dict d;
  d["lower"] = take_array(std::move(lower), {size});
  d["upper"] = take_array(std::move(upper), {size});
  d["velocity"] = take_array(std::move(velocity), {size});
  d["effort"] = take_array(std::move(effort), {size});
  d["acceleration"] = take_array(std::move(acceleration), {size});
  d["jerk"] = take_array(std::move(jerk), {size});
  return d;
}

}  // namespace

const Model& model_of(const py::handle& model) { return model.cast<const PyModel&>().model(); }

std::vector<double> pose_of(const py::handle& model, const py::handle& q, const char* what) {
  const PyModel& m = model.cast<const PyModel&>();
  const Poses p = m.poses(q, what);
  if (p.batch) throw InvalidArgument(std::string(what) + ": one pose, not " + std::to_string(p.count));
  return {p.data, p.data + p.n};
}

void bind_model(py::module_& m) {
  py::class_<PyModel>(m, "Model")
      .def(py::init<const py::handle&, const py::handle&, const py::handle&, const py::handle&, const py::handle&>(),
           py::arg("path"), py::arg("semantics") = py::none(), py::arg("package_path") = py::tuple(),
           py::arg("xacro_args") = py::none(), py::arg("limits") = py::none())
      .def_property_readonly("robot_name", [](const PyModel& s) { return s.model().robot_name(); })
      .def_property_readonly("root_link", [](const PyModel& s) { return s.model().root_link(); })
      .def_property_readonly("joint_names", [](const PyModel& s) { return s.model().joint_names(); })
      .def_property_readonly("links",
                             [](const PyModel& s) {
                               std::vector<std::string> out;
                               for (const auto& l : s.model().links()) out.push_back(l.name);
                               return out;
                             })
      .def_property_readonly("has_semantics", [](const PyModel& s) { return s.model().has_semantics(); })
      .def_property_readonly("total_mass", [](const PyModel& s) { return s.model().total_mass(); })
      .def_property_readonly("diagnostics",
                             [](const PyModel& s) { return diagnostics_list(s.model().load_diagnostics()); })
      .def(
          "index", [](const PyModel& s, const std::string& joint) { return s.model().joint_index(joint); },
          py::arg("joint"))
      .def("_chains", [](const PyModel& s) { return chain_list(s.model()); })
      .def("_groups", [](const PyModel& s) { return group_list(s.model()); })
      .def("_poses", [](const PyModel& s) { return pose_list(s.model()); })
      .def("_limits", [](const PyModel& s) { return limits_dict(s.model()); })
      .def("fk", &PyModel::fk, py::arg("q"), py::arg("links") = py::none())
      .def("jacobian", &PyModel::jacobian, py::arg("chain"), py::arg("q"), py::kw_only(), py::arg("link") = py::none(),
           py::arg("point") = py::none(), py::arg("with_virtual") = false)
      .def("jacobian_columns", &PyModel::jacobian_columns, py::arg("chain"), py::kw_only(),
           py::arg("with_virtual") = false)
      .def("rnea", &PyModel::rnea, py::arg("q"), py::arg("v"), py::arg("a"), py::kw_only(), py::arg("g") = py::none())
      .def("gravity", &PyModel::gravity, py::arg("q"), py::kw_only(), py::arg("g") = py::none())
      .def("mass_matrix", &PyModel::mass_matrix, py::arg("q"))
      .def("center_of_mass", &PyModel::center_of_mass, py::arg("q"));
}

}  // namespace rmodel::python
