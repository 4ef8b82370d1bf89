#include "doc/cli_doc.hpp"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string_view>

#include "registry.hpp"
#include "doc/completion.hpp"
#include "options/output.hpp"

namespace rmodel::cli {
namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

/// Choices as CLI11 spells them in an option's full type name: IsMember gives
/// "TEXT:{a,b}", CheckedTransformer "value in {a->x,b->y} OR {x,y}", and rmodel's
/// --format sets the type name "{text|json}" itself. The first {…} lists the accepted words.
std::vector<std::string> parse_choices(const std::string& type_name) {
  const auto open = type_name.find('{');
  if (open == std::string::npos) return {};
  const auto close = type_name.find('}', open);
  if (close == std::string::npos) return {};
  std::vector<std::string> choices;
  std::string item;
  auto flush = [&] {
    std::string word = trim(item.substr(0, item.find("->")));
    if (!word.empty() && std::find(choices.begin(), choices.end(), word) == choices.end())
      choices.push_back(word);
    item.clear();
  };
  for (std::size_t i = open + 1; i < close; ++i) {
    if (type_name[i] == ',' || type_name[i] == '|')
      flush();
    else
      item += type_name[i];
  }
  flush();
  return choices;
}

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// A character of a word as regular expressions' \w and \b see it in the C locale: an ASCII
/// letter or digit, or '_'.
bool is_word_char(char c) { return is_ascii_letter(c) || (c >= '0' && c <= '9') || c == '_'; }

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool same_word(std::string_view a, std::string_view b, bool ignore_case) {
  if (!ignore_case) return a == b;
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return ascii_lower(x) == ascii_lower(y); });
}

/// Whether one of `words` stands in `text` as a whole word, between non-word characters
/// (what \b(w1|w2)\b finds): a maximal run of word characters equal to it.
bool has_word(std::string_view text, std::initializer_list<std::string_view> words, bool ignore_case) {
  for (std::size_t begin = 0; begin < text.size();) {
    if (!is_word_char(text[begin])) {
      ++begin;
      continue;
    }
    std::size_t end = begin;
    while (end < text.size() && is_word_char(text[end])) ++end;
    for (const std::string_view word : words)
      if (same_word(text.substr(begin, end - begin), word, ignore_case)) return true;
    begin = end;
  }
  return false;
}

/// Whether `text` names a file extension such as ".json" or ".h5": a dot at the start or
/// after a space or '(', then a whole word of a letter and 1 to 5 letters or digits.
bool has_extension(std::string_view text) {
  for (std::size_t dot = text.find('.'); dot != std::string_view::npos; dot = text.find('.', dot + 1)) {
    // What \s takes for a space in the C locale, or the '(' of "(.json)".
    if (dot > 0 && std::string_view(" \t\n\v\f\r(").find(text[dot - 1]) == std::string_view::npos) continue;
    std::size_t end = dot + 1;
    while (end < text.size() && is_word_char(text[end])) ++end;
    const std::string_view word = text.substr(dot + 1, end - dot - 1);
    if (word.size() >= 2 && word.size() <= 6 && is_ascii_letter(word.front()) && word.find('_') == std::string_view::npos)
      return true;
  }
  return false;
}

/// Whether a value names a file or directory. An option declares it with a type name or a
/// validator (CLI::ExistingFile gives "FILE", ExistingDirectory "DIR", ExistingPath "PATH"),
/// or says so in its description: "file", "manifest", "logs", "directory", or an extension
/// such as ".json". Words are whole words; in descriptions, of any case.
ValueKind path_kind(const std::string& type_name, const std::string& description) {
  if (has_word(type_name, {"DIR", "DIRECTORY"}, false)) return ValueKind::directory;
  if (has_word(type_name, {"FILE", "PATH"}, false)) return ValueKind::file;
  if (has_word(description, {"file", "files", "manifest", "log", "logs"}, true) || has_extension(description))
    return ValueKind::file;
  if (has_word(description, {"directory", "folder"}, true)) return ValueKind::directory;
  return ValueKind::other;
}

OptionDoc describe_option(const CLI::Option& opt) {
  OptionDoc doc;
  for (const auto& s : opt.get_snames()) doc.short_names.push_back("-" + s);
  for (const auto& l : opt.get_lnames()) doc.long_names.push_back("--" + l);
  if (doc.short_names.empty() && doc.long_names.empty()) doc.positional = opt.get_name(true);
  doc.description = opt.get_description();
  doc.default_value = opt.get_default_str();
  doc.group = opt.get_group();
  doc.required = opt.get_required();
  const bool flag = opt.get_items_expected_max() == 0;
  doc.repeatable = !flag && opt.get_items_expected_max() > 1;
  if (flag) {
    doc.kind = ValueKind::none;
    return doc;
  }
  const std::string full_type = opt.get_type_name();
  const std::string base_type = full_type.substr(0, full_type.find(':'));
  doc.choices = parse_choices(full_type);
  if (const auto* recorded = recorded_choices(&opt)) {
    doc.choices = *recorded;
    doc.kind = ValueKind::choice;
    doc.value_name = base_type;
    return doc;
  }
  if (!doc.choices.empty()) {
    doc.kind = ValueKind::choice;
    for (const auto& c : doc.choices) doc.value_name += (doc.value_name.empty() ? "{" : "|") + c;
    doc.value_name += "}";
    return doc;
  }
  doc.kind = path_kind(full_type, doc.description);
  if (doc.kind == ValueKind::file && (base_type.empty() || base_type == "TEXT"))
    doc.value_name = "FILE";
  else if (doc.kind == ValueKind::directory && (base_type.empty() || base_type == "TEXT"))
    doc.value_name = "DIR";
  else
    doc.value_name = base_type.empty() ? "VALUE" : base_type;
  return doc;
}

std::string first_sentence(const std::string& text) {
  const auto end = text.find(". ");
  return end == std::string::npos ? text : text.substr(0, end);
}

CommandDoc describe(const CLI::App& app, std::vector<std::string> path) {
  CommandDoc doc;
  doc.path = std::move(path);
  doc.name = doc.path.empty() ? app.get_name() : doc.path.back();
  if (doc.name.empty()) doc.name = "rmodel";
  doc.description = app.get_description();
  doc.summary = first_sentence(doc.description);
  if (doc.path.size() == 1) {
    for (const CommandEntry& entry : command_table())
      if (entry.name == doc.name) doc.summary = std::string(entry.summary);
  }
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_group().empty()) continue;  // hidden
    OptionDoc option = describe_option(*opt);
    option.dynamic = dynamic_kind(doc.path, option);
    (option.positional.empty() ? doc.options : doc.positionals).push_back(std::move(option));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_group().empty() || sub->get_name().empty()) continue;  // hidden or option group
    auto sub_path = doc.path;
    sub_path.push_back(sub->get_name());
    doc.subcommands.push_back(describe(*sub, std::move(sub_path)));
  }
  return doc;
}

void collect(const CommandDoc& doc, std::vector<const CommandDoc*>& out) {
  out.push_back(&doc);
  for (const auto& sub : doc.subcommands) collect(sub, out);
}

}  // namespace

std::vector<std::string> OptionDoc::names() const {
  std::vector<std::string> all = short_names;
  all.insert(all.end(), long_names.begin(), long_names.end());
  return all;
}

std::string CommandDoc::full_name() const {
  std::string out = "rmodel";
  for (const auto& p : path) out += " " + p;
  return out;
}

std::string CommandDoc::page_name() const {
  std::string out = "rmodel";
  for (const auto& p : path) out += "-" + p;
  return out;
}

CommandDoc describe_app(const CLI::App& app) { return describe(app, {}); }

std::vector<const CommandDoc*> all_commands(const CommandDoc& root) {
  std::vector<const CommandDoc*> out;
  collect(root, out);
  return out;
}

}  // namespace rmodel::cli
