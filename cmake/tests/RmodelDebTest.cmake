# ctest: builds the .deb from the existing build with CPack, checks that
# its Depends names the Debian package of every shared library the binaries load, unpacks
# it into a scratch root (dpkg -x) and runs the unpacked `rmodel` there: --version and
# check --sample, which must find the sample robot inside the unpacked tree.
#   -DBUILD_DIR -DWORK_DIR -DVERSION -DCPACK
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/RmodelScriptTest.cmake)
require_variables(BUILD_DIR WORK_DIR VERSION CPACK)

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
# `cpack -G DEB` first builds the target `preinstall`, which depends on `all` (every test
# program too); staging with `cmake --install` (what cpack then runs) and packaging that
# tree gives the same package without building anything.
set(stage "${WORK_DIR}/stage")
run(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${stage}/usr" --strip)
file(WRITE "${WORK_DIR}/CPackStaged.cmake" "include(\"${BUILD_DIR}/CPackConfig.cmake\")
set(CPACK_INSTALL_CMAKE_PROJECTS \"\")
set(CPACK_INSTALLED_DIRECTORIES \"${stage};.\")
")
run(COMMAND "${CPACK}" -G DEB -B "${WORK_DIR}" --config "${WORK_DIR}/CPackStaged.cmake")
file(GLOB debs "${WORK_DIR}/*.deb")
list(LENGTH debs count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one .deb in ${WORK_DIR}, found: ${debs}")
endif()
run(COMMAND dpkg-deb -f "${debs}" Package Version Depends OUTPUT control)
message(STATUS "${debs}:\n${control}")
expect_in("${control}" "Version: ${VERSION}")
string(REGEX MATCH "Depends: [^\n]*" depends "${control}")
# Package names of Depends: "a (>= 1), b | c" → a;b;c
string(REGEX REPLACE "^Depends: " "" depends_names "${depends}")
string(REGEX REPLACE "\\([^)]*\\)" "" depends_names "${depends_names}")
string(REGEX REPLACE "[ ]*[,|][ ]*" ";" depends_names "${depends_names}")
string(STRIP "${depends_names}" depends_names)

set(root "${WORK_DIR}/root")
run(COMMAND dpkg -x "${debs}" "${root}")
set(exe "${root}/usr/bin/rmodel")
file(GLOB libs "${root}/usr/lib/librmodel.so.*.*.*" "${root}/usr/lib/*/librmodel.so.*.*.*")
if(NOT EXISTS "${exe}" OR NOT libs)
  message(FATAL_ERROR "the package lacks usr/bin/rmodel or librmodel")
endif()
list(GET libs 0 lib)
get_filename_component(libdir "${lib}" DIRECTORY)
foreach(file usr/share/rmodel/sample/pony.urdf usr/share/man/man1/rmodel.1 usr/share/bash-completion/completions/rmodel
    usr/share/zsh/vendor-completions/_rmodel usr/share/fish/vendor_completions.d/rmodel.fish usr/include/rmodel/model.hpp)
  if(NOT EXISTS "${root}/${file}")
    message(FATAL_ERROR "the package lacks ${file}")
  endif()
endforeach()

# Every shared library the command and the library need directly (NEEDED; the others come
# with those libraries' own packages) belongs to a package named in Depends.
foreach(binary "${exe}" "${lib}")
  run(COMMAND objdump -p "${binary}" OUTPUT dynamic)
  string(REGEX MATCHALL "NEEDED +[^ \n]+" needed "${dynamic}")
  run(COMMAND "${CMAKE_COMMAND}" -E env "LD_LIBRARY_PATH=${libdir}" ldd "${binary}" OUTPUT ldd)
  foreach(entry IN LISTS needed)
    string(REGEX REPLACE "^NEEDED +" "" soname "${entry}")
    if(soname MATCHES "^librmodel")
      continue()
    endif()
    string(FIND "${ldd}" "${soname} => /" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${binary} needs ${soname}, which ldd does not resolve:\n${ldd}")
    endif()
    string(SUBSTRING "${ldd}" ${at} -1 path)
    string(REGEX REPLACE "^[^ ]+ => ([^ \n]+).*" "\\1" path "${path}")
    get_filename_component(real "${path}" REALPATH)
    execute_process(COMMAND dpkg -S "${path}" RESULT_VARIABLE rc OUTPUT_VARIABLE owner ERROR_QUIET)
    if(NOT rc EQUAL 0)
      execute_process(COMMAND dpkg -S "${real}" RESULT_VARIABLE rc OUTPUT_VARIABLE owner ERROR_QUIET)
    endif()
    if(NOT rc EQUAL 0)
      message(WARNING "no Debian package owns ${path}; not checked")
      continue()
    endif()
    string(REGEX REPLACE "[:,].*" "" package "${owner}")
    if(NOT package IN_LIST depends_names)
      message(FATAL_ERROR "${binary} needs ${soname} from package ${package}, which is not in\n${depends}")
    endif()
    message(STATUS "${soname}: ${package}")
  endforeach()
endforeach()

run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR "LD_LIBRARY_PATH=${libdir}" "${exe}" --version
    OUTPUT out)
expect_in("${out}" "rmodel ${VERSION}")
run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR "LD_LIBRARY_PATH=${libdir}" "${exe}" check --sample
    OUTPUT out)
run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR "LD_LIBRARY_PATH=${libdir}" "${exe}" info --sample
    -f json OUTPUT out)
expect_in("${out}" "${root}/usr/share/rmodel/sample/pony.urdf")
file(REMOVE_RECURSE "${WORK_DIR}")
