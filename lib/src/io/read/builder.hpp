#pragma once
#include "rmodel/export.hpp"
// Internal: fills a Message from the fields of one JSON message, whichever parser reads
// them, and decides its kind at the end. Keeps the Message's buffers (no allocation once
// warm) and a pool of spare strings for names.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rmodel/io/message.hpp"

namespace rmodel::io::detail {

/// Writes a list of strings into a vector<string>, reusing its strings: an equal string is
/// left alone, a different one is overwritten in place; surplus strings go to a spare pool
/// and come back from it when a later list is longer.
class StringListSink {
public:
  explicit StringListSink(std::vector<std::string>& spare) noexcept : spare_(&spare) {}

  void begin(std::vector<std::string>& target) noexcept {
    target_ = &target;
    count_ = 0;
  }
  void push(std::string_view s) {
    auto& v = *target_;
    if (count_ < v.size()) {
      std::string& d = v[count_];
      if (std::string_view(d) != s) d.assign(s.data(), s.size());
    } else if (!spare_->empty()) {
      v.push_back(std::move(spare_->back()));
      spare_->pop_back();
      v.back().assign(s.data(), s.size());
    } else {
      v.emplace_back(s);
    }
    ++count_;
  }
  /// Trims the target to the strings pushed since begin().
  void end() {
    auto& v = *target_;
    while (v.size() > count_) {
      spare_->push_back(std::move(v.back()));
      v.pop_back();
    }
  }
  [[nodiscard]] std::size_t count() const noexcept { return count_; }

private:
  std::vector<std::string>* spare_;
  std::vector<std::string>* target_ = nullptr;
  std::size_t count_ = 0;
};

/// Keys of a JSON message that matter.
enum class Key : std::uint8_t {
  Unknown,
  Name,
  Position,
  Velocity,
  Effort,
  Support,
  Contact,
  T,
  Header,
  Cycle,
  Sync,
  Trajectory,  ///< `trajectory`, `joint_names` or `points`: the value is a trajectory
};

// classify_key and classify_stamp_key are exported (RMODEL_API) although no installed header
// declares them: the test-only JSON parsers (tests/json_parsers, linked against the shared
// librmodel; see io/parsers.hpp) read the same keys as the native one. The exports test
// (cmake/tests/RmodelExportsTest.cmake) lists every internal symbol that is exported.

/// Key of a top-level message field.
RMODEL_API Key classify_key(std::string_view key) noexcept;

/// Keys inside `header.stamp`.
enum class StampKey : std::uint8_t { Unknown, Secs, Nsecs };
RMODEL_API StampKey classify_stamp_key(std::string_view key) noexcept;

/// Outcome of parsing one JSON value as a message.
enum class ParseStatus {
  Ok,        ///< a message was built
  Error,     ///< see ParseFailure
  Document,  ///< not a plain message (an array or a trajectory): read it as a document
};

/// Why a message is bad and where (byte offset in the value's text).
struct ParseFailure {
  std::size_t offset = 0;
  std::string reason;
};

/// Collects the fields of one message into a Message.
class MessageBuilder {
public:
  MessageBuilder() : names_(spare_), contacts_(spare_) {}
  MessageBuilder(const MessageBuilder&) = delete;
  MessageBuilder& operator=(const MessageBuilder&) = delete;

  /// Starts a message into `out` (clears its arrays, keeps capacity).
  void begin(Message& out) noexcept {
    out_ = &out;
    flags_ = 0;
    seen_ = 0;
    duplicate_ = nullptr;
    sync_value_ = false;
    t_ = Time{};
    t_null_ = false;
    secs_ = nsecs_ = cycle_ = 0;
    out.joint.position.clear();
    out.joint.velocity.clear();
    out.joint.effort.clear();
    out.support.support.clear();
    out.item = 0;
  }
  [[nodiscard]] Message& out() noexcept { return *out_; }

  // --- names: pushed into joint.name, moved to support.name for a support state
  StringListSink& begin_names() noexcept {
    note(kSeenName, "duplicate key 'name'");
    flags_ |= kName;
    names_.begin(out_->joint.name);
    return names_;
  }
  StringListSink& begin_contacts() noexcept {
    note(kSeenContact, "duplicate key 'contact'");
    flags_ |= kContact;
    contacts_.begin(out_->support.contact);
    return contacts_;
  }
  /// The (cleared) array of a number key (Position, Velocity, Effort, Support).
  std::vector<double>& begin_numbers(Key key) noexcept {
    std::vector<double>* v = &out_->joint.position;
    switch (key) {
      case Key::Velocity:
        note(kSeenVelocity, "duplicate key 'velocity'");
        v = &out_->joint.velocity;
        flags_ |= kJointData;
        break;
      case Key::Effort:
        note(kSeenEffort, "duplicate key 'effort'");
        v = &out_->joint.effort;
        flags_ |= kJointData;
        break;
      case Key::Support:
        note(kSeenSupport, "duplicate key 'support'");
        v = &out_->support.support;
        flags_ |= kSupport;
        break;
      default:
        note(kSeenPosition, "duplicate key 'position'");
        flags_ |= kJointData;
        break;
    }
    v->clear();
    return *v;
  }
  /// `t` in seconds, read exactly (parse_time).
  void set_t(Time t) noexcept {
    note(kT, "duplicate key 't'");
    flags_ |= kT;
    t_ = t;
  }
  /// `"t": null`: no time (what the writers once wrote for a non-finite time).
  void set_t_null() noexcept {
    set_t(Time{});
    t_null_ = true;
  }
  void set_secs(std::int64_t s) noexcept {
    note(kSecs, "duplicate seconds in 'header.stamp' ('secs' or 'sec' twice)");
    flags_ |= kSecs;
    secs_ = s;
  }
  void set_nsecs(std::int64_t ns) noexcept {
    note(kNsecs, "duplicate nanoseconds in 'header.stamp' ('nsecs' or 'nanosec' twice)");
    flags_ |= kNsecs;
    nsecs_ = ns;
  }
  void set_cycle(std::int64_t c) noexcept {
    note(kCycle, "duplicate key 'cycle'");
    flags_ |= kCycle;
    cycle_ = c;
  }
  void set_sync(bool v) noexcept {
    note(kSync, "duplicate key 'sync'");
    flags_ |= kSync;
    sync_value_ = v;
  }

  /// Decides the kind, the time and the cycle. Returns nullptr, or why the message is bad.
  const char* finish() {
    Message& m = *out_;
    if (flags_ & kName) names_.end();
    if (flags_ & kContact) contacts_.end();
    if (duplicate_) return duplicate_;
    // An empty name cannot match a joint or a chain: the message is broken, not partial.
    if (flags_ & kName)
      for (const std::string& name : m.joint.name)
        if (name.empty()) return "'name' holds an empty name";
    if ((flags_ & kCycle) && cycle_ < 0) return "'cycle' must be a non-negative integer";
    m.cycle.reset();
    if (flags_ & kCycle) m.cycle = cycle_;

    bool has_stamp = true;
    Time stamp{};
    if (flags_ & kT) {
      stamp = t_;
      has_stamp = !t_null_;
    } else if (flags_ & kSecs) {
      const auto ns = Time::from_stamp(secs_, nsecs_);
      if (!ns) return "'header.stamp' is beyond the range of times (±9223372036 s)";
      stamp = *ns;
    } else if (flags_ & kNsecs) {
      return "'header.stamp' has nanoseconds but no seconds ('secs' or 'sec')";
    } else {
      has_stamp = false;
    }
    const bool joint_data = (flags_ & kJointData) != 0;

    if (flags_ & kSync) {
      if (!sync_value_) return "'sync' must be true";
      if (flags_ & (kName | kSupport | kContact | kJointData))
        return "a sync tick must not carry 'name', 'position', 'velocity', 'effort', "
               "'support' or 'contact'";
      m.kind = MessageKind::Sync;
      m.sync_stamp = stamp;
    } else if (flags_ & (kSupport | kContact)) {
      if (!(flags_ & kName)) return "support state without 'name' (the chain names)";
      if (joint_data) return "a support state must not carry 'position', 'velocity' or 'effort'";
      m.kind = MessageKind::Support;
      std::swap(m.joint.name, m.support.name);
      if (!(flags_ & kContact)) {
        contacts_.begin(m.support.contact);
        contacts_.end();
      }
      m.support.stamp = stamp;
    } else {
      if (!(flags_ & kName)) return "missing 'name'";
      m.kind = MessageKind::Joint;
      m.joint.stamp = stamp;
    }
    m.has_stamp = has_stamp;
    return nullptr;
  }

  /// Spare strings shared with other producers of names (CSV, trajectories).
  std::vector<std::string>& spare() noexcept { return spare_; }

private:
  enum : unsigned {
    kName = 1,
    kSupport = 2,
    kContact = 4,
    kT = 8,
    kSecs = 16,
    kNsecs = 32,
    kCycle = 64,
    kSync = 128,
    kJointData = 256,  ///< a position, velocity or effort key
  };
  // Keys met so far, for those that share a flag above.
  enum : unsigned {
    kSeenName = 1U << 10,
    kSeenContact = 1U << 11,
    kSeenPosition = 1U << 12,
    kSeenVelocity = 1U << 13,
    kSeenEffort = 1U << 14,
    kSeenSupport = 1U << 15,
  };
  /// Each key may appear once in a message. JSON leaves duplicate names to the reader; a
  /// message with "position" twice is broken, and keeping either array silently would
  /// lose data, so the message is an error (the first duplicate is named).
  void note(unsigned key_bit, const char* message) noexcept {
    if ((seen_ & key_bit) && !duplicate_) duplicate_ = message;
    seen_ |= key_bit;
  }
  std::vector<std::string> spare_;
  StringListSink names_;
  StringListSink contacts_;
  Message* out_ = nullptr;
  unsigned flags_ = 0;
  unsigned seen_ = 0;
  const char* duplicate_ = nullptr;
  bool sync_value_ = false;
  bool t_null_ = false;
  Time t_{};
  std::int64_t secs_ = 0, nsecs_ = 0, cycle_ = 0;
};

/// A parser of one JSON message (the native one, make_native_parser, or a test program's,
/// use_json_parser). The caller has called builder.begin();
/// the parser feeds the fields and calls builder.finish(). `capacity` bytes are readable
/// from text.data() (at least text.size() + kPadding, for simdjson).
class JsonMessageParser {
public:
  virtual ~JsonMessageParser() = default;
  virtual ParseStatus parse(std::string_view text, std::size_t capacity, MessageBuilder& builder,
                            ParseFailure& failure) = 0;
};

/// Bytes of padding the readers keep after any text given to a JsonMessageParser.
inline constexpr std::size_t kPadding = 64;

}  // namespace rmodel::io::detail
