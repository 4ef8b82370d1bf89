// rmodel xacro: expands a xacro file into URDF, as ROS's `xacro` command does, without ROS.
#include <filesystem>

#include "command.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/xacro/xacro.hpp"

namespace rmodel::cli {
namespace {

class XacroCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Expand a xacro file into URDF (as ROS's xacro does, without ROS): properties, macros, includes, "
        "conditionals, $(arg), $(find), YAML. Arguments as NAME:=VALUE after the file or with --xacro-arg");
    with_kind(app.add_option("file", file_, "The xacro file ('-' for stdin)"), ValueKind::file)->required();
    with_kind(app.add_option("args", positional_args_, "Arguments NAME:=VALUE, replacing the <xacro:arg> defaults"),
              ValueKind::text, "NAME:=VALUE")
        ->check([](const std::string& value) {
          return value.find(":=") == std::string::npos ? std::string("expected NAME:=VALUE") : std::string();
        });
    add_xacro_arg_option(app, option_args_, nullptr);
    app.add_option("--package-path", package_paths_,
                   "Directory holding ROS packages, for $(find PKG) (repeatable; searched before ROS_PACKAGE_PATH "
                   "and AMENT_PREFIX_PATH)")
        ->type_name("DIR")
        ->allow_extra_args(false);
    out_.add_to(app, {OutputFormat::text}, OutputFormat::text);
  }

  int run() override {
    XacroOptions options;
    options.args = parse_xacro_args(option_args_);
    for (const auto& [name, value] : parse_xacro_args(positional_args_)) options.args[name] = value;
    options.package_paths.assign(package_paths_.begin(), package_paths_.end());
    const XacroResult result = expand_xacro_file(file_, options);
    // What the document's xacro.message(), warning() and error() said, on stderr as ROS's
    // xacro prints it; like xacro, the expansion goes on and succeeds.
    for (const Diagnostic& d : result.messages()) print_diagnostic(d);
    if (!out_.to_stdout()) {
      // An output never overwrites an input: neither the xacro nor a file it read.
      std::error_code ec;
      for (const auto& input : result.files())
        if (std::filesystem::exists(out_.path(), ec) && std::filesystem::equivalent(input, out_.path(), ec))
          throw InvalidArgument("-o " + out_.path() + " would overwrite the input " + input);
    }
    out_.write(result.xml());
    out_.close();
    return kOk;
  }

private:
  std::string file_;
  std::vector<std::string> positional_args_, option_args_, package_paths_;
  OutputOptions out_;
};

}  // namespace

std::unique_ptr<Command> make_xacro_command() { return std::make_unique<XacroCommand>(); }

}  // namespace rmodel::cli
