// ns per update of every filter family on a 32-joint array (Eigen::VectorXd), each next
// to a hand-written loop doing the same arithmetic on std::array<double, 32>, the cost
// the abstraction is measured against. At the project's -O2, GCC does not vectorise the
// hand loops (it cannot rule out aliasing between state and input without a runtime
// check, which the -O2 cost model refuses); Eigen vectorises by construction.
// TransientExp/hand_restrict shows a hand loop vectorised through __restrict__. Names: <Family>/filter, <Family>/hand; a few
// extras show the fixed-size Eigen vector, the type-erased registry filter and the
// orientation types.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <benchmark/benchmark.h>
#include <kdl/frames.hpp>

#include "rmodel/filters.hpp"

namespace rf = rmodel::filters;

namespace {

constexpr std::size_t kN = 32;
constexpr double kT = 0.01;
constexpr double kTau = 0.1;
constexpr double kV = 1.0;
using Vec = Eigen::VectorXd;
using Arr = std::array<double, kN>;

/// 64 different inputs cycled through, so nothing is constant-folded.
struct Inputs {
  std::vector<Vec> vec;
  std::vector<Arr> arr;
  Inputs() {
    for (int k = 0; k < 64; ++k) {
      Vec v(kN);
      Arr a{};
      for (std::size_t i = 0; i < kN; ++i) {
        a[i] = std::sin(0.05 * k + 0.3 * static_cast<double>(i)) * (1.0 + 0.1 * static_cast<double>(i));
        v[static_cast<Eigen::Index>(i)] = a[i];
      }
      vec.push_back(v);
      arr.push_back(a);
    }
  }
};

const Inputs& inputs() {
  static const Inputs in;
  return in;
}

template <class Step>
void run_vec(benchmark::State& state, Step&& step) {
  const auto& in = inputs().vec;
  std::size_t k = 0;
  for (auto _ : state) {
    const auto& y = step(in[k]);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
    k = (k + 1) & 63U;
  }
}

template <class Step>
void run_arr(benchmark::State& state, Step&& step) {
  const auto& in = inputs().arr;
  std::size_t k = 0;
  for (auto _ : state) {
    const auto& y = step(in[k]);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
    k = (k + 1) & 63U;
  }
}

const Vec& zeros() {
  static const Vec z = Vec::Zero(kN);
  return z;
}
const Vec& other_vec() {
  static const Vec o = Vec::Constant(kN, 0.5);
  return o;
}
const Arr kOtherArr = [] {
  Arr a{};
  a.fill(0.5);
  return a;
}();

double max_abs_diff(const Arr& a, const Arr& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < kN; ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

// --- Integrators --------------------------------------------------------------------------

void Euler_filter(benchmark::State& s) {
  rf::EulerIntegrator<Vec> f(kT, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
void Euler_hand(benchmark::State& s) {
  Arr x{}, y{};
  run_arr(s, [&](const Arr& u) -> const Arr& {
    for (std::size_t i = 0; i < kN; ++i) {
      y[i] = x[i];
      x[i] += kT * u[i];
    }
    return y;
  });
}

void Trapezoid_filter(benchmark::State& s) {
  rf::TrapezoidIntegrator<Vec> f(kT, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
void Trapezoid_hand(benchmark::State& s) {
  Arr integral{}, prev{};
  bool primed = false;
  run_arr(s, [&](const Arr& u) -> const Arr& {
    if (primed) {
      for (std::size_t i = 0; i < kN; ++i) {
        integral[i] += 0.5 * kT * (prev[i] + u[i]);
        prev[i] = u[i];
      }
    } else {
      prev = u;
      primed = true;
    }
    return integral;
  });
}

void Simpson_filter(benchmark::State& s) {
  rf::SimpsonIntegrator<Vec> f(kT, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
void Simpson_hand(benchmark::State& s) {
  Arr even{}, y{}, u1{}, u2{};
  unsigned k = 0;
  run_arr(s, [&](const Arr& u) -> const Arr& {
    const Arr* out = &even;
    if (k == 1) {
      for (std::size_t i = 0; i < kN; ++i) y[i] = even[i] + 0.5 * kT * (u1[i] + u[i]);
      out = &y;
    } else if (k >= 2 && (k & 1U) == 0U) {
      for (std::size_t i = 0; i < kN; ++i) even[i] += kT / 3.0 * (u2[i] + 4.0 * u1[i] + u[i]);
    } else if (k >= 2) {
      for (std::size_t i = 0; i < kN; ++i)
        y[i] = even[i] + kT / 12.0 * (5.0 * u[i] + 8.0 * u1[i] - u2[i]);
      out = &y;
    }
    for (std::size_t i = 0; i < kN; ++i) {
      u2[i] = u1[i];
      u1[i] = u[i];
    }
    k = k < 2 ? k + 1 : k ^ 1U;
    return *out;
  });
}

// --- Differentiators ----------------------------------------------------------------------

void BackwardDifference_filter(benchmark::State& s) {
  rf::BackwardDifference<Vec> f(kT, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
void BackwardDifference_hand(benchmark::State& s) {
  Arr x{}, y{};
  const double inv_T = 1.0 / kT;
  run_arr(s, [&](const Arr& u) -> const Arr& {
    for (std::size_t i = 0; i < kN; ++i) {
      y[i] = inv_T * (u[i] - x[i]);
      x[i] = u[i];
    }
    return y;
  });
}

void LagDifferentiator_filter(benchmark::State& s) {
  rf::LagDifferentiator<Vec> f(kT, kTau, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
void LagDifferentiator_hand(benchmark::State& s) {
  Arr x{}, y{};
  const double inv_tau = 1.0 / kTau;
  run_arr(s, [&](const Arr& u) -> const Arr& {
    for (std::size_t i = 0; i < kN; ++i) {
      y[i] = inv_tau * (u[i] - x[i]);
      x[i] += kT * y[i];
    }
    return y;
  });
}

constexpr int kWindow = 9, kOrder = 3;

void FirDifferentiator_filter(benchmark::State& s) {
  rf::FirDifferentiator<Vec> f(kT, kWindow, kOrder, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
void FirDifferentiator_hand(benchmark::State& s) {
  std::vector<double> w = rf::polynomial_derivative_weights(kWindow, kOrder);
  for (double& wi : w) wi /= kT;
  std::array<Arr, kWindow - 1> hist{};
  std::size_t newest = 0;
  Arr y{};
  run_arr(s, [&](const Arr& u) -> const Arr& {
    for (std::size_t i = 0; i < kN; ++i) y[i] = w[0] * u[i];
    std::size_t j = newest;
    for (std::size_t h = 1; h < kWindow; ++h) {
      for (std::size_t i = 0; i < kN; ++i) y[i] += w[h] * hist[j][i];
      j = j == 0 ? kWindow - 2 : j - 1;
    }
    newest = newest + 1 == kWindow - 1 ? 0 : newest + 1;
    hist[newest] = u;
    return y;
  });
}

// --- First-order transients ---------------------------------------------------------------

void TransientLinear_filter(benchmark::State& s) {
  rf::TransientLinear<Vec> f(kT, kV, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
void TransientLinear_hand(benchmark::State& s) {
  Arr x{};
  run_arr(s, [&](const Arr& ur) -> const Arr& {
    const double m = max_abs_diff(ur, x);
    const double sc = m > kV * kT ? kV * kT / m : 1.0;
    for (std::size_t i = 0; i < kN; ++i) x[i] += sc * (ur[i] - x[i]);
    return x;
  });
}

void TransientExp_filter(benchmark::State& s) {
  rf::TransientExp<Vec> f(kT, kTau, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
void TransientExp_hand(benchmark::State& s) {
  Arr x{};
  const double a = kT / kTau;
  run_arr(s, [&](const Arr& ur) -> const Arr& {
    for (std::size_t i = 0; i < kN; ++i) x[i] += a * (ur[i] - x[i]);
    return x;
  });
}

/// The same loop with the arrays declared non-aliasing (a GCC extension honoured on
/// parameters), which lets GCC vectorise it at -O2 as Eigen does by construction: the
/// best a hand loop can do.
inline void exp_step(double* __restrict__ x, const double* __restrict__ ur, double a) {
  for (std::size_t i = 0; i < kN; ++i) x[i] += a * (ur[i] - x[i]);
}
void TransientExp_hand_restrict(benchmark::State& s) {
  Arr x{};
  const double a = kT / kTau;
  run_arr(s, [&](const Arr& ur) -> const Arr& {
    exp_step(x.data(), ur.data(), a);
    return x;
  });
}

void TransientExpLimited_filter(benchmark::State& s) {
  rf::TransientExpLimited<Vec> f(kT, kTau, kV, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
void TransientExpLimited_hand(benchmark::State& s) {
  Arr x{};
  const double a = kT / kTau;
  run_arr(s, [&](const Arr& ur) -> const Arr& {
    const double m = max_abs_diff(ur, x);
    const double sc = m * a > kV * kT ? kV * kT / m : a;
    for (std::size_t i = 0; i < kN; ++i) x[i] += sc * (ur[i] - x[i]);
    return x;
  });
}

// --- Fusion (u1 = constant 0.5, u2 = input) -------------------------------------------------
// τ is long so that the hand-over is in progress for the whole run.

void FusionLinear_filter(benchmark::State& s) {
  rf::FusionLinear<Vec> f(kT, 1e6, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(other_vec(), u); });
}
void FusionLinear_hand(benchmark::State& s) {
  Arr y{};
  double w = 1.0;
  const double rate = kT / 1e6;
  run_arr(s, [&](const Arr& u2) -> const Arr& {
    for (std::size_t i = 0; i < kN; ++i) y[i] = u2[i] + w * (kOtherArr[i] - u2[i]);
    w = std::max(0.0, w - rate);
    return y;
  });
}

void FusionExp_filter(benchmark::State& s) {
  rf::FusionExp<Vec> f(kT, 1e6, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(other_vec(), u); });
}
void FusionExp_hand(benchmark::State& s) {
  Arr y{};
  double w = 1.0;
  const double rate = kT / 1e6;
  run_arr(s, [&](const Arr& u2) -> const Arr& {
    for (std::size_t i = 0; i < kN; ++i) y[i] = u2[i] + w * (kOtherArr[i] - u2[i]);
    w *= 1.0 - rate;
    return y;
  });
}

void FusionExpLimited_filter(benchmark::State& s) {
  rf::FusionExpLimited<Vec> f(kT, 1e6, kV, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(other_vec(), u); });
}
void FusionExpLimited_hand(benchmark::State& s) {
  Arr y{};
  double w = 1.0;
  const double rate = kT / 1e6;
  run_arr(s, [&](const Arr& u2) -> const Arr& {
    for (std::size_t i = 0; i < kN; ++i) y[i] = u2[i] + w * (kOtherArr[i] - u2[i]);
    const double m = max_abs_diff(kOtherArr, u2);
    w -= m * w * rate > kV * kT ? kV * kT / m : w * rate;
    return y;
  });
}

// --- Second-order transients ------------------------------------------------------------

rf::SecondOrderParams second_order_params(bool bounded) {
  rf::SecondOrderParams p;
  if (bounded) {
    p.max_acceleration = 5.0;
    p.max_velocity = 1.0;
  }
  return p;
}

template <bool Bounded>
void SecondOrder_filter(benchmark::State& s) {
  rf::SecondOrderTransient<Vec> f(kT, second_order_params(Bounded), zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
template <bool Bounded>
void SecondOrder_hand(benchmark::State& s) {
  const rf::SecondOrderParams p = second_order_params(Bounded);
  Arr x{}, v{}, vd{};
  run_arr(s, [&](const Arr& xr) -> const Arr& {
    for (std::size_t i = 0; i < kN; ++i)
      vd[i] = v[i] + kT * (p.a0 * (xr[i] - x[i] - kT * v[i]) + p.a1 * (0.0 - v[i]));
    if (Bounded) {
      double m = 0.0;
      for (std::size_t i = 0; i < kN; ++i) m = std::max(m, std::abs(vd[i]));
      if (m > p.max_velocity)
        for (std::size_t i = 0; i < kN; ++i) vd[i] *= p.max_velocity / m;
      const double dm = max_abs_diff(vd, v);
      const double bound = p.max_acceleration * kT;
      if (dm > bound)
        for (std::size_t i = 0; i < kN; ++i) vd[i] = v[i] + bound / dm * (vd[i] - v[i]);
    }
    for (std::size_t i = 0; i < kN; ++i) {
      v[i] = vd[i];
      x[i] += kT * v[i];
    }
    return x;
  });
}

// --- Transfer function (second order: 3 + 3 coefficients) -----------------------------------

const std::vector<double> kB{0.0675, 0.135, 0.0675}, kA{1.0, -1.143, 0.413};

void TransferFunction_filter(benchmark::State& s) {
  rf::TransferFunction<Vec> f(kB, kA, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
void TransferFunction_hand(benchmark::State& s) {
  Arr u1{}, u2{}, y1{}, y2{}, y{};
  run_arr(s, [&](const Arr& u) -> const Arr& {
    for (std::size_t i = 0; i < kN; ++i) {
      y[i] = kB[0] * u[i] + kB[1] * u1[i] + kB[2] * u2[i] - kA[1] * y1[i] - kA[2] * y2[i];
      u2[i] = u1[i];
      u1[i] = u[i];
      y2[i] = y1[i];
      y1[i] = y[i];
    }
    return y;
  });
}

// --- Hysteresis ---------------------------------------------------------------------------

void Hysteresis_filter(benchmark::State& s) {
  rf::Hysteresis<Vec> f(0.5, -0.5, zeros());
  run_vec(s, [&](const Vec& u) -> const Vec& { return f.update(u); });
}
void Hysteresis_hand(benchmark::State& s) {
  Arr x{};
  run_arr(s, [&](const Arr& u) -> const Arr& {
    for (std::size_t i = 0; i < kN; ++i) x[i] = u[i] >= 0.5 ? 1.0 : (u[i] <= -0.5 ? 0.0 : x[i]);
    return x;
  });
}

// --- Extras -------------------------------------------------------------------------------

/// The same exponential transient on a fixed-size Eigen vector: no size checks, no heap.
void TransientExp_fixed32(benchmark::State& s) {
  using V32 = Eigen::Matrix<double, 32, 1>;
  std::vector<V32> in;
  for (const Vec& v : inputs().vec) in.emplace_back(v);
  rf::TransientExp<V32> f(kT, kTau, V32::Zero());
  std::size_t k = 0;
  for (auto _ : s) {
    benchmark::DoNotOptimize(f.update(in[k]).data());
    benchmark::ClobberMemory();
    k = (k + 1) & 63U;
  }
}

/// The type-erased filter of the registry (virtual call + size check).
void TransientExp_registry(benchmark::State& s) {
  const auto f = rf::make_array_filter("exponential", kN, {{"T", kT}, {"tau", kTau}});
  run_vec(s, [&](const Vec& u) -> const Vec& {
    benchmark::DoNotOptimize(f->update(u));
    return f->y();
  });
}

void SimpsonQuaternion_filter(benchmark::State& s) {
  rf::SimpsonIntegrator<Eigen::Quaterniond> f(kT);
  const auto& in = inputs().vec;
  std::size_t k = 0;
  for (auto _ : s) {
    const Eigen::Vector3d w = in[k].head<3>();
    benchmark::DoNotOptimize(f.update(w).coeffs().data());
    benchmark::ClobberMemory();
    k = (k + 1) & 63U;
  }
}

void TransientExpLimitedFrame_filter(benchmark::State& s) {
  rf::TransientExpLimited<KDL::Frame> f(kT, kTau, rf::LinearAngular{1.0, 1.0});
  const auto& in = inputs().vec;
  std::size_t k = 0;
  for (auto _ : s) {
    const KDL::Frame ref(KDL::Rotation::RPY(in[k][0], in[k][1], in[k][2]),
                         KDL::Vector(in[k][3], in[k][4], in[k][5]));
    benchmark::DoNotOptimize(f.update(ref).p.data);
    benchmark::ClobberMemory();
    k = (k + 1) & 63U;
  }
}

}  // namespace

BENCHMARK(Euler_filter)->Name("Euler/filter");
BENCHMARK(Euler_hand)->Name("Euler/hand");
BENCHMARK(Trapezoid_filter)->Name("Trapezoid/filter");
BENCHMARK(Trapezoid_hand)->Name("Trapezoid/hand");
BENCHMARK(Simpson_filter)->Name("Simpson/filter");
BENCHMARK(Simpson_hand)->Name("Simpson/hand");
BENCHMARK(BackwardDifference_filter)->Name("BackwardDifference/filter");
BENCHMARK(BackwardDifference_hand)->Name("BackwardDifference/hand");
BENCHMARK(LagDifferentiator_filter)->Name("LagDifferentiator/filter");
BENCHMARK(LagDifferentiator_hand)->Name("LagDifferentiator/hand");
BENCHMARK(FirDifferentiator_filter)->Name("FirDifferentiator_w9_o3/filter");
BENCHMARK(FirDifferentiator_hand)->Name("FirDifferentiator_w9_o3/hand");
BENCHMARK(TransientLinear_filter)->Name("TransientLinear/filter");
BENCHMARK(TransientLinear_hand)->Name("TransientLinear/hand");
BENCHMARK(TransientExp_filter)->Name("TransientExp/filter");
BENCHMARK(TransientExp_hand)->Name("TransientExp/hand");
BENCHMARK(TransientExp_hand_restrict)->Name("TransientExp/hand_restrict");
BENCHMARK(TransientExpLimited_filter)->Name("TransientExpLimited/filter");
BENCHMARK(TransientExpLimited_hand)->Name("TransientExpLimited/hand");
BENCHMARK(FusionLinear_filter)->Name("FusionLinear/filter");
BENCHMARK(FusionLinear_hand)->Name("FusionLinear/hand");
BENCHMARK(FusionExp_filter)->Name("FusionExp/filter");
BENCHMARK(FusionExp_hand)->Name("FusionExp/hand");
BENCHMARK(FusionExpLimited_filter)->Name("FusionExpLimited/filter");
BENCHMARK(FusionExpLimited_hand)->Name("FusionExpLimited/hand");
BENCHMARK(SecondOrder_filter<false>)->Name("SecondOrder/filter");
BENCHMARK(SecondOrder_hand<false>)->Name("SecondOrder/hand");
BENCHMARK(SecondOrder_filter<true>)->Name("SecondOrderAccVel/filter");
BENCHMARK(SecondOrder_hand<true>)->Name("SecondOrderAccVel/hand");
BENCHMARK(TransferFunction_filter)->Name("TransferFunction_2nd/filter");
BENCHMARK(TransferFunction_hand)->Name("TransferFunction_2nd/hand");
BENCHMARK(Hysteresis_filter)->Name("Hysteresis/filter");
BENCHMARK(Hysteresis_hand)->Name("Hysteresis/hand");
BENCHMARK(TransientExp_fixed32)->Name("TransientExp/filter_fixed32");
BENCHMARK(TransientExp_registry)->Name("TransientExp/registry");
BENCHMARK(SimpsonQuaternion_filter)->Name("SimpsonQuaternion/filter");
BENCHMARK(TransientExpLimitedFrame_filter)->Name("TransientExpLimitedFrame/filter");

BENCHMARK_MAIN();
