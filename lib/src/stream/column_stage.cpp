#include "rmodel/stream/column_stage.hpp"

#include <utility>

namespace rmodel::stream {

ColumnStage::ColumnStage(io::ColumnTable& table, std::optional<std::vector<std::string>> known)
    : table_(&table), mapper_(known ? std::move(*known) : std::vector<std::string>{}, !known.has_value()) {}

void ColumnStage::push(const io::Message& message, Output& out, Reporter& report) {
  if (message.has_stamp && !out.in_window(message.stamp())) return;
  if (message.kind != io::MessageKind::Joint) return;  // support states and sync ticks
  if (!mapper_.map(message, report)) return;           // rejected, reported
  table_->add(message.stamp(), message.has_stamp, static_cast<std::int64_t>(message.line),
              message.cycle ? *message.cycle : -1, mapper_.slots(), mapper_.size(), message.joint);
}

}  // namespace rmodel::stream
