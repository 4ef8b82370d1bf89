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
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${ARG_BATCH})
    # GCC takes every included .cpp for a header and warns that a class with external
    # linkage holds a member of an anonymous-namespace type: true of headers, not of a
    # source file compiled once.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
    endif()
  endif()
endfunction()
