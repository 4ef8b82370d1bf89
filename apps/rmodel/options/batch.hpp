#pragma once
// Whole archives: `--output-dir DIR`, `-j N` and `--shard K/N` of aggregate, filter and
// check-log. Each input is then its own run (fresh aggregator, filters or checks, as if rmodel
// ran once per input) writing DIR/<input name without extension>.<ext>; N inputs run at once
// in threads of this process, and each input's diagnostics are printed together, in input
// order. `--shard K/N` keeps the K-th of N parts of the inputs (shard_positions()), so that N
// processes, on as many machines, together write what one run writes. Without --output-dir
// the inputs stay one stream (run_stream, docs/streaming.md).

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "rmodel/stream/stream.hpp"
#include "options/stream_options.hpp"

namespace rmodel::cli {

/// `--shard K/N`: the K-th (1-based, 1 ≤ K ≤ N) of N parts of a list of inputs.
struct Shard {
  std::size_t index = 1;  ///< K
  std::size_t count = 1;  ///< N

  /// Reads "K/N" (decimal integers, 1 ≤ K ≤ N). @throws InvalidArgument naming the rule
  /// (its text does not name the option).
  [[nodiscard]] static Shard parse(std::string_view text);
  /// "K/N".
  [[nodiscard]] std::string text() const;
};

/// The positions in `inputs` (ascending: the order given) of the inputs of `shard`. The rule,
/// the same on every machine and in every run: the inputs sorted by their bytes (the paths as
/// given, not the order of a shell's glob or of find, which differ between machines), the j-th
/// of them (0-based) belongs to shard j mod N + 1. Each shard has ⌊M/N⌋ or ⌈M/N⌉ of the M
/// inputs; the shards together hold each input once; a shard of more than M is empty. The
/// parts depend on the list and N only: another N, or names added to the list, move inputs
/// between shards.
[[nodiscard]] std::vector<std::size_t> shard_positions(const std::vector<std::string>& inputs, Shard shard);

/// Adds `--shard K/N` (in `group`; nullptr: the default one); `help` says what is divided.
CLI::Option* add_shard_option(CLI::App& app, std::optional<Shard>& shard, const char* help, const char* group);

/// One input of a batch and the file its result goes to.
struct BatchItem {
  std::string input;   ///< as given on the command line
  std::string output;  ///< DIR/<name>.<extension>
};

/// --output-dir, -j/--jobs and --shard.
struct BatchOptions {
  std::string output_dir;  ///< empty: not a batch
  unsigned jobs = 1;       ///< inputs at once; 0: one per core
  std::optional<Shard> shard;
  CLI::Option* jobs_option = nullptr;
  std::size_t planned = 0;  ///< inputs of the whole batch, every shard's (set by take_shard())

  void add_to(CLI::App& app);
  [[nodiscard]] bool active() const { return !output_dir.empty(); }
  /// Refuses -j and --shard without --output-dir (InvalidArgument).
  void check() const;
  /// The worker count for `inputs` inputs: jobs, or the cores for 0, at most `inputs`.
  [[nodiscard]] unsigned workers(std::size_t inputs) const;
  /// The items of --shard's part of `items` (all without --shard), in their order; records
  /// how many there were in `planned`.
  [[nodiscard]] std::vector<BatchItem> take_shard(std::vector<BatchItem> items);
  /// "3 inputs", or with --shard "shard 2/4: 3 of 10 inputs" (`noun`: "input", "log").
  [[nodiscard]] std::string count_text(std::size_t count, std::string_view noun) const;
};

/// The base name an input's output gets: a file's name without its last extension
/// (`logs/a.zstd.mcap` → `a.zstd`), a rosbag2 directory's whole name (`run_db3/` → `run_db3`).
[[nodiscard]] std::string batch_output_name(const std::string& input);

/// The items of a batch: each input and DIR/<batch_output_name(input)>.<extension>.
/// Refuses (InvalidArgument, exit 2) no input, `-` (stdin) as an input, two inputs whose outputs
/// would have the same name (naming both); with `inputs_exist`, (IoError) an input that does
/// not exist or a directory that is not a rosbag2 one. Looks at nothing else on disk.
[[nodiscard]] std::vector<BatchItem> name_batch(const std::vector<std::string>& inputs, const std::string& dir,
                                                std::string_view extension, bool inputs_exist);

/// Checks a batch before anything runs (name_batch()) and creates `dir` (with its parents) when missing.
/// Refuses (InvalidArgument, exit 2) no input, `-` (stdin) as an input, two inputs whose
/// outputs would have the same name (naming both), an output that would overwrite its own
/// input; (IoError, exit 2) an input that does not exist, a directory that is not a rosbag2
/// one, an output directory that cannot be created.
[[nodiscard]] std::vector<BatchItem> plan_batch(const std::vector<std::string>& inputs, const std::string& dir,
                                                std::string_view extension);

/// Runs `run_one(i)` for every item index i in [0, count), `workers` at a time (threads of
/// this process; 1: one after the other on this thread). An exception thrown by run_one is
/// that input's failure: "rmodel: error: WHAT" among its diagnostics and exit code 1; the
/// other inputs go on. With more than one worker, each input's diagnostics (everything
/// terminal::diagnostic() is given on its thread) are held and printed together when it and
/// every input before it have completed; with one, they are printed as they come. On a
/// terminal, the status line shows "k/N inputs done". Returns the exit codes in input order.
std::vector<int> run_batch(std::size_t count, unsigned workers, const std::function<int(std::size_t)>& run_one);

/// The exit status of a batch: the worst of its inputs'.
[[nodiscard]] int worst_exit_code(const std::vector<int>& codes);

/// plan_batch() for aggregate and filter, then take_shard(): refuses -o with --output-dir; the
/// extension is the output format's (jsonl unless -O says otherwise).
[[nodiscard]] std::vector<BatchItem> plan_stream_batch(const StreamOptions& options, BatchOptions& batch);

/// The StreamRun of one batch input.
[[nodiscard]] inline StreamRun batch_stream_run(const BatchItem& item) { return {{item.input}, item.input, false}; }

/// Runs a stream command once per item (run_batch): `run_one` builds that input's stage and
/// sink, writes item.output and returns run_stream()'s summary (called with
/// batch_stream_run(item): the summary line names the input, no per-file progress bar). An
/// input with rejected messages (or that failed) exits 1, as it would alone. Then prints the
/// total, "rmodel COMMAND: N inputs (F failed): read ..." (count_text()), and returns the
/// worst exit code.
int run_stream_batch(const char* command, const BatchOptions& batch, const std::vector<BatchItem>& items,
                     const std::function<stream::Summary(const BatchItem&)>& run_one);

}  // namespace rmodel::cli
