// Fuzz target: URDF loading. Input: URDF text. The checker (every problem as a diagnostic)
// and the loader (first error thrown) must agree on validity; a model that loads must give
// a kinematic model whose forward kinematics runs at the zero pose.
#include <optional>
#include <vector>

#include "fuzz_target.hpp"
#include "rmodel/check.hpp"
#include "rmodel/kinematics.hpp"
#include "rmodel/model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rmodel;
  const std::string text(fuzz::as_text(data, size));
  const std::string source = "fuzz.urdf";
  bool checker_found_errors = false;
  fuzz::expect_clean_rejection(source, [&] {
    checker_found_errors = check_model_text(text, source, nullptr, "", std::nullopt).has_errors();
  });
  bool loaded = false;
  fuzz::expect_clean_rejection(source, [&] {
    const Model model = Model::from_urdf_string(text, source);
    loaded = true;
    const auto kinematic = kinematics::KinematicModel::from_model(model);
    kinematics::Workspace workspace(kinematic);
    const std::vector<double> zero(kinematic.pose_size(), 0.0);
    kinematics::forward_kinematics(kinematic, workspace, zero);
  });
  RMODEL_FUZZ_CHECK(loaded != checker_found_errors, loaded ? "loads although check reports errors"
                                                           : "fails to load although check reports no error");
  return 0;
}
