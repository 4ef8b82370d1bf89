#include "rmodel/base/error.hpp"

#include <fmt/format.h>

namespace rmodel {

std::string SourceLocation::to_string() const {
  if (line > 0) return fmt::format("{}:{}", file, line);
  return file;
}

IoError::IoError(std::string path, const std::string& reason)
    : Error(fmt::format("{}: {}", path, reason)), path_(std::move(path)) {}

ParseError::ParseError(SourceLocation where, const std::string& message)
    : Error(fmt::format("{}: {}", where.to_string(), message)),
      where_(std::move(where)),
      message_(message) {}

NotFound::NotFound(std::string kind, std::string name, const std::string& hint)
    : Error(fmt::format("unknown {} '{}'{}", kind, name, hint)), kind_(std::move(kind)), name_(std::move(name)) {}

NotFound::NotFound(std::string kind, std::string name, Message message)
    : Error(message.text), kind_(std::move(kind)), name_(std::move(name)) {}

SizeMismatch::SizeMismatch(const std::string& what, std::size_t expected, std::size_t got)
    : Error(fmt::format("{}: expected {}, got {}", what, expected, got)) {}

OptionError::OptionError(std::vector<std::string> fields, const std::string& message)
    : InvalidArgument(message), fields_(std::move(fields)) {}

namespace {
bool field_name_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
}  // namespace

std::string rename_fields(std::string_view text, std::string_view (*word_of)(std::string_view field)) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t colons = text.find("::", pos);
    if (colons == std::string_view::npos) break;
    // The qualified name around "::": the type's name before, the field's after.
    std::size_t begin = colons;
    while (begin > pos && field_name_char(text[begin - 1])) --begin;
    std::size_t end = colons + 2;
    while (end < text.size() && field_name_char(text[end])) ++end;
    const std::string_view word = word_of(text.substr(begin, end - begin));
    out += text.substr(pos, (word.empty() ? end : begin) - pos);
    out += word;
    pos = end;
  }
  out += text.substr(pos);
  return out;
}

}  // namespace rmodel
