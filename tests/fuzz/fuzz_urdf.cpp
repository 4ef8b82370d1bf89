// Fuzz target: URDF loading. Input: URDF text. The checker (every problem as a diagnostic)
// and the loader (first error thrown) must agree on validity, as far as they mean to:
// - check reports errors the model loads with: those of physical plausibility
//   (is_plausibility_error: the inertias are used as written), `kinematics` (below) and the
//   mistakes loading skips with a warning (is_mistake: a <mimic> of an unknown joint...),
//   which the loaded model lists in load_diagnostics(). A model that loads has no other error
//   of check; one that does not load has one.
// - A model that loads gives a kinematic model, or KinematicModel::from_model refuses it
//   (InvalidArgument: an axis KDL takes for zero), which check reports as `kinematics` when
//   it found no other error (it asks gravity of the joints only then).
// A kinematic model that builds runs forward kinematics at the zero pose.
#include <algorithm>
#include <optional>
#include <vector>

#include "fuzz_target.hpp"
#include "rmodel/check/check.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model/model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rmodel;
  const std::string text(fuzz::as_text(data, size));
  const std::string source = "fuzz.urdf";
  Diagnostics report;
  fuzz::expect_clean_rejection(source, [&] { report = check_model_text(text, source, nullptr, "", std::nullopt); });
  auto errors_of = [&](auto&& which) {
    return std::any_of(report.items.begin(), report.items.end(),
                       [&](const Diagnostic& d) { return d.severity == Severity::error && which(d); });
  };
  auto loads_with = [](const Diagnostic& d) { return is_plausibility_error(d.code) || d.code == "kinematics"; };
  const bool other_errors = errors_of([](const Diagnostic& d) { return d.code != "kinematics"; });
  const bool kinematics_error = errors_of([](const Diagnostic& d) { return d.code == "kinematics"; });

  std::optional<Model> model;
  fuzz::expect_clean_rejection(source, [&] { model.emplace(Model::from_urdf_string(text, source)); });
  const bool loaded = model.has_value();
  if (!loaded) {
    RMODEL_FUZZ_CHECK(errors_of([&](const Diagnostic& d) { return !loads_with(d); }),
                      "fails to load although check reports no error of loading");
    return 0;
  }
  // A mistake the loaded model skipped, with a warning at the same place.
  auto skipped = [&](const Diagnostic& d) {
    const auto& warned = model->load_diagnostics().items;
    return is_mistake(d.code) && std::any_of(warned.begin(), warned.end(), [&](const Diagnostic& w) {
             return w.code == d.code && w.where.line == d.where.line;
           });
  };
  RMODEL_FUZZ_CHECK(!errors_of([&](const Diagnostic& d) { return !loads_with(d) && !skipped(d); }),
                    "loads although check reports errors loading would report");

  std::optional<kinematics::KinematicModel> kinematic;
  try {
    kinematic.emplace(kinematics::KinematicModel::from_model(*model));
  } catch (const InvalidArgument&) {
    // An axis KDL takes for zero: the model holds it as written, the kinematics cannot.
  } catch (const std::exception& e) {
    fuzz::fail("from_model threw other than InvalidArgument", e.what());
  }
  if (!other_errors)
    RMODEL_FUZZ_CHECK(kinematic.has_value() != kinematics_error,
                      kinematic ? "check reports 'kinematics' for kinematics that build"
                                : "the kinematics cannot be built and check does not say so");
  if (kinematic) {
    fuzz::expect_clean_rejection(source, [&] {
      kinematics::Workspace workspace(*kinematic);
      const std::vector<double> zero(kinematic->pose_size(), 0.0);
      kinematics::forward_kinematics(*kinematic, workspace, zero);
    });
  }
  return 0;
}
