#include "rmodel/io/message.hpp"

namespace rmodel::io {

std::optional<SizeProblem> check_sizes(const JointState& s) noexcept {
  const std::size_t n = s.name.size();
  if (!s.position.empty() && s.position.size() != n)
    return SizeProblem{"position", n, s.position.size()};
  if (!s.velocity.empty() && s.velocity.size() != n)
    return SizeProblem{"velocity", n, s.velocity.size()};
  if (!s.effort.empty() && s.effort.size() != n) return SizeProblem{"effort", n, s.effort.size()};
  return std::nullopt;
}

std::optional<SizeProblem> check_sizes(const SupportState& s) noexcept {
  const std::size_t n = s.name.size();
  if (!s.support.empty() && s.support.size() != n)
    return SizeProblem{"support", n, s.support.size()};
  if (!s.contact.empty() && s.contact.size() != n)
    return SizeProblem{"contact", n, s.contact.size()};
  return std::nullopt;
}

std::optional<SizeProblem> check_sizes(const Message& m) noexcept {
  switch (m.kind) {
    case MessageKind::Joint: return check_sizes(m.joint);
    case MessageKind::Support: return check_sizes(m.support);
    case MessageKind::Sync: break;
  }
  return std::nullopt;
}

}  // namespace rmodel::io
