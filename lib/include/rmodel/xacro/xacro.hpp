#pragma once
#include "rmodel/export.hpp"
/// @file xacro.hpp
/// Xacro without ROS: expands a `.xacro` robot description into URDF, as ROS 2's `xacro`
/// does (document order), and remembers where each element of the result came from so that
/// messages about the URDF can point at the xacro source line.
///
/// The expression language inside `${...}` is Python's as ROS's xacro evaluates it, over the
/// names xacro exposes (builtins, the math module, `python.*`, `xacro.*`), and refused where
/// xacro refuses it. Nothing reaches the file system or a process except `xacro:include`,
/// `load_yaml`, `$(find)`, `$(cwd)`, `$(env)` and `$(optenv)`.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rmodel/base/diagnostic.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel {

/// Bounds that turn a runaway document into an error instead of a crash or a hang.
struct RMODEL_API XacroLimits {
  int include_depth = 64;               ///< nested xacro:include
  int macro_depth = 256;                ///< nested macro calls (recursion)
  int element_depth = 2000;             ///< nesting of elements while expanding
  std::size_t output_nodes = 4'000'000; ///< elements, texts and comments of the result
  std::size_t output_bytes = 256u << 20;  ///< size of the expanded text
  std::size_t steps = 50'000'000;       ///< elements visited + expressions evaluated + macro calls
  std::size_t value_bytes = 16u << 20;  ///< one string, list or dict built by an expression
};

/// How to expand.
struct RMODEL_API XacroOptions {
  /// `$(arg name)` values; they replace the `<xacro:arg>` defaults.
  std::map<std::string, std::string> args = {};
  /// Directories searched for `$(find pkg)` before ROS_PACKAGE_PATH and AMENT_PREFIX_PATH
  /// (rmodel/base/package_path.hpp).
  std::vector<std::filesystem::path> package_paths = {};
  XacroLimits limits = {};
  /// Environment lookup for `$(env)`, `$(optenv)`, ROS_PACKAGE_PATH and AMENT_PREFIX_PATH
  /// (nullptr: unset); the process's environment when empty.
  std::function<const char*(const char*)> environment = {};
};

/// The expanded document and, for every line of it, where that line came from.
class RMODEL_API XacroResult {
public:
  /// The expanded XML (UTF-8), one element per line, indented by two spaces.
  [[nodiscard]] const std::string& xml() const noexcept { return xml_; }
  /// Source of a 1-based line of xml(): the xacro file and line of the element (or text)
  /// written there. {file, 0} for a line outside the document.
  [[nodiscard]] SourceLocation origin(int line) const;
  /// The macro calls and includes that produced a line of xml(), innermost first, e.g.
  /// "in macro 'leg' called from robot.urdf.xacro:40"; empty at the top level.
  [[nodiscard]] const std::string& context(int line) const;
  /// Every file read: the main file, includes and YAML files, in the order first read.
  [[nodiscard]] const std::vector<std::string>& files() const noexcept { return files_; }
  /// What the document's own `xacro.message()`, `xacro.warning()`, `xacro.error()` and
  /// `xacro.print_location()` said, in order, each at the line of the element whose
  /// expression called it (the macro calls and includes after the text): severity note,
  /// warning or error, code `xacro-message`, `xacro-warning` or `xacro-error`. ROS's xacro
  /// prints them on stderr and goes on, even after xacro.error(); so does the expansion.
  [[nodiscard]] const std::vector<Diagnostic>& messages() const noexcept { return messages_; }

  /// Where one line of xml() came from.
  struct LineOrigin {
    int file = 0;     ///< index into files()
    int line = 0;     ///< 1-based line in that file, 0 when unknown
    int context = 0;  ///< index into `contexts` (0: the top level, no context)
  };
  XacroResult() = default;
  /// Built by the processor; `contexts[0]` is the empty context.
  XacroResult(std::string xml, std::vector<std::string> files, std::vector<std::string> contexts,
              std::vector<LineOrigin> lines, std::vector<Diagnostic> messages = {});

private:
  std::string xml_;
  std::vector<std::string> files_;
  std::vector<std::string> contexts_{std::string()};
  std::vector<LineOrigin> lines_;  ///< per line of xml_, 0-based
  std::vector<Diagnostic> messages_;
};

/// Expands the xacro file `path` (display names in messages and origins as given).
/// @throws IoError when the file or an include cannot be read; ParseError naming the file,
///         the line and the chain of macro calls and includes for malformed XML, an unknown
///         property, macro or argument, a bad expression or an exceeded limit.
RMODEL_API XacroResult expand_xacro_file(const std::string& path, const XacroOptions& options = {});

/// Expands xacro text held in memory; `name` is used in messages, relative includes resolve
/// against the directory of `name`.
/// @throws as expand_xacro_file.
RMODEL_API XacroResult expand_xacro_string(std::string_view text, const std::string& name,
                                           const XacroOptions& options = {});

/// True when a robot description should be expanded as xacro: its name ends in `.xacro`, or
/// its text declares the xacro namespace (`xmlns:xacro=`) and uses it (`<xacro:`, `${`, `$(`
/// outside XML comments, which xacro does not evaluate); a URDF written out by xacro often
/// keeps the declaration, and commented-out `${...}` lines, and is read as it is.
RMODEL_API bool is_xacro(std::string_view name, std::string_view text);

}  // namespace rmodel
