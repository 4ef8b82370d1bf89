# ctest: librmodel does not link the libraries that only ROS logs need (zstd, lz4, bzip2,
# SQLite): lib/src/io/ros/lazy_libraries.cpp opens them when a log needs them, so that
# commands which read no log do not pay for loading them at every start.
#   -DLIBRARY -DREADELF
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/RmodelScriptTest.cmake)
require_variables(LIBRARY READELF)

run(COMMAND "${READELF}" -d "${LIBRARY}" OUTPUT dynamic)
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*" needed "${dynamic}")
if(NOT needed)
  message(FATAL_ERROR "no NEEDED entry in the dynamic section of ${LIBRARY}:\n${dynamic}")
endif()
foreach(entry IN LISTS needed)
  if(entry MATCHES "lib(zstd|lz4|bz2|sqlite3)\\.so")
    message(FATAL_ERROR "${LIBRARY} links ${CMAKE_MATCH_0}, which only ROS logs need: ${entry}")
  endif()
endforeach()
message(STATUS "${LIBRARY}: ${needed}")
