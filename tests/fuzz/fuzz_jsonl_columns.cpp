// Fuzz target: io::read_json_lines_columns against the pipeline it stands in for. The input is
// a JSON Lines log (its first byte also picks the number of parts and whether a model's names
// fix the columns). Findings: the straight way taking a log the pipeline reports a problem
// with, or giving a table that differs from the pipeline's in any bit.
#include <cstring>
#include <optional>

#include "log_file_target.hpp"
#include "rmodel/io/columns.hpp"
#include "rmodel/stream/column_stage.hpp"
#include "rmodel/stream/stream.hpp"

namespace {

using namespace rmodel;

bool same_bytes(const void* a, const void* b, std::size_t n) { return n == 0 || std::memcmp(a, b, n) == 0; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::ScratchFile scratch(".jsonl");
  if (size == 0) return 0;
  const unsigned threads = 1 + data[0] % 4;
  const std::vector<std::string> pose = {"a", "b", "c", "joint1", "joint2", "neck_pitch"};
  const std::vector<std::string>* known = (data[0] & 4) ? &pose : nullptr;
  const std::string& path = scratch.write(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));

  std::optional<io::JointColumns> fast = io::read_json_lines_columns(path, known, true, threads);
  if (!fast) return 0;
  io::ColumnTable table;
  stream::ColumnStage stage(table, known ? std::optional(*known) : std::nullopt);
  stream::CallbackSink nowhere({});
  std::size_t problems = 0;
  stream::Pipeline pipeline(stage, nowhere, [&](const stream::Event&) { ++problems; });
  io::MessageReader reader = io::MessageReader::open(path, {.format = io::parse_format("jsonl")});
  (void)pipeline.run(reader);
  pipeline.finish();
  table.finish(stage.names().size());

  RMODEL_FUZZ_CHECK(problems == 0, "taken though the pipeline reports a problem");
  RMODEL_FUZZ_CHECK(fast->names == stage.names(), "other columns");
  io::ColumnTable& a = fast->table;
  const std::size_t rows = a.rows();
  RMODEL_FUZZ_CHECK(rows == table.rows(), "another number of rows");
  RMODEL_FUZZ_CHECK(same_bytes(a.t.data(), table.t.data(), rows * 8) && same_bytes(a.line.data(), table.line.data(), rows * 8) &&
                        same_bytes(a.stamped.data(), table.stamped.data(), rows) &&
                        same_bytes(a.cycle.data(), table.cycle.data(), rows * 8),
                    "other times, lines or cycles");
  for (int f = 0; f < io::kJointFields; ++f) {
    const auto field = static_cast<io::JointField>(f);
    RMODEL_FUZZ_CHECK(a.present(field) == table.present(field), "a field present on one side only");
    if (a.present(field))
      RMODEL_FUZZ_CHECK(same_bytes(a.values(field).data(), table.values(field).data(),
                                   rows * fast->names.size() * sizeof(double)),
                        "other values");
  }
  return 0;
}
