// Fuzz target: CSV as ROS users have it — `rostopic echo -p` (`%time,field.name0,...`) and
// PlotJuggler-style topic-prefixed columns (`__time,/joint_states/<joint>/position`) — read
// with `--time log` and an explicit prefix when the first input byte is odd, so both the
// inferred and the given prefix paths run (see messages_target.hpp).
#include "messages_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rmodel::io::ReaderOptions options{.format = rmodel::io::parse_format("csv"), .max_line_bytes = 4096};
  if (size > 0 && (data[0] & 1) != 0) {
    options.time = rmodel::io::TimeSource::Log;
    options.column_prefix = "/joint_states/";
    options.time_column = "stamp";
  }
  rmodel::fuzz::fuzz_messages(data, size, options, "fuzz.csv");
  return 0;
}
