// Legged robots: a floating root carried by the contact points of its supporting chains.
// The formulation (weights, least squares, reference point) is in docs/design.md,
// "Dynamics"; nothing here allocates per call.

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "kinematics/dynamics_data.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/kinematics/forward_kinematics.hpp"
#include "rmodel/model/model.hpp"
#include "rmodel/base/suggest.hpp"

namespace rmodel::dynamics {
namespace {

/// Eigenvalues of the 6 × 6 normal matrix below this fraction of the largest are taken as
/// zero: directions of the wrench the contact points cannot push (e.g. the moment about the
/// line through two points).
constexpr double kRankTolerance = 1e-10;

Eigen::Matrix3d skew(const Eigen::Vector3d& r) {
  Eigen::Matrix3d m;
  m << 0.0, -r.z(), r.y(), r.z(), 0.0, -r.x(), -r.y(), r.x(), 0.0;
  return m;
}

/// The contact forces f_i (at st.contacts[i].position, weights st.weights[i]) of least
/// weighted norm Σ|f_i|²/w_i among those whose wrench comes closest to `need`.
void solve_contact_forces(DynamicsWorkspace::State& st, const Wrench& need) {
  const std::size_t count = st.contact_count;
  if (count == 0) return;
  // Moments are taken about the points' centroid and divided by their RMS distance to it,
  // so that force and moment rows weigh alike whatever the robot's size and placement.
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  for (std::size_t i = 0; i < count; ++i) centroid += st.contacts[i].position;
  centroid /= static_cast<double>(count);
  double spread = 0.0;
  for (std::size_t i = 0; i < count; ++i) spread += (st.contacts[i].position - centroid).squaredNorm();
  spread = std::sqrt(spread / static_cast<double>(count));
  const double length = spread > 1e-9 ? spread : 1.0;

  Eigen::Matrix<double, 6, 1> b;
  b.head<3>() = need.force;
  b.tail<3>() = (need.moment - centroid.cross(need.force)) / length;
  // G = Σ w_i A_i A_iᵀ with A_i = [I; [r_i]×]: the wrench (force; moment/length) of a force
  // at r_i = (p_i − centroid)/length is A_i f_i.
  Eigen::Matrix<double, 6, 6> G = Eigen::Matrix<double, 6, 6>::Zero();
  for (std::size_t i = 0; i < count; ++i) {
    const double w = st.weights[i];
    const Eigen::Vector3d r = (st.contacts[i].position - centroid) / length;
    const Eigen::Matrix3d rx = skew(r);
    G.topLeftCorner<3, 3>().diagonal().array() += w;
    G.topRightCorner<3, 3>() += w * rx.transpose();
    G.bottomLeftCorner<3, 3>() += w * rx;
    G.bottomRightCorner<3, 3>() += w * (r.squaredNorm() * Eigen::Matrix3d::Identity() - r * r.transpose());
  }
  // λ = G⁺ b, then f_i = w_i A_iᵀ λ: the weighted least-norm least-squares solution
  // (W Aᵀ (A W Aᵀ)⁺ = W^½ (A W^½)⁺).
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>> eigen(G);
  const auto& values = eigen.eigenvalues();
  const double largest = values.maxCoeff();
  Eigen::Matrix<double, 6, 1> projected = eigen.eigenvectors().transpose() * b;
  for (int k = 0; k < 6; ++k)
    projected(k) = values(k) > kRankTolerance * largest ? projected(k) / values(k) : 0.0;
  const Eigen::Matrix<double, 6, 1> lambda = eigen.eigenvectors() * projected;
  for (std::size_t i = 0; i < count; ++i) {
    const Eigen::Vector3d r = (st.contacts[i].position - centroid) / length;
    st.contacts[i].force = st.weights[i] * (lambda.head<3>() + lambda.tail<3>().cross(r));
  }
}

}  // namespace

// ---- SupportModel ----

SupportModel::SupportModel(std::vector<Chain> chains, std::vector<Contact> contacts) {
  auto data = std::make_shared<Data>();
  std::size_t largest = 0;
  for (const Contact& c : contacts) largest = std::max(largest, c.points.size());
  for (std::size_t i = 0; i < chains.size(); ++i) {
    if (chains[i].default_contact && *chains[i].default_contact >= contacts.size())
      throw InvalidArgument(fmt::format("support model: chain '{}' has default contact {} of {}", chains[i].name,
                                        *chains[i].default_contact, contacts.size()));
    data->chain_index.emplace(chains[i].name, i);
  }
  for (std::size_t i = 0; i < contacts.size(); ++i) data->contact_index.emplace(contacts[i].name, i);
  data->max_points = largest * chains.size();
  data->chains = std::move(chains);
  data->contacts = std::move(contacts);
  data_ = std::move(data);
}

SupportModel SupportModel::from_model(const Model& model, const KinematicModel& kinematic_model) {
  std::vector<Contact> contacts;
  for (const rmodel::Contact& c : model.contacts()) {
    Contact out{c.name, {}};
    for (const KDL::Vector& p : c.points) out.points.emplace_back(p.x(), p.y(), p.z());
    contacts.push_back(std::move(out));
  }
  std::vector<Chain> chains;
  for (const rmodel::Chain& c : model.chains()) {
    const std::string& end = c.last_link_virtual.empty() ? c.last_link : c.last_link_virtual;
    const auto body = kinematic_model.find_body(end);
    if (!body)
      throw InvalidArgument(fmt::format("support model: the end link '{}' of chain '{}' is not in the kinematic model",
                                        end, c.name));
    Chain out{c.name, *body, std::nullopt};
    if (!c.default_contact.empty()) {
      for (std::size_t i = 0; i < contacts.size(); ++i)
        if (contacts[i].name == c.default_contact) out.default_contact = i;
    }
    chains.push_back(std::move(out));
  }
  return SupportModel(std::move(chains), std::move(contacts));
}

std::span<const SupportModel::Chain> SupportModel::chains() const noexcept { return data_->chains; }
std::span<const SupportModel::Contact> SupportModel::contacts() const noexcept { return data_->contacts; }
std::size_t SupportModel::max_points() const noexcept { return data_->max_points; }

std::optional<std::size_t> SupportModel::find_chain(std::string_view name) const noexcept {
  const auto it = data_->chain_index.find(name);
  if (it == data_->chain_index.end()) return std::nullopt;
  return it->second;
}

std::optional<std::size_t> SupportModel::find_contact(std::string_view name) const noexcept {
  const auto it = data_->contact_index.find(name);
  if (it == data_->contact_index.end()) return std::nullopt;
  return it->second;
}

void support_from_state(const SupportModel& supports, const SupportState& state, std::span<ChainSupport> out) {
  const auto chains = supports.chains();
  if (out.size() != chains.size()) throw SizeMismatch("support: chains", chains.size(), out.size());
  const std::size_t count = state.name.size();
  if (!state.support.empty() && state.support.size() != count)
    throw SizeMismatch("support state: 'support' values for the names", count, state.support.size());
  if (!state.contact.empty() && state.contact.size() != count)
    throw SizeMismatch("support state: 'contact' values for the names", count, state.contact.size());
  std::fill(out.begin(), out.end(), ChainSupport{});
  for (std::size_t i = 0; i < count; ++i) {
    const auto chain = supports.find_chain(state.name[i]);
    if (!chain) {
      std::vector<std::string> names;
      for (const auto& c : chains) names.push_back(c.name);
      throw NotFound("chain", state.name[i], did_you_mean(state.name[i], names));
    }
    const double coefficient = state.support.empty() ? 1.0 : state.support[i];
    if (!(coefficient >= 0.0 && coefficient <= 1.0))
      throw InvalidArgument(
          fmt::format("support of chain '{}' is {}: a coefficient is in [0, 1]", state.name[i], coefficient));
    ChainSupport& s = out[*chain];
    s.coefficient = coefficient;
    if (!state.contact.empty() && !state.contact[i].empty()) {
      const auto contact = supports.find_contact(state.contact[i]);
      if (!contact) {
        std::vector<std::string> names;
        for (const auto& c : supports.contacts()) names.push_back(c.name);
        throw NotFound("contact", state.contact[i], did_you_mean(state.contact[i], names));
      }
      s.contact = *contact;
    }
  }
}

// ---- floating base ----

void floating_base_dynamics(const KinematicModel& model, const SupportModel& supports, DynamicsWorkspace& ws,
                            std::span<const double> q, std::span<const double> qd, std::span<const double> qdd,
                            std::span<const ChainSupport> support, std::span<double> tau, const BaseMotion& base,
                            const Eigen::Vector3d& gravity) {
  auto& st = DynamicsAccess::state(ws);
  check_call(model, st, q, tau);
  check_pose_sized(model, qd, "dynamics: velocities");
  check_pose_sized(model, qdd, "dynamics: accelerations");
  const auto& sd = DynamicsAccess::data(supports);
  if (support.size() != sd.chains.size())
    throw SizeMismatch("dynamics: chain supports", sd.chains.size(), support.size());
  std::size_t points = 0;
  for (std::size_t c = 0; c < support.size(); ++c) {
    const ChainSupport& s = support[c];
    if (!(s.coefficient >= 0.0 && s.coefficient <= 1.0))
      throw InvalidArgument(fmt::format("dynamics: support of chain '{}' is {}: a coefficient is in [0, 1]",
                                        sd.chains[c].name, s.coefficient));
    if (s.coefficient == 0.0) continue;
    const auto contact = s.contact ? s.contact : sd.chains[c].default_contact;
    if (!contact)
      throw InvalidArgument(fmt::format("dynamics: chain '{}' supports but has no default contact: name one",
                                        sd.chains[c].name));
    if (*contact >= sd.contacts.size())
      throw InvalidArgument(fmt::format("dynamics: contact index {} of {}", *contact, sd.contacts.size()));
    if (sd.chains[c].body >= st.bodies.size())
      throw InvalidArgument(fmt::format("dynamics: chain '{}' ends in body {} of a model of {}", sd.chains[c].name,
                                        sd.chains[c].body, st.bodies.size()));
    points += sd.contacts[*contact].points.size();
  }
  if (points > st.contacts.size())
    throw InvalidArgument(fmt::format(
        "dynamics: the supporting chains have {} contact points, the workspace room for {} (build it with the "
        "SupportModel's max_points())",
        points, st.contacts.size()));

  kinematics::forward_kinematics(model, st.kin, q);
  // Body 0 moves: its spatial acceleration at the origin is the classical one minus ω × v.
  BodyState& root = st.states[0];
  root.w = base.angular_velocity;
  root.v = base.linear_velocity;
  root.al = base.angular_acceleration;
  root.a = base.linear_acceleration - base.angular_velocity.cross(base.linear_velocity) - gravity;
  forward_pass(st, qd, qdd);

  // What the whole motion needs from outside: the sum of every body's own force.
  Wrench need;
  for (const BodyState& s : st.states) {
    need.force += s.f;
    need.moment += s.n;
  }
  st.base = need;

  // The contact points of the supporting chains, weighted coefficient / points.
  const auto frames = st.kin.frames();
  st.contact_count = 0;
  for (std::size_t c = 0; c < support.size(); ++c) {
    const ChainSupport& s = support[c];
    if (s.coefficient == 0.0) continue;
    const std::size_t contact = s.contact ? *s.contact : *sd.chains[c].default_contact;
    const auto& local = sd.contacts[contact].points;
    const Eigen::Isometry3d& x = frames[sd.chains[c].body];
    for (std::size_t p = 0; p < local.size(); ++p) {
      auto& out = st.contacts[st.contact_count];
      out.chain = c;
      out.contact = contact;
      out.point = p;
      out.position = x * local[p];
      out.force.setZero();
      st.weights[st.contact_count] = s.coefficient / static_cast<double>(local.size());
      ++st.contact_count;
    }
  }
  solve_contact_forces(st, need);

  // The ground's forces act on the end bodies: the joints above carry the rest.
  for (std::size_t i = 0; i < st.contact_count; ++i) {
    const auto& cf = st.contacts[i];
    BodyState& s = st.states[sd.chains[cf.chain].body];
    s.f -= cf.force;
    s.n -= cf.position.cross(cf.force);
  }
  backward_pass(st, tau);
  st.unbalanced.force = st.states[0].f;
  st.unbalanced.moment = st.states[0].n;
}

}  // namespace rmodel::dynamics
