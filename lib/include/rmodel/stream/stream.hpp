#pragma once
#include "rmodel/export.hpp"
/// @file stream.hpp
/// The streaming pipeline (docs/streaming.md): reader → slot mapper → stage → [output
/// filter] → sink. The same code replays a log (`rmodel aggregate`, `filter`, `fk --log`,
/// `check-log`) and runs inside a program that pushes messages as they arrive:
///
/// ```
/// rmodel::Aggregator aggregator(model, options);             // a Stage
/// rmodel::stream::CallbackSink sink([](const rmodel::JointState& pose, auto cycle) { ... });
/// rmodel::stream::Pipeline pipeline(aggregator, sink, [](const rmodel::stream::Event& e) { log(e.text); });
/// pipeline.push(message);   // per message, with its own stamp
/// pipeline.finish();        // end of input: publishes the last cycle
/// ```
///
/// - **One mapper.** SlotMapper turns a message's joint names into slots; it is the only
///   place that says what is wrong with names and sizes: `unknown joint 'X' skipped`
///   (warning, reported once per name, counted every time), `'position' has 3 values for 4
///   names` and `joint 'X' is named twice (elements 2 and 5)` (the message is rejected).
/// - **One run loop.** Pipeline counts messages, rejections and warnings, applies the error
///   budget (`max_errors`), and ends quietly when the output is closed (BrokenPipe from the
///   sink): the summary tells. The library never prints: problems go to the EventHandler.
/// - **No joint at all.** An input whose joint states (at least one) name no joint of a fixed
///   mapper (a model) is rejected as a whole at its end: `no joint of the model appears in this
///   input: its N joint states name only 'a', 'b', ...`, so a log of another robot, or a CSV
///   whose columns need a prefix, never passes as all-zero poses. Inputs where some messages match are fine (the others get
///   the unknown-joint warning).
/// - **Time windows.** A reader with a time window (io::ReaderOptions::start, end) gives run()
///   every message, those outside the window too: the stage takes them into its state (the
///   pose held, filters, differentiators, the tick clock) and what it publishes is cut to the
///   window by its time (Output), so the result equals the whole replay cut to the window.
///   Problems with messages outside the window are neither reported nor counted
///   (docs/design.md, "Time windows").
/// - **No allocation per message** once warm (names seen before, sizes seen before), except
///   when a problem is reported (its text is formatted then).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "rmodel/base/diagnostic.hpp"
#include "rmodel/io/message.hpp"
#include "rmodel/base/joint_state.hpp"
#include "rmodel/base/time.hpp"

namespace rmodel::io {
class MessageReader;
struct ReadError;
enum class ReadStatus;
class MessageWriter;
}  // namespace rmodel::io

namespace rmodel::stream {

/// A problem with one message (or line) of a stream.
struct RMODEL_API Event {
  /// error: the message (or line) was rejected; warning: it was used, with the problem noted.
  Severity severity = Severity::warning;
  std::size_t line = 0;   ///< 1-based line of the input, 0 when unknown
  std::size_t item = 0;   ///< 1-based element of an enclosing array or trajectory, or 0
  std::string_view text;  ///< what is wrong, e.g. "unknown joint 'x' skipped"
  /// Binary ROS logs: the byte offset of the damaged record (io::ReadError::byte_offset);
  /// `line` is then the 1-based message number in the file.
  std::optional<std::uint64_t> byte_offset{};
};

/// Receives the problems of a stream (print them, log them, or ignore them).
using EventHandler = std::function<void(const Event&)>;

/// Counts of a run.
struct RMODEL_API Summary {
  std::uint64_t read = 0;      ///< messages read (good ones; inside the time window when there is one)
  std::uint64_t outside = 0;   ///< messages read outside the time window (they primed the stage)
  std::uint64_t written = 0;   ///< messages given to the sink
  std::uint64_t rejected = 0;  ///< bad lines and refused messages
  std::uint64_t warnings = 0;  ///< warnings (every occurrence, also those reported once)
  bool budget_exhausted = false;  ///< stopped by max_errors
  bool output_closed = false;     ///< the sink's reader went away (BrokenPipe)
  [[nodiscard]] bool stopped_early() const noexcept { return budget_exhausted || output_closed; }
};

/// Counts problems and passes them to the handler. Stages report through it.
class RMODEL_API Reporter {
public:
  explicit Reporter(EventHandler handler = {}, std::uint64_t max_errors = 0);

  /// A warning about `message` (counted, passed on).
  void warn(const io::Message& message, std::string_view text);
  /// While muted (the pipeline pushes a message outside its time window), warnings,
  /// rejections and the matching of names are neither counted nor passed on, and a warning
  /// reported once is not marked as reported.
  void set_muted(bool muted) noexcept { muted_ = muted; }
  [[nodiscard]] bool muted() const noexcept { return muted_; }
  /// A warning passed on only the first time `key` is seen (counted every time). The text
  /// is built by `make_text` only then, so a repeated warning allocates nothing.
  template <class MakeText>
  void warn_once(const io::Message& message, std::string_view key, MakeText&& make_text) {
    if (muted_) return;
    ++summary_.warnings;
    if (!handler_ || reported_.contains(key)) return;
    reported_.emplace(key);
    const std::string text = make_text();
    handler_(Event{Severity::warning, message.line, message.item, text});
  }
  /// A warning that may repeat, of kind `kind` (a stable code such as "position-limit")
  /// about `subject` (a joint, a chain; empty: the stream as a whole). Counted every time;
  /// passed on only the first max_reports times for this kind and subject (0: always); the
  /// text is built by `make_text` only when it is passed on, so a warning nobody sees
  /// (no handler, or beyond the cap) formats nothing and, once its kind and subject were
  /// seen, allocates nothing. The ones held back are listed by held_back().
  template <class MakeText>
  void warn(const io::Message& message, std::string_view kind, std::string_view subject, MakeText&& make_text) {
    if (muted_) return;
    ++summary_.warnings;
    if (!handler_ || !pass_on(kind, subject)) return;
    const std::string text = make_text();
    handler_(Event{Severity::warning, message.line, message.item, text});
  }
  /// Rejects `message` because of `text` (counted, passed on).
  void reject(const io::Message& message, std::string_view text);
  /// Rejects a line the reader could not read (`byte_offset`: see Event).
  void reject(std::size_t line, std::size_t item, std::string_view text,
              std::optional<std::uint64_t> byte_offset = std::nullopt);
  /// True once max_errors rejections were counted (0: never).
  [[nodiscard]] bool over_budget() const noexcept;

  /// How the joint states of the current input matched a fixed set of slots (a model's joints).
  struct RMODEL_API Matching {
    std::uint64_t messages = 0;      ///< joint states mapped (not rejected)
    std::uint64_t matched = 0;       ///< of which at least one name had a slot
    std::vector<std::string> names;  ///< the first few distinct names seen while none matched
  };
  /// Called by SlotMapper for each joint state it maps against fixed slots.
  void note_mapping(const JointState& state, bool any_known);
  [[nodiscard]] const Matching& matching() const noexcept { return matching_; }
  /// Starts a new input: the matching counts restart.
  void reset_matching() { matching_ = Matching{}; }
  /// When joint states were mapped since reset_matching() and none named a slot, rejects the
  /// input (line 0) with "no joint of the model appears in this input ..." and returns true.
  /// Pipeline::run() calls it at the end of each input, Pipeline::finish() for pushed messages.
  bool check_matching();
  /// The text check_matching() rejects an input with, for these counts; empty when no joint
  /// state was mapped or one named a slot.
  [[nodiscard]] static std::string unmatched_text(const Matching& matching);

  [[nodiscard]] Summary& summary() noexcept { return summary_; }

  /// Warnings of one kind and subject that the cap (max_reports) held back.
  struct RMODEL_API HeldBack {
    std::string kind;     ///< e.g. "position-limit"
    std::string subject;  ///< e.g. the joint's name; empty for the stream as a whole
    std::uint64_t count = 0;  ///< warnings counted but not passed on
  };
  /// Per kind and subject with warnings held back, in the order the first was held back.
  [[nodiscard]] std::vector<HeldBack> held_back() const;
  /// Warnings passed on per kind and subject (0: no cap). Counts so far are kept.
  void set_max_reports(std::uint64_t max_reports) noexcept { max_reports_ = max_reports; }
  [[nodiscard]] std::uint64_t max_reports() const noexcept { return max_reports_; }

private:
  /// Counts a capped warning; true when it is to be passed on.
  bool pass_on(std::string_view kind, std::string_view subject);

  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  EventHandler handler_;
  std::uint64_t max_errors_ = 0;
  bool muted_ = false;
  Summary summary_;
  std::unordered_set<std::string, Hash, std::equal_to<>> reported_;
  Matching matching_;
  // Capped warnings: per kind, per subject, how many were counted, and the order in which
  // kinds and subjects first went over the cap. Kinds are few (a handful of codes): a vector.
  struct SubjectCount {
    std::uint64_t count = 0;      // counted
    std::uint64_t held = 0;       // of which held back
    std::size_t held_order = 0;   // order of the first held back among all kinds and subjects
  };
  struct KindCounts {
    std::string kind;
    std::unordered_map<std::string, SubjectCount, Hash, std::equal_to<>> subjects;
  };
  std::uint64_t max_reports_ = 0;
  std::vector<KindCounts> capped_;
  std::size_t held_kinds_ = 0;
};

/// Maps the joint names of messages to slots 0 … size()−1 (the one name→slot resolution of
/// the streaming commands). Fixed: the slots are given up front (a model's pose); unknown
/// names are skipped with a warning. Open: every new name gets the next slot (a stream
/// without a model). Per message: a cache of the last few name lists (a stream that cycles
/// through the chains of a robot sends a handful of lists again and again; a list seen
/// before costs one string compare per name), then a hash map per name.
class RMODEL_API SlotMapper {
public:
  static constexpr std::int32_t kUnknown = -1;
  /// In slots(), with Repeats::skip: an element naming a slot an earlier element named.
  static constexpr std::int32_t kRepeated = -2;
  /// What map() does with a message naming a slot twice: reject it, or keep the first
  /// element and mark the later ones kRepeated (a checker that reports every problem).
  enum class Repeats { reject, skip };

  /// Fixed slots: `names[i]` is slot i. `what` names the entity in messages ("joint").
  explicit SlotMapper(std::vector<std::string> names, bool open = false, std::string what = "joint");
  /// An open mapper with no slot yet.
  SlotMapper() : SlotMapper({}, true) {}

  /// Resolves the names of `state` (the joint state of `message`, or another one of its
  /// states). Checks that position, velocity and effort are empty or as long as `name` and
  /// that no slot is named twice; a failing message is rejected through `report` and false
  /// returned. Unknown names: a warning (once per name) and kUnknown in slots().
  bool map(const JointState& state, const io::Message& message, Reporter& report);
  /// map() of message.joint.
  bool map(const io::Message& message, Reporter& report) { return map(message.joint, message, report); }

  /// Why the last map() returned false.
  enum class Problem { none, size, repeated };
  [[nodiscard]] Problem problem() const noexcept { return problem_; }
  /// After Problem::repeated: the 0-based element naming a slot a second time.
  [[nodiscard]] std::size_t repeated_element() const noexcept { return repeated_element_; }
  /// After map() returned false: what is wrong, e.g. "'position' has 3 values for 4 names"
  /// (the text of the rejection without its "message rejected: ").
  [[nodiscard]] const std::string& problem_text() const noexcept { return problem_text_; }
  /// Element `element` (0-based) of the last mapped message names a slot an earlier one
  /// named: "joint 'X' is named twice (elements 2 and 5)". The one wording of that problem.
  [[nodiscard]] std::string repeated_text(std::size_t element) const;
  void set_repeats(Repeats repeats) noexcept { repeats_ = repeats; }
  /// The slot of `name`, adding it when absent (whether the mapper is open or not).
  std::size_t add(const std::string& name);

  /// Per element of the last mapped message: its slot, or kUnknown.
  [[nodiscard]] std::span<const std::int32_t> slots() const noexcept { return slots_; }
  /// The slot of a name, if it has one.
  [[nodiscard]] std::optional<std::size_t> find(const std::string& name) const;
  [[nodiscard]] std::size_t size() const noexcept { return names_.size(); }
  /// Names of the slots, in slot order.
  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }

private:
  std::int32_t resolve(const std::string& name);
  /// A name list mapped before without a problem, and its slots.
  struct KnownList {
    std::vector<std::string> names;
    std::vector<std::int32_t> slots;
    bool valid = false;
  };
  static constexpr std::size_t kKnownLists = 8;
  const KnownList* find_known(const std::vector<std::string>& names);
  void remember(const std::vector<std::string>& names);
  bool map_names(const JointState& state, const io::Message& message, Reporter& report);

  std::vector<std::string> names_;
  bool open_ = false;
  std::string what_;
  std::unordered_map<std::string, std::int32_t> index_;
  KnownList known_[kKnownLists];
  std::size_t known_next_ = 0;  ///< the entry a new list replaces (round robin)
  std::size_t known_hit_ = 0;   ///< the entry that matched last
  std::vector<std::string> repeated_name_;  ///< per element found repeated: its name
  std::vector<std::int32_t> slots_;
  std::uint64_t generation_ = 0;
  std::vector<std::uint64_t> named_in_;
  std::vector<std::size_t> named_at_;
  Problem problem_ = Problem::none;
  std::size_t repeated_element_ = 0;
  std::string problem_text_;
  Repeats repeats_ = Repeats::reject;
  std::vector<std::size_t> first_of_;  // per element marked kRepeated: the element named first
};

/// Where a pipeline's results go.
class RMODEL_API Sink {
public:
  virtual ~Sink() = default;
  /// A joint state (a pose, a filtered message, ...). `cycle`: its control cycle, if any.
  virtual void joint_state(const JointState& state, std::optional<std::int64_t> cycle) = 0;
  /// A support state.
  virtual void support_state(const SupportState& state, std::optional<std::int64_t> cycle) = 0;
  /// Any other message a stage passes through unchanged (default: its joint or support state).
  virtual void message(const io::Message& message);
  /// The stream is about to wait for input, or has ended: make everything visible.
  virtual void flush() {}

  /// A result outside the time window of the run (Pipeline::run of a reader with a window):
  /// nothing of it is written, but a sink whose results depend on what came before (a filter,
  /// a differentiator, a pose held joint by joint) takes it into its state exactly as the
  /// calls above would, and hands what it would have handed on to the same *_outside call of
  /// the next sink. Default: ignored (a writer, a callback).
  virtual void joint_state_outside(const JointState& state, std::optional<std::int64_t> cycle);
  virtual void support_state_outside(const SupportState& state, std::optional<std::int64_t> cycle);
  /// message() outside the window (default: its joint or support state, as message()).
  virtual void message_outside(const io::Message& message);
};

/// Writes to an io::MessageWriter (kept by reference).
class RMODEL_API WriterSink final : public Sink {
public:
  explicit WriterSink(io::MessageWriter& writer) : writer_(&writer) {}
  void joint_state(const JointState& state, std::optional<std::int64_t> cycle) override;
  void support_state(const SupportState& state, std::optional<std::int64_t> cycle) override;
  void message(const io::Message& message) override;
  void flush() override;

private:
  io::MessageWriter* writer_;
};

/// Calls functions (an embedding program's callbacks). An empty function drops that kind.
class RMODEL_API CallbackSink final : public Sink {
public:
  using JointCallback = std::function<void(const JointState&, std::optional<std::int64_t>)>;
  using SupportCallback = std::function<void(const SupportState&, std::optional<std::int64_t>)>;
  explicit CallbackSink(JointCallback on_joint, SupportCallback on_support = {})
      : on_joint_(std::move(on_joint)), on_support_(std::move(on_support)) {}
  void joint_state(const JointState& state, std::optional<std::int64_t> cycle) override {
    if (on_joint_) on_joint_(state, cycle);
  }
  void support_state(const SupportState& state, std::optional<std::int64_t> cycle) override {
    if (on_support_) on_support_(state, cycle);
  }

private:
  JointCallback on_joint_;
  SupportCallback on_support_;
};

/// What a stage writes to: counts what it publishes and passes it to the sink. With a time
/// window (set by Pipeline::run from its reader), what is stamped outside it goes to the
/// sink's *_outside calls instead, uncounted.
class RMODEL_API Output {
public:
  Output(Sink& sink, Summary& summary) : sink_(&sink), summary_(&summary) {}
  void joint_state(const JointState& state, std::optional<std::int64_t> cycle) {
    if (!in_window(state.stamp)) return sink_->joint_state_outside(state, cycle);
    ++summary_->written;
    sink_->joint_state(state, cycle);
  }
  void support_state(const SupportState& state, std::optional<std::int64_t> cycle) {
    if (!in_window(state.stamp)) return sink_->support_state_outside(state, cycle);
    ++summary_->written;
    sink_->support_state(state, cycle);
  }
  void message(const io::Message& message) {
    if (message.has_stamp && !in_window(message.stamp())) return sink_->message_outside(message);
    ++summary_->written;
    sink_->message(message);
  }
  /// True when what is stamped `t` is to be written: no window applies, or t lies in it. A
  /// stage that writes elsewhere than to this Output (a report, a file of its own) asks it
  /// for each result, and takes what lies outside into its state only.
  [[nodiscard]] bool in_window(Time t) const noexcept { return !window_ || window_->contains(t); }
  /// The window results are cut to (none: all are written).
  void set_window(const std::optional<TimeWindow>& window) noexcept { window_ = window; }
  [[nodiscard]] const std::optional<TimeWindow>& window() const noexcept { return window_; }

private:
  Sink* sink_;
  Summary* summary_;
  std::optional<TimeWindow> window_;
};

/// One step of the pipeline: takes messages, publishes through `out`, reports through `report`.
class RMODEL_API Stage {
public:
  virtual ~Stage() = default;
  /// Processes one message that was read without error.
  virtual void push(const io::Message& message, Output& out, Reporter& report) = 0;
  /// End of input: publish what is still pending (e.g. the last cycle).
  virtual void finish(Output& /*out*/, Reporter& /*report*/) {}
};

/// Options of a Pipeline run.
struct RMODEL_API RunOptions {
  /// Stop after this many rejected lines and messages (0: never).
  std::uint64_t max_errors = 0;
  /// Warnings passed to the handler per kind and subject (Reporter::warn with a kind; 0: all);
  /// the others are counted, and listed by Reporter::held_back().
  std::uint64_t max_reports = 0;
  /// Called per message read, with the number read so far, outside a time window too (e.g. a progress bar).
  std::function<void(std::uint64_t)> on_message;
  /// run() reads a reader that allows it (MessageReader::may_read_ahead(): a regular file) on
  /// a second thread, up to a bounded number of messages ahead of the stage, so that parsing
  /// and the stage with its output use two cores. What reaches the stage, the sink and the
  /// handler, in which order, is the same as without it; only the points where the sink is
  /// flushed differ (a file is not waited for). A live input or a merge is always read on the
  /// calling thread, a live input's results flushed out before the next is waited for. The handler and
  /// on_message are called on the calling thread.
  bool read_ahead = false;
};

/// Runs messages through a stage into a sink; owns the counting, the error budget and the
/// closed-output ending. Keeps references to stage and sink.
class RMODEL_API Pipeline {
public:
  Pipeline(Stage& stage, Sink& sink, EventHandler handler = {}, RunOptions options = {});
  // output_ points into reporter_: a copied or moved pipeline would count into the old one.
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;
  Pipeline(Pipeline&&) = delete;
  Pipeline& operator=(Pipeline&&) = delete;

  /// Pushes one message (an embedding program's entry point). Returns false once the run
  /// must stop (error budget spent or output closed); later pushes are ignored.
  bool push(const io::Message& message);
  /// Reads `reader` to its end (flushing the sink whenever the reader is about to wait for
  /// input, so that a live stream sees each result at once). False when the run stopped early.
  /// A reader with a time window (not read from before) gives every message: those outside the
  /// window are pushed with the reporter muted and count in Summary::outside, not in read;
  /// what the stage publishes is cut to the window by its stamp (Output::set_window), also at
  /// finish(). The result equals the replay of the whole reader cut to the window.
  bool run(io::MessageReader& reader);
  /// End of input: lets the stage publish what is pending and flushes the sink. Idempotent.
  void finish();

  [[nodiscard]] const Summary& summary() noexcept { return reporter_.summary(); }
  [[nodiscard]] Reporter& reporter() noexcept { return reporter_; }

private:
  bool stopped() noexcept { return reporter_.summary().stopped_early(); }
  /// One result of the reader (`window`: the reader's then): a message pushed, an error
  /// reported. False to stop reading.
  bool take(io::ReadStatus status, const io::Message& message, const io::ReadError* error,
            const std::optional<TimeWindow>& window);
  /// Pushes a message outside the time window: the stage takes it in, the reporter is muted.
  void push_outside(const io::Message& message);
  void run_here(io::MessageReader& reader);
  void run_read_ahead(io::MessageReader& reader);

  Stage* stage_;
  Sink* sink_;
  RunOptions options_;
  Reporter reporter_;
  Output output_;
  bool finished_ = false;
};

}  // namespace rmodel::stream
