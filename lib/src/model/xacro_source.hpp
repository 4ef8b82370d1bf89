#pragma once
// Internal: a model's URDF read from a file that may be xacro, and the mapping of messages
// about the expanded URDF back to the xacro source lines.

#include <memory>
#include <string>

#include "rmodel/diagnostic.hpp"
#include "rmodel/model.hpp"
#include "rmodel/xacro.hpp"

namespace rmodel::detail {

/// The URDF text of a model source: the file as it is, or its xacro expansion.
struct UrdfInput {
  std::string text;  ///< URDF (expanded when xacro)
  std::string name;  ///< the file's display name, used in messages
  std::shared_ptr<const XacroResult> xacro;  ///< null for a plain URDF
};

/// Reads `source.urdf_path`; expands it when is_xacro() (arguments and package paths from
/// `source`). @throws IoError when the file cannot be read, ParseError from the expansion.
UrdfInput read_urdf_input(const ModelSource& source);

/// A place in the expanded URDF `name` as a place in the xacro sources; `message`, when
/// given, gets the macro/include context appended and its "line N" references mapped too.
SourceLocation map_to_xacro(const XacroResult& xacro, const std::string& name, const SourceLocation& where,
                            std::string* message);

/// map_to_xacro() on every diagnostic about `name`, from index `first` on.
void map_to_xacro(const XacroResult& xacro, const std::string& name, Diagnostics& diagnostics, std::size_t first = 0);

}  // namespace rmodel::detail
