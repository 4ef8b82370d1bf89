// The runtime registry: catalogue contents, parameter resolution and its errors, and
// type-erased filters behaving like the templates they wrap.

#include <cmath>
#include <set>
#include <string>

#include <Eigen/Core>
#include <gtest/gtest.h>

#include "rmodel/base/error.hpp"
#include "rmodel/filters.hpp"

namespace rf = rmodel::filters;

TEST(FilterRegistry, CatalogueHasStableUniqueDocumentedKinds) {
  const auto& kinds = rf::filter_kinds();
  std::set<std::string> names;
  for (const rf::FilterKind& k : kinds) {
    EXPECT_TRUE(names.insert(k.name).second) << "duplicate " << k.name;
    EXPECT_FALSE(k.family.empty()) << k.name;
    EXPECT_FALSE(k.description.empty()) << k.name;
    EXPECT_FALSE(k.initial_state.empty()) << k.name;
    std::set<std::string> params;
    for (const rf::ParamInfo& p : k.params) {
      EXPECT_TRUE(params.insert(p.name).second) << k.name << " duplicate param " << p.name;
      EXPECT_FALSE(p.unit.empty()) << k.name << "." << p.name;
      EXPECT_FALSE(p.description.empty()) << k.name << "." << p.name;
      EXPECT_EQ(k.find_param(p.name), &p);
    }
    EXPECT_EQ(k.find_param("no_such_param"), nullptr);
  }
  for (const char* expected :
       {"euler", "trapezoid", "simpson", "diff", "lag_diff", "fir_diff", "linear", "exponential",
        "exp_limited", "fusion_linear", "fusion_exp", "fusion_exp_limited", "second_order",
        "second_order_acc", "second_order_acc_vel", "transfer_function", "hysteresis"}) {
    EXPECT_TRUE(names.contains(expected)) << expected;
    EXPECT_EQ(rf::filter_kind(expected).name, expected);
  }
}

TEST(FilterRegistry, UnknownKindNamesTheValidOnes) {
  try {
    (void)rf::make_array_filter("expo", 3);
    FAIL();
  } catch (const rmodel::InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'expo'"), std::string::npos) << what;
    EXPECT_NE(what.find("exponential"), std::string::npos) << what;
    EXPECT_NE(what.find("hysteresis"), std::string::npos) << what;
  }
}

TEST(FilterRegistry, UnknownParameterNamesItAndTheValidOnes) {
  try {
    (void)rf::make_array_filter("exponential", 3, {{"T", 0.01}, {"tua", 0.1}});
    FAIL();
  } catch (const rmodel::InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'tua'"), std::string::npos) << what;
    EXPECT_NE(what.find("T, tau"), std::string::npos) << what;
  }
}

TEST(FilterRegistry, InvalidValuesAreRejectedWithTheParameterName) {
  EXPECT_THROW((void)rf::make_array_filter("fir_diff", 2, {{"window", 4.5}}),
               rmodel::InvalidArgument);
  EXPECT_THROW((void)rf::make_array_filter("second_order", 2, {{"ff", 2.0}}),
               rmodel::InvalidArgument);
  EXPECT_THROW((void)rf::make_array_filter("exponential", -1), rmodel::InvalidArgument);
  try {
    (void)rf::make_array_filter("exponential", 2, {{"T", -0.01}});
    FAIL();
  } catch (const rmodel::InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("T must be"), std::string::npos) << what;
    EXPECT_NE(what.find("-0.01"), std::string::npos) << what;
  }
}

TEST(FilterRegistry, DefaultsAreResolved) {
  const auto f = rf::make_array_filter("exp_limited", 4, {{"tau", 0.5}});
  EXPECT_EQ(f->kind().name, "exp_limited");
  EXPECT_EQ(f->size(), 4);
  EXPECT_EQ(f->params().at("tau"), 0.5);
  EXPECT_EQ(f->params().at("T"), rf::filter_kind("exp_limited").find_param("T")->default_value);
  EXPECT_EQ(f->params().size(), 3U);
}

TEST(FilterRegistry, EveryKindRunsWithDefaults) {
  for (const rf::FilterKind& k : rf::filter_kinds()) {
    const auto f = rf::make_array_filter(k.name, 5);
    Eigen::VectorXd u(5);
    for (int i = 0; i < 100; ++i) {
      u = Eigen::VectorXd::LinSpaced(5, -1.0, 1.0) * std::sin(0.05 * i);
      ASSERT_TRUE(f->update(u)) << k.name;
      ASSERT_TRUE(f->y().allFinite()) << k.name;
      ASSERT_EQ(f->y().size(), 5) << k.name;
    }
  }
}

TEST(FilterRegistry, ExponentialMatchesTemplateAfterStartingFromFirstInput) {
  const double T = 0.02, tau = 0.1;
  const auto f = rf::make_array_filter("exponential", 2, {{"T", T}, {"tau", tau}});
  Eigen::VectorXd u0(2), u1(2);
  u0 << 1.0, -1.0;
  u1 << 2.0, 3.0;
  ASSERT_TRUE(f->update(u0));
  EXPECT_EQ(f->y(), u0);  // started from the first input: no transient
  rf::TransientExp<Eigen::VectorXd> t(T, tau, u0);
  for (int k = 0; k < 30; ++k) {
    ASSERT_TRUE(f->update(u1));
    EXPECT_EQ(f->y(), t.update(u1));
  }
  // start(x0) sets the state explicitly, and start() then returns to it.
  f->start(Eigen::VectorXd::Zero(2));
  ASSERT_TRUE(f->update(u1));
  EXPECT_LT((f->y() - (T / tau) * u1).norm(), 1e-15);
  f->start();
  ASSERT_TRUE(f->update(u1));
  EXPECT_LT((f->y() - (T / tau) * u1).norm(), 1e-15);
}

TEST(FilterRegistry, NaturalStartsPerFamily) {
  Eigen::VectorXd u(2);
  u << 3.0, -4.0;
  const auto diff = rf::make_array_filter("diff", 2);
  ASSERT_TRUE(diff->update(u));
  EXPECT_EQ(diff->y(), Eigen::VectorXd::Zero(2));  // no spike on the first sample
  const auto euler = rf::make_array_filter("euler", 2, {{"T", 0.5}});
  ASSERT_TRUE(euler->update(u));
  EXPECT_EQ(euler->y(), Eigen::VectorXd::Zero(2));  // integral from 0
  ASSERT_TRUE(euler->update(u));
  EXPECT_EQ(euler->y(), 0.5 * u);
  const auto fusion = rf::make_array_filter("fusion_linear", 2, {{"T", 0.1}, {"tau", 0.2}});
  ASSERT_TRUE(fusion->update(u));  // holds u
  ASSERT_TRUE(fusion->update(Eigen::VectorXd::Zero(2)));
  EXPECT_LT((fusion->y() - 0.5 * u).norm(), 1e-15);
  ASSERT_TRUE(fusion->update(Eigen::VectorXd::Zero(2)));
  EXPECT_EQ(fusion->y(), Eigen::VectorXd::Zero(2));
  const auto hyst = rf::make_array_filter("hysteresis", 2, {{"on", 1.0}, {"off", 0.0}});
  ASSERT_TRUE(hyst->update(Eigen::Vector2d(0.5, 1.5)));
  EXPECT_EQ(hyst->y(), Eigen::Vector2d(0.0, 1.0));
}

TEST(FilterRegistry, SecondOrderFeedForwardTracksRamps) {
  const double T = 0.01;
  const auto ff = rf::make_array_filter("second_order", 1, {{"T", T}, {"ff", 1.0}});
  const auto no_ff = rf::make_array_filter("second_order", 1, {{"T", T}});
  Eigen::VectorXd u(1);
  for (int k = 0; k < 1000; ++k) {
    u[0] = 0.5 * k * T;
    ASSERT_TRUE(ff->update(u));
    ASSERT_TRUE(no_ff->update(u));
  }
  EXPECT_NEAR(ff->y()[0], u[0], 1e-9);
  EXPECT_GT(std::abs(no_ff->y()[0] - u[0]), 1e-3);  // the plain law lags a ramp
}

TEST(FilterRegistry, WrongSizesAreErrorValuesInTheHotPathAndThrowAtStart) {
  const auto f = rf::make_array_filter("lag_diff", 3);
  EXPECT_FALSE(f->update(Eigen::VectorXd::Zero(2)));
  EXPECT_FALSE(f->output(Eigen::VectorXd::Zero(4)));
  EXPECT_EQ(f->y(), Eigen::VectorXd::Zero(3));
  EXPECT_THROW(f->start(Eigen::VectorXd::Zero(2)), rmodel::SizeMismatch);
  EXPECT_TRUE(f->update(Eigen::VectorXd::Ones(3)));
}

TEST(FilterRegistry, OutputThenUpdateEqualsUpdate) {
  for (const char* kind : {"simpson", "fir_diff", "exp_limited", "fusion_exp_limited",
                           "second_order_acc_vel", "transfer_function", "hysteresis"}) {
    const auto a = rf::make_array_filter(kind, 3, {});
    const auto b = rf::make_array_filter(kind, 3, {});
    for (int k = 0; k < 50; ++k) {
      const Eigen::VectorXd u = Eigen::Vector3d(1.0, -2.0, 0.5) * std::cos(0.1 * k);
      ASSERT_TRUE(a->output(u));
      const Eigen::VectorXd ya = a->y();
      a->update();
      ASSERT_TRUE(b->update(u));
      EXPECT_EQ(ya, b->y()) << kind << " k=" << k;
    }
  }
}

TEST(FilterRegistry, TransferFunctionCoefficientsFromParameters) {
  const auto f = rf::make_array_filter("transfer_function", 1,
                                       {{"b0", 0.5}, {"b1", 0.5}, {"a0", 1.0}, {"a1", -0.2}});
  rf::TransferFunction<double> t({0.5, 0.5}, {1.0, -0.2}, 1.0);
  Eigen::VectorXd u(1);
  for (int k = 0; k < 20; ++k) {
    u[0] = k == 0 ? 1.0 : std::sin(0.3 * k);
    ASSERT_TRUE(f->update(u));
    EXPECT_NEAR(f->y()[0], t.update(u[0]), 1e-15) << k;
  }
}
