#pragma once
// Internal: where the running librmodel is, for what is installed beside it or relative to
// it (the sample robot's data directory, rmodel's plugins).

#include <filesystem>
#include <string>

namespace rmodel::detail {

/// The file librmodel's code runs from in this process.
struct LibraryFile {
  /// The shared library as the dynamic loader opened it (its link map's name), or the
  /// program's own file (/proc/self/exe). Empty when neither can be told.
  std::string path;
  /// librmodel's code is linked into the program rather than loaded as librmodel.so: the
  /// `rmodel` command (apps/CMakeLists.txt says why) and the sanitizer build's programs.
  bool in_program = false;
};
LibraryFile library_file();

/// <prefix>/<relative_dir>/<file> → <prefix>.
std::filesystem::path install_prefix(const std::filesystem::path& file, const std::filesystem::path& relative_dir);

/// The path of one of rmodel's plugins (`file_name`, e.g. rmodel-yaml-<version>.so): beside the
/// running librmodel, or, for a program with librmodel's code linked in (the `rmodel` command),
/// in <prefix>/<libdir> seen from <prefix>/<bindir>.
std::string plugin_path(const char* file_name);

}  // namespace rmodel::detail
