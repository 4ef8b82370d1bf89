#pragma once
// The library names its options by their API fields ("ReaderOptions::topics"), the command
// by its flags ("--topic"): the one table between the two, applied to every text of the
// library that the command shows (docs/design.md, "Errors name API fields"); so are the
// library's functions that a command does the work of (sample_pose: `collisions --show-sample`).

#include <string>
#include <string_view>

namespace rmodel::cli {

/// The flag that sets an API field ("AggregatorOptions::diff_method" → "--diff"); empty for a
/// field no flag sets.
[[nodiscard]] std::string_view flag_of_field(std::string_view field);

/// `text` with every API field of the table replaced by its flag, and the library's words for
/// what a command does (`sample_pose` of a seed and index, `compute_collision_matrix`) replaced
/// by that command (`rmodel collisions --seed S --show-sample I`, `rmodel collisions`).
[[nodiscard]] std::string in_flag_words(std::string_view library_text);

}  // namespace rmodel::cli
