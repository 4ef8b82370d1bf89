#pragma once
// Terminal manners for stderr: colour for "error:" and "warning:" only when stderr is a
// terminal (or --color=always), honouring NO_COLOR; and one status line (the progress bar)
// that every diagnostic clears before it prints and redraws after, so the two never share
// a line.

#include <string>
#include <string_view>

namespace rmodel::cli::terminal {

enum class ColorMode { automatic, always, never };

/// Sets the colour choice (--color); automatic until called.
void set_color_mode(ColorMode mode);

/// Reads "--color=WHEN" / "--color WHEN" from a command line before it is parsed, so that
/// even a parse error is coloured as asked. Unknown values are left for the parser to refuse.
void color_mode_from_args(int argc, const char* const* argv);

/// Whether stderr gets colour: always; never; automatic: stderr is a terminal, NO_COLOR is
/// unset or empty, and TERM is not "dumb".
[[nodiscard]] bool color_enabled();

/// Whether stderr is a terminal (asked once per process).
[[nodiscard]] bool stderr_is_terminal();

/// `word` in red (error), yellow (warning) or bold when colour is on; as is otherwise.
[[nodiscard]] std::string red(std::string_view word);
[[nodiscard]] std::string yellow(std::string_view word);
[[nodiscard]] std::string bold(std::string_view word);

/// Writes one line (a newline is added) to stderr: clears the status line first and draws
/// it again after. A line whose text begins "error:" or "warning:" gets that word coloured.
void diagnostic(std::string_view line);

/// "rmodel: error: MESSAGE" through diagnostic().
void error(std::string_view message);
/// "rmodel: warning: MESSAGE" through diagnostic().
void warning(std::string_view message);

/// While alive, the lines diagnostic() writes on this thread are appended to `buffer` (each
/// with its newline, uncoloured) instead of going to stderr: a batch run's worker threads
/// collect each input's lines, which the main thread prints together (replay()).
class Capture {
public:
  explicit Capture(std::string& buffer);
  ~Capture();
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;

private:
  std::string* previous_;
};

/// Prints captured lines through diagnostic(), one by one (so they are coloured and the
/// status line is kept).
void replay(std::string_view captured);

/// Draws `text` as the status line (no newline; replaces the previous one). Only call it when
/// stderr is a terminal.
void show_status(std::string_view text);
/// Erases the status line, if one is drawn.
void clear_status();

/// Colours "error:" / "warning:" where `text` starts with them (after an optional
/// "rmodel: " and "LOCATION: " prefix up to the first such word).
[[nodiscard]] std::string colorize(std::string_view text);

}  // namespace rmodel::cli::terminal
