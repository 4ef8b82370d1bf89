// KDL is opened on first use, not linked: liborocos-kdl is linked with BIND_NOW, so loading
// it binds about a thousand symbols at every start of every program linking it, a quarter
// of the instructions of `rmodel --version` (docs/design.md, "Start-up"). Yet most runs of
// `rmodel` (reading logs, `index`, `joints`, `check`, `fk` of the whole robot) call no KDL
// function: the model keeps its own tables and builds its KDL::Tree only when asked
// (Model::kdl_tree).
//
// librmodel calls a few KDL functions, all of them members or constructors. Each is defined
// here under its mangled name (an asm label), hidden, and forwards to KDL's own, looked up in
// liborocos-kdl opened on the first call (base/lazy_library.hpp, RMODEL_FORWARD_CXX).
// A KDL function called without a forwarder here fails the library's link (-z defs), so a
// new call cannot silently link KDL again. The consumers of librmodel, which may use KDL's
// solvers on the trees it gives them, still link KDL (the target's interface): in their
// programs the library opened here is the one already loaded.
//
// Compiled on its own (not in a unity batch), and only into the shared library: the static
// library of the sanitizer build links KDL, as its test programs do.

#include <atomic>

#include <kdl/chain.hpp>
#include <kdl/frames.hpp>
#include <kdl/jacobian.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/joint.hpp>
#include <kdl/rigidbodyinertia.hpp>
#include <kdl/rotationalinertia.hpp>
#include <kdl/segment.hpp>
#include <kdl/tree.hpp>

#include "base/lazy_library.hpp"

namespace {

rmodel::detail::LazyLibrary kdl_library(RMODEL_KDL_SONAME, "build KDL trees and chains");

}  // namespace

// RMODEL_FORWARD_KDL(id, "mangled name", result, (parameters), (arguments))
#define RMODEL_FORWARD_KDL(id, mangled, result, params, args) \
  RMODEL_FORWARD_CXX(kdl_library, kdl_##id, mangled, result, params, args)

using std::string;
using namespace KDL;

// Trees and chains (Model::kdl_tree, Model::kdl_chain)
RMODEL_FORWARD_KDL(tree_new, "_ZN3KDL4TreeC1ERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE", void,
                   (Tree * self, const string& root), (self, root))
RMODEL_FORWARD_KDL(tree_add_segment,
                   "_ZN3KDL4Tree10addSegmentERKNS_7SegmentERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
                   bool, (Tree * self, const Segment& segment, const string& hook), (self, segment, hook))
RMODEL_FORWARD_KDL(tree_get_chain,
                   "_ZNK3KDL4Tree8getChainERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES8_RNS_5ChainE",
                   bool, (const Tree* self, const string& root, const string& tip, Chain& chain),
                   (self, root, tip, chain))
RMODEL_FORWARD_KDL(chain_new, "_ZN3KDL5ChainC1Ev", void, (Chain * self), (self))
RMODEL_FORWARD_KDL(chain_copy, "_ZN3KDL5ChainC1ERKS0_", void, (Chain * self, const Chain& other), (self, other))
RMODEL_FORWARD_KDL(chain_delete, "_ZN3KDL5ChainD1Ev", void, (Chain * self), (self))
RMODEL_FORWARD_KDL(chain_add_segment, "_ZN3KDL5Chain10addSegmentERKNS_7SegmentE", void,
                   (Chain * self, const Segment& segment), (self, segment))
RMODEL_FORWARD_KDL(chain_get_segment, "_ZNK3KDL5Chain10getSegmentEj", const Segment&,
                   (const Chain* self, unsigned int index), (self, index))

// Segments and joints
RMODEL_FORWARD_KDL(segment_new,
                   "_ZN3KDL7SegmentC1ERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERKNS_5JointERKNS_"
                   "5FrameERKNS_16RigidBodyInertiaE",
                   void, (Segment * self, const string& name, const Joint& joint, const Frame& tip, const RigidBodyInertia& I),
                   (self, name, joint, tip, I))
RMODEL_FORWARD_KDL(segment_delete, "_ZN3KDL7SegmentD1Ev", void, (Segment * self), (self))
RMODEL_FORWARD_KDL(segment_pose, "_ZNK3KDL7Segment4poseERKd", Frame, (const Segment* self, const double& q), (self, q))
RMODEL_FORWARD_KDL(joint_new,
                   "_ZN3KDL5JointC1ERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERKNS0_9JointTypeERKdSD_SD_SD_"
                   "SD_",
                   void,
                   (Joint * self, const string& name, const Joint::JointType& type, const double& scale,
                    const double& offset, const double& inertia, const double& damping, const double& stiffness),
                   (self, name, type, scale, offset, inertia, damping, stiffness))
RMODEL_FORWARD_KDL(joint_new_axis,
                   "_ZN3KDL5JointC1ERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERKNS_6VectorESB_RKNS0_"
                   "9JointTypeERKdSG_SG_SG_SG_",
                   void,
                   (Joint * self, const string& name, const Vector& origin, const Vector& axis,
                    const Joint::JointType& type, const double& scale, const double& offset, const double& inertia,
                    const double& damping, const double& stiffness),
                   (self, name, origin, axis, type, scale, offset, inertia, damping, stiffness))
RMODEL_FORWARD_KDL(joint_delete, "_ZN3KDL5JointD1Ev", void, (Joint * self), (self))
RMODEL_FORWARD_KDL(joint_origin, "_ZNK3KDL5Joint11JointOriginEv", Vector, (const Joint* self), (self))
RMODEL_FORWARD_KDL(joint_axis, "_ZNK3KDL5Joint9JointAxisEv", Vector, (const Joint* self), (self))

// Inertia
RMODEL_FORWARD_KDL(rigid_body_inertia_new, "_ZN3KDL16RigidBodyInertiaC1EdRKNS_6VectorERKNS_17RotationalInertiaE", void,
                   (RigidBodyInertia * self, double mass, const Vector& com, const RotationalInertia& I),
                   (self, mass, com, I))
RMODEL_FORWARD_KDL(rotational_inertia_new, "_ZN3KDL17RotationalInertiaC1Edddddd", void,
                   (RotationalInertia * self, double xx, double yy, double zz, double xy, double xz, double yz),
                   (self, xx, yy, zz, xy, xz, yz))
RMODEL_FORWARD_KDL(rotational_inertia_delete, "_ZN3KDL17RotationalInertiaD1Ev", void, (RotationalInertia * self),
                   (self))

// Joint arrays and Jacobians
RMODEL_FORWARD_KDL(jnt_array_resize, "_ZN3KDL8JntArray6resizeEj", void, (JntArray * self, unsigned int n), (self, n))
RMODEL_FORWARD_KDL(jnt_array_rows, "_ZNK3KDL8JntArray4rowsEv", unsigned int, (const JntArray* self), (self))
RMODEL_FORWARD_KDL(jnt_array_at, "_ZN3KDL8JntArrayclEjj", double&, (JntArray * self, unsigned int i, unsigned int j),
                   (self, i, j))
RMODEL_FORWARD_KDL(jnt_array_value, "_ZNK3KDL8JntArrayclEjj", double,
                   (const JntArray* self, unsigned int i, unsigned int j), (self, i, j))
RMODEL_FORWARD_KDL(jacobian_resize, "_ZN3KDL8Jacobian6resizeEj", void, (Jacobian * self, unsigned int n), (self, n))
RMODEL_FORWARD_KDL(jacobian_columns, "_ZNK3KDL8Jacobian7columnsEv", unsigned int, (const Jacobian* self), (self))
