// Fuzz target: ROS 1 bag 2.0 files (see log_file_target.hpp). The bytes are the whole file.
#include "log_file_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static rmodel::fuzz::ScratchFile file(".bag");
  rmodel::fuzz::read_log_to_end(file.write(rmodel::fuzz::as_text(data, size)), rmodel::io::parse_format("bag"));
  return 0;
}
