// Splicing two movements (rmodel/stream/splice.hpp), checked against oracles written from the
// definitions in splice.hpp and the design (SPEC §3): A as it is before T, B as it is after
// the transition, the weight of each law at every sample, continuity of position (and of
// velocity for the second-order law) by finite differences, joints in one movement only,
// support states, the pose as a start, and the trajectory document read back by the reader.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/stream/splice.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::same_bits;

constexpr std::int64_t kSpliceMs = 1'000'000;  // ns

using SpliceCurve = std::function<double(double)>;  // position of a joint at t seconds after the start

/// A movement sampled every `step_ms` ms from `start_ns` for `count` samples: one joint state
/// per sample naming `names` with positions curves[j](k·step).
std::vector<io::Message> sampled_movement(const std::vector<std::string>& names, const std::vector<SpliceCurve>& curves,
                                          std::int64_t start_ns, std::int64_t step_ms, int count) {
  std::vector<io::Message> out;
  for (int k = 0; k < count; ++k) {
    io::Message m;
    m.kind = io::MessageKind::Joint;
    m.joint.stamp = Time{start_ns + k * step_ms * kSpliceMs};
    m.joint.name = names;
    for (const SpliceCurve& c : curves) m.joint.position.push_back(c(static_cast<double>(k * step_ms) * 1e-3));
    m.line = static_cast<std::size_t>(k + 1);
    out.push_back(std::move(m));
  }
  return out;
}

io::Message splice_support_at(std::int64_t ns, std::vector<std::string> chains, std::vector<double> values) {
  io::Message m;
  m.kind = io::MessageKind::Support;
  m.support.stamp = Time{ns};
  m.support.name = std::move(chains);
  m.support.support = std::move(values);
  return m;
}

const io::Message* splice_joint_at(const std::vector<io::Message>& ms, std::int64_t ns) {
  for (const auto& m : ms)
    if (m.kind == io::MessageKind::Joint && m.joint.stamp.ns == ns) return &m;
  return nullptr;
}

double splice_position_of(const io::Message& m, const std::string& name) {
  for (std::size_t i = 0; i < m.joint.name.size(); ++i)
    if (m.joint.name[i] == name) return m.joint.position[i];
  ADD_FAILURE() << "no joint " << name << " at " << m.joint.stamp.ns;
  return NAN;
}

std::vector<const io::Message*> splice_joints_of(const std::vector<io::Message>& ms) {
  std::vector<const io::Message*> out;
  for (const auto& m : ms)
    if (m.kind == io::MessageKind::Joint) out.push_back(&m);
  return out;
}

// A: two joints around 0; B: the same joints around 1 rad, so a switch without a transition
// would jump by about 1 rad.
const std::vector<std::string> kSpliceJoints = {"j1", "j2"};
const std::vector<SpliceCurve> kSpliceA = {[](double t) { return 0.3 * std::sin(2.0 * t); },
                                           [](double t) { return 0.2 * std::cos(1.5 * t) - 0.1; }};
const std::vector<SpliceCurve> kSpliceB = {[](double t) { return 1.0 + 0.25 * std::sin(3.0 * t + 0.4); },
                                           [](double t) { return -0.9 + 0.1 * t; }};

TEST(Splice, LinearIsABeforeTTheDefinedBlendThenB) {
  const auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 10, 201);                    // 0 .. 2 s
  const auto b = sampled_movement(kSpliceJoints, kSpliceB, 100'000 * kSpliceMs, 10, 151);  // its own clock, 1.5 s
  SpliceOptions o;
  o.at = Time{1000 * kSpliceMs};
  o.tau = 0.3;
  const SpliceResult r = splice(a, b, o);
  const std::int64_t t0 = 1000 * kSpliceMs;
  const std::int64_t shift = t0 - 100'000 * kSpliceMs;
  EXPECT_EQ(r.start.ns, t0);
  EXPECT_EQ(r.end.ns, t0 + 300 * kSpliceMs);
  EXPECT_TRUE(r.only_in_a.empty());
  EXPECT_TRUE(r.only_in_b.empty());

  std::size_t before = 0, blended = 0, after = 0;
  for (const io::Message& m : r.messages) {
    ASSERT_EQ(m.kind, io::MessageKind::Joint);
    const std::int64_t t = m.joint.stamp.ns;
    if (t < t0) {
      const io::Message* in_a = splice_joint_at(a, t);
      ASSERT_NE(in_a, nullptr);
      EXPECT_EQ(m.joint, in_a->joint);  // bit for bit (== compares the doubles exactly)
      ++before;
    } else if (t < t0 + 300 * kSpliceMs) {
      // From the definition: x = max(0, 1 − (t − T)/τ), y = x·A(t) + (1 − x)·B(t); A and B
      // both have a sample at t (same 10 ms grid).
      const double x = std::max(0.0, 1.0 - (Time{t - t0}.seconds()) / 0.3);
      const io::Message* in_a = splice_joint_at(a, t);
      const io::Message* in_b = splice_joint_at(b, t - shift);
      ASSERT_TRUE(in_a && in_b);
      ASSERT_EQ(m.joint.name, kSpliceJoints);
      for (std::size_t j = 0; j < 2; ++j) {
        const double want = x * in_a->joint.position[j] + (1.0 - x) * in_b->joint.position[j];
        EXPECT_TRUE(same_bits(m.joint.position[j], want))
            << "t=" << t << " j=" << j << ": " << m.joint.position[j] << " vs " << want;
      }
      ++blended;
    } else {
      const io::Message* in_b = splice_joint_at(b, t - shift);
      ASSERT_NE(in_b, nullptr);
      EXPECT_EQ(m.joint.name, in_b->joint.name);
      EXPECT_EQ(m.joint.position, in_b->joint.position);
      ++after;
    }
  }
  EXPECT_EQ(before, 100u);
  EXPECT_EQ(blended, 30u);
  EXPECT_EQ(r.transition_samples, 30u);
  EXPECT_EQ(after, 121u);
}

TEST(Splice, ExponentialWeightFollowsTheStepLawOnTheStamps) {
  // Irregular stamps in B: the weight uses the time between samples.
  auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 10, 301);
  std::vector<io::Message> b;
  std::int64_t t = 0;
  for (int k = 0; k < 200; ++k) {
    io::Message m;
    m.kind = io::MessageKind::Joint;
    m.joint.stamp = Time{t};
    m.joint.name = kSpliceJoints;
    for (const SpliceCurve& c : kSpliceB) m.joint.position.push_back(c(Time{t}.seconds()));
    b.push_back(m);
    t += (k % 3 == 0 ? 7 : 13) * kSpliceMs;
  }
  SpliceOptions o;
  o.law = SpliceLaw::Exponential;
  o.at = Time{500 * kSpliceMs};
  o.tau = 0.2;
  o.settle = 1e-3;
  const SpliceResult r = splice(a, b, o);
  const std::int64_t t0 = 500 * kSpliceMs;
  double x = 1.0;
  std::int64_t prev = t0;
  bool ended = false;
  std::size_t blended = 0;
  for (const io::Message* m : splice_joints_of(r.messages)) {
    const std::int64_t ts = m->joint.stamp.ns;
    if (ts < t0) continue;
    const io::Message* in_b = splice_joint_at(b, ts - t0);
    ASSERT_NE(in_b, nullptr);
    if (!ended) {
      x *= std::max(0.0, 1.0 - Time{ts - prev}.seconds() / 0.2);
      prev = ts;
      ended = x <= 1e-3;
    }
    if (ended) {
      EXPECT_EQ(m->joint.position, in_b->joint.position);
      continue;
    }
    ++blended;
    // A at ts by the straight line between its 10 ms samples (the splice's definition).
    for (std::size_t j = 0; j < 2; ++j) {
      const std::int64_t k = ts / (10 * kSpliceMs);
      const double f = static_cast<double>(ts - k * 10 * kSpliceMs) / static_cast<double>(10 * kSpliceMs);
      const double a0 = a[k].joint.position[j], a1 = a[k + 1].joint.position[j];
      const double at = f == 0.0 ? a0 : a0 + f * (a1 - a0);
      const double want = x * at + (1.0 - x) * in_b->joint.position[j];
      EXPECT_TRUE(same_bits(m->joint.position[j], want)) << ts << " " << j;
    }
  }
  EXPECT_TRUE(ended);
  EXPECT_EQ(blended, r.transition_samples);
  EXPECT_GT(blended, 50u);  // ln(1000)·τ ≈ 1.4 s of samples ~10 ms apart
}

/// Largest |Δy| between consecutive joint states of `ms` minus what the inputs' own steps and
/// the weight's change allow: <= 0 when the output is continuous in that sense.
struct SpliceJumps {
  double worst_excess = -1e300;
  double worst_velocity_change = 0.0;
};

SpliceJumps splice_jumps(const std::vector<io::Message>& ms, const std::vector<io::Message>& a,
                         const std::vector<io::Message>& b, std::int64_t shift, double tau, double allowance) {
  SpliceJumps out;
  const auto js = splice_joints_of(ms);
  double prev_v[2] = {NAN, NAN};
  for (std::size_t k = 1; k < js.size(); ++k) {
    const std::int64_t t1 = js[k - 1]->joint.stamp.ns, t2 = js[k]->joint.stamp.ns;
    const double dt = Time{t2 - t1}.seconds();
    // Inputs' own steps over the same interval, and the gap between them.
    const auto value = [](const std::vector<io::Message>& m, std::int64_t t, std::size_t j) {
      if (t <= m.front().joint.stamp.ns) return m.front().joint.position[j];
      if (t >= m.back().joint.stamp.ns) return m.back().joint.position[j];
      for (std::size_t i = 0; i + 1 < m.size(); ++i)
        if (m[i + 1].joint.stamp.ns > t) {
          const double f = static_cast<double>(t - m[i].joint.stamp.ns) /
                           static_cast<double>(m[i + 1].joint.stamp.ns - m[i].joint.stamp.ns);
          return m[i].joint.position[j] + f * (m[i + 1].joint.position[j] - m[i].joint.position[j]);
        }
      return m.back().joint.position[j];
    };
    for (std::size_t j = 0; j < 2; ++j) {
      const double da = std::abs(value(a, t2, j) - value(a, t1, j));
      const double db = std::abs(value(b, t2 - shift, j) - value(b, t1 - shift, j));
      const double gap = std::abs(value(a, t1, j) - value(b, t1 - shift, j));
      const double allowed = std::max(da, db) + (dt / tau) * gap + allowance * gap + 1e-12;
      const double dy = js[k]->joint.position[j] - js[k - 1]->joint.position[j];
      out.worst_excess = std::max(out.worst_excess, std::abs(dy) - allowed);
      const double v = dy / dt;
      if (!std::isnan(prev_v[j]))
        out.worst_velocity_change = std::max(out.worst_velocity_change, std::abs(v - prev_v[j]));
      prev_v[j] = v;
    }
  }
  return out;
}

TEST(Splice, EveryLawIsContinuousInPositionAtEverySample) {
  const auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 10, 201);
  const auto b = sampled_movement(kSpliceJoints, kSpliceB, 0, 10, 201);
  for (const SpliceLaw law : {SpliceLaw::Linear, SpliceLaw::Exponential, SpliceLaw::SecondOrder}) {
    SpliceOptions o;
    o.law = law;
    o.at = Time{700 * kSpliceMs};
    o.tau = 0.25;
    const SpliceResult r = splice(a, b, o);
    ASSERT_GT(r.transition_samples, 10u);
    // The exponential and second-order laws hand over to B when what is left is `settle`
    // of the gap; the second-order one moves like A's and B's steps plus a decaying error
    // (bounded by twice the gap per τ).
    const double allowance = law == SpliceLaw::Linear ? 0.0 : law == SpliceLaw::Exponential ? o.settle : 0.0;
    const double rate_factor = law == SpliceLaw::SecondOrder ? 2.0 : 1.0;
    const SpliceJumps j = splice_jumps(r.messages, a, b, 700 * kSpliceMs, o.tau / rate_factor, allowance);
    EXPECT_LE(j.worst_excess, 0.0) << "law " << static_cast<int>(law);
  }
  // Without a transition the same splice jumps by the gap (the check can fail).
  SpliceOptions o;
  o.at = Time{700 * kSpliceMs};
  o.tau = 1e-6;
  const SpliceJumps raw = splice_jumps(splice(a, b, o).messages, a, b, 700 * kSpliceMs, 0.25, 0.0);
  EXPECT_GT(raw.worst_excess, 0.5);
}

TEST(Splice, SecondOrderLawIsContinuousInVelocity) {
  // Velocity by finite differences: its change per sample is bounded by dt times the inputs'
  // accelerations plus the transient's (critically damped error e: |ë| <= 3(|e0|/τ² + 2|ė0|/τ)).
  // B lasts beyond the transition (about 9τ), so that B's own stop is not in the window.
  const auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 5, 401);
  const auto b = sampled_movement(kSpliceJoints, kSpliceB, 0, 5, 801);
  SpliceOptions o;
  o.at = Time{700 * kSpliceMs};
  o.tau = 0.25;
  o.law = SpliceLaw::SecondOrder;
  const double dt = 0.005;
  const double input_accel = 0.3 * 4 + 0.2 * 2.25 + 0.25 * 9;  // bounds of |Ä|, |B̈| over the joints
  double e0 = 0, de0 = 0;
  for (std::size_t j = 0; j < 2; ++j) {
    e0 = std::max(e0, std::abs(kSpliceA[j](0.7) - kSpliceB[j](0.0)));
    de0 = std::max(de0, 2.0);  // |Ȧ − Ḃ| <= 0.6 + 0.3 + 0.75 + 0.1 < 2
  }
  const double bound = dt * (input_accel + 3.0 * (e0 / (o.tau * o.tau) + 2.0 * de0 / o.tau)) + 1e-9;
  const SpliceResult r = splice(a, b, o);
  const SpliceJumps second = splice_jumps(r.messages, a, b, 700 * kSpliceMs, o.tau, 1.0);
  EXPECT_LE(second.worst_velocity_change, bound);
  // The linear law over the same τ changes velocity at T by gap/τ in one sample: far above it.
  o.law = SpliceLaw::Linear;
  const SpliceJumps linear = splice_jumps(splice(a, b, o).messages, a, b, 700 * kSpliceMs, o.tau, 1.0);
  EXPECT_GT(linear.worst_velocity_change, 2.0 * second.worst_velocity_change);
  // The position at T is A's.
  const io::Message* at_t = splice_joint_at(r.messages, 700 * kSpliceMs);
  ASSERT_NE(at_t, nullptr);
  EXPECT_TRUE(same_bits(at_t->joint.position[0], a[140].joint.position[0]));
}

TEST(Splice, SecondOrderLawHandsOverToAMovingB) {
  // B keeps moving (a sinusoid at 3 rad/s): the transient on the error still dies out, in
  // about 9τ for settle 0.001, and from there the output is B as it is.
  const auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 5, 401);
  const auto b = sampled_movement(kSpliceJoints, kSpliceB, 0, 5, 401);
  SpliceOptions o;
  o.at = Time{700 * kSpliceMs};
  o.tau = 0.1;
  o.law = SpliceLaw::SecondOrder;
  const SpliceResult r = splice(a, b, o);
  EXPECT_GT(r.end.ns, 700 * kSpliceMs + 600 * kSpliceMs);
  EXPECT_LT(r.end.ns, 700 * kSpliceMs + 1200 * kSpliceMs);
  std::size_t after = 0;
  for (const io::Message* m : splice_joints_of(r.messages)) {
    if (m->joint.stamp < r.end) continue;
    EXPECT_EQ(m->joint.position, splice_joint_at(b, m->joint.stamp.ns - 700 * kSpliceMs)->joint.position);
    ++after;
  }
  EXPECT_GT(after, 100u);
}

TEST(Splice, KeepTimeKeepsBsStampsAndShiftingMovesThem) {
  const auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 10, 201);
  const auto b = sampled_movement(kSpliceJoints, kSpliceB, 400 * kSpliceMs, 10, 201);  // same clock, overlaps A
  SpliceOptions o;
  o.at = Time{1000 * kSpliceMs};
  o.tau = 0.1;
  o.keep_time = true;
  const SpliceResult kept = splice(a, b, o);
  const auto kept_joints = splice_joints_of(kept.messages);
  // From the end of the transition: B's own messages, own stamps.
  const io::Message* last = kept_joints.back();
  EXPECT_EQ(last->joint.stamp, b.back().joint.stamp);
  EXPECT_EQ(last->joint.position, b.back().joint.position);
  const io::Message* first_after = splice_joint_at(kept.messages, 1100 * kSpliceMs);
  ASSERT_NE(first_after, nullptr);
  EXPECT_EQ(first_after->joint.position, splice_joint_at(b, 1100 * kSpliceMs)->joint.position);
  // Nothing of B before T.
  for (const io::Message* m : kept_joints)
    if (m->joint.stamp.ns < 1000 * kSpliceMs) {
      EXPECT_EQ(m->joint, splice_joint_at(a, m->joint.stamp.ns)->joint);
    }

  o.keep_time = false;
  const SpliceResult shifted = splice(a, b, o);
  const auto shifted_joints = splice_joints_of(shifted.messages);
  EXPECT_EQ(shifted_joints.back()->joint.stamp.ns, b.back().joint.stamp.ns + 600 * kSpliceMs);
  EXPECT_EQ(shifted_joints.back()->joint.position, b.back().joint.position);
  // B's first sample lands on T, where the weight of A is still 1.
  const io::Message* at_t = splice_joint_at(shifted.messages, 1000 * kSpliceMs);
  ASSERT_NE(at_t, nullptr);
  EXPECT_EQ(at_t->joint.position, splice_joint_at(a, 1000 * kSpliceMs)->joint.position);
}

TEST(Splice, JointsInOneMovementOnlyAreHeldAndListed) {
  const auto a = sampled_movement({"j1", "j2", "only_a"}, {kSpliceA[0], kSpliceA[1], [](double t) { return 0.5 + t; }},
                                  0, 10, 101);
  const auto b =
      sampled_movement({"only_b", "j1", "j2"}, {[](double t) { return -t; }, kSpliceB[0], kSpliceB[1]}, 0, 10, 101);
  SpliceOptions o;
  o.at = Time{400 * kSpliceMs};
  o.tau = 0.1;
  const SpliceResult r = splice(a, b, o);
  EXPECT_EQ(r.only_in_a, std::vector<std::string>{"only_a"});
  EXPECT_EQ(r.only_in_b, std::vector<std::string>{"only_b"});
  const double held = 0.5 + 0.4;  // A's only_a at T (a sample of A)
  std::size_t held_seen = 0;
  for (const io::Message* m : splice_joints_of(r.messages)) {
    const std::int64_t t = m->joint.stamp.ns;
    if (t < 400 * kSpliceMs) continue;
    const auto& n = m->joint.name;
    if (std::find(n.begin(), n.end(), "only_a") != n.end()) {
      EXPECT_TRUE(same_bits(splice_position_of(*m, "only_a"), a[40].joint.position[2])) << t;
      EXPECT_NEAR(splice_position_of(*m, "only_a"), held, 1e-12);
      ++held_seen;
    }
    if (t < 500 * kSpliceMs) {  // a transition sample: every joint, only_b as B has it
      EXPECT_TRUE(
          same_bits(splice_position_of(*m, "only_b"), splice_joint_at(b, t - 400 * kSpliceMs)->joint.position[0]));
    }
  }
  EXPECT_EQ(held_seen, r.transition_samples + 1);  // every blended sample, and once after
}

TEST(Splice, FromAPoseIntoAMovement) {
  const auto b = sampled_movement(kSpliceJoints, kSpliceB, 50 * kSpliceMs, 10, 101);
  JointState pose;
  pose.name = {"j2", "j1", "other"};
  pose.position = {-0.5, 0.5, 3.0};
  SpliceOptions o;
  o.tau = 0.2;
  const SpliceResult r = splice_from_pose(pose, b, o);
  EXPECT_TRUE(r.only_in_a.empty());  // the pose's other joints are not written
  EXPECT_TRUE(r.only_in_b.empty());
  ASSERT_EQ(splice_joints_of(r.messages).size(), b.size());
  for (const io::Message* m : splice_joints_of(r.messages)) {
    const std::int64_t t = m->joint.stamp.ns;
    const io::Message* in_b = splice_joint_at(b, t);
    ASSERT_NE(in_b, nullptr);
    EXPECT_EQ(m->joint.name, kSpliceJoints);
    const double x = std::max(0.0, 1.0 - Time{t - 50 * kSpliceMs}.seconds() / 0.2);
    EXPECT_TRUE(same_bits(m->joint.position[0], x * 0.5 + (1.0 - x) * in_b->joint.position[0]));
    EXPECT_TRUE(same_bits(m->joint.position[1], x * -0.5 + (1.0 - x) * in_b->joint.position[1]));
  }
  // The second-order law starts at the pose at rest.
  o.law = SpliceLaw::SecondOrder;
  const SpliceResult second = splice_from_pose(pose, b, o);
  EXPECT_EQ(splice_joints_of(second.messages).front()->joint.position, (std::vector<double>{0.5, -0.5}));
}

TEST(Splice, SupportStatesSwitchAtT) {
  auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 100, 11);
  auto b = sampled_movement(kSpliceJoints, kSpliceB, 0, 100, 11);
  a.push_back(splice_support_at(0, {"leg1", "leg2"}, {1, 1}));
  a.push_back(splice_support_at(600 * kSpliceMs, {"leg1", "leg2"}, {0, 1}));  // after T: dropped
  b.push_back(splice_support_at(0, {"leg1", "leg2"}, {1, 0}));
  b.push_back(splice_support_at(300 * kSpliceMs, {"leg1", "leg2"}, {0.5, 0.5}));
  SpliceOptions o;
  o.at = Time{500 * kSpliceMs};
  o.tau = 0.2;
  const SpliceResult r = splice(a, b, o);
  std::vector<std::pair<std::int64_t, std::vector<double>>> supports;
  for (const auto& m : r.messages)
    if (m.kind == io::MessageKind::Support) supports.emplace_back(m.support.stamp.ns, m.support.support);
  const std::vector<std::pair<std::int64_t, std::vector<double>>> want = {
      {0, {1, 1}}, {500 * kSpliceMs, {1, 0}}, {800 * kSpliceMs, {0.5, 0.5}}};
  EXPECT_EQ(supports, want);
  // Time order throughout.
  for (std::size_t k = 1; k < r.messages.size(); ++k) EXPECT_LE(r.messages[k - 1].stamp(), r.messages[k].stamp());
}

TEST(Splice, TransitionOutlastingBGoesOnWithBHeld) {
  const auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 10, 101);
  const auto b = sampled_movement(kSpliceJoints, kSpliceB, 0, 10, 5);  // 40 ms
  SpliceOptions o;
  o.at = Time{500 * kSpliceMs};
  o.tau = 0.2;
  const SpliceResult r = splice(a, b, o);
  EXPECT_EQ(r.end.ns, 700 * kSpliceMs);
  const io::Message* last = splice_joints_of(r.messages).back();
  EXPECT_EQ(last->joint.stamp.ns, 700 * kSpliceMs);
  EXPECT_EQ(last->joint.position, b.back().joint.position);
}

TEST(Splice, StepSamplesSparseMovements) {
  const auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 500, 5);
  const auto b = sampled_movement(kSpliceJoints, kSpliceB, 0, 500, 5);
  SpliceOptions o;
  o.at = Time{1000 * kSpliceMs};
  o.tau = 0.4;
  const SpliceResult sparse = splice(a, b, o);
  EXPECT_EQ(sparse.transition_samples, 1u);  // only B's first point, at T, falls inside
  o.step = Time{50 * kSpliceMs};
  const SpliceResult stepped = splice(a, b, o);
  EXPECT_EQ(stepped.transition_samples, 8u);  // T, T+50 ms, ..., T+350 ms
  const SpliceJumps j = splice_jumps(stepped.messages, a, b, 1000 * kSpliceMs, o.tau, 0.0);
  EXPECT_LE(j.worst_excess, 0.0);
}

TEST(Splice, RefusesWhatItCannotSplice) {
  const auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 10, 101);
  const auto b = sampled_movement(kSpliceJoints, kSpliceB, 0, 10, 101);
  SpliceOptions o;
  o.at = Time{1001 * kSpliceMs};
  EXPECT_THROW((void)splice(a, b, o), InvalidArgument);
  o.at = Time{-1};
  EXPECT_THROW((void)splice(a, b, o), InvalidArgument);
  o.at = Time{};
  o.tau = 0.0;
  EXPECT_THROW((void)splice(a, b, o), InvalidArgument);
  o.tau = 0.1;
  EXPECT_THROW((void)splice({}, b, o), InvalidArgument);
  o.keep_time = true;
  const auto late_a = sampled_movement(kSpliceJoints, kSpliceA, 2000 * kSpliceMs, 10, 101);
  o.at = Time{500 * kSpliceMs};
  EXPECT_THROW((void)splice(late_a, b, o), InvalidArgument);  // B ends before T
  EXPECT_EQ(parse_splice_law("exp"), SpliceLaw::Exponential);
  EXPECT_THROW((void)parse_splice_law("cubic"), InvalidArgument);
}

// Issue 40: `--tau 1e9 --step 0.05` made ~10^11 samples in memory until std::bad_alloc. The
// transition is now handed on sample by sample, and one longer than the bound allows is
// refused before anything is made.
TEST(Splice, ARunawayTransitionIsRefusedBeforeAnythingIsMade) {
  const auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 10, 101);
  const auto b = sampled_movement(kSpliceJoints, kSpliceB, 0, 10, 101);
  for (const SpliceLaw law : {SpliceLaw::Linear, SpliceLaw::Exponential, SpliceLaw::SecondOrder}) {
    SCOPED_TRACE(static_cast<int>(law));
    SpliceOptions o;
    o.law = law;
    o.at = Time{500 * kSpliceMs};
    o.tau = 1e9;
    o.step = Time{50 * kSpliceMs};
    std::size_t handed = 0;
    try {
      (void)splice(a, b, o, [&handed](const io::Message&) { ++handed; });
      ADD_FAILURE() << "expected a refusal";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("more than the 1000000 allowed"), std::string::npos) << e.what();
    }
    EXPECT_EQ(handed, 0u);
    // Without a step, the samples after B's end come at B's last interval (10 ms): refused too.
    o.step.reset();
    o.tau = 1e5;
    EXPECT_THROW((void)splice(a, b, o), InvalidArgument);
    // A transition within the limit is made: τ such that the bound needs just under 10^6 steps.
    o.step = Time{50 * kSpliceMs};
    o.tau = 1.0;
    o.tau = 0.9 * 1e6 * 0.05 / (splice_transition_bound(o) / o.tau);
    std::size_t samples = 0;
    const SpliceResult r = splice(a, b, o, [&samples](const io::Message&) { ++samples; });
    EXPECT_TRUE(r.messages.empty()) << "the sink form collects nothing";
    EXPECT_GT(samples, r.transition_samples);
  }
}

// The sink form hands on exactly the messages the collecting form returns, in order.
TEST(Splice, TheSinkGetsWhatTheCollectingFormReturns) {
  auto a = sampled_movement(kSpliceJoints, kSpliceA, 0, 10, 101);
  auto b = sampled_movement({"j2", "j3"}, {kSpliceB[1], kSpliceB[0]}, 0, 10, 101);
  a.insert(a.begin() + 3, splice_support_at(30 * kSpliceMs, {"leg"}, {1.0}));
  b.insert(b.begin() + 5, splice_support_at(45 * kSpliceMs, {"leg"}, {0.5}));
  b.push_back(splice_support_at(2000 * kSpliceMs, {"leg"}, {0.0}));
  for (const SpliceLaw law : {SpliceLaw::Linear, SpliceLaw::Exponential, SpliceLaw::SecondOrder}) {
    SpliceOptions o;
    o.law = law;
    o.at = Time{500 * kSpliceMs};
    o.tau = 0.3;
    o.step = Time{7 * kSpliceMs};
    const SpliceResult whole = splice(a, b, o);
    std::vector<io::Message> handed;
    const SpliceResult streamed = splice(a, b, o, [&handed](const io::Message& m) { handed.push_back(m); });
    ASSERT_EQ(handed.size(), whole.messages.size());
    for (std::size_t i = 0; i < handed.size(); ++i) {
      EXPECT_EQ(handed[i].kind, whole.messages[i].kind) << i;
      EXPECT_EQ(handed[i].stamp(), whole.messages[i].stamp()) << i;
      EXPECT_EQ(handed[i].joint.name, whole.messages[i].joint.name) << i;
      EXPECT_EQ(handed[i].joint.position, whole.messages[i].joint.position) << i;
      EXPECT_EQ(handed[i].support.support, whole.messages[i].support.support) << i;
    }
    EXPECT_EQ(streamed.end, whole.end);
    EXPECT_EQ(streamed.transition_samples, whole.transition_samples);
  }
}

// splice_transition_bound() is an upper bound of the transition's length: for every law and
// settle, from gaps of position alone, of velocity alone and of both, sampled densely.
TEST(Splice, TheTransitionEndsWithinItsBound) {
  const std::vector<std::vector<SpliceCurve>> starts = {
      {[](double) { return 1.0; }, [](double) { return -0.5; }},           // position gap
      {[](double t) { return 2.0 * t - 1.0; }, [](double) { return 0.0; }},  // velocity gap at T
      {[](double t) { return 0.3 * std::sin(9.0 * t) + 0.7; }, [](double t) { return -3.0 * t; }}};
  const std::vector<SpliceCurve> flat = {[](double) { return 0.0; }, [](double) { return 0.0; }};
  for (const SpliceLaw law : {SpliceLaw::Linear, SpliceLaw::Exponential, SpliceLaw::SecondOrder}) {
    for (const double settle : {0.5, 0.1, 1e-3, 1e-6, 1e-9, 1e-12}) {
      for (const auto& curves : starts) {
        SCOPED_TRACE(fmt::format("law {} settle {}", static_cast<int>(law), settle));
        const auto a = sampled_movement(kSpliceJoints, curves, 0, 10, 51);
        const auto b = sampled_movement(kSpliceJoints, flat, 0, 10, 2);
        SpliceOptions o;
        o.law = law;
        o.at = Time{500 * kSpliceMs};
        o.tau = 0.2;
        o.settle = settle;
        const double bound = splice_transition_bound(o);
        // Samples every 1 ms (the transient's substeps as fine), 10 ms (= its coarsest
        // substep, τ/20) and 37 ms (split into substeps).
        for (const std::int64_t step_ms : {1, 10, 37}) {
          o.step = Time{step_ms * kSpliceMs};
          const SpliceResult r = splice(a, b, o, [](const io::Message&) {});
          const double lasted = (r.end - r.start).seconds();
          EXPECT_LE(lasted, bound + 1e-3 * static_cast<double>(step_ms)) << step_ms << " ms";
          // And not loose beyond its margin: the position-only start follows the envelope.
          if (&curves == &starts.front() && law != SpliceLaw::Linear && step_ms == 1) {
            EXPECT_GT(lasted, 0.6 * bound);
          }
        }
      }
    }
  }
}

TEST(Splice, TrajectoryDocumentReadsBackAsTheSameMovement) {
  auto ms = sampled_movement({"j1", "j2"}, kSpliceA, 1'500'000'000'123'456'789LL, 250, 5);
  ms.insert(ms.begin() + 1, splice_support_at(1'500'000'000'123'456'789LL, {"leg1"}, {1.0}));
  ms.push_back(splice_support_at(ms[3].joint.stamp.ns, {"leg1"}, {0.0}));
  std::sort(ms.begin(), ms.end(), [](const io::Message& x, const io::Message& y) { return x.stamp() < y.stamp(); });
  const std::string doc = trajectory_goal_json(ms);
  std::istringstream in(doc);
  io::ReaderOptions ro;
  ro.format = io::parse_format("json");
  io::MessageReader reader(in, "doc", ro);
  std::vector<io::Message> back;
  io::Message m;
  for (io::ReadStatus s; (s = reader.next(m)) != io::ReadStatus::End;) {
    ASSERT_EQ(s, io::ReadStatus::Ok) << reader.error().to_string("doc");
    back.push_back(m);
  }
  std::vector<double> supports;
  std::size_t joints = 0;
  for (const auto& x : back) {
    if (x.kind == io::MessageKind::Support) {
      supports.push_back(x.support.support.at(0));
      continue;
    }
    const io::Message* orig = splice_joint_at(ms, x.joint.stamp.ns);
    ASSERT_NE(orig, nullptr);
    EXPECT_EQ(x.joint.name, orig->joint.name);
    EXPECT_EQ(x.joint.position, orig->joint.position);
    ++joints;
  }
  EXPECT_EQ(joints, 5u);
  EXPECT_EQ(supports, (std::vector<double>{1, 1, 0, 0, 0}));  // in force at each point
}

}  // namespace
}  // namespace rmodel
