#pragma once
// Output formats and tables. stdout carries data only; diagnostics go to stderr.

#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace rmodel::cli {

using Json = nlohmann::ordered_json;

enum class OutputFormat { text, json, csv, dot };

/// Refuses a value that is not one of `words`: "'jsn' is not one of text, json; did you mean
/// 'json'?". Keeps the value as given (a check, not a transform).
CLI::Validator one_of(std::vector<std::string> words);

/// Checks `opt`'s value with one_of(words) and records the words for help, man pages and
/// completions, while the type name stays short (for long lists such as command names).
CLI::Option* with_choices(CLI::Option* opt, std::vector<std::string> words);

/// The words recorded by with_choices() for `opt`, or nullptr.
const std::vector<std::string>* recorded_choices(const CLI::Option* opt);

/// A transform for an option whose value is an enum: accepts the names only (never the
/// enum's numbers), turning each into `numbers[i]` for CLI11's conversion; refuses others as
/// one_of() does.
CLI::Validator names_to_numbers(std::vector<std::string> names, std::vector<std::string> numbers);

/// Adds an option holding an enum, accepted by name only, shown as "{a|b|c}" in help and
/// completed with those words.
template <class E>
CLI::Option* add_enum_option(CLI::App& app, const std::string& flags, E& value,
                             const std::vector<std::pair<std::string, E>>& names, const std::string& description) {
  std::vector<std::string> words, numbers;
  std::string list, current;
  for (const auto& [name, e] : names) {
    words.push_back(name);
    numbers.push_back(std::to_string(static_cast<long long>(e)));
    list += (list.empty() ? "" : "|") + name;
    if (e == value) current = name;
  }
  return app.add_option(flags, value, description)
      ->transform(names_to_numbers(std::move(words), std::move(numbers)))
      ->type_name("{" + list + "}")
      ->default_str(current);
}

/// Adds `-f,--format` accepting the given formats (first is the default).
CLI::Option* add_format_option(CLI::App& app, OutputFormat& format,
                               std::initializer_list<OutputFormat> allowed);

/// A table: named columns, rows of JSON values (strings, numbers, arrays, null).
/// Text: aligned columns, arrays joined by ',' and null as '-'. CSV: RFC 4180.
/// JSON: an array of objects keyed by column name.
class Table {
public:
  explicit Table(std::vector<std::string> columns) : columns_(std::move(columns)) {}
  void add_row(std::vector<Json> row) { rows_.push_back(std::move(row)); }
  [[nodiscard]] std::string render(OutputFormat format) const;
  [[nodiscard]] Json to_json() const;

private:
  std::vector<std::string> columns_;
  std::vector<std::vector<Json>> rows_;
};

/// A JSON value as one text cell.
std::string cell_text(const Json& value);

/// Writes to stdout; output errors (closed pipe) surface at exit via the stream state.
void write_out(const std::string& text);

/// Pretty JSON document followed by a newline.
std::string json_text(const Json& doc);

/// Shortest text that reads back as the same double.
std::string number_text(double value);

}  // namespace rmodel::cli
