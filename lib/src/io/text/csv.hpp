#pragma once
// Internal: the wide CSV table reader (rules in rmodel/io/message.hpp).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/read/builder.hpp"
#include "rmodel/io/format.hpp"
#include "rmodel/io/message.hpp"

namespace rmodel::io::detail {

/// Splits a CSV line into cells (quotes removed, blanks around unquoted cells trimmed;
/// a doubled quote inside a quoted cell is left doubled). False with `error` on a broken
/// quote.
bool split_csv(std::string_view line, std::vector<std::string_view>& cells, std::string& error);

/// What the reader's options say about CSV columns (ReaderOptions).
struct CsvOptions {
  std::string time_column;
  std::string column_prefix;
  TimeSource time = TimeSource::Header;
};

class CsvTable {
public:
  /// Sets the column rules; call before the header.
  void configure(CsvOptions options) { options_ = std::move(options); }

  /// True once a header was read.
  [[nodiscard]] bool has_header() const noexcept { return has_header_; }

  /// Reads the header row. Returns "" or a description of the problem columns (which are
  /// then ignored; the table is usable either way).
  std::string set_header(std::string_view line);

  /// Reads a data row of line `line_no`. False with `error` when the row is bad.
  bool parse_row(std::string_view line, std::size_t line_no, std::string& error);

  /// True while the current row has messages left to emit().
  [[nodiscard]] bool pending() const noexcept { return next_group_ < group_count_ || support_pending_; }

  /// Stores the next message of the current row in `out`; `names` writes name lists.
  void emit(Message& out, StringListSink& names);

private:
  enum class ColumnKind : std::uint8_t { Ignore, Time, Cycle, Joint, Support, RosName, RosValue, RosStamp, RosLogTime };
  struct Column {
    ColumnKind kind = ColumnKind::Ignore;
    std::uint32_t index = 0;  ///< joint or chain index
    std::uint8_t field = 0;   ///< 0 position, 1 velocity, 2 effort
  };

  struct HeaderScan;
  Column header_column(std::size_t c, const std::string& prefix, HeaderScan& scan);
  void joint_column(std::size_t c, const std::string& name, std::string_view joint, int field, HeaderScan& scan,
                    Column& col);
  void support_column(std::size_t c, const std::string& name, HeaderScan& scan, Column& col);
  std::string set_rostopic_header();
  bool parse_rostopic_row(std::size_t line_no, std::string& error);
  void emit_rostopic(Message& out, StringListSink& names);

  CsvOptions options_;
  bool has_header_ = false;
  bool rostopic_ = false;  ///< `rostopic echo -p` layout: names in the rows (field.nameK)
  std::size_t ros_names_ = 0;        ///< field.nameK columns
  std::size_t ros_count_[3] = {};    ///< field.positionK / velocityK / effortK columns
  std::vector<std::string_view> ros_name_cells_;  ///< per K: the row's name cell
  std::vector<std::uint8_t> ros_have_;            ///< per field: 0 absent, 1 present
  std::vector<Column> columns_;
  std::vector<std::string> joints_;  ///< joint names in order of first column
  std::vector<std::string> chains_;  ///< chains of support/<chain> columns

  // Current row.
  std::vector<std::string_view> cells_;
  std::vector<double> values_;          ///< joints_.size() × 3
  std::vector<std::uint8_t> mask_;      ///< per joint: bit f set when field f is present
  std::vector<double> support_values_;  ///< per chain
  std::vector<std::uint8_t> support_present_;
  Time t_{};  ///< the row's time
  bool has_t_ = false;
  bool has_cycle_ = false;
  std::int64_t cycle_ = 0;
  std::size_t line_ = 0;
  std::uint8_t groups_[7] = {};
  int group_count_ = 0;
  int next_group_ = 0;
  bool support_pending_ = false;
};

}  // namespace rmodel::io::detail
