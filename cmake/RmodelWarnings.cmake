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
