#pragma once
#include "rmodel/export.hpp"
/// @file stream/column_stage.hpp
/// A stage that keeps each joint state as a row of an io::ColumnTable (rmodel/io/columns.hpp):
/// rmodel.read_log's pipeline, for every format. Names go through the one SlotMapper: fixed
/// to a model's full pose, or open (columns in the order the log first names the joints).

#include <optional>
#include <string>
#include <vector>

#include "rmodel/io/columns.hpp"
#include "rmodel/stream/stream.hpp"

namespace rmodel::stream {

class RMODEL_API ColumnStage final : public Stage {
public:
  /// Rows go to `table` (kept by reference); columns are `known`'s names, or open without.
  ColumnStage(io::ColumnTable& table, std::optional<std::vector<std::string>> known);
  /// A row per joint state mapped; a message outside the time window is none (a row is the
  /// message itself: there is no state to prime, docs/streaming.md).
  void push(const io::Message& message, Output& out, Reporter& report) override;
  /// The names of the columns so far.
  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return mapper_.names(); }

private:
  io::ColumnTable* table_;
  SlotMapper mapper_;
};

}  // namespace rmodel::stream
