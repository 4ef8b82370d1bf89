#include "doc/cli_doc.hpp"

#include <algorithm>
#include <cctype>
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

/// The kind of a value whose option declares none (with_kind()): from the type it declared,
/// never from words of its help. CLI::ExistingFile and type_name("FILE") name a file ("PATH"
/// too), CLI::ExistingDirectory and "DIR" a directory; CLI11's integer types a count, its
/// floating-point type a number; anything else is text.
ValueKind kind_of_type(const std::string& full_type, const std::string& base_type) {
  const auto has = [&full_type](std::string_view word) {
    for (std::size_t at = full_type.find(word); at != std::string::npos; at = full_type.find(word, at + 1)) {
      const bool starts = at == 0 || !std::isalpha(static_cast<unsigned char>(full_type[at - 1]));
      const std::size_t end = at + word.size();
      if (starts && (end == full_type.size() || !std::isalpha(static_cast<unsigned char>(full_type[end])))) return true;
    }
    return false;
  };
  if (has("DIR") || has("DIRECTORY")) return ValueKind::directory;
  if (has("FILE") || has("PATH")) return ValueKind::file;
  if (base_type == "UINT" || base_type == "INT") return ValueKind::count;
  if (base_type == "FLOAT") return ValueKind::number;
  return ValueKind::text;
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
  const DeclaredKind* declared = declared_kind(&opt);
  doc.kind = declared != nullptr ? declared->kind : kind_of_type(full_type, base_type);
  if (declared != nullptr && !declared->value_name.empty())
    doc.value_name = declared->value_name;
  else
    doc.value_name = base_type.empty() || base_type == "TEXT" ? std::string(default_value_name(doc.kind)) : base_type;
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
