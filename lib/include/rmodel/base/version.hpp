#pragma once
#include "rmodel/export.hpp"
/// @file version.hpp
/// The version of the rmodel library and of the libraries it was built with.

#include <span>
#include <string_view>

namespace rmodel {

/// The version of the loaded librmodel ("MAJOR.MINOR.PATCH"), which can differ from the
/// headers a program was compiled against when the shared library is replaced.
RMODEL_API std::string_view version();

/// A library rmodel was compiled against, with its version as its headers stated it.
struct RMODEL_API DependencyVersion {
  std::string_view name;     ///< e.g. "orocos_kdl"
  std::string_view version;  ///< e.g. "1.5.1"
};

/// The libraries librmodel was built with (orocos_kdl, Eigen, tinyxml2, nlohmann_json, fmt),
/// in that order.
RMODEL_API std::span<const DependencyVersion> dependency_versions();

}  // namespace rmodel
