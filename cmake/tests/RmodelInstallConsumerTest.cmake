# ctest: installs the existing build into a temporary prefix (no rebuild), checks the
# installed layout, runs the installed `rmodel` on its own sample robot, then configures,
# builds and runs tests/consumer against the prefix with find_package(rmodel), and compiles
# the same program through pkg-config.
#   -DBUILD_DIR -DSOURCE_DIR -DWORK_DIR -DVERSION -DBINDIR -DLIBDIR -DINCLUDEDIR -DDATADIR -DMANDIR
#   -DCXX_COMPILER [-DPKG_CONFIG] [-DPYTHON=interpreter -DPYTHON_DIR=lib/python3.X/dist-packages]
# With the Python module built, it checks that `cmake --install` put the package rmodel into
# the prefix's site directory, whose module loads the prefix's librmodel.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/RmodelScriptTest.cmake)
require_variables(BUILD_DIR SOURCE_DIR WORK_DIR VERSION BINDIR LIBDIR INCLUDEDIR DATADIR MANDIR CXX_COMPILER)

set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
run(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")

string(REGEX MATCH "^[0-9]+\\.[0-9]+" soversion "${VERSION}")
foreach(file
    "${BINDIR}/rmodel"
    "${LIBDIR}/librmodel.so" "${LIBDIR}/librmodel.so.${soversion}" "${LIBDIR}/librmodel.so.${VERSION}"
    "${INCLUDEDIR}/rmodel/model/model.hpp" "${INCLUDEDIR}/rmodel/base/version.hpp" "${INCLUDEDIR}/rmodel/io/reader.hpp"
    "${DATADIR}/rmodel/sample/pony.urdf" "${DATADIR}/rmodel/sample/model.json"
    "${DATADIR}/rmodel/schema/semantics.schema.json"
    "${MANDIR}/man1/rmodel.1.gz" "${MANDIR}/man1/rmodel-joints.1.gz"
    "${DATADIR}/doc/rmodel/copyright" "${DATADIR}/rmodel/examples/robot.urdf"
    "${DATADIR}/bash-completion/completions/rmodel" "${DATADIR}/zsh/vendor-completions/_rmodel"
    "${DATADIR}/fish/vendor_completions.d/rmodel.fish"
    "${LIBDIR}/cmake/rmodel/rmodelConfig.cmake" "${LIBDIR}/cmake/rmodel/rmodelConfigVersion.cmake"
    "${LIBDIR}/cmake/rmodel/rmodelTargets.cmake" "${LIBDIR}/cmake/rmodel/RmodelCheck.cmake"
    "${LIBDIR}/pkgconfig/rmodel.pc")
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
file(GLOB private_headers "${prefix}/${INCLUDEDIR}/rmodel/*urdf*" "${prefix}/${INCLUDEDIR}/rmodel/*.cpp")
if(private_headers)
  message(FATAL_ERROR "installed more than the public headers: ${private_headers}")
endif()

# The installed API knows only rmodel's own JSON parser: the alternative parsers and the switch
# between them are test code (tests/json_parsers, reached through lib/src/io/read/parsers.hpp), and
# the libraries rmodel keeps private are not named by any installed header.
file(GLOB_RECURSE installed_headers "${prefix}/${INCLUDEDIR}/rmodel/*")
list(LENGTH installed_headers header_count)
if(header_count LESS 20)
  message(FATAL_ERROR "only ${header_count} installed headers under ${prefix}/${INCLUDEDIR}/rmodel")
endif()
foreach(header IN LISTS installed_headers)
  file(READ "${header}" text)
  if(text MATCHES "(simdjson|JsonParser|json_parsers|use_json_parser|JsonMessageParser|#include [<\"](nlohmann|tinyxml2|urdf))")
    message(FATAL_ERROR "${header} names a test hook or a private dependency: '${CMAKE_MATCH_1}'")
  endif()
endforeach()

# The installed command finds its data under its own prefix.
run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR "${prefix}/${BINDIR}/rmodel" info --sample -f json
    OUTPUT info)
expect_in("${info}" "${prefix}/${DATADIR}/rmodel/sample/pony.urdf")
run(COMMAND "${prefix}/${BINDIR}/rmodel" --version OUTPUT version)
expect_in("${version}" "rmodel ${VERSION}")

# The Python package, in the interpreter's site directory of the prefix.
if(PYTHON)
  foreach(file __init__.py __init__.pyi filters.py filters.pyi _errors.py py.typed)
    if(NOT EXISTS "${prefix}/${PYTHON_DIR}/rmodel/${file}")
      message(FATAL_ERROR "not installed: ${PYTHON_DIR}/rmodel/${file}")
    endif()
  endforeach()
  file(WRITE "${WORK_DIR}/import.py" [[
import rmodel
print(rmodel.__file__)
print(rmodel.sample_dir())
print([line.split()[-1] for line in open("/proc/self/maps") if "librmodel.so" in line][0])
]])
  run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR "PYTHONPATH=${prefix}/${PYTHON_DIR}" "${PYTHON}"
      "${WORK_DIR}/import.py" OUTPUT out)
  expect_in("${out}" "${prefix}/${PYTHON_DIR}/rmodel/__init__.py\n${prefix}/${DATADIR}/rmodel/sample\n${prefix}/${LIBDIR}/librmodel.so.${VERSION}")
endif()

# find_package(rmodel) from a project of its own.
run(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/consumer" -B "${WORK_DIR}/consumer"
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
run(COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}/consumer")
run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR "${WORK_DIR}/consumer/pony_pose" OUTPUT out)
expect_in("${out}" "rmodel ${VERSION}, sample robot in ${prefix}/${DATADIR}/rmodel/sample")
expect_in("${out}" "pony: 20 joints in the full pose")
expect_in("${out}" "neck_pitch is joint 16")
message(STATUS "find_package consumer:\n${out}")

# rmodel_add_check() registered the consumer's tests with the installed rmodel: the valid models
# pass (one writing its JUnit report), the broken one fails.
run(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${WORK_DIR}/consumer" -R "^(robot_valid|xacro_robot_valid)$"
    --output-on-failure OUTPUT out)
expect_in("${out}" "100% tests passed, 0 tests failed out of 2")
file(READ "${WORK_DIR}/consumer/robot_valid.xml" junit)
expect_in("${junit}" "<testsuites name=\"rmodel check\"")
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${WORK_DIR}/consumer" -R "^robot_broken$"
                --output-on-failure RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "rmodel_add_check's test of a broken model passed:\n${out}")
endif()
expect_in("${out}" "invalid: 2 errors, 0 warnings")

# The same program through pkg-config.
if(PKG_CONFIG)
  run(COMMAND "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${prefix}/${LIBDIR}/pkgconfig"
      "${PKG_CONFIG}" --cflags --libs rmodel OUTPUT flags)
  string(STRIP "${flags}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(COMMAND "${CXX_COMPILER}" -std=c++20 -o "${WORK_DIR}/pony_pose_pc" "${SOURCE_DIR}/tests/consumer/main.cpp"
      ${flags} "-Wl,-rpath,${prefix}/${LIBDIR}")
  run(COMMAND "${WORK_DIR}/pony_pose_pc" OUTPUT out)
  expect_in("${out}" "pony: 20 joints in the full pose")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
