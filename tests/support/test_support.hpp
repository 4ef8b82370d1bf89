#pragma once
// Shared helpers for rmodel's tests: fixture paths and running the command.

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rmodel/io/reader.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel::io {
/// GoogleTest prints a format by its name.
inline void PrintTo(Format format, std::ostream* os) { *os << format.name(); }
}  // namespace rmodel::io

namespace rmodel::test {

/// ../shared/fixtures (or RMODEL_FIXTURES_DIR); may not exist.
std::filesystem::path fixtures_dir();
/// True when the shared fixtures are present.
bool have_fixtures();
/// A path inside the fixtures directory.
std::filesystem::path fixture(const std::string& relative);
/// The project source directory.
std::filesystem::path source_dir();
/// share/rmodel/sample/<file> in the source tree.
std::filesystem::path sample(const std::string& file);
/// The sample robot: share/rmodel/sample/pony.urdf with pony.json.
Model pony();
/// True when `a` and `b` are the same double bit for bit (sign of zero and NaN payload too).
bool same_bits(double a, double b);
/// Reads a whole file.
std::string read_file(const std::filesystem::path& path);
/// A fresh temporary directory removed at process exit is not guaranteed; callers clean up.
std::filesystem::path make_temp_dir(const std::string& prefix);

/// Parses JSON Lines output: one JSON value per non-empty line (throws on a bad line).
std::vector<nlohmann::json> json_lines(const std::string& text);

/// Every message and every error of a log, read to its end.
struct ReadResult {
  std::vector<io::Message> messages;
  std::vector<io::ReadError> errors;
};
/// Opens `path` with `options` and reads it to the end.
ReadResult read_log(const std::string& path, io::ReaderOptions options = {});
/// Reads `reader` to the end.
ReadResult read_log(io::MessageReader& reader);

/// One result of MessageReader::next(): its status and the message (Ok) or the error (Error).
struct ReadItem {
  io::ReadStatus status;
  io::Message message;
  io::ReadError error;
};
/// Reads `text` as the input `source` with `options` to its end, in order; a test failure
/// when the reader would block or does not come to an end.
std::vector<ReadItem> read_items(const std::string& text, io::ReaderOptions options = {},
                                 const std::string& source = "<test>");
/// Reads `reader` to its end, in order (as above).
std::vector<ReadItem> read_items(io::MessageReader& reader);

/// Result of running the rmodel command.
struct RunResult {
  int exit_code = -1;  ///< exit status, or 128+signal when killed by a signal
  std::string out;
  std::string err;
};
/// Runs the built `rmodel` (or the program RMODEL_TEST_COMMAND names) with arguments (no shell), feeding `input` on stdin; with
/// `chunk_bytes`, in writes of at most that many bytes with a pause after each (input
/// trickling in from a slow producer).
RunResult run_rmodel(const std::vector<std::string>& args, const std::string& input = {},
                     std::size_t chunk_bytes = 0);

}  // namespace rmodel::test

/// Skips the current test with a clear message when ../shared/fixtures is absent.
#define RMODEL_REQUIRE_FIXTURES()                                                         \
  do {                                                                                    \
    if (!::rmodel::test::have_fixtures())                                                 \
      GTEST_SKIP() << "shared fixtures not found at " << ::rmodel::test::fixtures_dir()   \
                   << " (set RMODEL_FIXTURES_DIR); skipping test that needs real robot data"; \
  } while (0)
