#include "rmodel/model/model.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "base/library_file.hpp"
#include "model/model_impl.hpp"
#include "model/xacro_source.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/base/file.hpp"
#include "rmodel/base/suggest.hpp"

namespace rmodel {

std::string_view to_string(JointType type) {
  switch (type) {
    case JointType::revolute: return "revolute";
    case JointType::continuous: return "continuous";
    case JointType::prismatic: return "prismatic";
    case JointType::fixed: return "fixed";
    case JointType::floating: return "floating";
    case JointType::planar: return "planar";
    case JointType::unknown: break;
  }
  return "unknown";
}

std::optional<ChainProperty> chain_property_from_string(std::string_view name) {
  if (name == "first_link") return ChainProperty::first_link;
  if (name == "last_link") return ChainProperty::last_link;
  if (name == "last_link_virtual") return ChainProperty::last_link_virtual;
  if (name == "default_contact") return ChainProperty::default_contact;
  return std::nullopt;
}

bool Chain::contiguous() const noexcept {
  for (std::size_t i = 1; i < joint_indices.size(); ++i)
    if (joint_indices[i] != joint_indices[i - 1] + 1) return false;
  return true;
}

// ---- construction ----

Model::Model(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
Model::Model(const Model&) = default;
Model Model::Impl::as_model(std::shared_ptr<const Impl> impl) { return Model(std::move(impl)); }
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(const Model&) = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

Model Model::from_urdf_string(std::string urdf_text, const std::string& urdf_name,
                              std::optional<Semantics> semantics, std::optional<JointLimitsFile> limits) {
  auto impl = std::make_shared<Impl>();
  impl->urdf = detail::load_urdf(urdf_text, urdf_name);
  impl->urdf_text = std::move(urdf_text);
  impl->urdf_source = urdf_name;
  impl->has_semantics = semantics.has_value();
  if (semantics) impl->semantics = std::move(*semantics);
  impl->limits = std::move(limits);
  Diagnostics diagnostics;
  impl->index(diagnostics);
  if (const Diagnostic* d = diagnostics.first_error()) throw ModelError(d->where, d->message);
  impl->diagnostics = std::move(diagnostics);
  return Model(std::move(impl));
}

Model Model::load(const ModelSource& source) {
  // The URDF and the semantics may each be xacro (MoveIt's `.srdf.xacro`); what loading finds
  // in an expanded text is reported at its xacro source line.
  std::optional<detail::ExpandedInput> semantics_file;
  std::optional<Semantics> semantics;
  if (!source.semantics_path.empty()) {
    semantics_file = detail::read_model_file(source.semantics_path, source);
    semantics = detail::parse_semantics_input(*semantics_file, source.semantics_format);
  }
  std::optional<JointLimitsFile> limits;
  if (!source.limits_path.empty()) limits = load_joint_limits(source.limits_path);
  detail::UrdfInput urdf = detail::read_urdf_input(source);
  std::vector<const detail::ExpandedInput*> expanded;
  for (const detail::ExpandedInput* input : {&urdf, semantics_file ? &*semantics_file : nullptr})
    if (input != nullptr && input->xacro) expanded.push_back(input);
  if (expanded.empty()) return from_urdf_string(std::move(urdf.text), urdf.name, std::move(semantics), std::move(limits));
  const auto at_xacro_line = [&](const auto& e) {
    std::string message = e.message();
    SourceLocation where = e.where();
    for (const auto* input : expanded) where = detail::map_to_xacro(*input->xacro, input->name, where, &message);
    return std::pair{where, message};
  };
  try {
    Model model = from_urdf_string(std::move(urdf.text), urdf.name, std::move(semantics), std::move(limits));
    // The model was built just now, from a non-const Impl, and is shared with no one yet.
    Diagnostics& diagnostics = const_cast<Impl&>(*model.impl_).diagnostics;
    for (const auto* input : expanded) {
      detail::map_to_xacro(*input->xacro, input->name, diagnostics);
      // What the xacro's own xacro.message(), warning() and error() said: ROS's xacro prints
      // them and goes on, so an error() here is kept as a warning (its code says what it was).
      for (Diagnostic d : input->xacro->messages()) {
        if (d.severity == Severity::error) d.severity = Severity::warning;
        diagnostics.items.push_back(std::move(d));
      }
    }
    return model;
  } catch (const ModelError& e) {
    auto [where, message] = at_xacro_line(e);
    throw ModelError(where, message);
  } catch (const ParseError& e) {
    auto [where, message] = at_xacro_line(e);
    throw ParseError(where, message);
  }
}

// ---- whole model ----

const std::string& Model::robot_name() const noexcept { return impl_->urdf.robot_name; }
const std::string& Model::urdf_text() const noexcept { return impl_->urdf_text; }
const std::string& Model::urdf_source() const noexcept { return impl_->urdf_source; }
bool Model::has_semantics() const noexcept { return impl_->has_semantics; }
const Semantics& Model::semantics() const noexcept { return impl_->semantics; }
const std::string& Model::root_link() const noexcept { return impl_->urdf.root_link; }
const JointLimitsFile* Model::limits() const noexcept { return impl_->limits ? &*impl_->limits : nullptr; }
const Diagnostics& Model::load_diagnostics() const noexcept { return impl_->diagnostics; }

std::optional<double> Model::tightest_limit(LimitKind kind, std::span<const std::string> joints) const {
  std::optional<double> best;
  auto consider = [&](const JointInfo& j) {
    const double v = kind == LimitKind::velocity       ? j.velocity_limit
                     : kind == LimitKind::acceleration ? j.acceleration_limit
                                                       : j.jerk_limit;
    if (v > 0 && (!best || v < *best)) best = v;
  };
  if (joints.empty())
    for (std::size_t i = 0; i < pose_size(); ++i) consider(pose_joint(i));
  for (const auto& name : joints) consider(pose_joint(joint_index(name)));
  return best;
}
const std::vector<LinkInfo>& Model::links() const noexcept { return impl_->urdf.links; }
const std::vector<JointInfo>& Model::urdf_joints() const noexcept { return impl_->urdf.joints; }

const LinkInfo* Model::find_link(std::string_view name) const noexcept {
  auto it = impl_->urdf.link_by_name.find(std::string(name));
  return it == impl_->urdf.link_by_name.end() ? nullptr : &impl_->urdf.links[it->second];
}

const JointInfo* Model::find_urdf_joint(std::string_view name) const noexcept {
  auto it = impl_->urdf.joint_by_name.find(std::string(name));
  return it == impl_->urdf.joint_by_name.end() ? nullptr : &impl_->urdf.joints[it->second];
}

std::optional<double> Model::total_mass() const noexcept {
  std::optional<double> total;
  for (const auto& link : impl_->urdf.links)
    if (link.inertial) total = total.value_or(0.0) + link.inertial->mass;
  return total;
}

// ---- pose ----

namespace {
template <class Map>
std::optional<std::size_t> lookup(const Map& map, std::string_view name) noexcept {
  auto it = map.find(name);
  if (it == map.end()) return std::nullopt;
  return static_cast<std::size_t>(it->second);
}
}  // namespace

const std::vector<std::string>& Model::joint_names() const noexcept { return impl_->pose_names; }

const JointInfo& Model::pose_joint(std::size_t index) const {
  if (index >= impl_->pose_names.size())
    throw NotFound("pose index", std::to_string(index));
  return impl_->urdf.joints[impl_->pose_to_urdf[index]];
}

std::optional<std::size_t> Model::find_joint_index(std::string_view joint) const noexcept {
  return lookup(impl_->joint_index, joint);
}

std::size_t Model::joint_index(std::string_view joint) const {
  if (auto i = find_joint_index(joint)) return *i;
  if (auto reason = outside_pose_reason(joint))
    throw NotFound("joint", std::string(joint), NotFound::Message{fmt::format("joint '{}' {}", joint, *reason)});
  throw NotFound("joint", std::string(joint), did_you_mean(joint, impl_->pose_names));
}

std::optional<std::string> Model::outside_pose_reason(std::string_view joint) const {
  const JointInfo* info = find_urdf_joint(joint);
  if (!info || info->index >= 0) return std::nullopt;
  switch (info->type) {
    case JointType::floating:
    case JointType::planar:
      // A pose holds one value per joint; these have 6 and 3 coordinates.
      return fmt::format("is {} ({} degrees of freedom): the full pose holds one value per joint, so it is not "
                         "part of it (rmodel treats it as fixed)",
                         to_string(info->type), info->type == JointType::floating ? 6 : 3);
    case JointType::fixed:
      return std::string("is fixed: it has no value in the full pose");
    default:
      break;
  }
  if (info->mimic)
    return fmt::format("mimics '{}' and is in no chain or group, so not part of the full pose (it follows '{}')",
                       info->mimic->joint, info->mimic->joint);
  return std::string("is in no chain or group, so not part of the full pose");
}

// ---- mimic joints ----

std::span<const PoseMimic> Model::pose_mimics() const noexcept { return impl_->pose_mimics; }

namespace {

bool listed(std::span<const int> slots, std::size_t slot) {
  return std::find(slots.begin(), slots.end(), static_cast<int>(slot)) != slots.end();
}

/// True when the input moved the master of `m`: it gave the master, or the master is a mimic
/// joint it did not give whose own master it moved (up the chain, without storage).
bool master_moved(std::span<const PoseMimic> mimics, const PoseMimic& m, std::span<const int> given) {
  for (const PoseMimic* cur = &m;;) {
    if (listed(given, cur->master)) return true;
    if (cur->master_entry < 0) return false;
    cur = &mimics[static_cast<std::size_t>(cur->master_entry)];  // its slot is the master, not given
  }
}

void follow(const PoseMimic& m, std::span<double> position, std::span<double> velocity) {
  position[m.slot] = m.multiplier * position[m.master] + m.offset;
  if (!velocity.empty()) velocity[m.slot] = m.multiplier * velocity[m.master];
}

void check_pose_size(const Model& model, std::size_t position_size) {
  if (position_size != model.pose_size()) throw SizeMismatch("pose position", model.pose_size(), position_size);
}

void complete_given(std::span<const PoseMimic> mimics, std::span<double> position, std::span<double> velocity,
                    std::span<const int> given) {
  // In pose_mimics order a master is set before the joints that follow it.
  for (const PoseMimic& m : mimics)
    if (!listed(given, m.slot) && master_moved(mimics, m, given)) follow(m, position, velocity);
}

}  // namespace

void Model::complete_mimic_joints(JointState& full, std::span<const int> given_slots) const {
  check_pose_size(*this, full.position.size());
  std::span<double> velocity;
  if (full.velocity.size() == pose_size()) velocity = full.velocity;
  complete_given(impl_->pose_mimics, full.position, velocity, given_slots);
}

void Model::complete_mimic_joints(std::span<double> position, std::span<const int> given_slots) const {
  check_pose_size(*this, position.size());
  complete_given(impl_->pose_mimics, position, {}, given_slots);
}

void Model::complete_mimic_joints_except(JointState& full, std::span<const char> keep) const {
  check_pose_size(*this, full.position.size());
  if (!keep.empty() && keep.size() != pose_size()) throw SizeMismatch("mimic keep flags", pose_size(), keep.size());
  std::span<double> velocity;
  if (full.velocity.size() == pose_size()) velocity = full.velocity;
  for (const PoseMimic& m : impl_->pose_mimics)
    if (keep.empty() || keep[m.slot] == 0) follow(m, full.position, velocity);
}

// ---- chains ----

const std::vector<Chain>& Model::chains() const noexcept { return impl_->chains; }

std::vector<std::string> Model::chain_names() const {
  std::vector<std::string> names;
  for (const auto& c : impl_->chains) names.push_back(c.name);
  return names;
}

const Chain* Model::find_chain(std::string_view name) const noexcept {
  auto i = lookup(impl_->chain_index, name);
  return i ? &impl_->chains[*i] : nullptr;
}

const Chain& Model::chain(std::string_view name) const {
  if (const Chain* c = find_chain(name)) return *c;
  throw NotFound("chain", std::string(name), did_you_mean(name, chain_names()));
}

std::optional<std::size_t> Model::find_chain_index(std::string_view name) const noexcept {
  return lookup(impl_->chain_index, name);
}

std::size_t Model::chain_index(std::string_view name) const {
  return static_cast<std::size_t>(chain(name).index);
}

std::vector<std::string> Model::chain_joints(std::string_view name, bool with_virtual) const {
  std::vector<std::string> joints;
  for (int j : chain(name).indices(with_virtual)) joints.push_back(impl_->pose_names[static_cast<std::size_t>(j)]);
  return joints;
}

std::span<const int> Model::chain_joint_indices(std::string_view name, bool with_virtual) const {
  return chain(name).indices(with_virtual);
}

const std::string& Model::chain_property(std::string_view name, ChainProperty property) const {
  const Chain& c = chain(name);
  switch (property) {
    case ChainProperty::first_link: return c.first_link;
    case ChainProperty::last_link: return c.last_link;
    // The original getChainProperty answers last_link for a chain without virtual joints:
    // the end of the chain "with virtual joints" is then its last link.
    case ChainProperty::last_link_virtual: return c.last_link_virtual.empty() ? c.last_link : c.last_link_virtual;
    case ChainProperty::default_contact: return c.default_contact;
  }
  return c.first_link;
}

const ChainExtra* Model::chain_extra(std::string_view name, std::string_view parameter) const {
  for (const auto& x : chain(name).extra)
    if (x.name == parameter) return &x;
  return nullptr;
}

const std::string& Model::chain_default_contact(std::string_view name) const {
  return chain(name).default_contact;
}

std::optional<std::string> Model::chain_group(std::string_view name) const {
  const Chain& c = chain(name);
  if (c.group < 0) return std::nullopt;
  return impl_->groups[static_cast<std::size_t>(c.group)].name;
}

namespace {
/// Names of the flagged entries, in index order.
template <class Entities>
std::vector<std::string> flagged_names(const Entities& entities, const std::vector<bool>& flags) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < flags.size(); ++i)
    if (flags[i]) names.push_back(entities[i].name);
  return names;
}
}  // namespace

std::vector<std::string> Model::chains_groups(std::span<const std::string> chains) const {
  // The original's order: each group the first time one of the given chains meets it.
  std::vector<bool> seen(impl_->groups.size(), false);
  std::vector<std::string> names;
  for (const auto& name : chains) {
    const int g = chain(name).group;
    if (g < 0 || seen[static_cast<std::size_t>(g)]) continue;
    seen[static_cast<std::size_t>(g)] = true;
    names.push_back(impl_->groups[static_cast<std::size_t>(g)].name);
  }
  return names;
}

std::vector<std::string> Model::joint_chains(std::string_view joint) const {
  std::vector<std::string> names;
  for (int c : impl_->joint_owner_chains[joint_index(joint)])
    names.push_back(impl_->chains[static_cast<std::size_t>(c)].name);
  return names;
}

std::vector<std::string> Model::joints_chains(std::span<const std::string> joints) const {
  std::vector<bool> seen(impl_->chains.size(), false);
  for (const auto& joint : joints)
    for (int c : impl_->joint_owner_chains[joint_index(joint)]) seen[static_cast<std::size_t>(c)] = true;
  return flagged_names(impl_->chains, seen);
}

// ---- groups ----

const std::vector<Group>& Model::groups() const noexcept { return impl_->groups; }

std::vector<std::string> Model::group_names() const {
  std::vector<std::string> names;
  for (const auto& g : impl_->groups) names.push_back(g.name);
  return names;
}

const Group* Model::find_group(std::string_view name) const noexcept {
  auto i = lookup(impl_->group_index, name);
  return i ? &impl_->groups[*i] : nullptr;
}

const Group& Model::group(std::string_view name) const {
  if (const Group* g = find_group(name)) return *g;
  std::vector<std::string> names;
  for (const Group& g : impl_->groups) names.push_back(g.name);
  throw NotFound("group", std::string(name), did_you_mean(name, names));
}

std::optional<std::size_t> Model::find_group_index(std::string_view name) const noexcept {
  return lookup(impl_->group_index, name);
}

std::size_t Model::group_index(std::string_view name) const {
  return static_cast<std::size_t>(group(name).index);
}

std::vector<std::string> Model::group_joints(std::string_view name) const {
  std::vector<std::string> joints;
  for (int j : group(name).joint_indices) joints.push_back(impl_->pose_names[static_cast<std::size_t>(j)]);
  return joints;
}

std::vector<std::string> Model::group_chains(std::string_view name) const {
  std::vector<std::string> chains;
  for (int c : group(name).chains) chains.push_back(impl_->chains[static_cast<std::size_t>(c)].name);
  return chains;
}

std::vector<std::string> Model::groups_chains(std::span<const std::string> groups) const {
  // The original's order: the groups as given, each group's chains in its own order; a
  // group named twice gives its chains twice, as the original does.
  std::vector<std::string> names;
  for (const auto& name : groups)
    for (int c : group(name).chains) names.push_back(impl_->chains[static_cast<std::size_t>(c)].name);
  return names;
}

std::optional<std::string> Model::joint_group(std::string_view joint) const {
  const int g = impl_->joint_group[joint_index(joint)];
  if (g < 0) return std::nullopt;
  return impl_->groups[static_cast<std::size_t>(g)].name;
}

std::vector<std::string> Model::joints_groups(std::span<const std::string> joints) const {
  // Every group holding any of the joints, in declaration order: with overlapping groups a
  // joint is in more than its owning group (joint_group), and the original asks each group.
  std::vector<bool> wanted(impl_->pose_names.size(), false);
  for (const auto& joint : joints) wanted[joint_index(joint)] = true;
  std::vector<bool> seen(impl_->groups.size(), false);
  for (std::size_t g = 0; g < impl_->groups.size(); ++g)
    seen[g] = std::ranges::any_of(impl_->groups[g].joint_indices,
                                  [&](int j) { return wanted[static_cast<std::size_t>(j)]; });
  return flagged_names(impl_->groups, seen);
}

// ---- contacts ----

const std::vector<Contact>& Model::contacts() const noexcept { return impl_->contacts; }

std::vector<std::string> Model::contact_names() const {
  std::vector<std::string> names;
  for (const auto& c : impl_->contacts) names.push_back(c.name);
  return names;
}

const Contact* Model::find_contact(std::string_view name) const noexcept {
  auto i = lookup(impl_->contact_index, name);
  return i ? &impl_->contacts[*i] : nullptr;
}

std::span<const KDL::Vector> Model::contact_points(std::string_view name) const {
  if (const Contact* c = find_contact(name)) return c->points;
  std::vector<std::string> names;
  for (const Contact& c : impl_->contacts) names.push_back(c.name);
  throw NotFound("contact", std::string(name), did_you_mean(name, names));
}

bool Model::append_contact_points(std::string_view name, std::vector<KDL::Vector>& buffer) const {
  const Contact* c = find_contact(name);
  if (!c) return false;
  buffer.insert(buffer.end(), c->points.begin(), c->points.end());
  return true;
}

// ---- KDL ----

const Model::Impl::KdlView& Model::Impl::kdl_view() const {
  if (const KdlView* ready = kdl_view_ready_.load(std::memory_order_acquire)) return *ready;
  const std::lock_guard lock(kdl_mutex_);
  if (!kdl_view_) {
    auto view = std::make_unique<KdlView>();
    view->tree = detail::build_kdl_tree(urdf);
    view->chains_full.resize(chains.size());
    view->chains_real.resize(chains.size());
    for (std::size_t i = 0; i < chains.size(); ++i) {
      const Chain& c = chains[i];
      view->tree->getChain(c.first_link, c.last_link_virtual.empty() ? c.last_link : c.last_link_virtual,
                           view->chains_full[i]);
      view->tree->getChain(c.first_link, c.last_link, view->chains_real[i]);
    }
    kdl_view_ = std::move(view);
    kdl_view_ready_.store(kdl_view_.get(), std::memory_order_release);
  }
  return *kdl_view_;
}

const KDL::Tree& Model::kdl_tree() const { return *impl_->kdl_view().tree; }

const KDL::Chain& Model::kdl_chain(std::string_view name, bool with_virtual) const {
  const auto i = static_cast<std::size_t>(chain(name).index);
  const auto& view = impl_->kdl_view();
  return with_virtual ? view.chains_full[i] : view.chains_real[i];
}

// ---- data movement ----

namespace {
void require_pose_sized(const std::vector<double>& field, std::size_t pose_size, const char* what) {
  if (!field.empty() && field.size() != pose_size)
    throw SizeMismatch(fmt::format("full joint state {}", what), pose_size, field.size());
}

void gather(const std::vector<double>& field, std::span<const int> indices, KDL::JntArray& out) {
  const unsigned n = field.empty() ? 0U : static_cast<unsigned>(indices.size());
  if (out.rows() != n) out.resize(n);
  for (unsigned i = 0; i < n; ++i) out(i) = field[static_cast<std::size_t>(indices[i])];
}

void scatter(const KDL::JntArray& in, std::span<const int> indices, std::vector<double>& field,
             std::size_t pose_size, const char* what) {
  if (in.rows() == 0) return;
  if (in.rows() != indices.size()) throw SizeMismatch(fmt::format("chain {} array", what), indices.size(), in.rows());
  if (field.empty()) field.assign(pose_size, 0.0);
  for (std::size_t i = 0; i < indices.size(); ++i) field[static_cast<std::size_t>(indices[i])] = in(static_cast<unsigned>(i));
}
}  // namespace

void Model::extract_chain(std::string_view name, const JointState& full, KDL::JntArray& position,
                          KDL::JntArray& velocity, KDL::JntArray& effort, bool with_virtual) const {
  const Chain& c = chain(name);
  const std::size_t n = pose_size();
  require_pose_sized(full.position, n, "position");
  require_pose_sized(full.velocity, n, "velocity");
  require_pose_sized(full.effort, n, "effort");
  gather(full.position, c.indices(with_virtual), position);
  gather(full.velocity, c.indices(with_virtual), velocity);
  gather(full.effort, c.indices(with_virtual), effort);
}

bool Model::extract_chain_by_name(std::string_view name, const JointState& state, KDL::JntArray& position,
                                  KDL::JntArray& velocity, KDL::JntArray& effort, bool with_virtual) const {
  const auto indices = chain(name).indices(with_virtual);
  const std::size_t n = state.name.size();
  auto sized = [&](const std::vector<double>& field, const char* what, KDL::JntArray& out) {
    if (!field.empty() && field.size() != n) throw SizeMismatch(fmt::format("joint state {}", what), n, field.size());
    const unsigned rows = field.empty() ? 0U : static_cast<unsigned>(indices.size());
    if (out.rows() != rows) out.resize(rows);
    for (unsigned i = 0; i < rows; ++i) out(i) = 0.0;
  };
  sized(state.position, "position", position);
  sized(state.velocity, "velocity", velocity);
  sized(state.effort, "effort", effort);
  bool all = true;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const std::string& joint = impl_->pose_names[static_cast<std::size_t>(indices[i])];
    // Senders usually keep their own order: try the same slot first, then search.
    std::size_t k = i < n && state.name[i] == joint ? i : n;
    if (k == n)
      for (std::size_t s = 0; s < n; ++s)
        if (state.name[s] == joint) {
          k = s;
          break;
        }
    if (k == n) {
      all = false;
      continue;
    }
    const auto row = static_cast<unsigned>(i);
    if (position.rows()) position(row) = state.position[k];
    if (velocity.rows()) velocity(row) = state.velocity[k];
    if (effort.rows()) effort(row) = state.effort[k];
  }
  return all;
}

void Model::pack_chain(std::string_view name, const KDL::JntArray& position, const KDL::JntArray& velocity,
                       const KDL::JntArray& effort, JointState& full, bool with_virtual) const {
  const Chain& c = chain(name);
  const std::size_t n = pose_size();
  if (full.name.empty()) full.name = impl_->pose_names;
  if (full.name.size() != n) throw SizeMismatch("full joint state name", n, full.name.size());
  require_pose_sized(full.position, n, "position");
  require_pose_sized(full.velocity, n, "velocity");
  require_pose_sized(full.effort, n, "effort");
  scatter(position, c.indices(with_virtual), full.position, n, "position");
  scatter(velocity, c.indices(with_virtual), full.velocity, n, "velocity");
  scatter(effort, c.indices(with_virtual), full.effort, n, "effort");
}

ChainView Model::map_chain(std::string_view name, JointState& full, bool with_virtual) const {
  const Chain& c = chain(name);
  if (!c.contiguous())
    throw InvalidArgument(fmt::format(
        "chain '{}' does not occupy consecutive slots of the full pose; use extract_chain", name));
  const std::size_t n = pose_size();
  require_pose_sized(full.position, n, "position");
  require_pose_sized(full.velocity, n, "velocity");
  require_pose_sized(full.effort, n, "effort");
  const auto size = static_cast<Eigen::Index>(c.size(with_virtual));
  const std::size_t first = c.joint_indices.empty() ? 0 : static_cast<std::size_t>(c.joint_indices.front());
  auto view = [&](std::vector<double>& field) {
    return field.empty() ? Eigen::Map<Eigen::VectorXd>(nullptr, 0)
                         : Eigen::Map<Eigen::VectorXd>(field.data() + first, size);
  };
  return {view(full.position), view(full.velocity), view(full.effort)};
}

JointState Model::make_full_state(bool with_velocity, bool with_effort) const {
  JointState state;
  state.name = impl_->pose_names;
  state.position.assign(pose_size(), 0.0);
  if (with_velocity) state.velocity.assign(pose_size(), 0.0);
  if (with_effort) state.effort.assign(pose_size(), 0.0);
  return state;
}

// ---- sample robot ----

namespace {

/// The installed data directory (share/rmodel) seen from an installed file in `relative_dir`.
std::filesystem::path data_dir_from(const std::filesystem::path& installed_file, const char* relative_dir) {
  return detail::install_prefix(installed_file, relative_dir) / RMODEL_INSTALL_DATADIR;
}

}  // namespace

std::string sample_model_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const char* env = std::getenv("RMODEL_SHARE_DIR"); env && *env) {
    fs::path p = fs::path(env) / "sample";
    if (fs::is_directory(p, ec)) return p.string();
  }
  // Installed: <prefix>/<libdir>/librmodel.so → <prefix>/share/rmodel/sample, whichever
  // program loaded the library, and wherever the prefix was moved (a .deb unpacked aside);
  // or <prefix>/bin/rmodel, which has librmodel's code linked in, → the same.
  const detail::LibraryFile library = detail::library_file();
  if (!library.path.empty()) {
    // The program's path (/proc/self/exe) is canonical already.
    ec.clear();
    const fs::path file = library.in_program ? fs::path(library.path) : fs::weakly_canonical(fs::path(library.path), ec);
    if (!ec) {
      fs::path p = data_dir_from(file, library.in_program ? RMODEL_INSTALL_BINDIR : RMODEL_INSTALL_LIBDIR) / "sample";
      if (fs::is_directory(p, ec)) return p.string();
    }
  }
  // Installed: <prefix>/bin/rmodel, with librmodel.so found elsewhere (LD_LIBRARY_PATH).
  if (!library.in_program) {
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      fs::path p = data_dir_from(exe, RMODEL_INSTALL_BINDIR) / "sample";
      if (fs::is_directory(p, ec)) return p.string();
    }
  }
  fs::path source = fs::path(RMODEL_SOURCE_SHARE_DIR) / "sample";
  if (fs::is_directory(source, ec)) return source.string();
  return {};
}

}  // namespace rmodel
