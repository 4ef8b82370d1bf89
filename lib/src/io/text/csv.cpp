#include "io/text/csv.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "io/text/numbers.hpp"

namespace rmodel::io::detail {
namespace {

inline bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string unquote_doubled(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    out.push_back(s[i]);
    if (s[i] == '"' && i + 1 < s.size() && s[i + 1] == '"') ++i;
  }
  return out;
}

constexpr std::string_view kFieldNames[3] = {"position", "velocity", "effort"};

}  // namespace

bool split_csv(std::string_view line, std::vector<std::string_view>& cells, std::string& error) {
  cells.clear();
  const std::size_t n = line.size();
  std::size_t i = 0;
  for (;;) {
    std::size_t j = i;
    while (j < n && is_blank(line[j])) ++j;
    if (j < n && line[j] == '"') {
      const std::size_t start = ++j;
      for (;;) {
        const std::size_t q = line.find('"', j);
        if (q == std::string_view::npos) {
          error = fmt::format("unterminated quoted cell {}", cells.size() + 1);
          return false;
        }
        if (q + 1 < n && line[q + 1] == '"') {
          j = q + 2;
          continue;
        }
        cells.push_back(line.substr(start, q - start));
        i = q + 1;
        while (i < n && is_blank(line[i])) ++i;
        if (i < n && line[i] != ',') {
          error = fmt::format("text after the closing quote of cell {}", cells.size());
          return false;
        }
        break;
      }
    } else {
      std::size_t e = line.find(',', i);
      if (e == std::string_view::npos) e = n;
      cells.push_back(trim(line.substr(i, e - i)));
      i = e;
    }
    if (i >= n) return true;
    ++i;  // the ','
  }
}

namespace {

void add_problem(std::string& problems, std::string_view what) {
  if (!problems.empty()) problems += "; ";
  problems += what;
}

void column_problem(std::string& problems, std::size_t col, std::string_view name, std::string_view what) {
  add_problem(problems, fmt::format("column {} '{}': {}", col + 1, name, what));
}

/// 0 position, 1 velocity, 2 effort; -1 for any other name.
int field_named(std::string_view name) {
  for (int f = 0; f < 3; ++f)
    if (name == kFieldNames[f]) return f;
  return -1;
}

/// The one prefix that every column named by topic shares (PlotJuggler:
/// /joint_states/<joint>/position gives /joint_states/), "" when there is none. Columns of two
/// topics give "" and a problem: picking one would drop the other's joints unsaid.
std::string shared_topic_prefix(const std::vector<std::string_view>& cells, std::string& problems) {
  std::string prefix, other;
  for (const std::string_view cell : cells) {
    if (cell.empty() || cell.front() != '/') continue;
    std::string_view base;
    for (const std::string_view f : kFieldNames) {
      if (cell.size() > f.size() + 1 && cell.substr(cell.size() - f.size()) == f &&
          cell[cell.size() - f.size() - 1] == '/')
        base = cell.substr(0, cell.size() - f.size() - 1);
    }
    const std::size_t slash = base.rfind('/');
    if (base.empty() || slash == std::string_view::npos || slash + 1 == base.size()) continue;
    const std::string_view candidate = base.substr(0, slash + 1);
    if (prefix.empty()) prefix = candidate;
    else if (candidate != prefix && other.empty()) other = candidate;
  }
  if (!other.empty()) {
    add_problem(problems, fmt::format("joint columns of several topics ('{}', '{}'): choose one with a column "
                                      "prefix (ReaderOptions::column_prefix)",
                                      prefix, other));
    prefix.clear();
  }
  return prefix;
}

/// The field of a column named <prefix><joint>/<field>, <prefix><joint>.<field> or
/// <prefix><joint>, its joint in `joint`; -1 for every other column (other topics,
/// header/stamp, ...), which is not a joint's and is ignored without a problem.
int prefixed_joint_field(std::string_view name, std::string_view prefix, std::string_view& joint) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return -1;
  const std::string_view rest = name.substr(prefix.size());
  joint = rest;
  int field = 0;
  if (const auto sep = rest.find_last_of("/."); sep != std::string_view::npos) {
    field = field_named(rest.substr(sep + 1));
    joint = rest.substr(0, sep);
  }
  return joint.empty() ? -1 : field;
}

/// The field of a column named <joint>.<field> or <joint>, its joint in `joint`; -1, with a
/// problem, for an unknown suffix or a suffix without a joint.
int dotted_joint_field(std::size_t col, std::string_view name, std::string_view& joint, std::string& problems) {
  joint = name;
  const auto dot = name.rfind('.');
  if (dot == std::string_view::npos) return 0;
  const std::string_view suffix = name.substr(dot + 1);
  const int field = field_named(suffix);
  joint = name.substr(0, dot);
  if (field < 0) {
    column_problem(problems, col, name,
                   fmt::format("unknown column suffix '.{}' (expected .position, .velocity or .effort; column "
                               "ignored)",
                               suffix));
    return -1;
  }
  if (joint.empty()) {
    column_problem(problems, col, name, "no joint name before the suffix (column ignored)");
    return -1;
  }
  return field;
}

}  // namespace

/// What set_header() has gathered from the columns before the current one, and the problems.
struct CsvTable::HeaderScan {
  std::unordered_map<std::string, std::uint32_t> joint_index, chain_index;
  std::vector<std::uint8_t> seen_fields;  ///< per joint: fields already given a column
  bool have_time = false, have_cycle = false;
  std::string problems;
};

std::string CsvTable::set_header(std::string_view line) {
  has_header_ = true;
  rostopic_ = false;
  columns_.clear();
  joints_.clear();
  chains_.clear();
  HeaderScan scan;
  if (!split_csv(line, cells_, scan.problems)) return "bad header: " + scan.problems;
  if (!cells_.empty() && cells_[0] == "%time") return set_rostopic_header();
  const std::string prefix =
      options_.column_prefix.empty() ? shared_topic_prefix(cells_, scan.problems) : options_.column_prefix;
  for (std::size_t c = 0; c < cells_.size(); ++c) columns_.push_back(header_column(c, prefix, scan));
  if (!options_.time_column.empty() && !scan.have_time)
    add_problem(scan.problems, fmt::format("no time column '{}' (the rows have no time)", options_.time_column));
  values_.assign(joints_.size() * 3, 0.0);
  mask_.assign(joints_.size(), 0);
  support_values_.assign(chains_.size(), 0.0);
  support_present_.assign(chains_.size(), 0);
  group_count_ = next_group_ = 0;
  support_pending_ = false;
  return std::move(scan.problems);
}

CsvTable::Column CsvTable::header_column(std::size_t c, const std::string& prefix, HeaderScan& scan) {
  const std::string name = unquote_doubled(cells_[c]);
  Column col;
  const bool is_time = options_.time_column.empty() ? (name == "t" || name == "time" || name == "__time")
                                                    : name == options_.time_column;
  std::string_view joint;
  if (name.empty()) {
    column_problem(scan.problems, c, name, "empty column name (column ignored)");
  } else if (is_time) {
    if (scan.have_time)
      column_problem(scan.problems, c, name, "second time column (column ignored)");
    else
      col.kind = ColumnKind::Time;
    scan.have_time = true;
  } else if (!prefix.empty()) {
    if (const int field = prefixed_joint_field(name, prefix, joint); field >= 0)
      joint_column(c, name, joint, field, scan, col);
  } else if (name == "cycle") {
    if (scan.have_cycle)
      column_problem(scan.problems, c, name, "second cycle column (column ignored)");
    else
      col.kind = ColumnKind::Cycle;
    scan.have_cycle = true;
  } else if (name.rfind("support/", 0) == 0) {
    support_column(c, name, scan, col);
  } else if (const int field = dotted_joint_field(c, name, joint, scan.problems); field >= 0) {
    joint_column(c, name, joint, field, scan, col);
  }
  return col;
}

// A joint's first column gives it its place.
void CsvTable::joint_column(std::size_t c, const std::string& name, std::string_view joint, int field,
                            HeaderScan& scan, Column& col) {
  auto [it, inserted] = scan.joint_index.emplace(std::string(joint), static_cast<std::uint32_t>(joints_.size()));
  if (inserted) {
    joints_.emplace_back(joint);
    scan.seen_fields.push_back(0);
  }
  const auto bit = static_cast<std::uint8_t>(1u << field);
  if (scan.seen_fields[it->second] & bit) {
    column_problem(scan.problems, c, name, "duplicate column (column ignored)");
    return;
  }
  scan.seen_fields[it->second] |= bit;
  col.kind = ColumnKind::Joint;
  col.index = it->second;
  col.field = static_cast<std::uint8_t>(field);
}

void CsvTable::support_column(std::size_t c, const std::string& name, HeaderScan& scan, Column& col) {
  const std::string chain = name.substr(8);
  if (chain.empty()) {
    column_problem(scan.problems, c, name, "no chain name after 'support/' (column ignored)");
  } else if (scan.chain_index.count(chain)) {
    column_problem(scan.problems, c, name, "duplicate column (column ignored)");
  } else {
    col.kind = ColumnKind::Support;
    col.index = static_cast<std::uint32_t>(chains_.size());
    scan.chain_index.emplace(chain, col.index);
    chains_.push_back(chain);
  }
}

// `rostopic echo -p`: %time,field.header.seq,field.header.stamp,field.header.frame_id,
// field.name0,...,field.position0,...,field.velocity0,...,field.effort0,... (a message per row).
std::string CsvTable::set_rostopic_header() {
  rostopic_ = true;
  ros_names_ = 0;
  ros_count_[0] = ros_count_[1] = ros_count_[2] = 0;
  // An index beyond the column count cannot be a real one: such a column is ignored, so a
  // header cannot make the table allocate more than it has columns.
  const auto columns = static_cast<std::int64_t>(cells_.size());
  auto index_of = [columns](std::string_view digits, std::uint32_t& k) {
    std::int64_t v = 0;
    if (digits.empty() || !to_int64(digits.data(), digits.data() + digits.size(), v) || v < 0 || v >= columns)
      return false;
    k = static_cast<std::uint32_t>(v);
    return true;
  };
  for (const std::string_view name : cells_) {
    Column col;
    std::uint32_t k = 0;
    if (name == "%time") {
      col.kind = ColumnKind::RosLogTime;
    } else if (name == "field.header.stamp") {
      col.kind = ColumnKind::RosStamp;
    } else if (name.substr(0, 10) == "field.name" && index_of(name.substr(10), k)) {
      col.kind = ColumnKind::RosName;
      col.index = k;
      ros_names_ = std::max<std::size_t>(ros_names_, k + 1);
    } else {
      for (std::uint8_t f = 0; f < 3; ++f) {
        const std::string_view field = kFieldNames[f];
        if (name.size() > 6 + field.size() && name.substr(0, 6) == "field." && name.substr(6, field.size()) == field &&
            index_of(name.substr(6 + field.size()), k)) {
          col.kind = ColumnKind::RosValue;
          col.index = k;
          col.field = f;
          ros_count_[f] = std::max<std::size_t>(ros_count_[f], k + 1);
        }
      }
    }
    columns_.push_back(col);
  }
  const std::size_t most = std::max({ros_count_[0], ros_count_[1], ros_count_[2]});
  values_.assign(most * 3, 0.0);
  mask_.assign(most * 3, 0);
  ros_name_cells_.assign(ros_names_, std::string_view{});
  ros_have_.assign(3, 0);
  group_count_ = next_group_ = 0;
  support_pending_ = false;
  if (ros_names_ == 0) return "rostopic CSV without field.name0 columns (not a sensor_msgs/JointState)";
  return {};
}

bool CsvTable::parse_rostopic_row(std::size_t line_no, std::string& error) {
  const std::size_t most = values_.size() / 3;
  std::fill(mask_.begin(), mask_.end(), std::uint8_t{0});
  std::fill(ros_name_cells_.begin(), ros_name_cells_.end(), std::string_view{});
  std::size_t filled[3] = {0, 0, 0};
  std::optional<std::int64_t> stamp, log_time;
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const Column& col = columns_[c];
    const std::string_view cell = cells_[c];
    if (col.kind == ColumnKind::Ignore || cell.empty()) continue;
    if (col.kind == ColumnKind::RosName) {
      ros_name_cells_[col.index] = cell;
      continue;
    }
    if (col.kind == ColumnKind::RosStamp || col.kind == ColumnKind::RosLogTime) {
      std::int64_t ns = 0;
      if (!to_int64(cell.data(), cell.data() + cell.size(), ns)) {
        error = fmt::format("column {}: bad time '{}' (expected integer nanoseconds)", c + 1, cell);
        return false;
      }
      (col.kind == ColumnKind::RosStamp ? stamp : log_time) = ns;
      continue;
    }
    double x = 0.0;
    const NumberStatus st = parse_csv_double(cell, x);
    if (st != NumberStatus::Ok) {
      error = fmt::format("column {}: {} '{}'", c + 1,
                          st == NumberStatus::Overflow ? "number out of the range of double" : "bad number", cell);
      return false;
    }
    values_[col.field * most + col.index] = x;
    if (!mask_[col.field * most + col.index]) ++filled[col.field];
    mask_[col.field * most + col.index] = 1;
  }
  for (std::size_t k = 0; k < ros_names_; ++k) {
    if (ros_name_cells_[k].empty()) {
      error = fmt::format("field.name{} is empty", k);
      return false;
    }
  }
  for (std::uint8_t f = 0; f < 3; ++f) {
    if (filled[f] != 0 && filled[f] != ros_count_[f]) {
      error = fmt::format("{} of the {} field.{}N cells are empty", ros_count_[f] - filled[f], ros_count_[f],
                          kFieldNames[f]);
      return false;
    }
    ros_have_[f] = filled[f] != 0 ? 1 : 0;
  }
  // --time header: field.header.stamp (the %time of the recording when the column is absent);
  // --time log: %time.
  const std::optional<std::int64_t>& chosen = options_.time == TimeSource::Log ? log_time : stamp;
  const std::optional<std::int64_t>& fallback = options_.time == TimeSource::Log ? stamp : log_time;
  const std::optional<std::int64_t> ns = chosen ? chosen : fallback;
  has_t_ = ns.has_value();
  t_ = Time{ns.value_or(0)};
  has_cycle_ = false;
  line_ = line_no;
  group_count_ = ros_names_ > 0 ? 1 : 0;  // without name columns (reported on the header) rows yield nothing
  return true;
}

void CsvTable::emit_rostopic(Message& out, StringListSink& names) {
  next_group_ = group_count_;
  const std::size_t most = values_.size() / 3;
  out.kind = MessageKind::Joint;
  out.has_stamp = has_t_;
  out.cycle.reset();
  out.line = line_;
  out.item = 0;
  JointState& js = out.joint;
  js.stamp = has_t_ ? t_ : Time{};
  names.begin(js.name);
  for (std::size_t k = 0; k < ros_names_; ++k) names.push(ros_name_cells_[k]);
  names.end();
  std::vector<double>* arrays[3] = {&js.position, &js.velocity, &js.effort};
  for (std::size_t f = 0; f < 3; ++f) {
    arrays[f]->clear();
    if (ros_have_[f])
      arrays[f]->insert(arrays[f]->end(), values_.begin() + static_cast<std::ptrdiff_t>(f * most),
                        values_.begin() + static_cast<std::ptrdiff_t>(f * most + ros_count_[f]));
  }
}

bool CsvTable::parse_row(std::string_view line, std::size_t line_no, std::string& error) {
  group_count_ = next_group_ = 0;
  support_pending_ = false;
  if (!split_csv(line, cells_, error)) return false;
  if (cells_.size() != columns_.size()) {
    error = fmt::format("expected {} cells as in the header, got {}", columns_.size(), cells_.size());
    return false;
  }
  if (rostopic_) return parse_rostopic_row(line_no, error);
  std::fill(mask_.begin(), mask_.end(), std::uint8_t{0});
  std::fill(support_present_.begin(), support_present_.end(), std::uint8_t{0});
  has_t_ = has_cycle_ = false;
  bool any_support = false;
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const Column& col = columns_[c];
    const std::string_view cell = cells_[c];
    if (col.kind == ColumnKind::Ignore || cell.empty()) continue;
    if (col.kind == ColumnKind::Cycle) {
      if (!to_int64(cell.data(), cell.data() + cell.size(), cycle_) || cycle_ < 0) {
        error = fmt::format("column {}: bad cycle number '{}' (expected a non-negative integer)",
                            c + 1, cell);
        return false;
      }
      has_cycle_ = true;
      continue;
    }
    if (col.kind == ColumnKind::Time) {
      // Exact decimal seconds (time.hpp); `nan` (what a NaN time was written as) is no time.
      switch (parse_time(cell, t_)) {
        case TimeParseStatus::ok: has_t_ = true; break;
        case TimeParseStatus::out_of_range:
          error = fmt::format("column {}: time '{}' is beyond the range of times (±9223372036.854775807 s)", c + 1,
                              cell);
          return false;
        case TimeParseStatus::invalid: {
          double x = 0.0;
          if (parse_csv_double(cell, x) == NumberStatus::Ok && std::isnan(x)) break;
          error = fmt::format("column {}: bad time '{}'", c + 1, cell);
          return false;
        }
      }
      continue;
    }
    double x = 0.0;
    const NumberStatus st = parse_csv_double(cell, x);
    if (st != NumberStatus::Ok) {
      error = fmt::format("column {}: {} '{}'", c + 1,
                          st == NumberStatus::Overflow ? "number out of the range of double"
                                                       : "bad number",
                          cell);
      return false;
    }
    switch (col.kind) {
      case ColumnKind::Joint:
        values_[col.index * 3 + col.field] = x;
        mask_[col.index] = static_cast<std::uint8_t>(mask_[col.index] | (1u << col.field));
        break;
      case ColumnKind::Support:
        support_values_[col.index] = x;
        support_present_[col.index] = 1;
        any_support = true;
        break;
      default: break;
    }
  }
  line_ = line_no;
  for (const std::uint8_t m : mask_) {
    if (m == 0) continue;
    bool known = false;
    for (int g = 0; g < group_count_; ++g) known = known || groups_[g] == m;
    if (!known) groups_[group_count_++] = m;
  }
  support_pending_ = any_support;
  return true;
}

void CsvTable::emit(Message& out, StringListSink& names) {
  if (rostopic_) {
    emit_rostopic(out, names);
    return;
  }
  out.has_stamp = has_t_;
  out.cycle.reset();
  if (has_cycle_) out.cycle = cycle_;
  out.line = line_;
  out.item = 0;
  const Time stamp = has_t_ ? t_ : Time{};
  if (next_group_ < group_count_) {
    const std::uint8_t m = groups_[next_group_++];
    out.kind = MessageKind::Joint;
    JointState& js = out.joint;
    js.stamp = stamp;
    js.position.clear();
    js.velocity.clear();
    js.effort.clear();
    names.begin(js.name);
    for (std::size_t j = 0; j < joints_.size(); ++j) {
      if (mask_[j] != m) continue;
      names.push(joints_[j]);
      if (m & 1) js.position.push_back(values_[j * 3]);
      if (m & 2) js.velocity.push_back(values_[j * 3 + 1]);
      if (m & 4) js.effort.push_back(values_[j * 3 + 2]);
    }
    names.end();
    return;
  }
  support_pending_ = false;
  out.kind = MessageKind::Support;
  SupportState& ss = out.support;
  ss.stamp = stamp;
  ss.support.clear();
  names.begin(ss.name);
  for (std::size_t c = 0; c < chains_.size(); ++c) {
    if (!support_present_[c]) continue;
    names.push(chains_[c]);
    ss.support.push_back(support_values_[c]);
  }
  names.end();
  names.begin(ss.contact);
  names.end();
}

}  // namespace rmodel::io::detail
