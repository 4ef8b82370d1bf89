#pragma once
#include "rmodel/export.hpp"
/// @file file.hpp
/// Reading whole input files with errors that name the file.

#include <string>

namespace rmodel {

/// Reads a whole file; "-" reads standard input.
/// @throws IoError naming the path when it is missing, a directory or unreadable, or when
/// it is a Git LFS pointer left in the file's place (a clone without git-lfs).
RMODEL_API std::string read_text_file(const std::string& path);

/// The name used for `path` in messages ("<stdin>" for "-").
RMODEL_API std::string display_name(const std::string& path);

}  // namespace rmodel
