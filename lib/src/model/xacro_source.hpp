#pragma once
// Internal: a model's files (its URDF, its semantics) read from files that may be xacro, and
// the mapping of messages about the expanded text back to the xacro source lines.

#include <memory>
#include <string>

#include "rmodel/base/diagnostic.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/xacro/xacro.hpp"

namespace rmodel::detail {

/// The text of one model file: the file as it is, or its xacro expansion.
struct ExpandedInput {
  std::string text;  ///< URDF or semantics (expanded when xacro)
  std::string name;  ///< the file's display name, used in messages
  std::shared_ptr<const XacroResult> xacro;  ///< null for a file that is not xacro
};
using UrdfInput = ExpandedInput;

/// Reads `path`; expands it when is_xacro() (arguments and package paths from `source`):
/// a URDF, or MoveIt's `.srdf.xacro`, which MoveIt's launch files always expand.
/// @throws IoError when the file cannot be read, ParseError from the expansion.
ExpandedInput read_model_file(const std::string& path, const ModelSource& source);

/// read_model_file() of `source.urdf_path`.
UrdfInput read_urdf_input(const ModelSource& source);

/// The semantics of `input`; a ParseError is rethrown at its xacro source line.
Semantics parse_semantics_input(const ExpandedInput& input, std::optional<SemanticsFormat> format);

/// A place in the expanded URDF `name` as a place in the xacro sources; `message`, when
/// given, gets the macro/include context appended and its "line N" references mapped too.
SourceLocation map_to_xacro(const XacroResult& xacro, const std::string& name, const SourceLocation& where,
                            std::string* message);

/// map_to_xacro() on every diagnostic about `name`, from index `first` on.
void map_to_xacro(const XacroResult& xacro, const std::string& name, Diagnostics& diagnostics, std::size_t first = 0);

}  // namespace rmodel::detail
