// A log format that exists only for the test of the format descriptor (issue 45): `dummy`,
// whose lines are `dummy ` followed by a JSON Lines message. It is declared here, in one file,
// as a format of the library is in its own file, and listed by one row of the format table
// (lib/src/io/formats/format_table.cpp, the RMODEL_EXTRA_FORMAT row; tests/format/CMakeLists.txt).
// test_dummy_format.cpp then finds it wherever a user sees the formats.
#include <array>
#include <memory>
#include <string_view>

#include "io/formats/format_table.hpp"
#include "io/write/format_writer.hpp"
#include "io/read/text_source.hpp"

namespace rmodel::io::detail {
namespace {

constexpr std::string_view kDummyPrefix = "dummy ";

class DummySource final : public TextSource {
public:
  using TextSource::TextSource;

  std::optional<ReadStatus> next(Message& out) override {
    std::string_view line;
    std::size_t number = 0;
    if (auto status = context_.read_line(line, number)) return status;
    if (!line.starts_with(kDummyPrefix)) return context_.fail(number, 0, "a dummy line starts with 'dummy '");
    const std::string_view json = line.substr(kDummyPrefix.size());
    return context_.parse_json(json, context_.lines.readable(json.data()), number, 0, out);
  }

  [[nodiscard]] bool input_pending() const noexcept override { return context_.line_waiting(); }
};

class DummyWriter final : public FormatWriter {
public:
  explicit DummyWriter(const WriterOptions& options) : json_(make_json_lines_writer(options)) {}

  WriteStatus write(const LineParts& m, fmt::memory_buffer& out) override {
    out.append(kDummyPrefix);
    return json_->write(m, out);
  }

private:
  std::unique_ptr<FormatWriter> json_;
};

std::unique_ptr<TextSource> make_dummy_source(TextContext& context, const ReaderOptions& /*options*/) {
  return std::make_unique<DummySource>(context);
}

std::unique_ptr<FormatWriter> make_dummy_writer(const WriterOptions& options) {
  return std::make_unique<DummyWriter>(options);
}

Likeness sniff_dummy(std::string_view line) {
  return line.starts_with(kDummyPrefix) ? Likeness::Certain : Likeness::None;
}

constexpr std::array<std::string_view, 1> kDummyAliases = {"dummy-lines"};
constexpr std::array<std::string_view, 1> kDummyExtensions = {".dummy"};

}  // namespace

extern const FormatDescriptor dummy_format = {
    .name = "dummy",
    .aliases = kDummyAliases,
    .extensions = kDummyExtensions,
    .sniff_line = sniff_dummy,
    .make_writer = make_dummy_writer,
    .read_text = make_dummy_source,
};

}  // namespace rmodel::io::detail
