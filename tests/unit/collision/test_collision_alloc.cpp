// After set-up, a pose's collision checks allocate nothing: FK, the broad phase, FCL's narrow
// phase (GJK and EPA on the primitives without a closed form, box–box, sphere pairs, meshes
// against primitives and against meshes), depths, distances within a margin.
#include <filesystem>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "alloc_counter.hpp"
#include "collision_support.hpp"
#include "rmodel/collision/collision.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

namespace col = rmodel::collision;

/// Allocations of `poses` random poses after one warm-up pose, every query kind on each.
std::size_t allocations(const col::CollisionModel& cm, int poses) {
  col::CollisionWorkspace ws(cm);
  std::vector<double> q(cm.joint_names().size(), 0.0);
  std::mt19937 rng(4);
  std::vector<double> lower(cm.lower().begin(), cm.lower().end()), upper(cm.upper().begin(), cm.upper().end());
  const col::AllowedPairs none(cm.links().size());
  auto draw = [&] {
    for (std::size_t j = 0; j < q.size(); ++j) q[j] = std::uniform_real_distribution<double>(lower[j], upper[j])(rng);
  };
  col::CheckOptions depth, margin, fast;
  margin.margin = 0.05;
  fast.depth = false;
  std::size_t found = 0;
  double sink = 0;
  auto one = [&] {
    draw();
    col::set_pose(cm, ws, q);
    found += col::check_self_collisions(cm, ws, none, depth);
    found += col::check_self_collisions(cm, ws, none, margin);
    found += col::check_self_collisions(cm, ws, none, fast);
    if (cm.links().size() > 1) sink += col::link_distance(cm, ws, 0, cm.links().size() - 1);
  };
  one();
  test::AllocationCounter counter;
  for (int i = 0; i < poses; ++i) one();
  const std::size_t count = counter.count();
  EXPECT_GT(found, 0u) << "the poses should collide somewhere, or the narrow phase went unused";
  EXPECT_TRUE(std::isfinite(sink));
  return count;
}

TEST(CollisionAlloc, CounterSeesTheNarrowPhaseBuildingAModel) {
  // Positive control: building allocates, and the counter sees it.
  test::AllocationCounter counter;
  const auto cm = col::CollisionModel::build(test::pony(), {});
  EXPECT_GT(counter.count(), 0u);
}

TEST(CollisionAlloc, SampleRobotOfPrimitivesAllocatesNothingPerPose) {
  // Boxes and cylinders: box–box in closed form, cylinders through GJK and EPA.
  const auto cm = col::CollisionModel::build(test::pony(), {});
  EXPECT_EQ(allocations(cm, 300), 0u);
}

TEST(CollisionAlloc, MeshesAllocateNothingPerPose) {
  const auto dir = test::make_temp_dir("rmodel-collision-alloc-");
  test::write_box_stl(dir / "cube.stl", Eigen::Vector3d(0.2, 0.2, 0.2));
  // A mesh against a mesh, a box, a cylinder, a sphere and a capsule, all moving around it.
  const std::string shapes = test::collision_xml("<mesh filename=\"cube.stl\"/>", "0.1 0 0") +
                             test::collision_xml("<box size=\"0.1 0.1 0.1\"/>", "-0.1 0 0") +
                             test::collision_xml("<cylinder radius=\"0.05\" length=\"0.2\"/>", "0 0.1 0") +
                             test::collision_xml("<sphere radius=\"0.05\"/>", "0 -0.1 0") +
                             test::collision_xml("<capsule radius=\"0.03\" length=\"0.1\"/>", "0 0 0.1");
  const std::string urdf = test::two_bodies(test::collision_xml("<mesh filename=\"cube.stl\"/>"), shapes, 0.35);
  col::GeometryOptions options;
  options.base_dir = dir;
  const auto cm = col::CollisionModel::build(Model::from_urdf_string(urdf, "m.urdf"), options);
  ASSERT_EQ(cm.links().size(), 2u);
  ASSERT_TRUE(cm.unusable_shapes().empty());
  EXPECT_EQ(allocations(cm, 300), 0u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rmodel
