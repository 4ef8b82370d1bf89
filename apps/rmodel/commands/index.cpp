// rmodel index: the pose index of joints, or the index of chains or groups.
#include <fmt/format.h>

#include "command.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"

namespace rmodel::cli {
namespace {

enum class Kind { joint, chain, group };

class IndexCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Print the index of each NAME, one per line in the order given (text), or name,index (csv, json). "
        "Any unknown name: nothing is printed and the exit status is 1");
    model_.add_to(app);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text);
    add_enum_option(app, "-k,--kind", kind_, {{"joint", Kind::joint}, {"chain", Kind::chain}, {"group", Kind::group}},
                    "What the names are");
    app.add_option("names", names_, "Joint (chain, group) names")->required();
  }

  int run() override {
    const Model model = model_.load();
    std::vector<std::size_t> indices;
    for (const auto& name : names_) {
      switch (kind_) {
        case Kind::joint: indices.push_back(model.joint_index(name)); break;
        case Kind::chain: indices.push_back(model.chain_index(name)); break;
        case Kind::group: indices.push_back(model.group_index(name)); break;
      }
    }
    if (out_.is(OutputFormat::text)) {
      std::string out;
      for (std::size_t i : indices) out += fmt::format("{}\n", i);
      out_.write(out);
      out_.close();
      return kOk;
    }
    Table table({"name", "index"});
    for (std::size_t i = 0; i < names_.size(); ++i) table.add_row({names_[i], indices[i]});
    out_.write(table.render(out_.format(), "rmodel.index", "entries"));
    out_.close();
    return kOk;
  }

private:
  ModelOptions model_;
  OutputOptions out_;
  Kind kind_ = Kind::joint;
  std::vector<std::string> names_;
};

}  // namespace

std::unique_ptr<Command> make_index_command() { return std::make_unique<IndexCommand>(); }

}  // namespace rmodel::cli
