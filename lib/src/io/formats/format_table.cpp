// The format table: the log formats rmodel reads and writes, each declared by its own file
// (a FormatDescriptor, format_table.hpp), listed here in the order help texts list them.
// Adding a format is its file plus its row (docs/CONTRIBUTING.md); everything else is derived
// (formats.cpp, and the command's -i/-f, help, man pages and completions).
//
// This file is compiled on its own (not in a unity batch, lib/CMakeLists.txt): a program
// linking the static library can replace it by its own copy built with RMODEL_EXTRA_FORMAT,
// as the dummy-format test does (tests/format/).
#include "io/formats/format_table.hpp"

namespace rmodel::io::detail {

// The formats, each defined by its own file. A build may add one format of its own
// (RMODEL_EXTRA_FORMAT: the name of its descriptor, listed last), as the tests' dummy format
// does (tests/format/): the installed library has none.
extern const FormatDescriptor json_lines_format;     // json_lines_source.cpp
extern const FormatDescriptor json_document_format;  // json_document_source.cpp
extern const FormatDescriptor csv_format;            // csv_source.cpp
extern const FormatDescriptor ros_yaml_format;       // ros_yaml_source.cpp
extern const FormatDescriptor mcap_format;           // ros/mcap.cpp
extern const FormatDescriptor sqlite_format;         // ros/sqlite_bag.cpp
extern const FormatDescriptor rosbag1_format;        // ros/rosbag1.cpp
#ifdef RMODEL_EXTRA_FORMAT
extern const FormatDescriptor RMODEL_EXTRA_FORMAT;
#endif

namespace {

// The order is the order of --help and of parse_format()'s message.
const FormatDescriptor* const kFormats[] = {
    &json_lines_format, &json_document_format, &csv_format, &ros_yaml_format,
    &mcap_format,       &sqlite_format,        &rosbag1_format,
#ifdef RMODEL_EXTRA_FORMAT
    &RMODEL_EXTRA_FORMAT,
#endif
};

}  // namespace

std::span<const FormatDescriptor* const> format_descriptors() noexcept { return kFormats; }

}  // namespace rmodel::io::detail
