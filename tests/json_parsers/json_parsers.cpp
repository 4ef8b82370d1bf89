#include "json_parsers.hpp"

#include "io/parsers.hpp"

namespace rmodel::io::testing {

// Defined in json_nlohmann.cpp and json_simdjson.cpp.
std::unique_ptr<detail::JsonMessageParser> make_nlohmann_parser();
#ifdef RMODEL_HAVE_SIMDJSON
std::unique_ptr<detail::JsonMessageParser> make_simdjson_ondemand_parser();
std::unique_ptr<detail::JsonMessageParser> make_simdjson_dom_parser();
#endif

void register_json_parsers() {
  detail::register_json_parser(JsonParser::Nlohmann, &make_nlohmann_parser);
#ifdef RMODEL_HAVE_SIMDJSON
  detail::register_json_parser(JsonParser::SimdjsonOndemand, &make_simdjson_ondemand_parser);
  detail::register_json_parser(JsonParser::SimdjsonDom, &make_simdjson_dom_parser);
#endif
}

}  // namespace rmodel::io::testing
