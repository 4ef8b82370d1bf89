#include "output.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "rmodel/suggest.hpp"

namespace rmodel::cli {

CLI::Option* add_format_option(CLI::App& app, OutputFormat& format,
                               std::initializer_list<OutputFormat> allowed) {
  static const std::map<OutputFormat, std::string> names = {
      {OutputFormat::text, "text"}, {OutputFormat::json, "json"},
      {OutputFormat::csv, "csv"},   {OutputFormat::dot, "dot"}};
  format = *allowed.begin();
  std::vector<std::pair<std::string, OutputFormat>> pairs;
  for (OutputFormat f : allowed) pairs.emplace_back(names.at(f), f);
  return add_enum_option(app, "-f,--format", format, pairs, "Output format");
}

namespace {
std::string refusal(const std::string& value, const std::vector<std::string>& words) {
  std::string list;
  for (const auto& w : words) list += (list.empty() ? "" : ", ") + w;
  return fmt::format("'{}' is not one of {}{}", value, list, did_you_mean(value, words));
}
}  // namespace

CLI::Validator one_of(std::vector<std::string> words) {
  return CLI::Validator(
      [words = std::move(words)](std::string& value) -> std::string {
        if (std::find(words.begin(), words.end(), value) != words.end()) return {};
        return refusal(value, words);
      },
      "");
}

namespace {
std::map<const CLI::Option*, std::vector<std::string>>& choice_registry() {
  static std::map<const CLI::Option*, std::vector<std::string>> registry;
  return registry;
}
}  // namespace

CLI::Option* with_choices(CLI::Option* opt, std::vector<std::string> words) {
  opt->check(one_of(words));
  choice_registry()[opt] = std::move(words);
  return opt;
}

const std::vector<std::string>* recorded_choices(const CLI::Option* opt) {
  const auto it = choice_registry().find(opt);
  return it == choice_registry().end() ? nullptr : &it->second;
}

CLI::Validator names_to_numbers(std::vector<std::string> names, std::vector<std::string> numbers) {
  return CLI::Validator(
      [names = std::move(names), numbers = std::move(numbers)](std::string& value) -> std::string {
        const auto it = std::find(names.begin(), names.end(), value);
        if (it == names.end()) return refusal(value, names);
        value = numbers[static_cast<std::size_t>(it - names.begin())];
        return {};
      },
      "");
}

std::string number_text(double value) { return fmt::format("{}", value); }

std::string cell_text(const Json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_number_float()) return number_text(value.get<double>());
  if (value.is_number()) return value.dump();
  if (value.is_array()) {
    std::string out;
    for (const auto& v : value) out += (out.empty() ? "" : ",") + cell_text(v);
    return out.empty() ? "-" : out;
  }
  return value.dump();
}

namespace {
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_cell(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_array()) {
    std::string out;
    for (const auto& v : value) out += (out.empty() ? "" : " ") + cell_text(v);
    return csv_field(out);
  }
  return csv_field(cell_text(value));
}
}  // namespace

Json Table::to_json() const {
  Json out = Json::array();
  for (const auto& row : rows_) {
    Json obj = Json::object();
    for (std::size_t i = 0; i < columns_.size(); ++i) obj[columns_[i]] = row[i];
    out.push_back(std::move(obj));
  }
  return out;
}

std::string Table::render(OutputFormat format) const {
  if (format == OutputFormat::json) return json_text(to_json());
  std::string out;
  if (format == OutputFormat::csv) {
    for (std::size_t i = 0; i < columns_.size(); ++i) out += (i ? "," : "") + csv_field(columns_[i]);
    out += '\n';
    for (const auto& row : rows_) {
      for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + csv_cell(row[i]);
      out += '\n';
    }
    return out;
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t i = 0; i < columns_.size(); ++i) width[i] = columns_[i].size();
  for (const auto& row : rows_) {
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < row.size(); ++i) {
      texts.push_back(cell_text(row[i]));
      width[i] = std::max(width[i], texts.back().size());
    }
    cells.push_back(std::move(texts));
  }
  auto line = [&](const std::vector<std::string>& texts) {
    std::string l;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      l += texts[i];
      if (i + 1 < texts.size()) l += std::string(width[i] - texts[i].size() + 2, ' ');
    }
    out += l + '\n';
  };
  line(columns_);
  for (const auto& texts : cells) line(texts);
  return out;
}

std::string json_text(const Json& doc) { return doc.dump(2) + "\n"; }

void write_out(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

}  // namespace rmodel::cli
