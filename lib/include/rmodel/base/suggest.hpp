#pragma once
#include "rmodel/export.hpp"
/// @file suggest.hpp
/// "Did you mean ...?" for misspelt names: the closest candidate by edit distance, as git,
/// cargo and ripgrep offer for an unknown subcommand. Used by the library's NotFound errors
/// (joints, chains, groups, contacts, poses, filter kinds) and by the command line (commands,
/// options, option values).

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rmodel {

/// Optimal-string-alignment distance between `a` and `b`, ignoring ASCII case: the number of
/// single-character insertions, deletions, substitutions and swaps of two adjacent
/// characters that turn one into the other ("jonits" -> "joints" is 1).
[[nodiscard]] RMODEL_API std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word`, or empty when none is close enough to be a likely typo:
/// the distance must be at most a third of the word's length (at least 1, at most 3), or the
/// word must be a prefix of exactly one candidate. An exact match is not a suggestion.
/// Ties go to the first candidate in the given order.
[[nodiscard]] RMODEL_API std::string closest_match(std::string_view word, std::span<const std::string> candidates);
[[nodiscard]] RMODEL_API std::string closest_match(std::string_view word, std::span<const std::string_view> candidates);

/// "; did you mean 'X'?" for the closest match, or empty: ready to append to a message.
[[nodiscard]] RMODEL_API std::string did_you_mean(std::string_view word, std::span<const std::string> candidates);
[[nodiscard]] RMODEL_API std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace rmodel
