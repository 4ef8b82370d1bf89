# ctest: neither librmodel nor the `rmodel` command links a library that most runs do not
# need, since every linked library is loaded and relocated at every start (docs/design.md,
# "Start-up"): not the libraries only ROS logs need (zstd, lz4, bzip2, SQLite:
# lib/src/io/ros/lazy_libraries.cpp opens them when a log needs them), not KDL
# (lib/src/base/lazy_kdl.cpp opens it when a run asks for the KDL tree), not fmt (compiled in,
# header-only), not tinyxml2 (lib/src/base/lazy_tinyxml2.cpp opens it on the first XML
# document), not urdfdom (rmodel reads URDFs itself), not yaml-cpp (src/base/yaml_tree.cpp
# opens rmodel's yaml plugin, which links it, on the first YAML document). And no RUNPATH
# has an empty entry, which the dynamic loader takes for the working directory. Nor FCL and assimp:
# rmodel's collision plugin links them, opened on the first collision geometry or mesh.
# LINKED_IN: the command has librmodel's code linked in (apps/CMakeLists.txt), so it neither
# links nor loads librmodel.so, and needs no RUNPATH.
#   -DLIBRARY -DPROGRAM -DREADELF -DLINKED_IN=ON|OFF
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/RmodelScriptTest.cmake)
require_variables(LIBRARY PROGRAM READELF LINKED_IN)

# What neither binary may link, and why ("pattern=reason").
set(refused
  "lib(zstd|lz4|bz2|sqlite3)\\.so=which only ROS logs need"
  "liborocos-kdl\\.so=which it opens when needed"
  "libfmt\\.so=which is compiled in"
  "lib(urdfdom_model|console_bridge|tinyxml|tinyxml2|yaml-cpp)\\.so=which it does not use"
  "lib(fcl|assimp|ccd|octomap)\\.so=which only collision checks and meshes need")
foreach(binary IN ITEMS "${LIBRARY}" "${PROGRAM}")
  run(COMMAND "${READELF}" -d "${binary}" OUTPUT dynamic)
  string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*" needed "${dynamic}")
  if(NOT needed)
    message(FATAL_ERROR "no NEEDED entry in the dynamic section of ${binary}:\n${dynamic}")
  endif()
  set(rules ${refused})
  if(LINKED_IN AND binary STREQUAL PROGRAM)
    list(APPEND rules "librmodel\\.so=whose code it has linked in")
  endif()
  foreach(entry IN LISTS needed)
    foreach(rule IN LISTS rules)
      string(REGEX REPLACE "=.*" "" pattern "${rule}")
      string(REGEX REPLACE "^[^=]*=" "" reason "${rule}")
      if(entry MATCHES "${pattern}")
        message(FATAL_ERROR "${binary} links ${CMAKE_MATCH_0}, ${reason}: ${entry}")
      endif()
    endforeach()
  endforeach()
  message(STATUS "${binary}: ${needed}")
  if(dynamic MATCHES "\\((RUNPATH|RPATH)\\)[^[]*\\[([^]\n]*)\\]")
    set(kind "${CMAKE_MATCH_1}")
    set(search_path "${CMAKE_MATCH_2}")
    if(LINKED_IN AND binary STREQUAL PROGRAM)
      message(FATAL_ERROR "${PROGRAM} has a ${kind} [${search_path}], though it links no library of its own")
    endif()
    if(search_path MATCHES "^:|::|:$" OR search_path STREQUAL "")
      message(FATAL_ERROR "${binary} has an empty entry in its ${kind} [${search_path}]: the dynamic "
                          "loader searches the working directory for every library")
    endif()
    message(STATUS "${binary}: ${kind} ${search_path}")
  endif()
endforeach()

# And at run time: what the dynamic loader opens (LD_DEBUG=libs) for `rmodel --version` and
# for a command that loads a model but needs no kinematics: no log library, no KDL, no fmt,
# whether linked or opened by a static initialiser.
foreach(arguments IN ITEMS "--version" "index;--sample;neck_pitch")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_DEBUG=libs "${PROGRAM}" ${arguments}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE loads)
  if(NOT rc EQUAL 0 OR out STREQUAL "")
    message(FATAL_ERROR "${PROGRAM} ${arguments} failed (${rc}):\n${out}\n${loads}")
  endif()
  string(REGEX MATCHALL "calling init: [^\n]*" initialised "${loads}")
  if(LINKED_IN AND initialised MATCHES "librmodel")
    message(FATAL_ERROR "${PROGRAM} ${arguments} loads librmodel.so, whose code it has linked in:\n${initialised}")
  elseif(NOT LINKED_IN AND NOT initialised MATCHES "librmodel")
    message(FATAL_ERROR "LD_DEBUG=libs shows no librmodel being initialised:\n${loads}")
  endif()
  if(initialised MATCHES "lib(zstd|lz4|bz2|sqlite3|fmt|orocos-kdl|urdfdom_model|console_bridge|yaml-cpp|fcl|assimp)[^/;]*\\.so|libtinyxml\\.so|rmodel-collision")
    message(FATAL_ERROR "${PROGRAM} ${arguments} loads ${CMAKE_MATCH_0}:\n${initialised}")
  endif()
  if(arguments STREQUAL "--version" AND initialised MATCHES "libtinyxml2")
    message(FATAL_ERROR "${PROGRAM} --version loads tinyxml2, which it opens when it reads XML:\n${initialised}")
  endif()
  message(STATUS "${PROGRAM} ${arguments} initialises: ${initialised}")
endforeach()

# The other way round: a command that needs kinematics opens KDL when it asks for it.
execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_DEBUG=libs "${PROGRAM}" fk --sample --chain front_left
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE loads)
if(NOT rc EQUAL 0 OR NOT loads MATCHES "calling init: [^\n]*liborocos-kdl")
  message(FATAL_ERROR "${PROGRAM} fk --sample did not open KDL (${rc}):\n${out}\n${loads}")
endif()

# And a YAML file opens the yaml plugin (and through it yaml-cpp), found beside librmodel
# (or, from a command with librmodel's code linked in, in <prefix>/<libdir>).
set(limits "${CMAKE_CURRENT_BINARY_DIR}/needed-test-limits.yaml")
file(WRITE "${limits}" "joint_limits:\n  neck_pitch:\n    has_jerk_limits: true\n    max_jerk: 40\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_DEBUG=libs "${PROGRAM}" joints --sample --limits "${limits}" -f csv
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE loads)
file(REMOVE "${limits}")
if(NOT rc EQUAL 0 OR NOT loads MATCHES "calling init: [^\n]*rmodel-yaml-[^\n]*\\.so" OR NOT out MATCHES ",40\n")
  message(FATAL_ERROR "${PROGRAM} joints --limits did not open the yaml plugin (${rc}):\n${out}\n${loads}")
endif()

# And collision geometry opens the collision plugin (and through it FCL and assimp).
execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_DEBUG=libs "${PROGRAM}" collisions --sample --samples 10
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE loads)
if(NOT rc EQUAL 0 OR NOT loads MATCHES "calling init: [^\n]*rmodel-collision-[^\n]*\\.so" OR NOT loads MATCHES "calling init: [^\n]*libfcl")
  message(FATAL_ERROR "${PROGRAM} collisions did not open the collision plugin (${rc}):\n${out}\n${loads}")
endif()
