// Distances and penetration depths of pairs of shapes against their closed forms, at poses
// set through the kinematics (three prismatic joints and a turn), for every kind of shape
// rmodel builds: the primitives exactly, meshes as triangles.
#include <algorithm>
#include <cmath>
#include <limits>
#include <filesystem>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "collision_support.hpp"
#include "rmodel/collision/collision.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

namespace col = rmodel::collision;

/// The collision model of two_bodies(a, b), the pair (fixed, moving) and a workspace.
struct Pair {
  Pair(const std::string& a, const std::string& b, const std::filesystem::path& dir = ".")
      : model(Model::from_urdf_string(test::two_bodies(a, b), "pair.urdf")),
        cm(col::CollisionModel::build(model, geometry(dir))),
        ws(cm) {}
  static col::GeometryOptions geometry(const std::filesystem::path& dir) {
    col::GeometryOptions o;
    o.base_dir = dir;
    return o;
  }
  /// Signed distance at x y z and turn.
  double distance(double x, double y, double z, double turn = 0) {
    const std::vector<double> q = {x, y, z, turn};
    col::set_pose(cm, ws, q);
    return col::link_distance(cm, ws, 0, 1);
  }
  /// What check_self_collisions finds there (margin m).
  std::vector<col::PairContact> contacts(double x, double y, double z, double turn = 0, double margin = 0) {
    const std::vector<double> q = {x, y, z, turn};
    col::set_pose(cm, ws, q);
    col::CheckOptions options;
    options.margin = margin;
    col::check_self_collisions(cm, ws, {}, options);
    return {ws.contacts().begin(), ws.contacts().end()};
  }
  Model model;
  col::CollisionModel cm;
  col::CollisionWorkspace ws;
};

using test::box_xml;
using test::sphere_xml;

TEST(CollisionPairs, ModelHasTheLinksWithGeometryAndEveryMovableJoint) {
  Pair p(test::collision_xml(sphere_xml(0.1)), test::collision_xml(sphere_xml(0.2)));
  EXPECT_EQ(p.cm.links(), (std::vector<std::string>{"fixed", "moving"}));
  EXPECT_EQ(p.cm.joint_names(), (std::vector<std::string>{"j0", "j1", "j2", "turn"}));
  // Adjacent through the three carriers, which have no geometry.
  ASSERT_EQ(p.cm.adjacent_pairs().size(), 1u);
  EXPECT_EQ(p.cm.adjacent_pairs()[0], (col::LinkPair{0, 1}));
}

TEST(CollisionPairs, SphereSphereDistanceAndDepthAreTheClosedForm) {
  Pair p(test::collision_xml(sphere_xml(0.1)), test::collision_xml(sphere_xml(0.25)));
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.6, 0.6);
  for (int i = 0; i < 200; ++i) {
    const double x = u(rng), y = u(rng), z = u(rng);
    const double expected = std::sqrt(x * x + y * y + z * z) - 0.35;  // < 0: minus the depth
    EXPECT_NEAR(p.distance(x, y, z), expected, 1e-9) << x << " " << y << " " << z;
    const auto found = p.contacts(x, y, z);
    ASSERT_EQ(found.size(), expected < 0 ? 1u : 0u);
    if (expected < 0) {
      EXPECT_NEAR(found[0].depth, -expected, 1e-9);
    }
  }
}

TEST(CollisionPairs, BoxBoxDistanceIsTheGapAndDepthTheSmallestOverlap) {
  // Axis-aligned boxes: apart, the distance between the boxes; overlapping, the depth is the
  // smallest overlap along an axis (the separating axis that ends the overlap first).
  Pair p(test::collision_xml(box_xml(0.4, 0.2, 0.1)), test::collision_xml(box_xml(0.2, 0.2, 0.2)));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  const Eigen::Vector3d half = Eigen::Vector3d(0.4, 0.2, 0.1) / 2 + Eigen::Vector3d(0.1, 0.1, 0.1);
  for (int i = 0; i < 300; ++i) {
    const Eigen::Vector3d c(u(rng), u(rng), u(rng));
    const Eigen::Vector3d gap = c.cwiseAbs() - half;  // per axis: > 0 apart along it
    double expected = 0;
    if ((gap.array() > 0).any()) expected = gap.cwiseMax(0).norm();
    else expected = gap.maxCoeff();  // all ≤ 0: minus the smallest overlap
    EXPECT_NEAR(p.distance(c.x(), c.y(), c.z()), expected, 1e-6) << c.transpose();
  }
}

TEST(CollisionPairs, BoxBoxDepthIsTheShortestSeparation) {
  // Boxes turned every way: the depth is the shortest translation that separates them, the
  // smallest over all directions n of how far the boxes overlap along n (the largest n·a over
  // the first box's corners minus the smallest n·b over the second's). Brute force: 50 000
  // directions spread on the sphere, then finer and finer grids around the 20 best (the overlap
  // is piecewise linear in n, its minimum often on a ridge): an upper bound of the depth, within
  // about 1e-5 m of it.
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-0.12, 0.12), turn(-3, 3);
  const Eigen::Vector3d size_a(0.4, 0.2, 0.1), size_b(0.3, 0.15, 0.25);
  std::vector<Eigen::Vector3d> directions;
  const int count = 50000;
  for (int i = 0; i < count; ++i) {  // a Fibonacci sphere
    const double z = 1 - (2 * i + 1.0) / count, r = std::sqrt(1 - z * z), phi = i * std::numbers::pi * (3 - std::sqrt(5.0));
    directions.emplace_back(r * std::cos(phi), r * std::sin(phi), z);
  }
  int judged = 0;
  for (int c = 0; c < 30; ++c) {
    const double roll = turn(rng), pitch = turn(rng), yaw = turn(rng);
    Pair p(test::collision_xml(box_xml(size_a.x(), size_a.y(), size_a.z())),
           test::collision_xml(box_xml(size_b.x(), size_b.y(), size_b.z()), "0 0 0",
                               fmt::format("{:.17g} {:.17g} {:.17g}", roll, pitch, yaw)));
    const Eigen::Vector3d at(u(rng), u(rng), u(rng));
    const double distance = p.distance(at.x(), at.y(), at.z());
    // URDF's rpy: R = Rz(yaw) Ry(pitch) Rx(roll).
    const Eigen::Matrix3d rb = (Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()) *
                                Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
                                Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()))
                                   .toRotationMatrix();
    std::vector<Eigen::Vector3d> a, b;
    for (int k = 0; k < 8; ++k) {
      const Eigen::Vector3d s((k & 1) ? 0.5 : -0.5, (k & 2) ? 0.5 : -0.5, (k & 4) ? 0.5 : -0.5);
      a.push_back(s.cwiseProduct(size_a));
      b.push_back(at + rb * s.cwiseProduct(size_b));
    }
    auto overlap = [&](const Eigen::Vector3d& n) {
      double top = -1e9, bottom = 1e9;
      for (const auto& x : a) top = std::max(top, n.dot(x));
      for (const auto& x : b) bottom = std::min(bottom, n.dot(x));
      return top - bottom;
    };
    std::vector<std::pair<double, Eigen::Vector3d>> coarse;
    for (const auto& n : directions) coarse.emplace_back(overlap(n), n);
    std::partial_sort(coarse.begin(), coarse.begin() + 20, coarse.end(),
                      [](const auto& x, const auto& y) { return x.first < y.first; });
    double brute = coarse.front().first;
    for (int k = 0; k < 20; ++k) {
      Eigen::Vector3d best = coarse[static_cast<std::size_t>(k)].second;
      for (double window : {0.03, 0.003, 3e-4, 3e-5}) {
        const Eigen::Vector3d t1 = best.unitOrthogonal(), t2 = best.cross(t1);
        Eigen::Vector3d centre = best;
        for (int i = -20; i <= 20; ++i)
          for (int j = -20; j <= 20; ++j) {
            const Eigen::Vector3d n = (centre + window / 20 * (i * t1 + j * t2)).normalized();
            const double o = overlap(n);
            if (o < brute) brute = o;
            if (o < overlap(best)) best = n;
          }
      }
    }
    if (brute <= 1e-3) continue;  // apart, or touching
    ++judged;
    EXPECT_LE(-distance, brute + 1e-9) << c;
    EXPECT_NEAR(-distance, brute, 1e-5) << c;
  }
  EXPECT_GT(judged, 15);
}

TEST(CollisionPairs, TurnedBoxReachesWithItsCorner) {
  // A cube of edge 0.2 turned 45° about z: its corner is 0.1·√2 from its centre along x.
  Pair p(test::collision_xml(box_xml(0.2, 0.2, 0.2)), test::collision_xml(box_xml(0.2, 0.2, 0.2)));
  const double reach = 0.1 * std::numbers::sqrt2;
  for (double x : {0.3, 0.25, 0.23}) EXPECT_NEAR(p.distance(x, 0, 0, std::numbers::pi / 4), x - 0.1 - reach, 1e-6);
  EXPECT_TRUE(p.contacts(0.2, 0, 0, std::numbers::pi / 4).size() == 1);
}

TEST(CollisionPairs, SphereBoxIsTheDistanceToTheBox) {
  Pair p(test::collision_xml(box_xml(0.4, 0.3, 0.2)), test::collision_xml(sphere_xml(0.05)));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  const Eigen::Vector3d half(0.2, 0.15, 0.1);
  for (int i = 0; i < 200; ++i) {
    const Eigen::Vector3d c(u(rng), u(rng), u(rng));
    const Eigen::Vector3d out = (c.cwiseAbs() - half).cwiseMax(0);
    if (out.norm() == 0) continue;  // the centre inside the box: depth not a closed form here
    EXPECT_NEAR(p.distance(c.x(), c.y(), c.z()), out.norm() - 0.05, 1e-6) << c.transpose();
  }
}

TEST(CollisionPairs, CylindersAndCapsulesSideBySideAndEndToEnd) {
  // Parallel cylinders along z: the distance of their axes minus the radii (GJK: 1e-6).
  Pair cyl(test::collision_xml("<cylinder radius=\"0.05\" length=\"0.4\"/>"),
           test::collision_xml("<cylinder radius=\"0.03\" length=\"0.2\"/>"));
  for (double d : {0.2, 0.1, 0.081}) EXPECT_NEAR(cyl.distance(d, 0, 0), d - 0.08, 1e-6) << d;
  EXPECT_NEAR(cyl.distance(0, 0, 0.5), 0.5 - 0.2 - 0.1, 1e-6);  // end to end along the axis
  EXPECT_EQ(cyl.contacts(0.07, 0, 0).size(), 1u);
  const auto deep = cyl.contacts(0.06, 0, 0);
  ASSERT_EQ(deep.size(), 1u);
  EXPECT_NEAR(deep[0].depth, 0.02, 1e-4);  // EPA's tolerance
  // Capsules: the distance of their segments minus the radii.
  Pair cap(test::collision_xml("<capsule radius=\"0.05\" length=\"0.4\"/>"),
           test::collision_xml("<capsule radius=\"0.05\" length=\"0.2\"/>"));
  EXPECT_NEAR(cap.distance(0.3, 0, 0), 0.2, 1e-6);
  EXPECT_NEAR(cap.distance(0, 0, 0.6), 0.6 - 0.2 - 0.1 - 0.1, 1e-6);
  EXPECT_EQ(cap.contacts(0, 0, 0.39).size(), 1u);  // caps overlapping by 0.01
}

TEST(CollisionPairs, ShapesPlacedByTheirOrigin) {
  // The moving sphere sits 0.3 along the moving link's x; turning the link by π/2 moves it to y.
  Pair p(test::collision_xml(sphere_xml(0.1)), test::collision_xml(sphere_xml(0.1), "0.3 0 0"));
  EXPECT_NEAR(p.distance(0, 0, 0), 0.1, 1e-9);
  EXPECT_NEAR(p.distance(0, -0.3, 0, std::numbers::pi / 2), -0.2, 1e-9);
}

TEST(CollisionPairs, MarginReportsLinksCloserThanIt) {
  Pair p(test::collision_xml(sphere_xml(0.1)), test::collision_xml(sphere_xml(0.1)));
  EXPECT_TRUE(p.contacts(0.25, 0, 0).empty());
  const auto near = p.contacts(0.25, 0, 0, 0, 0.06);
  ASSERT_EQ(near.size(), 1u);
  EXPECT_NEAR(near[0].depth, -0.05, 1e-9);
  EXPECT_FALSE(near[0].intersecting());
  EXPECT_TRUE(p.contacts(0.25, 0, 0, 0, 0.04).empty());
}

TEST(CollisionPairs, MeshBoxAgreesWithThePrimitiveBox) {
  // A box given as 12 triangles against a sphere and against a box: the same distances as
  // the primitive box (apart; a mesh has no inside, so only surfaces crossing collide).
  const auto dir = test::make_temp_dir("rmodel-collision-mesh-");
  test::write_box_stl(dir / "box.stl", Eigen::Vector3d(0.4, 0.3, 0.2));
  Pair mesh(test::collision_xml("<mesh filename=\"box.stl\"/>"), test::collision_xml(sphere_xml(0.05)), dir);
  Pair prim(test::collision_xml(box_xml(0.4, 0.3, 0.2)), test::collision_xml(sphere_xml(0.05)));
  ASSERT_EQ(mesh.cm.links().size(), 2u);
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-0.6, 0.6);
  for (int i = 0; i < 100; ++i) {
    const double x = u(rng), y = u(rng), z = u(rng);
    const double d = prim.distance(x, y, z);
    if (d < 0) continue;
    EXPECT_NEAR(mesh.distance(x, y, z), d, 1e-6) << x << " " << y << " " << z;
  }
  // Crossing the surface: both collide.
  EXPECT_EQ(mesh.contacts(0.22, 0, 0).size(), 1u);
  EXPECT_EQ(prim.contacts(0.22, 0, 0).size(), 1u);
  // Mesh against mesh: two 0.2 cubes, faces 0.05 apart along x, then crossing.
  test::write_box_stl(dir / "cube.stl", Eigen::Vector3d(0.2, 0.2, 0.2));
  Pair meshes(test::collision_xml("<mesh filename=\"cube.stl\"/>"), test::collision_xml("<mesh filename=\"cube.stl\"/>"),
              dir);
  EXPECT_NEAR(meshes.distance(0.25, 0.02, 0.03), 0.05, 1e-7);  // single-precision vertices (assimp's)
  EXPECT_EQ(meshes.contacts(0.15, 0.02, 0.03).size(), 1u);
  // Scaled: the URDF's scale applies to the vertices.
  Pair scaled(test::collision_xml("<mesh filename=\"cube.stl\" scale=\"2 1 1\"/>"), test::collision_xml(sphere_xml(0.05)),
              dir);
  EXPECT_NEAR(scaled.distance(0.45, 0, 0), 0.45 - 0.2 - 0.05, 1e-6);
  std::filesystem::remove_all(dir);
}

TEST(CollisionPairs, MeshThatDoesNotLoadLeavesItsLinkWithoutGeometry) {
  const auto dir = test::make_temp_dir("rmodel-collision-bad-");
  std::ofstream(dir / "bad.stl") << "solid nothing\nendsolid nothing\n";
  Pair p(test::collision_xml("<mesh filename=\"bad.stl\"/>"), test::collision_xml(sphere_xml(0.1)), dir);
  EXPECT_EQ(p.cm.links(), (std::vector<std::string>{"moving"}));
  const auto unusable = p.cm.unusable_shapes();
  ASSERT_EQ(unusable.size(), 1u);
  EXPECT_EQ(unusable[0]->link, "fixed");
  EXPECT_FALSE(unusable[0]->error.empty());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rmodel
