#pragma once
// Internal: the data behind rmodel::Model, and the indexing of a semantic description
// against a URDF (shared by Model and `check`).

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rmodel/base/diagnostic.hpp"
#include "rmodel/model/model.hpp"
#include "model/urdf_loader.hpp"

namespace rmodel::detail {

/// Hash enabling lookups by std::string_view without building a std::string.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
using NameIndex = std::unordered_map<std::string, int, StringHash, std::equal_to<>>;

}  // namespace rmodel::detail

namespace rmodel {

struct Model::Impl {
  detail::UrdfModel urdf;
  std::string urdf_text;
  std::string urdf_source;
  bool has_semantics = false;
  Semantics semantics;
  std::optional<JointLimitsFile> limits;
  Diagnostics diagnostics;  ///< of indexing: warnings and notes (errors stop loading)

  std::vector<std::string> pose_names;
  std::vector<std::size_t> pose_to_urdf;  ///< pose index → index in urdf.joints
  std::vector<Chain> chains;
  std::vector<Group> groups;
  std::vector<Contact> contacts;
  std::vector<std::vector<int>> joint_owner_chains;  ///< per pose index
  std::vector<int> joint_group;                      ///< per pose index, -1 when none
  std::vector<PoseMimic> pose_mimics;                ///< masters before their followers

  detail::NameIndex joint_index, chain_index, group_index, contact_index;

  /// KDL's view of the model, built on the first call of kdl_view() (Model::kdl_tree,
  /// Model::kdl_chain): most runs use none of it, and building it opens KDL.
  struct KdlView {
    std::unique_ptr<KDL::Tree> tree;
    std::vector<KDL::Chain> chains_full;  ///< per chain, to last_link_virtual when given
    std::vector<KDL::Chain> chains_real;  ///< per chain, to last_link
  };
  const KdlView& kdl_view() const;

  /// Builds the pose, chains, groups and contacts, reporting every rule broken.
  void index(Diagnostics& diagnostics);

  /// The Model an indexed Impl stands for (checks build one without parsing the URDF again).
  static Model as_model(std::shared_ptr<const Impl> impl);

private:
  // A Model's Impl is shared and const once loaded; its KDL view is built once, by whichever
  // thread asks first.
  mutable std::mutex kdl_mutex_;
  mutable std::unique_ptr<const KdlView> kdl_view_;
  mutable std::atomic<const KdlView*> kdl_view_ready_{nullptr};
};

}  // namespace rmodel
