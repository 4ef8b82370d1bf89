// rmodel diff: compare two models. First answers "will logs recorded with OLD be read
// correctly with NEW?" (exit 0 yes, 1 no, 2 usage), then lists what else changed.
#include <cctype>
#include <fstream>

#include <fmt/format.h>

#include "command.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "rmodel/model/diff.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/base/file.hpp"

namespace rmodel::cli {
namespace {

/// True when `path` names a model manifest (JSON) rather than a URDF: by extension, else
/// by the first non-blank character.
bool is_manifest(const std::string& path) {
  if (path == "-") return false;
  if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0) return true;
  std::ifstream in(path, std::ios::binary);
  char c = 0;
  while (in.get(c))
    if (!std::isspace(static_cast<unsigned char>(c))) return c == '{';
  return false;
}

std::string value_text(const DiffValue& v) {
  struct Visitor {
    std::string operator()(std::monostate) const { return "-"; }
    std::string operator()(bool b) const { return b ? "yes" : "no"; }
    std::string operator()(int i) const { return std::to_string(i); }
    std::string operator()(double d) const { return number_text(d); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const std::vector<double>& xs) const {
      std::string out;
      for (double x : xs) out += (out.empty() ? "" : " ") + number_text(x);
      return "[" + out + "]";
    }
    std::string operator()(const std::vector<std::string>& xs) const {
      std::string out;
      for (const auto& x : xs) out += (out.empty() ? "" : " ") + x;
      return "[" + out + "]";
    }
  };
  return std::visit(Visitor{}, v);
}

Json value_json(const DiffValue& v) {
  struct Visitor {
    Json operator()(std::monostate) const { return nullptr; }
    Json operator()(bool b) const { return b; }
    Json operator()(int i) const { return i; }
    Json operator()(double d) const { return d; }
    Json operator()(const std::string& s) const { return s; }
    Json operator()(const std::vector<double>& xs) const { return xs; }
    Json operator()(const std::vector<std::string>& xs) const { return xs; }
  };
  return std::visit(Visitor{}, v);
}

Json changes_json(const std::vector<PropertyChange>& changes) {
  Json out = Json::array();
  for (const auto& c : changes)
    out.push_back({{"property", c.property}, {"old", value_json(c.old_value)}, {"new", value_json(c.new_value)}});
  return out;
}

std::string changes_text(const std::vector<PropertyChange>& changes) {
  std::string out;
  for (const auto& c : changes)
    out += fmt::format("{}{} {} → {}", out.empty() ? "" : "; ", c.property, value_text(c.old_value),
                       value_text(c.new_value));
  return out;
}

Json entities_json(const EntityDiff& d) {
  Json changed = Json::array();
  for (const auto& c : d.changed) changed.push_back({{"name", c.name}, {"changes", changes_json(c.changes)}});
  return {{"added", d.added}, {"removed", d.removed}, {"changed", changed}};
}

class DiffCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "Compare two models. OLD and NEW are URDF (or xacro) files or model manifests. Exit 0 when logs recorded with OLD "
        "are read correctly with NEW (same joints at the same indices of the full pose; joints appended at the "
        "end are accepted unless --strict, which also fails on any change of the robot's links and joints), 1 when "
        "not, 2 on usage errors");
    with_kind(app.add_option("old", old_, "Old model: URDF or xacro file, or model manifest (.json)"),
              ValueKind::file)->required()->type_name("MODEL");
    with_kind(app.add_option("new", new_, "New model: URDF or xacro file, or model manifest (.json)"),
              ValueKind::file)->required()->type_name("MODEL");
    app.add_option("-s,--semantics", semantics_, "Semantics for both sides (.cpf, .json, .srdf)")->type_name("FILE");
    app.add_option("--old-semantics", old_semantics_, "Semantics of the old model (overrides --semantics)")
        ->type_name("FILE");
    app.add_option("--new-semantics", new_semantics_, "Semantics of the new model (overrides --semantics)")
        ->type_name("FILE");
    app.add_option("--limits", limits_, "MoveIt joint_limits.yaml for both sides")->type_name("FILE");
    app.add_option("--package-path", package_paths_,
                   "Directory holding ROS packages, for $(find PKG) in xacro models (repeatable)")
        ->type_name("DIR")
        ->allow_extra_args(false);
    add_xacro_arg_option(app, xacro_args_, nullptr);
    app.add_option("--old-limits", old_limits_, "Limits of the old model (overrides --limits)")->type_name("FILE");
    app.add_option("--new-limits", new_limits_, "Limits of the new model (overrides --limits)")->type_name("FILE");
    app.add_option("--tolerance", tolerance_,
                   "Numbers closer than this are equal (origins, axes, limits, dynamics, points); masses and moments "
                   "of inertia relative to their size; 0: bit for bit")
        ->check(non_negative_number())
        ->default_str("1e-09");
    app.add_flag("--strict", strict_,
                 "Fail also on joints appended at the end of the full pose and on any change of the robot's links "
                 "and joints (masses, inertias, origins, axes, limits, dynamics, mimic, safety controller)");
    app.add_flag("-q,--quiet", quiet_, "Print nothing; only the exit status tells");
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text, [this] {
      if (quiet_ && (out_.format_given() || out_.path_given()))
        OutputOptions::refuse("-q prints nothing: -f and -o do not apply");
    });
  }

  int run() override {
    const ModelSource old_source = source(old_, old_semantics_.empty() ? semantics_ : old_semantics_,
                                          old_limits_.empty() ? limits_ : old_limits_);
    const ModelSource new_source = source(new_, new_semantics_.empty() ? semantics_ : new_semantics_,
                                          new_limits_.empty() ? limits_ : new_limits_);
    if (old_source.urdf_path == "-" && new_source.urdf_path == "-")
      throw InvalidArgument("only one of OLD and NEW can be read from stdin");
    const Model old_model = Model::load(old_source);
    const Model new_model = Model::load(new_source);
    warn_mistakes(old_model);
    warn_mistakes(new_model);
    const ModelDiff d = diff_models(old_model, new_model, {tolerance_});
    // The default verdict is the full pose's; --strict holds the robot itself to no change too.
    const bool compatible = d.pose.compatible(!strict_) && !(strict_ && d.physical_changes());
    if (quiet_) return compatible ? kOk : kFailed;
    if (out_.is(OutputFormat::json))
      out_.write(json_text(to_json(d, compatible, old_source, new_source)));
    else if (out_.is(OutputFormat::csv))
      out_.write(to_csv(d));
    else
      out_.write(to_text(d, compatible));
    out_.close();
    return compatible ? kOk : kFailed;
  }

private:
  ModelSource source(const std::string& path, const std::string& semantics, const std::string& limits) const {
    ModelOptions options;
    options.package_paths = package_paths_;
    options.xacro_args = xacro_args_;
    if (is_manifest(path)) options.manifest = path;
    else options.urdf = path;
    options.semantics = semantics;
    options.limits = limits;  // empty keeps a manifest's "limits"
    return options.resolve();
  }

  Json side_json(const ModelSource& s, std::size_t pose_size) const {
    return {{"urdf", display_name(s.urdf_path)},
            {"semantics", s.semantics_path.empty() ? Json(nullptr) : Json(display_name(s.semantics_path))},
            {"limits", s.limits_path.empty() ? Json(nullptr) : Json(display_name(s.limits_path))},
            {"pose_size", pose_size}};
  }

  Json to_json(const ModelDiff& d, bool compatible, const ModelSource& a, const ModelSource& b) const {
    Json doc = json_document("rmodel.diff");
    doc["compatible"] = compatible;
    doc["strict"] = strict_;
    doc["physical_changes"] = d.physical_changes();
    doc["tolerance"] = tolerance_;
    doc["old"] = side_json(a, d.pose.old_size);
    doc["new"] = side_json(b, d.pose.new_size);
    Json pose;
    pose["verdict"] = to_string(d.pose.verdict);
    pose["old_size"] = d.pose.old_size;
    pose["new_size"] = d.pose.new_size;
    auto entries = [](const std::vector<PoseEntry>& v) {
      Json out = Json::array();
      for (const auto& e : v) out.push_back({{"name", e.name}, {"index", e.index}});
      return out;
    };
    pose["removed"] = entries(d.pose.removed);
    pose["added"] = entries(d.pose.added);
    pose["moved"] = Json::array();
    for (const auto& m : d.pose.moved)
      pose["moved"].push_back({{"name", m.name}, {"old_index", m.old_index}, {"new_index", m.new_index}});
    pose["unit_changes"] = Json::array();
    for (const auto& u : d.pose.unit_changes)
      pose["unit_changes"].push_back({{"name", u.name},
                                      {"index", u.index},
                                      {"old_type", to_string(u.old_type)},
                                      {"new_type", to_string(u.new_type)}});
    doc["pose"] = pose;
    doc["robot"] = changes_json(d.robot);
    doc["links"] = entities_json(d.links);
    Json joints = entities_json(d.joints);
    Json renamed = Json::array();
    for (const auto& r : d.renamed)
      renamed.push_back({{"old", r.old_name}, {"new", r.new_name}, {"changes", changes_json(r.changes)}});
    joints["renamed"] = renamed;
    doc["joints"] = joints;
    doc["chains"] = entities_json(d.chains);
    doc["groups"] = entities_json(d.groups);
    doc["contacts"] = entities_json(d.contacts);
    doc["poses"] = entities_json(d.poses);
    return doc;
  }

  /// One row per change: section (pose, robot, links, joints, ...), change (removed, added,
  /// moved, unit, renamed, changed), the entity, the property and its old and new values.
  /// The verdict is the exit status.
  static std::string to_csv(const ModelDiff& d) {
    Table table({"section", "change", "name", "property", "old", "new"});
    const Json none(nullptr);
    for (const auto& e : d.pose.removed) table.add_row({"pose", "removed", e.name, "index", e.index, none});
    for (const auto& e : d.pose.added) table.add_row({"pose", "added", e.name, "index", none, e.index});
    for (const auto& m : d.pose.moved) table.add_row({"pose", "moved", m.name, "index", m.old_index, m.new_index});
    for (const auto& u : d.pose.unit_changes)
      table.add_row({"pose", "unit", u.name, "type", std::string(to_string(u.old_type)),
                     std::string(to_string(u.new_type))});
    auto changes = [&](const char* section, const char* change, const std::string& name,
                       const std::vector<PropertyChange>& list) {
      for (const auto& c : list)
        table.add_row({section, change, name.empty() ? none : Json(name), c.property, value_text(c.old_value),
                       value_text(c.new_value)});
    };
    changes("robot", "changed", "", d.robot);
    auto entities = [&](const char* section, const EntityDiff& e) {
      for (const auto& n : e.removed) table.add_row({section, "removed", n, none, none, none});
      for (const auto& n : e.added) table.add_row({section, "added", n, none, none, none});
      for (const auto& c : e.changed) changes(section, "changed", c.name, c.changes);
    };
    entities("links", d.links);
    for (const auto& r : d.renamed) {
      table.add_row({"joints", "renamed", r.new_name, "name", r.old_name, r.new_name});
      changes("joints", "changed", r.new_name, r.changes);
    }
    entities("joints", d.joints);
    entities("chains", d.chains);
    entities("groups", d.groups);
    entities("contacts", d.contacts);
    entities("poses", d.poses);
    return table.render(OutputFormat::csv);
  }

  std::string to_text(const ModelDiff& d, bool compatible) const {
    std::string out;
    const auto& p = d.pose;
    const std::string sizes = p.old_size == p.new_size ? fmt::format("{} joints", p.new_size)
                                                      : fmt::format("{} → {} joints", p.old_size, p.new_size);
    if (p.verdict == PoseVerdict::identical)
      out += fmt::format("full pose: identical ({}): logs recorded with OLD are read correctly with NEW\n", sizes);
    else if (p.verdict == PoseVerdict::extended && compatible)
      out += fmt::format("full pose: extended ({}, appended at the end): logs recorded with OLD are read correctly "
                         "with NEW\n",
                         sizes);
    else if (p.verdict == PoseVerdict::extended)
      out += fmt::format("full pose: INCOMPATIBLE under --strict ({}, appended at the end)\n", sizes);
    else
      out += fmt::format("full pose: INCOMPATIBLE ({}): logs recorded with OLD are misread with NEW\n", sizes);
    for (const auto& e : p.removed) out += fmt::format("  removed   {} (old index {})\n", e.name, e.index);
    for (const auto& e : p.added) out += fmt::format("  added     {} (new index {})\n", e.name, e.index);
    for (const auto& m : p.moved) out += fmt::format("  moved     {} {} → {}\n", m.name, m.old_index, m.new_index);
    for (const auto& u : p.unit_changes)
      out += fmt::format("  unit      {} (index {}) {} → {}: rad and m do not mix\n", u.name, u.index,
                         to_string(u.old_type), to_string(u.new_type));

    std::string rest;
    auto section = [&](const char* title, const std::string& body) {
      if (!body.empty()) rest += fmt::format("{}:\n{}", title, body);
    };
    auto entity_lines = [](const EntityDiff& e) {
      std::string body;
      for (const auto& n : e.removed) body += fmt::format("  removed   {}\n", n);
      for (const auto& n : e.added) body += fmt::format("  added     {}\n", n);
      for (const auto& c : e.changed) body += fmt::format("  changed   {}: {}\n", c.name, changes_text(c.changes));
      return body;
    };
    std::string robot;
    for (const auto& c : d.robot)
      robot += fmt::format("  changed   {} {} → {}\n", c.property, value_text(c.old_value), value_text(c.new_value));
    section("robot", robot);
    section("links", entity_lines(d.links));
    std::string joints;
    for (const auto& r : d.renamed)
      joints += fmt::format("  renamed   {} → {} (same parent, child, type and origin){}\n", r.old_name, r.new_name,
                            r.changes.empty() ? "" : "; " + changes_text(r.changes));
    joints += entity_lines(d.joints);
    section("joints", joints);
    section("chains", entity_lines(d.chains));
    section("groups", entity_lines(d.groups));
    section("contacts", entity_lines(d.contacts));
    section("poses", entity_lines(d.poses));
    out += rest.empty() ? "no other differences\n" : rest;
    if (strict_ && d.physical_changes())
      out += "INCOMPATIBLE under --strict: the robot's links or joints changed\n";
    return out;
  }

  std::string old_, new_;
  std::string semantics_, old_semantics_, new_semantics_;
  std::string limits_, old_limits_, new_limits_;
  std::vector<std::string> package_paths_, xacro_args_;
  double tolerance_ = 1e-9;
  bool strict_ = false;
  bool quiet_ = false;
  OutputOptions out_;
};

}  // namespace

std::unique_ptr<Command> make_diff_command() { return std::make_unique<DiffCommand>(); }

}  // namespace rmodel::cli
