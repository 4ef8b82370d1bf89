// rmodel's kinematics against KDL's solvers on the same chains and trees, in one run.
//
// Chains: a Sweetie Bot leg with its virtual joint (leg1 of kinematic_chains.cpf), the left
// arm (torso_2_link → arm_left_7_link) and left leg (base_link → leg_left_6_link) of Talos.
// Per chain: FK of the tip, FK + tip Jacobian (two calls, and forward_kinematics_jacobian), and (rmodel only; KDL has no such solver)
// FK + first and second derivatives of the tip transform. Tree: every Talos link frame,
// rmodel in one pass against KDL's TreeFkSolverPos_recursive called once per link.
// Poses cycle through 64 random ones (fixed seed) so that KDL's per-joint cache of the
// last angle does not help it. Skips with an error when ../shared/fixtures is absent.

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <benchmark/benchmark.h>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainjnttojacsolver.hpp>
#include <kdl/treefksolverpos_recursive.hpp>

#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"

namespace rk = rmodel::kinematics;

namespace {

constexpr std::size_t kPoses = 64;

std::filesystem::path fixtures() {
  if (const char* env = std::getenv("RMODEL_FIXTURES_DIR")) return env;
  return RMODEL_FIXTURES_DIR;
}

/// One chain with both libraries' solvers and a set of poses.
struct ChainCase {
  std::string name;
  KDL::Chain chain;
  std::unique_ptr<rk::KinematicModel> model;
  std::unique_ptr<rk::Workspace> ws;
  std::unique_ptr<KDL::ChainFkSolverPos_recursive> fk;
  std::unique_ptr<KDL::ChainJntToJacSolver> jac;
  std::vector<KDL::JntArray> poses;
  rk::Jacobian J;
  KDL::Jacobian kdl_J;

  ChainCase(std::string n, const KDL::Chain& c, rk::KinematicModel m) : name(std::move(n)), chain(c) {
    model = std::make_unique<rk::KinematicModel>(std::move(m));
    ws = std::make_unique<rk::Workspace>(*model, rk::DerivativeOrder::second);
    fk = std::make_unique<KDL::ChainFkSolverPos_recursive>(chain);
    jac = std::make_unique<KDL::ChainJntToJacSolver>(chain);
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> a(-1.5, 1.5);
    for (std::size_t i = 0; i < kPoses; ++i) {
      KDL::JntArray q(chain.getNrOfJoints());
      for (unsigned int j = 0; j < q.rows(); ++j) q(j) = a(rng);
      poses.push_back(q);
    }
    J.resize(6, static_cast<Eigen::Index>(model->pose_size()));
    kdl_J.resize(chain.getNrOfJoints());
  }
};

struct TreeCase {
  std::unique_ptr<rmodel::Model> robot;
  std::unique_ptr<rk::KinematicModel> model;
  std::unique_ptr<rk::Workspace> ws;
  KDL::Tree tree;  // a copy: the joint numbering KDL's solvers use
  std::unique_ptr<KDL::TreeFkSolverPos_recursive> fk;
  std::vector<std::string> links;
  std::vector<std::vector<double>> poses;
  std::vector<KDL::JntArray> kdl_poses;
};

struct Fixtures {
  std::optional<std::string> error;
  std::vector<std::unique_ptr<ChainCase>> chains;  // sweetie leg1, talos arm, talos leg
  std::unique_ptr<TreeCase> talos;
};

Fixtures& fixtures_data() {
  static Fixtures data = [] {
    Fixtures f;
    const auto dir = fixtures();
    if (!std::filesystem::exists(dir / "sweetie_bot_proto2") ||
        !std::filesystem::exists(dir / "example_robot_data")) {
      f.error = "shared fixtures not found at " + dir.string() + " (set RMODEL_FIXTURES_DIR)";
      return f;
    }
    try {
      rmodel::ModelSource sweetie_src;
      sweetie_src.urdf_path = (dir / "sweetie_bot_proto2/sweetie_bot_proto2.urdf").string();
      sweetie_src.semantics_path = (dir / "sweetie_bot_proto2/kinematic_chains.cpf").string();
      const auto sweetie = rmodel::Model::load(sweetie_src);
      f.chains.push_back(std::make_unique<ChainCase>("sweetie_leg1", sweetie.kdl_chain("leg1", true),
                                                     rk::KinematicModel::from_chain(sweetie, "leg1", true)));

      auto talos = std::make_unique<TreeCase>();
      rmodel::ModelSource talos_src;
      talos_src.urdf_path = (dir / "example_robot_data/talos_reduced.urdf").string();
      talos->robot = std::make_unique<rmodel::Model>(rmodel::Model::load(talos_src));
      const KDL::Tree& tree = talos->robot->kdl_tree();
      for (const auto& [name, root, tip] :
           {std::tuple<const char*, const char*, const char*>{"talos_arm", "torso_2_link", "arm_left_7_link"},
            {"talos_leg", "base_link", "leg_left_6_link"}}) {
        KDL::Chain chain;
        if (!tree.getChain(root, tip, chain)) throw std::runtime_error(std::string("no chain to ") + tip);
        f.chains.push_back(std::make_unique<ChainCase>(name, chain, rk::KinematicModel::from_kdl_chain(chain, root)));
      }
      talos->model = std::make_unique<rk::KinematicModel>(rk::KinematicModel::from_model(*talos->robot));
      talos->ws = std::make_unique<rk::Workspace>(*talos->model);
      talos->tree = KDL::Tree(tree);
      talos->fk = std::make_unique<KDL::TreeFkSolverPos_recursive>(talos->tree);
      for (const auto& body : talos->model->bodies()) talos->links.push_back(body.name);
      std::mt19937 rng(43);
      std::uniform_real_distribution<double> a(-1.5, 1.5);
      for (std::size_t i = 0; i < kPoses; ++i) {
        std::vector<double> q(talos->model->pose_size());
        for (double& v : q) v = a(rng);
        KDL::JntArray qk(talos->tree.getNrOfJoints());
        for (const auto& body : talos->model->bodies())
          if (body.q_index >= 0)
            qk(GetTreeElementQNr(talos->tree.getSegments().at(body.name))) =
                q[static_cast<std::size_t>(body.q_index)];
        talos->poses.push_back(std::move(q));
        talos->kdl_poses.push_back(std::move(qk));
      }
      f.talos = std::move(talos);
    } catch (const std::exception& e) {
      f.error = std::string("cannot load fixtures: ") + e.what();
    }
    return f;
  }();
  return data;
}

ChainCase* chain_case(benchmark::State& state) {
  auto& f = fixtures_data();
  if (f.error) {
    state.SkipWithError(f.error->c_str());
    return nullptr;
  }
  auto* c = f.chains[static_cast<std::size_t>(state.range(0))].get();
  state.SetLabel(c->name + " (" + std::to_string(c->chain.getNrOfJoints()) + " joints, " +
                 std::to_string(c->chain.getNrOfSegments()) + " segments)");
  return c;
}

// ---- chains

void BM_Chain_FK_rmodel(benchmark::State& state) {
  auto* c = chain_case(state);
  if (!c) return;
  std::size_t i = 0;
  for (auto _ : state) {
    rk::forward_kinematics(*c->model, *c->ws, c->poses[i++ % kPoses]);
    benchmark::DoNotOptimize(c->ws->frame(c->model->tip()));
  }
}

void BM_Chain_FK_KDL(benchmark::State& state) {
  auto* c = chain_case(state);
  if (!c) return;
  std::size_t i = 0;
  KDL::Frame f;
  for (auto _ : state) {
    c->fk->JntToCart(c->poses[i++ % kPoses], f);
    benchmark::DoNotOptimize(f);
  }
}

void BM_Chain_FKJacobian_rmodel(benchmark::State& state) {
  auto* c = chain_case(state);
  if (!c) return;
  std::size_t i = 0;
  for (auto _ : state) {
    rk::forward_kinematics(*c->model, *c->ws, c->poses[i++ % kPoses]);
    rk::jacobian(*c->model, *c->ws, c->model->tip(), c->J);
    benchmark::DoNotOptimize(c->ws->frame(c->model->tip()));
    benchmark::DoNotOptimize(c->J.data());
  }
}

void BM_Chain_FKJacobianOneCall_rmodel(benchmark::State& state) {
  auto* c = chain_case(state);
  if (!c) return;
  std::size_t i = 0;
  for (auto _ : state) {
    rk::forward_kinematics_jacobian(*c->model, *c->ws, c->poses[i++ % kPoses], c->model->tip(), c->J);
    benchmark::DoNotOptimize(c->ws->frame(c->model->tip()));
    benchmark::DoNotOptimize(c->J.data());
  }
}

void BM_Chain_FKJacobian_KDL(benchmark::State& state) {
  auto* c = chain_case(state);
  if (!c) return;
  std::size_t i = 0;
  KDL::Frame f;
  for (auto _ : state) {
    const KDL::JntArray& q = c->poses[i++ % kPoses];
    c->fk->JntToCart(q, f);
    c->jac->JntToJac(q, c->kdl_J);
    benchmark::DoNotOptimize(f);
    benchmark::DoNotOptimize(c->kdl_J.data.data());
  }
}

void BM_Chain_FKDerivatives1_rmodel(benchmark::State& state) {
  auto* c = chain_case(state);
  if (!c) return;
  std::size_t i = 0;
  for (auto _ : state) {
    rk::forward_kinematics(*c->model, *c->ws, c->poses[i++ % kPoses]);
    rk::frame_derivatives(*c->model, *c->ws, c->model->tip(), rk::DerivativeOrder::first);
    benchmark::DoNotOptimize(c->ws->body_first_derivatives(c->model->tip()).data());
  }
}

void BM_Chain_FKDerivatives2_rmodel(benchmark::State& state) {
  auto* c = chain_case(state);
  if (!c) return;
  std::size_t i = 0;
  for (auto _ : state) {
    rk::forward_kinematics(*c->model, *c->ws, c->poses[i++ % kPoses]);
    rk::frame_derivatives(*c->model, *c->ws, c->model->tip(), rk::DerivativeOrder::second);
    benchmark::DoNotOptimize(c->ws->body_second_derivatives(c->model->tip()).data());
  }
}

// ---- whole tree

TreeCase* tree_case(benchmark::State& state) {
  auto& f = fixtures_data();
  if (f.error) {
    state.SkipWithError(f.error->c_str());
    return nullptr;
  }
  state.SetLabel("talos_reduced (" + std::to_string(f.talos->links.size()) + " links, " +
                 std::to_string(f.talos->model->pose_size()) + " joints)");
  return f.talos.get();
}

void BM_Tree_AllLinks_rmodel(benchmark::State& state) {
  auto* t = tree_case(state);
  if (!t) return;
  std::size_t i = 0;
  for (auto _ : state) {
    rk::forward_kinematics(*t->model, *t->ws, t->poses[i++ % kPoses]);
    benchmark::DoNotOptimize(t->ws->frames().data());
  }
}

void BM_Tree_AllLinks_KDL(benchmark::State& state) {
  auto* t = tree_case(state);
  if (!t) return;
  std::size_t i = 0;
  KDL::Frame f;
  for (auto _ : state) {
    const KDL::JntArray& q = t->kdl_poses[i++ % kPoses];
    for (const auto& link : t->links) {
      t->fk->JntToCart(q, f, link);
      benchmark::DoNotOptimize(f);
    }
  }
}

void BM_Tree_AllLinksCOM_rmodel(benchmark::State& state) {
  auto* t = tree_case(state);
  if (!t) return;
  std::size_t i = 0;
  for (auto _ : state) {
    rk::forward_kinematics(*t->model, *t->ws, t->poses[i++ % kPoses]);
    benchmark::DoNotOptimize(rk::center_of_mass(*t->model, *t->ws));
  }
}

void chains(benchmark::internal::Benchmark* b) { b->DenseRange(0, 2); }

}  // namespace

BENCHMARK(BM_Chain_FK_rmodel)->Apply(chains);
BENCHMARK(BM_Chain_FK_KDL)->Apply(chains);
BENCHMARK(BM_Chain_FKJacobian_rmodel)->Apply(chains);
BENCHMARK(BM_Chain_FKJacobianOneCall_rmodel)->Apply(chains);
BENCHMARK(BM_Chain_FKJacobian_KDL)->Apply(chains);
BENCHMARK(BM_Chain_FKDerivatives1_rmodel)->Apply(chains);
BENCHMARK(BM_Chain_FKDerivatives2_rmodel)->Apply(chains);
BENCHMARK(BM_Tree_AllLinks_rmodel);
BENCHMARK(BM_Tree_AllLinks_KDL);
BENCHMARK(BM_Tree_AllLinksCOM_rmodel);

BENCHMARK_MAIN();
