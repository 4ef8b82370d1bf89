#include "command.hpp"

#include <new>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

namespace rmodel::cli {

std::string unexpected_error_text(const std::exception& e) {
  // Memory: std::bad_alloc (and std::bad_array_new_length), or a size that no allocation can
  // hold (std::length_error from a container asked for more than max_size()).
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr)
    return "out of memory: this run needs more memory than the system gives it";
  if (dynamic_cast<const std::length_error*>(&e) != nullptr)
    return fmt::format("out of memory: this run asked for more memory than can be allocated ({})", e.what());
  if (const auto* system = dynamic_cast<const std::system_error*>(&e)) {
    const std::error_condition condition = system->code().default_error_condition();
    for (const std::errc resource :
         {std::errc::not_enough_memory, std::errc::resource_unavailable_try_again, std::errc::too_many_files_open,
          std::errc::too_many_files_open_in_system, std::errc::no_space_on_device})
      if (condition == resource) return fmt::format("out of system resources: {}", e.what());
  }
  return fmt::format("internal error: {} (rerun with --debug for details)", e.what());
}

}  // namespace rmodel::cli
