#pragma once
// Internal: the JSON message parsers behind JsonParser, and the structural scanner used to
// split JSON documents into values.

#include <cstddef>
#include <memory>
#include <string_view>

#include "io/builder.hpp"
#include "rmodel/io/reader.hpp"

namespace rmodel::io::detail {

std::unique_ptr<JsonMessageParser> make_native_parser();
std::unique_ptr<JsonMessageParser> make_nlohmann_parser();
/// nullptr when rmodel was built without simdjson.
std::unique_ptr<JsonMessageParser> make_simdjson_ondemand_parser();
std::unique_ptr<JsonMessageParser> make_simdjson_dom_parser();

/// The parser for `which`; throws InvalidArgument when this build lacks it.
std::unique_ptr<JsonMessageParser> make_json_parser(JsonParser which);

/// End (one past) of the JSON value starting at `text[pos]` (not whitespace), or npos when
/// the value does not end inside `text`. Tracks strings (with escapes) and nesting only;
/// a scalar ends before whitespace, ',', ']' or '}'.
std::size_t scan_value_end(std::string_view text, std::size_t pos) noexcept;

/// A short description of the JSON token starting at `p` ("a string", "end of input", ...).
const char* describe_token(const char* p, const char* end) noexcept;

}  // namespace rmodel::io::detail
