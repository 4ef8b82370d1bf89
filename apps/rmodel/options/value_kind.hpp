#pragma once
// What an option's value is, declared where the option is (issue 45): the man pages show its
// value name, the shell completions offer file names only for files and directories, and
// the test CliOptionKinds.* checks every option of every command against its own table.

#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace rmodel::cli {

/// The kind of an option's value.
enum class ValueKind {
  none,       ///< a flag: no value
  file,       ///< a file name ('-' for a stream where the option says so)
  directory,  ///< a directory name
  topic,      ///< a ROS topic name
  time,       ///< a time or duration in seconds (or the forms of --start)
  count,      ///< a whole number
  number,     ///< a real number
  choice,     ///< one of a list of words (with_choices, CLI::IsMember, ...)
  text,       ///< free text: a name, an expression, NAME=VALUE, ...
};

/// The kind's name as `rmodel __option-kinds` prints it ("file", "topic", ...).
std::string_view kind_name(ValueKind kind);

/// The value name a kind shows when the option declares none ("FILE", "DIR", "TOPIC", "TIME",
/// "N", "NUMBER", "TEXT"); empty for none and choice.
std::string_view default_value_name(ValueKind kind);

/// Declares the kind of `opt`'s value, and optionally the value name help texts, man pages and
/// completions show ("CHAIN[=C][:CONTACT],...", which a type name could not carry: CLI11 adds
/// its checks' names after a ':'). Without one, the option's type name, else the kind's
/// default_value_name().
CLI::Option* with_kind(CLI::Option* opt, ValueKind kind, std::string value_name = {});

/// What with_kind() declared for an option.
struct DeclaredKind {
  ValueKind kind;
  std::string value_name;  ///< empty: none declared
};

/// What with_kind() declared for `opt`, if anything.
const DeclaredKind* declared_kind(const CLI::Option* opt);

}  // namespace rmodel::cli
