// JSON documents: one message, a trajectory, or an array of them, spread over lines (rules in
// rmodel/io/message.hpp). The whole document is read first, then split into values.
#include <array>

#include "io/formats/format_table.hpp"
#include "io/read/parsers.hpp"
#include "io/read/text_source.hpp"

#include <fmt/format.h>

namespace rmodel::io::detail {
namespace {

class JsonDocumentSource final : public TextSource {
public:
  explicit JsonDocumentSource(TextContext& context) : TextSource(context) {
    // The first line was read to tell the format; it is still valid here.
    if (context_.holds_line()) take_first_line();
  }

  std::optional<ReadStatus> next(Message& out) override {
    if (!loaded_) {
      if (doc_.empty()) {  // the first line is not yet read
        if (auto status = take_first_line()) return status;
      }
      if (context_.lines.drain(doc_) == LineSplitter::Status::WouldBlock) return ReadStatus::WouldBlock;
      size_ = doc_.size();
      doc_.append(kPadding, ' ');
      loaded_ = true;
    }
    const std::string_view doc(doc_.data(), size_);
    for (;;) {
      skip_blanks(doc);
      if (in_array_) {
        if (pos_ < size_ && doc[pos_] == ']') {
          ++pos_;
          in_array_ = false;
          continue;
        }
        if (array_items_ > 0) {
          if (pos_ < size_ && doc[pos_] == ',') {
            ++pos_;
            skip_blanks(doc);
          } else if (pos_ < size_) {
            context_.done = true;
            return context_.fail(line_, 0, fmt::format("expected ',' or ']' after array element {}", array_items_));
          }
        }
      }
      if (pos_ >= size_) {
        context_.done = true;
        if (in_array_) return context_.fail(line_, 0, "unterminated array (missing ']')");
        return ReadStatus::End;
      }
      const char c = doc[pos_];
      if (!in_array_ && c == '[') {
        in_array_ = true;
        array_items_ = 0;
        ++pos_;
        continue;
      }
      const std::size_t item = in_array_ ? ++array_items_ : 0;
      const std::size_t line = line_;
      std::size_t end = scan_value_end(doc, pos_);
      if (end == std::string_view::npos) {
        context_.done = true;
        return context_.fail(line, item, "unterminated JSON value (missing '}', ']' or '\"')");
      }
      if (end == pos_) end = pos_ + 1;
      const std::string_view text = doc.substr(pos_, end - pos_);
      line_ += count_newlines(text, text.size());
      pos_ = end;
      if (c != '{')
        return context_.fail(line, item,
                             fmt::format("expected a JSON object, got {}",
                                         describe_token(text.data(), text.data() + text.size())));
      const std::size_t capacity = doc_.size() - static_cast<std::size_t>(text.data() - doc_.data());
      return context_.parse_json(text, capacity, line, item, out);  // nullopt: expanded, pending
    }
  }

  [[nodiscard]] bool input_pending() const noexcept override {
    return context_.done || loaded_ || context_.lines.line_ready();
  }

private:
  /// Starts the document with its first non-blank line; a status when there is none yet.
  std::optional<ReadStatus> take_first_line() {
    std::string_view line;
    std::size_t number = 0;
    if (auto status = context_.read_line(line, number)) return status;
    doc_.assign(line.data(), line.size());
    doc_ += '\n';
    line_ = number;
    return std::nullopt;
  }

  void skip_blanks(std::string_view doc) noexcept {
    while (pos_ < size_ && (doc[pos_] == ' ' || doc[pos_] == '\t' || doc[pos_] == '\n' || doc[pos_] == '\r')) {
      if (doc[pos_] == '\n') ++line_;
      ++pos_;
    }
  }

  // The whole document, with kPadding spaces after its size_ bytes.
  std::string doc_;
  std::size_t size_ = 0;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;  ///< input line of doc_[pos_]
  bool loaded_ = false;
  bool in_array_ = false;
  std::size_t array_items_ = 0;
};

std::unique_ptr<TextSource> make_json_document_source(TextContext& context, const ReaderOptions& /*options*/) {
  return std::make_unique<JsonDocumentSource>(context);
}

/// A JSON value that starts on the first line (an object closing there is JSON Lines'
/// stronger claim).
Likeness sniff_json_document(std::string_view line) {
  const std::size_t i = skip_text_blanks(line);
  return i < line.size() && (line[i] == '{' || line[i] == '[') ? Likeness::Weak : Likeness::None;
}

constexpr std::array<std::string_view, 1> kJsonExtensions = {".json"};
// A `.json` file of one object per line is JSON Lines, and is streamed.
constexpr std::array<std::string_view, 1> kJsonMayBe = {"jsonl"};

}  // namespace

extern const FormatDescriptor json_document_format = {
    .name = "json",
    .extensions = kJsonExtensions,
    .sniff_line = sniff_json_document,
    .may_be = kJsonMayBe,
    .read_text = make_json_document_source,
};

}  // namespace rmodel::io::detail
