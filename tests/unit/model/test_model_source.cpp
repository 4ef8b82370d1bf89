// Model manifests and the environment rules (rmodel/model/model_source.hpp).
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "rmodel/base/error.hpp"
#include "rmodel/model/model_source.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

/// A fake environment: only the variables given are set.
EnvironmentLookup fake_env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

class ManifestFile : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-manifest"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  std::filesystem::path dir_;
};

TEST_F(ManifestFile, PathsAreRelativeToTheManifestAndArgumentsBecomeText) {
  const auto path = write("m.json", R"({"urdf": "robot.urdf.xacro", "semantics": "/abs/r.srdf", "limits": "l.yaml",
    "package_paths": ["pkgs", "/opt/ws"], "xacro_args": {"arm": "left", "scale": 2, "mirror": true}})");
  const ModelSource s = read_model_manifest(path);
  EXPECT_EQ(s.urdf_path, (dir_ / "robot.urdf.xacro").string());
  EXPECT_EQ(s.semantics_path, "/abs/r.srdf");
  EXPECT_EQ(s.limits_path, (dir_ / "l.yaml").string());
  ASSERT_EQ(s.package_paths.size(), 2u);
  EXPECT_EQ(s.package_paths[0], dir_ / "pkgs");
  EXPECT_EQ(s.package_paths[1], std::filesystem::path("/opt/ws"));
  const std::map<std::string, std::string> expected{{"arm", "left"}, {"scale", "2"}, {"mirror", "true"}};
  EXPECT_EQ(s.xacro_args, expected);
}

TEST_F(ManifestFile, MalformedManifestsNameFileAndLine) {
  const auto broken = write("broken.json", "{\n  \"urdf\": \"a.urdf\",\n  oops\n}");
  try {
    (void)read_model_manifest(broken);
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.where().file, broken);
    EXPECT_EQ(e.where().line, 3);
  }
  EXPECT_THROW((void)read_model_manifest(write("a.json", R"({"semantics": "x.srdf"})")), ParseError);
  EXPECT_THROW((void)read_model_manifest(write("b.json", R"({"urdf": "a", "xacro_args": ["x"]})")), ParseError);
  EXPECT_THROW((void)read_model_manifest(write("c.json", R"({"urdf": "a", "xacro_args": {"x": [1]}})")), ParseError);
  EXPECT_THROW((void)read_model_manifest(write("d.json", R"({"urdf": "a", "package_paths": "dir"})")), ParseError);
  EXPECT_THROW((void)read_model_manifest((dir_ / "missing.json").string()), IoError);
}

TEST(ModelEnvironment, TheEnvironmentFillsOnlyARequestThatNamesNoModel) {
  const auto env = fake_env({{"RMODEL_URDF", "env.urdf"}, {"RMODEL_SEMANTICS", "env.srdf"},
                             {"RMODEL_MODEL", "env.json"}, {"RMODEL_LIMITS", "env.yaml"}});
  const ModelRequest empty = apply_model_environment({}, env);
  EXPECT_EQ(empty.urdf, "env.urdf");
  EXPECT_EQ(empty.semantics, "env.srdf");
  EXPECT_EQ(empty.manifest, "env.json");
  EXPECT_EQ(empty.limits, "env.yaml");

  ModelRequest given;
  given.urdf = "cli.urdf";
  const ModelRequest r = apply_model_environment(given, env);
  EXPECT_EQ(r.urdf, "cli.urdf");
  EXPECT_EQ(r.semantics, "");  // a stray RMODEL_SEMANTICS never pairs with a given URDF
  EXPECT_EQ(r.manifest, "");
  EXPECT_EQ(r.limits, "");

  ModelRequest only_limits;
  only_limits.limits = "cli.yaml";
  const ModelRequest l = apply_model_environment(only_limits, env);
  EXPECT_EQ(l.urdf, "env.urdf");  // --limits adds to the environment's model
  EXPECT_EQ(l.limits, "cli.yaml");

  EXPECT_TRUE(names_a_model({}, env));
  EXPECT_FALSE(names_a_model({}, fake_env({{"RMODEL_SEMANTICS", "s.srdf"}, {"RMODEL_URDF", ""}})));
  EXPECT_THROW((void)resolve_model_source({}, fake_env({})), InvalidArgument);
}

TEST_F(ManifestFile, TheRequestWinsOverTheManifest) {
  const auto path = write("m.json", R"({"urdf": "r.urdf.xacro", "semantics": "r.srdf",
    "package_paths": ["from_manifest"], "xacro_args": {"arm": "left", "hand": "yes"}})");
  ModelRequest request;
  request.manifest = path;
  request.semantics = "other.cpf";
  request.package_paths = {"from_cli"};
  request.xacro_args = {{"arm", "right"}};
  const ModelSource s = resolve_model_source(request, fake_env({{"RMODEL_URDF", "ignored.urdf"}}));
  EXPECT_EQ(s.urdf_path, (dir_ / "r.urdf.xacro").string());
  EXPECT_EQ(s.semantics_path, "other.cpf");
  ASSERT_EQ(s.package_paths.size(), 2u);
  EXPECT_EQ(s.package_paths[0], std::filesystem::path("from_cli"));
  EXPECT_EQ(s.package_paths[1], dir_ / "from_manifest");
  const std::map<std::string, std::string> args{{"arm", "right"}, {"hand", "yes"}};
  EXPECT_EQ(s.xacro_args, args);
}

}  // namespace
}  // namespace rmodel
