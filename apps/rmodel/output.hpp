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
