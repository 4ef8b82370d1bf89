// The pages of the catalogue (rmodel/base/check_codes.hpp): one per declared code, in the order of
// kCheckCodes, which a compile-time check below holds them to. Examples are the smallest input
// that shows the problem; consumers name the programs that read the file and what they do.
#include "rmodel/base/check_codes.hpp"

#include <iterator>

#include "rmodel/base/error.hpp"

namespace rmodel {
namespace {

struct Page {
  std::string_view code;
  CodeScope scope;
  CheckCodePage page;
};

constexpr CodeScope M = CodeScope::model;
constexpr CodeScope L = CodeScope::log;

// Consumers, as the pages name them.
constexpr std::string_view kRos =
    "urdfdom, ROS's URDF reader, and everything that reads the URDF through it: robot_state_publisher, MoveIt, "
    "RViz, kdl_parser, Gazebo's URDF import (sdformat), Pinocchio";
constexpr std::string_view kMoveIt = "MoveIt (srdfdom and the RobotModel it builds), rmodel";
constexpr std::string_view kMujoco =
    "MuJoCo's compiler reading a URDF (mj_loadXML, mujoco.MjModel.from_xml_path), and what loads robots through it; "
    "the rule is MuJoCo 2.2's, as Debian 12 ships it";
constexpr std::string_view kKdl =
    "kdl_parser, and what builds a KDL::Tree with it: robot_state_publisher, MoveIt's KDL kinematics plugin, KDL's "
    "dynamics solvers";
constexpr std::string_view kGazebo =
    "sdformat's URDF import, by which Gazebo loads a URDF (gz sim, Gazebo Classic, ros_gz_sim create, gz sdf -p); the "
    "rule is sdformat 12's, as Debian 12 ships it";
constexpr std::string_view kRmodel = "rmodel: the full pose, and every program that reads poses or logs by it";

constexpr Page kPages[] = {
    // ---- the URDF ----
    {"xml-syntax", M,
     {"The URDF cannot be parsed as XML: a tag not closed, an attribute without quotes, text after the root "
      "element. The message gives the parser's reason and the line.",
      "Nothing can read the robot: every tool stops at the first XML error.", kRos,
      "<robot name=\"r\">\n  <link name=\"base\">\n</robot>",
      "Fix the XML at the line given (here: close <link name=\"base\"/>). An editor with XML validation shows "
      "the place."}},
    {"not-urdf", M,
     {"The file is XML, but its root element is not <robot>: another kind of file (an SDF, a launch file, an "
      "SRDF given as the URDF).",
      "A URDF reader looks for <robot> at the root and finds no robot.", kRos,
      "<sdf version=\"1.7\">\n  <model name=\"r\"/>\n</sdf>",
      "Give the URDF (--urdf), or expand the xacro that makes it. An SDF is not a URDF."}},
    {"robot-name", M,
     {"<robot> has no name attribute (or an empty one).",
      "urdfdom refuses a <robot> without a name attribute, so ROS tools cannot load the file; MoveIt also "
      "compares the SRDF's robot name with the URDF's.",
      kRos, "<robot>\n  <link name=\"base\"/>\n</robot>", "Name the robot: <robot name=\"my_robot\">."}},
    {"no-links", M,
     {"The robot has no <link> element.", "A robot without links has nothing to move or show; urdfdom refuses "
      "it.",
      kRos, "<robot name=\"r\"/>", "Add the links, or check that a xacro macro that should add them is called."}},
    {"empty-name", M,
     {"A <link> or a <joint> has no name attribute, or an empty one.",
      "Joints and links are found by name: a nameless one cannot be a parent, a child or a joint of a pose, and "
      "urdfdom refuses it.",
      kRos, "<link/>\n<joint type=\"fixed\">...</joint>", "Give every link and joint a unique name."}},
    {"duplicate-link", M,
     {"Two <link> elements have the same name. The message names the line of the first.",
      "Names must be unique: which of the two a joint attaches to is undefined, and urdfdom refuses the file.",
      kRos, "<link name=\"arm\"/>\n<link name=\"arm\"/>",
      "Rename one of them (with xacro: give each macro call its own prefix)."}},
    {"duplicate-joint", M,
     {"Two <joint> elements have the same name. The message names the line of the first.",
      "Joint states, controllers and poses name joints; two of one name cannot be told apart, and urdfdom "
      "refuses the file.",
      kRos, "<joint name=\"elbow\" type=\"fixed\">...</joint>\n<joint name=\"elbow\" type=\"fixed\">...</joint>",
      "Rename one of them (with xacro: a prefix per macro call)."}},
    {"joint-type", M,
     {"A joint has no type attribute, or one that is not revolute, continuous, prismatic, fixed, floating or "
      "planar.",
      "Without a known type nothing knows how the joint moves; urdfdom refuses the file.", kRos,
      "<joint name=\"knee\" type=\"hinge\">...</joint>", "Use one of the URDF's joint types (a hinge is revolute)."}},
    {"joint-parent", M,
     {"A joint has no <parent link=\"...\"/>.", "A joint connects a parent link to a child link; without the "
      "parent it hangs nowhere, and urdfdom refuses the file.",
      kRos, "<joint name=\"j\" type=\"fixed\">\n  <child link=\"b\"/>\n</joint>", "Add <parent link=\"...\"/>."}},
    {"joint-child", M,
     {"A joint has no <child link=\"...\"/>.", "A joint without a child moves nothing, and urdfdom refuses the "
      "file.",
      kRos, "<joint name=\"j\" type=\"fixed\">\n  <parent link=\"a\"/>\n</joint>", "Add <child link=\"...\"/>."}},
    {"unknown-link", M,
     {"A name that should be a link of the URDF is not: a joint's parent or child in the URDF, or a link of the "
      "semantics (a chain's first_link, last_link or last_link_virtual, a group's <link>). A misspelt name is "
      "the usual cause; the message names the element.",
      "In the URDF, urdfdom refuses the file. In the semantics, MoveIt skips the chain or the group's link with "
      "an error in its log and loads the rest, so the group moves fewer joints than meant: loading warns, "
      "check counts it as an error.",
      "urdfdom and every ROS tool (in the URDF); MoveIt, rmodel (in the semantics)",
      "<group name=\"arm\">\n  <chain base_link=\"base_link\" tip_link=\"tool0_link\"/>\n</group>",
      "Use the link's name as the URDF declares it (rmodel tree lists them)."}},
    {"self-parent", M,
     {"A joint's parent and child are the same link.", "A link cannot move relative to itself; the tree has a "
      "loop of one joint.",
      kRos, "<joint name=\"j\" type=\"fixed\">\n  <parent link=\"a\"/>\n  <child link=\"a\"/>\n</joint>",
      "Name the link the joint really moves as its child."}},
    {"several-parents", M,
     {"A link is the child of more than one joint. The message names both joints.",
      "A URDF is a tree: every link but the root has exactly one parent joint. urdfdom refuses the file; closed "
      "chains (parallel mechanisms) cannot be written in URDF.",
      kRos,
      "<joint name=\"a\" type=\"fixed\"><parent link=\"base\"/><child link=\"tool\"/></joint>\n"
      "<joint name=\"b\" type=\"fixed\"><parent link=\"arm\"/><child link=\"tool\"/></joint>",
      "Keep one parent joint per link. For a closed chain, leave one joint out of the URDF (or make it a "
      "<mimic> of the others) and close the loop in the controller or the simulator."}},
    {"missing-limit", M,
     {"A revolute or prismatic joint has no <limit> element.",
      "urdfdom refuses a revolute or prismatic joint without <limit> (its effort and velocity are required); "
      "MoveIt plans within the position limits.",
      kRos,
      "<joint name=\"elbow\" type=\"revolute\">\n  <parent link=\"a\"/>\n  <child link=\"b\"/>\n"
      "  <axis xyz=\"0 0 1\"/>\n</joint>",
      "Add <limit lower=\"...\" upper=\"...\" effort=\"...\" velocity=\"...\"/>, or make the joint continuous "
      "when it turns without end."}},
    {"axis", M,
     {"An <axis xyz=\"...\"> is not three numbers separated by spaces.",
      "urdfdom refuses the file; the joint's direction of motion is unknown.", kRos, "<axis xyz=\"0, 0, 1\"/>",
      "Write three numbers separated by spaces: <axis xyz=\"0 0 1\"/>."}},
    {"zero-axis", M,
     {"A revolute, continuous, prismatic or planar joint has the axis 0 0 0.",
      "The joint cannot move: KDL (and robot_state_publisher through it) takes the axis for zero and places the "
      "child link wrongly, and solvers divide by its length.",
      "KDL, robot_state_publisher, MoveIt, every kinematics solver",
      "<joint name=\"wrist\" type=\"revolute\">\n  <axis xyz=\"0 0 0\"/>\n  ...\n</joint>",
      "Give the direction the joint moves about or along, e.g. <axis xyz=\"0 0 1\"/>, or make it fixed."}},
    {"kinematic-loop", M,
     {"Following parent joints from a link comes back to it: the joints form a cycle. The message lists the "
      "links of the cycle.",
      "A URDF is a tree; a loop has no root and no order in which to compute poses.", kRos,
      "<joint name=\"a\" type=\"fixed\"><parent link=\"x\"/><child link=\"y\"/></joint>\n"
      "<joint name=\"b\" type=\"fixed\"><parent link=\"y\"/><child link=\"x\"/></joint>",
      "Remove one joint of the cycle (see several-parents for closed chains)."}},
    {"several-roots", M,
     {"More than one link has no parent joint: the URDF is several trees. The message lists the roots.",
      "A robot has one root; urdfdom refuses the file. Usually a joint attaching a part was left out or names "
      "the wrong link.",
      kRos, "<link name=\"base\"/>\n<link name=\"camera\"/>  <!-- no joint attaches it -->",
      "Attach every part with a joint (a fixed joint for a rigid mount)."}},
    {"no-root", M,
     {"Every link has a parent joint, so there is no root.", "The joints form a loop (see kinematic-loop); "
      "urdfdom refuses the file.",
      kRos, "<joint name=\"a\" type=\"fixed\"><parent link=\"x\"/><child link=\"x2\"/></joint>\n"
      "<joint name=\"b\" type=\"fixed\"><parent link=\"x2\"/><child link=\"x\"/></joint>",
      "Remove the joint that closes the loop."}},
    {"geometry", M,
     {"A <visual> or <collision> has no shape, an unknown shape, negative sizes, a mesh without a filename or "
      "an origin that is not three numbers.",
      "urdfdom refuses the file, so RViz, MoveIt's collision checking and Gazebo get no robot at all.", kRos,
      "<collision>\n  <geometry><cylinder radius=\"0.05\"/></geometry>\n</collision>",
      "Give the shape its required sizes (a cylinder needs radius and length), or remove the element."}},
    {"bad-number", M,
     {"A number urdfdom would refuse: not a number, NaN or infinity, white space after it, a vector that is "
      "not three numbers separated by spaces, a negative velocity, effort or mass, a lower limit above the "
      "upper.",
      "urdfdom refuses the whole file for one bad number; other readers take something else than written "
      "(\"1.5 \" is 1.5 for some and an error for ROS).",
      kRos, "<limit lower=\"-1.57 \" upper=\"1.57\" effort=\"10\" velocity=\"1\"/>",
      "Write plain finite numbers without spaces around them, three per vector."}},
    {"missing-attribute", M,
     {"An attribute urdfdom requires is missing: a <limit> without effort or velocity, a <mimic> without "
      "joint, a <safety_controller> without k_velocity, a <dynamics> with neither damping nor friction.",
      "urdfdom refuses the whole file.", kRos, "<limit lower=\"-1\" upper=\"1\"/>",
      "Add the attribute (effort and velocity of a <limit> are required, 0 if unknown is a lie MoveIt will "
      "believe: give the real values)."}},
    {"inertial-incomplete", M,
     {"An <inertial> without <mass value=\"...\"> or without one of the six moments of <inertia>.",
      "urdfdom logs an error and keeps what it read so far, zero from the missing part on (a link with mass "
      "but no inertia, or no mass); simulators and dynamics then use those zeros. rmodel reads the same "
      "values.",
      "urdfdom, Gazebo, MuJoCo, Pinocchio, KDL dynamics, rmodel dynamics",
      "<inertial>\n  <mass value=\"1.2\"/>\n  <inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\"/>\n</inertial>",
      "Give the mass and all six moments (ixy, ixz and iyz are 0 for a body aligned with its principal axes)."}},
    {"unsupported-joint", M,
     {"A floating or planar joint in the URDF. rmodel's full pose holds one value per joint, so it treats the "
      "joint as fixed.",
      "Logs and poses carry no value for the joint; its child moves with its parent in rmodel's kinematics.",
      kRos, "<joint name=\"base\" type=\"floating\">...</joint>",
      "Nothing to fix when the joint is the floating base (declare it as the SRDF's virtual joint instead when "
      "MoveIt is the consumer); otherwise split it into revolute and prismatic joints."}},
    {"limits", M,
     {"A joint's lower position limit is above its upper one, after the limits of a joint_limits.yaml (--limits) "
      "replaced the URDF's.",
      "No position is within the limits: planners find no valid state, and log checks flag every sample.",
      "MoveIt, ros2_control, rmodel check-log", "joint_limits:\n  elbow:\n    has_position_limits: true\n"
      "    min_position: 1.0\n    max_position: -1.0",
      "Swap or correct the bounds in the file that sets them."}},
    {"joint-outside-pose", M,
     {"A movable joint of the URDF is in no chain and no group of the semantics, so it is not part of the full "
      "pose.",
      "Logs written with the pose leave the joint out; a planner does not move it. Usually a joint was added to "
      "the URDF and not to the semantics.",
      kRmodel, "robot.urdf: joint 'tail_wag' (revolute)\nrobot.json: no chain or group lists tail_wag",
      "Add the joint to a group (or its links to a chain); --ignore joint-outside-pose accepts joints left out "
      "on purpose (a passive wheel)."}},
    {"mimic-ignored", M,
     {"A <mimic> on a fixed, floating or planar joint: it has no single value to set, so the mimic is ignored.",
      "Harmless, but the author meant something: a joint that should move with another.", kRos,
      "<joint name=\"finger2\" type=\"fixed\">\n  <mimic joint=\"finger1\"/>\n</joint>",
      "Make the joint revolute or prismatic (with limits), or remove the <mimic>."}},
    {"mimic-unknown-joint", M,
     {"A <mimic joint=\"...\"> names a joint the URDF lacks.",
      "robot_state_publisher and MoveIt cannot follow it: the joint moves on its own instead of with its master. "
      "Loading warns; check counts it as an error.",
      "robot_state_publisher, MoveIt, rmodel", "<mimic joint=\"finger_joint1\"/>  <!-- the URDF has finger_1_joint -->",
      "Name the joint to follow as the URDF declares it."}},
    {"mimic-fixed-joint", M,
     {"A <mimic> follows a fixed, floating or planar joint, which has no single value to follow.",
      "The mimic joint moves on its own. Loading warns; check counts it as an error.",
      "robot_state_publisher, MoveIt, rmodel", "<mimic joint=\"camera_mount\"/>  <!-- a fixed joint -->",
      "Follow a revolute, continuous or prismatic joint."}},
    {"mimic-cycle", M,
     {"Mimic joints follow each other in a cycle (a follows b, b follows a). The message lists the cycle.",
      "No joint of the cycle has a value of its own to start from; they all move on their own. Loading warns; "
      "check counts it as an error.",
      "robot_state_publisher, MoveIt, rmodel", "joint a: <mimic joint=\"b\"/>\njoint b: <mimic joint=\"a\"/>",
      "Let one joint of the cycle move on its own (remove its <mimic>)."}},
    // ---- physical plausibility ----
    {"inertial-mass", M,
     {"An <inertial> whose mass is 0 or negative while its inertia is not zero.",
      "No body has an inertia without a mass. Simulators refuse it or blow up (MuJoCo's compiler refuses "
      "moving bodies with a mass below its minimum), and dynamics divide by the mass.",
      "Gazebo, MuJoCo, Pinocchio, KDL dynamics, rmodel dynamics",
      "<inertial>\n  <mass value=\"0\"/>\n  <inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" "
      "izz=\"0.1\"/>\n</inertial>",
      "Give the link's real mass, or leave out <inertial> for a massless frame. --ignore inertial-mass accepts "
      "it in a description you cannot edit."}},
    {"inertia-not-positive", M,
     {"A principal moment of the inertia tensor (an eigenvalue) is negative beyond rounding, 10^-5 of the "
      "largest moment (the message gives them).",
      "No body has a negative moment of inertia. Simulators refuse it or become unstable, and mass matrices "
      "are not invertible.",
      "Gazebo, MuJoCo, Pinocchio, KDL dynamics, rmodel dynamics",
      "<inertia ixx=\"0.01\" ixy=\"0.02\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/>",
      "Compute the inertia of the link's shape (a CAD tool exports it), at the <inertial> origin. --ignore "
      "inertia-not-positive accepts it in a description you cannot edit."}},
    {"inertia-triangle", M,
     {"The moments of inertia break the triangle inequality, ixx + iyy >= izz and the two others, beyond "
      "rounding (10^-5 of the largest moment): on the moments as written, or on the principal moments (the "
      "eigenvalues), which products of inertia can hide.",
      "No body has such moments. MuJoCo's compiler refuses the model (\"inertia must satisfy A + B >= C\"); "
      "other simulators accept it and integrate nonsense.",
      "MuJoCo, Gazebo, Pinocchio, rmodel dynamics",
      "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.05\"/>",
      "Compute the inertia of the link's shape; placeholder values copied between links are the usual cause. "
      "--ignore inertia-triangle accepts it in a description you cannot edit."}},
    {"inertia-zero-moment", M,
     {"A principal moment of inertia is zero, within rounding (10^-5 of the largest moment): a thin rod "
      "(0, 1.2e-4, 1.2e-4), or a point mass (a mass with a zero inertia).",
      "An ideal rod or point mass is a body of the textbook, not of a robot: it cannot turn about that axis, and "
      "a simulator's integrator may divide by the moment. The dynamics take it as written.",
      "MuJoCo (its minimum inertia for moving bodies), Gazebo, Pinocchio, rmodel dynamics",
      "<inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"1.2e-4\" iyz=\"0\" izz=\"1.2e-4\"/>",
      "Give the link the small but non-zero moments of its real shape, or accept the idealisation with "
      "--ignore inertia-zero-moment."}},
    {"kinematics", M,
     {"The robot's kinematics cannot be built from the URDF: KDL would take a joint's axis for zero (an axis "
      "shorter than its tolerance). The message says which joint.",
      "Forward kinematics and every solver built on KDL are wrong for that joint; robot_state_publisher "
      "publishes wrong transforms.",
      "KDL, robot_state_publisher, MoveIt's KDL plugin, rmodel fk and dynamics",
      "<axis xyz=\"0 0 1e-9\"/>", "Give the joint's real axis (a unit vector)."}},
    {"cannot-hold-weight", M,
     {"A movable joint's effort limit is below the torque gravity needs at the zero pose and at every named "
      "pose, the root fixed (the message gives the torques).",
      "The robot cannot hold itself up: controllers saturate, simulators let it sag. Usually the effort limit "
      "or a mass is off by a unit (g for kg, N·mm for N·m).",
      "Gazebo, MuJoCo, ros2_control, MoveIt's time parametrisation",
      "<limit effort=\"0.5\" .../>  on a shoulder carrying a 5 kg arm",
      "Check the effort limit and the masses of the links the joint carries."}},
    // ---- meshes ----
    {"mesh-missing", M,
     {"A <mesh filename> names no file: its package:// package is not found, the file is not there, or it is "
      "a Git LFS pointer instead of the mesh.",
      "RViz shows nothing, MoveIt has no collision geometry, and simulators fail to load the robot.",
      "RViz, MoveIt, Gazebo, MuJoCo, Foxglove",
      "<mesh filename=\"package://my_robot_description/meshes/arm.stl\"/>  <!-- the file is arm.STL -->",
      "Fix the path (case matters), give the package's parent directory with --package-path, or fetch the LFS "
      "objects (git lfs pull)."}},
    {"mesh-unchecked", M,
     {"A <mesh filename> whose URI scheme rmodel cannot look up (http://, model://).",
      "The file may exist where the consumer looks; rmodel cannot tell.", "RViz, Gazebo",
      "<mesh filename=\"https://example.org/arm.stl\"/>",
      "Nothing, when the consumer resolves that scheme; otherwise use package:// or a path."}},
    {"mesh-unreadable", M,
     {"With --meshes: a <mesh> file exists but assimp, which MoveIt and RViz read meshes with, cannot read it "
      "(a truncated or corrupt file, an unknown format, a file of another kind with a mesh's name), or it holds "
      "no triangles. The message gives assimp's reason.",
      "MoveIt leaves the shape out, so the link has no collision geometry there; RViz shows nothing for it.",
      "MoveIt (geometric_shapes), RViz, Gazebo, rmodel collisions",
      "<mesh filename=\"package://arm/meshes/link1.stl\"/>  <!-- an empty or HTML file saved as .stl -->",
      "Export the mesh again (STL, COLLADA or OBJ), or fetch the real file."}},
    {"mesh-scale", M,
     {"With --meshes: a mesh is more than 50 times as large across as its link's joints are apart (at least a "
      "tenth of the robot's largest joint offset). The message gives the power of ten that brings it to size.",
      "A mesh exported in millimetres and read as metres is 1000 times too large: RViz shows a giant, MoveIt "
      "finds every pose in collision, and the inertia from its volume is 10^15 times off.",
      "RViz, MoveIt, Gazebo, MuJoCo", "<mesh filename=\"package://arm/meshes/link1.stl\"/>  <!-- 240 m across -->",
      "Give the mesh its unit: <mesh filename=\"...\" scale=\"0.001 0.001 0.001\"/>, or export it in metres."}},
    // ---- check --target ----
    {"mujoco-inertial-incomplete", M,
     {"An <inertial> lacks its <mass value>, its <inertia> or one of ixx, iyy, izz, ixy, ixz, iyz. ROS reads the "
      "missing part as zero (inertial-incomplete); MuJoCo's URDF reader requires every part.",
      "MuJoCo refuses the whole URDF (\"required attribute missing\", \"missing element\").", kMujoco,
      "<inertial>\n  <mass value=\"1\"/>\n  <inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\"/>\n</inertial>",
      "Write all six moments (0 for the products of inertia a symmetric body has none of) and the mass."}},
    {"mujoco-inertia-triangle", M,
     {"The principal moments of inertia of a link (the eigenvalues of its <inertia>, a negative one taken as 0) "
      "break A + B >= C. MuJoCo compares them exactly: it refuses what is broken by rounding only, which "
      "inertia-triangle allows.",
      "MuJoCo refuses the whole URDF: \"inertia must satisfy A + B >= C; use 'balanceinertia' to fix\".", kMujoco,
      "<inertia ixx=\"0.0833333\" ixy=\"0\" ixz=\"0\" iyy=\"0.0833333\" iyz=\"0\" izz=\"0.166667\"/>",
      "Write the moments of a real body (a thin disc: izz = ixx + iyy, to the last digit), or add "
      "<mujoco><compiler balanceinertia=\"true\"/></mujoco> to the URDF, which evens the three moments out."}},
    {"mujoco-inertia-on-bound", M,
     {"The principal moments of inertia of a link are on the bound of A + B >= C within rounding (a thin disc or "
      "rod written in turned axes), and MuJoCo computes them with an eigen solver of its own.",
      "Whether MuJoCo loads the URDF depends on the last bits its solver finds: it may refuse it (\"inertia must "
      "satisfy A + B >= C\").",
      kMujoco, "<inertia ixx=\"1e-4\" ixy=\"-1e-4\" ixz=\"0\" iyy=\"1e-4\" iyz=\"0\" izz=\"2e-4\"/>",
      "Give the body some thickness, or add <mujoco><compiler balanceinertia=\"true\"/></mujoco> to the URDF."}},
    {"mujoco-moving-body-mass", M,
     {"A link that moves (its joint is not fixed) has a mass or a principal moment of inertia below 1e-15 "
      "(mjMINVAL), with the links fixed to it merged in (MuJoCo's fusestatic): no <inertial>, a point mass, a "
      "thin rod. A link without <inertial> takes its mass from its collision shapes (density 1000), so a link "
      "with neither is massless.",
      "MuJoCo refuses the whole URDF: \"mass and inertia of moving bodies must be larger than mjMINVAL\". A "
      "massless moving link cannot be simulated.",
      kMujoco,
      "<link name=\"tool\"/>\n<joint name=\"wrist\" type=\"revolute\">\n  <parent link=\"arm\"/>\n  "
      "<child link=\"tool\"/>\n  ...\n</joint>",
      "Give the link an <inertial> with a mass and three positive moments, or fix it to its parent; "
      "<mujoco><compiler boundmass=\"1e-6\" boundinertia=\"1e-9\"/></mujoco> raises small values."}},
    {"mujoco-geom-mass", M,
     {"A link without <inertial> has several geoms (visual ones too, with <compiler discardvisual=\"false\">) that "
      "weigh nothing together: MuJoCo gives visual shapes no density.",
      "MuJoCo cannot place the link's centre of mass and refuses the URDF (\"body mass is too small, cannot "
      "compute center of mass\").",
      kMujoco, "<link name=\"camera\">\n  <visual>...</visual>\n  <visual>...</visual>\n</link>",
      "Give the link an <inertial>, or a collision shape."}},
    {"mujoco-free-joint", M,
     {"A floating joint hangs below a link that moves (or, with <compiler fusestatic=\"false\">, below any link "
      "but \"world\"). MuJoCo makes a floating joint a free joint, which only a body hanging from the world may "
      "have.",
      "MuJoCo refuses the whole URDF: \"free joint can only be used on top level\".", kMujoco,
      "<joint name=\"object\" type=\"floating\">\n  <parent link=\"gripper\"/>\n  <child link=\"cup\"/>\n</joint>",
      "Attach the floating body to the root link, through fixed joints only, or to a link named world; an object "
      "held by the robot belongs to the scene, not to the robot's URDF."}},
    {"mujoco-geometry", M,
     {"A <visual> or <collision> shape MuJoCo does not take: a box, cylinder or sphere with a size of 0 (ROS "
      "accepts it), or a shape its URDF reader does not have, such as <capsule>. Visuals count only with "
      "<compiler discardvisual=\"false\">.",
      "MuJoCo refuses the whole URDF (\"sizes must be positive\", \"visual geometry specification not found\").",
      kMujoco, "<collision>\n  <geometry><box size=\"0 0.1 0.1\"/></geometry>\n</collision>",
      "Give every size a positive value (leave out a shape of no size), and write a capsule as a cylinder and two "
      "spheres."}},
    {"mujoco-mesh-format", M,
     {"A mesh MuJoCo makes a geom of (collisions; visuals with <compiler discardvisual=\"false\">) is not an STL, "
      "OBJ or MSH file, the formats MuJoCo 2.2 reads (by the last three letters of the name). COLLADA (.dae) is the "
      "usual one.",
      "MuJoCo refuses the whole URDF: \"Unknown mesh file type\".", kMujoco,
      "<collision>\n  <geometry><mesh filename=\"package://arm/meshes/link1.dae\"/></geometry>\n</collision>",
      "Convert the mesh to STL or OBJ (meshlab, Blender, assimp export) and name the copy in the collision."}},
    {"mujoco-mesh-missing", M,
     {"MuJoCo does not find a mesh file where it looks: by its file name alone (strippath, package:// and folders "
      "dropped) in the URDF's directory, or in <compiler meshdir>; or the file is empty. Meshes of the same file "
      "name and scale are one mesh to MuJoCo, found once.",
      "MuJoCo refuses the whole URDF (\"could not open STL file\").", kMujoco,
      "<mesh filename=\"package://arm/meshes/link1.stl\"/>  <!-- MuJoCo reads link1.stl beside the URDF -->",
      "Copy the meshes beside the URDF, or add <mujoco><compiler meshdir=\"DIR\"/></mujoco> naming the folder "
      "that holds them (relative to the URDF)."}},
    {"mujoco-mesh-unchecked", M,
     {"The URDF came without a directory (read from standard input, `rmodel check - --target mujoco`, or given to "
      "the library as text), and MuJoCo reads a mesh file from the URDF's directory or a <compiler meshdir> relative "
      "to it: the meshes it would read were not looked for. One warning names the first mesh and counts the others. "
      "A mesh of an absolute path, or under an absolute meshdir, is looked for all the same.",
      "Whether MuJoCo finds the meshes, and so whether it loads the robot, is not known: the verdict line says \"not "
      "known\" rather than \"yes\", as a missing mesh makes MuJoCo refuse the whole URDF.",
      kMujoco, "cat robot.urdf | rmodel check - --target mujoco   # robot.urdf has <mesh filename=\"link1.stl\"/>",
      "Check the URDF from its file (rmodel check robot.urdf --target mujoco), so that the meshes are looked for where "
      "MuJoCo will look; --ignore mujoco-mesh-unchecked accepts the robot without them."}},
    {"mujoco-limits", M,
     {"MuJoCo limits a joint when its <limit> has lower < upper, whatever its type: it limits a continuous joint "
      "that has them, which ROS lets turn without end, and leaves free a revolute or prismatic joint whose lower "
      "equals its upper (both 0 when not written), which ROS holds still.",
      "The simulated joint moves otherwise than the planned one.", kMujoco,
      "<joint name=\"wheel\" type=\"continuous\">\n  <limit lower=\"-3.14\" upper=\"3.14\" effort=\"5\" "
      "velocity=\"10\"/>\n</joint>",
      "Leave lower and upper out of a continuous joint's <limit>; make a joint that must not move fixed."}},
    {"mujoco-mimic-ignored", M,
     {"A movable joint has a <mimic>: MuJoCo's URDF reader does not read it, and the joint is one more degree of "
      "freedom of its own.",
      "A gripper's mimic finger falls or drifts in simulation instead of following.", kMujoco,
      "<joint name=\"finger_right\" type=\"prismatic\">\n  <mimic joint=\"finger_left\"/>\n  ...\n</joint>",
      "In MJCF, couple the joints with an <equality><joint joint1=... joint2=.../>, or drive both."}},
    {"kdl-root-inertia", M,
     {"The root link of the URDF has an <inertial>. A KDL::Tree's root is a frame, not a segment: kdl_parser "
      "leaves the root's inertia out and warns \"The root link X has an inertia specified in the URDF, but KDL "
      "does not support a root link with an inertia\".",
      "KDL's dynamics (and what uses them, for a floating base) miss the root's mass.", kKdl,
      "<robot name=\"r\">\n  <link name=\"base_link\">\n    <inertial>...</inertial>\n  </link>\n  ...",
      "Add a root link without inertia (base_footprint, or a dummy link) and a fixed joint from it to the body."}},
    {"kdl-joint-fixed", M,
     {"A joint is floating or planar. kdl_parser knows revolute, continuous, prismatic and fixed joints, and makes "
      "any other a fixed one (\"Converting unknown joint type of joint 'j' into a fixed joint\").",
      "The link below does not move in KDL's tree: robot_state_publisher publishes it fixed, KDL's solvers ignore "
      "the motion.",
      kKdl, "<joint name=\"base\" type=\"floating\">\n  <parent link=\"world\"/>\n  <child link=\"body\"/>\n</joint>",
      "Leave the floating base out of the URDF (MoveIt's SRDF declares it as a virtual joint); write a planar motion "
      "as two prismatic joints and a revolute one."}},
    {"kdl-mimic-ignored", M,
     {"A movable joint has a <mimic>. kdl_parser does not read it: in KDL's tree the joint is one more joint, "
      "moving on its own.",
      "KDL's solvers give the mimic joint a value of its own; robot_state_publisher completes it from the master "
      "itself, other KDL users do not.",
      kKdl, "<joint name=\"finger_right\" type=\"prismatic\">\n  <mimic joint=\"finger_left\"/>\n  ...\n</joint>",
      "Nothing in the URDF: set the mimic joint from its master before calling KDL."}},
    {"gazebo-link-dropped", M,
     {"A link has no inertia for sdformat: no <inertial>, or a mass of 1e-6 kg or less, counting the links fixed "
      "to it, which it lumps in. Converting the URDF, sdformat leaves the link out, and every link below it, "
      "silently (a debug message only: \"urdf2sdf: link[X] has no inertia\"). A link lumped into its parent "
      "cuts the links below it too.",
      "The robot in Gazebo lacks those links and joints: an arm without its hand, controllers without their "
      "joints.",
      kGazebo,
      "<link name=\"flange\"/>\n<joint name=\"mount\" type=\"fixed\"><parent link=\"arm\"/><child "
      "link=\"flange\"/></joint>\n<joint name=\"grip\" type=\"revolute\"><parent link=\"flange\"/>...</joint>",
      "Give the link an <inertial> with a mass above 1e-6 kg (a small one for a frame)."}},
    {"gazebo-no-link", M,
     {"Once sdformat leaves out the links without inertia (gazebo-link-dropped), no link of the robot is left: the "
      "root link has none, and every link hangs from it.",
      "sdformat refuses the model: \"A model must have at least one link\".", kGazebo,
      "<link name=\"base_link\"/>  <!-- the root, no <inertial> -->",
      "Give the root link an <inertial>, or attach a link with one to it by a fixed joint."}},
    {"gazebo-lump-nan", M,
     {"sdformat lumps a fixed joint's child into its parent (ReduceFixedJoints) and divides by their total mass: "
      "a child with an <inertial> of mass 0 lumped into a parent of mass 0 (or without <inertial>) gives a "
      "centre of mass of NaN, which stays in every link the pair is lumped into. Camera optical frames written "
      "with a massless <inertial> are the usual cause.",
      "sdformat refuses the whole URDF: \"Pose values must be finite\".", kGazebo,
      "<link name=\"camera_frame\"><inertial><mass value=\"0\"/>...</inertial></link>\n"
      "<link name=\"camera_optical\"><inertial><mass value=\"0\"/>...</inertial></link>",
      "Leave the <inertial> out of massless frames (a link without one is lumped as nothing), or give them a "
      "small mass."}},
    {"gazebo-inertia-invalid", M,
     {"The inertia of a link Gazebo keeps, with the links fixed to it lumped in, is not a valid mass matrix for "
      "ignition-math: a negative mass, a matrix that is not positive semi-definite, or principal moments breaking "
      "the triangle inequality, to a tolerance of 10 machine epsilons.",
      "sdformat refuses the model: \"A link named X has invalid inertia\".", kGazebo,
      "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.05\"/>",
      "Compute the inertia of the body (a CAD tool, or the formulas of a box or cylinder of its size and mass)."}},
    {"gazebo-joint-type", M,
     {"A joint is floating or planar: SDF has no such joint, and sdformat leaves the joint out while it places the "
      "child link relative to it.",
      "sdformat refuses the model (\"relative_to name[j] ... does not match\").", kGazebo,
      "<joint name=\"base\" type=\"floating\">\n  <parent link=\"world\"/>\n  <child link=\"body\"/>\n</joint>",
      "Leave the floating joint out (a model in Gazebo moves freely unless fixed), and write a planar joint as two "
      "prismatic joints and a revolute one."}},
    {"gazebo-name-clash", M,
     {"A joint has the name of a link. URDF keeps links and joints apart; SDF gives them one namespace.",
      "sdformat refuses the model: \"Joint with non-unique name [x] detected\".", kGazebo,
      "<link name=\"wrist\"/>\n<joint name=\"wrist\" type=\"revolute\">...</joint>",
      "Rename the joint (wrist_joint)."}},
    {"gazebo-mimic-ignored", M,
     {"A movable joint that Gazebo keeps has a <mimic>, which sdformat 12 does not convert: the joint moves on its "
      "own in Gazebo.",
      "A mimic finger or a linked wheel does not follow its master in simulation.", kGazebo,
      "<joint name=\"finger_right\" type=\"prismatic\">\n  <mimic joint=\"finger_left\"/>\n  ...\n</joint>",
      "Drive the joint from its master with a plugin (gz-sim's JointPositionController, or a mimic plugin), or "
      "use an sdformat that converts <mimic> (14 and later)."}},
    // ---- xacro ----
    {"xacro", M,
     {"A xacro file (the URDF or the semantics) does not expand: an undefined property or macro, a bad "
      "expression, a missing include, a missing argument. The message gives xacro's reason at the xacro's "
      "line.",
      "Nothing is produced, so nothing can be checked or loaded.", "xacro, every ROS launch file that expands it",
      "<xacro:arm prefix=\"left_\"/>  <!-- no macro 'arm' is defined -->",
      "Fix the xacro at the line given; give arguments with --xacro-arg NAME:=VALUE and packages with "
      "--package-path."}},
    {"xacro-error", M,
     {"The xacro itself reported an error with xacro.error(...) while expanding.",
      "The author marked this combination of arguments as wrong.", "xacro",
      "${xacro.error('prefix must end with _')}", "Follow the xacro's message (usually: other arguments)."}},
    {"xacro-warning", M,
     {"The xacro itself reported a warning with xacro.warning(...) while expanding.",
      "The author flagged something worth knowing about this expansion.", "xacro",
      "${xacro.warning('no gripper: the arm ends at the flange')}", "Read the xacro's message."}},
    {"xacro-message", M,
     {"The xacro printed a message with xacro.message(...) or xacro.print_location() while expanding.",
      "Information from the author; not a problem.", "xacro", "${xacro.message('building the left arm')}",
      "Nothing to fix."}},
    // ---- the semantics ----
    {"semantics-syntax", M,
     {"The semantics file (SRDF, .cpf, rmodel JSON) cannot be read: not well-formed, not of its format, a "
      "required attribute missing, a value that is not a number.",
      "No semantics means no chains, groups or poses; MoveIt refuses the SRDF.", kMoveIt,
      "<group_state name=\"home\" group=\"arm\">\n  <joint name=\"elbow\" value=\"up\"/>\n</group_state>",
      "Fix the file at the line given."}},
    {"ignored", M,
     {"An element of a .cpf or rmodel JSON semantics file that rmodel does not read (an unknown top-level key "
      "or struct).",
      "What it says has no effect; a misspelt key (\"group\" for \"groups\") silently drops a whole section.",
      "rmodel", "{\"chains\": [...], \"group\": [...]}", "Use the keys of the format (chains, groups, contacts, "
      "poses, end_effectors, virtual_joints), or remove the element."}},
    {"duplicate-contact", M,
     {"Two contacts of the semantics have the same name.", "Chains name their default contact; which one is meant "
      "is undefined. Loading refuses the semantics.",
      "rmodel", "contacts: [{\"name\": \"hoof\", ...}, {\"name\": \"hoof\", ...}]", "Rename one of them."}},
    {"empty-contact", M,
     {"A contact has no points.", "A contact without points supports nothing: contact positions and the floating "
      "base's supports use none.",
      "rmodel contacts and dynamics", "{\"name\": \"hoof\", \"points\": []}",
      "Give the contact's points (in the link's frame), or remove it."}},
    {"duplicate-chain", M,
     {"Two chains of the semantics have the same name.", "Groups and logs name chains; two of one name cannot be "
      "told apart. Loading refuses the semantics.",
      "rmodel", "chains: [{\"name\": \"leg\", ...}, {\"name\": \"leg\", ...}]", "Rename one of them."}},
    {"unknown-contact", M,
     {"A chain's default_contact names a contact that is not declared.",
      "The chain has no contact to stand on; loading refuses the semantics.", "rmodel contacts and dynamics",
      "{\"name\": \"leg\", ..., \"default_contact\": \"foot\"}  with no contact 'foot'",
      "Declare the contact, or name a declared one."}},
    {"unreachable-link", M,
     {"A chain's first_link and last_link have no common ancestor in the URDF (they are in different trees).",
      "No chain of joints connects them: MoveIt skips such a group's chain, and the chain is skipped. Loading "
      "warns; check counts it as an error.",
      kMoveIt, "<chain base_link=\"left_hand\" tip_link=\"camera\"/>  <!-- camera is not attached -->",
      "Attach the link with a joint in the URDF, or name the links the chain really spans."}},
    {"chain-through-ancestor", M,
     {"A chain's last_link is not below its first_link: the chain goes up to their common ancestor and down "
      "again, as KDL::Tree::getChain builds it (the joints on the way up move in reverse).",
      "Legal, but rarely meant: a chain from the hand to the shoulder, or base_link and tip_link swapped.",
      "MoveIt (KDL kinematics plugin), rmodel", "<chain base_link=\"tool0\" tip_link=\"base_link\"/>",
      "Swap base_link and tip_link if they are the wrong way round."}},
    {"last-link-not-between", M,
     {"A chain's last_link_virtual is set, but its last_link is not on the way from first_link to "
      "last_link_virtual.",
      "The chain's virtual part cannot be built: the chain is skipped. Loading warns; check counts it as an "
      "error.",
      "rmodel", "{\"first_link\": \"base\", \"last_link\": \"hand\", \"last_link_virtual\": \"foot\"}",
      "Name a last_link between first_link and last_link_virtual."}},
    {"empty-chain", M,
     {"A chain has no movable joint between its links (only fixed joints).",
      "The chain adds nothing to the full pose; usually the wrong links are named.", "MoveIt, rmodel",
      "<chain base_link=\"tool0\" tip_link=\"tool_flange\"/>  <!-- a fixed joint between them -->",
      "Name the links of the moving part."}},
    {"duplicate-group", M,
     {"Two groups of the semantics have the same name.", "The full pose and logs name groups; loading refuses the "
      "semantics. (In an SRDF, see srdf-duplicate-group.)",
      "rmodel", "groups: [{\"name\": \"arm\", ...}, {\"name\": \"arm\", ...}]", "Rename one of them."}},
    {"unknown-chain", M,
     {"A group names a chain that is not declared.",
      "The group lacks the chain's joints. Loading warns and skips the name; check counts it as an error.",
      "rmodel", "{\"name\": \"arm\", \"chains\": [\"left_arm\"]}  with no chain 'left_arm'",
      "Declare the chain, or name a declared one."}},
    {"unknown-joint", M,
     {"A group names a joint that is not a joint of the URDF (nor a virtual joint of the semantics).",
      "MoveIt skips the joint with an error in its log; the group moves fewer joints than meant. Loading warns; "
      "check counts it as an error.",
      kMoveIt, "<group name=\"arm\">\n  <joint name=\"shoulder_joint\"/>  <!-- the URDF has shoulder_pan_joint -->\n</group>",
      "Use the joint's name as the URDF declares it (rmodel joints lists them)."}},
    {"fixed-joint", M,
     {"A group lists fixed joints. They have no value, so they are skipped.",
      "Harmless (MoveIt keeps them as fixed), but the group may have been meant to move something else.",
      kMoveIt, "<group name=\"gripper\">\n  <joint name=\"gripper_mount\"/>  <!-- fixed -->\n</group>",
      "Remove the fixed joints from the group, or --ignore fixed-joint."}},
    {"virtual-joint-in-group", M,
     {"A group lists a virtual joint of the semantics (the SRDF's <virtual_joint>, e.g. a floating base).",
      "A virtual joint is not part of the full pose (one value per joint); it is skipped.", kMoveIt,
      "<virtual_joint name=\"world_joint\" type=\"floating\" .../>\n<group name=\"body\"><joint "
      "name=\"world_joint\"/>...</group>",
      "Nothing to fix when the group is for MoveIt's floating base; --ignore virtual-joint-in-group."}},
    {"group-overlap", M,
     {"Two groups share movable joints that no group made only of shared joints holds: two legs that both list "
      "the torso's joints, with no torso group. Groups built from other groups (an arm and an arm-and-hand), "
      "nested or equal groups are no overlap.",
      "Legal in MoveIt, but a joint's own group (rmodel joints, logs by group) is the first declared, an "
      "accident of order when neither group is the joint's.",
      kMoveIt, "<group name=\"left_leg\">... torso_joint ...</group>\n<group name=\"right_leg\">... torso_joint ...</group>",
      "Declare the shared joints as a group of their own and make it a subgroup of both; --ignore "
      "group-overlap when the overlap is meant."}},
    {"empty-group", M,
     {"A group has no movable joint (only fixed joints, or its names were all skipped).",
      "MoveIt cannot plan for it; a group meant to move something moves nothing.", kMoveIt,
      "<group name=\"camera\">\n  <link name=\"camera_link\"/>  <!-- its parent joint is fixed -->\n</group>",
      "Name the moving joints, or remove the group."}},
    {"eef-unknown-group", M,
     {"An <end_effector> names a group or parent_group that is not declared.",
      "MoveIt skips the end effector (with an error in its log): grasping and interactive markers lose it.",
      kMoveIt, "<end_effector name=\"hand\" parent_link=\"wrist\" group=\"left_hand\"/>  <!-- no group left_hand -->",
      "Declare the group, or name a declared one."}},
    {"eef-unknown-link", M,
     {"An <end_effector>'s parent_link is not a link of the URDF.", "MoveIt skips the end effector.", kMoveIt,
      "<end_effector name=\"hand\" parent_link=\"wrist_3\" group=\"hand\"/>  <!-- the URDF has wrist_3_link -->",
      "Use the link's name as the URDF declares it."}},
    {"virtual-joint-unknown-link", M,
     {"A <virtual_joint>'s child_link is not a link of the URDF.", "MoveIt skips the virtual joint: the robot is "
      "not attached to the world frame it names.",
      kMoveIt, "<virtual_joint name=\"world_joint\" type=\"fixed\" parent_frame=\"world\" child_link=\"base\"/>",
      "Name the URDF's root link."}},
    {"no-groups", M,
     {"The semantics declare no chain and no group (an SRDF with a collision matrix only).",
      "The full pose is every movable joint of the URDF, as without semantics.", kRmodel,
      "<robot name=\"r\">\n  <disable_collisions link1=\"a\" link2=\"b\" reason=\"Adjacent\"/>\n</robot>",
      "Nothing to fix when that is the pose meant; otherwise declare the groups."}},
    // ---- SRDF ----
    {"srdf-passive-joint-in-group", M,
     {"A <passive_joint> is written inside a <group>. srdfdom reads passive joints only at the top of the SRDF, "
      "so this one is ignored.",
      "MoveIt keeps the joint active: it plans for a joint that was meant to move only as something else moves "
      "it (a gripper's second finger), and the group has one joint more than meant.",
      kMoveIt, "<group name=\"hand\">\n  <joint name=\"finger_joint1\"/>\n  <passive_joint name=\"finger_joint2\"/>\n</group>",
      "Move the <passive_joint> out of the group, to the top level of the SRDF."}},
    {"srdf-unknown-element", M,
     {"An element the SRDF format does not have: at the top, one whose name is close to an SRDF element's (the "
      "message says which); inside a <group> or <group_state>, any element other than theirs.",
      "MoveIt ignores it without a word: a misspelt <disable_colisions> disables nothing, a <joint> written "
      "without its group_state is lost.",
      kMoveIt, "<disable_colisions link1=\"base\" link2=\"arm\" reason=\"Adjacent\"/>",
      "Spell the element as the SRDF format does, or move it where it belongs."}},
    {"srdf-extension", M,
     {"A top-level element that is no SRDF element and not close to one: another tool's extension "
      "(Pinocchio's <rotor_params>, HPP's <gripper>). Reported once per kind, with the names.",
      "Nothing: MoveIt and rmodel ignore it, the tool that wrote it reads it.", kMoveIt,
      "<rotor_params>...</rotor_params>", "Nothing to fix."}},
    {"srdf-passive-joint", M,
     {"A top-level <passive_joint>. rmodel has no passive joints: the joint is an ordinary joint, in the full "
      "pose when a chain or group holds it.",
      "Nothing for MoveIt, which reads it. A tool that builds on rmodel's pose sees the joint as any other.",
      kMoveIt, "<passive_joint name=\"caster_joint\"/>", "Nothing to fix."}},
    {"srdf-sphere-approximation", M,
     {"A <link_sphere_approximation>: spheres MoveIt may use for a link's collision checks.",
      "Nothing: rmodel keeps no collision geometry of its own from the SRDF.", kMoveIt,
      "<link_sphere_approximation link=\"base\">\n  <sphere center=\"0 0 0\" radius=\"0.2\"/>\n"
      "</link_sphere_approximation>",
      "Nothing to fix."}},
    {"srdf-joint-property", M,
     {"A <joint_property>: a property MoveIt gives a joint (a planar joint's motion model).",
      "Nothing: rmodel does not use joint properties.", kMoveIt,
      "<joint_property joint_name=\"base_joint\" property_name=\"motion_model\" value=\"diff_drive\"/>",
      "Nothing to fix."}},
    {"collision-unknown-link", M,
     {"A <disable_collisions>, <enable_collisions> or <disable_default_collisions> entry names a link that is "
      "not a link of the URDF (the message gives the nearest).",
      "srdfdom drops the entry with a warning: the pair it was meant to disable is checked, at every planning "
      "request, and a typo goes unseen. Usually the URDF renamed a link after the Setup Assistant ran.",
      kMoveIt, "<disable_collisions link1=\"base_link\" link2=\"shoulder\" reason=\"Adjacent\"/>  <!-- the URDF has shoulder_link -->",
      "Use the link's name as the URDF declares it, or run the Setup Assistant again on the current URDF."}},
    {"collision-self-pair", M,
     {"A collision-matrix pair names the same link twice.",
      "It means nothing (MoveIt never checks a link against itself), so it was meant to name another link.",
      kMoveIt, "<disable_collisions link1=\"wrist\" link2=\"wrist\" reason=\"Never\"/>",
      "Name the other link of the pair, or remove the entry."}},
    {"collision-duplicate", M,
     {"A collision-matrix pair is given twice, in either order (a b, then b a), or a link twice in "
      "<disable_default_collisions>. The message names the first.",
      "Harmless for MoveIt, but two entries with different reasons say two things, and a duplicate usually "
      "comes from merging matrices by hand.",
      kMoveIt,
      "<disable_collisions link1=\"a\" link2=\"b\" reason=\"Adjacent\"/>\n<disable_collisions link1=\"b\" "
      "link2=\"a\" reason=\"Never\"/>",
      "Keep one entry per pair."}},
    {"collision-conflict", M,
     {"A pair is both disabled (<disable_collisions>) and enabled (<enable_collisions>).",
      "MoveIt applies the enabled pairs last, so the pair is checked; the disabling entry is dead.", kMoveIt,
      "<disable_collisions link1=\"a\" link2=\"b\" reason=\"Never\"/>\n<enable_collisions link1=\"a\" link2=\"b\"/>",
      "Remove the entry that is not meant."}},
    {"collision-matrix-stale", M,
     {"With --collisions: a pair the SRDF disables collides, in a random pose within the limits, while its "
      "reason no longer holds: disabled as Never but colliding, or as Adjacent, Default or Always while it is no "
      "longer adjacent, colliding at the default pose, or colliding in nearly every pose. The message names the "
      "random pose (rmodel collisions --show-sample prints it). Entries of other reasons are a user's and are "
      "not judged.",
      "MoveIt never checks a disabled pair: planned motions can drive those links through each other. The URDF "
      "changed (longer links, wider limits) since the Setup Assistant wrote the matrix.",
      kMoveIt, "<disable_collisions link1=\"upper_arm\" link2=\"gripper\" reason=\"Never\"/>  <!-- the arm grew -->",
      "Compute the matrix again: rmodel collisions -u URDF -s SRDF --update SRDF (or MoveIt's Setup Assistant)."}},
    {"collision-matrix-missing", M,
     {"With --collisions: a pair of links that the matrix MoveIt's Setup Assistant computes disables (adjacent, "
      "colliding at the default pose, always colliding, or colliding in none of the random poses) is not "
      "disabled in the SRDF. The message gives the reason.",
      "MoveIt checks the pair at every state: adjacent links and pairs colliding at the default pose are "
      "reported as collisions, which stops planning; pairs that never collide only cost time.",
      kMoveIt, "<!-- no entry for base_link and shoulder_link, which a joint joins -->",
      "Compute the matrix again: rmodel collisions -u URDF -s SRDF --update SRDF."}},
    {"collision-matrix-none", M,
     {"With --collisions: the semantics have no collision matrix (no <disable_collisions>: a .cpf, an rmodel "
      "JSON without one, an SRDF without one, or no semantics), so there is none to compare with the computed "
      "one.",
      "Nothing is checked.", "rmodel", "rmodel check --sample --collisions  <!-- pony.json -->",
      "Give the MoveIt SRDF with -s, or write a matrix with rmodel collisions --update."}},
    {"collision-mesh-left-out", M,
     {"With --collisions: a <collision> mesh is not found or cannot be read, so it is left out of the "
      "computed matrix, as MoveIt leaves it out; a link whose every shape is left out has no geometry.",
      "The computed matrix, and the verdicts on the SRDF's, miss that shape.", "MoveIt, rmodel collisions",
      "<collision><geometry><mesh filename=\"package://arm/meshes/gone.stl\"/></geometry></collision>",
      "Give the mesh's package with --package-path, or fix the file (check --meshes says why)."}},
    {"srdf-duplicate-group", M,
     {"A group of the SRDF is declared a second time; the second declaration is not kept.",
      "MoveIt merges or replaces, depending on the version; the file says two things.", kMoveIt,
      "<group name=\"arm\">...</group>\n<group name=\"arm\">...</group>", "Merge the two declarations."}},
    {"srdf-group-empty", M,
     {"An SRDF group has no chain, joint or link rmodel can use; it is not kept.",
      "MoveIt has nothing to plan for.", kMoveIt, "<group name=\"tool\"/>", "Fill the group or remove it."}},
    {"srdf-unknown-group", M,
     {"A subgroup reference, or a group_state's group, names a group that is not declared.",
      "MoveIt skips the reference (the group lacks the subgroup's joints) or the state. Loading warns; check "
      "counts it as an error.",
      kMoveIt, "<group name=\"both_arms\">\n  <group name=\"left_arm\"/>  <!-- not declared -->\n</group>",
      "Declare the group, or name a declared one."}},
    {"srdf-group-cycle", M,
     {"Groups contain each other through subgroups (a contains b, b contains a). The reference that closes the "
      "cycle is ignored.",
      "A group cannot contain itself; MoveIt refuses or recurses.", kMoveIt,
      "<group name=\"a\"><group name=\"b\"/></group>\n<group name=\"b\"><group name=\"a\"/></group>",
      "Remove the reference that closes the cycle."}},
    {"srdf-virtual-joint-type", M,
     {"A <virtual_joint>'s type is not fixed, floating or planar (in any case); srdfdom and MoveIt take it as "
      "fixed.",
      "A misspelt type (\"float\") fixes a base meant to move.", kMoveIt,
      "<virtual_joint name=\"base\" type=\"float\" parent_frame=\"world\" child_link=\"base_link\"/>",
      "Write fixed, floating or planar."}},
    {"srdf-virtual-joint-in-group", M,
     {"An SRDF group lists the SRDF's virtual joint. It is not a URDF joint, so rmodel skips it.",
      "MoveIt includes the virtual joint in the group's state (a mobile base); rmodel's full pose does not.",
      kMoveIt, "<group name=\"whole_body\">\n  <joint name=\"world_joint\"/>\n</group>",
      "Nothing to fix for MoveIt's floating base; --ignore srdf-virtual-joint-in-group."}},
    {"srdf-virtual-joint-in-pose", M,
     {"A group_state gives a value to the SRDF's virtual joint; rmodel leaves it out of the pose.",
      "rmodel poses hold URDF joints only.", kMoveIt,
      "<group_state name=\"home\" group=\"body\">\n  <joint name=\"world_joint\" value=\"0 0 0 0 0 0 1\"/>\n"
      "</group_state>",
      "Nothing to fix for MoveIt's floating base; --ignore srdf-virtual-joint-in-pose."}},
    {"srdf-pose-without-group", M,
     {"A group_state has no group attribute; it is kept as a pose of its joints alone.",
      "srdfdom requires the group; MoveIt skips the state.", kMoveIt,
      "<group_state name=\"home\">\n  <joint name=\"elbow\" value=\"0\"/>\n</group_state>",
      "Add group=\"...\" naming the group the state is for."}},
    {"srdf-multi-dof-value", M,
     {"A group_state gives several values to one joint (a multi-DOF joint, e.g. a planar base); rmodel poses "
      "hold one value per joint, so it is left out.",
      "The pose lacks that joint's values in rmodel.", kMoveIt, "<joint name=\"base\" value=\"0 0 0\"/>",
      "Nothing to fix for a planar or floating joint; --ignore srdf-multi-dof-value."}},
    {"srdf-duplicate-joint", M,
     {"A group_state gives the same joint twice; the first value is kept.",
      "The file says two things; MoveIt keeps the last, rmodel the first.", kMoveIt,
      "<group_state name=\"home\" group=\"arm\">\n  <joint name=\"elbow\" value=\"0\"/>\n"
      "  <joint name=\"elbow\" value=\"1.57\"/>\n</group_state>",
      "Keep one value."}},
    {"srdf-duplicate-pose", M,
     {"A group_state of the same name and group is declared twice; the second replaces the first, as in MoveIt.",
      "The first declaration has no effect; usually a copy left unedited.", kMoveIt,
      "<group_state name=\"home\" group=\"arm\">...</group_state>\n"
      "<group_state name=\"home\" group=\"arm\">...</group_state>",
      "Rename or remove one of them."}},
    {"group-copy", M,
     {"A group lists exactly what an earlier group lists, and the two names differ only by a side (left/right, "
      "l/r, lf/rf...): a group copied for the other side and left unedited.",
      "Both groups move the same joints; the other side has no group. Loading warns; check counts it as an "
      "error.",
      kMoveIt,
      "<group name=\"left_arm\"><chain base_link=\"torso\" tip_link=\"l_hand\"/></group>\n"
      "<group name=\"right_arm\"><chain base_link=\"torso\" tip_link=\"l_hand\"/></group>",
      "Edit the copy to name the other side's links and joints."}},
    {"group-alias", M,
     {"A group lists exactly what an earlier group lists, under a name that is not a mirror of it: a second "
      "name for the same joints.",
      "MoveIt allows it (e.g. one solver per name in kinematics.yaml); it may also be a copy left unedited.",
      kMoveIt, "<group name=\"arm\">...</group>\n<group name=\"arm_ik\">(the same chain)</group>",
      "Nothing to fix when meant; --ignore group-alias."}},
    // ---- named poses ----
    {"pose-unknown-joint", M,
     {"A named pose (group_state) gives a value to a joint the URDF lacks.",
      "MoveIt loads the pose without the value: moving to it leaves the joint where it is. Loading warns; check "
      "counts it as an error.",
      kMoveIt, "<group_state name=\"home\" group=\"arm\">\n  <joint name=\"elbow_joint\" value=\"0\"/>\n"
      "</group_state>  <!-- the URDF has elbow -->",
      "Name the joint as the URDF declares it."}},
    {"pose-joint-outside-pose", M,
     {"A named pose gives a value to a joint of the URDF that is not in the full pose (fixed, or in no chain or "
      "group).",
      "The value cannot be set in a full pose; the message says why the joint is outside it.", kRmodel,
      "<joint name=\"camera_mount\" value=\"0\"/>  <!-- a fixed joint -->",
      "Remove the value, or add the joint to a group."}},
    {"pose-out-of-limits", M,
     {"A named pose puts a joint outside its position limits.", "MoveIt refuses to plan to an invalid state; "
      "controllers clamp or fault.",
      kMoveIt, "<joint name=\"elbow\" value=\"3.5\"/>  <!-- limits [-2.9, 2.9] -->",
      "Bring the value within the limits, or correct the limits."}},
    // ---- joint_limits.yaml ----
    {"limits-syntax", M,
     {"A value of the joint_limits.yaml cannot be read: not YAML, not a map with joint_limits, a value that is "
      "not a number or a boolean where one is expected, a key given twice.",
      "MoveIt's loaders read such files differently (one keeps the first key, another the last) or fail.",
      "MoveIt, ros2_control", "joint_limits:\n  elbow:\n    has_velocity_limits: yes please\n",
      "Fix the value at the line given."}},
    {"limits-ignored", M,
     {"A value of the joint_limits.yaml that MoveIt does not use: a key it does not read, a limit whose has_* "
      "flag is false, position limits of a continuous joint.",
      "The value has no effect; often a misspelt key (max_velocty) leaves the default in force.",
      "MoveIt, ros2_control", "joint_limits:\n  elbow:\n    has_velocity_limits: true\n    max_velocty: 1.0\n",
      "Spell the key as MoveIt reads it, or set its has_* flag."}},
    {"limits-unknown-joint", M,
     {"The joint_limits.yaml gives limits of a joint the URDF lacks (the message suggests the nearest name).",
      "MoveIt looks up joint_limits.<name> for each joint of the model, so the entry is never read.",
      "MoveIt, ros2_control", "joint_limits:\n  elbow_joint:  # the URDF has elbow\n    has_velocity_limits: true\n",
      "Name the joint as the URDF declares it; an entry for another robot variant may be meant (--ignore "
      "limits-unknown-joint)."}},
    {"limits-fixed-joint", M,
     {"The joint_limits.yaml gives limits of a fixed (or floating, planar) joint.",
      "Only joints with one value have limits; the entry is not used.", "MoveIt",
      "joint_limits:\n  camera_mount:\n    has_velocity_limits: true\n", "Remove the entry."}},

    // ---- check-log ----
    {"read-error", L,
     {"A line (text logs) or a record (ROS logs) that cannot be read as a message; the message gives the "
      "reader's reason, and the byte offset of a damaged record.",
      "Its samples are lost; a damaged bag usually means a recording that was cut.",
      "every program replaying the log", "{\"name\": [\"elbow\"], \"position\": [0.1,]}",
      "Repair or re-record the log; rmodel reads the rest."}},
    {"no-model-joint", L,
     {"The log had joint states, but none named a joint of the model: a log of another robot, or CSV columns "
      "that need a prefix.",
      "Nothing of the log can be checked against the model.", "rmodel", "joint names left_elbow, ... in the log; "
      "the model has elbow",
      "Check the log against its own robot, or map the names (--column-prefix for CSV columns)."}},
    {"unknown-joint", L,
     {"A joint state names a joint that is not in the full pose: not in the URDF, fixed, or in no chain or "
      "group. Reported once per name.",
      "Its values are dropped by every consumer that reads the log by the model.", kRmodel,
      "{\"name\": [\"elbow\", \"ear_twitch\"], ...}  with no joint ear_twitch",
      "Record with the model the log is checked against, or add the joint to the semantics."}},
    {"array-size", L,
     {"A joint state's positions, velocities or efforts are not as many as its names (an empty array is "
      "allowed); the message is skipped.",
      "Values cannot be matched to joints; ROS consumers reject or misread the message.",
      "robot_state_publisher, every consumer of sensor_msgs/JointState",
      "{\"name\": [\"a\", \"b\"], \"position\": [0.1]}", "Fix the program that writes the joint states."}},
    {"duplicate-joint", L,
     {"A joint state names the same joint twice; the second is skipped.", "Which value is meant is undefined.",
      "every consumer of sensor_msgs/JointState", "{\"name\": [\"elbow\", \"elbow\"], \"position\": [0.1, 0.2]}",
      "Fix the program that writes the joint states."}},
    {"no-stamp", L,
     {"Joint states without a time; their stamps, gaps and order are not checked (reported once).",
      "Time-based checks cannot run; replay timing is lost.", "rmodel, rosbag replay", "{\"name\": [...], "
      "\"position\": [...]}  without a stamp",
      "Record the header stamp with each joint state."}},
    {"gap", L,
     {"No message for longer than --max-gap (the message gives the times).",
      "The recording or the robot stalled; controllers and estimators on the log saw nothing for that long.",
      "rmodel", "t = 1.00 s, then t = 3.50 s with --max-gap 0.5", "Find why the stream stopped (the recorder, "
      "the network, the driver)."}},
    {"stamp-backwards", L,
     {"A joint's time goes back from one sample to the next.", "Differentiation and synchronisation assume "
      "increasing time; replays reorder or drop samples.",
      "rmodel aggregate and filter, every estimator", "t = 2.00 s, then t = 1.99 s for the same joint",
      "Fix the clock of the program that stamps the joint states."}},
    {"stamp-repeated", L,
     {"Two samples of a joint have the same time.", "Velocities and accelerations implied from them divide by "
      "zero.",
      "rmodel aggregate and filter, every estimator", "t = 2.00 s twice for the same joint",
      "Fix the stamping; publish one sample per time."}},
    {"joint-gap", L,
     {"No sample of a joint for longer than --max-gap while others are published.",
      "That joint's driver stalled; its last value held for that long.", "rmodel",
      "elbow at t = 1.0 s, then at t = 2.5 s, others every 0.01 s (--max-gap 0.5)",
      "Find why the joint's samples stopped."}},
    {"non-finite", L,
     {"A position, velocity or effort is NaN or infinite.", "Filters and solvers propagate NaN into every "
      "later value.",
      "every consumer of the log", "{\"name\": [\"elbow\"], \"position\": [NaN]}",
      "Fix the source; a driver writes NaN for an unknown value."}},
    {"position-limit", L,
     {"A position is outside the joint's limits (beyond --tolerance).", "The robot was commanded or measured "
      "where its model says it cannot be: a collision, a calibration offset, or limits that are wrong.",
      "MoveIt, ros2_control, safety controllers", "elbow = 3.2 with limits [-2.9, 2.9]",
      "Check the calibration and the URDF limits; --tolerance allows for encoder overshoot."}},
    {"velocity-limit", L,
     {"A recorded velocity's magnitude is above the joint's velocity limit (beyond --tolerance).",
      "The robot moved faster than its model allows.", "MoveIt, ros2_control, safety controllers",
      "elbow velocity 4.0 rad/s with a limit of 2.0", "Check the controller and the URDF's velocity limit."}},
    {"implied-velocity", L,
     {"Two consecutive positions of a joint imply a velocity (their difference over the time between them, with "
      "--period) above its limit.",
      "A jump in the positions: a dropped sample, a wrap-around, a glitch of the encoder.", "rmodel",
      "elbow 0.0 at t = 0.00 s, 0.5 at t = 0.01 s (50 rad/s)", "Find the jump's cause; check --period."}},
    {"acceleration", L,
     {"An implied acceleration's magnitude is above --max-acceleration.", "A jerk in the motion or noise in "
      "the velocities.",
      "rmodel", "with --period 0.01 --max-acceleration 20", "Check the motion and the filtering."}},
    {"acceleration-limit", L,
     {"An implied acceleration's magnitude is above the joint's acceleration limit from a joint_limits.yaml.",
      "The motion breaks the limits MoveIt plans with.", "MoveIt, ros2_control",
      "with --limits joint_limits.yaml --period 0.01", "Check the trajectory's time parametrisation."}},
    {"jerk-limit", L,
     {"An implied jerk's magnitude is above the joint's jerk limit from a joint_limits.yaml.",
      "The motion breaks the limits MoveIt plans with.", "MoveIt, ros2_control",
      "with --limits joint_limits.yaml --period 0.01", "Check the trajectory's time parametrisation."}},
    {"effort-limit", L,
     {"With --dynamics: the torque the recorded motion needs (gravity, inertia) is above the joint's effort "
      "limit.",
      "The robot cannot make that motion, or the model's masses or limits are wrong.", "ros2_control, "
      "simulators",
      "shoulder needs 80 N·m, effort limit 50", "Check the masses, the effort limits and the motion."}},
    {"self-collision", L,
     {"With --collisions: at a joint state, two links of the held full pose collide (their <collision> "
      "geometry intersects; the message gives the time and the penetration depth), or with --margin come "
      "closer than it. Pairs the SRDF's collision matrix disables are not checked (without a matrix, the "
      "adjacent pairs).",
      "The robot, or the model, drove links through each other: a planner without collision checking, a "
      "wrong calibration, or collision geometry larger than the robot.",
      "MoveIt (its planning scene), ros2_control, the robot itself",
      "links 'forearm' and 'base_link' collide at t = 12.3 (depth 0.021 m)",
      "Look at the pose (rmodel fk --collisions --log), then fix the motion, the geometry or the matrix."}},
};

/// The index of the first page that is not the page of kCheckCodes' entry of the same index
/// (same code and scope), or -1 when every declared code has its page, in order.
consteval int first_misplaced_page() {
  const auto codes = std::size(kCheckCodes);
  const auto pages = std::size(kPages);
  for (std::size_t i = 0; i < codes || i < pages; ++i)
    if (i >= codes || i >= pages || kPages[i].code != kCheckCodes[i].code || kPages[i].scope != kCheckCodes[i].scope)
      return static_cast<int>(i);
  return -1;
}

/// Instantiated with the index of a misplaced page: the compiler's message shows it.
template <int kIndex>
struct PageOfEveryCode {
  static_assert(kIndex < 0, "kPages must hold one page per code of kCheckCodes, in the same order: see the index");
};
[[maybe_unused]] constexpr PageOfEveryCode<first_misplaced_page()> kEveryCodeHasItsPage{};

}  // namespace

const CheckCodePage& check_code_page(const CheckCode& code) {
  for (const Page& p : kPages)
    if (p.code == code.code && p.scope == code.scope) return p.page;
  throw NotFound("code", std::string(code.code));
}

}  // namespace rmodel
