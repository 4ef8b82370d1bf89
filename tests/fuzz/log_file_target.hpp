#pragma once
/// @file log_file_target.hpp
/// Shared body of the ROS log fuzz targets (MCAP, ROS 1 bag, ROS 2 sqlite3). These readers
/// take a path (the format is recognised by its magic bytes, and sqlite3 opens files by
/// name), so each input is written to one scratch file per process and read from there to
/// the end. The findings are those of messages_target.hpp: anything but a typed rejection
/// that names the file, a reader that does not come to an end, and a message that does not
/// survive the JSON Lines round trip.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "messages_target.hpp"

namespace rmodel::fuzz {

/// A scratch file named after this process, removed at exit.
class ScratchFile {
public:
  explicit ScratchFile(const std::string& suffix)
      : path_((std::filesystem::temp_directory_path() /
               ("rmodel-fuzz-" + std::to_string(::getpid()) + suffix)).string()) {}
  ~ScratchFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  /// Replaces the content; returns the path.
  const std::string& write(std::string_view bytes) {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);  // sqlite3 must never see a stale page cache
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) fail("cannot write the scratch file", path_);
    return path_;
  }

private:
  std::string path_;
};

/// Reads the log at `path` to the end with `format`, checking every message and error.
inline void read_log_to_end(const std::string& path, io::Format format) {
  // A compressed chunk may expand to many messages, so the bound is generous; a real hang
  // is caught by libFuzzer's -timeout.
  constexpr std::size_t bound = 1'000'000;
  expect_clean_rejection(path, [&] {
    io::MessageReader reader = io::MessageReader::open(path, {.format = format});
    io::Message message;
    for (std::size_t calls = 0;; ++calls) {
      RMODEL_FUZZ_CHECK(calls <= bound, "the reader does not come to an end");
      const io::ReadStatus status = reader.next(message);
      if (status == io::ReadStatus::End) break;
      if (status == io::ReadStatus::Error) {
        const std::string text = reader.error().to_string(reader.source());
        RMODEL_FUZZ_CHECK(text.find(path) != std::string::npos && !reader.error().reason.empty(), text);
        continue;
      }
      RMODEL_FUZZ_CHECK(status == io::ReadStatus::Ok, "a log file returned WouldBlock");
      check_json_line_round_trip(message);
    }
  });
}

}  // namespace rmodel::fuzz
