#pragma once
// What the oracle tests of `check --target` share (test_mujoco_targets_oracle.cpp,
// test_kdl_targets_oracle.cpp, test_gazebo_targets_oracle.cpp): URDFs of our own built from
// small parts, the fixture robots with their meshes left out, and rmodel's report on a URDF
// written to a folder, as each program reads it from a file.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tinyxml2.h>

#include "rmodel/check/check.hpp"
#include "test_support.hpp"

namespace rmodel::test::targets {

namespace fs = std::filesystem;

/// An <inertial> of `mass` kg with the six moments written as attributes, about `xyz`.
inline std::string inertial(const std::string& mass,
                            const std::string& moments = R"(ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01")",
                            const std::string& xyz = "0 0 0") {
  return R"(<inertial><origin xyz=")" + xyz + R"(" rpy="0 0 0"/><mass value=")" + mass + R"("/><inertia )" + moments +
         "/></inertial>";
}

/// A body of 1 kg and 0.01 kg·m² about every axis.
inline std::string solid() { return inertial("1"); }

inline std::string link(const std::string& name, const std::string& body = "") {
  return R"(<link name=")" + name + R"(">)" + body + "</link>";
}

/// A joint; revolute and prismatic ones get an axis and a <limit> unless `extra` is given.
inline std::string joint(const std::string& name, const std::string& type, const std::string& parent,
                         const std::string& child, std::string extra = "") {
  if (extra.empty() && (type == "revolute" || type == "prismatic"))
    extra = R"(<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="10" velocity="1"/>)";
  if (extra.empty() && (type == "continuous" || type == "planar")) extra = R"(<axis xyz="0 0 1"/>)";
  return R"(<joint name=")" + name + R"(" type=")" + type + R"("><origin xyz="0 0 0.1" rpy="0 0 0"/><parent link=")" +
         parent + R"("/><child link=")" + child + R"("/>)" + extra + "</joint>";
}

/// A <collision> (or <visual>) of one shape, e.g. `<box size="0.1 0.1 0.1"/>`.
inline std::string shape(const std::string& geometry, const char* kind = "collision") {
  return std::string("<") + kind + R"(><origin xyz="0 0 0.05" rpy="0 0 0"/><geometry>)" + geometry + "</geometry></" +
         kind + ">";
}

inline std::string robot(const std::vector<std::string>& parts) {
  std::string out = "<robot name=\"r\">\n";
  for (const auto& part : parts) out += "  " + part + "\n";
  return out + "</robot>\n";
}

/// A closed binary STL: a cube of 0.1 m.
inline std::string cube_stl() {
  const float v[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const int f[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                        {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  std::string out(80, '\0');
  auto put = [&out](const void* data, std::size_t size) { out.append(static_cast<const char*>(data), size); };
  const std::uint32_t count = 12;
  put(&count, 4);
  for (const auto& t : f) {
    const float normal[3] = {0, 0, 0};
    put(normal, sizeof normal);
    for (int k : t)
      for (float c : v[k]) {
        const float scaled = c * 0.1F;
        put(&scaled, 4);
      }
    const std::uint16_t attribute = 0;
    put(&attribute, 2);
  }
  return out;
}

/// Writes files (path relative to `dir`, contents) and the URDF as dir/robot.urdf.
inline fs::path write_robot(const fs::path& dir, const std::string& urdf,
                            const std::vector<std::pair<std::string, std::string>>& files = {}) {
  fs::create_directories(dir);
  for (const auto& [name, text] : files) {
    fs::create_directories((dir / name).parent_path());
    std::ofstream(dir / name, std::ios::binary) << text;
  }
  std::ofstream(dir / "robot.urdf") << urdf;
  return dir / "robot.urdf";
}

/// rmodel's report with a target's rules on a URDF file.
inline CheckReport rmodel_check(const fs::path& urdf, CheckTarget target) {
  ModelSource source;
  source.urdf_path = urdf.string();
  CheckOptions options;
  options.targets = {target};
  return check_model(source, options);
}

inline std::vector<const Diagnostic*> of_code(const Diagnostics& d, std::string_view code) {
  std::vector<const Diagnostic*> out;
  for (const auto& item : d.items)
    if (item.code == code) out.push_back(&item);
  return out;
}

/// The problems of a target's codes.
inline std::vector<const Diagnostic*> of_target(const Diagnostics& d, CheckTarget target) {
  std::vector<const Diagnostic*> out;
  for (const auto& item : d.items)
    if (code_target(item.code) == target) out.push_back(&item);
  return out;
}

/// Whether a message names `name` in quotes, as rmodel's messages name links and joints.
inline bool names(const Diagnostic& d, const std::string& name) {
  return d.message.find("'" + name + "'") != std::string::npos;
}

inline std::string listing(const Diagnostics& d) {
  std::string out;
  for (const auto& item : d.items) out += item.where.to_string() + ": " + item.code + ": " + item.message + "\n";
  return out;
}

/// The fixture robots (tests/../shared/fixtures).
inline const std::vector<std::string>& fixture_robots() {
  static const std::vector<std::string> robots = {
      "example_robot_data/panda.urdf", "example_robot_data/solo12.urdf", "example_robot_data/talos_reduced.urdf",
      "sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf"};
  return robots;
}

/// A URDF without the <visual> and <collision> elements whose shape is a mesh (the fixtures
/// do not ship their meshes).
inline std::string without_meshes(const std::string& text) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.c_str()) != tinyxml2::XML_SUCCESS) return text;
  auto* root = doc.FirstChildElement("robot");
  for (auto* link = root ? root->FirstChildElement("link") : nullptr; link; link = link->NextSiblingElement("link"))
    for (const char* kind : {"visual", "collision"})
      for (auto* e = link->FirstChildElement(kind); e;) {
        auto* next = e->NextSiblingElement(kind);
        const auto* geometry = e->FirstChildElement("geometry");
        if (geometry && geometry->FirstChildElement("mesh")) link->DeleteChild(e);
        e = next;
      }
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  return printer.CStr();
}

/// Stand-ins for the STL meshes of a URDF where MuJoCo looks for them (their file name alone,
/// beside the URDF): a cube of 0.1 m each (the fixtures do not ship their meshes).
inline std::vector<std::pair<std::string, std::string>> mesh_stand_ins(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> files;
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.c_str()) != tinyxml2::XML_SUCCESS) return files;
  const auto* root = doc.FirstChildElement("robot");
  for (const auto* l = root ? root->FirstChildElement("link") : nullptr; l; l = l->NextSiblingElement("link"))
    for (const auto* e = l->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const auto* geometry = e->FirstChildElement("geometry");
      const auto* mesh = geometry ? geometry->FirstChildElement("mesh") : nullptr;
      const char* uri = mesh ? mesh->Attribute("filename") : nullptr;
      if (!uri) continue;
      std::string name = fs::path(uri).filename().string();
      std::string extension = fs::path(name).extension().string();
      std::transform(extension.begin(), extension.end(), extension.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (extension == ".stl") files.emplace_back(name, cube_stl());
    }
  return files;
}

/// A test with a folder of its own.
template <class Base>
class InFolder : public Base {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-targets-"); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

}  // namespace rmodel::test::targets
