// Package lookup as documented for xacro's $(find) and URDF's package:// without ROS:
// DIR/pkg under each search directory in order, or the directory itself when it is the
// package; ROS_PACKAGE_PATH after the given directories.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "rmodel/package_path.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

class PackagePath : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = rmodel::test::make_temp_dir("rmodel-pkgpath");
    fs::create_directories(root_ / "ws1" / "arm_description" / "meshes");
    std::ofstream(root_ / "ws1" / "arm_description" / "package.xml") << "<package/>";
    fs::create_directories(root_ / "ws2" / "arm_description");  // shadowed by ws1
    fs::create_directories(root_ / "ws2" / "gripper");           // no package.xml: still found
    fs::create_directories(root_ / "hand_description");          // named directly
    std::ofstream(root_ / "ws2" / "not_a_dir") << "x";
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(PackagePath, SearchPathIsGivenThenEnvironmentEntries) {
  const std::vector<fs::path> given{"/a", "/b"};
  const auto dirs = rmodel::package_search_path(given, "/c::/d:");
  EXPECT_EQ(dirs, (std::vector<fs::path>{"/a", "/b", "/c", "/d"}));
  EXPECT_EQ(rmodel::package_search_path({}, ""), std::vector<fs::path>{});
}

TEST_F(PackagePath, FirstDirectoryHoldingThePackageWins) {
  const std::vector<fs::path> search{root_ / "ws1", root_ / "ws2", root_ / "hand_description"};
  EXPECT_EQ(rmodel::find_ros_package("arm_description", search), root_ / "ws1" / "arm_description");
  EXPECT_EQ(rmodel::find_ros_package("gripper", search), root_ / "ws2" / "gripper");
  EXPECT_EQ(rmodel::find_ros_package("hand_description", search), root_ / "hand_description");
  EXPECT_EQ(rmodel::find_ros_package("not_a_dir", search), std::nullopt);
  EXPECT_EQ(rmodel::find_ros_package("nowhere", search), std::nullopt);
  // Names that would walk the file system are not package names.
  for (const char* bad : {"", ".", "..", "ws1/arm_description", "../ws1"})
    EXPECT_EQ(rmodel::find_ros_package(bad, std::vector<fs::path>{root_, root_ / "ws1"}), std::nullopt) << bad;
  // A trailing slash on the search entry names the same directory.
  EXPECT_EQ(rmodel::find_ros_package("hand_description", std::vector<fs::path>{root_.string() + "/hand_description/"}),
            fs::path(root_.string() + "/hand_description"));
}

TEST_F(PackagePath, ResourceUrisResolveToPaths) {
  const std::vector<fs::path> search{root_ / "ws1"};
  EXPECT_EQ(rmodel::resolve_resource_uri("package://arm_description/meshes/base.stl", "/x", search),
            root_ / "ws1" / "arm_description" / "meshes" / "base.stl");
  EXPECT_EQ(rmodel::resolve_resource_uri("package://gripper/m.stl", "/x", search), std::nullopt);
  EXPECT_EQ(rmodel::resolve_resource_uri("file:///abs/m.dae", "/x", search), fs::path("/abs/m.dae"));
  EXPECT_EQ(rmodel::resolve_resource_uri("file://rel/m.dae", "/urdf/dir", search), fs::path("/urdf/dir/rel/m.dae"));
  EXPECT_EQ(rmodel::resolve_resource_uri("meshes/m.obj", "/urdf/dir", search), fs::path("/urdf/dir/meshes/m.obj"));
  EXPECT_EQ(rmodel::resolve_resource_uri("https://example.org/m.stl", "/x", search), std::nullopt);
}

}  // namespace
