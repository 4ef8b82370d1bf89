// The one table of rmodel's subcommands. Help, man pages and shell completions are all
// generated from it and from each command's setup(), so nothing is listed twice.
#include "registry.hpp"

namespace rmodel::cli {

std::unique_ptr<Command> make_check_command();
std::unique_ptr<Command> make_info_command();
std::unique_ptr<Command> make_tree_command();
std::unique_ptr<Command> make_joints_command();
std::unique_ptr<Command> make_chains_command();
std::unique_ptr<Command> make_groups_command();
std::unique_ptr<Command> make_contacts_command();
std::unique_ptr<Command> make_index_command();
std::unique_ptr<Command> make_convert_command();
std::unique_ptr<Command> make_poses_command();
std::unique_ptr<Command> make_diff_command();
std::unique_ptr<Command> make_check_log_command();
std::unique_ptr<Command> make_collisions_command();
std::unique_ptr<Command> make_log_info_command();
std::unique_ptr<Command> make_aggregate_command();
std::unique_ptr<Command> make_filter_command();
std::unique_ptr<Command> make_fk_command();
std::unique_ptr<Command> make_jacobian_command();
std::unique_ptr<Command> make_xacro_command();
std::unique_ptr<Command> make_dynamics_command();
std::unique_ptr<Command> make_splice_command();
std::unique_ptr<Command> make_help_command();
std::unique_ptr<Command> make_version_command();

namespace {
const CommandEntry kCommands[] = {
    {"check", "Validate a URDF and its semantics; list every problem", make_check_command},
    {"info", "Summary of a model: counts, mass", make_info_command},
    {"tree", "The kinematic tree (text or Graphviz dot)", make_tree_command},
    {"joints", "The full sorted pose: index, joint, type, chains, group, limits", make_joints_command},
    {"chains", "Kinematic chains with their joints and pose indices", make_chains_command},
    {"groups", "Joint groups with their chains and joints", make_groups_command},
    {"contacts", "Contacts and their points", make_contacts_command},
    {"index", "Pose index of joints (or index of chains, groups)", make_index_command},
    {"convert", "Convert semantics between .cpf, SRDF and rmodel JSON", make_convert_command},
    {"poses", "Named poses (SRDF group states); one pose as a full sorted pose", make_poses_command},
    {"diff", "Compare two models: is the full pose compatible, what changed", make_diff_command},
    {"check-log", "Validate a joint-state log against a model: names, sizes, stamps, limits", make_check_log_command},
    {"collisions", "Allowed-collision matrix of an SRDF, as MoveIt's Setup Assistant computes it",
     make_collisions_command},
    {"log-info", "Topics, types, counts, time span and rates of a ROS log", make_log_info_command},
    {"aggregate", "Merge partial joint states into full sorted poses (files or a live stream)", make_aggregate_command},
    {"filter", "Filter every joint of joint-state logs; list filter kinds; step responses and plots", make_filter_command},
    {"fk", "Forward kinematics: link frames at a pose, or for every joint state of a log", make_fk_command},
    {"jacobian", "Geometric Jacobian of a chain at a pose", make_jacobian_command},
    {"xacro", "Expand a xacro file into URDF (without ROS)", make_xacro_command},
    {"dynamics", "Joint torques a pose and a motion need, root fixed or carried by the legs; mass matrix", make_dynamics_command},
    {"splice", "Splice two movements (or a pose into a movement) with a smooth transition", make_splice_command},
    {"help", "List the commands, or show the manual of one", make_help_command},
    {"version", "Version of rmodel and of the libraries it was built with", make_version_command},
};
}  // namespace

std::span<const CommandEntry> command_table() { return kCommands; }

}  // namespace rmodel::cli
