// Fuzz target: MoveIt SRDF semantics (see semantics_target.hpp).
#include "semantics_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rmodel::fuzz::fuzz_semantics(data, size, rmodel::SemanticsFormat::srdf, "fuzz.srdf");
  return 0;
}
