// What the text sources share (TextContext) and the telling of a text format from its first
// line (sniff_text_format).
#include "io/read/text_source.hpp"

#include <fmt/format.h>

#include <vector>

#include "io/formats/format_table.hpp"
#include "io/read/parsers.hpp"

namespace rmodel::io::detail {
namespace {
inline bool is_text_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
}  // namespace

TextContext::TextContext(ByteSource& source, std::size_t max_line, ReadError& error)
    : lines(source, max_line), max_line(max_line), error(error), parser(make_native_parser()) {}

LineSplitter::Status TextContext::next_line(std::string_view& line, std::size_t& number) {
  if (held_) {
    held_ = false;
    line = held_line_;
    number = held_number_;
    return LineSplitter::Status::Line;
  }
  for (;;) {
    const auto status = lines.next(line, number);
    if (status == LineSplitter::Status::TooLong) {
      first_line_ = false;
      seen_content_ = true;
    }
    if (status != LineSplitter::Status::Line) return status;
    if (first_line_) {
      first_line_ = false;
      if (line.substr(0, 3) == kByteOrderMark) line.remove_prefix(3);
    }
    std::size_t i = 0;
    while (i < line.size() && is_text_blank(line[i])) ++i;
    if (i == line.size()) continue;
    seen_content_ = true;
    return status;
  }
}

std::optional<ReadStatus> TextContext::read_line(std::string_view& line, std::size_t& number) {
  switch (next_line(line, number)) {
    case LineSplitter::Status::WouldBlock: return ReadStatus::WouldBlock;
    case LineSplitter::Status::End: return at_end();
    case LineSplitter::Status::TooLong: return too_long(number);
    case LineSplitter::Status::Line: break;
  }
  return std::nullopt;
}

void TextContext::hold(std::string_view line, std::size_t number) noexcept {
  held_ = true;
  held_line_ = line;
  held_number_ = number;
}

ReadStatus TextContext::fail(std::size_t line, std::size_t item, std::string reason) {
  error.line = line;
  error.item = item;
  error.reason = std::move(reason);
  seen_content_ = true;
  return ReadStatus::Error;
}

ReadStatus TextContext::at_end() {
  done = true;
  if (!seen_content_) return fail(0, 0, "empty input: no messages");
  return ReadStatus::End;
}

ReadStatus TextContext::too_long(std::size_t line) {
  return fail(line, 0, fmt::format("line longer than {} bytes (skipped)", max_line));
}

std::optional<ReadStatus> TextContext::parse_json(std::string_view text, std::size_t capacity, std::size_t line,
                                                  std::size_t item, Message& out) {
  builder.begin(out);
  switch (parser->parse(text, capacity, builder, failure)) {
    case ParseStatus::Ok:
      out.line = line;
      out.item = item;
      return ReadStatus::Ok;
    case ParseStatus::Error:
      return fail(line + count_newlines(text, failure.offset), item, std::move(failure.reason));
    case ParseStatus::Document: break;
  }
  std::size_t i = 0;
  while (i < text.size() && is_text_blank(text[i])) ++i;
  if (i < text.size() && text[i] == '[')
    return fail(line, item,
                "expected a JSON object, got an array (arrays of messages are read from "
                "whole JSON documents: format json)");
  expand_trajectory(text, line, pending.items());
  return std::nullopt;
}

namespace {
/// The formats an input of `requested` may be: the named format and its may_be (those first),
/// else every text format that can be told from its first line, in the table's order.
std::vector<const FormatDescriptor*> sniff_candidates(Format requested) {
  std::vector<const FormatDescriptor*> out;
  const FormatDescriptor* named = descriptor_of(requested);
  if (named != nullptr && !named->may_be.empty()) {
    for (std::string_view other : named->may_be)
      if (const FormatDescriptor* f = descriptor_named(other)) out.push_back(f);
    out.push_back(named);
    return out;
  }
  for (const FormatDescriptor* f : format_descriptors())
    if (f->read_text != nullptr && f->sniff_line != nullptr) out.push_back(f);
  return out;
}
}  // namespace

std::optional<ReadStatus> sniff_text_format(TextContext& context, Format requested, std::optional<Format>& decided) {
  const std::vector<const FormatDescriptor*> candidates = sniff_candidates(requested);
  std::string_view line;
  std::size_t number = 0;
  switch (context.next_line(line, number)) {
    case LineSplitter::Status::WouldBlock: return ReadStatus::WouldBlock;
    case LineSplitter::Status::End: return context.at_end();
    case LineSplitter::Status::TooLong:
      decided = format_of(*candidates.front());
      return context.too_long(number);
    case LineSplitter::Status::Line: break;
  }
  const FormatDescriptor* best = candidates.front();
  Likeness most = Likeness::None;
  for (const FormatDescriptor* f : candidates) {
    const Likeness l = f->sniff_line != nullptr ? f->sniff_line(line) : Likeness::None;
    if (l > most) {
      most = l;
      best = f;
    }
  }
  decided = format_of(*best);
  context.hold(line, number);
  return std::nullopt;
}

}  // namespace rmodel::io::detail
