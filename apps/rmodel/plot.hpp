#pragma once
// Plots for filter tuning, drawn by gnuplot: input and output over time, one panel per joint,
// each followed by a residual panel (output - input) that shows lag and overshoot even where
// the two curves overlap into one band. Temporary files go under TMPDIR; a gnuplot failure is
// reported in one line, not as gnuplot's raw script error.

#include <limits>
#include <string>
#include <vector>

namespace rmodel::cli::plot {

/// One joint's samples: time (s, from the first stamp), input and output.
struct Trace {
  std::string title;
  std::vector<double> t, in, out;
};

/// The time window drawn (s, in the traces' time); infinite bounds draw everything.
struct Window {
  double from = -std::numeric_limits<double>::infinity();
  double to = std::numeric_limits<double>::infinity();
  [[nodiscard]] bool contains(double t) const { return t >= from && t <= to; }
};

/// What to draw and how.
struct Figure {
  std::string file;   ///< .png or .svg
  std::string title;  ///< over all panels
  std::string ylabel;
  bool step_input = false;  ///< draw the input as steps (a step response)
  Window window;
};

/// Checks the plot file's name (.png or .svg: InvalidArgument) and that its directory can
/// take it (WriteError), and finds gnuplot in PATH. Returns gnuplot's path, or empty after
/// saying on stderr how to install it.
std::string preflight(const std::string& file);

/// The samples of `trace` inside `window`, in order.
Trace clip(const Trace& trace, const Window& window);

/// The gnuplot script drawing `traces` (their data files named by `data_files`, one per trace,
/// columns t, input, output, output - input).
std::string script(const Figure& figure, const std::vector<Trace>& traces, const std::vector<std::string>& data_files);

/// Draws `traces` (clipped to the figure's window) with `gnuplot`. Returns false after one
/// line on stderr when gnuplot fails (its last message is quoted) or nothing is left to draw.
bool draw(const std::string& gnuplot, const Figure& figure, const std::vector<Trace>& traces);

}  // namespace rmodel::cli::plot
