// Integrators against analytic integrals: exactness on the polynomials each rule
// integrates exactly, error bounds and convergence orders on a sine, and the Poisson
// equation for orientations against closed forms and a fine RK4 reference.

#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <gtest/gtest.h>
#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>

#include "rmodel/base/error.hpp"
#include "rmodel/filters/integrators.hpp"

namespace rf = rmodel::filters;

namespace {

constexpr double kPi = std::numbers::pi;

/// Largest |y[k] − truth(t_k)| over k = first..n, feeding u(t_k) at every step.
template <class F>
double max_error(F& f, double T, int n, const std::function<double(double)>& u,
                 const std::function<double(double)>& truth, int first = 0) {
  double worst = 0.0;
  for (int k = 0; k <= n; ++k) {
    const double t = k * T;
    const double y = f.update(u(t));
    if (k >= first) worst = std::max(worst, std::abs(y - truth(t)));
  }
  return worst;
}

/// Angle (rad) between two orientations.
double angle_between(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return a.angularDistance(b);
}

/// q' = ½ ω(t) ⊗ q (ω in the reference frame) by classic RK4 with a fine step.
Eigen::Quaterniond rk4_reference(const std::function<Eigen::Vector3d(double)>& omega,
                                 Eigen::Quaterniond q, double t_end, double h) {
  auto f = [&](double t, const Eigen::Vector4d& c) {
    const Eigen::Quaterniond qq(c[3], c[0], c[1], c[2]);
    const Eigen::Vector3d w = omega(t);
    const Eigen::Quaterniond wq(0.0, w.x(), w.y(), w.z());
    return Eigen::Vector4d(0.5 * (wq * qq).coeffs());
  };
  Eigen::Vector4d c = q.coeffs();
  const int steps = static_cast<int>(std::lround(t_end / h));
  for (int i = 0; i < steps; ++i) {
    const double t = i * h;
    const Eigen::Vector4d k1 = f(t, c);
    const Eigen::Vector4d k2 = f(t + h / 2, c + h / 2 * k1);
    const Eigen::Vector4d k3 = f(t + h / 2, c + h / 2 * k2);
    const Eigen::Vector4d k4 = f(t + h, c + h * k3);
    c += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return Eigen::Quaterniond(c[3], c[0], c[1], c[2]).normalized();
}

}  // namespace

TEST(FilterIntegrators, EulerIntegratesConstantExactly) {
  const double T = 0.01;
  rf::EulerIntegrator<double> f(T, 2.0);
  for (int k = 0; k < 500; ++k) {
    // Euler outputs the integral up to t_k from samples before t_k.
    EXPECT_NEAR(f.update(3.0), 2.0 + 3.0 * k * T, 1e-12) << "k=" << k;
  }
}

TEST(FilterIntegrators, TrapezoidIntegratesRampExactly) {
  const double T = 0.02;
  rf::TrapezoidIntegrator<double> f(T, 1.0);
  const double err =
      max_error(f, T, 400, [](double t) { return 0.5 - 2.0 * t; },
                [](double t) { return 1.0 + 0.5 * t - t * t; });
  EXPECT_LT(err, 1e-12);
}

TEST(FilterIntegrators, SimpsonExactForQuadraticsAndForCubicsAtEvenSamples) {
  const double T = 0.05;
  auto quad = [](double t) { return 1.0 - 3.0 * t + 2.0 * t * t; };
  auto quad_int = [](double t) { return t - 1.5 * t * t + 2.0 / 3.0 * t * t * t; };
  rf::SimpsonIntegrator<double> fq(T);
  // Sample 1 is a trapezoid (only two samples exist); from sample 2 on the rule is exact.
  EXPECT_LT(max_error(fq, T, 200, quad, quad_int, 2), 1e-11);

  auto cubic = [](double t) { return 0.5 + t - 2.0 * t * t + 4.0 * t * t * t; };
  auto cubic_int = [](double t) {
    return 0.5 * t + 0.5 * t * t - 2.0 / 3.0 * t * t * t + t * t * t * t;
  };
  rf::SimpsonIntegrator<double> fc(T);
  for (int k = 0; k <= 200; ++k) {
    const double t = k * T;
    const double y = fc.update(cubic(t));
    if (k % 2 == 0) {
      EXPECT_NEAR(y, cubic_int(t), 1e-10) << "k=" << k;
    }
  }
}

TEST(FilterIntegrators, SineErrorBoundsAndOrders) {
  // ∫ cos = sin over one period; error bounds from each rule's error term
  // (Euler T/2·|Δu|·2, trapezoid T²/12·t·max|u''|, Simpson T⁴/180·t·max|u⁗| + one
  // parabola step T⁴/24·max|u'''|), and the error ratio when T halves shows the order.
  auto u = [](double t) { return std::cos(t); };
  auto truth = [](double t) { return std::sin(t); };
  const double t_end = 2.0 * kPi;
  std::vector<double> e_euler, e_trap, e_simp;
  for (double T : {2.0 * kPi / 400.0, 2.0 * kPi / 800.0}) {
    const int n = static_cast<int>(std::lround(t_end / T));
    rf::EulerIntegrator<double> fe(T);
    rf::TrapezoidIntegrator<double> ft(T);
    rf::SimpsonIntegrator<double> fs(T);
    e_euler.push_back(max_error(fe, T, n, u, truth));
    e_trap.push_back(max_error(ft, T, n, u, truth));
    e_simp.push_back(max_error(fs, T, n, u, truth, 2));
    // Euler–Maclaurin: the left-rectangle error is T/2·(u(0) − u(t)) + O(T⁴), T at t = π.
    EXPECT_LT(e_euler.back(), 1.01 * T) << "T=" << T;
    EXPECT_LT(e_trap.back(), T * T / 12.0 * t_end) << "T=" << T;
    EXPECT_LT(e_simp.back(), std::pow(T, 4) * (t_end / 180.0 + 1.0 / 24.0)) << "T=" << T;
  }
  EXPECT_NEAR(e_euler[0] / e_euler[1], 2.0, 0.2);
  EXPECT_NEAR(e_trap[0] / e_trap[1], 4.0, 0.4);
  EXPECT_GT(e_simp[0] / e_simp[1], 12.0);
  EXPECT_LT(e_simp[0] / e_simp[1], 20.0);
}

TEST(FilterIntegrators, JointArraysIntegrateEachJointLikeAScalar) {
  const double T = 0.01;
  const Eigen::Index n = 5;
  Eigen::VectorXd x0 = Eigen::VectorXd::LinSpaced(n, -1.0, 1.0);
  rf::SimpsonIntegrator<Eigen::VectorXd> fv(T, x0);
  std::vector<rf::SimpsonIntegrator<double>> fs;
  for (Eigen::Index i = 0; i < n; ++i) fs.emplace_back(T, x0[i]);
  Eigen::VectorXd u(n);
  for (int k = 0; k < 100; ++k) {
    for (Eigen::Index i = 0; i < n; ++i) u[i] = std::sin(0.1 * k + static_cast<double>(i));
    const Eigen::VectorXd& y = fv.update(u);
    for (Eigen::Index i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(y[i], fs[i].update(u[i]));
  }
}

TEST(FilterIntegrators, AcceptsKdlJntArray) {
  const double T = 0.01;
  KDL::JntArray x0(3), u(3);
  x0.data << 1.0, 2.0, 3.0;
  u.data << 0.5, -1.0, 2.0;
  rf::TrapezoidIntegrator<KDL::JntArray> fk(T, x0);
  rf::TrapezoidIntegrator<Eigen::VectorXd> fe(T, x0.data);
  for (int k = 0; k < 50; ++k) {
    const KDL::JntArray& yk = fk.update(u);
    const Eigen::VectorXd& ye = fe.update(u.data);
    EXPECT_EQ(yk.data, ye);
  }
  EXPECT_NEAR(fk.state()(2), 3.0 + 2.0 * 49 * T, 1e-12);
}

TEST(FilterIntegrators, OutputDoesNotAdvanceAndUpdateWithoutArgumentUsesLastInput) {
  const double T = 0.1;
  rf::SimpsonIntegrator<double> a(T), b(T);
  for (int k = 0; k < 20; ++k) {
    const double u = std::cos(0.3 * k);
    const double y1 = a.output(u);
    const double y2 = a.output(u);
    EXPECT_EQ(y1, y2);
    a.update();
    EXPECT_EQ(y1, b.update(u)) << "k=" << k;
  }
  a.update();  // no output since the last update: nothing happens
  EXPECT_EQ(a.output(1.0), b.output(1.0));
}

TEST(FilterIntegrators, StartResetsToInitialValue) {
  rf::EulerIntegrator<double> f(0.1, 1.0);
  for (int k = 0; k < 10; ++k) (void)f.update(1.0);
  EXPECT_NEAR(f.state(), 2.0, 1e-12);
  f.start();
  EXPECT_EQ(f.state(), 1.0);
  f.start(-4.0);
  EXPECT_EQ(f.update(1.0), -4.0);
  EXPECT_NEAR(f.state(), -3.9, 1e-12);
}

TEST(FilterIntegrators, QuaternionConstantAngularVelocityIsExactAndUnit) {
  const double T = 0.01;
  const Eigen::Vector3d w(0.3, -1.2, 2.0);  // rad/s, reference frame
  const Eigen::Quaterniond q0 =
      Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
  rf::EulerIntegrator<Eigen::Quaterniond> fe(T, q0);
  rf::TrapezoidIntegrator<Eigen::Quaterniond> ft(T, q0);
  rf::SimpsonIntegrator<Eigen::Quaterniond> fs(T, q0);
  for (int k = 0; k <= 1000; ++k) {
    const double t = k * T;
    const Eigen::Quaterniond truth =
        Eigen::Quaterniond(Eigen::AngleAxisd(w.norm() * t, w.normalized())) * q0;
    const Eigen::Quaterniond& ye = fe.update(w);
    const Eigen::Quaterniond& yt = ft.update(w);
    const Eigen::Quaterniond& ys = fs.update(w);
    ASSERT_LT(angle_between(ye, truth), 1e-11) << "k=" << k;
    ASSERT_LT(angle_between(yt, truth), 1e-11) << "k=" << k;
    ASSERT_LT(angle_between(ys, truth), 1e-11) << "k=" << k;
    ASSERT_NEAR(ye.norm(), 1.0, 1e-14);
    ASSERT_NEAR(yt.norm(), 1.0, 1e-14);
    ASSERT_NEAR(ys.norm(), 1.0, 1e-14);
  }
}

TEST(FilterIntegrators, QuaternionTurningAxisConvergesWithTheRuleOrder) {
  // A rotation axis that turns: the rotations at different times do not commute, so only
  // the Magnus terms keep the trapezoid and Simpson rules at their orders.
  auto omega = [](double t) {
    return Eigen::Vector3d(std::cos(0.9 * t), std::sin(0.9 * t), 0.4 + 0.2 * std::sin(t));
  };
  const Eigen::Quaterniond q0 = Eigen::Quaterniond::Identity();
  const double t_end = 4.0;
  const Eigen::Quaterniond truth = rk4_reference(omega, q0, t_end, 1e-4);
  std::vector<double> ee, et, es;
  for (double T : {0.04, 0.02}) {
    rf::EulerIntegrator<Eigen::Quaterniond> fe(T, q0);
    rf::TrapezoidIntegrator<Eigen::Quaterniond> ft(T, q0);
    rf::SimpsonIntegrator<Eigen::Quaterniond> fs(T, q0);
    const int n = static_cast<int>(std::lround(t_end / T));
    Eigen::Quaterniond ye, yt, ys;
    for (int k = 0; k <= n; ++k) {
      ye = fe.update(omega(k * T));
      yt = ft.update(omega(k * T));
      ys = fs.update(omega(k * T));
      ASSERT_NEAR(ys.norm(), 1.0, 1e-14);
    }
    ee.push_back(angle_between(ye, truth));
    et.push_back(angle_between(yt, truth));
    es.push_back(angle_between(ys, truth));
  }
  EXPECT_NEAR(ee[0] / ee[1], 2.0, 0.3);
  EXPECT_NEAR(et[0] / et[1], 4.0, 0.6);
  EXPECT_GT(es[0] / es[1], 12.0);
  EXPECT_LT(es[1], 1e-7);
}

TEST(FilterIntegrators, KdlRotationAndFrameFollowConstantTwist) {
  const double T = 0.005;
  const KDL::Vector w(0.0, 0.0, 1.5), vel(0.2, -0.1, 0.05);
  rf::TrapezoidIntegrator<KDL::Rotation> fr(T, KDL::Rotation::RPY(0.1, 0.2, 0.3));
  rf::SimpsonIntegrator<KDL::Frame> ff(
      T, KDL::Frame(KDL::Rotation::RPY(0.1, 0.2, 0.3), KDL::Vector(1, 2, 3)));
  KDL::Rotation r;
  KDL::Frame fr_out;
  const int n = 2000;
  for (int k = 0; k <= n; ++k) {
    r = fr.update(w);
    fr_out = ff.update(KDL::Twist(vel, w));
  }
  const double t = n * T;
  const KDL::Rotation truth = KDL::Rotation::RotZ(1.5 * t) * KDL::Rotation::RPY(0.1, 0.2, 0.3);
  EXPECT_TRUE(KDL::Equal(r, truth, 1e-10));
  EXPECT_TRUE(KDL::Equal(fr_out.M, truth, 1e-10));
  EXPECT_TRUE(KDL::Equal(fr_out.p, KDL::Vector(1, 2, 3) + vel * t, 1e-10));
  // Orthonormal to rounding after thousands of steps.
  Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> m(r.data);
  EXPECT_LT((m * m.transpose() - Eigen::Matrix3d::Identity()).norm(), 1e-14);
}

TEST(FilterIntegrators, RejectsNonPositivePeriod) {
  for (double T : {0.0, -0.01, std::nan(""), std::numeric_limits<double>::infinity()}) {
    EXPECT_THROW((void)rf::EulerIntegrator<double>(T), rmodel::InvalidArgument) << T;
    EXPECT_THROW((void)rf::TrapezoidIntegrator<double>(T), rmodel::InvalidArgument) << T;
    EXPECT_THROW((void)rf::SimpsonIntegrator<double>(T), rmodel::InvalidArgument) << T;
  }
  try {
    rf::EulerIntegrator<double> f(-0.5);
    FAIL();
  } catch (const rmodel::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("T must be"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("-0.5"), std::string::npos) << e.what();
  }
}
