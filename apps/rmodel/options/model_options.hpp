#pragma once
// The model options every command shares: --urdf, --semantics, --limits, --model, --sample,
// --package-path, --xacro-arg.

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "rmodel/model/model.hpp"
#include "rmodel/model/model_source.hpp"

namespace rmodel::cli {

/// Where the model comes from, as given on the command line; the environment's
/// RMODEL_URDF, RMODEL_SEMANTICS, RMODEL_MODEL and RMODEL_LIMITS complete it by the rules of
/// rmodel::apply_model_environment.
struct ModelOptions {
  std::string urdf;
  std::string semantics;
  std::string semantics_format;  ///< "", "cpf", "json", "srdf"
  std::string manifest;
  std::string limits;  ///< MoveIt joint_limits.yaml [env: RMODEL_LIMITS]
  std::vector<std::string> package_paths;  ///< --package-path, in order
  std::vector<std::string> xacro_args;     ///< --xacro-arg NAME:=VALUE, in order
  bool sample = false;
  bool from_log = false;  ///< --model-from-log

  /// Declares the options on a subcommand.
  void add_to(CLI::App& app);
  /// Declares --model-from-log (commands that read logs; after add_to: it excludes -u, -m
  /// and --sample).
  void add_from_log_to(CLI::App& app);
  /// The options as a library request (no environment applied).
  /// @throws rmodel::InvalidArgument for a malformed --xacro-arg.
  [[nodiscard]] ModelRequest request() const;
  /// Resolves manifest, sample and environment into paths (no model file is opened).
  /// @throws rmodel::InvalidArgument when no URDF is named, IoError for a bad manifest.
  [[nodiscard]] ModelSource resolve() const;
  /// True when the options or the environment name a model.
  [[nodiscard]] bool given() const;
  /// Resolves and loads the model.
  [[nodiscard]] Model load() const;
  /// Whether a command that reads logs looks in them for a model when no URDF is named.
  enum class LogModel {
    needed,  ///< the command needs a model: the log's when no URDF is named
    asked,   ///< only with --model-from-log (the command runs without a model)
  };
  /// The model of a command that reads `logs` ("-": stdin, which is not looked in): with
  /// --model-from-log, or when no URDF is named (options or environment) and `use` is
  /// needed, the URDF the first log that carries one recorded on /robot_description
  /// (io::robot_description), with the semantics given or else those the log recorded beside
  /// it, and the limits given, said on stderr ("rmodel COMMAND: ...") unless `quiet`; else
  /// the model named, if any. nullopt only when `use` is asked and neither is there.
  /// @throws InvalidArgument when a model is needed and none is found (naming the logs).
  [[nodiscard]] std::optional<Model> load_for_logs(std::span<const std::string> logs, std::string_view command,
                                                   bool quiet, LogModel use = LogModel::needed) const;
  /// True when load_for_logs() takes the model from a log rather than from the options or
  /// the environment: a batch then loads each input's own (as if rmodel ran once per input).
  [[nodiscard]] bool model_in_logs(LogModel use = LogModel::needed) const;
  /// True when a semantic description will be loaded.
  [[nodiscard]] bool has_semantics() const { return !resolve().semantics_path.empty(); }
};

/// Declares `--xacro-arg NAME:=VALUE` (repeatable) on a command.
void add_xacro_arg_option(CLI::App& app, std::vector<std::string>& args, const char* group);
/// "name:=value" strings → a map (a later name wins). @throws rmodel::InvalidArgument
std::map<std::string, std::string> parse_xacro_args(const std::vector<std::string>& args);
/// Prints on stderr the mistakes loading skipped (Model::load_diagnostics, is_mistake), the
/// messages of a xacro's own xacro.message(), warning() and error(), and the limits entries
/// of joints the URDF lacks, each with file and line, as "rmodel: warning: ...".
void warn_mistakes(const Model& model);
/// "rmodel: SEVERITY: FILE:LINE: MESSAGE [CODE]" on stderr.
void print_diagnostic(const Diagnostic& d);

}  // namespace rmodel::cli
