// xacro's load_yaml reads `!degrees` and `!radians` as ROS's xacro does (its load_yaml
// registers them on PyYAML's SafeLoader): the value is an expression, `!degrees` multiplied by
// pi / 180 as math.radians does. The expected values are what ROS's xacro (ros/xacro,
// noetic-devel and ros2) prints for the same files. 175 degrees differs from rosparam's
// reading of joint_limits.yaml by one ulp (test_model_limits.cpp): each reader as its ROS tool.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "rmodel/xacro/xacro.hpp"
#include "test_support.hpp"

namespace rmodel {
namespace {

TEST(XacroYamlAngles, DegreesAndRadiansAsRosXacroReadsThem) {
  const auto dir = test::make_temp_dir("rmodel-xacro-angles-");
  std::ofstream(dir / "u.yaml") << "a: !degrees 175\nb: !radians pi/2\nc: !degrees 2*45\n";
  std::ofstream(dir / "t.xacro")
      << "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">"
         "<xacro:property name=\"y\" value=\"${xacro.load_yaml('u.yaml')}\"/>"
         "<e a=\"${y.a}\" b=\"${y.b}\" c=\"${y.c}\"/></robot>\n";
  const std::string xml = expand_xacro_file((dir / "t.xacro").string(), {}).xml();
  EXPECT_NE(xml.find("<e a=\"3.0543261909900767\" b=\"1.5707963267948966\" c=\"1.5707963267948966\"/>"),
            std::string::npos)
      << xml;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rmodel
