#include "options/value_kind.hpp"

#include <map>

namespace rmodel::cli {
namespace {
std::map<const CLI::Option*, DeclaredKind>& kind_registry() {
  static std::map<const CLI::Option*, DeclaredKind> registry;
  return registry;
}
}  // namespace

std::string_view kind_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::none: return "none";
    case ValueKind::file: return "file";
    case ValueKind::directory: return "directory";
    case ValueKind::topic: return "topic";
    case ValueKind::time: return "time";
    case ValueKind::count: return "count";
    case ValueKind::number: return "number";
    case ValueKind::choice: return "choice";
    case ValueKind::text: return "text";
  }
  return "text";
}

std::string_view default_value_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::file: return "FILE";
    case ValueKind::directory: return "DIR";
    case ValueKind::topic: return "TOPIC";
    case ValueKind::time: return "TIME";
    case ValueKind::count: return "N";
    case ValueKind::number: return "NUMBER";
    case ValueKind::text: return "TEXT";
    case ValueKind::none:
    case ValueKind::choice: break;
  }
  return {};
}

CLI::Option* with_kind(CLI::Option* opt, ValueKind kind, std::string value_name) {
  if (!value_name.empty()) opt->type_name(value_name);
  kind_registry()[opt] = DeclaredKind{kind, std::move(value_name)};
  return opt;
}

const DeclaredKind* declared_kind(const CLI::Option* opt) {
  const auto it = kind_registry().find(opt);
  return it == kind_registry().end() ? nullptr : &it->second;
}

}  // namespace rmodel::cli
