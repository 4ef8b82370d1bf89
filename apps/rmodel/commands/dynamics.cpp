// rmodel dynamics: the joint torques a pose (and a motion through it) needs, with the root
// fixed or, with --floating-base, carried by the supporting chains; the mass matrix on
// request.
#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "command.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "options/pose_options.hpp"
#include "options/stream_options.hpp"
#include "rmodel/stream/aggregator.hpp"
#include "rmodel/kinematics/dynamics.hpp"
#include "rmodel/stream/dynamics_stream.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/stream/stream_filter.hpp"
#include "rmodel/io/writer.hpp"
#include "rmodel/model/pose.hpp"

namespace rmodel::cli {
namespace {

namespace dyn = rmodel::dynamics;

/// Joint rates given as `joint=value` items (rad/s or m/s, rad/s² or m/s²) as a full pose;
/// joints not named are 0.
std::vector<double> rates(const Model& model, const std::string& items) {
  JointState state;
  apply_pose_assignments(model, parse_pose_assignments(items), state);
  if (state.position.empty()) state.position.assign(model.pose_size(), 0.0);
  return std::move(state.position);
}

/// `--support` items: `chain`, `chain=coefficient`, `chain:contact`, `chain=coefficient:contact`,
/// separated by commas or blanks.
SupportState parse_support_items(const std::string& text) {
  SupportState state;
  std::string item;
  auto flush = [&] {
    if (item.empty()) return;
    std::string chain = item, contact;
    double coefficient = 1.0;
    if (const auto colon = chain.find(':'); colon != std::string::npos) {
      contact = chain.substr(colon + 1);
      chain.resize(colon);
      if (contact.empty()) throw InvalidArgument(fmt::format("--support: '{}' names no contact after ':'", item));
    }
    if (const auto eq = chain.find('='); eq != std::string::npos) {
      const std::string value = chain.substr(eq + 1);
      chain.resize(eq);
      std::size_t used = 0;
      try {
        coefficient = std::stod(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (value.empty() || used != value.size() || !std::isfinite(coefficient))
        throw InvalidArgument(fmt::format("--support: '{}': the coefficient '{}' is not a number", item, value));
    }
    if (chain.empty()) throw InvalidArgument(fmt::format("--support: '{}' names no chain", item));
    if (std::find(state.name.begin(), state.name.end(), chain) != state.name.end())
      throw InvalidArgument(fmt::format("--support: chain '{}' is given twice", chain));
    state.name.push_back(chain);
    state.support.push_back(coefficient);
    state.contact.push_back(contact);
    item.clear();
  };
  for (const char c : text) {
    if (c == ',' || c == ' ' || c == '\t' || c == '\n') flush();
    else item += c;
  }
  flush();
  return state;
}

Json vector_json(const Eigen::Vector3d& v) { return Json::array({v.x(), v.y(), v.z()}); }

class DynamicsCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Joint torques a pose needs (N·m, N for prismatic joints) in full-pose order: 'gravity' holds the pose "
        "still, 'total' adds the motion (--velocity, --acceleration); the root link is fixed, or with "
        "--floating-base carried by the supporting chains' contact points. Frames: the root link's; gravity "
        "-9.81 m/s² along its z unless --gravity");
    model_.add_to(app);
    model_.add_from_log_to(app);
    pose_.add_to(app, true);
    // One pose: text, json, csv. --log: a joint-state log, JSON Lines, CSV or MCAP.
    stream_.add_output_to(
        app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv, OutputFormat::log}, OutputFormat::text,
        [this] {
          if (log_.empty())
            out_.restrict({OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text, "one pose");
          else
            out_.restrict({OutputFormat::log}, OutputFormat::log, "--log");
          return !log_.empty();
        });
    const char* motion = "Motion";
    app.add_option("--velocity", velocity_,
                   "Joint velocities (rad/s or m/s) as joint=value items separated by commas; joints not given are 0")
        ->type_name("JOINT=VALUE,...")
        ->group(motion);
    app.add_option("--acceleration", acceleration_,
                   "Joint accelerations (rad/s² or m/s²) as joint=value items; joints not given are 0")
        ->type_name("JOINT=VALUE,...")
        ->group(motion);
    app.add_option("--gravity", gravity_, "Gravity in the root link's frame (m/s²)")
        ->delimiter(',')
        ->expected(3)
        ->type_name("X,Y,Z")
        ->default_str("0,0,-9.81")
        ->group(motion);
    app.add_flag("--mass-matrix", mass_matrix_,
                 "Add the joint-space mass matrix M (kg·m², kg for prismatic joints, kg·m between them), root fixed")
        ->group(motion);
    const char* legged = "Legged robots";
    auto* floating = app.add_flag("--floating-base", floating_,
                                  "The root floats, at rest: the supporting chains carry the body through their "
                                  "contact points; each joint's torque includes its share")
                         ->group(legged);
    with_kind(app.add_option("--support", support_,
                   "Supporting chains as chain[=coefficient][:contact] items separated by commas (coefficient in "
                   "[0, 1], default 1; contact: the chain's default); default: every chain with a default contact"),
              ValueKind::text, "CHAIN[=C][:CONTACT],...")
        ->needs(floating)
        ->group(legged);
    add_log_options(app);
  }

  int run() override {
    if (!log_.empty()) return stream_log();
    if (model_.from_log) throw InvalidArgument("--model-from-log needs --log");
    const Model model = model_.load();
    const auto km = dyn::KinematicModel::from_model(model);
    const std::vector<double> q = pose_.resolve(model);
    const std::vector<double> qd = rates(model, velocity_);
    const std::vector<double> qdd = rates(model, acceleration_);
    Eigen::Vector3d gravity = dyn::standard_gravity();
    if (!gravity_.empty()) {
      gravity = Eigen::Vector3d(gravity_[0], gravity_[1], gravity_[2]);
      if (!gravity.allFinite()) throw InvalidArgument("--gravity: the components must be finite");
    }
    const std::size_t n = km.pose_size();
    std::vector<double> still(n), total(n);
    const std::vector<double> zero(n, 0.0);
    std::optional<dyn::SupportModel> supports;
    std::vector<dyn::ChainSupport> support;
    Eigen::MatrixXd M;

    std::optional<dyn::DynamicsWorkspace> ws;
    if (floating_) {
      supports.emplace(dyn::SupportModel::from_model(model, km));
      support.resize(supports->chains().size());
      if (support_.empty()) {
        for (std::size_t c = 0; c < support.size(); ++c)
          if (supports->chains()[c].default_contact) support[c].coefficient = 1.0;
      } else {
        dyn::support_from_state(*supports, parse_support_items(support_), support);
      }
      if (std::none_of(support.begin(), support.end(), [](const auto& s) { return s.coefficient > 0; }))
        throw Error("--floating-base: no chain supports the body (no chain has a default contact; give --support)");
      ws.emplace(km, supports->max_points());
      dyn::floating_base_dynamics(km, *supports, *ws, q, zero, zero, support, still, {}, gravity);
      dyn::floating_base_dynamics(km, *supports, *ws, q, qd, qdd, support, total, {}, gravity);
    } else {
      ws.emplace(km);
      dyn::gravity_torques(km, *ws, q, still, gravity);
      dyn::inverse_dynamics(km, *ws, q, qd, qdd, total, gravity);
    }
    if (mass_matrix_) dyn::mass_matrix(km, *ws, q, M);

    const auto names = model.joint_names();
    const std::string& frame = km.body(0).name;
    if (out_.is(OutputFormat::json)) {
      Json doc = json_document("rmodel.dynamics");
      doc["frame"] = frame;
      doc["root"] = floating_ ? "floating" : "fixed";
      doc["gravity"] = vector_json(gravity);
      Json joints = Json::array();
      for (std::size_t i = 0; i < n; ++i)
        joints.push_back({{"joint", names[i]}, {"gravity", still[i]}, {"total", total[i]}});
      doc["joints"] = std::move(joints);
      if (floating_) add_floating_json(doc, *supports, support, *ws);
      if (mass_matrix_) {
        Json rows = Json::array();
        for (Eigen::Index r = 0; r < M.rows(); ++r) {
          Json row = Json::array();
          for (Eigen::Index c = 0; c < M.cols(); ++c) row.push_back(M(r, c));
          rows.push_back(std::move(row));
        }
        doc["mass_matrix"] = std::move(rows);
      }
      out_.write(json_text(doc));
      out_.close();
      return kOk;
    }
    std::vector<std::string> columns{"joint", "gravity", "total"};
    if (mass_matrix_)
      for (const auto& name : names) columns.push_back(out_.is(OutputFormat::csv) ? "M." + name : name);
    Table table(columns);
    const bool text = out_.is(OutputFormat::text);
    auto cell = [text](double v) { return text ? Json(fixed_text(v)) : Json(v); };
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<Json> row{names[i], cell(still[i]), cell(total[i])};
      if (mass_matrix_)
        for (std::size_t c = 0; c < n; ++c)
          row.push_back(cell(M(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c))));
      table.add_row(std::move(row));
    }
    if (!text) {
      out_.write(table.render(out_.format()));
      out_.close();
      return kOk;
    }
    std::string out = fmt::format("# torques in N·m (N for prismatic joints); frame {}, gravity ({} {} {}) m/s²\n",
                                  frame, number_text(gravity.x()), number_text(gravity.y()), number_text(gravity.z()));
    out += floating_ ? floating_header(*supports, support) : fmt::format("# root {} fixed\n", frame);
    out += table.render(OutputFormat::text);
    if (floating_) out += contacts_text(*supports, *ws);
    out_.write(out);
    out_.close();
    return kOk;
  }

private:
  void add_log_options(CLI::App& app) {
    const char* group = "Streams";
    auto* log = app.add_option("--log", log_,
                               fmt::format("Stream a joint-state log ({}; '-': stdin) through the aggregator and "
                                           "write its poses with 'effort' = the torques they need; the pose given "
                                           "starts the held pose",
                                           log_extensions_text()))
                    ->type_name("FILE|-")
                    ->group(group);
    with_kind(app.add_option("--diff", stream_options_.diff_method,
                   "--log: differentiator giving velocities from positions (instead of the log's velocities) and "
                   "accelerations from velocities (diff, lag_diff, fir_diff; default: the log's velocities, diff)"),
              ValueKind::text, "KIND")
        ->needs(log)
        ->group(group);
    app.add_option("--diff-param", diff_param_args_,
                   "Parameter NAME=VALUE of --diff (repeatable; T given: a fixed step, else the stamps' differences)")
        ->allow_extra_args(false)
        ->needs(log)
        ->group(group);
    add_log_input_options(app, stream_, log, group, "Flush the output after every message");
  }

  /// --log: the log through the aggregator (as `aggregate`), each published pose through
  /// the torque sink, into the writer.
  int stream_log() {
    stream_.inputs = {log_};
    (void)stream_.checked_inputs();
    if (!support_.empty())
      throw InvalidArgument("--support applies to one pose; with --log the log's support states are used");
    if (!velocity_.empty() || !acceleration_.empty() || mass_matrix_)
      throw InvalidArgument("--velocity, --acceleration and --mass-matrix apply to one pose, not to --log");
    const Model model = *model_.load_for_logs(stream_.inputs, "dynamics", stream_.quiet);
    AggregatorOptions options;
    if (pose_.given()) options.initial_positions = pose_.resolve(model);
    for (const auto& a : diff_param_args_) filters::parse_param_assignment(a, stream_options_.diff_params);
    stream_options_.floating_base = floating_;
    if (!gravity_.empty()) stream_options_.gravity = Eigen::Vector3d(gravity_[0], gravity_[1], gravity_[2]);
    Aggregator aggregator(model, options);
    {
      stream::CallbackSink nowhere({});
      (void)dyn::TorqueSink(nowhere, model, stream_options_);  // refuses bad options before the output is made
    }

    io::WriterOptions writer_options = stream_.writer_options();
    writer_options.csv_joints = model.joint_names();
    writer_options.csv_fields = io::CsvPosition | io::CsvVelocity | io::CsvEffort;
    writer_options.csv_support = model.chain_names();
    LogOutput log(out_.path(), writer_options);
    io::MessageWriter& writer = log.writer();
    stream::WriterSink writer_sink(writer);
    TransformOutput transforms;
    dyn::TorqueSink torques(transforms.sink(writer_sink, writer, stream_.tf ? &model : nullptr), model,
                            stream_options_);
    const stream::Summary summary = run_stream("dynamics", stream_, aggregator, torques);
    (void)log.finish("dynamics", summary);
    if (torques.rejected_support_states() > 0)
      fmt::print(stderr, "rmodel: warning: {} support state(s) not used (the first: {}); the support stayed as it was\n",
                 torques.rejected_support_states(), torques.first_support_problem());
    return summary.rejected > 0 ? kFailed : kOk;
  }

  static std::string floating_header(const dyn::SupportModel& supports, const std::vector<dyn::ChainSupport>& support) {
    std::string list;
    for (std::size_t c = 0; c < support.size(); ++c) {
      if (support[c].coefficient <= 0) continue;
      const auto& chain = supports.chains()[c];
      const std::size_t contact = support[c].contact ? *support[c].contact : *chain.default_contact;
      list += fmt::format("{}{} ({}, {})", list.empty() ? "" : ", ", chain.name, supports.contacts()[contact].name,
                          number_text(support[c].coefficient));
    }
    return fmt::format("# root floating at rest, carried by {}\n", list);
  }

  static std::string contacts_text(const dyn::SupportModel& supports, const dyn::DynamicsWorkspace& ws) {
    Table forces({"chain", "contact", "point", "x", "y", "z", "fx", "fy", "fz"});
    for (const auto& cf : ws.contact_forces())
      forces.add_row({supports.chains()[cf.chain].name, supports.contacts()[cf.contact].name, cf.point,
                      fixed_text(cf.position.x()), fixed_text(cf.position.y()), fixed_text(cf.position.z()),
                      fixed_text(cf.force.x()), fixed_text(cf.force.y()), fixed_text(cf.force.z())});
    const dyn::Wrench& u = ws.unbalanced_wrench();
    return fmt::format("\n# contact forces on the robot: points (m), forces (N)\n{}# unbalanced: force ({} {} {}) N, "
                       "moment ({} {} {}) N·m\n",
                       forces.render(OutputFormat::text), fixed_text(u.force.x()), fixed_text(u.force.y()),
                       fixed_text(u.force.z()), fixed_text(u.moment.x()), fixed_text(u.moment.y()),
                       fixed_text(u.moment.z()));
  }

  static void add_floating_json(Json& doc, const dyn::SupportModel& supports,
                                const std::vector<dyn::ChainSupport>& support, const dyn::DynamicsWorkspace& ws) {
    Json chains = Json::array();
    for (std::size_t c = 0; c < support.size(); ++c) {
      if (support[c].coefficient <= 0) continue;
      const auto& chain = supports.chains()[c];
      const std::size_t contact = support[c].contact ? *support[c].contact : *chain.default_contact;
      chains.push_back(
          {{"chain", chain.name}, {"support", support[c].coefficient}, {"contact", supports.contacts()[contact].name}});
    }
    doc["supports"] = std::move(chains);
    Json forces = Json::array();
    for (const auto& cf : ws.contact_forces())
      forces.push_back({{"chain", supports.chains()[cf.chain].name},
                        {"contact", supports.contacts()[cf.contact].name},
                        {"point", cf.point},
                        {"position", vector_json(cf.position)},
                        {"force", vector_json(cf.force)}});
    doc["contact_forces"] = std::move(forces);
    doc["base_wrench"] = {{"force", vector_json(ws.base_wrench().force)},
                          {"moment", vector_json(ws.base_wrench().moment)}};
    doc["unbalanced"] = {{"force", vector_json(ws.unbalanced_wrench().force)},
                         {"moment", vector_json(ws.unbalanced_wrench().moment)}};
  }

  ModelOptions model_;
  PoseOptions pose_;
  StreamOptions stream_;
  OutputOptions& out_ = stream_.out;
  std::string log_;
  dyn::DynamicsStreamOptions stream_options_;
  std::vector<std::string> diff_param_args_;
  std::string velocity_;
  std::string acceleration_;
  std::vector<double> gravity_;
  bool mass_matrix_ = false;
  bool floating_ = false;
  std::string support_;
};

}  // namespace

std::unique_ptr<Command> make_dynamics_command() { return std::make_unique<DynamicsCommand>(); }

}  // namespace rmodel::cli
