// rmodel's collision checks against MuJoCo's (Debian's libmujoco-dev, found optionally by
// tests/CMakeLists.txt; without it the tests skip, saying so). MuJoCo reads the same URDF with
// its own reader (mj_loadXML), places the links with its own kinematics and finds contacts with
// its own collision code: closed forms for some pairs of primitives, and for the rest, a mesh
// among them (its convex hull; here a convex mesh, so the hull is the mesh), its MPR. At random
// poses, every pair of links MuJoCo checks (it leaves a body and its parent out, which here are
// the adjacent pairs) must be found intersecting by both or by neither. Pairs within a
// millimetre of touching are left out of the verdict: there each side's tolerances decide.
// Depths are compared where MuJoCo's is the shortest separation, sphere against box (its
// closed form) with the sphere's centre outside the box; MPR's depth is along the direction MPR ends with, not the shortest, and its
// box–box depth is not the separating-axis one either (unit/collision tests judge those).
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "collision_support.hpp"
#include "rmodel/collision/collision.hpp"
#include "test_support.hpp"

#ifdef RMODEL_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace rmodel {
namespace {

namespace fs = std::filesystem;
namespace col = rmodel::collision;

#ifdef RMODEL_HAVE_MUJOCO
#define REQUIRE_MUJOCO_COLLISIONS() (void)0
#else
#define REQUIRE_MUJOCO_COLLISIONS()                                                                       \
  GTEST_SKIP() << "libmujoco was not found when this build was configured (Debian: apt-get install "    \
                  "libmujoco-dev, then run cmake again): skipping the comparison with MuJoCo's collisions"
#endif

/// Two arms of three links on a base box; every link a box, a sphere, a cylinder or the
/// convex mesh `hull.stl`; every joint revolute, so that MuJoCo keeps every body as written.
std::string two_arms(const fs::path& dir) {
  std::string urdf = fmt::format("<?xml version=\"1.0\"?>\n<robot name=\"arms\">\n"
                                 "<mujoco><compiler meshdir=\"{}\" fusestatic=\"false\" discardvisual=\"false\"/></mujoco>\n",
                                 dir.string());
  auto link = [&](const std::string& name, const std::string& geometry, const std::string& xyz, const std::string& rpy) {
    urdf += fmt::format("<link name=\"{}\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" "
                        "ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>{}</link>\n",
                        name, test::collision_xml(geometry, xyz, rpy));
  };
  auto joint = [&](const std::string& name, const std::string& parent, const std::string& child,
                   const std::string& xyz, const std::string& axis) {
    urdf += fmt::format("<joint name=\"{}\" type=\"revolute\"><parent link=\"{}\"/><child link=\"{}\"/>"
                        "<origin xyz=\"{}\"/><axis xyz=\"{}\"/><limit lower=\"-2.6\" upper=\"2.6\" effort=\"1\" "
                        "velocity=\"1\"/></joint>\n",
                        name, parent, child, xyz, axis);
  };
  link("base", "<box size=\"0.3 0.2 0.1\"/>", "0 0 0", "0 0 0");
  link("a1", "<cylinder radius=\"0.04\" length=\"0.3\"/>", "0 0 0.15", "0 0 0");
  link("a2", "<box size=\"0.06 0.07 0.3\"/>", "0 0 0.15", "0 0 0");
  link("a3", "<sphere radius=\"0.07\"/>", "0 0 0.06", "0 0 0");
  link("b1", "<mesh filename=\"hull.stl\"/>", "0 0 0.15", "0 0 0.3");
  link("b2", "<cylinder radius=\"0.05\" length=\"0.25\"/>", "0 0 0.125", "0.2 0 0");
  link("b3", "<box size=\"0.08 0.05 0.12\"/>", "0 0 0.06", "0 0 0");
  joint("ja1", "base", "a1", "0.15 0 0.05", "0 0 1");
  joint("ja2", "a1", "a2", "0 0 0.3", "0 1 0");
  joint("ja3", "a2", "a3", "0 0 0.3", "1 0 0");
  joint("jb1", "base", "b1", "-0.15 0 0.05", "0 0 1");
  joint("jb2", "b1", "b2", "0 0 0.3", "0 1 0");
  joint("jb3", "b2", "b3", "0 0 0.25", "1 0 0");
  return urdf + "</robot>\n";
}

TEST(MujocoCollisionOracle, SameContactsAndDepthsAtRandomPoses) {
  REQUIRE_MUJOCO_COLLISIONS();
#ifdef RMODEL_HAVE_MUJOCO
  const fs::path dir = test::make_temp_dir("rmodel-mujoco-collisions-");
  std::vector<Eigen::Vector3d> corners;
  std::vector<std::array<int, 3>> faces;
  test::box_triangles(Eigen::Vector3d(0.08, 0.1, 0.3), Eigen::Vector3d::Zero(), corners, faces);
  test::write_binary_stl(dir / "hull.stl", corners, faces);  // convex: its own hull
  const std::string urdf = two_arms(dir);
  std::ofstream(dir / "arms.urdf") << urdf;
  char error[1000] = "";
  mjModel* m = mj_loadXML((dir / "arms.urdf").c_str(), nullptr, error, sizeof error);
  ASSERT_NE(m, nullptr) << error;
  mjData* d = mj_makeData(m);

  col::GeometryOptions options;
  options.base_dir = dir;
  const col::CollisionModel cm = col::CollisionModel::build(Model::from_urdf_string(urdf, "arms.urdf"), options);
  ASSERT_EQ(cm.links().size(), 7u);
  col::CollisionWorkspace ws(cm);
  std::set<std::pair<std::size_t, std::size_t>> adjacent;
  for (const auto& p : cm.adjacent_pairs()) adjacent.insert({p.first, p.second});

  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> angle(-2.6, 2.6);
  std::size_t compared = 0, colliding = 0, disagreements = 0, depths = 0;
  double worst_depth = 0;
  for (int pose = 0; pose < 2000; ++pose) {
    std::vector<double> q(cm.joint_names().size());
    for (std::size_t j = 0; j < q.size(); ++j) {
      q[j] = angle(rng);
      const int id = mj_name2id(m, mjOBJ_JOINT, cm.joint_names()[j].c_str());
      ASSERT_GE(id, 0) << cm.joint_names()[j];
      d->qpos[m->jnt_qposadr[id]] = q[j];
    }
    mj_forward(m, d);
    // MuJoCo's verdict per pair of bodies: the most negative contact distance.
    std::map<std::pair<std::string, std::string>, double> contact;
    for (int c = 0; c < d->ncon; ++c) {
      std::string a = mj_id2name(m, mjOBJ_BODY, m->geom_bodyid[d->contact[c].geom1]);
      std::string b = mj_id2name(m, mjOBJ_BODY, m->geom_bodyid[d->contact[c].geom2]);
      if (b < a) std::swap(a, b);
      auto [it, added] = contact.emplace(std::make_pair(a, b), d->contact[c].dist);
      if (!added) it->second = std::min(it->second, static_cast<double>(d->contact[c].dist));
    }
    col::set_pose(cm, ws, q);
    for (std::size_t a = 0; a < cm.links().size(); ++a)
      for (std::size_t b = a + 1; b < cm.links().size(); ++b) {
        if (adjacent.count({a, b})) continue;  // MuJoCo leaves a body and its parent out
        const double distance = col::link_distance(cm, ws, a, b);
        if (std::abs(distance) < 1e-3) continue;  // touching: each side's tolerances decide
        std::string x = cm.links()[a], y = cm.links()[b];
        if (y < x) std::swap(x, y);
        const auto found = contact.find({x, y});
        const bool mujoco = found != contact.end() && found->second < 0;
        ++compared;
        if (mujoco != (distance < 0)) {
          ++disagreements;
          ADD_FAILURE() << "pose " << pose << ": " << x << " and " << y << ": rmodel " << distance << ", MuJoCo "
                        << (found == contact.end() ? std::string("no contact") : std::to_string(found->second));
          continue;
        }
        if (!mujoco) continue;
        ++colliding;
        // MuJoCo's sphere–box depth is the shortest separation while the sphere's centre is
        // outside the box; with the centre inside it reports the radius (0.07) whatever the depth.
        const bool sphere_box = (x == "a3" && (y == "b3" || y == "base")) || (y == "a3" && (x == "b3" || x == "base"));
        if (!sphere_box || -found->second >= 0.07 - 1e-9) continue;
        const double gap = std::abs(-distance - (-found->second));
        worst_depth = std::max(worst_depth, gap);
        EXPECT_LT(gap, 1e-6) << "pose " << pose << ": " << x << " and " << y << ": depth " << -distance
                             << " against MuJoCo's " << -found->second;
        ++depths;
      }
  }
  std::cout << compared << " pairs compared at 2000 poses, " << colliding << " colliding, " << disagreements
            << " disagreements; largest sphere-box depth difference " << worst_depth << " m over " << depths
            << "\n";
  EXPECT_GT(colliding, 200u) << "too few collisions to judge";
  EXPECT_GT(depths, 10u) << "too few sphere-box depths to judge";
  EXPECT_EQ(disagreements, 0u);
  mj_deleteData(d);
  mj_deleteModel(m);
  fs::remove_all(dir);
#endif
}

}  // namespace
}  // namespace rmodel
