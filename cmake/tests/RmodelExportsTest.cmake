# ctest: the dynamic symbol table of librmodel (nm -D --defined-only) holds rmodel's public
# API and nothing else: no symbols of the libraries compiled into it (fmt, tinyxml2,
# nlohmann_json, simdjson), no instantiations of std templates, no internal helper.
#   -DLIBRARY -DNM
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/RmodelScriptTest.cmake)
require_variables(LIBRARY NM)

run(COMMAND "${NM}" -D --defined-only -C "${LIBRARY}" OUTPUT table)
string(REPLACE ";" "\\;" table "${table}")
string(REPLACE "\n" ";" lines "${table}")
set(api 0)
set(foreign "")
set(internal "")
foreach(line IN LISTS lines)
  # `address type name`; names with spaces (typeinfo for X, f(int, int)) keep them.
  if(NOT line MATCHES "^[0-9a-f]+ ([A-Za-z]) (.*)$")
    continue()
  endif()
  set(name "${CMAKE_MATCH_2}")
  # The linker's own markers of the sections' ends.
  if(name MATCHES "^(_edata|_end|__bss_start|_init|_fini|RMODEL_[0-9.]+)$")
    continue()
  endif()
  string(REGEX REPLACE "^(typeinfo name for |typeinfo for |vtable for |VTT for |(non-)?virtual thunk to )" ""
         entity "${name}")
  if(entity MATCHES "^rmodel::")
    math(EXPR api "${api} + 1")
    # Internal functions exported for rmodel's uninstalled test library (tests/json_parsers),
    # declared in lib/src/io/{builder,parsers}.hpp only: these and no more.
    if(entity MATCHES "^rmodel::io::detail::([A-Za-z_]+)" AND
       NOT CMAKE_MATCH_1 MATCHES "^(classify_key|classify_stamp_key|use_json_parser)$")
      string(APPEND internal "  ${name}\n")
    endif()
  else()
    string(APPEND foreign "  ${name}\n")
  endif()
endforeach()
message(STATUS "${LIBRARY}: ${api} rmodel:: symbols exported")
if(NOT foreign STREQUAL "")
  message(FATAL_ERROR "exported symbols outside the rmodel:: API:\n${foreign}")
endif()
if(NOT internal STREQUAL "")
  message(FATAL_ERROR "internal io symbols exported beyond the test library's entry points:\n${internal}")
endif()
# No test hook is part of the library's ABI: the choice between JSON parsers lives in the tests.
string(REGEX MATCH "[^\n]*(JsonParser|simdjson|register_json_parser)[^\n]*" hook "${table}")
if(hook)
  message(FATAL_ERROR "a test hook is exported: ${hook}")
endif()
# The public API is there (a class's member, a free function, an exception's typeinfo)...
foreach(symbol "rmodel::Model::load(" "rmodel::sample_model_dir" "typeinfo for rmodel::Error")
  string(FIND "${table}" " ${symbol}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "not exported: ${symbol}")
  endif()
endforeach()
if(api LESS 100)
  message(FATAL_ERROR "only ${api} rmodel:: symbols exported")
endif()
# ... and the internals are not: lib/src/model/urdf_loader.hpp's loader, in namespace rmodel but
# without RMODEL_API.
string(FIND "${table}" "rmodel::detail::load_urdf(" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "an internal helper is exported: rmodel::detail::load_urdf")
endif()
