#include "base/git_lfs.hpp"

namespace rmodel::detail {

std::optional<std::string> git_lfs_pointer(std::string_view head) {
  // The pointer's first line is its spec's URL; "hawser" is the name the format had before
  // its first release, which git-lfs still accepts.
  constexpr std::string_view kSpecs[] = {"version https://git-lfs.github.com/spec/", "version https://hawser.github.com/spec/"};
  bool pointer = false;
  for (const std::string_view spec : kSpecs) pointer = pointer || head.starts_with(spec);
  if (!pointer) return std::nullopt;
  std::string size;
  constexpr std::string_view kSize = "\nsize ";
  if (const std::size_t at = head.find(kSize); at != std::string_view::npos) {
    for (std::size_t k = at + kSize.size(); k < head.size() && head[k] >= '0' && head[k] <= '9'; ++k) size += head[k];
  }
  return "a Git LFS pointer" + (size.empty() ? std::string() : " to a file of " + size + " bytes") +
         ", not the file: fetch it with 'git lfs pull'";
}

}  // namespace rmodel::detail
