// Fuzz target: OROCOS .cpf semantics (see semantics_target.hpp).
#include "semantics_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rmodel::fuzz::fuzz_semantics(data, size, rmodel::SemanticsFormat::cpf, "fuzz.cpf");
  return 0;
}
