#pragma once
// Helpers of the collision tests: small URDFs written from shapes, and meshes written as
// ASCII STL, so that each test states its geometry where it checks it.

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <fmt/format.h>

namespace rmodel::test {

/// `<collision>` of a link: origin "x y z" and "r p y", and the geometry element.
inline std::string collision_xml(const std::string& geometry, const std::string& xyz = "0 0 0",
                                 const std::string& rpy = "0 0 0") {
  return fmt::format("<collision><origin xyz=\"{}\" rpy=\"{}\"/><geometry>{}</geometry></collision>", xyz, rpy,
                     geometry);
}

inline std::string sphere_xml(double r) { return fmt::format("<sphere radius=\"{}\"/>", r); }
inline std::string box_xml(double x, double y, double z) { return fmt::format("<box size=\"{} {} {}\"/>", x, y, z); }

/// A robot of two links: `fixed`, holding `a` at its origin, and `moving`, holding `b`,
/// carried by three prismatic joints along x, y and z (poses: x y z) through two links without
/// geometry, then a revolute joint about z (the fourth value of the pose). The slides move
/// within ±`range`.
inline std::string two_bodies(const std::string& a, const std::string& b, double range = 5) {
  std::string joints;
  const char* axes[] = {"1 0 0", "0 1 0", "0 0 1"};
  const char* parents[] = {"fixed", "carrier_x", "carrier_y"};
  const char* children[] = {"carrier_x", "carrier_y", "carrier_z"};
  for (int i = 0; i < 3; ++i)
    joints += fmt::format(
        "<link name=\"{}\"/><joint name=\"j{}\" type=\"prismatic\"><parent link=\"{}\"/><child link=\"{}\"/>"
        "<axis xyz=\"{}\"/><limit lower=\"{}\" upper=\"{}\" effort=\"1\" velocity=\"1\"/></joint>\n",
        children[i], i, parents[i], children[i], axes[i], -range, range);
  return fmt::format(
      "<?xml version=\"1.0\"?>\n<robot name=\"pair\">\n<link name=\"fixed\">{}</link>\n{}"
      "<link name=\"moving\">{}</link><joint name=\"turn\" type=\"revolute\"><parent link=\"carrier_z\"/>"
      "<child link=\"moving\"/><axis xyz=\"0 0 1\"/><limit lower=\"-4\" upper=\"4\" effort=\"1\" velocity=\"1\"/>"
      "</joint>\n</robot>\n",
      a, joints, b);
}

/// An ASCII STL of the triangles `faces` (vertex indices into `vertices`).
inline void write_stl(const std::filesystem::path& file, const std::vector<Eigen::Vector3d>& vertices,
                      const std::vector<std::array<int, 3>>& faces) {
  std::ofstream out(file);
  out << "solid test\n";
  for (const auto& f : faces) {
    const Eigen::Vector3d n =
        (vertices[f[1]] - vertices[f[0]]).cross(vertices[f[2]] - vertices[f[0]]).normalized();
    out << fmt::format("facet normal {} {} {}\nouter loop\n", n.x(), n.y(), n.z());
    for (int v : f)
      out << fmt::format("vertex {:.17g} {:.17g} {:.17g}\n", vertices[v].x(), vertices[v].y(), vertices[v].z());
    out << "endloop\nendfacet\n";
  }
  out << "endsolid test\n";
}

/// A binary STL of the triangles `faces` (what MuJoCo reads).
inline void write_binary_stl(const std::filesystem::path& file, const std::vector<Eigen::Vector3d>& vertices,
                             const std::vector<std::array<int, 3>>& faces) {
  std::ofstream out(file, std::ios::binary);
  const std::string header(80, ' ');
  out.write(header.data(), 80);
  const auto count = static_cast<std::uint32_t>(faces.size());
  out.write(reinterpret_cast<const char*>(&count), 4);
  for (const auto& f : faces) {
    const Eigen::Vector3d n =
        (vertices[f[1]] - vertices[f[0]]).cross(vertices[f[2]] - vertices[f[0]]).normalized();
    std::array<float, 12> values{};
    for (int i = 0; i < 3; ++i) values[i] = static_cast<float>(n[i]);
    for (int v = 0; v < 3; ++v)
      for (int i = 0; i < 3; ++i) values[3 + 3 * v + i] = static_cast<float>(vertices[f[v]][i]);
    out.write(reinterpret_cast<const char*>(values.data()), 48);
    const std::uint16_t attributes = 0;
    out.write(reinterpret_cast<const char*>(&attributes), 2);
  }
}

/// The 8 corners and 12 outward-facing triangles of a box of edges `size` centred on `centre`.
inline void box_triangles(const Eigen::Vector3d& size, const Eigen::Vector3d& centre,
                          std::vector<Eigen::Vector3d>& v, std::vector<std::array<int, 3>>& faces) {
  for (int i = 0; i < 8; ++i)
    v.push_back(centre + 0.5 * Eigen::Vector3d((i & 1 ? 1 : -1) * size.x(), (i & 2 ? 1 : -1) * size.y(),
                                               (i & 4 ? 1 : -1) * size.z()));
  // Corners by bits (x, y, z); each face wound counter-clockwise seen from outside.
  faces = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
           {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
}

/// A box of edges `size` centred on `centre`, as 12 outward-facing triangles (ASCII STL).
inline void write_box_stl(const std::filesystem::path& file, const Eigen::Vector3d& size,
                          const Eigen::Vector3d& centre = Eigen::Vector3d::Zero()) {
  std::vector<Eigen::Vector3d> v;
  std::vector<std::array<int, 3>> faces;
  box_triangles(size, centre, v, faces);
  write_stl(file, v, faces);
}

}  // namespace rmodel::test
