// The collision plugin (collision/plugin_api.hpp says why it is one), opened on the first
// collision geometry or mesh: from beside the running librmodel, or the libdir of a program
// with librmodel's code linked in, as the yaml plugin is (base/yaml_tree.cpp). The sanitizer
// build has the plugin's code compiled in.
#include "collision/collision_impl.hpp"

#include <atomic>
#include <string>

#include "base/lazy_library.hpp"
#include "base/library_file.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::collision::detail {

const PluginApi& plugin() {
#ifdef RMODEL_COLLISION_LINKED
  static const PluginApi& api = *rmodel_collision_plugin();
  return api;
#else
  using Entry = const PluginApi*();
  static const std::string path = rmodel::detail::plugin_path(RMODEL_COLLISION_PLUGIN);
  static rmodel::detail::LazyLibrary library(path.c_str(), "check collisions and read meshes");
  static std::atomic<Entry*> cache{nullptr};
  static const PluginApi& api = [] () -> const PluginApi& {
    const PluginApi* found = rmodel::detail::resolve_lazily(library, cache, "rmodel_collision_plugin")();
    if (found == nullptr || found->version != kPluginApiVersion)
      throw IoError(path, "the collision plugin belongs to another version of librmodel");
    return *found;
  }();
  return api;
#endif
}

}  // namespace rmodel::collision::detail
