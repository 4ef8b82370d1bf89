# Installation, the CMake package (find_package(rmodel) → rmodel::rmodel), pkg-config, and
# the Debian package. Included from the top-level CMakeLists.txt after lib/ and apps/.
include(CMakePackageConfigHelpers)

set(RMODEL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/rmodel)

# ---- data, man pages, completions ----
install(DIRECTORY ${PROJECT_SOURCE_DIR}/share/rmodel DESTINATION ${CMAKE_INSTALL_DATADIR})
file(GLOB RMODEL_MAN_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/man/*.1)
install(FILES ${RMODEL_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/completions/rmodel.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME rmodel)
install(FILES ${PROJECT_SOURCE_DIR}/completions/_rmodel
  DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${PROJECT_SOURCE_DIR}/completions/rmodel.fish
  DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

# ---- CMake package ----
install(EXPORT rmodelTargets NAMESPACE rmodel:: DESTINATION ${RMODEL_CMAKE_DIR} FILE rmodelTargets.cmake)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/rmodelConfig.cmake.in
  ${PROJECT_BINARY_DIR}/rmodelConfig.cmake INSTALL_DESTINATION ${RMODEL_CMAKE_DIR})
# 0.x: the ABI (SOVERSION MAJOR.MINOR) may change with the minor version.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rmodelConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/rmodelConfig.cmake ${PROJECT_BINARY_DIR}/rmodelConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/RmodelKdlTarget.cmake
  DESTINATION ${RMODEL_CMAKE_DIR})

# ---- pkg-config (relocatable: paths relative to the .pc file) ----
file(RELATIVE_PATH RMODEL_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" RMODEL_PC_TO_PREFIX "${RMODEL_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/rmodel.pc.in ${PROJECT_BINARY_DIR}/rmodel.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/rmodel.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

if(NOT RMODEL_TOP_LEVEL)
  return()  # inside another project (add_subdirectory): no packaging or maintainer targets
endif()

# ---- regenerating the committed man pages and completions ----
# cmake --build build --target regenerate  (after changing a command's options or prose)
add_custom_target(regenerate
  COMMAND ${CMAKE_COMMAND} -DRMODEL_EXE=$<TARGET_FILE:rmodel_cli> -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
          -DMODE=update -P ${PROJECT_SOURCE_DIR}/cmake/RmodelGenerated.cmake
  DEPENDS rmodel_cli
  COMMENT "Regenerating man/*.1 and completions/ from the command tree"
  VERBATIM)

# ---- Debian package: cpack -G DEB (in the build directory) ----
set(CPACK_PACKAGE_NAME rmodel)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Robot model inspection and joint-state processing")
set(CPACK_PACKAGE_DESCRIPTION
  "rmodel reads a URDF plus a semantic description of a robot (kinematic chains, joint groups, contacts),
indexes every joint into one full sorted pose, validates models, and processes joint-state streams.
This package holds the rmodel command, the shared library librmodel, its headers, CMake package and
pkg-config file, the sample robot, man pages and shell completions.")
set(CPACK_PACKAGE_CONTACT "rmodel maintainers <rmodel@example.org>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES TRUE)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Debian 12 packages of the shared libraries `ldd build/bin/rmodel` shows (dpkg -S), with
# the minimum versions dpkg-shlibdeps computes; the .deb test checks that the list covers
# every library the binaries need.
set(RMODEL_DEB_DEPENDS
  "libc6 (>= 2.34)" "libstdc++6 (>= 11)" "libgcc-s1 (>= 3.0)"
  "liborocos-kdl1.5 (>= 1.5.1)" "liburdfdom-model3.0 (>= 3.0.1)" "libconsole-bridge1.0 (>= 1.0.1+dfsg2)"
  "libtinyxml2-9 (>= 8.0.0)" "libfmt9 (>= 9.1.0+ds1)"
  "libzstd1 (>= 1.5.2)" "liblz4-1 (>= 0.0~r130)" "libbz2-1.0" "libsqlite3-0 (>= 3.7.15)")
if(simdjson_FOUND)
  list(APPEND RMODEL_DEB_DEPENDS "libsimdjson14 (>= 2.0.1)")
endif()
list(JOIN RMODEL_DEB_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# Building against the library needs the development packages of its public dependencies.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "liborocos-kdl-dev, libeigen3-dev, cmake (>= 3.25) | pkgconf")
include(CPack)
