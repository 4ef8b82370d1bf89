#!/usr/bin/env python3
"""No function of lib/, apps/ or python/src over 120 lines without a reason beside it.

docs/CONTRIBUTING.md ("Rules") asks that functions stay short enough to read whole: a longer one
is split into named steps, or carries a comment saying why it is not, `// Long: <reason>` (or
`// Long (docs/CONTRIBUTING.md, "Rules"): <reason>`) in the comment right above it or on its
first line. This script finds the functions of the C++ sources (.cpp, .hpp, .h, .cc, .inl) and
fails on each one longer than that without such a comment.

The heuristic: comments, string and character literals and preprocessor lines are blanked out;
then every `{` outside a function is classed by the text before it (back to the `;`, `{` or `}`
that ended the declaration before): a function's body when that text ends as a signature does
(`)` and qualifiers such as const, noexcept, override, a trailing return type; or a
constructor's initializer list), a scope when it starts as a namespace, class, struct, union,
enum or extern "C" does, an initializer otherwise. A function runs from the first line of its
signature to its closing brace; the lambdas and local classes in it are part of it. The lines
wholly inside a raw string literal (a shell script or a document the code writes out) are text,
not code, and do not count.

  check_function_length.py --source-dir DIR   check the tree at DIR (exit 0 when it holds)
  check_function_length.py --self-test        show that a long function fails the check, and
                                              that a reason beside it, or a long table, passes
"""

import argparse
import os
import re
import sys
import tempfile

LIMIT = 120
TOPS = ("lib", "apps", "python/src")
ENDINGS = (".cpp", ".hpp", ".h", ".cc", ".inl")
# `// Long: <reason>`, or `// Long (docs/CONTRIBUTING.md, "Rules"): <reason>`, in any case.
REASON = re.compile(r"//\s*long\b[^:\n]*:\s*\S", re.I)

# The end of a function's signature: `)`, then qualifiers and a trailing return type.
QUALIFIERS = r"(?:\s|const\b|volatile\b|noexcept\b(?:\s*\([^()]*\))?|override\b|final\b|mutable\b|&|" \
             r"->[^;{}]*|\[\[[^\]]*\]\]|requires\b[^;{}]*)*"
SIGNATURE_END = re.compile(r"\)" + QUALIFIERS + r"$")
# A constructor's initializer list: `) [noexcept] : member(...), base{...}`.
INITIALIZER_LIST = re.compile(r"\)(?:\s|noexcept\b)*:(?!:)")
SCOPE = re.compile(r"^(?:template\s*<.*>\s*)?(?:\[\[[^\]]*\]\]\s*)?"
                   r"(?:namespace\b|extern\s*$|(?:typedef\s+)?(?:class|struct|union|enum)\b)", re.S)
RAW_STRING = re.compile(r'(?:u8|u|U|L)?R"([^()\\ ]{0,16})\(')
CONTROL = re.compile(r"^(?:if|for|while|switch|catch|do|else|try)\b")


def blank(text):
    """`text` with comments, literals and preprocessor lines replaced by spaces (newlines kept), and
    the numbers of the lines that lie wholly inside a raw string literal (text, not code)."""
    out = []
    text_only = set()
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":  # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        line_start = c == "\n"
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = c in "uULR" and RAW_STRING.match(text, i)
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + raw.group(1) + '"', raw.end())
            end = n if end < 0 else end + len(raw.group(1)) + 2
            first = text.count("\n", 0, i) + 1
            text_only.update(range(first + 1, first + text.count("\n", i, end)))
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c == "'" and is_digit_separator(text, i):
            out.append(" ")
            i += 1
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out), text_only


def is_digit_separator(text, i):
    """True when the quote at `i` separates the digits of a number (1'000'000)."""
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "'."):
        j -= 1
    return j < i and text[j].isdigit() and i + 1 < len(text) and text[i + 1].isalnum()


def functions(text):
    """(name, first line, last line, lines of code) of each function outside another one, 1-based."""
    code, text_only = blank(text)
    found = []
    stack = []  # per open brace: "function", "inner" (within one), "scope" or "init"
    head_start = 0  # where the text before the next brace begins
    function_start = None
    for i, c in enumerate(code):
        if c == ";" and (not stack or stack[-1] == "scope"):
            head_start = i + 1
        elif c == "{":
            if stack_has_function(stack):
                stack.append("inner")
                continue
            head = code[head_start:i]
            kind = classify(head.strip())
            if kind == "function":
                in_initializer = bool(stack) and stack[-1] == "init"
                start = head_start + start_in_head(head, in_initializer)
                function_start = ("a lambda" if in_initializer else name_of(head), code.count("\n", 0, start) + 1)
            elif kind == "scope":
                head_start = i + 1
            stack.append(kind)
        elif c == "}":
            kind = stack.pop() if stack else "scope"
            if kind == "function":
                first, last = function_start[1], code.count("\n", 0, i) + 1
                text_lines = sum(1 for k in range(first, last + 1) if k in text_only)
                found.append((function_start[0], first, last, last - first + 1 - text_lines))
                head_start = i + 1
            elif kind == "scope":
                head_start = i + 1
    return found


def start_in_head(head, lambda_only):
    """Offset in `head` of the function's first line: past access specifiers; for a lambda in an
    initializer, its introducer."""
    if lambda_only:
        introducers = list(re.finditer(r"\[[^\[\]]*\]\s*(?:\(|$)", head))
        if introducers:
            return introducers[-1].start()
        return len(head.rstrip())
    m = re.match(r"(?:\s|(?:public|protected|private)\s*:(?!:))*", head)
    return m.end()


def stack_has_function(stack):
    return bool(stack) and stack[-1] in ("function", "inner")


def classify(head):
    if not head or CONTROL.match(head):
        return "init"
    if SCOPE.match(head):
        return "scope"
    if SIGNATURE_END.search(head) or (INITIALIZER_LIST.search(head) and head.endswith(("}", ")"))):
        return "function" if "(" in head else "init"
    return "init"


def name_of(head):
    """The function's name in its signature, for the report."""
    m = re.search(r"((?:[\w~]+::)*(?:operator\s*[^\s(]+|[\w~]+))\s*\(", head)
    return m.group(1) if m else head.split("\n")[0][:40]


def has_reason(lines, first):
    """True when `// Long: <reason>` is on the function's first line or in the comment above it."""
    if REASON.search(lines[first - 1]):
        return True
    k = first - 2
    while k >= 0 and lines[k].lstrip().startswith(("//", "/*", "*")):
        if REASON.search(lines[k]):
            return True
        k -= 1
    return False


def source_files(root):
    for top in TOPS:
        for dirpath, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(ENDINGS):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def check_tree(root, limit=LIMIT):
    """(problems, longest functions seen) of the tree at `root`."""
    problems, lengths = [], []
    for rel in source_files(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.splitlines()
        for name, first, _, length in functions(text):
            lengths.append((length, f"{rel}:{first}", name, False))
            if length > limit:
                reasoned = has_reason(lines, first)
                lengths[-1] = (length, f"{rel}:{first}", name, reasoned)
                if not reasoned:
                    problems.append(f"{rel}:{first}: {name} has {length} lines, over {limit}, and no "
                                    f"`// Long: <reason>` comment above it: split it into named steps")
    return problems, sorted(lengths, reverse=True)


def run(root):
    problems, lengths = check_tree(root)
    print(f"{len(lengths)} functions; the longest:")
    for length, where, name, reasoned in lengths[:8]:
        print(f"  {length:4d}  {name}  ({where}){'  long: reason given' if reasoned else ''}")
    if problems:
        print(f"\n{len(problems)} problem(s):")
        for p in problems:
            print("  " + p)
        return 1
    print(f"\nno function over {LIMIT} lines without a reason beside it")
    return 0


def self_test():
    """Synthetic trees: a long function fails; a reason beside it, a long table or a long class pass."""
    failures = []
    body = "".join(f"  total += {k};  // '{{' \"}}\" {k}'000\n" for k in range(LIMIT))
    long_function = "int sum() {\n  int total = 0;\n" + body + "  return total;\n}\n"
    cases = [
        ("a long function", long_function, "sum has 124 lines"),
        ("a long member function defined in its class",
         "namespace n {\nclass C {\n public:\n  int sum() const noexcept {\n  int total = 0;\n" + body +
         "  return total;\n  }\n};\n}\n", "sum has 124 lines"),
        ("a long constructor with an initializer list",
         "C::C(int a)\n    : a_{a}, b_(a) {\n  int total = 0;\n" + body + "}\n", "C::C has 124 lines"),
        ("a long function with its reason above it", "// Sums.\n// Long: one line per term, a table.\n" +
         long_function, None),
        ("a long function, its reason on its first line", long_function.replace("{\n", "{  // Long: a table\n", 1),
         None),
        ("a long function whose comment gives no reason", "// Long:\n" + long_function, "sum has 124 lines"),
        ("a long function with its reason in the form of docs/CONTRIBUTING.md",
         '// Long (docs/CONTRIBUTING.md, "Rules"): the table of kinds, one entry per kind.\n' + long_function, None),
        ("a long function with a comment above it that gives no reason", "// Sums the terms.\n" + long_function,
         "sum has 124 lines"),
        ("a long lambda in a table (counted from its introducer)",
         "const F kTable[] = {\n  {1, nullptr},\n  {2, [](int x) {\n" + body + "  return x; }},\n};\n",
         "lib/src/a.cpp:3: a lambda has 122 lines"),
        ("a long table", "const int kTable[] = {\n" + "".join(f"  {k},\n" for k in range(200)) + "};\n", None),
        ("a long class of short functions",
         "struct S {\n" + "".join(f"  int f{k}() const {{ return {k}; }}\n" for k in range(200)) + "};\n", None),
        ("a short function with a long raw string", 'const char* f() {\n  return R"x(\n' + "}\n" * 200 +
         ')x";\n}\n' + "void g() {\n}\n", None),
        ("a function at the limit", "int sum() {\n" + "  ;\n" * (LIMIT - 2) + "}\n", None),
        ("a function one line over it", "int sum() {\n" + "  ;\n" * (LIMIT - 1) + "}\n", f"sum has {LIMIT + 1} lines"),
    ]
    for what, text, fails_with in cases:
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "lib", "src"))
            with open(os.path.join(tmp, "lib", "src", "a.cpp"), "w", encoding="utf-8") as f:
                f.write(text)
            problems, _ = check_tree(tmp)
            if fails_with is None and problems:
                failures.append(f"{what}: expected to pass, got {problems}")
            if fails_with is not None and not any(fails_with in p for p in problems):
                failures.append(f"{what}: expected a problem containing '{fails_with}', got {problems}")
    if failures:
        for f in failures:
            print("self-test: " + f)
        return 1
    print("self-test: a long function (free, member, constructor) fails the check; with a reason beside it, a "
          "long table, a long class of short functions and a long raw string pass")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    return run(os.path.abspath(args.source_dir))


if __name__ == "__main__":
    sys.exit(main())
