#pragma once
#include "rmodel/export.hpp"
/// @file error.hpp
/// Typed errors thrown by rmodel. The library never prints or exits: every failure at a
/// load or I/O boundary is one of these exceptions, carrying where it happened.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rmodel {

/// Where in an input something was found: a file (or "<stdin>", "<string>") and a 1-based
/// line; line 0 means "the whole file" or "unknown".
struct RMODEL_API SourceLocation {
  std::string file;
  int line = 0;

  /// "file:line" or "file" when the line is unknown.
  [[nodiscard]] std::string to_string() const;
};

/// Base of every rmodel error.
class RMODEL_API Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A file could not be opened or read (missing, a directory, unreadable, ...).
class RMODEL_API IoError : public Error {
public:
  IoError(std::string path, const std::string& reason);
  [[nodiscard]] const std::string& path() const noexcept { return path_; }

private:
  std::string path_;
};

/// Writing failed because the reader of the output went away (EPIPE): for a stream, a
/// normal way to end.
class RMODEL_API BrokenPipe : public IoError {
public:
  using IoError::IoError;
};

/// Writing an output failed (disk full, device error, cannot create the file): the command
/// failed, unlike an IoError on an input, which is a bad argument.
class RMODEL_API WriteError : public IoError {
public:
  using IoError::IoError;
};

/// Input text is malformed (XML/JSON syntax, wrong types, bad numbers). what() reads
/// "file:line: message".
class RMODEL_API ParseError : public Error {
public:
  ParseError(SourceLocation where, const std::string& message);
  [[nodiscard]] const SourceLocation& where() const noexcept { return where_; }
  [[nodiscard]] const std::string& message() const noexcept { return message_; }

private:
  SourceLocation where_;
  std::string message_;
};

/// Input is well formed but violates a rule of the model (unknown link, chain in two
/// groups, ...). what() reads "file:line: message".
class RMODEL_API ModelError : public ParseError {
public:
  using ParseError::ParseError;
};

/// A query named something the model does not have. `hint` is appended to the message:
/// "; did you mean 'X'?" (rmodel/base/suggest.hpp) or empty.
class RMODEL_API NotFound : public Error {
public:
  NotFound(std::string kind, std::string name, const std::string& hint = {});
  /// The whole text of what(), for a name that exists but not where it was looked for
  /// ("joint 'x' is floating: ...").
  struct Message {
    std::string text;
  };
  NotFound(std::string kind, std::string name, Message message);
  [[nodiscard]] const std::string& kind() const noexcept { return kind_; }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }

private:
  std::string kind_;
  std::string name_;
};

/// An array had the wrong size: "what: expected N, got M".
class RMODEL_API SizeMismatch : public Error {
public:
  SizeMismatch(const std::string& what, std::size_t expected, std::size_t got);
};

/// An argument value is out of its domain (negative period, unknown option value, ...).
class RMODEL_API InvalidArgument : public Error {
public:
  using Error::Error;
};

/// An option of the API has a value it cannot take, or options do not go together. what()
/// names the options by their fields, qualified by their struct ("AggregatorOptions::diff_method
/// 'x' is a smoother filter; ..."), never by a command-line flag; fields() lists the same names,
/// so that a program with its own names for the options (the rmodel command maps them to its
/// flags, docs/design.md "Errors name API fields") can say it in its words.
class RMODEL_API OptionError : public InvalidArgument {
public:
  OptionError(std::vector<std::string> fields, const std::string& message);
  /// The fields named in what(), first the one whose value is refused.
  [[nodiscard]] const std::vector<std::string>& fields() const noexcept { return fields_; }

private:
  std::vector<std::string> fields_;
};

/// `text` with each API field it names (a type's name, "::", a field's name, as in
/// "ReaderOptions::topics") replaced by `word_of(field)` where that is not empty: how a front
/// end with its own names for the options (the command's flags, Python's arguments) shows the
/// library's texts in its words. Other text is left as it is.
[[nodiscard]] RMODEL_API std::string rename_fields(std::string_view text,
                                                   std::string_view (*word_of)(std::string_view field));

}  // namespace rmodel
