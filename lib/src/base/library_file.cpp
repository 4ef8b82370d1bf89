#include "base/library_file.hpp"

#include <dlfcn.h>
#include <link.h>

namespace rmodel::detail {

LibraryFile library_file() {
  static const char anchor = 0;  // an object of librmodel's, whose address dladdr maps to its file
  Dl_info info{};
  link_map* map = nullptr;
  if (dladdr1(&anchor, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0 || map == nullptr)
    return {};
  // The program's own link map has an empty name, and dladdr gives its argv[0] as the file
  // name, which is no path to rely on (a bare `rmodel` found in PATH).
  if (map->l_name == nullptr || map->l_name[0] == '\0') {
    std::error_code ec;
    std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    return {program.string(), true};
  }
  return {map->l_name, false};
}

std::filesystem::path install_prefix(const std::filesystem::path& file, const std::filesystem::path& relative_dir) {
  std::filesystem::path prefix = file.parent_path();
  for (const auto& part : relative_dir)
    if (!part.empty() && part != ".") prefix = prefix.parent_path();
  return prefix;
}

std::string plugin_path(const char* file_name) {
  const LibraryFile library = library_file();
  const std::filesystem::path directory =
      library.in_program ? install_prefix(library.path, RMODEL_INSTALL_BINDIR) / RMODEL_INSTALL_LIBDIR
                         : std::filesystem::path(library.path).parent_path();
  return (directory / file_name).string();
}

}  // namespace rmodel::detail
