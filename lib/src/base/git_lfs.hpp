#pragma once
/// @file git_lfs.hpp
/// Recognising a Git LFS pointer where a file was expected. A repository that keeps its
/// bags, meshes or descriptions in Git LFS, cloned without git-lfs (or with
/// GIT_LFS_SKIP_SMUDGE=1, as many CI checkouts are), holds small text files in their
/// place: "version https://git-lfs.github.com/spec/v1", "oid sha256:...", "size N". Read
/// as the file, they are a bad magic or an XML syntax error, which points the user at
/// the wrong problem.

#include <optional>
#include <string>
#include <string_view>

namespace rmodel::detail {

/// When `head` (the first bytes of a file; 200 are enough) is a Git LFS pointer: what to
/// say instead of reading it, "a Git LFS pointer to a file of N bytes, not the file: fetch
/// it with 'git lfs pull'".
std::optional<std::string> git_lfs_pointer(std::string_view head);

/// How many leading bytes git_lfs_pointer() needs to decide.
inline constexpr std::size_t kGitLfsPointerHead = 256;

}  // namespace rmodel::detail
