// Meshes read as MoveIt reads them, their volumes and inertias against closed forms, and what
// check --meshes says of unreadable and oversized ones.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include "collision_support.hpp"
#include "rmodel/collision/collision.hpp"
#include "rmodel/base/error.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

namespace col = rmodel::collision;

class CollisionMeshes : public ::testing::Test {
protected:
  void SetUp() override { dir_ = test::make_temp_dir("rmodel-meshes-"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(CollisionMeshes, StlObjAndColladaReadAsWritten) {
  test::write_box_stl(dir_ / "box.stl", Eigen::Vector3d(0.4, 0.2, 0.1), Eigen::Vector3d(1, 2, 3));
  const auto stl = col::load_mesh(dir_ / "box.stl", Eigen::Vector3d(2, 1, 1));
  EXPECT_EQ(stl.triangles.size(), 12u);
  EXPECT_EQ(stl.vertices.size(), 8u);  // identical vertices joined
  Eigen::Vector3d lo = stl.vertices[0], hi = lo;
  for (const auto& v : stl.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  // assimp keeps vertices in single precision (so does MoveIt, which reads them through it).
  EXPECT_TRUE(lo.isApprox(Eigen::Vector3d(1.6, 1.9, 2.95), 1e-7)) << lo.transpose();  // scale 2 along x
  EXPECT_TRUE(hi.isApprox(Eigen::Vector3d(2.4, 2.1, 3.05), 1e-7)) << hi.transpose();
  std::ofstream(dir_ / "tri.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
  const auto obj = col::load_mesh(dir_ / "tri.obj");
  EXPECT_EQ(obj.triangles.size(), 4u);
  // COLLADA in millimetres and Z up: the unit and the up axis are the root node's transform,
  // which MoveIt and RViz drop: the vertices come as written.
  std::ofstream(dir_ / "tri.dae") << R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="millimeter" meter="0.001"/><up_axis>Y_UP</up_axis></asset>
  <library_geometries><geometry id="g"><mesh>
    <source id="p"><float_array id="pa" count="9">0 0 0 100 0 0 0 200 0</float_array>
      <technique_common><accessor source="#pa" count="3" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)";
  const auto dae = col::load_mesh(dir_ / "tri.dae");
  ASSERT_EQ(dae.vertices.size(), 3u);
  double longest = 0;
  for (const auto& v : dae.vertices) longest = std::max(longest, v.norm());
  EXPECT_NEAR(longest, 200, 1e-9);
  // Not a mesh: assimp's message.
  std::ofstream(dir_ / "bad.stl") << "not a mesh at all";
  try {
    (void)col::load_mesh(dir_ / "bad.stl");
    ADD_FAILURE() << "no error";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.stl"), std::string::npos) << e.what();
  }
}

TEST_F(CollisionMeshes, VolumesAndInertiasAreTheClosedForms) {
  // A box as a mesh, off centre and turned by its origin, against the primitive's formula.
  test::write_box_stl(dir_ / "box.stl", Eigen::Vector3d(0.4, 0.2, 0.1), Eigen::Vector3d(0.1, 0, 0));
  const std::string urdf = "<robot name=\"v\"><link name=\"l\">" +
                           test::collision_xml("<mesh filename=\"box.stl\"/>", "0 0 1", "0 0 1.5707963267948966") +
                           test::collision_xml("<box size=\"0.4 0.2 0.1\"/>") +
                           test::collision_xml("<sphere radius=\"0.1\"/>") +
                           test::collision_xml("<cylinder radius=\"0.1\" length=\"0.3\"/>") +
                           test::collision_xml("<capsule radius=\"0.1\" length=\"0.3\"/>") + "</link></robot>";
  col::GeometryOptions options;
  options.base_dir = dir_;
  const auto shapes = col::read_collision_shapes(urdf, options);
  ASSERT_EQ(shapes.size(), 5u);
  const auto mesh = *col::volume_properties(shapes[0]);
  const auto box = *col::volume_properties(shapes[1]);
  EXPECT_NEAR(mesh.volume, 0.4 * 0.2 * 0.1, 1e-9);  // single-precision vertices
  EXPECT_NEAR(box.volume, 0.4 * 0.2 * 0.1, 1e-15);
  // The mesh's centroid: (0.1, 0, 0) turned by π/2 about z, raised by 1.
  EXPECT_TRUE(mesh.centroid.isApprox(Eigen::Vector3d(0, 0.1, 1), 1e-7)) << mesh.centroid.transpose();
  // Turned by π/2: its x and y moments swap.
  const double v = 0.008;
  const Eigen::Vector3d box_diag(v / 12 * (0.04 + 0.01), v / 12 * (0.16 + 0.01), v / 12 * (0.16 + 0.04));
  EXPECT_TRUE(box.inertia.diagonal().isApprox(box_diag, 1e-12));
  EXPECT_TRUE(mesh.inertia.diagonal().isApprox(Eigen::Vector3d(box_diag.y(), box_diag.x(), box_diag.z()), 1e-6))
      << mesh.inertia;
  EXPECT_NEAR(mesh.inertia(0, 1), 0, 1e-12);
  const double pi = std::numbers::pi;
  const auto sphere = *col::volume_properties(shapes[2]);
  EXPECT_NEAR(sphere.volume, 4.0 / 3 * pi * 1e-3, 1e-15);
  EXPECT_NEAR(sphere.inertia(0, 0), 0.4 * sphere.volume * 0.01, 1e-18);
  const auto cylinder = *col::volume_properties(shapes[3]);
  EXPECT_NEAR(cylinder.volume, pi * 0.01 * 0.3, 1e-15);
  EXPECT_NEAR(cylinder.inertia(2, 2), cylinder.volume * 0.01 / 2, 1e-18);
  EXPECT_NEAR(cylinder.inertia(0, 0), cylinder.volume * (3 * 0.01 + 0.09) / 12, 1e-18);
  // The capsule as its cylinder and two hemispheres, combined with the parallel-axis rule: a
  // hemisphere's centroid is 3r/8 from its flat face, and about it its moment across is
  // (83/320)·m·r².
  const auto capsule = *col::volume_properties(shapes[4]);
  const double hemi = 2.0 / 3 * pi * 1e-3, d = 0.15 + 3 * 0.1 / 8;
  const double across = cylinder.inertia(0, 0) + 2 * (83.0 / 320 * hemi * 0.01 + hemi * d * d);
  EXPECT_NEAR(capsule.volume, cylinder.volume + 2 * hemi, 1e-15);
  EXPECT_NEAR(capsule.inertia(0, 0), across, 1e-15);
  EXPECT_NEAR(capsule.inertia(2, 2), cylinder.inertia(2, 2) + 2 * 0.4 * hemi * 0.01, 1e-18);
  // Two boxes side by side combine into one of twice the length.
  col::VolumeProperties left = box, right = box;
  left.centroid = Eigen::Vector3d(-0.2, 0, 0);
  right.centroid = Eigen::Vector3d(0.2, 0, 0);
  const col::VolumeProperties both[] = {left, right};
  const auto whole = col::combine(both);
  EXPECT_NEAR(whole.volume, 0.016, 1e-15);
  EXPECT_NEAR(whole.inertia(1, 1), 0.016 / 12 * (0.64 + 0.01), 1e-15);
}

TEST_F(CollisionMeshes, MassPropertiesFlagInertiasOrdersOfMagnitudeOff) {
  test::write_box_stl(dir_ / "box_mm.stl", Eigen::Vector3d(200, 100, 100));  // millimetres
  const std::string urdf = R"(<robot name="m">
  <link name="good"><inertial><mass value="2"/><inertia ixx="0.003333" iyy="0.008333" izz="0.008333" ixy="0" ixz="0" iyz="0"/></inertial>
    )" + test::collision_xml("<box size=\"0.2 0.1 0.1\"/>") +
                           R"(</link>
  <link name="placeholder"><inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    )" + test::collision_xml("<box size=\"0.2 0.1 0.1\"/>") +
                           R"(</link>
  <link name="mm"><inertial><mass value="2"/><inertia ixx="0.003333" iyy="0.008333" izz="0.008333" ixy="0" ixz="0" iyz="0"/></inertial>
    )" + test::collision_xml("<mesh filename=\"box_mm.stl\"/>") +
                           R"(</link>
  <joint name="a" type="fixed"><parent link="good"/><child link="placeholder"/><origin xyz="0.3 0 0"/></joint>
  <joint name="b" type="fixed"><parent link="good"/><child link="mm"/><origin xyz="0 0.3 0"/></joint>
</robot>)";
  col::GeometryOptions options;
  options.base_dir = dir_;
  const Model model = Model::from_urdf_string(urdf, "m.urdf");
  const auto shapes = col::read_collision_shapes(model.urdf_text(), options);
  const auto m = col::mass_properties(model, shapes);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].link, "good");
  EXPECT_NEAR(*m[0].ratio, 1.0, 1e-3);
  EXPECT_FALSE(m[0].implausible);
  EXPECT_NEAR(m[0].shape_inertia(0, 0), 2.0 / 12 * 0.02, 1e-12);
  EXPECT_TRUE(m[1].implausible);  // 3 kg·m² declared for 0.02 of a box of that mass
  EXPECT_TRUE(m[2].implausible);  // a millimetre mesh: 10⁶ times the inertia
  EXPECT_NEAR(m[2].volume, 2e6, 1e-6);
  // check --meshes: the millimetre mesh is far too large for its link.
  const auto d = col::check_mesh_contents(model, "m.urdf", options);
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].code, "mesh-scale");
  EXPECT_EQ(d.items[0].severity, Severity::warning);
  EXPECT_NE(d.items[0].message.find("link 'mm': mesh 'box_mm.stl' is 200 m across"), std::string::npos)
      << d.items[0].message;
  EXPECT_NE(d.items[0].message.find("scale 0.001 would make it 0.2 m"), std::string::npos) << d.items[0].message;
}

TEST_F(CollisionMeshes, UnreadableMeshIsAnErrorAtItsLine) {
  std::ofstream(dir_ / "broken.stl") << "not a mesh";  // neither ASCII STL nor a binary one's 84 bytes
  test::write_box_stl(dir_ / "fine.stl", Eigen::Vector3d(0.1, 0.1, 0.1));
  const std::string urdf = "<robot name=\"u\">\n<link name=\"a\">\n"
                           "<visual><geometry><mesh filename=\"broken.stl\"/></geometry></visual>\n" +
                           test::collision_xml("<mesh filename=\"fine.stl\"/>") + "\n" +
                           test::collision_xml("<mesh filename=\"missing.stl\"/>") + "\n</link>\n</robot>\n";
  col::GeometryOptions options;
  options.base_dir = dir_;
  const auto d = col::check_mesh_contents(Model::from_urdf_string(urdf, "u.urdf"), "u.urdf", options);
  ASSERT_EQ(d.items.size(), 1u);  // the missing file is check_mesh_files' to report
  EXPECT_EQ(d.items[0].code, "mesh-unreadable");
  EXPECT_EQ(d.items[0].severity, Severity::error);
  EXPECT_EQ(d.items[0].where.line, 3);
  EXPECT_NE(d.items[0].message.find("link 'a': mesh 'broken.stl' cannot be read: "), std::string::npos)
      << d.items[0].message;
}

}  // namespace
}  // namespace rmodel
