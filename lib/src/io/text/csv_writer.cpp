// Wide CSV (see rmodel/io/writer.hpp): a header `t[,cycle],<joint>.<field>…,support/<chain>…`
// from the options or the first joint state, then one row per joint or support state.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/write/format_writer.hpp"
#include "io/write/text_output.hpp"

namespace rmodel::io::detail {
namespace {

// A CSV header cell: quoted when it holds a comma, a quote or blanks at the ends.
void put_csv_name(fmt::memory_buffer& b, std::string_view s) {
  const bool quote = s.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!s.empty() && (s.front() == ' ' || s.back() == ' ' || s.front() == '\t' ||
                                     s.back() == '\t'));
  if (!quote) {
    b.append(s.data(), s.data() + s.size());
    return;
  }
  b.push_back('"');
  for (char c : s) {
    if (c == '"') b.push_back('"');
    b.push_back(c);
  }
  b.push_back('"');
}

constexpr std::string_view kFieldSuffix[3] = {".position", ".velocity", ".effort"};

class CsvWriter final : public FormatWriter {
public:
  explicit CsvWriter(const WriterOptions& options) : opt_(options) {
    fields_ = opt_.csv_fields & (CsvPosition | CsvVelocity | CsvEffort);
  }

  WriteStatus write(const LineParts& m, fmt::memory_buffer& out) override {
    if (m.kind == MessageKind::Sync) return WriteStatus::Skipped;
    if (!header_written_) {
      if (m.kind != MessageKind::Joint && opt_.csv_joints.empty()) return WriteStatus::Skipped;
      write_header(m.kind == MessageKind::Joint ? m.joint : nullptr, out);
    }
    bool partial = false;
    std::fill(have_.begin(), have_.end(), std::uint8_t{0});
    if (m.kind == MessageKind::Joint) {
      const JointState& s = *m.joint;
      const std::vector<int>& cols = columns_of(s.name, joint_index_);
      const std::vector<double>* arrays[3] = {&s.position, &s.velocity, &s.effort};
      for (std::size_t i = 0; i < cols.size(); ++i) {
        if (cols[i] < 0) {
          partial = true;
          continue;
        }
        for (int f = 0; f < 3; ++f) {
          const std::vector<double>& a = *arrays[f];
          if (i >= a.size()) continue;
          if (!(fields_ & (1u << f))) {
            partial = true;
            continue;
          }
          const auto k = static_cast<std::size_t>(cols[i]) * 3 + static_cast<std::size_t>(f);
          values_[k] = a[i];
          have_[k] = 1;
        }
      }
    } else {
      const SupportState& s = *m.support;
      if (opt_.csv_support.empty()) return WriteStatus::Skipped;
      const std::vector<int>& cols = columns_of(s.name, chain_index_);
      const std::size_t base = joints_.size() * 3;
      for (std::size_t i = 0; i < cols.size(); ++i) {
        if (cols[i] < 0 || i >= s.support.size()) {
          partial = true;
          continue;
        }
        values_[base + static_cast<std::size_t>(cols[i])] = s.support[i];
        have_[base + static_cast<std::size_t>(cols[i])] = 1;
      }
    }
    const std::size_t bound = (kDoubleRoom + 1) * (values_.size() + 2) + 2;
    std::vector<NumberSlot>& csv_cache = *caches_.fit(0, values_.size());
    append_bounded(out, bound, [&](Out& o) {
      // Each cell followed by ','; the last ',' becomes the newline.
      if (m.has_stamp) o.time(m.stamp);
      o.put(',');
      if (opt_.csv_cycle) {
        if (m.cycle) o.integer(*m.cycle);
        o.put(',');
      }
      for (std::size_t j = 0; j < joints_.size(); ++j) {
        for (std::size_t f = 0; f < 3; ++f) {
          if (!(fields_ & (1u << f))) continue;
          if (have_[j * 3 + f])
            cached_number(o, values_[j * 3 + f], csv_cache[j * 3 + f], false);
          else
            o.put(',');
        }
      }
      for (std::size_t c = 0; c < opt_.csv_support.size(); ++c) {
        const std::size_t k = joints_.size() * 3 + c;
        if (have_[k])
          cached_number(o, values_[k], csv_cache[k], false);
        else
          o.put(',');
      }
      o.p[-1] = '\n';
    });
    return partial ? WriteStatus::Partial : WriteStatus::Written;
  }

private:
  WriterOptions opt_;
  NumberCaches caches_;  // field[0]: one slot per column
  bool header_written_ = false;
  unsigned fields_ = 0;
  std::vector<std::string> joints_;
  std::unordered_map<std::string, int> joint_index_;
  std::unordered_map<std::string, int> chain_index_;
  std::vector<std::string> last_names_;  // name → column cache for repeated name lists
  std::size_t last_count_ = 0;           // names of last_names_ in use
  std::vector<int> last_cols_;
  std::vector<double> values_;  // joints × 3, then chains
  std::vector<std::uint8_t> have_;

  void write_header(const JointState* first, fmt::memory_buffer& out) {
    joints_ = opt_.csv_joints;
    if (joints_.empty() && first) joints_ = first->name;
    if (fields_ == 0) {
      if (first) {
        if (!first->position.empty()) fields_ |= CsvPosition;
        if (!first->velocity.empty()) fields_ |= CsvVelocity;
        if (!first->effort.empty()) fields_ |= CsvEffort;
      }
      if (fields_ == 0) fields_ = CsvPosition;
    }
    for (std::size_t j = 0; j < joints_.size(); ++j)
      joint_index_.emplace(joints_[j], static_cast<int>(j));
    for (std::size_t c = 0; c < opt_.csv_support.size(); ++c)
      chain_index_.emplace(opt_.csv_support[c], static_cast<int>(c));
    values_.assign(joints_.size() * 3 + opt_.csv_support.size(), 0.0);
    have_.assign(values_.size(), 0);
    out.append(std::string_view("t"));
    if (opt_.csv_cycle) out.append(std::string_view(",cycle"));
    for (const std::string& j : joints_) {
      for (int f = 0; f < 3; ++f) {
        if (!(fields_ & (1u << f))) continue;
        out.push_back(',');
        put_csv_name(out, j + std::string(kFieldSuffix[f]));
      }
    }
    for (const std::string& c : opt_.csv_support) {
      out.push_back(',');
      put_csv_name(out, "support/" + c);
    }
    out.push_back('\n');
    header_written_ = true;
  }

  // Columns of a name list (cached while the list repeats); -1 = not a column.
  const std::vector<int>& columns_of(const std::vector<std::string>& names,
                                     const std::unordered_map<std::string, int>& index) {
    if (&index == last_index_ && names.size() == last_count_ &&
        std::equal(names.begin(), names.end(), last_names_.begin()))
      return last_cols_;
    // Remember the list without freeing strings (a shorter list keeps the surplus ones).
    last_index_ = &index;
    last_count_ = names.size();
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i < last_names_.size())
        last_names_[i].assign(names[i]);
      else
        last_names_.push_back(names[i]);
    }
    last_cols_.resize(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
      const auto it = index.find(names[i]);
      last_cols_[i] = it == index.end() ? -1 : it->second;
    }
    return last_cols_;
  }
  const std::unordered_map<std::string, int>* last_index_ = nullptr;
};

}  // namespace

std::unique_ptr<FormatWriter> make_csv_writer(const WriterOptions& options) {
  return std::make_unique<CsvWriter>(options);
}

}  // namespace rmodel::io::detail
