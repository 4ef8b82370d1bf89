#pragma once
// Internal: a log format's writer behind MessageWriter. MessageWriter keeps the output (file,
// descriptor, stream or string), its buffer and the replacing of an existing file; a
// FormatWriter turns messages into bytes of one format, appended to that buffer. One file
// per format: json_lines_writer.cpp, csv_writer.cpp, ros/mcap_writer.cpp.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "rmodel/io/message.hpp"
#include "rmodel/io/writer.hpp"

namespace rmodel::io::detail {

/// What one message holds (pointers avoid copying a state into a Message).
struct LineParts {
  MessageKind kind = MessageKind::Joint;
  const JointState* joint = nullptr;
  const SupportState* support = nullptr;
  Time stamp{};
  bool has_stamp = true;
  std::optional<std::int64_t> cycle;
};

inline LineParts parts_of(const Message& m) {
  LineParts p;
  p.kind = m.kind;
  p.joint = &m.joint;
  p.support = &m.support;
  p.stamp = m.stamp();
  p.has_stamp = m.has_stamp;
  p.cycle = m.cycle;
  return p;
}

/// Writes messages of one format into MessageWriter's buffer.
class FormatWriter {
public:
  virtual ~FormatWriter() = default;
  /// Appends `m` to `out`.
  virtual WriteStatus write(const LineParts& m, fmt::memory_buffer& out) = 0;
  /// Transforms on /tf or /tf_static (MCAP); other formats skip them.
  virtual WriteStatus write_transforms(std::span<const FrameTransform> /*transforms*/, Time /*stamp*/,
                                       bool /*fixed*/, fmt::memory_buffer& /*out*/) {
    return WriteStatus::Skipped;
  }
  /// The robot description (MCAP); other formats skip it.
  virtual WriteStatus write_robot_description(std::string_view /*urdf*/, Time /*stamp*/,
                                              fmt::memory_buffer& /*out*/) {
    return WriteStatus::Skipped;
  }
  /// A robot's semantics (MCAP); other formats skip them.
  virtual WriteStatus write_semantics(std::string_view /*text*/, SemanticsText /*kind*/, Time /*stamp*/,
                                      fmt::memory_buffer& /*out*/) {
    return WriteStatus::Skipped;
  }
  /// Ends the output (MCAP: the last chunk, the summary and the footer). Once.
  virtual void end(fmt::memory_buffer& /*out*/) {}
};

std::unique_ptr<FormatWriter> make_json_lines_writer(const WriterOptions& options);
std::unique_ptr<FormatWriter> make_csv_writer(const WriterOptions& options);
std::unique_ptr<FormatWriter> make_mcap_writer(const WriterOptions& options);

}  // namespace rmodel::io::detail
