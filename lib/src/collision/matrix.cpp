// The allowed-collision matrix as MoveIt's Setup Assistant computes it
// (moveit_setup_srdf_plugins/src/compute_default_collisions.cpp, read to learn the algorithm
// and its defaults): Adjacent, Default, Always in rounds of 200 random poses, Never from N
// random poses on every core. And its comparison with an SRDF's matrix (check --collisions).
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>

#include <fmt/format.h>

#include "collision/collision_impl.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/base/file.hpp"

namespace rmodel::collision {
namespace {

/// The Setup Assistant's round of random poses for "Always".
constexpr std::size_t kAlwaysRound = 200;
/// Random poses per block of the Never sampling: the unit of work of a thread, and the span
/// over which a pair seen colliding is not checked again.
constexpr std::size_t kBlock = 64;
/// Streams of random poses: the Never sampling, then one per round of Always.
constexpr std::uint64_t kNeverStream = 0;

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Random pose `index` of `stream`: each joint uniform within its bounds. A counter-based
/// generator, so that the pose depends on (seed, stream, index) only, not on which thread
/// draws it or in what order. Allocates nothing.
void random_pose(const CollisionModel::Impl& m, std::uint64_t seed, std::uint64_t stream, std::uint64_t index,
                 std::span<double> q) {
  const std::uint64_t base = splitmix(splitmix(splitmix(seed) ^ stream) ^ index);
  for (std::size_t j = 0; j < q.size(); ++j) {
    const double u = static_cast<double>(splitmix(base + j) >> 11) * 0x1.0p-53;  // [0, 1)
    q[j] = m.lower[j] + (m.upper[j] - m.lower[j]) * u;
  }
}

/// Runs work(thread, workspace, pose buffer) on `threads` threads, each with its own workspace;
/// rethrows the first exception.
template <typename Work>
void on_threads(const CollisionModel& model, unsigned threads, Work work) {
  std::exception_ptr failure;
  std::mutex mutex;
  auto body = [&](unsigned t) {
    try {
      CollisionWorkspace ws(model);
      std::vector<double> q(model.joint_names().size());
      work(t, ws, q);
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(body, t);
  body(0);
  for (auto& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

std::string_view to_string(Reason reason) {
  switch (reason) {
    case Reason::adjacent: return "Adjacent";
    case Reason::default_pose: return "Default";
    case Reason::always: return "Always";
    case Reason::never: return "Never";
    case Reason::user: return "User";
  }
  return "User";
}

Reason parse_reason(std::string_view word) {
  for (Reason r : {Reason::adjacent, Reason::default_pose, Reason::always, Reason::never})
    if (word == to_string(r)) return r;
  return Reason::user;
}

std::size_t ComputedMatrix::count(Reason reason) const {
  return static_cast<std::size_t>(std::count_if(disabled.begin(), disabled.end(), [reason](const DisabledPair& p) {
    return parse_reason(p.reason) == reason;
  }));
}

std::vector<double> sample_pose(const CollisionModel& model, std::uint64_t seed, std::uint64_t index) {
  std::vector<double> q(model.joint_names().size());
  random_pose(model.impl(), seed, kNeverStream, index, q);
  return q;
}

ComputedMatrix compute_collision_matrix(const CollisionModel& model, const MatrixOptions& options) {
  if (!(options.always_fraction > 0 && options.always_fraction <= 1))
    throw InvalidArgument(fmt::format("MatrixOptions::always_fraction {} is not in (0, 1]", options.always_fraction));
  const auto& m = model.impl();
  const std::size_t n = m.links.size();
  const unsigned threads =
      std::max(1u, options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency()));
  ComputedMatrix out;
  out.links = n;
  out.pairs = n * (n > 0 ? n - 1 : 0) / 2;
  std::vector<std::optional<Reason>> reason(n * n);
  AllowedPairs acm(n);
  auto disable = [&](std::uint32_t a, std::uint32_t b, Reason r) {
    if (!reason[a * n + b]) reason[a * n + b] = r;
    acm.allow(a, b);
  };
  // 1. Adjacent.
  for (const LinkPair& p : m.adjacent) disable(p.first, p.second, Reason::adjacent);
  // 2. Default: colliding at the default pose.
  {
    CollisionWorkspace ws(model);
    set_pose(model, ws, m.defaults);
    check_self_collisions(model, ws, acm, {0.0, false});
    for (const PairContact& c : ws.contacts()) disable(c.pair.first, c.pair.second, Reason::default_pose);
  }
  // 3. Always: rounds of 200 random poses; a pair colliding in more than 95 % of a round is
  //    disabled, and rounds go on until one disables nothing.
  std::vector<char> seen(n * n, 0);  // seen colliding in a random pose of the Always rounds
  const auto limit = static_cast<std::size_t>(static_cast<double>(kAlwaysRound) * options.always_fraction);
  for (std::uint64_t round = 0;; ++round) {
    std::vector<std::vector<std::uint32_t>> counts(threads, std::vector<std::uint32_t>(n * n, 0));
    std::atomic<std::size_t> next{0};
    on_threads(model, threads, [&](unsigned t, CollisionWorkspace& ws, std::vector<double>& q) {
      for (std::size_t i = next.fetch_add(1); i < kAlwaysRound; i = next.fetch_add(1)) {
        random_pose(m, options.seed, kNeverStream + 1 + round, i, q);
        set_pose(model, ws, q);
        check_self_collisions(model, ws, acm, {0.0, false});
        for (const PairContact& c : ws.contacts()) ++counts[t][c.pair.first * n + c.pair.second];
      }
    });
    ++out.always_rounds;
    std::size_t found = 0;
    for (std::uint32_t a = 0; a < n; ++a)
      for (std::uint32_t b = a + 1; b < n; ++b) {
        std::size_t total = 0;
        for (const auto& c : counts) total += c[a * n + b];
        if (total > 0) seen[a * n + b] = 1;
        if (total > limit) {
          disable(a, b, Reason::always);
          ++found;
        }
      }
    if (found == 0) break;
  }
  // 4. Never: every pair is checked in every random pose (so that check --collisions learns
  //    about the pairs disabled for other reasons too), but within a block of poses a pair is
  //    not checked again once seen colliding. Each thread keeps the first pose it saw each pair
  //    collide in; the smallest over the threads is the result, whatever the threads' order.
  out.first_collision.assign(n * n, -1);
  if (options.include_never && options.samples > 0) {
    out.samples = options.samples;
    const std::size_t blocks = (options.samples + kBlock - 1) / kBlock;
    std::vector<std::vector<std::int64_t>> first(threads, std::vector<std::int64_t>(n * n, -1));
    std::atomic<std::size_t> next{0};
    const AllowedPairs none(n);
    on_threads(model, threads, [&](unsigned t, CollisionWorkspace& ws, std::vector<double>& q) {
      AllowedPairs skip(n);
      auto& mine = first[t];
      for (std::size_t block = next.fetch_add(1); block < blocks; block = next.fetch_add(1)) {
        skip = none;
        const std::size_t end = std::min(options.samples, (block + 1) * kBlock);
        for (std::size_t i = block * kBlock; i < end; ++i) {
          random_pose(m, options.seed, kNeverStream, i, q);
          set_pose(model, ws, q);
          check_self_collisions(model, ws, skip, {0.0, false});
          for (const PairContact& c : ws.contacts()) {
            std::int64_t& f = mine[c.pair.first * n + c.pair.second];
            if (f < 0 || static_cast<std::int64_t>(i) < f) f = static_cast<std::int64_t>(i);
            skip.allow(c.pair.first, c.pair.second);
          }
        }
      }
    });
    for (std::size_t p = 0; p < n * n; ++p)
      for (const auto& f : first)
        if (f[p] >= 0 && (out.first_collision[p] < 0 || f[p] < out.first_collision[p])) out.first_collision[p] = f[p];
    for (std::uint32_t a = 0; a < n; ++a)
      for (std::uint32_t b = a + 1; b < n; ++b)
        if (!reason[a * n + b] && !seen[a * n + b] && out.first_collision[a * n + b] < 0)
          reason[a * n + b] = Reason::never;
  }
  for (std::uint32_t a = 0; a < n; ++a)
    for (std::uint32_t b = a + 1; b < n; ++b)
      if (const auto r = reason[a * n + b]) {
        const std::string& x = m.links[a];
        const std::string& y = m.links[b];
        out.disabled.push_back({std::min(x, y), std::max(x, y), std::string(to_string(*r)), 0});
      }
  std::sort(out.disabled.begin(), out.disabled.end(), [](const DisabledPair& x, const DisabledPair& y) {
    return std::tie(x.link1, x.link2) < std::tie(y.link1, y.link2);
  });
  return out;
}

AllowedPairs pairs_left_out(const CollisionModel& model) {
  const rmodel::CollisionMatrix& matrix = model.model().semantics().collisions;
  AllowedPairs out(model.links().size());
  if (matrix.empty()) {
    for (const LinkPair& p : model.adjacent_pairs()) out.allow(p.first, p.second);
    return out;
  }
  // MoveIt's order: the disabled pairs, every pair of a disabled_default link, then the enabled
  // pairs checked again.
  out = allowed_pairs(model, matrix.disabled);
  for (const CollisionDefault& d : matrix.disabled_default)
    if (const auto a = model.find_link(d.link))
      for (std::size_t b = 0; b < model.links().size(); ++b)
        if (b != *a) out.allow(*a, b);
  for (const CollisionPair& e : matrix.enabled) {
    const auto a = model.find_link(e.link1), b = model.find_link(e.link2);
    if (a && b && *a != *b) out.forbid(*a, *b);
  }
  return out;
}

AllowedPairs allowed_pairs(const CollisionModel& model, std::span<const DisabledPair> entries) {
  AllowedPairs out(model.links().size());
  for (const auto& e : entries) {
    const auto a = model.find_link(e.link1), b = model.find_link(e.link2);
    if (a && b && *a != *b) out.allow(*a, *b);
  }
  return out;
}

Diagnostics compare_collision_matrix(const CollisionModel& model, const ComputedMatrix& computed,
                                     std::span<const DisabledPair> declared, const std::string& srdf_name,
                                     const MatrixOptions& options) {
  const auto& m = model.impl();
  const std::size_t n = m.links.size();
  Diagnostics out;
  // What the computed matrix says of each pair.
  std::vector<std::optional<Reason>> computed_reason(n * n);
  for (const auto& d : computed.disabled) {
    const auto a = model.find_link(d.link1), b = model.find_link(d.link2);
    if (a && b) computed_reason[std::min(*a, *b) * n + std::max(*a, *b)] = parse_reason(d.reason);
  }
  auto sampled = [&](std::size_t p) {
    return fmt::format("random pose {} of {} (sample_pose with seed {} and index {} gives it)",
                       computed.first_collision[p], computed.samples, options.seed, computed.first_collision[p]);
  };
  std::vector<char> declared_pair(n * n, 0);
  for (const auto& e : declared) {
    const SourceLocation where{srdf_name, e.line};
    const auto a = model.find_link(e.link1), b = model.find_link(e.link2);
    if (!a || !b || *a == *b) continue;  // loading reports links the URDF lacks (collision-unknown-link)
    const std::size_t p = std::min(*a, *b) * n + std::max(*a, *b);
    declared_pair[p] = 1;
    const Reason r = parse_reason(e.reason);
    if (r == Reason::user || computed.first_collision[p] < 0) continue;
    // The entry hides collisions: a Never pair that collided, or a pair whose reason no
    // longer holds and that collides.
    const auto now = computed_reason[p];
    const bool stale = r == Reason::never || !now || (r == Reason::adjacent && now != Reason::adjacent) ||
                       (r == Reason::default_pose && now != Reason::default_pose);
    if (!stale) continue;
    std::string holds;
    if (now == Reason::adjacent) holds = "; they are adjacent";
    else if (now == Reason::default_pose) holds = "; they collide at the default pose";
    else if (now == Reason::always) holds = "; they collide in nearly every pose";
    out.add(Severity::warning, where, "collision-matrix-stale",
            fmt::format("links '{}' and '{}' are disabled as {}, but collide in {}{}", e.link1, e.link2, e.reason,
                        sampled(p), holds));
  }
  for (const auto& d : computed.disabled) {
    const std::size_t p = *model.find_link(d.link1) * n + *model.find_link(d.link2);
    const std::size_t q = *model.find_link(d.link2) * n + *model.find_link(d.link1);
    if (declared_pair[p] || declared_pair[q]) continue;
    std::string why;
    switch (parse_reason(d.reason)) {
      case Reason::adjacent: why = "a joint joins them"; break;
      case Reason::default_pose: why = "they collide at the default pose"; break;
      case Reason::always: why = "they collide in nearly every pose"; break;
      default: why = fmt::format("they collide in none of {} random poses (seed {})", computed.samples, options.seed);
    }
    out.add(Severity::warning, SourceLocation{srdf_name, 0}, "collision-matrix-missing",
            fmt::format("links '{}' and '{}' are not disabled, but {} (reason=\"{}\")", d.link1, d.link2, why,
                        d.reason));
  }
  return out;
}

Diagnostics check_collision_matrix(const ModelSource& source, const MatrixOptions& options) {
  Diagnostics out;
  const Model model = Model::load(source);
  const std::string name = display_name(source.semantics_path.empty() ? source.urdf_path : source.semantics_path);
  const rmodel::CollisionMatrix& declared = model.semantics().collisions;
  if (declared.disabled.empty()) {
    out.add(Severity::note, {name, 0}, "collision-matrix-none",
            "the semantics have no collision matrix (<disable_collisions>) to check: compute_collision_matrix computes "
            "one");
    return out;
  }
  const CollisionModel cm = CollisionModel::build(model, geometry_options(source));
  for (const Shape* s : cm.unusable_shapes())
    out.add(Severity::warning, {display_name(source.urdf_path), s->line}, "collision-mesh-left-out",
            fmt::format("link '{}': collision mesh '{}' is left out of the collision checks: {}", s->link, s->filename,
                        s->error));
  const ComputedMatrix computed = compute_collision_matrix(cm, options);
  for (auto& d : compare_collision_matrix(cm, computed, declared.disabled, name, options).items)
    out.items.push_back(std::move(d));
  return out;
}

}  // namespace rmodel::collision
