#include "model/xacro_source.hpp"

#include <regex>

#include "rmodel/file.hpp"

namespace rmodel::detail {

UrdfInput read_urdf_input(const ModelSource& source) {
  UrdfInput input;
  input.text = read_text_file(source.urdf_path);
  input.name = display_name(source.urdf_path);
  if (!is_xacro(source.urdf_path, input.text)) return input;
  XacroOptions options;
  options.args = source.xacro_args;
  options.package_paths = source.package_paths;
  auto expanded = std::make_shared<XacroResult>(expand_xacro_string(input.text, input.name, options));
  input.text = expanded->xml();
  input.xacro = std::move(expanded);
  return input;
}

SourceLocation map_to_xacro(const XacroResult& xacro, const std::string& name, const SourceLocation& where,
                            std::string* message) {
  if (where.file != name) return where;
  if (message) {
    // The URDF checks name other elements by their line: "(first declared at line 12)",
    // "(line 12)". Those lines are the expanded text's too.
    static const std::regex reference(R"(((?:at|\() ?line )(\d+)\b)");
    std::string out;
    auto last = message->cbegin();
    for (std::sregex_iterator it(message->begin(), message->end(), reference), end; it != end; ++it) {
      const auto& m = *it;
      out.append(last, m[0].first);
      const std::string prefix = m[1].str();
      out += prefix.substr(0, prefix.size() - 5) + xacro.origin(std::stoi(m[2].str())).to_string();
      last = m[0].second;
    }
    out.append(last, message->cend());
    if (const std::string& context = xacro.context(where.line); !context.empty() && where.line > 0) out += ", " + context;
    *message = std::move(out);
  }
  if (where.line <= 0) return where;
  return xacro.origin(where.line);
}

void map_to_xacro(const XacroResult& xacro, const std::string& name, Diagnostics& diagnostics, std::size_t first) {
  for (std::size_t k = first; k < diagnostics.items.size(); ++k) {
    Diagnostic& d = diagnostics.items[k];
    d.where = map_to_xacro(xacro, name, d.where, &d.message);
  }
}

}  // namespace rmodel::detail
