#pragma once
// The alternative JSON message parsers (simdjson On Demand and DOM, nlohmann_json) for the
// test and benchmark programs: they cross-check rmodel's native parser and are compared with
// it in tests/bench/bench_io.cpp. They are not part of librmodel, whose installed API knows
// only its native parser (so neither the library nor the .deb depends on libsimdjson): a
// program linking rmodel_json_parsers opens a reader as usual and hands it one of these
// through use_parser() (docs/design.md, "No test hooks in the installed API").

#include "rmodel/io/reader.hpp"

namespace rmodel::io::testing {

/// Which parser reads a reader's JSON messages. The values are the benchmarks' arguments
/// (bench_io.cpp), in this order; there, on the development VM, simdjson DOM reads 5-20 %
/// faster than Native, On Demand 0-10 %, nlohmann_json 7-9 times slower. Trajectories are
/// read by librmodel's trajectory reader whatever the parser.
enum class JsonParser {
  Native,            ///< rmodel's own single-pass parser (strict RFC 8259), every reader's
  SimdjsonOndemand,  ///< simdjson On Demand (when built with simdjson)
  SimdjsonDom,       ///< simdjson DOM (when built with simdjson)
  Nlohmann,          ///< nlohmann_json DOM
};

/// True when this build has the simdjson parsers (simdjson found at configure time).
[[nodiscard]] bool have_simdjson() noexcept;

/// Makes `reader` read its JSON messages with `parser`; call it before the first next().
/// Native leaves the reader as it is. Otherwise throws InvalidArgument for a merged reader
/// (MessageReader::merge), and for a simdjson parser in a build without simdjson.
void use_parser(MessageReader& reader, JsonParser parser);

}  // namespace rmodel::io::testing
