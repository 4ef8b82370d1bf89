// rmodel joints: the full sorted pose.
#include <algorithm>

#include "command.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"

namespace rmodel::cli {
namespace {

Json limit(const JointInfo& joint, double value, bool applies) {
  return joint.has_limits && applies ? Json(value) : Json(nullptr);
}

class JointsCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "The full sorted pose: index, joint name, type, owning chain(s), group and limits "
        "(rad, m, rad/s, m/s, N·m, N); for a mimic joint, the joint it follows, multiplier and offset");
    model_.add_to(app);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text);
  }

  int run() override {
    const Model model = model_.load();
    // A limits file (--limits) adds acceleration and jerk columns.
    const bool extra = model.limits() != nullptr;
    // A URDF with mimic joints adds the joint each one follows and the rule (q = multiplier ·
    // q_master + offset).
    const bool mimics = std::any_of(model.urdf_joints().begin(), model.urdf_joints().end(),
                                    [](const JointInfo& j) { return j.mimic.has_value(); });
    std::vector<std::string> columns{"index", "name", "type", "chains", "group", "lower", "upper", "velocity", "effort"};
    if (extra) columns.insert(columns.end(), {"acceleration", "jerk"});
    if (mimics) columns.insert(columns.end(), {"mimic", "multiplier", "offset"});
    Table table(columns);
    auto positive = [](double v) { return v > 0 ? Json(v) : Json(nullptr); };
    for (std::size_t i = 0; i < model.pose_size(); ++i) {
      const JointInfo& joint = model.pose_joint(i);
      const auto group = model.joint_group(joint.name);
      std::vector<Json> row{i, joint.name, std::string(to_string(joint.type)), model.joint_chains(joint.name),
                            group ? Json(*group) : Json(nullptr), limit(joint, joint.lower, joint.bounded()),
                            limit(joint, joint.upper, joint.bounded()),
                            limit(joint, joint.velocity_limit, true) == nullptr && joint.limits_from_file
                                ? positive(joint.velocity_limit)
                                : limit(joint, joint.velocity_limit, true),
                            limit(joint, joint.effort_limit, true)};
      if (extra) row.insert(row.end(), {positive(joint.acceleration_limit), positive(joint.jerk_limit)});
      if (mimics) {
        if (joint.mimic) row.insert(row.end(), {joint.mimic->joint, joint.mimic->multiplier, joint.mimic->offset});
        else row.insert(row.end(), {nullptr, nullptr, nullptr});
      }
      table.add_row(row);
    }
    out_.write(table.render(out_.format(), "rmodel.joints", "joints"));
    out_.close();
    return kOk;
  }

private:
  ModelOptions model_;
  OutputOptions out_;
};

}  // namespace

std::unique_ptr<Command> make_joints_command() { return std::make_unique<JointsCommand>(); }

}  // namespace rmodel::cli
