// Fuzz target: ROS 2 MCAP files (see log_file_target.hpp). The bytes are the whole file.
#include "log_file_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static rmodel::fuzz::ScratchFile file(".mcap");
  rmodel::fuzz::read_log_to_end(file.write(rmodel::fuzz::as_text(data, size)), rmodel::io::parse_format("mcap"));
  return 0;
}
