// check --meshes: every mesh a URDF references (<mesh filename="...">, in visuals and
// collisions) resolved as ROS tools resolve it, and reported with its URDF line when the
// file is missing. Kept apart from the model rules: it reads the file system.
#include <filesystem>
#include <fstream>
#include <system_error>

#include <fmt/format.h>
#include <tinyxml2.h>

#include "base/git_lfs.hpp"
#include "rmodel/check/check.hpp"
#include "rmodel/base/file.hpp"
#include "rmodel/base/package_path.hpp"

namespace rmodel {
namespace {

/// Calls f(element) for every element named `name` below `parent`, depth first.
template <class F>
void for_each_named(const tinyxml2::XMLElement* parent, const char* name, F f) {
  for (const auto* e = parent->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (std::string_view(e->Name()) == name) f(*e);
    for_each_named(e, name, f);
  }
}

/// What to say of a mesh file that is a Git LFS pointer (nothing when it is not one).
std::optional<std::string> lfs_pointer_at(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(detail::kGitLfsPointerHead, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return detail::git_lfs_pointer(head);
}

}  // namespace

Diagnostics check_mesh_files(const std::string& urdf_text, const std::string& urdf_name,
                             const std::filesystem::path& base_dir,
                             std::span<const std::filesystem::path> search) {
  Diagnostics out;
  tinyxml2::XMLDocument doc;
  // An unreadable URDF is reported by the structure checks; nothing to look up here.
  if (doc.Parse(urdf_text.data(), urdf_text.size()) != tinyxml2::XML_SUCCESS || !doc.RootElement()) return out;
  PackageFinder packages(std::vector<std::filesystem::path>(search.begin(), search.end()));
  for_each_named(doc.RootElement(), "mesh", [&](const tinyxml2::XMLElement& mesh) {
    const char* attr = mesh.Attribute("filename");
    if (!attr || !*attr) return;  // the structure checks report a mesh without a filename
    const std::string uri = attr;
    const SourceLocation where{urdf_name, mesh.GetLineNum()};
    const auto path = packages.resolve(uri, base_dir);
    if (!path) {
      if (uri.rfind("package://", 0) == 0) {
        const std::string package = uri.substr(10, uri.find('/', 10) - 10);
        const auto otherwise = packages.named_otherwise(package);
        out.add(Severity::error, where, "mesh-missing",
                fmt::format("mesh '{}': package '{}' is not found (give its parent directory with "
                            "ModelSource::package_paths or ROS_PACKAGE_PATH){}",
                            uri, package, otherwise ? "; " + *otherwise : std::string()));
      } else {
        out.add(Severity::warning, where, "mesh-unchecked",
                fmt::format("mesh '{}': only package://, file:// and plain paths can be checked", uri));
      }
      return;
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(*path, ec)) {
      out.add(Severity::error, where, "mesh-missing",
              fmt::format("mesh '{}': {} is not a file", uri, path->lexically_normal().string()));
    } else if (const auto pointer = lfs_pointer_at(*path)) {
      // The file is there and the mesh is not: a viewer or a collision checker gets nothing.
      out.add(Severity::error, where, "mesh-missing",
              fmt::format("mesh '{}': {} is {}", uri, path->lexically_normal().string(), *pointer));
    }
  });
  return out;
}

Diagnostics check_mesh_files(const ModelSource& source) {
  const std::string text = read_text_file(source.urdf_path);
  const std::filesystem::path base = std::filesystem::path(source.urdf_path).parent_path();
  const auto search = package_search_path(source.package_paths);
  return check_mesh_files(text, display_name(source.urdf_path), base.empty() ? "." : base, search);
}

}  // namespace rmodel
