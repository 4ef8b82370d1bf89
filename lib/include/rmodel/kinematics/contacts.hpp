#pragma once
#include "rmodel/export.hpp"
/// @file contacts.hpp
/// Positions of a chain's contact points at a pose.
///
/// Contact points of the semantic description are 3-D points in the frame of a chain's
/// **end link with its virtual joints**: `last_link_virtual` when the chain has one,
/// otherwise `last_link` (as in the original design, where they belong to the chain's last,
/// virtual, link). A kinematic model holding that link — the tree model, or the chain's
/// model built with its virtual joints — can place them in the base frame.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "rmodel/kinematics/kinematic_model.hpp"
#include "rmodel/kinematics/workspace.hpp"

namespace rmodel {
class Model;
}

namespace rmodel::kinematics {

/// A set of points attached to one body of a kinematic model.
struct RMODEL_API ContactPoints {
  std::string name;                     ///< contact name
  std::size_t body = 0;                 ///< body whose link frame holds the points
  std::vector<Eigen::Vector3d> points;  ///< in that link frame (m)
};

/// The contact `contact` (the chain's default_contact when empty) of `chain`, attached to the
/// chain's end link (last_link_virtual if set, else last_link) in `kinematic_model`.
/// @throws NotFound for an unknown chain or contact; InvalidArgument when the chain has no
///         default contact and none is named, or when the end link is not a body of
///         `kinematic_model` (e.g. a chain model built without its virtual joints).
RMODEL_API ContactPoints chain_contact(const Model& model, const KinematicModel& kinematic_model,
                            std::string_view chain, std::string_view contact = {});

/// Points given in the link frame of `body`.
/// @throws InvalidArgument when body ≥ kinematic_model.size().
RMODEL_API ContactPoints make_contact(const KinematicModel& kinematic_model, std::size_t body,
                           std::vector<Eigen::Vector3d> points, std::string name = {});

/// Positions of the contact's points in the base frame (m) at the last forward_kinematics
/// pose. Allocates nothing.
/// @throws SizeMismatch when out.size() ≠ contact.points.size().
RMODEL_API void contact_positions(const Workspace& ws, const ContactPoints& contact,
                       std::span<Eigen::Vector3d> out);

}  // namespace rmodel::kinematics
