#include "rmodel/file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "rmodel/error.hpp"

namespace rmodel {

std::string display_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

std::string read_text_file(const std::string& path) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw IoError(path, "no such file");
  if (std::filesystem::is_directory(status)) throw IoError(path, "is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path, std::strerror(errno));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw IoError(path, "read error");
  return text;
}

}  // namespace rmodel
