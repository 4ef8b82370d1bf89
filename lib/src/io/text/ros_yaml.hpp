#pragma once
// Internal: the YAML that `ros2 topic echo` and ROS 1 `rostopic echo` print, one `---`
// separated document per message (rules in rmodel/io/message.hpp, "YAML").
//
// A small hand parser rather than yaml-cpp: the documents have one narrow shape (block or
// flow mappings and sequences of plain or quoted scalars, no anchors, tags or multi-line
// scalars), a message must be read with no allocation once warm (yaml-cpp builds a node tree
// of its own per document), and errors must name the exact input line of the bad element.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/read/builder.hpp"
#include "io/text/trajectory.hpp"
#include "rmodel/io/message.hpp"
#include "rmodel/io/reader.hpp"

namespace rmodel::io::detail {

/// True when `line` (the first non-blank line of an input) starts a YAML echo stream: `---`,
/// `key:` / `key: value` with a plain identifier key, `{` followed by an unquoted key, or a
/// `#` comment (of the text formats rmodel reads, only YAML has comments).
bool looks_like_ros_yaml(std::string_view line) noexcept;

/// True when `line` ends a document: `---` (optionally followed by blanks) or `...`.
bool is_document_separator(std::string_view line) noexcept;

/// One document being collected line by line, then parsed into a message.
class RosYamlDocument {
public:
  /// Appends a line (without its newline) read from input line `number`. False when the
  /// document would exceed `max_bytes` (the line is not kept).
  bool add_line(std::string_view line, std::size_t number, std::size_t max_bytes);
  [[nodiscard]] bool empty() const noexcept { return starts_.empty(); }
  /// Input line of the document's first line (0 when empty).
  [[nodiscard]] std::size_t first_line() const noexcept { return starts_.empty() ? 0 : numbers_.front(); }
  void clear() noexcept;

  enum class Result {
    Message,  ///< `out` holds a joint state (or a support state / sync tick)
    Pending,  ///< a trajectory: its points were appended to `pending`
    Error,    ///< `error` tells why (line = input line)
    Nothing,  ///< the document was empty (comments only)
  };
  /// Parses the collected document (then clear() it). Reuses `out`'s buffers via `builder`.
  Result parse(MessageBuilder& builder, Message& out, std::vector<PendingItem>& pending, ReadError& error);

private:
  static constexpr std::uint32_t kNone = 0xffffffffU;
  /// A parsed YAML node; children are linked (first, next) in the same vector.
  struct Node {
    enum Kind : std::uint8_t { Null, Scalar, Seq, Map };
    Kind kind = Null;
    bool quoted = false;
    std::string_view key{};   ///< the key, for an entry of a mapping
    std::string_view text{};  ///< a scalar's text (quotes removed, escapes decoded)
    std::size_t pos = 0;      ///< offset in the document where the node starts
    std::uint32_t first = kNone, last = kNone, next = kNone;
    std::uint32_t count = 0;
  };
  struct Failure {
    std::size_t pos;
    std::string reason;
  };
  std::string text_;                  ///< the lines, each ended by '\n'
  std::vector<std::size_t> starts_;   ///< offset of each line in text_
  std::vector<std::size_t> numbers_;  ///< input line number of each line
  std::vector<Node> nodes_;
  std::size_t pos_ = 0;
  int depth_ = 0;

  // Parsing (throws Failure).
  std::uint32_t new_node(int kind, std::size_t pos);
  void append_child(std::uint32_t parent, std::uint32_t child);
  [[nodiscard]] std::size_t line_index(std::size_t pos) const noexcept;
  [[nodiscard]] std::size_t column(std::size_t pos) const noexcept;
  [[nodiscard]] std::size_t line_of(std::size_t pos) const noexcept;
  void skip_spaces() noexcept;
  bool next_content() noexcept;
  void end_of_line(const char* what);
  std::uint32_t parse_block();
  std::uint32_t parse_block_map(std::size_t col);
  std::uint32_t parse_block_seq(std::size_t col);
  std::uint32_t parse_flow();
  std::uint32_t parse_scalar(bool flow);
  std::string_view parse_quoted();
  bool at_map_key() const noexcept;
  void enter(std::size_t pos);

  // Interpretation.
  void fill_message(std::uint32_t root, MessageBuilder& builder);
  void fill_numbers(std::uint32_t node, std::string_view field, std::vector<double>& out);
  void fill_strings(std::uint32_t node, std::string_view field, StringListSink& out);
  void fill_header(std::uint32_t node, MessageBuilder& builder);
  /// `t`: decimal seconds read exactly (time.hpp); null or NaN is no time.
  void fill_time(std::uint32_t node, MessageBuilder& builder);
  std::int64_t integer(std::uint32_t node, std::string_view prefix, std::string_view field);
  double number(std::uint32_t node, std::string_view field, std::size_t element);
  void to_json(std::uint32_t node, std::string& out) const;
};

}  // namespace rmodel::io::detail
