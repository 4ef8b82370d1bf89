#pragma once
#include "rmodel/export.hpp"
/// @file package_path.hpp
/// Finding ROS packages without ROS: what `$(find pkg)` (xacro) and `package://pkg/...`
/// (mesh references in URDF) resolve to, from a list of directories.

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rmodel {

/// The directories searched for ROS packages: `given` (e.g. `--package-path`, in order),
/// then the entries of `ros_package_path` (the value of ROS_PACKAGE_PATH: ':'-separated,
/// empty entries skipped), then `share` under each entry of `ament_prefix_path` (the value
/// of AMENT_PREFIX_PATH, where ROS 2 looks). Nothing is checked on disk.
RMODEL_API std::vector<std::filesystem::path> package_search_path(
    std::span<const std::filesystem::path> given, std::string_view ros_package_path,
    std::string_view ament_prefix_path = {});

/// package_search_path() with the environment's ROS_PACKAGE_PATH and AMENT_PREFIX_PATH.
RMODEL_API std::vector<std::filesystem::path> package_search_path(std::span<const std::filesystem::path> given);

/// The directory of package `name`, found as ROS finds it, in `search`'s order:
/// - a directory holding `ament_index/resource_index/packages` is an ament install's share
///   directory: D/name when the index lists `name` (ROS 2's get_package_share_directory);
/// - any other directory is crawled as rospack crawls ROS_PACKAGE_PATH: a directory with a
///   package.xml is the package its `<name>` names (the directory's name when it has none),
///   one with a manifest.xml (rosbuild) the package of its directory's name; packages are not
///   descended into, metapackages are not answered, a CATKIN_IGNORE file hides a directory,
///   a rospack_nosubdirs file what is under it, names starting with '.' are skipped.
/// When no directory has it that way, a directory named `name` with no manifest at all, under
/// a search directory or the search directory itself, is taken (trees copied without ROS).
/// Nothing when none has it or `name` is empty or not a single path component.
RMODEL_API std::optional<std::filesystem::path> find_ros_package(std::string_view name,
                                                                 std::span<const std::filesystem::path> search);

/// Why a directory named `name` under `search` is not package `name`, for the message of a
/// failed lookup: "DIR/package.xml names its package 'OTHER'" (MoveIt's resources, for
/// example, keep moveit_resources_panda_description in a folder panda_description), or
/// that it is a metapackage. Nothing when there is no such directory.
RMODEL_API std::optional<std::string> package_named_otherwise(std::string_view name,
                                                              std::span<const std::filesystem::path> search);

/// find_ros_package(), package_named_otherwise() and resolve_resource_uri() over one search
/// path, for a run that looks up many names (a xacro's `$(find)`s, a URDF's meshes): each
/// search directory is crawled at most once, on the first lookup the package's own folder
/// does not answer, and every answer is kept. So a run's cost does not grow with how the
/// packages are laid out (a folder without package.xml, found only after a crawl, costs one
/// crawl per run, not one per lookup). The finder sees the directories as they were when it
/// first read them: make one per run. The answers are those of find_ros_package(), but for
/// a tree whose symbolic links reach one directory twice, where which path names it may
/// differ. Not thread-safe.
class RMODEL_API PackageFinder {
public:
  explicit PackageFinder(std::vector<std::filesystem::path> search);
  ~PackageFinder();
  PackageFinder(PackageFinder&&) noexcept;
  PackageFinder& operator=(PackageFinder&&) noexcept;
  PackageFinder(const PackageFinder&) = delete;
  PackageFinder& operator=(const PackageFinder&) = delete;

  /// find_ros_package(name, search()).
  std::optional<std::filesystem::path> find(std::string_view name);
  /// package_named_otherwise(name, search()).
  [[nodiscard]] std::optional<std::string> named_otherwise(std::string_view name) const;
  /// resolve_resource_uri(uri, base_dir, search()).
  std::optional<std::filesystem::path> resolve(std::string_view uri, const std::filesystem::path& base_dir);
  [[nodiscard]] std::span<const std::filesystem::path> search() const noexcept;

private:
  struct State;
  std::unique_ptr<State> state_;
};

/// What a resource URI names on disk: `package://pkg/rest` → find_ros_package(pkg)/rest,
/// `file:///abs/path` → /abs/path, `file://rel` and a plain path → relative to `base_dir`
/// (the directory of the file that holds the reference). Nothing when the package is not
/// found or the scheme is another one (`http://`); whether the file exists is not checked.
RMODEL_API std::optional<std::filesystem::path> resolve_resource_uri(std::string_view uri,
                                                                     const std::filesystem::path& base_dir,
                                                                     std::span<const std::filesystem::path> search);

}  // namespace rmodel
