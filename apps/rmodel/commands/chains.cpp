// rmodel chains: kinematic chains with their properties and joints.
#include <algorithm>

#include "command.hpp"
#include "commands/entities.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"

namespace rmodel::cli {
namespace {

Json or_null(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

class ChainsCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("Kinematic chains: index, links, default contact, group, joints with their pose indices");
    model_.add_to(app);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text);
    app.add_flag("--with-virtual", with_virtual_, "Include the virtual joints (past last_link) in the joint lists");
    app.add_option("names", names_, "Chains to show (default: all)");
  }

  int run() override {
    const Model model = model_.load();
    const auto chains = select_entities(model.chains(), names_, "chain");
    // Further .cpf parameters of the chains get a column when any chain has one.
    const bool extra = std::any_of(chains.begin(), chains.end(), [](const Chain* c) { return !c->extra.empty(); });
    std::vector<std::string> columns{"index", "name", "first_link", "last_link", "last_link_virtual",
                                     "default_contact", "group", "joints", "indices"};
    if (extra) columns.push_back("extra");
    Table table(columns);
    for (const Chain* c : chains) {
      const auto group = model.chain_group(c->name);
      Json indices = Json::array();
      for (int i : c->indices(with_virtual_)) indices.push_back(i);
      std::vector<Json> row{c->index, c->name, c->first_link, c->last_link, or_null(c->last_link_virtual),
                            or_null(c->default_contact), group ? Json(*group) : Json(nullptr),
                            model.chain_joints(c->name, with_virtual_), indices};
      if (extra) {
        Json params = Json::array();  // name=value items, in declaration order
        for (const auto& x : c->extra) params.push_back(x.name + "=" + x.value);
        row.push_back(params);
      }
      table.add_row(row);
    }
    out_.write(table.render(out_.format(), "rmodel.chains", "chains"));
    out_.close();
    return kOk;
  }

private:
  ModelOptions model_;
  OutputOptions out_;
  bool with_virtual_ = false;
  std::vector<std::string> names_;
};

}  // namespace

std::unique_ptr<Command> make_chains_command() { return std::make_unique<ChainsCommand>(); }

}  // namespace rmodel::cli
