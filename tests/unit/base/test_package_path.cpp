// Package lookup for xacro's $(find) and URDF's package:// without ROS, against the rules
// rospack documents and implements for ROS_PACKAGE_PATH (a package is the directory whose
// package.xml names it, crawled below each entry; CATKIN_IGNORE, rospack_nosubdirs, hidden
// directories, metapackages) and ament's resource index for AMENT_PREFIX_PATH; a directory
// of the package's name without any manifest is the fallback for trees copied without ROS.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "rmodel/base/package_path.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

/// find_ros_package's answer. A PackageFinder over the same search must give the same, both
/// fresh (its first step, the package's own folder) and after a lookup that crawled every
/// entry (the answer then comes from its index of the whole tree).
std::optional<fs::path> find_both(std::string_view name, std::span<const fs::path> search) {
  const auto answer = rmodel::find_ros_package(name, search);
  rmodel::PackageFinder fresh(std::vector<fs::path>(search.begin(), search.end()));
  EXPECT_EQ(fresh.find(name), answer) << name << " (a fresh finder)";
  rmodel::PackageFinder crawled(std::vector<fs::path>(search.begin(), search.end()));
  EXPECT_EQ(crawled.find("no_package_of_this_name"), std::nullopt);
  EXPECT_EQ(crawled.find(name), answer) << name << " (a finder that crawled every entry)";
  EXPECT_EQ(crawled.find(name), answer) << name << " (asked again)";
  return answer;
}

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
  // AMENT_PREFIX_PATH's prefixes come last, as their share directories.
  EXPECT_EQ(rmodel::package_search_path(given, "/c", "/opt/ros/humble::/ws/install/arm"),
            (std::vector<fs::path>{"/a", "/b", "/c", "/opt/ros/humble/share", "/ws/install/arm/share"}));
}

namespace {

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

std::string package_xml(const std::string& name, const std::string& more = "") {
  return "<?xml version=\"1.0\"?>\n<package format=\"3\">\n  <name>" + name + "</name>\n  <version>1.0.0</version>\n" +
         more + "</package>\n";
}

}  // namespace

TEST_F(PackagePath, PackageXmlNamesThePackageWhereverItIsUnderAnEntry) {
  // MoveIt's resources: the folder panda_description holds moveit_resources_panda_description.
  const fs::path src = root_ / "src";
  write(src / "moveit_resources" / "panda_description" / "package.xml",
        package_xml("moveit_resources_panda_description"));
  write(src / "moveit_resources" / "panda_moveit_config" / "package.xml", package_xml("  moveit_resources_panda_moveit_config\n"));
  const std::vector<fs::path> search{src};
  EXPECT_EQ(find_both("moveit_resources_panda_description", search),
            src / "moveit_resources" / "panda_description");
  // Whitespace around the name is not part of it, as rospack collapses it.
  EXPECT_EQ(find_both("moveit_resources_panda_moveit_config", search),
            src / "moveit_resources" / "panda_moveit_config");
  // The folder's name is not the package's: ROS does not find panda_description, nor does rmodel,
  // and the message can say why.
  EXPECT_EQ(find_both("panda_description", search), std::nullopt);
  EXPECT_EQ(rmodel::package_named_otherwise("panda_description", std::vector<fs::path>{src / "moveit_resources"}),
            (src / "moveit_resources" / "panda_description").string() +
                "/package.xml names its package 'moveit_resources_panda_description'");
  EXPECT_EQ(rmodel::package_named_otherwise("moveit_resources", search), std::nullopt);
  // An entry that is itself the package is answered by its package.xml's name as well.
  EXPECT_EQ(find_both("moveit_resources_panda_description",
                                     std::vector<fs::path>{src / "moveit_resources" / "panda_description"}),
            src / "moveit_resources" / "panda_description");
}

TEST_F(PackagePath, CrawlFollowsRospacksRules) {
  const fs::path src = root_ / "src";
  write(src / "ignored" / "CATKIN_IGNORE", "");
  write(src / "ignored" / "deep" / "hidden_pkg" / "package.xml", package_xml("hidden_pkg"));
  write(src / "flat" / "rospack_nosubdirs", "");
  write(src / "flat" / "below" / "package.xml", package_xml("below"));
  write(src / ".git" / "dotted" / "package.xml", package_xml("dotted"));
  write(src / "outer" / "package.xml", package_xml("outer"));
  write(src / "outer" / "test" / "inner" / "package.xml", package_xml("inner"));  // inside a package
  write(src / "robot" / "package.xml", package_xml("robot", "  <export><metapackage/></export>\n"));
  write(src / "legacy_folder" / "manifest.xml", "<package/>");
  write(src / "legacy_folder" / "package.xml", package_xml("legacy_by_package_xml"));
  write(src / "unnamed" / "package.xml", "<package format=\"2\"/>");
  write(src / "broken" / "package.xml", "<package><name>never closed");
  const std::vector<fs::path> search{src};
  for (const char* hidden : {"hidden_pkg", "below", "dotted", "inner", "robot", "legacy_by_package_xml"})
    EXPECT_EQ(find_both(hidden, search), std::nullopt) << hidden;
  EXPECT_EQ(find_both("outer", search), src / "outer");
  // A rosbuild manifest.xml wins over a package.xml beside it: the folder's name.
  EXPECT_EQ(find_both("legacy_folder", search), src / "legacy_folder");
  // A package.xml without a name, or one that cannot be read, leaves the folder's name.
  EXPECT_EQ(find_both("unnamed", search), src / "unnamed");
  EXPECT_EQ(find_both("broken", search), src / "broken");
  EXPECT_EQ(rmodel::package_named_otherwise("robot", search), (src / "robot").string() +
                                                                  " is a metapackage, which holds no files");
}

TEST_F(PackagePath, EarlierEntryWinsEvenWhenItsPackageIsDeeper) {
  // An overlay workspace shadows the underlay: the first entry's package, however deep,
  // before a later entry's DIR/name.
  const fs::path overlay = root_ / "overlay";
  const fs::path underlay = root_ / "underlay";
  write(overlay / "universal_robot" / "ur_description" / "package.xml", package_xml("ur_description"));
  write(underlay / "ur_description" / "package.xml", package_xml("ur_description"));
  EXPECT_EQ(find_both("ur_description", std::vector<fs::path>{overlay, underlay}),
            overlay / "universal_robot" / "ur_description");
  EXPECT_EQ(find_both("ur_description", std::vector<fs::path>{underlay, overlay}),
            underlay / "ur_description");
  // A folder without any manifest is taken only when no entry has the package ROS's way.
  fs::create_directories(root_ / "copied" / "ur_description");
  EXPECT_EQ(find_both("ur_description", std::vector<fs::path>{root_ / "copied", underlay}),
            underlay / "ur_description");
}

TEST_F(PackagePath, AmentPrefixAnswersFromItsResourceIndexOnly) {
  const fs::path share = root_ / "install" / "share";
  write(share / "ament_index" / "resource_index" / "packages" / "arm_description", "");
  write(share / "arm_description" / "package.xml", package_xml("arm_description"));
  write(share / "not_indexed" / "package.xml", package_xml("not_indexed"));
  write(share / "arm_description" / "nested" / "package.xml", package_xml("nested"));
  const std::vector<fs::path> search = rmodel::package_search_path({}, "", (root_ / "install").string());
  EXPECT_EQ(find_both("arm_description", search), share / "arm_description");
  EXPECT_EQ(find_both("not_indexed", search), std::nullopt);
  EXPECT_EQ(find_both("nested", search), std::nullopt);
}

TEST_F(PackagePath, SymbolicLinkLoopsEndTheCrawl) {
  const fs::path src = root_ / "src";
  fs::create_directories(src / "a");
  fs::create_directory_symlink(src, src / "a" / "loop");
  write(src / "z" / "pkg" / "package.xml", package_xml("pkg"));
  EXPECT_EQ(find_both("pkg", std::vector<fs::path>{src}), src / "z" / "pkg");
  EXPECT_EQ(find_both("nothing", std::vector<fs::path>{src}), std::nullopt);
}

TEST_F(PackagePath, FirstDirectoryHoldingThePackageWins) {
  const std::vector<fs::path> search{root_ / "ws1", root_ / "ws2", root_ / "hand_description"};
  EXPECT_EQ(find_both("arm_description", search), root_ / "ws1" / "arm_description");
  EXPECT_EQ(find_both("gripper", search), root_ / "ws2" / "gripper");
  EXPECT_EQ(find_both("hand_description", search), root_ / "hand_description");
  EXPECT_EQ(find_both("not_a_dir", search), std::nullopt);
  EXPECT_EQ(find_both("nowhere", search), std::nullopt);
  // Names that would walk the file system are not package names.
  for (const char* bad : {"", ".", "..", "ws1/arm_description", "../ws1"})
    EXPECT_EQ(find_both(bad, std::vector<fs::path>{root_, root_ / "ws1"}), std::nullopt) << bad;
  // A trailing slash on the search entry names the same directory.
  EXPECT_EQ(find_both("hand_description", std::vector<fs::path>{root_.string() + "/hand_description/"}),
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

namespace {

// A run's lookups crawl each search directory once: a folder without package.xml, which only
// a whole crawl tells from a package elsewhere, costs one crawl per finder, not one per
// lookup. The finder answers from what it read then: a package made after its crawl is not
// seen by it, and is by a new finder.
TEST_F(PackagePath, AFinderCrawlsEachSearchDirectoryOnce) {
  const std::vector<fs::path> search = {root_ / "ws2"};
  rmodel::PackageFinder finder(search);
  EXPECT_EQ(finder.find("gripper"), root_ / "ws2" / "gripper");  // the fallback: a whole crawl first
  fs::create_directories(root_ / "ws2" / "later" / "late_package");
  std::ofstream(root_ / "ws2" / "later" / "late_package" / "package.xml") << "<package><name>late</name></package>";
  EXPECT_EQ(finder.find("late"), std::nullopt);
  EXPECT_EQ(rmodel::PackageFinder(search).find("late"), root_ / "ws2" / "later" / "late_package");
  EXPECT_EQ(rmodel::find_ros_package("late", search), root_ / "ws2" / "later" / "late_package");
  EXPECT_EQ(finder.resolve("package://gripper/x.stl", root_), root_ / "ws2" / "gripper" / "x.stl");
  EXPECT_EQ(finder.named_otherwise("gripper"), std::nullopt);
}

}  // namespace
