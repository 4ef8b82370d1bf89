#pragma once
#include "rmodel/export.hpp"
/// @file package_path.hpp
/// Finding ROS packages without ROS: what `$(find pkg)` (xacro) and `package://pkg/...`
/// (mesh references in URDF) resolve to, from a list of directories.

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rmodel {

/// The directories searched for ROS packages: `given` (e.g. `--package-path`, in order),
/// then the entries of `ros_package_path` (the value of ROS_PACKAGE_PATH: ':'-separated,
/// empty entries skipped). Nothing is checked on disk.
RMODEL_API std::vector<std::filesystem::path> package_search_path(
    std::span<const std::filesystem::path> given, std::string_view ros_package_path);

/// package_search_path() with the environment's ROS_PACKAGE_PATH (empty when unset).
RMODEL_API std::vector<std::filesystem::path> package_search_path(std::span<const std::filesystem::path> given);

/// The directory of package `name`: for each directory D of `search` in order, D itself when
/// its last component is `name`, else D/name when that is a directory (with a package.xml or
/// without one). Nothing when no directory has it or `name` is empty or not a single path
/// component.
RMODEL_API std::optional<std::filesystem::path> find_ros_package(std::string_view name,
                                                                 std::span<const std::filesystem::path> search);

/// What a resource URI names on disk: `package://pkg/rest` → find_ros_package(pkg)/rest,
/// `file:///abs/path` → /abs/path, `file://rel` and a plain path → relative to `base_dir`
/// (the directory of the file that holds the reference). Nothing when the package is not
/// found or the scheme is another one (`http://`); whether the file exists is not checked.
RMODEL_API std::optional<std::filesystem::path> resolve_resource_uri(std::string_view uri,
                                                                     const std::filesystem::path& base_dir,
                                                                     std::span<const std::filesystem::path> search);

}  // namespace rmodel
