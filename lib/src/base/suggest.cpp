#include "rmodel/base/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace rmodel {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

template <class Str>
std::string closest(std::string_view word, std::span<const Str> candidates) {
  if (word.empty()) return {};
  const std::size_t allowed = std::clamp<std::size_t>(word.size() / 3, 1, 3);
  std::size_t best = allowed + 1;
  std::string_view best_name;
  std::size_t prefixed = 0;
  std::string_view prefix_name;
  for (const Str& c : candidates) {
    const std::string_view candidate(c);
    if (candidate == word) return {};
    const std::size_t d = edit_distance(word, candidate);
    if (d < best) {
      best = d;
      best_name = candidate;
    }
    // A prefix of several letters ("--samp", "expo") names what the user started to type.
    if (word.size() >= 3 && candidate.size() > word.size() &&
        edit_distance(word, candidate.substr(0, word.size())) == 0) {
      ++prefixed;
      prefix_name = candidate;
    }
  }
  if (!best_name.empty()) return std::string(best_name);
  if (prefixed == 1) return std::string(prefix_name);
  return {};
}

template <class Str>
std::string hint(std::string_view word, std::span<const Str> candidates) {
  const std::string match = closest(word, candidates);
  return match.empty() ? std::string() : "; did you mean '" + match + "'?";
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rolling rows of the Damerau (optimal string alignment) table: names are short.
  const std::size_t n = b.size();
  std::vector<std::size_t> before(n + 1), previous(n + 1), current(n + 1);
  for (std::size_t j = 0; j <= n; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= n; ++j) {
      const bool same = lower(a[i - 1]) == lower(b[j - 1]);
      std::size_t d = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        d = std::min(d, before[j - 2] + 1);
      current[j] = d;
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[n];
}

std::string closest_match(std::string_view word, std::span<const std::string> candidates) {
  return closest(word, candidates);
}
std::string closest_match(std::string_view word, std::span<const std::string_view> candidates) {
  return closest(word, candidates);
}
std::string did_you_mean(std::string_view word, std::span<const std::string> candidates) {
  return hint(word, candidates);
}
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  return hint(word, candidates);
}

}  // namespace rmodel
