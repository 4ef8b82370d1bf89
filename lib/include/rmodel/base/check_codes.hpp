#pragma once
#include "rmodel/export.hpp"
/// @file check_codes.hpp
/// The catalogue of the codes rmodel's reports carry: every code is declared here, once, with
/// its default severity and one line; its page (what it means, why it matters, who cares, an
/// example, the fix) is in lib/src/base/check_codes.cpp, which fails to compile unless every
/// declared code has exactly one page. A Diagnostic can only be made with a model code of this
/// table (DiagnosticCode, rmodel/base/diagnostic.hpp), a LogProblem only with a log code of it
/// (lib/src/stream/log_check.cpp), so the library emits no code the catalogue lacks.
/// `rmodel check --list-codes`, `--explain CODE`, the CODES section of rmodel-check(1) and the
/// rules of `-f sarif` come from here.

#include <span>
#include <string_view>

#include "rmodel/base/severity.hpp"

namespace rmodel {

/// The report a code belongs to: `check_model` (and every model load) or a LogChecker.
enum class CodeScope { model, log };

/// The inputs a model code can be found in (a bit mask); 0 for a log code (the log).
namespace code_input {
inline constexpr unsigned urdf = 1;       ///< the URDF (or its xacro and the files it includes)
inline constexpr unsigned semantics = 2;  ///< the semantics: SRDF, .cpf, rmodel JSON
inline constexpr unsigned limits = 4;     ///< a MoveIt joint_limits.yaml
}  // namespace code_input

/// One code of the catalogue.
struct CheckCode {
  std::string_view code;  ///< stable kebab-case identifier, e.g. "unknown-link"
  CodeScope scope;
  /// As the report gives it: `check_model`'s severity for a model code (a mistake is an error
  /// there, a warning of loading), LogChecker's for a log code.
  Severity severity;
  /// A mistake that loading skips with a warning, as srdfdom and MoveIt load the file, and that
  /// `check_model` counts as an error (is_mistake, rmodel/check/check.hpp).
  bool mistake;
  unsigned inputs;           ///< code_input bits (model codes)
  std::string_view summary;  ///< one line, no final full stop
};

namespace detail {
inline constexpr bool kMistake = true;
inline constexpr unsigned kU = code_input::urdf, kS = code_input::semantics, kL = code_input::limits;
}  // namespace detail

/// Every code, model codes first, in the order the pages list them (by input, then topic).
inline constexpr CheckCode kCheckCodes[] = {
    // ---- the URDF: what ROS's reader (urdfdom) refuses, and the kinematic tree ----
    {"xml-syntax", CodeScope::model, Severity::error, false, detail::kU, "The URDF is not well-formed XML"},
    {"not-urdf", CodeScope::model, Severity::error, false, detail::kU, "The root element is not <robot>"},
    {"robot-name", CodeScope::model, Severity::warning, false, detail::kU, "<robot> has no name attribute"},
    {"no-links", CodeScope::model, Severity::error, false, detail::kU, "The robot has no <link>"},
    {"empty-name", CodeScope::model, Severity::error, false, detail::kU, "A <link> or <joint> without a name"},
    {"duplicate-link", CodeScope::model, Severity::error, false, detail::kU, "Two links of the same name"},
    {"duplicate-joint", CodeScope::model, Severity::error, false, detail::kU, "Two joints of the same name"},
    {"joint-type", CodeScope::model, Severity::error, false, detail::kU, "A joint without a type, or of an unknown type"},
    {"joint-parent", CodeScope::model, Severity::error, false, detail::kU, "A joint without <parent link=...>"},
    {"joint-child", CodeScope::model, Severity::error, false, detail::kU, "A joint without <child link=...>"},
    {"unknown-link", CodeScope::model, Severity::error, detail::kMistake, detail::kU | detail::kS,
     "A link name that is not a link of the URDF"},
    {"self-parent", CodeScope::model, Severity::error, false, detail::kU, "A joint connects a link to itself"},
    {"several-parents", CodeScope::model, Severity::error, false, detail::kU, "A link is the child of several joints"},
    {"missing-limit", CodeScope::model, Severity::error, false, detail::kU,
     "A revolute or prismatic joint without <limit>"},
    {"axis", CodeScope::model, Severity::error, false, detail::kU, "An <axis xyz=...> that is not three numbers"},
    {"zero-axis", CodeScope::model, Severity::error, false, detail::kU, "A joint that moves about a zero axis"},
    {"kinematic-loop", CodeScope::model, Severity::error, false, detail::kU, "Joints that form a loop"},
    {"several-roots", CodeScope::model, Severity::error, false, detail::kU, "More than one link without a parent"},
    {"no-root", CodeScope::model, Severity::error, false, detail::kU, "No link without a parent"},
    {"geometry", CodeScope::model, Severity::error, false, detail::kU,
     "A <visual> or <collision> shape ROS's reader refuses"},
    {"bad-number", CodeScope::model, Severity::error, false, detail::kU, "A number ROS's URDF reader refuses"},
    {"missing-attribute", CodeScope::model, Severity::error, false, detail::kU,
     "An attribute ROS's URDF reader requires is missing"},
    {"inertial-incomplete", CodeScope::model, Severity::warning, false, detail::kU,
     "An <inertial> without its mass or a moment of inertia"},
    {"unsupported-joint", CodeScope::model, Severity::warning, false, detail::kU,
     "A floating or planar joint, treated as fixed"},
    {"limits", CodeScope::model, Severity::warning, false, detail::kU | detail::kL,
     "A joint's lower limit is above its upper limit"},
    {"joint-outside-pose", CodeScope::model, Severity::note, false, detail::kU,
     "A movable joint in no chain or group of the semantics"},
    {"mimic-ignored", CodeScope::model, Severity::note, false, detail::kU, "A <mimic> on a joint that does not move"},
    {"mimic-unknown-joint", CodeScope::model, Severity::error, detail::kMistake, detail::kU,
     "A <mimic> of a joint the URDF lacks"},
    {"mimic-fixed-joint", CodeScope::model, Severity::error, detail::kMistake, detail::kU,
     "A <mimic> of a joint without a value to follow"},
    {"mimic-cycle", CodeScope::model, Severity::error, detail::kMistake, detail::kU, "Mimic joints that follow each other"},
    // ---- physical plausibility ----
    {"inertial-mass", CodeScope::model, Severity::error, false, detail::kU, "A mass of 0 or less with a non-zero inertia"},
    {"inertia-not-positive", CodeScope::model, Severity::error, false, detail::kU,
     "A negative principal moment of inertia"},
    {"inertia-triangle", CodeScope::model, Severity::error, false, detail::kU,
     "Moments of inertia that break the triangle inequality beyond rounding"},
    {"inertia-zero-moment", CodeScope::model, Severity::warning, false, detail::kU,
     "A principal moment of inertia of zero: a thin rod or a point mass"},
    {"kinematics", CodeScope::model, Severity::error, false, detail::kU, "The robot's kinematics cannot be built"},
    {"cannot-hold-weight", CodeScope::model, Severity::warning, false, detail::kU,
     "A joint whose effort limit cannot hold the robot against gravity"},
    // ---- meshes (check --meshes) ----
    {"mesh-missing", CodeScope::model, Severity::error, false, detail::kU, "A <mesh> file that does not exist"},
    {"mesh-unchecked", CodeScope::model, Severity::warning, false, detail::kU, "A <mesh> URI that cannot be looked up"},
    {"mesh-unreadable", CodeScope::model, Severity::error, false, detail::kU,
     "A <mesh> file that assimp cannot read, or that holds no triangles"},
    {"mesh-scale", CodeScope::model, Severity::warning, false, detail::kU,
     "A mesh far too large for its link (millimetres read as metres)"},
    // ---- what another program reading the URDF does with it (check --target) ----
    {"mujoco-inertial-incomplete", CodeScope::model, Severity::error, false, detail::kU,
     "An <inertial> without the mass or a moment MuJoCo requires"},
    {"mujoco-inertia-triangle", CodeScope::model, Severity::error, false, detail::kU,
     "Principal moments of inertia that break A + B >= C, which MuJoCo compares exactly"},
    {"mujoco-inertia-on-bound", CodeScope::model, Severity::warning, false, detail::kU,
     "Principal moments on the bound of A + B >= C, which MuJoCo may refuse by rounding"},
    {"mujoco-moving-body-mass", CodeScope::model, Severity::error, false, detail::kU,
     "A moving link whose mass or a principal moment MuJoCo finds below 1e-15"},
    {"mujoco-geom-mass", CodeScope::model, Severity::error, false, detail::kU,
     "A link without <inertial> whose geoms weigh nothing, which MuJoCo refuses"},
    {"mujoco-free-joint", CodeScope::model, Severity::error, false, detail::kU,
     "A floating joint below a moving link, where MuJoCo refuses a free joint"},
    {"mujoco-geometry", CodeScope::model, Severity::error, false, detail::kU,
     "A shape MuJoCo refuses: a size of 0, or a shape it does not have"},
    {"mujoco-mesh-format", CodeScope::model, Severity::error, false, detail::kU,
     "A mesh MuJoCo cannot read: not STL, OBJ or MSH"},
    {"mujoco-mesh-missing", CodeScope::model, Severity::error, false, detail::kU,
     "A mesh file that is not where MuJoCo looks for it"},
    {"mujoco-mesh-unchecked", CodeScope::model, Severity::warning, false, detail::kU,
     "Meshes not looked for: the URDF has no directory (read from standard input)"},
    {"mujoco-limits", CodeScope::model, Severity::warning, false, detail::kU,
     "Joint limits MuJoCo reads otherwise than ROS"},
    {"mujoco-mimic-ignored", CodeScope::model, Severity::note, false, detail::kU,
     "A <mimic> MuJoCo ignores: the joint moves on its own"},
    {"kdl-root-inertia", CodeScope::model, Severity::warning, false, detail::kU,
     "A root link with an <inertial>, which KDL's tree leaves out"},
    {"kdl-joint-fixed", CodeScope::model, Severity::warning, false, detail::kU,
     "A floating or planar joint, which KDL makes fixed"},
    {"kdl-mimic-ignored", CodeScope::model, Severity::note, false, detail::kU,
     "A <mimic> KDL's tree ignores: the joint moves on its own"},
    {"gazebo-link-dropped", CodeScope::model, Severity::warning, false, detail::kU,
     "A link without inertia, which Gazebo leaves out with every link below it"},
    {"gazebo-no-link", CodeScope::model, Severity::error, false, detail::kU,
     "No link left once Gazebo leaves out the links without inertia"},
    {"gazebo-lump-nan", CodeScope::model, Severity::error, false, detail::kU,
     "Fixed links of mass 0 that sdformat lumps into a centre of mass of NaN"},
    {"gazebo-inertia-invalid", CodeScope::model, Severity::error, false, detail::kU,
     "A link's inertia, with the links fixed to it, that sdformat refuses"},
    {"gazebo-joint-type", CodeScope::model, Severity::error, false, detail::kU,
     "A floating or planar joint, which sdformat cannot convert"},
    {"gazebo-name-clash", CodeScope::model, Severity::error, false, detail::kU,
     "A joint named as a link, which SDF refuses"},
    {"gazebo-mimic-ignored", CodeScope::model, Severity::note, false, detail::kU,
     "A <mimic> sdformat ignores: the joint moves on its own"},
    // ---- xacro ----
    {"xacro", CodeScope::model, Severity::error, false, detail::kU | detail::kS, "A xacro file that does not expand"},
    {"xacro-error", CodeScope::model, Severity::error, false, detail::kU | detail::kS,
     "An error the xacro itself reports (xacro.error())"},
    {"xacro-warning", CodeScope::model, Severity::warning, false, detail::kU | detail::kS,
     "A warning the xacro itself reports (xacro.warning())"},
    {"xacro-message", CodeScope::model, Severity::note, false, detail::kU | detail::kS,
     "A message the xacro itself prints (xacro.message())"},
    // ---- the semantics, in any format (SRDF, .cpf, rmodel JSON) ----
    {"semantics-syntax", CodeScope::model, Severity::error, false, detail::kS, "The semantics file cannot be read"},
    {"ignored", CodeScope::model, Severity::warning, false, detail::kS,
     "An element of a .cpf or JSON semantics file that rmodel does not read"},
    {"duplicate-contact", CodeScope::model, Severity::error, false, detail::kS, "Two contacts of the same name"},
    {"empty-contact", CodeScope::model, Severity::warning, false, detail::kS, "A contact without points"},
    {"duplicate-chain", CodeScope::model, Severity::error, false, detail::kS, "Two chains of the same name"},
    {"unknown-contact", CodeScope::model, Severity::error, false, detail::kS,
     "A chain's default contact that is not declared"},
    {"unreachable-link", CodeScope::model, Severity::error, detail::kMistake, detail::kS,
     "A chain between links with no common ancestor"},
    {"chain-through-ancestor", CodeScope::model, Severity::warning, false, detail::kS,
     "A chain whose last link is not below its first link"},
    {"last-link-not-between", CodeScope::model, Severity::error, detail::kMistake, detail::kS,
     "A chain's last_link is not between its first_link and last_link_virtual"},
    {"empty-chain", CodeScope::model, Severity::warning, false, detail::kS, "A chain without movable joints"},
    {"duplicate-group", CodeScope::model, Severity::error, false, detail::kS, "Two groups of the same name"},
    {"unknown-chain", CodeScope::model, Severity::error, detail::kMistake, detail::kS,
     "A group names a chain that is not declared"},
    {"unknown-joint", CodeScope::model, Severity::error, detail::kMistake, detail::kS,
     "A group names a joint the URDF lacks"},
    {"fixed-joint", CodeScope::model, Severity::note, false, detail::kS, "A group lists fixed joints"},
    {"virtual-joint-in-group", CodeScope::model, Severity::note, false, detail::kS,
     "A group lists a virtual joint of the semantics"},
    {"group-overlap", CodeScope::model, Severity::warning, false, detail::kS,
     "Two groups share joints that no group of their own holds"},
    {"empty-group", CodeScope::model, Severity::note, false, detail::kS, "A group without movable joints"},
    {"eef-unknown-group", CodeScope::model, Severity::warning, false, detail::kS,
     "An end effector names a group that is not declared"},
    {"eef-unknown-link", CodeScope::model, Severity::warning, false, detail::kS,
     "An end effector's parent_link is not a link of the URDF"},
    {"virtual-joint-unknown-link", CodeScope::model, Severity::warning, false, detail::kS,
     "A virtual joint's child_link is not a link of the URDF"},
    {"no-groups", CodeScope::model, Severity::warning, false, detail::kS, "The semantics declare no chain and no group"},
    // ---- MoveIt's SRDF ----
    {"srdf-passive-joint-in-group", CodeScope::model, Severity::warning, false, detail::kS,
     "A <passive_joint> inside a group, where MoveIt does not read it"},
    {"srdf-unknown-element", CodeScope::model, Severity::warning, false, detail::kS,
     "An element SRDF does not have, close to one it has, or in a group or group_state"},
    {"srdf-extension", CodeScope::model, Severity::note, false, detail::kS,
     "An element of another tool's SRDF extension, which MoveIt and rmodel ignore"},
    {"srdf-passive-joint", CodeScope::model, Severity::note, false, detail::kS,
     "A passive joint: rmodel keeps it as any joint"},
    {"srdf-sphere-approximation", CodeScope::model, Severity::note, false, detail::kS,
     "A link's sphere approximation, which rmodel does not use"},
    {"srdf-joint-property", CodeScope::model, Severity::note, false, detail::kS,
     "A joint property, which rmodel does not use"},
    // ---- the collision matrix (disable_collisions, enable_collisions, disable_default_collisions) ----
    {"collision-unknown-link", CodeScope::model, Severity::warning, false, detail::kS,
     "A collision-matrix entry names a link the URDF lacks"},
    {"collision-self-pair", CodeScope::model, Severity::warning, false, detail::kS,
     "A collision-matrix pair of a link with itself"},
    {"collision-duplicate", CodeScope::model, Severity::warning, false, detail::kS,
     "A collision-matrix pair or default given twice, in either order"},
    {"collision-conflict", CodeScope::model, Severity::warning, false, detail::kS,
     "A pair both disabled and enabled in the collision matrix"},
    {"collision-matrix-stale", CodeScope::model, Severity::warning, false, detail::kS,
     "A disabled pair that collides: its reason no longer holds (check --collisions)"},
    {"collision-matrix-missing", CodeScope::model, Severity::warning, false, detail::kS,
     "A pair MoveIt's Setup Assistant would disable that the matrix lacks (check --collisions)"},
    {"collision-matrix-none", CodeScope::model, Severity::note, false, detail::kS,
     "No collision matrix in the semantics to compare (check --collisions)"},
    {"collision-mesh-left-out", CodeScope::model, Severity::warning, false, detail::kU,
     "A collision mesh that cannot be read is left out of the collision checks"},
    {"srdf-duplicate-group", CodeScope::model, Severity::warning, false, detail::kS,
     "A group declared twice in the SRDF"},
    {"srdf-group-empty", CodeScope::model, Severity::warning, false, detail::kS,
     "An SRDF group without a chain, joint or link"},
    {"srdf-unknown-group", CodeScope::model, Severity::error, detail::kMistake, detail::kS,
     "A subgroup or group_state names a group that is not declared"},
    {"srdf-group-cycle", CodeScope::model, Severity::warning, false, detail::kS, "SRDF groups that contain each other"},
    {"srdf-virtual-joint-type", CodeScope::model, Severity::warning, false, detail::kS,
     "A virtual joint of a type other than fixed, floating or planar"},
    {"srdf-virtual-joint-in-group", CodeScope::model, Severity::note, false, detail::kS,
     "An SRDF group lists the virtual joint"},
    {"srdf-virtual-joint-in-pose", CodeScope::model, Severity::note, false, detail::kS,
     "A group_state gives a value to the virtual joint"},
    {"srdf-pose-without-group", CodeScope::model, Severity::warning, false, detail::kS,
     "A group_state without a group attribute"},
    {"srdf-multi-dof-value", CodeScope::model, Severity::note, false, detail::kS,
     "A group_state gives several values to one joint"},
    {"srdf-duplicate-joint", CodeScope::model, Severity::warning, false, detail::kS,
     "A group_state gives a joint twice"},
    {"srdf-duplicate-pose", CodeScope::model, Severity::warning, false, detail::kS,
     "A group_state declared twice for one group"},
    {"group-copy", CodeScope::model, Severity::error, detail::kMistake, detail::kS,
     "A group copied from the other side of the robot and left unedited"},
    {"group-alias", CodeScope::model, Severity::warning, false, detail::kS,
     "A group listing exactly what an earlier group lists"},
    // ---- named poses ----
    {"pose-unknown-joint", CodeScope::model, Severity::error, detail::kMistake, detail::kS,
     "A named pose gives a joint the URDF lacks"},
    {"pose-joint-outside-pose", CodeScope::model, Severity::error, false, detail::kS,
     "A named pose gives a joint outside the full pose"},
    {"pose-out-of-limits", CodeScope::model, Severity::warning, false, detail::kS,
     "A named pose puts a joint outside its limits"},
    // ---- MoveIt's joint_limits.yaml (--limits) ----
    {"limits-syntax", CodeScope::model, Severity::error, false, detail::kL, "A value of joint_limits.yaml that cannot be read"},
    {"limits-ignored", CodeScope::model, Severity::warning, false, detail::kL,
     "A value of joint_limits.yaml that MoveIt does not use"},
    {"limits-unknown-joint", CodeScope::model, Severity::warning, false, detail::kL,
     "joint_limits.yaml gives limits of a joint the URDF lacks"},
    {"limits-fixed-joint", CodeScope::model, Severity::warning, false, detail::kL,
     "joint_limits.yaml gives limits of a joint that does not move"},

    // ---- joint-state logs (check-log) ----
    {"read-error", CodeScope::log, Severity::error, false, 0, "A line or record of the log that cannot be read"},
    {"no-model-joint", CodeScope::log, Severity::error, false, 0, "No joint state of the log names a joint of the model"},
    {"unknown-joint", CodeScope::log, Severity::error, false, 0, "A joint state names a joint outside the full pose"},
    {"array-size", CodeScope::log, Severity::error, false, 0,
     "A joint state whose positions, velocities or efforts do not match its names"},
    {"duplicate-joint", CodeScope::log, Severity::error, false, 0, "A joint state names a joint twice"},
    {"no-stamp", CodeScope::log, Severity::warning, false, 0, "Joint states without a time"},
    {"gap", CodeScope::log, Severity::error, false, 0, "No message for longer than --max-gap"},
    {"stamp-backwards", CodeScope::log, Severity::error, false, 0, "A joint's time goes back"},
    {"stamp-repeated", CodeScope::log, Severity::error, false, 0, "Two samples of a joint at the same time"},
    {"joint-gap", CodeScope::log, Severity::error, false, 0, "No sample of a joint for longer than --max-gap"},
    {"non-finite", CodeScope::log, Severity::error, false, 0, "A position, velocity or effort that is NaN or infinite"},
    {"position-limit", CodeScope::log, Severity::error, false, 0, "A position outside the joint's limits"},
    {"velocity-limit", CodeScope::log, Severity::error, false, 0, "A velocity above the joint's velocity limit"},
    {"implied-velocity", CodeScope::log, Severity::error, false, 0,
     "Consecutive positions imply a velocity above the joint's limit"},
    {"acceleration", CodeScope::log, Severity::error, false, 0, "An implied acceleration above --max-acceleration"},
    {"acceleration-limit", CodeScope::log, Severity::error, false, 0,
     "An implied acceleration above the joint's acceleration limit"},
    {"jerk-limit", CodeScope::log, Severity::error, false, 0, "An implied jerk above the joint's jerk limit"},
    {"effort-limit", CodeScope::log, Severity::error, false, 0, "The motion needs a torque above the joint's effort limit"},
    {"self-collision", CodeScope::log, Severity::error, false, 0,
     "With --collisions: two links of the held pose collide, or come closer than --margin"},
};

/// True when `code` is declared for `scope`. Usable while compiling (DiagnosticCode).
constexpr bool is_check_code(std::string_view code, CodeScope scope) noexcept {
  for (const CheckCode& c : kCheckCodes)
    if (c.scope == scope && c.code == code) return true;
  return false;
}

/// The code's entry, or nullptr.
constexpr const CheckCode* find_check_code(std::string_view code, CodeScope scope) noexcept {
  for (const CheckCode& c : kCheckCodes)
    if (c.scope == scope && c.code == code) return &c;
  return nullptr;
}

/// Every code, as kCheckCodes lists them.
inline constexpr std::span<const CheckCode> check_codes() noexcept { return kCheckCodes; }

/// What a code's page says, beyond its one line. Texts are prose; `example` is the smallest
/// input that shows the problem (lines of the file, or a command and what it prints).
struct CheckCodePage {
  std::string_view meaning;    ///< what the problem is
  std::string_view matters;    ///< why it matters
  std::string_view consumers;  ///< the programs that care, e.g. "MoveIt, robot_state_publisher"
  std::string_view example;    ///< a minimal example, lines joined by '\n'
  std::string_view fix;        ///< how to fix it
};

/// The page of a code of the catalogue. @throws NotFound when `code` is not an entry of kCheckCodes.
RMODEL_API const CheckCodePage& check_code_page(const CheckCode& code);

}  // namespace rmodel
