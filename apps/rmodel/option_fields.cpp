#include "option_fields.hpp"

#include <array>
#include <utility>

#include "rmodel/base/error.hpp"

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

}  // namespace

std::string_view flag_of_field(std::string_view field) {
  for (const auto& [name, flag] : kFieldFlags)
    if (name == field) return flag;
  return {};
}

std::string in_flag_words(std::string_view text) { return rename_fields(text, flag_of_field); }

}  // namespace rmodel::cli
