// StreamFilter (per-joint filtering of partial joint states) and step_response, against the
// exponential recursion y[k] = y[k-1] + T/tau*(u[k] - y[k-1]) computed here.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>

#include "alloc_counter.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/stream/stream_filter.hpp"

namespace rf = rmodel::filters;

namespace {

rmodel::JointState state(std::vector<std::string> names, std::vector<double> position) {
  rmodel::JointState s;
  s.name = std::move(names);
  s.position = std::move(position);
  return s;
}

/// Independent truth: the exponential recursion per joint, started at the first value.
struct Recursion {
  double a;
  std::map<std::string, double> y;
  double step(const std::string& name, double u) {
    auto it = y.find(name);
    if (it == y.end()) return y[name] = u;
    return it->second += a * (u - it->second);
  }
};

TEST(StreamFilter, ExponentialPerJointOnPartialMessages) {
  rf::StreamFilter filter("exponential", {{"T", 0.01}, {"tau", 0.05}});
  Recursion truth{0.01 / 0.05, {}};
  for (int k = 0; k < 60; ++k) {
    // a in every message, b every other, c every third, in varying order.
    std::vector<std::string> names{"a"};
    if (k % 2 == 0) names.insert(names.begin(), "b");
    if (k % 3 == 0) names.push_back("c");
    std::vector<double> pos;
    for (std::size_t i = 0; i < names.size(); ++i) pos.push_back(std::sin(0.1 * k + static_cast<double>(names[i][0])));
    auto s = state(names, pos);
    s.velocity.assign(names.size(), 7.0);
    ASSERT_EQ(filter.apply(s), rf::StreamFilterStatus::filtered);
    for (std::size_t i = 0; i < names.size(); ++i) {
      EXPECT_NEAR(s.position[i], truth.step(names[i], pos[i]), 1e-12) << names[i] << " k=" << k;
      EXPECT_EQ(s.velocity[i], 7.0);
    }
  }
  EXPECT_EQ(filter.filtered_joints(), (std::vector<std::string>{"b", "a", "c"}));
}

TEST(StreamFilter, UnselectedJointsPassThrough) {
  rf::StreamFilter filter("exponential", {{"tau", 0.02}}, rf::JointField::position, {"a"});
  auto s1 = state({"a", "b"}, {0.0, 0.0});
  ASSERT_EQ(filter.apply(s1), rf::StreamFilterStatus::filtered);
  auto s2 = state({"a", "b"}, {1.0, 1.0});
  ASSERT_EQ(filter.apply(s2), rf::StreamFilterStatus::filtered);
  EXPECT_DOUBLE_EQ(s2.position[0], 0.5);  // T/tau = 0.01/0.02
  EXPECT_EQ(s2.position[1], 1.0);
  EXPECT_TRUE(filter.selected("a"));
  EXPECT_FALSE(filter.selected("b"));
}

TEST(StreamFilter, OtherFieldsAbsentSizesAndNonFinite) {
  rf::StreamFilter filter("exponential", {{"tau", 0.02}}, rf::JointField::velocity);
  auto no_velocity = state({"a"}, {3.0});
  EXPECT_EQ(filter.apply(no_velocity), rf::StreamFilterStatus::absent);
  auto bad = state({"a", "b"}, {});
  bad.velocity = {1.0};
  EXPECT_EQ(filter.apply(bad), rf::StreamFilterStatus::size_mismatch);
  EXPECT_EQ(bad.velocity[0], 1.0);

  auto s = state({"a"}, {});
  s.velocity = {0.0};
  ASSERT_EQ(filter.apply(s), rf::StreamFilterStatus::filtered);
  s.velocity = {std::numeric_limits<double>::quiet_NaN()};
  ASSERT_EQ(filter.apply(s), rf::StreamFilterStatus::filtered);
  EXPECT_TRUE(std::isnan(s.velocity[0]));  // passed through, filter not advanced
  s.velocity = {1.0};
  ASSERT_EQ(filter.apply(s), rf::StreamFilterStatus::filtered);
  EXPECT_DOUBLE_EQ(s.velocity[0], 0.5);
}

TEST(StreamFilter, NoAllocationOnceJointsAreKnown) {
  rf::StreamFilter filter("second_order", {});
  filter.add_joints({"a", "b", "c"});
  auto s = state({"c", "a", "b"}, {0.1, 0.2, 0.3});
  ASSERT_EQ(filter.apply(s), rf::StreamFilterStatus::filtered);
  rmodel::test::AllocationCounter counter;
  for (int k = 0; k < 100; ++k) {
    s.position = {0.1 * k, 0.2, 0.3};  // assignment within capacity
    (void)filter.apply(s);
  }
  EXPECT_EQ(counter.count(), 0U);
}

TEST(StreamFilter, InvalidArgumentsThrow) {
  EXPECT_THROW(rf::StreamFilter("nope", {}), rmodel::InvalidArgument);
  EXPECT_THROW(rf::StreamFilter("exponential", {{"omega", 1.0}}), rmodel::InvalidArgument);
  EXPECT_THROW(rf::StreamFilter("exponential", {{"tau", 0.001}}), rmodel::InvalidArgument);  // tau < T
  rf::FilterParams p;
  rf::parse_param_assignment("tau=0.25", p);
  rf::parse_param_assignment("v=inf", p);
  EXPECT_EQ(p.at("tau"), 0.25);
  EXPECT_TRUE(std::isinf(p.at("v")));
  EXPECT_THROW(rf::parse_param_assignment("tau", p), rmodel::InvalidArgument);
  EXPECT_THROW(rf::parse_param_assignment("=1", p), rmodel::InvalidArgument);
  EXPECT_THROW(rf::parse_param_assignment("tau=0.1s", p), rmodel::InvalidArgument);
  EXPECT_EQ(rf::parse_joint_field("effort"), rf::JointField::effort);
  EXPECT_THROW((void)rf::parse_joint_field("torque"), rmodel::InvalidArgument);
}

TEST(StepResponse, ExponentialMatchesClosedForm) {
  const double T = 0.01, tau = 0.1;
  const auto r = rf::step_response("exponential", {{"T", T}, {"tau", tau}}, 0.0, 3);
  // Default duration 5 tau: samples from -3T to 0.5 s.
  ASSERT_EQ(r.size(), 3U + 51U);
  for (std::size_t i = 0; i < r.size(); ++i) {
    const int k = static_cast<int>(i) - 3;
    EXPECT_NEAR(r[i].t, k * T, 1e-12);
    EXPECT_EQ(r[i].u, k < 0 ? 0.0 : 1.0);
    const double expected = k < 0 ? 0.0 : 1.0 - std::pow(1.0 - T / tau, k + 1);
    EXPECT_NEAR(r[i].y, expected, 1e-12) << k;
  }
}

TEST(StepResponse, DurationsAndLimits) {
  EXPECT_NEAR(rf::default_step_duration(rf::filter_kind("second_order"),
                                        rf::resolve_params(rf::filter_kind("second_order"), {})),
              0.8, 1e-12);  // max(10/a1, 8/sqrt(a0)) with a1 = 20, a0 = 100
  const auto euler = rf::step_response("euler", {{"T", 0.1}}, 1.0, 0);
  ASSERT_EQ(euler.size(), 11U);
  EXPECT_NEAR(euler.back().y, 1.0, 0.1 + 1e-9);  // integral of 1 over about 1 s
  EXPECT_THROW((void)rf::step_response("exponential", {}, -1.0), rmodel::InvalidArgument);
  EXPECT_THROW((void)rf::step_response("exponential", {{"T", 1e-6}, {"tau", 1e-6}}, 100.0),
               rmodel::InvalidArgument);
}

}  // namespace
