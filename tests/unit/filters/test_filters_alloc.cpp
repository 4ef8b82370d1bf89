// Proof that the per-sample calls allocate nothing once a filter is built (and started):
// every family on 32-joint arrays, the non-vector value types, and every registry kind,
// including a restart from a same-size value.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <gtest/gtest.h>
#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>

#include "alloc_counter.hpp"
#include "rmodel/filters.hpp"

namespace rf = rmodel::filters;

namespace {

constexpr Eigen::Index kJoints = 32;
using Vec = Eigen::VectorXd;

Vec signal(int k, double scale = 1.0) {
  return scale * Vec::LinSpaced(kJoints, -1.0, 1.0) * std::sin(0.01 * k) +
         Vec::Constant(kJoints, 0.1 * k);
}

/// Runs `step(u)` over prepared inputs inside an allocation counter.
template <class Step>
std::size_t allocations(Step&& step) {
  std::vector<Vec> inputs;
  for (int k = 0; k < 64; ++k) inputs.push_back(signal(k));
  rmodel::test::AllocationCounter counter;
  for (int rep = 0; rep < 4; ++rep)
    for (const Vec& u : inputs) step(u);
  return counter.count();
}

}  // namespace

TEST(FilterAllocation, IntegratorsAndDifferentiatorsOnJointArrays) {
  const Vec x0 = Vec::Zero(kJoints);
  rf::EulerIntegrator<Vec> euler(0.01, x0);
  rf::TrapezoidIntegrator<Vec> trap(0.01, x0);
  rf::SimpsonIntegrator<Vec> simp(0.01, x0);
  rf::BackwardDifference<Vec> diff(0.01, x0);
  rf::LagDifferentiator<Vec> lag(0.01, 0.05, x0);
  rf::FirDifferentiator<Vec> fir(0.01, 9, 3, x0);
  EXPECT_EQ(allocations([&](const Vec& u) {
              (void)euler.update(u);
              (void)euler.output(u);
              euler.update();
              (void)trap.update(u);
              (void)trap.output(u);
              trap.update();
              (void)simp.update(u);
              (void)simp.output(u);
              simp.update();
              (void)diff.update(u);
              (void)diff.output(u);
              diff.update();
              (void)lag.update(u);
              (void)lag.output(u);
              lag.update();
              (void)fir.update(u);
              (void)fir.output(u);
              fir.update();
              // Restarting from a value of the same size reuses the buffers.
              simp.start(u);
              fir.start(u);
              diff.start();
            }),
            0U);
}

TEST(FilterAllocation, TransientsFusionSecondOrderTransferHysteresisOnJointArrays) {
  const Vec x0 = Vec::Zero(kJoints);
  rf::TransientLinear<Vec> lin(0.01, 1.0, x0);
  rf::TransientExp<Vec> exp(0.01, 0.1, x0);
  rf::TransientExpLimited<Vec> lim(0.01, 0.1, 1.0, x0);
  rf::FusionLinear<Vec> fl(0.01, 0.5, x0);
  rf::FusionExp<Vec> fe(0.01, 0.5, x0);
  rf::FusionExpLimited<Vec> fel(0.01, 0.5, 1.0, x0);
  rf::SecondOrderParams p;
  p.max_acceleration = 5.0;
  p.max_velocity = 1.0;
  rf::SecondOrderTransient<Vec> so(0.01, p, x0);
  rf::TransferFunction<Vec> tf({0.1, 0.2, 0.1}, {1.0, -0.8, 0.2}, x0);
  rf::Hysteresis<Vec> hy(0.5, -0.5, x0);
  const Vec other = Vec::Constant(kJoints, 2.0);
  EXPECT_EQ(allocations([&](const Vec& u) {
              (void)lin.update(u);
              (void)exp.update(u);
              (void)exp.output(u);
              exp.update();
              (void)exp.update(u, other);
              (void)lim.update(u);
              (void)fl.update(other, u);
              (void)fe.update(other, u);
              (void)fel.output(other, u);
              fel.update();
              (void)so.update(u);
              (void)so.output(u, other);
              so.update();
              (void)so.update(u, other, other);
              (void)tf.update(u);
              (void)tf.output(u);
              tf.update();
              (void)hy.update(u);
              lim.start(u);
              so.start(u);
              tf.start(u);
            }),
            0U);
}

TEST(FilterAllocation, OrientationPoseAndKdlTypes) {
  rf::SimpsonIntegrator<Eigen::Quaterniond> qi(0.01);
  rf::TrapezoidIntegrator<KDL::Frame> fi(0.01);
  rf::TransientExpLimited<KDL::Rotation> rt(0.01, 0.1, 1.0);
  rf::FusionExpLimited<KDL::Frame> ff(0.01, 0.1, rf::LinearAngular{1.0, 1.0});
  rf::LagDifferentiator<Eigen::Quaterniond> qd(0.01, 0.05);
  KDL::JntArray j0(kJoints), ju(kJoints);
  rf::SimpsonIntegrator<KDL::JntArray> ji(0.01, j0);
  rf::TransientExp<KDL::JntArray> jt(0.01, 0.1, j0);
  EXPECT_EQ(allocations([&](const Vec& u) {
              const Eigen::Vector3d w = u.head<3>();
              const Eigen::Quaterniond& q = qi.update(w);
              (void)qd.update(q);
              const KDL::Frame& f = fi.update(KDL::Twist(KDL::Vector(w.x(), w.y(), w.z()),
                                                         KDL::Vector(w.z(), w.x(), w.y())));
              (void)rt.update(f.M);
              (void)ff.update(f, KDL::Frame::Identity());
              ju.data = u;
              (void)ji.update(ju);
              (void)jt.update(ju);
            }),
            0U);
}

TEST(FilterAllocation, EveryRegistryKind) {
  for (const rf::FilterKind& kind : rf::filter_kinds()) {
    const auto f = rf::make_array_filter(kind.name, kJoints);
    const Vec x0 = Vec::Constant(kJoints, 0.25);
    const Vec wrong = Vec::Zero(3);
    bool ok = true;
    const std::size_t n = allocations([&](const Vec& u) {
      ok = f->update(u) && ok;
      ok = f->output(u) && ok;
      f->update();
      ok = !f->update(wrong) && ok;
      f->start();  // next input primes the filter again
      ok = f->update(u) && ok;
      f->start(x0);
      ok = f->update(u) && ok;
      f->start();
      // Variable step and per-element restart (the FIR fit runs in preallocated storage).
      ok = f->update(u, 0.003) && ok;
      ok = f->update(u, 0.047) && ok;
      ok = f->output(u, 0.002) && ok;
      f->update(0.002);
      f->restart(1);
      f->restart(2, 0.5);
      ok = f->update(u, 0.001) && ok;
      ok = !f->update(u, -1.0) && ok;
    });
    EXPECT_EQ(n, 0U) << kind.name;
    EXPECT_TRUE(ok) << kind.name;
  }
}
