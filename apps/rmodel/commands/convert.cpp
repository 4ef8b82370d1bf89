// rmodel convert: semantics between OROCOS .cpf and rmodel JSON, losslessly both ways; SRDF in.
#include <cstdio>

#include <fmt/format.h>

#include "command.hpp"
#include "options/output.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/base/file.hpp"
#include "rmodel/model/semantics.hpp"

namespace rmodel::cli {
namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// .cpf has no place for SRDF-only constructs; say what is left out rather than drop it quietly.
void warn_cpf_losses(const Semantics& semantics) {
  const auto warn = [](std::size_t count, std::string_view what) {
    if (count > 0)
      fmt::print(stderr, "rmodel: warning: {} {} cannot be written to .cpf and are left out\n", count, what);
  };
  warn(semantics.poses.size(), "named pose(s)");
  warn(semantics.end_effectors.size(), "end effector(s)");
  warn(semantics.virtual_joints.size(), "virtual joint(s)");
  std::size_t links = 0;
  for (const auto& g : semantics.groups) links += g.links.size();
  warn(links, "group link(s)");
  const auto& matrix = semantics.collisions;
  warn(matrix.disabled.size() + matrix.enabled.size() + matrix.disabled_default.size(), "collision matrix entry(ies)");
}

class ConvertCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Convert a semantic description between OROCOS .cpf XML, MoveIt SRDF (input only) and rmodel JSON. "
        "The target format is -f, else the output file's extension, else the other format of the input "
        "(JSON for .cpf and .srdf input)");
    with_kind(app.add_option("input", input_, "Semantics file (.cpf, .srdf, .json; '-' for stdin)"),
              ValueKind::file)->required();
    auto* output = with_kind(app.add_option("-o,--output", output_, "Output file (default: stdout)"), ValueKind::file);
    // -f as every command that writes data; -t,--to is its older name, kept (hidden) for scripts.
    auto* format = with_choices(app.add_option("-f,--format", to_, "Target format"), {"cpf", "json"})
                       ->type_name("{cpf|json}");
    auto* to = app.add_option("-t,--to", to_, "Target format (old name of -f)")->check(one_of({"cpf", "json"}))->group("");
    app.final_callback([format, to, output, &app, this] {
      if (format->count() > 0 && to->count() > 0) OutputOptions::refuse("give -f only (-t,--to is its old name)");
      refuse_output_among_inputs(app, output, output_);
    });
    app.add_option("--from", from_, "Input format when not evident")->check(CLI::IsMember({"cpf", "json", "srdf"}));
  }

  int run() override {
    const std::string text = read_text_file(input_);
    std::optional<SemanticsFormat> from;
    if (from_ == "cpf") from = SemanticsFormat::cpf;
    if (from_ == "json") from = SemanticsFormat::json;
    if (from_ == "srdf") from = SemanticsFormat::srdf;
    if (!from) from = detect_semantics_format(text, input_);
    const Semantics semantics = parse_semantics(text, display_name(input_), from);
    for (const auto& w : semantics.warnings)
      fmt::print(stderr, "rmodel: {}: {}: {}\n", to_string(w.severity), w.where.to_string(), w.message);

    std::string to = to_;
    if (to.empty() && ends_with(output_, ".cpf")) to = "cpf";
    if (to.empty() && ends_with(output_, ".json")) to = "json";
    if (to.empty()) to = from == SemanticsFormat::json ? "cpf" : "json";
    if (to == "cpf") warn_cpf_losses(semantics);
    const std::string result = to == "cpf" ? to_cpf(semantics) : to_semantics_json(semantics);
    if (output_.empty() || output_ == "-") {
      write_out(result);
    } else {
      // Put in place whole (io::OutputFile), as every command's -o.
      io::OutputFile file = io::OutputFile::open(output_);
      std::FILE* out = stdio_stream(file);
      const bool written = std::fwrite(result.data(), 1, result.size(), out) == result.size();
      if (std::fclose(out) != 0 || !written) throw WriteError(output_, "write failed");
      file.commit();
    }
    return kOk;
  }

private:
  std::string input_;
  std::string output_;
  std::string to_;
  std::string from_;
};

}  // namespace

std::unique_ptr<Command> make_convert_command() { return std::make_unique<ConvertCommand>(); }

}  // namespace rmodel::cli
