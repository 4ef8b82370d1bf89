// Versions as the headers stated them when librmodel was compiled.
#include "rmodel/base/version.hpp"

#include <array>

#include <Eigen/Core>
#include <fmt/core.h>
#include <kdl/config.h>
#include <nlohmann/json_fwd.hpp>
#include <tinyxml2.h>

namespace rmodel {
namespace {

/// "MAJOR.MINOR.PATCH" of three numbers, at compile time.
struct VersionText {
  std::array<char, 24> text{};
  constexpr VersionText(int major, int minor, int patch) {
    std::size_t n = 0;
    const int parts[] = {major, minor, patch};
    for (int i = 0; i < 3; ++i) {
      if (i > 0) text[n++] = '.';
      char digits[12] = {};
      int count = 0;
      int v = parts[i];
      do {
        digits[count++] = static_cast<char>('0' + v % 10);
        v /= 10;
      } while (v > 0 && count < 11);
      while (count > 0) text[n++] = digits[--count];
    }
  }
  [[nodiscard]] constexpr std::string_view view() const { return text.data(); }
};

constexpr VersionText kEigen{EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION};
constexpr VersionText kTinyxml2{TINYXML2_MAJOR_VERSION, TINYXML2_MINOR_VERSION, TINYXML2_PATCH_VERSION};
constexpr VersionText kJson{NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR, NLOHMANN_JSON_VERSION_PATCH};
constexpr VersionText kFmt{FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100};

const DependencyVersion kDependencies[] = {
    {"orocos_kdl", KDL_VERSION_STRING},
    {"Eigen", kEigen.view()},
    {"tinyxml2", kTinyxml2.view()},
    {"nlohmann_json", kJson.view()},
    {"fmt", kFmt.view()},
};

}  // namespace

std::string_view version() { return RMODEL_VERSION; }

std::span<const DependencyVersion> dependency_versions() { return kDependencies; }

}  // namespace rmodel
