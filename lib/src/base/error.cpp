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

}  // namespace rmodel
