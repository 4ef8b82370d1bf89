#pragma once
// Internal: how stream::Pipeline reads a reader that has a time window (ReaderOptions::start,
// end; docs/design.md, "Time windows").

namespace rmodel::io {
class MessageReader;
}  // namespace rmodel::io

namespace rmodel::io::detail {

/// Makes `reader` return the messages outside its time window as well (counted in
/// ReaderStats::outside_window), and skip only the chunks of an MCAP or ROS 1 bag that begin
/// at or after the window's end, so that a stateful consumer gets everything that comes before
/// the window. A merged reader passes it on to each of its inputs. A reader that has returned
/// a message or an error already is left as it is (what it dropped is gone).
void pass_outside_window(MessageReader& reader) noexcept;

}  // namespace rmodel::io::detail
