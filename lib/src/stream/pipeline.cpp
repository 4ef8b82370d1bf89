#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "base/short_name.hpp"
#include "rmodel/base/error.hpp"
#include "io/read/reader_window.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"
#include "rmodel/stream/stream.hpp"

namespace rmodel::stream {

// ---------------------------------------------------------------------------------------
// Reporter

Reporter::Reporter(EventHandler handler, std::uint64_t max_errors)
    : handler_(std::move(handler)), max_errors_(max_errors) {}

void Reporter::warn(const io::Message& message, std::string_view text) {
  if (muted_) return;
  ++summary_.warnings;
  if (handler_) handler_(Event{Severity::warning, message.line, message.item, text});
}

void Reporter::reject(const io::Message& message, std::string_view text) { reject(message.line, message.item, text); }

void Reporter::reject(std::size_t line, std::size_t item, std::string_view text,
                      std::optional<std::uint64_t> byte_offset) {
  if (muted_) return;
  ++summary_.rejected;
  if (handler_) handler_(Event{Severity::error, line, item, text, byte_offset});
  if (over_budget()) summary_.budget_exhausted = true;
}

bool Reporter::pass_on(std::string_view kind, std::string_view subject) {
  if (max_reports_ == 0) return true;
  auto kinds = std::find_if(capped_.begin(), capped_.end(), [&](const KindCounts& k) { return k.kind == kind; });
  if (kinds == capped_.end()) kinds = capped_.insert(capped_.end(), KindCounts{std::string(kind), {}});
  auto it = kinds->subjects.find(subject);
  if (it == kinds->subjects.end()) it = kinds->subjects.emplace(std::string(subject), SubjectCount{}).first;
  SubjectCount& c = it->second;
  if (++c.count <= max_reports_) return true;
  if (c.held++ == 0) c.held_order = ++held_kinds_;
  return false;
}

std::vector<Reporter::HeldBack> Reporter::held_back() const {
  std::vector<std::pair<std::size_t, HeldBack>> ordered;
  for (const KindCounts& k : capped_)
    for (const auto& [subject, c] : k.subjects)
      if (c.held != 0) ordered.push_back({c.held_order, HeldBack{k.kind, subject, c.held}});
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<HeldBack> out;
  out.reserve(ordered.size());
  for (auto& [order, h] : ordered) out.push_back(std::move(h));
  return out;
}

bool Reporter::over_budget() const noexcept { return max_errors_ != 0 && summary_.rejected >= max_errors_; }

void Reporter::note_mapping(const JointState& state, bool any_known) {
  if (muted_) return;
  ++matching_.messages;
  if (any_known) {
    ++matching_.matched;
    return;
  }
  if (matching_.matched != 0) return;
  constexpr std::size_t kNames = 5;  // enough to recognise the log; the warnings list every name
  for (const std::string& name : state.name) {
    if (matching_.names.size() >= kNames) break;
    if (std::find(matching_.names.begin(), matching_.names.end(), name) == matching_.names.end())
      matching_.names.push_back(name);
  }
}

std::string Reporter::unmatched_text(const Matching& m) {
  if (m.messages == 0 || m.matched != 0) return {};
  std::string names;
  bool topic_like = false;
  for (const std::string& n : m.names) {
    names += fmt::format("{}'{}'", names.empty() ? "" : ", ", n);
    topic_like = topic_like || n.find('/') != std::string::npos;
  }
  return fmt::format(
      "no joint of the model appears in this input: its {} joint state{} name{} only {}{} (a log of another robot?{})",
      m.messages, m.messages == 1 ? "" : "s", m.messages == 1 ? "s" : "", names, m.names.size() >= 5 ? ", ..." : "",
      topic_like ? " CSV columns named by topic, like /joint_states/<joint>/position, need "
                   "ReaderOptions::column_prefix /joint_states/"
                 : "");
}

bool Reporter::check_matching() {
  const std::string text = unmatched_text(std::exchange(matching_, Matching{}));
  if (text.empty()) return false;
  reject(0, 0, text);
  return true;
}

// ---------------------------------------------------------------------------------------
// SlotMapper

SlotMapper::SlotMapper(std::vector<std::string> names, bool open, std::string what)
    : names_(std::move(names)), open_(open), what_(std::move(what)) {
  for (std::size_t i = 0; i < names_.size(); ++i) index_.emplace(names_[i], static_cast<std::int32_t>(i));
  named_in_.assign(names_.size(), 0);
  named_at_.assign(names_.size(), 0);
}

std::optional<std::size_t> SlotMapper::find(const std::string& name) const {
  const auto it = index_.find(name);
  if (it == index_.end()) return std::nullopt;
  return static_cast<std::size_t>(it->second);
}

std::size_t SlotMapper::add(const std::string& name) {
  if (const auto it = index_.find(name); it != index_.end()) return static_cast<std::size_t>(it->second);
  names_.push_back(name);
  index_.emplace(name, static_cast<std::int32_t>(names_.size() - 1));
  named_in_.push_back(0);
  named_at_.push_back(0);
  // A name that was unknown has a slot now: lists remembered with it unknown are stale.
  for (KnownList& k : known_) k.valid = false;
  return names_.size() - 1;
}

std::int32_t SlotMapper::resolve(const std::string& name) {
  if (const auto it = index_.find(name); it != index_.end()) return it->second;
  return open_ ? static_cast<std::int32_t>(add(name)) : kUnknown;
}

const SlotMapper::KnownList* SlotMapper::find_known(const std::vector<std::string>& names) {
  const auto same = [&](const KnownList& k) {
    if (!k.valid || k.names.size() != names.size()) return false;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (!rmodel::detail::same_name(k.names[i], names[i])) return false;
    }
    return true;
  };
  // Streams that cycle through lists send the one after the last match next: try it first.
  for (std::size_t step = 1; step <= kKnownLists; ++step) {
    const std::size_t i = (known_hit_ + step) % kKnownLists;
    if (same(known_[i])) {
      known_hit_ = i;
      return &known_[i];
    }
  }
  return nullptr;
}

// Allocates only while lists grow beyond those seen before (the strings keep their room).
void SlotMapper::remember(const std::vector<std::string>& names) {
  KnownList& k = known_[known_next_];
  k.valid = false;  // until complete (an allocation may throw)
  k.names.resize(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) k.names[i].assign(names[i]);
  k.slots.assign(slots_.begin(), slots_.end());
  k.valid = true;
  known_hit_ = known_next_;
  known_next_ = (known_next_ + 1) % kKnownLists;
}

std::string SlotMapper::repeated_text(std::size_t element) const {
  const std::size_t first = element < first_of_.size() ? first_of_[element] : 0;
  const std::string& name = element < repeated_name_.size() ? repeated_name_[element] : what_;
  return fmt::format("{} '{}' is named twice (elements {} and {})", what_, name, first + 1, element + 1);
}

bool SlotMapper::map_names(const JointState& state, const io::Message& message, Reporter& report) {
  const std::size_t n = state.name.size();
  slots_.resize(n);
  if (first_of_.size() < n) first_of_.resize(n, 0);
  ++generation_;
  bool repeats = false;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t slot = resolve(state.name[i]);
    slots_[i] = slot;
    if (slot == kUnknown) continue;
    const auto s = static_cast<std::size_t>(slot);
    if (named_in_[s] == generation_) {
      first_of_[i] = named_at_[s];
      if (repeated_name_.size() <= i) repeated_name_.resize(i + 1);
      repeated_name_[i] = state.name[i];
      repeats = true;
      if (repeats_ == Repeats::skip) {
        slots_[i] = kRepeated;
        continue;
      }
      problem_ = Problem::repeated;
      repeated_element_ = i;
      problem_text_ = repeated_text(i);
      report.reject(message, fmt::format("message rejected: {}", problem_text_));
      return false;
    }
    named_in_[s] = generation_;
    named_at_[s] = i;
  }
  if (!repeats) remember(state.name);
  return true;
}

bool SlotMapper::map(const JointState& state, const io::Message& message, Reporter& report) {
  const std::size_t n = state.name.size();
  problem_ = Problem::none;
  const auto size_problem = [&](std::string_view field, std::size_t got) {
    problem_ = Problem::size;
    problem_text_ = fmt::format("'{}' has {} values for {} names", field, got, n);
    report.reject(message, fmt::format("message rejected: {}", problem_text_));
    return false;
  };
  if (!state.position.empty() && state.position.size() != n) return size_problem("position", state.position.size());
  if (!state.velocity.empty() && state.velocity.size() != n) return size_problem("velocity", state.velocity.size());
  if (!state.effort.empty() && state.effort.size() != n) return size_problem("effort", state.effort.size());
  if (const KnownList* known = find_known(state.name)) {
    // Mapped before without a repeated name: the same slots (names never lose theirs).
    slots_.assign(known->slots.begin(), known->slots.end());
  } else if (!map_names(state, message, report)) {
    return false;
  }
  // Warnings only for a message that is used: a rejected one is reported once, for its rejection.
  if (!open_ && n > 0) {  // a message naming nothing says nothing about the input
    bool any_known = false;
    for (std::size_t i = 0; i < n && !any_known; ++i) any_known = slots_[i] != kUnknown;
    report.note_mapping(state, any_known);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (slots_[i] != kUnknown) continue;
    report.warn_once(message, state.name[i],
                     [&] { return fmt::format("unknown {} '{}' skipped", what_, state.name[i]); });
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// Sinks

void Sink::message(const io::Message& message) {
  if (message.kind == io::MessageKind::Joint) joint_state(message.joint, message.cycle);
  else if (message.kind == io::MessageKind::Support) support_state(message.support, message.cycle);
}

void Sink::joint_state_outside(const JointState& /*state*/, std::optional<std::int64_t> /*cycle*/) {}
void Sink::support_state_outside(const SupportState& /*state*/, std::optional<std::int64_t> /*cycle*/) {}
void Sink::message_outside(const io::Message& message) {
  if (message.kind == io::MessageKind::Joint) joint_state_outside(message.joint, message.cycle);
  else if (message.kind == io::MessageKind::Support) support_state_outside(message.support, message.cycle);
}

void WriterSink::joint_state(const JointState& state, std::optional<std::int64_t> cycle) {
  (void)writer_->write(state, cycle);
}
void WriterSink::support_state(const SupportState& state, std::optional<std::int64_t> cycle) {
  (void)writer_->write(state, cycle);
}
void WriterSink::message(const io::Message& message) { (void)writer_->write(message); }
void WriterSink::flush() { writer_->flush(); }

// ---------------------------------------------------------------------------------------
// Pipeline

Pipeline::Pipeline(Stage& stage, Sink& sink, EventHandler handler, RunOptions options)
    : stage_(&stage),
      sink_(&sink),
      options_(std::move(options)),
      reporter_(std::move(handler), options_.max_errors),
      output_(sink, reporter_.summary()) {
  reporter_.set_max_reports(options_.max_reports);
}

bool Pipeline::push(const io::Message& message) {
  if (stopped()) return false;
  ++reporter_.summary().read;
  if (options_.on_message) options_.on_message(reporter_.summary().read + reporter_.summary().outside);
  try {
    stage_->push(message, output_, reporter_);
  } catch (const BrokenPipe&) {
    // The reader of our output went away (`| head`): a normal end for a stream.
    reporter_.summary().output_closed = true;
  }
  return !stopped();
}

void Pipeline::push_outside(const io::Message& message) {
  if (stopped()) return;
  ++reporter_.summary().outside;
  if (options_.on_message) options_.on_message(reporter_.summary().read + reporter_.summary().outside);
  // Problems with what lies outside the window are not the run's: muted, also when the stage throws.
  struct Mute {
    Reporter& reporter;
    explicit Mute(Reporter& r) : reporter(r) { reporter.set_muted(true); }
    ~Mute() { reporter.set_muted(false); }
    Mute(const Mute&) = delete;
    Mute& operator=(const Mute&) = delete;
  } mute(reporter_);
  try {
    stage_->push(message, output_, reporter_);
  } catch (const BrokenPipe&) {
    reporter_.summary().output_closed = true;
  }
}

bool Pipeline::run(io::MessageReader& reader) {
  // Messages pushed before this input are judged on their own.
  (void)reporter_.check_matching();
  // The stage needs what comes before the window (and after it, for what it publishes late).
  io::detail::pass_outside_window(reader);
  if (options_.read_ahead && reader.may_read_ahead()) run_read_ahead(reader);
  else run_here(reader);
  // A whole input naming no joint of the model is an error, not a run of all-zero poses.
  if (!stopped()) (void)reporter_.check_matching();
  return !stopped();
}

bool Pipeline::take(io::ReadStatus status, const io::Message& message, const io::ReadError* error,
                    const std::optional<TimeWindow>& window) {
  switch (status) {
    case io::ReadStatus::End: return false;
    case io::ReadStatus::WouldBlock: return true;
    case io::ReadStatus::Error: reporter_.reject(error->line, error->item, error->reason, error->byte_offset); return true;
    case io::ReadStatus::Ok:
      output_.set_window(window);
      if (window && message.has_stamp && !window->contains(message.stamp())) push_outside(message);
      else push(message);
      return true;
  }
  return true;
}

void Pipeline::run_here(io::MessageReader& reader) {
  io::Message message;
  while (!stopped()) {
    if (!reader.input_pending()) {
      try {
        sink_->flush();
      } catch (const BrokenPipe&) {
        reporter_.summary().output_closed = true;
        break;
      }
    }
    const io::ReadStatus status = reader.next(message);
    if (!take(status, message, status == io::ReadStatus::Error ? &reader.error() : nullptr, reader.window())) break;
  }
}

namespace {

/// The reader's results, read on a second thread into a ring of slots that the calling
/// thread takes in order (one producer, one consumer). A slot's message keeps its buffers
/// from one lap to the next, so once every slot has held a message no more memory is taken.
///
/// Neither side is woken for each message: a side that has to wait (the ring empty, or
/// full) sleeps until the other has made room for a batch, so that on a machine busier than
/// its cores each costly wake-up moves many messages. The indices only grow; a slot is
/// index % kSlots.
///
/// Neither side tells the other of each message either: the counts are published every
/// kPublish messages (and before a side sleeps, and at the end), each side reads the
/// other's count again only when the one it read last does not let it go on, and the two
/// counts live on separate cache lines: per-message publishing cost a full fence and a cache
/// line moving between the cores each way. The ring is small enough (256 messages, about
/// 180 kB) to stay in a core's second-level cache from one lap to the next (docs/design.md,
/// "Both cores for file replays").
class ReadAhead {
public:
  static constexpr std::uint64_t kSlots = 256;
  static constexpr std::uint64_t kBatch = kSlots / 2;  // what a sleeping side waits for
  static constexpr std::uint64_t kPublish = 16;        // divides kBatch
  static_assert(kBatch % kPublish == 0);

  struct Slot {
    io::ReadStatus status = io::ReadStatus::End;
    io::Message message;
    io::ReadError error;
    std::optional<TimeWindow> window;  // the reader's time window after this result
    std::exception_ptr thrown;  // what next() threw, rethrown on the calling thread
  };

  explicit ReadAhead(io::MessageReader& reader) : slots_(kSlots), reader_(&reader) {
    thread_ = std::thread([this] { produce(); });
  }
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;
  ~ReadAhead() {
    stopping_.store(true, std::memory_order_relaxed);
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    room_.notify_one();
    thread_.join();
  }

  /// The next result, waiting for it.
  Slot& front() {
    if (written_seen_ == taken_) {
      written_seen_ = written_.load(std::memory_order_acquire);
      if (written_seen_ == taken_) {
        publish_taken();  // the producer may be waiting for room
        std::unique_lock lock(mutex_);
        consumer_waits_.store(true, std::memory_order_seq_cst);
        ready_.wait(lock, [&] {
          written_seen_ = written_.load(std::memory_order_seq_cst);
          return written_seen_ - taken_ >= kBatch || (written_seen_ > taken_ && done_);
        });
        consumer_waits_.store(false, std::memory_order_relaxed);
      }
    }
    return slots_[taken_ % kSlots];
  }
  /// Gives the front slot back to the reader thread.
  void pop() {
    if (++taken_ % kPublish == 0) publish_taken();
  }

private:
  void publish_taken() {
    taken_shared_.store(taken_, std::memory_order_seq_cst);
    if (producer_waits_.load(std::memory_order_seq_cst) &&
        kSlots - (written_.load(std::memory_order_relaxed) - taken_) >= kBatch) {
      { const std::lock_guard lock(mutex_); }
      room_.notify_one();
    }
  }

  void publish_written(std::uint64_t written) {
    written_.store(written, std::memory_order_seq_cst);
    if (consumer_waits_.load(std::memory_order_seq_cst) &&
        written - taken_shared_.load(std::memory_order_relaxed) >= kBatch) {
      { const std::lock_guard lock(mutex_); }
      ready_.notify_one();
    }
  }

  void produce() {
    std::uint64_t written = 0;
    std::uint64_t taken_seen = 0;
    while (!stopping_.load(std::memory_order_relaxed)) {
      if (written - taken_seen == kSlots) {
        taken_seen = taken_shared_.load(std::memory_order_acquire);
        if (written - taken_seen == kSlots) {
          publish_written(written);  // the consumer may be waiting for these
          std::unique_lock lock(mutex_);
          producer_waits_.store(true, std::memory_order_seq_cst);
          room_.wait(lock, [&] {
            taken_seen = taken_shared_.load(std::memory_order_seq_cst);
            return stop_ || kSlots - (written - taken_seen) >= kBatch;
          });
          producer_waits_.store(false, std::memory_order_relaxed);
          if (stop_) return;
        }
      }
      Slot& slot = slots_[written % kSlots];
      bool last = false;
      try {
        slot.status = reader_->next(slot.message);
        if (slot.status == io::ReadStatus::Error) slot.error = reader_->error();
        slot.window = reader_->window();
        last = slot.status == io::ReadStatus::End;
      } catch (...) {
        slot.thrown = std::current_exception();
        last = true;
      }
      ++written;
      if (last) {
        written_.store(written, std::memory_order_seq_cst);
        {
          const std::lock_guard lock(mutex_);
          done_ = true;
        }
        ready_.notify_one();
        return;
      }
      if (written % kPublish == 0) publish_written(written);
    }
  }

  std::vector<Slot> slots_;
  io::MessageReader* reader_;
  // The consumer's side: its own count, the producer's count as last read, and the count
  // it publishes.
  alignas(64) std::uint64_t taken_ = 0;
  std::uint64_t written_seen_ = 0;
  alignas(64) std::atomic<std::uint64_t> taken_shared_{0};
  // The producer's side.
  alignas(64) std::atomic<std::uint64_t> written_{0};
  alignas(64) std::atomic<bool> consumer_waits_{false};
  std::atomic<bool> producer_waits_{false};
  std::mutex mutex_;
  std::condition_variable ready_;  // results to take
  std::condition_variable room_;   // slots to fill
  bool done_ = false;              // under mutex_: the reader has ended
  bool stop_ = false;              // under mutex_: the consumer has stopped taking
  std::atomic<bool> stopping_{false};  // the same, looked at before each read
  std::thread thread_;
};

}  // namespace

void Pipeline::run_read_ahead(io::MessageReader& reader) {
  ReadAhead ahead(reader);
  while (!stopped()) {
    ReadAhead::Slot& slot = ahead.front();
    if (slot.thrown) std::rethrow_exception(slot.thrown);
    const bool go_on = take(slot.status, slot.message, &slot.error, slot.window);
    ahead.pop();
    if (!go_on) break;
  }
}

void Pipeline::finish() {
  if (finished_) return;
  finished_ = true;
  try {
    // After a closed output there is nobody to publish to; after a spent error budget the
    // run ends as it is, with what was published.
    if (!stopped()) stage_->finish(output_, reporter_);
    // After the stage's finish: a stage may map the messages it held back only now.
    if (!stopped()) (void)reporter_.check_matching();
    if (!reporter_.summary().output_closed) sink_->flush();
  } catch (const BrokenPipe&) {
    reporter_.summary().output_closed = true;
  }
}

}  // namespace rmodel::stream
