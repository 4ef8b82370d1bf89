// Splicing two movements (rmodel/splice.hpp). A batch job over movements held in memory, not
// a per-message hot path: plain vectors and binary searches.
#include "rmodel/splice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "rmodel/error.hpp"
#include "rmodel/filters/second_order.hpp"
#include "rmodel/io/writer.hpp"

namespace rmodel {
namespace {

/// One joint's samples in time order (a later sample at the same stamp replaces the earlier).
struct SpliceSeries {
  std::vector<std::int64_t> t;
  std::vector<double> p;
  std::vector<double> v;  // parallel to p while has_velocity
  bool has_velocity = true;
};

/// A movement as one time series per joint, plus its messages sorted by time.
struct SampledMovement {
  std::vector<std::string> names;  // order of first appearance
  std::unordered_map<std::string, std::size_t> index;
  std::vector<SpliceSeries> series;
  std::vector<io::Message> messages;  // joint and support states, stably sorted by stamp
  Time first{}, first_joint{}, last_joint{};
  bool has_joint = false;

  [[nodiscard]] const SpliceSeries* find(const std::string& name) const {
    const auto it = index.find(name);
    return it == index.end() ? nullptr : &series[it->second];
  }
};

std::string splice_line_text(const io::Message& m) {
  return m.line > 0 ? fmt::format(" (line {})", m.line) : std::string();
}

SampledMovement sample_movement(const std::vector<io::Message>& in, const char* label) {
  SampledMovement out;
  for (const io::Message& m : in) {
    if (m.kind == io::MessageKind::Sync) continue;
    if (!m.has_stamp)
      throw InvalidArgument(fmt::format("movement {}: a message{} has no time", label, splice_line_text(m)));
    out.messages.push_back(m);
  }
  std::stable_sort(out.messages.begin(), out.messages.end(),
                   [](const io::Message& x, const io::Message& y) { return x.stamp() < y.stamp(); });
  if (!out.messages.empty()) out.first = out.messages.front().stamp();
  for (const io::Message& m : out.messages) {
    if (m.kind != io::MessageKind::Joint) continue;
    const JointState& js = m.joint;
    if (js.position.size() != js.name.size())
      throw SizeMismatch(fmt::format("movement {}: positions of a joint state{}", label, splice_line_text(m)),
                         js.name.size(), js.position.size());
    const bool with_velocity = js.velocity.size() == js.name.size();
    if (!out.has_joint) out.first_joint = js.stamp;
    out.has_joint = true;
    out.last_joint = js.stamp;
    for (std::size_t i = 0; i < js.name.size(); ++i) {
      auto [it, added] = out.index.emplace(js.name[i], out.series.size());
      if (added) {
        out.names.push_back(js.name[i]);
        out.series.emplace_back();
      }
      SpliceSeries& s = out.series[it->second];
      if (!with_velocity) s.has_velocity = false;
      const double v = with_velocity ? js.velocity[i] : 0.0;
      if (!s.t.empty() && s.t.back() == js.stamp.ns) {
        s.p.back() = js.position[i];
        s.v.back() = v;
      } else {
        s.t.push_back(js.stamp.ns);
        s.p.push_back(js.position[i]);
        s.v.push_back(v);
      }
    }
  }
  if (!out.has_joint) throw InvalidArgument(fmt::format("movement {} has no joint state", label));
  return out;
}

/// Index i with t[i] <= t < t[i+1], for t strictly inside the series.
std::size_t segment_of(const std::vector<std::int64_t>& ts, std::int64_t t) {
  return static_cast<std::size_t>(std::upper_bound(ts.begin(), ts.end(), t) - ts.begin()) - 1;
}

/// Straight line between samples; held before the first and after the last.
double interpolate_series(const std::vector<std::int64_t>& ts, const std::vector<double>& values, std::int64_t t) {
  if (t <= ts.front()) return values.front();
  if (t >= ts.back()) return values.back();
  const std::size_t i = segment_of(ts, t);
  if (ts[i] == t) return values[i];
  const double f = static_cast<double>(t - ts[i]) / static_cast<double>(ts[i + 1] - ts[i]);
  return values[i] + f * (values[i + 1] - values[i]);
}

/// The slope of the segment (t[i], t[i+1]] holding t, unit/s; 0 outside the samples.
double slope_from_left(const SpliceSeries& s, std::int64_t t) {
  if (t <= s.t.front() || t > s.t.back()) return 0.0;
  const auto i = static_cast<std::size_t>(std::lower_bound(s.t.begin(), s.t.end(), t) - s.t.begin()) - 1;
  return (s.p[i + 1] - s.p[i]) / (Time{s.t[i + 1] - s.t[i]}.seconds());
}

/// The slope of the segment [t[i], t[i+1]) holding t, unit/s; 0 outside the samples.
double slope_from_right(const SpliceSeries& s, std::int64_t t) {
  if (t < s.t.front() || t >= s.t.back()) return 0.0;
  const std::size_t i = segment_of(s.t, t);
  return (s.p[i + 1] - s.p[i]) / (Time{s.t[i + 1] - s.t[i]}.seconds());
}

void validate_splice_options(const SpliceOptions& o) {
  if (!(o.tau > 0.0) || !std::isfinite(o.tau))
    throw InvalidArgument(fmt::format("splice: tau must be a positive number of seconds, not {}", o.tau));
  if (!(o.settle > 0.0 && o.settle < 1.0))
    throw InvalidArgument(fmt::format("splice: settle must be in (0, 1), not {}", o.settle));
  if (o.step && o.step->ns <= 0) throw InvalidArgument("splice: the step must be positive");
}

/// The splice proper; `pose` set: from that pose (A is then empty) into B.
SpliceResult splice_impl(const SampledMovement* a, const JointState* pose, const SampledMovement& b,
                         const SpliceOptions& o) {
  validate_splice_options(o);
  SpliceResult result;
  const bool from_pose = pose != nullptr;

  // T and B's shift, on the output clock (A's).
  Time start{};
  Time shift{};
  if (from_pose) {
    start = b.first;
  } else {
    const Time span = a->last_joint - a->first;
    if (o.at.ns < 0 || o.at > span)
      throw InvalidArgument(fmt::format("splice: T = {} s is outside movement A (0 to {} s after its first message)",
                                        to_string(o.at), to_string(span)));
    start = a->first + o.at;
    if (o.keep_time) {
      if (b.last_joint < start)
        throw InvalidArgument(fmt::format("splice: movement B, kept at its own times, ends ({}) before T ({})",
                                          to_string(b.last_joint), to_string(start)));
    } else {
      shift = start - b.first;
    }
  }
  result.start = start;
  const std::int64_t t0 = start.ns;

  // Joints: B's in its order, then A's that B lacks (held).
  std::unordered_map<std::string, double> pose_value;
  if (from_pose) {
    if (pose->position.size() != pose->name.size())
      throw SizeMismatch("splice: positions of the pose", pose->name.size(), pose->position.size());
    for (std::size_t i = 0; i < pose->name.size(); ++i) pose_value[pose->name[i]] = pose->position[i];
  }
  struct Column {
    const SpliceSeries* in_b = nullptr;
    const SpliceSeries* in_a = nullptr;
    std::optional<double> from_pose;
    double held = 0.0;  // only in A: position at T
  };
  std::vector<std::string> names = b.names;
  std::vector<Column> cols;
  for (std::size_t j = 0; j < b.names.size(); ++j) {
    Column c;
    c.in_b = &b.series[j];
    if (from_pose) {
      const auto it = pose_value.find(b.names[j]);
      if (it != pose_value.end()) c.from_pose = it->second;
    } else {
      c.in_a = a->find(b.names[j]);
    }
    if (!c.in_a && !c.from_pose) result.only_in_b.push_back(b.names[j]);
    cols.push_back(c);
  }
  std::vector<std::size_t> held_columns;
  if (!from_pose) {
    for (std::size_t j = 0; j < a->names.size(); ++j) {
      if (b.find(a->names[j])) continue;
      Column c;
      c.in_a = &a->series[j];
      c.held = interpolate_series(c.in_a->t, c.in_a->p, t0);
      held_columns.push_back(cols.size());
      names.push_back(a->names[j]);
      result.only_in_a.push_back(a->names[j]);
      cols.push_back(c);
    }
  }
  const auto shared = [](const Column& c) { return c.in_b && (c.in_a || c.from_pose); };
  const auto a_pos = [&](const Column& c, std::int64_t t) {
    return c.from_pose ? *c.from_pose : interpolate_series(c.in_a->t, c.in_a->p, t);
  };
  const auto a_vel = [&](const Column& c, std::int64_t t) {
    return c.from_pose ? 0.0 : interpolate_series(c.in_a->t, c.in_a->v, t);
  };
  const auto a_slope = [&](const Column& c, std::int64_t t) { return c.from_pose ? 0.0 : slope_from_left(*c.in_a, t); };
  const auto b_pos = [&](const Column& c, std::int64_t t) {
    return interpolate_series(c.in_b->t, c.in_b->p, t - shift.ns);
  };
  const auto b_vel = [&](const Column& c, std::int64_t t) {
    return interpolate_series(c.in_b->t, c.in_b->v, t - shift.ns);
  };
  // B's slope at T is where B goes from there (its first sample has nothing to its left).
  const auto b_slope_after = [&](const Column& c, std::int64_t t) { return slope_from_right(*c.in_b, t - shift.ns); };

  bool with_velocity = true;
  for (const Column& c : cols)
    if ((c.in_b && !c.in_b->has_velocity) || (c.in_b && c.in_a && !c.in_a->has_velocity)) with_velocity = false;

  // B's messages on the output clock.
  std::vector<io::Message> b_joint, b_support;
  for (const io::Message& m : b.messages) {
    io::Message copy = m;
    copy.set_stamp(m.stamp() + shift);
    (copy.kind == io::MessageKind::Joint ? b_joint : b_support).push_back(std::move(copy));
  }
  std::vector<std::int64_t> b_stamps;
  for (const io::Message& m : b_joint)
    if (m.joint.stamp.ns >= t0 && (b_stamps.empty() || b_stamps.back() != m.joint.stamp.ns))
      b_stamps.push_back(m.joint.stamp.ns);
  // Spacing of the samples that go on when B ends before the transition does.
  std::int64_t tail_step = o.step ? o.step->ns : 0;
  if (tail_step <= 0) {
    std::vector<std::int64_t> all;
    for (const io::Message& m : b_joint)
      if (all.empty() || all.back() != m.joint.stamp.ns) all.push_back(m.joint.stamp.ns);
    tail_step = all.size() >= 2 ? all.back() - all[all.size() - 2] : 0;
    if (tail_step <= 0) tail_step = std::max<std::int64_t>(1, std::llround(o.tau * 1e8));  // τ/10
  }

  // The law's state.
  double x = 1.0;
  std::vector<filters::SecondOrderTransient<double>> transients;
  std::vector<double> y_second(cols.size(), 0.0), v_second(cols.size(), 0.0);
  double e0 = 0.0;
  const double tau = o.tau;
  if (o.law == SpliceLaw::SecondOrder) {
    // The transient runs on the error e = y − B with the design's error dynamics
    // e'' = −a0·e − a1·e' (law (4)–(5) with B's position, velocity and acceleration as the
    // reference), so y = B + e follows B exactly once e has died out, however B moves.
    filters::SecondOrderParams params;
    params.a0 = 1.0 / (tau * tau);
    params.a1 = 2.0 / tau;
    transients.reserve(cols.size());
    for (std::size_t j = 0; j < cols.size(); ++j) {
      const Column& c = cols[j];
      const double e = shared(c) ? a_pos(c, t0) - b_pos(c, t0) : 0.0;
      const double de = shared(c) ? a_slope(c, t0) - b_slope_after(c, t0) : 0.0;
      transients.emplace_back(tau / 20.0, params, e);
      transients.back().start(e, de);
      y_second[j] = e;
      v_second[j] = de;
      e0 = std::max(e0, std::abs(e) + tau * std::abs(de));
    }
  }

  std::vector<io::Message> generated;
  const auto emit = [&](std::int64_t t, double weight, bool pure_b) {
    io::Message m;
    m.kind = io::MessageKind::Joint;
    m.joint.stamp = Time{t};
    m.joint.name = names;
    m.joint.position.resize(cols.size());
    if (with_velocity) m.joint.velocity.resize(cols.size());
    const double weight_rate = o.law == SpliceLaw::Linear ? (weight > 0.0 ? -1.0 / tau : 0.0) : -weight / tau;
    for (std::size_t j = 0; j < cols.size(); ++j) {
      const Column& c = cols[j];
      double p = 0.0, v = 0.0;
      if (!c.in_b) {
        p = c.held;
      } else if (!shared(c) || pure_b) {
        p = b_pos(c, t);
        if (with_velocity) v = b_vel(c, t);
      } else if (o.law == SpliceLaw::SecondOrder) {
        if (t == t0) {  // A's own values at T (B + (A − B) need not round back to A)
          p = a_pos(c, t);
          if (with_velocity) v = a_vel(c, t);
        } else {
          p = b_pos(c, t) + y_second[j];
          if (with_velocity) v = b_vel(c, t) + v_second[j];
        }
      } else {
        const double pa = a_pos(c, t), pb = b_pos(c, t);
        p = weight * pa + (1.0 - weight) * pb;
        if (with_velocity) v = weight * a_vel(c, t) + (1.0 - weight) * b_vel(c, t) + weight_rate * (pa - pb);
      }
      m.joint.position[j] = p;
      if (with_velocity) m.joint.velocity[j] = v;
    }
    generated.push_back(std::move(m));
  };

  // The transition: samples at B's stamps from T (and every step), until the law ends.
  std::size_t bi = 0;
  std::int64_t grid_k = 0;
  std::int64_t prev = t0;
  std::int64_t end = t0;
  std::size_t guard = 0;
  constexpr std::size_t kMaxSamples = 10'000'000;
  while (true) {
    if (++guard > kMaxSamples)
      throw InvalidArgument("splice: the transition needs more than 10 million samples; give a larger --step or tau");
    const bool have_b = bi < b_stamps.size();
    std::int64_t t = 0;
    bool from_b = false;
    if (o.step || !have_b) {
      std::int64_t grid = 0;
      if (o.step) {
        grid = t0 + grid_k * o.step->ns;
        while (grid <= prev && grid_k > 0) grid = t0 + (++grid_k) * o.step->ns;
      } else {
        grid = prev + tail_step;
      }
      if (have_b && b_stamps[bi] <= grid) {
        t = b_stamps[bi];
        from_b = true;
        if (b_stamps[bi] == grid) ++grid_k;
      } else {
        t = grid;
        if (o.step) ++grid_k;
      }
    } else {
      t = b_stamps[bi];
      from_b = true;
    }
    const double dt = Time{t - prev}.seconds();
    bool ended = false;
    switch (o.law) {
      case SpliceLaw::Linear: {
        x = std::max(0.0, 1.0 - Time{t - t0}.seconds() / tau);
        ended = x <= 0.0;
        break;
      }
      case SpliceLaw::Exponential: {
        if (t > prev) x *= std::max(0.0, 1.0 - dt / tau);
        ended = x <= o.settle;
        break;
      }
      case SpliceLaw::SecondOrder: {
        double e = 0.0;
        for (std::size_t j = 0; j < cols.size(); ++j) {
          const Column& c = cols[j];
          if (!shared(c)) continue;
          if (t > prev) {
            y_second[j] = transients[j].update(0.0, filters::Interval{dt});
            v_second[j] = transients[j].velocity();
          }
          e = std::max(e, std::abs(y_second[j]) + tau * std::abs(v_second[j]));
        }
        ended = e <= o.settle * e0;
        break;
      }
    }
    if (ended) {
      end = t;
      if (!from_b) emit(t, 0.0, true);
      break;
    }
    emit(t, x, false);
    ++result.transition_samples;
    if (from_b) ++bi;
    prev = t;
  }
  result.end = Time{end};

  // B as it is from the end of the transition; joints only in A get a joint state of their
  // own there, after B's joint states at that stamp (alone when the transition outlasted B).
  std::vector<io::Message> after;
  for (const io::Message& m : b_joint)
    if (m.joint.stamp.ns >= end) after.push_back(m);
  if (!held_columns.empty()) {
    io::Message h;
    h.kind = io::MessageKind::Joint;
    h.joint.stamp = Time{end};
    for (const std::size_t j : held_columns) {
      h.joint.name.push_back(names[j]);
      h.joint.position.push_back(cols[j].held);
    }
    const auto pos =
        std::find_if(after.begin(), after.end(), [&](const io::Message& m) { return m.joint.stamp.ns > end; });
    after.insert(pos, std::move(h));
  }

  // Support states switch at T: B's in force at T (stamped T), then B's later ones.
  std::vector<io::Message> supports;
  const io::Message* in_force = nullptr;
  for (const io::Message& m : b_support) {
    if (m.support.stamp.ns <= t0) {
      in_force = &m;
    } else {
      supports.push_back(m);
    }
  }
  if (in_force) {
    io::Message s = *in_force;
    s.set_stamp(Time{t0});
    supports.insert(supports.begin(), std::move(s));
  }

  // A before T, then the joint states from T (generated, then B's) merged with the supports,
  // joint states first at equal stamps.
  if (a)
    for (const io::Message& m : a->messages)
      if (m.stamp().ns < t0) result.messages.push_back(m);
  std::vector<io::Message> joints = std::move(generated);
  joints.insert(joints.end(), std::make_move_iterator(after.begin()), std::make_move_iterator(after.end()));
  std::size_t si = 0;
  for (io::Message& m : joints) {
    while (si < supports.size() && supports[si].stamp() < m.stamp())
      result.messages.push_back(std::move(supports[si++]));
    result.messages.push_back(std::move(m));
  }
  while (si < supports.size()) result.messages.push_back(std::move(supports[si++]));
  return result;
}

void append_ros1_time(std::string& out, Time t) {
  out += fmt::format("{{\"secs\": {}, \"nsecs\": {}}}", t.sec(), t.nanosec());
}

void append_number_array(std::string& out, const std::vector<double>& values) {
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    if (std::isfinite(values[i])) {
      io::append_double(out, values[i]);
    } else {
      out += "null";  // JSON has no NaN or infinities (as the JSON Lines writer)
    }
  }
  out += ']';
}

}  // namespace

SpliceLaw parse_splice_law(const std::string& name) {
  if (name == "linear") return SpliceLaw::Linear;
  if (name == "exp" || name == "exponential") return SpliceLaw::Exponential;
  if (name == "second-order") return SpliceLaw::SecondOrder;
  throw InvalidArgument(fmt::format("unknown splice law '{}' (linear, exp, second-order)", name));
}

SpliceResult splice(const std::vector<io::Message>& a, const std::vector<io::Message>& b,
                    const SpliceOptions& options) {
  const SampledMovement sa = sample_movement(a, "A");
  const SampledMovement sb = sample_movement(b, "B");
  return splice_impl(&sa, nullptr, sb, options);
}

SpliceResult splice_from_pose(const JointState& pose, const std::vector<io::Message>& b, const SpliceOptions& options) {
  const SampledMovement sb = sample_movement(b, "B");
  return splice_impl(nullptr, &pose, sb, options);
}

std::string trajectory_goal_json(const std::vector<io::Message>& messages) {
  std::vector<const io::Message*> sorted;
  for (const io::Message& m : messages)
    if (m.kind != io::MessageKind::Sync && m.has_stamp) sorted.push_back(&m);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const io::Message* x, const io::Message* y) { return x->stamp() < y->stamp(); });

  // Columns: joints in order of appearance, then the support chains; each starts at its
  // first value so that a point before it appears holds that value.
  std::vector<std::string> joints, chains;
  std::unordered_map<std::string, std::size_t> joint_index, chain_index;
  std::vector<double> position, velocity, support;
  bool all_velocities = true, any_joint = false;
  for (const io::Message* m : sorted) {
    if (m->kind == io::MessageKind::Joint) {
      any_joint = true;
      const JointState& js = m->joint;
      if (js.position.size() != js.name.size())
        throw SizeMismatch("trajectory: positions of a joint state", js.name.size(), js.position.size());
      if (js.velocity.size() != js.name.size()) all_velocities = false;
      for (std::size_t i = 0; i < js.name.size(); ++i)
        if (joint_index.emplace(js.name[i], joints.size()).second) {
          joints.push_back(js.name[i]);
          position.push_back(js.position[i]);
          velocity.push_back(all_velocities ? js.velocity[i] : 0.0);
        }
    } else if (m->support.support.size() == m->support.name.size()) {
      for (std::size_t i = 0; i < m->support.name.size(); ++i)
        if (chain_index.emplace(m->support.name[i], chains.size()).second) {
          chains.push_back(m->support.name[i]);
          support.push_back(m->support.support[i]);
        }
    }
  }
  if (!any_joint) throw InvalidArgument("trajectory: no joint state with a time");

  std::string out;
  out += "{\n  \"trajectory\": {\n    \"header\": {\"seq\": 0, \"stamp\": ";
  const Time first = [&] {
    for (const io::Message* m : sorted)
      if (m->kind == io::MessageKind::Joint) return m->joint.stamp;
    return Time{};
  }();
  append_ros1_time(out, first);
  out += ", \"frame_id\": \"\"},\n    \"joint_names\": [";
  bool comma = false;
  const auto name = [&](const std::string& s) {
    if (comma) out += ", ";
    comma = true;
    out += '"';
    for (const char ch : s) {
      if (ch == '"' || ch == '\\') out += '\\';
      if (static_cast<unsigned char>(ch) < 0x20) {
        out += fmt::format("\\u{:04x}", static_cast<unsigned>(ch));
        continue;
      }
      out += ch;
    }
    out += '"';
  };
  for (const auto& j : joints) name(j);
  for (const auto& c : chains) name("support/" + c);
  out += "],\n    \"points\": [";

  std::vector<double> values;
  std::vector<double> velocities;
  bool first_point = true;
  for (std::size_t k = 0; k < sorted.size();) {
    const Time t = sorted[k]->stamp();
    bool has_joint = false;
    for (; k < sorted.size() && sorted[k]->stamp() == t; ++k) {
      const io::Message* m = sorted[k];
      if (m->kind == io::MessageKind::Joint) {
        has_joint = true;
        for (std::size_t i = 0; i < m->joint.name.size(); ++i) {
          const std::size_t j = joint_index.at(m->joint.name[i]);
          position[j] = m->joint.position[i];
          if (all_velocities) velocity[j] = m->joint.velocity[i];
        }
      } else if (m->support.support.size() == m->support.name.size()) {
        for (std::size_t i = 0; i < m->support.name.size(); ++i)
          support[chain_index.at(m->support.name[i])] = m->support.support[i];
      }
    }
    if (!has_joint) continue;
    values = position;
    values.insert(values.end(), support.begin(), support.end());
    out += first_point ? "\n      {" : ",\n      {";
    first_point = false;
    out += "\"positions\": ";
    append_number_array(out, values);
    out += ", \"velocities\": ";
    velocities.clear();
    if (all_velocities) {
      velocities = velocity;
      velocities.insert(velocities.end(), support.size(), 0.0);
    }
    append_number_array(out, velocities);
    out += ", \"accelerations\": [], \"effort\": [], \"time_from_start\": ";
    append_ros1_time(out, t - first);
    out += '}';
  }
  out += "\n    ]\n  },\n  \"path_tolerance\": [],\n  \"goal_tolerance\": [],\n  \"goal_time_tolerance\": ";
  append_ros1_time(out, Time{});
  out += "\n}\n";
  return out;
}

}  // namespace rmodel
