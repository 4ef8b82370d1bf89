#include "option_fields.hpp"

#include <algorithm>
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

/// The digits at `at` of `text` (empty when none), moving `at` past them.
std::string_view digits_at(std::string_view text, std::size_t& at) {
  const std::size_t begin = at;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
  return text.substr(begin, at - begin);
}

/// The library's words for what a command of rmodel does, as the command says them: "(sample_pose
/// with seed S and index I gives it)" (collision-matrix-stale) and "compute_collision_matrix
/// computes one" (collision-matrix-none), each only as a whole.
std::string in_command_words(std::string_view text) {
  constexpr std::string_view kSample = "(sample_pose with seed ", kIndex = " and index ", kGives = " gives it)";
  constexpr std::string_view kCompute = "compute_collision_matrix computes one",
                             kComputeCommand = "`rmodel collisions` computes one";
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t sample = text.find(kSample, pos), compute = text.find(kCompute, pos);
    const std::size_t at = std::min(sample, compute);
    if (at == std::string_view::npos) break;
    out += text.substr(pos, at - pos);
    if (at == compute) {
      out += kComputeCommand;
      pos = at + kCompute.size();
      continue;
    }
    std::size_t k = at + kSample.size();
    const std::string_view seed = digits_at(text, k);
    std::string_view index;
    if (!seed.empty() && text.substr(k, kIndex.size()) == kIndex) {
      k += kIndex.size();
      index = digits_at(text, k);
    }
    if (index.empty() || text.substr(k, kGives.size()) != kGives) {  // not the phrase: as it is
      out += text.substr(at, kSample.size());
      pos = at + kSample.size();
      continue;
    }
    out += "(`rmodel collisions --seed ";
    out += seed;
    out += " --show-sample ";
    out += index;
    out += "`";
    out += kGives;
    pos = k + kGives.size();
  }
  out += text.substr(pos);
  return out;
}

}  // namespace

std::string_view flag_of_field(std::string_view field) {
  for (const auto& [name, flag] : kFieldFlags)
    if (name == field) return flag;
  return {};
}

std::string in_flag_words(std::string_view text) { return rename_fields(in_command_words(text), flag_of_field); }

}  // namespace rmodel::cli
