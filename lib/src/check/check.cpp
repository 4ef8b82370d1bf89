#include "rmodel/check/check.hpp"

#include "check/holding_weight.hpp"
#include <algorithm>
#include <filesystem>
#include <iterator>
#include <optional>
#include <string_view>

#include "model/model_impl.hpp"
#include "model/xacro_source.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/base/file.hpp"
#include "rmodel/model/pose.hpp"

namespace rmodel {

bool is_mistake(std::string_view code) {
  const CheckCode* entry = find_check_code(code, CodeScope::model);  // the catalogue marks them
  return entry != nullptr && entry->mistake;
}

namespace {

constexpr std::string_view kPlausibilityErrors[] = {"inertial-mass", "inertia-not-positive", "inertia-triangle"};

void promote_mistakes(Diagnostics& diagnostics) {
  for (auto& d : diagnostics.items)
    if (d.severity == Severity::warning && is_mistake(d.code)) d.severity = Severity::error;
}

}  // namespace

bool is_plausibility_error(std::string_view code) {
  return std::find(std::begin(kPlausibilityErrors), std::end(kPlausibilityErrors), code) !=
         std::end(kPlausibilityErrors);
}

std::span<const std::string_view> plausibility_error_codes() { return kPlausibilityErrors; }

namespace {

/// The targets' rules on a URDF that has no error of its own (`readable`), after the other
/// problems, and their verdicts.
void check_targets(CheckReport& report, bool readable, const std::string& urdf_text, const std::string& urdf_name,
                   const CheckOptions& options, const std::filesystem::path& urdf_dir) {
  std::optional<Model> model;
  if (readable && !options.targets.empty()) {
    try {
      model = Model::from_urdf_string(urdf_text, urdf_name);
    } catch (const Error&) {  // the URDF's own rules have said why
    }
  }
  std::vector<CheckTarget> done;
  for (const CheckTarget target : options.targets) {
    if (std::find(done.begin(), done.end(), target) != done.end()) continue;
    done.push_back(target);
    if (model)
      for (auto& d : check_target(*model, target, urdf_dir).items) report.problems.items.push_back(std::move(d));
  }
  for (const CheckTarget target : done)
    report.targets.push_back(target_verdict(report.problems, target, model.has_value()));
}

CheckReport check_text(const std::string& urdf_text, const std::string& urdf_name, const std::string* semantics_text,
                       const std::string& semantics_name, std::optional<SemanticsFormat> semantics_format,
                       const JointLimitsFile* limits, const CheckOptions& options,
                       const std::filesystem::path& urdf_dir) {
  CheckReport report;
  Diagnostics& out = report.problems;
  // Physical plausibility, checked on the document the URDF analysis reads; reported last.
  Diagnostics physical;
  auto urdf = detail::analyse_urdf(urdf_text, urdf_name, out, &physical);
  const bool readable = urdf.has_value();
  std::optional<Semantics> semantics;
  if (semantics_text) {
    try {
      semantics = parse_semantics(*semantics_text, semantics_name, semantics_format);
      for (const auto& w : semantics->warnings) out.items.push_back(w);
    } catch (const ParseError& e) {
      out.add(Severity::error, e.where(), "semantics-syntax", e.message());
    }
  }
  // Semantic rules need a URDF tree to be checked against.
  if (!urdf || out.has_errors()) {
    promote_mistakes(out);
    check_targets(report, readable, urdf_text, urdf_name, options, urdf_dir);
    return report;
  }
  auto impl = std::make_shared<Model::Impl>();
  impl->urdf = std::move(*urdf);
  impl->urdf_source = urdf_name;
  impl->has_semantics = semantics.has_value();
  if (semantics) impl->semantics = std::move(*semantics);
  if (limits) impl->limits = *limits;
  impl->index(out);
  // The checks below ask questions of a Model; the one just indexed serves, as it is when its
  // indexing found no error (the state Model::from_urdf_string would have returned it in).
  impl->urdf_text = urdf_text;
  std::optional<Model> model;
  if (!out.has_errors()) model = Model::Impl::as_model(impl);
  if (model && !impl->semantics.poses.empty())
    for (auto& d : check_named_poses(*model).items) out.items.push_back(std::move(d));
  promote_mistakes(out);
  // Physical plausibility: the inertials (found above), then what gravity asks of the joints.
  if (model && !out.has_errors() && !physical.has_errors()) detail::check_holding_weight(*model, physical);
  for (auto& d : physical.items) out.items.push_back(std::move(d));
  check_targets(report, readable, urdf_text, urdf_name, options, urdf_dir);
  return report;
}

}  // namespace

Diagnostics check_model_text(const std::string& urdf_text, const std::string& urdf_name,
                             const std::string* semantics_text, const std::string& semantics_name,
                             std::optional<SemanticsFormat> semantics_format, const JointLimitsFile* limits) {
  return check_text(urdf_text, urdf_name, semantics_text, semantics_name, semantics_format, limits, {}, {}).problems;
}

Diagnostics check_model(const ModelSource& source) { return check_model(source, CheckOptions{}).problems; }

CheckReport check_model(const ModelSource& source, const CheckOptions& options) {
  detail::UrdfInput urdf;
  try {
    urdf = detail::read_urdf_input(source);
  } catch (const ParseError& e) {  // the xacro does not expand: that is the problem to report
    CheckReport report;
    report.problems.add(Severity::error, e.where(), "xacro", e.message());
    check_targets(report, false, {}, {}, options, {});
    return report;
  }
  const std::string& urdf_text = urdf.text;
  // MoveIt's semantics are often `.srdf.xacro`: read as SRDF, the whole file would be
  // ignored elements and the check would pass on no semantics at all.
  detail::ExpandedInput semantics;
  if (!source.semantics_path.empty()) {
    try {
      semantics = detail::read_model_file(source.semantics_path, source);
    } catch (const ParseError& e) {
      CheckReport report;
      report.problems.add(Severity::error, e.where(), "xacro", e.message());
      check_targets(report, false, {}, {}, options, {});
      return report;
    }
  }
  std::optional<JointLimitsFile> limits;
  Diagnostics limits_problems;
  if (!source.limits_path.empty()) {
    // Every error of the file, not the first only; the model is checked with what is valid.
    limits = parse_joint_limits(read_text_file(source.limits_path), display_name(source.limits_path),
                                limits_problems);
  }
  // Mesh files are looked up from the directory of the file given (a xacro's, for a xacro).
  std::filesystem::path urdf_dir;
  if (source.urdf_path != "-") {
    urdf_dir = std::filesystem::path(source.urdf_path).parent_path();
    if (urdf_dir.empty()) urdf_dir = ".";
  }
  CheckReport report = check_text(urdf_text, urdf.name, source.semantics_path.empty() ? nullptr : &semantics.text,
                                  display_name(source.semantics_path), source.semantics_format,
                                  limits ? &*limits : nullptr, options, urdf_dir);
  Diagnostics& out = report.problems;
  for (const detail::ExpandedInput* input : {&semantics, &urdf}) {
    if (!input->xacro) continue;
    detail::map_to_xacro(*input->xacro, input->name, out);
    // The xacro's own xacro.message(), warning() and error(), at their xacro lines already.
    out.items.insert(out.items.begin(), input->xacro->messages().begin(), input->xacro->messages().end());
  }
  for (auto& d : limits_problems.items) out.items.push_back(std::move(d));
  if (limits) {
    // The limits file's errors and the warnings indexing found in it, read in line order
    // (in their places among the others).
    std::vector<std::size_t> slots;
    std::vector<Diagnostic> in_file;
    for (std::size_t i = 0; i < out.items.size(); ++i)
      if (out.items[i].where.file == limits->source) {
        slots.push_back(i);
        in_file.push_back(std::move(out.items[i]));
      }
    std::stable_sort(in_file.begin(), in_file.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.where.line < b.where.line; });
    for (std::size_t k = 0; k < slots.size(); ++k) out.items[slots[k]] = std::move(in_file[k]);
  }
  return report;
}

}  // namespace rmodel
