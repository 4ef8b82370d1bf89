#include "io/csv.hpp"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "io/numbers.hpp"

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

std::string CsvTable::set_header(std::string_view line) {
  has_header_ = true;
  columns_.clear();
  joints_.clear();
  chains_.clear();
  std::string problems;
  auto problem = [&](std::size_t col, std::string_view name, const std::string& what) {
    if (!problems.empty()) problems += "; ";
    problems += fmt::format("column {} '{}': {}", col + 1, name, what);
  };
  if (!split_csv(line, cells_, problems)) {
    problems = "bad header: " + problems;
    return problems;
  }
  std::unordered_map<std::string, std::uint32_t> joint_index, chain_index;
  std::vector<std::uint8_t> seen_fields;  // per joint: fields already given a column
  bool have_time = false, have_cycle = false;
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const std::string name = unquote_doubled(cells_[c]);
    Column col;
    if (name.empty()) {
      problem(c, name, "empty column name (column ignored)");
    } else if (name == "t" || name == "time") {
      if (have_time)
        problem(c, name, "second time column (column ignored)");
      else
        col.kind = ColumnKind::Time;
      have_time = true;
    } else if (name == "cycle") {
      if (have_cycle)
        problem(c, name, "second cycle column (column ignored)");
      else
        col.kind = ColumnKind::Cycle;
      have_cycle = true;
    } else if (name.rfind("support/", 0) == 0) {
      const std::string chain = name.substr(8);
      if (chain.empty()) {
        problem(c, name, "no chain name after 'support/' (column ignored)");
      } else if (chain_index.count(chain)) {
        problem(c, name, "duplicate column (column ignored)");
      } else {
        col.kind = ColumnKind::Support;
        col.index = static_cast<std::uint32_t>(chains_.size());
        chain_index.emplace(chain, col.index);
        chains_.push_back(chain);
      }
    } else {
      std::string joint = name;
      int field = 0;
      if (const auto dot = name.rfind('.'); dot != std::string::npos) {
        const std::string_view suffix = std::string_view(name).substr(dot + 1);
        field = -1;
        for (int f = 0; f < 3; ++f)
          if (suffix == kFieldNames[f]) field = f;
        joint = name.substr(0, dot);
        if (field < 0) {
          problem(c, name,
                  fmt::format("unknown column suffix '.{}' (expected .position, .velocity or "
                              ".effort; column ignored)",
                              suffix));
        } else if (joint.empty()) {
          problem(c, name, "no joint name before the suffix (column ignored)");
          field = -1;
        }
      }
      if (field >= 0) {
        auto [it, inserted] = joint_index.emplace(joint, static_cast<std::uint32_t>(joints_.size()));
        if (inserted) {
          joints_.push_back(joint);
          seen_fields.push_back(0);
        }
        const auto bit = static_cast<std::uint8_t>(1u << field);
        if (seen_fields[it->second] & bit) {
          problem(c, name, "duplicate column (column ignored)");
        } else {
          seen_fields[it->second] |= bit;
          col.kind = ColumnKind::Joint;
          col.index = it->second;
          col.field = static_cast<std::uint8_t>(field);
        }
      }
    }
    columns_.push_back(col);
  }
  values_.assign(joints_.size() * 3, 0.0);
  mask_.assign(joints_.size(), 0);
  support_values_.assign(chains_.size(), 0.0);
  support_present_.assign(chains_.size(), 0);
  group_count_ = next_group_ = 0;
  support_pending_ = false;
  return problems;
}

bool CsvTable::parse_row(std::string_view line, std::size_t line_no, std::string& error) {
  group_count_ = next_group_ = 0;
  support_pending_ = false;
  if (!split_csv(line, cells_, error)) return false;
  if (cells_.size() != columns_.size()) {
    error = fmt::format("expected {} cells as in the header, got {}", columns_.size(), cells_.size());
    return false;
  }
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
      case ColumnKind::Time:
        t_ = x;
        has_t_ = true;
        break;
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
  out.has_stamp = has_t_;
  out.cycle.reset();
  out.stamp_ns.reset();
  if (has_cycle_) out.cycle = cycle_;
  out.line = line_;
  out.item = 0;
  const double stamp = has_t_ ? t_ : 0.0;
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
