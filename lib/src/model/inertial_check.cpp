// The inertial plausibility of `check`, read on the URDF's XML. The rule that needs the
// dynamics (joints too weak for their own weight) is composed above kinematics, in
// lib/src/check/holding_weight.cpp (docs/architecture.md, "Layers").

#include "model/inertial_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>
#include <tinyxml2.h>

#include "rmodel/base/error.hpp"

namespace rmodel::detail {
namespace {

/// The rounding of written moments, relative to the largest: the values of a URDF are
/// decimals, and one written with six significant digits (printf's %g, a C++ stream's
/// default) is off by up to half a unit of its sixth digit. A body on the bound of a
/// triangle inequality (a thin disc: izz = ixx + iyy) written so may break it by about 1e-5
/// of its largest moment; a moment that small beside the largest is zero.
constexpr double kRounding = 1e-5;

double attribute_number(const tinyxml2::XMLElement* element, const char* name) {
  double value = 0.0;
  if (element) (void)element->QueryDoubleAttribute(name, &value);
  return value;
}

/// The moment (of three) that breaks a triangle inequality by more than `slack`, or -1.
int broken_triangle(const std::array<double, 3>& m, double slack) {
  for (int k = 0; k < 3; ++k)
    if (m[(k + 1) % 3] + m[(k + 2) % 3] < m[k] - slack) return k;
  return -1;
}

std::string short_number(double v) { return fmt::format("{:.6g}", v); }

void check_one_inertial(const tinyxml2::XMLElement* inertial, const std::string& link, const std::string& source,
                        Diagnostics& out) {
  const auto* mass_element = inertial->FirstChildElement("mass");
  const auto* inertia_element = inertial->FirstChildElement("inertia");
  const double mass = attribute_number(mass_element, "value");
  const std::array<double, 6> i{attribute_number(inertia_element, "ixx"), attribute_number(inertia_element, "ixy"),
                                attribute_number(inertia_element, "ixz"), attribute_number(inertia_element, "iyy"),
                                attribute_number(inertia_element, "iyz"), attribute_number(inertia_element, "izz")};
  const bool zero_inertia = std::all_of(i.begin(), i.end(), [](double v) { return v == 0.0; });
  const int mass_line = (mass_element ? mass_element : inertial)->GetLineNum();
  const int inertia_line = (inertia_element ? inertia_element : inertial)->GetLineNum();
  if (mass == 0.0 && zero_inertia) return;  // a massless frame, written out
  if (!(mass > 0.0))
    out.add(Severity::error, {source, mass_line}, "inertial-mass",
            fmt::format("link '{}': <mass value=\"{}\"> with a non-zero inertia: a mass is > 0 (leave out "
                        "<inertial> for a massless link)",
                        link, short_number(mass)));
  if (zero_inertia) {
    out.add(Severity::warning, {source, inertia_line}, "inertia-zero-moment",
            fmt::format("link '{}': a mass of {} kg with a zero <inertia>: a point mass, which no body of any size "
                        "is",
                        link, short_number(mass)));
    return;
  }
  Eigen::Matrix3d tensor;
  tensor << i[0], i[1], i[2], i[1], i[3], i[4], i[2], i[4], i[5];
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(tensor, Eigen::EigenvaluesOnly);
  const Eigen::Vector3d principal = eigen.eigenvalues();  // ascending
  const double rounding = kRounding * principal.cwiseAbs().maxCoeff();
  // Moments within rounding of zero are zero: (0, 0, 3e-06), not (-1.28198e-22, 2.22045e-22, 3e-06).
  std::array<double, 3> moments{};
  for (int k = 0; k < 3; ++k) moments[k] = std::abs(principal(k)) <= rounding ? 0.0 : principal(k);
  const std::string shown =
      fmt::format("{}, {}, {}", short_number(moments[0]), short_number(moments[1]), short_number(moments[2]));
  if (moments[0] < 0.0) {
    out.add(Severity::error, {source, inertia_line}, "inertia-not-positive",
            fmt::format("link '{}': <inertia> has a negative principal moment ({} kg·m²): no body has it", link,
                        shown));
    return;
  }
  // The triangle inequalities, on the moments as written (what the line shows) and on the
  // principal ones (which the written ones may hide), beyond rounding.
  static constexpr const char* kNames[3] = {"ixx", "iyy", "izz"};
  const std::array<double, 3> written{i[0], i[3], i[5]};
  const double written_rounding = kRounding * std::max({written[0], written[1], written[2]});
  if (const int k = broken_triangle(written, written_rounding); k >= 0) {
    out.add(Severity::error, {source, inertia_line}, "inertia-triangle",
            fmt::format("link '{}': {} + {} = {} is less than {} = {}: no body has these moments of inertia", link,
                        kNames[(k + 1) % 3], kNames[(k + 2) % 3],
                        short_number(written[(k + 1) % 3] + written[(k + 2) % 3]), kNames[k],
                        short_number(written[k])));
    return;
  }
  if (broken_triangle(moments, rounding) >= 0) {
    out.add(Severity::error, {source, inertia_line}, "inertia-triangle",
            fmt::format("link '{}': its principal moments of inertia break the triangle inequality ({} + {} < {} "
                        "kg·m²): no body has this inertia",
                        link, short_number(moments[0]), short_number(moments[1]), short_number(moments[2])));
    return;
  }
  if (moments[0] == 0.0)
    out.add(Severity::warning, {source, inertia_line}, "inertia-zero-moment",
            fmt::format("link '{}': a principal moment of inertia is zero ({} kg·m²): a thin rod, which no body of "
                        "any thickness is",
                        link, shown));
}

}  // namespace

void check_inertials(const tinyxml2::XMLElement& robot, const std::string& source, Diagnostics& out) {
  for (const auto* link = robot.FirstChildElement("link"); link; link = link->NextSiblingElement("link")) {
    const auto* inertial = link->FirstChildElement("inertial");
    if (!inertial) continue;
    const char* name = link->Attribute("name");
    check_one_inertial(inertial, name ? name : "", source, out);
  }
}

}  // namespace rmodel::detail
