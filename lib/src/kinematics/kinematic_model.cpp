// Building the flattened kinematic model from rmodel::Model, KDL::Chain or KDL::Tree.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kinematics/model_data.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel::kinematics {
namespace {

constexpr double axis_snap_tolerance = 1e-12;
constexpr double rebuild_tolerance = 1e-9;

Eigen::Isometry3d to_eigen(const KDL::Frame& f) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) t.linear()(i, j) = f.M(i, j);
    t.translation()(i) = f.p(i);
  }
  return t;
}

Eigen::Vector3d to_eigen(const KDL::Vector& v) { return {v.x(), v.y(), v.z()}; }

/// Signed angle of a rotation matrix about the unit axis u (assumed to be its axis).
double signed_angle(const Eigen::Matrix3d& r, const Eigen::Vector3d& u) {
  const Eigen::Vector3d s{r(2, 1) - r(1, 2), r(0, 2) - r(2, 0), r(1, 0) - r(0, 1)};
  return std::atan2(0.5 * s.dot(u), 0.5 * (r.trace() - 1.0));
}

bool is_rotational(KDL::Joint::JointType t) {
  return t == KDL::Joint::RotAxis || t == KDL::Joint::RotX || t == KDL::Joint::RotY ||
         t == KDL::Joint::RotZ;
}
bool is_translational(KDL::Joint::JointType t) {
  return t == KDL::Joint::TransAxis || t == KDL::Joint::TransX || t == KDL::Joint::TransY ||
         t == KDL::Joint::TransZ;
}

/// Link frame of a body relative to its parent at joint value q, from the Body fields.
Eigen::Isometry3d body_transform(const Body& b, double q) {
  Eigen::Isometry3d t = b.origin;
  const double theta = b.scale * q + b.offset;
  if (b.motion == JointMotion::revolute) t.rotate(Eigen::AngleAxisd(theta, b.axis));
  if (b.motion == JointMotion::prismatic) t.translate(b.axis * theta);
  t.translate(b.tip);
  return t;
}

/// Origin, axis, scale, tip and motion of a body from its KDL segment, so that
/// segment.pose(q) = origin · M(scale·q) · Trans(tip).
void describe_joint(const KDL::Segment& segment, Body& body) {
  const KDL::Joint& joint = segment.getJoint();
  const KDL::Joint::JointType type = joint.getType();
  const Eigen::Isometry3d f0 = to_eigen(segment.pose(0.0));
  body.joint = joint.getName();
  if (!is_rotational(type) && !is_translational(type)) {
    body.motion = JointMotion::fixed;
    body.origin = f0;
    return;
  }
  const Eigen::Vector3d a = to_eigen(joint.JointAxis());
  if (a.norm() < 1e-12)
    throw InvalidArgument(fmt::format("segment '{}': joint '{}' has a zero axis",
                                      segment.getName(), joint.getName()));
  // The joint moves the segment's tip frame by a rotation about (or translation along) the
  // line through JointOrigin() with direction JointAxis(), both in the parent frame:
  // pose(q) = Screw(scale·q) · pose(0). Rewritten in the tip frame of pose(0).
  const Eigen::Vector3d u = (f0.linear().transpose() * a).normalized();
  body.axis = u;
  const Eigen::Isometry3d f1 = to_eigen(segment.pose(1.0));
  if (is_rotational(type)) {
    body.motion = JointMotion::revolute;
    const Eigen::Vector3d o = to_eigen(joint.JointOrigin());
    const Eigen::Vector3d c = f0.linear().transpose() * (o - f0.translation());  // axis point
    body.origin = f0;
    body.origin.translation() = o;  // joint frame: f0's axes, placed on the axis
    body.tip = (c.norm() < 1e-15) ? Eigen::Vector3d::Zero() : Eigen::Vector3d(-c);
    // The scale is private in KDL::Joint: recover it from the motion (KDL scales are
    // almost always 1; a small step disambiguates whole turns).
    const Eigen::Matrix3d r1 = f0.linear().transpose() * f1.linear();
    const double phi1 = signed_angle(r1, u);
    const Eigen::Isometry3d fs = to_eigen(segment.pose(1.0 / 64.0));
    const double estimate = 64.0 * signed_angle(f0.linear().transpose() * fs.linear(), u);
    const double turns = std::round((estimate - phi1) / (2.0 * std::numbers::pi));
    body.scale = phi1 + 2.0 * std::numbers::pi * turns;
  } else {
    body.motion = JointMotion::prismatic;
    body.origin = f0;
    body.scale = (f1.translation() - f0.translation()).dot(f0.linear() * u);
  }
  // Check the rewriting against KDL itself at a few values.
  for (const double q : {0.7, -1.3, 2.9}) {
    const Eigen::Isometry3d expected = to_eigen(segment.pose(q));
    const Eigen::Isometry3d got = body_transform(body, q);
    const double scale = 1.0 + expected.translation().norm();
    if ((expected.matrix() - got.matrix()).cwiseAbs().maxCoeff() <= rebuild_tolerance * scale)
      continue;
    throw InvalidArgument(fmt::format(
        "segment '{}': joint '{}' of type {} moves in a way rmodel cannot represent",
        segment.getName(), joint.getName(), joint.getTypeName()));
  }
}

LinkInertial inertial_from_kdl(const KDL::RigidBodyInertia& rbi) {
  LinkInertial out;
  out.mass = rbi.getMass();
  out.com = to_eigen(rbi.getCOG());
  const KDL::RotationalInertia io = rbi.getRotationalInertia();  // about the link origin
  Eigen::Matrix3d i_origin;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) i_origin(r, c) = io.data[3 * r + c];
  const Eigen::Vector3d& c = out.com;
  out.inertia = i_origin - out.mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() -
                                       c * c.transpose());
  return out;
}

LinkInertial inertial_from_model(const Inertial& in) {
  LinkInertial out;
  out.mass = in.mass;
  out.com = to_eigen(in.com);
  out.inertia = in.inertia;
  return out;
}

MotionKind classify(const Body& b, double& scale, double& offset, Eigen::Vector3d& axis) {
  scale = b.scale;
  offset = b.offset;
  axis = b.axis;
  if (b.motion == JointMotion::fixed || b.q_index < 0) return MotionKind::fixed;
  if (b.motion == JointMotion::prismatic) return MotionKind::prismatic;
  for (int k = 0; k < 3; ++k) {
    const Eigen::Vector3d e = Eigen::Vector3d::Unit(k);
    const double sign = b.axis(k) < 0 ? -1.0 : 1.0;
    if ((b.axis - sign * e).cwiseAbs().maxCoeff() <= axis_snap_tolerance) {
      scale = sign * b.scale;
      offset = sign * b.offset;
      axis = e;
      return static_cast<MotionKind>(static_cast<int>(MotionKind::rot_x) + k);
    }
  }
  return MotionKind::rot_axis;
}

/// Fills nodes, ancestry, offsets and the name index from `bodies` (in depth-first
/// preorder, which every builder produces).
std::shared_ptr<const KinematicModel::Data> finish(std::vector<Body> bodies,
                                                   std::size_t pose_size) {
  auto data = std::make_shared<KinematicModel::Data>();
  data->pose_size = pose_size;
  data->q_to_body.assign(pose_size, -1);
  data->q_shared.assign(pose_size, 0);
  const std::size_t n = bodies.size();
  data->nodes.resize(n);
  data->joint_up.assign(n, -1);
  data->joint_above.assign(n, -1);
  data->subtree_end.assign(n, 0);
  data->d1_offset.assign(n + 1, 0);
  data->d2_offset.assign(n + 1, 0);
  for (std::size_t k = 0; k < n; ++k) {
    Body& b = bodies[k];
    if (k > 0 && (b.parent < 0 || static_cast<std::size_t>(b.parent) >= k))
      throw InvalidArgument(fmt::format("body '{}' is not in topological order", b.name));
    if (b.q_index >= 0 && static_cast<std::size_t>(b.q_index) >= pose_size)
      throw InvalidArgument(fmt::format("joint '{}': pose slot {} outside a pose of {}", b.joint,
                                        b.q_index, pose_size));
    if (b.motion == JointMotion::fixed) b.q_index = -1;
    if (b.motion != JointMotion::fixed && b.q_index < 0 && b.offset != 0.0) {
      // Held where its masters at 0 put it (a mimic joint with an offset): a fixed motion.
      b.origin = body_transform(b, 0.0) * Eigen::Translation3d(-b.tip);
      b.motion = JointMotion::fixed;
    }
    Node& nd = data->nodes[k];
    nd.parent = b.parent;
    nd.R = b.origin.linear();
    nd.p = b.origin.translation();
    nd.kind = classify(b, nd.scale, nd.offset, nd.axis);
    nd.q = nd.kind == MotionKind::fixed ? -1 : b.q_index;
    nd.tip = b.tip;
    nd.has_tip = !b.tip.isZero(0.0);
    if (nd.kind == MotionKind::fixed && nd.has_tip) {  // fold a fixed tip into the origin
      nd.p += nd.R * nd.tip;
      nd.tip.setZero();
      nd.has_tip = false;
    }
    nd.origin_rotated = nd.R != Eigen::Matrix3d::Identity();
    nd.origin_translated = !nd.p.isZero(0.0);
    nd.mass = b.inertial.mass;
    nd.com = b.inertial.com;
    data->total_mass += b.inertial.mass;

    const int up = k > 0 ? data->joint_up[static_cast<std::size_t>(b.parent)] : -1;
    const int parent_depth = k > 0 ? bodies[static_cast<std::size_t>(b.parent)].depth : 0;
    if (nd.q >= 0) {
      data->joint_above[k] = up;
      data->joint_up[k] = static_cast<int>(k);
      b.depth = parent_depth + 1;
      ++data->joint_count;
      const auto slot = static_cast<std::size_t>(nd.q);
      if (int& owner = data->q_to_body[slot]; owner >= 0) {
        // Mimic joints read their master's slot; two joints of their own never share one.
        const Body& other = bodies[static_cast<std::size_t>(owner)];
        if (b.mimic_root.empty() && other.mimic_root.empty())
          throw InvalidArgument(fmt::format("joints '{}' and '{}' read the same pose slot {}", other.joint, b.joint, nd.q));
        data->q_shared[slot] = 1;
        if (b.mimic_root.empty()) owner = static_cast<int>(k);  // the slot's own joint
      } else {
        owner = static_cast<int>(k);
      }
    } else {
      data->joint_up[k] = up;
      b.depth = parent_depth;
    }
    nd.depth = b.depth;
    const auto d = static_cast<std::size_t>(b.depth);
    data->d1_offset[k + 1] = data->d1_offset[k] + d;
    data->d2_offset[k + 1] = data->d2_offset[k] + d * (d + 1) / 2;
    data->by_name.emplace(b.name, k);  // first wins on duplicates
  }
  // Depth-first preorder: the parent of every body is on the path from the base to the
  // body before it. Then every subtree is the contiguous range [k, k + size).
  std::vector<int> stack;
  for (std::size_t k = 0; k < n; ++k) {
    while (!stack.empty() && stack.back() != bodies[k].parent) stack.pop_back();
    if (k > 0 && stack.empty())
      throw InvalidArgument("kinematics: bodies are not in depth-first preorder");
    stack.push_back(static_cast<int>(k));
  }
  std::vector<int> size(n, 1);
  for (std::size_t k = n; k-- > 1;) size[static_cast<std::size_t>(bodies[k].parent)] += size[k];
  for (std::size_t k = 0; k < n; ++k) data->subtree_end[k] = static_cast<int>(k) + size[k];
  data->bodies = std::move(bodies);
  return data;
}

Body make_base(std::string name) {
  Body base;
  base.name = std::move(name);
  return base;
}

}  // namespace

KinematicModel::KinematicModel(std::shared_ptr<const Data> data) : data_(std::move(data)) {}

KinematicModel KinematicModel::from_kdl_chain(const KDL::Chain& chain, std::string base_name) {
  std::vector<Body> bodies;
  bodies.reserve(chain.getNrOfSegments() + 1);
  bodies.push_back(make_base(std::move(base_name)));
  int q = 0;
  for (unsigned int i = 0; i < chain.getNrOfSegments(); ++i) {
    const KDL::Segment& segment = chain.getSegment(i);
    Body b;
    b.name = segment.getName();
    b.parent = static_cast<int>(i);
    describe_joint(segment, b);
    if (b.motion != JointMotion::fixed) b.q_index = q++;
    b.inertial = inertial_from_kdl(segment.getInertia());
    bodies.push_back(std::move(b));
  }
  return KinematicModel(finish(std::move(bodies), static_cast<std::size_t>(q)));
}

namespace {

/// Depth-first, children in insertion order, without recursion. `slot` gives a body's pose
/// slot from its tree element; `inertial` its mass properties.
template <typename Slot, typename Inertia>
std::vector<Body> flatten_tree(const KDL::Tree& tree, Slot slot, Inertia inertial) {
  std::vector<Body> bodies;
  bodies.reserve(tree.getNrOfSegments() + 1);
  const auto root = tree.getRootSegment();
  Body base = make_base(root->first);
  base.inertial = inertial(root->first, root->second.segment);
  bodies.push_back(std::move(base));
  struct Item {
    KDL::SegmentMap::const_iterator element;
    int parent;
  };
  std::vector<Item> stack;
  const auto& root_children = GetTreeElementChildren(root->second);
  for (auto it = root_children.rbegin(); it != root_children.rend(); ++it) stack.push_back({*it, 0});
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const KDL::TreeElement& element = item.element->second;
    Body b;
    b.name = item.element->first;
    b.parent = item.parent;
    describe_joint(element.segment, b);
    if (b.motion != JointMotion::fixed) b.q_index = slot(element);
    b.inertial = inertial(b.name, element.segment);
    const int index = static_cast<int>(bodies.size());
    bodies.push_back(std::move(b));
    const auto& children = GetTreeElementChildren(element);
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back({*it, index});
  }
  return bodies;
}

/// How the body of a URDF joint reads the pose when the joint is a mimic: from the slot of
/// the highest joint up its chain of masters that has one (`slot_of` gives a URDF joint's
/// slot, -1 when none), with scale and offset composed from the mimic rules; else from its
/// own slot; else, outside the pose, held where its masters at 0 put it (finish folds it).
template <class SlotOf>
void follow_master(Body& b, const Model& model, SlotOf slot_of, MimicJoints mode) {
  if (b.motion == JointMotion::fixed) return;
  const JointInfo* joint = model.find_urdf_joint(b.joint);
  if (!joint || !joint->mimic) return;
  b.mimic_root = joint->mimic->root;
  b.mimic_multiplier = joint->mimic->root_multiplier;
  b.mimic_offset = joint->mimic->root_offset;
  if (mode == MimicJoints::from_pose && b.q_index >= 0) return;
  // The joint's value is multiplier · q_cur + offset, for each master `cur` up the chain.
  double multiplier = 1.0, offset = 0.0;
  int slot = -1;
  double slot_multiplier = 1.0, slot_offset = 0.0;
  for (const JointInfo* cur = joint; cur && cur->mimic;) {
    offset += multiplier * cur->mimic->offset;
    multiplier *= cur->mimic->multiplier;
    cur = model.find_urdf_joint(cur->mimic->joint);
    if (const int s = cur ? slot_of(*cur) : -1; s >= 0) {
      slot = s;
      slot_multiplier = multiplier;
      slot_offset = offset;
    }
  }
  if (slot >= 0) {
    b.q_index = slot;
    b.offset = b.scale * slot_offset;
    b.scale *= slot_multiplier;
  } else if (b.q_index < 0) {
    b.offset = b.scale * offset;  // the root master held at 0
  }
}

}  // namespace

KinematicModel KinematicModel::from_kdl_tree(const KDL::Tree& tree) {
  auto bodies = flatten_tree(
      tree, [](const KDL::TreeElement& e) { return static_cast<int>(GetTreeElementQNr(e)); },
      [](const std::string&, const KDL::Segment& s) { return inertial_from_kdl(s.getInertia()); });
  return KinematicModel(finish(std::move(bodies), tree.getNrOfJoints()));
}

namespace {

/// The body of a URDF joint, read from rmodel's own tables: moved as KDL moves the segment
/// the model's KDL tree has for it (urdf_loader.cpp, to_kdl_joint), origin · M(q) with the
/// joint's normalised axis and scale 1. Floating and planar joints are fixed, as there.
/// Built without KDL, so that whole-model kinematics (and `check`'s gravity test) do not
/// open it; the test KinematicModel.FromModelMatchesTheModelsKdlTree compares the two.
void describe_urdf_joint(const JointInfo& joint, Body& body) {
  body.joint = joint.name;
  body.origin = to_eigen(joint.origin);
  switch (joint.type) {
    case JointType::revolute:
    case JointType::continuous: body.motion = JointMotion::revolute; break;
    case JointType::prismatic: body.motion = JointMotion::prismatic; break;
    default: body.motion = JointMotion::fixed; return;
  }
  // KDL::Joint normalises the axis (in the parent frame) by KDL::Vector::Norm, which is 0, and
  // the axis infinite, when x is its largest component and under KDL's epsilon (1e-6); the
  // KDL tree's bodies (describe_joint) refuse such a joint. The same rule here, so that the
  // model's and the KDL tree's kinematics agree on every URDF.
  const KDL::Vector r = joint.origin.M * joint.axis;
  const double x = std::abs(r.x());
  if (x >= std::abs(r.y()) && x >= std::abs(r.z()) && x < 1e-6)
    throw InvalidArgument(fmt::format("joint '{}': its axis ({} {} {}) is too short for KDL, which takes it for zero",
                                      joint.name, joint.axis.x(), joint.axis.y(), joint.axis.z()));
  // stableNormalized: the squared norm of a 1e-200 axis underflows.
  body.axis = to_eigen(joint.axis).stableNormalized();
  body.scale = 1.0;
}

}  // namespace

KinematicModel KinematicModel::from_model(const Model& model, MimicJoints mimic_joints) {
  auto inertial_of = [&model](const std::string& link) {
    const LinkInfo* info = model.find_link(link);
    return info && info->inertial ? inertial_from_model(*info->inertial) : LinkInertial{};
  };
  const std::vector<LinkInfo>& links = model.links();
  std::vector<Body> bodies;
  bodies.reserve(links.size());
  Body base = make_base(model.root_link());
  base.inertial = inertial_of(base.name);
  bodies.push_back(std::move(base));
  // Depth-first preorder, children in declaration order (the order of the KDL tree's
  // children), without recursion.
  struct Item {
    const JointInfo* joint;
    int parent;
  };
  std::vector<Item> stack;
  auto push_children = [&](const std::string& link, int parent) {
    const LinkInfo* info = model.find_link(link);
    if (!info) return;
    for (auto it = info->child_joints.rbegin(); it != info->child_joints.rend(); ++it)
      if (const JointInfo* joint = model.find_urdf_joint(*it)) stack.push_back({joint, parent});
  };
  push_children(model.root_link(), 0);
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    Body b;
    b.name = item.joint->child_link;
    b.parent = item.parent;
    describe_urdf_joint(*item.joint, b);
    if (b.motion != JointMotion::fixed) b.q_index = item.joint->index;
    b.inertial = inertial_of(b.name);
    follow_master(b, model, [](const JointInfo& j) { return j.index; }, mimic_joints);
    const int index = static_cast<int>(bodies.size());
    bodies.push_back(std::move(b));
    push_children(bodies.back().name, index);
  }
  return KinematicModel(finish(std::move(bodies), model.pose_size()));
}

KinematicModel KinematicModel::from_chain(const Model& model, std::string_view chain_name,
                                          bool with_virtual, PoseLayout layout, MimicJoints mimic_joints) {
  const Chain& chain = model.chain(chain_name);
  const KDL::Chain& kdl = model.kdl_chain(chain_name, with_virtual);
  const auto indices = chain.indices(with_virtual);
  auto slot_of = [&](const JointInfo& j) {
    if (layout == PoseLayout::full || j.index < 0) return j.index;
    const auto it = std::find(indices.begin(), indices.end(), j.index);
    return it == indices.end() ? -1 : static_cast<int>(it - indices.begin());
  };
  std::vector<Body> bodies;
  bodies.reserve(kdl.getNrOfSegments() + 1);
  bodies.push_back(make_base(chain.first_link));
  for (unsigned int i = 0; i < kdl.getNrOfSegments(); ++i) {
    const KDL::Segment& segment = kdl.getSegment(i);
    Body b;
    b.name = segment.getName();
    b.parent = static_cast<int>(i);
    describe_joint(segment, b);
    if (b.motion != JointMotion::fixed) {
      const JointInfo* j = model.find_urdf_joint(b.joint);
      b.q_index = j ? slot_of(*j) : -1;
      follow_master(b, model, slot_of, mimic_joints);
    }
    const LinkInfo* info = model.find_link(b.name);
    b.inertial = info ? (info->inertial ? inertial_from_model(*info->inertial) : LinkInertial{})
                      : inertial_from_kdl(segment.getInertia());
    bodies.push_back(std::move(b));
  }
  const std::size_t pose_size = layout == PoseLayout::full ? model.pose_size() : indices.size();
  return KinematicModel(finish(std::move(bodies), pose_size));
}

std::size_t KinematicModel::size() const noexcept { return data_->bodies.size(); }
std::size_t KinematicModel::joint_count() const noexcept { return data_->joint_count; }
std::size_t KinematicModel::pose_size() const noexcept { return data_->pose_size; }
std::span<const Body> KinematicModel::bodies() const noexcept { return data_->bodies; }
double KinematicModel::total_mass() const noexcept { return data_->total_mass; }

const Body& KinematicModel::body(std::size_t index) const {
  check_body(*this, index);
  return data_->bodies[index];
}

std::optional<std::size_t> KinematicModel::find_body(std::string_view link) const noexcept {
  const auto it = data_->by_name.find(link);
  if (it == data_->by_name.end()) return std::nullopt;
  return it->second;
}

std::size_t KinematicModel::body_index(std::string_view link) const {
  if (auto i = find_body(link)) return *i;
  throw NotFound("link", std::string(link));
}

std::optional<std::size_t> KinematicModel::joint_body(std::size_t q_index) const noexcept {
  if (q_index >= data_->pose_size || data_->q_to_body[q_index] < 0) return std::nullopt;
  return static_cast<std::size_t>(data_->q_to_body[q_index]);
}

bool KinematicModel::is_ancestor(std::size_t ancestor, std::size_t body) const noexcept {
  const auto n = data_->size();
  if (ancestor >= n || body >= n) return false;
  return ancestor <= body &&
         body < static_cast<std::size_t>(data_->subtree_end[ancestor]);
}

std::vector<std::size_t> KinematicModel::joint_path(std::size_t body) const {
  check_body(*this, body);
  std::vector<std::size_t> path(static_cast<std::size_t>(data_->bodies[body].depth));
  for (int j = data_->joint_up[body]; j >= 0; j = data_->joint_above[static_cast<std::size_t>(j)])
    path[static_cast<std::size_t>(data_->bodies[static_cast<std::size_t>(j)].depth - 1)] =
        static_cast<std::size_t>(j);
  return path;
}

void check_workspace(const KinematicModel& model, const Workspace& ws) {
  if (!ws.belongs_to(model))
    throw InvalidArgument("kinematics: the workspace was built for another kinematic model");
}

void check_body(const KinematicModel& model, std::size_t body) {
  if (body >= model.size())
    throw InvalidArgument(
        fmt::format("kinematics: body index {} out of range (model has {})", body, model.size()));
}

}  // namespace rmodel::kinematics
