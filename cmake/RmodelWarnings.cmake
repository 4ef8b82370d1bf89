# Warnings and sanitizer flags shared by every rmodel target.
add_library(rmodel_warnings INTERFACE)
target_compile_options(rmodel_warnings INTERFACE -Wall -Wextra -Wpedantic
  $<$<BOOL:${RMODEL_WERROR}>:-Werror>)

add_library(rmodel_sanitize INTERFACE)
if(RMODEL_SANITIZE)
  target_compile_options(rmodel_sanitize INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(rmodel_sanitize INTERFACE -fsanitize=address,undefined)
endif()
