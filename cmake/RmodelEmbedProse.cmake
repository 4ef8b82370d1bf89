# cmake -DPROSE_DIR=man/prose -DOUTPUT=prose.cpp -P RmodelEmbedProse.cmake
# Compiles the hand-written prose of the man pages (man/prose/<stem>.md) into the rmodel
# command as rmodel::cli::prose_for(stem). The output is rewritten only when it changes.
cmake_minimum_required(VERSION 3.25)
file(GLOB files "${PROSE_DIR}/*.md")
list(SORT files)
set(delimiter "rmodel_prose")
set(entries "")
foreach(file IN LISTS files)
  get_filename_component(stem "${file}" NAME_WE)
  file(READ "${file}" text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains the raw-string delimiter )${delimiter}\"")
  endif()
  string(APPEND entries "    {\"${stem}\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()
set(source "// Generated from man/prose/*.md by cmake/RmodelEmbedProse.cmake; do not edit.
#include <string_view>

#include \"doc/man_page.hpp\"

namespace rmodel::cli {
namespace {

struct Prose {
  std::string_view stem;
  std::string_view text;
};

constexpr Prose kProse[] = {
${entries}    {\"\", \"\"},
};

}  // namespace

std::string_view prose_for(std::string_view stem) {
  for (const Prose& prose : kProse)
    if (!stem.empty() && prose.stem == stem) return prose.text;
  return {};
}

}  // namespace rmodel::cli
")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL source)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${source}")
