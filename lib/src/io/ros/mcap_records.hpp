#pragma once
// The record opcodes and the magic of the MCAP format (specification, "Records"), shared by
// the reader (mcap.cpp) and the writer (mcap_writer.cpp).
#include <cstdint>
#include <string_view>

namespace rmodel::io::detail::mcap {

enum Op : std::uint8_t {
  kHeader = 0x01,
  kFooter = 0x02,
  kSchema = 0x03,
  kChannel = 0x04,
  kMessage = 0x05,
  kChunk = 0x06,
  kMessageIndex = 0x07,
  kChunkIndex = 0x08,
  kStatistics = 0x0B,
  kSummaryOffset = 0x0E,
  kDataEnd = 0x0F,
};

/// At the start and at the end of every MCAP file.
constexpr std::string_view kMagic("\x89MCAP0\r\n", 8);

}  // namespace rmodel::io::detail::mcap
