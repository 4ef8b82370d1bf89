#include "doc/man_page.hpp"

#include <algorithm>
#include <fstream>

#include "rmodel/base/error.hpp"

namespace rmodel::cli {
namespace {

using Kind = PageBlock::Kind;

// ---- inline markup ----

enum class Style { plain, bold, italic };
struct Span {
  Style style;
  std::string text;
};

/// Splits `code`, **bold**, *italic* and \-escapes into spans.
std::vector<Span> parse_inline(std::string_view s) {
  std::vector<Span> spans;
  auto add = [&](Style style, std::string text) {
    if (text.empty()) return;
    if (!spans.empty() && spans.back().style == style)
      spans.back().text += text;
    else
      spans.push_back({style, std::move(text)});
  };
  std::string plain;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\\' && i + 1 < s.size()) {
      plain += s[i + 1];
      i += 2;
      continue;
    }
    std::string_view close;
    Style style = Style::plain;
    std::size_t open_len = 0;
    if (c == '`') {
      close = "`", style = Style::bold, open_len = 1;
    } else if (s.substr(i, 2) == "**") {
      close = "**", style = Style::bold, open_len = 2;
    } else if (c == '*' && i + 1 < s.size() && s[i + 1] != ' ') {
      close = "*", style = Style::italic, open_len = 1;
    }
    const std::size_t end = open_len ? s.find(close, i + open_len) : std::string_view::npos;
    if (end == std::string_view::npos || end == i + open_len) {
      plain += c;
      ++i;
      continue;
    }
    add(Style::plain, std::exchange(plain, {}));
    std::string inner;
    for (std::size_t k = i + open_len; k < end; ++k) {
      if (s[k] == '\\' && k + 1 < end && c != '`') ++k;
      inner += s[k];
    }
    add(style, std::move(inner));
    i = end + close.size();
  }
  add(Style::plain, std::move(plain));
  return spans;
}

/// Text as-is inside markup: escapes the characters markup gives a meaning to.
std::string literal(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '*' || c == '`') out += '\\';
    out += c;
  }
  return out;
}

std::string bold(std::string_view text) { return "**" + literal(text) + "**"; }
std::string italic(std::string_view text) { return "*" + literal(text) + "*"; }

std::string sentence(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  while (!text.empty() && text.back() == ' ') text.pop_back();
  if (!text.empty() && text.back() != '.' && text.back() != '!' && text.back() != '?') text += '.';
  return text;
}

// ---- prose ----

std::size_t indent_of(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

bool blank(std::string_view line) { return indent_of(line) == line.size(); }

std::vector<PageSection> parse_prose(std::string_view text) {
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < text.size();) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(start, end - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  std::vector<PageSection> sections;
  auto current = [&]() -> PageSection& {
    if (sections.empty()) sections.push_back({"DESCRIPTION", "", {}});
    return sections.back();
  };
  std::size_t i = 0;
  while (i < lines.size()) {
    const std::string& line = lines[i];
    if (blank(line)) {
      ++i;
      continue;
    }
    if (line.rfind("## ", 0) == 0) {
      const std::string title = current().title;
      sections.push_back({title, line.substr(3), {}});
      ++i;
      continue;
    }
    if (line.rfind("# ", 0) == 0) {
      sections.push_back({line.substr(2), "", {}});
      ++i;
      continue;
    }
    if (indent_of(line) >= 4) {  // verbatim, blank lines inside kept
      std::string body;
      std::size_t pending_blank = 0;
      while (i < lines.size() && (blank(lines[i]) || indent_of(lines[i]) >= 4)) {
        if (blank(lines[i])) {
          ++pending_blank;
        } else {
          for (; pending_blank > 0; --pending_blank) body += "\n";
          body += (body.empty() ? "" : "\n") + lines[i].substr(4);
        }
        ++i;
      }
      current().blocks.push_back({Kind::verbatim, "", body});
      continue;
    }
    auto continuation = [&](std::size_t k) {
      return k < lines.size() && !blank(lines[k]) && lines[k].rfind("- ", 0) != 0 &&
             lines[k].rfind("#", 0) != 0 && indent_of(lines[k]) < 4;
    };
    if (line.rfind("- ", 0) == 0) {
      std::string body = line.substr(2);
      for (++i; continuation(i) && indent_of(lines[i]) > 0; ++i) body += " " + lines[i].substr(indent_of(lines[i]));
      current().blocks.push_back({Kind::bullet, "", body});
      continue;
    }
    if (i + 1 < lines.size() && indent_of(lines[i + 1]) == 2 && !blank(lines[i + 1])) {
      std::string body;
      std::size_t k = i + 1;
      for (; k < lines.size() && indent_of(lines[k]) == 2 && !blank(lines[k]); ++k)
        body += (body.empty() ? "" : " ") + lines[k].substr(2);
      current().blocks.push_back({Kind::definition, line, body});
      i = k;
      continue;
    }
    std::string body = line;
    for (++i; continuation(i) && indent_of(lines[i]) == 0; ++i) body += " " + lines[i];
    current().blocks.push_back({Kind::paragraph, "", body});
  }
  return sections;
}

// ---- page ----

PageBlock option_block(const OptionDoc& opt) {
  std::string term;
  if (!opt.positional.empty()) {
    term = italic(opt.positional) + (opt.repeatable ? "..." : "");
  } else {
    for (const auto& name : opt.names()) term += (term.empty() ? "" : ", ") + bold(name);
    if (opt.kind != ValueKind::none) term += " " + italic(opt.value_name);
  }
  std::string text = literal(sentence(opt.description));
  if (!opt.default_value.empty()) text += " Default: " + bold(opt.default_value) + ".";
  if (opt.required && opt.positional.empty()) text += " Required.";
  return {Kind::definition, term, text};
}

std::string synopsis(const CommandDoc& cmd) {
  std::string out = bold(cmd.full_name());
  if (!cmd.options.empty()) out += " [" + italic("OPTIONS") + "]";
  for (const auto& p : cmd.positionals) {
    const std::string arg = italic(p.positional) + (p.repeatable ? "..." : "");
    out += " " + (p.required ? arg : "[" + arg + "]");
  }
  if (!cmd.subcommands.empty()) out += " " + italic("COMMAND") + " [" + italic("ARGS") + "]";
  return out;
}

std::string page_ref(const CommandDoc& cmd) { return bold(cmd.page_name()) + "(1)"; }

}  // namespace

ManPage build_man_page(const CommandDoc& cmd, const CommandDoc& root) {
  ManPage page;
  page.name = cmd.page_name();
  page.summary = cmd.summary;
  if (cmd.path.empty()) {  // "rmodel: robot model …" → "robot model …"
    const std::string prefix = cmd.name + ": ";
    if (page.summary.rfind(prefix, 0) == 0) page.summary = page.summary.substr(prefix.size());
  }
  std::string stem = cmd.path.empty() ? cmd.name : "";
  for (const auto& p : cmd.path) stem += (stem.empty() ? "" : "-") + p;
  // The hand-written prose, then what is generated from the library (check's codes).
  std::vector<PageSection> prose = parse_prose(std::string(prose_for(stem)) + "\n" + generated_prose(stem));
  auto take_prose = [&](const std::string& title) {
    std::vector<PageSection> taken;
    for (auto it = prose.begin(); it != prose.end();) {
      if (it->title == title) {
        taken.push_back(std::move(*it));
        it = prose.erase(it);
      } else {
        ++it;
      }
    }
    return taken;
  };

  page.sections.push_back({"SYNOPSIS", "", {{Kind::paragraph, "", synopsis(cmd)}}});

  PageSection description{"DESCRIPTION", "", {}};
  if (!cmd.path.empty() && !cmd.description.empty())
    description.blocks.push_back({Kind::paragraph, "", literal(sentence(cmd.description))});
  auto described = take_prose("DESCRIPTION");
  if (!described.empty()) {
    auto& blocks = described.front().blocks;
    description.blocks.insert(description.blocks.end(), blocks.begin(), blocks.end());
    described.erase(described.begin());
  }
  page.sections.push_back(std::move(description));
  for (auto& s : described) page.sections.push_back(std::move(s));

  if (!cmd.subcommands.empty()) {
    PageSection commands{"COMMANDS", "", {}};
    for (const auto& sub : cmd.subcommands)
      commands.blocks.push_back(
          {Kind::definition, bold(sub.name), literal(sentence(sub.summary)) + " See " + page_ref(sub) + "."});
    page.sections.push_back(std::move(commands));
  }

  if (!cmd.positionals.empty()) {
    PageSection args{"ARGUMENTS", "", {}};
    for (const auto& p : cmd.positionals) args.blocks.push_back(option_block(p));
    page.sections.push_back(std::move(args));
  }
  // Options by CLI11 group, in the order --help shows them; "Options" is the section itself.
  std::vector<std::string> groups;
  for (const auto& o : cmd.options)
    if (std::find(groups.begin(), groups.end(), o.group) == groups.end()) groups.push_back(o.group);
  std::stable_partition(groups.begin(), groups.end(), [](const std::string& g) { return g == "Options"; });
  bool first_group = true;
  for (const auto& group : groups) {
    PageSection section{"OPTIONS", "", {}};
    if (!first_group || group != "Options") section.subtitle = group;
    if (first_group && group != "Options") page.sections.push_back({"OPTIONS", "", {}});
    for (const auto& o : cmd.options)
      if (o.group == group) section.blocks.push_back(option_block(o));
    page.sections.push_back(std::move(section));
    first_group = false;
  }

  auto exit_status = take_prose("EXIT STATUS");
  auto see_also = take_prose("SEE ALSO");
  for (auto& s : prose) page.sections.push_back(std::move(s));
  if (exit_status.empty()) {
    page.sections.push_back({"EXIT STATUS",
                             "",
                             {{Kind::definition, "**0**", "Success."},
                              {Kind::definition, "**1**", "The command failed: an invalid model, an unknown name, "
                                                          "rejected input."},
                              {Kind::definition, "**2**", "Usage error: a bad option, no model given, a missing or "
                                                          "unreadable file."}}});
  } else {
    for (auto& s : exit_status) page.sections.push_back(std::move(s));
  }

  std::string refs;
  if (cmd.path.empty()) {
    for (const CommandDoc* c : all_commands(root))
      if (c != &root && c->page_name() != cmd.page_name()) refs += (refs.empty() ? "" : ", ") + page_ref(*c);
  } else {
    refs = page_ref(root);
    for (const auto& sub : cmd.subcommands) refs += ", " + page_ref(sub);
  }
  PageSection see{"SEE ALSO", "", {{Kind::paragraph, "", refs}}};
  for (auto& s : see_also) see.blocks.insert(see.blocks.end(), s.blocks.begin(), s.blocks.end());
  page.sections.push_back(std::move(see));
  return page;
}

// ---- roff ----

namespace {

std::string roff_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
  return out;
}

std::string roff_inline(std::string_view markup) {
  std::string out;
  for (const Span& span : parse_inline(markup)) {
    std::string text = roff_escape(span.text);
    if (!out.empty() && text.rfind("\\&", 0) == 0) text.erase(0, 2);
    switch (span.style) {
      case Style::plain: out += text; break;
      case Style::bold: out += "\\fB" + text + "\\fR"; break;
      case Style::italic: out += "\\fI" + text + "\\fR"; break;
    }
  }
  return out;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string render_roff(const ManPage& page, std::string_view version) {
  std::string out;
  out += ".\\\" Generated by `rmodel --generate man` from the command tree and man/prose; do not edit.\n";
  out += ".TH \"" + roff_escape(upper(page.name)) + "\" \"1\" \"\" \"rmodel " + roff_escape(version) +
         "\" \"rmodel Manual\"\n";
  out += ".ad l\n.nh\n";  // ragged right, no hyphenation: option names stay whole
  out += ".SH NAME\n" + roff_escape(page.name) + " \\- " + roff_escape(page.summary) + "\n";
  std::string last_title;
  for (const auto& section : page.sections) {
    if (section.title != last_title) out += ".SH " + roff_escape(section.title) + "\n";
    last_title = section.title;
    if (!section.subtitle.empty()) out += ".SS " + roff_escape(section.subtitle) + "\n";
    bool first = true;
    for (const auto& block : section.blocks) {
      switch (block.kind) {
        case Kind::paragraph:
          if (!first) out += ".PP\n";
          out += roff_inline(block.text) + "\n";
          break;
        case Kind::verbatim: {
          out += first ? "" : ".PP\n";
          out += ".RS 4\n.nf\n";
          std::size_t start = 0;
          while (start <= block.text.size()) {
            auto end = block.text.find('\n', start);
            if (end == std::string::npos) end = block.text.size();
            const std::string line = roff_escape(block.text.substr(start, end - start));
            out += (line.empty() ? "" : line) + "\n";
            start = end + 1;
          }
          out += ".fi\n.RE\n";
          break;
        }
        case Kind::bullet: out += ".IP \\(bu 2\n" + roff_inline(block.text) + "\n"; break;
        case Kind::definition: out += ".TP\n" + roff_inline(block.term) + "\n" + roff_inline(block.text) + "\n"; break;
      }
      first = false;
    }
  }
  return out;
}

// ---- plain text ----

namespace {

std::string plain_inline(std::string_view markup) {
  std::string out;
  for (const Span& span : parse_inline(markup)) out += span.text;
  return out;
}

std::size_t columns(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// Words of `text` filled into lines of `width`, each prefixed by `indent` spaces.
std::string fill(std::string_view text, std::size_t indent, std::size_t width) {
  std::string out;
  std::string line;
  std::size_t used = 0;
  const std::size_t room = width > indent + 20 ? width - indent : 20;
  std::size_t start = 0;
  while (start < text.size()) {
    while (start < text.size() && text[start] == ' ') ++start;
    if (start >= text.size()) break;
    auto end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    const std::size_t w = columns(word);
    if (!line.empty() && used + 1 + w > room) {
      out += std::string(indent, ' ') + line + "\n";
      line.clear();
      used = 0;
    }
    if (!line.empty()) {
      line += ' ';
      ++used;
    }
    line += word;
    used += w;
    start = end;
  }
  if (!line.empty()) out += std::string(indent, ' ') + line + "\n";
  return out;
}

}  // namespace

namespace {

/// The sections as man(1) lays them out; a section titled `last_title` continues it.
std::string render_sections_text(const std::vector<PageSection>& sections, std::size_t width,
                                 std::string last_title) {
  std::string out;
  for (const auto& section : sections) {
    if (section.title != last_title) out += "\n" + section.title + "\n";
    last_title = section.title;
    if (!section.subtitle.empty()) out += "\n   " + section.subtitle + "\n";
    bool first = true;
    for (const auto& block : section.blocks) {
      if (!first) out += "\n";
      first = false;
      switch (block.kind) {
        case Kind::paragraph: out += fill(plain_inline(block.text), 7, width); break;
        case Kind::verbatim: {
          std::size_t start = 0;
          while (start <= block.text.size()) {
            auto end = block.text.find('\n', start);
            if (end == std::string::npos) end = block.text.size();
            const std::string line = block.text.substr(start, end - start);
            out += (line.empty() ? "" : std::string(11, ' ') + line) + "\n";
            start = end + 1;
          }
          break;
        }
        case Kind::bullet: {
          std::string text = fill(plain_inline(block.text), 9, width);
          text.replace(7, 1, "-");
          out += text;
          break;
        }
        case Kind::definition: {
          const std::string term = plain_inline(block.term);
          std::string body = fill(plain_inline(block.text), 14, width);
          if (term.size() <= 6 && body.size() > 14) {  // a short term shares the body's first line
            out += std::string(7, ' ') + term + body.substr(7 + term.size());
          } else {
            out += fill(term, 7, width);
            out += body;
          }
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace

std::string render_text(const ManPage& page, std::size_t width) {
  return "NAME\n" + fill(page.name + " - " + page.summary, 7, width) + render_sections_text(page.sections, width, "NAME");
}

std::string markup_literal(std::string_view text) { return literal(text); }

std::string render_prose_text(std::string_view prose, std::size_t width) {
  std::string out = render_sections_text(parse_prose(prose), width, "");
  return out.starts_with('\n') ? out.substr(1) : out;
}

std::vector<std::filesystem::path> write_man_pages(const CommandDoc& root, const std::filesystem::path& dir,
                                                   std::string_view version) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::vector<std::filesystem::path> written;
  for (const CommandDoc* cmd : all_commands(root)) {
    const auto path = dir / (cmd->page_name() + ".1");
    std::ofstream out(path, std::ios::binary);
    if (!out || !(out << render_roff(build_man_page(*cmd, root), version)) || !out.flush())
      throw IoError(path.string(), "cannot write");
    written.push_back(path);
  }
  return written;
}

}  // namespace rmodel::cli
