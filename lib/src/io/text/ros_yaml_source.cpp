// ROS echo YAML: `---`-separated documents as `ros2 topic echo` and `rostopic echo` print
// them (parsed by ros_yaml.hpp's RosYamlDocument).
#include <array>

#include "io/formats/format_table.hpp"
#include "io/text/ros_yaml.hpp"
#include "io/read/text_source.hpp"

#include <fmt/format.h>

namespace rmodel::io::detail {
namespace {

class RosYamlSource final : public TextSource {
public:
  using TextSource::TextSource;

  // A message is returned as soon as its separator line arrives (ros2 and rostopic print it
  // after each message).
  std::optional<ReadStatus> next(Message& out) override {
    for (;;) {
      std::string_view line;
      std::size_t number = 0;
      const auto status = context_.next_line(line, number);
      if (status == LineSplitter::Status::WouldBlock) return ReadStatus::WouldBlock;
      if (status == LineSplitter::Status::TooLong) {
        document_.clear();
        skipping_ = true;
        return context_.too_long(number);
      }
      const bool end = status == LineSplitter::Status::End;
      if (!end && !is_document_separator(line)) {
        if (skipping_) continue;
        if (!document_.add_line(line, number, context_.max_line)) {
          const std::size_t first = document_.first_line();
          document_.clear();
          skipping_ = true;
          return context_.fail(first, 0,
                               fmt::format("YAML document longer than {} bytes (skipped up to the next '---')",
                                           context_.max_line));
        }
        continue;
      }
      skipping_ = false;
      if (document_.empty()) {
        if (end) return context_.at_end();
        continue;
      }
      switch (document_.parse(context_.builder, out, context_.pending.items(), context_.error)) {
        case RosYamlDocument::Result::Message: return ReadStatus::Ok;
        case RosYamlDocument::Result::Error: return ReadStatus::Error;  // its lines were content
        case RosYamlDocument::Result::Pending: return std::nullopt;
        case RosYamlDocument::Result::Nothing: break;
      }
      if (end) return context_.at_end();
    }
  }

  // A document is complete only with its separator line: the next message is ready when a
  // separator is buffered (or the input has ended).
  [[nodiscard]] bool input_pending() const noexcept override { return context_.lines.buffered_contains("---"); }

private:
  RosYamlDocument document_;
  bool skipping_ = false;  ///< after an over-long document: its lines, up to the next separator
};

std::unique_ptr<TextSource> make_ros_yaml_source(TextContext& context, const ReaderOptions& /*options*/) {
  return std::make_unique<RosYamlSource>(context);
}

/// `---`, a mapping key at the start of the line, or a flow mapping with an unquoted key:
/// forms no other text format has.
Likeness sniff_ros_yaml(std::string_view line) {
  return skip_text_blanks(line) == 0 && looks_like_ros_yaml(line) ? Likeness::Certain : Likeness::None;
}

constexpr std::array<std::string_view, 1> kYamlAliases = {"yml"};
constexpr std::array<std::string_view, 2> kYamlExtensions = {".yaml", ".yml"};

}  // namespace

extern const FormatDescriptor ros_yaml_format = {
    .name = "yaml",
    .aliases = kYamlAliases,
    .extensions = kYamlExtensions,
    .sniff_line = sniff_ros_yaml,
    .read_text = make_ros_yaml_source,
};

}  // namespace rmodel::io::detail
