#pragma once
// An XML document as expat reads it (tests/support/expat_read.py, through python3): the
// oracle of the XML rmodel writes, since expat applies XML 1.0 to the letter (an attribute's
// raw tab or line end read as a space, a raw carriage return as a line feed, a control
// character refused), where tinyxml2 is lenient.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rmodel::test {

/// True when python3 runs (the oracle's tests skip otherwise).
inline bool have_expat_oracle() { return std::system("python3 -c 'import xml.parsers.expat' >/dev/null 2>&1") == 0; }

/// What expat reads of `xml`: {"elements": [{"name", "attributes", "text"}...]} in document
/// order, or {"error": "..."}. Call have_expat_oracle() first.
inline nlohmann::json expat_read(const std::string& xml) {
  const std::filesystem::path dir = make_temp_dir("rmodel-expat-");
  {
    std::ofstream out(dir / "in.xml", std::ios::binary);
    out << xml;
  }
  const std::string command = "python3 '" + (source_dir() / "tests/support/expat_read.py").string() + "' '" +
                              (dir / "in.xml").string() + "' '" + (dir / "out.json").string() + "'";
  nlohmann::json result;
  if (std::system(command.c_str()) == 0) result = nlohmann::json::parse(read_file(dir / "out.json"));
  else result = {{"error", "expat_read.py failed: " + command}};
  std::filesystem::remove_all(dir);
  return result;
}

}  // namespace rmodel::test

#define RMODEL_REQUIRE_EXPAT_ORACLE()                                                        \
  do {                                                                                       \
    if (!::rmodel::test::have_expat_oracle())                                                \
      GTEST_SKIP() << "python3 (with xml.parsers.expat) not found: the XML oracle is absent"; \
  } while (0)
