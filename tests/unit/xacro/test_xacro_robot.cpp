// A realistic multi-file robot of our own (share/rmodel/examples/xacro: a quadruped package
// with included macro files, leg macros with block parameters, YAML-loaded dimensions and
// $(find)) expanded, loaded, checked and FK-evaluated against its hand-written URDF.
#include <fstream>
#include <map>
#include <random>

#include <gtest/gtest.h>

#include "rmodel/check/check.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/xacro/xacro.hpp"
#include "test_support.hpp"
#include "xml_compare.hpp"

namespace rmodel {
namespace {

std::filesystem::path quadruped_dir() { return test::source_dir() / "share/rmodel/examples/xacro"; }

ModelSource quadruped_source(const std::string& file, std::map<std::string, std::string> args = {}) {
  ModelSource source;
  source.urdf_path = (quadruped_dir() / "quadruped_description/urdf" / file).string();
  source.package_paths = {quadruped_dir()};
  source.xacro_args = std::move(args);
  return source;
}

ModelSource hand_written() {
  ModelSource source;
  source.urdf_path = (quadruped_dir() / "quadruped.urdf").string();
  return source;
}

TEST(XacroRobot, ExpandsToItsHandWrittenUrdf) {
  XacroOptions options;
  options.package_paths = {quadruped_dir()};
  for (const char* file : {"quadruped.urdf.xacro", "quadruped_flat.urdf.xacro"}) {
    const XacroResult r = expand_xacro_file(quadruped_source(file).urdf_path, options);
    EXPECT_EQ(test::xml_difference(r.xml(), test::read_file(hand_written().urdf_path), 1e-12), "") << file;
    // main, body, inertia, leg, sensors (+ the YAML for the first)
    EXPECT_GE(r.files().size(), 5u) << file;
  }
}

TEST(XacroRobot, LoadsChecksAndMovesAsTheHandWrittenUrdf) {
  const Model xacro = Model::load(quadruped_source("quadruped.urdf.xacro"));
  const Model urdf = Model::load(hand_written());
  EXPECT_FALSE(check_model(quadruped_source("quadruped.urdf.xacro")).has_errors());
  ASSERT_EQ(xacro.joint_names(), urdf.joint_names());
  ASSERT_EQ(xacro.pose_size(), 12u);
  ASSERT_EQ(xacro.links().size(), urdf.links().size());
  EXPECT_NEAR(*xacro.total_mass(), *urdf.total_mass(), 1e-12);
  for (std::size_t j = 0; j < xacro.pose_size(); ++j) {
    EXPECT_EQ(xacro.pose_joint(j).lower, urdf.pose_joint(j).lower);
    EXPECT_EQ(xacro.pose_joint(j).upper, urdf.pose_joint(j).upper);
  }
  const auto kx = kinematics::KinematicModel::from_model(xacro);
  const auto ku = kinematics::KinematicModel::from_model(urdf);
  kinematics::Workspace wx(kx), wu(ku);
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> angle(-1.5, 1.5);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> q(kx.pose_size());
    for (auto& v : q) v = angle(rng);
    kinematics::forward_kinematics(kx, wx, q);
    kinematics::forward_kinematics(ku, wu, q);
    for (const auto& link : urdf.links()) {
      const auto& fx = wx.frame(kx.body_index(link.name));
      const auto& fu = wu.frame(ku.body_index(link.name));
      EXPECT_LT((fx.matrix() - fu.matrix()).cwiseAbs().maxCoeff(), 1e-12) << link.name;
    }
  }
}

TEST(XacroRobot, ArgumentsChangeTheModel) {
  const Model without = Model::load(quadruped_source("quadruped.urdf.xacro", {{"with_camera", "false"}}));
  EXPECT_EQ(without.find_link("front_camera_link"), nullptr);
  EXPECT_NE(Model::load(quadruped_source("quadruped.urdf.xacro")).find_link("front_camera_link"), nullptr);
}

TEST(XacroRobot, ProblemsInTheExpansionPointAtTheXacroLine) {
  // A joint of the leg macro names a link that does not exist: the loader's message names
  // leg.xacro's line of that <joint> and the call that produced it.
  const auto dir = test::make_temp_dir("rmodel-xacro-robot");
  std::filesystem::copy(quadruped_dir(), dir, std::filesystem::copy_options::recursive);
  const auto leg = dir / "quadruped_description/urdf/leg.xacro";
  std::string text = test::read_file(leg);
  const std::string from = "<child link=\"${prefix}_foot\"/>";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), "<child link=\"${prefix}_toe\"/>");
  std::ofstream(leg) << text;
  int joint_line = 0, line = 1;
  for (std::size_t k = 0; k < text.find("_foot_fixed"); ++k) line += text[k] == '\n';
  joint_line = line;
  ModelSource source;
  source.urdf_path = (dir / "quadruped_description/urdf/quadruped.urdf.xacro").string();
  source.package_paths = {dir};
  try {
    (void)Model::load(source);
    ADD_FAILURE() << "loaded";
  } catch (const ModelError& e) {
    EXPECT_EQ(std::filesystem::path(e.where().file).filename(), "leg.xacro") << e.what();
    EXPECT_EQ(e.where().line, joint_line) << e.what();
    EXPECT_NE(std::string(e.what()).find("in macro 'leg' called from"), std::string::npos) << e.what();
  }
  const Diagnostics d = check_model(source);
  ASSERT_TRUE(d.has_errors());
  EXPECT_EQ(std::filesystem::path(d.first_error()->where.file).filename(), "leg.xacro");
  EXPECT_EQ(d.first_error()->where.line, joint_line);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rmodel
