#include "option_fields.hpp"

#include <array>
#include <utility>

namespace rmodel::cli {
namespace {

// Every field the library names in a message (rmodel::OptionError::fields(), and the texts
// of reports and warnings), with the flag that sets it. No entry is a prefix of another
// followed by an identifier character (in_flag_words matches whole names).
constexpr std::array<std::pair<std::string_view, std::string_view>, 18> kFieldFlags{{
    {"ModelRequest::urdf", "--urdf"},
    {"ModelRequest::semantics", "--semantics"},
    {"ModelRequest::manifest", "--model"},
    {"ModelRequest::sample", "--sample"},
    {"ModelRequest::package_paths", "--package-path"},
    {"ModelRequest::xacro_args", "--xacro-arg"},
    {"ModelSource::package_paths", "--package-path"},
    {"XacroOptions::package_paths", "--package-path"},
    {"XacroOptions::args", "--xacro-arg"},
    {"ReaderOptions::topics", "--topic"},
    {"ReaderOptions::column_prefix", "--column-prefix"},
    {"ReaderOptions::time_column", "--time-column"},
    {"ReaderOptions::start", "--start"},
    {"ReaderOptions::end", "--end"},
    {"AggregatorOptions::diff_method", "--diff"},
    {"AggregatorOptions::quad_method", "--quad"},
    {"AggregatorOptions::ticks", "--ticks"},
    {"DynamicsStreamOptions::diff_method", "--diff"},
}};

bool identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::string_view flag_of_field(std::string_view field) {
  for (const auto& [name, flag] : kFieldFlags)
    if (name == field) return flag;
  return {};
}

std::string in_flag_words(std::string_view text) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t colons = text.find("::", pos);
    if (colons == std::string_view::npos) break;
    // The qualified name around "::": the struct's name before, the field's after.
    std::size_t begin = colons;
    while (begin > pos && identifier_char(text[begin - 1])) --begin;
    std::size_t end = colons + 2;
    while (end < text.size() && identifier_char(text[end])) ++end;
    const std::string_view flag = flag_of_field(text.substr(begin, end - begin));
    out += text.substr(pos, (flag.empty() ? end : begin) - pos);
    out += flag;
    pos = end;
  }
  out += text.substr(pos);
  return out;
}

}  // namespace rmodel::cli
