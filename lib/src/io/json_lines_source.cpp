// JSON Lines: one JSON message per line (rules in rmodel/io/message.hpp).
#include "io/text_source.hpp"

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

}  // namespace

std::unique_ptr<TextSource> make_json_lines_source(TextContext& context, const ReaderOptions& /*options*/) {
  return std::make_unique<JsonLinesSource>(context);
}

}  // namespace rmodel::io::detail
