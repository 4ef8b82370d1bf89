# Debian's orocos_kdl 1.5 CMake config sets orocos_kdl_LIBRARIES to the bare name
# "orocos-kdl" and defines no target (upstream's exports a target of that name). rmodel
# links `orocos-kdl` publicly, so its installed export names it too: this file, used by the
# build and by the installed rmodelConfig.cmake, makes that name an imported target of the
# real library when orocos_kdl did not.
if(NOT TARGET orocos-kdl)
  get_filename_component(_rmodel_kdl_prefix "${orocos_kdl_DIR}/../../../.." ABSOLUTE)
  find_library(RMODEL_OROCOS_KDL_LIBRARY NAMES orocos-kdl
    HINTS "${orocos_kdl_DIR}/../.." "${_rmodel_kdl_prefix}/lib")
  find_path(RMODEL_OROCOS_KDL_INCLUDE_DIR kdl/tree.hpp HINTS "${_rmodel_kdl_prefix}/include")
  if(NOT RMODEL_OROCOS_KDL_LIBRARY OR NOT RMODEL_OROCOS_KDL_INCLUDE_DIR)
    message(FATAL_ERROR "orocos_kdl was found (${orocos_kdl_DIR}) but not its library or headers")
  endif()
  # GLOBAL in rmodel's own build, so that a project including it with add_subdirectory()
  # sees the target its link interface names; directory-scoped from rmodelConfig.cmake.
  if(RMODEL_KDL_TARGET_GLOBAL)
    add_library(orocos-kdl UNKNOWN IMPORTED GLOBAL)
  else()
    add_library(orocos-kdl UNKNOWN IMPORTED)
  endif()
  set_target_properties(orocos-kdl PROPERTIES
    IMPORTED_LOCATION "${RMODEL_OROCOS_KDL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${RMODEL_OROCOS_KDL_INCLUDE_DIR}")
  if(TARGET Eigen3::Eigen)
    set_property(TARGET orocos-kdl APPEND PROPERTY INTERFACE_LINK_LIBRARIES Eigen3::Eigen)
  endif()
  unset(_rmodel_kdl_prefix)
endif()
