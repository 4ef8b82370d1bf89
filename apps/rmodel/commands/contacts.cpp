// rmodel contacts: contacts and their points (link frame, metres); with --pose, the contact
// points of chains in the base frame at that pose.
#include <cmath>

#include <fmt/format.h>

#include "command.hpp"
#include "commands/entities.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "options/pose_options.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/kinematics.hpp"

namespace rmodel::cli {
namespace {

class ContactsCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("Contacts: index, points in the frame of a chain's last link (m), chains using it by default");
    model_.add_to(app);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text);
    app.add_option("names", names_, "Contacts to show (default: all)");
    pose_.add_to(app, false);
    const char* group = "Pose";
    app.add_option("--chain", chains_, "With a pose: chains whose contact points to place (default: every chain "
                                       "with a default contact); repeatable")
        ->group(group);
    app.add_option("--contact", contact_, "With a pose and one --chain: the contact to place instead of the "
                                          "chain's default contact")
        ->group(group);
  }

  int run() override {
    const Model model = model_.load();
    if (pose_.given()) return run_posed(model);
    if (!chains_.empty() || !contact_.empty()) throw InvalidArgument("--chain and --contact need a pose (--pose)");
    Table table({"index", "name", "points", "default_for"});
    for (const Contact* c : select_entities(model.contacts(), names_, "contact")) {
      Json points = Json::array();
      for (const auto& p : c->points) {
        if (out_.is(OutputFormat::json))
          points.push_back({p.x(), p.y(), p.z()});
        else
          points.push_back(fmt::format("({} {} {})", number_text(p.x()), number_text(p.y()), number_text(p.z())));
      }
      Json users = Json::array();
      for (const auto& chain : model.chains())
        if (chain.default_contact == c->name) users.push_back(chain.name);
      table.add_row({c->index, c->name, points, users});
    }
    out_.write(table.render(out_.format(), "rmodel.contacts", "contacts"));
    out_.close();
    return kOk;
  }

private:
  /// Contact points of chains in the base (root link) frame at the pose.
  int run_posed(const Model& model) {
    namespace kin = rmodel::kinematics;
    if (!names_.empty()) throw InvalidArgument("with a pose, select chains with --chain, not contact names");
    if (!contact_.empty() && chains_.size() != 1) throw InvalidArgument("--contact needs exactly one --chain");
    std::vector<std::string> chains = chains_;
    if (chains.empty())
      for (const auto& chain : model.chains())
        if (!chain.default_contact.empty()) chains.push_back(chain.name);
    const std::vector<double> pose = pose_.resolve(model);
    const auto km = kin::KinematicModel::from_model(model, kin::MimicJoints::from_pose);
    kin::Workspace ws(km);
    kin::forward_kinematics(km, ws, pose);
    const bool text = out_.is(OutputFormat::text);
    Table table({"chain", "contact", "link", "point", "x", "y", "z"});
    std::vector<Eigen::Vector3d> positions;
    for (const auto& chain : chains) {
      const kin::ContactPoints contact = kin::chain_contact(model, km, chain, contact_);
      positions.resize(contact.points.size());
      kin::contact_positions(ws, contact, positions);
      for (std::size_t i = 0; i < positions.size(); ++i) {
        std::vector<Json> row{chain, contact.name, km.body(contact.body).name, i};
        for (int k = 0; k < 3; ++k) {
          const double v = positions[i][k];
          row.push_back(text ? Json(fixed_text(v)) : Json(v));
        }
        table.add_row(std::move(row));
      }
    }
    out_.write(table.render(out_.format(), "rmodel.contact_points", "points"));
    out_.close();
    return kOk;
  }

  ModelOptions model_;
  PoseOptions pose_;
  std::vector<std::string> chains_;
  std::string contact_;
  OutputOptions out_;
  std::vector<std::string> names_;
};

}  // namespace

std::unique_ptr<Command> make_contacts_command() { return std::make_unique<ContactsCommand>(); }

}  // namespace rmodel::cli
