#pragma once
// Internal: expands a JointTrajectory / FollowJointTrajectoryGoal JSON value into messages
// (rules in rmodel/io/message.hpp). Not a hot path: read with nlohmann_json.

#include <cstddef>
#include <string_view>
#include <vector>

#include "rmodel/io/message.hpp"
#include "rmodel/io/reader.hpp"

namespace rmodel::io::detail {

/// A message or an error waiting to be returned by the reader.
struct PendingItem {
  bool is_error = false;
  Message message;
  ReadError error;
};

/// Messages and errors waiting to be returned, in order (a trajectory's points).
class PendingQueue {
public:
  /// Where the points are appended.
  [[nodiscard]] std::vector<PendingItem>& items() noexcept { return items_; }
  [[nodiscard]] bool empty() const noexcept { return taken_ == items_.size(); }
  /// Takes the first item: Ok with its message in `out`, or Error with its error in `error`.
  /// The queue must not be empty.
  ReadStatus take(Message& out, ReadError& error);

private:
  std::vector<PendingItem> items_;
  std::size_t taken_ = 0;
};

/// Appends the messages (and per-point errors) of the trajectory in `text`, which starts on
/// line `line` of the input, to `out`. Each point's messages and errors are at the line where
/// the point starts in `text` (its newlines counted), and carry the point number as item.
void expand_trajectory(std::string_view text, std::size_t line, std::vector<PendingItem>& out);

/// Number of '\n' in the first `n` bytes of `text`.
std::size_t count_newlines(std::string_view text, std::size_t n) noexcept;

}  // namespace rmodel::io::detail
