// rmodel poses: the named poses of the semantics (SRDF group states), or one pose — named,
// given as joint=value items, or both — expanded to the full sorted pose.
#include <algorithm>

#include <fmt/format.h>

#include "command.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/pose.hpp"

namespace rmodel::cli {
namespace {

class PosesCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Named poses (SRDF group states): name, group, joint=value. With --full, one pose expanded to the "
        "full sorted pose (joints it does not name are 0)");
    model_.add_to(app);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text);
    app.add_option("--full", full_,
                   "Print the full sorted pose of POSE: a named pose, joint=value items, or both "
                   "('stand joint51=0.2')")
        ->type_name("POSE");
    app.add_option("names", names_, "Poses to list (name or group/name; default: all)");
  }

  int run() override {
    const Model model = model_.load();
    for (const auto& d : check_named_poses(model).items)
      fmt::print(stderr, "rmodel: {}: {}: {} [{}]\n", to_string(d.severity), d.where.to_string(), d.message, d.code);
    if (!full_.empty()) {
      if (!names_.empty()) throw InvalidArgument("--full prints one pose; give no pose names beside it");
      return print_full(model);
    }
    // The poses named (all when none), in model order like the other listing commands.
    std::vector<const NamedPose*> selected;
    for (const auto& name : names_) selected.push_back(&find_named_pose(model.semantics(), name));
    if (names_.empty())
      for (const auto& p : model.semantics().poses) selected.push_back(&p);
    std::sort(selected.begin(), selected.end());
    selected.erase(std::unique(selected.begin(), selected.end()), selected.end());

    const auto& all = model.semantics().poses;
    if (out_.is(OutputFormat::json)) {
      Json doc = json_document("rmodel.poses");
      doc["poses"] = Json::array();
      for (const NamedPose* p : selected) {
        Json joints = Json::object();
        for (const auto& [joint, value] : p->joints) joints[joint] = value;
        doc["poses"].push_back({{"index", p - all.data()},
                       {"name", p->name},
                       {"group", p->group.empty() ? Json(nullptr) : Json(p->group)},
                       {"joints", joints}});
      }
      out_.write(json_text(doc));
      out_.close();
      return kOk;
    }
    Table table({"index", "name", "group", "joints"});
    for (const NamedPose* p : selected) {
      Json joints = Json::array();
      for (const auto& [joint, value] : p->joints) joints.push_back(fmt::format("{}={}", joint, value));
      table.add_row({p - all.data(), p->name, p->group.empty() ? Json(nullptr) : Json(p->group), joints});
    }
    out_.write(table.render(out_.format()));
    out_.close();
    return kOk;
  }

private:
  int print_full(const Model& model) {
    const JointState state = resolve_pose(model, full_);
    Table table({"index", "name", "position"});
    for (std::size_t i = 0; i < state.name.size(); ++i)
      table.add_row({i, state.name[i], state.position[i]});
    out_.write(table.render(out_.format(), "rmodel.pose", "joints"));
    out_.close();
    return kOk;
  }

  ModelOptions model_;
  OutputOptions out_;
  std::string full_;
  std::vector<std::string> names_;
};

}  // namespace

std::unique_ptr<Command> make_poses_command() { return std::make_unique<PosesCommand>(); }

}  // namespace rmodel::cli
