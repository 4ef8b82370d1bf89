// Denavit–Hartenberg arms as KDL chains and URDF text.

#include "rmodel/kinematics/dh.hpp"

#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/base/xml_text.hpp"

namespace rmodel::kinematics {
namespace {

KDL::Frame to_kdl(const Eigen::Isometry3d& t) {
  const auto& r = t.linear();
  const auto& p = t.translation();
  return KDL::Frame(KDL::Rotation(r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0),
                                  r(2, 1), r(2, 2)),
                    KDL::Vector(p.x(), p.y(), p.z()));
}

void check_motion(const DhJoint& j, std::size_t i) {
  if (j.motion != JointMotion::revolute && j.motion != JointMotion::prismatic &&
      j.motion != JointMotion::fixed)
    throw InvalidArgument(fmt::format("DH joint {}: unknown motion", i + 1));
}

Eigen::Isometry3d rot_z(double a) {
  return Eigen::Isometry3d(Eigen::AngleAxisd(a, Eigen::Vector3d::UnitZ()));
}
Eigen::Isometry3d rot_x(double a) {
  return Eigen::Isometry3d(Eigen::AngleAxisd(a, Eigen::Vector3d::UnitX()));
}
Eigen::Isometry3d trans(double x, double y, double z) {
  return Eigen::Isometry3d(Eigen::Translation3d(x, y, z));
}

KDL::RigidBodyInertia inertia_of(const DhJoint& j) {
  if (j.mass == 0.0) return KDL::RigidBodyInertia::Zero();
  const auto& I = j.inertia;
  return KDL::RigidBodyInertia(
      j.mass, KDL::Vector(j.com.x(), j.com.y(), j.com.z()),
      KDL::RotationalInertia(I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)));
}

}  // namespace

Eigen::Isometry3d dh_transform(const DhJoint& j, double q, DhConvention convention) {
  const double theta = j.theta + (j.motion == JointMotion::revolute ? q : 0.0);
  const double d = j.d + (j.motion == JointMotion::prismatic ? q : 0.0);
  if (convention == DhConvention::standard)
    return rot_z(theta) * trans(0, 0, d) * trans(j.a, 0, 0) * rot_x(j.alpha);
  return rot_x(j.alpha) * trans(j.a, 0, 0) * rot_z(theta) * trans(0, 0, d);
}

KDL::Chain dh_chain(std::span<const DhJoint> joints, DhConvention convention) {
  KDL::Chain chain;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const DhJoint& j = joints[i];
    check_motion(j, i);
    const std::string link = fmt::format("link{}", i + 1);
    const std::string name = fmt::format("joint{}", i + 1);
    const KDL::Frame tip = to_kdl(dh_transform(j, 0.0, convention));
    KDL::Joint joint(name, KDL::Joint::Fixed);
    if (convention == DhConvention::standard) {
      // The motion comes first: about/along z of the previous frame.
      if (j.motion == JointMotion::revolute) joint = KDL::Joint(name, KDL::Joint::RotZ);
      if (j.motion == JointMotion::prismatic) joint = KDL::Joint(name, KDL::Joint::TransZ);
    } else {
      // The motion follows RotX(α)·TransX(a): its axis is RotX(α)·z through (a, 0, 0).
      const KDL::Vector origin(j.a, 0, 0);
      const KDL::Vector axis(0, -std::sin(j.alpha), std::cos(j.alpha));
      if (j.motion == JointMotion::revolute)
        joint = KDL::Joint(name, origin, axis, KDL::Joint::RotAxis);
      if (j.motion == JointMotion::prismatic)
        joint = KDL::Joint(name, origin, axis, KDL::Joint::TransAxis);
    }
    chain.addSegment(KDL::Segment(link, joint, tip, inertia_of(j)));
  }
  return chain;
}

namespace {

void append_link(std::string& out, const std::string& name, const DhJoint* j) {
  if (!j || j->mass == 0.0) {
    fmt::format_to(std::back_inserter(out), "  <link name=\"{}\"/>\n", name);
    return;
  }
  const auto& I = j->inertia;
  fmt::format_to(std::back_inserter(out),
                 "  <link name=\"{}\">\n"
                 "    <inertial>\n"
                 "      <origin xyz=\"{:.17g} {:.17g} {:.17g}\" rpy=\"0 0 0\"/>\n"
                 "      <mass value=\"{:.17g}\"/>\n"
                 "      <inertia ixx=\"{:.17g}\" ixy=\"{:.17g}\" ixz=\"{:.17g}\" iyy=\"{:.17g}\" "
                 "iyz=\"{:.17g}\" izz=\"{:.17g}\"/>\n"
                 "    </inertial>\n"
                 "  </link>\n",
                 name, j->com.x(), j->com.y(), j->com.z(), j->mass, I(0, 0), I(0, 1), I(0, 2),
                 I(1, 1), I(1, 2), I(2, 2));
}

void append_joint(std::string& out, const std::string& name, JointMotion motion,
                  const std::string& parent, const std::string& child, double x, double y,
                  double z, double roll, double yaw, const DhJoint& j) {
  const char* type = motion == JointMotion::revolute    ? "revolute"
                     : motion == JointMotion::prismatic ? "prismatic"
                                                        : "fixed";
  fmt::format_to(std::back_inserter(out),
                 "  <joint name=\"{}\" type=\"{}\">\n"
                 "    <parent link=\"{}\"/>\n"
                 "    <child link=\"{}\"/>\n"
                 "    <origin xyz=\"{:.17g} {:.17g} {:.17g}\" rpy=\"{:.17g} 0 {:.17g}\"/>\n",
                 name, type, parent, child, x, y, z, roll, yaw);
  if (motion != JointMotion::fixed)
    fmt::format_to(std::back_inserter(out),
                   "    <axis xyz=\"0 0 1\"/>\n"
                   "    <limit lower=\"{:.17g}\" upper=\"{:.17g}\" effort=\"100\" velocity=\"10\"/>\n",
                   j.lower, j.upper);
  out += "  </joint>\n";
}

}  // namespace

std::string dh_urdf(std::span<const DhJoint> joints, DhConvention convention,
                    std::string_view robot_name) {
  std::string out;
  fmt::format_to(std::back_inserter(out), "<?xml version=\"1.0\"?>\n<robot name=\"{}\">\n",
                 xml_escaped(robot_name, XmlPlace::attribute));
  append_link(out, "link0", nullptr);
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const DhJoint& j = joints[i];
    check_motion(j, i);
    const std::string prev = fmt::format("link{}", i);
    const std::string link = fmt::format("link{}", i + 1);
    const std::string frame = fmt::format("joint{}_frame", i + 1);
    const std::string name = fmt::format("joint{}", i + 1);
    const std::string fixed = fmt::format("joint{}_fixed", i + 1);
    append_link(out, frame, nullptr);
    append_link(out, link, &j);
    if (convention == DhConvention::standard) {
      // RotZ(θ)·[motion about z]  then fixed TransZ(d)·TransX(a)·RotX(α).
      append_joint(out, name, j.motion, prev, frame, 0, 0, 0, 0, j.theta, j);
      append_joint(out, fixed, JointMotion::fixed, frame, link, j.a, 0, j.d, j.alpha, 0, j);
    } else {
      // Fixed RotX(α)·TransX(a), then RotZ(θ)·TransZ(d)·[motion about z].
      append_joint(out, fixed, JointMotion::fixed, prev, frame, j.a, 0, 0, j.alpha, 0, j);
      append_joint(out, name, j.motion, frame, link, 0, 0, j.d, 0, j.theta, j);
    }
  }
  out += "</robot>\n";
  return out;
}

}  // namespace rmodel::kinematics
