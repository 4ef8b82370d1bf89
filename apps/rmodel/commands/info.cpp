// rmodel info: a summary of the model.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "command.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "options/pose_options.hpp"
#include "rmodel/collision/collision.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/base/file.hpp"
#include "terminal.hpp"

namespace rmodel::cli {
namespace {

class InfoCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("Summary of a model: robot name, counts of links, joints, chains, groups, contacts; total mass");
    model_.add_to(app);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text);
    pose_.add_to(app, false);  // --pose: also the centre of mass at that pose
    app.add_flag("--mass-properties", mass_properties_,
                 "Instead of the summary, per link: the volume of its <collision> geometry, the inertia a uniform "
                 "body of that shape and the declared mass would have beside the declared inertia (both about their "
                 "centre, link axes, kg·m²), the ratio of their traces, and 'implausible' when it is 10 or more, or "
                 "0.1 or less");
  }

  int run() override {
    const ModelSource source = model_.resolve();
    const Model model = Model::load(source);
    if (mass_properties_) return mass_table(model, source);
    const auto& joints = model.urdf_joints();
    const auto movable = static_cast<std::size_t>(
        std::count_if(joints.begin(), joints.end(), [](const JointInfo& j) { return j.movable(); }));
    Json doc = json_document("rmodel.info");
    doc["robot"] = model.robot_name();
    doc["urdf"] = model.urdf_source();
    doc["semantics"] = model.has_semantics() ? Json(display_name(source.semantics_path)) : Json(nullptr);
    doc["root_link"] = model.root_link();
    doc["links"] = model.links().size();
    doc["joints"] = joints.size();
    doc["movable_joints"] = movable;
    doc["fixed_joints"] = joints.size() - movable;
    doc["pose_size"] = model.pose_size();
    doc["chains"] = model.chains().size();
    doc["groups"] = model.groups().size();
    doc["contacts"] = model.contacts().size();
    const auto mass = model.total_mass();
    doc["total_mass"] = mass ? Json(*mass) : Json(nullptr);
    std::optional<Eigen::Vector3d> com;  // base (root link) frame, m; only with --pose
    if (pose_.given()) {
      const auto km = kinematics::KinematicModel::from_model(model, kinematics::MimicJoints::from_pose);
      kinematics::Workspace ws(km);
      kinematics::forward_kinematics(km, ws, pose_.resolve(model));
      if (km.total_mass() > 0) com = kinematics::center_of_mass(km, ws);
      doc["center_of_mass"] = com ? Json::array({com->x(), com->y(), com->z()}) : Json(nullptr);
    }
    // From SRDF (or rmodel JSON): named poses, end effectors, virtual joints.
    const Semantics& sem = model.semantics();
    doc["poses"] = sem.poses.size();
    doc["end_effectors"] = Json::array();
    for (const auto& e : sem.end_effectors)
      doc["end_effectors"].push_back({{"name", e.name},
                                      {"parent_link", e.parent_link},
                                      {"group", e.group},
                                      {"parent_group", e.parent_group.empty() ? Json(nullptr) : Json(e.parent_group)}});
    doc["virtual_joints"] = Json::array();
    for (const auto& v : sem.virtual_joints)
      doc["virtual_joints"].push_back(
          {{"name", v.name}, {"type", v.type}, {"parent_frame", v.parent_frame}, {"child_link", v.child_link}});
    if (out_.is(OutputFormat::json)) {
      out_.write(json_text(doc));
      out_.close();
      return kOk;
    }
    if (out_.is(OutputFormat::csv)) {
      // key,value rows, the keys of the JSON document; lists of entities by name.
      Table table({"key", "value"});
      for (const auto& [key, value] : doc.items()) {
        if (key == "schema" || key == "schema_version") continue;
        Json cell = value;
        if (value.is_array() && !value.empty() && value.front().is_object()) {
          cell = Json::array();
          for (const auto& e : value) cell.push_back(e["name"]);
        }
        table.add_row({key, cell});
      }
      out_.write(table.render(OutputFormat::csv));
      out_.close();
      return kOk;
    }
    std::vector<std::pair<std::string, std::string>> rows;
    auto row = [&](std::string_view key, const std::string& value) { rows.emplace_back(key, value); };
    row("robot", model.robot_name());
    row("urdf", model.urdf_source());
    row("semantics", model.has_semantics() ? display_name(source.semantics_path) : "-");
    row("root link", model.root_link());
    row("links", std::to_string(model.links().size()));
    row("joints", fmt::format("{} ({} movable, {} fixed)", joints.size(), movable, joints.size() - movable));
    row("pose size", std::to_string(model.pose_size()));
    row("chains", std::to_string(model.chains().size()));
    row("groups", std::to_string(model.groups().size()));
    row("contacts", std::to_string(model.contacts().size()));
    row("total mass", mass ? fmt::format("{:.6g} kg", *mass) : "- (no inertials)");
    if (pose_.given())
      row("center of mass", com ? fmt::format("{:.6f} {:.6f} {:.6f} m (in {}, at the pose)", com->x(), com->y(),
                                              com->z(), model.root_link())
                                : "- (no inertials)");
    // Rows for what only some semantics have (SRDF), shown when present.
    if (!sem.poses.empty()) row("poses", std::to_string(sem.poses.size()));
    if (!sem.end_effectors.empty()) {
      std::string list;
      for (const auto& e : sem.end_effectors)
        list += fmt::format("{}{} (group {} on {})", list.empty() ? "" : ", ", e.name, e.group, e.parent_link);
      row("end effectors", list);
    }
    for (const auto& v : sem.virtual_joints)
      row("virtual joint", fmt::format("{} ({}, {} → {})", v.name, v.type, v.parent_frame, v.child_link));
    std::size_t width = 12;
    for (const auto& [key, _] : rows) width = std::max(width, key.size());
    std::string out;
    for (const auto& [key, value] : rows) out += fmt::format("{:<{}} {}\n", key, width, value);
    out_.write(out);
    out_.close();
    return kOk;
  }

private:
  int mass_table(const Model& model, const ModelSource& source) {
    const auto shapes = collision::read_collision_shapes(model.urdf_text(), collision::geometry_options(source));
    for (const auto& s : shapes)
      if (!s.usable())
        terminal::warning(fmt::format("info: {}:{}: link '{}': mesh '{}' is left out: {}", model.urdf_source(), s.line,
                                      s.link, s.filename, s.error));
    const bool text = out_.is(OutputFormat::text);
    auto value = [&](double v) { return text ? Json(fmt::format("{:.4g}", v)) : Json(v); };
    auto diagonal = [&](const Eigen::Matrix3d& m) {
      return text ? Json(fmt::format("{:.3g} {:.3g} {:.3g}", m(0, 0), m(1, 1), m(2, 2)))
                  : Json::array({m(0, 0), m(1, 1), m(2, 2)});
    };
    Table table({"link", "mass", "volume", "density", "declared_inertia", "shape_inertia", "ratio", "verdict"});
    for (const auto& m : collision::mass_properties(model, shapes)) {
      const bool has_volume = m.volume > 0;
      table.add_row({m.link, m.mass ? value(*m.mass) : Json(nullptr), has_volume ? value(m.volume) : Json(nullptr),
                     m.mass && has_volume ? value(*m.mass / m.volume) : Json(nullptr),
                     m.mass ? diagonal(m.declared_inertia) : Json(nullptr),
                     m.mass && has_volume ? diagonal(m.shape_inertia) : Json(nullptr),
                     m.ratio ? value(*m.ratio) : Json(nullptr),
                     m.implausible       ? Json("implausible")
                     : m.meshes_missing ? Json("meshes missing")
                     : m.ratio          ? Json("ok")
                                        : Json(nullptr)});
    }
    out_.write(table.render(out_.format(), "rmodel.mass_properties", "links"));
    out_.close();
    return kOk;
  }

  ModelOptions model_;
  PoseOptions pose_;
  bool mass_properties_ = false;
  OutputOptions out_;
};

}  // namespace

std::unique_ptr<Command> make_info_command() { return std::make_unique<InfoCommand>(); }

}  // namespace rmodel::cli
