// Fuzz target: `ros2 topic echo` / `rostopic echo` YAML documents (see messages_target.hpp).
#include "messages_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rmodel::fuzz::fuzz_messages(data, size, rmodel::io::parse_format("yaml"), "fuzz.yaml");
  return 0;
}
