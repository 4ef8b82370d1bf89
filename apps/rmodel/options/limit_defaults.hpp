#pragma once
// Filter bounds defaulted from joint limits, shared by `rmodel filter` and `aggregate --filter`.

#include <span>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "rmodel/filters/registry.hpp"
#include "rmodel/model/model.hpp"
#include "terminal.hpp"

namespace rmodel::cli {

/// When the model was loaded with a limits file, sets the position filter's speed bound `v`
/// and acceleration bound `amax` the user did not give to the tightest velocity and
/// acceleration limits of `joints` (every pose joint when empty), and says so on stderr, once
/// per bound, unless `quiet` (-q). Only with a limits file, so that a model given for its joint names alone keeps
/// the registry's defaults. @throws NotFound for a joint the model lacks.
inline void default_bounds_from_limits(std::string_view command, const filters::FilterKind& kind,
                                       filters::FilterParams& given, const Model& model,
                                       std::span<const std::string> joints, bool quiet) {
  if (model.limits() == nullptr) return;
  // The unit of the bound: rad or m per second, whichever the joints are.
  bool rotational = false, linear = false;
  auto note = [&](const JointInfo& j) {
    (j.type == JointType::prismatic ? linear : rotational) = true;
  };
  if (joints.empty())
    for (std::size_t i = 0; i < model.pose_size(); ++i) note(model.pose_joint(i));
  for (const auto& name : joints) note(model.pose_joint(model.joint_index(name)));
  const std::string_view unit = rotational && linear ? "units" : linear ? "m" : "rad";
  struct Bound {
    const char* param;
    LimitKind limit;
    const char* per;
  };
  for (const Bound& b : {Bound{"v", LimitKind::velocity, "s"}, Bound{"amax", LimitKind::acceleration, "s^2"}}) {
    if (kind.find_param(b.param) == nullptr || given.count(b.param) != 0) continue;
    const auto value = model.tightest_limit(b.limit, joints);
    if (!value) continue;
    given[b.param] = *value;
    if (!quiet)
      terminal::diagnostic(fmt::format("rmodel {}: {} = {} {}/{} from the joint limits", command, b.param, *value, unit,
                                       b.per));
  }
}

}  // namespace rmodel::cli
