#pragma once
/// @file semantics_target.hpp
/// Shared body of the semantics fuzz targets (.cpf, rmodel JSON, SRDF): parse; what parses
/// must survive the JSON round trip unchanged, and index against the sample robot's URDF
/// (or be rejected with a typed error naming a file).
#include <fstream>
#include <iterator>
#include <optional>

#include "fuzz_target.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/model/semantics.hpp"

namespace rmodel::fuzz {

inline const std::string& sample_urdf() {
  static const std::string text = [] {
    std::ifstream in(std::string(RMODEL_SOURCE_DIR) + "/share/rmodel/sample/pony.urdf", std::ios::binary);
    if (!in) fail("cannot read the sample URDF", RMODEL_SOURCE_DIR);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }();
  return text;
}

inline void fuzz_semantics(const std::uint8_t* data, std::size_t size, SemanticsFormat format,
                           const std::string& source) {
  const std::string_view text = as_text(data, size);
  std::optional<Semantics> semantics;
  expect_clean_rejection(source, [&] { semantics = parse_semantics(text, source, format); });
  if (!semantics) return;
  const std::string json = to_semantics_json(*semantics);
  std::optional<Semantics> back;
  try {
    back = parse_semantics_json(json, "round-trip.json");
  } catch (const std::exception& e) {
    fail("the JSON written from parsed semantics does not parse back", e.what() + ("\n" + json));
  }
  RMODEL_FUZZ_CHECK(back->same_content(*semantics), json);
  RMODEL_FUZZ_CHECK(to_semantics_json(*back) == json, json);
  try {
    (void)Model::from_urdf_string(sample_urdf(), "pony.urdf", std::move(*semantics));
  } catch (const rmodel::Error& e) {
    RMODEL_FUZZ_CHECK(std::string_view(e.what()).find(source) != std::string_view::npos ||
                          std::string_view(e.what()).find("pony.urdf") != std::string_view::npos,
                      e.what());
  } catch (const std::exception& e) {
    fail("an untyped exception escaped indexing", e.what());
  }
}

}  // namespace rmodel::fuzz
