// Fuzz target: a whole JSON document (pretty message, array) (see messages_target.hpp).
#include "messages_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rmodel::fuzz::fuzz_messages(data, size, rmodel::io::parse_format("json"), "fuzz.json");
  return 0;
}
