# The man pages (man/*.1) and shell completions (completions/) are generated from the
# command tree by `rmodel --generate man|completions DIR` and committed.
#   cmake -DRMODEL_EXE=build/bin/rmodel -DSOURCE_DIR=. -DMODE=update -P RmodelGenerated.cmake
#     rewrites them (what `cmake --build build --target regenerate` runs);
#   cmake ... -DMODE=check -DWORK_DIR=tmp -P RmodelGenerated.cmake
#     fails when the committed files differ from what the command generates (a ctest test).
cmake_minimum_required(VERSION 3.25)
foreach(var RMODEL_EXE SOURCE_DIR MODE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RmodelGenerated.cmake: ${var} is not set")
  endif()
endforeach()

function(generate kind dir)
  execute_process(COMMAND "${RMODEL_EXE}" --generate ${kind} "${dir}"
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${RMODEL_EXE} --generate ${kind} ${dir} failed (${rc}): ${err}")
  endif()
endfunction()

if(MODE STREQUAL "update")
  file(GLOB old_pages "${SOURCE_DIR}/man/*.1")
  if(old_pages)
    file(REMOVE ${old_pages})
  endif()
  generate(man "${SOURCE_DIR}/man")
  generate(completions "${SOURCE_DIR}/completions")
  message(STATUS "Regenerated ${SOURCE_DIR}/man and ${SOURCE_DIR}/completions")
  return()
endif()

if(NOT MODE STREQUAL "check" OR NOT DEFINED WORK_DIR)
  message(FATAL_ERROR "RmodelGenerated.cmake: MODE is update or check (with WORK_DIR)")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
generate(man "${WORK_DIR}/man")
generate(completions "${WORK_DIR}/completions")

set(problems "")
foreach(sub man completions)
  if(sub STREQUAL "man")
    set(pattern "*.1")
  else()
    set(pattern "*")
  endif()
  file(GLOB fresh RELATIVE "${WORK_DIR}/${sub}" "${WORK_DIR}/${sub}/${pattern}")
  file(GLOB committed RELATIVE "${SOURCE_DIR}/${sub}" "${SOURCE_DIR}/${sub}/${pattern}")
  foreach(name IN LISTS fresh)
    if(NOT EXISTS "${SOURCE_DIR}/${sub}/${name}")
      string(APPEND problems "  ${sub}/${name}: missing (a new command?)\n")
    else()
      file(READ "${SOURCE_DIR}/${sub}/${name}" old)
      file(READ "${WORK_DIR}/${sub}/${name}" new)
      if(NOT old STREQUAL new)
        string(APPEND problems "  ${sub}/${name}: stale (diff -u ${SOURCE_DIR}/${sub}/${name} ${WORK_DIR}/${sub}/${name})\n")
      endif()
    endif()
  endforeach()
  foreach(name IN LISTS committed)
    if(NOT name IN_LIST fresh AND NOT name STREQUAL ".gitignore")
      string(APPEND problems "  ${sub}/${name}: no longer generated (a removed command?)\n")
    endif()
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "The committed man pages or shell completions do not match the command tree:\n"
    "${problems}"
    "Regenerate them and commit the result:\n"
    "  cmake --build <build-dir> --target regenerate\n"
    "(or: rmodel --generate man man && rmodel --generate completions completions, from the checkout)")
endif()
message(STATUS "man/ and completions/ match the command tree")
