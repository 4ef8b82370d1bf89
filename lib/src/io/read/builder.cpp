#include "io/read/builder.hpp"

namespace rmodel::io::detail {

Key classify_key(std::string_view key) noexcept {
  switch (key.size()) {
    case 1:
      if (key[0] == 't') return Key::T;
      break;
    case 4:
      if (key == "name") return Key::Name;
      if (key == "sync") return Key::Sync;
      break;
    case 5:
      if (key == "cycle") return Key::Cycle;
      break;
    case 6:
      if (key == "effort") return Key::Effort;
      if (key == "header") return Key::Header;
      if (key == "points") return Key::Trajectory;
      break;
    case 7:
      if (key == "support") return Key::Support;
      if (key == "contact") return Key::Contact;
      break;
    case 8:
      if (key == "position") return Key::Position;
      if (key == "velocity") return Key::Velocity;
      break;
    case 10:
      if (key == "trajectory") return Key::Trajectory;
      break;
    case 11:
      if (key == "joint_names") return Key::Trajectory;
      break;
    default: break;
  }
  return Key::Unknown;
}

StampKey classify_stamp_key(std::string_view key) noexcept {
  if (key == "secs" || key == "sec") return StampKey::Secs;
  if (key == "nsecs" || key == "nanosec") return StampKey::Nsecs;
  return StampKey::Unknown;
}

}  // namespace rmodel::io::detail
