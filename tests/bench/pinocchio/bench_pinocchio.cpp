// rmodel against Pinocchio on the algorithms both have, on the same robots and the same
// random motions, in one process: RNEA (inverse dynamics, root fixed), CRBA (the joint-space
// mass matrix) and FK + Jacobian of one link (Pinocchio's computeFrameJacobian, world-aligned
// at the link origin, against rmodel's forward_kinematics_jacobian). Built and run by
// scripts/bench-pinocchio.sh against a Pinocchio source tree; never by CMake, since Debian
// has no Pinocchio.
//
// Before timing, every robot's results are compared: torques, the mass matrix's upper
// triangle (what Pinocchio's crba fills) and the Jacobian, joint by joint matched by name.
// The program exits 1 when they disagree beyond 1e-9 (relative to the largest entry), so a
// table is only ever printed for two libraries computing the same thing.
//
// Usage: bench_pinocchio URDF LINK [URDF LINK ...] [Google Benchmark options]

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/frames.hpp>
#include <pinocchio/algorithm/jacobian.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/multibody/data.hpp>
#include <pinocchio/multibody/model.hpp>
#include <pinocchio/parsers/urdf.hpp>

#include "rmodel/kinematics/dynamics.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"

namespace rd = rmodel::dynamics;
namespace rk = rmodel::kinematics;

namespace {

constexpr std::size_t kMotions = 64;

/// One robot loaded by both libraries, with random motions in each one's joint order.
struct Robot {
  std::string name;
  std::string link;
  pinocchio::Model pin;
  std::unique_ptr<pinocchio::Data> pin_data;
  pinocchio::FrameIndex pin_frame = 0;
  std::unique_ptr<rmodel::Model> model;
  std::unique_ptr<rk::KinematicModel> kin;
  std::unique_ptr<rk::Workspace> ws;
  std::unique_ptr<rd::DynamicsWorkspace> dws;
  std::size_t body = 0;
  /// pin_slot[k]: Pinocchio's q index of rmodel's pose slot k.
  std::vector<Eigen::Index> pin_slot;
  std::vector<Eigen::VectorXd> pq, pv, pa;          // Pinocchio's order
  std::vector<std::vector<double>> rq, rv, ra;      // rmodel's order
  Eigen::VectorXd pin_tau;
  std::vector<double> tau;
  Eigen::MatrixXd M;
  pinocchio::Data::Matrix6x pin_J;
  rk::Jacobian J;
};

std::vector<std::unique_ptr<Robot>>& robots() {
  static std::vector<std::unique_ptr<Robot>> all;
  return all;
}

std::unique_ptr<Robot> load(const std::string& urdf, const std::string& link) {
  auto r = std::make_unique<Robot>();
  r->link = link;
  pinocchio::urdf::buildModel(urdf, r->pin);
  r->name = r->pin.name;
  r->pin_data = std::make_unique<pinocchio::Data>(r->pin);
  r->pin_frame = r->pin.getFrameId(link, pinocchio::BODY);
  if (r->pin_frame >= r->pin.frames.size()) throw std::runtime_error(urdf + ": Pinocchio has no frame " + link);
  rmodel::ModelSource source;
  source.urdf_path = urdf;
  r->model = std::make_unique<rmodel::Model>(rmodel::Model::load(source));
  // Pinocchio's URDF reader takes a mimic joint (Panda's second finger) as a joint of its own:
  // so does rmodel's model whose mimic joints read their own slots.
  r->kin = std::make_unique<rk::KinematicModel>(rk::KinematicModel::from_model(*r->model, rk::MimicJoints::from_pose));
  r->ws = std::make_unique<rk::Workspace>(*r->kin);
  r->dws = std::make_unique<rd::DynamicsWorkspace>(*r->kin);
  r->body = r->kin->body_index(link);
  const std::size_t n = r->kin->pose_size();
  if (static_cast<std::size_t>(r->pin.nv) != n || r->pin.nq != r->pin.nv)
    throw std::runtime_error(urdf + ": " + std::to_string(n) + " joints in rmodel, nq " + std::to_string(r->pin.nq) +
                             " nv " + std::to_string(r->pin.nv) + " in Pinocchio");
  r->pin_slot.assign(n, -1);
  for (const rk::Body& b : r->kin->bodies()) {
    if (b.q_index < 0) continue;
    if (!r->pin.existJointName(b.joint)) throw std::runtime_error(urdf + ": Pinocchio has no joint " + b.joint);
    r->pin_slot[static_cast<std::size_t>(b.q_index)] = r->pin.joints[r->pin.getJointId(b.joint)].idx_q();
  }
  for (std::size_t k = 0; k < n; ++k)
    if (r->pin_slot[k] < 0) throw std::runtime_error(urdf + ": pose slot " + std::to_string(k) + " moves no body");
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> draw(-1.5, 1.5);
  for (std::size_t i = 0; i < kMotions; ++i) {
    std::vector<double> q(n), v(n), a(n);
    for (std::size_t k = 0; k < n; ++k) {
      q[k] = draw(rng);
      v[k] = 2.0 * draw(rng);
      a[k] = 5.0 * draw(rng);
    }
    Eigen::VectorXd pq(n), pv(n), pa(n);
    for (std::size_t k = 0; k < n; ++k) {
      pq[r->pin_slot[k]] = q[k];
      pv[r->pin_slot[k]] = v[k];
      pa[r->pin_slot[k]] = a[k];
    }
    r->rq.push_back(q), r->rv.push_back(v), r->ra.push_back(a);
    r->pq.push_back(pq), r->pv.push_back(pv), r->pa.push_back(pa);
  }
  r->tau.resize(n);
  r->pin_J.setZero(6, r->pin.nv);
  return r;
}

/// Largest difference between the two libraries' results over every motion, relative to
/// the largest magnitude of each quantity; prints it and returns false past 1e-9.
bool agree(Robot& r) {
  const std::size_t n = r.kin->pose_size();
  double tau_diff = 0, tau_max = 0, m_diff = 0, m_max = 0, j_diff = 0, j_max = 0;
  for (std::size_t i = 0; i < kMotions; ++i) {
    rd::inverse_dynamics(*r.kin, *r.dws, r.rq[i], r.rv[i], r.ra[i], r.tau);
    const Eigen::VectorXd& ptau = pinocchio::rnea(r.pin, *r.pin_data, r.pq[i], r.pv[i], r.pa[i]);
    rd::mass_matrix(*r.kin, *r.dws, r.rq[i], r.M);
    pinocchio::crba(r.pin, *r.pin_data, r.pq[i]);
    rk::forward_kinematics_jacobian(*r.kin, *r.ws, r.rq[i], r.body, r.J);
    r.pin_J.setZero();
    pinocchio::computeFrameJacobian(r.pin, *r.pin_data, r.pq[i], r.pin_frame, pinocchio::LOCAL_WORLD_ALIGNED, r.pin_J);
    for (std::size_t k = 0; k < n; ++k) {
      const Eigen::Index pk = r.pin_slot[k];
      tau_diff = std::max(tau_diff, std::abs(r.tau[k] - ptau[pk]));
      tau_max = std::max(tau_max, std::abs(ptau[pk]));
      for (std::size_t l = 0; l < n; ++l) {
        const Eigen::Index pl = r.pin_slot[l];
        if (pk <= pl) {  // Pinocchio's crba fills the upper triangle only
          m_diff = std::max(m_diff, std::abs(r.M(Eigen::Index(k), Eigen::Index(l)) - r.pin_data->M(pk, pl)));
          m_max = std::max(m_max, std::abs(r.pin_data->M(pk, pl)));
        }
      }
      // Both: linear velocity of the link origin, then angular, in the base frame.
      for (Eigen::Index row = 0; row < 6; ++row) {
        j_diff = std::max(j_diff, std::abs(r.J(row, Eigen::Index(k)) - r.pin_J(row, pk)));
        j_max = std::max(j_max, std::abs(r.pin_J(row, pk)));
      }
    }
  }
  const double tau_rel = tau_diff / tau_max, m_rel = m_diff / m_max, j_rel = j_diff / j_max;
  std::printf("%-16s %3zu joints: largest relative difference: torques %.1e, mass matrix %.1e, Jacobian of %s %.1e\n",
              r.name.c_str(), n, tau_rel, m_rel, r.link.c_str(), j_rel);
  return tau_rel < 1e-9 && m_rel < 1e-9 && j_rel < 1e-9;
}

void BM_RNEA_rmodel(benchmark::State& state, Robot* r) {
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t m = i++ % kMotions;
    rd::inverse_dynamics(*r->kin, *r->dws, r->rq[m], r->rv[m], r->ra[m], r->tau);
    benchmark::DoNotOptimize(r->tau.data());
  }
}

void BM_RNEA_pinocchio(benchmark::State& state, Robot* r) {
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t m = i++ % kMotions;
    benchmark::DoNotOptimize(pinocchio::rnea(r->pin, *r->pin_data, r->pq[m], r->pv[m], r->pa[m]).data());
  }
}

void BM_CRBA_rmodel(benchmark::State& state, Robot* r) {
  std::size_t i = 0;
  for (auto _ : state) {
    rd::mass_matrix(*r->kin, *r->dws, r->rq[i++ % kMotions], r->M);
    benchmark::DoNotOptimize(r->M.data());
  }
}

void BM_CRBA_pinocchio(benchmark::State& state, Robot* r) {
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(pinocchio::crba(r->pin, *r->pin_data, r->pq[i++ % kMotions]).data());
}

void BM_FKJacobian_rmodel(benchmark::State& state, Robot* r) {
  std::size_t i = 0;
  for (auto _ : state) {
    rk::forward_kinematics_jacobian(*r->kin, *r->ws, r->rq[i++ % kMotions], r->body, r->J);
    benchmark::DoNotOptimize(r->J.data());
  }
}

void BM_FKJacobian_pinocchio(benchmark::State& state, Robot* r) {
  std::size_t i = 0;
  for (auto _ : state) {
    pinocchio::computeFrameJacobian(r->pin, *r->pin_data, r->pq[i++ % kMotions], r->pin_frame,
                                    pinocchio::LOCAL_WORLD_ALIGNED, r->pin_J);
    benchmark::DoNotOptimize(r->pin_J.data());
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest = {argv[0]};
  std::vector<std::pair<std::string, std::string>> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) == 0 || i + 1 >= argc) {
      rest.push_back(argv[i]);
      continue;
    }
    inputs.emplace_back(arg, argv[i + 1]);
    ++i;
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: %s URDF LINK [URDF LINK ...] [benchmark options]\n", argv[0]);
    return 2;
  }
  bool all_agree = true;
  try {
    for (const auto& [urdf, link] : inputs) {
      robots().push_back(load(urdf, link));
      all_agree = agree(*robots().back()) && all_agree;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_pinocchio: %s\n", e.what());
    return 1;
  }
  if (!all_agree) {
    std::fprintf(stderr, "bench_pinocchio: the two libraries disagree: no timing\n");
    return 1;
  }
  using Bench = void (*)(benchmark::State&, Robot*);
  struct Pair {
    const char* algorithm;
    Bench ours, theirs;
  };
  const Pair pairs[] = {{"RNEA", BM_RNEA_rmodel, BM_RNEA_pinocchio},
                        {"CRBA", BM_CRBA_rmodel, BM_CRBA_pinocchio},
                        {"FKJacobian", BM_FKJacobian_rmodel, BM_FKJacobian_pinocchio}};
  for (const auto& r : robots()) {
    for (const Pair& p : pairs) {
      benchmark::RegisterBenchmark((std::string(p.algorithm) + "/" + r->name + "/rmodel").c_str(), p.ours, r.get());
      benchmark::RegisterBenchmark((std::string(p.algorithm) + "/" + r->name + "/pinocchio").c_str(), p.theirs, r.get());
    }
  }
  int bench_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&bench_argc, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
