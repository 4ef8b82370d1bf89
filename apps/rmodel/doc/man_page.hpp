#pragma once
// Man pages: rmodel(1) and rmodel-<command>(1), built from the command tree (synopsis,
// options, commands) and the hand-written prose of man/prose/<command>.md, and rendered
// either as roff (man(7) macros) or as plain text for `rmodel help COMMAND`.
//
// Prose format (man/prose/<command>.md, <command> being "rmodel" for the main page and
// "filter-list" for a nested command): "# TITLE" starts a section; a section named
// DESCRIPTION continues the generated description, the others follow the options in file
// order. Blank lines separate paragraphs; lines indented by four spaces are verbatim
// (examples); "- " starts a bullet; a line "TERM" followed by lines indented by two spaces
// is a definition. Inline: `code` and **bold** are bold, *word* italic; \ escapes.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "doc/cli_doc.hpp"

namespace rmodel::cli {

struct PageBlock {
  enum class Kind { paragraph, verbatim, bullet, definition };
  Kind kind = Kind::paragraph;
  std::string term;  ///< definition term (inline markup)
  std::string text;  ///< inline markup; verbatim: raw lines joined by '\n'
};

struct PageSection {
  std::string title;      ///< "OPTIONS"
  std::string subtitle;   ///< a subsection (.SS) inside the previous section when set
  std::vector<PageBlock> blocks;
};

struct ManPage {
  std::string name;     ///< "rmodel-joints"
  std::string summary;  ///< the NAME line's description
  std::vector<PageSection> sections;
};

/// The page of `command`; `root` gives the command list of rmodel(1) and SEE ALSO.
ManPage build_man_page(const CommandDoc& command, const CommandDoc& root);

/// roff with man(7) macros, ending in a newline; the header names `version`.
std::string render_roff(const ManPage& page, std::string_view version);

/// Plain text laid out as man(1) shows it, `width` columns wide.
std::string render_text(const ManPage& page, std::size_t width = 80);

/// `text` as-is inside prose markup: the characters markup gives a meaning to (\ * `), escaped.
std::string markup_literal(std::string_view text);

/// Prose (the markup of man/prose) laid out as render_text() lays out a page's sections.
std::string render_prose_text(std::string_view prose, std::size_t width = 80);

/// Prose generated for the page `stem` from the library, appended to its hand-written prose:
/// the CODES section of check and check-log (report/code_pages.cpp); "" for the others.
std::string generated_prose(std::string_view stem);

/// Writes <dir>/<page>.1 for every command of the tree; returns the files written.
std::vector<std::filesystem::path> write_man_pages(const CommandDoc& root, const std::filesystem::path& dir,
                                                   std::string_view version);

/// The prose of man/prose/<stem>.md compiled into the program ("" when there is none).
std::string_view prose_for(std::string_view stem);

}  // namespace rmodel::cli
