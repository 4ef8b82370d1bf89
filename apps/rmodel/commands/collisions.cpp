// rmodel collisions: the allowed-collision matrix of a robot as MoveIt's Setup Assistant
// computes it, as text, JSON, `<disable_collisions>` lines or a whole SRDF; --update rewrites
// the matrix of an SRDF in place and keeps every other byte.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "command.hpp"
#include "options/collision_options.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"
#include "options/value_kind.hpp"
#include "rmodel/collision/collision.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/base/file.hpp"
#include "rmodel/io/output_file.hpp"
#include "terminal.hpp"

namespace rmodel::cli {
namespace {

namespace col = rmodel::collision;

/// Writes `text` to `path` whole or not at all (io::OutputFile: written aside, renamed over it).
void write_whole(const std::string& path, const std::string& text) {
  io::OutputFile file = io::OutputFile::open(path);
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(file.fd(), text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw WriteError(path, "write failed");
    }
    done += static_cast<std::size_t>(n);
  }
  file.commit();
}

class CollisionsCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(
        "The allowed-collision matrix as MoveIt's Setup Assistant computes it: pairs of links that are Adjacent "
        "(joined by a joint, through links without geometry), Default (colliding at the default pose), Always "
        "(colliding in nearly every random pose) or Never (colliding in none of --samples random poses within the "
        "limits); as text, JSON, SRDF <disable_collisions> lines (with -s: the whole SRDF, its matrix replaced), "
        "or written into an SRDF with --update");
    model_.add_to(app);
    update_ = app.add_option("--update", update_path_,
                             "Replace the <disable_collisions> of this SRDF file by the computed ones, in place "
                             "(atomically); every other byte of the file is kept, and so are entries whose reason is "
                             "not Adjacent, Default, Always or Never")
                  ->type_name("FILE")
                  ->check(CLI::ExistingFile);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::srdf}, OutputFormat::text, [this] {
      if (update_->count() > 0 && (out_.format_given() || out_.path_given()))
        OutputOptions::refuse("--update writes the SRDF it names: -f and -o do not apply");
    });
    app.add_option("--samples", options_.samples, "Random poses sampled for Never (MoveIt's default)")
        ->check(non_negative_number())
        ->default_val(options_.samples);
    app.add_option("--seed", options_.seed, "Seed of the random poses (the result depends only on it)")
        ->default_val(options_.seed);
    app.add_option("--threads", options_.threads, "Threads sampling (0: one per core)")->default_val(0);
    with_kind(app.add_option("--show-sample", show_sample_,
                             "Print random pose N of the sampling (with --seed) as joint=value items for `fk --pose`, "
                             "and nothing else: the pose `check --collisions` names in a stale entry's warning"),
              ValueKind::count)
        ->type_name("N")
        ->check(non_negative_number());  // "-3" would otherwise wrap to 2^64 - 3
    app.add_option("--always-fraction", options_.always_fraction,
                   "A pair colliding in more than this fraction of a round of 200 random poses is Always")
        ->check(CLI::Range(0.0, 1.0))
        ->default_val(options_.always_fraction);
  }

  int run() override {
    const ModelSource source = model_.resolve();
    const Model model = Model::load(source);
    const col::CollisionModel cm = col::CollisionModel::build(model, col::geometry_options(source));
    warn_unusable_meshes(cm, "collisions");
    if (show_sample_) {
      const auto q = col::sample_pose(cm, options_.seed, *show_sample_);
      std::string items;
      for (std::size_t i = 0; i < q.size(); ++i)
        items += fmt::format("{}{}={}", i == 0 ? "" : ",", cm.joint_names()[i], q[i]);
      out_.write(items + "\n");
      out_.close();
      return kOk;
    }
    const col::ComputedMatrix matrix = col::compute_collision_matrix(cm, options_);
    if (update_->count() > 0) {
      const std::string text = read_text_file(update_path_);
      const std::string updated = col::replace_disabled_collisions(text, kept(matrix, text, update_path_));
      if (updated != text) write_whole(update_path_, updated);
      terminal::diagnostic(fmt::format("rmodel collisions: {}: {}", display_name(update_path_), summary(matrix)));
      return kOk;
    }
    if (out_.is(OutputFormat::json)) {
      Json doc = json_document("rmodel.collisions");
      doc["robot"] = model.robot_name();
      doc["links"] = matrix.links;
      doc["link_names"] = cm.links();
      doc["pairs"] = matrix.pairs;
      doc["samples"] = matrix.samples;
      doc["seed"] = options_.seed;
      Json counts = Json::object();
      for (col::Reason r : {col::Reason::adjacent, col::Reason::default_pose, col::Reason::always, col::Reason::never})
        counts[std::string(col::to_string(r))] = matrix.count(r);
      doc["disabled_counts"] = counts;
      doc["disabled"] = Json::array();
      for (const auto& d : matrix.disabled)
        doc["disabled"].push_back({{"link1", d.link1}, {"link2", d.link2}, {"reason", d.reason}});
      out_.write(json_text(doc));
    } else if (out_.is(OutputFormat::srdf)) {
      // With an SRDF: that SRDF, its matrix replaced (what --update would write); else the lines.
      std::string text;
      if (!source.semantics_path.empty()) text = read_text_file(source.semantics_path);
      const auto format = source.semantics_path.empty() ? std::nullopt
                          : source.semantics_format    ? source.semantics_format
                                                       : detect_semantics_format(text, source.semantics_path);
      if (format == SemanticsFormat::srdf) {
        out_.write(col::replace_disabled_collisions(text, kept(matrix, text, source.semantics_path)));
      } else {
        out_.write(col::disable_collisions_xml(matrix.disabled, "  "));
      }
    } else {
      Table table({"link1", "link2", "reason"});
      for (const auto& d : matrix.disabled) table.add_row({d.link1, d.link2, d.reason});
      out_.write(table.render(OutputFormat::text) + summary(matrix) + "\n");
    }
    out_.close();
    return kOk;
  }

private:
  /// The computed entries, and the SRDF's entries of other reasons (a user's), which replace
  /// a computed entry of the same pair; sorted.
  static std::vector<col::DisabledPair> kept(const col::ComputedMatrix& matrix, const std::string& text,
                                             const std::string& path) {
    std::vector<col::DisabledPair> out = matrix.disabled;
    for (auto e : parse_srdf(text, display_name(path)).collisions.disabled) {
      if (col::parse_reason(e.reason) != col::Reason::user) continue;
      if (e.link2 < e.link1) std::swap(e.link1, e.link2);
      std::erase_if(out, [&](const col::DisabledPair& d) { return d.link1 == e.link1 && d.link2 == e.link2; });
      e.line = 0;
      out.push_back(e);
    }
    std::sort(out.begin(), out.end(), [](const col::DisabledPair& x, const col::DisabledPair& y) {
      return std::tie(x.link1, x.link2) < std::tie(y.link1, y.link2);
    });
    return out;
  }

  std::string summary(const col::ComputedMatrix& m) const {
    return fmt::format("{} link{} with geometry, {} pair{}: {} disabled ({} Adjacent, {} Default, {} Always, {} Never), "
                       "{} checked; {} random poses, seed {}",
                       m.links, m.links == 1 ? "" : "s", m.pairs, m.pairs == 1 ? "" : "s", m.disabled.size(), m.count(col::Reason::adjacent),
                       m.count(col::Reason::default_pose), m.count(col::Reason::always), m.count(col::Reason::never),
                       m.pairs - m.disabled.size(), m.samples, options_.seed);
  }

  ModelOptions model_;
  OutputOptions out_;
  CLI::Option* update_ = nullptr;
  std::string update_path_;
  col::MatrixOptions options_;
  std::optional<std::uint64_t> show_sample_;
};

}  // namespace

std::unique_ptr<Command> make_collisions_command() { return std::make_unique<CollisionsCommand>(); }

}  // namespace rmodel::cli
