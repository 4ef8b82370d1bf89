#pragma once
// Internal: reading a URDF into rmodel's link/joint tables and a KDL::Tree.
// tinyxml2 is used only behind this header. The values are read as urdfdom 3 reads them
// (docs/design.md, "Parsers"); urdfdom itself is the tests' oracle, not linked.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <kdl/tree.hpp>

namespace tinyxml2 {
class XMLElement;
}

#include "rmodel/base/diagnostic.hpp"
#include "rmodel/model/model.hpp"

namespace rmodel::detail {

/// A URDF as rmodel keeps it: links and joints in declaration order with their lines.
struct UrdfModel {
  std::string robot_name;
  std::string root_link;
  std::vector<LinkInfo> links;
  std::vector<JointInfo> joints;
  std::unordered_map<std::string, std::size_t> link_by_name;
  std::unordered_map<std::string, std::size_t> joint_by_name;
};

/// The model as a KDL::Tree: segments added breadth-first from the root, children in
/// declaration order. Built only when asked (Model::kdl_tree): it opens KDL
/// (base/lazy_kdl.cpp). Returned by pointer: KDL::Tree has no move constructor, and each
/// copy rebuilds the whole tree recursively (its depth in stack frames).
std::unique_ptr<KDL::Tree> build_kdl_tree(const UrdfModel& model);

/// KDL::Rotation::Quaternion's matrix, computed here with the same formula and order of
/// operations (the same bits): every joint origin needs one, and calling KDL's would open
/// KDL at every model load.
KDL::Rotation rotation_from_quaternion(double x, double y, double z, double w);

/// Reads a URDF, collecting every problem found (XML syntax, duplicates, dangling links,
/// several parents, loops, roots, missing limits, zero axes, geometry, malformed numbers,
/// attributes urdfdom requires).
/// Returns the model when no error was found. With `inertials`, also runs check_inertials
/// (inertial_check.hpp) on the document it read, into `inertials`: `check` reads the text once.
std::optional<UrdfModel> analyse_urdf(std::string_view text, const std::string& source, Diagnostics& out,
                                      Diagnostics* inertials = nullptr);

/// A number as urdfdom reads it (urdf::strToDouble); nullopt where urdfdom throws.
std::optional<double> read_urdf_number(std::string_view text);
/// Three numbers as urdfdom reads them (urdf::Vector3::init); nullopt where urdfdom throws.
std::optional<std::array<double, 3>> read_urdf_vector3(std::string_view text);
/// An `<origin>` element as urdfdom reads it (identity where it or an attribute is absent);
/// nullopt when its xyz or rpy is malformed. For the geometry readers (collision/).
std::optional<KDL::Frame> read_urdf_origin(const tinyxml2::XMLElement* origin);

/// Loads a URDF. @throws ParseError / ModelError with file and line for the first problem.
UrdfModel load_urdf(std::string_view text, const std::string& source);

}  // namespace rmodel::detail
