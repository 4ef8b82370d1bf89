#pragma once
/// @file fuzz_target.hpp
/// What counts as a finding, shared by every fuzz target. A reader may reject input only by
/// throwing an rmodel::Error that names the source it was given; anything else that
/// escapes (a std::exception from a library, a crash, a sanitizer report, a hang, a broken
/// round-trip property) is a bug, and the target aborts so that libFuzzer keeps the input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "rmodel/base/error.hpp"

namespace rmodel::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

[[noreturn]] inline void fail(const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "fuzz finding: %s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
  std::abort();
}

#define RMODEL_FUZZ_CHECK(condition, detail) \
  do {                                        \
    if (!(condition)) ::rmodel::fuzz::fail(#condition, detail); \
  } while (false)

/// Runs `body`; a typed rejection must name `source` (every message says which file).
template <class Body>
void expect_clean_rejection(const std::string& source, Body&& body) {
  try {
    body();
  } catch (const rmodel::Error& e) {
    RMODEL_FUZZ_CHECK(std::string_view(e.what()).find(source) != std::string_view::npos, e.what());
  } catch (const std::exception& e) {
    fail("an untyped exception escaped a reader", e.what());
  }
}

/// Bit-for-bit equality of two double arrays (NaN payloads and the sign of zero included).
inline bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

}  // namespace rmodel::fuzz
