#pragma once
// Internal: where the running librmodel is, for what is installed beside it or relative to
// it (the sample robot's data directory, the yaml plugin).

#include <string>

namespace rmodel::detail {

/// The file of the librmodel in this process, as the dynamic loader opened it (dladdr); in a
/// static build, the program's. Empty when the loader cannot tell.
std::string library_file();

}  // namespace rmodel::detail
