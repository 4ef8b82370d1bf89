// rmodel's dynamics against KDL's solvers on the same robots and the same poses, in one run.
//
// Trees (Talos, about 100 links; the Sweetie Bot with inertials): inverse dynamics of the
// whole tree, rmodel::dynamics::inverse_dynamics against KDL's TreeIdSolver_RNE (the target:
// at least 5× faster), and rmodel's gravity torques, mass matrix and floating-base dynamics
// (KDL has no tree mass matrix and no floating base). Chains (a Talos arm and leg, a Sweetie
// Bot leg): inverse dynamics against ChainIdSolver_RNE, the mass matrix against
// ChainDynParam::JntToMass. Both libraries build the same KDL tree or chain copy, so the joint
// order is KDL's. Poses, velocities and accelerations cycle through 64 random ones (fixed
// seed). Skips with an error when ../shared/fixtures is absent.

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
#include <kdl/chaindynparam.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>

#include "rmodel/kinematics/dynamics.hpp"
#include "rmodel/stream/dynamics_stream.hpp"
#include "rmodel/model/model.hpp"

namespace rd = rmodel::dynamics;

namespace {

constexpr std::size_t kMotions = 64;

std::filesystem::path fixtures() {
  if (const char* env = std::getenv("RMODEL_FIXTURES_DIR")) return env;
  return RMODEL_FIXTURES_DIR;
}

/// Random joint positions, velocities and accelerations, as std::vector and KDL arrays.
struct Motions {
  std::vector<std::vector<double>> q, qd, qdd;
  std::vector<KDL::JntArray> kq, kqd, kqdd;

  explicit Motions(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> a(-1.5, 1.5);
    auto draw = [&](double scale) {
      std::vector<double> v(n);
      for (double& x : v) x = scale * a(rng);
      return v;
    };
    auto jnt = [](const std::vector<double>& v) {
      KDL::JntArray out(static_cast<unsigned int>(v.size()));
      for (std::size_t i = 0; i < v.size(); ++i) out(static_cast<unsigned int>(i)) = v[i];
      return out;
    };
    for (std::size_t i = 0; i < kMotions; ++i) {
      q.push_back(draw(1.0));
      qd.push_back(draw(2.0));
      qdd.push_back(draw(5.0));
      kq.push_back(jnt(q.back()));
      kqd.push_back(jnt(qd.back()));
      kqdd.push_back(jnt(qdd.back()));
    }
  }
};

struct TreeCase {
  std::string name;
  std::unique_ptr<rmodel::Model> robot;
  std::unique_ptr<KDL::Tree> tree;  // a copy: the joint numbering of KDL's solvers
  std::unique_ptr<rd::KinematicModel> model;
  std::unique_ptr<rd::DynamicsWorkspace> ws;
  std::unique_ptr<KDL::TreeIdSolver_RNE> kdl;
  // The robot's own model (full pose) for the floating base, when it has supporting chains.
  std::unique_ptr<rd::KinematicModel> full;
  std::unique_ptr<rd::SupportModel> supports;
  std::unique_ptr<rd::DynamicsWorkspace> full_ws;
  std::vector<rd::ChainSupport> support;
  std::unique_ptr<Motions> motions;
  std::vector<double> tau;
  Eigen::MatrixXd M;
  KDL::JntArray kdl_tau;
};

struct ChainCase {
  std::string name;
  KDL::Chain chain;
  std::unique_ptr<rd::KinematicModel> model;
  std::unique_ptr<rd::DynamicsWorkspace> ws;
  std::unique_ptr<KDL::ChainIdSolver_RNE> rne;
  std::unique_ptr<KDL::ChainDynParam> param;
  std::unique_ptr<Motions> motions;
  std::vector<double> tau;
  Eigen::MatrixXd M;
  KDL::JntArray kdl_tau;
  KDL::JntSpaceInertiaMatrix H;
  KDL::Wrenches none;
};

struct Fixtures {
  std::optional<std::string> error;
  std::vector<std::unique_ptr<TreeCase>> trees;    // talos, sweetie bot, sweetie bot with chains
  std::vector<std::unique_ptr<ChainCase>> chains;  // talos arm, talos leg, sweetie leg1
};

std::unique_ptr<TreeCase> make_tree(std::string name, rmodel::Model robot) {
  auto t = std::make_unique<TreeCase>();
  t->name = std::move(name);
  t->robot = std::make_unique<rmodel::Model>(std::move(robot));
  t->tree = std::make_unique<KDL::Tree>(t->robot->kdl_tree());
  t->model = std::make_unique<rd::KinematicModel>(rd::KinematicModel::from_kdl_tree(*t->tree));
  t->ws = std::make_unique<rd::DynamicsWorkspace>(*t->model);
  t->kdl = std::make_unique<KDL::TreeIdSolver_RNE>(*t->tree, KDL::Vector(0, 0, -9.81));
  t->motions = std::make_unique<Motions>(t->model->pose_size(), 42);
  t->tau.resize(t->model->pose_size());
  t->kdl_tau.resize(t->tree->getNrOfJoints());
  if (!t->robot->chains().empty()) {
    t->full = std::make_unique<rd::KinematicModel>(rd::KinematicModel::from_model(*t->robot));
    t->supports = std::make_unique<rd::SupportModel>(rd::SupportModel::from_model(*t->robot, *t->full));
    t->full_ws = std::make_unique<rd::DynamicsWorkspace>(*t->full, t->supports->max_points());
    t->support.resize(t->supports->chains().size());
    for (std::size_t c = 0; c < t->support.size(); ++c)
      if (t->supports->chains()[c].default_contact) t->support[c].coefficient = 1.0;
  }
  return t;
}

std::unique_ptr<ChainCase> make_chain(std::string name, const KDL::Chain& chain) {
  auto c = std::make_unique<ChainCase>();
  c->name = std::move(name);
  c->chain = chain;
  c->model = std::make_unique<rd::KinematicModel>(rd::KinematicModel::from_kdl_chain(c->chain));
  c->ws = std::make_unique<rd::DynamicsWorkspace>(*c->model);
  c->rne = std::make_unique<KDL::ChainIdSolver_RNE>(c->chain, KDL::Vector(0, 0, -9.81));
  c->param = std::make_unique<KDL::ChainDynParam>(c->chain, KDL::Vector(0, 0, -9.81));
  c->motions = std::make_unique<Motions>(c->chain.getNrOfJoints(), 43);
  c->tau.resize(c->chain.getNrOfJoints());
  c->kdl_tau.resize(c->chain.getNrOfJoints());
  c->H.resize(c->chain.getNrOfJoints());
  c->none.assign(c->chain.getNrOfSegments(), KDL::Wrench::Zero());
  return c;
}

Fixtures& fixtures_data() {
  static Fixtures data = [] {
    Fixtures f;
    const auto dir = fixtures();
    if (!std::filesystem::exists(dir / "sweetie_bot_proto2") || !std::filesystem::exists(dir / "example_robot_data")) {
      f.error = "shared fixtures not found at " + dir.string() + " (set RMODEL_FIXTURES_DIR)";
      return f;
    }
    try {
      rmodel::ModelSource talos_src;
      talos_src.urdf_path = (dir / "example_robot_data/talos_reduced.urdf").string();
      rmodel::ModelSource sweetie_src;
      sweetie_src.urdf_path = (dir / "sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf").string();
      // The full URDF (virtual hoof links, inertials too) with the chains and contacts.
      rmodel::ModelSource legged_src;
      legged_src.urdf_path = (dir / "sweetie_bot_proto2/sweetie_bot_proto2.urdf").string();
      legged_src.semantics_path = (dir / "sweetie_bot_proto2/kinematic_chains.cpf").string();
      f.trees.push_back(make_tree("talos", rmodel::Model::load(talos_src)));
      f.trees.push_back(make_tree("sweetie_bot", rmodel::Model::load(sweetie_src)));
      f.trees.push_back(make_tree("sweetie_bot_full", rmodel::Model::load(legged_src)));
      const KDL::Tree& talos = *f.trees[0]->tree;
      for (const auto& [name, root, tip] :
           {std::tuple<const char*, const char*, const char*>{"talos_arm", "torso_2_link", "arm_left_7_link"},
            {"talos_leg", "base_link", "leg_left_6_link"}}) {
        KDL::Chain chain;
        if (!talos.getChain(root, tip, chain)) throw std::runtime_error(std::string("no chain to ") + tip);
        f.chains.push_back(make_chain(name, chain));
      }
      f.chains.push_back(make_chain("sweetie_leg1", f.trees[2]->robot->kdl_chain("leg1", true)));
    } catch (const std::exception& e) {
      f.error = std::string("cannot load fixtures: ") + e.what();
    }
    return f;
  }();
  return data;
}

TreeCase* tree_case(benchmark::State& state) {
  auto& f = fixtures_data();
  if (f.error) {
    state.SkipWithError(f.error->c_str());
    return nullptr;
  }
  auto* t = f.trees[static_cast<std::size_t>(state.range(0))].get();
  state.SetLabel(t->name + " (" + std::to_string(t->model->pose_size()) + " joints, " +
                 std::to_string(t->model->size()) + " links)");
  return t;
}

ChainCase* chain_case(benchmark::State& state) {
  auto& f = fixtures_data();
  if (f.error) {
    state.SkipWithError(f.error->c_str());
    return nullptr;
  }
  auto* c = f.chains[static_cast<std::size_t>(state.range(0))].get();
  state.SetLabel(c->name + " (" + std::to_string(c->chain.getNrOfJoints()) + " joints)");
  return c;
}

// ---- trees

/// Drops the poses the torque sink writes (the writer is measured by bench_io).
class NullSink final : public rmodel::stream::Sink {
public:
  void joint_state(const rmodel::JointState& s, std::optional<std::int64_t>) override {
    benchmark::DoNotOptimize(s.effort.data());
  }
  void support_state(const rmodel::SupportState&, std::optional<std::int64_t>) override {}
};

/// `dynamics --log` past the aggregator: full poses with velocities, 100 Hz stamps, through
/// the torque sink (differentiation and inverse dynamics, root fixed). Poses per second.
void BM_Log_TorqueSink(benchmark::State& state) {
  auto* t = tree_case(state);
  if (!t) return;
  NullSink drop;
  rd::TorqueSink sink(drop, *t->robot);
  const std::size_t n = t->robot->pose_size();
  std::vector<rmodel::JointState> poses(kMotions);
  std::mt19937 rng(44);
  std::uniform_real_distribution<double> draw(-1.0, 1.0);
  for (auto& pose : poses) {
    pose.name = t->robot->joint_names();
    for (std::size_t j = 0; j < n; ++j) {
      pose.position.push_back(draw(rng));
      pose.velocity.push_back(2.0 * draw(rng));
    }
  }
  std::size_t i = 0;
  for (auto _ : state) {
    rmodel::JointState& pose = poses[i % kMotions];
    pose.stamp = rmodel::Time{static_cast<std::int64_t>(i++) * 10'000'000};  // 0.01 s apart
    sink.joint_state(pose, std::nullopt);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(i));
}

void BM_Tree_InverseDynamics_rmodel(benchmark::State& state) {
  auto* t = tree_case(state);
  if (!t) return;
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ % kMotions;
    rd::inverse_dynamics(*t->model, *t->ws, t->motions->q[k], t->motions->qd[k], t->motions->qdd[k], t->tau);
    benchmark::DoNotOptimize(t->tau.data());
  }
}

void BM_Tree_InverseDynamics_KDL(benchmark::State& state) {
  auto* t = tree_case(state);
  if (!t) return;
  std::size_t i = 0;
  const KDL::WrenchMap none;
  for (auto _ : state) {
    const std::size_t k = i++ % kMotions;
    t->kdl->CartToJnt(t->motions->kq[k], t->motions->kqd[k], t->motions->kqdd[k], none, t->kdl_tau);
    benchmark::DoNotOptimize(t->kdl_tau.data.data());
  }
}

void BM_Tree_GravityTorques_rmodel(benchmark::State& state) {
  auto* t = tree_case(state);
  if (!t) return;
  std::size_t i = 0;
  for (auto _ : state) {
    rd::gravity_torques(*t->model, *t->ws, t->motions->q[i++ % kMotions], t->tau);
    benchmark::DoNotOptimize(t->tau.data());
  }
}

void BM_Tree_MassMatrix_rmodel(benchmark::State& state) {
  auto* t = tree_case(state);
  if (!t) return;
  std::size_t i = 0;
  for (auto _ : state) {
    rd::mass_matrix(*t->model, *t->ws, t->motions->q[i++ % kMotions], t->M);
    benchmark::DoNotOptimize(t->M.data());
  }
}

void BM_Tree_FloatingBase_rmodel(benchmark::State& state) {
  auto* t = tree_case(state);
  if (!t) return;
  if (!t->full) {
    state.SkipWithError("no supporting chains");
    return;
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ % kMotions;
    rd::floating_base_dynamics(*t->full, *t->supports, *t->full_ws, t->motions->q[k], t->motions->qd[k],
                               t->motions->qdd[k], t->support, t->tau);
    benchmark::DoNotOptimize(t->tau.data());
  }
}

// ---- chains

void BM_Chain_InverseDynamics_rmodel(benchmark::State& state) {
  auto* c = chain_case(state);
  if (!c) return;
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ % kMotions;
    rd::inverse_dynamics(*c->model, *c->ws, c->motions->q[k], c->motions->qd[k], c->motions->qdd[k], c->tau);
    benchmark::DoNotOptimize(c->tau.data());
  }
}

void BM_Chain_InverseDynamics_KDL(benchmark::State& state) {
  auto* c = chain_case(state);
  if (!c) return;
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ % kMotions;
    c->rne->CartToJnt(c->motions->kq[k], c->motions->kqd[k], c->motions->kqdd[k], c->none, c->kdl_tau);
    benchmark::DoNotOptimize(c->kdl_tau.data.data());
  }
}

void BM_Chain_MassMatrix_rmodel(benchmark::State& state) {
  auto* c = chain_case(state);
  if (!c) return;
  std::size_t i = 0;
  for (auto _ : state) {
    rd::mass_matrix(*c->model, *c->ws, c->motions->q[i++ % kMotions], c->M);
    benchmark::DoNotOptimize(c->M.data());
  }
}

void BM_Chain_MassMatrix_KDL(benchmark::State& state) {
  auto* c = chain_case(state);
  if (!c) return;
  std::size_t i = 0;
  for (auto _ : state) {
    c->param->JntToMass(c->motions->kq[i++ % kMotions], c->H);
    benchmark::DoNotOptimize(c->H.data.data());
  }
}

void trees(benchmark::internal::Benchmark* b) {
  for (int i = 0; i < 3; ++i) b->Arg(i);
}
void chains(benchmark::internal::Benchmark* b) {
  for (int i = 0; i < 3; ++i) b->Arg(i);
}

}  // namespace

BENCHMARK(BM_Log_TorqueSink)->Apply(trees);
BENCHMARK(BM_Tree_InverseDynamics_rmodel)->Apply(trees);
BENCHMARK(BM_Tree_InverseDynamics_KDL)->Apply(trees);
BENCHMARK(BM_Tree_GravityTorques_rmodel)->Apply(trees);
BENCHMARK(BM_Tree_MassMatrix_rmodel)->Apply(trees);
BENCHMARK(BM_Tree_FloatingBase_rmodel)->Arg(2);
BENCHMARK(BM_Chain_InverseDynamics_rmodel)->Apply(chains);
BENCHMARK(BM_Chain_InverseDynamics_KDL)->Apply(chains);
BENCHMARK(BM_Chain_MassMatrix_rmodel)->Apply(chains);
BENCHMARK(BM_Chain_MassMatrix_KDL)->Apply(chains);

BENCHMARK_MAIN();
