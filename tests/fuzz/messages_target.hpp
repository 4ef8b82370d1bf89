#pragma once
/// @file messages_target.hpp
/// Shared body of the joint-state log fuzz targets (JSON Lines, a whole JSON document,
/// trajectories, CSV): read every message until the end. Bad input must come back as error
/// values (never an exception other than rmodel::Error, never a hang), and every message
/// read must survive the JSON Lines round trip: written with append_json_line and read
/// again, it is the same message (finite numbers to the bit; JSON has no NaN or infinity,
/// so those come back as NaN).
#include <cmath>
#include <sstream>

#include "fuzz_target.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"

namespace rmodel::fuzz {

inline bool same_json_numbers(const std::vector<double>& written, const std::vector<double>& read) {
  if (written.size() != read.size()) return false;
  for (std::size_t i = 0; i < written.size(); ++i) {
    if (std::isfinite(written[i])) {
      if (std::memcmp(&written[i], &read[i], sizeof(double)) != 0) return false;
    } else if (!std::isnan(read[i])) {
      return false;
    }
  }
  return true;
}

inline bool same_json_message(const io::Message& a, const io::Message& b) {
  if (a.kind != b.kind || a.has_stamp != b.has_stamp || a.cycle != b.cycle) return false;
  if (a.has_stamp && a.stamp() != b.stamp()) return false;  // integer nanoseconds, exact
  switch (a.kind) {
    case io::MessageKind::Joint:
      return a.joint.name == b.joint.name && same_json_numbers(a.joint.position, b.joint.position) &&
             same_json_numbers(a.joint.velocity, b.joint.velocity) &&
             same_json_numbers(a.joint.effort, b.joint.effort);
    case io::MessageKind::Support:
      return a.support.name == b.support.name && a.support.contact == b.support.contact &&
             same_json_numbers(a.support.support, b.support.support);
    case io::MessageKind::Sync: return true;
  }
  return false;
}

inline void check_json_line_round_trip(const io::Message& message) {
  std::string line;
  io::append_json_line(line, message);
  std::istringstream in(line);
  io::MessageReader reader(in, "round-trip.jsonl", {.format = io::parse_format("jsonl")});
  io::Message back;
  const io::ReadStatus status = reader.next(back);
  RMODEL_FUZZ_CHECK(status == io::ReadStatus::Ok, line + reader.error().to_string(reader.source()));
  RMODEL_FUZZ_CHECK(same_json_message(message, back), line);
}

inline void fuzz_messages(const std::uint8_t* data, std::size_t size, const io::ReaderOptions& options,
                          const std::string& source) {
  std::istringstream in{std::string(as_text(data, size))};
  io::MessageReader reader(in, source, options);
  io::Message message;
  // Every call consumes input or ends; a CSV row yields at most one message per column.
  const std::size_t bound = 4 * size + 16;
  for (std::size_t calls = 0;; ++calls) {
    RMODEL_FUZZ_CHECK(calls <= bound, "the reader does not come to an end");
    io::ReadStatus status = io::ReadStatus::End;
    expect_clean_rejection(source, [&] { status = reader.next(message); });
    if (status == io::ReadStatus::End) break;
    if (status == io::ReadStatus::Error) {
      const std::string text = reader.error().to_string(reader.source());
      RMODEL_FUZZ_CHECK(text.rfind(source, 0) == 0 && !reader.error().reason.empty(), text);
      continue;
    }
    RMODEL_FUZZ_CHECK(status == io::ReadStatus::Ok, "a blocking stream returned WouldBlock");
    check_json_line_round_trip(message);
  }
}

inline void fuzz_messages(const std::uint8_t* data, std::size_t size, io::Format format, const std::string& source) {
  // A small line bound, so that the fuzzer also reaches the over-long-line path.
  fuzz_messages(data, size, io::ReaderOptions{.format = format, .max_line_bytes = 4096}, source);
}

}  // namespace rmodel::fuzz
