#pragma once
// The pose options of the kinematics commands (fk, jacobian, contacts --pose, info --pose):
// `joint=value` positionals, `--pose joint=value,...` and `--pose-file FILE`, resolved into a
// full sorted pose with rmodel/model/pose.hpp (a named pose may lead: `--pose stand,neck_pitch=0.2`).

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "rmodel/base/joint_state.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel::cli {

struct PoseOptions {
  std::vector<std::string> items;  ///< positionals: joint=value (or a named pose first)
  std::string pose;                ///< --pose text: items separated by commas or blanks
  std::string file;                ///< --pose-file: first joint state of a JSON/JSONL/CSV file

  /// Declares `--pose` and `--pose-file`, and, when `positionals`, the positional
  /// `joint=value` items.
  void add_to(CLI::App& app, bool positionals);
  /// True when a pose was given on the command line (`--pose ''` is the zero pose).
  [[nodiscard]] bool given() const;
  /// The full sorted pose (Model::pose_size() values, rad or m): the pose file's positions
  /// first, then --pose, then the positionals; joints given nowhere are 0.
  /// @throws NotFound naming an unknown joint or pose; InvalidArgument naming a bad item;
  /// IoError/ParseError for an unreadable pose file; Error when it holds no joint positions.
  [[nodiscard]] std::vector<double> resolve(const Model& model) const;

private:
  CLI::Option* pose_option_ = nullptr;
  CLI::Option* file_option_ = nullptr;
};

/// A pose given as one argument (`--initial-pose`): the path of a joint-state file (its
/// first joint state), or a named pose and/or `joint=value` items. Full sorted pose.
/// @throws as PoseOptions::resolve
[[nodiscard]] std::vector<double> resolve_pose_argument(const Model& model, const std::string& text);

/// Writes the named positions of a joint state into a sorted full pose (pose_size() values);
/// mimic joints it does not name follow the masters it names.
/// @throws NotFound naming a joint outside the full pose; SizeMismatch when `state` has
/// other than one position per name.
void apply_joint_state(const Model& model, const JointState& state, std::vector<double>& pose);

}  // namespace rmodel::cli
