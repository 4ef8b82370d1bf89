// Fuzz target: xacro expansion. Input: xacro text. A document either expands or is rejected
// with an rmodel::Error naming it; an expansion is well-formed XML, and every line of it maps
// back to a line of a file the processor read. Limits are small so that runaway documents
// end quickly; the environment is empty.
#include <string>

#include <tinyxml2.h>

#include "fuzz_target.hpp"
#include "rmodel/xacro/xacro.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rmodel;
  const std::string text(fuzz::as_text(data, size));
  const std::string source = "fuzz.urdf.xacro";
  XacroOptions options;
  options.environment = [](const char*) -> const char* { return nullptr; };
  options.limits.steps = 200'000;
  options.limits.output_nodes = 50'000;
  options.limits.output_bytes = 4u << 20;
  options.limits.value_bytes = 1u << 20;
  options.limits.macro_depth = 64;
  options.limits.include_depth = 8;
  options.limits.element_depth = 300;
  fuzz::expect_clean_rejection(source, [&] {
    const XacroResult result = expand_xacro_string(text, source, options);
    tinyxml2::XMLDocument doc;
    RMODEL_FUZZ_CHECK(doc.Parse(result.xml().data(), result.xml().size()) == tinyxml2::XML_SUCCESS,
                      std::string(doc.ErrorStr() ? doc.ErrorStr() : "") + "\n" + result.xml());
    int lines = 0;
    for (const char c : result.xml()) lines += c == '\n';
    for (int line = 1; line <= lines; ++line) {
      const SourceLocation where = result.origin(line);
      RMODEL_FUZZ_CHECK(!where.file.empty() && where.line >= 0, "a line without origin");
    }
  });
  return 0;
}
