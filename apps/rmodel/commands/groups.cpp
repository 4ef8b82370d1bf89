// rmodel groups: joint groups with their chains and joints.
#include "command.hpp"
#include "commands/entities.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"

namespace rmodel::cli {
namespace {

class GroupsCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("Joint groups: index, chains, extra joints, and every joint with its pose index");
    model_.add_to(app);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text);
    app.add_option("names", names_, "Groups to show (default: all)");
  }

  int run() override {
    const Model model = model_.load();
    Table table({"index", "name", "chains", "extra_joints", "joints", "indices"});
    for (const Group* g : select_entities(model.groups(), names_, "group")) {
      Json extra = Json::array();
      for (int j : g->extra_joints) extra.push_back(model.joint_names()[static_cast<std::size_t>(j)]);
      Json indices = Json::array();
      for (int j : g->joint_indices) indices.push_back(j);
      table.add_row({g->index, g->name, model.group_chains(g->name), extra, model.group_joints(g->name), indices});
    }
    out_.write(table.render(out_.format(), "rmodel.groups", "groups"));
    out_.close();
    return kOk;
  }

private:
  ModelOptions model_;
  OutputOptions out_;
  std::vector<std::string> names_;
};

}  // namespace

std::unique_ptr<Command> make_groups_command() { return std::make_unique<GroupsCommand>(); }

}  // namespace rmodel::cli
