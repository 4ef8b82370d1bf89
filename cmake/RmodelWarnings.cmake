# Warnings and sanitizer flags shared by every rmodel target.
add_library(rmodel_warnings INTERFACE)
target_compile_options(rmodel_warnings INTERFACE -Wall -Wextra -Wpedantic
  $<$<BOOL:${RMODEL_WERROR}>:-Werror>)

add_library(rmodel_sanitize INTERFACE)
if(RMODEL_SANITIZE)
  target_compile_options(rmodel_sanitize INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  # Under ASan Eigen stops assuming malloc is aligned and frees KDL::JntArray storage
  # differently from the prebuilt liborocos-kdl, which ASan reports as a bad free.
  target_compile_definitions(rmodel_sanitize INTERFACE EIGEN_MALLOC_ALREADY_ALIGNED=1)
  target_link_options(rmodel_sanitize INTERFACE -fsanitize=address,undefined)
  # Programs at fixed addresses: the pointers in the static library's data (lib/CMakeLists.txt)
  # are resolved by the linker instead of being relocated at every start.
  target_link_options(rmodel_sanitize INTERFACE $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
endif()
if(RMODEL_FUZZ)
  # libFuzzer's coverage instrumentation everywhere; the fuzz targets add -fsanitize=fuzzer
  # (its main) when they link.
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "RMODEL_FUZZ needs clang (libFuzzer): configure with CMAKE_CXX_COMPILER=clang++")
  endif()
  target_compile_options(rmodel_sanitize INTERFACE -fsanitize=fuzzer-no-link)
  target_link_options(rmodel_sanitize INTERFACE -fsanitize=fuzzer-no-link)
endif()

# rmodel_unity(target [BATCH n]): the target compiles in unity batches when RMODEL_UNITY_BUILD
# is on. Sources in one batch share a translation unit, so file-local names (anonymous
# namespaces, statics) must be unique across the target.
function(rmodel_unity target)
  cmake_parse_arguments(ARG "" "BATCH" "" ${ARGN})
  if(NOT ARG_BATCH)
    set(ARG_BATCH 8)
  endif()
  if(RMODEL_UNITY_BUILD)
    # Batches are formed within each folder (UNITY_BUILD_MODE GROUP), in name order: a file
    # added to one folder regroups that folder's sources only, so the file-local names of
    # the other folders never meet new neighbours (and their objects are not rebuilt).
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
    get_target_property(sources ${target} SOURCES)
    get_target_property(source_dir ${target} SOURCE_DIR)
    list(SORT sources)
    set(previous_dir "")
    foreach(source IN LISTS sources)
      if(NOT source MATCHES "\\.(cpp|cc|cxx)$")
        continue()
      endif()
      get_source_file_property(skip ${source} SKIP_UNITY_BUILD_INCLUSION)
      if(skip)
        continue()
      endif()
      get_filename_component(dir ${source} DIRECTORY)
      if(NOT dir STREQUAL previous_dir)
        set(previous_dir "${dir}")
        set(index 0)
      endif()
      math(EXPR batch "${index} / ${ARG_BATCH}")
      math(EXPR index "${index} + 1")
      file(RELATIVE_PATH group "${source_dir}" "${dir}")
      string(MAKE_C_IDENTIFIER "${target}_${group}_${batch}" group)
      set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP ${group})
    endforeach()
    # GCC takes every included .cpp for a header and warns that a class with external
    # linkage holds a member of an anonymous-namespace type: true of headers, not of a
    # source file compiled once.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
    endif()
  endif()
endfunction()
