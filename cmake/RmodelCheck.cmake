# rmodel_add_check(): a test that runs `rmodel check` on a robot description, for the CMake
# projects that hold one (a ROS package's CMakeLists.txt, beside xacro's and ament's helpers).
# Installed with the CMake package; find_package(rmodel) brings it.
#
#   rmodel_add_check(NAME <test>
#                    {URDF <file> | MODEL <manifest>}
#                    [SEMANTICS <file>] [LIMITS <file>]
#                    [PACKAGE_PATH <dir>...] [XACRO_ARGS <name:=value>...]
#                    [STRICT] [MESHES] [IGNORE <code>...]
#                    [JUNIT <file>]
#                    [WORKING_DIRECTORY <dir>])
#
# registers the test <test> (add_test): it passes when the model is valid (with STRICT: has no
# warning either), as `rmodel check` exits. Relative files are taken from the current source
# directory. PACKAGE_PATH directories are searched for $(find PKG) and package://PKG before
# ROS_PACKAGE_PATH and AMENT_PREFIX_PATH. JUNIT writes the report as JUnit XML too (colcon and
# CI servers read it). The command is the rmodel next to this package (<prefix>/bin), else the
# one on PATH (RMODEL_EXECUTABLE overrides both); inside rmodel's own build, its rmodel target.
#
#   find_package(rmodel REQUIRED)
#   if(BUILD_TESTING)
#     rmodel_add_check(NAME robot_description_valid URDF urdf/robot.urdf.xacro
#                      SEMANTICS config/robot.srdf LIMITS config/joint_limits.yaml
#                      PACKAGE_PATH ${CMAKE_CURRENT_SOURCE_DIR}/.. STRICT)
#   endif()
include_guard(GLOBAL)

function(rmodel_add_check)
  cmake_parse_arguments(PARSE_ARGV 0 arg "STRICT;MESHES" "NAME;URDF;MODEL;SEMANTICS;LIMITS;JUNIT;WORKING_DIRECTORY"
                        "PACKAGE_PATH;XACRO_ARGS;IGNORE")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "rmodel_add_check: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME)
    message(FATAL_ERROR "rmodel_add_check: NAME <test> is required")
  endif()
  if(NOT arg_URDF AND NOT arg_MODEL)
    message(FATAL_ERROR "rmodel_add_check(${arg_NAME}): give URDF <file> or MODEL <manifest>")
  endif()

  if(TARGET rmodel_cli)
    set(command $<TARGET_FILE:rmodel_cli>)
  else()
    if(NOT RMODEL_EXECUTABLE)
      find_program(RMODEL_EXECUTABLE rmodel HINTS "${_rmodel_bin_dir}" DOC "The rmodel command")
    endif()
    if(NOT RMODEL_EXECUTABLE)
      message(FATAL_ERROR "rmodel_add_check(${arg_NAME}): the rmodel command is not installed (Debian package "
                          "rmodel); set RMODEL_EXECUTABLE to it")
    endif()
    set(command "${RMODEL_EXECUTABLE}")
  endif()

  set(args check)
  foreach(option IN ITEMS URDF MODEL SEMANTICS LIMITS)
    if(arg_${option})
      get_filename_component(file "${arg_${option}}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      string(TOLOWER "${option}" flag)
      if(option STREQUAL "MODEL")
        set(flag model)
      endif()
      list(APPEND args "--${flag}" "${file}")
    endif()
  endforeach()
  foreach(dir IN LISTS arg_PACKAGE_PATH)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args --package-path "${dir}")
  endforeach()
  foreach(xacro_arg IN LISTS arg_XACRO_ARGS)
    list(APPEND args --xacro-arg "${xacro_arg}")
  endforeach()
  if(arg_IGNORE)
    string(REPLACE ";" "," codes "${arg_IGNORE}")
    list(APPEND args --ignore "${codes}")
  endif()
  if(arg_STRICT)
    list(APPEND args --strict)
  endif()
  if(arg_MESHES)
    list(APPEND args --meshes)
  endif()
  if(arg_JUNIT)
    get_filename_component(junit "${arg_JUNIT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND args -f junit -o "${junit}")
  endif()
  set(directory "${CMAKE_CURRENT_SOURCE_DIR}")
  if(arg_WORKING_DIRECTORY)
    set(directory "${arg_WORKING_DIRECTORY}")
  endif()
  add_test(NAME "${arg_NAME}" COMMAND "${command}" ${args} WORKING_DIRECTORY "${directory}")
  set_tests_properties("${arg_NAME}" PROPERTIES LABELS rmodel_check)
endfunction()
