#include "terminal.hpp"

#include "option_fields.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rmodel::cli::terminal {
namespace {

ColorMode g_mode = ColorMode::automatic;
std::string g_status;  // the status line drawn now, empty when none
// This thread's Capture buffer, or null: only the main thread touches the terminal.
thread_local std::string* t_capture = nullptr;

void write_stderr(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stderr); }

std::string paint(std::string_view word, const char* code) {
  if (!color_enabled()) return std::string(word);
  return std::string("\033[") + code + "m" + std::string(word) + "\033[0m";
}

bool parse_mode(std::string_view value, ColorMode& mode) {
  if (value == "auto") mode = ColorMode::automatic;
  else if (value == "always") mode = ColorMode::always;
  else if (value == "never") mode = ColorMode::never;
  else return false;
  return true;
}

}  // namespace

void set_color_mode(ColorMode mode) { g_mode = mode; }

void color_mode_from_args(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    ColorMode mode{};
    if (arg.starts_with("--color=") && parse_mode(arg.substr(8), mode)) g_mode = mode;
    if (arg == "--color" && i + 1 < argc && parse_mode(argv[i + 1], mode)) g_mode = mode;
  }
}

bool color_enabled() {
  switch (g_mode) {
    case ColorMode::always: return true;
    case ColorMode::never: return false;
    case ColorMode::automatic: break;
  }
  // Decided once per process, not per line: the terminal, NO_COLOR and TERM do not change
  // while a command runs.
  static const bool automatic = [] {
    // https://no-color.org: a non-empty NO_COLOR turns colour off.
    const char* no_color = std::getenv("NO_COLOR");
    if (no_color != nullptr && *no_color != '\0') return false;
    const char* term = std::getenv("TERM");
    if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
    return stderr_is_terminal();
  }();
  return automatic;
}

bool stderr_is_terminal() {
  static const bool terminal = ::isatty(STDERR_FILENO) == 1;
  return terminal;
}

std::string red(std::string_view word) { return paint(word, "1;31"); }
std::string yellow(std::string_view word) { return paint(word, "1;33"); }
std::string bold(std::string_view word) { return paint(word, "1"); }

std::string colorize(std::string_view text) {
  if (!color_enabled()) return std::string(text);
  for (const auto& [word, code] : {std::pair<std::string_view, const char*>{"error:", "1;31"}, {"warning:", "1;33"}}) {
    const std::size_t at = text.find(word);
    // Only as the first word or right after a "prefix: " (never inside a quoted name).
    if (at == std::string_view::npos || (at != 0 && (at < 2 || text.substr(at - 2, 2) != ": "))) continue;
    if (text.substr(0, at).find('\'') != std::string_view::npos) continue;
    return std::string(text.substr(0, at)) + paint(word, code) + std::string(text.substr(at + word.size()));
  }
  return std::string(text);
}

void diagnostic(std::string_view library_line) {
  // Every text of the library the command shows on stderr passes here: its option fields
  // become the command's flags.
  const std::string line = in_flag_words(library_line);
  if (t_capture != nullptr) {
    t_capture->append(line);
    t_capture->push_back('\n');
    return;
  }
  std::string out;
  if (!g_status.empty()) out += "\r\033[K";
  out += colorize(line);
  out += '\n';
  out += g_status;
  write_stderr(out);
  std::fflush(stderr);
}

void error(std::string_view message) { diagnostic(std::string("rmodel: error: ") + std::string(message)); }
void warning(std::string_view message) { diagnostic(std::string("rmodel: warning: ") + std::string(message)); }

Capture::Capture(std::string& buffer) : previous_(t_capture) { t_capture = &buffer; }
Capture::~Capture() { t_capture = previous_; }

void replay(std::string_view captured) {
  while (!captured.empty()) {
    const std::size_t end = captured.find('\n');
    diagnostic(captured.substr(0, end));
    captured.remove_prefix(end == std::string_view::npos ? captured.size() : end + 1);
  }
}

void show_status(std::string_view text) {
  g_status.assign(text);
  write_stderr("\r" + g_status + "\033[K");
  std::fflush(stderr);
}

void clear_status() {
  if (g_status.empty()) return;
  g_status.clear();
  write_stderr("\r\033[K");
  std::fflush(stderr);
}

}  // namespace rmodel::cli::terminal
