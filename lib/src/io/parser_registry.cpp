// The JSON message parsers MessageReader can use. librmodel has only the native parser; the
// simdjson and nlohmann_json ones are test and benchmark code (tests/json_parsers), which
// a test or benchmark program registers here before use, so the shipped library and
// package do not depend on simdjson.

#include "io/parsers.hpp"

namespace rmodel::io::detail {
namespace {

constexpr std::size_t kParsers = 4;

// Constant-initialised (no start-up order to worry about). A program registers its parsers
// before it creates the readers that use them.
JsonParserFactory g_factories[kParsers] = {};

std::size_t slot(JsonParser which) noexcept { return static_cast<std::size_t>(which) % kParsers; }

std::unique_ptr<JsonMessageParser> make_registered(JsonParser which) {
  const JsonParserFactory f = g_factories[slot(which)];
  return f ? f() : nullptr;
}

}  // namespace

void register_json_parser(JsonParser which, JsonParserFactory factory) noexcept {
  if (which != JsonParser::Native) g_factories[slot(which)] = factory;
}

bool json_parser_available(JsonParser which) noexcept {
  return which == JsonParser::Native || g_factories[slot(which)] != nullptr;
}

std::unique_ptr<JsonMessageParser> make_nlohmann_parser() {
  return make_registered(JsonParser::Nlohmann);
}
std::unique_ptr<JsonMessageParser> make_simdjson_ondemand_parser() {
  return make_registered(JsonParser::SimdjsonOndemand);
}
std::unique_ptr<JsonMessageParser> make_simdjson_dom_parser() {
  return make_registered(JsonParser::SimdjsonDom);
}

}  // namespace rmodel::io::detail
