// CollisionModel and CollisionWorkspace: the links' shapes in the collision plugin, placed by
// forward kinematics, checked pair by pair. The broad phase is rmodel's own: an axis-aligned
// box per link (the union of its shapes' boxes), swept along x (sort and sweep, the order kept
// from pose to pose), then the boxes of the two links' shapes; only pairs whose boxes meet go
// to FCL. Nothing here allocates once the workspace is built.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include <fmt/format.h>

#include "collision/collision_impl.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/kinematics/forward_kinematics.hpp"

namespace rmodel::collision {

struct WorkspaceAccess {
  static CollisionWorkspace::State& state(CollisionWorkspace& ws) { return *ws.state_; }
  static kinematics::Workspace& kin(CollisionWorkspace& ws) { return ws.kin_; }
  static const CollisionModel::Impl* model(const CollisionWorkspace& ws) { return ws.model_; }
  static std::vector<PairContact>& contacts(CollisionWorkspace& ws) { return ws.contacts_; }
  static std::size_t& count(CollisionWorkspace& ws) { return ws.count_; }
};

namespace {

/// MoveIt's "Adjacent" pairs: links joined by a joint, where a link without geometry joins
/// all its neighbours to each other, until nothing changes (compute_default_collisions.cpp's
/// connection graph); then the pairs of links with geometry.
std::vector<LinkPair> adjacent_links(const Model& model, const std::vector<std::string>& links) {
  const auto& all = model.links();
  const std::size_t n = all.size();
  std::vector<int> geometry(n, -1);  // index into links, or -1
  for (std::size_t i = 0; i < n; ++i)
    if (const auto it = std::find(links.begin(), links.end(), all[i].name); it != links.end())
      geometry[i] = static_cast<int>(it - links.begin());
  std::vector<char> edge(n * n, 0);
  auto index = [&](const std::string& name) {
    for (std::size_t i = 0; i < n; ++i)
      if (all[i].name == name) return i;
    return n;
  };
  for (const auto& joint : model.urdf_joints()) {
    const std::size_t p = index(joint.parent_link), c = index(joint.child_link);
    if (p < n && c < n && p != c) edge[p * n + c] = edge[c * n + p] = 1;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t l = 0; l < n; ++l) {
      if (geometry[l] >= 0) continue;
      for (std::size_t i = 0; i < n; ++i) {
        if (!edge[l * n + i]) continue;
        for (std::size_t j = i + 1; j < n; ++j) {
          if (!edge[l * n + j] || edge[i * n + j]) continue;
          edge[i * n + j] = edge[j * n + i] = 1;
          changed = true;
        }
      }
    }
  }
  std::vector<LinkPair> out;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (edge[i * n + j] && geometry[i] >= 0 && geometry[j] >= 0) {
        const auto a = static_cast<std::uint32_t>(geometry[i]), b = static_cast<std::uint32_t>(geometry[j]);
        out.push_back({std::min(a, b), std::max(a, b)});
      }
  std::sort(out.begin(), out.end(), [](const LinkPair& x, const LinkPair& y) {
    return std::pair(x.first, x.second) < std::pair(y.first, y.second);
  });
  return out;
}

bool overlap(const Eigen::Vector3d& min1, const Eigen::Vector3d& max1, const Eigen::Vector3d& min2,
             const Eigen::Vector3d& max2, double margin) {
  return (min1.array() <= max2.array() + margin).all() && (min2.array() <= max1.array() + margin).all();
}

/// What a pair of links gives: intersecting with the deepest penetration, or not, with the
/// smallest distance (computed only with a margin, among the shapes whose boxes come within it).
struct PairOutcome {
  bool collide = false;
  double depth = 0.0;
  double distance = std::numeric_limits<double>::infinity();
};

PairOutcome check_pair(const CollisionModel::Impl& m, CollisionWorkspace::State& s, std::uint32_t a, std::uint32_t b,
                       detail::PluginQuery what, double margin) {
  const detail::PluginApi& api = detail::plugin();
  PairOutcome out;
  for (std::uint32_t i = m.link_first[a]; i < m.link_end[a]; ++i) {
    for (std::uint32_t j = m.link_first[b]; j < m.link_end[b]; ++j) {
      if (!overlap(s.shape_min[i], s.shape_max[i], s.shape_min[j], s.shape_max[j], margin)) continue;
      detail::PluginResult r;
      api.query(s.scratch, m.checked[i].geometry->handle, &s.shape_pose[i], m.checked[j].geometry->handle,
                &s.shape_pose[j], what, &r);
      if (r.collide) {
        if (!out.collide) out.depth = r.depth;
        out.collide = true;
        out.depth = std::max(out.depth, r.depth);
        if (what == detail::PluginQuery::intersect) return out;
      } else if (what == detail::PluginQuery::distance) {
        out.distance = std::min(out.distance, r.distance);
      }
    }
  }
  return out;
}

}  // namespace

CollisionModel::CollisionModel(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

CollisionModel CollisionModel::build(const Model& model, const GeometryOptions& options) {
  // The URDF alone: its pose is every movable joint, in declaration order.
  const Model urdf = Model::from_urdf_string(model.urdf_text(), model.urdf_source());
  auto impl = std::make_shared<Impl>(model, kinematics::KinematicModel::from_model(urdf));
  impl->joint_names = urdf.joint_names();
  for (std::size_t i = 0; i < urdf.pose_size(); ++i) {
    const JointInfo& j = urdf.pose_joint(i);
    double lo = 0, hi = 0;
    if (j.type == JointType::continuous) {
      lo = -std::numbers::pi;
      hi = std::numbers::pi;
    } else if (j.has_limits) {
      lo = j.lower;
      hi = j.upper;
    }
    impl->lower.push_back(lo);
    impl->upper.push_back(hi);
    impl->defaults.push_back(lo > 0 || hi < 0 ? (lo + hi) / 2 : 0.0);
  }
  impl->shapes = read_collision_shapes(model.urdf_text(), options);
  // Links with a usable shape, in URDF order; their shapes grouped by link.
  for (const auto& link : urdf.links()) {
    bool any = false;
    for (std::uint32_t s = 0; s < impl->shapes.size(); ++s) {
      const Shape& shape = impl->shapes[s];
      if (shape.link != link.name || !shape.usable()) continue;
      if (!any) {
        impl->links.push_back(link.name);
        impl->link_body.push_back(impl->kin.body_index(link.name));
        impl->link_first.push_back(static_cast<std::uint32_t>(impl->checked.size()));
        any = true;
      }
      Impl::Checked c;
      c.shape = s;
      c.link = static_cast<std::uint32_t>(impl->links.size() - 1);
      c.origin = shape.origin;
      c.box = *local_box(shape);
      c.geometry = detail::make_plugin_geometry(shape);
      impl->checked.push_back(std::move(c));
    }
    if (any) impl->link_end.push_back(static_cast<std::uint32_t>(impl->checked.size()));
  }
  impl->adjacent = adjacent_links(urdf, impl->links);
  return CollisionModel(std::move(impl));
}

const std::vector<std::string>& CollisionModel::links() const noexcept { return impl_->links; }

std::optional<std::size_t> CollisionModel::find_link(std::string_view name) const noexcept {
  const auto it = std::find(impl_->links.begin(), impl_->links.end(), name);
  if (it == impl_->links.end()) return std::nullopt;
  return static_cast<std::size_t>(it - impl_->links.begin());
}

std::span<const Shape> CollisionModel::shapes() const noexcept { return impl_->shapes; }

std::vector<const Shape*> CollisionModel::unusable_shapes() const {
  std::vector<const Shape*> out;
  for (const auto& s : impl_->shapes)
    if (!s.usable()) out.push_back(&s);
  return out;
}

const kinematics::KinematicModel& CollisionModel::kinematics() const noexcept { return impl_->kin; }
const std::vector<std::string>& CollisionModel::joint_names() const noexcept { return impl_->joint_names; }
std::span<const double> CollisionModel::default_pose() const noexcept { return impl_->defaults; }
std::span<const double> CollisionModel::lower() const noexcept { return impl_->lower; }
std::span<const double> CollisionModel::upper() const noexcept { return impl_->upper; }
const std::vector<LinkPair>& CollisionModel::adjacent_pairs() const noexcept { return impl_->adjacent; }
const Model& CollisionModel::model() const noexcept { return impl_->model; }

std::vector<int> joint_slots(const CollisionModel& model, std::span<const std::string> names) {
  const auto& joints = model.joint_names();
  std::vector<int> out;
  out.reserve(names.size());
  for (const auto& name : names) {
    const auto it = std::find(joints.begin(), joints.end(), name);
    out.push_back(it == joints.end() ? -1 : static_cast<int>(it - joints.begin()));
  }
  return out;
}

// ---- workspace ----

CollisionWorkspace::CollisionWorkspace(const CollisionModel& model)
    : model_(&model.impl()), kin_(model.kinematics()), state_(std::make_unique<State>()) {
  const auto& m = *model_;
  State& s = *state_;
  s.scratch = detail::plugin().make_scratch();
  if (s.scratch == nullptr) throw IoError("collision plugin", "out of memory");
  s.shape_pose.resize(m.checked.size(), Eigen::Isometry3d::Identity());
  s.shape_min.resize(m.checked.size(), Eigen::Vector3d::Zero());
  s.shape_max.resize(m.checked.size(), Eigen::Vector3d::Zero());
  s.link_min.resize(m.links.size(), Eigen::Vector3d::Zero());
  s.link_max.resize(m.links.size(), Eigen::Vector3d::Zero());
  s.order.resize(m.links.size());
  for (std::uint32_t i = 0; i < s.order.size(); ++i) s.order[i] = i;
  contacts_.resize(m.links.size() * (m.links.size() > 0 ? m.links.size() - 1 : 0) / 2);
}

CollisionWorkspace::~CollisionWorkspace() = default;
CollisionWorkspace::CollisionWorkspace(CollisionWorkspace&&) noexcept = default;
CollisionWorkspace& CollisionWorkspace::operator=(CollisionWorkspace&&) noexcept = default;

void set_pose(const CollisionModel& model, CollisionWorkspace& ws, std::span<const double> q) {
  const auto& m = model.impl();
  if (WorkspaceAccess::model(ws) != &m) throw InvalidArgument("the collision workspace belongs to another model");
  if (q.size() != m.joint_names.size()) throw SizeMismatch("collision pose", m.joint_names.size(), q.size());
  kinematics::Workspace& kin = WorkspaceAccess::kin(ws);
  kinematics::forward_kinematics(m.kin, kin, q);
  auto& s = WorkspaceAccess::state(ws);
  for (std::size_t l = 0; l < m.links.size(); ++l) {
    Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
    Eigen::Vector3d hi = -lo;
    const Eigen::Isometry3d& frame = kin.frame(m.link_body[l]);
    for (std::uint32_t i = m.link_first[l]; i < m.link_end[l]; ++i) {
      const auto& c = m.checked[i];
      s.shape_pose[i] = frame * c.origin;
      const Eigen::Vector3d centre = s.shape_pose[i] * c.box.centre;
      const Eigen::Vector3d half = s.shape_pose[i].linear().cwiseAbs() * c.box.half;
      s.shape_min[i] = centre - half;
      s.shape_max[i] = centre + half;
      lo = lo.cwiseMin(s.shape_min[i]);
      hi = hi.cwiseMax(s.shape_max[i]);
    }
    s.link_min[l] = lo;
    s.link_max[l] = hi;
  }
}

std::size_t check_self_collisions(const CollisionModel& model, CollisionWorkspace& ws, const AllowedPairs& allowed,
                                  const CheckOptions& options) {
  const auto& m = model.impl();
  if (WorkspaceAccess::model(ws) != &m) throw InvalidArgument("the collision workspace belongs to another model");
  if (allowed.links() != 0 && allowed.links() != m.links.size())
    throw SizeMismatch("allowed pairs (links)", m.links.size(), allowed.links());
  auto& s = WorkspaceAccess::state(ws);
  auto& contacts = WorkspaceAccess::contacts(ws);
  std::size_t& count = WorkspaceAccess::count(ws);
  count = 0;
  const double margin = std::max(0.0, options.margin);
  const detail::PluginQuery what = margin > 0   ? detail::PluginQuery::distance
                                   : options.depth ? detail::PluginQuery::depth
                                                   : detail::PluginQuery::intersect;
  // Sort and sweep along x: insertion sort, nearly linear when the links moved little.
  auto& order = s.order;
  for (std::size_t i = 1; i < order.size(); ++i)
    for (std::size_t k = i; k > 0 && s.link_min[order[k]].x() < s.link_min[order[k - 1]].x(); --k)
      std::swap(order[k], order[k - 1]);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::uint32_t a = order[i];
    for (std::size_t k = i + 1; k < order.size(); ++k) {
      const std::uint32_t b = order[k];
      if (s.link_min[b].x() > s.link_max[a].x() + margin) break;
      if (allowed.links() != 0 && allowed.allowed(a, b)) continue;
      if (!overlap(s.link_min[a], s.link_max[a], s.link_min[b], s.link_max[b], margin)) continue;
      const std::uint32_t first = std::min(a, b), second = std::max(a, b);
      const PairOutcome r = check_pair(m, s, first, second, what, margin);
      if (r.collide) contacts[count++] = PairContact{{first, second}, r.depth};
      else if (r.distance < margin) contacts[count++] = PairContact{{first, second}, -r.distance};
    }
  }
  std::sort(contacts.begin(), contacts.begin() + static_cast<std::ptrdiff_t>(count),
            [](const PairContact& x, const PairContact& y) {
              return std::pair(x.pair.first, x.pair.second) < std::pair(y.pair.first, y.pair.second);
            });
  return count;
}

double link_distance(const CollisionModel& model, CollisionWorkspace& ws, std::size_t a, std::size_t b) {
  const auto& m = model.impl();
  if (WorkspaceAccess::model(ws) != &m) throw InvalidArgument("the collision workspace belongs to another model");
  if (a >= m.links.size() || b >= m.links.size() || a == b)
    throw InvalidArgument(fmt::format("link_distance: links {} and {} of {}", a, b, m.links.size()));
  const PairOutcome r = check_pair(m, WorkspaceAccess::state(ws), static_cast<std::uint32_t>(a),
                                   static_cast<std::uint32_t>(b), detail::PluginQuery::distance,
                                   std::numeric_limits<double>::infinity());
  return r.collide ? -r.depth : r.distance;
}

}  // namespace rmodel::collision
