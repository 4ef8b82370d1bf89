#include "base/library_file.hpp"

#include <dlfcn.h>

namespace rmodel::detail {

std::string library_file() {
  static const char anchor = 0;  // an object inside librmodel, whose address dladdr maps to its file
  Dl_info info{};
  if (dladdr(&anchor, &info) == 0 || info.dli_fname == nullptr) return {};
  return info.dli_fname;
}

}  // namespace rmodel::detail
