// CSV: a header row, then one row per time; a row holds up to seven messages (rules in
// rmodel/io/message.hpp, columns in csv.hpp's CsvTable).
#include <array>

#include "io/text/csv.hpp"
#include "io/formats/format_table.hpp"
#include "io/write/format_writer.hpp"
#include "io/read/text_source.hpp"

namespace rmodel::io::detail {
namespace {

class CsvSource final : public TextSource {
public:
  CsvSource(TextContext& context, const ReaderOptions& options)
      : TextSource(context), names_(context.builder.spare()) {
    table_.configure(CsvOptions{options.time_column, options.column_prefix, options.time});
  }

  std::optional<ReadStatus> next(Message& out) override {
    if (table_.pending()) return emit(out);
    std::string_view line;
    std::size_t number = 0;
    if (auto status = context_.read_line(line, number)) return status;
    if (!table_.has_header()) {
      std::string problems = table_.set_header(line);
      if (!problems.empty()) return context_.fail(number, 0, "CSV header: " + problems);
      return std::nullopt;
    }
    if (!table_.parse_row(line, number, row_error_)) return context_.fail(number, 0, row_error_);
    if (table_.pending()) return emit(out);
    return std::nullopt;  // a row without data
  }

  [[nodiscard]] bool input_pending() const noexcept override {
    return table_.pending() || context_.line_waiting();
  }

private:
  ReadStatus emit(Message& out) {
    table_.emit(out, names_);
    return ReadStatus::Ok;
  }

  CsvTable table_;
  StringListSink names_;
  std::string row_error_;
};

std::unique_ptr<TextSource> make_csv_source(TextContext& context, const ReaderOptions& options) {
  return std::make_unique<CsvSource>(context, options);
}

/// Any line could be a CSV header: the format of text no other format recognises.
Likeness sniff_csv(std::string_view /*line*/) { return Likeness::Fallback; }

constexpr std::array<std::string_view, 1> kCsvExtensions = {".csv"};

}  // namespace

extern const FormatDescriptor csv_format = {
    .name = "csv",
    .extensions = kCsvExtensions,
    .sniff_line = sniff_csv,
    .make_writer = make_csv_writer,
    .read_text = make_csv_source,
};

}  // namespace rmodel::io::detail
