// The xacro processor: expands a document in document order, as ROS 2's xacro does
// (properties lazily evaluated in the scope that defines them, macros with dynamic scope,
// blocks evaluated in the caller's scope before the macro runs), into an XmlNode tree whose
// nodes remember where they came from.
#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numbers>
#include <tuple>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_map>


#include "rmodel/base/error.hpp"
#include "rmodel/base/file.hpp"
#include "rmodel/base/package_path.hpp"
#include "rmodel/base/suggest.hpp"
#include "rmodel/xacro/xacro.hpp"
#include "base/yaml_tree.hpp"
#include "xacro/document.hpp"
#include "xacro/expression.hpp"
#include "xacro/params.hpp"

namespace rmodel {
namespace xacro {

/// A symbol table: properties, blocks and include namespaces of one scope.
class Table {
public:
  struct Entry {
    enum class Kind : std::uint8_t { value, lazy, block } kind = Kind::value;
    Value value;
    std::string text;                 ///< lazy: the unevaluated text
    Origin origin;                    ///< where it was defined
    const XmlNode* block = nullptr;   ///< block: the element (or the property holding it)
    bool evaluating = false;          ///< lazy evaluation in progress (cycle detection)
  };
  Table* parent = nullptr;
  bool is_namespace = false;
  std::unordered_map<std::string, Entry> entries;

  Entry* find_here(const std::string& name) {
    auto it = entries.find(name);
    return it == entries.end() ? nullptr : &it->second;
  }
  /// The entry and the table holding it, walking up the scopes.
  std::pair<Entry*, Table*> find(const std::string& name) {
    for (Table* t = this; t; t = t->parent)
      if (Entry* e = t->find_here(name)) return {e, t};
    return {nullptr, nullptr};
  }
  /// The outermost table (the document's global scope).
  Table* top() {
    Table* t = this;
    while (t->parent) t = t->parent;
    return t;
  }
};

struct Macro {
  std::string name;
  std::vector<MacroParam> params;
  const XmlNode* body = nullptr;
};

class MacroTable {
public:
  MacroTable* parent = nullptr;
  std::unordered_map<std::string, std::shared_ptr<const Macro>> macros;
  std::unordered_map<std::string, MacroTable*> namespaces;

  const Macro* find(const std::string& name) const {
    for (const MacroTable* t = this; t; t = t->parent) {
      auto it = t->macros.find(name);
      if (it != t->macros.end()) return it->second.get();
    }
    return nullptr;
  }
  MacroTable* find_namespace(const std::string& name) {
    for (MacroTable* t = this; t; t = t->parent) {
      auto it = t->namespaces.find(name);
      if (it != t->namespaces.end()) return it->second;
    }
    return nullptr;
  }
  void names(std::vector<std::string>& out) const {
    for (const MacroTable* t = this; t; t = t->parent)
      for (const auto& [k, v] : t->macros) out.push_back(k);
  }
};

namespace {

/// Includes and YAML files are regular files: a device or a FIFO (/dev/zero) would never end.
void require_regular_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw IoError(path, "not a regular file");
}

struct Scope {
  Table* symbols;
  MacroTable* macros;
};

struct Frame {
  std::string text;   ///< "in macro 'leg' called from robot.urdf.xacro:40"
  std::string macro;  ///< the macro of a macro frame ("leg"), empty otherwise
};

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (const char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  static constexpr std::string_view keywords[] = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
      "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
      "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"};
  return std::find(std::begin(keywords), std::end(keywords), s) == std::end(keywords);
}

}  // namespace

/// The processor for one document.
class Processor final : public ExpressionHost {
public:
  explicit Processor(const XacroOptions& options) : options_(options), limits_(options.limits) {
    args_ = options.args;
    contexts_.emplace_back();
  }

  XacroResult run(std::string_view text, const std::string& name) {
    const int file = add_file(name);
    file_stack_.push_back(file);
    auto doc = parse(text, file);
    Table* globals = new_table(nullptr);
    MacroTable* macros = new_macros(nullptr);
    Scope scope{globals, macros};
    XmlNode out;
    out.kind = XmlNode::Kind::element;
    out.name = doc->name;
    out.origin = doc->origin;
    current_ = doc->origin;
    try {
      expand_root(*doc, out, scope);
    } catch (const EvalError& e) {
      fail(e.message);
    }
    settle_barriers(out);
    std::string xml;
    std::vector<Origin> origins;
    write_document(out, "expanded from " + files_.front() + " by rmodel xacro: edit the xacro, not this file", xml,
                   origins);
    if (xml.size() > limits_.output_bytes)
      fail_limit("the expanded document exceeds " + std::to_string(limits_.output_bytes) + " bytes");
    std::vector<XacroResult::LineOrigin> lines;
    lines.reserve(origins.size());
    for (const auto& o : origins) lines.push_back({o.file, o.line, o.context});
    return XacroResult(std::move(xml), files_, contexts_, std::move(lines), std::move(messages_));
  }

  void expand_root(const XmlNode& doc, XmlNode& out, const Scope& scope) {
    if (const std::string* target = doc.attribute("xacro:targetNamespace")) out.set_attribute("xmlns", *target);
    evaluate_attributes(doc, out, scope);
    expand_children(doc, out, scope, 0);
  }

  // ---- ExpressionHost
  std::optional<Value> lookup(const std::string& name) override { return lookup_in_table(*scope_symbols_, name); }
  std::optional<Value> lookup_in(const Table& table, const std::string& name) override {
    return lookup_in_table(const_cast<Table&>(table), name);
  }
  std::string unknown_name_message(const std::string& name) override {
    std::vector<std::string> candidates = global_names();
    for (Table* t = scope_symbols_; t; t = t->parent)
      for (const auto& [k, e] : t->entries)
        if (e.kind != Table::Entry::Kind::block) candidates.push_back(k);
    return "unknown property '" + name + "'" + did_you_mean_text(name, candidates);
  }
  Value load_yaml(const std::string& file) override;
  std::string arg(const std::string& name) override {
    auto it = args_.find(name);
    if (it != args_.end()) return it->second;
    std::vector<std::string> names;
    for (const auto& [k, v] : args_) names.push_back(k);
    throw EvalError{"undefined substitution argument '" + name + "'" + did_you_mean_text(name, names) +
                    " (give it a value with XacroOptions::args or declare <xacro:arg name=\"" + name +
                    "\" default=\"...\"/>)"};
  }
  void charge(std::size_t steps) override {
    steps_ += steps;
    if (steps_ > limits_.steps)
      throw EvalError{"the expansion exceeds " + std::to_string(limits_.steps) + " steps (a runaway recursion?)"};
  }
  std::size_t value_bytes_limit() const override { return limits_.value_bytes; }
  void report(Severity severity, const std::string& text) override {
    const DiagnosticCode code = severity == Severity::error     ? DiagnosticCode("xacro-error")
                                : severity == Severity::warning ? DiagnosticCode("xacro-warning")
                                                                : DiagnosticCode("xacro-message");
    messages_.emplace_back(severity, SourceLocation{files_.at(static_cast<std::size_t>(current_.file)), current_.line},
                           code, text + context_text());
  }
  std::string abs_filename(const std::string& name) override {
    // As xacro: joined to the directory of the file as it was named (os.path.join, so a file
    // named without a directory leaves `name` as it is).
    const std::filesystem::path p(name);
    if (p.is_absolute()) return name;
    const std::string& file = files_.at(static_cast<std::size_t>(file_stack_.back()));
    const std::filesystem::path dir =
        file == "-" || file == "<stdin>" ? std::filesystem::path(".") : std::filesystem::path(file).parent_path();
    return dir.empty() ? name : (dir / p).string();
  }

private:
  // ---------------------------------------------------------------- errors

  static std::string did_you_mean_text(const std::string& word, const std::vector<std::string>& candidates) {
    const std::string hint = did_you_mean(word, candidates);
    // did_you_mean gives "; did you mean 'X'?"; here it reads better in parentheses
    if (hint.size() > 2 && hint.rfind("; ", 0) == 0) return " (" + hint.substr(2, hint.size() - 2) + ")";
    return hint;
  }

  /// The chain of macro calls, included files and properties being evaluated, innermost
  /// first; a deep one (a runaway recursion) shows its 4 innermost and 4 outermost links.
  std::string context_text() const {
    constexpr std::size_t kEnds = 4;
    std::string out;
    const std::size_t n = frames_.size();
    for (std::size_t k = 0; k < n; ++k) {
      if (n > 3 * kEnds && k == kEnds) {
        out += ", ... (" + std::to_string(n - 2 * kEnds) + " more)";
        k = n - kEnds - 1;
        continue;
      }
      out += ", " + frames_[n - 1 - k].text;
    }
    return out;
  }

  [[noreturn]] void fail_at(const Origin& where, const std::string& message) const {
    throw ParseError({files_.at(static_cast<std::size_t>(where.file)), where.line}, message + context_text());
  }
  [[noreturn]] void fail(const std::string& message) const { fail_at(current_, message); }
  [[noreturn]] void fail_limit(const std::string& message) const { fail(message); }

  std::string where(const Origin& o) const { return files_.at(static_cast<std::size_t>(o.file)) + ":" + std::to_string(o.line); }

  // ---------------------------------------------------------------- files

  int add_file(const std::string& name) {
    files_.push_back(name);
    return static_cast<int>(files_.size() - 1);
  }

  /// A path named relative to the file being processed. An absolute one (what $(find)
  /// gives) is named as the user named the top-level file: relative to the working
  /// directory when that file was (`../pkg/urdf/leg.xacro:5` beside `../robot.xacro:3`),
  /// absolute when it was, so one message never mixes the two forms.
  std::string relative_to_current(const std::string& name) const {
    const std::filesystem::path p(name);
    if (p.is_absolute()) {
      const std::string top = files_.empty() ? std::string("-") : files_.front();
      const bool from_stdin = top == "-" || top == "<stdin>";
      if (!from_stdin && std::filesystem::path(top).is_absolute()) return name;
      std::error_code ec;
      const auto cwd = std::filesystem::current_path(ec);
      if (ec) return name;
      const auto relative = p.lexically_normal().lexically_relative(cwd);
      // From standard input, only paths under the working directory are shortened.
      if (relative.empty() || (from_stdin && *relative.begin() == "..")) return name;
      return relative.string();
    }
    const std::string& f = files_.at(static_cast<std::size_t>(file_stack_.back()));
    if (f == "-" || f == "<stdin>") return name;
    return (std::filesystem::path(f).parent_path() / p).lexically_normal().string();
  }

  const XmlNode* parse(std::string_view text, int file) {
    auto root = std::make_unique<XmlNode>();
    int line = 0;
    std::string error;
    if (!parse_document(text, file, *root, line, error))
      throw ParseError({files_.at(static_cast<std::size_t>(file)), line}, error + context_text());
    documents_.push_back(std::move(root));
    return documents_.back().get();
  }

  Table* new_table(Table* parent, bool is_namespace = false) {
    tables_.push_back(std::make_unique<Table>());
    tables_.back()->parent = parent;
    tables_.back()->is_namespace = is_namespace;
    return tables_.back().get();
  }
  MacroTable* new_macros(MacroTable* parent) {
    macro_tables_.push_back(std::make_unique<MacroTable>());
    macro_tables_.back()->parent = parent;
    return macro_tables_.back().get();
  }

  // ---------------------------------------------------------------- symbols

  std::optional<Value> lookup_in_table(Table& from, const std::string& name) {
    auto [entry, table] = from.find(name);
    if (!entry || entry->kind == Table::Entry::Kind::block) return std::nullopt;
    if (entry->kind == Table::Entry::Kind::lazy) resolve_lazy(*entry, *table, name);
    return entry->value;
  }

  void resolve_lazy(Table::Entry& entry, Table& table, const std::string& name) {
    if (entry.evaluating)
      throw EvalError{"circular property definition: '" + name +
                      "' refers to itself (through other properties); lazy_eval=\"false\" evaluates at definition"};
    if (++lazy_depth_ > 200) {
      --lazy_depth_;
      throw EvalError{"properties refer to each other more than 200 levels deep"};
    }
    entry.evaluating = true;
    const Origin saved = current_;
    Table* saved_symbols = scope_symbols_;
    frames_.push_back({"in property '" + name + "' (defined at " + where(entry.origin) + ") used at " + where(saved), {}});
    current_ = entry.origin;
    Value v;
    auto restore = [&] {
      entry.evaluating = false;
      --lazy_depth_;
      frames_.pop_back();
      current_ = saved;
      scope_symbols_ = saved_symbols;
    };
    try {
      Scope scope{&table, nullptr};
      v = eval_text(entry.text, scope);
    } catch (const EvalError& e) {
      // Reported where the property is defined, with the use in the context.
      ParseError error({files_.at(static_cast<std::size_t>(entry.origin.file)), entry.origin.line},
                       e.message + context_text());
      restore();
      throw error;
    } catch (...) {
      restore();
      throw;
    }
    frames_.pop_back();
    current_ = saved;
    scope_symbols_ = saved_symbols;
    entry.evaluating = false;
    --lazy_depth_;
    entry.value = v.kind == Value::Kind::string ? literal(*v.s) : v;
    entry.kind = Table::Entry::Kind::value;
    entry.text.clear();
  }

  /// xacro's _setitem: literal reading of text; lazily evaluated when it stays text and lazy.
  void set_symbol(Table& table, const std::string& name, Value value, bool lazy, const Origin& origin) {
    Table::Entry e;
    e.origin = origin;
    if (value.kind == Value::Kind::string) value = literal(*value.s);
    if (lazy && value.kind == Value::Kind::string) {
      e.kind = Table::Entry::Kind::lazy;
      e.text = *value.s;
    } else {
      e.value = std::move(value);
    }
    table.entries[name] = std::move(e);
  }

  // ---------------------------------------------------------------- text

  std::shared_ptr<const Ast> compiled(const std::string& expression) {
    auto it = expression_cache_.find(expression);
    if (it != expression_cache_.end()) return it->second;
    auto ast = parse_expression(expression);
    if (expression_cache_.size() < 100000) expression_cache_.emplace(expression, ast);
    return ast;
  }

  /// xacro's eval_text, with its lexer (QuickLexer over LEXER): at each place, in this order,
  /// `$$...{` or `$$...(` (one '$' less, as text), `${` to the first '}' (an expression),
  /// `$(` to the first ')' (a substitution), text without '$', or a '$' followed by text
  /// without '{', '(' and '$', or a '$' at the end; anything else ("${" never closed, "$$"
  /// before other text) is an invalid expression, as in xacro. So `}` cannot stand in an
  /// expression (`${{'a': 1}}`, `${'{}'.format(x)}` end early and fail, as in xacro), nor
  /// `)` in a substitution. A text that is one `${...}` keeps the expression's type; anything
  /// else is joined as text.
  Value eval_text(std::string_view text, const Scope& scope) {
    if (text.find('$') == std::string_view::npos) return Value::string(std::string(text));
    Table* saved = scope_symbols_;
    scope_symbols_ = scope.symbols;
    std::vector<Value> parts;
    try {
      std::size_t k = 0;
      while (k < text.size()) {
        if (text[k] != '$') {
          const std::size_t end = std::min(text.find('$', k), text.size());
          parts.push_back(Value::string(std::string(text.substr(k, end - k))));
          k = end;
          continue;
        }
        std::size_t run = k;
        while (run < text.size() && text[run] == '$') ++run;
        const char next = run < text.size() ? text[run] : '\0';
        if (run - k >= 2 && (next == '{' || next == '(')) {
          parts.push_back(Value::string(std::string(text.substr(k + 1, run - k))));
          k = run + 1;
          continue;
        }
        if (run - k == 1 && (next == '{' || next == '(')) {
          const std::size_t close = text.find(next == '{' ? '}' : ')', run + 1);
          if (close != std::string_view::npos) {
            const std::string_view inner = text.substr(run + 1, close - run - 1);
            parts.push_back(next == '{' ? expression(inner, scope) : Value::string(extension(inner, scope)));
            k = close + 1;
            continue;
          }
        } else if (run - k == 1) {
          // `\$[^{($]+` or `\$$`
          std::size_t end = run;
          while (end < text.size() && text[end] != '{' && text[end] != '(' && text[end] != '$') ++end;
          parts.push_back(Value::string(std::string(text.substr(k, end - k))));
          k = end;
          continue;
        }
        throw EvalError{"invalid expression: " + std::string(text.substr(k)) +
                        " (a '$' starts ${...}, $(...), or $${ and $$( for the texts ${ and $(, or is followed by"
                        " other text than '$')"};
      }
    } catch (...) {
      scope_symbols_ = saved;
      throw;
    }
    scope_symbols_ = saved;
    if (parts.size() == 1) return parts.front();
    std::string joined;
    for (const auto& p : parts) {
      joined += to_text(p);
      if (joined.size() > limits_.value_bytes) throw EvalError{"a text longer than the value limit"};
    }
    return Value::string(std::move(joined));
  }

  std::string text_of(std::string_view text, const Scope& scope) { return to_text(eval_text(text, scope)); }

  Value expression(std::string_view inner, const Scope& scope) {
    charge(1);
    std::string source(inner);
    if (source.find('$') != std::string::npos) source = text_of(source, scope);
    try {
      const auto ast = compiled(source);
      Table* saved = scope_symbols_;
      scope_symbols_ = scope.symbols;
      try {
        Value v = evaluate(*ast, *this);
        scope_symbols_ = saved;
        return v;
      } catch (...) {
        scope_symbols_ = saved;
        throw;
      }
    } catch (const EvalError& e) {
      if (e.message.find(" in ${") != std::string::npos || e.message.find("circular") != std::string::npos ||
          e.message.find(", in property") != std::string::npos)
        throw;
      throw EvalError{e.message + " in ${" + std::string(inner) + "}"};
    }
  }

  /// roslaunch's _collect_args over `text`: the insides of its `$(...)`. @throws EvalError for
  /// a '$' or '(' inside one, as xacro's substitution_args does.
  static std::vector<std::string> substitution_args(std::string_view text) {
    enum class State { out, dollar, left_paren, in } state = State::out;
    std::vector<std::string> found;
    std::string buffer;
    for (const char c : text) {
      if (c == '$') {
        if (state == State::out) state = State::dollar;
        else if (state != State::dollar)
          throw EvalError{"Dollar signs \"$\" cannot be inside of substitution args [" + std::string(text) + "]"};
      } else if (c == '(') {
        if (state == State::dollar) state = State::left_paren;
        else if (state != State::out)
          throw EvalError{"Invalid left parenthesis \"(\" in substitution args [" + std::string(text) + "]"};
      } else if (c == ')') {
        if (state == State::in) found.push_back(std::move(buffer));
        buffer.clear();
        state = State::out;
      } else if (state == State::dollar) {
        state = State::out;
      } else if (state == State::left_paren) {
        state = State::in;
      }
      if (state == State::in) buffer += c;
    }
    return found;
  }

  /// One substitution command with its arguments (split at spaces), as ROS 2's xacro
  /// (substitution_args.py) resolves it: arg, env, optenv, find; dirname, which xacro has no
  /// file name for, fails there as here.
  std::string substitute(const std::string& command, const std::vector<std::string>& args) override {
    const std::string whole = command + (args.empty() ? "" : " ");
    if (command == "arg") {
      if (args.size() != 1)
        throw EvalError{args.empty() ? "$(arg var) must specify a variable name" : "$(arg var) may only specify one arg"};
      return arg(args[0]);
    }
    if (command == "find") {
      if (args.size() != 1) throw EvalError{"$(find pkg) accepts exactly one argument"};
      return find_package(args[0]);
    }
    if (command == "env" || command == "optenv") {
      if (command == "env" && args.size() != 1) throw EvalError{"$(env var) command only accepts one argument"};
      if (args.empty()) throw EvalError{"$(optenv var) must specify an environment variable"};
      const char* value = environment(args[0].c_str());
      if (value) return value;
      if (command == "env") throw EvalError{"environment variable '" + args[0] + "' is not set"};
      std::string fallback;
      for (std::size_t k = 1; k < args.size(); ++k) fallback += (k > 1 ? " " : "") + args[k];
      return fallback;
    }
    if (command == "dirname")
      throw EvalError{"Cannot substitute $(dirname): ROS's xacro has no file name to give it (xacro.abs_filename('') "
                      "and $(find PKG) give directories)"};
    throw EvalError{"Unknown substitution command [" + command + "]. Valid commands are ['find', 'env', 'optenv', "
                    "'dirname', 'arg'] (and eval)"};
  }

  /// `$(...)` as xacro's eval_extension resolves it: `$(cwd)`; `$(eval expression)`; else the
  /// one substitution it holds, then any `$(find ...)` in what that gave (an argument whose
  /// value names a package path). `$()` stays as written.
  std::string extension(std::string_view raw, const Scope& scope) {
    charge(1);
    const std::string inner = text_of(raw, scope);
    if (inner == "cwd") return std::filesystem::current_path().string();
    if (inner.rfind("eval ", 0) == 0) return eval_extension(inner.substr(5));
    std::string resolved = "$(" + inner + ")";
    for (int pass = 0; pass < 2; ++pass) {
      for (const std::string& a : substitution_args(resolved)) {
        std::vector<std::string> words;
        for (std::size_t k = 0; k < a.size();) {
          const std::size_t space = std::min(a.find(' ', k), a.size());
          if (space > k) words.push_back(a.substr(k, space - k));
          k = space + 1;
        }
        if (words.empty()) throw EvalError{"an empty substitution $(" + a + ")"};
        static constexpr std::string_view valid[] = {"find", "env", "optenv", "dirname", "arg"};
        if (std::find(std::begin(valid), std::end(valid), words[0]) == std::end(valid))
          throw EvalError{"Unknown substitution command [" + a + "]. Valid commands are ['find', 'env', 'optenv', "
                          "'dirname', 'arg'] (and eval)"};
        if (pass == 1 && words[0] != "find") continue;  // the second pass resolves find only
        const std::string value = substitute(words[0], std::vector<std::string>(words.begin() + 1, words.end()));
        const std::string written = "$(" + a + ")";
        for (std::size_t at = 0; (at = resolved.find(written, at)) != std::string::npos; at += value.size())
          resolved.replace(at, written.size(), value);
      }
    }
    return resolved;
  }

  const char* environment(const char* name) const {
    return options_.environment ? options_.environment(name) : std::getenv(name);
  }

  std::string find_package(const std::string& name) {
    // One finder for the expansion: each search directory is crawled once however many
    // $(find)s there are (PR2's 51 crawled the tree 51 times where a folder had no package.xml).
    if (!packages_) {
      const char* ros = environment("ROS_PACKAGE_PATH");
      const char* ament = environment("AMENT_PREFIX_PATH");
      packages_.emplace(package_search_path(options_.package_paths, ros ? ros : "", ament ? ament : ""));
    }
    const auto search = packages_->search();
    if (const auto dir = packages_->find(name)) {
      // Absolute, as rospack answers: the result is pasted into paths of other files.
      std::error_code ec;
      const auto absolute = std::filesystem::absolute(*dir, ec);
      return (ec ? *dir : absolute).lexically_normal().string();
    }
    std::string searched;
    for (const auto& d : search) searched += (searched.empty() ? "" : ", ") + d.string();
    const auto otherwise = packages_->named_otherwise(name);
    throw EvalError{"package '" + name + "' not found" +
                    (searched.empty()
                         ? std::string(": give its parent directory with XacroOptions::package_paths or "
                                       "ROS_PACKAGE_PATH")
                         : " in " + searched + " (XacroOptions::package_paths, ROS_PACKAGE_PATH, AMENT_PREFIX_PATH)") +
                    (otherwise ? "; " + *otherwise : std::string())};
  }

  /// `$(eval ...)`: names are the substitution arguments (as text, as roslaunch has them),
  /// and arg('name') reads one with its literal type.
  /// `$(eval ...)`: roslaunch's names (eval_name: true, false, list, dict, map, str, float,
  /// int, the math module, arg(), env(), optenv(), find(), dirname()), then the substitution
  /// arguments, each as convert_value(value, 'auto') reads it.
  class EvalHost final : public ExpressionHost {
  public:
    explicit EvalHost(Processor& p) : p_(p) {}
    std::optional<Value> lookup(const std::string& name) override {
      if (auto v = eval_name(name)) return v;
      auto it = p_.args_.find(name);
      if (it != p_.args_.end()) return roslaunch_value(it->second);
      return std::nullopt;
    }
    std::optional<Value> global(std::string_view) override { return std::nullopt; }
    std::optional<Value> lookup_in(const Table&, const std::string&) override { return std::nullopt; }
    std::string unknown_name_message(const std::string& name) override {
      std::vector<std::string> names;
      for (const auto& [k, v] : p_.args_) names.push_back(k);
      return "name '" + name + "' is not defined in $(eval ...) (its names are the arguments and roslaunch's functions)" +
             did_you_mean_text(name, names);
    }
    Value load_yaml(const std::string& file) override { return p_.load_yaml(file); }
    std::string arg(const std::string& name) override { return p_.arg(name); }
    void report(Severity severity, const std::string& text) override { p_.report(severity, text); }
    std::string abs_filename(const std::string& name) override { return p_.abs_filename(name); }
    void charge(std::size_t steps) override { p_.charge(steps); }
    std::size_t value_bytes_limit() const override { return p_.value_bytes_limit(); }
    std::string substitute(const std::string& command, const std::vector<std::string>& args) override {
      if (command == "optenv" && args.size() > 2) throw EvalError{"optenv() takes 1 or 2 arguments"};
      if (command != "optenv" && command != "dirname" && args.size() != 1)
        throw EvalError{command + "() takes exactly one argument"};
      if (command == "optenv" && args.size() == 2) {
        const char* value = p_.environment(args[0].c_str());
        return value ? value : args[1];
      }
      return p_.substitute(command, args);
    }

  private:
    Processor& p_;
  };

  std::string eval_extension(const std::string& expression_text) {
    // roslaunch refuses any double underscore, for safety
    if (expression_text.find("__") != std::string::npos)
      throw EvalError{"$(eval ...) may not contain double underscore expressions"};
    EvalHost host(*this);
    const auto ast = compiled(expression_text);
    Value v = evaluate(*ast, host);
    return to_text(v);
  }

  // ---------------------------------------------------------------- expansion

  void count_output(std::size_t n = 1) {
    output_nodes_ += n;
    if (output_nodes_ > limits_.output_nodes)
      fail_limit("the expanded document exceeds " + std::to_string(limits_.output_nodes) + " nodes");
  }

  void evaluate_attributes(const XmlNode& in, XmlNode& out, const Scope& scope) {
    for (const auto& [key, value] : in.attributes) {
      if (key.rfind("xacro:", 0) == 0 || key == "xmlns:xacro") continue;
      out.set_attribute(key, evaluated(value, scope));
    }
  }

  static bool is_xml_name(const std::string& name) {
    if (name.empty()) return false;
    const auto start = [](unsigned char c) { return std::isalpha(c) || c == '_' || c == ':' || c >= 0x80; };
    if (!start(static_cast<unsigned char>(name[0]))) return false;
    return std::all_of(name.begin(), name.end(), [&](char ch) {
      const auto c = static_cast<unsigned char>(ch);
      return start(c) || std::isdigit(c) || c == '-' || c == '.';
    });
  }
  void require_xml_name(const std::string& name, const char* what) {
    if (!is_xml_name(name)) fail(std::string(what) + ": '" + name + "' is not an XML name");
  }

  /// Text written into the document: XML 1.0 has no place for control characters.
  std::string checked_text(std::string text) {
    for (const char ch : text) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
        fail("the expansion holds the control character " + std::to_string(c) + ", which XML cannot carry");
    }
    return text;
  }

  std::string evaluated(const std::string& text, const Scope& scope) {
    // Text as written holds no control character (the XML reader refuses them, references
    // included): only what expressions make is checked.
    if (text.find('$') == std::string::npos) return text;
    try {
      return checked_text(text_of(text, scope));
    } catch (const EvalError& e) {
      fail(e.message);
    }
  }
  Value evaluated_value(const std::string& text, const Scope& scope) {
    try {
      return eval_text(text, scope);
    } catch (const EvalError& e) {
      fail(e.message);
    }
  }

  const std::string& required(const XmlNode& node, const char* attribute) {
    const std::string* v = node.attribute(attribute);
    if (!v) fail("<" + node.name + "> needs a '" + attribute + "' attribute");
    return *v;
  }

  // ---- comments before directives, as xacro's remove_previous_comments
  //
  // xacro drops the comments right before each of its tags but insert_block, element and
  // attribute: going back from the tag, it skips one blank text of at most one line end
  // before each comment; anything else stops it (a blank line, text, an element). It then
  // puts a blank text of two line ends after the tag, which stops the next tag's search
  // there; that text is a single node, moved at each tag, so only the latest one stays
  // (Node::barrier). The search stays within the tag's own list of siblings: a macro body,
  // an included file, the content of an xacro:if are evaluated apart before they take the
  // tag's place.

  /// Where the element expand_children hands on stands among its siblings.
  struct Place {
    std::size_t list_start = 0;  ///< the first node of its list of siblings in `out`
    bool has_next = false;       ///< a sibling follows it
  };

  bool dead_barrier(const XmlNode& n) const { return n.barrier != 0 && n.barrier != live_barrier_; }

  static bool python_blank(std::string_view s) {
    if (s.empty()) return false;
    const std::size_t other = s.find_first_not_of(" \t\n\r\f\v");
    if (other == std::string_view::npos) return true;
    if (static_cast<unsigned char>(s[other]) < 0x80 && (s[other] < 0x1c || s[other] > 0x1f)) return false;
    for (std::size_t k = 0; k < s.size();) {
      const std::size_t w = python_space(s, k);
      if (w == 0) return false;
      k += w;
    }
    return true;
  }

  /// Drops the comments before out.children[end] (back to list_start) as xacro does; gives
  /// how many it dropped.
  std::size_t drop_previous_comments(XmlNode& out, std::size_t list_start, std::size_t end) {
    auto& c = out.children;
    auto skip_dead = [&](std::size_t k) {
      while (k > list_start && dead_barrier(c[k - 1])) --k;
      return k;
    };
    std::size_t k = skip_dead(end);
    std::vector<std::size_t> dropped;  // from the last
    while (k > list_start) {
      const XmlNode& before = c[k - 1];
      if (before.kind == XmlNode::Kind::text && !before.cdata && python_blank(before.name) &&
          std::count(before.name.begin(), before.name.end(), '\n') <= 1) {
        k = skip_dead(k - 1);
        if (k == list_start) break;
      }
      if (c[k - 1].kind != XmlNode::Kind::comment) break;
      dropped.push_back(k - 1);
      k = skip_dead(k - 1);
    }
    if (dropped.empty()) return 0;
    // one pass over what follows the first dropped comment (a macro body may follow the call)
    std::size_t to = dropped.back(), next_drop = dropped.size() - 1;
    for (std::size_t from = dropped.back(); from < c.size(); ++from) {
      if (next_drop < dropped.size() && from == dropped[next_drop]) {
        next_drop = next_drop == 0 ? dropped.size() : next_drop - 1;
        continue;
      }
      if (to != from) c[to] = std::move(c[from]);
      ++to;
    }
    c.resize(to);
    return dropped.size();
  }

  /// The barrier a directive puts before its next sibling, if it has one; 0 otherwise.
  std::uint32_t new_barrier(const Place& place) {
    if (!place.has_next) return 0;
    live_barrier_ = ++barrier_count_;
    return live_barrier_;
  }
  void append_barrier(XmlNode& out, std::uint32_t id) {
    if (id == 0) return;
    XmlNode t;
    t.kind = XmlNode::Kind::text;
    t.name = "\n\n";
    t.barrier = id;
    t.origin = current_;
    if (!out.children.empty() && dead_barrier(out.children.back())) {
      out.children.back() = std::move(t);  // a gone one at the same place: no node to keep
      return;
    }
    count_output();
    out.children.push_back(std::move(t));
  }
  /// A directive without content (property, macro, arg): comments dropped, barrier after it.
  void close_directive(XmlNode& out, const Place& place) {
    drop_previous_comments(out, place.list_start, out.children.size());
    append_barrier(out, new_barrier(place));
  }

  /// The gone barriers leave the result; the one still in place is the blank text it is.
  void settle_barriers(XmlNode& node) {
    auto& c = node.children;
    c.erase(std::remove_if(c.begin(), c.end(), [&](const XmlNode& n) { return dead_barrier(n); }), c.end());
    for (XmlNode& n : c) {
      n.barrier = 0;
      if (n.kind == XmlNode::Kind::element) settle_barriers(n);
    }
  }

  void expand_children(const XmlNode& in, XmlNode& out, const Scope& scope, int depth) {
    const std::size_t list_start = out.children.size();
    bool eval_comments = false;  // after <!-- xacro:eval-comments -->, until an element or text
    for (std::size_t index = 0; index < in.children.size(); ++index) {
      const XmlNode& child = in.children[index];
      charge(1);
      if (child.kind == XmlNode::Kind::comment) {
        if (child.name.find("xacro:eval-comments") != std::string::npos) {
          eval_comments = child.name.find("xacro:eval-comments:off") == std::string::npos;
          continue;  // the marker itself goes
        }
        count_output();
        XmlNode c = child;
        c.origin.context = context_id();
        if (eval_comments) {
          current_ = child.origin;
          c.name = evaluated(child.name, scope);
        }
        out.children.push_back(std::move(c));
        continue;
      }
      if (child.kind == XmlNode::Kind::text) {
        if (child.barrier != 0) {
          // A block expanded again (insert_block): xacro copies the block, and with it the
          // barrier if it is still there, as a plain blank text.
          if (child.barrier == live_barrier_) {
            XmlNode t = child;
            t.barrier = 0;
            count_output();
            out.children.push_back(std::move(t));
          }
          continue;
        }
        current_ = child.origin;
        XmlNode t;
        t.kind = XmlNode::Kind::text;
        t.cdata = child.cdata;
        t.name = child.cdata ? child.name : evaluated(child.name, scope);  // xacro leaves CDATA as it is
        t.origin = child.origin;
        t.origin.context = context_id();
        output_bytes_ += t.name.size();
        if (output_bytes_ > limits_.output_bytes)
          fail_limit("the expanded document exceeds " + std::to_string(limits_.output_bytes) + " bytes");
        count_output();
        if (!t.cdata && !python_blank(t.name) && !t.name.empty()) eval_comments = false;
        out.children.push_back(std::move(t));
        continue;
      }
      eval_comments = false;
      place_ = {list_start, index + 1 < in.children.size()};
      expand_element(child, out, scope, depth);
    }
  }

  int context_id() {
    if (frames_.empty()) return 0;
    if (context_cache_ != frames_.size() || context_generation_ != frame_generation_) {
      std::string text = context_text().substr(2);
      contexts_.push_back(std::move(text));
      context_cache_ = frames_.size();
      context_generation_ = frame_generation_;
      context_cached_id_ = static_cast<int>(contexts_.size() - 1);
    }
    return context_cached_id_;
  }
  void push_frame(std::string text, std::string macro = {}) {
    frames_.push_back({std::move(text), std::move(macro)});
    ++frame_generation_;
  }
  void pop_frame() {
    frames_.pop_back();
    ++frame_generation_;
  }

  void expand_element(const XmlNode& node, XmlNode& out, const Scope& scope, int depth) {
    const Place place = place_;
    current_ = node.origin;
    if (depth > limits_.element_depth)
      fail_limit("elements nested deeper than " + std::to_string(limits_.element_depth) + " levels");
    const std::string& tag = node.name;
    if (tag.rfind("xacro:", 0) != 0) return expand_plain(node, out, scope, depth);
    const std::string_view what = std::string_view(tag).substr(6);
    if (what == "property") {
      close_directive(out, place);
      return define_property(node, scope);
    }
    if (what == "macro") {
      close_directive(out, place);
      return define_macro(node, scope);
    }
    if (what == "include") return include(node, out, scope, depth, place);
    if (what == "arg") {
      const std::string& name = required(node, "name");
      const std::string& fallback = required(node, "default");
      if (!args_.count(name)) args_[name] = evaluated(fallback, scope);
      close_directive(out, place);
      return;
    }
    if (what == "if" || what == "unless") {
      drop_previous_comments(out, place.list_start, out.children.size());
      const std::uint32_t barrier = new_barrier(place);
      const std::string& condition = required(node, "value");
      bool keep = boolean(evaluated_value(condition, scope), condition);
      if (what == "unless") keep = !keep;
      if (keep) expand_children(node, out, scope, depth + 1);
      append_barrier(out, barrier);
      return;
    }
    if (what == "insert_block") return insert_block(node, out, scope, depth);
    if (what == "element") {
      const std::string& name_text = required(node, "xacro:name");
      const std::string name = evaluated(name_text, scope);
      require_xml_name(name, "xacro:element");
      XmlNode renamed = node;
      renamed.name = name;
      renamed.attributes.erase(std::remove_if(renamed.attributes.begin(), renamed.attributes.end(),
                                              [](const auto& a) { return a.first == "xacro:name"; }),
                               renamed.attributes.end());
      place_ = place;
      return expand_element(renamed, out, scope, depth + 1);
    }
    if (what == "attribute") {
      const std::string name = evaluated(required(node, "name"), scope);
      const std::string value = evaluated(required(node, "value"), scope);
      require_xml_name(name, "xacro:attribute");
      out.set_attribute(name, value);
      return;
    }
    return call_macro(node, out, scope, depth, place);
  }

  void expand_plain(const XmlNode& node, XmlNode& out, const Scope& scope, int depth) {
    count_output();
    XmlNode element;
    element.kind = XmlNode::Kind::element;
    element.name = node.name;
    element.origin = node.origin;
    element.origin.context = context_id();
    evaluate_attributes(node, element, scope);
    expand_children(node, element, scope, depth + 1);
    out.children.push_back(std::move(element));
  }

  bool boolean(const Value& v, const std::string& condition) {
    if (v.kind == Value::Kind::string) {
      const std::string& s = *v.s;
      if (s == "true" || s == "True") return true;
      if (s == "false" || s == "False") return false;
      if (const auto i = parse_python_int(s)) return *i != 0;
      fail("xacro:if / xacro:unless: \"" + condition + "\" evaluated to '" + s +
           "', which is not a boolean (true, false, 1 or 0)");
    }
    return truthy(v);
  }

  // -- properties

  void define_property(const XmlNode& node, const Scope& scope) {
    const std::string name = evaluated(required(node, "name"), scope);
    if (!is_identifier(name)) fail("property names must be Python identifiers: '" + name + "'");
    if (name.rfind("__", 0) == 0) fail("property names must not start with '__': '" + name + "'");
    const std::string* value = node.attribute("value");
    const std::string* fallback = node.attribute("default");
    const std::string* remove_text = node.attribute("remove");
    const std::string* scope_text = node.attribute("scope");
    const std::string* lazy_text = node.attribute("lazy_eval");
    const bool remove = remove_text && boolean(evaluated_value(*remove_text, scope), *remove_text);
    if ((value ? 1 : 0) + (fallback ? 1 : 0) + (remove ? 1 : 0) > 1)
      fail("property '" + name + "': value, default and remove exclude each other");
    Table& table = *scope.symbols;
    if (remove) {
      for (Table* t = &table; t; t = t->parent) t->entries.erase(name);
      return;
    }
    std::optional<std::string> text;
    if (value) text = *value;
    if (fallback) {
      if (table.find(name).first) return;  // already defined: the default does not apply
      text = *fallback;
    }
    bool lazy = !lazy_text || boolean(evaluated_value(*lazy_text, scope), *lazy_text);
    Table* target = &table;
    if (scope_text && *scope_text == "global") {
      target = table.top();
      lazy = false;
    } else if (scope_text && *scope_text == "parent") {
      if (!table.parent) return;  // no parent scope at the top level: xacro warns and drops it
      target = table.parent;
      lazy = false;
      if (!table.is_namespace)
        while (target->is_namespace && target->parent) target = target->parent;
    } else if (scope_text && !scope_text->empty() && *scope_text != "local") {
      fail("property '" + name + "': scope must be 'parent' or 'global', not '" + *scope_text + "'");
    }
    if (!text) {  // a property block
      Table::Entry e;
      e.kind = Table::Entry::Kind::block;
      e.block = &node;
      e.origin = node.origin;
      target->entries["**" + name] = std::move(e);
      return;
    }
    Value v = lazy ? Value::string(*text) : evaluated_value(*text, scope);
    set_symbol(*target, name, std::move(v), lazy, node.origin);
  }

  // -- macros

  void define_macro(const XmlNode& node, const Scope& scope) {
    std::string name = required(node, "name");
    if (name.rfind("xacro:", 0) == 0) name = name.substr(6);
    if (name == "call") fail("'call' cannot be a macro name (xacro:call calls a macro by name)");
    if (name.find('.') != std::string::npos) fail("macro names must not contain '.' (it separates namespaces): '" + name + "'");
    if (name.empty()) fail("a macro needs a name");
    auto macro = std::make_shared<Macro>();
    macro->name = name;
    macro->body = &node;
    if (const std::string* params = node.attribute("params")) {
      try {
        macro->params = parse_macro_params(*params);
      } catch (const EvalError& e) {
        fail("macro '" + name + "': " + e.message);
      }
    }
    scope.macros->macros[name] = std::move(macro);
  }

  struct Resolved {
    const Macro* macro;
    Scope scope;
  };

  Resolved resolve_macro(const std::string& full, const Scope& scope) {
    if (const Macro* m = scope.macros->find(full)) return {m, scope};
    // ns.name: walk the include namespaces
    std::vector<std::string> parts;
    for (std::size_t k = 0, dot = 0; k <= full.size(); k = dot + 1) {
      dot = full.find('.', k);
      if (dot == std::string::npos) dot = full.size();
      parts.push_back(full.substr(k, dot - k));
    }
    if (parts.size() > 1) {
      MacroTable* macros = scope.macros;
      Table* symbols = scope.symbols;
      bool found = true;
      for (std::size_t k = 0; k + 1 < parts.size() && found; ++k) {
        macros = macros->find_namespace(parts[k]);
        auto [entry, holder] = symbols->find(parts[k]);
        if (!macros || !entry || entry->value.kind != Value::Kind::scope) {
          found = false;
          break;
        }
        symbols = const_cast<Table*>(entry->value.table);
      }
      if (found)
        if (const Macro* m = macros->find(parts.back())) return {m, {symbols, macros}};
    }
    std::vector<std::string> names;
    scope.macros->names(names);
    fail("unknown macro 'xacro:" + full + "'" + did_you_mean_text(full, names));
  }

  void call_macro(const XmlNode& node, XmlNode& out, const Scope& caller, int depth, const Place& place) {
    charge(1);
    std::string name = node.name.substr(6);
    bool dynamic = false;
    if (name == "call") {
      name = evaluated(required(node, "macro"), caller);
      if (name.rfind("xacro:", 0) == 0) name = name.substr(6);
      dynamic = true;
    }
    const Resolved resolved = resolve_macro(name, caller);
    const Macro& macro = *resolved.macro;
    if (static_cast<int>(macro_depth_) >= limits_.macro_depth) {
      // Named, with its depth; the chain of calls that follows is bounded (context_text).
      const auto again = std::count_if(frames_.begin(), frames_.end(), [&](const Frame& f) { return f.macro == macro.name; });
      const std::string limit = std::to_string(limits_.macro_depth) + " nested macro calls (XacroLimits::macro_depth)";
      if (again > 0)
        fail("macro '" + macro.name + "' calls itself " + std::to_string(again) + " levels deep, past the limit of " + limit +
             ": a recursion that does not end?");
      fail("macro calls nested deeper than the limit of " + limit + ", calling '" + macro.name + "'");
    }
    Scope inner{new_table(resolved.scope.symbols), new_macros(resolved.scope.macros)};
    std::vector<const MacroParam*> pending;
    for (const auto& p : macro.params) pending.push_back(&p);
    auto param_names = [&] {
      std::vector<std::string> out_names;
      for (const auto& p : macro.params)
        if (p.name[0] != '*') out_names.push_back(p.name);
      return out_names;
    };
    for (const auto& attribute : node.attributes) {
      const std::string& key = attribute.first;
      const std::string& value = attribute.second;
      if (dynamic && key == "macro") continue;
      auto it = std::find_if(pending.begin(), pending.end(), [&](const MacroParam* p) { return p->name == key; });
      if (it == pending.end())
        fail("macro '" + macro.name + "' has no parameter '" + key + "'" + did_you_mean_text(key, param_names()));
      pending.erase(it);
      set_symbol(*inner.symbols, key, evaluated_value(value, resolved.scope), false, node.origin);
    }
    // Blocks: the call's children, evaluated in the caller's scope before the macro runs.
    XmlNode given;
    expand_children(node, given, resolved.scope, depth + 1);
    current_ = node.origin;
    auto next_element = given.children.begin();
    auto skip_to_element = [&] {
      while (next_element != given.children.end() && next_element->kind != XmlNode::Kind::element) ++next_element;
    };
    skip_to_element();
    for (auto it = pending.begin(); it != pending.end();) {
      const MacroParam& p = **it;
      if (p.name[0] != '*') {
        ++it;
        continue;
      }
      if (next_element == given.children.end())
        fail("macro '" + macro.name + "' expects a block for '" + p.name + "' and the call gives none");
      auto block = std::make_shared<XmlNode>(std::move(*next_element));
      ++next_element;
      skip_to_element();
      Table::Entry e;
      e.kind = Table::Entry::Kind::block;
      e.block = block.get();
      e.origin = node.origin;
      blocks_.push_back(std::move(block));
      inner.symbols->entries[p.name] = std::move(e);
      it = pending.erase(it);
    }
    if (next_element != given.children.end())
      fail("macro '" + macro.name + "': the block <" + next_element->name + "> has no '*' parameter to go to");
    for (auto it = pending.begin(); it != pending.end();) {
      const MacroParam& p = **it;
      if (p.forward) {
        // xacro's symbols[name]: the caller's scopes, then its global names (pi, sin, ...)
        std::optional<Value> v = lookup_in_table(*resolved.scope.symbols, p.name);
        if (!v) v = global_name(p.name);
        if (v) {
          set_symbol(*inner.symbols, p.name, *v, false, node.origin);
          it = pending.erase(it);
          continue;
        }
        if (!p.default_text)
          fail("macro '" + macro.name + "': parameter '" + p.name + "' forwards (^) a property the caller does not have");
      }
      if (p.default_text) {
        set_symbol(*inner.symbols, p.name, evaluated_value(*p.default_text, resolved.scope), false, node.origin);
        it = pending.erase(it);
        continue;
      }
      ++it;
    }
    if (!pending.empty()) {
      std::string missing;
      for (const MacroParam* p : pending) missing += (missing.empty() ? "" : ", ") + p->name;
      fail("macro '" + macro.name + "' is called without " + (pending.size() == 1 ? "parameter " : "parameters ") +
           missing);
    }
    ++macro_depth_;
    push_frame("in macro '" + macro.name + "' called from " + where(node.origin), macro.name);
    const std::size_t body_start = out.children.size();
    expand_children(*macro.body, out, inner, depth + 1);
    pop_frame();
    // xacro drops the comments before the call once the body is evaluated, before the body
    // takes the call's place
    drop_previous_comments(out, place.list_start, body_start);
    append_barrier(out, new_barrier(place));
    --macro_depth_;
  }

  void insert_block(const XmlNode& node, XmlNode& out, const Scope& scope, int depth) {
    const std::string& name = required(node, "name");
    bool content_only = true;
    auto [entry, holder] = scope.symbols->find("**" + name);
    if (!entry) {
      std::tie(entry, holder) = scope.symbols->find("*" + name);
      content_only = false;
    }
    if (!entry || entry->kind != Table::Entry::Kind::block) {
      std::vector<std::string> names;
      for (Table* t = scope.symbols; t; t = t->parent)
        for (const auto& [k, e] : t->entries)
          if (e.kind == Table::Entry::Kind::block && k.find_first_not_of('*') != std::string::npos)
            names.push_back(k.substr(k.find_first_not_of('*')));
      fail("unknown block '" + name + "'" + did_you_mean_text(name, names));
    }
    const XmlNode* block = entry->block;
    if (content_only) expand_children(*block, out, scope, depth + 1);
    else expand_plain(*block, out, scope, depth + 1);
  }

  // -- includes

  std::vector<std::string> include_files(const std::string& spec) {
    const std::string path = relative_to_current(spec);
    if (path.find_first_of("*?[") == std::string::npos) return {path};
    const std::filesystem::path p(path);
    std::vector<std::string> matches;
    std::error_code ec;
    const auto dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const std::string leaf = entry.path().filename().string();
      if (fnmatch(p.filename().c_str(), leaf.c_str(), FNM_PERIOD) == 0) matches.push_back((dir / leaf).string());
    }
    std::sort(matches.begin(), matches.end());
    return matches;
  }

  void include(const XmlNode& node, XmlNode& out, const Scope& scope, int depth, const Place& place) {
    const std::size_t content_start = out.children.size();
    const std::string spec = evaluated(required(node, "filename"), scope);
    const std::string* ns_text = node.attribute("ns");
    const std::string* optional_text = node.attribute("optional");
    const bool optional = optional_text && boolean(evaluated_value(*optional_text, scope), *optional_text);
    Scope target = scope;
    if (ns_text) {
      const std::string ns = evaluated(*ns_text, scope);
      if (!is_identifier(ns)) fail("include namespace must be a Python identifier: '" + ns + "'");
      target.macros = new_macros(nullptr);
      scope.macros->namespaces[ns] = target.macros;
      target.symbols = new_table(scope.symbols, true);
      Table::Entry e;
      e.value = Value::scope(target.symbols);
      e.origin = node.origin;
      scope.symbols->entries[ns] = std::move(e);
    }
    if (static_cast<int>(file_stack_.size()) > limits_.include_depth)
      fail("includes nested deeper than " + std::to_string(limits_.include_depth) + " (a file including itself?)");
    // ROS's xacro takes an include's file name as a path, so a package:// URL (meshes' form,
    // which some descriptions copy here) names no file there either: say what it would read.
    if (const std::string_view scheme = "package://"; spec.rfind(scheme, 0) == 0 && !optional) {
      const std::size_t slash = spec.find('/', scheme.size());
      const std::string package = spec.substr(scheme.size(), slash - scheme.size());
      const std::string rest = slash == std::string::npos ? "" : spec.substr(slash);
      fail("cannot include '" + spec + "': an include names a file, not a package:// URL (ROS's xacro reads it as a "
           "path too); write '$(find " + package + ")" + rest + "'");
    }
    for (const std::string& path : include_files(spec)) {
      std::string text;
      try {
        require_regular_file(path);
        text = read_text_file(path);
      } catch (const IoError& e) {
        if (optional) continue;
        fail("cannot include '" + path + "': " + e.what());
      }
      const int file = add_file(path);
      const XmlNode* doc = parse(text, file);
      push_frame("included from " + where(node.origin));
      file_stack_.push_back(file);
      // The included root's namespace declarations move to the including element.
      for (const auto& [k, v] : doc->attributes)
        if (k.rfind("xmlns:", 0) == 0 && k != "xmlns:xacro" && !out.attribute(k)) out.set_attribute(k, v);
      expand_children(*doc, out, target, depth + 1);
      file_stack_.pop_back();
      pop_frame();
      current_ = node.origin;
    }
    drop_previous_comments(out, place.list_start, content_start);
    append_barrier(out, new_barrier(place));
  }

  const XacroOptions& options_;
  const XacroLimits& limits_;
  std::map<std::string, std::string> args_;
  std::vector<std::string> files_;
  std::vector<std::string> contexts_;
  std::vector<int> file_stack_;
  std::vector<Frame> frames_;
  std::vector<Diagnostic> messages_;  ///< xacro.message(), warning(), error(), in order
  std::size_t frame_generation_ = 0, context_generation_ = 0, context_cache_ = 0;
  int context_cached_id_ = 0;
  std::vector<std::unique_ptr<XmlNode>> documents_;
  std::vector<std::shared_ptr<XmlNode>> blocks_;
  std::deque<std::unique_ptr<Table>> tables_;
  std::deque<std::unique_ptr<MacroTable>> macro_tables_;
  std::unordered_map<std::string, std::shared_ptr<const Ast>> expression_cache_;
  std::unordered_map<std::string, Value> yaml_cache_;
  std::optional<PackageFinder> packages_;  ///< made at the first $(find)
  Table* scope_symbols_ = nullptr;
  Place place_;
  std::uint32_t live_barrier_ = 0, barrier_count_ = 0;
  Origin current_;
  std::size_t steps_ = 0, output_nodes_ = 0, output_bytes_ = 0, macro_depth_ = 0;
  int lazy_depth_ = 0;

};

// ---------------------------------------------------------------- YAML

namespace {

bool yaml_null(const std::string& s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

std::optional<bool> yaml_bool(const std::string& s) {
  static constexpr std::string_view yes[] = {"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "y", "Y"};
  static constexpr std::string_view no[] = {"no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "n", "N"};
  // PyYAML's safe_load (YAML 1.1) reads yes/no/on/off as booleans, but not y/n.
  for (auto w : yes)
    if (w == s && w.size() > 1) return true;
  for (auto w : no)
    if (w == s && w.size() > 1) return false;
  return std::nullopt;
}

std::optional<Value> yaml_number(std::string s) {
  // YAML 1.1 as PyYAML resolves it: ints with '_' separators, 0x hex, 0 octal; floats need a
  // '.' (1e3 is a string), .inf and .nan.
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf" || s == "+.Inf" || s == "+.INF") return Value::real(HUGE_VAL);
  if (s == "-.inf" || s == "-.Inf" || s == "-.INF") return Value::real(-HUGE_VAL);
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return Value::real(std::nan(""));
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  if (s.empty()) return std::nullopt;
  std::string body = s;
  bool negative = false;
  if (body[0] == '+' || body[0] == '-') {
    negative = body[0] == '-';
    body.erase(0, 1);
  }
  if (body.empty()) return std::nullopt;
  if (body.rfind("0x", 0) == 0 && body.size() > 2 && body.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos) {
    if (body.size() > 17) return std::nullopt;
    const auto v = static_cast<std::int64_t>(std::stoull(body.substr(2), nullptr, 16));
    return Value::integer(negative ? -v : v);
  }
  if (body.find_first_not_of("0123456789") == std::string::npos) {
    if (body.size() > 1 && body[0] == '0') {
      if (body.find_first_not_of("01234567") != std::string::npos || body.size() > 21) return std::nullopt;
      const auto v = static_cast<std::int64_t>(std::stoull(body, nullptr, 8));
      return Value::integer(negative ? -v : v);
    }
    const auto v = parse_python_int(s);
    if (v) return Value::integer(*v);
    return std::nullopt;
  }
  if (body.find('.') == std::string::npos) return std::nullopt;
  // [-+]?([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)?
  std::size_t k = 0;
  while (k < body.size() && std::isdigit(static_cast<unsigned char>(body[k]))) ++k;
  if (k >= body.size() || body[k] != '.') return std::nullopt;
  ++k;
  while (k < body.size() && std::isdigit(static_cast<unsigned char>(body[k]))) ++k;
  if (k < body.size()) {
    if (body[k] != 'e' && body[k] != 'E') return std::nullopt;
    ++k;
    if (k >= body.size() || (body[k] != '+' && body[k] != '-')) return std::nullopt;
    ++k;
    if (k >= body.size()) return std::nullopt;
    while (k < body.size() && std::isdigit(static_cast<unsigned char>(body[k]))) ++k;
    if (k != body.size()) return std::nullopt;
  }
  const auto d = parse_python_float(body == "." ? std::string("x") : body);
  if (!d) return std::nullopt;
  return Value::real(negative ? -*d : *d);
}

/// ROS 2's xacro's unit tags: the scalar is an expression, in radians. ROS 1's (noetic) also
/// has length units, which ROS 2's PyYAML loader refuses as unknown tags: refused here too.
std::optional<double> unit_factor(const std::string& tag) {
  if (tag == "!radians") return 1.0;
  if (tag == "!degrees") return std::numbers::pi / 180.0;
  return std::nullopt;
}

class UnitHost final : public ExpressionHost {
public:
  std::optional<Value> lookup(const std::string&) override { return std::nullopt; }
  std::optional<Value> lookup_in(const Table&, const std::string&) override { return std::nullopt; }
  std::string unknown_name_message(const std::string& name) override { return "unknown name '" + name + "' in a YAML unit value"; }
  Value load_yaml(const std::string&) override { throw EvalError{"load_yaml in a YAML unit value"}; }
  std::string arg(const std::string&) override { throw EvalError{"arg in a YAML unit value"}; }
  void report(Severity, const std::string&) override { throw EvalError{"a message in a YAML unit value"}; }
  std::string abs_filename(const std::string&) override { throw EvalError{"abs_filename in a YAML unit value"}; }
  void charge(std::size_t steps) override {
    steps_ += steps;
    if (steps_ > 100000) throw EvalError{"a YAML unit value too long to evaluate"};
  }
  std::size_t value_bytes_limit() const override { return 1u << 16; }

private:
  std::size_t steps_ = 0;
};

Value from_yaml(const detail::YamlNode& node, int depth) {
  if (depth > 200) throw EvalError{"YAML nested too deeply"};
  using Type = detail::YamlNode::Type;
  switch (node.type) {
    case Type::null:
    case Type::undefined: return Value::none();
    case Type::sequence: {
      List items;
      for (const auto& child : node.items) items.push_back(from_yaml(child, depth + 1));
      return Value::list(std::move(items));
    }
    case Type::map: {
      // As PyYAML, which ROS's xacro loads with, builds a dict: a key written twice keeps its
      // first place and takes its last value (franka_description's fr3 inertials.yaml writes
      // `inertia:` twice, empty then full). yaml-cpp keeps both entries.
      Dict d;
      for (const auto& [key, value] : node.entries) set_item(d, from_yaml(key, depth + 1), from_yaml(value, depth + 1));
      return Value::dictionary(std::move(d));
    }
    case Type::scalar: break;
  }
  const std::string& s = node.scalar;
  const std::string& tag = node.tag;
  if (const auto factor = unit_factor(tag)) {
    UnitHost host;
    const Value v = evaluate(*parse_expression(s), host);
    if (!v.is_number()) throw EvalError{"the YAML value " + tag + " " + s + " is not a number"};
    return Value::real(v.as_double() * *factor);
  }
  if (tag.size() > 1 && tag[0] == '!') {
    const bool ros1 = tag == "!meters" || tag == "!millimeters" || tag == "!foot" || tag == "!inches";
    throw EvalError{"could not determine a constructor for the tag '" + tag + "' (PyYAML, as ROS 2's xacro loads it)" +
                    (ros1 ? std::string("; it is a unit of ROS 1's xacro, ROS 2's has !radians and !degrees only") : "")};
  }
  if (tag == "!" || tag == "tag:yaml.org,2002:str") return Value::string(s);  // quoted: a string
  if (yaml_null(s)) return Value::none();
  if (const auto b = yaml_bool(s)) return Value::boolean(*b);
  if (auto n = yaml_number(s)) return *n;
  return Value::string(s);
}

}  // namespace

Value Processor::load_yaml(const std::string& file) {
  const std::string path = relative_to_current(file);
  // A copy each time, as xacro reads the file at each call: a list popped from one load is
  // whole in the next.
  if (auto it = yaml_cache_.find(path); it != yaml_cache_.end()) return deep_copy(it->second);
  std::string text;
  try {
    require_regular_file(path);
    text = read_text_file(path);
  } catch (const IoError& e) {
    throw EvalError{std::string("load_yaml: ") + e.what()};
  }
  if (std::find(files_.begin(), files_.end(), path) == files_.end()) files_.push_back(path);
  detail::YamlNode root;
  try {
    root = detail::load_yaml(text);
  } catch (const detail::YamlSyntaxError& e) {
    throw EvalError{"load_yaml: " + path + ":" + std::to_string(e.line) + ": malformed YAML: " + e.message};
  }
  Value v = from_yaml(root, 0);
  yaml_cache_.emplace(path, v);
  return deep_copy(v);
}

}  // namespace xacro

// ---------------------------------------------------------------- public API

XacroResult::XacroResult(std::string xml, std::vector<std::string> files, std::vector<std::string> contexts,
                         std::vector<LineOrigin> lines, std::vector<Diagnostic> messages)
    : xml_(std::move(xml)),
      files_(std::move(files)),
      contexts_(std::move(contexts)),
      lines_(std::move(lines)),
      messages_(std::move(messages)) {
  if (contexts_.empty()) contexts_.emplace_back();
}

SourceLocation XacroResult::origin(int line) const {
  if (line < 1 || static_cast<std::size_t>(line) > lines_.size())
    return {files_.empty() ? std::string() : files_.front(), 0};
  const LineOrigin& o = lines_[static_cast<std::size_t>(line - 1)];
  return {files_.at(static_cast<std::size_t>(o.file)), o.line};
}

const std::string& XacroResult::context(int line) const {
  if (line < 1 || static_cast<std::size_t>(line) > lines_.size()) return contexts_.front();
  return contexts_.at(static_cast<std::size_t>(lines_[static_cast<std::size_t>(line - 1)].context));
}

XacroResult expand_xacro_string(std::string_view text, const std::string& name, const XacroOptions& options) {
  xacro::Processor processor(options);
  try {
    return processor.run(text, name);
  } catch (const xacro::EvalError& e) {
    throw ParseError({name, 0}, e.message);
  } catch (const std::filesystem::filesystem_error& e) {
    throw IoError(name, e.what());
  }
}

XacroResult expand_xacro_file(const std::string& path, const XacroOptions& options) {
  return expand_xacro_string(read_text_file(path), display_name(path), options);
}

namespace {
/// True when `text` uses xacro (`<xacro:`, `${`, `$(`) outside XML comments. xacro leaves
/// comments as they are, and URDFs it wrote often keep commented-out `${...}` lines (Talos
/// does): such a file is plain URDF, and expanding it would only cost a third of a load.
bool uses_xacro_outside_comments(std::string_view text) {
  constexpr auto npos = std::string_view::npos;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t comment = text.find("<!--", at);
    const std::string_view part = text.substr(at, comment == npos ? npos : comment - at);
    if (part.find("<xacro:") != npos || part.find("${") != npos || part.find("$(") != npos) return true;
    if (comment == npos) return false;
    const std::size_t end = text.find("-->", comment + 4);
    if (end == npos) return false;  // an unterminated comment: the XML parser reports it
    at = end + 3;
  }
  return false;
}
}  // namespace

bool is_xacro(std::string_view name, std::string_view text) {
  if (name.size() >= 6 && name.substr(name.size() - 6) == ".xacro") return true;
  // Many URDFs written out by xacro keep the namespace declaration; only a text that also
  // uses xacro is expanded, so that a plain URDF reaches the loader as it is.
  if (text.find("xmlns:xacro") == std::string_view::npos) return false;
  return uses_xacro_outside_comments(text);
}

}  // namespace rmodel
