#pragma once
// Internal: nlohmann_json parsing that rejects an object naming a key twice. JSON leaves
// duplicate names to the reader and nlohmann_json keeps one silently; in a robot's
// semantics or a trajectory that would drop data without a word.
#include <cctype>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace rmodel::detail {

/// A key named twice in one object: the key and the byte offset of its second occurrence.
struct DuplicateKey {
  std::string key;
  std::size_t offset = 0;
};

/// Parses `text` into `out`; returns the first duplicate key, or nullopt. Throws what
/// nlohmann::json::parse throws on malformed JSON.
template <class Json>
std::optional<DuplicateKey> parse_json_unique_keys(std::string_view text, Json& out) {
  std::vector<std::set<std::string>> open_objects;
  std::optional<DuplicateKey> duplicate;
  // Keys arrive in text order, so the n-th key event of a name is its n-th `"name":` in
  // the text: that is how the duplicate is located (nlohmann_json reports no positions).
  std::map<std::string, std::size_t> occurrences;
  std::size_t duplicate_occurrence = 0;
  auto on_event = [&](int /*depth*/, typename Json::parse_event_t event, Json& parsed) {
    using Event = typename Json::parse_event_t;
    if (event == Event::object_start) open_objects.emplace_back();
    if (event == Event::object_end && !open_objects.empty()) open_objects.pop_back();
    if (event == Event::key && !open_objects.empty() && !duplicate) {
      const auto& key = parsed.template get_ref<const typename Json::string_t&>();
      const std::size_t occurrence = occurrences[key]++;
      if (!open_objects.back().insert(key).second) {
        duplicate = DuplicateKey{key, 0};
        duplicate_occurrence = occurrence;
      }
    }
    return true;
  };
  out = Json::parse(text.begin(), text.end(), on_event);
  if (duplicate) {
    const std::string quoted = nlohmann::json(duplicate->key).dump();
    std::size_t seen = 0;
    for (std::size_t at = text.find(quoted); at != std::string_view::npos; at = text.find(quoted, at + 1)) {
      std::size_t after = at + quoted.size();
      while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
      if (after >= text.size() || text[after] != ':') continue;  // a string value, not a key
      if (seen++ == duplicate_occurrence) {
        duplicate->offset = at;
        break;
      }
    }
  }
  return duplicate;
}

}  // namespace rmodel::detail
