#include "plot.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"
#include "terminal.hpp"

extern char** environ;

namespace rmodel::cli::plot {
namespace {

namespace fs = std::filesystem;

/// A gnuplot single-quoted string: no escapes inside but '' for a quote; newlines would end
/// the command, so they become spaces.
std::string gp_quote(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') out += "''";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  out += "'";
  return out;
}

std::string find_gnuplot() {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/bin:/bin";
  while (true) {
    const auto colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/gnuplot";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  return {};
}

void write_value(std::ostream& out, double v) {
  if (std::isfinite(v)) out << fmt::format("{}", v);
  else out << '?';
}

/// The last non-empty line of a file (gnuplot's error), trimmed.
std::string last_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line, last;
  while (std::getline(in, line)) {
    const auto begin = line.find_first_not_of(" \t^");
    if (begin != std::string::npos) last = line.substr(begin);
  }
  return last;
}

/// A private directory under TMPDIR (or /tmp), removed with its files on destruction.
class TempDir {
public:
  TempDir() {
    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string tmpl = (base / "rmodel-plot-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr)
      throw WriteError(base.string(), fmt::format("cannot create a temporary directory for the plot: {}",
                                                  std::strerror(errno)));
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }

private:
  fs::path path_;
};

}  // namespace

std::string preflight(const std::string& file) {
  const std::string ext = fs::path(file).extension().string();
  if (ext != ".png" && ext != ".svg")
    throw InvalidArgument(fmt::format("--plot {}: the file must end in .png or .svg", file));
  fs::path dir = fs::path(file).parent_path();
  if (dir.empty()) dir = ".";
  if (::access(dir.c_str(), W_OK) != 0)
    throw WriteError(file, fmt::format("cannot create the plot: {}", std::strerror(errno)));
  std::string gnuplot = find_gnuplot();
  if (gnuplot.empty())
    terminal::error("--plot needs gnuplot, which is not installed (Debian/Ubuntu: sudo apt-get install gnuplot-nox)");
  return gnuplot;
}

Trace clip(const Trace& trace, const Window& window) {
  Trace out;
  out.title = trace.title;
  for (std::size_t k = 0; k < trace.t.size(); ++k) {
    if (!window.contains(trace.t[k])) continue;
    out.t.push_back(trace.t[k]);
    out.in.push_back(trace.in[k]);
    out.out.push_back(trace.out[k]);
  }
  return out;
}

std::string script(const Figure& figure, const std::vector<Trace>& traces, const std::vector<std::string>& data_files) {
  const int panels = static_cast<int>(traces.size()) * 2;
  const bool svg = fs::path(figure.file).extension() == ".svg";
  const int width = 1000;
  const int height = static_cast<int>(traces.size()) * 420 + 60;
  std::ostringstream s;
  s << "set encoding utf8\n";
  if (svg)
    s << fmt::format("set terminal svg size {},{} dynamic noenhanced font 'Sans,12' background rgb 'white'\n", width,
                     height);
  else
    s << fmt::format("set terminal pngcairo size {},{} noenhanced font 'Sans,10'\n", width, height);
  s << "set output " << gp_quote(figure.file) << "\n";
  s << "set datafile missing '?'\n";
  s << "set grid lc rgb '#dddddd'\n";
  s << "set key outside right top box samplen 2\nset autoscale xfix\nset offsets 0, 0, graph 0.05, graph 0.05\n";
  s << "set border lw 1\nset lmargin 12\nset rmargin 14\n";
  if (std::isfinite(figure.window.from) || std::isfinite(figure.window.to))
    s << fmt::format("set xrange [{}:{}]\n", std::isfinite(figure.window.from) ? fmt::format("{}", figure.window.from) : "*",
                     std::isfinite(figure.window.to) ? fmt::format("{}", figure.window.to) : "*");
  s << fmt::format("set multiplot layout {},1 title {} font ',12'\n", panels, gp_quote(figure.title));
  for (std::size_t i = 0; i < traces.size(); ++i) {
    const Trace& tr = traces[i];
    const std::string data = gp_quote(data_files[i]);
    // Dots for a few samples, thin lines for many: thick lines merge into a band.
    const bool points = tr.t.size() <= 120;
    const std::string style = points ? "linespoints pt 7 ps 0.5 lw 2" : tr.t.size() > 2000 ? "lines lw 1" : "lines lw 2";
    s << "set title " << gp_quote(tr.title) << "\n";
    s << "set xlabel 'time [s]'\n";
    s << "set ylabel " << gp_quote(figure.ylabel) << "\n";
    s << "plot " << data << " using 1:2 with " << (figure.step_input ? "steps lw 2" : style)
      << " lc rgb '#9a9a9a' title 'input', \\\n     " << data << " using 1:3 with " << style
      << " lc rgb '#d62728' title 'output'\n";
    s << "set title " << gp_quote(tr.title + ": residual (output - input)") << "\n";
    s << "set ylabel 'output - input'\n";
    s << "plot " << data << " using 1:4 with " << style << " lc rgb '#1f77b4' title 'residual'\n";
  }
  s << "unset multiplot\nset output\n";
  return s.str();
}

bool draw(const std::string& gnuplot, const Figure& figure, const std::vector<Trace>& traces) {
  std::vector<Trace> clipped;
  for (const Trace& tr : traces) {
    Trace c = clip(tr, figure.window);
    if (c.t.empty()) {
      terminal::warning(fmt::format("--plot: joint '{}' has no sample between --from and --to; not drawn", tr.title));
      continue;
    }
    clipped.push_back(std::move(c));
  }
  if (clipped.empty()) {
    terminal::error("--plot: nothing to draw");
    return false;
  }
  TempDir dir;
  std::vector<std::string> data_files;
  for (std::size_t i = 0; i < clipped.size(); ++i) {
    const Trace& tr = clipped[i];
    data_files.push_back((dir.path() / fmt::format("trace{}.dat", i)).string());
    std::ofstream d(data_files.back());
    for (std::size_t k = 0; k < tr.t.size(); ++k) {
      write_value(d, tr.t[k]);
      d << ' ';
      write_value(d, tr.in[k]);
      d << ' ';
      write_value(d, tr.out[k]);
      d << ' ';
      write_value(d, tr.out[k] - tr.in[k]);
      d << '\n';
    }
    if (!d.flush()) throw WriteError(data_files.back(), "cannot write the plot data");
  }
  const std::string script_path = (dir.path() / "plot.gp").string();
  {
    std::ofstream out(script_path);
    out << script(figure, clipped, data_files);
    if (!out.flush()) throw WriteError(script_path, "cannot write the plot script");
  }

  // gnuplot's stderr goes to a file: on failure one line of it is quoted, not the script.
  const std::string errors = (dir.path() / "gnuplot.err").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv{const_cast<char*>(gnuplot.c_str()), const_cast<char*>(script_path.c_str()), nullptr};
  pid_t pid = 0;
  int status = 0;
  const int rc = ::posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    terminal::error(fmt::format("--plot {}: cannot run {}: {}", figure.file, gnuplot, std::strerror(rc)));
    return false;
  }
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  const std::string why = last_line(errors);
  const std::string how = WIFEXITED(status) ? fmt::format("exit status {}", WEXITSTATUS(status))
                                            : fmt::format("signal {}", WTERMSIG(status));
  terminal::error(fmt::format("--plot {}: gnuplot failed ({}){}{}", figure.file, how, why.empty() ? "" : ": ", why));
  return false;
}

}  // namespace rmodel::cli::plot
