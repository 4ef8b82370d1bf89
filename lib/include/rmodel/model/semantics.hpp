#pragma once
#include "rmodel/export.hpp"
/// @file semantics.hpp
/// The semantic description of a robot: kinematic chains, joint groups and contacts, as
/// declared (before they are checked against a URDF). Declaration order matters: it
/// defines chain, group and joint indices in the full sorted pose.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kdl/frames.hpp>

#include "rmodel/base/diagnostic.hpp"
#include "rmodel/xacro/xacro.hpp"

namespace rmodel {

/// A chain parameter beyond the four rmodel knows, kept as written: a `.cpf` chain's
/// `<simple name= type=><value>` (the original service let chains carry any PropertyBag
/// member).
struct RMODEL_API ChainExtra {
  std::string name;
  std::string type;   ///< the PropertyBag type, e.g. "double", "string", "bool"
  std::string value;  ///< the text of <value>
  bool operator==(const ChainExtra&) const = default;
};

/// A kinematic chain as declared. Empty strings mean "not given".
struct RMODEL_API ChainSpec {
  std::string name;
  std::string first_link;
  std::string last_link;
  std::string last_link_virtual;  ///< optional end of the chain's virtual joints
  std::string default_contact;    ///< optional name of a ContactSpec
  std::string description;        ///< free text, kept for lossless conversion
  int line = 0;                   ///< 1-based line in the source file, 0 if unknown
  std::vector<ChainExtra> extra = {};  ///< further parameters, in declaration order
  bool operator==(const ChainSpec&) const = default;
};

/// A joint group as declared: whole chains plus extra joints outside every chain, and links
/// whose parent joints join the group (SRDF `<link>`, as MoveIt builds groups).
struct RMODEL_API GroupSpec {
  std::string name;
  std::vector<std::string> chains;
  std::vector<std::string> joints;
  std::string description;
  int line = 0;
  std::vector<std::string> links = {};  ///< their parent joints are the group's (after `joints`)
  bool operator==(const GroupSpec&) const = default;
};

/// A named set of contact points, in the frame of a chain's last link (metres).
struct RMODEL_API ContactSpec {
  std::string name;
  std::vector<KDL::Vector> points;
  std::string description;
  int line = 0;
  bool operator==(const ContactSpec& other) const;
};

/// A named joint configuration (SRDF group_state): joint name → value (rad or m).
struct RMODEL_API NamedPose {
  std::string name;
  std::string group;
  std::vector<std::pair<std::string, double>> joints;
  int line = 0;
  bool operator==(const NamedPose&) const = default;
};

/// An SRDF end effector: a group attached to a parent link. Kept for tools; rmodel's
/// indexing does not use it.
struct RMODEL_API EndEffector {
  std::string name;
  std::string parent_link;   ///< link the end effector is attached to
  std::string group;         ///< group of the end effector's joints (SRDF `group`)
  std::string parent_group;  ///< optional SRDF `parent_group`, empty when not given
  int line = 0;
  bool operator==(const EndEffector&) const = default;
};

/// An SRDF virtual joint: how the URDF root attaches to an outside frame (e.g. a floating
/// base in `odom`). It is not a URDF joint and is not part of the full pose.
struct RMODEL_API VirtualJoint {
  std::string name;
  std::string type;          ///< "fixed", "floating" or "planar"
  std::string parent_frame;  ///< outside frame, e.g. "odom_combined"
  std::string child_link;    ///< URDF link attached to it (normally the root)
  int line = 0;
  bool operator==(const VirtualJoint&) const = default;
};

/// A pair of links of an SRDF collision matrix (`<disable_collisions>` or
/// `<enable_collisions>`), as written: names as given (without surrounding spaces).
struct RMODEL_API CollisionPair {
  std::string link1;
  std::string link2;
  std::string reason;  ///< free text ("Adjacent", "Never", ...), empty when not given
  int line = 0;
  bool operator==(const CollisionPair&) const = default;
};

/// A link whose collisions are off by default (`<disable_default_collisions link=>`).
struct RMODEL_API CollisionDefault {
  std::string link;
  int line = 0;
  bool operator==(const CollisionDefault&) const = default;
};

/// An SRDF's collision matrix, each list in file order. MoveIt builds its allowed collision
/// matrix from it in this order: every pair of links is checked; the `disabled` pairs are
/// allowed; each `disabled_default` link is allowed with every link; the `enabled` pairs are
/// checked again. rmodel keeps it as written (kinematics do not use it) and checks its names
/// against the URDF (`collision-*` codes, docs/design.md "Interop and CI guards").
struct RMODEL_API CollisionMatrix {
  std::vector<CollisionPair> disabled;             ///< `<disable_collisions>`
  std::vector<CollisionPair> enabled;              ///< `<enable_collisions>` (newer srdfdom)
  std::vector<CollisionDefault> disabled_default;  ///< `<disable_default_collisions>` (newer srdfdom)
  [[nodiscard]] bool empty() const noexcept {
    return disabled.empty() && enabled.empty() && disabled_default.empty();
  }
  bool operator==(const CollisionMatrix&) const = default;
};

/// The whole semantic description. `source` names the file it came from (for messages).
struct RMODEL_API Semantics {
  std::vector<ChainSpec> chains;
  std::vector<GroupSpec> groups;
  std::vector<ContactSpec> contacts;
  std::vector<NamedPose> poses;
  std::vector<EndEffector> end_effectors;   ///< from SRDF (or rmodel JSON)
  std::vector<VirtualJoint> virtual_joints; ///< from SRDF (or rmodel JSON)
  CollisionMatrix collisions;               ///< from SRDF (or rmodel JSON)
  std::string source;
  /// Things the reader accepted but could not fully express (ignored properties, SRDF
  /// constructs without an rmodel equivalent); never errors.
  std::vector<Diagnostic> warnings;
  /// The SRDF text these semantics were read from (parse_srdf; a `.srdf.xacro` expanded),
  /// unchanged, so that it can be published whole as MoveIt publishes it (`--tf` writes it on
  /// `/robot_description_semantic`); empty when they come from another format.
  std::string srdf = {};
  /// Equality of content; `source`, line numbers and `srdf` are not compared.
  [[nodiscard]] bool same_content(const Semantics& other) const;
};

/// Serialisation formats of a semantic description.
enum class SemanticsFormat { cpf, json, srdf };

/// Parses an OROCOS `.cpf` PropertyBag file (`chains`, `groups`, `contacts` structs).
/// @throws ParseError with file and line on malformed XML or unexpected structure.
RMODEL_API Semantics parse_cpf(std::string_view text, const std::string& source_name);

/// Parses rmodel's native JSON semantics (see share/rmodel/schema/semantics.schema.json).
/// @throws ParseError with file and line.
RMODEL_API Semantics parse_semantics_json(std::string_view text, const std::string& source_name);

/// Guesses the format from the content (first non-blank character and root element),
/// falling back to the file extension. Returns nullopt when neither tells.
RMODEL_API std::optional<SemanticsFormat> detect_semantics_format(std::string_view text,
                                                        std::string_view file_name);

/// Parses a MoveIt SRDF (`<robot>` with groups, group states, end effectors, virtual
/// joints) into rmodel's semantics without looking at the URDF: a group's `<chain>`
/// becomes a chain named after the group, `<joint>`s become the group's joints,
/// `<group>` subgroups are merged, `group_state`s become named poses, the collision matrix
/// is kept in `Semantics::collisions`. Every construct
/// rmodel cannot express is reported in `Semantics::warnings` with its line (see
/// docs/design.md, "Interop and CI guards").
/// @throws ParseError with file and line on malformed XML or a malformed SRDF element.
RMODEL_API Semantics parse_srdf(std::string_view text, const std::string& source_name);

/// Parses text in the given (or detected) format.
RMODEL_API Semantics parse_semantics(std::string_view text, const std::string& source_name,
                          std::optional<SemanticsFormat> format = std::nullopt);

/// Reads and parses a semantics file ("-" reads stdin). A xacro file (MoveIt's
/// `.srdf.xacro`, see is_xacro()) is expanded first, with `xacro`'s arguments and package
/// paths; errors in it are given at the xacro source line.
/// @throws IoError when unreadable, ParseError when malformed or when the xacro does not expand.
RMODEL_API Semantics load_semantics(const std::string& path, std::optional<SemanticsFormat> format = std::nullopt,
                                    const XacroOptions& xacro = {});

/// Writes `.cpf` XML that parse_cpf reads back to the same content.
RMODEL_API std::string to_cpf(const Semantics& semantics);

/// Writes rmodel JSON (2-space indented) that parse_semantics_json reads back to the same
/// content.
RMODEL_API std::string to_semantics_json(const Semantics& semantics);

}  // namespace rmodel
