// JSON Lines: one JSON message per line (rules in rmodel/io/message.hpp). The format `jsonl`.
#include <array>

#include "io/formats/format_table.hpp"
#include "io/write/format_writer.hpp"
#include "io/read/parsers.hpp"
#include "io/read/text_source.hpp"

namespace rmodel::io::detail {
namespace {

class JsonLinesSource final : public TextSource {
public:
  using TextSource::TextSource;

  std::optional<ReadStatus> next(Message& out) override {
    std::string_view line;
    std::size_t number = 0;
    if (auto status = context_.read_line(line, number)) return status;
    return context_.parse_json(line, context_.lines.readable(line.data()), number, 0, out);
  }

  [[nodiscard]] bool input_pending() const noexcept override { return context_.line_waiting(); }
};

std::unique_ptr<TextSource> make_json_lines_source(TextContext& context, const ReaderOptions& /*options*/) {
  return std::make_unique<JsonLinesSource>(context);
}

/// An object that closes on its first line.
Likeness sniff_json_lines(std::string_view line) {
  const std::size_t i = skip_text_blanks(line);
  return i < line.size() && line[i] == '{' && scan_value_end(line, i) != std::string_view::npos ? Likeness::Strong
                                                                                                 : Likeness::None;
}

constexpr std::array<std::string_view, 3> kJsonLinesAliases = {"ndjson", "json-lines", "jsonlines"};
constexpr std::array<std::string_view, 2> kJsonLinesExtensions = {".jsonl", ".ndjson"};

}  // namespace

extern const FormatDescriptor json_lines_format = {
    .name = "jsonl",
    .aliases = kJsonLinesAliases,
    .extensions = kJsonLinesExtensions,
    .sniff_line = sniff_json_lines,
    .make_writer = make_json_lines_writer,
    .read_text = make_json_lines_source,
};

}  // namespace rmodel::io::detail
