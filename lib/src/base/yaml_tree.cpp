// load_yaml: the plugin, opened on the first YAML document read (base/yaml_tree.hpp says
// why). It lies beside the librmodel that is running, or in the libdir of a program that has
// librmodel's code linked in, in the build tree as once installed; it belongs to that version
// of librmodel (its name says which). The sanitizer build has the plugin's code compiled in.
#include "base/yaml_tree.hpp"

#include <atomic>
#include <filesystem>
#include <string>

#include "base/lazy_library.hpp"
#include "base/library_file.hpp"

namespace rmodel::detail {
namespace {

#ifndef RMODEL_YAML_LINKED
/// The plugin's path: librmodel's directory and the plugin's name. A program with librmodel's
/// code linked in (the `rmodel` command) finds it in <prefix>/<libdir> from <prefix>/<bindir>.
const std::string& plugin_path() {
  static const std::string path = [] {
    const LibraryFile library = library_file();
    const std::filesystem::path directory =
        library.in_program ? install_prefix(library.path, RMODEL_INSTALL_BINDIR) / RMODEL_INSTALL_LIBDIR
                           : std::filesystem::path(library.path).parent_path();
    return (directory / RMODEL_YAML_PLUGIN).string();
  }();
  return path;
}
#endif

}  // namespace

YamlNode load_yaml(std::string_view text) {
  using Load = int(const char*, std::size_t, YamlNode*, YamlSyntaxError*);
#ifdef RMODEL_YAML_LINKED
  Load* load = &rmodel_yaml_load;
#else
  static LazyLibrary plugin(plugin_path().c_str(), "read YAML files");
  static std::atomic<Load*> cache{nullptr};
  Load* load = resolve_lazily(plugin, cache, "rmodel_yaml_load");
#endif
  YamlNode root;
  YamlSyntaxError error;
  if (load(text.data(), text.size(), &root, &error) != 0) throw error;
  return root;
}

}  // namespace rmodel::detail
