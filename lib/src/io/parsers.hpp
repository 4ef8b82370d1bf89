#pragma once
// RMODEL_API here: the test-only JSON parsers (tests/json_parsers) register through it.
#include "rmodel/export.hpp"
// Internal: the JSON message parsers behind JsonParser, and the structural scanner used to
// split JSON documents into values.

#include <cstddef>
#include <memory>
#include <string_view>

#include "io/builder.hpp"
#include "rmodel/io/reader.hpp"

namespace rmodel::io::detail {

std::unique_ptr<JsonMessageParser> make_native_parser();

/// Makes a parser of the alternative kinds: nullptr unless a program registered it (see
/// register_json_parser; librmodel itself has only the native parser).
std::unique_ptr<JsonMessageParser> make_nlohmann_parser();
std::unique_ptr<JsonMessageParser> make_simdjson_ondemand_parser();
std::unique_ptr<JsonMessageParser> make_simdjson_dom_parser();

using JsonParserFactory = std::unique_ptr<JsonMessageParser> (*)();
/// Makes the parser `which` (not Native) available to MessageReader in this process. The
/// test and benchmark programs register the simdjson and nlohmann_json parsers
/// (tests/json_parsers) from static constructors; nothing else calls this.
RMODEL_API void register_json_parser(JsonParser which, JsonParserFactory factory) noexcept;
/// True for Native and for registered parsers.
bool json_parser_available(JsonParser which) noexcept;

/// The parser for `which`; throws InvalidArgument when it is not available.
std::unique_ptr<JsonMessageParser> make_json_parser(JsonParser which);

/// End (one past) of the JSON value starting at `text[pos]` (not whitespace), or npos when
/// the value does not end inside `text`. Tracks strings (with escapes) and nesting only;
/// a scalar ends before whitespace, ',', ']' or '}'.
std::size_t scan_value_end(std::string_view text, std::size_t pos) noexcept;

/// A short description of the JSON token starting at `p` ("a string", "end of input", ...).
const char* describe_token(const char* p, const char* end) noexcept;

}  // namespace rmodel::io::detail
