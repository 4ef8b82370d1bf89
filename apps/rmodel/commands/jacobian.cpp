// rmodel jacobian: a chain's geometric Jacobian at a pose (6 × chain joints; linear rows
// then angular rows, in the chain's first_link frame).
#include <cmath>

#include <fmt/format.h>

#include "command.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "options/pose_options.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/kinematics.hpp"

namespace rmodel::cli {
namespace {

namespace kin = rmodel::kinematics;

constexpr const char* kRows[6] = {"vx", "vy", "vz", "wx", "wy", "wz"};

class JacobianCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Geometric Jacobian of a chain at a pose: 6 rows (vx vy vz: linear velocity of the point in m/rad; "
        "wx wy wz: angular velocity of the link) by the chain's joints, in the chain's first_link frame; a mimic "
        "joint moves with its master, whose column includes it");
    model_.add_to(app);
    pose_.add_to(app, true);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text);
    app.add_option("--chain", chain_, "The chain (its movable joints are the columns)")->required();
    app.add_option("--link", link_, "Link of the chain whose motion is given (default: the chain's end link)");
    app.add_option("--point", point_, "Reference point in the link frame (m; default: the link origin)")
        ->delimiter(',')
        ->expected(3)
        ->type_name("X,Y,Z");
    app.add_flag("--with-virtual", with_virtual_,
                 "Include the chain's virtual joints (past last_link); the end link is then last_link_virtual");
  }

  int run() override {
    const Model model = model_.load();
    const auto km = kin::KinematicModel::from_chain(model, chain_, with_virtual_, kin::PoseLayout::full);
    std::size_t body = km.tip();
    if (!link_.empty()) {
      const auto found = km.find_body(link_);
      if (!found) {
        if (!model.find_link(link_)) throw NotFound("link", link_);
        throw Error(fmt::format("link '{}' is not in chain '{}'", link_, chain_));
      }
      body = *found;
    }
    const std::vector<double> pose = pose_.resolve(model);
    kin::Workspace ws(km);
    kin::forward_kinematics(km, ws, pose);
    kin::Jacobian full;
    Eigen::Vector3d point = Eigen::Vector3d::Zero();
    if (!point_.empty()) {
      point = Eigen::Vector3d(point_[0], point_[1], point_[2]);
      if (!point.allFinite()) throw InvalidArgument("--point: the coordinates must be finite");
    }
    kin::jacobian(km, ws, body, point, full);

    const std::vector<int> indices = kin::chain_jacobian_columns(model, km, chain_, with_virtual_);
    std::vector<std::string> joints;
    for (int index : indices) joints.push_back(model.joint_names()[static_cast<std::size_t>(index)]);
    const std::string& frame = km.body(0).name;
    const std::string& link = km.body(body).name;

    if (out_.is(OutputFormat::json)) {
      Json data = Json::array();
      for (int r = 0; r < 6; ++r) {
        Json row = Json::array();
        for (int index : indices) row.push_back(full(r, index));
        data.push_back(std::move(row));
      }
      Json doc = json_document("rmodel.jacobian");
      doc["chain"] = chain_;
      doc["link"] = link;
      doc["frame"] = frame;
      doc["point"] = {point.x(), point.y(), point.z()};
      doc["rows"] = kRows;
      doc["columns"] = joints;
      doc["data"] = std::move(data);
      out_.write(json_text(doc));
      out_.close();
      return kOk;
    }
    std::vector<std::string> columns{out_.is(OutputFormat::csv) ? "row" : ""};
    columns.insert(columns.end(), joints.begin(), joints.end());
    Table table(columns);
    for (int r = 0; r < 6; ++r) {
      std::vector<Json> row{kRows[r]};
      for (int index : indices) {
        const double v = full(r, index);
        row.push_back(out_.is(OutputFormat::text) ? Json(fixed_text(v)) : Json(v));
      }
      table.add_row(std::move(row));
    }
    std::string out;
    if (out_.is(OutputFormat::text))
      out = fmt::format("# chain {}, link {}, point ({} {} {}) m, frame {}\n", chain_, link, number_text(point.x()),
                        number_text(point.y()), number_text(point.z()), frame);
    out_.write(out + table.render(out_.format()));
    out_.close();
    return kOk;
  }

private:
  ModelOptions model_;
  PoseOptions pose_;
  OutputOptions out_;
  std::string chain_;
  std::string link_;
  std::vector<double> point_;
  bool with_virtual_ = false;
};

}  // namespace

std::unique_ptr<Command> make_jacobian_command() { return std::make_unique<JacobianCommand>(); }

}  // namespace rmodel::cli
