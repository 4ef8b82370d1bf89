#include "json_parsers.hpp"

#include "io/read/parsers.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::io::testing {

// Defined in json_nlohmann.cpp and json_simdjson.cpp.
std::unique_ptr<detail::JsonMessageParser> make_nlohmann_parser();
#ifdef RMODEL_HAVE_SIMDJSON
std::unique_ptr<detail::JsonMessageParser> make_simdjson_ondemand_parser();
std::unique_ptr<detail::JsonMessageParser> make_simdjson_dom_parser();
#endif

bool have_simdjson() noexcept {
#ifdef RMODEL_HAVE_SIMDJSON
  return true;
#else
  return false;
#endif
}

void use_parser(MessageReader& reader, JsonParser parser) {
  std::unique_ptr<detail::JsonMessageParser> p;
  switch (parser) {
    case JsonParser::Native: return;  // every reader's parser
    case JsonParser::Nlohmann: p = make_nlohmann_parser(); break;
#ifdef RMODEL_HAVE_SIMDJSON
    case JsonParser::SimdjsonOndemand: p = make_simdjson_ondemand_parser(); break;
    case JsonParser::SimdjsonDom: p = make_simdjson_dom_parser(); break;
#else
    case JsonParser::SimdjsonOndemand:
    case JsonParser::SimdjsonDom:
      throw InvalidArgument("JSON parser unavailable: this build of the tests has no simdjson");
#endif
  }
  detail::use_json_parser(reader, std::move(p));
}

}  // namespace rmodel::io::testing
