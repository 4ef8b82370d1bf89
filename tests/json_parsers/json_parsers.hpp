#pragma once
// The alternative JSON message parsers (simdjson On Demand and DOM, nlohmann_json) for the
// test and benchmark programs: they cross-check rmodel's native parser and are compared with
// it in tests/bench/bench_io.cpp. They are not part of librmodel (which has only the native
// parser, so neither it nor the .deb depends on libsimdjson); a program that links
// rmodel_json_parsers calls register_json_parsers() before selecting one through
// io::ReaderOptions::parser.

namespace rmodel::io::testing {

/// Makes the nlohmann_json parser and, when built with simdjson, the two simdjson parsers
/// available to io::MessageReader in this process (io::have_simdjson() turns true).
/// Idempotent; call it before creating the readers that use them.
void register_json_parsers();

}  // namespace rmodel::io::testing
