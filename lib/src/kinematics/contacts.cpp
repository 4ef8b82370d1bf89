// Contact points of a chain, placed in the base frame.

#include "rmodel/kinematics/contacts.hpp"

#include <fmt/format.h>

#include "kinematics/model_data.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel::kinematics {

ContactPoints chain_contact(const Model& model, const KinematicModel& kinematic_model,
                            std::string_view chain_name, std::string_view contact) {
  const Chain& chain = model.chain(chain_name);
  const std::string& end = chain.last_link_virtual.empty() ? chain.last_link : chain.last_link_virtual;
  const std::string_view name = contact.empty() ? std::string_view(chain.default_contact) : contact;
  if (name.empty())
    throw InvalidArgument(fmt::format(
        "chain '{}' has no default contact; name the contact to use", chain.name));
  const auto points = model.contact_points(name);
  const auto body = kinematic_model.find_body(end);
  if (!body)
    throw InvalidArgument(fmt::format(
        "contact '{}' of chain '{}' lies in the frame of link '{}', which this kinematic model "
        "does not hold (build the chain's model with its virtual joints, or the tree's)",
        name, chain.name, end));
  ContactPoints out;
  out.name = std::string(name);
  out.body = *body;
  out.points.reserve(points.size());
  for (const KDL::Vector& p : points) out.points.emplace_back(p.x(), p.y(), p.z());
  return out;
}

ContactPoints make_contact(const KinematicModel& kinematic_model, std::size_t body,
                           std::vector<Eigen::Vector3d> points, std::string name) {
  check_body(kinematic_model, body);
  ContactPoints out;
  out.name = std::move(name);
  out.body = body;
  out.points = std::move(points);
  return out;
}

void contact_positions(const Workspace& ws, const ContactPoints& contact,
                       std::span<Eigen::Vector3d> out) {
  if (out.size() != contact.points.size())
    throw SizeMismatch("kinematics: contact positions", contact.points.size(), out.size());
  if (contact.body >= ws.size())
    throw InvalidArgument(fmt::format("kinematics: contact body {} out of range (model has {})",
                                      contact.body, ws.size()));
  const Eigen::Isometry3d& x = ws.frame(contact.body);
  for (std::size_t i = 0; i < out.size(); ++i) out[i].noalias() = x * contact.points[i];
}

}  // namespace rmodel::kinematics
