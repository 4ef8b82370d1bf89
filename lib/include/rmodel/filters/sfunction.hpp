#pragma once
/// @file sfunction.hpp
/// The S-function plumbing of SPEC §3 shared by the filter templates, so that each filter
/// writes only its own equations.
///
/// Public calls (identical in every filter that derives from SFunction):
///   - `output(u)` — y[k] for input u, does not advance; remembers that an output is pending;
///   - `update(u)` — y[k], and advances;
///   - `update()` — advances as if update() had been given the last output's input
///     (nothing if there was no output since the last update or start);
///   - with `Timed`: `output(u, Interval{dt})`, `update(u, Interval{dt})`,
///     `update(Interval{dt})` — the same for a sample dt seconds after the previous one.
///
/// What `update()` does with the pending output is the filter's choice:
///   - `Pending::Replay` — the input (and interval) given to output() is stored and
///     update() runs update(u, dt) on it (integrators, differentiators);
///   - `Pending::Adopt` — the output already computed is the next state, so update() asks
///     the filter to adopt it (an O(1) swap; transients, hysteresis). update(Interval)
///     adopts too: the interval was given to output().
///
/// A derived filter `D` provides (private, with `friend SFunction`):
///   - `const Out& output_step(const In& u)` and `const Out& update_step(const In& u)` —
///     its output formula and its state advance at the fixed period;
///   - with `Timed`: `output_step(u, double dt)` and `update_step(u, double dt)`;
///   - with `Replay`: public `double period()`; its start(x0) sizes `this->u_last_` and its
///     start()s call `this->clear_pending()`;
///   - with `Adopt`: `void adopt_output()`.
/// A derived class adding overloads of output/update writes `using SFunction::output;`
/// (and update) so that these stay visible. Nothing here allocates.

#include <type_traits>

#include "rmodel/filters/space.hpp"

namespace rmodel::filters {

/// What update() without an input does; see the file comment.
enum class Pending {
  Replay,  ///< re-run update() on the input given to the last output()
  Adopt    ///< make the last output the new state
};

/// CRTP base for the S-function plumbing; see the file comment.
/// @tparam Derived the filter
/// @tparam In input type of output/update
/// @tparam Out output type (returned by reference, valid until the next call)
/// @tparam P what update() does with a pending output
/// @tparam Timed whether the variable-step (Interval) forms exist
template <class Derived, class In, class Out, Pending P = Pending::Replay, bool Timed = true>
class SFunction {
public:
  /// y[k] for input u; does not advance.
  const Out& output(const In& u) noexcept {
    if constexpr (P == Pending::Replay) remember(u, self().period());
    else pending_ = true;
    return self().output_step(u);
  }
  /// y[k] for input u, and advances.
  const Out& update(const In& u) noexcept {
    pending_ = false;
    return self().update_step(u);
  }
  /// Advances with what the last output() left pending; nothing if there was none since
  /// the last update or start.
  void update() noexcept {
    if constexpr (P == Pending::Replay) {
      if (pending_) (void)update(u_last_, Interval{dt_last_});
    } else {
      if (pending_) self().adopt_output();
      pending_ = false;
    }
  }

  /// y[k] for a sample dt seconds (> 0) after the previous one; does not advance.
  const Out& output(const In& u, Interval dt) noexcept
    requires Timed
  {
    if constexpr (P == Pending::Replay) remember(u, dt.seconds);
    else pending_ = true;
    return self().output_step(u, dt.seconds);
  }
  /// As output(u, dt), and advances.
  const Out& update(const In& u, Interval dt) noexcept
    requires Timed
  {
    pending_ = false;
    return self().update_step(u, dt.seconds);
  }
  /// Advances with what the last output() left pending, over dt seconds (Adopt: the
  /// interval was already given to output()).
  void update(Interval dt) noexcept
    requires Timed
  {
    if constexpr (P == Pending::Replay) {
      if (pending_) (void)update(u_last_, dt);
    } else {
      (void)dt;
      update();
    }
  }

protected:
  SFunction() = default;
  ~SFunction() = default;
  SFunction(const SFunction&) = default;
  SFunction(SFunction&&) = default;
  SFunction& operator=(const SFunction&) = default;
  SFunction& operator=(SFunction&&) = default;

  /// For start(): no output is pending any more.
  void clear_pending() noexcept { pending_ = false; }
  /// For outputs of the derived class's own forms (Adopt): an output is pending.
  void set_pending() noexcept { pending_ = true; }

  struct NoInput {};
  /// The input of the last output() (Replay only); sized by the derived start(x0).
  [[no_unique_address]] std::conditional_t<P == Pending::Replay, In, NoInput> u_last_{};

private:
  Derived& self() noexcept { return static_cast<Derived&>(*this); }

  void remember(const In& u, double dt) noexcept {
    detail::assign(u_last_, detail::lin(u));
    dt_last_ = dt;
    pending_ = true;
  }

  [[no_unique_address]] std::conditional_t<P == Pending::Replay, double, NoInput> dt_last_{};
  bool pending_ = false;
};

}  // namespace rmodel::filters
