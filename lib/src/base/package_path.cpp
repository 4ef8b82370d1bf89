#include "rmodel/package_path.hpp"

#include <cstdlib>
#include <system_error>

namespace rmodel {

std::vector<std::filesystem::path> package_search_path(std::span<const std::filesystem::path> given,
                                                       std::string_view ros_package_path) {
  std::vector<std::filesystem::path> dirs(given.begin(), given.end());
  while (!ros_package_path.empty()) {
    const std::size_t colon = ros_package_path.find(':');
    const std::string_view entry = ros_package_path.substr(0, colon);
    if (!entry.empty()) dirs.emplace_back(entry);
    if (colon == std::string_view::npos) break;
    ros_package_path.remove_prefix(colon + 1);
  }
  return dirs;
}

std::vector<std::filesystem::path> package_search_path(std::span<const std::filesystem::path> given) {
  const char* env = std::getenv("ROS_PACKAGE_PATH");
  return package_search_path(given, env ? std::string_view(env) : std::string_view());
}

std::optional<std::filesystem::path> find_ros_package(std::string_view name,
                                                      std::span<const std::filesystem::path> search) {
  // A package name is one path component: "../x" or "a/b" must not walk the file system.
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos) return std::nullopt;
  std::error_code ec;
  for (const auto& dir : search) {
    // ROS_PACKAGE_PATH often names a package itself rather than the folder holding it.
    const auto trimmed = dir.has_filename() ? dir : dir.parent_path();
    if (trimmed.filename() == name && std::filesystem::is_directory(trimmed, ec)) return trimmed;
    const auto candidate = dir / std::string(name);
    if (std::filesystem::is_directory(candidate, ec)) return candidate;
  }
  return std::nullopt;
}

std::optional<std::filesystem::path> resolve_resource_uri(std::string_view uri, const std::filesystem::path& base_dir,
                                                          std::span<const std::filesystem::path> search) {
  constexpr std::string_view kPackage = "package://";
  constexpr std::string_view kFile = "file://";
  if (uri.starts_with(kPackage)) {
    const std::string_view rest = uri.substr(kPackage.size());
    const std::size_t slash = rest.find('/');
    const auto package = find_ros_package(rest.substr(0, slash), search);
    if (!package) return std::nullopt;
    if (slash == std::string_view::npos) return package;
    return *package / std::string(rest.substr(slash + 1));
  }
  if (uri.starts_with(kFile)) uri.remove_prefix(kFile.size());
  else if (uri.find("://") != std::string_view::npos) return std::nullopt;
  const std::filesystem::path path{std::string(uri)};
  return path.is_absolute() ? path : base_dir / path;
}

}  // namespace rmodel
