#include "options/batch.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "command.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/format.hpp"
#include "options/stream_options.hpp"
#include "terminal.hpp"

namespace rmodel::cli {

namespace fs = std::filesystem;

Shard Shard::parse(std::string_view text) {
  const auto number = [](std::string_view digits, std::size_t& value) {
    if (digits.empty() || digits.size() > 9) return false;
    value = 0;
    for (const char c : digits) {
      if (c < '0' || c > '9') return false;
      value = value * 10 + static_cast<std::size_t>(c - '0');
    }
    return true;
  };
  const std::size_t slash = text.find('/');
  Shard shard;
  if (slash == std::string_view::npos || !number(text.substr(0, slash), shard.index) ||
      !number(text.substr(slash + 1), shard.count))
    throw InvalidArgument(fmt::format("'{}' is not K/N (two whole numbers, e.g. 2/8)", text));
  if (shard.count == 0) throw InvalidArgument(fmt::format("'{}': N, the number of parts, is at least 1", text));
  if (shard.index == 0 || shard.index > shard.count)
    throw InvalidArgument(fmt::format("'{}': K counts from 1 to N (a Slurm array --array=1-{} gives "
                                      "$SLURM_ARRAY_TASK_ID/{}; --array=0-{}, $((SLURM_ARRAY_TASK_ID + 1))/{})",
                                      text, shard.count, shard.count, shard.count - 1, shard.count));
  return shard;
}

std::string Shard::text() const { return fmt::format("{}/{}", index, count); }

std::vector<std::size_t> shard_positions(const std::vector<std::string>& inputs, Shard shard) {
  std::vector<std::size_t> order(inputs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // By the bytes of the paths (std::string's order, not the locale's), the same input given
  // twice in the order given.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return inputs[a] < inputs[b]; });
  std::vector<std::size_t> positions;
  for (std::size_t rank = shard.index - 1; rank < order.size(); rank += shard.count) positions.push_back(order[rank]);
  std::sort(positions.begin(), positions.end());
  return positions;
}

CLI::Option* add_shard_option(CLI::App& app, std::optional<Shard>& shard, const char* help, const char* group) {
  auto* option = app.add_option_function<std::string>(
                        "--shard", [&shard](const std::string& text) { shard = Shard::parse(text); }, help)
                     ->type_name("K/N")
                     ->check(CLI::Validator(
                         [](std::string& text) -> std::string {
                           try {
                             (void)Shard::parse(text);
                             return {};
                           } catch (const InvalidArgument& e) {
                             return e.what();
                           }
                         },
                         ""));
  if (group != nullptr) option->group(group);
  return option;
}

void BatchOptions::add_to(CLI::App& app) {
  const char* group = "Whole archives";
  app.add_option("--output-dir", output_dir,
                 "Process each input on its own (as if rmodel ran once per input) and write "
                 "DIR/<input name without extension>.<format>; DIR is created when missing")
      ->type_name("DIR")
      ->group(group);
  jobs_option = with_kind(app.add_option("-j,--jobs", jobs, "With --output-dir: inputs processed at once (0: one per core)"),
                          ValueKind::count)
                    ->type_name("N")
                    ->default_str("1")
                    ->group(group);
  add_shard_option(app, shard,
                   "With --output-dir: process only the K-th of N parts of the inputs (K from 1; the inputs sorted "
                   "by name, every N-th from the K-th), so that N runs, e.g. a Slurm job array, share them",
                   group);
}

void BatchOptions::check() const {
  if (!active() && jobs_option != nullptr && jobs_option->count() > 0)
    throw InvalidArgument("-j/--jobs needs --output-dir DIR (without it the inputs are one stream)");
  if (!active() && shard)
    throw InvalidArgument("--shard needs --output-dir DIR (without it the inputs are one stream, which a shard would "
                          "cut)");
}

std::vector<BatchItem> BatchOptions::take_shard(std::vector<BatchItem> items) {
  planned = items.size();
  if (!shard) return items;
  std::vector<std::string> inputs;
  inputs.reserve(items.size());
  for (const auto& item : items) inputs.push_back(item.input);
  std::vector<BatchItem> part;
  for (const std::size_t i : shard_positions(inputs, *shard)) part.push_back(std::move(items[i]));
  return part;
}

std::string BatchOptions::count_text(std::size_t count, std::string_view noun) const {
  const char* plural = (shard ? planned : count) == 1 ? "" : "s";
  if (!shard) return fmt::format("{} {}{}", count, noun, plural);
  return fmt::format("shard {}: {} of {} {}{}", shard->text(), count, planned, noun, plural);
}

unsigned BatchOptions::workers(std::size_t inputs) const {
  unsigned n = jobs;
  if (n == 0) n = std::max(1U, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(n, inputs)));
}

std::string batch_output_name(const std::string& input) {
  fs::path path(input);
  // "run_db3/" names the directory run_db3: drop the empty last component.
  if (!path.has_filename() && path.has_parent_path()) path = path.parent_path();
  std::error_code ec;
  if (fs::is_directory(path, ec)) return path.filename().string();
  return path.stem().string();
}

std::vector<BatchItem> name_batch(const std::vector<std::string>& inputs, const std::string& dir,
                                  std::string_view extension, bool inputs_exist) {
  if (inputs.empty()) throw InvalidArgument("--output-dir needs input files (stdin is one stream: use -o)");
  std::vector<BatchItem> items;
  std::map<std::string, std::string> owner;  // output name → the input that gets it
  for (const auto& input : inputs) {
    if (input == "-")
      throw InvalidArgument("--output-dir: '-' (stdin) cannot be an input; each input must be a file");
    if (inputs_exist) io::check_log_path(input);
    const std::string name = batch_output_name(input);
    if (name.empty() || name == "." || name == "..")
      throw InvalidArgument(fmt::format("--output-dir: cannot name an output after '{}'", input));
    const std::string file = fmt::format("{}.{}", name, extension);
    const auto [it, fresh] = owner.emplace(file, input);
    if (!fresh)
      throw InvalidArgument(fmt::format("--output-dir: '{}' and '{}' would both be written to {}", it->second, input,
                                        (fs::path(dir) / file).string()));
    items.push_back({input, (fs::path(dir) / file).string()});
  }
  return items;
}

std::vector<BatchItem> plan_batch(const std::vector<std::string>& inputs, const std::string& dir,
                                  std::string_view extension) {
  const std::vector<BatchItem> items = name_batch(inputs, dir, extension, true);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw IoError(dir, fmt::format("cannot create the output directory ({})",
                                                                   ec ? ec.message() : "not a directory"));
  for (const auto& item : items) {
    std::error_code same_ec;
    if (fs::exists(item.output, same_ec) && fs::equivalent(item.input, item.output, same_ec))
      throw InvalidArgument(fmt::format("--output-dir: the output {} would overwrite its input", item.output));
  }
  return items;
}

namespace {

/// One input's run with its failures turned into its exit code (the others go on).
int guarded_run(const std::function<int(std::size_t)>& run_one, std::size_t i) {
  try {
    return run_one(i);
  } catch (const Error& e) {
    terminal::error(e.what());
    return kFailed;
  } catch (const std::exception& e) {
    terminal::error(unexpected_error_text(e));
    return kFailed;
  }
}

std::string status_text(std::size_t done, std::size_t count) {
  return fmt::format("{}/{} inputs done", done, count);
}

}  // namespace

std::vector<int> run_batch(std::size_t count, unsigned workers, const std::function<int(std::size_t)>& run_one) {
  std::vector<int> codes(count, kOk);
  const bool status = terminal::stderr_is_terminal() && count > 1;
  if (workers <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) {
      if (status) terminal::show_status(status_text(i, count));
      codes[i] = guarded_run(run_one, i);
    }
    if (status) terminal::clear_status();
    return codes;
  }

  // Workers take the next input; each input's lines are held in its own buffer, which only
  // its worker writes until it is marked done. The main thread prints them in input order.
  std::vector<std::string> captured(count);
  std::vector<char> done(count, 0);
  std::atomic<std::size_t> next{0};
  std::size_t finished = 0;  // inputs done, in any order (for the status line)
  std::mutex mutex;
  std::condition_variable completed;
  auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      int code = kOk;
      {
        terminal::Capture capture(captured[i]);
        code = guarded_run(run_one, i);
      }
      const std::lock_guard lock(mutex);
      codes[i] = code;
      done[i] = 1;
      ++finished;
      completed.notify_one();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (unsigned w = 0; w < workers; ++w) threads.emplace_back(work);

  std::size_t shown = 0;  // the count the status line shows
  for (std::size_t printed = 0; printed < count;) {
    std::unique_lock lock(mutex);
    completed.wait(lock, [&] { return done[printed] != 0 || finished != shown; });
    shown = finished;
    std::vector<std::string> ready;
    for (; printed < count && done[printed] != 0; ++printed) ready.push_back(std::move(captured[printed]));
    lock.unlock();
    for (const auto& text : ready) terminal::replay(text);
    if (status) terminal::show_status(status_text(shown, count));
  }
  for (auto& t : threads) t.join();
  if (status) terminal::clear_status();
  return codes;
}

int worst_exit_code(const std::vector<int>& codes) {
  int worst = kOk;
  for (const int code : codes) worst = std::max(worst, code);
  return worst;
}

std::vector<BatchItem> plan_stream_batch(const StreamOptions& options, BatchOptions& batch) {
  if (options.out.path_given())
    throw InvalidArgument("-o and --output-dir exclude each other: with --output-dir, each input's output is "
                          "DIR/<input name>.<format>");
  if (options.merge)
    throw InvalidArgument("--merge and --output-dir exclude each other: --merge makes the inputs one stream, "
                          "--output-dir one output per input");
  const io::Format format = options.writer_options().format;
  return batch.take_shard(plan_batch(options.inputs, batch.output_dir, io::to_string(format)));
}

int run_stream_batch(const char* command, const BatchOptions& batch, const std::vector<BatchItem>& items,
                     const std::function<stream::Summary(const BatchItem&)>& run_one) {
  // Each worker writes only its own element.
  std::vector<stream::Summary> summaries(items.size());
  const std::vector<int> codes = run_batch(items.size(), batch.workers(items.size()), [&](std::size_t i) {
    summaries[i] = run_one(items[i]);
    return summaries[i].rejected > 0 ? kFailed : kOk;
  });
  StreamStats total;
  std::size_t failed = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    total.read += summaries[i].read;
    total.written += summaries[i].written;
    total.rejected += summaries[i].rejected;
    total.warnings += summaries[i].warnings;
    if (codes[i] != kOk) ++failed;
  }
  total.print_summary(command, fmt::format("{} ({} failed)", batch.count_text(items.size(), "input"), failed));
  return worst_exit_code(codes);
}

}  // namespace rmodel::cli
