# ctest: builds the Debian packages from the existing build with CPack and checks them
# with dpkg-deb -I (control fields) and dpkg-deb --contents (file lists), as Debian would
# have them: `rmodel` (command, shared library, data, gzip'd man pages, completions, DEP-5
# copyright; stripped; library in /usr/<LIBDIR>) and `librmodel-dev` (headers, the .so link,
# CMake package, pkg-config). Then it checks that Depends names the Debian package of every
# shared library the binaries load, unpacks both into a scratch root (dpkg -x) and runs the
# unpacked `rmodel` there. With the Python module built, a third package, `python3-rmodel`
# (the package rmodel in /usr/<PYTHON_DIR>), is checked the same way and imported unpacked.
#   -DBUILD_DIR -DWORK_DIR -DVERSION -DCPACK -DLIBDIR -DMAINTAINER
#   [-DPYTHON=interpreter -DPYTHON_DIR=lib/python3.X/dist-packages -DPYTHON_VERSION=3.X]
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/RmodelScriptTest.cmake)
require_variables(BUILD_DIR WORK_DIR VERSION CPACK LIBDIR MAINTAINER)

# Fails when `what` occurs in `text`.
function(expect_not_in text what)
  string(FIND "${text}" "${what}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "did not expect '${what}' in:\n${text}")
  endif()
endfunction()

# Fails unless a line of `text` matches the regular expression `regex`.
function(expect_line text regex)
  string(REPLACE ";" "\\;" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  foreach(line IN LISTS lines)
    if(line MATCHES "${regex}")
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "no line matches '${regex}' in:\n${text}")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
# The build's own CPack configuration: cpack installs each component from the build tree
# (CMAKE_SKIP_INSTALL_ALL_DEPENDENCY: without building anything first).
run(COMMAND "${CPACK}" -G DEB -B "${WORK_DIR}" --config "${BUILD_DIR}/CPackConfig.cmake")
run(COMMAND dpkg --print-architecture OUTPUT arch)
string(STRIP "${arch}" arch)
set(runtime_deb "${WORK_DIR}/rmodel_${VERSION}_${arch}.deb")
set(dev_deb "${WORK_DIR}/librmodel-dev_${VERSION}_${arch}.deb")
file(GLOB debs "${WORK_DIR}/*.deb")
list(SORT debs)
set(expected "${dev_deb};${runtime_deb}")
if(PYTHON)
  set(python_deb "${WORK_DIR}/python3-rmodel_${VERSION}_${arch}.deb")
  set(expected "${dev_deb};${python_deb};${runtime_deb}")
endif()
if(NOT debs STREQUAL expected)
  message(FATAL_ERROR "expected the packages ${expected}, found: ${debs}")
endif()

# ---- control fields (dpkg-deb -I) ----
run(COMMAND dpkg-deb -I "${runtime_deb}" OUTPUT info)
message(STATUS "${runtime_deb}:\n${info}")
expect_line("${info}" "^ Package: rmodel$")
expect_line("${info}" "^ Version: ${VERSION}$")
expect_line("${info}" "^ Architecture: ${arch}$")
expect_in("${info}" "\n Maintainer: ${MAINTAINER}\n")
expect_line("${info}" "^ Section: science$")
expect_line("${info}" "^ Suggests: gnuplot-nox$")
expect_in("${info}" "\n Description: Robot model inspection and joint-state processing\n  rmodel reads a URDF")
expect_not_in("${info}" "example.org")
expect_not_in("${info}" "Humanity")
expect_not_in("${info}" "librmodel-dev")
run(COMMAND dpkg-deb -I "${dev_deb}" OUTPUT dev_info)
message(STATUS "${dev_deb}:\n${dev_info}")
expect_line("${dev_info}" "^ Package: librmodel-dev$")
expect_line("${dev_info}" "^ Section: libdevel$")
expect_in("${dev_info}" "\n Description: Robot model inspection and joint-state processing - development files\n  Headers")
expect_in("${dev_info}" "\n Maintainer: ${MAINTAINER}\n")
expect_line("${dev_info}" "^ Depends: rmodel \\(= ${VERSION}\\), liborocos-kdl-dev, libeigen3-dev$")
if(PYTHON)
  run(COMMAND dpkg-deb -I "${python_deb}" OUTPUT python_info)
  message(STATUS "${python_deb}:\n${python_info}")
  expect_line("${python_info}" "^ Package: python3-rmodel$")
  expect_line("${python_info}" "^ Section: python$")
  expect_line("${python_info}" "^ Architecture: ${arch}$")
  expect_in("${python_info}" "\n Maintainer: ${MAINTAINER}\n")
  expect_in("${python_info}" "\n Description: Robot model inspection and joint-state processing - Python 3 module\n")
  # Built for one Python: the next minor version is excluded.
  string(REGEX MATCH "^([0-9]+)\\.([0-9]+)$" _ "${PYTHON_VERSION}")
  math(EXPR next "${CMAKE_MATCH_2} + 1")
  string(REPLACE "." "\\." escaped "${PYTHON_VERSION}")
  expect_line("${python_info}"
    "^ Depends: rmodel \\(= ${VERSION}\\), python3 \\(>= ${escaped}\\), python3 \\(<< ${CMAKE_MATCH_1}\\.${next}\\), python3-numpy, ")
  expect_line("${python_info}" "^ Suggests: python3-matplotlib$")
endif()

# ---- file lists (dpkg-deb --contents): `perms owner size date time ./path[ -> target]` ----
string(REGEX MATCH "^[0-9]+\\.[0-9]+" soversion "${VERSION}")
run(COMMAND dpkg-deb --contents "${runtime_deb}" OUTPUT contents)
run(COMMAND dpkg-deb --contents "${dev_deb}" OUTPUT dev_contents)
message(STATUS "rmodel:\n${contents}\nlibrmodel-dev:\n${dev_contents}")
set(listings contents dev_contents)
if(PYTHON)
  run(COMMAND dpkg-deb --contents "${python_deb}" OUTPUT python_contents)
  message(STATUS "python3-rmodel:\n${python_contents}")
  list(APPEND listings python_contents)
  foreach(regex
      " \\./usr/${PYTHON_DIR}/rmodel/__init__\\.py$"
      " \\./usr/${PYTHON_DIR}/rmodel/_rmodel\\.cpython-[^ ]*\\.so$"
      " \\./usr/${PYTHON_DIR}/rmodel/filters\\.py$"
      " \\./usr/${PYTHON_DIR}/rmodel/__init__\\.pyi$"
      " \\./usr/${PYTHON_DIR}/rmodel/filters\\.pyi$"
      " \\./usr/${PYTHON_DIR}/rmodel/py\\.typed$"
      "^-.* \\./usr/share/doc/python3-rmodel/copyright$")
    expect_line("${python_contents}" "${regex}")
  endforeach()
  foreach(text "./usr/bin" "librmodel.so" "/man/" "/share/rmodel/" "./usr/include" "__pycache__")
    expect_not_in("${python_contents}" "${text}")
  endforeach()
  foreach(text "${PYTHON_DIR}" "python3-rmodel")
    expect_not_in("${contents}" "${text}")
    expect_not_in("${dev_contents}" "${text}")
  endforeach()
endif()
foreach(regex
    " \\./usr/bin/rmodel$"
    " \\./usr/${LIBDIR}/librmodel\\.so\\.${VERSION}$"
    " \\./usr/${LIBDIR}/librmodel\\.so\\.${soversion} -> librmodel\\.so\\.${VERSION}$"
    " \\./usr/${LIBDIR}/rmodel-yaml-${VERSION}\\.so$"
    " \\./usr/${LIBDIR}/rmodel-collision-${VERSION}\\.so$"
    "^-.* \\./usr/share/doc/rmodel/copyright$"
    " \\./usr/share/man/man1/rmodel\\.1\\.gz$"
    " \\./usr/share/man/man1/rmodel-check\\.1\\.gz$"
    " \\./usr/share/bash-completion/completions/rmodel$"
    " \\./usr/share/zsh/vendor-completions/_rmodel$"
    " \\./usr/share/fish/vendor_completions\\.d/rmodel\\.fish$"
    " \\./usr/share/rmodel/sample/pony\\.urdf$"
    " \\./usr/share/rmodel/schema/semantics\\.schema\\.json$"
    " \\./usr/share/rmodel/examples/robot\\.urdf$"
    "^-rwxr-xr-x .* \\./usr/share/rmodel/examples/check-model\\.sh$"
    "^-rwxr-xr-x .* \\./usr/share/rmodel/examples/slurm/check-logs\\.sh$")
  expect_line("${contents}" "${regex}")
endforeach()
# Modes: files 644 or 755, directories 755, whatever the umask of the checkout that built them.
foreach(listing IN LISTS listings)
  string(REPLACE "\n" ";" lines "${${listing}}")
  foreach(line IN LISTS lines)
    if(line STREQUAL "" OR line MATCHES "^l")
      continue()
    endif()
    if(NOT line MATCHES "^(-rw-r--r--|-rwxr-xr-x|drwxr-xr-x) ")
      message(FATAL_ERROR "a packaged file has an unexpected mode: ${line}")
    endif()
  endforeach()
endforeach()
# Only the runtime: no headers, no unversioned .so link, no CMake or pkg-config files, no
# uncompressed man page, nothing in the non-multiarch /usr/lib.
foreach(text "./usr/include" "librmodel.so " "librmodel.so\n" "/cmake/" "/pkgconfig/" ".1\n" "librmodel-dev")
  expect_not_in("${contents}" "${text}")
endforeach()
if(NOT LIBDIR STREQUAL "lib")
  expect_not_in("${contents}" "./usr/lib/librmodel")
endif()
foreach(regex
    " \\./usr/include/rmodel/model\\.hpp$"
    " \\./usr/include/rmodel/export\\.hpp$"
    " \\./usr/include/rmodel/io/reader\\.hpp$"
    " \\./usr/${LIBDIR}/librmodel\\.so -> librmodel\\.so\\.${soversion}$"
    " \\./usr/${LIBDIR}/cmake/rmodel/rmodelConfig\\.cmake$"
    " \\./usr/${LIBDIR}/cmake/rmodel/rmodelTargets\\.cmake$"
    " \\./usr/${LIBDIR}/pkgconfig/rmodel\\.pc$"
    "^-.* \\./usr/share/doc/librmodel-dev/copyright$")
  expect_line("${dev_contents}" "${regex}")
endforeach()
foreach(text "./usr/bin" "librmodel.so.${VERSION}" "/man/" "/share/rmodel/")
  expect_not_in("${dev_contents}" "${text}")
endforeach()

# ---- unpacked: stripped binaries, compressed man pages, the copyright file ----
set(root "${WORK_DIR}/root")
run(COMMAND dpkg -x "${runtime_deb}" "${root}")
run(COMMAND dpkg -x "${dev_deb}" "${root}")
if(PYTHON)
  run(COMMAND dpkg -x "${python_deb}" "${root}")
  file(GLOB python_module "${root}/usr/${PYTHON_DIR}/rmodel/_rmodel.cpython-*.so")
endif()
set(exe "${root}/usr/bin/rmodel")
set(lib "${root}/usr/${LIBDIR}/librmodel.so.${VERSION}")
set(libdir "${root}/usr/${LIBDIR}")
foreach(binary "${exe}" "${lib}" ${python_module})
  run(COMMAND objdump -h "${binary}" OUTPUT sections)
  foreach(section .debug_info .debug_line .symtab)
    expect_not_in("${sections}" " ${section} ")
  endforeach()
endforeach()
# gzip -9n: no file name (FLG bit 3) and no time stamp (MTIME = 0) in the header.
file(READ "${root}/usr/share/man/man1/rmodel.1.gz" header HEX LIMIT 10)
if(NOT header MATCHES "^1f8b08(00|02)00000000")
  message(FATAL_ERROR "rmodel.1.gz is not gzip -n: header ${header}")
endif()
run(COMMAND gzip -dc "${root}/usr/share/man/man1/rmodel.1.gz" OUTPUT page)
expect_in("${page}" ".TH")
file(READ "${root}/usr/share/doc/rmodel/copyright" copyright)
foreach(text "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
    "Upstream-Name: rmodel\n" "Files: *\nCopyright: " "License: BSD-3-Clause\n"
    "\n Redistribution and use in source and binary forms" "\n .\n")
  expect_in("${copyright}" "${text}")
endforeach()

# ---- Depends: every shared library the command and the library need directly (NEEDED;
# the others come with those libraries' own packages) belongs to a package it names ----
# check_depends(INFO BINARY...): `dpkg-deb -I` text of a package and the binaries it holds.
function(check_depends info)
  string(REGEX MATCH "\n Depends: [^\n]*" depends "${info}")
  string(REGEX REPLACE "^\n Depends: " "" depends_names "${depends}")
  string(REGEX REPLACE "\\([^)]*\\)" "" depends_names "${depends_names}")
  string(REGEX REPLACE "[ ]*[,|][ ]*" ";" depends_names "${depends_names}")
  string(STRIP "${depends_names}" depends_names)
  foreach(binary IN LISTS ARGN)
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
endfunction()
check_depends("${info}" "${exe}" "${lib}" "${root}/usr/${LIBDIR}/rmodel-yaml-${VERSION}.so"
              "${root}/usr/${LIBDIR}/rmodel-collision-${VERSION}.so")
if(PYTHON)
  check_depends("${python_info}" ${python_module})
endif()

# ---- the unpacked command runs and finds its data in the unpacked tree (through its
# RPATH: no LD_LIBRARY_PATH) ----
run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR --unset=LD_LIBRARY_PATH "${exe}" --version
    OUTPUT out)
expect_in("${out}" "rmodel ${VERSION}")
run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR --unset=LD_LIBRARY_PATH "${exe}" check --sample
    OUTPUT out)
run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR --unset=LD_LIBRARY_PATH "${exe}" info --sample
    -f json OUTPUT out)
expect_in("${out}" "${root}/usr/share/rmodel/sample/pony.urdf")
# A YAML file: librmodel opens its yaml plugin, found beside itself.
run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR --unset=LD_LIBRARY_PATH "${exe}" joints --sample
    --limits "${root}/usr/share/rmodel/examples/joint_limits.yaml" -f csv OUTPUT out)
expect_in("${out}" "16,neck_pitch,revolute,head neck,head,-0.8,0.5,2,4,4,40")
# Collision geometry: librmodel opens its collision plugin (FCL, assimp), found beside itself.
run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR --unset=LD_LIBRARY_PATH "${exe}" collisions --sample
    --samples 100 OUTPUT out)
expect_in("${out}" "17 links with geometry")

# ---- the unpacked Python package imports, and its module loads the unpacked librmodel (RPATH),
# which finds its data in the unpacked tree ----
if(PYTHON)
  file(WRITE "${WORK_DIR}/import.py" [[
import sys
import rmodel
root = sys.argv[1]
assert rmodel.__file__.startswith(root), rmodel.__file__
assert rmodel.__version__ == sys.argv[2], rmodel.__version__
assert rmodel.sample_dir() == root + "/usr/share/rmodel/sample", rmodel.sample_dir()
model = rmodel.Model(rmodel.sample_dir() + "/pony.urdf", semantics=rmodel.sample_dir() + "/pony.json",
                     limits=root + "/usr/share/rmodel/examples/joint_limits.yaml")
assert model.index("neck_pitch") == 16 and model.limits.acceleration[16] == 4
loaded = [line.split()[-1] for line in open("/proc/self/maps") if "librmodel.so" in line]
assert loaded and all(path.startswith(root) for path in loaded), loaded
print("python3-rmodel", rmodel.__version__, model)
]])
  run(COMMAND "${CMAKE_COMMAND}" -E env --unset=RMODEL_SHARE_DIR --unset=LD_LIBRARY_PATH
      "PYTHONPATH=${root}/usr/${PYTHON_DIR}" "${PYTHON}" "${WORK_DIR}/import.py" "${root}" "${VERSION}" OUTPUT out)
  expect_in("${out}" "python3-rmodel ${VERSION} <rmodel.Model 'pony'")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
