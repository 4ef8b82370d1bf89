// rmodel reads a URDF's values itself (lib/src/model/urdf_loader.cpp), as urdfdom reads them:
// it accepts the URDFs ROS tools accept and reads the same numbers. The oracle is urdfdom,
// called by the test (urdf::parseURDF): every value of every joint and link of the sample and
// fixture robots, as bits; numbers written every way (spaces, signs, exponents, overflow,
// underflow, random strings) refused alike or read alike; and urdfdom's required attributes
// and defaults. Where rmodel is stricter than urdfdom (a joint's negative effort limit, a
// zero axis, a dangling link...), other tests say so; the texts here avoid those rules.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <console_bridge/console.h>
#include <fmt/format.h>
#include <kdl/frames.hpp>
#include <urdf_parser/urdf_parser.h>

#include "rmodel/check/check.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/model/model.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

using test::fixture;
using test::read_file;
using test::sample;

/// Counts the errors urdfdom logs (and prints none).
class ErrorCounter : public console_bridge::OutputHandler {
public:
  void log(const std::string&, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) ++errors;
  }
  int errors = 0;
};

urdf::ModelInterfaceSharedPtr urdfdom(const std::string& text, int* logged_errors = nullptr) {
  ErrorCounter counter;
  console_bridge::useOutputHandler(&counter);
  console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_ERROR);
  urdf::ModelInterfaceSharedPtr model = urdf::parseURDF(text);
  console_bridge::restorePreviousOutputHandler();
  if (logged_errors) *logged_errors = counter.errors;
  return model;
}

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

/// rmodel's model of `text`, or null when it refuses the text (with the reason in `error`).
std::unique_ptr<Model> rmodel_read(const std::string& text, std::string* error = nullptr) {
  try {
    return std::make_unique<Model>(Model::from_urdf_string(text, "reader.urdf"));
  } catch (const Error& e) {
    if (error) *error = e.what();
    return nullptr;
  }
}

JointType joint_type(int urdf_type) {
  switch (urdf_type) {
    case urdf::Joint::REVOLUTE: return JointType::revolute;
    case urdf::Joint::CONTINUOUS: return JointType::continuous;
    case urdf::Joint::PRISMATIC: return JointType::prismatic;
    case urdf::Joint::FIXED: return JointType::fixed;
    case urdf::Joint::FLOATING: return JointType::floating;
    case urdf::Joint::PLANAR: return JointType::planar;
    default: return JointType::unknown;
  }
}

#define EXPECT_SAME_BITS(ours, theirs, what) \
  EXPECT_EQ(bits(ours), bits(theirs)) << (what) << ": " << (ours) << " vs urdfdom's " << (theirs)

/// Every value rmodel keeps of a URDF against urdfdom's reading of the same text.
void expect_read_as_urdfdom(const std::string& text, const Model& model) {
  const urdf::ModelInterfaceSharedPtr oracle = urdfdom(text);
  ASSERT_TRUE(oracle) << "urdfdom refuses the text";
  EXPECT_EQ(model.robot_name(), oracle->getName());
  EXPECT_EQ(model.root_link(), oracle->getRoot()->name);
  ASSERT_EQ(model.urdf_joints().size(), oracle->joints_.size());
  for (const auto& [name, joint] : oracle->joints_) {
    SCOPED_TRACE("joint " + name);
    const JointInfo* ours = model.find_urdf_joint(name);
    ASSERT_NE(ours, nullptr);
    EXPECT_EQ(ours->type, joint_type(joint->type));
    EXPECT_EQ(ours->parent_link, joint->parent_link_name);
    EXPECT_EQ(ours->child_link, joint->child_link_name);
    const auto& origin = joint->parent_to_joint_origin_transform;
    EXPECT_SAME_BITS(ours->origin.p.x(), origin.position.x, "origin x");
    EXPECT_SAME_BITS(ours->origin.p.y(), origin.position.y, "origin y");
    EXPECT_SAME_BITS(ours->origin.p.z(), origin.position.z, "origin z");
    const auto& q = origin.rotation;
    const KDL::Rotation rotation = KDL::Rotation::Quaternion(q.x, q.y, q.z, q.w);
    for (int i = 0; i < 9; ++i) EXPECT_SAME_BITS(ours->origin.M.data[i], rotation.data[i], "origin rotation");
    if (ours->movable()) {  // urdfdom leaves 0 0 0 on fixed and floating joints
      EXPECT_SAME_BITS(ours->axis.x(), joint->axis.x, "axis x");
      EXPECT_SAME_BITS(ours->axis.y(), joint->axis.y, "axis y");
      EXPECT_SAME_BITS(ours->axis.z(), joint->axis.z, "axis z");
    }
    ASSERT_EQ(ours->has_limits, joint->limits != nullptr);
    if (joint->limits) {
      EXPECT_SAME_BITS(ours->lower, joint->limits->lower, "lower");
      EXPECT_SAME_BITS(ours->upper, joint->limits->upper, "upper");
      EXPECT_SAME_BITS(ours->velocity_limit, joint->limits->velocity, "velocity");
      EXPECT_SAME_BITS(ours->effort_limit, joint->limits->effort, "effort");
    }
    if (ours->mimic) {  // rmodel drops a mimic of an unknown or fixed joint (the model rules)
      ASSERT_TRUE(joint->mimic);
      EXPECT_EQ(ours->mimic->joint, joint->mimic->joint_name);
      EXPECT_SAME_BITS(ours->mimic->multiplier, joint->mimic->multiplier, "mimic multiplier");
      EXPECT_SAME_BITS(ours->mimic->offset, joint->mimic->offset, "mimic offset");
    }
  }
  ASSERT_EQ(model.links().size(), oracle->links_.size());
  for (const auto& [name, link] : oracle->links_) {
    SCOPED_TRACE("link " + name);
    const LinkInfo* ours = model.find_link(name);
    ASSERT_NE(ours, nullptr);
    ASSERT_EQ(ours->inertial.has_value(), link->inertial != nullptr);
    if (!link->inertial) continue;
    const urdf::Inertial& in = *link->inertial;
    EXPECT_SAME_BITS(ours->inertial->mass, in.mass, "mass");
    EXPECT_SAME_BITS(ours->inertial->com.x(), in.origin.position.x, "com x");
    EXPECT_SAME_BITS(ours->inertial->com.y(), in.origin.position.y, "com y");
    EXPECT_SAME_BITS(ours->inertial->com.z(), in.origin.position.z, "com z");
    // The inertia about the COM in link axes: R I Rᵀ, R from urdfdom's quaternion by KDL.
    const auto& r = in.origin.rotation;
    const KDL::Rotation kdl = KDL::Rotation::Quaternion(r.x, r.y, r.z, r.w);
    Eigen::Matrix3d R, local;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) R(i, j) = kdl(i, j);
    local << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    const Eigen::Matrix3d expected = R * local * R.transpose();
    const double scale = std::max(1.0, expected.cwiseAbs().maxCoeff());
    EXPECT_LE((ours->inertial->inertia - expected).cwiseAbs().maxCoeff(), 1e-15 * scale)
        << ours->inertial->inertia << "\nvs\n" << expected;
  }
}

TEST(UrdfReader, SampleRobotIsReadAsUrdfdomReadsIt) {
  const std::string text = read_file(sample("pony.urdf"));
  expect_read_as_urdfdom(text, Model::from_urdf_string(text, "pony.urdf"));
}

TEST(UrdfReader, FixtureRobotsAreReadAsUrdfdomReadsThem) {
  RMODEL_REQUIRE_FIXTURES();
  for (const char* robot : {"example_robot_data/talos_reduced.urdf", "example_robot_data/panda.urdf",
                            "example_robot_data/solo12.urdf", "sweetie_bot_proto2/sweetie_bot_proto2.urdf",
                            "sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf"}) {
    SCOPED_TRACE(robot);
    const std::string text = read_file(fixture(robot));
    expect_read_as_urdfdom(text, Model::from_urdf_string(text, robot));
  }
}

TEST(UrdfReader, RobotsOfACorpusAreReadAsUrdfdomReadsThem) {
  // RMODEL_URDF_CORPUS=DIR: every *.urdf of DIR, e.g. a checkout of example-robot-data's
  // robots or of a workspace's descriptions. rmodel never accepts what urdfdom refuses, and
  // reads every value of what both accept as urdfdom does.
  const char* corpus = std::getenv("RMODEL_URDF_CORPUS");
  if (corpus == nullptr || *corpus == '\0') GTEST_SKIP() << "set RMODEL_URDF_CORPUS=DIR to compare the URDFs of DIR";
  int compared = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(corpus)) {
    if (entry.path().extension() != ".urdf") continue;
    SCOPED_TRACE(entry.path().string());
    const std::string text = read_file(entry.path());
    std::string error;
    const auto ours = rmodel_read(text, &error);
    const bool theirs = urdfdom(text) != nullptr;
    if (ours) {
      EXPECT_TRUE(theirs) << "rmodel accepts what urdfdom refuses";
      if (theirs) expect_read_as_urdfdom(text, *ours), ++compared;
    } else if (theirs) {
      std::cout << "[ note     ] " << entry.path().filename().string() << ": refused by rmodel only: " << error << "\n";
    }
  }
  std::cout << "[ note     ] " << compared << " robots compared value by value\n";
  EXPECT_GT(compared, 0);
}

/// A two-link robot whose joint (continuous: no <limit> needed) carries `joint_extra` and
/// whose child link carries `link_extra`.
std::string two_links(const std::string& joint_extra, const std::string& link_extra = "",
                      const std::string& type = "continuous") {
  return fmt::format(
      "<robot name=\"r\">\n<link name=\"base\"/>\n<link name=\"arm\">{}</link>\n"
      "<joint name=\"j\" type=\"{}\"><parent link=\"base\"/><child link=\"arm\"/>{}</joint>\n"
      "<link name=\"tip\"/>\n<joint name=\"k\" type=\"continuous\"><parent link=\"arm\"/><child link=\"tip\"/></joint>\n"
      "</robot>\n",
      link_extra, type, joint_extra);
}

/// Both readers on `text`: refused by both, or accepted by both with the same values.
/// urdfdom keeps a link whose <inertial> it cannot read, logging an error: rmodel refuses a
/// malformed number there too, and reads an incomplete inertial as urdfdom does (with a
/// warning), which `incomplete_inertial` says the text has. Counts the verdicts, so that a
/// test can show it saw both.
struct Verdicts {
  int accepted = 0;
  int refused = 0;
};

void expect_same_verdict(const std::string& text, Verdicts& verdicts, bool incomplete_inertial = false) {
  SCOPED_TRACE(text);
  std::string error;
  const auto ours = rmodel_read(text, &error);
  int logged_errors = 0;
  const bool theirs = urdfdom(text, &logged_errors) != nullptr && (logged_errors == 0 || incomplete_inertial);
  ++(theirs ? verdicts.accepted : verdicts.refused);
  ASSERT_EQ(ours != nullptr, theirs) << (ours ? "rmodel accepts what urdfdom refuses"
                                              : "rmodel refuses what urdfdom accepts: " + error);
  if (ours) expect_read_as_urdfdom(text, *ours);
}

/// `origin` (the attributes of an <origin>) in a joint and in an inertial, both readers.
void expect_same_verdict_on_origins(const std::string& origin, Verdicts& verdicts) {
  expect_same_verdict(two_links(fmt::format("<origin {}/>", origin)), verdicts);
  expect_same_verdict(two_links("", fmt::format("<inertial><origin {}/><mass value=\"2\"/><inertia ixx=\"3\" ixy=\"0.1\" "
                                                "ixz=\"0.2\" iyy=\"4\" iyz=\"0.3\" izz=\"5\"/></inertial>",
                                                origin)),
                      verdicts);
}

/// Numbers written the ways people and programs write them, and the ways they go wrong.
std::vector<std::string> written_numbers() {
  std::vector<std::string> texts = {
      "1", "-1", "+1", "0", "-0", "-0.0", "00012", "1.", ".5", "+.5", "-.5e-3", "1e5", "1E5", "1e+05", "1e-05",
      "0.1000000000000000055511151231257827", "3.14159265358979323846264338327950288419716939937510582097494459",
      "123456789012345678901234567890", "1e0000000000000000001", "2.2250738585072011e-308",
      "4.9e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-310", "1e-400", "-1e-400",
      "1.7976931348623157e308", "1.7976931348623159e308", "1e400", "-1e400", "1e309",
      "", " ", ".", "+", "-", "e5", "1e", "1e+", "1e-", "5e", "--1", "+-1", "-+1", "1-", "1+1", "1..2",
      "1.2.3", "1.5e3.2", "0x10", "0x1p3", "inf", "-inf", "nan", "NaN", "infinity", "1,5", "1_0", "1 ", " 1",
      "  1", "\t1", "1\t", "\n1", "1\n", "1 2", "0e0", "0.e1", ".e1", "1.e5", "1d5", "١"};
  std::mt19937 random(20261127);
  const std::string alphabet = "0123456789.+-eE \t";
  std::uniform_int_distribution<std::size_t> length(1, 8), letter(0, alphabet.size() - 1);
  for (int i = 0; i < 1500; ++i) {
    std::string text;
    for (std::size_t n = length(random); n > 0; --n) text += alphabet[letter(random)];
    texts.push_back(text);
  }
  return texts;
}

TEST(UrdfReader, NumbersAreRefusedOrReadAsUrdfdomDoes) {
  // lower = upper: no ordering rule applies; non-finite numbers are refused by urdfdom too.
  Verdicts verdicts;
  for (const std::string& number : written_numbers())
    expect_same_verdict(two_links(fmt::format("<limit lower=\"{0}\" upper=\"{0}\" effort=\"1\" velocity=\"1\"/>",
                                              number), "", "revolute"),
                        verdicts);
  EXPECT_GT(verdicts.accepted, 300);
  EXPECT_GT(verdicts.refused, 300);
}

TEST(UrdfReader, VectorsAreRefusedOrReadAsUrdfdomDoes) {
  // urdfdom splits a vector at spaces only, skipping empty pieces.
  std::vector<std::string> vectors = {"1 2 3", " 1 2 3", "1 2 3 ", "1  2   3", "1 2", "1 2 3 4", "1\t2 3",
                                      "1 2\n3", "1 2 3\n", "\n1 2 3", "1 \t2 3", "1 2 \t3", "1,2,3", "",
                                      "   ", "1 2 x", "+1 -2 .3", "1e400 0 0", "1e-400 0 0"};
  // Pieces: the written numbers (mostly malformed) and as many random doubles written as
  // programs write them (shortest, fixed, scientific, signed, zero-padded).
  std::vector<std::string> numbers = written_numbers();
  std::mt19937 random(20261128);
  std::uniform_real_distribution<double> value(-1e3, 1e3);
  for (int i = 0; i < 500; ++i) {
    const double v = value(random);
    for (const std::string& written : {fmt::format("{}", v), fmt::format("{:.4f}", v), fmt::format("{:e}", v * 1e-7),
                                       fmt::format("{:+}", v), fmt::format("{:09.3f}", v)})
      numbers.push_back(written);
  }
  std::uniform_int_distribution<std::size_t> pick(0, numbers.size() - 1);
  const std::vector<std::string> separators = {" ", "  ", "\t", " \t", "\n "};
  std::uniform_int_distribution<std::size_t> separator(0, separators.size() - 1);
  for (int i = 0; i < 1500; ++i)
    vectors.push_back(numbers[pick(random)] + separators[separator(random)] + numbers[pick(random)] +
                      separators[separator(random)] + numbers[pick(random)]);
  Verdicts verdicts;
  for (const std::string& xyz : vectors) expect_same_verdict_on_origins(fmt::format("xyz=\"{}\"", xyz), verdicts);
  EXPECT_GT(verdicts.accepted, 300);
  EXPECT_GT(verdicts.refused, 300);
}

TEST(UrdfReader, RollPitchYawAreReadAsUrdfdomDoes) {
  // Written rpy, random and special: the origin's rotation is KDL's matrix of urdfdom's
  // quaternion, as bits (expect_read_as_urdfdom), in joints and in inertials.
  std::mt19937_64 random(20261129);
  std::uniform_real_distribution<double> angle(-7.0, 7.0);
  std::vector<std::string> rpys = {"0 0 0", "3.141592653589793 0 0", "0 1.5707963267948966 0",
                                   "0 -1.5707963267948966 0", "1e-300 0 0", "-0 -0 -0", "1e10 1e10 1e10"};
  for (int i = 0; i < 300; ++i) rpys.push_back(fmt::format("{} {} {}", angle(random), angle(random), angle(random)));
  Verdicts verdicts;
  for (const std::string& rpy : rpys)
    expect_same_verdict_on_origins(fmt::format("xyz=\"0 0 1\" rpy=\"{}\"", rpy), verdicts);
  EXPECT_EQ(verdicts.accepted, 2 * static_cast<int>(rpys.size()));
}

TEST(UrdfReader, RequiredAttributesAndDefaultsAreUrdfdoms) {
  const std::vector<std::string> joint_elements = {
      "<limit effort=\"1\" velocity=\"2\"/>",  // lower and upper default to 0
      "<limit lower=\"-1\" upper=\"1\" velocity=\"2\"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><safety_controller k_velocity=\"1\"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><safety_controller k_position=\"1\"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><safety_controller k_velocity=\"x\"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><dynamics/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><dynamics damping=\"0.1\"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><dynamics friction=\"0.1\"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><dynamics damping=\"0.1 \"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><calibration/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><calibration rising=\"0.5\"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><calibration falling=\"x\"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><mimic joint=\"k\"/>",  // multiplier 1, offset 0
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><mimic joint=\"k\" multiplier=\"-2\" offset=\".5\"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><mimic multiplier=\"2\"/>",
      "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/><mimic joint=\"k\" offset=\"1e999\"/>",
      // Only the first <origin> and <limit> count.
      "<origin xyz=\"1 2 3\"/><origin xyz=\"4 5 6\"/><limit effort=\"1\" velocity=\"1\"/><limit effort=\"2\" velocity=\"2\"/>",
  };
  Verdicts verdicts;
  for (const std::string& element : joint_elements) expect_same_verdict(two_links(element, "", "revolute"), verdicts);
  EXPECT_EQ(verdicts.refused, 9);
  // A revolute joint needs a <limit>; a fixed joint's is read, and must be whole, too.
  expect_same_verdict(two_links("", "", "revolute"), verdicts);
  expect_same_verdict(two_links("<limit lower=\"0\"/>", "", "fixed"), verdicts);
  expect_same_verdict(two_links("<limit effort=\"1\" velocity=\"1\"/>", "", "fixed"), verdicts);
  EXPECT_EQ(verdicts.refused, 11);
  // Inertials missing a part: urdfdom logs an error but keeps the link, with zeros from the
  // missing part on (rmodel reads the same and warns, below).
  const std::string limit = "<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/>";
  for (const char* inertial : {
           "<inertial><origin xyz=\"1 2 3\"/><mass value=\"2\"/></inertial>",
           "<inertial><origin xyz=\"1 2 3\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial>",
           "<inertial><mass/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial>",
           "<inertial><mass value=\"2\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\"/></inertial>",
           "<inertial><mass value=\"2\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial>",
           "<inertial/>"})
    expect_same_verdict(two_links(limit, inertial, "revolute"), verdicts, true);
  EXPECT_EQ(verdicts.refused, 11);
}

TEST(UrdfReader, WhatUrdfdomRequiresIsReportedWithItsLine) {
  const std::string text = two_links("\n<limit lower=\"-1\" upper=\"1\" velocity=\"2\"/>", "", "revolute");
  const Diagnostics found = check_model_text(text, "arm.urdf", nullptr, "");
  const auto it = std::find_if(found.items.begin(), found.items.end(),
                               [](const Diagnostic& d) { return d.code == "missing-attribute"; });
  ASSERT_NE(it, found.items.end());
  EXPECT_EQ(it->severity, Severity::error);
  EXPECT_EQ(it->where.file, "arm.urdf");
  EXPECT_EQ(it->where.line, 5);
  EXPECT_EQ(it->message, "joint 'j': <limit> needs an effort attribute");
  std::string error;
  EXPECT_EQ(rmodel_read(text, &error), nullptr);
  EXPECT_NE(error.find("reader.urdf:5"), std::string::npos) << error;
}

TEST(UrdfReader, AnIncompleteInertialIsReadAsRosReadsItWithAWarning) {
  const std::string text = two_links("<limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"3\"/>",
                                     "\n<inertial><origin xyz=\"1 2 3\"/><mass value=\"2\"/></inertial>", "revolute");
  const Diagnostics found = check_model_text(text, "arm.urdf", nullptr, "");
  const auto it = std::find_if(found.items.begin(), found.items.end(),
                               [](const Diagnostic& d) { return d.code == "inertial-incomplete"; });
  ASSERT_NE(it, found.items.end());
  EXPECT_EQ(it->severity, Severity::warning);
  EXPECT_EQ(it->where.line, 4);
  EXPECT_NE(it->message.find("link 'arm'"), std::string::npos) << it->message;
  const auto model = rmodel_read(text);
  ASSERT_NE(model, nullptr);
  const LinkInfo* arm = model->find_link("arm");
  ASSERT_TRUE(arm->inertial);
  EXPECT_EQ(arm->inertial->mass, 2.0);
  EXPECT_EQ(arm->inertial->com.z(), 3.0);
  EXPECT_TRUE(arm->inertial->inertia.isZero(0.0));
}

TEST(UrdfReader, ANumberWithASpaceAfterItIsRefusedSayingWhy) {
  const std::string text = two_links("<limit lower=\"-1\" upper=\"1 \" effort=\"2\" velocity=\"3\"/>", "", "revolute");
  ASSERT_EQ(urdfdom(text), nullptr);  // urdfdom refuses it too
  const Diagnostics found = check_model_text(text, "arm.urdf", nullptr, "");
  ASSERT_EQ(found.count(Severity::error), 1U);
  EXPECT_EQ(found.items.front().code, "bad-number");
  EXPECT_EQ(found.items.front().message,
            "joint 'j': <limit upper=\"1 \"> is not a finite number (URDF readers refuse white space after it)");
}

}  // namespace
}  // namespace rmodel
