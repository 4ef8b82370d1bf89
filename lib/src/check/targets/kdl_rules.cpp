// The rules of kdl_parser (1.14, Debian 12's libkdl-parser-dev), which builds the KDL::Tree of
// robot_state_publisher and of KDL's solvers from the URDF as urdfdom reads it
// (treeFromUrdfModel). It refuses nothing urdfdom accepts; what it reads otherwise:
// - the root link's inertia: the tree's root is a name, not a segment, so its inertia is lost;
//   it warns "The root link X has an inertia specified in the URDF, but KDL does not support a
//   root link with an inertia".
// - a floating or planar joint: "Converting unknown joint type of joint 'j' into a fixed joint".
// - a <mimic>: not read; the tree has the joint as one that moves on its own.
#include <fmt/format.h>
#include <tinyxml2.h>

#include "check/targets/target_rules.hpp"

namespace rmodel::detail {

void check_kdl(const TargetInput& input, Diagnostics& out) {
  const Model& model = input.model;
  if (const LinkInfo* root = model.find_link(model.root_link()); root && root->inertial) {
    const auto* element = input.link_element(root->name);
    const auto* inertial = element ? element->FirstChildElement("inertial") : nullptr;
    out.add(Severity::warning, input.at(inertial, *root), "kdl-root-inertia",
            fmt::format("root link '{}' has an <inertial> ({} kg), which KDL's tree leaves out: its root is a frame "
                        "without mass; attach the body to a root link of no inertia with a fixed joint",
                        root->name, short_number(root->inertial->mass)));
  }
  for (const JointInfo& joint : model.urdf_joints()) {
    if (joint.type == JointType::floating || joint.type == JointType::planar)
      out.add(Severity::warning, {input.source, joint.line}, "kdl-joint-fixed",
              fmt::format("joint '{}' is {}: kdl_parser makes it a fixed joint, and link '{}' does not move in KDL's "
                          "tree",
                          joint.name, to_string(joint.type), joint.child_link));
    if (joint.mimic)
      out.add(Severity::note, {input.source, joint.line}, "kdl-mimic-ignored",
              fmt::format("joint '{}' mimics '{}': KDL's tree does not read <mimic>, and the joint moves on its own "
                          "there (its solvers take it as one more joint)",
                          joint.name, joint.mimic->joint));
  }
}

}  // namespace rmodel::detail
