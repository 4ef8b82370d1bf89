// Runs a fuzz target's entry point over files and directories of inputs, without libFuzzer:
// how the kept crashing inputs (tests/fuzz/regressions) and the seeds run under ctest with
// any compiler, sanitized or not. Exit 0 when every input passes (and there was at least
// one); a finding aborts.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot read\n", file.c_str());
    return 1;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "replaying %s (%zu bytes)\n", file.c_str(), bytes.size());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  int failures = 0;
  std::size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    const fs::path arg = argv[i];
    if (fs::is_directory(arg)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::recursive_directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) failures += replay(f), ++count;
    } else if (fs::exists(arg)) {
      failures += replay(arg);
      ++count;
    }  // a missing argument is an absent optional corpus (e.g. no fixtures)
  }
  std::fprintf(stderr, "%zu input(s) replayed, %d unreadable\n", count, failures);
  // Nothing to replay means the corpus went missing: fail rather than pass vacuously.
  return failures == 0 && count > 0 ? 0 : 1;
}
