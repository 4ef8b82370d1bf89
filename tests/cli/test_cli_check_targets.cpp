// `check --target mujoco|kdl|gazebo` at the command line: the verdict line per program, its
// counts, the JSON report's `targets`, and the options' arguments taken one at a time (a FILE
// after `--target NAME` or `--ignore CODE` is checked, as a pre-commit hook's `args` put it);
// a model on standard input, whose meshes cannot be looked for.
// Whether each rule agrees with the program itself is tested against its library in
// tests/oracle/test_*_targets_oracle.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel::cli_targets_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_rmodel;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// The example robot: valid, its root link has an <inertial> (kdl-root-inertia), nothing else
/// any program minds.
std::string example_robot() { return (test::source_dir() / "share/rmodel/examples/robot.urdf").string(); }

/// A folder with URDFs written by the tests.
class CheckTargetsCli : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-targets-cli-"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

/// An arm whose moving link has no <inertial>: MuJoCo refuses it (mujoco-moving-body-mass),
/// Gazebo leaves the link out (gazebo-link-dropped), KDL builds its tree without the root's
/// inertia (kdl-root-inertia).
const char* const kMasslessArm = R"(<robot name="r">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <link name="arm"/>
  <joint name="j" type="revolute">
    <parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>
)";

TEST_F(CheckTargetsCli, ALinePerProgramAfterTheSummary) {
  const auto r = run_rmodel({"check", "--target", "mujoco", "--target", "kdl,gazebo", example_robot()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "[kdl-root-inertia]")) << r.out;
  EXPECT_TRUE(has(r.out, "valid: 0 errors, 1 warning\n"
                         "loads in MuJoCo: yes\n"
                         "loads in KDL: yes (1 warning)\n"
                         "loads in Gazebo: yes\n"))
      << r.out;
  // The program's warnings are warnings: --strict fails on them, --ignore accepts them.
  EXPECT_EQ(run_rmodel({"check", "--strict", "--target", "kdl", example_robot()}).exit_code, 1);
  const auto ignored = run_rmodel({"check", "--strict", "--ignore", "kdl-root-inertia", "--target", "kdl", example_robot()});
  EXPECT_EQ(ignored.exit_code, 0) << ignored.out << ignored.err;
  EXPECT_TRUE(has(ignored.out, "loads in KDL: yes\n")) << ignored.out;
}

TEST_F(CheckTargetsCli, NoTargetNoLine) {
  const auto r = run_rmodel({"check", example_robot()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(has(r.out, "loads in")) << r.out;
  EXPECT_FALSE(has(r.out, "kdl-")) << r.out;
  const json doc = json::parse(run_rmodel({"check", "-f", "json", example_robot()}).out);
  EXPECT_FALSE(doc.contains("targets"));
}

TEST_F(CheckTargetsCli, AProgramsErrorMakesTheModelInvalid) {
  const std::string urdf = write("arm.urdf", kMasslessArm);
  const auto r = run_rmodel({"check", "--target", "mujoco,kdl,gazebo", urdf});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.out, urdf + ":5: error: link 'arm' moves (joint 'j')")) << r.out;
  EXPECT_TRUE(has(r.out, "[mujoco-moving-body-mass]")) << r.out;
  EXPECT_TRUE(has(r.out, "[gazebo-link-dropped]")) << r.out;
  EXPECT_TRUE(has(r.out, "loads in MuJoCo: no (1 error)\nloads in KDL: yes (1 warning)\nloads in Gazebo: yes (1 warning)\n"))
      << r.out;
  // The same file without --target: ROS reads it, nothing to report.
  EXPECT_EQ(run_rmodel({"check", urdf}).exit_code, 0);
}

/// kMasslessArm, its arm of mass 1 with a collision mesh MuJoCo reads from the URDF's
/// directory: it loads when arm.stl is there.
std::string arm_with_mesh() {
  std::string text = kMasslessArm;
  text.replace(text.find(R"(<link name="arm"/>)"), 18,
               R"(<link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><geometry><mesh filename="package://arm/meshes/arm.stl"/></geometry></collision>
  </link>)");
  return text;
}

TEST_F(CheckTargetsCli, MeshesOfAUrdfFromStandardInputAreUncheckedAndTheVerdictNotKnown) {
  const std::string urdf = write("arm.urdf", arm_with_mesh());
  write("arm.stl", "solid arm\nendsolid arm\n");
  const auto file = run_rmodel({"check", "--target", "mujoco", urdf});
  EXPECT_EQ(file.exit_code, 0) << file.out << file.err;
  EXPECT_TRUE(has(file.out, "valid: 0 errors, 0 warnings\nloads in MuJoCo: yes\n")) << file.out;
  // From standard input there is no directory to find arm.stl from: not "yes".
  const auto piped = run_rmodel({"check", "-", "--target", "mujoco"}, arm_with_mesh());
  EXPECT_EQ(piped.exit_code, 0) << piped.out << piped.err;  // a warning
  EXPECT_TRUE(has(piped.out, "<stdin>:7: warning: link 'arm': collision mesh 'package://arm/meshes/arm.stl' was not "
                             "looked for: MuJoCo reads meshes from the URDF's directory, and this URDF has none"))
      << piped.out;
  EXPECT_TRUE(has(piped.out, "[mujoco-mesh-unchecked]\nvalid: 0 errors, 1 warning\nloads in MuJoCo: not known (1 warning)\n"))
      << piped.out;
  EXPECT_EQ(run_rmodel({"check", "-", "--strict", "--target", "mujoco"}, arm_with_mesh()).exit_code, 1);
  const json doc = json::parse(run_rmodel({"check", "-", "-f", "json", "--target", "mujoco"}, arm_with_mesh()).out);
  EXPECT_EQ(doc["targets"][0], (json{{"file", "<stdin>"},
                                     {"target", "mujoco"},
                                     {"loads", false},
                                     {"checked", true},
                                     {"errors", 0},
                                     {"warnings", 1},
                                     {"unchecked", 1}}));
  // Accepted without its meshes: the user's word.
  const auto ignored = run_rmodel({"check", "-", "--ignore", "mujoco-mesh-unchecked", "--target", "mujoco"}, arm_with_mesh());
  EXPECT_TRUE(has(ignored.out, "loads in MuJoCo: yes\n")) << ignored.out;
  // Errors known all the same say no.
  const auto refused = run_rmodel({"check", "-", "--target", "mujoco"}, kMasslessArm);
  EXPECT_TRUE(has(refused.out, "loads in MuJoCo: no (1 error)\n")) << refused.out;
}

TEST_F(CheckTargetsCli, MeshesAndCollisionsRefuseAModelFromStandardInput) {
  // They read the model's files again, after check has read standard input to its end: they
  // found nothing, and said "valid" of a robot whose meshes are all missing.
  const std::string text = arm_with_mesh();  // arm.stl is not there
  const std::string urdf = write("arm.urdf", text);
  const auto file = run_rmodel({"check", "--meshes", urdf});
  EXPECT_EQ(file.exit_code, 1) << file.out;
  EXPECT_TRUE(has(file.out, "[mesh-missing]")) << file.out;
  const auto piped = run_rmodel({"check", "-", "--meshes"}, text);
  EXPECT_EQ(piped.exit_code, 2) << piped.out << piped.err;
  EXPECT_TRUE(has(piped.err, "--meshes reads the model a second time, and standard input can be read once: give the "
                             "URDF as a file, not '-'"))
      << piped.err;
  const std::string srdf = "<robot name=\"r\"><disable_collisions link1=\"base\" link2=\"arm\" reason=\"Never\"/></robot>";
  const auto semantics = run_rmodel({"check", "-u", urdf, "-s", "-", "--collisions"}, srdf);
  EXPECT_EQ(semantics.exit_code, 2) << semantics.out << semantics.err;
  EXPECT_TRUE(has(semantics.err, "--collisions reads the model a second time")) << semantics.err;
  EXPECT_TRUE(has(semantics.err, "give the semantics as a file")) << semantics.err;
  // Without them, standard input is read once and serves.
  EXPECT_EQ(run_rmodel({"check", "-u", urdf, "-s", "-"}, srdf).exit_code, 0);
}

TEST_F(CheckTargetsCli, ThePandaFromStandardInputIsNotSaidToLoadInMujoco) {
  RMODEL_REQUIRE_FIXTURES();
  // The fixture's Panda has its meshes elsewhere: MuJoCo refuses it as it is (measured, see
  // docs/design.md), and rmodel says so reading the file.
  const fs::path panda = test::fixture("example_robot_data/panda.urdf");
  const auto file = run_rmodel({"check", "--target", "mujoco", panda.string()});
  EXPECT_TRUE(has(file.out, "loads in MuJoCo: no (9 errors)\n")) << file.out;
  std::ifstream in(panda);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto piped = run_rmodel({"check", "-", "--target", "mujoco"}, text);
  EXPECT_TRUE(has(piped.out, "and 8 more meshes were not looked for")) << piped.out;
  EXPECT_TRUE(has(piped.out, "loads in MuJoCo: not known (1 warning)\n")) << piped.out;
}

TEST_F(CheckTargetsCli, JsonReportHasAVerdictPerProgram) {
  const std::string urdf = write("arm.urdf", kMasslessArm);
  const auto r = run_rmodel({"check", "-f", "json", "--target", "gazebo,mujoco", urdf});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json doc = json::parse(r.out);
  ASSERT_EQ(doc["targets"].size(), 2U) << r.out;
  // In the order asked for.
  EXPECT_EQ(doc["targets"][0],
            (json{{"file", urdf}, {"target", "gazebo"}, {"loads", true}, {"checked", true}, {"errors", 0}, {"warnings", 1}, {"unchecked", 0}}));
  EXPECT_EQ(doc["targets"][1],
            (json{{"file", urdf}, {"target", "mujoco"}, {"loads", false}, {"checked", true}, {"errors", 1}, {"warnings", 0}, {"unchecked", 0}}));
  EXPECT_EQ(doc["errors"], 1);
  EXPECT_EQ(doc["warnings"], 1);
}

TEST_F(CheckTargetsCli, AUrdfWithErrorsOfItsOwnLoadsNowhere) {
  // The axis of 'j' is zero: an error of the URDF, the programs' rules do not apply.
  std::string text = kMasslessArm;
  text.replace(text.find("0 0 1"), 5, "0 0 0");
  const std::string urdf = write("zero.urdf", text);
  const auto r = run_rmodel({"check", "--target", "kdl", urdf});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.out, "[zero-axis]")) << r.out;
  EXPECT_TRUE(has(r.out, "loads in KDL: no (the URDF has errors)\n")) << r.out;
}

TEST_F(CheckTargetsCli, EachOptionTakesOneArgumentAndTheFileFollows) {
  // A pre-commit hook's args come before the files it passes.
  const std::string urdf = write("arm.urdf", kMasslessArm);
  const auto target = run_rmodel({"check", "--target", "mujoco", urdf});
  EXPECT_EQ(target.exit_code, 1) << target.err;
  EXPECT_TRUE(has(target.out, "loads in MuJoCo: no (1 error)")) << target.out;
  const auto ignore = run_rmodel({"check", "--strict", "--target", "kdl", "--ignore", "kdl-root-inertia", example_robot()});
  EXPECT_EQ(ignore.exit_code, 0) << ignore.err;
  EXPECT_TRUE(has(ignore.out, "valid: 0 errors, 0 warnings (1 ignored)")) << ignore.out;
}

TEST_F(CheckTargetsCli, AnUnknownProgramIsAUsageError) {
  const auto r = run_rmodel({"check", "--target", "bullet", example_robot()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "--target")) << r.err;
  EXPECT_TRUE(has(r.err, "mujoco, kdl, gazebo")) << r.err;
}

TEST_F(CheckTargetsCli, SeveralModelsHaveTheirOwnLines) {
  const std::string urdf = write("arm.urdf", kMasslessArm);
  const auto r = run_rmodel({"check", "--target", "mujoco", urdf, example_robot()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(has(r.out, urdf + ": loads in MuJoCo: no (1 error)\n")) << r.out;
  EXPECT_TRUE(has(r.out, example_robot() + ": loads in MuJoCo: yes\n")) << r.out;
  // A shard's lines name its files, one file or more.
  const auto shard = run_rmodel({"check", "--shard", "1/1", "--target", "mujoco", urdf});
  EXPECT_TRUE(has(shard.out, urdf + ": loads in MuJoCo: no (1 error)\n")) << shard.out << shard.err;
}

}  // namespace
}  // namespace rmodel::cli_targets_test
