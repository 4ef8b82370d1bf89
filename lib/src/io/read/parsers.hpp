#pragma once
#include "rmodel/export.hpp"
// Internal: rmodel's JSON message parser, the structural scanner used to split JSON documents
// into values, and the one entry point through which rmodel's test and benchmark programs
// make a reader use another parser.

#include <cstddef>
#include <memory>
#include <string_view>

#include "io/read/builder.hpp"

namespace rmodel::io {
class MessageReader;
}

namespace rmodel::io::detail {

/// rmodel's own one-pass parser: the parser of every MessageReader.
std::unique_ptr<JsonMessageParser> make_native_parser();

/// End (one past) of the JSON value starting at `text[pos]` (not whitespace), or npos when
/// the value does not end inside `text`. Tracks strings (with escapes) and nesting only;
/// a scalar ends before whitespace, ',', ']' or '}'.
std::size_t scan_value_end(std::string_view text, std::size_t pos) noexcept;

/// A short description of the JSON token starting at `p` ("a string", "end of input", ...).
const char* describe_token(const char* p, const char* end) noexcept;

// --- Test hook -------------------------------------------------------------------------------
// The simdjson and nlohmann_json message parsers are test and benchmark code
// (tests/json_parsers, an uninstalled static library linked against the shared librmodel):
// they cross-check the native parser and are compared with it for speed. This function is
// how they reach a reader, so it is exported (RMODEL_API) although no installed header
// declares it: the installed API knows only the native parser, and neither librmodel nor
// the .deb depends on simdjson (docs/design.md, "JSON parser for the hot path"). The exports
// test (cmake/tests/RmodelExportsTest.cmake) lists every internal symbol that is exported.

/// Makes `reader` read its JSON messages (JSON Lines, JSON documents, the messages of a
/// JSON array) with `parser` instead of the native parser. Call it before the first next().
/// Throws InvalidArgument for a null parser or a merged reader (MessageReader::merge), which
/// has no parser of its own.
RMODEL_API void use_json_parser(MessageReader& reader, std::unique_ptr<JsonMessageParser> parser);

}  // namespace rmodel::io::detail
