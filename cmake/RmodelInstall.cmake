# Installation, the CMake package (find_package(rmodel) → rmodel::rmodel), pkg-config, and
# the Debian packages. Included from the top-level CMakeLists.txt after lib/ and apps/.
#
# Install components, which are also the Debian packages:
#   rmodel  the command, the shared library (runtime), data, man pages, completions, copyright
#   dev     headers, the librmodel.so link, the CMake package and pkg-config (librmodel-dev)
#   python  the Python package rmodel, when it is built (python/CMakeLists.txt; python3-rmodel)
# Everything installed without a COMPONENT is `rmodel` (CMAKE_INSTALL_DEFAULT_COMPONENT_NAME,
# set in the top-level CMakeLists.txt).
include(CMakePackageConfigHelpers)

set(RMODEL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/rmodel)

# ---- data, man pages, completions, copyright ----
# Modes are set here, not taken from the checkout, whose umask may have left files group-writable.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/share/rmodel DESTINATION ${CMAKE_INSTALL_DATADIR} COMPONENT rmodel
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
  DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE
  PATTERN "*.sh" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
# Man pages are installed compressed (gzip -9n: no name or time stamp, so reproducible), as
# Debian policy wants; man(1) reads them either way.
file(GLOB RMODEL_MAN_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/man/*.1)
find_program(RMODEL_GZIP gzip)
if(RMODEL_GZIP)
  set(RMODEL_MAN_GZ)
  foreach(page IN LISTS RMODEL_MAN_PAGES)
    get_filename_component(name ${page} NAME)
    set(out ${PROJECT_BINARY_DIR}/man/${name})
    add_custom_command(OUTPUT ${out}.gz
      COMMAND ${CMAKE_COMMAND} -E copy ${page} ${out}
      COMMAND ${RMODEL_GZIP} -9nf ${out}
      DEPENDS ${page}
      VERBATIM)
    list(APPEND RMODEL_MAN_GZ ${out}.gz)
  endforeach()
  add_custom_target(rmodel_man_pages ALL DEPENDS ${RMODEL_MAN_GZ})
  install(FILES ${RMODEL_MAN_GZ} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT rmodel)
else()
  install(FILES ${RMODEL_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT rmodel)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/completions/rmodel.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME rmodel COMPONENT rmodel)
install(FILES ${PROJECT_SOURCE_DIR}/completions/_rmodel
  DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions COMPONENT rmodel)
install(FILES ${PROJECT_SOURCE_DIR}/completions/rmodel.fish
  DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d COMPONENT rmodel)

# The copyright file in Debian's machine-readable format (DEP-5), made from LICENSE so that
# the license text has one source. Each package has its own (Debian policy 12.5).
file(READ ${PROJECT_SOURCE_DIR}/LICENSE RMODEL_LICENSE_TEXT)
string(REGEX MATCH "Copyright \\(c\\) ([0-9]+), ([^\n]*)" RMODEL_COPYRIGHT_LINE "${RMODEL_LICENSE_TEXT}")
set(RMODEL_COPYRIGHT_LINE "${CMAKE_MATCH_1} ${CMAKE_MATCH_2}")
# The license paragraph holds the terms (from "Redistribution"), every line indented by one
# space and empty lines written " .".
string(FIND "${RMODEL_LICENSE_TEXT}" "Redistribution" at)
string(SUBSTRING "${RMODEL_LICENSE_TEXT}" ${at} -1 RMODEL_LICENSE_TEXT)
string(STRIP "${RMODEL_LICENSE_TEXT}" RMODEL_LICENSE_TEXT)
string(REGEX REPLACE "\n\n" "\n.\n" RMODEL_LICENSE_TEXT "${RMODEL_LICENSE_TEXT}")
string(REGEX REPLACE "\n" "\n " RMODEL_LICENSE_TEXT "${RMODEL_LICENSE_TEXT}")
file(WRITE ${PROJECT_BINARY_DIR}/copyright
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: rmodel
Upstream-Contact: ${RMODEL_DEB_MAINTAINER}

Files: *
Copyright: ${RMODEL_COPYRIGHT_LINE}
License: BSD-3-Clause

License: BSD-3-Clause
 ${RMODEL_LICENSE_TEXT}
")
install(FILES ${PROJECT_BINARY_DIR}/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/rmodel COMPONENT rmodel)
install(FILES ${PROJECT_BINARY_DIR}/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/librmodel-dev COMPONENT dev)
if(RMODEL_PYTHON_MODULE)
  install(FILES ${PROJECT_BINARY_DIR}/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/python3-rmodel
          COMPONENT python)
endif()

# ---- CMake package ----
install(EXPORT rmodelTargets NAMESPACE rmodel:: DESTINATION ${RMODEL_CMAKE_DIR} FILE rmodelTargets.cmake
  COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/rmodelConfig.cmake.in
  ${PROJECT_BINARY_DIR}/rmodelConfig.cmake INSTALL_DESTINATION ${RMODEL_CMAKE_DIR} PATH_VARS CMAKE_INSTALL_BINDIR)
# 0.x: the ABI (SOVERSION MAJOR.MINOR) may change with the minor version.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rmodelConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/rmodelConfig.cmake ${PROJECT_BINARY_DIR}/rmodelConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/RmodelKdlTarget.cmake ${PROJECT_SOURCE_DIR}/cmake/RmodelCheck.cmake
  DESTINATION ${RMODEL_CMAKE_DIR} COMPONENT dev)

# ---- pkg-config (relocatable: paths relative to the .pc file) ----
file(RELATIVE_PATH RMODEL_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" RMODEL_PC_TO_PREFIX "${RMODEL_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/rmodel.pc.in ${PROJECT_BINARY_DIR}/rmodel.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/rmodel.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

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

# ---- Debian packages: cpack -G DEB (in the build directory) ----
# `cpack` and `ninja install` do not build `all` first (every test program), only install
# what `cmake --build` built; the deb_package test packages the build it runs in.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
# rmodel_<version>_<arch>.deb and librmodel-dev_<version>_<arch>.deb, from the install
# components above; binaries stripped; the library in /usr/lib/<multiarch> (see
# RMODEL_MULTIARCH_LIBDIR in the top-level CMakeLists.txt). The Maintainer field is
# RMODEL_DEB_MAINTAINER (top-level CMakeLists.txt).
set(CPACK_PACKAGE_NAME rmodel)
set(CPACK_PACKAGE_VENDOR "rmodel developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's description below starts with its own synopsis line. CPackDeb prepends
# CPACK_PACKAGE_DESCRIPTION_SUMMARY to it unless that is CPack's default text, so it is left
# at that text (CPack.cmake: "<project> built using CMake"; no generator used here shows it).
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_NAME} built using CMake")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_CONTACT "${RMODEL_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RMODEL_DEB_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES TRUE)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL rmodel dev)
if(RMODEL_PYTHON_MODULE)
  list(APPEND CPACK_COMPONENTS_ALL python)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_RMODEL_PACKAGE_NAME rmodel)
set(CPACK_DEBIAN_RMODEL_PACKAGE_SECTION science)
set(CPACK_DEBIAN_RMODEL_DESCRIPTION
  "Robot model inspection and joint-state processing
rmodel reads a URDF plus a semantic description of a robot (kinematic chains,
joint groups, contacts), indexes every joint into one full sorted pose,
validates models and logs, and processes joint-state streams.
This package holds the rmodel command and the shared library librmodel,
with the sample robot, examples, man pages and shell completions.")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME librmodel-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION
  "Robot model inspection and joint-state processing - development files
Headers, the CMake package (find_package(rmodel)) and the pkg-config file
for building programs against librmodel.")

# >>> Runtime dependencies of the `rmodel` package. Debian 12 packages of the shared
# libraries that the command and librmodel load directly (objdump -p: NEEDED; dpkg -S for
# the package) or open on first use (lib/src/base/lazy_*.cpp, io/ros/lazy_libraries.cpp),
# with the minimum versions dpkg-shlibdeps computes. A new library dependency
# adds its package here; the deb_package test fails when one is missing.
set(RMODEL_DEB_DEPENDS
  "libc6 (>= 2.34)" "libstdc++6 (>= 11)" "libgcc-s1 (>= 3.0)"
  "liborocos-kdl1.5 (>= 1.5.1)"
  "libtinyxml2-9 (>= 8.0.0)"
  "libzstd1 (>= 1.5.2)" "liblz4-1 (>= 0.0~r130)" "libbz2-1.0" "libsqlite3-0 (>= 3.7.15)")
# No libsimdjson: only the tests and benchmarks use simdjson (tests/json_parsers). No libfmt9:
# fmt is compiled into librmodel and the command (header-only, lib/CMakeLists.txt).
list(APPEND RMODEL_DEB_DEPENDS "libyaml-cpp0.7 (>= 0.7.0)")
# The collision plugin (rmodel-collision-<version>.so) links FCL and assimp.
list(APPEND RMODEL_DEB_DEPENDS "libfcl0.7 (>= 0.7.0)" "libassimp5 (>= 5.2.5)")
# <<< end of the runtime dependencies
list(JOIN RMODEL_DEB_DEPENDS ", " CPACK_DEBIAN_RMODEL_PACKAGE_DEPENDS)
# `rmodel filter --plot` runs gnuplot.
set(CPACK_DEBIAN_RMODEL_PACKAGE_SUGGESTS "gnuplot-nox")
# Building against the library needs the development packages of its public dependencies
# (the headers use KDL and Eigen types) and exactly this version of the runtime.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
  "rmodel (= ${PROJECT_VERSION}), liborocos-kdl-dev, libeigen3-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "cmake (>= 3.25) | pkgconf")
# python3-rmodel: the package rmodel in /usr/lib/python3.X/dist-packages (RMODEL_PYTHON_INSTALL_DIR),
# built for one Python version (its module's file name says it: _rmodel.cpython-3X-...so); it
# loads librmodel of exactly this version and uses numpy's arrays. The C++ runtime libraries
# are those of its module (the deb_package test checks them, as the rmodel package's).
if(RMODEL_PYTHON_MODULE)
  string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" _ "${RMODEL_PYTHON_VERSION}")
  math(EXPR _rmodel_python_next "${CMAKE_MATCH_2} + 1")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-rmodel)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  set(CPACK_DEBIAN_PYTHON_DESCRIPTION
    "Robot model inspection and joint-state processing - Python 3 module
The Python module rmodel: robot models (URDF, xacro, .cpf, SRDF, JSON
semantics), forward kinematics, Jacobians and dynamics on numpy arrays,
joint-state logs of every format rmodel reads (MCAP, ROS 2 and ROS 1 bags,
JSON Lines, CSV) into numpy with exact stamps, the aggregator, the filters
and the model checks.")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
    "rmodel (= ${PROJECT_VERSION}), python3 (>= ${RMODEL_PYTHON_VERSION}), python3 (<< ${CMAKE_MATCH_1}.${_rmodel_python_next}), python3-numpy, libc6 (>= 2.34), libstdc++6 (>= 11), libgcc-s1 (>= 3.0)")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS "python3-matplotlib")
endif()
include(CPack)
